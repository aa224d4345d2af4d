//! Which calls must keep their caller's locals (language.md §5.2).
//!
//! Every activation of a `ram` program has its own locals
//! ([`super::Pointer::owner`]). Locals are registers of their program, so
//! only a run of that same program can change them: a call keeps its
//! caller's locals exactly when the callee may run the caller again
//! (recursion, directly or through others). Calls with arguments put every
//! register back anyway; [`Keeps`] tells, for a call without arguments,
//! whether it must put back the caller's locals. The reference interpreter
//! and the combinatorizer both ask it, so both keep the same calls.

use super::calls::calls_in_statement;
use super::reach::reached;
use super::{Body, DefId, Program, Stmt};

/// See the module documentation.
pub struct Keeps {
    /// For each definition with locals: which definitions may run it.
    runs_it: Vec<Option<Vec<bool>>>,
}

impl Keeps {
    pub fn of(program: &Program) -> Keeps {
        let mut has_locals = vec![false; program.defs.len()];
        for pointer in &program.pointers {
            if let Some(slot) = pointer.owner.and_then(|d| has_locals.get_mut(d)) {
                *slot = true;
            }
        }
        Keeps::among(program, &has_locals)
    }

    /// The relation for the callers `wanted` marks (the others keep
    /// nothing): which calls may run each of them again.
    pub fn among(program: &Program, wanted: &[bool]) -> Keeps {
        let n = program.defs.len();
        let has_locals = wanted;
        if !has_locals.contains(&true) {
            return Keeps {
                runs_it: Vec::new(),
            };
        }
        // Who calls whom, reversed.
        let mut callers: Vec<Vec<DefId>> = vec![Vec::new(); n];
        for (id, def) in program.defs.iter().enumerate() {
            if let Body::Normal(body) = &def.body {
                let mut found = Vec::new();
                callees(body, &mut found);
                for callee in found {
                    if let Some(list) = callers.get_mut(callee) {
                        list.push(id);
                    }
                }
            }
        }
        // `may_run[f]`: f may call `def`, directly or through others.
        let runs_it = (0..n)
            .map(|def| {
                let wanted = has_locals.get(def).copied().unwrap_or(false);
                wanted.then(|| reached(n, callers[def].iter().copied(), |d| callers[d].clone()))
            })
            .collect();
        Keeps { runs_it }
    }

    /// Whether a call without arguments from `caller` to `callee` must
    /// put back `caller`'s locals.
    pub fn keeps(&self, caller: DefId, callee: DefId) -> bool {
        let row = self.runs_it.get(caller).and_then(Option::as_ref);
        row.is_some_and(|may_run| callee == caller || may_run.get(callee) == Some(&true))
    }
}

/// Every definition `stmts` calls, of any kind.
fn callees(stmts: &[Stmt], found: &mut Vec<DefId>) {
    for stmt in stmts {
        let mut inside = Vec::new();
        calls_in_statement(stmt, false, &mut inside);
        found.extend(inside.iter().map(|call| call.def));
        match stmt {
            Stmt::Call(id, _) | Stmt::StateCall(id, _, _) => found.push(*id),
            Stmt::ParamCall(call) => found.push(call.def),
            Stmt::If {
                then, otherwise, ..
            } => {
                callees(then, found);
                callees(otherwise, found);
            }
            Stmt::While { body, .. } => callees(body, found),
            _ => {}
        }
    }
}

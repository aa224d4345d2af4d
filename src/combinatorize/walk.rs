//! Walks over the statements of normal programs that several steps of the
//! conversion share.

use crate::program::{DefId, Stmt};

/// Every call statement of a block, nested ones included.
pub fn calls(stmts: &[Stmt]) -> Vec<&Stmt> {
    let mut found = Vec::new();
    let mut todo: Vec<&[Stmt]> = vec![stmts];
    while let Some(block) = todo.pop() {
        for stmt in block {
            match stmt {
                Stmt::Call(..) | Stmt::StateCall(..) | Stmt::ParamCall(_) => found.push(stmt),
                Stmt::If {
                    then, otherwise, ..
                } => {
                    todo.push(then);
                    todo.push(otherwise);
                }
                Stmt::While { body, .. } => todo.push(body),
                Stmt::Act(_) | Stmt::Pass(_) | Stmt::Hole(..) | Stmt::Return { .. } => {}
            }
        }
    }
    found
}

/// The definition a call statement calls.
pub fn target(stmt: &Stmt) -> Option<DefId> {
    match stmt {
        Stmt::Call(id, _) | Stmt::StateCall(id, _, _) => Some(*id),
        Stmt::ParamCall(call) => Some(call.def),
        _ => None,
    }
}

/// Whether a statement is or holds a `return`.
pub fn returns(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Return { .. } => true,
        Stmt::If {
            then, otherwise, ..
        } => then.iter().chain(otherwise).any(returns),
        Stmt::While { body, .. } => body.iter().any(returns),
        _ => false,
    }
}

/// Replaces each statement of a block, nested ones included (inner blocks
/// first), by the statements `f` makes of it.
pub fn rewrite(stmts: &mut Vec<Stmt>, f: &mut dyn FnMut(Stmt) -> Vec<Stmt>) {
    for stmt in std::mem::take(stmts) {
        let mut stmt = stmt;
        match &mut stmt {
            Stmt::If {
                then, otherwise, ..
            } => {
                rewrite(then, f);
                rewrite(otherwise, f);
            }
            Stmt::While { body, .. } => rewrite(body, f),
            _ => {}
        }
        stmts.extend(f(stmt));
    }
}

//! Locals (language.md §5.2): which names are a program's own, and that
//! each is assigned before it is read.
//!
//! In a `ram` normal program, a name the file does not declare that the
//! program assigns (after [`super::sugar`]: `x = e`, a `for` variable, a
//! place of `a, b = ...`) is a *local*: a register of its own that belongs
//! to that program ([`crate::program::Pointer::owner`]); so is a parameter
//! with a new name. The engines keep each activation's locals apart (a
//! call of any kind puts the caller's back) and never report them.
//! [`Checker::check_assigned`] follows every path through a body and
//! reports (E0409) a read of a local that some path reaches before any
//! assignment, naming the branch or loop on that path.

use crate::diagnostic::{Diagnostic, codes};
use crate::program::{
    Act, ActArg, Body, BoolExpr, Cell, DefId, PointerId, PosExpr, PosKind, Stmt, reads,
};
use crate::span::Span;
use crate::syntax::{ast, visit};

use super::{Checker, PointerDecl};

impl Checker<'_> {
    /// Declares the locals of every normal program: each name it assigns
    /// that names nothing at file level, in the order of first assignment.
    pub(super) fn declare_locals(&mut self) {
        if !self.declared_memory {
            return;
        }
        let defs = self.defs.clone();
        for (id, def) in defs.iter().enumerate() {
            if let ast::DefBody::Normal(block) = &def.body {
                for name in &visit::assigned_names(block) {
                    let known = self.names.contains_key(name.name.as_str())
                        || self
                            .locals
                            .get(id)
                            .is_some_and(|l| l.contains_key(name.name.as_str()));
                    let hidden = crate::program::hidden::hidden(&name.name);
                    if !known && (hidden || !name.name.starts_with('_')) {
                        self.local(id, name);
                    }
                }
            }
        }
    }

    /// A new local `name` of definition `def`, starting at 0.
    pub(super) fn local(&mut self, def: DefId, name: &ast::Ident) -> PointerId {
        let id = self.pointers.len();
        self.pointers.push(PointerDecl {
            name: name.clone(),
            init_expr: None,
            init: Some(PosExpr {
                kind: PosKind::Int(0),
                span: name.span,
            }),
            owner: Some(def),
        });
        if let Some(locals) = self.locals.get_mut(def) {
            locals.insert(name.name.clone(), id);
        }
        id
    }

    /// `var L[e]` inside a program of an environment without declared
    /// memory (E0413); `ram` programs have theirs made by `arrays`.
    pub(super) fn local_array(&mut self, decl: &ast::DataDecl) -> Option<Stmt> {
        let diagnostic = Diagnostic::error(
            codes::E0413,
            format!(
                "`{}` would be a local array, and only `ram` programs have arrays",
                decl.name.name
            ),
        )
        .with_label(decl.span, "an array declared inside a program")
        .with_help("local arrays belong to `env ram()` programs, which declare their memory");
        self.report(diagnostic);
        None
    }

    /// Reports E0409 for each local read where some path has not assigned
    /// it yet (once per local).
    pub(super) fn check_assigned(&mut self, bodies: &[Option<Body>]) {
        let owners: Vec<Option<DefId>> = self.pointers.iter().map(|p| p.owner).collect();
        if owners.iter().all(Option::is_none) {
            return;
        }
        for (def, body) in bodies.iter().enumerate() {
            let Some(Body::Normal(stmts)) = body else {
                continue;
            };
            let mut flow = Flow {
                own: owners.iter().map(|o| *o == Some(def)).collect(),
                reported: vec![false; owners.len()],
                found: Vec::new(),
            };
            let mut state = State::entry(owners.len());
            for &p in self.params.get(def).into_iter().flatten() {
                state.assign(p);
            }
            flow.block(stmts, &mut state);
            for (p, read, lost) in flow.found {
                let name = self.pointers.get(p).map_or("?", |p| p.name.name.as_str());
                self.report(unassigned(name, read, lost));
            }
        }
    }
}

/// E0409 for the local `name` read at `read`, unassigned on a path
/// through `lost` (an `if` or a loop), if known.
fn unassigned(name: &str, read: Span, lost: Option<Lost>) -> Diagnostic {
    let mut diagnostic = Diagnostic::error(
        codes::E0409,
        format!("the local `{name}` may be read before it is assigned"),
    )
    .with_label(read, "read here");
    if let Some((span, why)) = lost {
        diagnostic = diagnostic.with_label(span, format!("`{name}` is not assigned {why}"));
    }
    diagnostic.with_help(format!(
        "assign `{name}` on every path before this read (for example, give it a first value \
         at the start of the program), or declare it at file level: `var {name} = 0`, or a \
         register on the `env` line"
    ))
}

/// Where a path skipped a local's assignment: the `if` or loop, and why.
type Lost = (Span, &'static str);

/// Which locals are assigned on every path to a point, and where a
/// merge lost each one.
#[derive(Clone)]
struct State {
    assigned: Vec<bool>,
    lost: Vec<Option<Lost>>,
    /// No path reaches this point (after a `return`).
    dead: bool,
}

impl State {
    fn entry(width: usize) -> State {
        State {
            assigned: vec![false; width],
            lost: vec![None; width],
            dead: false,
        }
    }

    fn assign(&mut self, p: PointerId) {
        if let Some(a) = self.assigned.get_mut(p) {
            *a = true;
        }
    }

    /// The state after two paths meet; `span` and `why` say where the
    /// second path came from when it lacks a local.
    fn meet(self, other: State, span: Span, why: &'static str) -> State {
        match (self.dead, other.dead) {
            (true, _) => other,
            (_, true) => self,
            _ => {
                let mut lost = self.lost;
                let assigned = (self.assigned.iter().zip(&other.assigned).enumerate())
                    .map(|(p, (&a, &b))| {
                        if a && !b {
                            lost[p] = other.lost[p].or(Some((span, why)));
                        }
                        a && b
                    })
                    .collect();
                State {
                    assigned,
                    lost,
                    dead: false,
                }
            }
        }
    }
}

/// The walk of one body.
struct Flow {
    /// Which pointers are this program's locals.
    own: Vec<bool>,
    reported: Vec<bool>,
    /// Each first read of an unassigned local, with where it was lost.
    found: Vec<(PointerId, Span, Option<Lost>)>,
}

impl Flow {
    fn block(&mut self, stmts: &[Stmt], state: &mut State) {
        for stmt in stmts {
            self.statement(stmt, state);
        }
    }

    fn statement(&mut self, stmt: &Stmt, state: &mut State) {
        match stmt {
            Stmt::Act(app) => self.act(&app.act, state),
            Stmt::Call(..) | Stmt::Pass(_) | Stmt::Hole(..) => {}
            Stmt::StateCall(_, args, _) => args.iter().for_each(|e| self.position(e, state)),
            Stmt::ParamCall(call) => call.args.iter().for_each(|e| self.position(e, state)),
            Stmt::If {
                condition,
                then,
                otherwise,
                span,
            } => {
                self.condition(condition, state);
                let mut yes = state.clone();
                self.block(then, &mut yes);
                let mut no = state.clone();
                self.block(otherwise, &mut no);
                let why = match otherwise.is_empty() {
                    true => "when this `if` is false",
                    false => "on one branch of this `if`",
                };
                *state = yes.meet(no, *span, why);
            }
            Stmt::While {
                condition,
                body,
                span,
            } => {
                self.condition(condition, state);
                let mut round = state.clone();
                self.block(body, &mut round);
                let skipped = state.clone();
                let ran = round.meet(skipped.clone(), *span, "when this loop does not run");
                *state = skipped.meet(ran, *span, "when this loop does not run");
            }
            Stmt::Return { value, .. } => {
                if let Some(value) = value {
                    self.position(value, state);
                }
                state.dead = true;
            }
        }
    }

    fn act(&mut self, act: &Act, state: &mut State) {
        match act {
            Act::Set(p, e) => {
                self.position(e, state);
                state.assign(*p);
            }
            Act::Move(p, _) => self.read(*p, Span::default(), state),
            _ => {
                for arg in act.args() {
                    match arg {
                        ActArg::Position(e) => self.position(&e, state),
                        ActArg::Place(cell) => self.cell(&cell, state),
                        ActArg::Pointer(p) => self.read(p, Span::default(), state),
                        _ => {}
                    }
                }
            }
        }
    }

    fn read(&mut self, p: PointerId, span: Span, state: &State) {
        let own = self.own.get(p) == Some(&true);
        if !own || state.dead || state.assigned.get(p) == Some(&true) {
            return;
        }
        if let Some(reported) = self.reported.get_mut(p).filter(|r| !**r) {
            *reported = true;
            let lost = state.lost.get(p).copied().flatten();
            self.found.push((p, span, lost));
        }
    }

    fn cell(&mut self, cell: &Cell, state: &State) {
        reads::cell(cell, &mut |p, span| self.read(p, span, state));
    }

    fn position(&mut self, e: &PosExpr, state: &State) {
        reads::position(e, &mut |p, span| self.read(p, span, state));
    }

    fn condition(&mut self, condition: &BoolExpr, state: &State) {
        reads::condition(condition, &mut |p, span| self.read(p, span, state));
    }
}

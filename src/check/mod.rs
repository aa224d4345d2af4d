//! The checker: parse tree to typed program.
//!
//! [`check`] reads the items of a file (the `env` line, `state(...)`, the
//! definitions), resolves every name against the file and the stdlib of its
//! environment, checks kinds, arities and condition types, rejects cycles
//! between appliers, picks the entry, and hands a [`Program`] to the
//! interpreters — or, when anything is wrong, only diagnostics. Each step
//! lives in its own file: `items` (declarations), `names` (resolution and
//! kind errors), `types` (conditions and positions), `acts` (ACT
//! applications), `appliers`, `normal` (normal programs), `params`
//! (parameters, `return` and calls for a value), `graph` (applier
//! cycles and endless recursion), `entry` (entry and reachability),
//! `suggest` (did you mean), `family` (which combinators a program may
//! define).

mod acts;
mod appliers;
mod arrays;
mod data;
mod entry;
pub mod family;
mod graph;
mod items;
mod locals;
mod names;
mod normal;
mod params;
mod shadow;
mod sharing;
mod sugar;
mod suggest;
mod types;

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::diagnostic::{Diagnostic, codes, has_errors};
use crate::program::{self, Data, DataId, DefId, PointerId, PosExpr, Program};
use crate::span::Span;
use crate::stdlib::{self, EnvLibrary, Stdlib};
use crate::syntax::ast;

pub use arrays::array_parameters;
use names::Meaning;

/// Checks a parsed file. `entry` is the `--entry` name, if one was given.
///
/// Returns `Some(program)` exactly when no error was found (warnings may
/// accompany it). `None` with no diagnostics happens only when the tree
/// holds error nodes the parser has already reported.
pub fn check(file: &ast::File, entry: Option<&str>) -> (Option<Program>, Vec<Diagnostic>) {
    let stdlib = match stdlib::load() {
        Ok(stdlib) => stdlib,
        Err(diagnostics) => return (None, diagnostics.to_vec()),
    };
    let mut sweetened = Vec::new();
    let memory = items::declares_memory(file);
    let specialized;
    let file = match memory {
        true => {
            specialized = arrays::specialize(&shadow::rename(file), &mut sweetened);
            &specialized
        }
        false => file,
    };
    let file = &sugar::desugar(file, memory, &mut sweetened);
    let mut checker = match Checker::declare(file, stdlib) {
        Ok(checker) => checker,
        Err(mut diagnostics) => {
            sweetened.append(&mut diagnostics);
            return (None, sweetened);
        }
    };
    sweetened.append(&mut checker.diagnostics);
    checker.diagnostics = sweetened;
    let bodies = checker.check_bodies();
    checker.check_assigned(&bodies);
    checker.check_returns(&bodies);
    checker.check_cycles();
    checker.check_endless(&bodies);
    let entry = checker.choose_entry(entry);
    if let Some(entry) = entry {
        checker.warn_unreachable(entry);
    }
    let (program, mut diagnostics) = checker.finish(bodies, entry);
    if let Some(program) = &program {
        diagnostics.extend(sharing::warnings(program));
    }
    (program, once_each(diagnostics))
}

/// The diagnostics with each said once: a program that takes arrays is
/// checked once per instance (see `arrays`), and would otherwise report
/// an error of its body once for each.
fn once_each(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut seen = std::collections::HashSet::new();
    diagnostics.retain(|d| {
        let at = d.labels.first().map(|label| label.span);
        seen.insert((d.code, d.message.clone(), at))
    });
    diagnostics
}

/// A reference from one definition to another, where it is written.
#[derive(Clone, Copy, Debug)]
struct Reference {
    from: DefId,
    to: DefId,
    span: Span,
}

/// A pointer of the `env` line: its name, its initial position as written
/// and as checked.
struct PointerDecl<'a> {
    name: ast::Ident,
    /// `None` for a register a parameter list introduces (it starts at 0).
    init_expr: Option<&'a ast::Expr>,
    init: Option<PosExpr>,
    /// The program whose local it is (language.md §5.2); `None` for a
    /// register of the `env` line.
    owner: Option<DefId>,
}

/// Every name visible in the file, by its text. Hashed with foldhash, not
/// SipHash: the map is filled with some 60 built-in names at every start,
/// and nothing iterates it.
type Names<'a> = HashMap<&'a str, Meaning, FixedState>;

/// The state of one check: what the items declare, the references found so
/// far, and the diagnostics.
struct Checker<'a> {
    stdlib: &'static Stdlib,
    env: &'static EnvLibrary,
    /// Every name visible in the file: built-ins, pointers, definitions.
    names: Names<'a>,
    pointers: Vec<PointerDecl<'a>>,
    /// Whether the environment has declared memory
    /// ([`Ability::DeclaredMemory`](crate::env::Ability), as `ram`).
    declared_memory: bool,
    /// The declared data (`input`, `var`, sizes), in order.
    data: Vec<Data>,
    /// The declarations behind `data`, for the second pass.
    data_decls: Vec<(&'a ast::DataDecl, DataId)>,
    /// While a scratch declaration is checked: the first data it may not
    /// read (itself and later variables).
    data_limit: DataId,
    /// The pointers of `state(...)` and where it is written.
    state: Option<(Vec<PointerId>, Span)>,
    defs: Vec<&'a ast::Def>,
    /// Each definition's parameters (same indices as `defs`).
    params: Vec<Vec<PointerId>>,
    /// Each definition's locals by name (same indices as `defs`): the
    /// names a `ram` program assigns that the file does not declare.
    locals: Vec<HashMap<String, PointerId>>,
    /// The calls made for their value (`x = F(y)`), by callee: each
    /// callee must return a value on every path.
    value_calls: Vec<(DefId, Span)>,
    /// True while a normal program's statements are checked: the only
    /// place a call may stand inside an expression.
    calls_allowed: bool,
    /// The program's own combinators (`Combinator::Defined(i)` is the i-th).
    defined: Vec<program::Defined>,
    refs: Vec<Reference>,
    /// The definition whose body is being checked.
    current: DefId,
    /// The `env` line: where file-wide errors point.
    env_span: Span,
    /// Set on meeting a parser error node: the tree is incomplete, so entry
    /// inference and reachability would report nonsense.
    incomplete: bool,
    /// How many more unknown names get a "did you mean".
    suggestions_left: usize,
    /// False while checking initial positions, which may not read pointers.
    pointers_allowed: bool,
    /// While a condition is checked: `_resume` may be read (by an
    /// applier's detector).
    in_condition: bool,
    /// True while checking a normal program's body, where holes may stand.
    in_normal: bool,
    /// The holes found in normal programs.
    blanks: Vec<program::Blank>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Checker<'a> {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn has_errors(&self) -> bool {
        has_errors(&self.diagnostics)
    }

    /// Whether whole-file conclusions (the entry, unused definitions) would
    /// be unreliable: an error was found or the tree has holes.
    fn is_doubtful(&self) -> bool {
        self.incomplete || self.has_errors()
    }

    /// Records a hole `?` of kind `kind` at `span`: its index in
    /// [`program::Program::blanks`]; `None` (after E1405) outside the body
    /// of a normal program.
    fn blank(&mut self, kind: program::BlankKind, span: Span) -> Option<usize> {
        if self.in_normal {
            let def = self.current;
            self.blanks.push(program::Blank { kind, span, def });
            return Some(self.blanks.len() - 1);
        }
        let diagnostic = Diagnostic::error(
            codes::E1405,
            "a hole `?` may stand only inside a normal program",
        )
        .with_label(span, "no hole here")
        .with_help(
            "leave out a condition, an expression or a statement of a `def NAME():` body, \
             or a whole applier as `def NAME: ?`",
        );
        self.report(diagnostic);
        None
    }

    fn is_applier(&self, id: DefId) -> bool {
        self.defs
            .get(id)
            .is_some_and(|def| matches!(def.body, ast::DefBody::Applier(_) | ast::DefBody::Hole(_)))
    }

    fn is_hole(&self, id: DefId) -> bool {
        self.defs
            .get(id)
            .is_some_and(|def| matches!(def.body, ast::DefBody::Hole(_)))
    }

    fn def_name(&self, id: DefId) -> &'a str {
        self.defs.get(id).map_or("?", |def| def.name.name.as_str())
    }

    /// Records that the current definition refers to `to` at `span`.
    fn refer(&mut self, to: DefId, span: Span) {
        let from = self.current;
        self.refs.push(Reference { from, to, span });
    }

    /// Checks every definition's body, in order.
    fn check_bodies(&mut self) -> Vec<Option<program::Body>> {
        let defs = self.defs.clone();
        defs.iter()
            .enumerate()
            .map(|(id, def)| {
                self.current = id;
                match &def.body {
                    ast::DefBody::Applier(applier) => {
                        self.applier(applier).map(program::Body::Applier)
                    }
                    ast::DefBody::Normal(block) => {
                        self.in_normal = true;
                        self.calls_allowed = true;
                        let body = self.block(block);
                        self.calls_allowed = false;
                        self.in_normal = false;
                        body.map(program::Body::Normal)
                    }
                    ast::DefBody::Hole(hole) => self.hole(hole).map(program::Body::Hole),
                }
            })
            .collect()
    }

    /// Assembles the program when nothing went wrong.
    fn finish(
        self,
        bodies: Vec<Option<program::Body>>,
        entry: Option<DefId>,
    ) -> (Option<Program>, Vec<Diagnostic>) {
        if self.has_errors() {
            return (None, self.diagnostics);
        }
        let pointers = self
            .pointers
            .into_iter()
            .map(|p| {
                Some(program::Pointer {
                    name: p.name.name.clone(),
                    init: p.init?,
                    span: p.name.span,
                    owner: p.owner,
                })
            })
            .collect::<Option<Vec<_>>>();
        let defs = self
            .defs
            .iter()
            .zip(bodies)
            .zip(self.params)
            .map(|((def, body), params)| {
                Some(program::Def {
                    name: def.name.name.clone(),
                    span: def.name.span,
                    params,
                    body: body?,
                })
            })
            .collect::<Option<Vec<_>>>();
        let program = match (pointers, defs, entry) {
            (Some(pointers), Some(defs), Some(entry)) => Some(Program {
                env: self.env.kind,
                pointers,
                data: self.data,
                state: self.state.map(|(pointers, _)| pointers),
                defs,
                combinators: program::Combinators {
                    defined: self.defined,
                    ..self.stdlib.combinators.clone()
                },
                entry,
                blanks: self.blanks,
            }),
            _ => None,
        };
        (program, self.diagnostics)
    }
}

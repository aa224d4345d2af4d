//! The items of a file: the `env` line, its pointers, `state(...)` and the
//! definitions.
//!
//! Builds the checker's name table (built-ins of the environment, pointers,
//! definitions, each name once) and checks the rules that concern items
//! alone: one `env` line, first; a known environment; unique names that do
//! not take a built-in's or start with `_`; initial positions without
//! pointers; a single, valid `state(...)`; no `act` or `observe` items;
//! the program's own combinators inside the family (`family`).

use std::collections::HashMap;

use foldhash::fast::FixedState;

use crate::diagnostic::{Code, Diagnostic, codes};
use crate::env::{self, Ability};
use crate::program::{Behaviour, Combinator, Defined, EnvKind, FrameAct};
use crate::span::{SourceId, Span};
use crate::stdlib::Stdlib;
use crate::syntax::ast::{self, Item};

use super::family;
use super::names::{Expect, Meaning, RESERVED, WORDS, reserved};
use super::suggest::{closest, listing};
use super::{Checker, Names, PointerDecl};

impl<'a> Checker<'a> {
    /// Reads the items of `file`. Fails, with its diagnostics, when there is
    /// no usable `env` line: without an environment no name can be resolved.
    pub(super) fn declare(
        file: &'a ast::File,
        stdlib: &'static Stdlib,
    ) -> Result<Checker<'a>, Vec<Diagnostic>> {
        let mut diagnostics = Vec::new();
        let Some(env) = find_env(file, &mut diagnostics) else {
            return Err(diagnostics);
        };
        let Some(kind) = EnvKind::from_name(&env.kind.name) else {
            diagnostics.push(unknown_env(&env.kind));
            return Err(diagnostics);
        };
        let library = stdlib.env(kind).map_err(<[Diagnostic]>::to_vec)?;
        let mut names = Names::with_capacity_and_hasher(64, FixedState::default());
        names.extend(WORDS);
        names.extend(RESERVED.map(|name| (name, Meaning::Reserved)));
        names.insert("_push", Meaning::Push);
        for op in FrameAct::ALL {
            names.insert(op.name(), Meaning::Frame(op));
        }
        names.insert("_resume", Meaning::Resume);
        for info in &stdlib.user_combinators {
            names.insert(&info.name, Meaning::Combinator(info.combinator));
        }
        for act in &library.acts {
            names.insert(act.name, Meaning::Act);
        }
        for observation in &library.observations {
            names.insert(observation.name, Meaning::Observation);
        }
        let mut checker = Checker {
            stdlib,
            env: library,
            names,
            pointers: Vec::new(),
            declared_memory: env::environment(kind).has(Ability::DeclaredMemory),
            data: Vec::new(),
            data_decls: Vec::new(),
            data_limit: usize::MAX,
            state: None,
            defs: Vec::new(),
            params: Vec::new(),
            locals: Vec::new(),
            value_calls: Vec::new(),
            calls_allowed: false,
            defined: Vec::new(),
            refs: Vec::new(),
            current: 0,
            env_span: env.span,
            incomplete: false,
            suggestions_left: 50,
            pointers_allowed: true,
            in_condition: false,
            in_normal: false,
            blanks: Vec::new(),
            diagnostics,
        };
        // Data first: registers' initial values may read it.
        for item in &file.items {
            if let Item::Data(decl) = item {
                checker.declare_data(decl);
            }
        }
        checker.declare_pointers(env);
        for item in &file.items {
            match item {
                Item::Env(_) | Item::Data(_) => {}
                Item::State(state) => checker.declare_state(state),
                Item::Def(def) => checker.declare_def(def),
                Item::Combinator(decl) => checker.declare_combinator(decl),
                Item::Act(ast::ActDecl { span, .. })
                | Item::Observe(ast::ObserveDecl { span, .. }) => {
                    checker.report(stdlib_only(*span));
                }
            }
        }
        checker.declare_locals();
        checker.check_data();
        Ok(checker)
    }

    /// Gives `name` the meaning `meaning`, reporting a reserved name, a
    /// built-in's name, or (with `code`: E0104 for pointers, E0108 for
    /// definitions) a name declared twice. A name taken from the language
    /// still gets its new meaning, so that its uses raise no more errors;
    /// a second declaration does not. Returns whether it was given.
    pub(super) fn register(&mut self, name: &'a ast::Ident, code: Code, meaning: Meaning) -> bool {
        self.register_name(&name.name, name.span, code, meaning)
    }

    /// [`Checker::register`] for a name written at `span`.
    pub(super) fn register_name(
        &mut self,
        name: &'a str,
        span: Span,
        code: Code,
        meaning: Meaning,
    ) -> bool {
        let first = match self.names.get(name) {
            Some(Meaning::Pointer(id)) => self
                .pointers
                .get(*id)
                .map(|p| (p.name.span, "first declared here, as a pointer")),
            Some(Meaning::Def { id, .. }) => self
                .defs
                .get(*id)
                .map(|d| (d.name.span, "first defined here")),
            Some(Meaning::Combinator(Combinator::Defined(i))) => self
                .defined
                .get(*i)
                .map(|d| (d.span, "first defined here, as a combinator")),
            Some(Meaning::Data(id)) => self.data.get(*id).map(|d| (d.span, "first declared here")),
            _ => None,
        };
        if let Some((first, label)) = first {
            let what = if matches!(meaning, Meaning::Pointer(_)) {
                "the pointer "
            } else {
                ""
            };
            self.report(redefined(code, what, name, span, first, label));
            return false;
        }
        let hidden = matches!(meaning, Meaning::Pointer(_) | Meaning::Data(_))
            && crate::program::hidden::hidden(name);
        if name.starts_with('_') && !hidden {
            self.report(reserved(name, span));
        } else if let Some(builtin) = self.names.get(name)
            && !self.hides_a_direction(builtin, &meaning)
        {
            let owner = match builtin {
                Meaning::Act | Meaning::Observation => {
                    format!(" of the `{}` environment", self.env.kind.name())
                }
                _ => String::new(),
            };
            let diagnostic = Diagnostic::error(
                codes::E0110,
                format!("`{name}` is already {}{owner}", builtin.describe()),
            )
            .with_label(span, "this name is taken by the language")
            .with_help("choose another name");
            self.report(diagnostic);
        }
        self.names.insert(name, meaning);
        true
    }

    /// Whether a new declaration `meaning` may take a word's name: in
    /// `ram`, a normal program named `LEFT` or `RIGHT` (CLRS 6.1's
    /// `LEFT(i)` and `RIGHT(i)` of a heap) hides the direction in its
    /// file, whose `MOVE` then cannot name it.
    fn hides_a_direction(&self, builtin: &Meaning, meaning: &Meaning) -> bool {
        self.declared_memory
            && matches!(builtin, Meaning::Direction(_))
            && matches!(meaning, Meaning::Def { applier: false, .. })
    }

    fn declare_pointers(&mut self, env: &'a ast::EnvDecl) {
        for pointer in &env.pointers {
            let id = self.pointers.len();
            if self.register(&pointer.name, codes::E0104, Meaning::Pointer(id)) {
                let decl = PointerDecl {
                    name: pointer.name.clone(),
                    init_expr: Some(&pointer.init),
                    init: None,
                    owner: None,
                };
                self.pointers.push(decl);
            }
        }
        // Initial positions are checked once every pointer is known, so
        // that naming one is reported as what it is.
        self.pointers_allowed = false;
        for id in 0..self.pointers.len() {
            let Some(expr) = self.pointers.get(id).and_then(|p| p.init_expr) else {
                continue;
            };
            let init = self.position(expr);
            if let Some(decl) = self.pointers.get_mut(id) {
                decl.init = init;
            }
        }
        self.pointers_allowed = true;
    }

    fn declare_state(&mut self, state: &ast::StateDecl) {
        if let Some((_, first)) = self.state {
            let diagnostic = Diagnostic::error(codes::E0106, "a file has at most one `state(...)`")
                .with_label(state.span, "second `state(...)`")
                .with_label(first, "first declared here")
                .with_help("list every state pointer in one declaration");
            self.report(diagnostic);
            return;
        }
        if state.pointers.is_empty() {
            let diagnostic = Diagnostic::error(codes::E0106, "`state()` names no pointer")
                .with_label(state.span, "empty state")
                .with_help("list the pointers a recursive call gets, as in `state(lo, hi)`");
            self.report(diagnostic);
        }
        let mut pointers = Vec::new();
        for name in &state.pointers {
            match self.lookup(&name.name, name.span, Expect::Pointer) {
                Some(Meaning::Pointer(id)) if pointers.contains(&id) => {
                    let diagnostic = Diagnostic::error(
                        codes::E0106,
                        format!("`{}` is listed twice in `state(...)`", name.name),
                    )
                    .with_label(name.span, "listed again here");
                    self.report(diagnostic);
                }
                Some(Meaning::Pointer(id)) => pointers.push(id),
                Some(other) => self.wrong_kind(&name.name, name.span, other, Expect::Pointer),
                None => {}
            }
        }
        self.state = Some((pointers, state.span));
    }

    fn declare_def(&mut self, def: &'a ast::Def) {
        let id = self.defs.len();
        // Every definition is checked, even a rejected one, for its errors.
        self.defs.push(def);
        let applier = matches!(def.body, ast::DefBody::Applier(_) | ast::DefBody::Hole(_));
        self.register(&def.name, codes::E0108, Meaning::Def { id, applier });
        self.locals.push(HashMap::new());
        let params = self.declare_params(def);
        self.params.push(params);
    }

    /// A combinator of the program's own: its name, and its body against
    /// the family rule (E0111).
    fn declare_combinator(&mut self, decl: &'a ast::CombinatorDecl) {
        let id = self.defined.len();
        let meaning = Meaning::Combinator(Combinator::Defined(id));
        if !self.register(&decl.name, codes::E0108, meaning) {
            return;
        }
        match family::recognize(decl) {
            Ok((behaviour, reads_c)) => self.defined.push(Defined {
                name: decl.name.name.clone(),
                span: decl.name.span,
                behaviour,
                reads_c,
            }),
            Err(violation) => {
                self.report(violation.diagnostic(&decl.name.name));
                // Keep the name, so that its applications raise no more
                // errors: one that branches takes a detector, as written.
                let reads_c = matches!(decl.body.as_slice(), [ast::Stmt::If { .. }]);
                self.defined.push(Defined {
                    name: decl.name.name.clone(),
                    span: decl.name.span,
                    behaviour: Behaviour {
                        when_true: Vec::new(),
                        when_false: Vec::new(),
                    },
                    reads_c,
                });
            }
        }
    }
}

/// The first `env` line, reporting missing, misplaced and repeated ones.
fn find_env<'a>(
    file: &'a ast::File,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'a ast::EnvDecl> {
    let mut envs = file.items.iter().filter_map(|item| match item {
        Item::Env(env) => Some(env),
        _ => None,
    });
    let Some(env) = envs.next() else {
        let start = file.items.first().map_or(0, |item| item.span().start);
        let source = file
            .items
            .first()
            .map_or(SourceId::USER, |item| item.span().source);
        diagnostics.push(
            Diagnostic::error(codes::E0102, "missing `env` line")
                .with_label(
                    Span::new(source, start, start),
                    "expected `env KIND(...)` here",
                )
                .with_help(
                    "start the file with its environment and pointers, as in `env array(P1 = 0)`",
                ),
        );
        return None;
    };
    if !matches!(file.items.first(), Some(Item::Env(_))) {
        diagnostics.push(
            Diagnostic::error(codes::E0102, "the `env` line must be the first item")
                .with_label(env.span, "declared after other items")
                .with_help("move it to the top of the file"),
        );
    }
    for other in envs {
        diagnostics.push(
            Diagnostic::error(codes::E0102, "a file has exactly one `env` line")
                .with_label(other.span, "second `env` line")
                .with_label(env.span, "first declared here")
                .with_help("declare every pointer in the first `env` line"),
        );
    }
    Some(env)
}

fn unknown_env(kind: &ast::Ident) -> Diagnostic {
    let names: Vec<String> = env::kinds().map(|k| format!("`{}`", k.name())).collect();
    let diagnostic =
        Diagnostic::error(codes::E0103, format!("unknown environment `{}`", kind.name))
            .with_label(kind.span, "not an environment");
    match closest(&kind.name, env::kinds().map(|k| (k.name(), true))) {
        Some(name) => diagnostic.with_suggestion(kind.span, name),
        None => diagnostic.with_help(format!("the environments are {}", listing(&names))),
    }
}

/// E0104 or E0108: `name` was declared before, at `first`.
fn redefined(
    code: Code,
    what: &str,
    name: &str,
    span: Span,
    first: Span,
    first_label: &str,
) -> Diagnostic {
    let message = if code == codes::E0104 {
        format!("{what}`{name}` is declared twice")
    } else {
        format!("`{name}` is defined twice")
    };
    Diagnostic::error(code, message)
        .with_label(span, "declared again here")
        .with_label(first, first_label)
        .with_help("rename one of them")
}

fn stdlib_only(span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0107,
        "this item may only appear in the standard library",
    )
    .with_label(
        span,
        "`act` and `observe` declare what the environment implements",
    )
    .with_help("a program uses `def`; the ACTs it may apply come with its environment")
}

/// Whether the file's environment (its first `env` line's) has declared
/// memory, where the procedures of language.md §5.2 are written.
pub(super) fn declares_memory(file: &ast::File) -> bool {
    let kind = file.items.iter().find_map(|item| match item {
        Item::Env(env) => EnvKind::from_name(&env.kind.name),
        _ => None,
    });
    kind.is_some_and(|kind| env::environment(kind).has(Ability::DeclaredMemory))
}

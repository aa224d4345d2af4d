//! The standard library: the `stdlib/*.cnpi` files, read as source.
//!
//! `stdlib/core.cnpi` defines the combinators as bodies of slot calls; the
//! loader turns them into [`Combinators`] (one `Behaviour` each) plus what
//! the checker must know to apply them (whether they take a detector, whether
//! they need a `state(...)`). The environment files declare each
//! environment's ACTs and observations; the loader turns them into an
//! [`EnvLibrary`] per [`EnvKind`], built from the Rust implementations
//! (`Act::build`, `ObservationKind::from_name`). The checker reads the
//! loaded [`Stdlib`], and the diagnostic renderer reads [`files`] to show
//! stdlib spans. A file that fails to load is a bug in cnpi: it becomes an
//! internal-error diagnostic, never a panic.

use std::sync::OnceLock;

mod combinators;
mod envs;

/// Test helpers shared by the loaders' unit tests.
#[cfg(test)]
mod testing {
    use crate::diagnostic::{Diagnostic, codes};
    use crate::span::SourceId;
    use crate::syntax::ast;

    /// Parses stdlib text that must be free of syntax errors.
    pub fn parse(text: &str, id: SourceId) -> ast::File {
        let (file, diagnostics) = crate::syntax::parse(text, id);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        file
    }

    /// The message of the internal error a broken stdlib must give.
    pub fn internal_error<T>(result: Result<T, Diagnostic>) -> String {
        match result {
            Ok(_) => panic!("loads, but should not"),
            Err(diagnostic) => {
                assert_eq!(diagnostic.code, codes::E0100);
                diagnostic.message
            }
        }
    }
}

use crate::diagnostic::{Diagnostic, codes, has_errors};
use crate::env::EnvKind;
use crate::program::{Combinator, Combinators, ObservationKind, ParamType};
use crate::span::{SourceId, Span};
use crate::syntax::ast;

/// One embedded stdlib source file.
#[derive(Clone, Copy, Debug)]
pub struct StdlibFile {
    /// The name diagnostics show, such as `stdlib/core.cnpi`.
    pub name: &'static str,
    pub text: &'static str,
    pub id: SourceId,
}

const CORE: StdlibFile = StdlibFile {
    name: "stdlib/core.cnpi",
    text: include_str!("../stdlib/core.cnpi"),
    id: SourceId(1),
};
const ARRAY: StdlibFile = StdlibFile {
    name: "stdlib/array.cnpi",
    text: include_str!("../stdlib/array.cnpi"),
    id: SourceId(2),
};
const GRAPH: StdlibFile = StdlibFile {
    name: "stdlib/graph.cnpi",
    text: include_str!("../stdlib/graph.cnpi"),
    id: SourceId(3),
};
const ADDITION: StdlibFile = StdlibFile {
    name: "stdlib/addition.cnpi",
    text: include_str!("../stdlib/addition.cnpi"),
    id: SourceId(4),
};
const FILES: [StdlibFile; 4] = [CORE, ARRAY, GRAPH, ADDITION];

/// Every stdlib file, for rendering spans that point into them.
pub fn files() -> &'static [StdlibFile] {
    &FILES
}

/// The loaded standard library.
#[derive(Clone, Debug)]
pub struct Stdlib {
    /// The slot sequences of the five combinators.
    pub combinators: Combinators,
    /// The four combinators programs may apply, in the order of core.cnpi.
    pub user_combinators: Vec<CombinatorInfo>,
    array: EnvLibrary,
    graph: EnvLibrary,
    addition: EnvLibrary,
}

/// What the checker needs to know to apply a user-visible combinator.
#[derive(Clone, Debug)]
pub struct CombinatorInfo {
    pub name: String,
    pub combinator: Combinator,
    /// Its body reads `c`, so an applier must pass a detector.
    pub needs_detector: bool,
    /// Its body uses the state stack, so the file needs `state(...)`.
    pub needs_state: bool,
}

/// The ACTs and observations one environment declares.
#[derive(Clone, Debug)]
pub struct EnvLibrary {
    pub kind: EnvKind,
    /// In declaration order; overloads share a name.
    pub acts: Vec<ActSignature>,
    pub observations: Vec<ObservationSignature>,
}

/// `act NAME(TYPE, ...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActSignature {
    pub name: String,
    pub params: Vec<ParamType>,
}

/// `observe NAME[position] -> TYPE` or `observe NAME(position) -> TYPE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObservationSignature {
    pub name: String,
    /// Read with brackets (`A[i]`) rather than parentheses (`color(v)`).
    pub indexed: bool,
    pub kind: ObservationKind,
}

impl Stdlib {
    pub fn env(&self, kind: EnvKind) -> &EnvLibrary {
        match kind {
            EnvKind::Array => &self.array,
            EnvKind::Graph => &self.graph,
            EnvKind::Addition => &self.addition,
        }
    }

    /// The user-visible combinator called `name`.
    pub fn combinator(&self, name: &str) -> Option<&CombinatorInfo> {
        self.user_combinators.iter().find(|c| c.name == name)
    }
}

impl EnvLibrary {
    /// Every declaration of the ACT `name` (several for an overloaded ACT).
    pub fn overloads<'s>(&'s self, name: &str) -> impl Iterator<Item = &'s ActSignature> {
        self.acts.iter().filter(move |a| a.name == name)
    }

    pub fn observation(&self, name: &str) -> Option<&ObservationSignature> {
        self.observations.iter().find(|o| o.name == name)
    }
}

impl ActSignature {
    /// How the ACT is written with its parameter types: `MOVE(pointer, direction)`.
    pub fn display(&self) -> String {
        if self.params.is_empty() {
            return self.name.clone();
        }
        let params: Vec<&str> = self.params.iter().map(|p| param_name(*p)).collect();
        format!("{}({})", self.name, params.join(", "))
    }
}

/// The spelling of a parameter type in stdlib declarations.
pub fn param_name(param: ParamType) -> &'static str {
    match param {
        ParamType::Pointer => "pointer",
        ParamType::Position => "position",
        ParamType::Direction => "direction",
        ParamType::Color => "color",
        ParamType::Ok => "OK",
    }
}

/// The standard library, parsed and interpreted once per process.
pub fn load() -> Result<&'static Stdlib, &'static [Diagnostic]> {
    static STDLIB: OnceLock<Result<Stdlib, Vec<Diagnostic>>> = OnceLock::new();
    match STDLIB.get_or_init(load_uncached) {
        Ok(stdlib) => Ok(stdlib),
        Err(diagnostics) => Err(diagnostics),
    }
}

fn load_uncached() -> Result<Stdlib, Vec<Diagnostic>> {
    let (combinators, user_combinators) =
        combinators::load_core(&parse(&CORE)?).map_err(|d| vec![d])?;
    let env = |file: &StdlibFile, kind: EnvKind| -> Result<EnvLibrary, Vec<Diagnostic>> {
        envs::load_env(&parse(file)?, kind, file).map_err(|d| vec![d])
    };
    Ok(Stdlib {
        combinators,
        user_combinators,
        array: env(&ARRAY, EnvKind::Array)?,
        graph: env(&GRAPH, EnvKind::Graph)?,
        addition: env(&ADDITION, EnvKind::Addition)?,
    })
}

/// An internal-error diagnostic: the stdlib and the Rust side disagree.
fn internal(span: Span, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(codes::E0100, format!("internal error: {message}"))
        .with_label(span, "in the standard library")
        .with_note("this is a bug in cnpi, not in your program; please report it")
}

fn file_start(file: &StdlibFile) -> Span {
    Span::new(file.id, 0, 0)
}

fn parse(file: &StdlibFile) -> Result<ast::File, Vec<Diagnostic>> {
    let (tree, mut diagnostics) = crate::syntax::parse(file.text, file.id);
    if has_errors(&diagnostics) {
        let message = format!("`{}` does not parse", file.name);
        diagnostics.insert(0, internal(file_start(file), message));
        return Err(diagnostics);
    }
    Ok(tree)
}

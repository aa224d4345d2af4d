//! The standard library: the `stdlib/*.cnpi` files, read as source.
//!
//! `stdlib/core.cnpi` defines the combinators as bodies of slot calls; the
//! loader turns them into [`Combinators`] (one `Behaviour` each) plus what
//! the checker must know to apply them (whether they take a detector, whether
//! they need a `state(...)`). Each registered environment
//! (`env::ENVIRONMENTS`) brings its own file, which declares its ACTs and
//! observations; the loader checks every declaration against the
//! environment's Rust side and turns the file into an [`EnvLibrary`]. The
//! checker reads the
//! loaded [`Stdlib`], and the diagnostic renderer reads [`files`] to show
//! stdlib spans. A file that fails to load is a bug in cnpi: it becomes an
//! internal-error diagnostic, never a panic.

use std::sync::OnceLock;

mod combinators;
mod envs;
mod kept;
pub(crate) use combinators::{NoShape, Shape, shape};
pub mod full_set;

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
use crate::env::{self, ENVIRONMENTS};
use crate::program::{ActDecl, Combinator, Combinators, EnvKind, Observation};
use crate::span::{SourceId, Span};
use crate::syntax::ast;

/// One embedded stdlib source file.
#[derive(Clone, Debug)]
pub struct StdlibFile {
    /// The name diagnostics show, such as `stdlib/core.cnpi`.
    pub name: String,
    pub text: &'static str,
    pub id: SourceId,
}

/// The text of `stdlib/core.cnpi`, built in.
const CORE_TEXT: &str = include_str!("../../stdlib/core.cnpi");

/// Every stdlib file, for rendering spans that point into them:
/// `stdlib/core.cnpi` (source 1), then each environment's file in registry
/// order (sources 2, 3, ...), and last `stdlib/full_set.cnpi`, the
/// learnable family of [`full_set`].
pub fn files() -> &'static [StdlibFile] {
    static FILES: OnceLock<Vec<StdlibFile>> = OnceLock::new();
    FILES.get_or_init(|| {
        let core = StdlibFile {
            name: "stdlib/core.cnpi".into(),
            text: CORE_TEXT,
            id: SourceId(1),
        };
        let envs = ENVIRONMENTS.iter().zip(2..).map(|(env, id)| StdlibFile {
            name: format!("stdlib/{}.cnpi", env.name),
            text: env.stdlib,
            id: SourceId(id),
        });
        let full_set = StdlibFile {
            name: "stdlib/full_set.cnpi".into(),
            text: include_str!("../../stdlib/full_set.cnpi"),
            id: SourceId(2 + ENVIRONMENTS.len() as u16),
        };
        std::iter::once(core)
            .chain(envs)
            .chain(std::iter::once(full_set))
            .collect()
    })
}

/// `stdlib/full_set.cnpi`, the last of [`files`].
fn full_set_file() -> &'static StdlibFile {
    files().last().expect("files() ends with full_set.cnpi")
}

/// `stdlib/core.cnpi`, the first of [`files`].
fn core_file() -> &'static StdlibFile {
    &files()[0]
}

/// The loaded standard library.
#[derive(Clone, Debug)]
pub struct Stdlib {
    /// The slot sequences of the five combinators.
    pub combinators: Combinators,
    /// The four combinators programs may apply, in the order of core.cnpi.
    pub user_combinators: Vec<CombinatorInfo>,
    /// One per registered environment, in registry order, each made when
    /// its environment is first asked for ([`Stdlib::env`]): a program
    /// runs in one of them.
    envs: Vec<OnceLock<Result<EnvLibrary, Vec<Diagnostic>>>>,
    /// The environments are read from their files ([`from_files`]), not
    /// taken from the kept form ([`load`]).
    read_envs: bool,
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

/// The ACTs and observations one environment declares, each the Rust
/// environment's own declaration of it.
#[derive(Clone, Debug)]
pub struct EnvLibrary {
    pub kind: EnvKind,
    /// In declaration order; overloads share a name.
    pub acts: Vec<&'static ActDecl>,
    pub observations: Vec<&'static Observation>,
}

impl Stdlib {
    /// The library of `kind`, made the first time; read from its file, the
    /// internal error if the file and the Rust side disagree.
    pub fn env(&self, kind: EnvKind) -> Result<&EnvLibrary, &[Diagnostic]> {
        let library = self.envs[kind.index()].get_or_init(|| match self.read_envs {
            true => load_env(kind),
            false => Ok(kept::env(kind)),
        });
        library.as_ref().map_err(Vec::as_slice)
    }

    /// The user-visible combinator called `name`.
    pub fn combinator(&self, name: &str) -> Option<&CombinatorInfo> {
        self.user_combinators.iter().find(|c| c.name == name)
    }
}

impl EnvLibrary {
    /// Every declaration of the ACT `name` (several for an overloaded ACT).
    pub fn overloads(&self, name: &str) -> impl Iterator<Item = &'static ActDecl> {
        self.acts.iter().copied().filter(move |a| a.name == name)
    }

    pub fn observation(&self, name: &str) -> Option<&'static Observation> {
        self.observations.iter().copied().find(|o| o.name == name)
    }
}

/// The standard library, made once per process from the form kept in the
/// source (`kept`), which a test holds to what [`from_files`] reads; read
/// from the files if the build could not keep it.
pub fn load() -> Result<&'static Stdlib, &'static [Diagnostic]> {
    static STDLIB: OnceLock<Result<Stdlib, Vec<Diagnostic>>> = OnceLock::new();
    let kept = || match kept::core() {
        Some(found) => assembled(&found, false).map_err(|d| vec![d]),
        None => from_files(),
    };
    match STDLIB.get_or_init(kept) {
        Ok(stdlib) => Ok(stdlib),
        Err(diagnostics) => Err(diagnostics),
    }
}

/// The standard library read from its files, each parsed and checked
/// against the Rust side (each environment's when it is first asked for):
/// what [`load`]'s kept form must equal.
pub fn from_files() -> Result<Stdlib, Vec<Diagnostic>> {
    let found = combinators::read_core(&parse(core_file())?).map_err(|d| vec![d])?;
    assembled(&found, true).map_err(|d| vec![d])
}

/// The library of the combinators `found` in core.cnpi, its environments
/// read from their files when `read_envs`.
fn assembled(found: &[combinators::Found], read_envs: bool) -> Result<Stdlib, Diagnostic> {
    let (combinators, user_combinators) = combinators::assemble(found)?;
    Ok(Stdlib {
        combinators,
        user_combinators,
        envs: env::kinds().map(|_| OnceLock::new()).collect(),
        read_envs,
    })
}

/// The library of `kind` from its file, the `kind.index()`-th after
/// `stdlib/core.cnpi` (see [`files`]).
fn load_env(kind: EnvKind) -> Result<EnvLibrary, Vec<Diagnostic>> {
    let file = &files()[1 + kind.index()];
    envs::load_env(&parse(file)?, kind, file).map_err(|d| vec![d])
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

//! Name resolution and kind errors.
//!
//! Every name of a file means one thing ([`Meaning`]): a combinator, an ACT
//! of the file's environment, a definition, a pointer, an observation or one
//! of the language's words. The checker looks names up here; an unknown name
//! becomes E0101 with a "did you mean" over the names that would fit where it
//! stands, and a name of the wrong kind becomes E0201 saying what was
//! expected ([`Expect`]) and what was found.

use crate::diagnostic::{Diagnostic, codes};
use crate::env;
use crate::program::{Color, Combinator, DataId, DefId, Direction, FrameAct, PointerId};
use crate::span::Span;

use super::Checker;
use super::suggest::closest;

/// What a name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Meaning {
    Combinator(Combinator),
    /// An ACT of the file's environment (possibly overloaded).
    Act,
    /// The built-in `_push`.
    Push,
    /// A built-in of the frame stack (`_goto`, `_call`, `_enter`, `_return`).
    Frame(FrameAct),
    /// `_resume`, the top frame's resume point.
    Resume,
    /// A built-in user code may not name (`_pop`, `_mapself`, ...).
    Reserved,
    Def {
        id: DefId,
        applier: bool,
    },
    Pointer(PointerId),
    /// A name a `ram` program declares (`input`, `var`, a size).
    Data(DataId),
    /// An observation of the file's environment.
    Observation,
    Symbol(Color),
    Direction(Direction),
    Ok,
    End,
    Last,
}

/// The built-ins user code may not call.
pub(super) const RESERVED: [&str; 4] = ["_pop", "_push_sentinel", "_load_state", "_mapself"];

/// The words of the language and what they mean.
pub(super) const WORDS: [(&str, Meaning); 8] = [
    ("LEFT", Meaning::Direction(Direction::Left)),
    ("RIGHT", Meaning::Direction(Direction::Right)),
    ("WHITE", Meaning::Symbol(Color::White)),
    ("GREY", Meaning::Symbol(Color::Grey)),
    ("BLACK", Meaning::Symbol(Color::Black)),
    ("OK", Meaning::Ok),
    ("END", Meaning::End),
    ("LAST", Meaning::Last),
];

impl Meaning {
    /// "a pointer", "an ACT", ...: what the name is, for messages.
    pub(super) fn describe(self) -> &'static str {
        match self {
            Meaning::Combinator(_) => "a combinator",
            Meaning::Act => "an ACT",
            Meaning::Push => "the built-in ACT `_push`",
            Meaning::Frame(_) => "a built-in ACT of the frame stack",
            Meaning::Resume => "the built-in position `_resume`",
            Meaning::Reserved => "a reserved built-in",
            Meaning::Def { applier: true, .. } => "an applier",
            Meaning::Def { applier: false, .. } => "a normal program",
            Meaning::Pointer(_) => "a pointer",
            Meaning::Data(_) => "a declared input or variable",
            Meaning::Observation => "an observation",
            Meaning::Symbol(_) => "a symbol",
            Meaning::Direction(_) => "a direction",
            Meaning::Ok => "the output symbol `OK`",
            Meaning::End => "the end marker",
            Meaning::Last => "a position (the last index)",
        }
    }
}

/// What kind of name a place in the program calls for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Expect {
    /// An argument of a combinator.
    Callable,
    /// The body of `def NAME:` that is not a combinator application.
    Applier,
    Combinator,
    /// A line of a normal program.
    Statement,
    Pointer,
    /// A name inside a condition or a position expression.
    Operand,
    /// `NAME[e]` or `NAME(e)` inside an expression: an observation, a
    /// read, or a call of a normal program for its value.
    Observation,
    /// A direction, a colour or `OK`, as an ACT argument.
    Word,
}

impl Expect {
    fn describe(self) -> &'static str {
        match self {
            Expect::Callable => "a callable argument (an ACT or a definition)",
            Expect::Applier => "an ACT or a combinator application",
            Expect::Combinator => "a combinator (`seq`, `cond`, `linrec` or `treerec`)",
            Expect::Statement => "a statement (an ACT or a call)",
            Expect::Pointer => "a pointer",
            Expect::Operand => "a position, a value or a symbol",
            Expect::Observation => "an observation",
            Expect::Word => "a direction, a colour or `OK`",
        }
    }

    /// What may be written here instead, when that is worth saying.
    fn help(self) -> Option<&'static str> {
        Some(match self {
            Expect::Callable => {
                "a callable argument names an ACT (`NOP`, `MOVE(P1, RIGHT)`) or a `def`"
            }
            Expect::Statement => "a statement applies an ACT or calls a `def`, as in `STEP()`",
            Expect::Combinator => "an applier with arguments after a `;` applies a combinator",
            Expect::Operand => {
                "conditions read pointers, integers, `END`, `LAST`, symbols and observations"
            }
            Expect::Applier | Expect::Pointer | Expect::Observation | Expect::Word => return None,
        })
    }

    /// Whether a name of this meaning may stand here: the candidates of
    /// "did you mean".
    fn fits(self, meaning: Meaning) -> bool {
        use Meaning as M;
        match self {
            Expect::Callable | Expect::Statement => {
                matches!(meaning, M::Act | M::Push | M::Def { .. })
            }
            Expect::Applier => matches!(meaning, M::Act | M::Push | M::Combinator(_)),
            Expect::Combinator => matches!(meaning, M::Combinator(_)),
            Expect::Pointer => matches!(meaning, M::Pointer(_)),
            Expect::Operand => matches!(
                meaning,
                M::Pointer(_) | M::Data(_) | M::Symbol(_) | M::End | M::Last
            ),
            Expect::Observation => matches!(
                meaning,
                M::Observation | M::Data(_) | M::Def { applier: false, .. }
            ),
            Expect::Word => matches!(meaning, M::Direction(_) | M::Symbol(_) | M::Ok),
        }
    }
}

impl<'a> Checker<'a> {
    /// The meaning of `name`, or `None` after reporting it as unknown (or
    /// reserved). Kinds are the caller's business: see [`Checker::wrong_kind`].
    pub(super) fn lookup(&mut self, name: &str, span: Span, expect: Expect) -> Option<Meaning> {
        match self.meaning(name).as_ref() {
            Some(Meaning::Reserved) => {
                self.report(reserved(name, span));
                None
            }
            Some(&meaning) => Some(meaning),
            None => {
                let diagnostic = self.unknown(name, span, expect);
                self.report(diagnostic);
                None
            }
        }
    }

    /// What `name` means where the checker stands: a local of the
    /// program being checked, else a name of the file.
    pub(super) fn meaning(&self, name: &str) -> Option<Meaning> {
        let local = (self.locals.get(self.current))
            .filter(|_| self.in_normal)
            .and_then(|locals| locals.get(name));
        match local {
            Some(&p) => Some(Meaning::Pointer(p)),
            None => self.names.get(name).copied(),
        }
    }

    /// Reports [`kind_error`].
    pub(super) fn wrong_kind(&mut self, name: &str, span: Span, found: Meaning, expect: Expect) {
        self.report(kind_error(name, span, found, expect));
    }

    /// E0101 for `name`, with the closest name that would fit (or, failing
    /// that, any close name) and a note when another environment has it.
    fn unknown(&mut self, name: &str, span: Span, expect: Expect) -> Diagnostic {
        let env = self.env.kind.name();
        // Each suggestion scans every name; a file full of unknown names
        // gets suggestions for its first few only.
        let suggestion = match self.suggestions_left.checked_sub(1) {
            Some(left) => {
                self.suggestions_left = left;
                let candidates = self
                    .names
                    .iter()
                    .filter(|(_, m)| **m != Meaning::Reserved)
                    .map(|(n, m)| (*n, expect.fits(*m)));
                closest(name, candidates)
            }
            None => None,
        };
        let mut diagnostic = Diagnostic::error(codes::E0101, format!("unknown name `{name}`"))
            .with_label(
                span,
                format!("not defined in this file or the `{env}` environment"),
            );
        if let Some(suggestion) = suggestion {
            diagnostic = diagnostic.with_suggestion(span, suggestion);
        }
        if let Some(note) = self.elsewhere(name) {
            diagnostic = diagnostic.with_note(note);
        }
        if self.declared_memory && !name.starts_with('_') {
            diagnostic = diagnostic.with_help(format!(
                "to make `{name}` a local of this program, assign it first (`{name} = 0`); \
                 to share it, declare it at file level: `var {name} = 0`, `input {name}`, or a \
                 register on the `env` line (`env ram({name} = 0)`)"
            ));
        }
        diagnostic
    }

    /// "`color` is an observation of the `graph` environment", when `name`
    /// belongs to another environment.
    fn elsewhere(&self, name: &str) -> Option<String> {
        env::kinds()
            .filter(|kind| *kind != self.env.kind)
            .find_map(|kind| {
                let library = self.stdlib.env(kind).ok()?;
                let what = if library.overloads(name).next().is_some() {
                    "an ACT"
                } else if library.observation(name).is_some() {
                    "an observation"
                } else {
                    return None;
                };
                Some(format!(
                    "`{name}` is {what} of the `{}` environment, but this file runs in `{}`",
                    kind.name(),
                    self.env.kind.name()
                ))
            })
    }
}

/// E0201: `name` means `found`, which cannot stand where `expect` is
/// needed.
pub(super) fn kind_error(name: &str, span: Span, found: Meaning, expect: Expect) -> Diagnostic {
    let found = found.describe();
    let expected = expect.describe();
    let diagnostic = Diagnostic::error(
        codes::E0201,
        format!("`{name}` is {found}, but {expected} is expected here"),
    )
    .with_label(span, format!("this is {found}"));
    match expect.help() {
        Some(help) => diagnostic.with_help(help),
        None => diagnostic,
    }
}

/// E0109: a reserved built-in named by user code.
pub(super) fn reserved(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E0109,
        format!("`{name}` is reserved for the built-ins"),
    )
    .with_label(span, "reserved name")
    .with_help("names starting with `_` belong to the built-ins; user code may call only `_push`")
}

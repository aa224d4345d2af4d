//! What environments declare: their names, their ACTs and observations.
//!
//! A program names its environment on its `env` line ([`EnvKind`]), applies
//! the ACTs the environment declares ([`ActDecl`], parameters of the
//! [`ParamType`]s written in `stdlib/<env>.cnpi`) and reads its
//! observations ([`Observation`]). These are plain descriptions, owned by
//! no environment: the environments in `env` list theirs, the checker
//! builds [`EnvAct`]s and observation expressions from them, and the
//! network's codec encodes ACT arguments by their parameter types. The
//! machine's own ACTs, which every environment declares, are here too
//! ([`NOP`], [`MOVE`], [`SET`]).

use super::{Cell, Color, Direction, PointerId, PosExpr};

/// Which environment a program runs in (the `env NAME(...)` line): one of
/// the registered environments, by its place in the registry and its name.
/// Only the registry (`env::ENVIRONMENTS`) makes these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnvKind {
    index: usize,
    name: &'static str,
}

impl EnvKind {
    /// The environment at `index` of the registry, called `name`.
    pub(crate) const fn registered(index: usize, name: &'static str) -> EnvKind {
        EnvKind { index, name }
    }

    /// Its place in the registry.
    pub fn index(self) -> usize {
        self.index
    }

    /// The name written after `env`.
    pub fn name(self) -> &'static str {
        self.name
    }
}

/// The declared type of an ACT parameter in `stdlib/*.cnpi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// A pointer name: the place the ACT acts on.
    Pointer,
    /// A position expression (`lo`, `pivot - 1`, `child(v)`).
    Position,
    /// `LEFT` or `RIGHT`.
    Direction,
    /// `WHITE`, `GREY` or `BLACK`.
    Color,
    /// The literal word `OK` (as in `OUT(OK)`).
    Ok,
    /// A cell of a `ram` program's memory: `t`, `A[i]`, `D[i][j]`.
    Place,
}

impl ParamType {
    pub const ALL: [ParamType; 6] = [
        ParamType::Pointer,
        ParamType::Position,
        ParamType::Direction,
        ParamType::Color,
        ParamType::Ok,
        ParamType::Place,
    ];

    /// The spelling used in stdlib declarations.
    pub fn from_name(name: &str) -> Option<ParamType> {
        ParamType::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The words that fill a parameter of this type (`LEFT` and `RIGHT`
    /// for a direction); none for those filled by names and expressions.
    pub fn words(self) -> &'static [&'static str] {
        match self {
            ParamType::Direction => &["LEFT", "RIGHT"],
            ParamType::Color => &["WHITE", "GREY", "BLACK"],
            ParamType::Ok => &["OK"],
            ParamType::Pointer | ParamType::Position | ParamType::Place => &[],
        }
    }

    /// How stdlib declarations spell it.
    pub fn name(self) -> &'static str {
        match self {
            ParamType::Pointer => "pointer",
            ParamType::Position => "position",
            ParamType::Direction => "direction",
            ParamType::Color => "color",
            ParamType::Ok => "OK",
            ParamType::Place => "place",
        }
    }
}

/// A checked ACT argument, of the type its declaration asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActArg {
    Pointer(PointerId),
    Position(PosExpr),
    Direction(Direction),
    Color(Color),
    Ok,
    Place(Cell),
}

impl ActArg {
    /// The parameter type this argument fills.
    pub fn param_type(&self) -> ParamType {
        match self {
            ActArg::Pointer(_) => ParamType::Pointer,
            ActArg::Position(_) => ParamType::Position,
            ActArg::Direction(_) => ParamType::Direction,
            ActArg::Color(_) => ParamType::Color,
            ActArg::Ok => ParamType::Ok,
            ActArg::Place(_) => ParamType::Place,
        }
    }
}

/// An ACT as an environment declares it: `act NAME(TYPE, ...)` in its
/// stdlib file, and the same in its Rust implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActDecl {
    pub name: &'static str,
    pub params: &'static [ParamType],
    /// It moves a cursor forward, as the last steps of a loop's body do
    /// (`MOVE`, `NEXT_CHILD`); the combinatorizer keeps such trailing steps
    /// together as the loop's advance.
    pub advances: bool,
}

impl ActDecl {
    /// An ACT that does not move a cursor.
    pub const fn new(name: &'static str, params: &'static [ParamType]) -> ActDecl {
        ActDecl {
            name,
            params,
            advances: false,
        }
    }

    /// An ACT that moves a cursor forward.
    pub const fn advancing(name: &'static str, params: &'static [ParamType]) -> ActDecl {
        ActDecl {
            name,
            params,
            advances: true,
        }
    }

    /// How the ACT is written with its parameter types: `MOVE(pointer, direction)`.
    pub fn display(&self) -> String {
        act_form(self.name, self.params)
    }

    /// Whether `args` fill exactly these parameters.
    pub fn fits(&self, args: &[ActArg]) -> bool {
        self.params.len() == args.len()
            && self
                .params
                .iter()
                .zip(args)
                .all(|(p, a)| *p == a.param_type())
    }
}

/// The ACT `name` written with parameter types `params`: `NOP`,
/// `MOVE(pointer, direction)`.
pub fn act_form(name: &str, params: &[ParamType]) -> String {
    if params.is_empty() {
        return name.to_string();
    }
    let params: Vec<&str> = params.iter().map(|p| p.name()).collect();
    format!("{name}({})", params.join(", "))
}

// The ACTs of the machine itself, which every environment declares: they
// change only the pointers (or nothing).
pub const NOP: ActDecl = ActDecl::new("NOP", &[]);
pub const MOVE: ActDecl = ActDecl::advancing("MOVE", &[ParamType::Pointer, ParamType::Direction]);
pub const SET: ActDecl = ActDecl::new("SET", &[ParamType::Pointer, ParamType::Position]);

/// An ACT of the environment applied to checked arguments, which fit its
/// declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvAct {
    pub decl: &'static ActDecl,
    pub args: Vec<ActArg>,
}

impl EnvAct {
    pub fn name(&self) -> &'static str {
        self.decl.name
    }
}

/// What an observation gives, as its stdlib declaration writes it after
/// `->`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObservationKind {
    /// A value compared with others and END (`A[e]`, `sum(i)`).
    Value,
    /// A symbol, compared with the colour words and END (`color(v)`).
    Symbol,
    /// A test, true or false (`has_child(v)`).
    Test,
    /// A position (`child(v)`).
    Position,
}

impl ObservationKind {
    /// The spelling after `->` in stdlib declarations.
    pub fn name(self) -> &'static str {
        match self {
            ObservationKind::Value => "value",
            ObservationKind::Symbol => "symbol",
            ObservationKind::Test => "bool",
            ObservationKind::Position => "position",
        }
    }
}

/// An observation as an environment declares it: `observe NAME[position]
/// -> TYPE` or `observe NAME(position) -> TYPE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    pub name: &'static str,
    /// Read with brackets (`A[i]`) rather than parentheses (`sum(i)`).
    pub indexed: bool,
    pub kind: ObservationKind,
}

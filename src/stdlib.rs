//! The standard library: the `stdlib/*.cnpi` files, read as source.
//!
//! `stdlib/core.cnpi` defines the combinators as bodies of slot calls; the
//! loader turns them into [`Combinators`] (one [`Behaviour`] each) plus what
//! the checker must know to apply them (whether they take a detector, whether
//! they need a `state(...)`). The environment files declare each
//! environment's ACTs and observations; the loader turns them into an
//! [`EnvLibrary`] per [`EnvKind`], built from the Rust implementations
//! ([`Act::build`], [`ObservationKind::from_name`]). The checker reads the
//! loaded [`Stdlib`], and the diagnostic renderer reads [`files`] to show
//! stdlib spans. A file that fails to load is a bug in cnpi: it becomes an
//! internal-error diagnostic, never a panic.

use std::sync::OnceLock;

use crate::check::item_span;
use crate::diagnostic::{Diagnostic, codes, has_errors};
use crate::env::EnvKind;
use crate::program::{
    Act, ActArg, Behaviour, Color, Combinator, CombinatorKind, Combinators, Direction,
    ObservationKind, ParamType, PosExpr, PosKind, Slot,
};
use crate::span::{SourceId, Span};
use crate::syntax::ast::{self, CompareOp, ExprKind, Item, Stmt};

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
    let (combinators, user_combinators) = load_core(&parse(&CORE)?).map_err(|d| vec![d])?;
    let env = |file: &StdlibFile, kind: EnvKind| -> Result<EnvLibrary, Vec<Diagnostic>> {
        load_env(&parse(file)?, kind, file).map_err(|d| vec![d])
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

/// The names of the five combinators of core.cnpi, in its order.
const COMBINATOR_NAMES: [(&str, CombinatorKind); 5] = [
    ("seq", CombinatorKind::User(Combinator::Seq)),
    ("cond", CombinatorKind::User(Combinator::Cond)),
    ("linrec", CombinatorKind::User(Combinator::Linrec)),
    ("treerec", CombinatorKind::User(Combinator::Treerec)),
    ("_mapself", CombinatorKind::MapSelf),
];

fn load_core(file: &ast::File) -> Result<(Combinators, Vec<CombinatorInfo>), Diagnostic> {
    let mut found: Vec<(CombinatorKind, Behaviour, bool, Span)> = Vec::new();
    for item in &file.items {
        let Item::Combinator(decl) = item else {
            return Err(internal(
                item_span(item),
                "core.cnpi may only define combinators",
            ));
        };
        let name = &decl.name.name;
        let Some(&(_, kind)) = COMBINATOR_NAMES.iter().find(|(n, _)| n == name) else {
            return Err(internal(
                decl.name.span,
                format!("unknown combinator `{name}`"),
            ));
        };
        if found.iter().any(|(k, ..)| *k == kind) {
            return Err(internal(
                decl.name.span,
                format!("`{name}` is defined twice"),
            ));
        }
        let (behaviour, reads_c) = load_combinator(decl)?;
        found.push((kind, behaviour, reads_c, decl.name.span));
    }
    let behaviour = |kind: CombinatorKind| {
        found
            .iter()
            .find(|(k, ..)| *k == kind)
            .map(|(_, b, ..)| b.clone())
            .ok_or_else(|| internal(file_start(&CORE), format!("missing combinator {kind:?}")))
    };
    let combinators = Combinators {
        seq: behaviour(CombinatorKind::User(Combinator::Seq))?,
        cond: behaviour(CombinatorKind::User(Combinator::Cond))?,
        linrec: behaviour(CombinatorKind::User(Combinator::Linrec))?,
        treerec: behaviour(CombinatorKind::User(Combinator::Treerec))?,
        mapself: behaviour(CombinatorKind::MapSelf)?,
    };
    let infos = found
        .iter()
        .filter_map(|(kind, behaviour, reads_c, _)| {
            let CombinatorKind::User(combinator) = *kind else {
                return None;
            };
            let name = COMBINATOR_NAMES.iter().find(|(_, k)| k == kind)?.0;
            Some(CombinatorInfo {
                name: name.to_string(),
                combinator,
                needs_detector: *reads_c,
                needs_state: uses_state_stack(behaviour),
            })
        })
        .collect();
    Ok((combinators, infos))
}

fn uses_state_stack(behaviour: &Behaviour) -> bool {
    let stack_slots = [
        Slot::PushSentinel,
        Slot::MapSelf,
        Slot::Pop,
        Slot::LoadState,
    ];
    [true, false]
        .into_iter()
        .flat_map(|bit| behaviour.slots(bit))
        .any(|slot| stack_slots.contains(slot))
}

/// One combinator's behaviour, and whether its body branches on `c`.
fn load_combinator(decl: &ast::CombinatorDecl) -> Result<(Behaviour, bool), Diagnostic> {
    let is_mapself = decl.name.name == "_mapself";
    match (&decl.detector, is_mapself) {
        (Some(detector), true) if is_builtin_detector(detector) => {}
        (Some(detector), _) => {
            return Err(internal(
                detector.span,
                "the only built-in detector is `_top != SENTINEL`",
            ));
        }
        (None, true) => return Err(internal(decl.name.span, "`_mapself` needs its detector")),
        (None, false) => {}
    }
    if decl.params.len() > 3 {
        return Err(internal(
            decl.span,
            "a combinator has at most three parameters",
        ));
    }
    let slots = |block: &ast::Block| -> Result<Vec<Slot>, Diagnostic> {
        block
            .iter()
            .map(|stmt| slot_of(stmt, &decl.params))
            .collect()
    };
    if let [
        Stmt::If {
            condition,
            then,
            otherwise,
            span,
        },
    ] = decl.body.as_slice()
    {
        if !matches!(&condition.kind, ExprKind::Name(c) if c == "c") {
            return Err(internal(
                condition.span,
                "a combinator branches only on `c`",
            ));
        }
        let Some(otherwise) = otherwise else {
            return Err(internal(*span, "a combinator's `if c:` needs an `else:`"));
        };
        let behaviour = Behaviour {
            when_true: slots(then)?,
            when_false: slots(otherwise)?,
        };
        return Ok((behaviour, true));
    }
    if is_mapself {
        return Err(internal(
            decl.span,
            "`_mapself` must branch on its detector",
        ));
    }
    let sequence = slots(&decl.body)?;
    Ok((
        Behaviour {
            when_true: sequence.clone(),
            when_false: sequence,
        },
        false,
    ))
}

/// `_top != SENTINEL`, exactly.
fn is_builtin_detector(expr: &ast::Expr) -> bool {
    let is_name = |e: &ast::Expr, name: &str| matches!(&e.kind, ExprKind::Name(n) if n == name);
    matches!(&expr.kind, ExprKind::Compare(CompareOp::Ne, lhs, rhs)
        if is_name(lhs, "_top") && is_name(rhs, "SENTINEL"))
}

/// The slot a line of a combinator body calls.
fn slot_of(stmt: &Stmt, params: &[ast::Ident]) -> Result<Slot, Diagnostic> {
    let Stmt::Call(ast::Call {
        name, args: None, ..
    }) = stmt
    else {
        return Err(internal(
            stmt_span(stmt),
            "a combinator body line names one slot",
        ));
    };
    let arguments = [Slot::A1, Slot::A2, Slot::A3];
    if let Some(i) = params.iter().position(|p| p.name == name.name) {
        return arguments
            .get(i)
            .copied()
            .ok_or_else(|| internal(name.span, "too many parameters"));
    }
    Ok(match name.name.as_str() {
        "self" => Slot::SelfSlot,
        "_push_sentinel" => Slot::PushSentinel,
        "_mapself" => Slot::MapSelf,
        "_pop" => Slot::Pop,
        "_load_state" => Slot::LoadState,
        "NOP" => Slot::Nop,
        other => return Err(internal(name.span, format!("`{other}` is not a slot"))),
    })
}

fn load_env(
    file: &ast::File,
    kind: EnvKind,
    source: &StdlibFile,
) -> Result<EnvLibrary, Diagnostic> {
    let mut items = file.items.iter();
    match items.next() {
        Some(Item::Env(env)) if env.kind.name == kind.name() && env.pointers.is_empty() => {}
        _ => {
            let message = format!("`{}` must start with `env {}()`", source.name, kind.name());
            return Err(internal(file_start(source), message));
        }
    }
    let mut library = EnvLibrary {
        kind,
        acts: Vec::new(),
        observations: Vec::new(),
    };
    for item in items {
        match item {
            Item::Act(decl) => {
                let act = load_act(decl)?;
                if library.acts.contains(&act) {
                    return Err(internal(
                        decl.span,
                        format!("`{}` is declared twice", act.display()),
                    ));
                }
                library.acts.push(act);
            }
            Item::Observe(decl) => {
                let observation = load_observation(decl)?;
                if library.observation(&observation.name).is_some() {
                    return Err(internal(decl.span, "observation declared twice"));
                }
                library.observations.push(observation);
            }
            other => {
                return Err(internal(
                    item_span(other),
                    "an environment file declares only ACTs and observations",
                ));
            }
        }
    }
    Ok(library)
}

fn load_act(decl: &ast::ActDecl) -> Result<ActSignature, Diagnostic> {
    let params = decl
        .params
        .iter()
        .flatten()
        .map(|p| {
            ParamType::from_name(&p.name)
                .ok_or_else(|| internal(p.span, format!("unknown parameter type `{}`", p.name)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let signature = ActSignature {
        name: decl.name.name.clone(),
        params,
    };
    // Build it once with stand-in arguments: a declaration the runtime
    // cannot build is caught here rather than in a user's program.
    let stand_ins = signature.params.iter().map(|p| stand_in(*p)).collect();
    match Act::build(&signature.name, stand_ins) {
        Some(_) => Ok(signature),
        None => Err(internal(
            decl.span,
            format!("the runtime has no ACT `{}`", signature.display()),
        )),
    }
}

fn stand_in(param: ParamType) -> ActArg {
    match param {
        ParamType::Pointer => ActArg::Pointer(0),
        ParamType::Position => ActArg::Position(PosExpr {
            kind: PosKind::Int(0),
            span: Span::default(),
        }),
        ParamType::Direction => ActArg::Direction(Direction::Left),
        ParamType::Color => ActArg::Color(Color::White),
        ParamType::Ok => ActArg::Ok,
    }
}

fn load_observation(decl: &ast::ObserveDecl) -> Result<ObservationSignature, Diagnostic> {
    let name = &decl.name.name;
    let kind = ObservationKind::from_name(name).ok_or_else(|| {
        internal(
            decl.name.span,
            format!("the runtime has no observation `{name}`"),
        )
    })?;
    if !matches!(decl.params.as_slice(), [p] if p.name == "position") {
        return Err(internal(decl.span, "an observation takes one position"));
    }
    let result = match kind {
        ObservationKind::Value(_) => "value",
        ObservationKind::Color => "symbol",
        ObservationKind::HasChild => "bool",
        ObservationKind::Child => "position",
    };
    if decl.result.name != result {
        return Err(internal(
            decl.result.span,
            format!("`{name}` gives a {result}"),
        ));
    }
    Ok(ObservationSignature {
        name: name.clone(),
        indexed: decl.indexed,
        kind,
    })
}

fn stmt_span(stmt: &Stmt) -> Span {
    match stmt {
        Stmt::Call(call) => call.span,
        Stmt::If { span, .. } | Stmt::While { span, .. } | Stmt::Pass(span) => *span,
    }
}

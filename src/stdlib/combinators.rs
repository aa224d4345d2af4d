//! `stdlib/core.cnpi`: the combinators as slot sequences.
//!
//! Each `combinator NAME(a1, a2, a3):` body is a list of slot names, or one
//! `if c:`/`else:` of them; the loader turns it into a [`Behaviour`], notes
//! whether the body reads `c` (so an applier must pass a detector) and
//! whether it uses the state stack (so the file needs `state(...)`).
//! `_mapself` carries the one built-in detector, `_top != SENTINEL`.

use crate::diagnostic::Diagnostic;
use crate::program::{Behaviour, Combinator, CombinatorKind, Combinators, Slot};
use crate::syntax::ast::{self, CompareOp, ExprKind, Item, Stmt};

use super::{CombinatorInfo, core_file, file_start, internal};

/// The names of the five combinators of core.cnpi, in its order.
const COMBINATOR_NAMES: [(&str, CombinatorKind); 5] = [
    ("seq", CombinatorKind::User(Combinator::Seq)),
    ("cond", CombinatorKind::User(Combinator::Cond)),
    ("linrec", CombinatorKind::User(Combinator::Linrec)),
    ("treerec", CombinatorKind::User(Combinator::Treerec)),
    ("_mapself", CombinatorKind::MapSelf),
];

/// One combinator of core.cnpi as loaded: its kind, its behaviour, and
/// whether its body reads `c`.
pub(super) type Found = (CombinatorKind, Behaviour, bool);

/// The combinators `file` (core.cnpi, parsed) defines, in its order.
pub(super) fn read_core(file: &ast::File) -> Result<Vec<Found>, Diagnostic> {
    let mut found: Vec<Found> = Vec::new();
    for item in &file.items {
        let Item::Combinator(decl) = item else {
            return Err(internal(
                item.span(),
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
        found.push((kind, behaviour, reads_c));
    }
    Ok(found)
}

/// The combinators' behaviours and what the checker knows of the four
/// user-visible ones, from the combinators of core.cnpi in its order.
pub(super) fn assemble(found: &[Found]) -> Result<(Combinators, Vec<CombinatorInfo>), Diagnostic> {
    let behaviour = |kind: CombinatorKind| {
        found
            .iter()
            .find(|(k, ..)| *k == kind)
            .map(|(_, b, ..)| b.clone())
            .ok_or_else(|| {
                internal(
                    file_start(core_file()),
                    format!("missing combinator {kind:?}"),
                )
            })
    };
    let combinators = Combinators {
        seq: behaviour(CombinatorKind::User(Combinator::Seq))?,
        cond: behaviour(CombinatorKind::User(Combinator::Cond))?,
        linrec: behaviour(CombinatorKind::User(Combinator::Linrec))?,
        treerec: behaviour(CombinatorKind::User(Combinator::Treerec))?,
        mapself: behaviour(CombinatorKind::MapSelf)?,
        defined: Vec::new(),
    };
    let infos = found
        .iter()
        .filter_map(|(kind, behaviour, reads_c)| {
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

/// The shape of a combinator's body: one `if c:` ... `else:` ... making
/// the whole body, or a straight sequence of calls.
pub(crate) enum Shape<'a> {
    Branch {
        then: &'a ast::Block,
        otherwise: &'a ast::Block,
    },
    Straight(&'a ast::Block),
}

/// Why a body has no shape: its one `if` tests something other than `c`,
/// or has no `else:`.
pub(crate) enum NoShape {
    NotOnC(crate::span::Span),
    NoElse(crate::span::Span),
}

/// The shape of `decl`'s body (the one reading of bodies that both the
/// stdlib's combinators and a program's own go through).
pub(crate) fn shape(decl: &ast::CombinatorDecl) -> Result<Shape<'_>, NoShape> {
    let [
        Stmt::If {
            condition,
            then,
            otherwise,
            span,
            ..
        },
    ] = decl.body.as_slice()
    else {
        return Ok(Shape::Straight(&decl.body));
    };
    if !matches!(&condition.kind, ExprKind::Name(c) if c == "c") {
        return Err(NoShape::NotOnC(condition.span));
    }
    match otherwise {
        Some(otherwise) => Ok(Shape::Branch { then, otherwise }),
        None => Err(NoShape::NoElse(*span)),
    }
}

/// One combinator's behaviour, and whether its body branches on `c`.
pub(super) fn load_combinator(decl: &ast::CombinatorDecl) -> Result<(Behaviour, bool), Diagnostic> {
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
    let body = match shape(decl) {
        Ok(Shape::Branch { then, otherwise }) => {
            let behaviour = Behaviour {
                when_true: slots(then)?,
                when_false: slots(otherwise)?,
            };
            return Ok((behaviour, true));
        }
        Ok(Shape::Straight(body)) => body,
        Err(NoShape::NotOnC(span)) => {
            return Err(internal(span, "a combinator branches only on `c`"));
        }
        Err(NoShape::NoElse(span)) => {
            return Err(internal(span, "a combinator's `if c:` needs an `else:`"));
        }
    };
    if is_mapself {
        return Err(internal(
            decl.span,
            "`_mapself` must branch on its detector",
        ));
    }
    let sequence = slots(body)?;
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
            stmt.span(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::SourceId;

    fn load(text: &str) -> Result<(Combinators, Vec<CombinatorInfo>), Diagnostic> {
        let file = crate::stdlib::testing::parse(text, SourceId(1));
        assemble(&read_core(&file)?)
    }

    fn message(text: &str) -> String {
        crate::stdlib::testing::internal_error(load(text))
    }

    #[test]
    fn the_core_file_loads() {
        let (combinators, infos) = load(core_file().text).expect("core.cnpi loads");
        assert_eq!(combinators.cond.when_false, [Slot::A3]);
        assert_eq!(infos.len(), 4);
    }

    #[test]
    fn malformed_combinators_are_internal_errors() {
        assert!(
            message("combinator seq(a1, a2, a3):\n    a1\n    a4\n").contains("`a4` is not a slot")
        );
        assert!(message("combinator zip(a1):\n    a1\n").contains("unknown combinator `zip`"));
        let wrong_detector = "combinator _mapself() detects _top == SENTINEL:\n    if c:\n        self\n    else:\n        _pop\n";
        assert!(message(wrong_detector).contains("built-in detector"));
        let no_else = "combinator cond(a1, a2, a3):\n    if c:\n        a1\n";
        assert!(message(no_else).contains("needs an `else:`"));
        assert!(message("combinator seq(a1, a2, a3):\n    a1\n").contains("missing combinator"));
    }
}

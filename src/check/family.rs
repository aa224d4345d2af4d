//! The family rule: which combinator bodies a program may define.
//!
//! The fixed core learns a new combinator only by finding an initial state
//! for it (an embedding), so a program's own combinator must stay inside
//! the family the core was built for, the paper's K = 4 family: every line
//! calls one slot (`a1`, `a2`, `a3` by parameter position, `self`, `NOP`;
//! the state-stack built-ins belong to `treerec` alone); the body branches
//! at most once, at its start, on `c`, with both branches written; a branch
//! has at most four lines; `self` is only the last line of a branch, and
//! only in a body that branches (without `c` nothing could end the
//! recursion). [`recognize`] reads a declaration into a [`Behaviour`] or
//! names the first rule it breaks; the checker turns that into E0111.

use crate::diagnostic::{Diagnostic, codes};
use crate::program::{Behaviour, Slot};
use crate::span::Span;
use crate::syntax::ast::{self, ExprKind, Stmt};

/// The most lines (core steps) a branch may have: K = 4.
pub const MAX_STEPS: usize = 4;

/// The rules of the family, as the diagnostics name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// At most three parameters, each named once, none a slot word.
    Parameters,
    /// Only `_mapself` has a built-in detector.
    NoBuiltinDetector,
    /// Every line calls one slot.
    SlotsOnly,
    /// One branch, at the start, on `c`, with an `else:`.
    OneBranch,
    /// A branch has at most [`MAX_STEPS`] lines.
    Length,
    /// `self` only as the last line of a branch of a body that branches.
    SelfLast,
}

impl Rule {
    /// The rule as the help line states it.
    pub fn statement(self) -> &'static str {
        match self {
            Rule::Parameters => {
                "a combinator has at most three parameters (a1, a2, a3), each named once"
            }
            Rule::NoBuiltinDetector => {
                "a combinator reads the detector its applier passes, as `c`; only the \
                 built-in `_mapself` has its own"
            }
            Rule::SlotsOnly => {
                "every line of a combinator body calls one slot: a parameter, `self` or `NOP`"
            }
            Rule::OneBranch => {
                "a combinator branches at most once, at its start: `if c:` with an `else:`, \
                 and nothing after it"
            }
            Rule::Length => "a branch runs at most four slots (K = 4)",
            Rule::SelfLast => {
                "`self` may only be the last line of a branch, in a body that branches on `c`"
            }
        }
    }
}

/// Why a body is outside the family: the rule, where, and what is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub rule: Rule,
    pub span: Span,
    /// The label under `span`.
    pub label: String,
}

impl Violation {
    fn new(rule: Rule, span: Span, label: impl Into<String>) -> Violation {
        Violation {
            rule,
            span,
            label: label.into(),
        }
    }

    /// E0111, naming the combinator and the rule.
    pub fn diagnostic(&self, name: &str) -> Diagnostic {
        Diagnostic::error(
            codes::E0111,
            format!("the combinator `{name}` is outside the family the core can learn"),
        )
        .with_label(self.span, self.label.clone())
        .with_help(format!("the family rule: {}", self.rule.statement()))
    }
}

/// The behaviour of a program's combinator, and whether it reads `c`, or
/// the first rule its declaration breaks.
pub fn recognize(decl: &ast::CombinatorDecl) -> Result<(Behaviour, bool), Violation> {
    if let Some(detector) = &decl.detector {
        return Err(Violation::new(
            Rule::NoBuiltinDetector,
            detector.span,
            "a detector of its own",
        ));
    }
    check_params(&decl.params)?;
    let slots = |block: &ast::Block| -> Result<Vec<Slot>, Violation> {
        let slots = block
            .iter()
            .map(|stmt| slot_of(stmt, &decl.params))
            .collect::<Result<Vec<_>, _>>()?;
        if slots.len() > MAX_STEPS {
            let extra = block.get(MAX_STEPS).map_or(decl.span, Stmt::span);
            let label = format!("line {} of a branch", MAX_STEPS + 1);
            return Err(Violation::new(Rule::Length, extra, label));
        }
        Ok(slots)
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
            return Err(Violation::new(
                Rule::OneBranch,
                condition.span,
                "a combinator branches on `c`, its applier's detector",
            ));
        }
        let Some(otherwise) = otherwise else {
            return Err(Violation::new(Rule::OneBranch, *span, "no `else:`"));
        };
        let behaviour = Behaviour {
            when_true: slots(then)?,
            when_false: slots(otherwise)?,
        };
        for (branch, block) in [
            (&behaviour.when_true, then),
            (&behaviour.when_false, otherwise),
        ] {
            self_only_last(branch, block)?;
        }
        return Ok((behaviour, true));
    }
    let sequence = slots(&decl.body)?;
    if let Some(i) = sequence.iter().position(|&s| s == Slot::SelfSlot) {
        let span = decl.body.get(i).map_or(decl.span, Stmt::span);
        return Err(Violation::new(
            Rule::SelfLast,
            span,
            "`self` in a body that never reads `c` would never stop",
        ));
    }
    Ok((
        Behaviour {
            when_true: sequence.clone(),
            when_false: sequence,
        },
        false,
    ))
}

fn check_params(params: &[ast::Ident]) -> Result<(), Violation> {
    if let Some(extra) = params.get(3) {
        return Err(Violation::new(
            Rule::Parameters,
            extra.span,
            "a fourth parameter",
        ));
    }
    for (i, param) in params.iter().enumerate() {
        if matches!(param.name.as_str(), "self" | "NOP" | "c") {
            return Err(Violation::new(
                Rule::Parameters,
                param.span,
                format!("`{}` is a word of combinator bodies", param.name),
            ));
        }
        if params[..i].iter().any(|p| p.name == param.name) {
            return Err(Violation::new(Rule::Parameters, param.span, "named twice"));
        }
    }
    Ok(())
}

/// `self` is the last slot of `branch` if it is there at all.
fn self_only_last(branch: &[Slot], block: &ast::Block) -> Result<(), Violation> {
    let last = branch.len().saturating_sub(1);
    match branch.iter().position(|&s| s == Slot::SelfSlot) {
        Some(i) if i != last => Err(Violation::new(
            Rule::SelfLast,
            block.get(i).map_or(Span::default(), Stmt::span),
            "`self` before the end of its branch",
        )),
        _ => Ok(()),
    }
}

/// The slot a body line calls.
fn slot_of(stmt: &Stmt, params: &[ast::Ident]) -> Result<Slot, Violation> {
    let call = match stmt {
        Stmt::Call(call) => call,
        Stmt::If { span, .. } => {
            return Err(Violation::new(
                Rule::OneBranch,
                *span,
                "a second branch, or one after other lines",
            ));
        }
        Stmt::While { span, .. } => {
            return Err(Violation::new(
                Rule::OneBranch,
                *span,
                "a loop: a combinator repeats only through `self`",
            ));
        }
        Stmt::Pass(span) => {
            return Err(Violation::new(
                Rule::SlotsOnly,
                *span,
                "`pass` calls no slot; write `NOP`",
            ));
        }
    };
    if call.args.is_some() {
        return Err(Violation::new(
            Rule::SlotsOnly,
            call.span,
            "a slot is named without arguments",
        ));
    }
    let name = call.name.name.as_str();
    if let Some(i) = params.iter().position(|p| p.name == name) {
        return Ok([Slot::A1, Slot::A2, Slot::A3][i.min(2)]);
    }
    match name {
        "self" => Ok(Slot::SelfSlot),
        "NOP" => Ok(Slot::Nop),
        "_push_sentinel" | "_mapself" | "_pop" | "_load_state" => Err(Violation::new(
            Rule::SlotsOnly,
            call.span,
            format!("`{name}` is `treerec`'s machinery, not a slot of other combinators"),
        )),
        other => Err(Violation::new(
            Rule::SlotsOnly,
            call.span,
            format!("`{other}` is not a parameter, `self` or `NOP`"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::SourceId;
    use crate::syntax::ast::Item;

    /// The declaration in `text`, a file of one combinator.
    fn recognized(text: &str) -> Result<(Behaviour, bool), Violation> {
        let (file, diagnostics) = crate::syntax::parse(text, SourceId::USER);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        match file.items.as_slice() {
            [Item::Combinator(decl)] => recognize(decl),
            other => panic!("not one combinator: {other:?}"),
        }
    }

    fn broken(text: &str) -> Rule {
        match recognized(text) {
            Ok(found) => panic!("accepted: {found:?}"),
            Err(violation) => violation.rule,
        }
    }

    /// The reading of the paper's K = 4 family: each of `a1, a2,
    /// a3` in order to the true branch, the false branch or unused, with an
    /// optional `self` last in the true branch, plus three prefixes.
    fn paper_family() -> Vec<String> {
        let mut bodies = Vec::new();
        for code in 0..27 {
            for with_self in [false, true] {
                let (mut yes, mut no) = (String::new(), String::new());
                for (i, arg) in ["a1", "a2", "a3"].iter().enumerate() {
                    match code / 3usize.pow(i as u32) % 3 {
                        0 => yes.push_str(&format!("        {arg}\n")),
                        1 => no.push_str(&format!("        {arg}\n")),
                        _ => {}
                    }
                }
                if with_self {
                    yes.push_str("        self\n");
                }
                let line = |block: String| {
                    if block.is_empty() {
                        "        NOP\n".to_string()
                    } else {
                        block
                    }
                };
                bodies.push(format!("    if c:\n{}    else:\n{}", line(yes), line(no)));
            }
        }
        for prefix in ["a1", "a1 a2", "a1 a2 a3"] {
            let lines: String = prefix.split(' ').map(|a| format!("    {a}\n")).collect();
            bodies.push(lines);
        }
        bodies
    }

    #[test]
    fn the_papers_family_is_accepted() {
        let family = paper_family();
        assert_eq!(family.len(), 57);
        for body in family {
            let text = format!("combinator member(a1, a2, a3):\n{body}");
            let (behaviour, reads_c) = recognized(&text).unwrap_or_else(|v| panic!("{text}{v:?}"));
            // The canonical form reads back as the body written.
            if reads_c {
                assert_eq!(crate::program::print::body(&behaviour, true), body);
            }
        }
    }

    #[test]
    fn bodies_are_read_as_slots_by_parameter_position() {
        let (behaviour, reads_c) =
            recognized("combinator twice(step):\n    step\n    step\n").expect("fits");
        assert!(!reads_c);
        assert_eq!(behaviour.when_true, [Slot::A1, Slot::A1]);
        assert_eq!(behaviour.when_false, behaviour.when_true);
        let text = "combinator loop(x, y, z):\n    if c:\n        z\n        self\n    else:\n        NOP\n";
        let (behaviour, reads_c) = recognized(text).expect("fits");
        assert!(reads_c);
        assert_eq!(behaviour.when_true, [Slot::A3, Slot::SelfSlot]);
        assert_eq!(behaviour.when_false, [Slot::Nop]);
    }

    #[test]
    fn each_rule_is_named_when_broken() {
        let rule = |body: &str| broken(&format!("combinator x(a1, a2, a3):\n{body}"));
        assert_eq!(
            rule("    if c:\n        self\n        a1\n    else:\n        a2\n"),
            Rule::SelfLast
        );
        assert_eq!(rule("    a1\n    self\n"), Rule::SelfLast);
        assert_eq!(rule("    _push_sentinel\n"), Rule::SlotsOnly);
        assert_eq!(rule("    MOVE\n"), Rule::SlotsOnly);
        assert_eq!(rule("    a1()\n"), Rule::SlotsOnly);
        assert_eq!(rule("    pass\n"), Rule::SlotsOnly);
        assert_eq!(
            rule("    a1\n    if c:\n        a2\n    else:\n        a3\n"),
            Rule::OneBranch
        );
        assert_eq!(rule("    if c:\n        a1\n"), Rule::OneBranch);
        assert_eq!(
            rule("    if d:\n        a1\n    else:\n        a2\n"),
            Rule::OneBranch
        );
        assert_eq!(rule("    while c:\n        a1\n"), Rule::OneBranch);
        assert_eq!(
            rule(
                "    if c:\n        if c:\n            a1\n        else:\n            a2\n    else:\n        a3\n"
            ),
            Rule::OneBranch
        );
        assert_eq!(
            rule("    a1\n    a2\n    a3\n    a1\n    a2\n"),
            Rule::Length
        );
        assert_eq!(
            broken("combinator x(a, b, c2, d):\n    a\n"),
            Rule::Parameters
        );
        assert_eq!(broken("combinator x(a, a):\n    a\n"), Rule::Parameters);
        assert_eq!(broken("combinator x(self):\n    NOP\n"), Rule::Parameters);
        assert_eq!(
            broken("combinator x(a1) detects _top != SENTINEL:\n    a1\n"),
            Rule::NoBuiltinDetector
        );
        // Four lines is the most a branch may have.
        assert!(recognized("combinator x(a1, a2, a3):\n    a1\n    a2\n    a3\n    a1\n").is_ok());
    }
}

//! The family rule for the combinators a program defines.
//!
//! The fixed core learns a new combinator only by finding an initial state
//! for it (an embedding), so a program's own combinator must be one the
//! core's family holds: a member of the paper's K = 4 family of 57, which
//! `stdlib::full_set` generates (`stdlib/full_set.cnpi`), up to the names of
//! its parameters (read by position as `a1`, `a2`, `a3`). [`recognize`]
//! reads a declaration's shape (at most three parameters, no detector of
//! its own, every line one slot, at most one branch, at its start, on `c`,
//! with an `else:`) into a [`Behaviour`], then asks
//! [`stdlib::full_set::member`](crate::stdlib::full_set::member) whether it is
//! in the family; the rule itself is stated only there. The checker turns a
//! [`Violation`] into E0111.

use crate::diagnostic::{Diagnostic, codes};
use crate::program::{Behaviour, Slot};
use crate::span::Span;
use crate::stdlib::full_set;
use crate::stdlib::{NoShape, Shape, shape};
use crate::syntax::ast::{self, Stmt};

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
    /// The body is one of the family's members.
    Member,
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
            Rule::Member => full_set::RULE,
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
        block
            .iter()
            .map(|stmt| slot_of(stmt, &decl.params))
            .collect()
    };
    let (behaviour, branches, blocks) = match shape(decl) {
        Ok(Shape::Branch { then, otherwise }) => {
            let behaviour = Behaviour {
                when_true: slots(then)?,
                when_false: slots(otherwise)?,
            };
            (behaviour, true, [then, otherwise])
        }
        Ok(Shape::Straight(body)) => {
            let sequence = slots(body)?;
            let behaviour = Behaviour {
                when_true: sequence.clone(),
                when_false: sequence,
            };
            (behaviour, false, [body, body])
        }
        Err(NoShape::NotOnC(span)) => {
            return Err(Violation::new(
                Rule::OneBranch,
                span,
                "a combinator branches on `c`, its applier's detector",
            ));
        }
        Err(NoShape::NoElse(span)) => {
            return Err(Violation::new(Rule::OneBranch, span, "no `else:`"));
        }
    };
    match full_set::departure(&behaviour, branches) {
        None => Ok((behaviour, branches)),
        Some(departure) => {
            let block = blocks[usize::from(departure.branch == Some(false))];
            let span = (departure.line)
                .and_then(|line| block.get(line))
                .map_or(decl.name.span, Stmt::span);
            Err(Violation::new(Rule::Member, span, departure.reason))
        }
    }
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
        Stmt::While { span, .. } | Stmt::For { span, .. } => {
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
        Stmt::Assign { span, .. } | Stmt::LocalArray(ast::DataDecl { span, .. }) => {
            return Err(Violation::new(
                Rule::SlotsOnly,
                *span,
                "an assignment calls no slot",
            ));
        }
        Stmt::Break(span) | Stmt::Continue(span) => {
            return Err(Violation::new(
                Rule::SlotsOnly,
                *span,
                "`break` and `continue` call no slot",
            ));
        }
        Stmt::Hole(span) => {
            return Err(Violation::new(
                Rule::SlotsOnly,
                *span,
                "a hole `?` belongs in a normal program",
            ));
        }
        Stmt::Return { span, .. } => {
            return Err(Violation::new(
                Rule::SlotsOnly,
                *span,
                "`return` calls no slot; a combinator ends after its last slot",
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

    type Recognized = Result<(Behaviour, bool), Violation>;

    /// The declarations in `text`, a file of combinators.
    fn recognized_all(text: &str) -> Vec<(String, Recognized)> {
        let (file, diagnostics) = crate::syntax::parse(text, SourceId::USER);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        (file.items.iter())
            .map(|item| match item {
                Item::Combinator(decl) => (decl.name.name.clone(), recognize(decl)),
                other => panic!("not a combinator: {other:?}"),
            })
            .collect()
    }

    /// The declaration in `text`, a file of one combinator.
    fn recognized(text: &str) -> Recognized {
        let mut all = recognized_all(text);
        assert_eq!(all.len(), 1);
        all.remove(0).1
    }

    fn broken(text: &str) -> Violation {
        match recognized(text) {
            Ok(found) => panic!("accepted: {found:?}\n{text}"),
            Err(violation) => violation,
        }
    }

    /// `stdlib/full_set.cnpi` with the parameters renamed by position.
    fn full_set_renamed(names: [&str; 3]) -> String {
        let text = include_str!("../../stdlib/full_set.cnpi");
        let mut renamed = String::new();
        for line in text.lines() {
            let mut words: Vec<String> = Vec::new();
            // Whole words only: `a1` but not `a12`.
            let mut word = String::new();
            for ch in line.chars().chain(['\n']) {
                if ch.is_ascii_alphanumeric() || ch == '_' {
                    word.push(ch);
                    continue;
                }
                let i = ["a1", "a2", "a3"].iter().position(|a| *a == word);
                words.push(i.map_or(word.clone(), |i| names[i].to_string()));
                word.clear();
                if ch != '\n' {
                    words.push(ch.to_string());
                }
            }
            renamed.push_str(&words.concat());
            renamed.push('\n');
        }
        renamed
    }

    #[test]
    fn every_member_of_the_full_set_is_recognized_under_any_parameter_names() {
        for names in [
            ["a1", "a2", "a3"],
            ["step", "other", "last"],
            ["x", "a1", "a2"],
        ] {
            let all = recognized_all(&full_set_renamed(names));
            assert_eq!(all.len(), 57);
            for (name, result) in all {
                let (behaviour, branches) =
                    result.unwrap_or_else(|v| panic!("{name} under {names:?}: {v:?}"));
                let found = full_set::member(&behaviour, branches).map(|m| m.name.as_str());
                assert_eq!(found, Some(name.as_str()));
            }
        }
    }

    #[test]
    fn bodies_are_read_as_slots_by_parameter_position() {
        let (behaviour, reads_c) =
            recognized("combinator first_two(step, next):\n    step\n    next\n").expect("fits");
        assert!(!reads_c);
        assert_eq!(behaviour.when_true, [Slot::A1, Slot::A2]);
        assert_eq!(behaviour.when_false, behaviour.when_true);
        let text = "combinator loop(x, y, z):\n    if c:\n        z\n        self\n    else:\n        NOP\n";
        let (behaviour, reads_c) = recognized(text).expect("fits");
        assert!(reads_c);
        assert_eq!(behaviour.when_true, [Slot::A3, Slot::SelfSlot]);
        assert_eq!(behaviour.when_false, [Slot::Nop]);
    }

    #[test]
    fn each_rule_is_named_when_broken() {
        let rule = |body: &str| broken(&format!("combinator x(a1, a2, a3):\n{body}")).rule;
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
            broken("combinator x(a, b, c2, d):\n    a\n").rule,
            Rule::Parameters
        );
        assert_eq!(
            broken("combinator x(a, a):\n    a\n").rule,
            Rule::Parameters
        );
        assert_eq!(
            broken("combinator x(self):\n    NOP\n").rule,
            Rule::Parameters
        );
        assert_eq!(
            broken("combinator x(a1) detects _top != SENTINEL:\n    a1\n").rule,
            Rule::NoBuiltinDetector
        );
    }

    #[test]
    fn non_members_are_refused_at_the_line_to_blame() {
        // (body, the text under the label, a word of the reason)
        let cases = [
            (
                "    if c:\n        self\n        a1\n    else:\n        a2\n",
                "self",
                "before the end",
            ),
            ("    a1\n    self\n", "self", "never stop"),
            ("    a1\n    a1\n", "a1", "must be `a2`"),
            ("    a2\n", "a2", "must be `a1`"),
            ("    a1\n    a2\n    a3\n    a1\n", "a1", "fourth line"),
            (
                "    if c:\n        a2\n        a1\n    else:\n        NOP\n",
                "a1",
                "in order",
            ),
            (
                "    if c:\n        a1\n    else:\n        a1\n",
                "a1",
                "second time",
            ),
            (
                "    if c:\n        a1\n    else:\n        a2\n        self\n",
                "self",
                "`else:`",
            ),
            (
                "    if c:\n        a1\n        NOP\n    else:\n        a2\n",
                "NOP",
                "empty branch",
            ),
        ];
        for (body, under, reason) in cases {
            let text = format!("combinator x(a1, a2, a3):\n{body}");
            let violation = broken(&text);
            assert_eq!(violation.rule, Rule::Member, "{text}");
            assert_eq!(
                &text[violation.span.start..violation.span.end],
                under,
                "{text}"
            );
            assert!(violation.label.contains(reason), "{text}{violation:?}");
            assert_eq!(violation.diagnostic("x").code, codes::E0111);
        }
        // Four lines are fine when they are a member's.
        assert!(
            recognized("combinator x(a1, a2, a3):\n    if c:\n        a1\n        a2\n        a3\n        self\n    else:\n        NOP\n")
                .is_ok()
        );
    }
}

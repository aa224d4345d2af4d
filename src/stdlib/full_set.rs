//! The full combinator family for K = 4 (section 4.1 of the paper).
//!
//! The paper widens the four combinators to "all possible combinators"
//! under two constraints: branching happens only at the start, and `self`
//! is only called last (tail recursion). It counts 57 for K = 4 (`self`,
//! `a1`, `a2`, `a3`), the three basic combinators included. [`RULE`] is
//! the reading that gives exactly 57, stated once: users read it in the
//! help of E0111 and in the header of `stdlib/full_set.cnpi`. It counts
//! 3³ ways to send the three arguments to the true branch, the false
//! branch or neither, times 2 for a trailing `self`: 54 branching members;
//! and 3 prefixes that do not branch. A branch left empty runs `NOP` (as
//! `treerec`'s false branch does), since every activation makes at least
//! one call. Names are systematic ([`NAMES`]); the three basic combinators
//! keep their names from `stdlib/core.cnpi`.
//!
//! [`generate`] follows the rule; [`render`] writes the set as `combinator`
//! definitions in the text form of `core.cnpi`; `stdlib/full_set.cnpi` is
//! that text, checked in (a test regenerates and compares it), and
//! [`full_set`] reads it back through the same loader as `core.cnpi`.
//!
//! The rule for combinators programs define is the same set: a body is
//! accepted exactly when it is a member ([`member`]), its parameters read
//! by position as `a1`, `a2`, `a3`. [`departure`] says, for a body that is
//! not, which part of the rule it breaks and where; a test checks that it
//! finds a departure exactly for the non-members.

use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::diagnostic::Diagnostic;
use crate::program::{Behaviour, Slot};
use crate::syntax::ast::Item;

use super::{combinators, full_set_file, internal, parse};

/// One combinator of the family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    pub behaviour: Behaviour,
    /// Its body branches on `c` (so it takes a detector).
    pub branches: bool,
}

/// Where an argument goes in a branching member.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    True,
    False,
    Unused,
}

const ARGUMENTS: [Slot; 3] = [Slot::A1, Slot::A2, Slot::A3];

/// The members of [`RULE`] in a fixed order: the three non-branching
/// prefixes, then the branching ones by the side of `a1`, `a2`, `a3` (true,
/// false, unused) and without or with `self`.
pub fn generate() -> Vec<Member> {
    let prefixes = (1..=3).map(|n| {
        let slots = ARGUMENTS[..n].to_vec();
        Member {
            name: name(&slots, None),
            behaviour: Behaviour {
                when_true: slots.clone(),
                when_false: slots,
            },
            branches: false,
        }
    });
    let sides = [Side::True, Side::False, Side::Unused];
    let branching = (0..27).flat_map(move |code: usize| {
        let assignment = [code / 9, code / 3 % 3, code % 3].map(|i| sides[i]);
        [false, true].map(move |recursive| {
            let pick = |side| -> Vec<Slot> {
                ARGUMENTS
                    .iter()
                    .zip(assignment)
                    .filter(|(_, s)| *s == side)
                    .map(|(&slot, _)| slot)
                    .collect()
            };
            let mut when_true = pick(Side::True);
            if recursive {
                when_true.push(Slot::SelfSlot);
            }
            let when_false = pick(Side::False);
            Member {
                name: name(&when_true, Some(&when_false)),
                behaviour: Behaviour {
                    when_true: or_nop(when_true),
                    when_false: or_nop(when_false),
                },
                branches: true,
            }
        })
    });
    prefixes.chain(branching).collect()
}

fn or_nop(slots: Vec<Slot>) -> Vec<Slot> {
    if slots.is_empty() {
        vec![Slot::Nop]
    } else {
        slots
    }
}

/// The systematic name, or the basic combinator's name from `core.cnpi`.
fn name(when_true: &[Slot], when_false: Option<&[Slot]>) -> String {
    let code = |slots: &[Slot]| -> String {
        if slots.is_empty() {
            return "n".to_string();
        }
        slots
            .iter()
            .map(|slot| match slot {
                Slot::A1 => '1',
                Slot::A2 => '2',
                Slot::A3 => '3',
                _ => 's',
            })
            .collect()
    };
    let systematic = match when_false {
        None => format!("seq_{}", code(when_true)),
        Some(when_false) => format!("br_{}_{}", code(when_true), code(when_false)),
    };
    match systematic.as_str() {
        "seq_123" => "seq".to_string(),
        "br_12_3" => "cond".to_string(),
        "br_12s_3" => "linrec".to_string(),
        _ => systematic,
    }
}

/// The family rule, in one sentence: the help line of E0111 and the header
/// of `stdlib/full_set.cnpi`.
pub const RULE: &str = "a body is one of the 57 of the family (stdlib/full_set.cnpi): each \
    argument, in order, in the `if c:` branch, the `else:` branch or neither, `self` only as \
    the last line of `if c:`, `NOP` for an empty branch; or, without a branch, `a1`, `a1 a2` \
    or `a1 a2 a3`";

/// How members are named.
pub const NAMES: &str = "`br_T_F` lists the arguments of each branch (`s` for self, `n` for an \
    empty branch), `seq_P` a prefix (`seq_1`, `seq_12`); seq (`a1 a2 a3`), cond (`br_12_3`) \
    and linrec (`br_12s_3`) keep their names from core.cnpi";

/// The text of `stdlib/full_set.cnpi`.
pub fn render(members: &[Member]) -> String {
    let mut text = "# The full combinator family for K = 4 (self, a1, a2, a3), section 4.1 of\n\
                    # the paper. Generated by `cnpi::stdlib::full_set` and checked by a test;\n\
                    # do not edit by hand.\n"
        .to_string();
    for (title, paragraph) in [("The rule", RULE), ("Names", NAMES)] {
        text.push_str("#\n");
        comment(&mut text, &format!("{title}: {paragraph}."));
    }
    for member in members {
        let _ = write!(text, "\ncombinator {}(a1, a2, a3):\n", member.name);
        let lines = |text: &mut String, slots: &[Slot], indent: &str| {
            for slot in slots {
                let _ = writeln!(text, "{indent}{}", slot.name());
            }
        };
        if member.branches {
            text.push_str("  if c:\n");
            lines(&mut text, &member.behaviour.when_true, "    ");
            text.push_str("  else:\n");
            lines(&mut text, &member.behaviour.when_false, "    ");
        } else {
            lines(&mut text, &member.behaviour.when_true, "  ");
        }
    }
    text
}

/// Appends `paragraph` as `#` comment lines of at most 76 columns.
fn comment(text: &mut String, paragraph: &str) {
    let mut line = String::from("#");
    for word in paragraph.split_whitespace() {
        if line.len() > 1 && line.len() + 1 + word.len() > 76 {
            text.push_str(&line);
            text.push('\n');
            line = String::from("#");
        }
        line.push(' ');
        line.push_str(word);
    }
    text.push_str(&line);
    text.push('\n');
}

/// The member with this body (`branches`: the body branches on `c`), if
/// any: the family rule, as the checker applies it to a program's own
/// combinators.
pub fn member(behaviour: &Behaviour, branches: bool) -> Option<&'static Member> {
    static MEMBERS: OnceLock<Vec<Member>> = OnceLock::new();
    MEMBERS
        .get_or_init(generate)
        .iter()
        .find(|m| m.branches == branches && m.behaviour == *behaviour)
}

/// Why a body is not a member: where, and what the rule says there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Departure {
    /// The branch (`Some(true)` for `if c:`, `Some(false)` for `else:`) or,
    /// for a body that does not branch, `None`.
    pub branch: Option<bool>,
    /// The line of that branch (from 0), if one line is to blame.
    pub line: Option<usize>,
    /// What is wrong, for a label.
    pub reason: String,
}

/// Why `behaviour` (with `branches` as for [`member`]) is outside the
/// family, or `None` for a member. Only a message: [`member`] decides.
pub fn departure(behaviour: &Behaviour, branches: bool) -> Option<Departure> {
    if member(behaviour, branches).is_some() {
        return None;
    }
    let at = |branch, line: Option<usize>, reason: String| Departure {
        branch,
        line,
        reason,
    };
    if !branches {
        let slots = &behaviour.when_true;
        if let Some(i) = slots.iter().position(|&s| s == Slot::SelfSlot) {
            let reason = "`self` in a body that never reads `c` would never stop".to_string();
            return Some(at(None, Some(i), reason));
        }
        let wrong = (0..slots.len()).find(|&i| ARGUMENTS.get(i) != Some(&slots[i]));
        let reason = match wrong {
            Some(i) if i >= ARGUMENTS.len() => {
                "a fourth line: a body that does not branch runs at most `a1 a2 a3`".to_string()
            }
            Some(i) => format!(
                "`{}` here: a body that does not branch runs `a1`, `a1 a2` or `a1 a2 a3`, \
                 so this line must be `{}`",
                slots[i].name(),
                ARGUMENTS[i].name()
            ),
            None => "an empty body".to_string(),
        };
        return Some(at(None, wrong, reason));
    }
    let mut seen: Vec<Slot> = Vec::new();
    for (bit, slots) in [(true, &behaviour.when_true), (false, &behaviour.when_false)] {
        let branch = Some(bit);
        if slots.is_empty() {
            return Some(at(branch, None, "an empty branch: write `NOP`".into()));
        }
        let mut last: Option<Slot> = None;
        for (i, &slot) in slots.iter().enumerate() {
            let line = Some(i);
            let reason = match slot {
                Slot::SelfSlot if !bit => Some(
                    "`self` in the `else:` branch: only the `if c:` branch may end with `self`"
                        .to_string(),
                ),
                Slot::SelfSlot if i + 1 != slots.len() => Some(
                    "`self` before the end of its branch: `self` may only be called last"
                        .to_string(),
                ),
                Slot::Nop if slots.len() > 1 => Some(
                    "`NOP` beside other lines: `NOP` stands only for an empty branch".to_string(),
                ),
                slot if ARGUMENTS.contains(&slot) && seen.contains(&slot) => Some(format!(
                    "`{}` a second time: each argument goes to one branch, once",
                    slot.name()
                )),
                slot if ARGUMENTS.contains(&slot)
                    && last.is_some_and(|l| l as usize > slot as usize) =>
                {
                    Some(format!(
                        "`{}` after `{}`: a branch runs its arguments in order",
                        slot.name(),
                        last.map_or("", Slot::name)
                    ))
                }
                Slot::SelfSlot | Slot::Nop => None,
                slot if ARGUMENTS.contains(&slot) => None,
                other => Some(format!("`{}` is not a slot of the family", other.name())),
            };
            if let Some(reason) = reason {
                return Some(at(branch, line, reason));
            }
            if ARGUMENTS.contains(&slot) {
                seen.push(slot);
                last = Some(slot);
            }
        }
    }
    Some(at(
        None,
        None,
        "not one of the 57 combinators of the family".into(),
    ))
}

/// The family as read from `stdlib/full_set.cnpi`, once per process.
pub fn full_set() -> Result<&'static [Member], Diagnostic> {
    static SET: OnceLock<Result<Vec<Member>, Diagnostic>> = OnceLock::new();
    SET.get_or_init(load)
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

fn load() -> Result<Vec<Member>, Diagnostic> {
    let file = parse(full_set_file()).map_err(|mut diagnostics| diagnostics.remove(0))?;
    file.items
        .iter()
        .map(|item| {
            let Item::Combinator(decl) = item else {
                return Err(internal(
                    item.span(),
                    "full_set.cnpi may only define combinators",
                ));
            };
            let (behaviour, branches) = combinators::load_combinator(decl)?;
            Ok(Member {
                name: decl.name.name.clone(),
                behaviour,
                branches,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// `CNPI_REGENERATE=1 cargo test -p cnpi full_set` rewrites the file.
    #[test]
    fn the_checked_in_file_is_what_the_generator_writes() {
        let text = render(&generate());
        if std::env::var_os("CNPI_REGENERATE").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/stdlib/full_set.cnpi");
            std::fs::write(path, &text).expect("stdlib/ is writable");
            return;
        }
        assert_eq!(full_set_file().text, text);
        assert_eq!(full_set().expect("full_set.cnpi loads"), generate());
    }

    #[test]
    fn the_family_has_57_distinct_members_under_the_two_constraints() {
        let members = generate();
        assert_eq!(members.len(), 57);
        assert_eq!(members.iter().filter(|m| m.branches).count(), 54);
        let names: HashSet<&str> = members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names.len(), 57);
        let bodies: HashSet<String> = members
            .iter()
            .map(|m| format!("{:?}", m.behaviour))
            .collect();
        assert_eq!(bodies.len(), 57);
        for member in &members {
            for bit in [false, true] {
                let slots = member.behaviour.slots(bit);
                assert!(!slots.is_empty());
                // `self` only last; each argument at most once, in order.
                let before_last = &slots[..slots.len() - 1];
                assert!(!before_last.contains(&Slot::SelfSlot), "{}", member.name);
                let arguments: Vec<Slot> = slots
                    .iter()
                    .copied()
                    .filter(|s| ARGUMENTS.contains(s))
                    .collect();
                assert!(arguments.is_sorted_by_key(|s| *s as usize));
            }
            let b = &member.behaviour;
            assert!(!b.when_false.contains(&Slot::SelfSlot));
            if !member.branches {
                assert_eq!(b.when_true, b.when_false);
            }
        }
    }

    #[test]
    fn the_basic_combinators_are_in_the_family_as_core_cnpi_defines_them() {
        let core = &crate::stdlib::load().expect("the stdlib loads").combinators;
        let members = generate();
        let find = |name: &str| {
            members
                .iter()
                .find(|m| m.name == name)
                .map(|m| &m.behaviour)
        };
        assert_eq!(find("seq"), Some(&core.seq));
        assert_eq!(find("cond"), Some(&core.cond));
        assert_eq!(find("linrec"), Some(&core.linrec));
        assert_eq!(
            find("br_n_n"),
            Some(&Behaviour {
                when_true: vec![Slot::Nop],
                when_false: vec![Slot::Nop]
            })
        );
    }

    /// Every body of up to four lines per branch over the family's slots.
    fn small_branches() -> Vec<Vec<Slot>> {
        let slots = [Slot::SelfSlot, Slot::A1, Slot::A2, Slot::A3, Slot::Nop];
        let mut all: Vec<Vec<Slot>> = vec![Vec::new()];
        let mut level: Vec<Vec<Slot>> = vec![Vec::new()];
        for _ in 0..4 {
            level = (level.iter())
                .flat_map(|prefix| {
                    slots.iter().map(move |&s| {
                        let mut next = prefix.clone();
                        next.push(s);
                        next
                    })
                })
                .collect();
            all.extend(level.iter().cloned());
        }
        all
    }

    #[test]
    fn a_departure_is_found_exactly_for_the_bodies_outside_the_family() {
        let branches = small_branches();
        let (mut members, mut outside) = (0, 0);
        for when_true in &branches {
            let straight = Behaviour {
                when_true: when_true.clone(),
                when_false: when_true.clone(),
            };
            for (behaviour, branching) in [(straight, false)] {
                match (
                    member(&behaviour, branching),
                    departure(&behaviour, branching),
                ) {
                    (Some(_), None) => members += 1,
                    (None, Some(d)) => {
                        assert!(!d.reason.contains("not one of the 57"), "{behaviour:?}");
                        outside += 1;
                    }
                    other => panic!("{behaviour:?}: {other:?}"),
                }
            }
            for when_false in &branches {
                let behaviour = Behaviour {
                    when_true: when_true.clone(),
                    when_false: when_false.clone(),
                };
                match (member(&behaviour, true), departure(&behaviour, true)) {
                    (Some(_), None) => members += 1,
                    // Every non-member is told a specific reason.
                    (None, Some(d)) => {
                        assert!(!d.reason.contains("not one of the 57"), "{behaviour:?}");
                        outside += 1;
                    }
                    other => panic!("{behaviour:?}: {other:?}"),
                }
            }
        }
        assert_eq!(members, 57);
        assert!(outside > 600_000);
    }
}

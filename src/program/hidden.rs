//! Hidden names: the registers, locals and memory that the checker and
//! the conversion add, spelt so that no file can declare them (`_` and a
//! digit first), and read back for messages and traces.
//!
//! A local of a program (language.md §5.2) has one spelling, written and
//! read only by [`Local`]: `_`, the program's number, a tag, a slot and
//! `_` before the name the program writes. The tag says what the name
//! holds: none for a register (`_3_mid`), `p` for a parameter that hides
//! a file integer (`_0p_n`), `a` for a local array (`_0a_L`, and `_0a1_L`
//! in its second slot), `n` and `c` for that array's lengths (`_0n_L`,
//! `_0c_L`) and `s` before them for the lengths a recursive program puts
//! away (`_0sn_L`). The conversion names a local register of program `p`
//! `_p_` before its name, so a hidden local gets a second prefix
//! (`_0__0p_n`); reading unwraps it. Other hidden names (`_0`, `_1`, the
//! sugar's `_0r1`) have no written name and stay as they are.

use std::borrow::Cow;
use std::fmt;

/// Whether `name` is one the conversion gives the registers and memory it
/// adds to run calls with results on the network (`_` and digits: `_1`,
/// `_0`): the only names beginning with `_` a file may declare, and ones a
/// run does not report.
pub fn hidden(name: &str) -> bool {
    name.strip_prefix('_').is_some_and(|rest| {
        rest.bytes().next().is_some_and(|b| b.is_ascii_digit())
            && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// A local's hidden name, read or to be written (see the module
/// documentation for the spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Local<'a> {
    /// The number of the program whose local it is.
    pub program: usize,
    /// What the name holds: `""`, `p`, `a`, `n`, `c`, `sn` or `sc`.
    pub tag: &'a str,
    /// The slot of a local array (0: the first, spelt without a number).
    pub slot: usize,
    /// The name as the program writes it.
    pub written: &'a str,
}

impl<'a> Local<'a> {
    /// The local `written` of program `program`, with `tag`, in slot 0.
    pub fn new(program: usize, tag: &'a str, written: &'a str) -> Self {
        Local {
            program,
            tag,
            slot: 0,
            written,
        }
    }

    /// Reads `name`; `None` when it is not a local's hidden name. A name
    /// the conversion prefixed again (`_0__0p_n`) reads as the inner one.
    pub fn parse(name: &'a str) -> Option<Self> {
        let rest = name.strip_prefix('_')?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let program = rest[..digits].parse().ok()?;
        let rest = &rest[digits..];
        let letters = rest.bytes().take_while(u8::is_ascii_lowercase).count();
        let (tag, rest) = rest.split_at(letters);
        let numbers = rest.bytes().take_while(u8::is_ascii_digit).count();
        let slot = match numbers {
            0 => 0,
            _ if tag.is_empty() => return None,
            _ => rest[..numbers].parse().ok()?,
        };
        let written = rest[numbers..].strip_prefix('_')?;
        if written.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return None;
        }
        match Local::parse(written) {
            Some(inner) if tag.is_empty() && inner.program == program => Some(inner),
            _ => Some(Local {
                program,
                tag,
                slot,
                written,
            }),
        }
    }

    /// The same local in slot `slot` (a second array for a recursive
    /// call that is passed the first: see `check::arrays`).
    pub fn in_slot(self, slot: usize) -> Self {
        Local { slot, ..self }
    }

    /// How it reads in a trace: a register, parameter or array as
    /// written, a length as `len(L)` or `len(L[0])`; `None` for what the
    /// program does not write (a saved length).
    pub fn shown(&self) -> Option<Cow<'a, str>> {
        match self.tag {
            "" | "p" | "a" => Some(self.written.into()),
            "n" => Some(format!("len({})", self.written).into()),
            "c" => Some(format!("len({}[0])", self.written).into()),
            _ => None,
        }
    }

    /// Whether it is a register of the program (a local or a parameter),
    /// as opposed to an array, a length or a saved length.
    pub fn register(&self) -> bool {
        matches!(self.tag, "" | "p")
    }
}

impl fmt::Display for Local<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_{}{}", self.program, self.tag)?;
        if self.slot > 0 {
            write!(f, "{}", self.slot)?;
        }
        write!(f, "_{}", self.written)
    }
}

/// The name a hidden name stands for, in messages: `L` for the local
/// array `_0a_L` (and `_0a1_L`, its second slot) and for the local
/// register `_0_L` of the combinatory form; any other name as it is.
pub fn written(name: &str) -> &str {
    Local::parse(name).map_or(name, |local| local.written)
}

/// How a register of a program reads in a trace's `locals`: a local or
/// a parameter as written, any other name not hidden as it is; `None` for
/// what the program does not write (a hidden name, an array's length).
pub fn register_shown(name: &str) -> Option<&str> {
    let shown = match Local::parse(name) {
        Some(local) if local.register() => local.written,
        Some(_) => return None,
        None => name,
    };
    (!hidden(shown)).then_some(shown)
}

/// `text` (a line of `--trace`) with each hidden name of a local as the
/// program writes it ([`Local::shown`]); every other name, hidden or not,
/// as it is.
pub fn as_written(text: &str) -> Cow<'_, str> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if !text.contains('_') {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(word) {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let end = tail.find(|c: char| !word(c)).unwrap_or(tail.len());
        let name = &tail[..end];
        match Local::parse(name).and_then(|local| local.shown()) {
            Some(shown) => out.push_str(&shown),
            None => out.push_str(name),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out.into()
}

#[cfg(test)]
mod tests {
    use super::{Local, as_written, written};

    #[test]
    fn hidden_names_are_shown_as_written() {
        assert_eq!(written("_0a_L"), "L");
        assert_eq!(written("_0a1_L"), "L");
        assert_eq!(written("_0z1"), "_0z1");
        assert_eq!(written("_12a_buf"), "buf");
        assert_eq!(written("_3_mid"), "mid");
        assert_eq!(written("_0__0p_n"), "n");
        assert_eq!(written("_0r1"), "_0r1");
        assert_eq!(written("_"), "_");
        assert_eq!(written("_a_L"), "_a_L");
        assert_eq!(written("_0_"), "_0_");
        assert_eq!(written("lo"), "lo");
    }

    #[test]
    fn a_local_spells_as_it_reads() {
        for name in ["_0a_L", "_0a1_L", "_12_mid", "_3sn_B", "_0p_n", "_7c2_M"] {
            assert_eq!(
                Local::parse(name).map(|l| l.to_string()).as_deref(),
                Some(name)
            );
        }
        let array = Local::new(4, "a", "buf");
        assert_eq!(array.in_slot(1).to_string(), "_4a1_buf");
        assert_eq!(Local::parse("_4a1_buf"), Some(array.in_slot(1)));
        assert_eq!(Local::parse("_1__1_i"), Local::parse("_1_i"));
        // A prefix of another program is not unwrapped.
        assert_eq!(Local::parse("_1__2_i").map(|l| l.written), Some("_2_i"));
    }

    #[test]
    fn trace_lines_show_locals_as_written() {
        assert_eq!(
            as_written("SET(_0_k, _12a_buf[_3_i] + x_1) r=0"),
            "SET(k, buf[i] + x_1) r=0"
        );
        assert_eq!(
            as_written("WRITE(_0n_L, _2c_M)"),
            "WRITE(len(L), len(M[0]))"
        );
        assert_eq!(as_written("SET(_0__0p_n, n)"), "SET(n, n)");
        // Result registers, temporaries, saved lengths and builtins stay
        // as they are.
        assert_eq!(
            as_written("WRITE(_0, _1 + _0z2) _enter(0) _0sn_B"),
            "WRITE(_0, _1 + _0z2) _enter(0) _0sn_B"
        );
        assert_eq!(
            as_written("F_SEQ_L4 seq c=1 → a1 NOP"),
            "F_SEQ_L4 seq c=1 → a1 NOP"
        );
    }
}

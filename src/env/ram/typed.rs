//! Reading a valid `ram` input straight from its text into memory.
//!
//! [`members`] scans the JSON object byte by byte, each declared input
//! member's integers straight into its [`Region`] (a matrix row by row
//! into one flat vector), with no `serde_json::Value` tree and no serde
//! visitor. No crate does this for us: the tree costs an allocation per
//! number (`arbitrary_precision` keeps each number's text), and even
//! serde_json's typed path (a visitor per row, `deserialize_i64` per
//! number) spent about 200 instructions per integer on a 1024 × 1024
//! matrix, more than the input's share of a whole run of Prim; a loop
//! over the bytes takes a few per digit. The scanner accepts only what the
//! checked path (`RamState::read` on the value `input::parse_json` gives)
//! accepts with the same result, and gives up (`None`) on anything else:
//! a number that is no i64 (a fraction, an exponent, too many digits), a
//! ragged matrix, a key written twice, a key with an escape, a syntax
//! error, nesting deeper than [`MAX_DEPTH`]. The caller then reads the
//! input the checked way, which finds the error and words its diagnostic,
//! so every diagnostic stays exactly what it was. Members the program does
//! not declare are checked to be JSON the checked path parses (giving up
//! on what it is unsure of: `\u` escapes, deep nesting) and dropped, as
//! the checked path leaves them. A matrix is read into one vector made
//! at once, a large one on two threads ([`Scan::matrix`]).

use super::Region;
use crate::env::Declarations;
use crate::program::DataKind;

/// A declared input member as read: its memory and its lengths.
pub(super) type Member = (Region, Vec<usize>);

/// How deep the scanner follows an undeclared member (the top object is
/// depth 1); deeper, it gives up. serde_json refuses nesting past 128
/// levels, so everything the scanner follows is within its limit.
const MAX_DEPTH: usize = 64;

/// The input members of `layout` (by data id; `None` where the text has
/// none) read from `text`, or `None` when the text is not a valid input
/// the fast way can read (see the module documentation).
pub(super) fn members(layout: &Declarations, text: &str) -> Option<Vec<Option<Member>>> {
    let data = &layout.data;
    let mut found: Vec<Option<Member>> = vec![None; data.len()];
    let mut others: Vec<&str> = Vec::new();
    let mut scan = Scan { text, at: 0 };
    scan.sequence(b'{', b'}', |scan| {
        let key = scan.key()?;
        scan.expect(b':')?;
        let declared = (data.iter()).position(|d| d.kind == DataKind::Input && d.name == key);
        match declared {
            Some(id) if found[id].is_none() => {
                found[id] = Some(scan.member(data[id].dims.len())?);
            }
            None if !others.contains(&key) => {
                scan.value(2)?;
                others.push(key);
            }
            // A key written twice: the checked path refuses it.
            _ => return None,
        }
        Some(())
    })?;
    (scan.peek().is_none()).then_some(found)
}

/// The text, from a matrix's `[` on, above which the matrix is read on two
/// threads (see [`Scan::matrix`]): a 1024 × 1024 weight matrix is about
/// 4.7 MB; reading 1 MiB takes milliseconds, far more than starting a
/// thread.
pub(super) const PARALLEL_BYTES: usize = 1 << 20;

/// A matrix as read: its integers, row-major; how many rows; the length
/// of each.
#[derive(Default)]
struct Rows {
    values: Vec<i64>,
    rows: usize,
    cols: usize,
}

/// A place in the input text. Every method reads one JSON item at the
/// place (after any whitespace) and moves past it, or gives up (`None`).
struct Scan<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Scan<'t> {
    /// The byte at the place.
    fn byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// The next byte that is not JSON whitespace, not taken; `None` at
    /// the end.
    fn peek(&mut self) -> Option<u8> {
        self.at = after_blanks(self.text.as_bytes(), self.at);
        self.byte()
    }

    /// Takes `byte`, after any whitespace.
    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// `open`, the items `item` reads separated by commas, and `close`.
    #[inline]
    fn sequence(
        &mut self,
        open: u8,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        self.expect(open)?;
        if self.peek()? == close {
            self.at += 1;
            return Some(());
        }
        loop {
            item(self)?;
            match self.peek()? {
                b',' => self.at += 1,
                byte if byte == close => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A declared member of `dims` dimensions: an integer, an array or a
    /// matrix (equal-length rows of integers, into one row-major vector).
    fn member(&mut self, dims: usize) -> Option<Member> {
        match dims {
            0 => {
                self.peek()?;
                let (k, end) = integer(self.text.as_bytes(), self.at)?;
                self.at = end;
                Some((Region::Scalar(k), Vec::new()))
            }
            1 => {
                let mut values = Vec::new();
                self.integers(|k| {
                    values.push(k);
                    Some(())
                })?;
                let n = values.len();
                Some((Region::Array(values), vec![n]))
            }
            2 => {
                let Rows { values, rows, cols } = self.matrix()?;
                Some((Region::Matrix { rows, cols, values }, vec![rows, cols]))
            }
            _ => None,
        }
    }

    /// A matrix's rows, into one vector made at once: zeroed memory for as
    /// many integers as the text left could hold (two bytes each at
    /// least), which the system maps only as it is written, cut to what
    /// was read at the end; nothing is copied. A large matrix is read on
    /// two threads: another thread reads from the first `[` after the
    /// middle of the text left to the matrix's end, into the vector from
    /// the row that the `[`s before it count (each starts a row where the
    /// matrix is valid), and this one reads up to that `[`. Where this
    /// thread comes to that `[` at a row's start, the other's rows are the
    /// rest; where the matrix ends before it, the other's reading (of
    /// something else) is dropped; anything else, or no thread, is given
    /// up. Either way the rows and the place after the matrix are those of
    /// a reading on one thread.
    fn matrix(&mut self) -> Option<Rows> {
        self.expect(b'[')?;
        if self.peek()? == b']' {
            self.at += 1;
            return Some(Rows::default());
        }
        let (text, left) = (self.text, self.text.len() - self.at);
        let mut values = vec![0; left / 2 + 1];
        // The first row's length, read ahead.
        let cols = Scan { ..*self }.row(&mut values)?;
        let split = (left >= PARALLEL_BYTES).then(|| {
            let middle = self.at + left / 2;
            let next = text.as_bytes()[middle..].iter().position(|&b| b == b'[')?;
            let rows = count(b'[', &text.as_bytes()[self.at..middle + next]);
            let fits = rows.checked_mul(cols).is_some_and(|n| n <= values.len());
            fits.then_some((middle + next, rows))
        });
        let rows = match split.flatten() {
            None => self.rows(&mut values, cols, usize::MAX)?.0,
            Some((split, near_rows)) => {
                let (near, far) = values.split_at_mut(near_rows * cols);
                std::thread::scope(|scope| {
                    let read = move || {
                        let mut scan = Scan { text, at: split };
                        let (rows, ended) = scan.rows(far, cols, usize::MAX)?;
                        ended.then_some((rows, scan.at))
                    };
                    // No thread: the checked path reads it.
                    let ahead = std::thread::Builder::new().spawn_scoped(scope, read).ok()?;
                    let (rows, ended) = self.rows(near, cols, split)?;
                    let far = ahead
                        .join()
                        .unwrap_or_else(|e| std::panic::resume_unwind(e));
                    match (ended, far) {
                        (true, _) => Some(rows),
                        (false, Some((far_rows, at))) if rows == near_rows => {
                            self.at = at;
                            Some(rows + far_rows)
                        }
                        _ => None,
                    }
                })?
            }
        };
        values.truncate(rows * cols);
        values.shrink_to_fit();
        Some(Rows { values, rows, cols })
    }

    /// A matrix's rows from the one at the place, each of `cols` integers,
    /// into `values` one after another, up to its `]`, taken (`true`), or
    /// up to the row that starts at `stop` (`false`); how many rows.
    fn rows(&mut self, values: &mut [i64], cols: usize, stop: usize) -> Option<(usize, bool)> {
        let mut rows = 0;
        loop {
            if self.peek()? == b'[' && self.at == stop {
                return Some((rows, false));
            }
            let row = values.get_mut(rows * cols..)?;
            (self.row(row)? == cols).then(|| rows += 1)?;
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some((rows, true));
                }
                _ => return None,
            }
        }
    }

    /// An array of integers into `values` (giving up where they do not
    /// fit); how many.
    fn row(&mut self, values: &mut [i64]) -> Option<usize> {
        let mut slots = values.iter_mut();
        let mut n = 0;
        self.integers(|k| {
            *slots.next()? = k;
            n += 1;
            Some(())
        })?;
        Some(n)
    }

    /// An array of integers, each given to `put` (which may give up).
    #[inline(always)]
    fn integers(&mut self, mut put: impl FnMut(i64) -> Option<()>) -> Option<()> {
        let bytes = self.text.as_bytes();
        let mut at = after_blanks(bytes, self.at);
        (bytes.get(at) == Some(&b'[')).then_some(())?;
        at = after_blanks(bytes, at + 1);
        if bytes.get(at) != Some(&b']') {
            loop {
                let (k, end) = integer(bytes, at)?;
                put(k)?;
                at = after_blanks(bytes, end);
                match bytes.get(at) {
                    Some(b',') => at = after_blanks(bytes, at + 1),
                    Some(b']') => break,
                    _ => return None,
                }
            }
        }
        self.at = at + 1;
        Some(())
    }

    /// An object key without escapes (the checked path would compare it
    /// unescaped).
    fn key(&mut self) -> Option<&'t str> {
        self.expect(b'"')?;
        let start = self.at;
        loop {
            match self.byte()? {
                b'"' => break,
                b'\\' => return None,
                byte if byte < 0x20 => return None,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        self.text.get(start..self.at - 1)
    }

    /// Any JSON value at nesting `depth`, checked and dropped.
    fn value(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'[' => self.sequence(b'[', b']', |scan| scan.value(depth + 1)),
            b'{' => self.sequence(b'{', b'}', |scan| {
                scan.string()?;
                scan.expect(b':')?;
                scan.value(depth + 1)
            }),
            b'"' => self.string(),
            b't' => self.word("true"),
            b'f' => self.word("false"),
            b'n' => self.word("null"),
            _ => self.number(),
        }
    }

    /// A string, with the escapes that stand for one character; a `\u`
    /// escape is given up (serde_json refuses a lone surrogate).
    fn string(&mut self) -> Option<()> {
        self.expect(b'"')?;
        loop {
            match self.byte()? {
                b'"' => break,
                b'\\' => match self.text.as_bytes().get(self.at + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.at += 2,
                    _ => return None,
                },
                byte if byte < 0x20 => return None,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        Some(())
    }

    /// The literal `word`.
    fn word(&mut self, word: &str) -> Option<()> {
        let rest = self.text.get(self.at..)?;
        rest.starts_with(word).then(|| self.at += word.len())
    }

    /// A JSON number: an integer part as [`Scan::integer`] takes it (of
    /// any length), then maybe a fraction and an exponent.
    fn number(&mut self) -> Option<()> {
        self.at += usize::from(self.byte()? == b'-');
        let lead = self.byte()?;
        let whole = self.digits();
        if whole == 0 || (whole > 1 && lead == b'0') {
            return None;
        }
        if self.byte() == Some(b'.') {
            self.at += 1;
            (self.digits() > 0).then_some(())?;
        }
        if let Some(b'e' | b'E') = self.byte() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.byte() {
                self.at += 1;
            }
            (self.digits() > 0).then_some(())?;
        }
        Some(())
    }

    /// How many digits follow, taken.
    fn digits(&mut self) -> usize {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.byte() {
            self.at += 1;
        }
        self.at - start
    }
}

/// The place of the first byte at or after `at` that is not JSON
/// whitespace. A single space, as `, ` puts between integers, is taken
/// without a loop.
#[inline(always)]
fn after_blanks(bytes: &[u8], mut at: usize) -> usize {
    if bytes.get(at) == Some(&b' ') {
        at += 1;
    }
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(at) {
        at += 1;
    }
    at
}

/// How many times `byte` occurs in `bytes`, 64 bytes at a time (a loop
/// the compiler makes vector instructions of).
fn count(byte: u8, bytes: &[u8]) -> usize {
    let chunk = |chunk: &[u8]| chunk.iter().map(|&b| u8::from(b == byte)).sum::<u8>();
    bytes
        .chunks(64)
        .map(|bytes| usize::from(chunk(bytes)))
        .sum()
}

/// The JSON integer at `at` if it is an i64, and the place after it: `-`,
/// then `0` or digits not starting with `0`, as the checked path reads it
/// (`-0` is 0). What may follow is the caller's to check, so `1.5` and
/// `1e3` are given up there.
#[inline(always)]
fn integer(bytes: &[u8], at: usize) -> Option<(i64, usize)> {
    let negative = bytes.get(at) == Some(&b'-');
    let start = at + usize::from(negative);
    let mut end = start;
    // Nineteen digits never wrap a u64 (10^19 < 2^64); more are never an
    // i64.
    let mut value = 0u64;
    while let Some(&byte) = bytes.get(end) {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
        end += 1;
    }
    let digits = end - start;
    if digits == 0 || digits > 19 || (digits > 1 && bytes[start] == b'0') {
        return None;
    }
    let k = match negative {
        true => 0i64.checked_sub_unsigned(value),
        false => i64::try_from(value).ok(),
    };
    Some((k?, end))
}

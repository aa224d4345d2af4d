//! Long source lines cut down to what a reader can use.
//!
//! ariadne prints every labelled line whole; a generated line of 10^5
//! characters would be printed whole for each diagnostic on it. [`Cut`]
//! keeps, on each labelled line longer than [`LONG_LINE`] bytes, only
//! [`CONTEXT`] bytes either side of each label's start and end, and puts
//! `…` for the rest. Other lines, and so the line numbers, stay as they
//! are; [`Cut::map`] moves label offsets into the cut text, and
//! [`Cut::column`] gives the true column for the report's header.

/// Lines longer than this many bytes are cut around their labels.
pub const LONG_LINE: usize = 200;
/// Bytes kept either side of a label's start and end on a cut line.
pub const CONTEXT: usize = 60;

const ELLIPSIS: &str = "…";

/// A text with some stretches of long lines left out.
pub struct Cut {
    pub text: String,
    /// The left-out byte ranges of the original text, in order.
    dropped: Vec<(usize, usize)>,
}

impl Cut {
    /// `text` with its long lines cut around `points` (byte offsets of the
    /// labels' starts and ends); `None` when no labelled line is long.
    pub fn new(text: &str, points: &[usize]) -> Option<Cut> {
        let mut keep: Vec<(usize, usize)> = Vec::new();
        let mut long_lines: Vec<(usize, usize)> = Vec::new();
        for &point in points {
            let point = floor_boundary(text, point.min(text.len()));
            let (start, end) = line_around(text, point);
            if end - start <= LONG_LINE {
                continue;
            }
            long_lines.push((start, end));
            let from = floor_boundary(text, point.saturating_sub(CONTEXT).max(start));
            let to = ceil_boundary(text, (point + CONTEXT).min(end));
            keep.push((from, to));
        }
        if long_lines.is_empty() {
            return None;
        }
        long_lines.sort_unstable();
        long_lines.dedup();
        keep.sort_unstable();
        // The dropped ranges: each long line minus the windows kept on it.
        let mut dropped = Vec::new();
        for (start, end) in long_lines {
            let mut at = start;
            for &(from, to) in keep.iter().filter(|&&(f, _)| f >= start && f <= end) {
                if from > at {
                    dropped.push((at, from));
                }
                at = at.max(to);
            }
            if at < end {
                dropped.push((at, end));
            }
        }
        let mut cut = String::with_capacity(text.len());
        let mut at = 0;
        for &(from, to) in &dropped {
            cut.push_str(&text[at..from]);
            cut.push_str(ELLIPSIS);
            at = to;
        }
        cut.push_str(&text[at..]);
        Some(Cut { text: cut, dropped })
    }

    /// Where the original byte offset `offset` lies in the cut text (an
    /// offset inside a left-out stretch goes to its `…`).
    pub fn map(&self, offset: usize) -> usize {
        let mut shift = 0isize;
        for &(from, to) in &self.dropped {
            if offset < to {
                if offset > from {
                    return (from as isize - shift) as usize;
                }
                break;
            }
            shift += (to - from) as isize - ELLIPSIS.len() as isize;
        }
        (offset as isize - shift) as usize
    }
}

/// The 1-based column (in characters) of byte `offset` in `text`.
pub fn column(text: &str, offset: usize) -> usize {
    let offset = floor_boundary(text, offset.min(text.len()));
    let (start, _) = line_around(text, offset);
    text[start..offset].chars().count() + 1
}

/// The byte range of the line holding `offset`, without its line break.
fn line_around(text: &str, offset: usize) -> (usize, usize) {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    (start, end)
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn ceil_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset += 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_not_cut() {
        assert!(Cut::new("f(a\nb)\n", &[1, 2]).is_none());
    }

    #[test]
    fn a_long_line_keeps_only_the_windows_around_its_labels() {
        let text = format!(
            "env array()\n{}X{}\nlast\n",
            "(".repeat(5000),
            "y".repeat(5000)
        );
        let at = text.find('X').unwrap();
        let cut = Cut::new(&text, &[at, at + 1]).expect("cut");
        assert!(cut.text.len() < 2 * CONTEXT + 40, "{}", cut.text.len());
        assert!(cut.text.starts_with("env array()\n…"));
        assert!(cut.text.ends_with("…\nlast\n"));
        assert_eq!(&cut.text[cut.map(at)..cut.map(at + 1)], "X");
        assert_eq!(cut.map(text.len()), cut.text.len());
        assert_eq!(column(&text, at), 5001);
    }

    #[test]
    fn multibyte_characters_are_not_split() {
        let text = "é".repeat(300);
        let cut = Cut::new(&text, &[300]).expect("cut");
        assert!(cut.text.chars().all(|c| c == 'é' || c == '…'));
    }

    /// A label whose offset falls inside a character (a hand-edited
    /// `.cnpim`'s span) is taken from the character's start.
    #[test]
    fn a_label_inside_a_character_does_not_panic() {
        let text = format!("{}\nnext\n", "é".repeat(300));
        let cut = Cut::new(&text, &[301, 303]).expect("cut");
        assert!(cut.text.ends_with("\nnext\n"));
        assert_eq!(column(&text, 301), 151);
    }
}

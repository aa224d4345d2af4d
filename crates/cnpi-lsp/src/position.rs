//! Byte offsets (what the compiler's spans hold) to LSP positions and back.
//!
//! LSP counts a position's character in UTF-16 code units by default; the
//! compiler counts bytes. [`LineIndex`] converts between the two for one
//! text: a character past the end of its line lands at the line's end, a
//! line past the end of the text at the end of the text, and an offset
//! inside a multi-byte character at that character's start, so that no
//! client input can make the server slice a string badly. On a line of
//! ASCII text a byte is a UTF-16 unit, and the conversion takes constant
//! time: a long line with many names costs no more than a short one.

use cnpi::span::Span;
use lsp_types::{Position, Range};

/// The start of every line of one text, and whether the line is ASCII.
pub struct LineIndex {
    starts: Vec<usize>,
    ascii: Vec<bool>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let ends = starts.iter().skip(1).copied().chain([text.len()]);
        let ascii = starts
            .iter()
            .zip(ends)
            .map(|(&start, end)| text.as_bytes()[start..end].is_ascii())
            .collect();
        LineIndex { starts, ascii }
    }

    /// The position of byte `offset` of `text`.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_boundary(text, offset);
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let start = self.starts[line];
        let character: usize = if self.ascii[line] {
            offset - start
        } else {
            text[start..offset].chars().map(char::len_utf16).sum()
        };
        Position::new(to_u32(line), to_u32(character))
    }

    /// The byte offset of `position` in `text`.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(text.len(), |&next| next - 1);
        let wanted = position.character as usize;
        if self.ascii[position.line as usize] {
            return start.saturating_add(wanted).min(end);
        }
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= wanted {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    pub fn range(&self, text: &str, span: Span) -> Range {
        Range::new(
            self.position(text, span.start),
            self.position(text, span.end),
        )
    }
}

/// The largest character boundary of `text` at or before `offset`.
fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_round_trip() {
        // `é` is one UTF-16 unit (two bytes), `𝔸` two units (four bytes).
        let text = "# é𝔸x\nA[j] ≤ 1\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text, x), Position::new(0, 5));
        assert_eq!(index.offset(text, Position::new(0, 5)), x);
        let one = text.find('1').unwrap();
        assert_eq!(index.position(text, one), Position::new(1, 7));
        assert_eq!(index.offset(text, Position::new(1, 7)), one);
    }

    #[test]
    fn ascii_lines_beside_others_convert_alike() {
        let text = "def A: x\n# ≠ é\nB[i] < 2\n";
        let index = LineIndex::new(text);
        for (offset, _) in text.char_indices() {
            let position = index.position(text, offset);
            assert_eq!(index.offset(text, position), offset, "{position:?}");
        }
        let two = text.find('2').unwrap();
        assert_eq!(index.position(text, two), Position::new(2, 7));
    }

    #[test]
    fn out_of_range_positions_are_clamped() {
        let text = "ab\ncd";
        let index = LineIndex::new(text);
        assert_eq!(index.offset(text, Position::new(0, 99)), 2);
        assert_eq!(index.offset(text, Position::new(7, 0)), text.len());
        assert_eq!(index.position(text, 99), Position::new(1, 2));
        // Inside a multi-byte character: its start.
        let text = "é";
        assert_eq!(LineIndex::new(text).position(text, 1), Position::new(0, 0));
    }
}

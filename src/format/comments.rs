//! The comments of a source text, and the facts about its lines the
//! formatter keeps: where a line ends, and whether a blank line separates
//! two places.
//!
//! The lexer drops comments, so they are found here by scanning the text:
//! the language has no string literals, so every `#` starts a comment that
//! runs to the end of its line.

/// One comment: its text from `#` (trailing spaces removed), where it
/// starts, and whether code precedes it on its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub start: usize,
    pub text: String,
    pub trailing: bool,
    /// The column (in bytes) of its `#`.
    pub column: usize,
}

/// Every comment of `source`, in order.
pub fn comments(source: &str) -> Vec<Comment> {
    let mut found = Vec::new();
    let mut line_start = 0;
    for line in source.split_inclusive('\n') {
        if let Some(hash) = line.find('#') {
            found.push(Comment {
                start: line_start + hash,
                text: line[hash..].trim_end().to_string(),
                trailing: !line[..hash].trim().is_empty(),
                column: hash,
            });
        }
        line_start += line.len();
    }
    found
}

/// The offset of the end of the line holding `offset` (its `\n`, or the end
/// of the text).
pub fn line_end(source: &str, offset: usize) -> usize {
    let offset = offset.min(source.len());
    source[offset..]
        .find('\n')
        .map_or(source.len(), |i| offset + i)
}

/// True when a line holding only white space lies between `from` and `to`
/// (`from` being the end of a line).
pub fn blank_between(source: &str, from: usize, to: usize) -> bool {
    from < to && source[from..to].matches('\n').count() >= 2
}

/// The byte column of `offset` on its line.
pub fn column(source: &str, offset: usize) -> usize {
    let offset = offset.min(source.len());
    offset - source[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// The start of the first token at or after `from` (skipping white space
/// and comments): where `else` stands after the block of its `if`.
pub fn next_token(source: &str, from: usize) -> usize {
    let mut in_comment = false;
    for (i, c) in source[from..].char_indices() {
        match c {
            '\n' => in_comment = false,
            _ if in_comment || c.is_whitespace() => {}
            '#' => in_comment = true,
            _ => return from + i,
        }
    }
    source.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_own_line_and_trailing_comments() {
        let source = "# head\nenv array(P = 0)  # the env \n  # deep\n";
        let found = comments(source);
        assert_eq!(found.len(), 3);
        assert_eq!((found[0].start, found[0].trailing), (0, false));
        assert_eq!(found[1].text, "# the env");
        assert!(found[1].trailing);
        assert_eq!((found[2].column, found[2].trailing), (2, false));
    }

    #[test]
    fn blank_lines_and_line_ends() {
        let source = "a\n\n  \nb\nc";
        assert!(blank_between(source, 1, 6));
        assert!(!blank_between(source, 7, 9));
        assert_eq!(line_end(source, 6), 7);
        assert_eq!(line_end(source, 8), 9);
        assert_eq!(column(source, 5), 2);
    }

    #[test]
    fn else_is_found_past_comments() {
        let source = "  NOP # else here\nelse:";
        assert_eq!(next_token(source, 5), 18);
    }
}

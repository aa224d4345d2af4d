//! What the standard library says about a name, for hover and completion.
//!
//! The stdlib files the compiler embeds (`cnpi::stdlib::files`) are parsed
//! once. A combinator's entry is its definition in `stdlib/core.cnpi` and
//! the first sentence of the comment above it (its one-line meaning); an
//! ACT's or observation's entry is its signature in `stdlib/<env>.cnpi`
//! with the comment above it.

use std::sync::OnceLock;

use cnpi::stdlib;
use cnpi::syntax::{self, ast};

use crate::document::trimmed_text;

struct File {
    /// `core`, `array`, `graph`...: the file's stem.
    stem: String,
    text: &'static str,
    tree: ast::File,
}

fn files() -> &'static [File] {
    static FILES: OnceLock<Vec<File>> = OnceLock::new();
    FILES.get_or_init(|| {
        stdlib::files()
            .iter()
            .map(|file| {
                let stem = file
                    .name
                    .rsplit('/')
                    .next()
                    .unwrap_or(&file.name)
                    .trim_end_matches(".cnpi")
                    .to_string();
                File {
                    stem,
                    text: file.text,
                    tree: syntax::parse(file.text, file.id).0,
                }
            })
            .collect()
    })
}

fn file(stem: &str) -> Option<&'static File> {
    files().iter().find(|f| f.stem == stem)
}

/// A stdlib declaration as documented: its source text and the comment
/// above it.
pub struct Documented {
    pub code: String,
    pub comment: Vec<String>,
}

impl Documented {
    /// The first sentence of the comment: a combinator's one-line meaning.
    pub fn meaning(&self) -> String {
        let joined = self.comment.join(" ");
        match joined.find(". ") {
            Some(end) => joined[..=end].to_string(),
            None => joined,
        }
    }
}

fn entry(file: &File, span: cnpi::span::Span) -> Documented {
    Documented {
        code: trimmed_text(file.text, span),
        comment: comment_above(file.text, span.start),
    }
}

/// The comment lines right above byte `offset` (the start of an item),
/// without their `#`.
fn comment_above(text: &str, offset: usize) -> Vec<String> {
    let before = &text[..text[..offset].rfind('\n').map_or(0, |i| i + 1)];
    let mut lines: Vec<String> = before
        .lines()
        .rev()
        .take_while(|line| line.trim_start().starts_with('#'))
        .map(|line| {
            let line = line.trim_start().trim_start_matches('#');
            line.strip_prefix(' ')
                .unwrap_or(line)
                .trim_end()
                .to_string()
        })
        .collect();
    lines.reverse();
    lines
}

/// The combinator `name` of `stdlib/core.cnpi`.
pub fn combinator(name: &str) -> Option<Documented> {
    let core = file("core")?;
    core.tree.items.iter().find_map(|item| match item {
        ast::Item::Combinator(c) if c.name.name == name => Some(entry(core, c.span)),
        _ => None,
    })
}

/// The combinators programs apply (`_mapself` is built in and left out).
pub fn combinator_names() -> Vec<String> {
    file("core")
        .map(|core| {
            core.tree
                .items
                .iter()
                .filter_map(|item| match item {
                    ast::Item::Combinator(c) if !c.name.name.starts_with('_') => {
                        Some(c.name.name.clone())
                    }
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What the environment `env` declares: its ACTs and observations, each
/// with its name, whether it is an ACT, and its entry (overloads such as
/// `OUT(pointer)` and `OUT(OK)` are separate entries).
pub fn env_items(env: &str) -> Vec<(String, bool, Documented)> {
    let Some(file) = file(env).filter(|f| f.stem != "core") else {
        return Vec::new();
    };
    file.tree
        .items
        .iter()
        .filter_map(|item| match item {
            ast::Item::Act(act) => Some((act.name.name.clone(), true, entry(file, act.span))),
            ast::Item::Observe(o) => Some((o.name.name.clone(), false, entry(file, o.span))),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinators_come_with_their_meaning() {
        let linrec = combinator("linrec").expect("core.cnpi defines linrec");
        assert!(linrec.code.starts_with("combinator linrec(a1, a2, a3):"));
        assert!(linrec.code.contains("self"));
        assert_eq!(
            linrec.meaning(),
            "linrec(c?; a1, a2, a3): linear (tail) recursion, a while loop."
        );
        assert!(combinator("nosuch").is_none());
        assert_eq!(
            combinator_names(),
            ["seq", "cond", "linrec", "treerec"].map(String::from)
        );
    }

    #[test]
    fn acts_have_their_signatures() {
        let items = env_items("array");
        let outs: Vec<&str> = items
            .iter()
            .filter(|(name, act, _)| name == "OUT" && *act)
            .map(|(_, _, e)| e.code.as_str())
            .collect();
        assert_eq!(outs, ["act OUT(pointer)", "act OUT(OK)"]);
        assert!(env_items("core").is_empty());
    }
}

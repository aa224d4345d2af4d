//! Hover: what the name under the cursor is, and what a diagnostic code
//! means.
//!
//! A `def` shows its text (after its parameters and whether it returns a
//! value, when it has either); a parameter which call sets it; a
//! combinator its definition in
//! `stdlib/core.cnpi` and its one-line meaning, or, for one the file
//! defines, its text and the member of the family it is; an ACT or
//! observation its signatures in `stdlib/<env>.cnpi`; a pointer its
//! declaration; a `ram` program's data name its shape (an input array and
//! its length, a scratch matrix and its start) and a size what it
//! measures. A diagnostic code under the cursor (`E0101` in a comment), or
//! a diagnostic whose span holds the cursor, adds the first paragraph of
//! `cnpic explain`. A local of a `ram` program (language.md §5.2), or a
//! parameter that is one, says so.

use cnpi::diagnostic::Code;
use cnpi::syntax::ast;

use crate::document::{Document, Role};
use crate::{data, library, locals};

/// The hover text (markdown) at byte `offset`, if there is anything to say.
pub fn hover(document: &Document, offset: usize) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(name) = document.name_at(offset) {
        match name.role {
            Role::Hole(kind) => parts.push(format!(
                "A hole for `cnpic learn` to fill from examples: {}",
                kind.describe()
            )),
            role => {
                let text = document.name_text(name);
                match locals::local(document, offset, text) {
                    Some(local) if role != Role::Definition => parts.push(locals::describe(&local)),
                    _ => parts.extend(describe(document, text, role)),
                }
            }
        }
    }
    if let Some(word) = word_at(&document.text, offset)
        && let Some((code, _)) = Code::lookup(word)
        && code.0 == word
    {
        parts.push(explanation(code));
    }
    for diagnostic in &document.diagnostics {
        let inside = diagnostic
            .span()
            .is_some_and(|s| s.start <= offset && offset < s.end.max(s.start + 1));
        if inside {
            parts.push(format!(
                "**{}**: {}\n\n{}",
                diagnostic.code,
                diagnostic.message,
                explanation(diagnostic.code)
            ));
        }
    }
    (!parts.is_empty()).then(|| parts.join("\n\n---\n\n"))
}

fn describe(document: &Document, name: &str, role: Role) -> Option<String> {
    if role != Role::Combinator
        && let Some(def) = document.def(name)
    {
        let code = code_block(&document.text_of(def.span));
        return Some(match signature(def) {
            Some(signature) => format!("{signature}\n\n{code}"),
            None => code,
        });
    }
    if let Some(def) = document
        .defs()
        .find(|def| def.params.iter().any(|p| p.name == name))
    {
        let declared = document
            .env()
            .is_some_and(|env| env.pointers.iter().any(|p| p.name.name == name));
        let start = if declared {
            ""
        } else {
            ", a register that starts at `0`"
        };
        return Some(format!(
            "parameter `{name}` of `{}`{start}: set by each call with arguments, and put back when the call returns",
            def.name.name
        ));
    }
    if let Some(combinator) = document.combinators().find(|c| c.name.name == name) {
        let code = code_block(&document.text_of(combinator.span));
        // Which member of the family it is (E0111 says why when none).
        let member = cnpi::check::family::recognize(combinator)
            .ok()
            .and_then(|(behaviour, branches)| cnpi::stdlib::full_set::member(&behaviour, branches));
        return Some(match member {
            Some(member) => format!(
                "`{}` of the family (`stdlib/full_set.cnpi`); on the network its embedding is learned on the fixed core and verified\n\n{code}",
                member.name
            ),
            None => code,
        });
    }
    if let Some(entry) = library::combinator(name) {
        return Some(format!(
            "{}\n\n{}",
            entry.meaning(),
            code_block(&entry.code)
        ));
    }
    let env = document.env().map(|e| e.kind.name.clone());
    let items: Vec<String> = library::env_items(env.as_deref().unwrap_or_default())
        .into_iter()
        .filter(|(item, _, _)| item == name)
        .map(|(_, _, entry)| format!("{}\n\n{}", code_block(&entry.code), entry.comment.join(" ")))
        .collect();
    if !items.is_empty() {
        return Some(items.join("\n\n"));
    }
    if let Some(declared) = data::declared_names(document)
        .into_iter()
        .find(|d| d.name == name)
    {
        let code = code_block(&document.text_of(declared.declaration.span));
        return Some(format!("`{name}`: {}\n\n{code}", declared.description));
    }
    let pointer = document
        .env()?
        .pointers
        .iter()
        .find(|p| p.name.name == name)?;
    let state = if document.state().iter().any(|p| p.name == name) {
        ", part of the treerec state"
    } else {
        ""
    };
    Some(format!(
        "pointer `{name}`, starts at `{}`{state}",
        cnpi::format::expression(&pointer.init)
    ))
}

/// `FIB(m)`'s parameters and whether it returns a value, for a normal
/// program with parameters or a `return e`.
fn signature(def: &ast::Def) -> Option<String> {
    let ast::DefBody::Normal(block) = &def.body else {
        return None;
    };
    let returns = returns_value(block);
    if def.params.is_empty() && !returns {
        return None;
    }
    let params: Vec<String> = def.params.iter().map(|p| format!("`{}`", p.name)).collect();
    let takes = match params.as_slice() {
        [] => "takes no arguments (it shares the registers)".to_string(),
        [one] => format!("takes 1 argument: {one}"),
        many => format!("takes {} arguments: {}", many.len(), many.join(", ")),
    };
    let gives = if returns { "; returns a value" } else { "" };
    let names: Vec<&str> = def.params.iter().map(|p| p.name.as_str()).collect();
    let call = names.join(", ");
    Some(format!("`{}({call})` {takes}{gives}", def.name.name))
}

/// Whether `block` has a `return e` anywhere.
fn returns_value(block: &[ast::Stmt]) -> bool {
    block.iter().any(|stmt| match stmt {
        ast::Stmt::Return { value, .. } => value.is_some(),
        ast::Stmt::If {
            then, otherwise, ..
        } => returns_value(then) || otherwise.as_deref().is_some_and(returns_value),
        ast::Stmt::While { body, .. } => returns_value(body),
        _ => false,
    })
}

/// The title and the first paragraph of `cnpic explain CODE`.
fn explanation(code: Code) -> String {
    let text = Code::lookup(code.0).map_or("", |(_, text)| text);
    let mut paragraphs = text.split("\n\n").map(str::trim);
    let title = paragraphs
        .next()
        .unwrap_or_default()
        .trim_start_matches("# ");
    let first = paragraphs.next().unwrap_or_default().replace('\n', " ");
    format!("**{title}**\n\n{first}")
}

fn code_block(code: &str) -> String {
    format!("```cnpi\n{code}\n```")
}

/// The word (letters, digits, `_`) around byte `offset`.
fn word_at(text: &str, offset: usize) -> Option<&str> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return None;
    }
    let start = text[..offset]
        .char_indices()
        .rev()
        .find(|&(_, c)| !is_word(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[offset..]
        .find(|c: char| !is_word(c))
        .map_or(text.len(), |i| offset + i);
    (start < end).then(|| &text[start..end])
}

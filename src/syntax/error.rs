//! Syntax errors: lalrpop's parse errors to [`Diagnostic`]s.
//!
//! [`syntax_error`] is the one place that words them: it names the token
//! found, lists the expected ones in readable form (`end of line`, `an
//! operator` rather than lalrpop's terminal names), and adds a help line
//! where the likely fix is known.

use std::convert::Infallible;

use lalrpop_util::ParseError;

use crate::diagnostic::{Diagnostic, Fix, codes};
use crate::span::{SourceId, Span};
use crate::syntax::lexer::Token;

/// The help for a normal program's block written under `def NAME:`.
const NORMAL_DEF: &str =
    "`def NAME:` takes an applier; a normal program is written `def NAME():` with its block below";

/// The item keywords only stdlib files use, left out of "expected" lists.
const STDLIB_ITEMS: [&str; 3] = ["act", "observe", "combinator"];
const OPERATORS: [&str; 13] = [
    "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "and", "or",
];

/// Words one parse error; `None` for an error the layout pass has already
/// reported.
pub fn syntax_error(
    error: ParseError<usize, Token<'_>, Infallible>,
    id: SourceId,
) -> Option<Diagnostic> {
    let (span, found, expected) = match error {
        ParseError::UnrecognizedToken {
            token: (start, token, end),
            expected,
        } => (Span::new(id, start, end), Some(token), expected),
        ParseError::UnrecognizedEof { location, expected } => {
            (Span::new(id, location, location), None, expected)
        }
        ParseError::InvalidToken { location } => {
            (Span::new(id, location, location), None, Vec::new())
        }
        ParseError::ExtraToken {
            token: (start, token, end),
        } => (Span::new(id, start, end), Some(token), Vec::new()),
        ParseError::User { error } => match error {},
    };
    let expected: Vec<&str> = expected.iter().map(|name| name.trim_matches('"')).collect();
    match found {
        // Already reported by the layout pass: a line nested too deeply, or
        // a closing bracket it inserted (zero-width) after an unclosed one.
        Some(Token::TooDeep) => return None,
        Some(Token::RParen | Token::RBracket) if span.start == span.end => return None,
        _ => {}
    }
    let found_text = found.map_or_else(|| "end of file".to_string(), |token| token.to_string());
    let mut diagnostic = Diagnostic::error(codes::E0001, format!("unexpected {found_text}"));
    diagnostic = match readable(&expected) {
        Some(list) => diagnostic.with_label(span, format!("expected {list}")),
        None => diagnostic.with_label(span, format!("{found_text} is not allowed here")),
    };
    Some(match help(found, &expected, span) {
        Some((help, Some(fix))) => diagnostic.with_fix(fix, help),
        Some((help, None)) => diagnostic.with_help(help),
        None => diagnostic,
    })
}

/// The help for the common mistakes, recognised by the token found (at
/// `span`) and the tokens the parser expected instead, with the edit it
/// proposes where there is one.
fn help(
    found: Option<Token<'_>>,
    expected: &[&str],
    span: Span,
) -> Option<(&'static str, Option<Fix>)> {
    use Token::*;
    let expects = |name: &str| expected.contains(&name);
    let text = match found {
        Some(Assign) if expects("==") => {
            let fix = Fix::new(span, "==");
            return Some(("to compare two things, write `==`", Some(fix)));
        }
        Some(Semicolon) if expects("?") => {
            "a detector ends with `?`: write `cond(CONDITION?; a, b, c)`"
        }
        _ if expects(";") && !expects("?") => {
            "combinator arguments follow a `;`: write `seq(; a, b, c)`"
        }
        Some(EqEq | NotEq | Less | LessEq | Greater | GreaterEq)
            if expects("and") && !expects("==") =>
        {
            "comparisons do not chain: write `a < b and b < c`"
        }
        _ if expected == [":", "("] || expected == ["(", ":"] => {
            "write `def NAME: APPLIER` for a combinatory program, or `def NAME(): BLOCK` for a normal one"
        }
        Some(If) if expected == [":"] => "write `else:` followed by an indented `if`",
        // A normal program's block under `def NAME:`, which takes an applier:
        // a statement keyword where an applier's name goes, or an assignment
        // after the name.
        Some(If | While | For | Return | Pass | Break | Continue)
            if expects("?") && !expects("pass") =>
        {
            NORMAL_DEF
        }
        Some(Assign | Compound(_) | Comma | LBracket)
            if expects("(") && expects("Newline") && expected.len() == 2 =>
        {
            NORMAL_DEF
        }
        Some(If | While) if expects("pass") => {
            "`if` and `while` start a line of their own: put them in an indented block"
        }
        Some(Else) => "`else:` goes right after the block of its `if`, at the same indentation",
        Some(Newline) if expects(":") => {
            let fix = Fix::new(Span::new(span.source, span.start, span.start), ":");
            return Some(("add `:` at the end of the line", Some(fix)));
        }
        Some(Indent) => "indent a line only to start a block, after a line ending with `:`",
        _ if expected == ["Indent"] => {
            "write the block on the next lines, indented deeper than the line ending with `:`"
        }
        _ if expected == ["Dedent"] => {
            "a combinatory program is one applier: use `seq(; a, b, c)` to run several"
        }
        _ => return None,
    };
    Some((text, None))
}

/// The expected terminals in words: `a name`, `end of line`, `` `:` ``...
/// Operators collapse into `an operator` (and then `(` and `[` after a name
/// are left out), the starts of an expression into `an expression`;
/// `Indent` is listed only when it is all that fits, and the stdlib-only
/// item keywords only when `def` cannot come.
fn readable(expected: &[&str]) -> Option<String> {
    // A binary operator can come next (`-` alone may be a unary minus).
    let after_operand = expected
        .iter()
        .any(|&name| name != "-" && OPERATORS.contains(&name));
    let expression_start = ["Name", "Int", "("]
        .iter()
        .all(|name| expected.contains(name));
    let mut items: Vec<String> = Vec::new();
    for &name in expected {
        let skip = (after_operand && (OPERATORS.contains(&name) || name == "(" || name == "["))
            || (expression_start && ["Name", "Int", "(", "-", "not"].contains(&name))
            || (name == "Indent" && expected.len() > 1)
            || (STDLIB_ITEMS.contains(&name) && expected.contains(&"def"))
            || name == "DataKeyword";
        if !skip {
            items.push(match name {
                "Name" => "a name".to_string(),
                "Int" => "a number".to_string(),
                "Newline" => "end of line".to_string(),
                "Indent" => "an indented block".to_string(),
                "Dedent" => "end of block".to_string(),
                other => format!("`{other}`"),
            });
        }
    }
    if expression_start {
        items.push("an expression".to_string());
    }
    if after_operand {
        items.push("an operator".to_string());
    }
    match items.split_last() {
        None => None,
        Some((last, [])) => Some(last.clone()),
        Some((last, rest)) => Some(format!("{} or {last}", rest.join(", "))),
    }
}

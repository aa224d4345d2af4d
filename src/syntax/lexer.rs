//! The lexer: source text to a flat list of tokens.
//!
//! [`Token`] is derived with logos and is also the token type of the lalrpop
//! grammar. [`lex`] skips spaces and comments, reports unknown characters and
//! integer literals too large for an i64, and keeps going after both. Its
//! output still contains one [`Token::Newline`] per physical line break; the
//! layout pass turns those into logical lines and indentation blocks.

use logos::Logos;
use std::fmt;

use crate::diagnostic::{Diagnostic, Fix, codes};
use crate::span::{SourceId, Span};

/// A token with its byte range: the `(start, token, end)` triple lalrpop eats.
pub type Spanned<'s> = (usize, Token<'s>, usize);

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\f\u{feff}]+")]
#[logos(skip(r"#[^\n]*", allow_greedy = true))]
pub enum Token<'s> {
    #[regex("[A-Za-z_][A-Za-z0-9_]*")]
    Name(&'s str),
    /// An unsigned decimal literal; `None` when it does not fit in an i64
    /// (already reported by [`lex`]).
    #[regex("[0-9]+", |lex| lex.slice().parse::<i64>().ok())]
    Int(Option<i64>),
    /// A character literal, `'a'`: its code point as an integer
    /// (language.md §5.2).
    #[regex("'[^'\\\\\n]'", |lex| lex.slice().chars().nth(1))]
    Char(char),

    #[token("env")]
    Env,
    #[token("state")]
    State,
    #[token("def")]
    Def,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("elif")]
    Elif,
    #[token("while")]
    While,
    #[token("for")]
    For,
    #[token("break")]
    Break,
    #[token("continue")]
    Continue,
    #[token("pass")]
    Pass,
    #[token("return")]
    Return,
    #[token("and")]
    And,
    #[token("or")]
    Or,
    #[token("not")]
    Not,
    #[token("act")]
    Act,
    #[token("observe")]
    Observe,
    #[token("combinator")]
    Combinator,
    #[token("detects")]
    Detects,

    #[token("==")]
    EqEq,
    #[token("!=")]
    #[token("≠")]
    NotEq,
    #[token("<")]
    Less,
    #[token("<=")]
    #[token("≤")]
    LessEq,
    #[token(">")]
    Greater,
    #[token(">=")]
    #[token("≥")]
    GreaterEq,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("=")]
    Assign,
    /// `+=`, `-=`, `*=`, `/=`, `%=`: a compound assignment.
    #[token("+=", |_| crate::operators::ArithOp::Add)]
    #[token("-=", |_| crate::operators::ArithOp::Sub)]
    #[token("*=", |_| crate::operators::ArithOp::Mul)]
    #[token("/=", |_| crate::operators::ArithOp::Div)]
    #[token("%=", |_| crate::operators::ArithOp::Rem)]
    Compound(crate::operators::ArithOp),

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token(";")]
    Semicolon,
    #[token("?")]
    Question,
    #[token("->")]
    Arrow,

    /// A physical line break from the lexer; after the layout pass, the end
    /// of a logical line.
    #[token("\n")]
    Newline,
    /// Made by the layout pass: a line indented deeper than the one before.
    Indent,
    /// Made by the layout pass: the end of an indented block.
    Dedent,
    /// Made by the layout pass in place of a line nested too deeply (already
    /// reported); the grammar accepts it nowhere.
    TooDeep,
    /// Made by the layout pass from the name `input` or `var` that starts
    /// a line of the file level: the keyword of a data declaration. Inside
    /// a line these stay names (a pointer may be called `input`).
    DataKeyword(&'s str),
}

impl Token<'_> {
    /// The opening bracket this token closes, if it is a closing bracket.
    pub fn opener(self) -> Option<Token<'static>> {
        match self {
            Token::RParen => Some(Token::LParen),
            Token::RBracket => Some(Token::LBracket),
            _ => None,
        }
    }

    /// The closing bracket matching this token, if it is an opening bracket.
    pub fn closer(self) -> Option<Token<'static>> {
        match self {
            Token::LParen => Some(Token::RParen),
            Token::LBracket => Some(Token::RBracket),
            _ => None,
        }
    }

    /// True for an operator, which adds a level to the expression tree.
    pub fn is_operator(self) -> bool {
        use Token::*;
        matches!(
            self,
            EqEq | NotEq
                | Less
                | LessEq
                | Greater
                | GreaterEq
                | Plus
                | Minus
                | Star
                | Slash
                | Percent
                | And
                | Or
                | Not
        )
    }

    /// True for a keyword that can only begin a line (an item or a
    /// statement), so it never appears inside brackets.
    pub fn starts_line(self) -> bool {
        use Token::*;
        matches!(
            self,
            Env | State
                | Def
                | Act
                | Observe
                | Combinator
                | If
                | Else
                | Elif
                | While
                | For
                | Break
                | Continue
                | Pass
                | Return
        )
    }

    /// The text of a fixed token; `None` for names, numbers and the tokens
    /// made by the layout pass.
    fn text(self) -> Option<&'static str> {
        use Token::*;
        Some(match self {
            Env => "env",
            State => "state",
            Def => "def",
            If => "if",
            Else => "else",
            Elif => "elif",
            While => "while",
            For => "for",
            Break => "break",
            Continue => "continue",
            Pass => "pass",
            Return => "return",
            And => "and",
            Or => "or",
            Not => "not",
            Act => "act",
            Observe => "observe",
            Combinator => "combinator",
            Detects => "detects",
            EqEq => "==",
            NotEq => "!=",
            Less => "<",
            LessEq => "<=",
            Greater => ">",
            GreaterEq => ">=",
            Plus => "+",
            Minus => "-",
            Star => "*",
            Slash => "/",
            Percent => "%",
            Assign => "=",
            Compound(op) => op.assign_symbol(),
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            Comma => ",",
            Colon => ":",
            Semicolon => ";",
            Question => "?",
            Arrow => "->",
            Name(_) | Int(_) | Char(_) | Newline | Indent | Dedent | TooDeep | DataKeyword(_) => {
                return None;
            }
        })
    }
}

/// How a token is named in a diagnostic ("unexpected ..."): its text in
/// backticks, or a description for the layout tokens.
impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Name(name) | Token::DataKeyword(name) => write!(f, "`{name}`"),
            Token::Int(Some(value)) => write!(f, "`{value}`"),
            Token::Int(None) => f.write_str("number"),
            Token::Char(c) => write!(f, "`'{c}'`"),
            Token::Newline => f.write_str("end of line"),
            Token::Indent => f.write_str("indentation"),
            Token::Dedent => f.write_str("end of block"),
            Token::TooDeep => f.write_str("line nested too deeply"),
            other => write!(f, "`{}`", other.text().unwrap_or_default()),
        }
    }
}

/// Splits `source` into tokens, reporting unknown characters (a run of them
/// as one diagnostic) and oversized integer literals into `diagnostics`.
pub fn lex<'s>(
    source: &'s str,
    id: SourceId,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Spanned<'s>> {
    let mut tokens = Vec::new();
    let mut unknown: Option<(usize, usize)> = None;
    for (result, range) in Token::lexer(source).spanned() {
        match result {
            Err(()) => {
                unknown = match unknown {
                    Some((start, end)) if end == range.start => Some((start, range.end)),
                    other => {
                        tokens.extend(unknown_run(other, source, id, diagnostics));
                        Some((range.start, range.end))
                    }
                };
            }
            Ok(token) => {
                tokens.extend(unknown_run(unknown.take(), source, id, diagnostics));
                if token == Token::Int(None) {
                    let span = Span::new(id, range.start, range.end);
                    diagnostics.push(int_too_large(span, source));
                }
                tokens.push((range.start, token, range.end));
            }
        }
    }
    tokens.extend(unknown_run(unknown, source, id, diagnostics));
    tokens
}

fn int_too_large(span: Span, source: &str) -> Diagnostic {
    let text = source.get(span.range()).unwrap_or_default();
    Diagnostic::error(
        codes::E0004,
        format!("integer literal `{text}` is too large"),
    )
    .with_label(span, "does not fit in a 64-bit integer")
    .with_help(format!("integers can be at most {}", i64::MAX))
}

/// Reports a run of unknown characters. The spellings other languages use
/// for `and`, `or` and `not` get a hint and are read as that keyword, so
/// that the rest of the line parses.
fn unknown_run<'s>(
    run: Option<(usize, usize)>,
    source: &str,
    id: SourceId,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Spanned<'s>> {
    let (start, end) = run?;
    let text = source.get(start..end).unwrap_or_default();
    let (what, label) = if text.chars().count() == 1 {
        ("character", "this character is not part of the language")
    } else {
        (
            "characters",
            "these characters are not part of the language",
        )
    };
    let span = Span::new(id, start, end);
    let diagnostic =
        Diagnostic::error(codes::E0002, format!("unknown {what} `{text}`")).with_label(span, label);
    let (help, keyword) = match text {
        "&" | "&&" => ("write `and` to combine conditions", Some(Token::And)),
        "|" | "||" => ("write `or` to combine conditions", Some(Token::Or)),
        "!" => ("write `not` to negate a condition", Some(Token::Not)),
        "{" | "}" => (
            "blocks are made by indentation: end the line with `:` and indent the block",
            None,
        ),
        _ => {
            diagnostics.push(diagnostic);
            return None;
        }
    };
    diagnostics.push(match keyword.and_then(Token::text) {
        Some(word) => diagnostic.with_fix(Fix::new(span, word), help),
        None => diagnostic.with_help(help),
    });
    keyword.map(|keyword| (start, keyword, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> (Vec<Token<'_>>, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let tokens = lex(source, SourceId::USER, &mut diagnostics);
        (tokens.into_iter().map(|(_, t, _)| t).collect(), diagnostics)
    }

    #[test]
    fn character_literals_are_their_code_points() {
        let (tokens, diagnostics) = kinds("'a' '(' 'é'");
        assert_eq!(
            tokens,
            vec![Token::Char('a'), Token::Char('('), Token::Char('é')]
        );
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn keywords_names_and_operators() {
        let (tokens, diagnostics) = kinds("def BSTEP: x<=y ≤ ≠ ≥ -> - elif END # comment\n");
        assert!(diagnostics.is_empty());
        assert_eq!(
            tokens,
            vec![
                Token::Def,
                Token::Name("BSTEP"),
                Token::Colon,
                Token::Name("x"),
                Token::LessEq,
                Token::Name("y"),
                Token::LessEq,
                Token::NotEq,
                Token::GreaterEq,
                Token::Arrow,
                Token::Minus,
                Token::Elif,
                Token::Name("END"),
                Token::Newline,
            ]
        );
    }

    #[test]
    fn binary_minus_is_not_part_of_the_number() {
        let (tokens, _) = kinds("i -1");
        assert_eq!(
            tokens,
            vec![Token::Name("i"), Token::Minus, Token::Int(Some(1))]
        );
    }

    #[test]
    fn oversized_integer_is_reported_and_kept() {
        let (tokens, diagnostics) = kinds("9223372036854775807 9223372036854775808");
        assert_eq!(tokens, vec![Token::Int(Some(i64::MAX)), Token::Int(None)]);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].code, codes::E0004);
        assert_eq!(diagnostics[0].span().map(|s| s.range()), Some(20..39));
    }

    #[test]
    fn unknown_characters_are_reported_once_per_run() {
        let (tokens, diagnostics) = kinds("a && b $ é");
        assert_eq!(tokens, vec![Token::Name("a"), Token::And, Token::Name("b")]);
        let found: Vec<_> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            found,
            vec![
                "unknown characters `&&`",
                "unknown character `$`",
                "unknown character `é`"
            ]
        );
        assert_eq!(diagnostics[2].span().map(|s| s.range()), Some(9..11));
    }

    #[test]
    fn crlf_line_breaks_are_one_newline() {
        let (tokens, diagnostics) = kinds("a\r\nb\r\n");
        assert!(diagnostics.is_empty());
        assert_eq!(
            tokens,
            vec![
                Token::Name("a"),
                Token::Newline,
                Token::Name("b"),
                Token::Newline
            ]
        );
    }
}

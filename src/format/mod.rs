//! The formatter: one canonical layout for `.cnpi` files, comments kept.
//!
//! [`format`] parses the text with the compiler's own parser and writes the
//! tree back: two spaces per block level, one space around operators and
//! after commas, ASCII operators, parentheses only where precedence needs
//! them, every block on lines of its own, at most one blank line in a row
//! (kept where the source had one, never at the start of a block), and the
//! appliers of consecutive one-line `def`s aligned as in the paper. A `def`
//! whose one-line form is wider than [`MAX_WIDTH`] puts its applier on the
//! next line. Comments stay where they were: a comment on a line of its own
//! before the code that follows it, at that code's indentation (or at the
//! end of a block, when it was indented as deep as the block), and a
//! comment after code at the end of the line that code lands on.
//!
//! Formatting is idempotent, and it never changes a program: before
//! returning, [`format`] parses its output again and compares the two trees
//! (positions aside) and the comments; if they differ it refuses with an
//! internal error instead of handing back a different program. A text with
//! syntax errors is refused with its diagnostics.

mod comments;
mod expr;

use crate::diagnostic::{Diagnostic, codes, has_errors};
use crate::span::SourceId;
use crate::syntax::{self, ast};
pub use expr::{applier, expr as expression, hole};

use comments::{Comment, blank_between, column, line_end, next_token};

/// What one level of indentation is written as.
pub const INDENT: &str = "  ";
/// The widest `def NAME: APPLIER` kept on one line.
pub const MAX_WIDTH: usize = 100;

/// The canonical form of `source`, or the diagnostics that stop it from
/// being formatted (syntax errors; spans in [`SourceId::USER`]).
pub fn format(source: &str) -> Result<String, Vec<Diagnostic>> {
    let (tree, diagnostics) = syntax::parse(source, SourceId::USER);
    if has_errors(&diagnostics) {
        return Err(diagnostics.into_iter().filter(|d| d.is_error()).collect());
    }
    let formatted = Printer::new(source).file(&tree);
    let (again, found) = syntax::parse(&formatted, SourceId::USER);
    let same_comments = comment_texts(source) == comment_texts(&formatted);
    if has_errors(&found) || positionless(&again) != positionless(&tree) || !same_comments {
        return Err(vec![
            Diagnostic::error(
                codes::E1201,
                "internal error: the formatter would change this file's program or comments",
            )
            .with_note("the file was left as it is")
            .with_note(
                "this is a bug in cnpi, not in your program; please report it with the file",
            ),
        ]);
    }
    Ok(formatted)
}

fn comment_texts(source: &str) -> Vec<String> {
    comments::comments(source)
        .into_iter()
        .map(|c| c.text)
        .collect()
}

/// The debug form of `value` (a parse tree, a checked program) with its
/// source positions left out: two texts whose trees are positionless-equal
/// hold the same program. Spans print as `START..END@SOURCE` (see
/// `span.rs`); they are cut out of the debug form rather than compared by
/// a hand-written walk over every node type.
pub fn positionless(value: &impl std::fmt::Debug) -> String {
    let debug = format!("{value:?}");
    let bytes = debug.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let starts_number = i == 0 || !bytes[i - 1].is_ascii_digit();
        match span_length(&bytes[i..]) {
            Some(n) if starts_number => i += n,
            _ => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The length of a `DIGITS..DIGITS@DIGITS` prefix of `bytes`, if there is one.
fn span_length(bytes: &[u8]) -> Option<usize> {
    let digits = |from: usize| {
        bytes[from.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let start = digits(0);
    let after_start = start + 2;
    if start == 0 || bytes.get(start..after_start) != Some(b"..") {
        return None;
    }
    let end = digits(after_start);
    let at = after_start + end;
    if end == 0 || bytes.get(at) != Some(&b'@') {
        return None;
    }
    let source = digits(at + 1);
    (source > 0).then_some(at + 1 + source)
}

/// Writes a tree back as text, interleaving the source's comments.
struct Printer<'s> {
    source: &'s str,
    comments: Vec<Comment>,
    /// The first comment not yet written.
    next: usize,
    out: String,
    /// The end of the last source line written (for blank lines).
    last_end: usize,
    /// Nothing has been written in the current block yet.
    block_start: bool,
}

impl<'s> Printer<'s> {
    fn new(source: &'s str) -> Printer<'s> {
        Printer {
            source,
            comments: comments::comments(source),
            next: 0,
            out: String::with_capacity(source.len() + 64),
            last_end: 0,
            block_start: true,
        }
    }

    fn file(mut self, file: &ast::File) -> String {
        let widths = self.alignment(&file.items);
        for (i, item) in file.items.iter().enumerate() {
            let next = file
                .items
                .get(i + 1)
                .map_or(self.source.len(), |n| n.span().start);
            self.item(item, widths[i], next);
        }
        self.comments_before(self.source.len(), 0);
        self.out
    }

    /// For each item, the name width its applier is aligned to, if it is a
    /// one-line applier `def` (the width of its group: consecutive such
    /// `def`s with no blank line and no comment line between them).
    fn alignment(&self, items: &[ast::Item]) -> Vec<Option<usize>> {
        let one_line = |item: &ast::Item| match item {
            ast::Item::Def(ast::Def { name, body, .. }) => {
                let (code, _, end) = right_side(body)?;
                let width = "def : ".len() + name.name.len() + code.len();
                (width <= MAX_WIDTH).then_some((name.name.len(), end))
            }
            _ => None,
        };
        let lines: Vec<Option<(usize, usize)>> = items.iter().map(one_line).collect();
        let mut widths: Vec<Option<usize>> = vec![None; items.len()];
        let mut group: Vec<usize> = Vec::new();
        let mut previous_end = None;
        for i in 0..=items.len() {
            let this = lines.get(i).copied().flatten();
            let joins = match (previous_end, this, items.get(i)) {
                (Some(end), Some(_), Some(item)) => {
                    let from = line_end(self.source, end);
                    let to = item.span().start;
                    !blank_between(self.source, from, to) && !self.source[from..to].contains('#')
                }
                _ => false,
            };
            if !joins {
                let width = group.iter().filter_map(|&g| lines[g].map(|(n, _)| n)).max();
                for &g in &group {
                    widths[g] = width;
                }
                group.clear();
            }
            if this.is_some() {
                group.push(i);
            }
            previous_end = this.map(|(_, end)| end);
        }
        widths
    }

    fn item(&mut self, item: &ast::Item, width: Option<usize>, next: usize) {
        let start = item.span().start;
        match item {
            ast::Item::Env(env) => {
                let pointers: Vec<String> = env
                    .pointers
                    .iter()
                    .map(|p| format!("{} = {}", p.name.name, expr::expr(&p.init)))
                    .collect();
                let text = format!("env {}({})", env.kind.name, pointers.join(", "));
                self.line(0, start, env.span.end, text);
            }
            ast::Item::State(state) => {
                let text = format!("state({})", expr::names(&state.pointers));
                self.line(0, start, state.span.end, text);
            }
            ast::Item::Def(def) => match right_side(&def.body) {
                Some((code, code_start, end)) => {
                    let name = &def.name.name;
                    match width {
                        Some(width) => {
                            let pad = " ".repeat(width - name.len());
                            self.line(0, start, end, format!("def {name}:{pad} {code}"));
                        }
                        None if "def : ".len() + name.len() + code.len() <= MAX_WIDTH => {
                            self.line(0, start, end, format!("def {name}: {code}"));
                        }
                        None => {
                            self.line(0, start, def.name.span.end, format!("def {name}:"));
                            self.block_start = true;
                            self.line(1, code_start, end, code);
                        }
                    }
                }
                None => {
                    let header = format!("def {}({}):", def.name.name, expr::names(&def.params));
                    let end = def.params.last().unwrap_or(&def.name).span.end;
                    self.line(0, start, end, header);
                    if let ast::DefBody::Normal(body) = &def.body {
                        self.block(body, 1, next);
                    }
                }
            },
            ast::Item::Act(act) => {
                let text = match &act.params {
                    None => format!("act {}", act.name.name),
                    Some(params) => format!("act {}({})", act.name.name, expr::names(params)),
                };
                self.line(0, start, act.span.end, text);
            }
            ast::Item::Observe(observe) => {
                let (open, close) = if observe.indexed {
                    ('[', ']')
                } else {
                    ('(', ')')
                };
                let text = format!(
                    "observe {}{open}{}{close} -> {}",
                    observe.name.name,
                    expr::names(&observe.params),
                    observe.result.name
                );
                self.line(0, start, observe.span.end, text);
            }
            ast::Item::Combinator(combinator) => {
                let mut header = format!(
                    "combinator {}({})",
                    combinator.name.name,
                    expr::names(&combinator.params)
                );
                let mut end = combinator
                    .params
                    .last()
                    .map_or(combinator.name.span.end, |p| p.span.end);
                if let Some(detector) = &combinator.detector {
                    header.push_str(" detects ");
                    header.push_str(&expr::expr(detector));
                    end = detector.span.end;
                }
                header.push(':');
                self.line(0, start, end, header);
                self.block(&combinator.body, 1, next);
            }
            ast::Item::Data(data) => self.line(0, start, data.span.end, expr::data(data)),
        }
    }

    /// The statements of a block at `indent`; `limit` is where the code
    /// after the block starts in the source.
    fn block(&mut self, block: &[ast::Stmt], indent: usize, limit: usize) {
        let Some(first) = block.first() else {
            return;
        };
        self.block_start = true;
        let block_column = column(self.source, stmt_start(first));
        for (i, stmt) in block.iter().enumerate() {
            let next = block.get(i + 1).map_or(limit, stmt_start);
            self.stmt(stmt, indent, next);
        }
        // Comment lines after the last statement, indented as deep as the
        // block, close it.
        while let Some(comment) = self.comments.get(self.next) {
            if comment.start >= limit || comment.trailing || comment.column < block_column {
                break;
            }
            self.comment(indent);
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt, indent: usize, next: usize) {
        match stmt {
            ast::Stmt::Call(call) => {
                self.line(indent, call.span.start, call.span.end, expr::call(call));
            }
            ast::Stmt::Pass(span) => self.line(indent, span.start, span.end, "pass".into()),
            ast::Stmt::Hole(span) => self.line(indent, span.start, span.end, "?".into()),
            ast::Stmt::Return { value, span } => {
                let text = match value {
                    Some(value) => format!("return {}", expr::expr(value)),
                    None => "return".into(),
                };
                self.line(indent, span.start, span.end, text);
            }
            ast::Stmt::Break(span) => self.line(indent, span.start, span.end, "break".into()),
            ast::Stmt::Continue(span) => {
                self.line(indent, span.start, span.end, "continue".into());
            }
            ast::Stmt::Assign {
                target,
                op,
                value,
                span,
            } => {
                let sign = op.map_or("=", |op| op.assign_symbol());
                let text = format!("{} {sign} {}", expr::expr(target), expr::expr(value));
                self.line(indent, span.start, span.end, text);
            }
            ast::Stmt::LocalArray(decl) => {
                self.line(indent, decl.span.start, decl.span.end, expr::data(decl));
            }
            ast::Stmt::If {
                condition,
                then,
                otherwise,
                elif,
                span,
            } => {
                let word = if *elif { "elif" } else { "if" };
                let header = format!("{word} {}:", expr::expr(condition));
                self.line(indent, span.start, condition.span.end, header);
                match otherwise.as_deref() {
                    Some([chained @ ast::Stmt::If { elif: true, .. }]) => {
                        let at = next_token(self.source, block_end(then));
                        self.block(then, indent + 1, at);
                        self.stmt(chained, indent, next);
                    }
                    Some(otherwise) => {
                        let at = next_token(self.source, block_end(then));
                        self.block(then, indent + 1, at);
                        self.line(indent, at, at, "else:".into());
                        self.block(otherwise, indent + 1, next);
                    }
                    None => self.block(then, indent + 1, next),
                }
            }
            ast::Stmt::For {
                variable,
                from,
                word,
                to,
                body,
                span,
            } => {
                let header = format!(
                    "for {} = {} {} {}:",
                    variable.name,
                    expr::expr(from),
                    word.name,
                    expr::expr(to)
                );
                self.line(indent, span.start, to.span.end, header);
                self.block(body, indent + 1, next);
            }
            ast::Stmt::While {
                condition,
                body,
                span,
            } => {
                let header = format!("while {}:", expr::expr(condition));
                self.line(indent, span.start, condition.span.end, header);
                self.block(body, indent + 1, next);
            }
        }
    }

    /// Writes the comment lines that start before `offset`, at `indent`.
    fn comments_before(&mut self, offset: usize, indent: usize) {
        while self
            .comments
            .get(self.next)
            .is_some_and(|c| c.start < offset)
        {
            self.comment(indent);
        }
    }

    /// Writes the next comment on a line of its own.
    fn comment(&mut self, indent: usize) {
        let comment = self.comments[self.next].clone();
        self.next += 1;
        self.blank_line_before(comment.start);
        self.push_line(indent, &comment.text);
        self.last_end = line_end(self.source, comment.start);
    }

    /// One line of code, `text`, for the source from `start` to `end`. The
    /// comments before it come first; the comments up to the end of the
    /// source line where it ends are its own: the last one trails it, any
    /// earlier ones (inside a construct written over several lines) go on
    /// lines of their own before it.
    fn line(&mut self, indent: usize, start: usize, end: usize, mut text: String) {
        self.comments_before(start, indent);
        self.blank_line_before(start);
        let stop = line_end(self.source, end);
        let mut own = Vec::new();
        while let Some(comment) = self.comments.get(self.next) {
            if comment.start >= stop {
                break;
            }
            own.push(comment.text.clone());
            self.next += 1;
        }
        if let Some((last, earlier)) = own.split_last() {
            for comment in earlier {
                self.push_line(indent, comment);
            }
            text.push_str("  ");
            text.push_str(last);
        }
        self.push_line(indent, &text);
        self.last_end = self.last_end.max(stop);
    }

    /// An empty line when the source has one before `start` (never at the
    /// start of the file or of a block).
    fn blank_line_before(&mut self, start: usize) {
        if !self.block_start && blank_between(self.source, self.last_end, start) {
            self.out.push('\n');
        }
    }

    fn push_line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str(INDENT);
        }
        self.out.push_str(text);
        self.out.push('\n');
        self.block_start = false;
    }
}

/// The right side of a `def NAME: ...` as formatted, with where it starts
/// and ends in the source: an applier or a hole; `None` for a normal
/// program.
fn right_side(body: &ast::DefBody) -> Option<(String, usize, usize)> {
    match body {
        ast::DefBody::Applier(applier) => Some((
            expr::applier(applier),
            applier_start(applier),
            applier_end(applier),
        )),
        ast::DefBody::Hole(hole) => Some((expr::hole(hole), hole.span.start, hole.span.end)),
        ast::DefBody::Normal(_) => None,
    }
}

fn applier_start(applier: &ast::Applier) -> usize {
    match applier {
        ast::Applier::Combinator { span, .. } => span.start,
        ast::Applier::Act(call) => call.span.start,
    }
}

fn applier_end(applier: &ast::Applier) -> usize {
    match applier {
        ast::Applier::Combinator { span, .. } => span.end,
        ast::Applier::Act(call) => call.span.end,
    }
}

fn stmt_start(stmt: &ast::Stmt) -> usize {
    match stmt {
        ast::Stmt::Call(call) => call.span.start,
        ast::Stmt::LocalArray(decl) => decl.span.start,
        ast::Stmt::Pass(span)
        | ast::Stmt::Hole(span)
        | ast::Stmt::Break(span)
        | ast::Stmt::Continue(span)
        | ast::Stmt::Assign { span, .. }
        | ast::Stmt::Return { span, .. }
        | ast::Stmt::If { span, .. }
        | ast::Stmt::For { span, .. }
        | ast::Stmt::While { span, .. } => span.start,
    }
}

/// Where the code of a block ends: the end of its last simple statement
/// (the spans of compound statements may reach into the next line).
fn block_end(block: &[ast::Stmt]) -> usize {
    match block.last() {
        None => 0,
        Some(ast::Stmt::Call(call)) => call.span.end,
        Some(ast::Stmt::LocalArray(decl)) => decl.span.end,
        Some(
            ast::Stmt::Pass(span)
            | ast::Stmt::Hole(span)
            | ast::Stmt::Break(span)
            | ast::Stmt::Continue(span)
            | ast::Stmt::Assign { span, .. }
            | ast::Stmt::Return { span, .. },
        ) => span.end,
        Some(ast::Stmt::If {
            then, otherwise, ..
        }) => block_end(otherwise.as_deref().unwrap_or(then)),
        Some(ast::Stmt::While { body, .. } | ast::Stmt::For { body, .. }) => block_end(body),
    }
}

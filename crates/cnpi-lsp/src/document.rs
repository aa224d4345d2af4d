//! One open document, analysed with the compiler's own front end.
//!
//! On every change the text is compiled exactly as `cnpic check` compiles
//! a file (same diagnostics), and the compilation's parse tree is kept,
//! which error recovery keeps even for broken text. Every name written in
//! the tree is listed with its role (a `def`'s own name, a callee, a
//! combinator, a pointer declaration, a word inside an expression), so that
//! the requests can ask what stands under the cursor. A text over
//! [`MAX_DOCUMENT`] bytes is not analysed: its one diagnostic (E1501) says
//! so, and requests on it fail with the same words. A [`Snapshot`] is the
//! set of open documents that a request's handler reads. An answer lists
//! at most [`MAX_ITEMS`] items.

use std::collections::HashMap;
use std::sync::Arc;

use cnpi::compile::compile;
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::span::Span;
use cnpi::syntax::ast;

use crate::position::LineIndex;
use cnpi::program::BlankKind;

/// The largest document analysed, in bytes: 4 MiB. cnpi programs are a few
/// kilobytes; the bound keeps what one document costs in check.
pub const MAX_DOCUMENT: usize = 4 << 20;

/// The most items one answer lists (symbols, references, completions,
/// related places of a diagnostic): a few thousand are more than an editor
/// shows, and the bound keeps what one request builds in check, however
/// many definitions a document of [`MAX_DOCUMENT`] bytes holds. An answer
/// cut short says so where the protocol lets it: a last symbol counting
/// the others, an incomplete completion list, a note on the diagnostic.
pub const MAX_ITEMS: usize = 5_000;

/// What a name is where it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The name of a `def` (or of a `combinator` item).
    Definition,
    /// A callable: an applier argument, an ACT applier, a call statement.
    Callee,
    /// The combinator of an applier (`linrec` in `linrec(c?; ...)`).
    Combinator,
    /// A pointer on the `env` or `state(...)` line.
    Pointer,
    /// A name inside an expression: a pointer, `END`, `A` in `A[j]`...
    Word,
    /// A hole `?` inside a normal program, for `cnpic learn` to fill.
    Hole(BlankKind),
}

/// A name as written (its text is the document's text at `span`), with
/// its role.
#[derive(Clone, Copy, Debug)]
pub struct Name {
    pub span: Span,
    pub role: Role,
}

pub struct Document {
    pub text: String,
    pub index: LineIndex,
    pub tree: ast::File,
    /// What `cnpic check` reports for this text.
    pub diagnostics: Vec<Diagnostic>,
    /// Every name of the tree, in textual order.
    pub names: Vec<Name>,
    /// Why the text was not analysed (it is then empty, as are the tree
    /// and the names).
    pub refused: Option<String>,
}

/// The open documents as requests see them, by URI (as text: `Uri` caches
/// parts of itself, so it makes a poor key).
pub type Snapshot = Arc<HashMap<String, Arc<Document>>>;

impl Document {
    /// Analyses `text`; `name` is what diagnostics call the file.
    pub fn new(name: &str, text: String) -> Document {
        if text.len() > MAX_DOCUMENT {
            return Document::too_large(name, text.len());
        }
        let compilation = compile(name, &text, None);
        let tree = compilation.tree;
        let mut names = Vec::new();
        for item in &tree.items {
            collect_item(item, &mut names);
        }
        names.sort_by_key(|n| n.span.start);
        Document {
            index: LineIndex::new(&text),
            text,
            tree,
            diagnostics: compilation.diagnostics,
            names,
            refused: None,
        }
    }

    fn too_large(name: &str, bytes: usize) -> Document {
        let message = format!(
            "`{name}` is {bytes} bytes; cnpic lsp analyses documents of at most {MAX_DOCUMENT} bytes"
        );
        let diagnostic = Diagnostic::error(codes::E1501, message.clone())
            .with_help("split the program into smaller files, or check it with `cnpic check`");
        Document {
            text: String::new(),
            index: LineIndex::new(""),
            tree: ast::File::default(),
            diagnostics: vec![diagnostic],
            names: Vec::new(),
            refused: Some(message),
        }
    }

    /// The text of a name.
    pub fn name_text(&self, name: &Name) -> &str {
        self.text.get(name.span.range()).unwrap_or_default()
    }

    /// The name under (or just after) byte `offset`.
    pub fn name_at(&self, offset: usize) -> Option<&Name> {
        // Names do not overlap: the last one starting at or before `offset`.
        let after = self.names.partition_point(|n| n.span.start <= offset);
        after
            .checked_sub(1)
            .map(|i| &self.names[i])
            .filter(|n| offset <= n.span.end)
    }

    /// The file's `def`s.
    pub fn defs(&self) -> impl Iterator<Item = &ast::Def> {
        self.tree.items.iter().filter_map(|item| match item {
            ast::Item::Def(def) => Some(def),
            _ => None,
        })
    }

    pub fn def(&self, name: &str) -> Option<&ast::Def> {
        self.defs().find(|def| def.name.name == name)
    }

    /// The data a `ram` program declares (`input`, `var`).
    pub fn data(&self) -> impl Iterator<Item = &ast::DataDecl> {
        self.tree.items.iter().filter_map(|item| match item {
            ast::Item::Data(data) => Some(data),
            _ => None,
        })
    }

    /// The user-defined combinators of the file.
    pub fn combinators(&self) -> impl Iterator<Item = &ast::CombinatorDecl> {
        self.tree.items.iter().filter_map(|item| match item {
            ast::Item::Combinator(c) => Some(c),
            _ => None,
        })
    }

    /// The `env` line, if it parsed.
    pub fn env(&self) -> Option<&ast::EnvDecl> {
        self.tree.items.iter().find_map(|item| match item {
            ast::Item::Env(env) => Some(env),
            _ => None,
        })
    }

    /// The pointers of the `state(...)` line.
    pub fn state(&self) -> &[ast::Ident] {
        self.tree
            .items
            .iter()
            .find_map(|item| match item {
                ast::Item::State(state) => Some(state.pointers.as_slice()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The text of `span`, without the blank and comment lines its end may
    /// reach over (a block's span ends where the next item starts).
    pub fn text_of(&self, span: Span) -> String {
        trimmed_text(&self.text, span)
    }
}

/// `text[span]` without trailing blank and comment-only lines.
pub fn trimmed_text(text: &str, span: Span) -> String {
    let slice = text.get(span.range()).unwrap_or_default();
    let mut lines: Vec<&str> = slice.lines().collect();
    while lines
        .last()
        .is_some_and(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        lines.pop();
    }
    lines.join("\n")
}

fn push(names: &mut Vec<Name>, ident: &ast::Ident, role: Role) {
    names.push(Name {
        span: ident.span,
        role,
    });
}

fn collect_item(item: &ast::Item, names: &mut Vec<Name>) {
    match item {
        ast::Item::Env(env) => {
            for pointer in &env.pointers {
                push(names, &pointer.name, Role::Pointer);
                collect_expr(&pointer.init, names);
            }
        }
        ast::Item::State(state) => {
            for pointer in &state.pointers {
                push(names, pointer, Role::Pointer);
            }
        }
        ast::Item::Def(def) => {
            push(names, &def.name, Role::Definition);
            for param in &def.params {
                push(names, param, Role::Pointer);
            }
            match &def.body {
                ast::DefBody::Applier(applier) => collect_applier(applier, names),
                ast::DefBody::Normal(block) => collect_block(block, names),
                ast::DefBody::Hole(hole) => {
                    for condition in &hole.conditions {
                        collect_expr(condition, names);
                    }
                }
            }
        }
        ast::Item::Combinator(combinator) => {
            push(names, &combinator.name, Role::Definition);
            collect_block(&combinator.body, names);
        }
        // A declared data name is a declaration, as a pointer is.
        ast::Item::Data(data) => {
            push(names, &data.name, Role::Pointer);
            for expr in data.dims.iter().chain(&data.init) {
                collect_expr(expr, names);
            }
        }
        ast::Item::Act(_) | ast::Item::Observe(_) => {}
    }
}

fn collect_applier(applier: &ast::Applier, names: &mut Vec<Name>) {
    match applier {
        ast::Applier::Combinator {
            combinator,
            detector,
            args,
            ..
        } => {
            push(names, combinator, Role::Combinator);
            if let Some(detector) = detector {
                collect_expr(detector, names);
            }
            for arg in args {
                collect_call(arg, names);
            }
        }
        ast::Applier::Act(call) => collect_call(call, names),
    }
}

fn collect_call(call: &ast::Call, names: &mut Vec<Name>) {
    push(names, &call.name, Role::Callee);
    for arg in call.args.iter().flatten() {
        collect_expr(arg, names);
    }
}

fn collect_block(block: &[ast::Stmt], names: &mut Vec<Name>) {
    for stmt in block {
        match stmt {
            ast::Stmt::Call(call) => collect_call(call, names),
            ast::Stmt::Pass(_)
            | ast::Stmt::Break(_)
            | ast::Stmt::Continue(_)
            | ast::Stmt::Return { value: None, .. } => {}
            ast::Stmt::LocalArray(decl) => {
                push(names, &decl.name, Role::Word);
                decl.dims
                    .iter()
                    .chain(&decl.init)
                    .for_each(|e| collect_expr(e, names));
            }
            ast::Stmt::For {
                variable,
                from,
                to,
                body,
                ..
            } => {
                push(names, variable, Role::Word);
                collect_expr(from, names);
                collect_expr(to, names);
                collect_block(body, names);
            }
            ast::Stmt::Return {
                value: Some(value), ..
            } => collect_expr(value, names),
            ast::Stmt::Hole(span) => names.push(Name {
                span: *span,
                role: Role::Hole(BlankKind::Statement),
            }),
            ast::Stmt::Assign { target, value, .. } => {
                collect_expr(target, names);
                collect_expr(value, names);
            }
            ast::Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                collect_condition(condition, names);
                collect_block(then, names);
                collect_block(otherwise.as_deref().unwrap_or_default(), names);
            }
            ast::Stmt::While {
                condition, body, ..
            } => {
                collect_condition(condition, names);
                collect_block(body, names);
            }
        }
    }
}

/// A condition: a hole here (or as an operand of `and`, `or`, `not`)
/// stands for a condition.
fn collect_condition(expr: &ast::Expr, names: &mut Vec<Name>) {
    match &expr.kind {
        ast::ExprKind::Hole => names.push(Name {
            span: expr.span,
            role: Role::Hole(BlankKind::Condition),
        }),
        ast::ExprKind::Not(e) => collect_condition(e, names),
        ast::ExprKind::And(a, b) | ast::ExprKind::Or(a, b) => {
            collect_condition(a, names);
            collect_condition(b, names);
        }
        _ => collect_expr(expr, names),
    }
}

fn collect_expr(expr: &ast::Expr, names: &mut Vec<Name>) {
    match &expr.kind {
        ast::ExprKind::Hole => names.push(Name {
            span: expr.span,
            role: Role::Hole(BlankKind::Expression),
        }),
        ast::ExprKind::Name(_) => names.push(Name {
            span: expr.span,
            role: Role::Word,
        }),
        ast::ExprKind::Int(_) | ast::ExprKind::Char(_) | ast::ExprKind::Error => {}
        ast::ExprKind::Tuple(all) => all.iter().for_each(|e| collect_expr(e, names)),
        ast::ExprKind::Neg(e) | ast::ExprKind::Not(e) => collect_expr(e, names),
        ast::ExprKind::Arith(_, a, b)
        | ast::ExprKind::Compare(_, a, b)
        | ast::ExprKind::And(a, b)
        | ast::ExprKind::Or(a, b) => {
            collect_expr(a, names);
            collect_expr(b, names);
        }
        ast::ExprKind::Index(name, index) => {
            push(names, name, Role::Word);
            collect_expr(index, names);
        }
        ast::ExprKind::Index2(name, row, column) => {
            push(names, name, Role::Word);
            collect_expr(row, names);
            collect_expr(column, names);
        }
        // An observation, or a call for a value: a callee either way, so
        // that a call leads to its definition.
        ast::ExprKind::Apply(name, args) => {
            push(names, name, Role::Callee);
            for arg in args {
                collect_expr(arg, names);
            }
        }
    }
}

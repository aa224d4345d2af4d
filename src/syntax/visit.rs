//! Walks over the parse tree: every statement of a block, nested ones
//! included, and every expression of a block or inside an expression.
//! The passes that read the tree before it is checked (array parameters,
//! the sugar of §5.2, the names a program assigns) walk it through these,
//! so a new kind of statement or expression is taught here once.

use super::ast::{Expr, ExprKind, Ident, Stmt};

/// Calls `f` on every statement of `block`, each before the statements
/// nested in it, in the order they are written.
pub fn each_stmt<'b>(block: &'b [Stmt], f: &mut impl FnMut(&'b Stmt)) {
    for stmt in block {
        f(stmt);
        match stmt {
            Stmt::If {
                then, otherwise, ..
            } => {
                each_stmt(then, f);
                each_stmt(otherwise.as_deref().unwrap_or_default(), f);
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => each_stmt(body, f),
            _ => {}
        }
    }
}

/// The expressions a statement holds itself (not those of the statements
/// nested in it).
pub fn own_exprs(stmt: &Stmt) -> Vec<&Expr> {
    match stmt {
        Stmt::Call(call) => call.args.iter().flatten().collect(),
        Stmt::Assign { target, value, .. } => vec![target, value],
        Stmt::If { condition, .. } | Stmt::While { condition, .. } => vec![condition],
        Stmt::For { from, to, .. } => vec![from, to],
        Stmt::Return { value, .. } => value.iter().collect(),
        Stmt::LocalArray(decl) => decl.dims.iter().chain(&decl.init).collect(),
        Stmt::Break(_) | Stmt::Continue(_) | Stmt::Pass(_) | Stmt::Hole(_) => Vec::new(),
    }
}

/// Calls `f` on every expression of `block`, outer before inner; where `f`
/// returns false, the expression's parts are skipped.
pub fn each_expr<'b>(block: &'b [Stmt], f: &mut impl FnMut(&'b Expr) -> bool) {
    each_stmt(block, &mut |stmt| {
        for e in own_exprs(stmt) {
            each_part(e, f);
        }
    });
}

/// Calls `f` on `e` and, where it returns true, on its parts.
pub fn each_part<'b>(e: &'b Expr, f: &mut impl FnMut(&'b Expr) -> bool) {
    if !f(e) {
        return;
    }
    match &e.kind {
        ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Index(_, a) => each_part(a, f),
        ExprKind::Arith(_, a, b)
        | ExprKind::Compare(_, a, b)
        | ExprKind::And(a, b)
        | ExprKind::Or(a, b)
        | ExprKind::Index2(_, a, b) => {
            each_part(a, f);
            each_part(b, f);
        }
        ExprKind::Apply(_, parts) | ExprKind::Tuple(parts) => {
            for part in parts {
                each_part(part, f);
            }
        }
        ExprKind::Int(_)
        | ExprKind::Char(_)
        | ExprKind::Name(_)
        | ExprKind::Hole
        | ExprKind::Error => {}
    }
}

/// The names `block` assigns (nested blocks included), each at its first
/// place, in order: plain names assigned (`x = e`, `x += e`, a place of
/// `x, y = ...`) and `for` variables. In a `ram` program, those the file
/// does not declare are its locals (language.md §5.2).
pub fn assigned_names(block: &[Stmt]) -> Vec<Ident> {
    let mut found = Vec::new();
    each_stmt(block, &mut |stmt| match stmt {
        Stmt::Assign { target, .. } => {
            let places = match &target.kind {
                ExprKind::Tuple(places) => places.iter().collect(),
                _ => vec![target],
            };
            for place in places {
                if let ExprKind::Name(name) = &place.kind {
                    found.push(Ident {
                        name: name.clone(),
                        span: place.span,
                    });
                }
            }
        }
        Stmt::For { variable, .. } => found.push(variable.clone()),
        _ => {}
    });
    let mut seen = std::collections::HashSet::new();
    found.retain(|ident: &Ident| seen.insert(ident.name.clone()));
    found
}

//! Walks over the parse tree: every statement of a block, nested ones
//! included, and every expression of a block or inside an expression.
//! The passes that read the tree before it is checked (array parameters,
//! the sugar of §5.2, the names a program assigns) walk it through these,
//! so a new kind of statement or expression is taught here once; the
//! `_mut` walkers, the same text, change the tree in place (a
//! parameter's renaming).

use super::ast::{Expr, ExprKind, Ident, Stmt};

/// The three walkers over statements and expressions, written once for
/// shared references and once more, by the same text, for mutable ones
/// (as `syn` generates its `Visit` and `VisitMut`): `$r` is the
/// reference type, `$b` the borrow that makes one, `$iter` the matching
/// iterator method and `$g` the generics.
macro_rules! walkers {
    (
        $each_stmt:ident, $own_exprs:ident, $each_part:ident, $iter:ident,
        [$($g:tt)*], [$($r:tt)+], [$($b:tt)+]
    ) => {
        /// Calls `f` on every statement of `block`, each before the
        /// statements nested in it (as `f` left it), in the order they
        /// are written.
        pub fn $each_stmt$($g)*(block: $($r)+ [Stmt], f: &mut impl FnMut($($r)+ Stmt)) {
            for stmt in block {
                f($($b)+ *stmt);
                match stmt {
                    Stmt::If {
                        then, otherwise, ..
                    } => {
                        $each_stmt(then, f);
                        if let Some(otherwise) = otherwise {
                            $each_stmt(otherwise, f);
                        }
                    }
                    Stmt::For { body, .. } | Stmt::While { body, .. } => $each_stmt(body, f),
                    _ => {}
                }
            }
        }

        /// The expressions a statement holds itself (not those of the
        /// statements nested in it).
        pub fn $own_exprs$($g)*(stmt: $($r)+ Stmt) -> Vec<$($r)+ Expr> {
            match stmt {
                Stmt::Call(call) => call.args.$iter().flatten().collect(),
                Stmt::Assign { target, value, .. } => vec![target, value],
                Stmt::If { condition, .. } | Stmt::While { condition, .. } => vec![condition],
                Stmt::For { from, to, .. } => vec![from, to],
                Stmt::Return { value, .. } => value.$iter().collect(),
                Stmt::LocalArray(decl) => decl.dims.$iter().chain(decl.init.$iter()).collect(),
                Stmt::Break(_) | Stmt::Continue(_) | Stmt::Pass(_) | Stmt::Hole(_) => Vec::new(),
            }
        }

        /// Calls `f` on `e` and, where it returns true, on its parts (as
        /// `f` left them).
        pub fn $each_part$($g)*(e: $($r)+ Expr, f: &mut impl FnMut($($r)+ Expr) -> bool) {
            if !f($($b)+ *e) {
                return;
            }
            match $($b)+ e.kind {
                ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Index(_, a) => $each_part(a, f),
                ExprKind::Arith(_, a, b)
                | ExprKind::Compare(_, a, b)
                | ExprKind::And(a, b)
                | ExprKind::Or(a, b)
                | ExprKind::Index2(_, a, b) => {
                    $each_part(a, f);
                    $each_part(b, f);
                }
                ExprKind::Apply(_, parts) | ExprKind::Tuple(parts) => {
                    for part in parts {
                        $each_part(part, f);
                    }
                }
                ExprKind::Int(_)
                | ExprKind::Char(_)
                | ExprKind::Name(_)
                | ExprKind::Hole
                | ExprKind::Error => {}
            }
        }
    };
}

walkers!(each_stmt, own_exprs, each_part, iter, [<'b>], [&'b], [&]);
walkers!(each_stmt_mut, own_exprs_mut, each_part_mut, iter_mut, [], [&mut], [&mut]);

/// Calls `f` on every expression of `block`, outer before inner; where `f`
/// returns false, the expression's parts are skipped.
pub fn each_expr<'b>(block: &'b [Stmt], f: &mut impl FnMut(&'b Expr) -> bool) {
    each_stmt(block, &mut |stmt| {
        for e in own_exprs(stmt) {
            each_part(e, f);
        }
    });
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

//! Walks over the statements of normal programs that several steps of the
//! conversion share.

use crate::program::Stmt;

/// Every call statement of a block, nested ones included.
pub fn calls(stmts: &[Stmt]) -> Vec<&Stmt> {
    let mut found = Vec::new();
    let mut todo: Vec<&[Stmt]> = vec![stmts];
    while let Some(block) = todo.pop() {
        for stmt in block {
            match stmt {
                Stmt::Call(..) | Stmt::StateCall(..) | Stmt::ParamCall(_) => found.push(stmt),
                Stmt::If {
                    then, otherwise, ..
                } => {
                    todo.push(then);
                    todo.push(otherwise);
                }
                Stmt::While { body, .. } => todo.push(body),
                Stmt::Act(_) | Stmt::Pass(_) | Stmt::Return { .. } => {}
            }
        }
    }
    found
}

/// Whether a statement is or holds a `return`.
pub fn returns(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Return { .. } => true,
        Stmt::If {
            then, otherwise, ..
        } => then.iter().chain(otherwise).any(returns),
        Stmt::While { body, .. } => body.iter().any(returns),
        _ => false,
    }
}

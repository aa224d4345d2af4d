//! The data a `ram` program declares (`input A[n]`, `var d[n + 1] = -1`),
//! as hover and completion describe it: each declared name with its shape,
//! and each size an input's shape binds (`n` of `input A[n]`) with what it
//! measures. Read from the parse tree, so half-typed text still describes.

use cnpi::format::expression;
use cnpi::syntax::ast::{self, ExprKind};

use crate::document::Document;

/// A name the data declarations introduce.
pub struct DeclaredName<'a> {
    pub name: &'a str,
    /// The declaration it comes from.
    pub declaration: &'a ast::DataDecl,
    /// What it is: "an input array of length `n`", "a size: the length of `A`".
    pub description: String,
    /// A size (read-only, bound by an input's shape) rather than data.
    pub size: bool,
}

/// Every name the file's data declarations introduce, in textual order (a
/// size once, where first bound).
pub fn declared_names(document: &Document) -> Vec<DeclaredName<'_>> {
    let mut found: Vec<DeclaredName<'_>> = Vec::new();
    for declaration in document.data() {
        found.push(DeclaredName {
            name: &declaration.name.name,
            declaration,
            description: shape(declaration),
            size: false,
        });
        if declaration.keyword.name != "input" {
            continue;
        }
        for (i, dim) in declaration.dims.iter().enumerate() {
            let ExprKind::Name(size) = &dim.kind else {
                continue;
            };
            if found.iter().any(|d| d.size && d.name == size) {
                continue;
            }
            let measure = match (declaration.dims.len(), i) {
                (1, _) => "the length",
                (_, 0) => "the number of rows",
                _ => "the number of columns",
            };
            found.push(DeclaredName {
                name: size,
                declaration,
                description: format!("a size: {measure} of `{}`", declaration.name.name),
                size: true,
            });
        }
    }
    found
}

/// "an input array of length `n`", "a scratch matrix of `n` × `n`, every
/// element starting at `0`".
fn shape(declaration: &ast::DataDecl) -> String {
    let origin = match declaration.keyword.name.as_str() {
        "input" => "an input",
        _ => "a scratch",
    };
    let dims: Vec<String> = declaration
        .dims
        .iter()
        .map(|d| format!("`{}`", expression(d)))
        .collect();
    let form = match dims.as_slice() {
        [] => "integer".to_string(),
        [length] => format!("array of length {length}"),
        [rows, columns] => format!("matrix of {rows} × {columns}"),
        more => format!("array of {}", more.join(" × ")),
    };
    let start = match (&declaration.init, origin) {
        (_, "an input") => String::new(),
        (init, _) => {
            let value = init.as_ref().map_or("0".to_string(), expression);
            if dims.is_empty() {
                format!(", starting at `{value}`")
            } else {
                format!(", every element starting at `{value}`")
            }
        }
    };
    format!("{origin} {form}{start}")
}

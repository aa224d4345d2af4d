//! Locals (language.md §5.2) as the editor sees them: which names of a
//! `ram` program are its own, where each is first given a value, for
//! hover, go-to-definition and completion at a place in the file.
//!
//! A local is a name that a normal program assigns (or a parameter) that
//! the file does not declare at file level; the checker decides the same
//! from the same list (`visit::assigned_names`).

use cnpi::span::Span;
use cnpi::syntax::{ast, visit};

use crate::document::Document;

/// A local of the program around some place.
pub struct Local<'d> {
    pub name: String,
    /// Its first assignment (or the parameter in the `def` line).
    pub span: Span,
    pub role: Role,
    /// The program it belongs to.
    pub def: &'d ast::Def,
}

/// What a local is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Assigned in the program.
    Assigned,
    /// A parameter that takes an integer.
    Integer,
    /// A parameter that takes an array (1) or a matrix (2) by reference.
    Array(usize),
}

/// The locals of the normal program whose text holds `offset`.
pub fn locals_at(document: &Document, offset: usize) -> Vec<Local<'_>> {
    let Some(def) = document
        .defs()
        .find(|def| def.span.start <= offset && offset <= def.span.end)
    else {
        return Vec::new();
    };
    let ast::DefBody::Normal(block) = &def.body else {
        return Vec::new();
    };
    let register = |name: &str| {
        (document.env()).is_some_and(|env| env.pointers.iter().any(|p| p.name.name == name))
    };
    let declared = |name: &str| {
        document.def(name).is_some()
            || document.data().any(|d| d.name.name == name)
            || register(name)
    };
    let shapes = cnpi::check::array_parameters(&document.tree);
    let role = |param: &ast::Ident| match shapes.get(&(def.name.name.clone(), param.name.clone())) {
        Some(&dims) => Role::Array(dims),
        None => Role::Integer,
    };
    let params = def.params.iter().map(|p| (p, role(p)));
    let assigned = visit::assigned_names(block);
    let mut found: Vec<Local> = Vec::new();
    for (ident, role) in params.chain(assigned.iter().map(|a| (a, Role::Assigned))) {
        // An array parameter is the program's own even when it has the
        // name of one of the file's arrays, and an integer parameter is
        // unless it is a register of the `env` line (one named after an
        // input, a size or a `var` hides it inside the program).
        let own = match role {
            Role::Array(_) => true,
            Role::Integer => !register(&ident.name) && document.def(&ident.name).is_none(),
            Role::Assigned => !declared(&ident.name),
        };
        if own && !found.iter().any(|l| l.name == ident.name) {
            found.push(Local {
                name: ident.name.clone(),
                span: ident.span,
                role,
                def,
            });
        }
    }
    found
}

/// The local called `name` of the program around `offset`, if it is one.
pub fn local<'d>(document: &'d Document, offset: usize, name: &str) -> Option<Local<'d>> {
    locals_at(document, offset)
        .into_iter()
        .find(|l| l.name == name)
}

/// What hover says of a local.
pub fn describe(local: &Local) -> String {
    let program = &local.def.name.name;
    match local.role {
        Role::Array(dims) => format!(
            "array parameter `{}` of `{program}`: {} that each call passes by reference, so the program's writes are the caller's",
            local.name,
            if dims >= 2 { "the matrix" } else { "the array" }
        ),
        Role::Integer => format!(
            "parameter `{}` of `{program}`, a local: set by each call, and each activation has its own",
            local.name
        ),
        Role::Assigned => format!(
            "local `{}` of `{program}`: each activation has its own, no call changes it, and a run does not print it",
            local.name
        ),
    }
}

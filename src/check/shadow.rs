//! Parameters named after the file's integers (language.md §5.2: "a
//! parameter not named on the env line is a local too").
//!
//! CLRS names a procedure's parameters after what they hold, and a file
//! that transcribes it often declares the same names at file level:
//! `input A[n]` beside `def INSERTION_SORT(A, n)`, `input k` beside
//! `def COUNTING_SORT(A, B, n, k)`. Such a parameter is a local of its
//! program, as in Python: inside the program the name is the parameter,
//! and the file's integer is out of its sight. [`rename`] gives each such
//! parameter a hidden name of its own (`_<p>p_<name>`, shown as written
//! by `program::hidden::written`) and renames its uses in the body, before
//! any other pass reads the file: `len(A)`, which the sugar writes as the
//! size `n`, still means the file's size. A parameter named after an env
//! register stays that register (§5.1), and one named after an array is
//! the array parameter of `check::arrays`.

use std::collections::HashSet;

use crate::program::hidden::Local;
use crate::syntax::ast::{DefBody, ExprKind, File, Item};
use crate::syntax::visit::{each_part_mut, each_stmt_mut, own_exprs_mut};

/// `file` with every parameter that shadows a file-level integer (a
/// scalar input or `var`, or an input's size) renamed in its program.
pub(super) fn rename(file: &File) -> File {
    let integers = file_integers(file);
    let mut file = file.clone();
    let mut program = 0;
    for item in &mut file.items {
        let Item::Def(def) = item else { continue };
        let DefBody::Normal(block) = &mut def.body else {
            continue;
        };
        for i in 0..def.params.len() {
            let name = def.params[i].name.clone();
            let twice = def.params[..i].iter().any(|p| p.name == name);
            if twice || !integers.contains(&name) {
                continue;
            }
            let hidden = Local::new(program, "p", &name).to_string();
            def.params[i].name.clone_from(&hidden);
            each_stmt_mut(block, &mut |stmt| {
                if let crate::syntax::ast::Stmt::For { variable, .. } = stmt
                    && variable.name == name
                {
                    variable.name.clone_from(&hidden);
                }
                for e in own_exprs_mut(stmt) {
                    each_part_mut(e, &mut |x| {
                        match &mut x.kind {
                            ExprKind::Name(n) if *n == name => n.clone_from(&hidden),
                            _ => {}
                        }
                        true
                    });
                }
            });
        }
        program += 1;
    }
    file
}

/// The integers the file declares that a parameter may shadow: scalar
/// inputs and `var`s, and the sizes its inputs declare (`n` of `input
/// A[n]`); not the env line's registers.
fn file_integers(file: &File) -> HashSet<String> {
    let mut found = HashSet::new();
    let mut registers = HashSet::new();
    for item in &file.items {
        match item {
            Item::Data(decl) => {
                if decl.dims.is_empty() {
                    found.insert(decl.name.name.clone());
                } else if decl.keyword.name == "input" {
                    for dim in &decl.dims {
                        if let ExprKind::Name(size) = &dim.kind {
                            found.insert(size.clone());
                        }
                    }
                }
            }
            Item::Env(env) => registers.extend(env.pointers.iter().map(|p| p.name.name.clone())),
            _ => {}
        }
    }
    found.retain(|name| !registers.contains(name));
    found
}

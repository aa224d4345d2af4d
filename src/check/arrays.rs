//! Arrays as parameters and local arrays (language.md §5.2), written in
//! the language of §5.1 before anything else reads the file.
//!
//! A parameter that a program indexes (`A[i]`: an array, `M[i][j]`: a
//! matrix), gives to `len`, or passes on to such a parameter takes an
//! array by reference. [`specialize`] gives each program one copy per
//! choice of arrays its calls pass (an *instance*): in the copy, the
//! parameter is the array itself, and the call passes only the integers.
//! The arrays a call may pass are the file's, the caller's local arrays
//! and its own array parameters, so the instances are finitely many; the
//! copy that takes the file's arrays of the parameters' own names keeps
//! the program's name (`PARTITION(A, p, r)`), any other is named after
//! its arrays (`MERGE_B`).
//!
//! `var L[e]` in a program is an array of its activation. It becomes a
//! hidden file-level array `_<k>a_L` (`k` numbers the program), made anew
//! by `ALLOC` when the statement runs, with its length in hidden
//! variables for `len`, and emptied at every `return` and at the end of
//! the program. A program that may run again while it runs (through
//! recursion) keeps each activation's arrays apart: on entry it puts the
//! caller's away (`STASH`, and their lengths into hidden locals), and at
//! every return it takes them back (`UNSTASH`). After this pass, every
//! engine runs plain programs on file-level arrays, so they agree by
//! construction.

use std::collections::{HashMap, HashSet};

use super::sugar::{hidden_var, int, name};
use crate::diagnostic::{Diagnostic, codes};
use crate::program::hidden;
use crate::span::Span;
use crate::syntax::ast::{Block, Call, DataDecl, DefBody, Expr, ExprKind, File, Ident, Item, Stmt};
use crate::syntax::visit::{each_expr, each_part, each_stmt};

/// What a parameter takes: an integer, or an array of one or two
/// dimensions (0 while only `len` is known of it: an array or a matrix).
type Kind = Option<usize>;

/// A local array of a program: its dimensions and hidden names.
#[derive(Clone)]
struct Local {
    dims: usize,
    /// The hidden array.
    array: String,
    /// The hidden variables holding its lengths (one per dimension).
    lengths: Vec<String>,
}

impl Local {
    /// This local array in slot `k` of its program: slot 0 is the array
    /// as declared (`_3a_L`, lengths `_3n_L`); slot 1 and on (`_3a1_L`,
    /// `_3n1_L`) serve an instance that takes slot 0's array as an
    /// argument, so that its own array is not its caller's.
    fn in_slot(&self, k: usize) -> Local {
        let at = |name: &str| match hidden::Local::parse(name) {
            Some(local) if k > 0 => local.in_slot(k).to_string(),
            _ => name.to_string(),
        };
        Local {
            dims: self.dims,
            array: at(&self.array),
            lengths: self.lengths.iter().map(|l| at(l)).collect(),
        }
    }
}

/// A normal program of the file, as this pass sees it.
struct Program<'a> {
    def: &'a crate::syntax::ast::Def,
    block: &'a Block,
    kinds: Vec<Kind>,
    locals: HashMap<String, Local>,
    /// Whether the program may run again while it runs.
    recursive: bool,
}

/// One copy of a program: its arrays, and its name.
struct Instance {
    program: usize,
    arrays: Vec<String>,
    name: String,
}

/// `file` with every program that takes arrays copied per choice of
/// arrays, and every local array made a hidden file-level one; errors
/// (E0413, E0414) go to `diagnostics`.
pub(super) fn specialize(file: &File, diagnostics: &mut Vec<Diagnostic>) -> File {
    let mut pass = Pass::new(file);
    let plain =
        |program: &Program| program.locals.is_empty() && program.kinds.iter().all(Option::is_none);
    if pass.programs.iter().all(plain) {
        diagnostics.append(&mut pass.diagnostics);
        return file.clone();
    }
    let roots: Vec<usize> = (0..pass.programs.len())
        .filter(|&p| pass.programs[p].kinds.iter().all(Option::is_none))
        .collect();
    for p in roots {
        pass.instance(p, Vec::new());
    }
    pass.finish_instances();
    let file = pass.output(file);
    diagnostics.append(&mut pass.diagnostics);
    file
}

/// The array parameters of the file's programs, as the checker finds
/// them: each program's name and parameter's name, with its dimensions
/// (1 for an array, 2 for a matrix). For the language server's hovers.
pub fn array_parameters(file: &File) -> HashMap<(String, String), usize> {
    let pass = Pass::new(file);
    let mut found = HashMap::new();
    for program in &pass.programs {
        for (param, kind) in program.def.params.iter().zip(&program.kinds) {
            if let Some(dims) = kind {
                found.insert((program.def.name.name.clone(), param.name.clone()), *dims);
            }
        }
    }
    found
}

struct Pass<'a> {
    programs: Vec<Program<'a>>,
    by_name: HashMap<String, usize>,
    /// Every array's dimensions by name: the file's, and the hidden ones.
    arrays: HashMap<String, usize>,
    /// Every name the file uses at top level, so that new names are new.
    taken: HashSet<String>,
    instances: Vec<Instance>,
    keys: HashMap<(usize, Vec<String>), usize>,
    /// The programs taking arrays that some call names.
    called: HashSet<usize>,
    /// The rewritten body of each instance (same indices).
    bodies: Vec<Option<Block>>,
    /// The local arrays of every slot some instance uses (see
    /// [`Local::in_slot`]), each once.
    made: Vec<Local>,
    diagnostics: Vec<Diagnostic>,
    reported: HashSet<(Span, String)>,
}

impl<'a> Pass<'a> {
    fn new(file: &'a File) -> Pass<'a> {
        let mut pass = Pass {
            programs: Vec::new(),
            by_name: HashMap::new(),
            arrays: HashMap::new(),
            taken: HashSet::new(),
            instances: Vec::new(),
            keys: HashMap::new(),
            called: HashSet::new(),
            bodies: Vec::new(),
            made: Vec::new(),
            diagnostics: Vec::new(),
            reported: HashSet::new(),
        };
        for item in &file.items {
            match item {
                Item::Data(decl) => {
                    pass.taken.insert(decl.name.name.clone());
                    if !decl.dims.is_empty() {
                        pass.arrays.insert(decl.name.name.clone(), decl.dims.len());
                    }
                }
                Item::Def(def) => {
                    pass.taken.insert(def.name.name.clone());
                    if let DefBody::Normal(block) = &def.body {
                        pass.by_name
                            .insert(def.name.name.clone(), pass.programs.len());
                        pass.programs.push(Program {
                            def,
                            block,
                            kinds: vec![None; def.params.len()],
                            locals: HashMap::new(),
                            recursive: false,
                        });
                    }
                }
                Item::Env(env) => {
                    (pass.taken).extend(env.pointers.iter().map(|p| p.name.name.clone()));
                }
                _ => {}
            }
        }
        for p in 0..pass.programs.len() {
            pass.declare_locals(p);
            pass.usage(p);
        }
        pass.propagate();
        pass.find_recursion();
        pass
    }

    fn report(&mut self, diagnostic: Diagnostic, span: Span) {
        if self.reported.insert((span, diagnostic.message.clone())) {
            self.diagnostics.push(diagnostic);
        }
    }

    /// Records the local arrays of program `p` (`var L[e]` statements),
    /// with their hidden names.
    fn declare_locals(&mut self, p: usize) {
        let mut found = Vec::new();
        each_stmt(self.programs[p].block, &mut |stmt| {
            if let Stmt::LocalArray(decl) = stmt {
                found.push(decl.clone());
            }
        });
        for decl in found {
            let name = &decl.name.name;
            let program = &self.programs[p];
            let clash =
                self.taken.contains(name) || program.def.params.iter().any(|q| &q.name == name);
            if clash {
                let error = Diagnostic::error(
                    codes::E0413,
                    format!("the local array `{name}` has the name of a parameter or of a file-level name"),
                )
                .with_label(decl.name.span, "declared again here")
                .with_help("a local array takes a name of its own; rename it");
                self.report(error, decl.name.span);
                continue;
            }
            match program.locals.get(name) {
                Some(local) if local.dims != decl.dims.len() => {
                    let error = Diagnostic::error(
                        codes::E0413,
                        format!(
                            "the local array `{name}` is declared with {} and with {} dimensions",
                            local.dims,
                            decl.dims.len()
                        ),
                    )
                    .with_label(decl.span, "declared again here")
                    .with_help("a local array has one shape in its program; use another name");
                    self.report(error, decl.span);
                }
                Some(_) => {}
                None => {
                    let local = Local {
                        dims: decl.dims.len(),
                        array: hidden::Local::new(p, "a", name).to_string(),
                        lengths: (["n", "c"].iter().take(decl.dims.len()))
                            .map(|tag| hidden::Local::new(p, tag, name).to_string())
                            .collect(),
                    };
                    self.arrays.insert(local.array.clone(), local.dims);
                    self.programs[p].locals.insert(name.clone(), local);
                }
            }
        }
    }

    /// The kinds program `p`'s own statements give its parameters: an
    /// index, or `len`. A parameter named after one of the file's arrays
    /// is that array's kind even where only the procedures it calls index
    /// it (CLRS's `GREEDY-ACTIVITY-SELECTOR(s, f)`).
    fn usage(&mut self, p: usize) {
        let params: Vec<String> = (self.programs[p].def.params.iter())
            .map(|q| q.name.clone())
            .collect();
        let mut marks: Vec<(usize, usize, Span)> = Vec::new();
        let def = self.programs[p].def;
        for (k, q) in def.params.iter().enumerate() {
            if def.params[..k].iter().any(|r| r.name == q.name) {
                self.report(super::params::named_twice(q), q.span);
            }
            if let Some(&dims) = self.arrays.get(&q.name) {
                marks.push((k, dims, q.span));
            }
        }
        each_expr(self.programs[p].block, &mut |e| {
            let (base, dims) = match &e.kind {
                ExprKind::Apply(f, args) if f.name == "len" && args.len() == 1 => {
                    match &args[0].kind {
                        ExprKind::Name(x) => (x.as_str(), 0),
                        ExprKind::Index(x, _) => (x.name.as_str(), 2),
                        _ => return true,
                    }
                }
                ExprKind::Index(x, _) => (x.name.as_str(), 1),
                ExprKind::Index2(x, _, _) => (x.name.as_str(), 2),
                _ => return true,
            };
            if let Some(k) = params.iter().position(|q| q == base) {
                marks.push((k, dims, e.span));
            }
            // Inside `len(M[i])`, `M[i]` is a row, not an element.
            !matches!(&e.kind, ExprKind::Apply(..))
        });
        for (k, dims, span) in marks {
            self.mark(p, k, Some(dims), span);
        }
    }

    /// Joins what is known of parameter `k` of program `p` with `kind`;
    /// says whether it changed. A parameter indexed both ways is E0414.
    fn mark(&mut self, p: usize, k: usize, kind: Kind, span: Span) -> bool {
        let old = self.programs[p].kinds[k];
        let new = match (old, kind) {
            (old, None) => old,
            (None, new) | (Some(0), new) => new,
            (Some(a), Some(0)) => Some(a),
            (Some(a), Some(b)) if a == b => Some(a),
            (Some(a), Some(b)) => {
                let name = self.programs[p].def.params[k].name.clone();
                let error = Diagnostic::error(
                    codes::E0414,
                    format!("the parameter `{name}` is used as an array and as a matrix"),
                )
                .with_label(span, format!("{} here", shape(b)))
                .with_help(format!(
                    "`{name}` is {} elsewhere; a parameter takes one kind",
                    shape(a)
                ));
                self.report(error, span);
                Some(a)
            }
        };
        self.programs[p].kinds[k] = new;
        new != old
    }

    /// Spreads the parameters' kinds through the calls that pass a
    /// parameter or an array on, until nothing changes.
    fn propagate(&mut self) {
        loop {
            let mut changed = false;
            for p in 0..self.programs.len() {
                for (callee, args, span) in calls(self.programs[p].block, &self.by_name) {
                    for (k, arg) in args
                        .iter()
                        .enumerate()
                        .take(self.programs[callee].kinds.len())
                    {
                        let ExprKind::Name(x) = &arg.kind else {
                            continue;
                        };
                        let callee_kind = self.programs[callee].kinds[k];
                        let mine = self.programs[p]
                            .def
                            .params
                            .iter()
                            .position(|q| &q.name == x);
                        if let Some(m) = mine {
                            changed |= self.mark(p, m, callee_kind, span);
                            let known = self.programs[p].kinds[m];
                            changed |= self.mark(callee, k, known, span);
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for program in &mut self.programs {
            for kind in &mut program.kinds {
                *kind = kind.map(|d| d.max(1));
            }
        }
    }

    /// Marks the programs with local arrays that may run again while they
    /// run (through any chain of calls).
    fn find_recursion(&mut self) {
        let edges: Vec<Vec<usize>> = (self.programs.iter())
            .map(|program| {
                calls(program.block, &self.by_name)
                    .into_iter()
                    .map(|(c, _, _)| c)
                    .collect()
            })
            .collect();
        for p in 0..self.programs.len() {
            if self.programs[p].locals.is_empty() {
                continue;
            }
            let mut seen = vec![false; self.programs.len()];
            let mut stack = edges[p].clone();
            while let Some(q) = stack.pop() {
                if !std::mem::replace(&mut seen[q], true) {
                    stack.extend(&edges[q]);
                }
            }
            self.programs[p].recursive = seen[p];
        }
    }

    /// The instance of program `p` on `arrays` (one per array parameter,
    /// in order): found, or made and its body rewritten.
    fn instance(&mut self, p: usize, arrays: Vec<String>) -> String {
        if let Some(&i) = self.keys.get(&(p, arrays.clone())) {
            return self.instances[i].name.clone();
        }
        let program = &self.programs[p];
        let array_params = (program.def.params.iter().zip(&program.kinds))
            .filter(|(_, kind)| kind.is_some())
            .map(|(q, _)| q.name.as_str());
        let identity = array_params.eq(arrays.iter().map(String::as_str));
        let name = match identity {
            true => program.def.name.name.clone(),
            false => self.fresh_name(p, &arrays),
        };
        let i = self.instances.len();
        self.keys.insert((p, arrays.clone()), i);
        self.instances.push(Instance {
            program: p,
            arrays,
            name: name.clone(),
        });
        self.bodies.push(None);
        let body = self.rewrite_body(i);
        self.bodies[i] = Some(body);
        name
    }

    /// A new name for the instance of program `p` on `arrays`.
    fn fresh_name(&mut self, p: usize, arrays: &[String]) -> String {
        let parts: Vec<&str> = arrays.iter().map(|a| a.trim_start_matches('_')).collect();
        let base = format!("{}_{}", self.programs[p].def.name.name, parts.join("_"));
        let mut name = base.clone();
        let mut k = 2;
        while !self.taken.insert(name.clone()) {
            name = format!("{base}{k}");
            k += 1;
        }
        name
    }

    /// Gives every program that takes arrays and that no call reached its
    /// instance on the file's arrays of its parameters' names, where the
    /// file has them (E0414 where it has not).
    fn finish_instances(&mut self) {
        loop {
            let before = self.instances.len();
            for p in 0..self.programs.len() {
                if let Some(arrays) = self.own_arrays(p) {
                    self.instance(p, arrays);
                }
            }
            if self.instances.len() == before {
                break;
            }
        }
        for p in 0..self.programs.len() {
            if self.called.contains(&p) || self.instances.iter().any(|i| i.program == p) {
                continue;
            }
            let program = &self.programs[p];
            let wanted = (program.def.params.iter().zip(&program.kinds))
                .filter_map(|(q, kind)| kind.map(|d| (q.name.clone(), d)));
            let missing = wanted
                .into_iter()
                .find(|(name, dims)| self.arrays.get(name) != Some(dims));
            if let Some((name, dims)) = missing {
                let def = program.def;
                let error = Diagnostic::error(
                    codes::E0414,
                    format!("`{}` takes {} `{name}`, but no call passes one", def.name.name, shape(dims)),
                )
                .with_label(def.name.span, "never called")
                .with_help(format!(
                    "call it with an array, or, to run it first, declare `input {name}[n]` and drop the parameter"
                ));
                self.report(error, def.name.span);
            }
        }
    }

    /// The file's arrays of program `p`'s array parameters' names, when
    /// no call names `p`, it has no instance yet and the file has them
    /// all, of the right shapes.
    fn own_arrays(&self, p: usize) -> Option<Vec<String>> {
        if self.called.contains(&p) || self.instances.iter().any(|i| i.program == p) {
            return None;
        }
        let program = &self.programs[p];
        (program.def.params.iter().zip(&program.kinds))
            .filter_map(|(q, kind)| kind.map(|d| (q, d)))
            .map(|(q, dims)| (self.arrays.get(&q.name) == Some(&dims)).then(|| q.name.clone()))
            .collect()
    }

    /// The file with the instances in place of their programs and the
    /// hidden arrays and lengths declared.
    fn output(&mut self, file: &File) -> File {
        let mut items = Vec::new();
        let mut def_index = 0;
        for item in &file.items {
            let Item::Def(def) = item else {
                items.push(item.clone());
                continue;
            };
            if !matches!(def.body, DefBody::Normal(_)) {
                items.push(item.clone());
                continue;
            }
            let p = def_index;
            def_index += 1;
            for (i, instance) in self.instances.iter().enumerate() {
                if instance.program != p {
                    continue;
                }
                let program = &self.programs[p];
                let params = (def.params.iter().zip(&program.kinds))
                    .filter(|(_, kind)| kind.is_none())
                    .map(|(q, _)| q.clone())
                    .collect();
                let name = Ident {
                    name: instance.name.clone(),
                    span: def.name.span,
                };
                let body = self.bodies[i].take().unwrap_or_default();
                items.push(Item::Def(crate::syntax::ast::Def {
                    name,
                    params,
                    body: DefBody::Normal(body),
                    span: def.span,
                }));
            }
        }
        let mut made: Vec<&Local> = self.made.iter().collect();
        made.sort_by(|a, b| a.array.cmp(&b.array));
        for local in made {
            items.push(Item::Data(hidden_var(&local.array, local.dims)));
            for length in &local.lengths {
                items.push(Item::Data(hidden_var(length, 0)));
            }
        }
        File { items }
    }

    /// The body of instance `i`: its arrays in place of its array
    /// parameters, its calls to instances, its local arrays made and
    /// freed.
    fn rewrite_body(&mut self, i: usize) -> Block {
        let p = self.instances[i].program;
        let program = &self.programs[p];
        let mut scope: HashMap<String, String> = HashMap::new();
        let array_params =
            (program.def.params.iter().zip(&program.kinds)).filter(|(_, k)| k.is_some());
        let arrays = &self.instances[i].arrays;
        for ((q, _), array) in array_params.zip(arrays) {
            scope.insert(q.name.clone(), array.clone());
        }
        // The first slot whose arrays this instance does not take.
        let slot = (0..=arrays.len())
            .find(|&k| (program.locals.values()).all(|l| !arrays.contains(&l.in_slot(k).array)))
            .unwrap_or(0);
        let mut locals = Vec::new();
        for (name, local) in &program.locals {
            let local = local.in_slot(slot);
            scope.insert(name.clone(), local.array.clone());
            locals.push(local);
        }
        locals.sort_by(|a, b| a.array.cmp(&b.array));
        for local in &locals {
            if !self.made.iter().any(|m| m.array == local.array) {
                self.arrays.insert(local.array.clone(), local.dims);
                self.made.push(local.clone());
            }
        }
        let mut rewrite = Rewrite {
            pass: self,
            p,
            scope,
            locals,
            slot,
            temps: 0,
        };
        let mut block = rewrite.entry();
        block.extend(rewrite.block(program_block(rewrite.pass, p)));
        let ends_in_return = matches!(block.last(), Some(Stmt::Return { .. }));
        if !ends_in_return {
            let span = block.last().map_or(Span::default(), Stmt::span);
            block.extend(rewrite.frees(span));
        }
        block
    }
}

fn program_block<'a>(pass: &Pass<'a>, p: usize) -> &'a Block {
    pass.programs[p].block
}

/// The rewriting of one instance's body.
struct Rewrite<'p, 'a> {
    pass: &'p mut Pass<'a>,
    p: usize,
    /// Each array parameter and local array by its written name: the
    /// array it is in this instance.
    scope: HashMap<String, String>,
    locals: Vec<Local>,
    /// The slot of the program's local arrays this instance uses.
    slot: usize,
    temps: usize,
}

impl Rewrite<'_, '_> {
    fn resolve(&self, name: &str) -> String {
        self.scope
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    fn block(&mut self, block: &[Stmt]) -> Block {
        block.iter().flat_map(|stmt| self.stmt(stmt)).collect()
    }

    fn stmt(&mut self, stmt: &Stmt) -> Vec<Stmt> {
        let one = match stmt {
            Stmt::Call(call) => match self.call(call) {
                Some(call) => Stmt::Call(call),
                None => Stmt::Pass(call.span),
            },
            Stmt::Assign {
                target,
                op,
                value,
                span,
            } => Stmt::Assign {
                target: self.expr(target),
                op: *op,
                value: self.expr(value),
                span: *span,
            },
            Stmt::If {
                condition,
                then,
                otherwise,
                elif,
                span,
            } => Stmt::If {
                condition: self.expr(condition),
                then: self.block(then),
                otherwise: otherwise.as_ref().map(|b| self.block(b)),
                elif: *elif,
                span: *span,
            },
            Stmt::For {
                variable,
                from,
                word,
                to,
                body,
                span,
            } => Stmt::For {
                variable: variable.clone(),
                from: self.expr(from),
                word: word.clone(),
                to: self.expr(to),
                body: self.block(body),
                span: *span,
            },
            Stmt::While {
                condition,
                body,
                span,
            } => Stmt::While {
                condition: self.expr(condition),
                body: self.block(body),
                span: *span,
            },
            Stmt::Return { value, span } => return self.return_statement(value.as_ref(), *span),
            Stmt::LocalArray(decl) => return self.local_array(decl),
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Pass(_) | Stmt::Hole(_) => stmt.clone(),
        };
        vec![one]
    }

    /// `var L[e] = v`: its lengths into their hidden variables, then
    /// `ALLOC` (nothing for one already reported).
    fn local_array(&mut self, decl: &DataDecl) -> Vec<Stmt> {
        let span = decl.span;
        let init = decl.init.as_ref().map_or(int(0, span), |e| self.expr(e));
        let program = &self.pass.programs[self.p];
        let Some(local) = program
            .locals
            .get(&decl.name.name)
            .map(|l| l.in_slot(self.slot))
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (length, dim) in local.lengths.iter().zip(&decl.dims) {
            let value = self.expr(dim);
            out.push(assign(name(length, dim.span), value, span));
        }
        let mut args = vec![element(&local.array, local.dims, span)];
        args.extend(local.lengths.iter().map(|l| name(l, span)));
        args.push(init);
        out.push(act(
            if local.dims == 1 { "ALLOC" } else { "ALLOC2" },
            args,
            span,
        ));
        out
    }

    /// Whether the program may run again while it runs.
    fn recursive(&self) -> bool {
        self.pass.programs[self.p].recursive
    }

    /// What a program that may run again while it runs does on entry: its
    /// caller's local arrays put away, and their lengths kept in hidden
    /// locals of this activation (nothing for any other program).
    fn entry(&self) -> Vec<Stmt> {
        let mut out = Vec::new();
        if !self.recursive() {
            return out;
        }
        let span = self.pass.programs[self.p].def.name.span;
        for local in &self.locals {
            for length in &local.lengths {
                out.push(assign(name(&saved(length), span), name(length, span), span));
            }
            let array = element(&local.array, local.dims, span);
            out.push(act("STASH", vec![array], span));
        }
        out
    }

    /// Every local array of the program emptied (freed), and, in a
    /// program that may run again while it runs, its caller's taken back.
    fn frees(&self, span: Span) -> Vec<Stmt> {
        let mut out = Vec::new();
        if self.recursive() {
            for local in self.locals.iter().rev() {
                let array = element(&local.array, local.dims, span);
                out.push(act("UNSTASH", vec![array], span));
                for length in &local.lengths {
                    out.push(assign(name(length, span), name(&saved(length), span), span));
                }
            }
            return out;
        }
        for local in &self.locals {
            let mut args = vec![element(&local.array, local.dims, span)];
            for length in &local.lengths {
                out.push(assign(name(length, span), int(0, span), span));
                args.push(int(0, span));
            }
            args.push(int(0, span));
            out.push(act(
                if local.dims == 1 { "ALLOC" } else { "ALLOC2" },
                args,
                span,
            ));
        }
        out
    }

    /// `return e`: the local arrays freed first, after `e` is computed
    /// into hidden locals if it reads them or calls a program.
    fn return_statement(&mut self, value: Option<&Expr>, span: Span) -> Vec<Stmt> {
        // A call may read a local array by reference (the instance it
        // calls no longer names it): computed first, like a read.
        let calls = value.is_some_and(|v| {
            let mut found = false;
            each_part(v, &mut |x| {
                found |= matches!(&x.kind, ExprKind::Apply(f, _) if self.pass.by_name.contains_key(&f.name));
                true
            });
            found
        });
        let value = value.map(|v| self.expr(v));
        if self.locals.is_empty() {
            return vec![Stmt::Return { value, span }];
        }
        let mut out = Vec::new();
        let value = value.map(|v| {
            let reads_local = calls || mentions(&v, &self.locals);
            if !reads_local {
                return v;
            }
            let parts = match v.kind {
                ExprKind::Tuple(parts) => parts,
                _ => vec![v.clone()],
            };
            let kept: Vec<Expr> = (parts.into_iter())
                .map(|part| {
                    self.temps += 1;
                    let temp = format!("_0z{}", self.temps);
                    let part_span = part.span;
                    out.push(assign(name(&temp, part_span), part, span));
                    name(&temp, part_span)
                })
                .collect();
            match kept.len() {
                1 => kept.into_iter().next().unwrap_or_else(|| int(0, span)),
                _ => Expr {
                    kind: ExprKind::Tuple(kept),
                    span: v.span,
                },
            }
        });
        out.extend(self.frees(span));
        out.push(Stmt::Return { value, span });
        out
    }

    fn expr(&mut self, e: &Expr) -> Expr {
        let span = e.span;
        let kind = match &e.kind {
            ExprKind::Name(x) => ExprKind::Name(self.resolve(x)),
            ExprKind::Index(x, i) => ExprKind::Index(self.ident(x), Box::new(self.expr(i))),
            ExprKind::Index2(x, i, j) => ExprKind::Index2(
                self.ident(x),
                Box::new(self.expr(i)),
                Box::new(self.expr(j)),
            ),
            ExprKind::Apply(f, args) if f.name == "len" && args.len() == 1 => {
                return self.length(f, &args[0], span);
            }
            ExprKind::Apply(f, args) => {
                let call = self.call(&Call {
                    name: f.clone(),
                    args: Some(args.clone()),
                    span,
                });
                match call {
                    Some(call) => ExprKind::Apply(call.name, call.args.unwrap_or_default()),
                    None => ExprKind::Int(0),
                }
            }
            ExprKind::Neg(a) => ExprKind::Neg(Box::new(self.expr(a))),
            ExprKind::Not(a) => ExprKind::Not(Box::new(self.expr(a))),
            ExprKind::Arith(op, a, b) => {
                ExprKind::Arith(*op, Box::new(self.expr(a)), Box::new(self.expr(b)))
            }
            ExprKind::Compare(op, a, b) => {
                ExprKind::Compare(*op, Box::new(self.expr(a)), Box::new(self.expr(b)))
            }
            ExprKind::And(a, b) => ExprKind::And(Box::new(self.expr(a)), Box::new(self.expr(b))),
            ExprKind::Or(a, b) => ExprKind::Or(Box::new(self.expr(a)), Box::new(self.expr(b))),
            ExprKind::Tuple(parts) => ExprKind::Tuple(parts.iter().map(|x| self.expr(x)).collect()),
            ExprKind::Int(_) | ExprKind::Char(_) | ExprKind::Hole | ExprKind::Error => {
                e.kind.clone()
            }
        };
        Expr { kind, span }
    }

    fn ident(&self, x: &Ident) -> Ident {
        Ident {
            name: self.resolve(&x.name),
            span: x.span,
        }
    }

    /// `len(X)`: a local array's length is the hidden variable that holds
    /// it; any other array's is left for the checker's own `len`.
    fn length(&mut self, f: &Ident, arg: &Expr, span: Span) -> Expr {
        let (base, dim) = match &arg.kind {
            ExprKind::Name(x) => (self.resolve(x), 0),
            ExprKind::Index(x, _) => (self.resolve(&x.name), 1),
            _ => (String::new(), 0),
        };
        let local = (self.locals.iter().chain(&self.pass.made))
            .filter(|l| l.array == base)
            .find_map(|l| l.lengths.get(dim).cloned());
        match local {
            Some(length) => name(&length, span),
            None => Expr {
                kind: ExprKind::Apply(f.clone(), vec![self.expr(arg)]),
                span,
            },
        }
    }

    /// A call: to an instance of its program, passing only the integers,
    /// when the program takes arrays; `None` after E0414 for an argument
    /// of the wrong kind (the call is left out of the checked file).
    fn call(&mut self, call: &Call) -> Option<Call> {
        let args: Option<Vec<Expr>> =
            (call.args.as_ref()).map(|args| args.iter().map(|a| self.expr(a)).collect());
        let Some(&callee) = self.pass.by_name.get(&call.name.name) else {
            return Some(Call {
                args,
                ..call.clone()
            });
        };
        let Some(args) = args else {
            return Some(call.clone());
        };
        let kinds = self.pass.programs[callee].kinds.clone();
        if kinds.iter().all(Option::is_none) {
            for (k, arg) in args.iter().enumerate().take(kinds.len()) {
                self.integer_argument(callee, k, arg);
            }
            return Some(Call {
                args: Some(args),
                ..call.clone()
            });
        }
        self.pass.called.insert(callee);
        if args.len() != kinds.len() {
            return Some(Call {
                args: Some(args),
                ..call.clone()
            });
        }
        let mut arrays = Vec::new();
        let mut integers = Vec::new();
        for (k, (arg, kind)) in args.into_iter().zip(&kinds).enumerate() {
            match kind {
                None => {
                    self.integer_argument(callee, k, &arg);
                    integers.push(arg);
                }
                Some(dims) => arrays.push(self.array_argument(callee, k, *dims, &arg)),
            }
        }
        let arrays = arrays.into_iter().collect::<Option<Vec<String>>>()?;
        let name = self.pass.instance(callee, arrays);
        Some(Call {
            name: Ident {
                name,
                span: call.name.span,
            },
            args: Some(integers),
            span: call.span,
        })
    }

    /// The array an argument passes to parameter `k` of `callee`, which
    /// takes `dims` dimensions; E0414 when it is not one.
    fn array_argument(
        &mut self,
        callee: usize,
        k: usize,
        dims: usize,
        arg: &Expr,
    ) -> Option<String> {
        if let ExprKind::Name(x) = &arg.kind
            && self.pass.arrays.get(x) == Some(&dims)
        {
            return Some(x.clone());
        }
        let param = self.pass.programs[callee].def.params[k].name.clone();
        let callee_name = self.pass.programs[callee].def.name.name.clone();
        let error = Diagnostic::error(
            codes::E0414,
            format!(
                "`{callee_name}` takes {} as `{param}`, and this is not one",
                shape(dims)
            ),
        )
        .with_label(arg.span, format!("not {}", shape(dims)))
        .with_help(format!(
            "pass the name of {} (an input, a `var`, a local array or an array parameter)",
            shape(dims)
        ));
        self.pass.report(error, arg.span);
        None
    }

    /// E0414 when an array is passed to an integer parameter.
    fn integer_argument(&mut self, callee: usize, k: usize, arg: &Expr) {
        let ExprKind::Name(x) = &arg.kind else { return };
        let Some(&dims) = self.pass.arrays.get(x) else {
            return;
        };
        let param = self.pass.programs[callee].def.params[k].name.clone();
        let callee_name = self.pass.programs[callee].def.name.name.clone();
        let written = (self.scope.iter()).find_map(|(w, a)| (a == x).then_some(w.as_str()));
        let shown = written.unwrap_or(x);
        let error = Diagnostic::error(
            codes::E0414,
            format!("`{shown}` is {}, but `{callee_name}` takes an integer as `{param}`", shape(dims)),
        )
        .with_label(arg.span, shape(dims))
        .with_help(format!(
            "pass an element (`{shown}[i]`), or make `{param}` an array parameter by indexing it in `{callee_name}`"
        ));
        self.pass.report(error, arg.span);
    }
}

/// "an array" or "a matrix".
fn shape(dims: usize) -> &'static str {
    if dims >= 2 { "a matrix" } else { "an array" }
}

/// Whether `e` reads one of `locals`.
fn mentions(e: &Expr, locals: &[Local]) -> bool {
    let mut found = false;
    each_part(e, &mut |x| {
        let base = match &x.kind {
            ExprKind::Name(n) => n.as_str(),
            ExprKind::Index(n, _) | ExprKind::Index2(n, _, _) => n.name.as_str(),
            _ => return true,
        };
        found |= locals
            .iter()
            .any(|l| l.array == base || l.lengths.iter().any(|n| n == base));
        true
    });
    found
}

/// The hidden local that keeps a caller's `length` while a recursive
/// activation runs (`_3n_L` -> `_3sn_L`).
fn saved(length: &str) -> String {
    match hidden::Local::parse(length) {
        Some(local @ hidden::Local { tag: "n", .. }) => {
            hidden::Local { tag: "sn", ..local }.to_string()
        }
        Some(local @ hidden::Local { tag: "c", .. }) => {
            hidden::Local { tag: "sc", ..local }.to_string()
        }
        _ => length.to_string(),
    }
}

/// The calls in `block` to programs of `by_name`: callee, arguments and
/// where.
fn calls<'b>(block: &'b Block, by_name: &HashMap<String, usize>) -> Vec<(usize, &'b [Expr], Span)> {
    let mut found = Vec::new();
    each_stmt(block, &mut |stmt| {
        if let Stmt::Call(Call {
            name,
            args: Some(args),
            span,
        }) = stmt
            && let Some(&callee) = by_name.get(&name.name)
        {
            found.push((callee, args.as_slice(), *span));
        }
    });
    each_expr(block, &mut |e| {
        if let ExprKind::Apply(f, args) = &e.kind
            && let Some(&callee) = by_name.get(&f.name)
        {
            found.push((callee, args.as_slice(), e.span));
        }
        true
    });
    found
}

/// `NAME[0]` or `NAME[0][0]`: the place that names an array for `ALLOC`.
fn element(array: &str, dims: usize, span: Span) -> Expr {
    let ident = Ident {
        name: array.into(),
        span,
    };
    let kind = match dims {
        1 => ExprKind::Index(ident, Box::new(int(0, span))),
        _ => ExprKind::Index2(ident, Box::new(int(0, span)), Box::new(int(0, span))),
    };
    Expr { kind, span }
}

fn act(act: &str, args: Vec<Expr>, span: Span) -> Stmt {
    Stmt::Call(Call {
        name: Ident {
            name: act.into(),
            span,
        },
        args: Some(args),
        span,
    })
}

fn assign(target: Expr, value: Expr, span: Span) -> Stmt {
    Stmt::Assign {
        target,
        op: None,
        value,
        span,
    }
}

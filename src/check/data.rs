//! The data of a `ram` program: its `input` and `var` declarations, the
//! cells its expressions read, and its assignments.
//!
//! Declarations are read in two passes. [`Checker::declare_data`] gives
//! every name its meaning and its shape (an input's lengths name sizes,
//! each bound by the first input that names it); [`Checker::check_data`],
//! once the registers are known, checks a scratch declaration's lengths and
//! initial value, which may read sizes, inputs and earlier scalars but no
//! register. A read names a declared cell with one index per dimension
//! ([`Checker::read_cell`]); an assignment writes a register (`SET`) or a
//! cell (`WRITE`), never a size.

use crate::diagnostic::{Diagnostic, codes};
use crate::env::{self, Ability};
use crate::program::{Act, ActApp, ActArg, Cell, Data, DataId, DataKind, PosExpr, PosKind, Stmt};
use crate::span::Span;
use crate::syntax::ast::{self, Expr, ExprKind, Ident};

use super::Checker;
use super::names::{Expect, Meaning};

impl<'a> Checker<'a> {
    /// First pass over `input` and `var` declarations: names and shapes.
    pub(super) fn declare_data(&mut self, decl: &'a ast::DataDecl) {
        let keyword = decl.keyword.name.as_str();
        if !self.declared_memory {
            let able: Vec<&str> = env::with(Ability::DeclaredMemory).map(|e| e.name).collect();
            let names: Vec<String> = able.iter().map(|name| format!("`{name}`")).collect();
            let mut diagnostic = Diagnostic::error(
                codes::E0112,
                format!(
                    "`{keyword}` declarations need the {} environment, but this file runs in `{}`",
                    names.join(" or "),
                    self.env.kind.name()
                ),
            )
            .with_label(decl.span, "declares data");
            if let Some(first) = able.first() {
                diagnostic = diagnostic.with_help(format!(
                    "write `env {first}(...)` to declare inputs and variables by name"
                ));
            }
            self.report(diagnostic);
            return;
        }
        if decl.dims.len() > 2 {
            let diagnostic = Diagnostic::error(
                codes::E0112,
                format!("`{}` has {} dimensions", decl.name.name, decl.dims.len()),
            )
            .with_label(decl.span, "at most two: `A[n]` or `M[r][c]`")
            .with_help("declare a scalar, an array or a matrix");
            self.report(diagnostic);
            return;
        }
        let kind = if keyword == "input" {
            if let Some(init) = &decl.init {
                let diagnostic = Diagnostic::error(
                    codes::E0112,
                    format!(
                        "the input `{}` cannot have an initial value",
                        decl.name.name
                    ),
                )
                .with_label(init.span, "its value comes from the input")
                .with_help("declare scratch memory with `var` to give it a value");
                self.report(diagnostic);
            }
            DataKind::Input
        } else {
            // Checked in the second pass, once the registers are known.
            DataKind::Var {
                init: zero(decl.span),
            }
        };
        let dims = if keyword == "input" {
            let sizes: Vec<Option<PosExpr>> =
                decl.dims.iter().map(|dim| self.size_of(dim)).collect();
            match sizes.into_iter().collect() {
                Some(sizes) => sizes,
                None => return,
            }
        } else {
            decl.dims.iter().map(|dim| zero(dim.span)).collect()
        };
        let id = self.data.len();
        if self.register(&decl.name, codes::E0104, Meaning::Data(id)) {
            self.data.push(Data {
                name: decl.name.name.clone(),
                span: decl.name.span,
                kind,
                dims,
            });
            self.data_decls.push((decl, id));
        }
    }

    /// A length of an input: a size name, declared by its first use.
    fn size_of(&mut self, dim: &'a Expr) -> Option<PosExpr> {
        let ExprKind::Name(name) = &dim.kind else {
            let diagnostic =
                Diagnostic::error(codes::E0112, "the length of an input is a size name")
                    .with_label(dim.span, "an expression")
                    .with_help("name the length, as in `input A[n]`; compute with `n` elsewhere");
            self.report(diagnostic);
            return None;
        };
        let id = match self.names.get(name.as_str()) {
            Some(Meaning::Data(id))
                if self.data.get(*id).is_some_and(|d| d.kind == DataKind::Size) =>
            {
                *id
            }
            Some(_) => {
                let diagnostic = Diagnostic::error(
                    codes::E0112,
                    format!("`{name}` is already declared, so it cannot name a length"),
                )
                .with_label(dim.span, "a length names a size")
                .with_help("choose a new name for the length, or reuse a size (`n`)");
                self.report(diagnostic);
                return None;
            }
            None => {
                let id = self.data.len();
                self.register_name(name, dim.span, codes::E0104, Meaning::Data(id));
                self.data.push(Data {
                    name: name.clone(),
                    span: dim.span,
                    kind: DataKind::Size,
                    dims: Vec::new(),
                });
                id
            }
        };
        Some(PosExpr {
            kind: PosKind::Read(Box::new(Cell {
                data: id,
                name: name.clone(),
                at: Vec::new(),
                span: dim.span,
            })),
            span: dim.span,
        })
    }

    /// Second pass: the lengths and initial values of scratch data, which
    /// may read sizes, inputs and earlier data, never registers; and no
    /// register or data takes a name the JSON output gives its own fields.
    pub(super) fn check_data(&mut self) {
        if self.declared_memory {
            let names = (self
                .pointers
                .iter()
                .map(|p| (p.name.name.as_str(), p.name.span)))
            .chain(self.data.iter().map(|d| (d.name.as_str(), d.span)));
            let clashes: Vec<(String, crate::span::Span)> = names
                .filter(|(name, _)| OUTPUT_FIELDS.contains(name))
                .map(|(name, span)| (name.to_string(), span))
                .collect();
            for (name, span) in clashes {
                let diagnostic = Diagnostic::error(
                    codes::E0112,
                    format!("`{name}` is a field of the run's output, so it cannot name data"),
                )
                .with_label(span, "taken by the output")
                .with_help("the JSON output has `steps`, `engine` and `output` besides the declared names; choose another name");
                self.report(diagnostic);
            }
        }
        let decls = std::mem::take(&mut self.data_decls);
        self.pointers_allowed = false;
        for &(decl, id) in &decls {
            if decl.keyword.name != "var" {
                continue;
            }
            self.data_limit = id;
            let dims: Vec<Option<PosExpr>> =
                decl.dims.iter().map(|dim| self.position(dim)).collect();
            let init = decl.init.as_ref().map(|e| self.position(e));
            if let Some(data) = self.data.get_mut(id) {
                data.dims = dims
                    .into_iter()
                    .map(|d| d.unwrap_or(zero(data.span)))
                    .collect();
                if let Some(Some(init)) = init {
                    data.kind = DataKind::Var { init };
                }
            }
        }
        self.data_limit = usize::MAX;
        self.pointers_allowed = true;
        self.data_decls = decls;
    }

    /// A read of declared data: `t`, `A[e]`, `D[e][f]`.
    pub(super) fn read_cell(
        &mut self,
        id: DataId,
        name: &str,
        at: &[&Expr],
        span: Span,
    ) -> Option<PosExpr> {
        let data = self.data.get(id)?;
        if id >= self.data_limit && !matches!(data.kind, DataKind::Size | DataKind::Input) {
            let diagnostic = Diagnostic::error(
                codes::E0105,
                format!("`{}` is declared later, so it cannot be read here", name),
            )
            .with_label(span, "not yet set when this is computed")
            .with_help("a declaration reads sizes, inputs and the variables declared before it");
            self.report(diagnostic);
            return None;
        }
        if data.dims.len() != at.len() {
            let form = match data.dims.len() {
                0 => format!("`{}`", name),
                1 => format!("`{}[i]`", name),
                _ => format!("`{}[i][j]`", name),
            };
            let diagnostic = Diagnostic::error(
                codes::E0210,
                format!("`{}` is {}, read as {form}", name, data.shape()),
            )
            .with_label(
                span,
                match at.len() {
                    0 => "no index here".to_string(),
                    1 => "one index here".to_string(),
                    k => format!("{k} indices here"),
                },
            )
            .with_help(format!("write {form}"));
            self.report(diagnostic);
            return None;
        }
        let indices: Vec<Option<PosExpr>> = at.iter().map(|e| self.position(e)).collect();
        let cell = Cell {
            data: id,
            name: name.to_string(),
            at: indices.into_iter().collect::<Option<_>>()?,
            span,
        };
        Some(PosExpr {
            kind: PosKind::Read(Box::new(cell)),
            span,
        })
    }

    /// The declared data `expr` names with its indices, if it does.
    fn data_target<'e>(&self, expr: &'e Expr) -> Option<(DataId, &'e str, Vec<&'e Expr>)> {
        let (name, at): (&str, Vec<&Expr>) = match &expr.kind {
            ExprKind::Name(name) => (name, Vec::new()),
            ExprKind::Index(ident, i) => (&ident.name, vec![i]),
            ExprKind::Index2(ident, i, j) => (&ident.name, vec![i, j]),
            _ => return None,
        };
        match self.names.get(name).copied() {
            Some(Meaning::Data(id)) => Some((id, name, at)),
            _ => None,
        }
    }

    /// Whether `expr` names declared data (how an overload taking a place
    /// is chosen).
    pub(super) fn names_data(&self, expr: &Expr) -> bool {
        let name = match &expr.kind {
            ExprKind::Name(name) => name,
            ExprKind::Index(ident, _) | ExprKind::Index2(ident, ..) => &ident.name,
            _ => return false,
        };
        matches!(self.names.get(name.as_str()), Some(Meaning::Data(_)))
    }

    /// A place an ACT writes: a scalar variable or an element, not a size.
    pub(super) fn place(&mut self, expr: &Expr) -> Option<Cell> {
        let Some((id, name, at)) = self.data_target(expr) else {
            return self.not_a_place(expr);
        };
        if self.data.get(id).is_some_and(|d| d.kind == DataKind::Size) {
            let diagnostic =
                Diagnostic::error(codes::E0211, format!("the size `{name}` cannot be written"))
                    .with_label(expr.span, "a length of the input")
                    .with_help(format!(
                        "a size never changes; copy it into a local of another name and change \
                         that (`count = {name}`), or into a `var` to share it"
                    ));
            self.report(diagnostic);
            return None;
        }
        match self.read_cell(id, name, &at, expr.span)?.kind {
            PosKind::Read(cell) => Some(*cell),
            _ => None,
        }
    }

    fn not_a_place(&mut self, expr: &Expr) -> Option<Cell> {
        if let ExprKind::Error = expr.kind {
            self.incomplete = true;
            return None;
        }
        let what = match &expr.kind {
            ExprKind::Name(name) | ExprKind::Index(Ident { name, .. }, _) => {
                self.lookup(name, expr.span, Expect::Operand)?.describe()
            }
            _ => "an expression",
        };
        let diagnostic = Diagnostic::error(codes::E0211, format!("cannot write to {what}"))
            .with_label(expr.span, "not a variable or an element")
            .with_help(
                "write a register (`i = e`), a variable (`t = e`) or an element (`A[i] = e`)",
            );
        self.report(diagnostic);
        None
    }

    /// `target = value`: `SET` for a register, `WRITE` for a cell.
    pub(super) fn assignment(&mut self, target: &Expr, value: &Expr, span: Span) -> Option<Stmt> {
        if let ExprKind::Name(name) = &target.kind
            && let Some(Meaning::Pointer(p)) = self.meaning(name)
        {
            let value = self.position(value)?;
            return Some(Stmt::Act(ActApp {
                act: Act::Set(p, value),
                span,
            }));
        }
        let place = self.place(target);
        let value = self.position(value);
        let args = vec![ActArg::Place(place?), ActArg::Position(value?)];
        let act = env::build_act(self.env.kind, "WRITE", args)?;
        Some(Stmt::Act(ActApp { act, span }))
    }
}

/// The fields `cnpic run --format json` writes besides the declared names.
const OUTPUT_FIELDS: [&str; 3] = ["steps", "engine", "output"];

/// The integer 0 at `span`: a placeholder until the second pass.
fn zero(span: Span) -> PosExpr {
    PosExpr {
        kind: PosKind::Int(0),
        span,
    }
}

//! The procedures of language.md §5.2, written in the language of §5.
//!
//! A `ram` program may write `for` loops, `break` and `continue`, `elif`,
//! compound (`x += e`) and parallel (`a, b = b, a`) assignments, truth
//! values as integers and integers as conditions, `min`/`max`/`abs`/`len`,
//! and several results (`return q, r` and `q, r = F(x)`). [`desugar`]
//! rewrites each into the statements every engine already runs exactly
//! (assignments, `if`, `while`, calls, bare `return`), before the checker
//! reads the file, so the reference interpreter, the combinatorizer and
//! the network see one program and agree by construction:
//!
//! - `for i = a to b:` is `i = a`, the bound kept in a hidden local, and a
//!   `while i <= bound` whose round ends with `i = i + 1`;
//! - `break` and `continue` set a hidden flag of their loop; the rest of
//!   the round is guarded by the flags, and the loop's test by `break`'s;
//! - a truth value, `min`, `max` and `abs` inside an integer expression are
//!   computed into hidden locals by `if`s just before their statement (so
//!   the comparison is still a condition, decided by a detector), with the
//!   calls of that statement before them kept in their order;
//! - several results go through hidden variables `_0r1`, `_0r2`, ...:
//!   `return` copies them there, the caller reads them right after the
//!   call.
//!
//! Hidden names start with `_` and a digit ([`crate::program::hidden::hidden`]):
//! they are never printed in a run's output. Errors of these constructs
//! (E0009, E0410, E0411, E0412) are reported here.

use std::collections::HashMap;

use crate::diagnostic::{Diagnostic, codes};
use crate::operators::{ArithOp, CompareOp};
use crate::span::Span;
use crate::syntax::ast::{Block, Call, DataDecl, DefBody, Expr, ExprKind, File, Ident, Item, Stmt};
use crate::syntax::visit::each_stmt;

/// `file` with every `ram` normal program's sugar rewritten, and the
/// hidden result variables declared; the errors found go to
/// `diagnostics`. Files of other environments keep everything but `elif`
/// (an `if` in `else`), which needs no rewriting; their use of the rest
/// is reported by the checker as not belonging there.
pub(super) fn desugar(file: &File, memory: bool, diagnostics: &mut Vec<Diagnostic>) -> File {
    if !memory {
        return file.clone();
    }
    let mut sugar = Sugar::new(file);
    let mut items: Vec<Item> = (file.items.iter())
        .map(|item| match item {
            Item::Def(def) => {
                let mut def = def.clone();
                if let DefBody::Normal(block) = &def.body {
                    sugar.fresh = 0;
                    def.body = DefBody::Normal(sugar.block(block));
                }
                Item::Def(def)
            }
            Item::Data(decl) => Item::Data(sugar.data_decl(decl)),
            other => other.clone(),
        })
        .collect();
    for k in 1..=sugar.widest {
        items.push(Item::Data(hidden_var(&result_name(k), 0)));
    }
    diagnostics.append(&mut sugar.diagnostics);
    File { items }
}

/// The hidden variable that carries a program's `k`-th result (from 1).
fn result_name(k: usize) -> String {
    format!("_0r{k}")
}

/// `var NAME = 0` (with `dims` zero dimensions: `var NAME[0][0] = 0`),
/// declared by no one in the source.
pub(super) fn hidden_var(name: &str, dims: usize) -> DataDecl {
    let span = Span::default();
    DataDecl {
        keyword: ident("var", span),
        name: ident(name, span),
        dims: vec![int(0, span); dims],
        init: Some(int(0, span)),
        span,
    }
}

/// The flags of a loop being rewritten: the hidden locals its `break` and
/// `continue` set, when it has them.
struct Loop {
    exit: Option<String>,
    next: Option<String>,
}

/// See the module documentation.
struct Sugar {
    /// Each data name's lengths, for `len`.
    dims: HashMap<String, Vec<Expr>>,
    /// How many results each program gives (only those with more than one).
    results: HashMap<String, usize>,
    /// The programs of the file, by name.
    defs: HashMap<String, usize>,
    /// The most results any program gives: how many hidden variables.
    widest: usize,
    /// Numbers the hidden locals of the program being rewritten.
    fresh: usize,
    loops: Vec<Loop>,
    diagnostics: Vec<Diagnostic>,
}

impl Sugar {
    fn new(file: &File) -> Sugar {
        let mut sugar = Sugar {
            dims: HashMap::new(),
            results: HashMap::new(),
            defs: HashMap::new(),
            widest: 0,
            fresh: 0,
            loops: Vec::new(),
            diagnostics: Vec::new(),
        };
        for item in &file.items {
            match item {
                Item::Data(decl) => {
                    sugar.dims.insert(decl.name.name.clone(), decl.dims.clone());
                }
                Item::Def(def) => {
                    sugar.defs.insert(def.name.name.clone(), def.params.len());
                    if let DefBody::Normal(block) = &def.body {
                        sugar.count_results(&def.name, block);
                    }
                }
                _ => {}
            }
        }
        sugar
    }

    /// Records how many results `def`'s `return`s give, reporting E0412
    /// when they disagree.
    fn count_results(&mut self, def: &Ident, block: &Block) {
        let mut counts = Vec::new();
        each_stmt(block, &mut |stmt| {
            let Stmt::Return { value, span } = stmt else {
                return;
            };
            let count = match value.as_ref().map(|v| &v.kind) {
                Some(ExprKind::Tuple(values)) => values.len(),
                Some(_) => 1,
                None => 0,
            };
            counts.push((count, *span));
        });
        let Some(&(first, _)) = counts.iter().find(|(c, _)| *c > 1) else {
            return;
        };
        for &(count, span) in &counts {
            if count != first {
                let diagnostic = Diagnostic::error(
                    codes::E0412,
                    format!(
                        "`{}` returns {first} results elsewhere, but {count} here",
                        def.name
                    ),
                )
                .with_label(span, format!("{count} here"))
                .with_help("every `return` of a program gives the same number of results");
                self.diagnostics.push(diagnostic);
            }
        }
        self.results.insert(def.name.clone(), first);
        self.widest = self.widest.max(first);
    }

    /// A file-level declaration with `true`/`false` read as 1/0.
    fn data_decl(&mut self, decl: &DataDecl) -> DataDecl {
        let mut pre = Vec::new();
        let mut decl = decl.clone();
        decl.dims = decl.dims.iter().map(|d| self.value(d, &mut pre)).collect();
        decl.init = decl.init.as_ref().map(|e| self.value(e, &mut pre));
        decl
    }

    /// A hidden local of the program being rewritten, new each time.
    fn temp(&mut self, tag: &str) -> String {
        self.fresh += 1;
        format!("_0{tag}{}", self.fresh)
    }

    /// The statements of a block, each rewritten; after one that may
    /// `break` or `continue` the innermost loop, the rest runs only while
    /// neither happened.
    fn block(&mut self, stmts: &[Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for (k, stmt) in stmts.iter().enumerate() {
            out.extend(self.statement(stmt));
            let rest = &stmts[k + 1..];
            if !rest.is_empty()
                && jumps(stmt)
                && let Some(guard) = self.guard(stmt.span())
            {
                let then = self.block(rest);
                out.push(if_stmt(guard, then, None, stmt.span()));
                return out;
            }
        }
        out
    }

    /// `exit == 0 and next == 0` for the innermost loop's flags, if it
    /// has any.
    fn guard(&self, span: Span) -> Option<Expr> {
        let top = self.loops.last()?;
        let tests = [&top.exit, &top.next].into_iter().flatten();
        tests
            .map(|flag| compare(CompareOp::Eq, name(flag, span), int(0, span)))
            .reduce(and)
    }

    fn statement(&mut self, stmt: &Stmt) -> Vec<Stmt> {
        let mut pre = Vec::new();
        let main = match stmt {
            Stmt::Call(call) => {
                let args = (call.args.as_ref())
                    .map(|args| args.iter().map(|a| self.value(a, &mut pre)).collect());
                vec![Stmt::Call(Call {
                    args,
                    ..call.clone()
                })]
            }
            Stmt::Assign {
                target,
                op,
                value,
                span,
            } => self.assignment(target, *op, value, *span, &mut pre),
            Stmt::If {
                condition,
                then,
                otherwise,
                elif,
                span,
            } => {
                let condition = self.condition(condition, &mut pre);
                let then = self.block(then);
                let otherwise = otherwise.as_ref().map(|block| self.block(block));
                vec![Stmt::If {
                    condition,
                    then,
                    otherwise,
                    elif: *elif,
                    span: *span,
                }]
            }
            Stmt::While {
                condition,
                body,
                span,
            } => self.looping(Vec::new(), condition, body, Vec::new(), *span),
            Stmt::For {
                variable,
                from,
                word,
                to,
                body,
                span,
            } => self.for_loop(variable, from, word, to, body, *span),
            Stmt::Break(span) | Stmt::Continue(span) => {
                let is_break = matches!(stmt, Stmt::Break(_));
                let flag = self.loops.last().and_then(|l| match is_break {
                    true => l.exit.clone(),
                    false => l.next.clone(),
                });
                match flag {
                    Some(flag) => vec![assign(&flag, int(1, *span), *span)],
                    None => {
                        self.outside_loop(is_break, *span);
                        Vec::new()
                    }
                }
            }
            Stmt::Return { value, span } => self.return_statement(value.as_ref(), *span, &mut pre),
            Stmt::LocalArray(decl) => vec![Stmt::LocalArray(self.data_decl(decl))],
            Stmt::Pass(_) | Stmt::Hole(_) => vec![stmt.clone()],
        };
        pre.extend(main);
        pre
    }

    fn outside_loop(&mut self, is_break: bool, span: Span) {
        let word = if is_break { "break" } else { "continue" };
        let diagnostic = Diagnostic::error(
            codes::E0410,
            format!("`{word}` outside a `while` or `for` loop"),
        )
        .with_label(span, "no loop around it")
        .with_help(if is_break {
            "`break` leaves the innermost loop; to leave the program, write `return`"
        } else {
            "`continue` starts the innermost loop's next round; it has no meaning elsewhere"
        });
        self.diagnostics.push(diagnostic);
    }

    /// A loop: `init`, then `while test: body; step`, where `break` and
    /// `continue` in the body set the loop's flags, and the statements
    /// the test needs before it (a `min`, a truth value) run before the
    /// first round and again after each.
    fn looping(
        &mut self,
        init: Vec<Stmt>,
        condition: &Expr,
        body: &[Stmt],
        step: Vec<Stmt>,
        span: Span,
    ) -> Vec<Stmt> {
        let (breaks, continues) = loop_jumps(body);
        let exit = breaks.then(|| self.temp("b"));
        let next = continues.then(|| self.temp("c"));
        let mut pre = Vec::new();
        let mut test = self.condition(condition, &mut pre);
        self.loops.push(Loop {
            exit: exit.clone(),
            next: next.clone(),
        });
        let body = self.block(body);
        self.loops.pop();
        let mut out = init;
        let mut round = Vec::new();
        if let Some(next) = &next {
            round.push(assign(next, int(0, span), span));
        }
        round.extend(body);
        let mut tail = step;
        tail.extend(pre.iter().cloned());
        if let Some(exit) = &exit {
            out.push(assign(exit, int(0, span), span));
            test = and(compare(CompareOp::Eq, name(exit, span), int(0, span)), test);
            if !tail.is_empty() {
                let not_left = compare(CompareOp::Eq, name(exit, span), int(0, span));
                tail = vec![if_stmt(not_left, tail, None, span)];
            }
        }
        round.extend(tail);
        out.extend(pre);
        out.push(Stmt::While {
            condition: test,
            body: round,
            span,
        });
        out
    }

    fn for_loop(
        &mut self,
        variable: &Ident,
        from: &Expr,
        word: &Ident,
        to: &Expr,
        body: &[Stmt],
        span: Span,
    ) -> Vec<Stmt> {
        let down = match word.name.as_str() {
            "to" => false,
            "downto" => true,
            other => {
                let diagnostic = Diagnostic::error(
                    codes::E0009,
                    format!("a `for` loop counts with `to` or `downto`, not `{other}`"),
                )
                .with_label(word.span, "expected `to` or `downto`")
                .with_help(
                    "write `for i = a to b:` to count up, `for i = a downto b:` to count down",
                );
                self.diagnostics.push(diagnostic);
                false
            }
        };
        if let Some(at) = assigns(body, &variable.name) {
            let diagnostic = Diagnostic::error(
                codes::E0411,
                format!(
                    "`{}` is the variable of a `for` loop and cannot be assigned in its body",
                    variable.name
                ),
            )
            .with_label(at, "assigned here")
            .with_label(variable.span, "the loop sets it")
            .with_help("use a `while` loop to move the counter by hand");
            self.diagnostics.push(diagnostic);
        }
        let mut init = self.statement(&Stmt::Assign {
            target: name(&variable.name, variable.span),
            op: None,
            value: from.clone(),
            span: variable.span,
        });
        let bound = match &to.kind {
            ExprKind::Int(_) => to.clone(),
            _ => {
                let bound = self.temp("h");
                init.extend(self.statement(&assign(&bound, to.clone(), to.span)));
                name(&bound, to.span)
            }
        };
        let (compare_op, step_op) = match down {
            false => (CompareOp::Le, ArithOp::Add),
            true => (CompareOp::Ge, ArithOp::Sub),
        };
        let counter = name(&variable.name, variable.span);
        let test = compare(compare_op, counter.clone(), bound);
        let next = arith(step_op, counter, int(1, variable.span));
        let step = vec![assign(&variable.name, next, variable.span)];
        self.looping(init, &test, body, step, span)
    }

    fn assignment(
        &mut self,
        target: &Expr,
        op: Option<ArithOp>,
        value: &Expr,
        span: Span,
        pre: &mut Vec<Stmt>,
    ) -> Vec<Stmt> {
        if let ExprKind::Tuple(targets) = &target.kind {
            return self.several(targets, value, span, pre);
        }
        if let ExprKind::Tuple(_) = &value.kind {
            self.count_error("one place", "several values", value.span);
            return Vec::new();
        }
        let target = self.place(target, op.is_some(), pre);
        let value = match op {
            Some(op) => arith(op, target.clone(), value.clone()),
            None => value.clone(),
        };
        let value = self.value(&value, pre);
        vec![Stmt::Assign {
            target,
            op: None,
            value,
            span,
        }]
    }

    /// A place to assign: its indices rewritten, and kept in hidden
    /// locals when the place is read as well as written (`A[f(i)] += 1`
    /// evaluates `f(i)` once).
    fn place(&mut self, target: &Expr, read_too: bool, pre: &mut Vec<Stmt>) -> Expr {
        let mut index = |sugar: &mut Sugar, e: &Expr| {
            let e = sugar.value(e, pre);
            match &e.kind {
                ExprKind::Int(_) | ExprKind::Name(_) => e,
                _ if read_too => {
                    let kept = sugar.temp("t");
                    pre.push(assign(&kept, e, target.span));
                    name(&kept, target.span)
                }
                _ => e,
            }
        };
        let kind = match &target.kind {
            ExprKind::Index(array, i) => ExprKind::Index(array.clone(), Box::new(index(self, i))),
            ExprKind::Index2(matrix, i, j) => {
                let i = index(self, i);
                ExprKind::Index2(matrix.clone(), Box::new(i), Box::new(index(self, j)))
            }
            other => other.clone(),
        };
        Expr {
            kind,
            span: target.span,
        }
    }

    /// `a, b = e1, e2` (every value first, then every place) and
    /// `q, r = F(x)` (the call, then each result).
    fn several(
        &mut self,
        targets: &[Expr],
        value: &Expr,
        span: Span,
        pre: &mut Vec<Stmt>,
    ) -> Vec<Stmt> {
        let values: Vec<Expr> = match &value.kind {
            ExprKind::Tuple(values) if values.len() == targets.len() => {
                let mut kept = Vec::new();
                for v in values {
                    let v = self.value(v, pre);
                    let temp = self.temp("t");
                    pre.push(assign(&temp, v, span));
                    kept.push(name(&temp, span));
                }
                kept
            }
            ExprKind::Tuple(values) => {
                let (places, found) = (targets.len(), values.len());
                self.count_error(
                    &format!("{places} places"),
                    &format!("{found} values"),
                    span,
                );
                return Vec::new();
            }
            ExprKind::Apply(callee, args) if self.results.contains_key(&callee.name) => {
                let count = self.results[&callee.name];
                if count != targets.len() {
                    let places = targets.len();
                    let found = format!("`{}` gives {count} results", callee.name);
                    self.count_error(&format!("{places} places"), &found, span);
                    return self.placeholders(targets, span);
                }
                let args = args.iter().map(|a| self.value(a, pre)).collect();
                pre.push(Stmt::Call(Call {
                    name: callee.clone(),
                    args: Some(args),
                    span: value.span,
                }));
                (1..=count).map(|k| name(&result_name(k), span)).collect()
            }
            _ => {
                let places = targets.len();
                self.count_error(&format!("{places} places"), "one value", value.span);
                return self.placeholders(targets, span);
            }
        };
        (targets.iter().zip(values))
            .map(|(target, value)| {
                let target = self.place(target, false, pre);
                Stmt::Assign {
                    target,
                    op: None,
                    value,
                    span,
                }
            })
            .collect()
    }

    /// After E0412: each place assigned 0, so that its name still means
    /// what it would (a local is still declared) and no error follows.
    fn placeholders(&mut self, targets: &[Expr], span: Span) -> Vec<Stmt> {
        let zero = int(0, span);
        (targets.iter())
            .map(|target| Stmt::Assign {
                target: target.clone(),
                op: None,
                value: zero.clone(),
                span,
            })
            .collect()
    }

    fn count_error(&mut self, expected: &str, found: &str, span: Span) {
        let diagnostic =
            Diagnostic::error(codes::E0412, format!("{expected} to fill, but {found}"))
                .with_label(span, found.to_string())
                .with_help(
                    "a multiple assignment takes as many values as it has places, or one call \
             that returns that many results",
                );
        self.diagnostics.push(diagnostic);
    }

    /// `return e1, ..., ek`: every value into a hidden local first (a
    /// later one may call a program that gives results too), then into the
    /// result variables, then a bare `return`.
    fn return_statement(
        &mut self,
        value: Option<&Expr>,
        span: Span,
        pre: &mut Vec<Stmt>,
    ) -> Vec<Stmt> {
        let Some(value) = value else {
            return vec![Stmt::Return { value: None, span }];
        };
        let ExprKind::Tuple(values) = &value.kind else {
            let value = self.value(value, pre);
            return vec![Stmt::Return {
                value: Some(value),
                span,
            }];
        };
        let mut kept = Vec::new();
        for v in values {
            let v = self.value(v, pre);
            let temp = self.temp("t");
            pre.push(assign(&temp, v, v_span(values, span)));
            kept.push(temp);
        }
        let mut out: Vec<Stmt> = (kept.iter().enumerate())
            .map(|(k, temp)| assign(&result_name(k + 1), name(temp, span), span))
            .collect();
        out.push(Stmt::Return { value: None, span });
        out
    }

    /// `e` where an integer is expected, rewritten: `true`/`false`,
    /// `len`; truth values, `min`, `max` and `abs` computed before the
    /// statement into hidden locals (with the calls before them).
    fn value(&mut self, e: &Expr, pre: &mut Vec<Stmt>) -> Expr {
        let span = e.span;
        let kind = match &e.kind {
            ExprKind::Char(c) => ExprKind::Int(i64::from(u32::from(*c))),
            ExprKind::Name(word) if word == "true" => ExprKind::Int(1),
            ExprKind::Name(word) if word == "false" => ExprKind::Int(0),
            ExprKind::Compare(..) | ExprKind::And(..) | ExprKind::Or(..) | ExprKind::Not(_) => {
                let truth = self.temp("v");
                let condition = self.condition(e, pre);
                let then = vec![assign(&truth, int(1, span), span)];
                let otherwise = vec![assign(&truth, int(0, span), span)];
                pre.push(if_stmt(condition, then, Some(otherwise), span));
                ExprKind::Name(truth)
            }
            ExprKind::Apply(f, args) if !self.defs.contains_key(&f.name) => {
                return self.builtin(f, args, e, pre);
            }
            ExprKind::Apply(f, args) => {
                if self.results.contains_key(&f.name) {
                    let count = self.results[&f.name];
                    let found = format!("`{}` gives {count} results", f.name);
                    self.count_error("one value", &found, span);
                    // Refused: no call for one value is left for the
                    // checker to ask a value of (a false E0407).
                    return int(0, span);
                }
                let args: Vec<&Expr> = args.iter().collect();
                ExprKind::Apply(f.clone(), self.in_order(&args, pre))
            }
            ExprKind::Neg(a) => ExprKind::Neg(Box::new(self.value(a, pre))),
            ExprKind::Arith(op, a, b) => {
                let [a, b] = self.pair(a, b, pre);
                ExprKind::Arith(*op, Box::new(a), Box::new(b))
            }
            ExprKind::Index(array, i) => {
                ExprKind::Index(array.clone(), Box::new(self.value(i, pre)))
            }
            ExprKind::Index2(matrix, i, j) => {
                let [i, j] = self.pair(i, j, pre);
                ExprKind::Index2(matrix.clone(), Box::new(i), Box::new(j))
            }
            ExprKind::Tuple(_) => {
                self.count_error("one value", "several", span);
                ExprKind::Error
            }
            other => other.clone(),
        };
        Expr { kind, span }
    }

    /// Two operands evaluated in order ([`Sugar::in_order`]).
    fn pair(&mut self, a: &Expr, b: &Expr, pre: &mut Vec<Stmt>) -> [Expr; 2] {
        let mut both = self.in_order(&[a, b], pre).into_iter();
        let a = both.next().unwrap_or_else(|| int(0, Span::default()));
        [a, both.next().unwrap_or_else(|| int(0, Span::default()))]
    }

    /// Operands evaluated left to right, as written: when a later one
    /// needs statements first and either they or an earlier operand call
    /// a program, the earlier operands are kept in hidden locals before
    /// those statements, so every call still runs in its place.
    fn in_order(&mut self, operands: &[&Expr], pre: &mut Vec<Stmt>) -> Vec<Expr> {
        let mut out: Vec<Expr> = Vec::new();
        for e in operands {
            let mut own = Vec::new();
            let value = self.value(e, &mut own);
            let calls_before = out.iter().any(|o| self.has_call(o));
            if !own.is_empty() && (calls_before || self.stmts_call(&own)) {
                for earlier in &mut out {
                    if !matches!(earlier.kind, ExprKind::Int(_) | ExprKind::Name(_)) {
                        let kept = self.temp("t");
                        pre.push(assign(&kept, earlier.clone(), earlier.span));
                        *earlier = name(&kept, earlier.span);
                    }
                }
            }
            pre.extend(own);
            out.push(value);
        }
        out
    }

    /// Whether `e` calls a program of the file.
    fn has_call(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Apply(f, args) => {
                self.defs.contains_key(&f.name) || args.iter().any(|a| self.has_call(a))
            }
            ExprKind::Neg(a) | ExprKind::Not(a) | ExprKind::Index(_, a) => self.has_call(a),
            ExprKind::Arith(_, a, b)
            | ExprKind::Compare(_, a, b)
            | ExprKind::And(a, b)
            | ExprKind::Or(a, b)
            | ExprKind::Index2(_, a, b) => self.has_call(a) || self.has_call(b),
            ExprKind::Tuple(all) => all.iter().any(|a| self.has_call(a)),
            _ => false,
        }
    }

    /// Whether rewritten statements call a program of the file.
    fn stmts_call(&self, stmts: &[Stmt]) -> bool {
        stmts.iter().any(|stmt| match stmt {
            Stmt::Call(_) => true,
            Stmt::Assign { target, value, .. } => self.has_call(target) || self.has_call(value),
            Stmt::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                self.has_call(condition)
                    || self.stmts_call(then)
                    || self.stmts_call(otherwise.as_deref().unwrap_or_default())
            }
            _ => false,
        })
    }

    /// `min`, `max`, `abs` and `len`; any other name is left to the
    /// checker (an observation, or an unknown name).
    fn builtin(&mut self, f: &Ident, args: &[Expr], e: &Expr, pre: &mut Vec<Stmt>) -> Expr {
        let span = e.span;
        match (f.name.as_str(), args) {
            ("min" | "max", [_, _, ..]) => {
                let op = if f.name == "min" {
                    CompareOp::Lt
                } else {
                    CompareOp::Gt
                };
                let best = self.temp("v");
                let first = self.value(&args[0], pre);
                pre.push(assign(&best, first, span));
                for arg in &args[1..] {
                    let value = self.value(arg, pre);
                    let value = self.simple(value, pre);
                    let better = compare(op, value.clone(), name(&best, span));
                    pre.push(if_stmt(
                        better,
                        vec![assign(&best, value, span)],
                        None,
                        span,
                    ));
                }
                name(&best, span)
            }
            ("abs", [a]) => {
                let value = self.temp("v");
                let a = self.value(a, pre);
                pre.push(assign(&value, a, span));
                let negative = compare(CompareOp::Lt, name(&value, span), int(0, span));
                let flip = arith(ArithOp::Sub, int(0, span), name(&value, span));
                pre.push(if_stmt(
                    negative,
                    vec![assign(&value, flip, span)],
                    None,
                    span,
                ));
                name(&value, span)
            }
            ("len", [x]) => self.length(x, span),
            _ => Expr {
                kind: ExprKind::Apply(f.clone(), args.iter().map(|a| self.value(a, pre)).collect()),
                span,
            },
        }
    }

    /// `e` itself when reading it twice gives the same (a literal or a
    /// name), else a hidden local holding it.
    fn simple(&mut self, e: Expr, pre: &mut Vec<Stmt>) -> Expr {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Name(_) => e,
            _ => {
                let kept = self.temp("t");
                let span = e.span;
                pre.push(assign(&kept, e, span));
                name(&kept, span)
            }
        }
    }

    /// `len(X)`: an array's length, a matrix's rows; `len(M[i])` its
    /// columns. An unknown array is left as written, for the checker.
    fn length(&mut self, x: &Expr, span: Span) -> Expr {
        let (array, dim) = match &x.kind {
            ExprKind::Name(array) => (array.as_str(), 0),
            ExprKind::Index(matrix, _) => (matrix.name.as_str(), 1),
            _ => ("", 0),
        };
        match self.dims.get(array).and_then(|dims| dims.get(dim)) {
            Some(length) => Expr {
                kind: length.kind.clone(),
                span,
            },
            None => {
                let diagnostic = Diagnostic::error(
                    codes::E0412,
                    "`len` takes an array or a matrix the file declares",
                )
                .with_label(x.span, "not a declared array")
                .with_help(
                    "write `len(A)` for an array's length, `len(M[0])` for a matrix's columns",
                );
                self.diagnostics.push(diagnostic);
                int(0, span)
            }
        }
    }

    /// `e` where a condition is expected: integers compared with 0,
    /// `true`/`false` as 1/0; an `and`/`or` whose right side needs
    /// statements first is computed into a hidden local, so that they run
    /// only when the left side lets them.
    fn condition(&mut self, e: &Expr, pre: &mut Vec<Stmt>) -> Expr {
        let span = e.span;
        let kind = match &e.kind {
            ExprKind::Compare(op, a, b) => {
                let [a, b] = self.pair(a, b, pre);
                ExprKind::Compare(*op, Box::new(a), Box::new(b))
            }
            ExprKind::Not(a) => ExprKind::Not(Box::new(self.condition(a, pre))),
            ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                let is_and = matches!(e.kind, ExprKind::And(..));
                let a = self.condition(a, pre);
                let mut right = Vec::new();
                let b = self.condition(b, &mut right);
                if right.is_empty() {
                    return match is_and {
                        true => and(a, b),
                        false => Expr {
                            kind: ExprKind::Or(Box::new(a), Box::new(b)),
                            span,
                        },
                    };
                }
                return self.short_circuit(is_and, a, right, b, span, pre);
            }
            ExprKind::Hole => ExprKind::Hole,
            ExprKind::Error => ExprKind::Error,
            _ => {
                let value = self.value(e, pre);
                ExprKind::Compare(CompareOp::Ne, Box::new(value), Box::new(int(0, span)))
            }
        };
        Expr { kind, span }
    }

    /// `a and b` (or `a or b`) whose `b` needs the statements `right`
    /// first: a hidden local set to its truth by `if`s, then tested.
    fn short_circuit(
        &mut self,
        is_and: bool,
        a: Expr,
        mut right: Vec<Stmt>,
        b: Expr,
        span: Span,
        pre: &mut Vec<Stmt>,
    ) -> Expr {
        let truth = self.temp("v");
        let (first, decided) = match is_and {
            true => (0, 0),
            false => (1, 1),
        };
        pre.push(assign(&truth, int(first, span), span));
        right.push(if_stmt(
            b,
            vec![assign(&truth, int(1, span), span)],
            Some(vec![assign(&truth, int(0, span), span)]),
            span,
        ));
        let (then, otherwise) = match is_and {
            true => (right, None),
            false => (vec![assign(&truth, int(decided, span), span)], Some(right)),
        };
        pre.push(if_stmt(a, then, otherwise, span));
        compare(CompareOp::Ne, name(&truth, span), int(0, span))
    }
}

/// The span of the values of a `return` (for the statements that keep
/// them).
fn v_span(values: &[Expr], span: Span) -> Span {
    match (values.first(), values.last()) {
        (Some(first), Some(last)) => Span::new(first.span.source, first.span.start, last.span.end),
        _ => span,
    }
}

/// Whether `stmt` may `break` or `continue` the loop it stands in (not
/// a loop inside it).
fn jumps(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Break(_) | Stmt::Continue(_) => true,
        Stmt::If {
            then, otherwise, ..
        } => then.iter().chain(otherwise.iter().flatten()).any(jumps),
        _ => false,
    }
}

/// Whether a loop's body holds a `break`, a `continue` of that loop.
fn loop_jumps(body: &[Stmt]) -> (bool, bool) {
    let (mut breaks, mut continues) = (false, false);
    for stmt in body {
        match stmt {
            Stmt::Break(_) => breaks = true,
            Stmt::Continue(_) => continues = true,
            Stmt::If {
                then, otherwise, ..
            } => {
                let (b, c) = loop_jumps(then);
                let (ob, oc) = loop_jumps(otherwise.as_deref().unwrap_or_default());
                breaks |= b || ob;
                continues |= c || oc;
            }
            _ => {}
        }
    }
    (breaks, continues)
}

/// Where `block` assigns the name `variable` (nested blocks included),
/// if it does.
fn assigns(block: &[Stmt], variable: &str) -> Option<Span> {
    let mut found = None;
    each_stmt(block, &mut |stmt| match stmt {
        _ if found.is_some() => {}
        Stmt::Assign { target, span, .. } => {
            let names = match &target.kind {
                ExprKind::Tuple(targets) => targets.iter().collect(),
                _ => vec![target],
            };
            if (names.iter()).any(|t| matches!(&t.kind, ExprKind::Name(n) if n == variable)) {
                found = Some(*span);
            }
        }
        Stmt::For {
            variable: inner, ..
        } if inner.name == variable => found = Some(inner.span),
        _ => {}
    });
    found
}

fn ident(text: &str, span: Span) -> Ident {
    Ident {
        name: text.to_string(),
        span,
    }
}

pub(super) fn name(text: &str, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Name(text.to_string()),
        span,
    }
}

pub(super) fn int(k: i64, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Int(k),
        span,
    }
}

fn compare(op: CompareOp, a: Expr, b: Expr) -> Expr {
    let span = a.span;
    Expr {
        kind: ExprKind::Compare(op, Box::new(a), Box::new(b)),
        span,
    }
}

fn and(a: Expr, b: Expr) -> Expr {
    let span = a.span;
    Expr {
        kind: ExprKind::And(Box::new(a), Box::new(b)),
        span,
    }
}

fn arith(op: ArithOp, a: Expr, b: Expr) -> Expr {
    let span = a.span;
    Expr {
        kind: ExprKind::Arith(op, Box::new(a), Box::new(b)),
        span,
    }
}

fn assign(target: &str, value: Expr, span: Span) -> Stmt {
    Stmt::Assign {
        target: name(target, span),
        op: None,
        value,
        span,
    }
}

fn if_stmt(condition: Expr, then: Block, otherwise: Option<Block>, span: Span) -> Stmt {
    Stmt::If {
        condition,
        then,
        otherwise,
        elif: false,
        span,
    }
}

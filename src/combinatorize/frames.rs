//! The exact form: normal programs on explicit frames (language.md §5.1).
//!
//! Where Algorithm 3's forms would reorder effects (calls in a loop,
//! statements between or after recursive calls, reads of memory after a
//! call, `else` around calls, mutual recursion it cannot inline), every
//! normal program the entry reaches is cut into *blocks*: the straight-line
//! code from one resume point to the next call or return, numbered from 1.
//! A block ends by saying where its frame goes on (`_goto(k)`), by calling
//! (`_goto` to the code after the call, then `_enter(k)` for a plain call or
//! `_call(k, e1, ..., ek)` for a state call, which pushes a frame resuming at
//! the callee's first block) or by returning (`_return`); `cut` builds
//! them. One `linrec(_resume > 0?; DISPATCH, DISPATCH, NOP)` runs the
//! blocks, two a round: `DISPATCH` is a tree of `cond(_resume < k?; ...)`
//! over the block numbers, weighted by guessed use, where 0 (the program
//! returned) does nothing. Each normal program keeps its name as
//! `seq(; _enter(0), _enter(ENTRY), LOOP, _return)`:
//! the frame resuming at 0 stops the loop when the program returns, and is
//! taken off again. The frame stack lives in the run's store (`exec`), so
//! this works in every environment, and the fixed core runs it step by step.

use std::collections::HashMap;

use super::convert::{Context, Converter, extent};
use super::cut::{Blocks, Cutter, Next, Place, compare};
use super::emit::{Emitter, Extent, Lines, Names, Piece};
use super::output::{Arg, OutDef};
use super::walk::{calls, target};
use crate::diagnostic::Diagnostic;
use crate::operators::CompareOp;
use crate::program::{
    Act, Applier, Body, Callee, Combinator, DefId, FrameAct, PosExpr, Program, reach,
};
use crate::span::Span;

/// What the entry reaches, in file order.
pub struct Reached {
    /// The appliers, kept as they are.
    pub appliers: Vec<DefId>,
    /// The normal programs that need a definition of their own name: the
    /// entry and those appliers refer to. Each runs its own frames.
    pub named: Vec<DefId>,
}

/// What the entry of `program` reaches.
pub fn reached(program: &Program) -> Reached {
    let mut named = vec![program.entry];
    let reached = reach::reached(program.defs.len(), [program.entry], |id| {
        match program.defs.get(id).map(|d| &d.body) {
            Some(Body::Normal(body)) => calls(body).into_iter().filter_map(target).collect(),
            Some(Body::Applier(Applier::Combinator { args, .. })) => {
                let referred: Vec<DefId> = (args.iter())
                    .filter_map(|arg| match arg {
                        Callee::Def(id, _) => Some(*id),
                        Callee::Act(_) => None,
                    })
                    .collect();
                named.extend(&referred);
                referred
            }
            _ => Vec::new(),
        }
    });
    let is_normal = |id: &DefId| matches!(program.defs[*id].body, Body::Normal(_));
    let all = (0..program.defs.len()).filter(|&id| reached.get(id) == Some(&true));
    let appliers = all.filter(|id| !is_normal(id)).collect();
    named.retain(is_normal);
    named.sort_unstable();
    named.dedup();
    Reached { appliers, named }
}

/// The normal programs `root` reaches by calls, `root` first: those that
/// run on its frames (a call to an applier runs nested, as it is).
fn members(program: &Program, root: DefId) -> Vec<DefId> {
    let mut found = vec![root];
    let mut at = 0;
    while let Some(&id) = found.get(at) {
        at += 1;
        if let Some(Body::Normal(body)) = program.defs.get(id).map(|d| &d.body) {
            for callee in calls(body).into_iter().filter_map(target) {
                let normal = matches!(program.defs[callee].body, Body::Normal(_));
                if normal && !found.contains(&callee) {
                    found.push(callee);
                }
            }
        }
    }
    found
}

/// Converts every normal program the entry reaches to the exact form: for
/// each program that needs its own name (the entry, and those appliers
/// call), its frames: the programs it reaches, cut into blocks, the
/// dispatch and the loop, then the program under its own name. `None`
/// after reporting why not.
pub fn convert(
    ctx: &Context,
    reached: &Reached,
    lines: &Lines,
    names: &mut Names,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<OutDef>> {
    let mut out = Vec::new();
    for &root in &reached.named {
        out.extend(machine(ctx, root, lines, names, diagnostics)?);
    }
    Some(out)
}

/// The frames of the program `root`.
fn machine(
    ctx: &Context,
    root: DefId,
    lines: &Lines,
    names: &mut Names,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<OutDef>> {
    let program = ctx.program;
    let members = members(program, root);
    let mut blocks = Blocks {
        code: Vec::new(),
        returns: None,
        loops: HashMap::new(),
        weights: Vec::new(),
    };
    let entries: HashMap<DefId, i64> = members.iter().map(|&m| (m, blocks.new_block())).collect();
    let mut out = Vec::new();
    // Callees first, so that a call finds its callee's first block built
    // and runs it in place (`Cutter::enter`).
    for &id in members.iter().rev() {
        let Some(Body::Normal(body)) = program.defs.get(id).map(|d| &d.body) else {
            continue;
        };
        let name = &program.defs[id].name;
        let mut cut = Cutter {
            conv: Converter {
                ctx,
                emit: Emitter::new(program, lines, names, name),
                def: id,
                diagnostics,
                after_call: None,
            },
            blocks: &mut blocks,
            entries: &entries,
            depth: 0,
            later: Vec::new(),
        };
        let code = cut.code(body, Next::Return, Place::Block)?;
        let whole = body.iter().map(extent).reduce(Extent::to);
        let block = cut.conv.emit.seq(code, "BLOCK");
        let block = Piece {
            extent: whole.unwrap_or(block.extent),
            ..block
        };
        cut.keep(entries[&id], block);
        cut.finish()?;
        out.extend(cut.conv.emit.helpers);
    }
    let def = &program.defs[root];
    let stem = format!("{}_FRAMES", def.name);
    let mut emit = Emitter::new(program, lines, names, &stem);
    // The machine's own helpers come from all the programs it runs.
    let all = (members.iter())
        .filter_map(|&id| program.defs.get(id))
        .map(|def| Extent::new(def.span.start, def_end(def)));
    let whole = all.reduce(Extent::to).unwrap_or_default();
    // Resume point 0, the program returned, does nothing: the loop
    // dispatches twice a round, and the second may find it.
    let code = blocks.code.into_iter().zip(blocks.weights);
    let pieces: Vec<(Piece, u64)> = std::iter::once((nop(), 0))
        .chain(code.filter_map(|(piece, weight)| Some((piece?, weight))))
        .collect();
    // Each tree's lower sides go on with the next tree's root instead of
    // a `NOP` (see `dispatch`): `CASCADE` trees, the last with `NOP`s.
    let mut dispatch = nop();
    for _ in 0..CASCADE {
        dispatch = self::dispatch(&mut emit, pieces.clone(), 0, whole, &dispatch);
    }
    let running = compare(CompareOp::Gt, 0);
    let run = emit.comb(
        Combinator::Linrec,
        Some(running),
        [dispatch.clone(), dispatch, nop()],
        whole,
        "LOOP",
    );
    let run = emit.arg(run);
    let frame = |op, k: Option<i64>| {
        let args = k
            .map(|k| PosExpr::int(k, Span::default()))
            .into_iter()
            .collect();
        Piece::arg(Arg::Act(Act::Frame(op, args)), Extent::default())
    };
    let own = Extent::new(def.span.start, def_end(def));
    let at = |piece: Piece| Piece {
        extent: own,
        ..piece
    };
    let pieces = vec![
        at(frame(FrameAct::Enter, Some(0))),
        at(frame(FrameAct::Enter, Some(entries[&root]))),
        Piece::arg(run, own),
        frame(FrameAct::Return, None),
    ];
    let top = emit.seq(pieces, "SEQ");
    let comment = emit.comment(own);
    let mut all = emit.helpers;
    all.extend(out);
    all.push(OutDef {
        name: def.name.clone(),
        comment: Some(comment),
        node: top.node,
        origin: def.span,
        runs: None,
    });
    Some(all)
}

/// Where a normal program's text ends.
fn def_end(def: &crate::program::Def) -> usize {
    match &def.body {
        Body::Normal(body) => body.last().map_or(def.span.end, |s| extent(s).end),
        _ => def.span.end,
    }
}

/// How many dispatch trees run one after the other (see `dispatch`).
const CASCADE: usize = 3;

/// `NOP`, from no source: what resume point 0 (the program returned) runs.
fn nop() -> Piece {
    Piece::arg(Arg::Nop, Extent::default())
}

/// The blocks numbered from `first` on, chosen by `_resume`: a tree of
/// `cond(_resume < k?; LOWER, THEN, UPPER)`, cut where the lower side
/// holds about 0.382 of the blocks' weight, since it costs a step more
/// (`cond`'s second argument) than the upper one: the golden cut,
/// x + x^2 = 1, spends the steps in proportion to what each side is
/// worth. `THEN` is `then`: `NOP`, or the root of another tree, which
/// runs the block the frame resumes at next, where the loop would
/// otherwise take a round to dispatch it (every block sets where its frame
/// resumes or returns, and 0, the program returned, does nothing). `whole`
/// is the source of all the programs they come from.
fn dispatch(
    emit: &mut Emitter,
    mut blocks: Vec<(Piece, u64)>,
    first: i64,
    whole: Extent,
    then: &Piece,
) -> Piece {
    if blocks.len() <= 1 {
        return blocks.pop().map_or_else(nop, |(piece, _)| piece);
    }
    let total: u64 = blocks.iter().map(|(_, w)| w).sum();
    let target = total as f64 * 0.382;
    let (mut cut, mut lower) = (1, blocks[0].1);
    while cut + 1 < blocks.len()
        && ((lower + blocks[cut].1) as f64 - target).abs() < (lower as f64 - target).abs()
    {
        lower += blocks[cut].1;
        cut += 1;
    }
    let upper = blocks.split_off(cut);
    let middle = first + cut as i64;
    let lower = dispatch(emit, blocks, first, whole, then);
    let upper = dispatch(emit, upper, middle, whole, then);
    emit.comb(
        Combinator::Cond,
        Some(compare(CompareOp::Lt, middle)),
        [lower, then.clone(), upper],
        whole,
        "DISPATCH",
    )
}

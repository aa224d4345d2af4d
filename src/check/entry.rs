//! The entry definition and what it never reaches (language.md §7).
//!
//! With `--entry NAME`, the entry is that definition. Otherwise it is the
//! one definition no other definition refers to (a self-reference does not
//! count); none or several is an error listing the candidates (the first
//! and last few of many, with a count of the others). Inference
//! and reachability wait for an otherwise clean, complete tree, since a
//! misspelt or lost reference would make them report nonsense. A
//! definition the entry never reaches earns a warning. In a sketch (a file
//! with holes), the one root that is a hole or reaches one is the entry
//! even beside other roots (what a hole will call is unused until it is
//! filled), and nothing is unused yet, since a hole may call anything.

use crate::diagnostic::{Diagnostic, codes};
use crate::program::{DefId, reach};

use super::Checker;
use super::graph::SHOWN;
use super::names::Meaning;
use super::suggest::{closest, listing};

impl<'a> Checker<'a> {
    pub(super) fn choose_entry(&mut self, entry: Option<&str>) -> Option<DefId> {
        if let Some(name) = entry {
            return self.named_entry(name);
        }
        if self.is_doubtful() {
            return None;
        }
        let mut referred = vec![false; self.defs.len()];
        for reference in &self.refs {
            if reference.from != reference.to
                && let Some(flag) = referred.get_mut(reference.to)
            {
                *flag = true;
            }
        }
        let mut roots: Vec<DefId> = (0..self.defs.len())
            .filter(|id| referred.get(*id) == Some(&false))
            .collect();
        // In a sketch, what a hole will call is no root: the one root that
        // is a hole or reaches one is the entry.
        let holes: Vec<DefId> = (0..self.defs.len())
            .filter(|&id| self.is_hole(id))
            .collect();
        let reach_a_hole = self.reached(&holes, Direction::Callers);
        let sketch: Vec<DefId> = (roots.iter().copied())
            .filter(|&id| reach_a_hole[id])
            .collect();
        if roots.len() > 1 && sketch.len() == 1 {
            roots = sketch;
        }
        match roots.as_slice() {
            [root] => return Some(*root),
            [] if self.defs.is_empty() => {
                let span = self.env_span;
                let diagnostic = Diagnostic::error(codes::E0503, "the file defines nothing to run")
                    .with_label(span, "no `def` follows")
                    .with_help("add a definition, as in `def MAIN: seq(; NOP, NOP, NOP)`");
                self.report(diagnostic);
            }
            [] => {
                let span = self.defs.first().map_or(self.env_span, |d| d.name.span);
                let diagnostic = Diagnostic::error(
                    codes::E0503,
                    "cannot tell which definition to run: every one is used by another",
                )
                .with_label(span, "used by another definition, like all the others")
                .with_help("pick one with `--entry NAME`");
                self.report(diagnostic);
            }
            candidates => {
                // All the candidates, or the first and last few.
                let shown: Vec<DefId> = if candidates.len() > SHOWN {
                    let tail = &candidates[candidates.len() - (SHOWN - SHOWN / 2)..];
                    candidates[..SHOWN / 2]
                        .iter()
                        .chain(tail)
                        .copied()
                        .collect()
                } else {
                    candidates.to_vec()
                };
                let mut names: Vec<String> = (shown.iter())
                    .map(|id| format!("`{}`", self.def_name(*id)))
                    .collect();
                if shown.len() < candidates.len() {
                    let more = format!("… {} more …", candidates.len() - shown.len());
                    names.insert(SHOWN / 2, more);
                }
                let names = listing(&names);
                let mut diagnostic = Diagnostic::error(
                    codes::E0504,
                    format!(
                        "cannot tell which definition to run: {} are not used by any other",
                        names
                    ),
                );
                for id in &shown {
                    if let Some(def) = self.defs.get(*id) {
                        diagnostic = diagnostic.with_label(def.name.span, "could be the entry");
                    }
                }
                self.report(diagnostic.with_help("pick one with `--entry NAME`"));
            }
        }
        None
    }

    /// `--entry NAME`: a definition of the file.
    fn named_entry(&mut self, name: &str) -> Option<DefId> {
        match self.names.get(name) {
            Some(Meaning::Def { id, .. }) => Some(*id),
            found => {
                let mut diagnostic = Diagnostic::error(
                    codes::E0502,
                    format!("the entry `{name}` is not a definition of this file"),
                );
                if let Some(found) = found {
                    diagnostic = diagnostic.with_note(format!("`{name}` is {}", found.describe()));
                }
                let defs = self.defs.iter().map(|d| (d.name.name.as_str(), true));
                diagnostic = match closest(name, defs) {
                    Some(suggestion) => {
                        diagnostic.with_help(format!("did you mean `{suggestion}`?"))
                    }
                    None => diagnostic.with_help("`--entry` names a `def` of the file"),
                };
                self.report(diagnostic);
                None
            }
        }
    }

    /// Whether each definition is reached from one of `from` by following
    /// references (`Callees`) or reaches one of them (`Callers`), by
    /// `program::reach`.
    fn reached(&self, from: &[DefId], direction: Direction) -> Vec<bool> {
        let mut next: Vec<Vec<DefId>> = vec![Vec::new(); self.defs.len()];
        for reference in &self.refs {
            let (a, b) = match direction {
                Direction::Callees => (reference.from, reference.to),
                Direction::Callers => (reference.to, reference.from),
            };
            if let Some(list) = next.get_mut(a) {
                list.push(b);
            }
        }
        reach::reached(self.defs.len(), from.iter().copied(), |id| {
            next.get_mut(id).map(std::mem::take).unwrap_or_default()
        })
    }

    /// W0101 for every definition the entry never reaches.
    pub(super) fn warn_unreachable(&mut self, entry: DefId) {
        // A hole may call any definition: none is unused yet.
        if self.is_doubtful() || (0..self.defs.len()).any(|id| self.is_hole(id)) {
            return;
        }
        let reached = self.reached(&[entry], Direction::Callees);
        let entry_name = self.def_name(entry);
        for (id, def) in self.defs.clone().into_iter().enumerate() {
            if !reached[id] {
                let diagnostic =
                    Diagnostic::warning(codes::W0101, format!("`{}` is never used", def.name.name))
                        .with_label(
                            def.name.span,
                            format!("not reachable from the entry `{entry_name}`"),
                        )
                        .with_help(format!(
                            "remove it, or run it with `--entry {}`",
                            def.name.name
                        ));
                self.report(diagnostic);
            }
        }
    }
}

/// Which way [`Checker::reached`] follows references.
#[derive(Clone, Copy)]
enum Direction {
    Callees,
    Callers,
}

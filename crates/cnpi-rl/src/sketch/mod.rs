//! Sketches: programs with holes, completed from input/output examples
//! (`cnpic learn`, issue 22; the paper's section 4.2 after Andreas et al.'s
//! policy sketches).
//!
//! A [`Sketch`] is a checked program with one or two holes (`def STEP: ?`),
//! built into a program memory on the shipped, verified core: each hole
//! gets an applier row (`cnpi_neural::memory::Memory::write_applier`
//! rewrites it), each condition a trained, verified detector, and each hole
//! a candidate space ([`space`]). Two searches fill the holes:
//!
//! - [`gradient`]: the paper's applier policy gradient (equation 7,
//!   [`crate::applier`]) over the memory's own keys, in independent seeded
//!   trials on every core, stopping at the first trial (by index) whose
//!   greedy fill gives every example's output on the network;
//! - [`enumerate`]: the exact baseline, every fill in a fixed order,
//!   fewest distinct arguments first.
//!
//! Every run of a candidate is a run of the neural runtime (Algorithm 1 on
//! the network's exact caches, as `cnpic run` runs); the core's weights
//! never change. The completed program is the sketch's own text with each
//! hole replaced, laid out as `cnpic fmt` lays it out ([`Sketch::completed`]).
//!
//! Holes inside normal programs are filled by [`blanks`]; [`driver`] is the
//! one `learn` that `cnpic learn`, the Python package and the tests call
//! for either kind, returning a report.

pub mod blanks;
pub mod driver;
pub mod enumerate;
pub mod examples;
pub mod gradient;
pub mod learn;
pub mod space;

use std::ops::RangeInclusive;
use std::sync::Arc;

use cnpi::diagnostic::{Diagnostic, codes};
use cnpi::exec::limits::Interrupt;
use cnpi::exec::{Limits, Options};
use cnpi::plan::NetworkEngine as _;
use cnpi::program::{Body, Program};
use cnpi_neural::core::Core;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{BLIND, DEFAULT_SEED, Entry, Memory, Parsed};
use cnpi_neural::runtime::OnTheNetwork;

pub use examples::Example;
pub use space::{Choice, Fill, HoleSpace};

/// The most holes learned together.
pub const MAX_HOLES: usize = 2;

/// The ways to write `total` as `holes` shares, each in `shares`, the
/// first hole's share smallest first (the order both enumerations walk
/// the sizes or counts of several holes in).
pub(crate) fn splits(total: usize, holes: usize, shares: RangeInclusive<usize>) -> Vec<Vec<usize>> {
    let shares: Vec<usize> = shares.collect();
    splits_among(total, &vec![shares.as_slice(); holes])
}

/// The ways to write `total` as one share per hole, hole `h`'s taken
/// from `shares[h]` (ascending), the first hole's share smallest first.
pub(crate) fn splits_among(total: usize, shares: &[&[usize]]) -> Vec<Vec<usize>> {
    let Some((first, rest)) = shares.split_first() else {
        return if total == 0 {
            vec![Vec::new()]
        } else {
            Vec::new()
        };
    };
    (first.iter().take_while(|share| **share <= total))
        .flat_map(|&share| {
            splits_among(total - share, rest)
                .into_iter()
                .map(move |mut later| {
                    later.insert(0, share);
                    later
                })
        })
        .collect()
}

/// A sketch ready to be completed.
pub struct Sketch {
    pub program: Program,
    /// The sketch's text, which the completed program is written over.
    pub text: String,
    /// The memory the candidates run in (keys from [`DEFAULT_SEED`], as
    /// `cnpic run` draws them).
    pub memory: Memory,
    pub spaces: Vec<HoleSpace>,
    pub examples: Vec<Example>,
    /// The most core steps one run of one example may take.
    pub max_steps: u64,
    /// Asked between runs and within them whether to stop the search
    /// (Ctrl-C in the Python package): it then ends as if its budget had.
    pub interrupt: Option<Arc<dyn Interrupt + Send>>,
}

/// A fill that gives every example's output, or the best one found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub fill: Fill,
    /// The indices of the examples the fill fails (empty: it passes all).
    pub fails: Vec<usize>,
}

impl Sketch {
    /// The sketch `program` (checked from `text`) with `examples`, built
    /// into a memory: E1402 unless it has one or two holes and only
    /// appliers; detector and key errors as `cnpic build` reports them.
    pub fn new(
        program: Program,
        text: &str,
        examples: Vec<Example>,
        max_steps: u64,
        cache: &Cache,
    ) -> Result<Sketch, Vec<Diagnostic>> {
        let holes = program.holes().count();
        let no_sketch = |message: String, help: &str| {
            vec![Diagnostic::error(codes::E1402, message).with_help(help.to_string())]
        };
        if holes == 0 {
            return Err(no_sketch(
                "the file has no hole to learn".into(),
                "write the definition to learn as `def NAME: ?` (or `?(COND?, ...)` with conditions it may use)",
            ));
        }
        if holes > MAX_HOLES {
            let mut diagnostic = Diagnostic::error(
                codes::E1402,
                format!(
                    "the file has {holes} holes; `cnpic learn` fills at most {MAX_HOLES} together"
                ),
            )
            .with_help("write all but two of them, or learn them in turns");
            for (_, hole) in program.holes().skip(MAX_HOLES) {
                diagnostic = diagnostic.with_label(hole.span, "one too many");
            }
            return Err(vec![diagnostic]);
        }
        if let Some(def) = (program.defs.iter()).find(|d| matches!(d.body, Body::Normal(_))) {
            let diagnostic = Diagnostic::error(
                codes::E1402,
                format!(
                    "`{}` is a normal program; a sketch holds appliers only",
                    def.name
                ),
            )
            .with_label(def.span, "a normal program")
            .with_help(
                "combinatorize it first (`cnpic combinatorize`) and write the hole into the output, \
                 or leave the part of the normal program to learn as `?`: both kinds of hole are \
                 then filled together",
            );
            return Err(vec![diagnostic]);
        }
        let memory = Memory::with_program(&program, "sketch", text, DEFAULT_SEED, cache)
            .map_err(|d| vec![d])?;
        let spaces = space::spaces(&program, &memory, 0);
        Ok(Sketch {
            program,
            text: text.to_string(),
            memory,
            spaces,
            examples,
            max_steps,
            interrupt: None,
        })
    }

    /// Whether the search was asked to stop ([`Self::interrupt`]).
    pub fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(|i| i.interrupted())
    }

    /// The indices of the examples `fill` fails on the network (all, for a
    /// fill that makes a cycle), stopping at the first with `first_only`.
    pub fn fails(&self, memory: &mut Memory, fill: &[Choice], first_only: bool) -> Vec<usize> {
        let Some(network) = self.on_network(memory, fill) else {
            return (0..self.examples.len()).collect();
        };
        let mut fails = Vec::new();
        for (i, example) in self.examples.iter().enumerate() {
            if !self.passes(&network, example) {
                fails.push(i);
                if first_only {
                    break;
                }
            }
        }
        fails
    }

    /// Whether `fill` gives example `example`'s output on the network.
    pub fn passes_one(&self, memory: &mut Memory, fill: &[Choice], example: usize) -> bool {
        self.on_network(memory, fill)
            .is_some_and(|network| self.passes(&network, &self.examples[example]))
    }

    /// Writes `fill` into the holes' rows of `memory` and puts the program
    /// on the shipped core; `None` for a fill that makes a cycle, or that
    /// the core refuses.
    fn on_network(&self, memory: &mut Memory, fill: &[Choice]) -> Option<OnTheNetwork> {
        if !space::acyclic(&self.program, &self.spaces, fill) {
            return None;
        }
        self.write(memory, fill).ok()?;
        let entry = Entry::of_unit(memory, 0)?;
        OnTheNetwork::new(Core::shipped().ok()?, memory.clone(), entry, true).ok()
    }

    /// Writes `fill` into the holes' rows of `memory`.
    fn write(&self, memory: &mut Memory, fill: &[Choice]) -> Result<(), Diagnostic> {
        for (space, choice) in self.spaces.iter().zip(fill) {
            space.write(memory, choice)?;
        }
        Ok(())
    }

    /// Whether the program on `network` gives `example`'s output.
    fn passes(&self, network: &OnTheNetwork, example: &Example) -> bool {
        let options = Options {
            max_steps: self.max_steps,
            trace: None,
            limits: Limits {
                interrupt: self.interrupt.as_deref().map(|i| i as &dyn Interrupt),
                ..Limits::default()
            },
        };
        (network.run(example.input.clone(), options, None))
            .is_ok_and(|outcome| example.matches(&outcome))
    }

    /// Each hole's name and its applier under `fill`, as source.
    pub fn appliers(&self, fill: &[Choice]) -> Vec<(String, String)> {
        let mut memory = self.memory.clone();
        if self.write(&mut memory, fill).is_err() {
            return Vec::new();
        }
        (self.spaces.iter())
            .map(|space| {
                let name = self.program.defs[space.def].name.clone();
                (name, applier_source(&memory, space.row))
            })
            .collect()
    }

    /// The sketch's text with every hole filled by `fill`, after the
    /// comment lines `header`, laid out as `cnpic fmt` lays it out.
    pub fn completed(&self, fill: &[Choice], header: &str) -> String {
        let mut spans: Vec<(std::ops::Range<usize>, String)> = (self.spaces.iter())
            .zip(self.appliers(fill))
            .filter_map(|(space, (_, applier))| {
                let (_, hole) = self.program.holes().find(|(d, _)| *d == space.def)?;
                Some((hole.span.range(), applier))
            })
            .collect();
        spans.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        let mut text = self.text.clone();
        for (range, applier) in spans {
            text.replace_range(range, &applier);
        }
        let text = format!("{header}{text}");
        cnpi::format::format(&text).unwrap_or(text)
    }
}

/// Applier row `row` of `memory`, parsed, as the right side of its `def`.
fn applier_source(memory: &Memory, row: usize) -> String {
    let name = |r: usize| {
        memory
            .rows
            .get(r)
            .map_or("?", |r| r.name.as_str())
            .to_string()
    };
    match memory.parse(row) {
        Ok(Parsed::Combinator {
            combinator,
            detector,
            args,
            ..
        }) => {
            let detector = match detector {
                BLIND => String::new(),
                d => format!("{}?", memory.detectors[d].text),
            };
            let args = args.map(name);
            format!("{}({detector}; {})", name(combinator), args.join(", "))
        }
        Ok(Parsed::Act(_)) | Err(_) => "?".to_string(),
    }
}

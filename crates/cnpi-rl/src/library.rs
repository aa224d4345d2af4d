//! Stage 2's program memory: named appliers and conditions compiled from
//! `.cnpi` source, run on a fixed learned core.
//!
//! A [`Library`] is a sketch: a file of appliers (`def COMPSWAP:
//! cond(...)`, `def P1_LEFT: MOVE(P1, LEFT)`) and holes (`def STEP: ?`)
//! read by the front end, each definition a [`Routine`] that is an ACT or a
//! combinator applied to a detector and three other programs. Appliers
//! learned by reinforcement fill the holes ([`Library::define`]) and are
//! printed back as source ([`Library::source`]).
//!
//! [`Library::execute`] is Algorithm 1 on a fixed core: an applier starts
//! an activation of its combinator with a new frame; each step reads a
//! condition bit (from the caller's detector function, so that a detector
//! being learned can be sampled), asks the core network for the slot and
//! the return flag (the inference path of `cnpi_neural::core`), and runs
//! the program in that slot; `self` starts the combinator again on the same
//! frame, and an activation that returns is popped before its last call,
//! as in the neural runtime. Stage 2 runs candidate appliers millions of
//! times, which is why it has this small machine of its own instead of
//! compiling every candidate into a `.cnpim` memory.

use cnpi::compile::compile;
use cnpi::exec::Store;
use cnpi::program::print;
use cnpi::program::{Act, ActApp, Applier, Body, BoolExpr, Callee, EnvKind, Pointer, Slot};
use cnpi::span::Span;
use cnpi_neural::core::{CoreState, Network};
use cnpi_neural::memory::condition_code;

use crate::tasks::LEARNED;

/// A program of the library, as the learners hold it: an ACT or an applier
/// over other routines (`cnpi::program::Program` is a checked file).
#[derive(Clone, Debug)]
pub enum Routine {
    Act(ActApp),
    Applier {
        /// The index of the combinator in [`LEARNED`].
        combinator: usize,
        /// The index of the condition in [`Library::conditions`] (`None`
        /// for `seq`).
        detector: Option<usize>,
        /// The programs bound to `a1, a2, a3`.
        args: [usize; 3],
    },
}

/// The program that does nothing: `NOP`, and a hole until it is defined.
fn nothing() -> Routine {
    Routine::Act(ActApp {
        act: Act::Nop,
        span: Span::default(),
    })
}

/// Named programs and conditions of one `env array(...)` line.
#[derive(Clone, Debug)]
pub struct Library {
    pub env: EnvKind,
    pub pointers: Vec<Pointer>,
    pub names: Vec<String>,
    pub programs: Vec<Routine>,
    pub conditions: Vec<BoolExpr>,
    /// Each condition's code, what tells two conditions apart.
    codes: Vec<Vec<u32>>,
}

/// Why a run did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// An ACT failed (an `OUT` at END, say).
    Act,
    /// More core steps than the budget.
    Budget,
    /// The core chose a slot a basic combinator does not have.
    Slot,
}

struct Activation {
    combinator: usize,
    detector: Option<usize>,
    frame: [usize; 3],
    state: CoreState,
}

impl Library {
    /// Compiles the sketch `text` (named `name`), starting from `entry`:
    /// each definition a program, each hole a program that does nothing
    /// until [`Library::define`] gives it one; the conditions are those
    /// the appliers use and the holes list, in order of first appearance,
    /// each once.
    pub fn compile(name: &str, text: &str, entry: &str) -> Library {
        let compilation = compile(name, text, Some(entry));
        let Some(program) = compilation.program else {
            panic!(
                "the library `{name}` does not compile: {:?}",
                compilation.diagnostics
            )
        };
        let mut library = Library {
            env: program.env,
            pointers: program.pointers.clone(),
            names: Vec::new(),
            programs: Vec::new(),
            conditions: Vec::new(),
            codes: Vec::new(),
        };
        // Definitions keep their ids (`Callee::Def` refers to them); inline
        // ACTs are numbered after them.
        for def in &program.defs {
            library.names.push(def.name.clone());
            library.programs.push(nothing());
        }
        for (id, def) in program.defs.iter().enumerate() {
            library.programs[id] = match &def.body {
                Body::Applier(applier) => library.applier(applier),
                Body::Hole(hole) => {
                    for condition in &hole.conditions {
                        library.condition(condition);
                    }
                    nothing()
                }
                Body::Normal(_) => panic!("`{}` is not an applier", def.name),
            };
        }
        library
    }

    fn applier(&mut self, applier: &Applier) -> Routine {
        match applier {
            Applier::Act(app) => Routine::Act(app.clone()),
            Applier::Combinator {
                combinator,
                detector,
                args,
                ..
            } => {
                let combinator = LEARNED
                    .iter()
                    .position(|(kind, _)| kind == combinator)
                    .expect("stage 2 uses the learned combinators only");
                let detector = detector.as_ref().map(|d| self.condition(d));
                let args = args.clone().map(|arg| match arg {
                    Callee::Def(id, _) => id,
                    Callee::Act(app) => {
                        self.names.push(print::act(&app.act, &self.pointers));
                        self.programs.push(Routine::Act(app));
                        self.programs.len() - 1
                    }
                });
                Routine::Applier {
                    combinator,
                    detector,
                    args,
                }
            }
        }
    }

    /// The index of a condition, added if new (the same condition written
    /// twice has one code, [`condition_code`]).
    fn condition(&mut self, condition: &BoolExpr) -> usize {
        let code = condition_code(condition);
        if let Some(i) = self.codes.iter().position(|c| *c == code) {
            return i;
        }
        self.conditions.push(condition.clone());
        self.codes.push(code);
        self.conditions.len() - 1
    }

    /// The program called `name`.
    pub fn id(&self, name: &str) -> usize {
        self.names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("the library has no `{name}`"))
    }

    /// Adds (or replaces) the program `name`.
    pub fn define(&mut self, name: &str, program: Routine) -> usize {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            self.programs[i] = program;
            return i;
        }
        self.names.push(name.to_string());
        self.programs.push(program);
        self.programs.len() - 1
    }

    /// A store at the start of a run on the array `input`.
    pub fn store(&self, input: &[i64]) -> Store<'static> {
        crate::tasks::array_store(self.env, &self.pointers, input)
    }

    /// The exact value of condition `condition` on `store`.
    pub fn holds(&self, condition: usize, store: &Store) -> bool {
        store.eval(&self.conditions[condition]).unwrap_or(false)
    }

    /// Runs program `entry` on `store` with the core `core`, reading each
    /// condition bit from `detect(condition, store)` (`seq` reads
    /// `false`); returns the core steps taken.
    pub fn execute(
        &self,
        core: &Network,
        entry: usize,
        store: &mut Store,
        budget: usize,
        detect: &mut dyn FnMut(usize, &Store) -> bool,
    ) -> Result<usize, Failure> {
        let mut stack: Vec<Activation> = Vec::new();
        let mut steps = 0;
        self.call(core, entry, store, &mut stack)?;
        while let Some(mut activation) = stack.pop() {
            steps += 1;
            if steps > budget {
                return Err(Failure::Budget);
            }
            let bit = activation.detector.is_some_and(|d| detect(d, store));
            let decision = core.step(&mut activation.state, bit);
            let slot = decision.slot;
            let (combinator, detector, frame) =
                (activation.combinator, activation.detector, activation.frame);
            if !decision.ret {
                stack.push(activation);
            }
            match slot {
                Slot::SelfSlot => stack.push(Activation {
                    combinator,
                    detector,
                    frame,
                    state: core.start(combinator),
                }),
                Slot::A1 | Slot::A2 | Slot::A3 => {
                    self.call(core, frame[slot as usize - 1], store, &mut stack)?;
                }
                _ => return Err(Failure::Slot),
            }
        }
        Ok(steps)
    }

    fn call(
        &self,
        core: &Network,
        program: usize,
        store: &mut Store,
        stack: &mut Vec<Activation>,
    ) -> Result<(), Failure> {
        match &self.programs[program] {
            Routine::Act(app) => store.apply(app, &self.pointers).map_err(|_| Failure::Act),
            &Routine::Applier {
                combinator,
                detector,
                args,
            } => {
                stack.push(Activation {
                    combinator,
                    detector,
                    frame: args,
                    state: core.start(combinator),
                });
                Ok(())
            }
        }
    }

    /// A program as the right-hand side of its `def`.
    pub fn applier_source(&self, program: usize) -> String {
        match &self.programs[program] {
            Routine::Act(app) => print::act(&app.act, &self.pointers),
            Routine::Applier {
                combinator,
                detector,
                args,
            } => {
                let detector = detector.map_or(String::new(), |d| {
                    format!("{}?", print::condition(&self.conditions[d], &self.pointers))
                });
                let args = args.map(|a| self.names[a].clone());
                format!(
                    "{}({detector}; {})",
                    LEARNED[*combinator].1,
                    args.join(", ")
                )
            }
        }
    }

    /// The `.cnpi` file of `entry` and every named applier it reaches
    /// (inline ACTs stay inline), callees first.
    pub fn source(&self, entry: usize, header: &str) -> String {
        let mut order = Vec::new();
        self.reach(entry, &mut order);
        let env = print::env_line(self.env, &self.pointers);
        let mut text = format!("{header}env {env}\n\n");
        for id in order {
            text.push_str(&format!(
                "def {}: {}\n",
                self.names[id],
                self.applier_source(id)
            ));
        }
        // Laid out as `cnpic fmt` would; the text compiled, so it formats.
        cnpi::format::format(&text).unwrap_or(text)
    }

    fn reach(&self, program: usize, order: &mut Vec<usize>) {
        if order.contains(&program) {
            return;
        }
        if let Routine::Applier { args, .. } = &self.programs[program] {
            for &arg in args {
                self.reach(arg, order);
            }
        }
        let inline = matches!(self.programs[program], Routine::Act(_))
            && self.names[program] == self.applier_source(program);
        if !inline {
            order.push(program);
        }
    }
}

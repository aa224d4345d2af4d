//! `cnpic experiment`: the paper's experiments, one subcommand each. The
//! supervised ones run as sweeps of seeded trials on every core, with
//! `--shard i/n` for array jobs and `merge` to join the shards (see
//! `cnpi-experiments`); the reinforcement ones run the learners of
//! `cnpi-rl` the same way.

mod continual;
mod full_set;
mod merge;
mod rl;
mod sweep;
mod verification_cost;

use std::process::ExitCode;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum ExperimentCommand {
    /// Train cores on the 57 combinators of `stdlib/full_set.cnpi` and
    /// verify them: step accuracy and combinators learned perfectly.
    FullSet(full_set::FullSetArgs),
    /// Figure 3: accuracy on the full set against the LSTM's cell count,
    /// for the three variants; writes CSV files and a PNG and SVG plot.
    Cells(full_set::CellsArgs),
    /// Table 2: learn new combinators on a fixed core (CNPI-4) and new
    /// programs with fixed core and learned keys (RNPI-4x2); re-test the old.
    Continual(continual::ContinualArgs),
    /// Section 3.3: the test inputs that verify a program on CNPI (core
    /// and detectors) against an RNPI-style verification (each subprogram
    /// over its observation sequences).
    VerificationCost(verification_cost::VerificationCostArgs),
    /// Join the `results.json` files of the shards of one run and write
    /// the run's rows and summary.
    Merge(merge::MergeArgs),
    /// Table 4: learn the core and seq, cond, linrec by reinforcement, over
    /// many seeded trials; print the success rates.
    RlCore(rl::RlCoreArgs),
    /// Table 5: the RNPI-4xn baseline learning n versions of the stage-1
    /// tasks by reinforcement; print the easy and final stage rates.
    RlRnpi(rl::RlRnpiArgs),
    /// Stage 2 on a learned core: the A[P1] > A[P2] detector, then the STEP
    /// and SORT appliers, by reinforcement; print the rates and save the
    /// learned sort as `.cnpi` source.
    RlStage2(rl::RlStage2Args),
}

pub fn experiment(command: &ExperimentCommand) -> ExitCode {
    match command {
        ExperimentCommand::FullSet(args) => full_set::full_set(args),
        ExperimentCommand::Cells(args) => full_set::cells(args),
        ExperimentCommand::Continual(args) => continual::continual(args),
        ExperimentCommand::VerificationCost(args) => verification_cost::verification_cost(args),
        ExperimentCommand::Merge(args) => merge::merge(args),
        ExperimentCommand::RlCore(args) => rl::rl_core(args),
        ExperimentCommand::RlRnpi(args) => rl::rl_rnpi(args),
        ExperimentCommand::RlStage2(args) => rl::rl_stage2(args),
    }
}

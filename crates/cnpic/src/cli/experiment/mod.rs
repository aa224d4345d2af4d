//! `cnpic experiment ...`: the paper's experiments, one subcommand each.

mod rl;

use std::process::ExitCode;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum ExperimentCommand {
    /// Table 4: learn the core and seq, cond, linrec by reinforcement, over
    /// many seeded trials; print the success rates.
    RlCore(rl::RlCoreArgs),
    /// Stage 2 on a learned core: the A[P1] > A[P2] detector, then the STEP
    /// and SORT appliers, by reinforcement; print the rates and save the
    /// learned sort as `.cnpi` source.
    RlStage2(rl::RlStage2Args),
}

pub fn experiment(command: &ExperimentCommand) -> ExitCode {
    match command {
        ExperimentCommand::RlCore(args) => rl::rl_core(args),
        ExperimentCommand::RlStage2(args) => rl::rl_stage2(args),
    }
}

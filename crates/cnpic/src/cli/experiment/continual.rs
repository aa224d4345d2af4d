//! `cnpic experiment continual`.

use std::process::ExitCode;

use clap::Args;
use clap::builder::TypedValueParser as _;
use cnpi_experiments::continual::Continual;
use cnpi_experiments::full_set::behaviours;
use cnpi_neural::core::fast::Variant;

use super::sweep::{SweepArgs, finish, run_and_save};

#[derive(Args)]
pub struct ContinualArgs {
    /// LSTM cells of both models.
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u16).range(1..=256).map(usize::from))]
    cells: usize,
    #[command(flatten)]
    sweep: SweepArgs,
}

pub fn continual(args: &ContinualArgs) -> ExitCode {
    let set = match behaviours() {
        Ok(set) => set,
        Err(diagnostic) => return finish(Err(diagnostic)),
    };
    let experiment = Continual {
        set,
        seeds: args.sweep.seed_list(),
        training: args.sweep.schedule.training(Variant::State0, args.cells),
    };
    run_and_save(&experiment, &args.sweep.run)
}

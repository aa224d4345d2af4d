//! `cnpic experiment merge`: join the shards of one run.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use cnpi::diagnostic::{Diagnostic, codes};
use cnpi_experiments::cells::Cells;
use cnpi_experiments::continual::Continual;
use cnpi_experiments::full_set::FullSet;
use cnpi_experiments::results::experiment_of;
use cnpi_experiments::rl_core::RlCore;
use cnpi_experiments::rl_rnpi::RlRnpi;
use cnpi_experiments::rl_stage2::RlStage2;
use cnpi_experiments::{Experiment, merge as join, read_json, save};

use super::sweep::finish;

#[derive(Args)]
pub struct MergeArgs {
    /// The `results.json` of every shard.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Where to write the merged rows and the summary.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

pub fn merge(args: &MergeArgs) -> ExitCode {
    finish(merge_files(&args.files, &args.out))
}

fn merge_files(files: &[PathBuf], out: &Path) -> Result<String, Diagnostic> {
    let name = experiment_of(&files[0])?;
    match name.as_str() {
        FullSet::NAME => merge_as::<FullSet>(files, out),
        Cells::NAME => merge_as::<Cells>(files, out),
        Continual::NAME => merge_as::<Continual>(files, out),
        RlCore::NAME => merge_as::<RlCore>(files, out),
        RlRnpi::NAME => merge_as::<RlRnpi>(files, out),
        RlStage2::NAME => merge_as::<RlStage2>(files, out),
        other => Err(Diagnostic::error(
            codes::E1302,
            format!(
                "`{}` holds results of `{other}`, which is no experiment of cnpic",
                files[0].display()
            ),
        )),
    }
}

fn merge_as<E: Experiment>(files: &[PathBuf], out: &Path) -> Result<String, Diagnostic> {
    let parts = files
        .iter()
        .map(|path| read_json::<E::Row>(path))
        .collect::<Result<Vec<_>, _>>()?;
    save::<E>(&join(parts)?, out)
}

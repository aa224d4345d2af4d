//! `cnpic experiment merge`: join the shards of one run (the experiments
//! are those of `cnpi_experiments::registry`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use cnpi_experiments::registry::merge_files;

use super::sweep::finish_saved;

#[derive(Args)]
pub struct MergeArgs {
    /// The `results.json` of every shard.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Where to write the merged rows and the summary (not a shard's own
    /// folder).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

pub fn merge(args: &MergeArgs) -> ExitCode {
    finish_saved(merge_files(&args.files, &args.out))
}

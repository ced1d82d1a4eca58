//! `merge`.

use std::path::{Path, PathBuf};

use clap::Args;

use ldd_sets::error::Result;
use ldd_sets::pipeline::merge::{merge as run_merge, MergeOptions};
use ldd_sets::printer;

use super::args::{Common, QuietArgs};

#[derive(Args)]
pub struct MergeArgs {
    /// The merged output directory (for `run --shard` outputs: one subdirectory per corpus).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Parse cache where the whole corpus's parse is assembled from the shards' parses
    /// [default: the directory the shards' parses were cached in].
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// The output directories of the N shards, in any order (`extract --shard I/N` outputs,
    /// or `run --shard I/N` outputs with one subdirectory per corpus).
    #[arg(value_name = "SHARD_DIR", required = true)]
    shards: Vec<PathBuf>,
    #[command(flatten)]
    quiet: QuietArgs,
}

impl Common for MergeArgs {
    fn inputs(&self) -> Vec<&Path> {
        self.shards.iter().map(PathBuf::as_path).collect()
    }
}

pub fn merge(a: MergeArgs) -> Result<()> {
    let merged = run_merge(&MergeOptions {
        shards: a.shards,
        out: a.out,
        cache: a.cache,
    })?;
    if a.quiet.quiet {
        return Ok(());
    }
    for m in &merged {
        printer::out(&format!("{}\n", printer::extract::merge_summary(m)));
    }
    Ok(())
}

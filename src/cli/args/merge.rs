//! The arguments of `merge`, as typed (the plan reads them).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{Common, QuietArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct MergeArgs {
    /// The merged output directory (for `run --shard` outputs: one subdirectory per corpus).
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::MERGED))]
    pub out: Output,
    /// Parse cache where the whole corpus's parse is assembled from the shards' parses
    /// [default: the directory the shards' parses were cached in].
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::CACHE))]
    pub cache: Option<Output>,
    /// The output directories of the N shards, in any order (`extract --shard I/N` outputs,
    /// or `run --shard I/N` outputs with one subdirectory per corpus).
    #[arg(value_name = "SHARD_DIR", required = true)]
    pub shards: Vec<PathBuf>,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

impl Common for MergeArgs {
    fn inputs(&self) -> Vec<&Path> {
        self.shards.iter().map(PathBuf::as_path).collect()
    }
}

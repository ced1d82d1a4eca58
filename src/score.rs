//! `slice` and `score`: cut a system's translation of the whole corpus by the sets'
//! ids, and score every set and its controls (stub: filled in by the scoring work).

use std::path::PathBuf;

use clap::Args;

use crate::error::Result;

/// Arguments of `ldd-sets slice`.
#[derive(Debug, Args)]
pub struct SliceArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    pub sets: PathBuf,
    /// A system's translation of the whole corpus, one line per corpus line.
    #[arg(long, value_name = "FILE")]
    pub hyp: PathBuf,
}

/// Arguments of `ldd-sets score`.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Output directory of `ldd-sets extract`.
    #[arg(long, value_name = "DIR")]
    pub sets: PathBuf,
    /// Systems' translations of the whole corpus (repeat for several systems).
    #[arg(long, value_name = "FILE", required = true)]
    pub hyp: Vec<PathBuf>,
}

/// Runs `slice`.
pub fn run_slice(_args: &SliceArgs) -> Result<()> {
    Ok(())
}

/// Runs `score`.
pub fn run_score(_args: &ScoreArgs) -> Result<()> {
    Ok(())
}

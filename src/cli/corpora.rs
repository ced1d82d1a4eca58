//! `corpora`.

use std::path::PathBuf;

use clap::Args;

use ldd_sets::error::Result;
use ldd_sets::fetch::fetch_corpora;

use super::args::{Common, ConfigArgs, QuietArgs};
use super::plan;

impl Common for CorporaArgs {}

#[derive(Args)]
pub struct CorporaArgs {
    /// Language pair: its config (config/pairs/<PAIR>.toml, shipped, or a path to a .toml),
    /// else the registry's default corpus for the pair (OPUS Books, if OPUS has the pair).
    #[arg(long, value_name = "PAIR")]
    pair: String,
    /// Directory to write the corpora to.
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    #[command(flatten)]
    config: ConfigArgs,
    #[command(flatten)]
    quiet: QuietArgs,
}

pub fn corpora(a: CorporaArgs) -> Result<()> {
    let pair = plan::pair(&a.config, &a.pair, a.quiet.quiet)?;
    fetch_corpora(&pair, &a.dir, a.quiet.quiet).map(|_| ())
}

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
    pub pair: String,
    /// Directory to write the corpora to.
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

pub fn corpora(a: CorporaArgs) -> Result<()> {
    let p = plan::corpora(&a)?;
    fetch_corpora(&p.pair, &p.dir, p.quiet).map(|_| ())
}

//! The arguments of `corpora`, as typed (the plan reads them).

use clap::Args;

use super::{Common, ConfigArgs, QuietArgs};
use ldd_io::Output;

use super::outputs::{self, output};

impl Common for CorporaArgs {}

#[derive(Args)]
pub struct CorporaArgs {
    /// Language pair: its config (config/pairs/<PAIR>.toml, shipped, or a path to a .toml),
    /// else the registry's default corpus for the pair (OPUS Books, if OPUS has the pair).
    #[arg(long, value_name = "PAIR")]
    pub pair: String,
    /// Directory to write the corpora to.
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::CORPORA))]
    pub dir: Output,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

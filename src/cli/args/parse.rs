//! The arguments of `parse`, as typed (the plan reads them).

use std::path::{Path, PathBuf};

use clap::Args;

use super::{Common, ConfigArgs, ModelArgs, QuietArgs, ShardArgs, ThreadArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct ParseArgs {
    /// Source side of the corpus, one sentence per line (plain or gzip).
    #[arg(long, value_name = "FILE")]
    pub src: PathBuf,
    /// Where to write the CoNLL-U (gzip if it ends in .gz), one tree per line (with
    /// --shard: the shard's lines only, `# sent_id` = corpus line). Without it the parse is
    /// only cached (e.g. shards parsed ahead of `extract --shard` or `run --shard`).
    #[arg(long, value_name = "FILE", value_parser = output(&outputs::PARSE))]
    pub out: Option<Output>,
    /// Replace an existing --out that reads as CoNLL-U but that ldd-sets cannot tell it
    /// wrote (it could be a treebank of yours). Without it an existing file is refused; a
    /// file of anything else, a link or an input is refused even with it.
    #[arg(long, requires = "out")]
    pub replace: bool,
    /// Language pair naming the UDPipe model (if no --model): a config, or the registry's
    /// default model of the source language (e.g. fr-en).
    #[arg(long, value_name = "PAIR")]
    pub pair: Option<String>,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub shard: ShardArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

impl Common for ParseArgs {
    fn inputs(&self) -> Vec<&Path> {
        vec![&self.src]
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.threads)
    }
}

//! `parse`.

use std::path::{Path, PathBuf};

use clap::Args;

use ldd_sets::error::Result;
use ldd_sets::parse::{find_model, write_parse};
use ldd_sets::pipeline::{prepare_corpus, Trees};

use super::args::{Common, ConfigArgs, ModelArgs, QuietArgs, ShardArgs, ThreadArgs};
use super::plan;

#[derive(Args)]
pub struct ParseArgs {
    /// Source side of the corpus, one sentence per line (plain or gzip).
    #[arg(long, value_name = "FILE")]
    src: PathBuf,
    /// Where to write the CoNLL-U (gzip if it ends in .gz), one tree per line (with
    /// --shard: the shard's lines only, `# sent_id` = corpus line). Without it the parse is
    /// only cached (e.g. shards parsed ahead of `extract --shard` or `run --shard`).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Language pair naming the UDPipe model (if no --model): a config, or the registry's
    /// default model of the source language (e.g. fr-en).
    #[arg(long, value_name = "PAIR")]
    pair: Option<String>,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    config: ConfigArgs,
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    #[command(flatten)]
    quiet: QuietArgs,
}

impl Common for ParseArgs {
    fn inputs(&self) -> Vec<&Path> {
        vec![&self.src]
    }
    fn threads(&self) -> Option<&ThreadArgs> {
        Some(&self.threads)
    }
}

pub fn parse(a: ParseArgs) -> Result<()> {
    let quiet = a.quiet.quiet;
    // Refuse an output that is the input before spending time parsing.
    let mut inputs = vec![a.src.as_path()];
    inputs.extend(a.model.model.as_deref());
    if let Some(out) = &a.out {
        ldd_io::output::check_file_output(out, &inputs)?;
    }
    let settings = plan::parse_settings(&a.model, &a.threads, quiet);
    let pair = match &a.pair {
        Some(p) => Some(plan::with_model_source(
            &a.model,
            plan::pair(&a.config, p, quiet)?,
        )?),
        None => None,
    };
    let model = find_model(pair.as_ref().and_then(|p| p.model.as_ref()), &settings)?;
    let prepared = prepare_corpus(
        &a.src,
        Trees::Parse(model.clone()),
        &settings,
        a.shard.shard,
    )?;
    match &a.out {
        Some(out) => write_parse(&prepared.conllu, out, &[&a.src, &model]),
        None => Ok(()),
    }
}

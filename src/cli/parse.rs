//! `parse`.

use std::path::PathBuf;

use clap::Args;

use ldd_sets::error::Result;
use ldd_sets::parse::{find_model, write_parse};
use ldd_sets::pipeline::{prepare_corpus, Trees};

use super::args::{ConfigArgs, ModelArgs, QuietArgs, ShardArgs, ThreadArgs};

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

pub fn parse(a: ParseArgs) -> Result<()> {
    let quiet = a.quiet.quiet;
    a.threads.apply()?;
    ldd_io::identity::note_input(&a.src);
    // Refuse an output that is the input before spending time parsing.
    let mut inputs = vec![a.src.as_path()];
    inputs.extend(a.model.model.as_deref());
    if let Some(out) = &a.out {
        ldd_io::output::refuse_same_file(out, &inputs)?;
    }
    let settings = a.model.settings(&a.threads, quiet);
    let pair = match &a.pair {
        Some(p) => Some(a.config.pair(p, quiet)?),
        None => None,
    };
    let model = find_model(pair.as_ref().and_then(|p| p.model.as_ref()), &settings)?;
    let trees = Trees::Parse {
        model: &model,
        settings: &settings,
    };
    let prepared = prepare_corpus(&a.src, trees, a.shard.shard, quiet)?;
    match &a.out {
        Some(out) => write_parse(&prepared.conllu, out, &[&a.src, &model]),
        None => Ok(()),
    }
}

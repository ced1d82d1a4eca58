//! `parse` and `corpora`.

use std::path::PathBuf;

use clap::Args;

use ldd_sets::config::Pair;
use ldd_sets::error::Result;
use ldd_sets::parse::{describe, find_model, parse_cached, write_parse};
use ldd_sets::read::fetch::fetch_corpora;

use super::args::{ConfigArgs, ModelArgs, QuietArgs, ThreadArgs};

#[derive(Args)]
pub struct ParseArgs {
    /// Source side of the corpus, one sentence per line (plain or gzip).
    #[arg(long, value_name = "FILE")]
    src: PathBuf,
    /// Where to write the CoNLL-U (gzip if it ends in .gz), one tree per line.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Language pair config naming the UDPipe model (if no --model).
    #[arg(long, value_name = "PAIR")]
    pair: Option<String>,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    config: ConfigArgs,
    #[command(flatten)]
    threads: ThreadArgs,
    #[command(flatten)]
    quiet: QuietArgs,
}

#[derive(Args)]
pub struct CorporaArgs {
    /// Language pair (config/pairs/<PAIR>.toml), or a path to a pair .toml file.
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

pub fn parse(a: ParseArgs) -> Result<()> {
    let quiet = a.quiet.quiet;
    a.threads.apply()?;
    // Refuse an output that is the input before spending time parsing.
    let mut inputs = vec![a.src.as_path()];
    inputs.extend(a.model.model.as_deref());
    ldd_io::output::refuse_same_file(&a.out, &inputs)?;
    let settings = a.model.settings(&a.threads, quiet);
    let pair = match &a.pair {
        Some(p) => Some(Pair::load(&a.config.config, p)?),
        None => None,
    };
    let model = find_model(pair.as_ref().map(|p| &p.model), &settings)?;
    let parsed = parse_cached(&a.src, &model, &settings)?;
    if !quiet {
        eprintln!("ldd-sets: {}", describe(&parsed, &a.src));
    }
    write_parse(&parsed.conllu, &a.out, &[&a.src, &model])
}

pub fn corpora(a: CorporaArgs) -> Result<()> {
    let pair = Pair::load(&a.config.config, &a.pair)?;
    fetch_corpora(&pair, &a.dir, a.quiet.quiet).map(|_| ())
}

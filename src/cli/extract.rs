//! `extract` and `run`.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use ldd_sets::config::Pair;
use ldd_sets::error::Result;
use ldd_sets::parse::find_model;
use ldd_sets::pipeline::{
    self, check_phenomena, check_shard_reorder, extract as run_extract, prepare_corpus,
    ExtractOptions, RunOptions, Trees,
};
use ldd_sets::printer;
use ldd_sets::read::Languages;

use super::args::{
    AlignArgs, ConfigArgs, ControlArgs, ModelArgs, QuietArgs, SetArgs, ShardArgs, ThreadArgs,
};

#[derive(Args)]
pub struct ExtractArgs {
    /// Source side of the corpus, one sentence per line (plain or gzip).
    #[arg(long, value_name = "FILE")]
    src: PathBuf,
    /// Target side, line-aligned with --src (plain or gzip).
    #[arg(long, value_name = "FILE")]
    tgt: PathBuf,
    /// Source language code (e.g. de); picks the default phenomena and names files.
    #[arg(long, value_name = "LANG")]
    src_lang: String,
    /// Target language code (e.g. en).
    #[arg(long, value_name = "LANG")]
    tgt_lang: String,
    /// UD parse of the source side, one tree per corpus line, in order (plain or gzip).
    /// Without it, the source is parsed with UDPipe (cached).
    #[arg(long, value_name = "FILE")]
    conllu: Option<PathBuf>,
    /// Skip the check that each tree of --conllu belongs to its corpus line (same letters
    /// and digits after undoing tokenizer escapes, NFKC and lower-casing; docs/usage.md, "Bring
    /// your own parse"), for a parse you trust whose text differs more than that.
    #[arg(long, requires = "conllu")]
    trust_conllu: bool,
    /// Use these word alignments (Pharaoh `i-j`, source UD word index - target token
    /// index, 0-based, one line per corpus line; `ldd-sets align --conllu` writes them)
    /// instead of the built-in aligner.
    #[arg(long, value_name = "FILE")]
    alignments: Option<PathBuf>,
    /// Language pair naming the UDPipe model and phenomena [default: SRC-TGT: its config
    /// if one exists, else the registry's defaults for the source language].
    #[arg(long, value_name = "PAIR")]
    pair: Option<String>,
    /// Output directory (created; a previous ldd-sets output there is replaced).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    #[command(flatten)]
    sets: SetArgs,
    #[command(flatten)]
    controls: ControlArgs,
    #[command(flatten)]
    align: AlignArgs,
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

#[derive(Args)]
pub struct RunArgs {
    /// Language pair SRC-TGT (e.g. fr-en): its config (config/pairs/<PAIR>.toml, a shipped
    /// one, or a path to a .toml), else defaults from the UDPipe 2.5 registry (the source
    /// language's default model, its default phenomena, files <name>.SRC-TGT.<lang>).
    #[arg(long, value_name = "PAIR")]
    pair: String,
    /// Directory of corpora named <name>.<files>.<lang>[.gz] (<files> is SRC-TGT unless the
    /// pair config says otherwise).
    #[arg(long, value_name = "DIR")]
    corpora: PathBuf,
    /// Only these corpora (names, comma-separated) [default: all found].
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    only: Option<Vec<String>>,
    /// Output directory; each corpus gets OUT/<name>/.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    #[command(flatten)]
    sets: SetArgs,
    #[command(flatten)]
    controls: ControlArgs,
    #[command(flatten)]
    align: AlignArgs,
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

pub fn extract(a: ExtractArgs) -> Result<()> {
    a.threads.apply()?;
    ldd_io::identity::note_inputs(
        [
            Some(&a.src),
            Some(&a.tgt),
            a.conllu.as_ref(),
            a.alignments.as_ref(),
        ]
        .into_iter()
        .flatten()
        .map(PathBuf::as_path),
    );
    let quiet = a.quiet.quiet;
    let languages = Languages::new(&a.src_lang, &a.tgt_lang)?;
    let pair = match &a.pair {
        Some(p) => Some(a.config.pair(p, quiet)?),
        // Without --pair, the pair's config only matters for the model and the rules; its
        // absence is not worth a note.
        None => {
            let name = format!("{}-{}", a.src_lang, a.tgt_lang);
            Some(if ldd_io::name::is_valid(ldd_io::NameKind::Pair, &name) {
                a.config.pair(&name, true)?
            } else {
                Pair::from_registry(&a.src_lang, &a.tgt_lang)? // codes with hyphens
            })
        }
    };
    let rules = pipeline::select_rules(
        a.sets.rules.as_deref(),
        a.sets.phenomena.as_deref(),
        a.sets.max_distance,
        pair.as_ref(),
        &a.src_lang,
    )?;
    check_phenomena(&rules, &a.src_lang, !a.sets.no_reorder, quiet)?;
    let reorder = a.sets.reorder(&a.align, a.alignments, !quiet)?;
    if let Some(s) = a.shard.shard {
        check_shard_reorder(s, reorder.as_ref())?;
    }
    let mut protect = Vec::new();
    let prepared = match a.conllu {
        Some(c) => prepare_corpus(&a.src, Trees::Given(c), a.shard.shard, quiet)?,
        None => {
            let settings = a.model.settings(&a.threads, quiet);
            let model = find_model(pair.as_ref().and_then(|p| p.model.as_ref()), &settings)?;
            let trees = Trees::Parse {
                model: &model,
                settings: &settings,
            };
            let prepared = prepare_corpus(&a.src, trees, a.shard.shard, quiet)?;
            protect.push(model);
            prepared
        }
    };
    let opts = ExtractOptions {
        source: a.src,
        target: a.tgt,
        conllu: prepared.conllu,
        trust_conllu: a.trust_conllu,
        languages,
        rules,
        out: a.out,
        controls: a.controls.options(),
        reorder,
        protect,
        shard: prepared.shard,
    };
    let start = Instant::now();
    let report = run_extract(&opts)?;
    if !quiet {
        let c = &report.corpus;
        if c.normalised_lines > 0 {
            eprintln!(
                "ldd-sets: {} of {} trees matched their corpus line only after normalisation \
                 (tokenizer escapes, Unicode, case; docs/usage.md, \"Bring your own parse\")",
                c.normalised_lines, c.lines
            );
        }
        if c.unchecked_lines > 0 {
            eprintln!(
                "ldd-sets: --trust-conllu: {} trees were not checked against their corpus line",
                c.unchecked_lines
            );
        }
        print!(
            "{}",
            printer::extract::extract_summary(&opts, &report, start.elapsed().as_secs_f64())
        );
    }
    Ok(())
}

pub fn run(a: RunArgs) -> Result<()> {
    a.threads.apply()?;
    let quiet = a.quiet.quiet;
    let pair = a.config.pair(&a.pair, quiet)?;
    let rules = pipeline::select_rules(
        a.sets.rules.as_deref(),
        a.sets.phenomena.as_deref(),
        a.sets.max_distance,
        Some(&pair),
        &pair.source,
    )?;
    check_phenomena(&rules, &pair.source, !a.sets.no_reorder, quiet)?;
    let opts = RunOptions {
        rules,
        corpora: a.corpora,
        only: a.only,
        out: a.out,
        controls: a.controls.options(),
        reorder: a.sets.reorder(&a.align, None, !quiet)?,
        parse: a.model.settings(&a.threads, quiet),
        quiet,
        pair,
        shard: a.shard.shard,
    };
    let runs = pipeline::run(&opts, &mut |r| {
        if !quiet {
            println!("\n== {} ==", r.corpus.name);
            print!(
                "{}",
                printer::extract::extract_summary(&r.options, &r.report, r.extract_seconds)
            );
        }
    })?;
    if !quiet {
        print!("{}", printer::extract::run_timing(&runs));
    }
    Ok(())
}

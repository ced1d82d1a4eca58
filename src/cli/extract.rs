//! `extract` and `run`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use ldd_sets::config::Pair;
use ldd_sets::error::Result;
use ldd_sets::parse::{describe, find_model, parse_cached};
use ldd_sets::pipeline::{self, extract as run_extract, ExtractOptions, ExtractReport, RunOptions};
use ldd_sets::read::Languages;

use super::args::{AlignArgs, ConfigArgs, ControlArgs, ModelArgs, QuietArgs, SetArgs, ThreadArgs};

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
    /// Use these word alignments (Pharaoh `i-j`, source UD word index - target token
    /// index, 0-based, one line per corpus line; `ldd-sets align --conllu` writes them)
    /// instead of the built-in aligner.
    #[arg(long, value_name = "FILE")]
    alignments: Option<PathBuf>,
    /// Language pair config naming the UDPipe model [default: SRC-TGT if
    /// config/pairs/SRC-TGT.toml exists].
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
    threads: ThreadArgs,
    #[command(flatten)]
    quiet: QuietArgs,
}

#[derive(Args)]
pub struct RunArgs {
    /// Language pair: config/pairs/<PAIR>.toml (e.g. de-en), or a path to a .toml.
    #[arg(long, value_name = "PAIR")]
    pair: String,
    /// Directory of corpora named <name>.<files>.<lang>[.gz] (see the pair config).
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
    threads: ThreadArgs,
    #[command(flatten)]
    quiet: QuietArgs,
}

/// The pair config named by `--pair`, else `SRC-TGT` if such a config exists.
pub fn optional_pair(config: &Path, pair: Option<&str>, default: &str) -> Result<Option<Pair>> {
    match pair {
        Some(p) => Pair::load(config, p).map(Some),
        None if config
            .join("pairs")
            .join(format!("{default}.toml"))
            .is_file() =>
        {
            Pair::load(config, default).map(Some)
        }
        None => Ok(None),
    }
}

pub fn extract(a: ExtractArgs) -> Result<()> {
    a.threads.apply()?;
    let quiet = a.quiet.quiet;
    let pair_name = format!("{}-{}", a.src_lang, a.tgt_lang);
    let pair = optional_pair(&a.config.config, a.pair.as_deref(), &pair_name)?;
    let rules = pipeline::select_rules(
        a.sets.rules.as_deref(),
        a.sets.phenomena.as_deref(),
        a.sets.max_distance,
        pair.as_ref(),
        &a.src_lang,
    )?;
    let conllu = match a.conllu {
        Some(c) => c,
        None => {
            let settings = a.model.settings(&a.threads, quiet);
            let model = find_model(pair.as_ref().map(|p| &p.model), &settings)?;
            let parsed = parse_cached(&a.src, &model, &settings)?;
            if !quiet {
                eprintln!("ldd-sets: {}", describe(&parsed, &a.src));
            }
            parsed.conllu
        }
    };
    let opts = ExtractOptions {
        source: a.src,
        target: a.tgt,
        conllu,
        languages: Languages {
            source: a.src_lang,
            target: a.tgt_lang,
        },
        rules,
        out: a.out,
        controls: a.controls.options(),
        reorder: a.sets.reorder(&a.align, a.alignments, !quiet)?,
    };
    let start = Instant::now();
    let report = run_extract(&opts)?;
    if !quiet {
        print_summary(&opts, &report, start.elapsed().as_secs_f64());
    }
    Ok(())
}

pub fn run(a: RunArgs) -> Result<()> {
    a.threads.apply()?;
    let quiet = a.quiet.quiet;
    let pair = Pair::load(&a.config.config, &a.pair)?;
    let rules = pipeline::select_rules(
        a.sets.rules.as_deref(),
        a.sets.phenomena.as_deref(),
        a.sets.max_distance,
        Some(&pair),
        &pair.source,
    )?;
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
    };
    let runs = pipeline::run(&opts, &mut |r| {
        if !quiet {
            println!("\n== {} ==", r.corpus.name);
            print_summary(&r.options, &r.report, r.extract_seconds);
        }
    })?;
    if !quiet {
        println!(
            "\ntiming per stage (s):\n{:<24} {:>9} {:>9}",
            "corpus", "parse", "extract"
        );
        for r in runs {
            println!(
                "{:<24} {:>9.2} {:>9.2}",
                r.corpus.name, r.parse_seconds, r.extract_seconds
            );
        }
    }
    Ok(())
}

/// The summary table of one extraction.
fn print_summary(opts: &ExtractOptions, r: &ExtractReport, secs: f64) {
    let max = opts.rules.max_distance;
    println!(
        "{} lines ({} empty, {} source words) in {secs:.2} s; sets in {}",
        r.corpus.lines,
        r.corpus.empty_lines,
        r.corpus.source_words,
        ldd_io::text::shown(&opts.out)
    );
    for (title, prefix) in [
        ("sentences with a pair at distance >= d", "ge"),
        ("sentences with a pair at distance = d", "eq"),
    ] {
        println!("\n{title}:");
        let mut header = format!("{:<24}", "phenomenon");
        for d in 0..=max {
            header.push_str(&format!(" {:>7}", format!("{prefix}{d}")));
        }
        println!("{header}");
        for p in &opts.rules.phenomena {
            let mut row = format!("{:<24}", p.name);
            for d in 0..=max {
                let bucket = format!("{prefix}{d}");
                let n = r
                    .sets
                    .iter()
                    .find(|s| s.phenomenon == p.name && s.bucket == bucket)
                    .map_or(0, |s| s.sentences);
                row.push_str(&format!(" {n:>7}"));
            }
            println!("{row}");
        }
    }
    if let Some(info) = &r.reorder {
        let paper = if info.options.paper_compat {
            ", --paper-compat: distance > K"
        } else {
            ""
        };
        println!(
            "\nsentence pairs at reordering >= K, per measure (* built the sets{paper}; \
             reorder/reorder.tsv has every measure of every line):"
        );
        for m in &info.sizes {
            let cells: String = m
                .buckets
                .iter()
                .zip(&m.lines)
                .map(|(b, n)| format!(" {:>6} {n:<7}", format!("ge{b}")))
                .collect();
            let mark = if m.builds_sets { "*" } else { " " };
            let row = format!(
                "{mark} {:<9} {:<8}{cells}",
                m.measure.name(),
                m.measure.unit()
            );
            println!("{}", row.trim_end());
        }
    }
    if r.text_mismatches > 0 {
        eprintln!(
            "ldd-sets: warning: {} trees have a `# text` comment that differs from their source line; \
             check that --conllu parses --src line by line",
            r.text_mismatches
        );
    }
}

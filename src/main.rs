//! The `ldd-sets` command line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

use ldd_sets::controls::ControlOptions;
use ldd_sets::error::{Error, Result};
use ldd_sets::extract::{extract, ExtractOptions, ExtractReport};
use ldd_sets::fetch::fetch_corpora;
use ldd_sets::manifest::Languages;
use ldd_sets::pairs::Pair;
use ldd_sets::rules::RuleSet;
use ldd_sets::score;

const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  internal error
  2  invalid command line (unknown option, missing argument)
  3  bad input data (line counts differ, malformed CoNLL-U, invalid UTF-8, truncated gzip)
  4  invalid configuration (rules or language-pair TOML, option values, output dir in use)
  5  I/O error (missing file, permission denied, disk full)
  6  missing resource (e.g. a UDPipe model that is not available offline)";

/// Build long-distance-dependency (LDD) challenge sets for machine translation.
///
/// ldd-sets reads a parallel corpus (one sentence per line) and a UD parse of its
/// source side, and writes sub-corpora rich in long-distance dependencies, bucketed
/// by distance, ready for sacreBLEU.
#[derive(Parser)]
#[command(name = "ldd-sets", version, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Extract lexical LDD challenge sets from a parsed parallel corpus.
    ///
    /// Writes OUT/<phenomenon>/{ge0..geN,eq0..eqN}.{SRC,TGT,ids,conllu,marked.SRC},
    /// OUT/manifest.json and OUT/summary.csv, and prints a summary table. The output
    /// directory is replaced as a whole only when the run succeeds.
    #[command(after_help = EXIT_CODES)]
    Extract(ExtractArgs),
    /// Cut a system's translation of the whole corpus into per-set (and per-control)
    /// hypothesis files, by the sets' ids.
    #[command(after_help = EXIT_CODES)]
    Slice(score::SliceArgs),
    /// Score one or more systems on every set, its controls and the whole corpus
    /// (BLEU, chrF; RIBES for reorder sets), with ranks and distance trends.
    #[command(after_help = EXIT_CODES)]
    Score(score::ScoreArgs),
    /// Download a language pair's corpora (config/pairs/<PAIR>.toml) and normalise them
    /// into DIR/<name>.<pair>.<lang>.gz.
    #[command(after_help = EXIT_CODES)]
    Corpora(CorporaArgs),
}

#[derive(Args)]
struct CorporaArgs {
    /// Language pair (config/pairs/<PAIR>.toml), or a path to a pair .toml file.
    #[arg(long, value_name = "PAIR")]
    pair: String,
    /// Directory to write the corpora to.
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// Directory holding pairs/ and phenomena.toml.
    #[arg(long, value_name = "DIR", default_value = "config")]
    config: PathBuf,
    /// Print nothing but errors.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
struct ExtractArgs {
    /// Source side of the corpus, one sentence per line (plain or .gz).
    #[arg(long, value_name = "FILE")]
    src: PathBuf,
    /// Target side, line-aligned with --src (plain or .gz).
    #[arg(long, value_name = "FILE")]
    tgt: PathBuf,
    /// Source language code (e.g. de); picks the default phenomena and names files.
    #[arg(long, value_name = "LANG")]
    src_lang: String,
    /// Target language code (e.g. en).
    #[arg(long, value_name = "LANG")]
    tgt_lang: String,
    /// UD parse of the source side, one tree per corpus line, in order (plain or .gz).
    #[arg(long, value_name = "FILE")]
    conllu: PathBuf,
    /// Output directory (created; a previous ldd-sets output there is replaced).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Rules file defining the phenomena [default: the built-in config/phenomena.toml].
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// Phenomena to run, comma-separated [default: those whose `languages` include
    /// --src-lang]. Naming a phenomenon runs it for any language.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    phenomena: Option<Vec<String>>,
    /// Largest distance bucket: ge0..geN and eq0..eqN [default: the rules' buckets.max, 5].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    max_distance: Option<u32>,
    /// Worker threads [default: all cores]. Output does not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Length-matched control corpora per set (0: none). The paper used 100.
    #[arg(long, value_name = "K", default_value_t = 10)]
    controls: usize,
    /// Seed for control sampling; the same seed gives byte-identical outputs.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Let a set's own sentences be drawn as its controls.
    #[arg(long)]
    controls_include_set: bool,
    /// Print nothing but errors.
    #[arg(long, short)]
    quiet: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let res = match cli.command {
        Command::Extract(a) => run_extract(a),
        Command::Slice(a) => score::run_slice(&a),
        Command::Score(a) => score::run_score(&a),
        Command::Corpora(a) => Pair::load(&a.config, &a.pair)
            .and_then(|p| fetch_corpora(&p, &a.dir, a.quiet))
            .map(|_| ()),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ldd-sets: error: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}

fn set_threads(threads: Option<usize>) -> Result<()> {
    if let Some(n) = threads {
        if n == 0 {
            return Err(Error::Config("--threads must be at least 1".into()));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| Error::Config(format!("--threads: {e}")))?;
    }
    Ok(())
}

fn load_rules(path: Option<&PathBuf>) -> Result<RuleSet> {
    match path {
        Some(p) => RuleSet::load(p),
        None => RuleSet::builtin(),
    }
}

fn run_extract(a: ExtractArgs) -> Result<()> {
    set_threads(a.threads)?;
    let mut rules = load_rules(a.rules.as_ref())?.select(a.phenomena.as_deref(), &a.src_lang)?;
    if let Some(m) = a.max_distance {
        rules.max_distance = m;
    }
    let opts = ExtractOptions {
        source: a.src,
        target: a.tgt,
        conllu: a.conllu,
        languages: Languages {
            source: a.src_lang,
            target: a.tgt_lang,
        },
        rules,
        out: a.out,
        controls: ControlOptions {
            count: a.controls,
            seed: a.seed,
            allow_set_members: a.controls_include_set,
            ..ControlOptions::default()
        },
    };
    let start = Instant::now();
    let report = extract(&opts)?;
    if !a.quiet {
        print_summary(&opts, &report, start.elapsed().as_secs_f64());
    }
    Ok(())
}

fn print_summary(opts: &ExtractOptions, r: &ExtractReport, secs: f64) {
    let max = opts.rules.max_distance;
    println!(
        "{} lines ({} empty, {} source words) read in {secs:.2} s; sets in {}",
        r.corpus.lines,
        r.corpus.empty_lines,
        r.corpus.source_words,
        opts.out.display()
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
    if r.text_mismatches > 0 {
        eprintln!(
            "ldd-sets: warning: {} trees have a `# text` comment that differs from their source line; \
             check that --conllu parses --src line by line",
            r.text_mismatches
        );
    }
}

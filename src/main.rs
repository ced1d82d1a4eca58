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
use ldd_sets::output::write_file_atomic;
use ldd_sets::pairs::Pair;
use ldd_sets::parse::{describe, find_model, parse_cached, ParseSettings};
use ldd_sets::reorder::{Direction, ReorderOptions};
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
/// ldd-sets parses the source side of a parallel corpus (one sentence per line) into
/// Universal Dependencies trees with UDPipe, and writes sub-corpora rich in long-distance
/// dependencies — lexical (reflexive verbs, particle verbs, preposition stranding, or your
/// own rules) and reordering (word alignment) — bucketed by distance, with length-matched
/// controls, ready for sacreBLEU; `score` then scores systems on every set.
///
/// Typical use: `ldd-sets run --pair de-en --corpora DIR --out OUT` (what `make extract`
/// does), or `ldd-sets extract` on one corpus, then `ldd-sets score --sets OUT --hyp FILE`.
#[derive(Parser)]
#[command(name = "ldd-sets", version, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Extract LDD challenge sets from a parallel corpus: lexical sets from the source
    /// trees (parsed with UDPipe unless --conllu is given) and reordering sets from word
    /// alignment, each with length-matched controls.
    ///
    /// Writes OUT/<phenomenon>/{ge0..geN,eq0..eqN}.{SRC,TGT,ids,conllu,marked.SRC},
    /// OUT/reorder/{ge5,ge10,..}.*, OUT/<phenomenon>/controls/, OUT/manifest.json and
    /// OUT/summary.csv, and prints a summary table. The output directory is replaced as a
    /// whole only when the run succeeds.
    #[command(after_help = EXIT_CODES)]
    Extract(ExtractArgs),
    /// Run the whole pipeline on every corpus of a language pair found in a directory:
    /// parse (cached), extract, controls. `make extract LANG=de-en` calls this.
    #[command(after_help = EXIT_CODES)]
    Run(RunArgs),
    /// Parse the source side of a corpus with UDPipe into CoNLL-U, one tree per line
    /// (lines UDPipe splits into several sentences are merged). Uses the parse cache.
    #[command(after_help = EXIT_CODES)]
    Parse(ParseCmdArgs),
    /// Cut a system's translation of the whole corpus into per-set (and per-control)
    /// hypothesis files, by the sets' ids.
    #[command(after_help = EXIT_CODES)]
    Slice(score::SliceArgs),
    /// Score one or more systems on every set, its controls and the whole corpus
    /// (BLEU, chrF; RIBES for reorder sets), with ranks and distance trends.
    #[command(after_help = EXIT_CODES)]
    Score(score::ScoreArgs),
    /// Word-align a parallel corpus with the built-in aligner (fast_align's model, -d -o -v)
    /// and write Pharaoh `i-j` alignments, one line per corpus line.
    #[command(after_help = EXIT_CODES)]
    Align(AlignArgs),
    /// Precision and recall of the sets of one run (e.g. from a UDPipe parse) against
    /// those of another (e.g. from gold trees) of the same corpus, by line ids.
    #[command(after_help = EXIT_CODES)]
    Compare(CompareArgs),
    /// Download a language pair's corpora (config/pairs/<PAIR>.toml) and normalise them
    /// into DIR/<name>.<pair>.<lang>.gz.
    #[command(after_help = EXIT_CODES)]
    Corpora(CorporaArgs),
}

/// Options every pipeline command takes.
#[derive(Args)]
struct Common {
    /// Worker threads [default: all cores]. Output does not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print nothing but errors (no progress bar, no summary).
    #[arg(long, short)]
    quiet: bool,
}

/// Options shared by `extract` and `run`: which sets to build.
#[derive(Args)]
struct SetArgs {
    /// Rules file defining the phenomena [default: the built-in config/phenomena.toml].
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// Phenomena to run, comma-separated [default: those whose `languages` include the
    /// source language]. Naming a phenomenon runs it for any language.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    phenomena: Option<Vec<String>>,
    /// Largest distance bucket: ge0..geN and eq0..eqN [default: the rules' buckets.max, 5].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    max_distance: Option<u32>,
    /// Length-matched control corpora per set (0: none). The paper used 100.
    #[arg(long, value_name = "K", default_value_t = 10)]
    controls: usize,
    /// Seed for control sampling; the same seed gives byte-identical outputs.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Let a set's own sentences be drawn as its controls.
    #[arg(long)]
    controls_include_set: bool,
    /// Do not build reordering sets (no word alignment).
    #[arg(long)]
    no_reorder: bool,
    /// Minimum alignment distances of the reorder/geK sets.
    #[arg(
        long,
        value_name = "K,..",
        value_delimiter = ',',
        default_value = "5,10,15,20"
    )]
    reorder_buckets: Vec<u32>,
    /// Alignment used to detect reordering: intersection (most precise, default),
    /// reverse (the paper's fast_align -r), forward, union, grow-diag-final-and.
    #[arg(long, value_name = "HOW", value_enum, default_value_t = Direction::Intersection)]
    align_direction: Direction,
    /// EM iterations of the aligner.
    #[arg(long, value_name = "N", default_value_t = 5)]
    align_iterations: u32,
    /// Extra parallel data for training the aligner: files PREFIX.SRC[.gz] and
    /// PREFIX.TGT[.gz] (repeatable). A small test set alone aligns poorly.
    #[arg(long, value_name = "PREFIX")]
    align_train: Vec<PathBuf>,
    /// Load trained aligner models PREFIX.fwd.ldda / PREFIX.rev.ldda instead of training.
    #[arg(long, value_name = "PREFIX")]
    align_model: Option<PathBuf>,
    /// Save the trained aligner models as PREFIX.fwd.ldda / PREFIX.rev.ldda.
    #[arg(long, value_name = "PREFIX")]
    save_align_model: Option<PathBuf>,
    /// The target side is tokenized already: split it on whitespace for alignment.
    #[arg(long)]
    pretokenized: bool,
}

/// Options of the parse stage (used when no --conllu is given).
#[derive(Args)]
struct ParseArgs {
    /// UDPipe model file [default: the language pair's model, see --pair].
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// Directory of UDPipe models [default: $LDD_SETS_MODELS, else ~/.cache/ldd-sets/models].
    #[arg(long, value_name = "DIR")]
    models: Option<PathBuf>,
    /// Parse cache directory [default: $LDD_SETS_CACHE, else ~/.cache/ldd-sets/parses].
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Never download a model; fail with advice instead.
    #[arg(long)]
    offline: bool,
    /// Directory holding pairs/*.toml.
    #[arg(long, value_name = "DIR", default_value = "config")]
    config: PathBuf,
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
    /// Without it, the source is parsed with UDPipe (cached).
    #[arg(long, value_name = "FILE")]
    conllu: Option<PathBuf>,
    /// Use these word alignments (Pharaoh `i-j`, source UD word index - target token
    /// index, 0-based, one line per corpus line) instead of the built-in aligner.
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
    parse: ParseArgs,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct RunArgs {
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
    parse: ParseArgs,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct ParseCmdArgs {
    /// Source side of the corpus, one sentence per line (plain or .gz).
    #[arg(long, value_name = "FILE")]
    src: PathBuf,
    /// Where to write the CoNLL-U (gzip if it ends in .gz), one tree per line.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Language pair config naming the UDPipe model (if no --model).
    #[arg(long, value_name = "PAIR")]
    pair: Option<String>,
    #[command(flatten)]
    parse: ParseArgs,
    /// Worker threads [default: all cores]. Output does not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// No progress bar or messages.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
struct AlignArgs {
    /// Source side, one sentence per line (plain or .gz).
    #[arg(long, value_name = "FILE")]
    src: PathBuf,
    /// Target side, line-aligned with --src (plain or .gz).
    #[arg(long, value_name = "FILE")]
    tgt: PathBuf,
    /// Source language code (names the --align-train files).
    #[arg(long, value_name = "LANG", default_value = "src")]
    src_lang: String,
    /// Target language code.
    #[arg(long, value_name = "LANG", default_value = "tgt")]
    tgt_lang: String,
    /// Where to write the alignments (Pharaoh, source index - target index, 0-based).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// forward, reverse (fast_align -r), intersection, union, grow-diag-final-and.
    #[arg(long, value_name = "HOW", value_enum, default_value_t = Direction::GrowDiagFinalAnd)]
    direction: Direction,
    /// EM iterations.
    #[arg(long, value_name = "N", default_value_t = 5)]
    iterations: u32,
    /// Extra training data: PREFIX.SRC_LANG[.gz] and PREFIX.TGT_LANG[.gz] (repeatable).
    #[arg(long, value_name = "PREFIX")]
    align_train: Vec<PathBuf>,
    /// Load trained models PREFIX.fwd.ldda / PREFIX.rev.ldda instead of training.
    #[arg(long, value_name = "PREFIX")]
    model: Option<PathBuf>,
    /// Save the trained models as PREFIX.fwd.ldda / PREFIX.rev.ldda.
    #[arg(long, value_name = "PREFIX")]
    save_model: Option<PathBuf>,
    /// Both sides are tokenized already: split on whitespace (else the aligner's
    /// Unicode-aware tokenizer splits off punctuation).
    #[arg(long)]
    pretokenized: bool,
    /// Worker threads [default: all cores]. Output does not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

#[derive(Args)]
struct CompareArgs {
    /// Output directory of the reference run (e.g. extracted from gold trees).
    #[arg(long, value_name = "DIR")]
    gold: PathBuf,
    /// Output directory of the run to evaluate.
    #[arg(long, value_name = "DIR")]
    pred: PathBuf,
    /// Set to compare in every phenomenon.
    #[arg(long, value_name = "BUCKET", default_value = "ge1")]
    bucket: String,
}

#[derive(Args)]
struct CorporaArgs {
    /// Language pair (config/pairs/<PAIR>.toml), or a path to a pair .toml file.
    #[arg(long, value_name = "PAIR")]
    pair: String,
    /// Directory to write the corpora to.
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// Directory holding pairs/*.toml.
    #[arg(long, value_name = "DIR", default_value = "config")]
    config: PathBuf,
    /// Print nothing but errors.
    #[arg(long, short)]
    quiet: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let res = match cli.command {
        Command::Extract(a) => run_extract(a),
        Command::Run(a) => run_pipeline(a),
        Command::Parse(a) => run_parse(a),
        Command::Slice(a) => score::run_slice(&a),
        Command::Score(a) => score::run_score(&a),
        Command::Compare(a) => run_compare(&a),
        Command::Align(a) => run_align(&a),
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

fn parse_settings(p: &ParseArgs, threads: Option<usize>, quiet: bool) -> ParseSettings {
    ParseSettings {
        model: p.model.clone(),
        models_dir: p.models.clone(),
        cache_dir: p.cache.clone(),
        offline: p.offline,
        threads: threads.unwrap_or(0),
        quiet,
    }
}

/// The pair config named by `--pair`, else `SRC-TGT` if such a config exists.
fn optional_pair(
    config: &std::path::Path,
    pair: Option<&str>,
    default: &str,
) -> Result<Option<Pair>> {
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

/// Rules (from --rules, else the pair's rules, else built in), selected and bounded.
fn build_rules(a: &SetArgs, pair: Option<&Pair>, src_lang: &str) -> Result<RuleSet> {
    let file = a
        .rules
        .clone()
        .or_else(|| pair.and_then(|p| p.rules.clone()));
    let rules = match file {
        Some(p) => RuleSet::load(&p)?,
        None => RuleSet::builtin()?,
    };
    let only = a
        .phenomena
        .clone()
        .or_else(|| pair.and_then(|p| p.phenomena.clone()));
    let mut rules = rules.select(only.as_deref(), src_lang)?;
    if let Some(m) = a.max_distance {
        rules.max_distance = m;
    }
    Ok(rules)
}

fn control_options(a: &SetArgs) -> ControlOptions {
    ControlOptions {
        count: a.controls,
        seed: a.seed,
        allow_set_members: a.controls_include_set,
        ..ControlOptions::default()
    }
}

fn reorder_options(
    a: &SetArgs,
    alignments: Option<PathBuf>,
    quiet: bool,
) -> Option<ReorderOptions> {
    (!a.no_reorder).then(|| ReorderOptions {
        buckets: a.reorder_buckets.clone(),
        direction: a.align_direction,
        iterations: a.align_iterations,
        train: a.align_train.clone(),
        model: a.align_model.clone(),
        save_model: a.save_align_model.clone(),
        alignments,
        pretokenized: a.pretokenized,
        progress: !quiet,
    })
}

fn run_extract(a: ExtractArgs) -> Result<()> {
    set_threads(a.common.threads)?;
    let pair_name = format!("{}-{}", a.src_lang, a.tgt_lang);
    let pair = optional_pair(&a.parse.config, a.pair.as_deref(), &pair_name)?;
    let rules = build_rules(&a.sets, pair.as_ref(), &a.src_lang)?;
    let conllu = match a.conllu {
        Some(c) => c,
        None => {
            let settings = parse_settings(&a.parse, a.common.threads, a.common.quiet);
            let model = find_model(pair.as_ref().map(|p| &p.model), &settings)?;
            let parsed = parse_cached(&a.src, &model, &settings)?;
            if !a.common.quiet {
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
        controls: control_options(&a.sets),
        reorder: reorder_options(&a.sets, a.alignments, a.common.quiet),
    };
    let start = Instant::now();
    let report = extract(&opts)?;
    if !a.common.quiet {
        print_summary(&opts, &report, start.elapsed().as_secs_f64());
    }
    Ok(())
}

fn run_pipeline(a: RunArgs) -> Result<()> {
    set_threads(a.common.threads)?;
    let pair = Pair::load(&a.parse.config, &a.pair)?;
    let rules = build_rules(&a.sets, Some(&pair), &pair.source)?;
    let mut corpora = pair.discover(&a.corpora)?;
    let all_corpora = corpora.clone();
    if let Some(only) = &a.only {
        for name in only {
            if !corpora.iter().any(|c| &c.name == name) {
                return Err(Error::Config(format!(
                    "--only: no corpus `{name}` in {} (found: {})",
                    a.corpora.display(),
                    corpora
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        corpora.retain(|c| only.contains(&c.name));
    }
    let settings = parse_settings(&a.parse, a.common.threads, a.common.quiet);
    let model = find_model(Some(&pair.model), &settings)?;
    let mut timings = Vec::new();
    for c in &corpora {
        if !a.common.quiet {
            eprintln!(
                "ldd-sets: corpus {} ({} -> {})",
                c.name,
                c.source.display(),
                c.target.display()
            );
        }
        let parsed = parse_cached(&c.source, &model, &settings)?;
        if !a.common.quiet {
            eprintln!("ldd-sets: {}", describe(&parsed, &c.source));
        }
        let opts = ExtractOptions {
            source: c.source.clone(),
            target: c.target.clone(),
            conllu: parsed.conllu.clone(),
            languages: Languages {
                source: pair.source.clone(),
                target: pair.target.clone(),
            },
            rules: rules.clone(),
            out: a.out.join(&c.name),
            controls: control_options(&a.sets),
            reorder: reorder_options(&a.sets, None, a.common.quiet).map(|mut r| {
                if r.model.is_none() {
                    // Train the aligner on the pair's other corpora too: a small test
                    // set alone aligns poorly (the paper used a large training corpus).
                    r.train.extend(
                        all_corpora
                            .iter()
                            .filter(|o| o.name != c.name)
                            .map(|o| a.corpora.join(format!("{}.{}", o.name, pair.files))),
                    );
                }
                r
            }),
        };
        let start = Instant::now();
        let report = extract(&opts)?;
        let secs = start.elapsed().as_secs_f64();
        if !a.common.quiet {
            println!("\n== {} ==", c.name);
            print_summary(&opts, &report, secs);
        }
        timings.push((c.name.clone(), parsed.seconds, secs));
    }
    if !a.common.quiet {
        println!(
            "\ntiming per stage (s):\n{:<24} {:>9} {:>9}",
            "corpus", "parse", "extract"
        );
        for (name, p, e) in timings {
            println!("{name:<24} {p:>9.2} {e:>9.2}");
        }
    }
    Ok(())
}

fn run_align(a: &AlignArgs) -> Result<()> {
    set_threads(a.threads)?;
    let mut corpus = ldd_align::Corpus::new();
    ldd_sets::reorder::push_files(&mut corpus, &a.src, &a.tgt, a.pretokenized)?;
    let opts = ReorderOptions {
        direction: a.direction,
        iterations: a.iterations,
        train: a.align_train.clone(),
        model: a.model.clone(),
        save_model: a.save_model.clone(),
        pretokenized: a.pretokenized,
        ..ReorderOptions::default()
    };
    let (alignments, _) = ldd_sets::reorder::align(&corpus, &opts, (&a.src_lang, &a.tgt_lang))?;
    write_file_atomic(&a.out, |f| {
        use std::io::Write;
        let mut w = std::io::BufWriter::new(f);
        for al in &alignments {
            writeln!(w, "{}", ldd_align::pharaoh::format_line(al))
                .map_err(|e| Error::io(&a.out, e))?;
        }
        w.flush().map_err(|e| Error::io(&a.out, e))
    })
}

fn run_compare(a: &CompareArgs) -> Result<()> {
    let rows = ldd_sets::compare::compare(&a.gold, &a.pred, &a.bucket)?;
    println!(
        "{:<24} {:<6} {:>6} {:>6} {:>6} {:>9} {:>9} {:>6}",
        "phenomenon", "set", "gold", "pred", "both", "precision", "recall", "F1"
    );
    for r in &rows {
        println!(
            "{:<24} {:<6} {:>6} {:>6} {:>6} {:>9.3} {:>9.3} {:>6.3}",
            r.phenomenon,
            r.bucket,
            r.gold,
            r.predicted,
            r.both,
            r.precision,
            r.recall,
            r.f1()
        );
    }
    Ok(())
}

fn run_parse(a: ParseCmdArgs) -> Result<()> {
    let settings = parse_settings(&a.parse, a.threads, a.quiet);
    let pair = match &a.pair {
        Some(p) => Some(Pair::load(&a.parse.config, p)?),
        None => None,
    };
    let model = find_model(pair.as_ref().map(|p| &p.model), &settings)?;
    let parsed = parse_cached(&a.src, &model, &settings)?;
    if !a.quiet {
        eprintln!("ldd-sets: {}", describe(&parsed, &a.src));
    }
    copy_conllu(&parsed.conllu, &a.out)
}

/// Writes the cached gzip CoNLL-U to `out` (decompressed unless `out` ends in .gz),
/// via a temporary file renamed into place.
fn copy_conllu(cached: &std::path::Path, out: &std::path::Path) -> Result<()> {
    let mut input = std::fs::File::open(cached).map_err(|e| Error::io(cached, e))?;
    write_file_atomic(out, |f| {
        let res = if out.extension().is_some_and(|e| e == "gz") {
            std::io::copy(&mut input, f)
        } else {
            std::io::copy(&mut flate2::read::MultiGzDecoder::new(input), f)
        };
        res.map(|_| ()).map_err(|e| Error::io(cached, e))
    })
}

fn print_summary(opts: &ExtractOptions, r: &ExtractReport, secs: f64) {
    let max = opts.rules.max_distance;
    println!(
        "{} lines ({} empty, {} source words) in {secs:.2} s; sets in {}",
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
    let reorder: Vec<_> = r.sets.iter().filter(|s| s.kind == "reorder").collect();
    if !reorder.is_empty() {
        println!("\nsentence pairs with an aligned word pair at distance >= d:");
        let head: String = reorder
            .iter()
            .map(|s| format!(" {:>7}", s.bucket))
            .collect();
        let row: String = reorder
            .iter()
            .map(|s| format!(" {:>7}", s.sentences))
            .collect();
        println!("{:<24}{head}\n{:<24}{row}", "phenomenon", "reorder");
    }
    if r.text_mismatches > 0 {
        eprintln!(
            "ldd-sets: warning: {} trees have a `# text` comment that differs from their source line; \
             check that --conllu parses --src line by line",
            r.text_mismatches
        );
    }
}

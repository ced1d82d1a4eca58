//! The `ldd-sets` command line, in two stages as in ripgrep: clap parses into each
//! subcommand's argument struct and the option groups of [`args`] (what was typed); [`plan`]
//! resolves them, once per command, into a typed plan holding the library's options; the
//! command's handler (one module per command here) then calls the library with the plan
//! and hands what it returns to the printer. No clap type reaches the library. [`record`]
//! is the parser's inverse: the command line every output records.
//!
//! In short (what enters → what leaves): flags in two stages, as ripgrep's `LowArgs` and
//! `HiArgs`: what was typed — each command's argument struct in `args/` (`args/score.rs`,
//! ...), below the plan and its handler (`score.rs`, ...) and the option groups defined
//! once (`args.rs`: threads, quiet, alignment, controls, models, sets) and flattened into
//! every subcommand — then one typed plan per command (`plan/`, one file per command:
//! `plan::score(&ScoreArgs)` → `ScorePlan` holding the library's `ScoreOptions`, and so
//! on), the only place that builds a library's options (`tests/architecture.rs` checks that
//! no other file of `cli/` writes an `...Options {` literal), so the library does not
//! depend on clap and flags are checked before any stage runs; each handler calls its plan
//! function, then the library, then the printer: `score` is `plan::score` →
//! `read::sets::load` → `score::score_sets` → `score::merge::with_earlier` →
//! `score::render::write_outputs` → `printer::scores`, so each library function is handed
//! only what it uses; `record.rs`, the parser's inverse, writes the command line that every
//! output records (`tool.command` in `manifest.json`, `commands` in `scores.json`), tested
//! to parse back to the same values for every option

mod align;
mod args;
mod contrast;
mod corpora;
mod detection;
mod extract;
mod guard;
mod judge;
mod languages;
mod merge;
mod mqm;
mod parse;
mod permute;
mod plan;
mod record;
mod report;
mod score;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use ldd_sets::error::Result;
use ldd_sets::printer;

use args::Common;

const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  internal error
  2  invalid command line (unknown option, missing argument)
  3  bad input data (line counts differ, malformed CoNLL-U, invalid UTF-8, truncated gzip)
  4  invalid configuration (rules or language-pair TOML, option values, output dir not ours)
  5  I/O error (missing file, permission denied, disk full)
  6  missing resource (e.g. a UDPipe model that is not available offline, or a download
     that fails verification: an HTML page, a wrong SHA-256, a file UDPipe cannot load)
  7  output in use by another ldd-sets process
  128+N  stopped by signal N, after removing its temporary files and lock (130 for Ctrl-C,
     131 for Ctrl-\\, 143 for SIGTERM)";

/// Build long-distance-dependency (LDD) challenge sets for machine translation.
///
/// ldd-sets parses the source side of a parallel corpus (one sentence per line) into
/// Universal Dependencies trees with UDPipe, and writes sub-corpora rich in long-distance
/// dependencies — lexical (reflexive verbs, particle verbs, preposition stranding, or your
/// own rules) and reordering (word alignment) — bucketed by distance, with length-matched
/// controls, ready for sacreBLEU; `score` then scores systems on every set.
///
/// Typical use: `ldd-sets run --pair de-en --corpora DIR --out OUT` (what `make extract`
/// does; any pair whose source language has a UDPipe 2.5 model works without a config, see
/// `ldd-sets languages`), or `ldd-sets extract` on one corpus, then
/// `ldd-sets score --sets OUT --hyp FILE` and `ldd-sets report --sets OUT`. `make demo` runs
/// it all on a bundled sample.
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
    /// Writes OUT/<phenomenon>/{ge0..geN,eq0..eqN}.{SRC,TGT,ids,conllu,marked.SRC,locus.tsv},
    /// OUT/reorder/{ge7,ge9,..}.* (sets of the --reorder-measure), OUT/reorder/reorder.tsv
    /// (every reordering measure of every line), OUT/reorder/alignments.txt,
    /// OUT/<phenomenon>/controls/, OUT/manifest.json and OUT/summary.csv, and prints a
    /// summary table. The output directory is replaced as a
    /// whole only when the run succeeds.
    #[command(after_help = EXIT_CODES)]
    Extract(args::extract::ExtractArgs),
    /// Run the whole pipeline on every corpus of a language pair found in a directory:
    /// parse (cached), extract, controls. `make extract LANG=de-en` calls this.
    #[command(after_help = EXIT_CODES)]
    Run(args::extract::RunArgs),
    /// Parse the source side of a corpus with UDPipe into CoNLL-U, one tree per line
    /// (lines UDPipe splits into several sentences are merged). Uses the parse cache.
    #[command(after_help = EXIT_CODES)]
    Parse(args::parse::ParseArgs),
    /// Join the outputs of the N shards of a sharded run (`extract --shard I/N` or
    /// `run --shard I/N`) into the output of an unsharded run: checks that the shards come
    /// from the same inputs and settings and cover the corpus exactly once, concatenates the
    /// sets in corpus order, draws the length-matched controls over the whole corpus, and
    /// assembles the whole corpus's parse in the parse cache. Byte-identical to an unsharded
    /// run with the same seed, except the manifest's `shard` record.
    #[command(after_help = EXIT_CODES)]
    Merge(args::merge::MergeArgs),
    /// Cut a system's translation of the whole corpus into per-set (and per-control)
    /// hypothesis files, by the sets' ids.
    #[command(after_help = EXIT_CODES)]
    Slice(args::score::SliceArgs),
    /// Score one or more systems on every set, its controls and the whole corpus
    /// (BLEU, chrF; RIBES for reorder sets; any segment-level metric with --seg-scores),
    /// with bootstrap confidence intervals, paired tests against the first system, the
    /// set-vs-controls difference and its test, ranks, distance trends and signatures.
    #[command(after_help = EXIT_CODES)]
    Score(args::score::ScoreArgs),
    /// Write contrastive pairs from the sets: for every locus whose reference words the
    /// aligner found, variants of the reference that break exactly the long-distance
    /// relation (the dependent's words dropped, a particle moved next to its verb, a
    /// reflexive pronoun of another person or number, two crossing words swapped), as
    /// JSON lines, plain line-aligned files an NMT toolkit can score, and ACES rows.
    #[command(after_help = EXIT_CODES)]
    Contrast(args::contrast::ContrastArgs),
    /// Write annotation sheets: a seeded sample of loci spread over phenomena and distances
    /// (the paper's d = 1, 2, 5), as a detection sheet (does the marked pair form the
    /// phenomenon?) and a translation sheet (does each blinded system's output convey it?),
    /// CSV for spreadsheets and one self-contained HTML form that saves the same CSV; the
    /// key that unblinds the systems is written apart.
    #[command(after_help = EXIT_CODES)]
    Sheets(args::judge::SheetsArgs),
    /// Count filled annotation sheets (one file per annotator): the share judged correct per
    /// phenomenon, distance and system with Wilson intervals, Cohen's and Fleiss' kappa,
    /// raw agreement, the disagreements, and how far locus accuracy agrees with the
    /// annotators' majority (with the key).
    #[command(after_help = EXIT_CODES)]
    Tally(args::judge::TallyArgs),
    /// Human judgements of every locus and every content word from MQM annotations (the
    /// WMT format), and how far the locus judgement agrees with them: the 2×2 table,
    /// coverage, MCC, Cohen's kappa, a permutation test within items, and per system the
    /// automatic and human accuracies beside MQM's score with Spearman's and Kendall's
    /// correlations. Segments are matched to corpus lines by source text. Writes mqm.json,
    /// mqm.csv and mqm.disagreements.tsv (see docs/evaluation.md, "Locus judgements against
    /// MQM").
    #[command(after_help = EXIT_CODES)]
    Mqm(args::mqm::MqmArgs),
    /// Write one self-contained HTML report of a sets directory (and its scores.json when
    /// scored): inputs and settings, set sizes, distance distributions, scores against
    /// distance with the controls' band and significance marks, and an examples browser
    /// with the marked words. Charts are inline SVG; the page loads nothing from anywhere.
    /// --format latex writes the main tables as LaTeX tabulars instead.
    #[command(after_help = EXIT_CODES)]
    Report(args::report::ReportArgs),
    /// Word-align a parallel corpus with the built-in aligner (by default the HMM trained by
    /// agreement of both directions; --align-model-type fast-align: fast_align's model,
    /// -d -o -v) and write Pharaoh `i-j` alignments, one line per corpus line. With --conllu, the
    /// source tokens are the UD words of the parse — exactly what `extract --alignments`
    /// expects. With --gold, print the alignment error rate, precision and recall against
    /// hand-made alignments of the corpus.
    #[command(after_help = EXIT_CODES)]
    Align(args::align::AlignCmdArgs),
    /// Precision and recall of the sets of one run (e.g. from a UDPipe parse) against
    /// those of another (e.g. from gold trees) of the same corpus, by line ids.
    #[command(after_help = EXIT_CODES)]
    Compare(args::score::CompareArgs),
    /// How good are the sets with this parser? Parses the text of a gold treebank's
    /// sentences with the model (cached), runs every phenomenon on both trees of each
    /// sentence (the rules measured on the parse; the reference rules, by default the
    /// paper's, on the gold trees), and prints per phenomenon the gold and found instances,
    /// precision, recall and F1 with intervals, the share of correct instances in the right
    /// distance bucket, and the misses and false hits with both trees' words. Instances are
    /// keyed by line, dependent and head word. See docs/rules.md, "How good are the sets of
    /// a parser?".
    #[command(after_help = EXIT_CODES)]
    CheckDetection(args::detection::CheckDetectionArgs),
    /// Download a language pair's corpora (config/pairs/<PAIR>.toml, or for a pair without
    /// a config OPUS Books) and normalise them into DIR/<name>.<pair>.<lang>.gz.
    #[command(after_help = EXIT_CODES)]
    Corpora(args::corpora::CorporaArgs),
    /// Make the data of the method's locality-bias experiment: the pairs whose source has
    /// exactly N tokens (default 18), split into train, dev and test, in three settings —
    /// REGULAR, PERMUTED (every source moved by one fixed permutation σ) and REVERSED — that
    /// differ only in the source's token order. Train one system on each and compare them:
    /// one without a locality bias scores the same on all three (see docs/permute.md).
    #[command(after_help = EXIT_CODES)]
    Permute(args::permute::PermuteArgs),
    /// List the built-in registry of UDPipe 2.5 models: languages, ISO codes, models, and
    /// the phenomena that run by default for each source language.
    #[command(after_help = EXIT_CODES)]
    Languages(args::languages::LanguagesArgs),
}

/// Parses the command line, runs the command and turns its error into an exit code.
pub fn main() -> ExitCode {
    let mut parser = Cli::command();
    let argv = args::score::sacrebleu_flags(std::env::args_os());
    let matches = parser
        .try_get_matches_from_mut(argv.clone())
        .unwrap_or_else(|e| match args::score::sacrebleu_habit(&argv) {
            // clap's message for a value that is not UTF-8 names no option: this one does.
            _ if e.kind() == clap::error::ErrorKind::InvalidUtf8 => {
                let Some((flag, value)) = record::non_utf8_word(&argv) else {
                    e.exit()
                };
                let e = ldd_sets::error::Error::Config(record::non_utf8_message(&flag, &value));
                printer::say(&printer::error(&e));
                std::process::exit(2)
            }
            Some(hint) if e.use_stderr() => {
                printer::say(&printer::scores::sacrebleu_habit(&hint));
                std::process::exit(2)
            }
            _ => e.exit(),
        });
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut parser).exit());
    ldd_io::message::set_sink(printer::say);
    if let Some((flag, value)) = record::non_utf8(&parser, &matches) {
        let e = ldd_sets::error::Error::Config(format!(
            "{flag} {value}: not UTF-8 text (\u{fffd} marks the bytes that are not); ldd-sets records \
             the paths it reads as text in its outputs and in the command line they carry: \
             rename the file, or give it through a link with a UTF-8 name"
        ));
        printer::say(&printer::error(&e));
        return ExitCode::from(e.exit_code() as u8);
    }
    record::note(&parser, &matches);
    guard::note_inputs(&parser, &matches);
    ldd_align::return_freed_memory();
    if let Err(e) = ldd_io::cleanup::install_signal_handlers() {
        printer::say(&printer::no_interrupt_handling(&e));
    }
    let res = setup(&cli.command)
        .and_then(|()| guard::check_outputs(&parser, &matches))
        .and_then(|()| run(cli.command));
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            printer::say(&printer::error(&e));
            ExitCode::from(e.exit_code() as u8)
        }
    }
}

/// Sizes the thread pool and notes the command's inputs ([`args::Common`]).
fn setup(command: &Command) -> Result<()> {
    let common = common(command);
    if let Some(t) = common.threads() {
        t.apply()?;
    }
    ldd_io::output::note_inputs(common.inputs());
    let derived = common.derived_inputs();
    ldd_io::output::note_inputs(derived.iter().map(|p| p.as_path()));
    Ok(())
}

/// The command's arguments as every command has them: its inputs and threads.
fn common(command: &Command) -> &dyn Common {
    match command {
        Command::Extract(args) => args,
        Command::Run(args) => args,
        Command::Parse(args) => args,
        Command::Merge(args) => args,
        Command::Slice(args) => args,
        Command::Score(args) => args,
        Command::Sheets(args) => args,
        Command::Tally(args) => args,
        Command::Mqm(args) => args,
        Command::Report(args) => args,
        Command::Compare(args) => args,
        Command::CheckDetection(args) => args,
        Command::Align(args) => args,
        Command::Corpora(args) => args,
        Command::Languages(args) => args,
        Command::Permute(args) => args,
        Command::Contrast(args) => args,
    }
}

/// Runs the command.
fn run(command: Command) -> Result<()> {
    match command {
        Command::Extract(args) => extract::extract(args),
        Command::Run(args) => extract::run(args),
        Command::Parse(args) => parse::parse(args),
        Command::Merge(args) => merge::merge(args),
        Command::Slice(args) => score::slice(args),
        Command::Score(args) => score::score(args),
        Command::Sheets(args) => judge::sheets(args),
        Command::Tally(args) => judge::tally(args),
        Command::Mqm(args) => mqm::mqm(args),
        Command::Report(args) => report::report(args),
        Command::Compare(args) => score::compare(args),
        Command::CheckDetection(args) => detection::check_detection(args),
        Command::Align(args) => align::align(args),
        Command::Corpora(args) => corpora::corpora(args),
        Command::Languages(args) => languages::languages(args),
        Command::Permute(args) => permute::permute(args),
        Command::Contrast(args) => contrast::contrast(args),
    }
}

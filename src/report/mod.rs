//! Stage **report**: one self-contained HTML page (or LaTeX tables) about a sets
//! directory and, when it has been scored, its scores.
//!
//! What enters: a sets directory (`manifest.json`, the set files, the per-line reordering
//! file) and, when present, `scores.json` with the systems' output files it names.
//! What leaves: `report.html` — inputs and settings, set sizes, distance distributions,
//! scores against distance with the controls' band, set-vs-controls tables with
//! significance marks, and an examples browser — every chart inline SVG drawn by
//! `plotters` ([`chart`]), styles inline, no script, font or image from elsewhere
//! ([`html`]); or, with `--format latex`, the main tables as LaTeX `tabular`s
//! ([`latex`]). The output is written all-or-nothing and is byte-identical for the same
//! inputs.
//!
//! The scores are read leniently ([`scores`]): fields that older versions of `score` did
//! not write (confidence intervals, p-values, signatures) are shown as "–".
//!
//! In short (what enters → what leaves): a loaded sets directory (`read::sets`) and its
//! `scores.json` → `gather`: first `inputs::read` reads everything the page shows, in one
//! place (`scores.json` checked against the manifest, the tally, the MQM judgements and the
//! manifest checksum they must name, the parse record, the sample of every set drawn first
//! by `sample::first_by_hash`, then the reordering measures, the sample's lines and each
//! system's output for them read in one step by `read::shown`, the judged loci; each
//! checked against its recorded SHA-256), then it computes without I/O (`data`: distances
//! as the manifest records them, the examples with their marked lines parsed; `scores`:
//! labels, significance marks); only `inputs.rs` and `out.rs` (the output path) touch files
//! (`tests/architecture.rs`) → a `Report` → `render` (the output formats, from the report's
//! tables built once as `render::Views`: `view::Sizes`, `view::ScoreView`, the distance
//! tables): one self-contained HTML page (`html` says every chart first as a `chart::Spec`,
//! `chart::draw` draws them all with plotters, one module per chart kind, then `html` lays
//! out the page: its skeleton and shared helpers in `html/mod.rs`, one module per page
//! section; every file of `report/` stays under 600 lines, `tests/architecture.rs`) or
//! LaTeX tables (`latex`). The renderers read only the `Report`: no file, no other renderer

pub mod chart;
pub mod data;
pub mod html;
pub mod inputs;
pub mod items;
pub mod latex;
pub mod loci;
pub mod out;
pub mod render;
pub mod scores;
pub mod views;

use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::format::manifest::Manifest;
use crate::format::sheet::TallyReport;
use crate::pipeline::read::sets::Loaded;
use data::{Distances, Measure, SetExamples};
pub use out::out_path;
pub use render::{render, Format};
use scores::Scores;

/// What `report` reads and writes (the CLI glues the steps: [`out_path`],
/// [`crate::pipeline::read::sets::load`], [`gather`], [`render()`], then writes all-or-nothing).
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// Output directory of `ldd-sets extract`.
    pub sets: PathBuf,
    /// Output file [default: `SETS/report.html` or `SETS/report.tex`].
    pub out: Option<PathBuf>,
    /// Scores [default: `SETS/scores.json` when it exists].
    pub scores: Option<PathBuf>,
    /// Output format.
    pub format: Format,
    /// Example lines sampled per set.
    pub examples: usize,
    /// The annotators' tally (`tally.json`), shown when given.
    pub tally: Option<PathBuf>,
    /// Human judgements from MQM annotations [default: `SETS/mqm.json` when it exists].
    pub mqm: Option<PathBuf>,
    /// Systems' outputs by name (`--hyp NAME=FILE`), instead of the files `scores.json`
    /// names (moved, or scored from standard input).
    pub outputs: Vec<(String, PathBuf)>,
}

/// Default number of example lines per set (the first [`html::SHOWN`] are shown, the
/// rest behind "show more").
pub const DEFAULT_EXAMPLES: usize = 10;

/// Everything the report shows, gathered.
#[derive(Debug)]
pub struct Report {
    /// The sets directory.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
    /// The corpus's file name, as titles name it.
    pub corpus: String,
    /// The scores, if any.
    pub scores: Option<Scores>,
    /// Where they were read from.
    pub scores_path: Option<PathBuf>,
    /// Lexical pairs by distance.
    pub distances: Vec<Distances>,
    /// The file name of the per-line reordering file read, if any.
    pub measures_file: Option<String>,
    /// Reordering measures.
    pub measures: Vec<Measure>,
    /// Example lines per set.
    pub examples: Vec<SetExamples>,
    /// Warnings shown at the top of the report (e.g. a system's output file missing).
    pub notes: Vec<String>,
    /// The parse cache's record of the trees, when `extract` parsed the source itself
    /// (it names the UDPipe model).
    pub parse: Option<ldd_parse::CacheManifest>,
    /// The annotators' tally, when given.
    pub tally: Option<TallyReport>,
    /// Human judgements from MQM annotations (`mqm.json`), when made for these sets.
    pub mqm: Option<crate::format::mqm::MqmReport>,
    /// Every locus judged by `score --metrics locus`, when the scores name its file.
    pub loci: Option<Vec<data::LocusItem>>,
}

/// Everything the report shows about a loaded sets directory: what [`inputs::read`]
/// reads (the scores, `scores` or `SETS/scores.json` when it exists; `per_set` example
/// lines a set with each system's output; the reordering measures, the parse record, the
/// annotators' `tally` when given, the MQM judgements, `mqm` or `SETS/mqm.json` when it
/// exists; a system's output from `outputs` when it names the system), then computed
/// without reading anything more (the MQM judgements shown only when made for these sets).
pub fn gather(
    loaded: Loaded,
    scores: Option<&Path>,
    per_set: usize,
    tally: Option<&Path>,
    mqm: Option<&Path>,
    outputs: &[(String, PathBuf)],
) -> Result<Report> {
    Ok(compute(inputs::read(
        loaded, scores, per_set, tally, mqm, outputs,
    )?))
}

/// The report of what [`inputs::read`] read.
fn compute(read: inputs::Inputs) -> Report {
    let l = read.loaded;
    // In the order the page has always listed them: MQM, distances, then what reading
    // the outputs and the loci found.
    let mut notes = Vec::new();
    let mqm = match read.mqm {
        Some((_, r)) if r.manifest_sha256 == l.manifest_sha256 => Some(r),
        Some((p, _)) => {
            notes.push(format!(
                "{} was made for other sets (another manifest): not shown; run `ldd-sets \
                 mqm` on these sets again",
                p.display()
            ));
            None
        }
        None => None,
    };
    let (measures_path, measures) = read.measures.unzip();
    let distances = data::lexical_distances(&l.manifest, &mut notes);
    notes.extend(read.notes);
    let examples = data::examples(read.sampled, &read.outputs);
    Report {
        corpus: file_name(&l.manifest.inputs.source.path),
        measures_file: measures_path.as_deref().map(file_name),
        dir: l.dir,
        manifest: l.manifest,
        scores: read.scores,
        scores_path: read.scores_path,
        distances,
        measures: measures.unwrap_or_default(),
        examples,
        notes,
        parse: read.parse,
        tally: read.tally,
        mqm,
        loci: read.loci,
    }
}

/// The file name of a path for display (the whole path if it has none).
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

//! `manifest.json` and `summary.csv`: what a run read, how, and what it wrote.
//!
//! [`Manifest`] is the one type of the manifest: `extract` serialises it, `score`,
//! `slice` and `compare` deserialise it with [`Manifest::read`], which checks
//! `format_version` first. The manifest holds no timestamps or timings, so the same inputs
//! and options give a byte-identical manifest.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ldd_io::{FileInfo, LineRange};
use ldd_parse::ChunkRecord;
use serde::{Deserialize, Serialize};

use super::options::{Controls, Measure, Reorder, ReorderFiles, ReorderInfo, Rules};
use super::sets::{SetControls, SetEntry, SetFiles, SetKind};
use crate::config::Languages;
use crate::error::{Error, Result};

/// Manifest format version written (and the only one read).
pub const FORMAT_VERSION: u32 = 1;

/// The file whose presence marks a directory as an ldd-sets output.
pub use crate::layout::MANIFEST;

/// Largest manifest read: 256 MiB.
const MAX_MANIFEST_BYTES: u64 = 256 << 20;

/// The whole manifest.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// Manifest format version.
    pub format_version: u32,
    /// `ldd-sets` and its version.
    pub tool: Tool,
    /// Source and target language codes (checked when read).
    #[serde(with = "languages")]
    pub languages: Languages,
    /// Input files with sizes and checksums.
    pub inputs: Inputs,
    /// Corpus statistics.
    pub corpus: CorpusStats,
    /// The rules that ran, as resolved.
    pub rules: Rules,
    /// How `.marked` files mark words.
    pub marker: String,
    /// Every set written.
    pub sets: Vec<SetEntry>,
    /// How reordering sets were built (`None` if they were not).
    pub reorder: Option<ReorderInfo>,
    /// The control samples of every set.
    #[serde(default)]
    pub controls: Vec<SetControls>,
    /// Pairs per distance of every lexical phenomenon, in rule order, as extract found them
    /// (what the report charts; absent in manifests written before they were recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub distances: Vec<Distances>,
    /// SHA-256 of every file of the output but `manifest.json`, by path relative to the
    /// output directory: what [`crate::pipeline::read::sets::file`] checks before a file is
    /// read. Empty in manifests written before checksums were recorded (their files are
    /// read unchecked).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub checksums: BTreeMap<String, String>,
    /// The output of one shard of a sharded run, or merged from shards (`None`: a run over
    /// the whole corpus).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRecord>,
}

/// The pairs of one lexical phenomenon, counted by distance.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Distances {
    /// Phenomenon.
    pub phenomenon: String,
    /// `counts[d]`: pairs at distance `d` (no trailing zeros).
    pub counts: Vec<u64>,
}

impl Distances {
    /// All pairs.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Counts one more pair at `distance`.
    pub fn add(&mut self, distance: usize) {
        if self.counts.len() <= distance {
            self.counts.resize(distance + 1, 0);
        }
        self.counts[distance] += 1;
    }

    /// Adds another count of the same phenomenon (a shard's).
    pub fn merge(&mut self, other: &Distances) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }
}

/// Sharding: what a shard's output is, or what a merged output was merged from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ShardRecord {
    /// One shard of a sharded run: its sets hold its lines only, and it has no controls
    /// (`ldd-sets merge` draws them over the whole corpus).
    Part(ShardPart),
    /// Merged from the shards of a sharded run: equal to a run over the whole corpus.
    Merged(MergedShards),
}

/// The record of one shard.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ShardPart {
    /// This shard, 1-based.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
    /// The corpus lines of this shard.
    pub lines: LineRange,
    /// Lines of the whole corpus.
    pub corpus_lines: u64,
    /// File with the source length (UD words; 0 for an empty line) of every line of the
    /// shard, one per line, for the controls `merge` draws.
    pub lengths: String,
    /// How `merge` draws the controls.
    pub controls: Controls,
    /// The shard's own parse of its lines (`None`: the trees came from a CoNLL-U of the
    /// whole corpus).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parse: Option<ShardParse>,
}

/// A shard's parse of its lines, kept in the shard's output so that `merge` can build the
/// whole corpus's parse (byte-identical to a parse of the whole corpus) without the parse
/// cache of the machine the shard ran on.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ShardParse {
    /// The copy of the parse in the shard's output (gzip CoNLL-U).
    pub file: String,
    /// The corpus as the parse cache recorded it.
    pub corpus: PathBuf,
    /// Its SHA-256.
    pub corpus_sha256: String,
    /// The UDPipe model.
    pub model: PathBuf,
    /// Its SHA-256.
    pub model_sha256: String,
    /// Lines per gzip member of the parse cache.
    pub chunk_lines: u64,
    /// The gzip members of `file`, in order.
    pub chunks: Vec<ChunkRecord>,
}

/// What a merged output was merged from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MergedShards {
    /// Number of shards.
    pub count: u32,
    /// Every shard, in order.
    pub shards: Vec<MergedShard>,
}

/// One shard of a merged output.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MergedShard {
    /// The shard, 1-based.
    pub index: u32,
    /// Its corpus lines.
    pub lines: LineRange,
    /// Its output directory, as given to `merge`.
    pub dir: PathBuf,
    /// SHA-256 of its `manifest.json`.
    pub manifest_sha256: String,
    /// The command line that made it (its manifest's `tool.command`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
}

/// Tool name and version.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tool {
    /// Always `ldd-sets`.
    pub name: String,
    /// Crate version.
    pub version: String,
    /// The command line that wrote the file ([`super::command`]; empty, and not written,
    /// when none was recorded: a library caller, or a file of an older version).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
}

impl Default for Tool {
    /// This version of ldd-sets, with this process's recorded command line.
    fn default() -> Self {
        Tool {
            name: "ldd-sets".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            command: super::command::recorded(),
        }
    }
}

/// The input files.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Inputs {
    /// Source side.
    pub source: FileInfo,
    /// Target side.
    pub target: FileInfo,
    /// Parse of the source side (`lines` = sentences).
    pub conllu: FileInfo,
}

/// Corpus statistics.
#[derive(Debug, Serialize, Deserialize, Default, Clone, PartialEq, Eq)]
pub struct CorpusStats {
    /// Corpus lines (= pairs = trees).
    pub lines: u64,
    /// Lines whose source or target is empty (never selected).
    pub empty_lines: u64,
    /// Source words (UD words) over all lines.
    pub source_words: u64,
    /// Lines whose tree's text matched the line only after normalisation (tokenizer
    /// escapes, Unicode, case; see `read::belongs`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub normalised_lines: u64,
    /// Lines whose tree differed from the line in small, local places, tolerated (a
    /// parser's rewritten word, e.g. `it is` for `'tis`; see `read::belongs`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tolerated_lines: u64,
    /// The places of those lines, all counted (a line may have several).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tolerated_places: u64,
    /// Trees whose `# sent_id` comment was glued to their first word line, with no line
    /// break (as in the paper's published parses), read as the two lines they stand for.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub glued_comments: u64,
    /// Lines whose tree was not checked against the line (`--trust-conllu`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unchecked_lines: u64,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
}

/// [`Languages`] in the manifest: `{"source": …, "target": …}`, checked when read (the
/// codes name set files).
mod languages {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::config::Languages;

    #[derive(Serialize, Deserialize)]
    struct Record<'a> {
        source: std::borrow::Cow<'a, str>,
        target: std::borrow::Cow<'a, str>,
    }

    pub fn serialize<S: Serializer>(
        languages: &Languages,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        Record {
            source: languages.source().into(),
            target: languages.target().into(),
        }
        .serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Languages, D::Error> {
        let r = Record::deserialize(deserializer)?;
        Languages::new(&r.source, &r.target).map_err(serde::de::Error::custom)
    }
}

#[derive(Deserialize)]
struct VersionOnly {
    format_version: Option<serde_json::Value>,
}

impl Manifest {
    /// Reads `dir/manifest.json`: a file that is not JSON, not an ldd-sets manifest, or of
    /// another `format_version` is an error naming the file.
    pub fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join(MANIFEST);
        if !path.exists() {
            return Err(not_a_sets_dir(dir));
        }
        let text = ldd_io::read_text(&path, MAX_MANIFEST_BYTES)?;
        let bad = |e: serde_json::Error| {
            Error::input(
                &path,
                e.line() as u64,
                format!("not an ldd-sets manifest: {e}"),
            )
        };
        let v: VersionOnly = serde_json::from_str(&text).map_err(bad)?;
        match v.format_version {
            Some(serde_json::Value::Number(n)) if n.as_u64() == Some(u64::from(FORMAT_VERSION)) => {
            }
            Some(other) => {
                return Err(Error::input(
                    &path,
                    1,
                    format!(
                        "manifest format_version {} is not supported (this ldd-sets {} reads \
                         version {FORMAT_VERSION}); re-run `ldd-sets extract` to rebuild the sets",
                        ldd_io::error::quote(&other.to_string(), 20),
                        env!("CARGO_PKG_VERSION")
                    ),
                ))
            }
            None => {
                return Err(Error::input(
                    &path,
                    1,
                    "not an ldd-sets manifest: no `format_version`",
                ))
            }
        }
        let m: Manifest = serde_json::from_str(&text).map_err(bad)?;
        m.check_distances(&path)?;
        Ok(m)
    }

    /// Refuses a record of distances that disagrees with the sets: each phenomenon's pairs
    /// by distance must add up to the pairs of its `ge0` set.
    fn check_distances(&self, path: &Path) -> Result<()> {
        for d in &self.distances {
            let Some(set) = self.ge0(&d.phenomenon) else {
                continue;
            };
            if d.total() != set.pairs {
                return Err(Error::Data(format!(
                    "{}: records {} {} pairs by distance but {} in its ge0 set; the manifest was \
                     edited",
                    ldd_io::error::shown(path),
                    d.total(),
                    ldd_io::error::escape(&d.phenomenon),
                    set.pairs
                )));
            }
        }
        Ok(())
    }

    /// The `ge0` set of a lexical phenomenon (every sentence with one of its pairs).
    pub fn ge0(&self, phenomenon: &str) -> Option<&SetEntry> {
        self.sets.iter().find(|s| {
            s.kind == SetKind::Lexical
                && s.phenomenon == phenomenon
                && !s.exact
                && s.min_distance == 0
        })
    }

    /// [`Manifest::read`], refusing the output of a single shard: its sets hold a part of
    /// the corpus and it has no controls, so it is not to be scored, sliced or reported.
    pub fn read_complete(dir: &Path) -> Result<Manifest> {
        let m = Manifest::read(dir)?;
        if let Some(ShardRecord::Part(p)) = &m.shard {
            return Err(Error::Config(format!(
                "{} is shard {}/{} of a sharded run (corpus lines {}..{} only, no controls); \
                 merge the shards first: ldd-sets merge --out DIR SHARD_DIR...",
                ldd_io::error::shown(dir),
                p.index,
                p.count,
                p.lines.first,
                p.lines.end().saturating_sub(1)
            )));
        }
        Ok(m)
    }

    /// Writes the manifest with the checksums of every file under `root` (the staged
    /// output, complete but for it) into `root`; `summary.csv` is written before it
    /// ([`crate::pipeline::write::summary`]).
    pub fn write_into(&mut self, root: &Path) -> Result<()> {
        self.record_checksums(root)?;
        self.write(&root.join(MANIFEST))
    }

    /// Writes the manifest as pretty JSON.
    pub fn write(&self, path: &Path) -> Result<()> {
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::Data(format!("{}: {e}", ldd_io::error::shown(path))))?;
        text.push('\n');
        Ok(ldd_io::fs::write(path, text.as_bytes())?)
    }

    /// Records in [`Manifest::checksums`] the SHA-256 of every file below `root` (the
    /// staged output, complete but for the manifest), except `manifest.json` and hidden
    /// files.
    pub fn record_checksums(&mut self, root: &Path) -> Result<()> {
        self.checksums.clear();
        let mut dirs = vec![PathBuf::new()];
        while let Some(rel) = dirs.pop() {
            let here = root.join(&rel);
            for e in ldd_io::fs::list_dir(&here)? {
                if e.name.starts_with('.') || (rel.as_os_str().is_empty() && e.name == MANIFEST) {
                    continue;
                }
                let r = rel.join(&e.name);
                match e.kind {
                    ldd_io::fs::Kind::Dir => dirs.push(r),
                    ldd_io::fs::Kind::File => {
                        let key = r.to_string_lossy().into_owned();
                        self.checksums.insert(key, ldd_io::sha256_file(&e.path)?.0);
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Checks that `hyp`, a system's translation of the corpus this manifest (read from
    /// `path`) records, has the corpus's lines: `lines` is its line count.
    pub fn check_translation(&self, path: &Path, hyp: &Path, lines: u64) -> Result<()> {
        if lines == self.corpus.lines {
            return Ok(());
        }
        Err(Error::Data(format!(
            "{}: has {lines} lines but the corpus has {} lines ({}); the hypothesis \
             must translate the whole corpus, one line per line",
            ldd_io::error::shown(hyp),
            self.corpus.lines,
            ldd_io::error::shown(path)
        )))
    }

    /// The set with this phenomenon and bucket.
    pub fn set(&self, phenomenon: &str, bucket: &str) -> Option<&SetEntry> {
        self.sets
            .iter()
            .find(|s| s.phenomenon == phenomenon && s.bucket == bucket)
    }
}

/// What the shards of one run must agree on ([`Manifest::run_settings`]): the manifest
/// but each shard's own counts, line range, parse, checksums and command line, and the
/// paths of the inputs (shards may run in other directories; the inputs' checksums must
/// agree). Serialised only to name where two differ, in the manifest's own field names
/// ([`RunSettings::differences`]).
#[derive(Debug, PartialEq, Serialize)]
pub struct RunSettings<'a> {
    /// [`Manifest::format_version`].
    pub format_version: u32,
    /// The tool's name and version (not its command line: each shard's names its shard).
    pub tool: ToolSettings<'a>,
    /// [`Manifest::languages`].
    #[serde(with = "languages")]
    pub languages: Languages,
    /// The inputs, without their paths.
    pub inputs: InputSettings<'a>,
    /// [`Manifest::rules`].
    pub rules: &'a Rules,
    /// [`Manifest::marker`].
    pub marker: &'a str,
    /// Every set, without its counts.
    pub sets: Vec<SetSettings<'a>>,
    /// How the reordering sets were built, without the counts.
    pub reorder: Option<ReorderSettings<'a>>,
    /// [`Manifest::controls`] (a shard has none).
    pub controls: &'a [SetControls],
    /// The shard record, without the shard's own index, lines and parse.
    pub shard: Option<ShardSettings<'a>>,
}

/// [`Tool`] without the command line.
#[derive(Debug, PartialEq, Serialize)]
pub struct ToolSettings<'a> {
    /// [`Tool::name`].
    pub name: &'a str,
    /// [`Tool::version`].
    pub version: &'a str,
}

/// [`Inputs`] without their paths.
#[derive(Debug, PartialEq, Serialize)]
pub struct InputSettings<'a> {
    /// Source side.
    pub source: FileSettings<'a>,
    /// Target side.
    pub target: FileSettings<'a>,
    /// The parse (`None` when each shard parsed its own lines: then the shard record's
    /// parse says what was parsed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conllu: Option<FileSettings<'a>>,
}

/// A [`FileInfo`] without its path.
#[derive(Debug, PartialEq, Serialize)]
pub struct FileSettings<'a> {
    /// [`FileInfo::bytes`].
    pub bytes: u64,
    /// [`FileInfo::sha256`].
    pub sha256: &'a str,
    /// [`FileInfo::lines`].
    pub lines: u64,
}

/// A [`SetEntry`] without its counts.
#[derive(Debug, PartialEq, Serialize)]
pub struct SetSettings<'a> {
    /// [`SetEntry::kind`].
    pub kind: SetKind,
    /// [`SetEntry::phenomenon`].
    pub phenomenon: &'a str,
    /// [`SetEntry::bucket`].
    pub bucket: &'a str,
    /// [`SetEntry::min_distance`].
    pub min_distance: u32,
    /// [`SetEntry::exact`].
    pub exact: bool,
    /// [`SetEntry::files`].
    pub files: &'a SetFiles,
}

/// A [`ReorderInfo`] without its counts.
#[derive(Debug, PartialEq, Serialize)]
pub struct ReorderSettings<'a> {
    /// [`ReorderInfo::options`].
    pub options: &'a Reorder,
    /// [`ReorderInfo::source_tokens`].
    pub source_tokens: &'a str,
    /// [`ReorderInfo::target_tokens`].
    pub target_tokens: &'a str,
    /// [`ReorderInfo::sizes`], without the lines counted.
    pub sizes: Vec<SizeSettings<'a>>,
    /// [`ReorderInfo::files`].
    pub files: &'a ReorderFiles,
}

/// A [`super::options::MeasureSizes`] without the lines counted.
#[derive(Debug, PartialEq, Serialize)]
pub struct SizeSettings<'a> {
    /// The measure.
    pub measure: Measure,
    /// Whether it builds the sets.
    pub builds_sets: bool,
    /// Its thresholds.
    pub buckets: &'a [u32],
}

/// A [`ShardRecord`] without the shard's own index, lines and parse.
#[derive(Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ShardSettings<'a> {
    /// A [`ShardPart`].
    Part(ShardPartSettings<'a>),
    /// A merged output (never merged again).
    Merged(&'a MergedShards),
}

/// A [`ShardPart`] without the shard's index and lines.
#[derive(Debug, PartialEq, Serialize)]
pub struct ShardPartSettings<'a> {
    /// [`ShardPart::count`].
    pub count: u32,
    /// [`ShardPart::corpus_lines`].
    pub corpus_lines: u64,
    /// [`ShardPart::lengths`].
    pub lengths: &'a str,
    /// [`ShardPart::controls`].
    pub controls: Controls,
    /// The parse's settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parse: Option<ShardParseSettings<'a>>,
}

/// A [`ShardParse`] without what is the shard's own (its chunks) or the machine's (paths).
#[derive(Debug, PartialEq, Serialize)]
pub struct ShardParseSettings<'a> {
    /// [`ShardParse::file`].
    pub file: &'a str,
    /// [`ShardParse::corpus_sha256`].
    pub corpus_sha256: &'a str,
    /// [`ShardParse::model_sha256`].
    pub model_sha256: &'a str,
    /// [`ShardParse::chunk_lines`].
    pub chunk_lines: u64,
}

impl Manifest {
    /// What the shards of one run must agree on ([`RunSettings`]). Every field of the
    /// manifest and of its records that hold counts is named here, compared or left out (the
    /// patterns are exhaustive), so a field added or renamed in this module does not compile
    /// until this function says whether `merge` compares it; the records compared whole
    /// (rules, options, file names) compare every field.
    pub fn run_settings(&self) -> RunSettings<'_> {
        let Manifest {
            format_version,
            tool,
            languages,
            inputs,
            corpus: _,
            rules,
            marker,
            sets,
            reorder,
            controls,
            distances: _,
            checksums: _,
            shard,
        } = self;
        // Each shard's command line names its own shard and output directory.
        let Tool {
            name,
            version,
            command: _,
        } = tool;
        let Inputs {
            source,
            target,
            conllu,
        } = inputs;
        // Shards that parsed their own lines read different parses (their shard records
        // say of what).
        let own_parse = matches!(shard, Some(ShardRecord::Part(p)) if p.parse.is_some());
        RunSettings {
            format_version: *format_version,
            tool: ToolSettings { name, version },
            languages: languages.clone(),
            inputs: InputSettings {
                source: FileSettings::of(source),
                target: FileSettings::of(target),
                conllu: (!own_parse).then(|| FileSettings::of(conllu)),
            },
            rules,
            marker,
            sets: sets.iter().map(SetSettings::of).collect(),
            reorder: reorder.as_ref().map(ReorderSettings::of),
            controls,
            shard: shard.as_ref().map(ShardSettings::of),
        }
    }
}

impl<'a> FileSettings<'a> {
    fn of(file: &'a FileInfo) -> Self {
        let FileInfo {
            path: _,
            bytes,
            sha256,
            lines,
        } = file;
        FileSettings {
            bytes: *bytes,
            sha256,
            lines: *lines,
        }
    }
}

impl<'a> SetSettings<'a> {
    fn of(entry: &'a SetEntry) -> Self {
        let SetEntry {
            kind,
            phenomenon,
            bucket,
            min_distance,
            exact,
            sentences: _,
            pairs: _,
            mean_source_words: _,
            files,
        } = entry;
        SetSettings {
            kind: *kind,
            phenomenon,
            bucket,
            min_distance: *min_distance,
            exact: *exact,
            files,
        }
    }
}

impl<'a> ReorderSettings<'a> {
    fn of(reorder: &'a ReorderInfo) -> Self {
        let ReorderInfo {
            options,
            source_tokens,
            target_tokens,
            trained_pairs: _,
            too_long: _,
            lines_with_links: _,
            sizes,
            files,
        } = reorder;
        let sizes = sizes
            .iter()
            .map(|s| {
                let super::options::MeasureSizes {
                    measure,
                    builds_sets,
                    buckets,
                    lines: _,
                } = s;
                SizeSettings {
                    measure: *measure,
                    builds_sets: *builds_sets,
                    buckets,
                }
            })
            .collect();
        ReorderSettings {
            options,
            source_tokens,
            target_tokens,
            sizes,
            files,
        }
    }
}

impl<'a> ShardSettings<'a> {
    fn of(record: &'a ShardRecord) -> Self {
        match record {
            ShardRecord::Merged(m) => ShardSettings::Merged(m),
            ShardRecord::Part(ShardPart {
                index: _,
                count,
                lines: _,
                corpus_lines,
                lengths,
                controls,
                parse,
            }) => ShardSettings::Part(ShardPartSettings {
                count: *count,
                corpus_lines: *corpus_lines,
                lengths,
                controls: *controls,
                parse: parse.as_ref().map(|p| {
                    let ShardParse {
                        file,
                        corpus: _,
                        corpus_sha256,
                        model: _,
                        model_sha256,
                        chunk_lines,
                        chunks: _,
                    } = p;
                    ShardParseSettings {
                        file,
                        corpus_sha256,
                        model_sha256,
                        chunk_lines: *chunk_lines,
                    }
                }),
            }),
        }
    }
}

impl RunSettings<'_> {
    /// Where `self` and `other` differ, at most `max` places, each as its path in the
    /// manifest (`shard.controls.seed`, `sets[3].bucket`).
    pub fn differences(&self, other: &RunSettings<'_>, max: usize) -> Vec<String> {
        let json = |s: &RunSettings<'_>| serde_json::to_value(s).unwrap_or_default();
        let mut out = Vec::new();
        differences(&json(self), &json(other), "", max, &mut out);
        out
    }
}

/// The places (`a.b[3].c`) where two JSON values differ, at most `max` of them.
fn differences(
    left: &serde_json::Value,
    right: &serde_json::Value,
    at: &str,
    max: usize,
    out: &mut Vec<String>,
) {
    use serde_json::Value;
    if out.len() >= max {
        return;
    }
    let key = |k: &str| {
        if at.is_empty() {
            k.to_string()
        } else {
            format!("{at}.{k}")
        }
    };
    match (left, right) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => differences(p, q, &key(k), max, out),
                    _ if out.len() < max => out.push(key(k)),
                    _ => {}
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                differences(p, q, &format!("{at}[{i}]"), max, out);
            }
        }
        _ if left != right => out.push(at.to_string()),
        _ => {}
    }
}

/// The error for a directory without a manifest, saying where the sets are: in its
/// subdirectories when it is the output of `run` (`OUT/<corpus>/`), else nowhere.
fn not_a_sets_dir(dir: &Path) -> Error {
    let path = dir.join(MANIFEST);
    let dirs: Vec<std::path::PathBuf> = ldd_io::fs::list_dir(dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| e.kind == ldd_io::fs::Kind::Dir && e.path.join(MANIFEST).is_file())
        .map(|e| e.path)
        .collect();
    let corpora: Vec<String> = dirs.iter().map(|d| ldd_io::error::shown(d)).collect();
    // The directory to give, as a shell word (pasted after `--sets`).
    let give = dirs
        .first()
        .map(|d| ldd_io::shell::path(d))
        .unwrap_or_default();
    let why = match (dir.is_dir(), corpora.as_slice()) {
        (false, _) => format!("{} does not exist", ldd_io::error::shown(dir)),
        (true, []) => format!(
            "no manifest: {} is not an output of `ldd-sets extract` or `run`",
            ldd_io::error::shown(dir)
        ),
        (true, [one]) => format!(
            "no manifest: {} is the output of `ldd-sets run`; its corpus's sets are in \
             {one}: give that directory (--sets {give})",
            ldd_io::error::shown(dir)
        ),
        (true, [_, ..]) => format!(
            "no manifest: {} is the output of `ldd-sets run`, with the sets of {} corpora, one \
             directory each: {}; give one of them (--sets {give})",
            ldd_io::error::shown(dir),
            corpora.len(),
            corpora.join(", ")
        ),
    };
    Error::Io {
        path,
        source: std::io::Error::new(std::io::ErrorKind::NotFound, why),
    }
}

/// Whether `dir` holds an ldd-sets output: its manifest reads as one.
pub fn is_output(dir: &Path) -> bool {
    Manifest::read(dir).is_ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The manifest of shard `index`/2 of a small run, as `extract --shard` writes it.
    fn shard_manifest(index: u32) -> Manifest {
        let file =
            |path: &str, sha: &str| json!({"path": path, "bytes": 10, "sha256": sha, "lines": 4});
        let set = |sentences: u64| {
            json!({
                "kind": "lexical", "phenomenon": "p", "bucket": "ge1", "min_distance": 1,
                "exact": false, "sentences": sentences, "pairs": sentences,
                "mean_source_words": 3.5,
                "files": {"source": "p/ge1.de", "target": "p/ge1.en", "ids": "p/ge1.ids",
                          "conllu": "p/ge1.conllu", "marked": "p/ge1.marked.de"}
            })
        };
        serde_json::from_value(json!({
            "format_version": FORMAT_VERSION,
            "tool": {"name": "ldd-sets", "version": "1.0.0",
                     "command": ["ldd-sets", "extract", "--shard", format!("{index}/2")]},
            "languages": {"source": "de", "target": "en"},
            "inputs": {"source": file(&format!("/m{index}/c.de"), "aa"),
                       "target": file(&format!("/m{index}/c.en"), "bb"),
                       "conllu": file(&format!("/m{index}/c.conllu"), "cc")},
            "corpus": {"lines": 2, "empty_lines": 0, "source_words": 7 * u64::from(index)},
            "rules": {"source": "rules.toml", "max_distance": 3, "phenomena": []},
            "marker": "*",
            "sets": [set(u64::from(index))],
            "reorder": null,
            "controls": [],
            "distances": [{"phenomenon": "p", "counts": [0, index]}],
            "checksums": {"p/ge1.ids": format!("{index}")},
            "shard": {"kind": "part", "index": index, "count": 2,
                      "lines": {"first": 2 * index - 1, "count": 2}, "corpus_lines": 4,
                      "lengths": "shard-lengths.txt",
                      "controls": {"count": 2, "seed": 1, "tolerance": 1,
                                   "allow_set_members": false}}
        }))
        .unwrap()
    }

    /// Two shards of one run agree though their command lines, input paths, counts, line
    /// ranges and checksums differ; a changed setting is named by its manifest path.
    #[test]
    fn shards_of_one_run_agree_and_a_changed_setting_is_named() {
        let (a, b) = (shard_manifest(1), shard_manifest(2));
        assert_ne!(a.tool.command, b.tool.command);
        assert_ne!(a.inputs.source.path, b.inputs.source.path);
        assert_eq!(a.run_settings(), b.run_settings());

        let mut c = shard_manifest(2);
        c.inputs.target.sha256 = "bd".into();
        c.sets[0].bucket = "ge2".into();
        if let Some(ShardRecord::Part(p)) = &mut c.shard {
            p.controls.seed = 2;
        }
        assert_ne!(a.run_settings(), c.run_settings());
        assert_eq!(
            a.run_settings().differences(&c.run_settings(), 3),
            [
                "inputs.target.sha256",
                "sets[0].bucket",
                "shard.controls.seed"
            ]
        );
        assert_eq!(
            a.run_settings().differences(&c.run_settings(), 1),
            ["inputs.target.sha256"]
        );
        let mut d = shard_manifest(2);
        d.tool.version = "0.9.0".into();
        let at = a.run_settings().differences(&d.run_settings(), 3);
        assert_eq!(at, ["tool.version"]);
    }
}

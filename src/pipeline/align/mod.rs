//! Stage **align**: word alignment of a corpus with the built-in aligner (`crates/align`), or read from a
//! Pharaoh file: the evidence reordering detection runs on; and systems' outputs aligned
//! to their sources with a saved aligner, the evidence locus accuracy runs on
//! (`crate::locus`).
//!
//! Tokens: the source side is the UD words of the tree when a parse is given (so indices
//! match the parse and the marked files), else the aligner's tokenizer; the target side is
//! the aligner's Unicode-aware tokenizer, or whitespace with `pretokenized`. Extra training
//! data (`train`) is always split by the aligner's tokenizer, on both sides.
//! With `lowercase`, every token is lowercased before training and aligning (alignment
//! indices, and so the set files, keep the original tokens).
//!
//! Memory: training data is encoded into an unnamed temporary file (an
//! [`ldd_align::PairStore`]) as it is read, and the HMM streams it once per pass, so
//! training holds the vocabularies and the model, not the data (fast_align's model reads
//! it back into memory). `run` trains one aligner for every corpus of a pair ([`train`])
//! and keeps it while it aligns them. What the aligner does as it goes is reported as
//! [`Event`]s to [`AlignOptions::progress`], which the binary's printer shows.
//! The aligner is obtained once — loaded, found in the aligner cache, or trained and
//! cached — by [`cache`].
//!
//! What enters: a corpus's lines in lockstep with their trees, extra training data, or a
//! Pharaoh file; for `locus`, a saved aligner and systems' outputs.
//! What leaves: the aligner ([`cache`]: loaded, cached or trained) and every line's
//! alignment links.

pub mod cache;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

pub use ldd_align::Direction;
use ldd_align::{
    Aligner, AlignerSpec, Alignment, Corpus, HmmOptions, ModelFile, PairStore, PairStoreBuilder,
    Pairs, TrainOptions,
};
use ldd_conllu::{parse_block, Sentence};
use ldd_io::Input;

use crate::error::{Error, Result};
use crate::format::options;
use crate::pipeline::read::lockstep::{Line, Lockstep};

/// Which alignment model aligns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelType {
    /// The HMM by agreement of `ldd-align` (Vogel et al. 1996; Liang et al. 2006): both
    /// directions trained together; AER 0.18 on the shared gold where fast_align's model
    /// has 0.26.
    Hmm,
    /// fast_align's reparameterised IBM Model 2, as `fast_align -d -o -v` (the paper's).
    FastAlign,
}

impl ModelType {
    /// The model used unless one is named (`--paper-compat` uses fast_align's).
    pub const DEFAULT: ModelType = ModelType::Hmm;

    /// Every model type, in the order `--help` lists them.
    pub const ALL: [ModelType; 2] = [ModelType::Hmm, ModelType::FastAlign];

    /// The name used on the command line and in the manifest.
    pub fn name(self) -> &'static str {
        match self {
            ModelType::Hmm => "hmm",
            ModelType::FastAlign => "fast-align",
        }
    }
}

impl fmt::Display for ModelType {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name())
    }
}

impl FromStr for ModelType {
    type Err = String;

    fn from_str(name: &str) -> std::result::Result<Self, String> {
        by_name(&ModelType::ALL, ModelType::name, name)
    }
}

impl From<ModelType> for options::ModelType {
    fn from(model_type: ModelType) -> Self {
        match model_type {
            ModelType::Hmm => options::ModelType::Hmm,
            ModelType::FastAlign => options::ModelType::FastAlign,
        }
    }
}

impl From<options::ModelType> for ModelType {
    fn from(record: options::ModelType) -> Self {
        match record {
            options::ModelType::Hmm => ModelType::Hmm,
            options::ModelType::FastAlign => ModelType::FastAlign,
        }
    }
}

/// How to align (the same options for `extract`, `run` and `align`).
#[derive(Debug, Clone, PartialEq)]
pub struct AlignOptions {
    /// The alignment model.
    pub model_type: ModelType,
    /// Which alignment is used.
    pub direction: Direction,
    /// EM iterations of fast_align's model (fast_align `-I`); the HMM has its own
    /// ([`ldd_align::HmmOptions`]).
    pub iterations: u32,
    /// Extra training data: prefixes `P` of files `P.<src>[.gz]` and `P.<tgt>[.gz]`.
    pub train: Vec<PathBuf>,
    /// Load a trained model instead of training: `PREFIX.hmm.ldda`, or fast_align's
    /// `PREFIX.fwd.ldda` / `PREFIX.rev.ldda`.
    pub model: Option<PathBuf>,
    /// Save the trained models under this prefix.
    pub save_model: Option<PathBuf>,
    /// Target side (and, without a parse, the source side) is already tokenized: split on
    /// whitespace.
    pub pretokenized: bool,
    /// Pairs with more tokens than this on either side are not aligned (counted and
    /// reported); bounds the aligner's memory per pair.
    pub max_tokens: usize,
    /// Lowercase every token (corpus and training data) before training and aligning.
    pub lowercase: bool,
    /// Train on at most this many pairs of the training data, spread evenly over it, and
    /// align every pair with that model (`--align-train-max`).
    pub train_max: Option<u64>,
    /// Where the aligner's progress and notes go.
    pub progress: Progress,
}

/// What aligning says as it goes, for the printer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event<'a> {
    /// The training data was read and encoded: pairs, tokens of each side, bytes on disk.
    Read {
        /// Sentence pairs.
        pairs: u64,
        /// Source and target tokens.
        tokens: (u64, u64),
        /// Bytes of the encoded pairs.
        bytes: u64,
    },
    /// Training on an evenly spread sample (`--align-train-max`).
    Sample {
        /// Pairs trained on.
        trained: u64,
        /// Pairs of the training data.
        of: u64,
    },
    /// Training starts.
    Training {
        /// Pairs to train on.
        pairs: u64,
        /// The model.
        model: ModelType,
        /// Its EM iterations: IBM Model 1 and HMM (the HMM), or EM (fast_align's, and 0).
        iterations: (u32, u32),
    },
    /// The aligner's own progress.
    Aligner(ldd_align::Event),
    /// Training is over.
    Trained {
        /// The model.
        model: ModelType,
        /// Wall seconds.
        seconds: f64,
    },
    /// A corpus was aligned.
    Aligned {
        /// Pairs aligned.
        pairs: u64,
        /// Wall seconds.
        seconds: f64,
    },
    /// Pairs over `--align-max-tokens`: left out of training, and aligned one at a time by
    /// fast_align's model (`huge` of them, over [`ldd_align::MAX_LONG_CELLS`], not at all)
    /// or not aligned by the HMM.
    TooLong {
        /// Pairs over the limit.
        pairs: u64,
        /// The limit.
        max_tokens: usize,
        /// The model.
        model: ModelType,
        /// Pairs too long even for fast_align's one-at-a-time decoder.
        huge: u64,
    },
    /// The aligner was loaded from the aligner cache instead of trained again.
    Cached {
        /// Pairs it was trained on before.
        pairs: u64,
        /// Its model file.
        path: &'a Path,
    },
    /// Another process is training the same aligner into the cache: waiting for it.
    Waiting {
        /// That process.
        pid: u32,
    },
    /// The aligner cache cannot be written: the aligner is trained for this run only.
    CacheNotWritable {
        /// The aligner cache directory.
        dir: &'a Path,
        /// The system's refusal.
        why: &'a str,
    },
    /// A loaded model does not record its languages, which cannot be checked.
    Unlabelled {
        /// The model file.
        path: &'a Path,
    },
}

/// Where [`Event`]s go: a shared callback, or nowhere ([`Progress::default`]). Two are
/// equal when they are the same callback (or both silent): how progress is shown changes
/// no output.
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<Callback>>);

/// What [`Progress`] calls with every event.
type Callback = dyn Fn(&Event<'_>) + Send + Sync;

impl Progress {
    /// Events go to `sink`.
    pub fn new(sink: impl Fn(&Event<'_>) + Send + Sync + 'static) -> Progress {
        Progress(Some(Arc::new(sink)))
    }

    /// Reports `event`.
    pub fn report(&self, event: &Event<'_>) {
        if let Some(f) = &self.0 {
            f(event);
        }
    }

    /// Reports the aligner's event `event`.
    fn aligner(&self, event: ldd_align::Event) {
        self.report(&Event::Aligner(event));
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(if self.0.is_some() {
            "Progress(reported)"
        } else {
            "Progress(silent)"
        })
    }
}

impl PartialEq for Progress {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

/// Default of [`AlignOptions::max_tokens`]: long enough for every sentence of the shared
/// literary corpora (at most about 450 tokens), far below what exhausts memory.
pub const DEFAULT_MAX_TOKENS: usize = 1000;

impl Default for AlignOptions {
    fn default() -> Self {
        AlignOptions {
            model_type: ModelType::DEFAULT,
            direction: Direction::Intersection,
            iterations: 5,
            train: Vec::new(),
            model: None,
            save_model: None,
            pretokenized: false,
            max_tokens: DEFAULT_MAX_TOKENS,
            lowercase: false,
            train_max: None,
            progress: Progress::default(),
        }
    }
}

impl From<Direction> for options::Direction {
    fn from(direction: Direction) -> Self {
        match direction {
            Direction::Forward => options::Direction::Forward,
            Direction::Reverse => options::Direction::Reverse,
            Direction::Intersection => options::Direction::Intersection,
            Direction::Union => options::Direction::Union,
            Direction::GrowDiagFinalAnd => options::Direction::GrowDiagFinalAnd,
        }
    }
}

impl From<options::Direction> for Direction {
    fn from(record: options::Direction) -> Self {
        match record {
            options::Direction::Forward => Direction::Forward,
            options::Direction::Reverse => Direction::Reverse,
            options::Direction::Intersection => Direction::Intersection,
            options::Direction::Union => Direction::Union,
            options::Direction::GrowDiagFinalAnd => Direction::GrowDiagFinalAnd,
        }
    }
}

/// The manifest's record of the options (without `progress`, which changes no output).
impl From<&AlignOptions> for options::Align {
    fn from(align_options: &AlignOptions) -> Self {
        options::Align {
            model_type: align_options.model_type.into(),
            direction: align_options.direction.into(),
            iterations: align_options.iterations,
            train: align_options.train.clone(),
            model: align_options.model.clone(),
            save_model: align_options.save_model.clone(),
            pretokenized: align_options.pretokenized,
            max_tokens: align_options.max_tokens,
            lowercase: align_options.lowercase,
            train_max: align_options.train_max,
        }
    }
}

impl From<&options::Align> for AlignOptions {
    fn from(record: &options::Align) -> Self {
        AlignOptions {
            model_type: record.model_type.into(),
            direction: record.direction.into(),
            iterations: record.iterations,
            train: record.train.clone(),
            model: record.model.clone(),
            save_model: record.save_model.clone(),
            pretokenized: record.pretokenized,
            max_tokens: record.max_tokens,
            lowercase: record.lowercase,
            train_max: record.train_max,
            progress: Progress::default(),
        }
    }
}

/// What [`align`] produced.
#[derive(Debug)]
pub struct Aligned {
    /// One alignment per pair, in source–target orientation.
    pub alignments: Vec<Alignment>,
    /// The HMM's confidence in each link, in the order of `alignments`: the posterior
    /// probability of the link in the directional model that chose it, the lower of the
    /// two when both did. `None` with fast_align's model, which has no posteriors.
    pub posteriors: Option<Vec<Vec<f64>>>,
    /// Sentence pairs the aligner was trained on (0 with a loaded model).
    pub trained_pairs: u64,
    /// Pairs of the corpus left out of training because a side has more than `max_tokens`
    /// tokens (aligned afterwards one at a time, unless over [`ldd_align::MAX_LONG_CELLS`]).
    pub too_long: u64,
}

/// The tokens a corpus line contributes to alignment: the UD words of its tree and the
/// target's tokens ([`ldd_align::line_tokens`]); none when either side is empty (such a line is never selected).
pub fn pair_tokens(
    tree: &Sentence<'_>,
    source: &str,
    target: &str,
    pretokenized: bool,
) -> (Vec<String>, Vec<String>) {
    if source.trim().is_empty() || target.trim().is_empty() {
        return (Vec::new(), Vec::new());
    }
    (
        tree.words.iter().map(|w| w.form.to_string()).collect(),
        ldd_align::line_tokens(target, pretokenized)
            .into_iter()
            .map(str::to_string)
            .collect(),
    )
}

/// Finds `P.<lang>` or `P.<lang>.gz`.
fn side(prefix: &Path, lang: &str) -> Result<PathBuf> {
    let candidates = crate::layout::side_candidates(&prefix.display().to_string(), lang);
    let base = &candidates[1];
    candidates
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .inspect(|p| ldd_io::output::note_input(p))
        .ok_or_else(|| {
            Error::Resource(format!(
                "--align-train {}: no file {}[.gz]",
                ldd_io::error::shown(prefix),
                ldd_io::error::escape(base)
            ))
        })
}

/// Reads the line pairs of two line-aligned files, both sides tokenized with [`ldd_align::line_tokens`]
/// (and lowercased with `lowercase`), handing each to `push`; returns the number of pairs.
pub fn read_pairs(
    sp: &Path,
    tp: &Path,
    pretokenized: bool,
    lowercase: bool,
    mut push: impl FnMut(&[String], &[String]) -> Result<()>,
) -> Result<u64> {
    let mut s = Input::open(sp)?;
    let mut t = Input::open(tp)?;
    let split = |l: &str| -> Vec<String> {
        ldd_align::line_tokens(l, pretokenized)
            .into_iter()
            .map(|w| {
                if lowercase {
                    w.to_lowercase()
                } else {
                    w.to_string()
                }
            })
            .collect()
    };
    let mut n = 0;
    loop {
        let a = s.next_line()?.map(split);
        let b = t.next_line()?.map(split);
        match (a, b) {
            (Some(a), Some(b)) => {
                push(&a, &b)?;
                n += 1;
            }
            (None, None) => return Ok(n),
            _ => {
                // The longer side is counted no further than one line past the shorter's.
                let past = s.line_no().max(t.line_no());
                let (sn, tn) = (s.count_rest_up_to(past)?, t.count_rest_up_to(past)?);
                return Err(Error::Data(format!(
                    "inputs are not line-aligned: {} has {sn} lines but {} has {tn}",
                    ldd_io::error::shown(sp),
                    ldd_io::error::shown(tp),
                )));
            }
        }
    }
}

/// Reads the sentence pairs of the corpus `source`/`target`, handing each pair's tokens to
/// `push`: with `conllu`, its parse, exactly as `extract` builds them (the UD words of each
/// line's tree, read in lockstep, and the target's tokens ([`ldd_align::line_tokens`]): [`pair_tokens`]); else both
/// sides split by [`ldd_align::line_tokens`] ([`read_pairs`]). Lowercased with `opts.lowercase`.
pub fn read_corpus_pairs(
    (source, target): (&Path, &Path),
    conllu: Option<&Path>,
    opts: &AlignOptions,
    mut push: impl FnMut(&[String], &[String]) -> Result<()>,
) -> Result<()> {
    let Some(conllu) = conllu else {
        let (pretokenized, lowercase) = (opts.pretokenized, opts.lowercase);
        return read_pairs(source, target, pretokenized, lowercase, push).map(|_| ());
    };
    let mut input = Lockstep::open(source, target, conllu)?;
    let mut line = Line::default();
    let lower = |v: Vec<String>| -> Vec<String> {
        if opts.lowercase {
            v.iter().map(|w| w.to_lowercase()).collect()
        } else {
            v
        }
    };
    while input.next(&mut line)? {
        let tree = parse_block(&line.block, conllu)?;
        let (s, t) = pair_tokens(&tree, &line.source, &line.target, opts.pretokenized);
        push(&lower(s), &lower(t))?;
    }
    input.finish()?;
    Ok(())
}

/// Reads external alignments (Pharaoh, one line per pair of `pairs`), checking every link
/// against its sentence pair.
pub fn read_alignments(path: &Path, pairs: &Corpus) -> Result<Vec<Alignment>> {
    let lengths: Vec<(usize, usize)> = (0..pairs.len()).map(|k| pairs.lengths(k)).collect();
    Ok(ldd_align::pharaoh::read_file(path, Some(&lengths))?)
}

/// [`read_alignments`] for the lines of one shard: `pairs` are corpus lines `first..`, the
/// file holds the alignments of the whole corpus (`total` lines).
pub fn read_alignments_of(
    path: &Path,
    pairs: &Corpus,
    first: u64,
    total: u64,
) -> Result<Vec<Alignment>> {
    let lengths: Vec<(usize, usize)> = (0..pairs.len()).map(|k| pairs.lengths(k)).collect();
    Ok(ldd_align::pharaoh::read_range(
        path, first, &lengths, total,
    )?)
}

/// `pairs` as the aligner takes them: lowercased (kept in `lowered`) with
/// `opts.lowercase`, else as they are.
fn cased<'a>(
    pairs: &'a Corpus,
    opts: &AlignOptions,
    lowered: &'a mut Option<Corpus>,
) -> &'a Corpus {
    match opts.lowercase {
        true => lowered.insert(lowercase(pairs)),
        false => pairs,
    }
}

/// The corpus with every token lowercased (`str::to_lowercase`), same pairs and lengths.
pub fn lowercase(corpus: &Corpus) -> Corpus {
    let lower =
        |v: &ldd_align::Vocab| -> Vec<String> { v.words().map(str::to_lowercase).collect() };
    let (src, tgt) = (lower(corpus.src_vocab()), lower(corpus.tgt_vocab()));
    let mut out = Corpus::new();
    for k in 0..corpus.len() {
        let s: Vec<&str> = corpus
            .src(k)
            .iter()
            .map(|&i| src[i as usize].as_str())
            .collect();
        let t: Vec<&str> = corpus
            .tgt(k)
            .iter()
            .map(|&i| tgt[i as usize].as_str())
            .collect();
        out.push_pair(&s, &t);
    }
    out
}

/// An aligner trained once (on the `--align-train` files alone) or loaded, to align several
/// corpora with (`run` trains one for all the corpora of a language pair).
pub struct Trained {
    aligner: Aligner,
    /// Sentence pairs it was trained on (0 when loaded).
    pub pairs: u64,
    /// The options it was trained with: a corpus aligned with it uses the same.
    opts: AlignOptions,
}

impl Trained {
    /// The options it was trained with.
    pub fn options(&self) -> &AlignOptions {
        &self.opts
    }

    /// The aligner's lexical translation probabilities of a source word and a target token,
    /// `p(target | source)` and `p(source | target)` ([`Aligner::lexical`]), both looked
    /// up as the aligner saw its words (lowercased when it was trained lowercased).
    pub fn lexical(&self, source: &str, target: &str) -> (Option<f64>, Option<f64>) {
        if self.opts.lowercase {
            self.aligner
                .lexical(&source.to_lowercase(), &target.to_lowercase())
        } else {
            self.aligner.lexical(source, target)
        }
    }

    /// Whether the model knows both words ([`ldd_align::Aligner::knows`]; lowercased as
    /// [`Trained::lexical`] looks them up).
    pub fn knows(&self, source: &str, target: &str) -> bool {
        if self.opts.lowercase {
            self.aligner
                .knows(&source.to_lowercase(), &target.to_lowercase())
        } else {
            self.aligner.knows(source, target)
        }
    }

    /// Saves the model under `prefix` (the files of [`crate::layout::model_files`] that it
    /// has: fast_align's model only in the directions it was trained in), moved into place
    /// together once all are written.
    pub fn save(&self, prefix: &Path) -> Result<()> {
        self.aligner.save(|f| model_path(prefix, f))?;
        Ok(())
    }
}

impl fmt::Debug for Trained {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Trained")
            .field("model_type", &self.opts.model_type)
            .field("pairs", &self.pairs)
            .finish()
    }
}

/// The corpus being aligned, by its two files: when they are a prefix of `--align-train`,
/// its pairs are already in the training data and are not added a second time.
#[derive(Debug, Clone, Copy)]
pub struct CorpusSides<'a> {
    /// Source side.
    pub source: &'a Path,
    /// Target side.
    pub target: &'a Path,
}

/// Trains the aligner of `opts` on its `--align-train` files alone (saving it under
/// `save_model`), to align corpora with [`align`] afterwards. Every corpus aligned with it
/// gets what [`align`] alone gives when that corpus's files are among the training files.
pub fn train(opts: &AlignOptions, langs: (&str, &str)) -> Result<Trained> {
    let (aligner, pairs) = train_on(&train_files(opts, langs)?, None, opts, langs)?;
    Ok(Trained {
        aligner,
        pairs,
        opts: opts.clone(),
    })
}

/// The saved model `opts.model` loaded once, to align any number of corpora with
/// ([`align`]'s `trained`); an error when `opts` names no model.
pub fn load(opts: &AlignOptions, langs: (&str, &str)) -> Result<Trained> {
    Ok(Trained {
        aligner: load_aligner(opts, langs)?,
        pairs: 0,
        opts: opts.clone(),
    })
}

/// The model saved under `prefix` by a training with `opts` on `pairs` sentence pairs
/// (the aligner cache's), loaded as that training's result: aligning with it gives what
/// the training gave, and it reports the same pairs.
pub fn load_trained(
    prefix: &Path,
    opts: &AlignOptions,
    langs: (&str, &str),
    pairs: u64,
) -> Result<Trained> {
    let loading = AlignOptions {
        model: Some(prefix.to_path_buf()),
        ..opts.clone()
    };
    Ok(Trained {
        aligner: load_aligner(&loading, langs)?,
        pairs,
        opts: opts.clone(),
    })
}

/// What the aligner of a corpus is trained on: the two files of every `--align-train`
/// prefix, and whether the corpus's own pairs are added: not when its files, `own`, are
/// among them (`None`: a corpus without files, always added).
pub fn training_files(
    opts: &AlignOptions,
    langs: (&str, &str),
    own: Option<CorpusSides<'_>>,
) -> Result<(Vec<(PathBuf, PathBuf)>, bool)> {
    let files = train_files(opts, langs)?;
    let with_own = own.is_none_or(|o| {
        !files.iter().any(|(s, t)| {
            ldd_io::output::same_file(s, o.source) && ldd_io::output::same_file(t, o.target)
        })
    });
    Ok((files, with_own))
}

/// Trains the aligner of a corpus: on its `--align-train` files and on `pairs`, the
/// corpus's own pairs, unless its files (`own`) are among those files
/// ([`training_files`]). What [`align`] does when it is given no trained aligner and no
/// model to load.
pub fn train_corpus(
    pairs: &Corpus,
    opts: &AlignOptions,
    langs: (&str, &str),
    own: Option<CorpusSides<'_>>,
) -> Result<Trained> {
    let (files, with_own) = training_files(opts, langs, own)?;
    let mut lowered = None;
    let pairs = cased(pairs, opts, &mut lowered);
    let (aligner, n) = train_on(&files, with_own.then_some(Pairs::from(pairs)), opts, langs)?;
    Ok(Trained {
        aligner,
        pairs: n,
        opts: opts.clone(),
    })
}

/// The two files of every `--align-train` prefix.
fn train_files(opts: &AlignOptions, langs: (&str, &str)) -> Result<Vec<(PathBuf, PathBuf)>> {
    opts.train
        .iter()
        .map(|p| Ok((side(p, langs.0)?, side(p, langs.1)?)))
        .collect()
}

/// How the aligner of `opts` is trained.
fn spec(opts: &AlignOptions) -> AlignerSpec {
    match opts.model_type {
        ModelType::Hmm => AlignerSpec::Hmm(HmmOptions {
            max_len: opts.max_tokens,
            ..HmmOptions::default()
        }),
        ModelType::FastAlign => AlignerSpec::FastAlign {
            options: TrainOptions {
                iterations: opts.iterations,
                max_len: opts.max_tokens,
                ..TrainOptions::default()
            },
            direction: opts.direction,
        },
    }
}

/// The aligner of `opts` trained on the training `files` (split by the aligner's
/// tokenizer: training corpora are usually raw text) followed by the pairs of `corpus`
/// (already lowercased with `opts.lowercase`), saved under `opts.save_model`, and the
/// number of pairs trained on. The pairs are encoded into a temporary store as they are
/// read (unless `corpus` is the training data alone).
fn train_on(
    files: &[(PathBuf, PathBuf)],
    corpus: Option<Pairs<'_>>,
    opts: &AlignOptions,
    langs: (&str, &str),
) -> Result<(Aligner, u64)> {
    let start = Instant::now();
    let store;
    let data = match (files.is_empty(), corpus) {
        (true, Some(c)) => c,
        _ => {
            let mut b = PairStoreBuilder::new()?;
            for (sp, tp) in files {
                read_pairs(sp, tp, false, opts.lowercase, |s, t| Ok(b.push_pair(s, t)?))?;
            }
            if let Some(own) = corpus {
                b.push_pairs(own)?;
            }
            store = b.finish()?;
            read_event(&store, opts);
            Pairs::from(&store)
        }
    };
    let data = match opts.train_max {
        Some(n) if (n as usize) < data.len() => {
            opts.progress.report(&Event::Sample {
                trained: n,
                of: data.len() as u64,
            });
            data.sample(n as usize)
        }
        _ => data,
    };
    let spec = spec(opts);
    opts.progress.report(&Event::Training {
        pairs: data.len() as u64,
        model: opts.model_type,
        iterations: match &spec {
            AlignerSpec::Hmm(o) => (o.ibm1_iterations, o.hmm_iterations),
            AlignerSpec::FastAlign { options, .. } => (options.iterations, 0),
        },
    });
    let report = |e| opts.progress.aligner(e);
    let mut aligner = Aligner::train(data, &spec, &report)?;
    aligner.set_labels(langs.0, langs.1);
    if let Some(prefix) = &opts.save_model {
        aligner.save(|f| model_path(prefix, f))?;
    }
    opts.progress.report(&Event::Trained {
        model: opts.model_type,
        seconds: start.elapsed().as_secs_f64(),
    });
    Ok((aligner, data.len() as u64))
}

/// Reports the store of training pairs just read.
fn read_event(store: &PairStore, opts: &AlignOptions) {
    opts.progress.report(&Event::Read {
        pairs: store.len() as u64,
        tokens: store.tokens(),
        bytes: store.encoded_bytes(),
    });
}

/// The path of `file` of a model saved under `prefix`.
fn model_path(prefix: &Path, file: ModelFile) -> PathBuf {
    match file {
        ModelFile::Hmm => crate::layout::hmm_model_file(prefix),
        ModelFile::FastAlign { reverse } => crate::layout::model_file(prefix, reverse),
    }
}

/// The aligner of `opts` for the corpus `pairs`: `trained` (by [`train`] or [`load`], with
/// the same options), loaded (`opts.model`), or trained here on the `--align-train` files
/// and on `pairs` themselves, unless `own`, the corpus's files, are among those files; with
/// the number of pairs it was trained on.
fn aligner_for<'t>(
    pairs: Pairs<'_>,
    opts: &AlignOptions,
    langs: (&str, &str),
    own: Option<CorpusSides<'_>>,
    trained: Option<&'t Trained>,
) -> Result<(std::borrow::Cow<'t, Aligner>, u64)> {
    use std::borrow::Cow;
    if let Some(t) = trained {
        let same = AlignOptions {
            progress: Progress::default(),
            ..t.opts.clone()
        } == AlignOptions {
            progress: Progress::default(),
            ..opts.clone()
        };
        if !same {
            return Err(Error::Config(
                "internal: a corpus aligned with an aligner trained with other options".into(),
            ));
        }
        return Ok((Cow::Borrowed(&t.aligner), t.pairs));
    }
    if opts.model.is_some() {
        return Ok((Cow::Owned(load_aligner(opts, langs)?), 0));
    }
    // The corpus's own pairs, unless its files are among the training files.
    let (files, with_own) = training_files(opts, langs, own)?;
    let (a, n) = train_on(&files, with_own.then_some(pairs), opts, langs)?;
    Ok((Cow::Owned(a), n))
}

/// Aligns every pair of `pairs` (source–target orientation) with the options. `langs` name
/// the `--align-train` files and label saved models; a loaded model must carry the same
/// labels (and, for fast_align's, direction). The aligner is `trained` (by [`train`], with
/// the same options), loaded (`opts.model`), or trained here on the `--align-train` files
/// and on `pairs` themselves, unless `own`, the corpus's files, are among those files.
pub fn align(
    pairs: &Corpus,
    opts: &AlignOptions,
    langs: (&str, &str),
    own: Option<CorpusSides<'_>>,
    trained: Option<&Trained>,
) -> Result<Aligned> {
    let mut lowered = None;
    let pairs = cased(pairs, opts, &mut lowered);
    let (aligner, trained_pairs) = aligner_for(Pairs::from(pairs), opts, langs, own, trained)?;
    let mut over = TooLong::default();
    for k in 0..pairs.len() {
        let (n, m) = pairs.lengths(k);
        over.add(n, m, opts.max_tokens);
    }
    let too_long = over.report(opts);
    let start = Instant::now();
    let report = |e| opts.progress.aligner(e);
    let a = aligner.align(pairs, opts.direction, &report)?;
    opts.progress.report(&Event::Aligned {
        pairs: pairs.len() as u64,
        seconds: start.elapsed().as_secs_f64(),
    });
    Ok(Aligned {
        alignments: a.links,
        posteriors: a.posteriors,
        trained_pairs,
        too_long,
    })
}

/// What [`align_stored`] did: pairs trained on and pairs over `--align-max-tokens`.
#[derive(Debug, Clone, Copy)]
pub struct StoredRun {
    /// Sentence pairs the aligner was trained on (0 with a loaded model).
    pub trained_pairs: u64,
    /// Pairs of the corpus over `--align-max-tokens`.
    pub too_long: u64,
}

/// [`align`] for a corpus encoded in a store (its tokens lowercased already with
/// `opts.lowercase`): every pair's links, and their posteriors with the HMM, handed to
/// `sink` in corpus order as they are made, so that neither the corpus nor its alignments
/// are held in memory. `over` counted the corpus's pairs over `--align-max-tokens`.
pub fn align_stored(
    corpus: &PairStore,
    over: TooLong,
    opts: &AlignOptions,
    langs: (&str, &str),
    own: Option<CorpusSides<'_>>,
    sink: impl FnMut(usize, &[ldd_align::Link], Option<&[f64]>) -> ldd_align::Result<()> + Send,
) -> Result<StoredRun> {
    read_event(corpus, opts);
    let (aligner, trained_pairs) = aligner_for(Pairs::from(corpus), opts, langs, own, None)?;
    let too_long = over.report(opts);
    let start = Instant::now();
    let report = |e| opts.progress.aligner(e);
    aligner.align_each(corpus, opts.direction, &report, sink)?;
    opts.progress.report(&Event::Aligned {
        pairs: corpus.len() as u64,
        seconds: start.elapsed().as_secs_f64(),
    });
    Ok(StoredRun {
        trained_pairs,
        too_long,
    })
}

/// The saved aligner `opts.model`: `PREFIX.hmm.ldda`, or fast_align's `PREFIX.fwd.ldda` /
/// `PREFIX.rev.ldda` (those `opts.direction` needs), checked against `langs`.
fn load_aligner(opts: &AlignOptions, langs: (&str, &str)) -> Result<Aligner> {
    let Some(prefix) = &opts.model else {
        return Err(Error::Config(
            "internal: an aligner model to load was not named".into(),
        ));
    };
    let files: Vec<(ModelFile, PathBuf)> = match opts.model_type {
        ModelType::Hmm => vec![(ModelFile::Hmm, crate::layout::hmm_model_file(prefix))],
        ModelType::FastAlign => [false, true]
            .into_iter()
            .filter(|&r| opts.direction.needs(r))
            .map(|reverse| {
                (
                    ModelFile::FastAlign { reverse },
                    crate::layout::model_file(prefix, reverse),
                )
            })
            .collect(),
    };
    for (_, path) in &files {
        ldd_io::output::note_input(path);
        let (other, kind) = match opts.model_type {
            ModelType::Hmm => (
                crate::layout::model_file(prefix, false),
                ModelType::FastAlign,
            ),
            ModelType::FastAlign => (crate::layout::hmm_model_file(prefix), ModelType::Hmm),
        };
        other_type_hint(path, &other, kind)?;
    }
    let refs: Vec<(ModelFile, &Path)> = files.iter().map(|(f, p)| (*f, p.as_path())).collect();
    let mut a = Aligner::load(&refs)?;
    check_labels(a.labels(), &files[0].1, langs, &opts.progress)?;
    a.set_max_len(opts.max_tokens);
    Ok(a)
}

/// When the model file `path` is missing but `other`, a model of type `kind`, is there:
/// an error saying which option loads it.
fn other_type_hint(path: &Path, other: &Path, kind: ModelType) -> Result<()> {
    if path.exists() || !other.is_file() {
        return Ok(());
    }
    Err(Error::Resource(format!(
        "--align-model: no {}, but {} is there: load it with --align-model-type {kind}",
        ldd_io::error::shown(path),
        ldd_io::error::shown(other)
    )))
}

/// The pairs of a corpus over `--align-max-tokens`, counted as it is read.
#[derive(Debug, Clone, Copy, Default)]
pub struct TooLong {
    pairs: u64,
    huge: u64,
}

impl TooLong {
    /// Counts a pair of `source_tokens` source tokens and `target_tokens` target tokens.
    pub fn add(&mut self, source_tokens: usize, target_tokens: usize, max_tokens: usize) {
        if source_tokens > max_tokens || target_tokens > max_tokens {
            self.pairs += 1;
            self.huge +=
                u64::from(source_tokens.saturating_mul(target_tokens) > ldd_align::MAX_LONG_CELLS);
        }
    }

    /// Reports what becomes of the pairs counted; returns their number.
    fn report(self, opts: &AlignOptions) -> u64 {
        if self.pairs > 0 {
            opts.progress.report(&Event::TooLong {
                pairs: self.pairs,
                max_tokens: opts.max_tokens,
                model: opts.model_type,
                huge: self.huge,
            });
        }
        self.pairs
    }
}

/// A loaded model must be for these languages.
fn check_labels(
    labels: Option<(&str, &str)>,
    path: &Path,
    langs: (&str, &str),
    progress: &Progress,
) -> Result<()> {
    let shown = ldd_io::error::shown(path);
    match labels {
        Some((s, t)) if (s, t) != langs => Err(Error::Data(format!(
            "{shown}: an aligner model for {}-{}, but this corpus is {}-{}",
            ldd_io::error::escape(s),
            ldd_io::error::escape(t),
            langs.0,
            langs.1
        ))),
        Some(_) => Ok(()),
        None => {
            progress.report(&Event::Unlabelled { path });
            Ok(())
        }
    }
}

/// The value among `all` whose `name` is `value` (the `FromStr` of the option enums), or an
/// error listing every name.
pub(crate) fn by_name<T: Copy>(
    all: &[T],
    name: fn(T) -> &'static str,
    value: &str,
) -> Result<T, String> {
    all.iter()
        .copied()
        .find(|&v| name(v) == value)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&v| name(v)).collect();
            format!("`{value}`: expected one of {}", names.join(", "))
        })
}

#[cfg(test)]
mod tests {
    use super::{options, Direction};

    /// The manifest records a direction by its command-line name, and reads it back.
    #[test]
    fn direction_names_are_the_recorded_names() {
        for d in Direction::ALL {
            let rec = options::Direction::from(d);
            assert_eq!(serde_json::to_value(rec).unwrap(), d.name());
            assert_eq!(Direction::from(rec), d);
        }
    }
}

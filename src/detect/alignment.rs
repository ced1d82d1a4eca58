//! Word alignment of a corpus with the built-in aligner (`crates/align`), or read from a
//! Pharaoh file: the evidence reordering detection runs on; and systems' outputs aligned
//! to their sources with a saved aligner, the evidence locus accuracy runs on
//! ([`align_output`]).
//!
//! Tokens: the source side is the UD words of the tree when a parse is given (so indices
//! match the parse and the marked files), else the aligner's tokenizer; the target side is
//! the aligner's Unicode-aware tokenizer, or whitespace with `pretokenized`. Extra training
//! data (`train`) is always split by the aligner's tokenizer, on both sides.
//! With `lowercase`, every token is lowercased before training and aligning (alignment
//! indices, and so the set files, keep the original tokens).
//!
//! Memory: alignment EM needs the whole corpus (and any training data) in memory, as
//! interned token ids; it is the one stage that does. `run` trains one aligner for every
//! corpus of a pair ([`train`]) and keeps it, not the training data, while it aligns them.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use ldd_align::{symmetrize, Alignment, Corpus, HmmModel, HmmOptions, Method, Model, TrainOptions};
use ldd_conllu::Sentence;
use ldd_io::Input;

use crate::error::{Error, Result};
use crate::format::options;

/// Which alignment the detection uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Source→target model only (fast_align's default direction).
    Forward,
    /// Target→source model only (fast_align `-r`; the paper's choice).
    Reverse,
    /// Links both directional models agree on: the most precise sets (default).
    Intersection,
    /// Links of either model.
    Union,
    /// grow-diag-final-and symmetrisation (atools).
    GrowDiagFinalAnd,
}

impl Direction {
    /// Every direction, in the order `--help` lists them.
    pub const ALL: [Direction; 5] = [
        Direction::Intersection,
        Direction::Reverse,
        Direction::Forward,
        Direction::Union,
        Direction::GrowDiagFinalAnd,
    ];

    /// The name used on the command line and in the manifest.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::Reverse => "reverse",
            Direction::Intersection => "intersection",
            Direction::Union => "union",
            Direction::GrowDiagFinalAnd => "grow-diag-final-and",
        }
    }

    /// Whether the direction needs the model `reverse` (`false`: forward).
    fn needs(self, reverse: bool) -> bool {
        match self {
            Direction::Forward => !reverse,
            Direction::Reverse => reverse,
            _ => true,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Direction {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        super::by_name(&Direction::ALL, Direction::name, s)
    }
}

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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ModelType {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        super::by_name(&ModelType::ALL, ModelType::name, s)
    }
}

impl From<ModelType> for options::ModelType {
    fn from(m: ModelType) -> Self {
        match m {
            ModelType::Hmm => options::ModelType::Hmm,
            ModelType::FastAlign => options::ModelType::FastAlign,
        }
    }
}

impl From<options::ModelType> for ModelType {
    fn from(m: options::ModelType) -> Self {
        match m {
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
    /// Report alignment progress on stderr.
    pub progress: bool,
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
            progress: false,
        }
    }
}

impl From<Direction> for options::Direction {
    fn from(d: Direction) -> Self {
        match d {
            Direction::Forward => options::Direction::Forward,
            Direction::Reverse => options::Direction::Reverse,
            Direction::Intersection => options::Direction::Intersection,
            Direction::Union => options::Direction::Union,
            Direction::GrowDiagFinalAnd => options::Direction::GrowDiagFinalAnd,
        }
    }
}

impl From<options::Direction> for Direction {
    fn from(d: options::Direction) -> Self {
        match d {
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
    fn from(o: &AlignOptions) -> Self {
        options::Align {
            model_type: o.model_type.into(),
            direction: o.direction.into(),
            iterations: o.iterations,
            train: o.train.clone(),
            model: o.model.clone(),
            save_model: o.save_model.clone(),
            pretokenized: o.pretokenized,
            max_tokens: o.max_tokens,
            lowercase: o.lowercase,
        }
    }
}

impl From<&options::Align> for AlignOptions {
    fn from(o: &options::Align) -> Self {
        AlignOptions {
            model_type: o.model_type.into(),
            direction: o.direction.into(),
            iterations: o.iterations,
            train: o.train.clone(),
            model: o.model.clone(),
            save_model: o.save_model.clone(),
            pretokenized: o.pretokenized,
            max_tokens: o.max_tokens,
            lowercase: o.lowercase,
            progress: false,
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

/// Tokens of a line for alignment: whitespace-split if `pretokenized`, else the aligner's
/// tokenizer.
pub fn tokens(line: &str, pretokenized: bool) -> Vec<&str> {
    if pretokenized {
        line.split_whitespace().collect()
    } else {
        ldd_align::tokenize(line)
    }
}

/// The tokens a corpus line contributes to alignment: the UD words of its tree and the
/// target's [`tokens`]; none when either side is empty (such a line is never selected).
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
        tokens(target, pretokenized)
            .into_iter()
            .map(str::to_string)
            .collect(),
    )
}

/// A system's output lines read and aligned to their source words ([`align_output`]).
#[derive(Debug)]
pub struct AlignedOutput {
    /// The output's tokens (the aligner's tokenizer, or whitespace with `pretokenized`) of
    /// each line aligned, by line id.
    pub tokens: BTreeMap<u32, Vec<String>>,
    /// Their links to the source words, (0-based source word, output token), by line id.
    pub links: BTreeMap<u32, Alignment>,
    /// The output file's line count, for the caller to check against the corpus's.
    pub lines: u64,
}

/// The lines of the system output `hyp` that `words` names (1-based line id → the
/// source words of its tree), tokenized as the aligner does and aligned to those words
/// with `trained`; the whole file is read, only those lines are kept.
pub fn align_output(
    trained: &Trained,
    hyp: &Path,
    words: &BTreeMap<u32, Vec<String>>,
    opts: &AlignOptions,
    langs: (&str, &str),
) -> Result<AlignedOutput> {
    let ids: Vec<u32> = words.keys().copied().collect();
    let (lines, n) = crate::read::select::read_selected(hyp, &ids)?;
    let mut pairs = Corpus::new();
    let mut tokens = BTreeMap::new();
    for ((id, src), line) in words.iter().zip(&lines) {
        let t: Vec<String> = self::tokens(line, opts.pretokenized)
            .into_iter()
            .map(String::from)
            .collect();
        pairs.push_pair(src, &t);
        tokens.insert(*id, t);
    }
    let a = align(&pairs, opts, langs, None, Some(trained))?;
    Ok(AlignedOutput {
        links: tokens.keys().copied().zip(a.alignments).collect(),
        tokens,
        lines: n,
    })
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

/// Appends the line pairs of two line-aligned files, both sides tokenized with
/// [`tokens`]; returns the number of pairs.
pub fn push_files(c: &mut Corpus, sp: &Path, tp: &Path, pretokenized: bool) -> Result<u64> {
    let mut s = Input::open(sp)?;
    let mut t = Input::open(tp)?;
    let mut n = 0;
    loop {
        let a: Option<Vec<String>> = s.next_line()?.map(|l| {
            tokens(l, pretokenized)
                .into_iter()
                .map(str::to_string)
                .collect()
        });
        let b: Option<Vec<String>> = t.next_line()?.map(|l| {
            tokens(l, pretokenized)
                .into_iter()
                .map(str::to_string)
                .collect()
        });
        match (a, b) {
            (Some(a), Some(b)) => {
                c.push_pair(&a, &b);
                n += 1;
            }
            (None, None) => return Ok(n),
            _ => {
                let (si, ti) = (s.finish()?, t.finish()?);
                return Err(Error::Data(format!(
                    "inputs are not line-aligned: {} has {} lines but {} has {}",
                    ldd_io::error::shown(&si.path),
                    si.lines,
                    ldd_io::error::shown(&ti.path),
                    ti.lines
                )));
            }
        }
    }
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
pub fn lowercase(c: &Corpus) -> Corpus {
    let lower =
        |v: &ldd_align::Vocab| -> Vec<String> { v.words().map(str::to_lowercase).collect() };
    let (src, tgt) = (lower(c.src_vocab()), lower(c.tgt_vocab()));
    let mut out = Corpus::new();
    for k in 0..c.len() {
        let s: Vec<&str> = c.src(k).iter().map(|&i| src[i as usize].as_str()).collect();
        let t: Vec<&str> = c.tgt(k).iter().map(|&i| tgt[i as usize].as_str()).collect();
        out.push_pair(&s, &t);
    }
    out
}

/// The two directional alignments (each present when the direction needs it) and, from
/// the HMM, the posterior of every link.
struct Directional {
    fwd: Option<Vec<Alignment>>,
    rev: Option<Vec<Alignment>>,
    posteriors: Option<[Vec<Vec<f64>>; 2]>,
}

/// The trained (or loaded) models of one model type.
enum Models {
    /// fast_align's model, forward and reverse (each present when the direction needs it).
    FastAlign([Option<Model>; 2]),
    /// The HMM by agreement, both directions.
    Hmm(HmmModel),
}

/// An aligner trained once on the `--align-train` files alone, to align several corpora
/// with (`run` trains one for all the corpora of a language pair).
pub struct Trained {
    models: Models,
    /// Sentence pairs it was trained on.
    pub pairs: u64,
    /// The options it was trained with: a corpus aligned with it uses the same.
    opts: AlignOptions,
}

impl Trained {
    /// The options it was trained with.
    pub fn options(&self) -> &AlignOptions {
        &self.opts
    }

    /// Saves the model under `prefix` (the files of [`crate::layout::model_files`] that
    /// it has: fast_align's model only in the directions it was trained in), moved into
    /// place together once all are written.
    pub fn save(&self, prefix: &Path) -> Result<()> {
        let staged = match &self.models {
            Models::Hmm(m) => vec![m.save_staged(crate::layout::hmm_model_file(prefix))?],
            Models::FastAlign(dirs) => {
                let mut v = Vec::new();
                for (reverse, m) in [false, true].into_iter().zip(dirs) {
                    if let Some(m) = m {
                        v.push(m.save_staged(crate::layout::model_file(prefix, reverse))?);
                    }
                }
                v
            }
        };
        ldd_io::AtomicFile::commit_together(staged)?;
        Ok(())
    }
}

impl fmt::Debug for Trained {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trained")
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
    let (models, pairs) = train_on(&train_files(opts, langs)?, None, opts, langs)?;
    Ok(Trained {
        models,
        pairs,
        opts: AlignOptions {
            progress: false,
            ..opts.clone()
        },
    })
}

/// The saved model `opts.model` loaded once, to align any number of corpora with
/// ([`align`]'s `trained`); an error when `opts` names no model.
pub fn load(opts: &AlignOptions, langs: (&str, &str)) -> Result<Trained> {
    if opts.model.is_none() {
        return Err(Error::Config(
            "internal: an aligner model to load was not named".into(),
        ));
    }
    Ok(Trained {
        models: models(&Corpus::new(), opts, langs)?,
        pairs: 0,
        opts: AlignOptions {
            progress: false,
            ..opts.clone()
        },
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
        progress: false,
        ..opts.clone()
    };
    Ok(Trained {
        models: models(&Corpus::new(), &loading, langs)?,
        pairs,
        opts: AlignOptions {
            progress: false,
            ..opts.clone()
        },
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
    let (models, n) = train_on(&files, with_own.then_some(pairs), opts, langs)?;
    Ok(Trained {
        models,
        pairs: n,
        opts: AlignOptions {
            progress: false,
            ..opts.clone()
        },
    })
}

/// The two files of every `--align-train` prefix.
fn train_files(opts: &AlignOptions, langs: (&str, &str)) -> Result<Vec<(PathBuf, PathBuf)>> {
    opts.train
        .iter()
        .map(|p| Ok((side(p, langs.0)?, side(p, langs.1)?)))
        .collect()
}

/// The models of `opts` trained on the training `files` (split by the aligner's
/// tokenizer: training corpora are usually raw text) followed by the pairs of `corpus`
/// (already lowercased with `opts.lowercase`), and the number of pairs trained on.
fn train_on(
    files: &[(PathBuf, PathBuf)],
    corpus: Option<&Corpus>,
    opts: &AlignOptions,
    langs: (&str, &str),
) -> Result<(Models, u64)> {
    let training;
    let (train_corpus, pairs) = match (files.is_empty(), corpus) {
        (true, Some(c)) => (c, c.len() as u64),
        _ => {
            let mut c = Corpus::new();
            let mut n = 0;
            for (sp, tp) in files {
                n += push_files(&mut c, sp, tp, false)?;
            }
            if let Some(own) = corpus {
                for k in 0..own.len() {
                    c.push_pair(&own.src_tokens(k), &own.tgt_tokens(k));
                }
                n += own.len() as u64;
            }
            training = if opts.lowercase { lowercase(&c) } else { c };
            (&training, n)
        }
    };
    Ok((models(train_corpus, opts, langs)?, pairs))
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
    let too_long = (0..pairs.len())
        .filter(|&k| {
            let (s, t) = pairs.lengths(k);
            s > opts.max_tokens || t > opts.max_tokens
        })
        .count() as u64;
    let owned;
    let (models, trained_pairs) = match trained {
        Some(t) => {
            if t.opts
                != (AlignOptions {
                    progress: false,
                    ..opts.clone()
                })
            {
                return Err(Error::Config(
                    "internal: a corpus aligned with an aligner trained with other options".into(),
                ));
            }
            (&t.models, t.pairs)
        }
        None if opts.model.is_some() => {
            owned = models(pairs, opts, langs)?;
            (&owned, 0)
        }
        None => {
            // The corpus's own pairs, unless its files are among the training files.
            let (files, with_own) = training_files(opts, langs, own)?;
            let (m, n) = train_on(&files, with_own.then_some(pairs), opts, langs)?;
            owned = m;
            (&owned, n)
        }
    };
    let dirs = align_with(models, pairs, opts);
    if too_long > 0 && opts.progress {
        note_too_long(pairs, opts, too_long);
    }
    let method = match opts.direction {
        Direction::Forward | Direction::Reverse => {
            let reverse = opts.direction == Direction::Reverse;
            let al = if reverse { dirs.rev } else { dirs.fwd };
            let i = usize::from(reverse);
            return Ok(Aligned {
                alignments: al.unwrap_or_default(),
                posteriors: dirs.posteriors.map(|[f, r]| if i == 0 { f } else { r }),
                trained_pairs,
                too_long,
            });
        }
        Direction::Intersection => Method::Intersection,
        Direction::Union => Method::Union,
        Direction::GrowDiagFinalAnd => Method::GrowDiagFinalAnd,
    };
    let (fwd, rev) = (dirs.fwd.unwrap_or_default(), dirs.rev.unwrap_or_default());
    let alignments: Vec<Alignment> = (0..pairs.len())
        .map(|k| {
            let (sl, tl) = pairs.lengths(k);
            symmetrize(&fwd[k], &rev[k], sl, tl, method)
        })
        .collect();
    let posteriors = dirs.posteriors.map(|[pf, pr]| {
        alignments
            .iter()
            .enumerate()
            .map(|(k, links)| {
                let of = |al: &Alignment, p: &[f64], l: &(usize, usize)| {
                    al.binary_search(l).ok().map(|i| p[i])
                };
                links
                    .iter()
                    .map(|l| match (of(&fwd[k], &pf[k], l), of(&rev[k], &pr[k], l)) {
                        (Some(a), Some(b)) => a.min(b),
                        (Some(a), None) | (None, Some(a)) => a,
                        (None, None) => 0.0,
                    })
                    .collect()
            })
            .collect()
    });
    Ok(Aligned {
        alignments,
        posteriors,
        trained_pairs,
        too_long,
    })
}

/// The models of `opts.model_type`: loaded from `opts.model`, or trained on `train_corpus`
/// (and saved under `opts.save_model`).
fn models(train_corpus: &Corpus, opts: &AlignOptions, langs: (&str, &str)) -> Result<Models> {
    match opts.model_type {
        ModelType::FastAlign => fast_align(train_corpus, opts, langs).map(Models::FastAlign),
        ModelType::Hmm => hmm(train_corpus, opts, langs).map(Models::Hmm),
    }
}

/// The directions of `models` that `opts.direction` needs, for every pair of `pairs`.
fn align_with(models: &Models, pairs: &Corpus, opts: &AlignOptions) -> Directional {
    let clock = std::time::Instant::now();
    let dirs = match models {
        Models::FastAlign([fwd, rev]) => Directional {
            fwd: fwd.as_ref().map(|m| m.align(pairs)),
            rev: rev.as_ref().map(|m| m.align(pairs)),
            posteriors: None,
        },
        Models::Hmm(m) => {
            let j = m.align(pairs);
            Directional {
                fwd: Some(j.forward.links),
                rev: Some(j.reverse.links),
                posteriors: Some([j.forward.posteriors, j.reverse.posteriors]),
            }
        }
    };
    if opts.progress {
        eprintln!(
            "ldd-sets: alignment of {} pairs done in {:.1} s",
            pairs.len(),
            clock.elapsed().as_secs_f64()
        );
    }
    dirs
}

/// fast_align's model in each direction `opts.direction` needs: trained, or loaded from
/// `PREFIX.fwd.ldda` / `PREFIX.rev.ldda`.
fn fast_align(
    train_corpus: &Corpus,
    opts: &AlignOptions,
    langs: (&str, &str),
) -> Result<[Option<Model>; 2]> {
    let mut out: [Option<Model>; 2] = [None, None];
    // Saved models, moved into place together once both are trained.
    let mut saved = Vec::new();
    for (i, reverse) in [false, true].into_iter().enumerate() {
        if !opts.direction.needs(reverse) {
            continue;
        }
        let name = if reverse { "reverse" } else { "forward" };
        let model = match &opts.model {
            Some(prefix) => {
                let path = crate::layout::model_file(prefix, reverse);
                ldd_io::output::note_input(&path);
                other_type_hint(
                    &path,
                    &crate::layout::hmm_model_file(prefix),
                    ModelType::Hmm,
                )?;
                let mut m = Model::load(&path)?;
                check_direction(&m, &path, reverse)?;
                check_labels(m.labels(), &path, langs)?;
                m.set_max_len(opts.max_tokens);
                m
            }
            None => {
                let clock = std::time::Instant::now();
                if opts.progress {
                    eprintln!(
                        "ldd-sets: training the {name} aligner on {} sentence pairs ({} EM iterations)...",
                        train_corpus.len(),
                        opts.iterations
                    );
                }
                let topts = TrainOptions {
                    iterations: opts.iterations,
                    reverse,
                    max_len: opts.max_tokens,
                    ..TrainOptions::default()
                };
                let mut m = Model::train(train_corpus, &topts)?;
                m.set_labels(langs.0, langs.1);
                if let Some(prefix) = &opts.save_model {
                    saved.push(m.save_staged(crate::layout::model_file(prefix, reverse))?);
                }
                if opts.progress {
                    eprintln!(
                        "ldd-sets: {name} aligner trained in {:.1} s",
                        clock.elapsed().as_secs_f64()
                    );
                }
                m
            }
        };
        out[i] = Some(model);
    }
    ldd_io::AtomicFile::commit_together(saved)?;
    Ok(out)
}

/// The HMM by agreement, both directions: trained, or loaded from `PREFIX.hmm.ldda`.
fn hmm(train_corpus: &Corpus, opts: &AlignOptions, langs: (&str, &str)) -> Result<HmmModel> {
    match &opts.model {
        Some(prefix) => {
            let path = crate::layout::hmm_model_file(prefix);
            ldd_io::output::note_input(&path);
            other_type_hint(
                &path,
                &crate::layout::model_file(prefix, false),
                ModelType::FastAlign,
            )?;
            let mut m = HmmModel::load(&path)?;
            check_labels(m.labels(), &path, langs)?;
            m.set_max_len(opts.max_tokens);
            Ok(m)
        }
        None => {
            let clock = std::time::Instant::now();
            let hopts = HmmOptions {
                max_len: opts.max_tokens,
                ..HmmOptions::default()
            };
            if opts.progress {
                eprintln!(
                    "ldd-sets: training the HMM aligner (both directions by agreement) on {} sentence pairs ({} IBM1 + {} HMM EM iterations)...",
                    train_corpus.len(),
                    hopts.ibm1_iterations,
                    hopts.hmm_iterations
                );
            }
            let mut m = HmmModel::train(train_corpus, &hopts)?;
            m.set_labels(langs.0, langs.1);
            if let Some(prefix) = &opts.save_model {
                m.save(crate::layout::hmm_model_file(prefix))?;
            }
            if opts.progress {
                eprintln!(
                    "ldd-sets: HMM aligner trained in {:.1} s",
                    clock.elapsed().as_secs_f64()
                );
            }
            Ok(m)
        }
    }
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

/// Says how many pairs were over `--align-max-tokens` and what became of them.
fn note_too_long(pairs: &Corpus, opts: &AlignOptions, too_long: u64) {
    if opts.model_type == ModelType::Hmm {
        eprintln!(
            "ldd-sets: note: {too_long} sentence pairs with more than {} tokens on a side were \
             left out of training and not aligned (--align-max-tokens)",
            opts.max_tokens
        );
        return;
    }
    let huge = (0..pairs.len())
        .filter(|&k| {
            let (s, t) = pairs.lengths(k);
            s.saturating_mul(t) > ldd_align::MAX_LONG_CELLS
        })
        .count();
    eprintln!(
        "ldd-sets: note: {too_long} sentence pairs with more than {} tokens on a side were \
         left out of training (--align-max-tokens) and aligned one at a time{}",
        opts.max_tokens,
        if huge > 0 {
            format!(
                "; {huge} of them, over {} token pairs, were not aligned",
                ldd_align::MAX_LONG_CELLS
            )
        } else {
            String::new()
        }
    );
}

/// A loaded fast_align model must be for this direction.
fn check_direction(m: &Model, path: &Path, reverse: bool) -> Result<()> {
    if m.options().reverse == reverse {
        return Ok(());
    }
    let name = |r: bool| if r { "reverse" } else { "forward" };
    Err(Error::Data(format!(
        "{}: a {} model, but the {} model is needed here (the files were renamed?)",
        ldd_io::error::shown(path),
        name(m.options().reverse),
        name(reverse)
    )))
}

/// A loaded model must be for these languages.
fn check_labels(labels: Option<(&str, &str)>, path: &Path, langs: (&str, &str)) -> Result<()> {
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
            eprintln!(
                "ldd-sets: note: {shown} was saved by an older ldd-sets and does not record its \
                 languages; they cannot be checked"
            );
            Ok(())
        }
    }
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

//! Reordering LDD: word-align every pair and keep those with an aligned word pair far
//! apart (Choshen & Abend 2019, §4.1; Birch 2011).
//!
//! Tokens: the source side is the UD words of the tree (so indices match the parse);
//! the target side is `ldd_align::tokenize` (Unicode-aware: punctuation split off,
//! word-internal apostrophes, hyphens and decimal marks kept), or whitespace with
//! `--pretokenized`. A pair is in `reorder/geK` if some link (i, j) between tokens that
//! both contain a letter has |i − j| ≥ K.
//!
//! Memory: alignment EM needs the whole corpus (and any `--align-train` data) in
//! memory, as interned token ids; everything else streams.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use ldd_align::{
    max_reorder, symmetrize, AlignError, Alignment, Corpus, Method, Model, ReorderHit, TrainOptions,
};
use serde::Serialize;

use crate::conllu::{parse_block, Block, ConlluReader};
use crate::corpus::LineReader;
use crate::error::{Error, Result};
use crate::manifest::SetEntry;
use crate::sets::{mark, Bucket, Entry, SetFiles, SetWriter};

/// The phenomenon name (output directory) of reordering sets.
pub const NAME: &str = "reorder";

/// Which alignment the detection uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
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

/// How reordering sets are built.
#[derive(Debug, Clone, Serialize)]
pub struct ReorderOptions {
    /// Minimum distances of the `geK` sets.
    pub buckets: Vec<u32>,
    /// Which alignment is used.
    pub direction: Direction,
    /// EM iterations (fast_align `-I`).
    pub iterations: u32,
    /// Extra training data: prefixes `P` of files `P.<src>[.gz]` and `P.<tgt>[.gz]`.
    pub train: Vec<PathBuf>,
    /// Load trained models from `PREFIX.fwd.ldda` / `PREFIX.rev.ldda` instead of training.
    pub model: Option<PathBuf>,
    /// Save the trained models under this prefix.
    pub save_model: Option<PathBuf>,
    /// Use these Pharaoh alignments (source word index − target token index, 0-based,
    /// one line per corpus line) instead of aligning.
    pub alignments: Option<PathBuf>,
    /// Target side is already tokenized: split on whitespace.
    pub pretokenized: bool,
    /// Report alignment progress on stderr.
    #[serde(skip)]
    pub progress: bool,
}

impl Default for ReorderOptions {
    fn default() -> Self {
        ReorderOptions {
            buckets: vec![5, 10, 15, 20],
            direction: Direction::Intersection,
            iterations: 5,
            train: Vec::new(),
            model: None,
            save_model: None,
            alignments: None,
            pretokenized: false,
            progress: false,
        }
    }
}

/// Target-side tokens of a line.
pub fn target_tokens(line: &str, pretokenized: bool) -> Vec<&str> {
    if pretokenized {
        line.split_whitespace().collect()
    } else {
        ldd_align::tokenize(line)
    }
}

fn align_err(e: AlignError) -> Error {
    match e {
        AlignError::Io { path, source } => Error::io(&path, source),
        other => Error::Data(other.to_string()),
    }
}

fn model_path(prefix: &Path, dir: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_owned();
    s.push(format!(".{dir}.ldda"));
    PathBuf::from(s)
}

/// Finds `P.<lang>` or `P.<lang>.gz`.
fn side(prefix: &Path, lang: &str) -> Result<PathBuf> {
    let base = format!("{}.{lang}", prefix.display());
    [format!("{base}.gz"), base.clone()]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .ok_or_else(|| {
            Error::Resource(format!(
                "--align-train {}: no file {base}[.gz]",
                prefix.display()
            ))
        })
}

/// Appends the extra training corpus `prefix` (both sides tokenized with the aligner's
/// tokenizer, or whitespace if pretokenized).
fn push_training(
    c: &mut Corpus,
    prefix: &Path,
    langs: (&str, &str),
    pretokenized: bool,
) -> Result<u64> {
    let (sp, tp) = (side(prefix, langs.0)?, side(prefix, langs.1)?);
    push_files(c, &sp, &tp, pretokenized)
}

/// Appends the line pairs of two line-aligned files, both sides tokenized with the
/// aligner's tokenizer (or whitespace if pretokenized); returns the number of pairs.
pub fn push_files(c: &mut Corpus, sp: &Path, tp: &Path, pretokenized: bool) -> Result<u64> {
    let mut s = LineReader::open(sp)?;
    let mut t = LineReader::open(tp)?;
    let mut n = 0;
    loop {
        let a = s.next_line()?.map(|l| {
            target_tokens(l, pretokenized)
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
        });
        let b = t.next_line()?.map(|l| {
            target_tokens(l, pretokenized)
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
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
                    si.path.display(),
                    si.lines,
                    ti.path.display(),
                    ti.lines
                )));
            }
        }
    }
}

/// What alignment produced, for the manifest.
#[derive(Debug, Clone, Serialize)]
pub struct ReorderInfo {
    /// The options used.
    pub options: ReorderOptions,
    /// Source tokens: always the UD words of the tree.
    pub source_tokens: &'static str,
    /// Target tokens: aligner tokenizer or whitespace.
    pub target_tokens: &'static str,
    /// Sentence pairs the aligner was trained on (0 with external alignments or a loaded model).
    pub trained_pairs: u64,
    /// Lines with at least one qualifying link.
    pub lines_with_links: u64,
    /// Corpus-wide alignment file (Pharaoh) and per-line maximum distances.
    pub files: ReorderFiles,
}

/// Corpus-wide reorder files.
#[derive(Debug, Clone, Serialize)]
pub struct ReorderFiles {
    /// Pharaoh alignments of every corpus line.
    pub alignments: String,
    /// `id, distance, src_index, src_word, tgt_index, tgt_word` for every line with a link.
    pub max_distance: String,
}

/// Aligns the corpus (`pairs[k]` = tokens of line k+1), finds the maximal reordering of
/// every line and writes the reorder sets by a second pass over the inputs.
#[allow(clippy::too_many_arguments)]
pub fn build(
    pairs: &Corpus,
    opts: &ReorderOptions,
    langs: (&str, &str),
    inputs: (&Path, &Path, &Path),
    lengths: &[u32],
    root: &Path,
) -> Result<(Vec<SetEntry>, ReorderInfo)> {
    let (alignments, trained_pairs) = align(pairs, opts, langs)?;
    let hits: Vec<Option<ReorderHit>> = (0..pairs.len())
        .map(|k| max_reorder(&pairs.src_tokens(k), &pairs.tgt_tokens(k), &alignments[k]))
        .collect();

    std::fs::create_dir_all(root.join(NAME)).map_err(|e| Error::io(&root.join(NAME), e))?;
    let files = ReorderFiles {
        alignments: format!("{NAME}/alignments.txt"),
        max_distance: format!("{NAME}/max_distance.tsv"),
    };
    write_corpus_files(root, &files, pairs, &alignments, &hits)?;

    let mut buckets = opts.buckets.clone();
    buckets.sort_unstable();
    buckets.dedup();
    let mut writers = Vec::new();
    for b in &buckets {
        let mut f = SetFiles::new(NAME, &format!("ge{b}"), langs.0, langs.1);
        f.marked_target = Some(format!("{NAME}/ge{b}.marked.{}", langs.1));
        writers.push(SetWriter::create(root, f)?);
    }
    let min = buckets.first().map_or(usize::MAX, |b| *b as usize);
    let (src, tgt, conllu) = inputs;
    let mut s = LineReader::open(src)?;
    let mut t = LineReader::open(tgt)?;
    let mut c = ConlluReader::open(conllu)?;
    let mut block = Block::default();
    let mut k = 0usize;
    while let Some(sl) = s.next_line()? {
        let sl = sl.to_string();
        let tl = t.next_line()?.map(str::to_string).unwrap_or_default();
        if !c.next_block(&mut block)? {
            break;
        }
        let hit = hits.get(k).copied().flatten();
        if let Some(h) = hit.filter(|h| lengths.get(k).is_some_and(|&l| l > 0) && h.distance >= min)
        {
            let tree = parse_block(&block, conllu)?;
            let text = tree.to_conllu();
            let tokens = tree.owned_tokens();
            let mut marks = vec![Vec::new(); tree.len()];
            if let Some(m) = marks.get_mut(h.src_index) {
                m.push("s1".to_string());
            }
            let marked = mark(&tokens, &marks);
            let tt = pairs.tgt_tokens(k);
            let marked_t = tt
                .iter()
                .enumerate()
                .map(|(j, w)| {
                    if j == h.tgt_index {
                        format!("<t1>{w}</t1>")
                    } else {
                        w.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            for (b, w) in buckets.iter().zip(writers.iter_mut()) {
                if h.distance >= *b as usize {
                    w.write(&Entry {
                        id: k as u64 + 1,
                        source: &sl,
                        target: &tl,
                        conllu: &text,
                        marked: &marked,
                        marked_target: Some(&marked_t),
                        pairs: 1,
                        words: u64::from(lengths[k]),
                    })?;
                }
            }
        }
        k += 1;
    }
    let mut sets = Vec::new();
    for (b, w) in buckets.iter().zip(writers) {
        sets.push(w.finish("reorder", NAME, Bucket::AtLeast(*b))?);
    }
    let info = ReorderInfo {
        options: opts.clone(),
        source_tokens: "UD words of the source tree",
        target_tokens: if opts.pretokenized {
            "whitespace"
        } else {
            "ldd-align tokenizer"
        },
        trained_pairs,
        lines_with_links: hits.iter().filter(|h| h.is_some()).count() as u64,
        files,
    };
    Ok((sets, info))
}

/// Alignments of every pair, in source–target orientation, and the number of pairs trained on.
pub fn align(
    pairs: &Corpus,
    opts: &ReorderOptions,
    langs: (&str, &str),
) -> Result<(Vec<Alignment>, u64)> {
    if let Some(path) = &opts.alignments {
        let lengths: Vec<(usize, usize)> = (0..pairs.len()).map(|k| pairs.lengths(k)).collect();
        return Ok((
            ldd_align::pharaoh::read_file(path, Some(&lengths)).map_err(align_err)?,
            0,
        ));
    }
    let needs = |d: &str| match opts.direction {
        Direction::Forward => d == "fwd",
        Direction::Reverse => d == "rev",
        _ => true,
    };
    let mut trained_pairs = 0u64;
    let training;
    let train_corpus = if opts.train.is_empty() {
        pairs
    } else {
        let mut c = Corpus::new();
        for p in &opts.train {
            trained_pairs += push_training(&mut c, p, langs, opts.pretokenized)?;
        }
        for k in 0..pairs.len() {
            c.push_pair(&pairs.src_tokens(k), &pairs.tgt_tokens(k));
        }
        training = c;
        &training
    };
    let mut out: Vec<Option<Vec<Alignment>>> = vec![None, None];
    for (i, d) in ["fwd", "rev"].iter().enumerate() {
        if !needs(d) {
            continue;
        }
        let topts = TrainOptions {
            iterations: opts.iterations,
            reverse: *d == "rev",
            ..TrainOptions::default()
        };
        let clock = std::time::Instant::now();
        let model = match &opts.model {
            Some(prefix) => Model::load(model_path(prefix, d)).map_err(align_err)?,
            None => {
                if opts.progress {
                    eprintln!(
                        "ldd-sets: training the {} aligner on {} sentence pairs ({} EM iterations)...",
                        if *d == "fwd" { "forward" } else { "reverse" },
                        train_corpus.len(),
                        opts.iterations
                    );
                }
                let m = Model::train(train_corpus, &topts).map_err(align_err)?;
                if let Some(prefix) = &opts.save_model {
                    m.save(model_path(prefix, d)).map_err(align_err)?;
                }
                m
            }
        };
        out[i] = Some(model.align(pairs));
        if opts.progress {
            eprintln!(
                "ldd-sets: {} alignment of {} pairs done in {:.1} s",
                if *d == "fwd" { "forward" } else { "reverse" },
                pairs.len(),
                clock.elapsed().as_secs_f64()
            );
        }
    }
    if opts.model.is_none() {
        trained_pairs += pairs.len() as u64;
    }
    let (fwd, rev) = (out[0].take(), out[1].take());
    let method = match opts.direction {
        Direction::Forward => return Ok((fwd.unwrap_or_default(), trained_pairs)),
        Direction::Reverse => return Ok((rev.unwrap_or_default(), trained_pairs)),
        Direction::Intersection => Method::Intersection,
        Direction::Union => Method::Union,
        Direction::GrowDiagFinalAnd => Method::GrowDiagFinalAnd,
    };
    let (fwd, rev) = (fwd.unwrap_or_default(), rev.unwrap_or_default());
    let sym = (0..pairs.len())
        .map(|k| {
            let (sl, tl) = pairs.lengths(k);
            symmetrize(&fwd[k], &rev[k], sl, tl, method)
        })
        .collect();
    Ok((sym, trained_pairs))
}

fn write_corpus_files(
    root: &Path,
    files: &ReorderFiles,
    pairs: &Corpus,
    alignments: &[Alignment],
    hits: &[Option<ReorderHit>],
) -> Result<()> {
    let p = root.join(&files.alignments);
    let mut w = BufWriter::new(File::create(&p).map_err(|e| Error::io(&p, e))?);
    for a in alignments {
        writeln!(w, "{}", ldd_align::pharaoh::format_line(a)).map_err(|e| Error::io(&p, e))?;
    }
    w.flush().map_err(|e| Error::io(&p, e))?;
    let p = root.join(&files.max_distance);
    let mut w = BufWriter::new(File::create(&p).map_err(|e| Error::io(&p, e))?);
    let res = (|| -> std::io::Result<()> {
        writeln!(w, "id\tdistance\tsrc_index\tsrc_word\ttgt_index\ttgt_word")?;
        for (k, h) in hits.iter().enumerate() {
            if let Some(h) = h {
                let (s, t) = (pairs.src_tokens(k), pairs.tgt_tokens(k));
                writeln!(
                    w,
                    "{}\t{}\t{}\t{}\t{}\t{}",
                    k + 1,
                    h.distance,
                    h.src_index,
                    s[h.src_index],
                    h.tgt_index,
                    t[h.tgt_index]
                )?;
            }
        }
        w.flush()
    })();
    res.map_err(|e| Error::io(&p, e))
}

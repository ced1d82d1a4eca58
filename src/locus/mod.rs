//! Stage **locus**: whether each system's output renders the source words of a locus
//! (the two words of a long-distance relation) as the reference does — the judgement
//! behind locus accuracy (`score --metrics locus`), the sheets' automatic key (`sheets`)
//! and the agreement with people (`tally`, `mqm`).
//!
//! What enters: a sets directory ([`crate::pipeline::read::sets::Loaded`]; its aligner's
//! saved model and the source words of the lines to judge), the reference and the systems'
//! outputs.
//! What leaves: per line, each side tokenized and aligned to the source words
//! ([`rule::Side`]); per source word or locus, its judgement ([`rule`], `locus:3`: correct,
//! incorrect, unaligned, no reference, with the evidence that decided it, from the output's
//! words at the locus alone); per set, the accuracy of comparable words ([`words`]: the
//! baseline).
//!
//! Memory: the source words, tokens and links of the lines judged, for the reference and
//! one system at a time.

pub mod rule;
pub mod words;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::judged::Judgement;
use crate::format::locus::Locus;
use crate::pipeline::align::{self, AlignOptions, ModelType, Trained};
use crate::pipeline::parse::{Tagger, TargetModel};
use crate::pipeline::read::sets::{distinct_loci, locus_rows, tree_columns, Distinct, Loaded};
use rule::Side;

/// The metric's key in `--metrics`, `scores.json` and `scores.csv`.
pub const KEY: &str = "locus";

/// The metric's name in tables.
pub const LABEL: &str = "Locus";

/// The source words (UD words of the tree) of the lines to judge, by 1-based line id.
pub type SourceWords = BTreeMap<u32, Vec<String>>;

/// Each judged line's side (reference or one system's output), by 1-based line id.
pub type Sides = BTreeMap<u32, Side>;

/// How outputs are judged: the aligner that links both sides to the source words, and
/// the optional tagger whose lemmas count as an exact rendering.
#[derive(Debug)]
pub struct Judging {
    /// The aligner: the sets' saved model, symmetrised by [`rule::ALIGNMENT`].
    pub aligner: AlignOptions,
    /// The target language's tagger (`--lemma-model`).
    tagger: Option<Tagger>,
    /// Language codes (source, target).
    langs: (String, String),
    /// The corpus's lines and the manifest recording them: no file aligned has more.
    corpus: (u64, std::path::PathBuf),
}

impl Judging {
    /// How the loci of `loaded` are judged: with its aligner (`align_model`, else the model the
    /// run loaded or saved; [`aligner`]) and, with `lemma_model`, the lemmas of the target
    /// language.
    pub fn new(
        loaded: &Loaded,
        align_model: Option<&Path>,
        lemma_model: Option<&TargetModel>,
    ) -> Result<Judging> {
        let target = loaded.manifest.languages.target();
        Ok(Judging {
            aligner: aligner(loaded, align_model)?,
            tagger: lemma_model.map(|m| m.load(target)).transpose()?,
            langs: (
                loaded.manifest.languages.source().to_string(),
                target.to_string(),
            ),
            corpus: (loaded.manifest.corpus.lines, loaded.manifest_path.clone()),
        })
    }

    /// The settings part of the signature: the rule, the alignment and the aligner
    /// model's SHA-256 (first 16 hex digits of each file), with lemmas the tagger's.
    pub fn settings(&self) -> Result<String> {
        let opts = &self.aligner;
        let mut sums = Vec::new();
        if let Some(prefix) = &opts.model {
            for f in crate::layout::model_files(prefix, opts.model_type == ModelType::Hmm) {
                let (sha, _) = ldd_io::sha256_file(&f)?;
                sums.push(sha[..16].to_string());
            }
        }
        let (lemma, model) = match &self.tagger {
            Some(t) => (",lemma", format!("|lemma-model:{}", t.sha)),
            None => ("", String::new()),
        };
        Ok(format!(
            "{}|rule:{}{lemma}|lexicon:{}|fit:{}{model}|aligner:{}-{}|model:{}|ci:wilson|test:mcnemar-exact",
            rule::VERSION,
            rule::NAME,
            rule::LEXICON,
            rule::FIT,
            opts.model_type,
            opts.direction.name(),
            sums.join("+")
        ))
    }

    /// The aligner, loaded once.
    pub fn load(&self) -> Result<Trained> {
        align::load(&self.aligner, (&self.langs.0, &self.langs.1))
    }

    /// The lines `words` names of the file `path` (the reference or an output), read,
    /// tokenized as the aligner does and aligned to their source words with `trained`
    /// ([`Judging::align_texts`]); and the file's line count, for the caller to check.
    pub fn align(
        &self,
        trained: &Trained,
        path: &Path,
        words: &SourceWords,
    ) -> Result<(Sides, u64)> {
        let ids: Vec<u32> = words.keys().copied().collect();
        let input =
            crate::pipeline::read::select::open_corpus_long(path, self.corpus.0, &self.corpus.1)?;
        let (lines, n) = crate::pipeline::read::select::read_selected(input, &ids)?;
        let texts: BTreeMap<u32, String> = ids.into_iter().zip(lines).collect();
        Ok((self.align_texts(trained, &texts, words)?, n))
    }

    /// `texts` (by line id; each line's source words in `words`) tokenized as the aligner
    /// does and aligned to their source words with `trained`.
    pub fn align_texts(
        &self,
        trained: &Trained,
        texts: &BTreeMap<u32, String>,
        words: &SourceWords,
    ) -> Result<Sides> {
        let mut pairs = ldd_align::Corpus::new();
        let mut tokens = Vec::with_capacity(texts.len());
        let none = Vec::new();
        for (id, text) in texts {
            let t: Vec<String> = ldd_align::line_tokens(text, self.aligner.pretokenized)
                .into_iter()
                .map(String::from)
                .collect();
            pairs.push_pair(words.get(id).unwrap_or(&none), &t);
            tokens.push((*id, t));
        }
        let a = align::align(
            &pairs,
            &self.aligner,
            (&self.langs.0, &self.langs.1),
            None,
            Some(trained),
        )?;
        Ok(tokens
            .into_iter()
            .zip(a.alignments)
            .map(|((id, tokens), mut links)| {
                links.sort_unstable();
                (
                    id,
                    Side {
                        tokens,
                        links,
                        lemmas: None,
                    },
                )
            })
            .collect())
    }

    /// With a tagger, adds the lemmas of the lines `ids` of `sides` that have none yet
    /// (tagged in parallel, as the aligner tokenized them); nothing without one.
    pub fn tag(&self, sides: &mut Sides, ids: &BTreeSet<u32>) -> Result<()> {
        use rayon::prelude::*;
        let Some(tagger) = &self.tagger else {
            return Ok(());
        };
        let todo: Vec<(u32, Vec<String>)> = ids
            .iter()
            .filter_map(|id| {
                let s = sides.get(id)?;
                s.lemmas.is_none().then(|| (*id, s.tokens.clone()))
            })
            .collect();
        // In line order, so that an error names the first line that failed.
        let tagged: Vec<Result<(u32, Vec<String>)>> = todo
            .par_iter()
            .map(|(id, toks)| {
                let t: Vec<&str> = toks.iter().map(String::as_str).collect();
                let tags = tagger.tags(*id, &t)?;
                Ok((
                    *id,
                    tags.into_iter().map(|x| x.lemma.to_lowercase()).collect(),
                ))
            })
            .collect();
        for r in tagged {
            let (id, lemmas) = r?;
            if let Some(s) = sides.get_mut(&id) {
                s.lemmas = Some(lemmas);
            }
        }
        Ok(())
    }

    /// Whether lemmas are matched.
    pub fn has_tagger(&self) -> bool {
        self.tagger.is_some()
    }

    /// The target language: whose inflectional endings make a morphological variant.
    pub fn target(&self) -> &str {
        &self.langs.1
    }
}

impl rule::Lexicon for Trained {
    fn probabilities(&self, source: &str, target: &str) -> rule::Lexical {
        let (forward, reverse) = self.lexical(source, target);
        rule::Lexical { forward, reverse }
    }
}

/// What judging the lines of a sets directory needs besides their two sides: their source
/// words and parts of speech, the aligner's lexicon and the target language.
pub struct Context<'a> {
    /// The source words of the lines, by 1-based line id.
    pub words: &'a SourceWords,
    /// Their parts of speech.
    pub upos: &'a words::Upos,
    /// The aligner (its lexical probabilities).
    pub lexicon: &'a dyn rule::Lexicon,
    /// The target language.
    pub target: &'a str,
}

impl Context<'_> {
    /// What the rule knows of line `id` besides its sides.
    pub fn line(&self, id: u32) -> rule::Line<'_> {
        rule::Line {
            source: self.words.get(&id).map_or(&[][..], Vec::as_slice),
            upos: self.upos.get(&id).map_or(&[][..], Vec::as_slice),
            lexicon: self.lexicon,
            target: self.target,
        }
    }
}

/// The aligner that aligns the reference and the outputs to their sources: the manifest's
/// alignment options with a saved model — `model` (`--align-model`), else the model the
/// run loaded, else the one it saved — symmetrised by [`rule::ALIGNMENT`].
pub fn aligner(loaded: &Loaded, model: Option<&Path>) -> Result<AlignOptions> {
    let Some(r) = &loaded.manifest.reorder else {
        return Err(Error::Config(format!(
            "locus judging needs the aligner the sets were made with, and {} records none (the \
             sets were made with --no-reorder); extract again without --no-reorder",
            ldd_io::error::shown(&loaded.manifest_path)
        )));
    };
    let rec = &r.options.align;
    let mut opts = AlignOptions::from(rec);
    let hmm = opts.model_type == ModelType::Hmm;
    // The aligner saved with the sets, checked like every file of them.
    let own = match &r.files.model {
        Some(rel) if model.is_none() => {
            for f in crate::layout::model_files(Path::new(rel), hmm) {
                let name = f.to_string_lossy();
                if loaded.manifest.checksums.contains_key(name.as_ref()) {
                    crate::pipeline::read::sets::file(&loaded.manifest, &loaded.dir, &name)?;
                }
            }
            Some(crate::pipeline::read::sets::resolve(&loaded.dir, rel)?)
        }
        _ => None,
    };
    let prefix = model
        .map(Path::to_path_buf)
        .or(own)
        .or_else(|| rec.model.clone())
        .or_else(|| rec.save_model.clone());
    let Some(prefix) = prefix else {
        let why = if r.options.alignments.is_some() {
            "the sets were aligned by the given --alignments, not by the built-in aligner"
        } else {
            "the sets were made by an older ldd-sets, which kept the aligner only with \
             --save-align-model"
        };
        return Err(Error::Config(format!(
            "locus judging aligns each output to its source with the aligner the sets were \
             made with, but {} records no saved aligner ({why}): give --align-model PREFIX (a \
             model of the same type, {}, as `extract --save-align-model PREFIX` or `align` \
             save it), or extract the sets again",
            ldd_io::error::shown(&loaded.manifest_path),
            opts.model_type
        )));
    };
    for f in crate::layout::model_files(&prefix, hmm) {
        if !f.is_file() {
            // A model of the other type at that prefix: say so, not that a file is missing.
            let other = crate::layout::model_files(&prefix, !hmm);
            if other.iter().all(|o| o.is_file()) {
                return Err(Error::Config(format!(
                    "locus judging: {} is a model of the other aligner ({}), but the sets \
                     were aligned with the {} model, which locus judging must use: give \
                     --align-model PREFIX of such a model (saved by `extract \
                     --save-align-model`, or `align --align-model-type {}`)",
                    ldd_io::error::shown(&other[0]),
                    if hmm { "fast_align's" } else { "HMM" },
                    opts.model_type,
                    opts.model_type,
                )));
            }
            return Err(Error::Config(format!(
                "locus judging: the aligner model {} does not exist{}",
                ldd_io::error::shown(&f),
                if model.is_some() {
                    ""
                } else {
                    " (the manifest names it): give --align-model PREFIX"
                }
            )));
        }
    }
    opts.model = Some(prefix);
    opts.direction = rule::ALIGNMENT;
    opts.train.clear();
    opts.save_model = None;
    opts.progress = Default::default();
    Ok(opts)
}

/// A set's loci.
#[derive(Debug, Clone)]
pub struct SetLoci {
    /// Index into `l.units`.
    pub unit: usize,
    /// Its locus rows.
    pub rows: Vec<Locus>,
}

/// A tree's words and their parts of speech, in order: what locus judgements align to.
pub fn word_columns(sentence: &ldd_conllu::Sentence<'_>) -> (Vec<String>, Vec<String>) {
    sentence
        .words
        .iter()
        .map(|w| (w.form.to_string(), w.upos.to_string()))
        .unzip()
}

/// The loci of a sets directory and the trees of their lines ([`read_loci`]).
#[derive(Debug, Clone)]
pub struct Loci {
    /// Every set with a locus file, in manifest order.
    pub sets: Vec<SetLoci>,
    /// The source words of every line they hold.
    pub words: SourceWords,
    /// Their parts of speech.
    pub upos: words::Upos,
    /// The distinct loci of the sets (a locus in several sets once), in the order of the
    /// phenomena, then of line, dependent and head.
    pub distinct: Vec<Distinct>,
}

/// Every set's locus rows (sets without a locus file are left out), their distinct loci,
/// and the source words and their parts of speech of every line they hold; each file
/// checked against the manifest's record.
pub fn read_loci(loaded: &Loaded) -> Result<Loci> {
    let mut sets = Vec::new();
    let mut trees: BTreeMap<u32, (Vec<String>, Vec<String>)> = BTreeMap::new();
    for k in 0..loaded.units.len() {
        let Some(rows) = locus_rows(loaded, k)? else {
            continue;
        };
        if !rows.is_empty() {
            tree_columns(loaded, k, |_| true, &mut trees, word_columns)?;
        }
        sets.push(SetLoci { unit: k, rows });
    }
    if sets.is_empty() {
        return Err(Error::Config(format!(
            "locus judging: {} names no locus file (the sets were made by an older \
             ldd-sets); extract again",
            ldd_io::error::shown(&loaded.manifest_path)
        )));
    }
    for s in &sets {
        if let Some(r) = s.rows.iter().find(|r| !trees.contains_key(&(r.id as u32))) {
            return Err(Error::Data(format!(
                "{}: line {} is not in its set",
                ldd_io::error::shown(
                    &loaded.dir.join(
                        loaded.units[s.unit]
                            .set
                            .files
                            .locus
                            .as_deref()
                            .unwrap_or("")
                    )
                ),
                r.id
            )));
        }
    }
    let (mut words, mut upos) = (SourceWords::new(), words::Upos::new());
    for (id, (w, p)) in trees {
        words.insert(id, w);
        upos.insert(id, p);
    }
    let by_set: Vec<(usize, &[Locus])> = sets.iter().map(|s| (s.unit, s.rows.as_slice())).collect();
    let distinct = distinct_loci(loaded, &by_set);
    Ok(Loci {
        sets,
        words,
        upos,
        distinct,
    })
}

/// A locus as one output renders it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendering {
    /// The dependent (reorder loci: the first link's source word).
    pub dep: rule::Word,
    /// The head (`None`: a locus of one word).
    pub head: Option<rule::Word>,
    /// The locus's judgement ([`rule::locus`]).
    pub judgement: Judgement,
    /// For two words, whether the output keeps the reference's order of their tokens.
    pub order: Option<bool>,
}

impl Rendering {
    /// The evidence of each word, as `scores.loci.tsv` writes it: the dependent's, then
    /// the head's, comma-separated.
    pub fn evidence(&self) -> String {
        let mut s = self.dep.evidence.name();
        if let Some(h) = &self.head {
            s.push(',');
            s.push_str(&h.evidence.name());
        }
        s
    }
}

/// One output line judged against its reference ([`judge_line`]).
#[derive(Debug, Clone)]
pub struct LineJudgements {
    /// The sentence chrF of the output against the reference (0–1): not part of any
    /// judgement, reported beside it and the baseline of the agreement with people.
    pub sentence_chrf: f64,
    /// Each content word's judgement ([`rule::CONTENT`]), by 0-based word index, in order.
    pub words: Vec<(usize, rule::Word)>,
    /// The judgement of each locus given, in order.
    pub loci: Vec<Rendering>,
}

/// chrF (sacreBLEU's defaults) of an output line against its reference line, 0–1 (chrF
/// removes whitespace, so the tokens joined by spaces give the raw lines' chrF).
pub fn sentence_chrf(output: &rule::Side, reference: &rule::Side) -> f64 {
    use ldd_eval::chrf::ChrfScoring;
    use ldd_eval::{ChrfStats, SufficientStats};
    let (h, r) = (output.tokens.join(" "), reference.tokens.join(" "));
    ChrfStats::from_pair(&h, &r).score(&ChrfScoring::default()) / 100.0
}

/// Judges one line: its content words (by the parts of speech of `line`) and `loci`, with
/// `reference` and `output` aligned to its source words.
pub fn judge_line(
    line: &rule::Line<'_>,
    reference: &Side,
    output: &Side,
    loci: &[&Locus],
) -> LineJudgements {
    let words = line
        .upos
        .iter()
        .enumerate()
        .filter(|(_, u)| rule::CONTENT.contains(&u.as_str()))
        .map(|(w, _)| (w, rule::word(line, reference, output, w)))
        .collect();
    LineJudgements {
        sentence_chrf: sentence_chrf(output, reference),
        words,
        loci: loci
            .iter()
            .map(|l| judge(line, l, reference, output))
            .collect(),
    }
}

/// Judges `loc` on one line: `reference` and `output` aligned to its source words.
pub fn judge(line: &rule::Line<'_>, loc: &Locus, reference: &Side, output: &Side) -> Rendering {
    let word = |id: u32| rule::word(line, reference, output, id as usize - 1);
    let dep = word(loc.dep.id);
    let head = loc.head.as_ref().map(|h| word(h.id));
    let mut ws = vec![&dep];
    ws.extend(head.as_ref());
    let judgement = rule::locus(&ws);
    let order = head.as_ref().and_then(|h| rule::order_kept(&dep, h));
    Rendering {
        dep,
        head,
        judgement,
        order,
    }
}

/// The lines of `loci` where lemmas could change a judgement: a word with a reference
/// that the output does not render by the same word.
pub fn lines_for_lemmas<'a>(
    cx: &Context<'_>,
    loci: impl Iterator<Item = &'a Locus>,
    reference: &Sides,
    output: &Sides,
) -> BTreeSet<u32> {
    let mut ids = BTreeSet::new();
    for loc in loci {
        let id = loc.id as u32;
        let (Some(r), Some(h)) = (reference.get(&id), output.get(&id)) else {
            continue;
        };
        let j = judge(&cx.line(id), loc, r, h);
        let other = |w: &rule::Word| {
            !matches!(
                w.evidence,
                rule::Evidence::Same | rule::Evidence::NoReference
            )
        };
        if other(&j.dep) || j.head.as_ref().is_some_and(other) {
            ids.insert(id);
        }
    }
    ids
}

/// Every system's outputs (`hyps`) of the lines `words` holds, aligned with the aligner of
/// `judging` (loaded once), after the reference (`reference`, the corpus target); `each` gets the
/// judging context, the reference's sides and each system's in turn (one system's lines
/// held at a time), with lemmas where `loci` need them. An output without the corpus's
/// line count (of `loaded`) is an error. Returns the reference's sides.
#[allow(clippy::too_many_arguments)]
pub fn align_each(
    loaded: &Loaded,
    judging: &Judging,
    reference: &Path,
    hyps: &[PathBuf],
    (words, upos): (&SourceWords, &words::Upos),
    loci: &[&Locus],
    mut each: impl FnMut(&Context<'_>, &Sides, Sides) -> Result<()>,
) -> Result<Sides> {
    let trained = judging.load()?;
    let cx = Context {
        words,
        upos,
        lexicon: &trained,
        target: judging.target(),
    };
    let (mut refs, _) = judging.align(&trained, reference, words)?;
    for hyp in hyps {
        let (mut out, n) = judging.align(&trained, hyp, words)?;
        loaded
            .manifest
            .check_translation(&loaded.manifest_path, hyp, n)?;
        if judging.has_tagger() {
            let ids = lines_for_lemmas(&cx, loci.iter().copied(), &refs, &out);
            judging.tag(&mut refs, &ids)?;
            judging.tag(&mut out, &ids)?;
        }
        each(&cx, &refs, out)?;
    }
    Ok(refs)
}

/// One locus as each system's output renders it ([`judge_loci`]).
#[derive(Debug, Clone)]
pub struct Judged {
    /// The reference's tokens (as the aligner tokenizes it).
    pub reference: Vec<String>,
    /// Each system's output tokens and rendering, in `hyps` order.
    pub outputs: Vec<(Vec<String>, Rendering)>,
}

/// Judges `loci` (each with its reference line's text) on every system's outputs (`hyps`)
/// of the sets `loaded`: both sides aligned to `words` (the words of the loci's trees, by line
/// id, with their parts of speech `upos`), one system's lines held at a time. An output
/// without the corpus's line count is an error.
pub fn judge_loci(
    loaded: &Loaded,
    judging: &Judging,
    hyps: &[PathBuf],
    loci: &[(&Locus, &str)],
    (words, upos): (&SourceWords, &words::Upos),
) -> Result<Vec<Judged>> {
    let trained = judging.load()?;
    let cx = Context {
        words,
        upos,
        lexicon: &trained,
        target: judging.target(),
    };
    let texts: BTreeMap<u32, String> = loci
        .iter()
        .map(|(x, r)| (x.id as u32, r.to_string()))
        .collect();
    let mut refs = judging.align_texts(&trained, &texts, words)?;
    let mut out: Vec<Judged> = loci
        .iter()
        .map(|(x, _)| Judged {
            reference: refs
                .get(&(x.id as u32))
                .map(|s| s.tokens.clone())
                .unwrap_or_default(),
            outputs: Vec::with_capacity(hyps.len()),
        })
        .collect();
    let empty = Side::default();
    for hyp in hyps {
        let (mut sides, n) = judging.align(&trained, hyp, words)?;
        loaded
            .manifest
            .check_translation(&loaded.manifest_path, hyp, n)?;
        if judging.has_tagger() {
            let ids = lines_for_lemmas(&cx, loci.iter().map(|x| x.0), &refs, &sides);
            judging.tag(&mut refs, &ids)?;
            judging.tag(&mut sides, &ids)?;
        }
        for ((x, _), o) in loci.iter().zip(out.iter_mut()) {
            let id = x.id as u32;
            let (r, h) = (
                refs.get(&id).unwrap_or(&empty),
                sides.get(&id).unwrap_or(&empty),
            );
            o.outputs
                .push((h.tokens.clone(), judge(&cx.line(id), x, r, h)));
        }
    }
    Ok(out)
}

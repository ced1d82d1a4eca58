//! Stage **locus**: whether each system's output renders a locus (the two source words of
//! a long-distance relation) as the reference does — the judgement behind locus accuracy
//! (`score --metrics locus`), the sheets' automatic key (`sheets`) and the agreement with
//! people (`tally`, `mqm`).
//!
//! What enters: a sets directory ([`crate::pipeline::read::sets::Loaded`]; its aligner's
//! saved model and the source words of the lines to judge), the reference and the systems'
//! outputs, the target language's model and the relations of `config/relations.toml`.
//! What leaves: per line, each side tokenized, aligned to the source words and parsed
//! ([`rule::Side`], [`judging`]); per source word its judgement against its checked
//! reference rendering ([`rule`], [`mod@reference`]); per locus its verdict (`locus:4`:
//! correct, incorrect, differs, partial, unaligned, no reference, [`verdict`]) with the
//! evidence that decided it — the output's words at the locus, the relation in its parse
//! ([`dependency`], [`relation`]) and, for reordering loci, their order; per set, the
//! accuracy of comparable words ([`words`]: the baseline).
//!
//! Memory: the source words, tokens, links and parses of the lines judged, for the
//! reference and one system at a time.

pub mod dependency;
pub mod judging;
pub mod reference;
pub mod relation;
pub mod rule;
pub mod verdict;
pub mod words;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::locus::Locus;
use crate::pipeline::align::Trained;
use crate::pipeline::read::sets::{distinct_loci, locus_rows, tree_columns, Distinct, Loaded};
pub use judging::{aligner, Judging, Parsing};
use rule::Side;
pub use verdict::{judge, judge_line, sentence_chrf, Kind, LineJudgements, Rendering};

/// The metric's key in `--metrics`, `scores.json` and `scores.csv`.
pub const KEY: &str = "locus";

/// The metric's name in tables.
pub const LABEL: &str = "Locus";

/// The source words (UD words of the tree) of the lines to judge, by 1-based line id.
pub type SourceWords = BTreeMap<u32, Vec<String>>;

/// Each judged line's side (reference or one system's output), by 1-based line id.
pub type Sides = BTreeMap<u32, Side>;

impl rule::Lexicon for Trained {
    fn probabilities(&self, source: &str, target: &str) -> rule::Lexical {
        let (forward, reverse) = self.lexical(source, target);
        rule::Lexical { forward, reverse }
    }

    fn knows(&self, source: &str, target: &str) -> bool {
        Trained::knows(self, source, target)
    }
}

/// What judging the lines of a sets directory needs besides their two sides: their source
/// words and parts of speech, the aligner's lexicon, the target language and its relations.
pub struct Context<'a> {
    /// The source words of the lines, by 1-based line id.
    pub words: &'a SourceWords,
    /// Their parts of speech.
    pub upos: &'a words::Upos,
    /// The aligner (its lexical probabilities).
    pub lexicon: &'a dyn rule::Lexicon,
    /// The target language.
    pub target: &'a str,
    /// How each phenomenon's dependency is rendered in it.
    pub relations: &'a relation::Relations,
}

impl Context<'_> {
    /// What the rule knows of line `id` besides its sides.
    pub fn line(&self, id: u32) -> rule::Line<'_> {
        rule::Line {
            source: self.words.get(&id).map_or(&[][..], Vec::as_slice),
            upos: self.upos.get(&id).map_or(&[][..], Vec::as_slice),
            lexicon: self.lexicon,
            target: self.target,
            relations: self.relations,
        }
    }
}

/// A set's loci.
#[derive(Debug, Clone)]
pub struct SetLoci {
    /// Index into `l.units`.
    pub unit: usize,
    /// Its locus rows.
    pub rows: Vec<Locus>,
}

impl SetLoci {
    /// What its loci are (their phenomenon, and whether they are reordering loci).
    pub fn kind<'a>(&self, loaded: &'a Loaded) -> Kind<'a> {
        kind_of(loaded, self.unit)
    }
}

/// What the loci of unit `unit` of `loaded` are.
pub fn kind_of(loaded: &Loaded, unit: usize) -> Kind<'_> {
    let set = &loaded.units[unit].set;
    Kind {
        phenomenon: &set.phenomenon,
        reorder: set.kind == crate::format::sets::SetKind::Reorder,
    }
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

/// Every system's outputs (`hyps`) of the lines `words` holds, aligned with the aligner of
/// `judging` (loaded once) and parsed by its model, after the reference (`reference`, the
/// corpus target); `each` gets the judging context, the reference's sides and each
/// system's in turn (one system's lines held at a time). An output without the corpus's
/// line count (of `loaded`) is an error. Returns the reference's sides.
pub fn align_each(
    loaded: &Loaded,
    judging: &Judging,
    reference: &Path,
    hyps: &[PathBuf],
    (words, upos): (&SourceWords, &words::Upos),
    mut each: impl FnMut(&Context<'_>, &Sides, Sides) -> Result<()>,
) -> Result<Sides> {
    let trained = judging.load()?;
    let cx = Context {
        words,
        upos,
        lexicon: &trained,
        target: judging.target(),
        relations: &judging.relations,
    };
    let (refs, _) = judging.align(&trained, reference, words)?;
    for hyp in hyps {
        let (out, n) = judging.align(&trained, hyp, words)?;
        loaded
            .manifest
            .check_translation(&loaded.manifest_path, hyp, n)?;
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

/// A locus to judge, its kind and its reference line's text.
pub type ToJudge<'a> = (&'a Locus, Kind<'a>, &'a str);

/// Judges `loci` on every system's outputs (`hyps`) of the sets `loaded`: both sides
/// aligned to `words` (the words of the loci's trees, by line id, with their parts of
/// speech `upos`) and parsed, one system's lines held at a time. An output without the
/// corpus's line count is an error.
pub fn judge_loci(
    loaded: &Loaded,
    judging: &Judging,
    hyps: &[PathBuf],
    loci: &[ToJudge<'_>],
    (words, upos): (&SourceWords, &words::Upos),
) -> Result<Vec<Judged>> {
    let trained = judging.load()?;
    let cx = Context {
        words,
        upos,
        lexicon: &trained,
        target: judging.target(),
        relations: &judging.relations,
    };
    let texts: BTreeMap<u32, String> = loci
        .iter()
        .map(|(x, _, r)| (x.id as u32, r.to_string()))
        .collect();
    let refs = judging.align_texts(&trained, &texts, words)?;
    let mut out: Vec<Judged> = loci
        .iter()
        .map(|(x, ..)| Judged {
            reference: refs
                .get(&(x.id as u32))
                .map(|s| s.tokens.clone())
                .unwrap_or_default(),
            outputs: Vec::with_capacity(hyps.len()),
        })
        .collect();
    let empty = Side::default();
    for hyp in hyps {
        let (sides, n) = judging.align(&trained, hyp, words)?;
        loaded
            .manifest
            .check_translation(&loaded.manifest_path, hyp, n)?;
        for ((x, kind, _), o) in loci.iter().zip(out.iter_mut()) {
            let id = x.id as u32;
            let (r, h) = (
                refs.get(&id).unwrap_or(&empty),
                sides.get(&id).unwrap_or(&empty),
            );
            o.outputs
                .push((h.tokens.clone(), judge(&cx.line(id), x, *kind, r, h)));
        }
    }
    Ok(out)
}

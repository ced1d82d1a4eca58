//! Locus accuracy: whether each system's output renders, at each locus of a set, the
//! reference words aligned to its two source words ([`crate::format::locus`]).
//!
//! Each output line is aligned to its source (the UD words of the set's tree) with the
//! aligner the sets were made with (its saved model: `--align-model`, or the model the
//! manifest records as loaded or saved), and the output tokens linked to the locus's
//! dependent and head are compared with the reference tokens linked to them:
//!
//! - a locus word is **judged** when the reference has at least one token aligned to it;
//!   it is **rendered** when one output token aligned to it matches one of those
//!   reference tokens ([`matches`]: equal, equal once case-folded, or sharing a
//!   case-folded prefix of at least 4 letters and two thirds of the shorter word);
//! - a locus is **correct** when every judged word of it is rendered; a locus with no
//!   judged word has **no reference locus** and is counted apart, never as an error.
//!
//! Per set: the share of correct loci (×100) among the judged ones, its Wilson interval,
//! and McNemar's exact test of each system against the first on the same loci; per
//! phenomenon, Spearman and Pearson of accuracy against the sets' minimum distance.
//! Memory: the locus rows and source words of the sets' lines, and one system's output
//! lines and their alignment at a time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ldd_align::Alignment;

use super::{share, Loaded, Metric, Row, Trend};
use crate::detect::alignment::{self, AlignOptions, ModelType};
use crate::error::{Error, Result};
use crate::format::judged::{self, Judged, Judgement};
use crate::format::locus::{Locus, RefToken};
use crate::parse::{Tagger, TargetModel};
use crate::read::select::read_selected;
use crate::read::sets::{distinct_loci, locus_rows, Distinct};

/// The metric's key in `--metrics`, `scores.json` and `scores.csv`.
pub const KEY: &str = "locus";

/// The matching rule, as the signature names it.
pub const MATCH: &str = "exact,casefold,prefix4-2/3";

/// Whether an output token renders a reference token: equal, equal case-folded, or with
/// a common case-folded prefix of at least 4 characters and at least two thirds of the
/// shorter one's length (*signed* / *signing*; not *an* / *and*, not *find* / *found*).
pub fn matches(hyp: &str, reference: &str) -> bool {
    if hyp == reference {
        return true;
    }
    let (h, r) = (hyp.to_lowercase(), reference.to_lowercase());
    if h == r {
        return true;
    }
    let common = h.chars().zip(r.chars()).take_while(|(a, b)| a == b).count();
    let shorter = h.chars().count().min(r.chars().count());
    common >= 4 && 3 * common >= 2 * shorter
}

/// How outputs are judged: the aligner that links them to their sources and the matching
/// rule.
#[derive(Debug)]
pub struct Judging {
    /// The aligner ([`aligner`]).
    pub aligner: AlignOptions,
    /// The matching rule ([`Matcher`]).
    pub matcher: Matcher,
}

impl Judging {
    /// How the loci of `l` are judged: with its aligner (`align_model`, else the model the
    /// run loaded or saved; [`aligner`]) and the surface rule, with the lemmas of
    /// `lemma_model` when given ([`Matcher`]).
    pub fn new(
        l: &Loaded,
        align_model: Option<&Path>,
        lemma_model: Option<&TargetModel>,
    ) -> Result<Judging> {
        Ok(Judging {
            aligner: aligner(l, align_model)?,
            matcher: Matcher::new(lemma_model, l.m.languages.target())?,
        })
    }
}

/// How an output token is judged to render a reference token: the surface rule
/// ([`matches`]), and with a UDPipe model of the target language also equal lemmas
/// (case-folded; `is` / `was`, `found` / `find`), each sentence tagged as the aligner
/// tokenized it.
#[derive(Debug, Default)]
pub struct Matcher {
    /// The tagger.
    tagger: Option<Tagger>,
    /// The reference tokens' lemmas, by line id.
    ref_lemmas: BTreeMap<u32, Vec<String>>,
}

impl Matcher {
    /// The surface rule alone, or with the lemmas of `model` (a UDPipe 1 model of the
    /// target language `lang`; [`TargetModel::Auto`]: the registry's, in the models
    /// directory).
    pub fn new(model: Option<&TargetModel>, lang: &str) -> Result<Matcher> {
        Ok(Matcher {
            tagger: model.map(|m| m.load(lang)).transpose()?,
            ref_lemmas: BTreeMap::new(),
        })
    }

    /// The rule, as the signature names it.
    pub fn rule(&self) -> String {
        match &self.tagger {
            Some(t) => format!("{MATCH},lemma|lemma-model:{}", t.sha),
            None => MATCH.to_string(),
        }
    }

    /// Tags what judging `loci` on the outputs `a` with lemmas needs: the output lines
    /// where a locus is not rendered by the surface rule alone, and the same reference
    /// lines (`refs`, by line id; each tagged once for all systems). Nothing without a
    /// model. Lemmas decide only where the surface rule fails, so the other lines (most)
    /// are never tagged.
    pub fn prepare<'a>(
        &mut self,
        a: &mut Aligned,
        loci: impl Iterator<Item = &'a Locus>,
        refs: &BTreeMap<u32, Vec<String>>,
    ) -> Result<()> {
        if self.tagger.is_none() {
            return Ok(());
        }
        // Judged before `a` has lemmas: the surface rule alone.
        let ids: std::collections::BTreeSet<u32> = loci
            .filter(|l| judge(l, a, self) == Some(false))
            .map(|l| l.id as u32)
            .collect();
        let pick = |lines: &BTreeMap<u32, Vec<String>>, skip: &BTreeMap<u32, Vec<String>>| {
            ids.iter()
                .filter(|id| !skip.contains_key(id))
                .filter_map(|id| Some((*id, lines.get(id)?.clone())))
                .collect::<BTreeMap<u32, Vec<String>>>()
        };
        let outputs = self.lemmatize(&pick(&a.tokens, &a.lemmas))?;
        a.lemmas.extend(outputs);
        let reference = self.lemmatize(&pick(refs, &self.ref_lemmas))?;
        self.ref_lemmas.extend(reference);
        Ok(())
    }

    /// The lemmas (lowercased) of every line of `lines`, tagged in parallel.
    fn lemmatize(&self, lines: &BTreeMap<u32, Vec<String>>) -> Result<BTreeMap<u32, Vec<String>>> {
        use rayon::prelude::*;
        let Some(tagger) = &self.tagger else {
            return Ok(BTreeMap::new());
        };
        // In line order, so that an error names the first line that failed.
        let tagged: Vec<Result<(u32, Vec<String>)>> = lines
            .par_iter()
            .map(|(&id, toks)| {
                let t: Vec<&str> = toks.iter().map(String::as_str).collect();
                let tags = tagger.tags(id, &t)?;
                Ok((
                    id,
                    tags.into_iter().map(|x| x.lemma.to_lowercase()).collect(),
                ))
            })
            .collect();
        tagged.into_iter().collect()
    }

    /// Whether output token `j` (0-based) of line `id` renders reference token `r`.
    fn renders(&self, a: &Aligned, id: u32, j: usize, hyp: &str, r: &RefToken) -> bool {
        if matches(hyp, &r.form) {
            return true;
        }
        let lemma = |m: &BTreeMap<u32, Vec<String>>, k: usize| {
            m.get(&id)
                .and_then(|l| l.get(k))
                .filter(|l| !l.is_empty() && l.as_str() != "_")
                .cloned()
        };
        match (
            lemma(&a.lemmas, j),
            lemma(&self.ref_lemmas, r.position as usize - 1),
        ) {
            (Some(h), Some(r)) => h == r,
            _ => false,
        }
    }
}

/// The aligner that aligns outputs to their sources (for locus accuracy in `score` and
/// `sheets`): the manifest's alignment options with a saved model — `model`
/// (`--align-model`), else the one saved in the sets directory, else (sets made before
/// the aligner was saved with them) the model the run loaded, else the one it saved.
pub fn aligner(l: &Loaded, model: Option<&Path>) -> Result<AlignOptions> {
    let Some(r) = &l.m.reorder else {
        return Err(Error::Config(format!(
            "locus accuracy: {} records no aligner (the sets were made with --no-reorder), so \
             its locus files have no reference words to judge by; extract again without \
             --no-reorder",
            ldd_io::error::shown(&l.manifest_path)
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
                if l.m.checksums.contains_key(name.as_ref()) {
                    crate::read::sets::file(&l.m, &l.dir, &name)?;
                }
            }
            Some(crate::read::sets::resolve(&l.dir, rel)?)
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
            "locus accuracy aligns each output to its source with the aligner the sets were \
             made with, but {} records no saved aligner ({why}): give --align-model PREFIX (a \
             model of the same type, {}, as `extract --save-align-model PREFIX` or `align` \
             save it), or extract the sets again",
            ldd_io::error::shown(&l.manifest_path),
            opts.model_type
        )));
    };
    let files = crate::layout::model_files(&prefix, hmm);
    if !files.iter().any(|f| f.is_file()) {
        return Err(Error::Config(format!(
            "locus accuracy: the aligner model {} does not exist{}",
            ldd_io::error::shown(&files[0]),
            if model.is_some() {
                ""
            } else {
                " (the manifest names it): give --align-model PREFIX"
            }
        )));
    }
    opts.model = Some(prefix);
    opts.train.clear();
    opts.save_model = None;
    opts.progress = false;
    Ok(opts)
}

/// The settings part of the signature: matching (with the lemma model's SHA-256), aligner
/// and the aligner model's SHA-256 (first 16 hex digits of each file).
pub fn settings(j: &Judging) -> Result<String> {
    let (opts, m) = (&j.aligner, &j.matcher);
    let mut sums = Vec::new();
    if let Some(prefix) = &opts.model {
        for f in crate::layout::model_files(prefix, opts.model_type == ModelType::Hmm) {
            let (sha, _) = ldd_io::sha256_file(&f)?;
            sums.push(sha[..16].to_string());
        }
    }
    Ok(format!(
        "locus:1|match:{}|aligner:{}-{}|model:{}|ci:wilson|test:mcnemar-exact",
        m.rule(),
        opts.model_type,
        opts.direction.name(),
        sums.join("+")
    ))
}

/// Source words (UD words of the tree) by line id.
pub type SourceWords = BTreeMap<u32, Vec<String>>;

/// A set's loci.
struct SetLoci {
    /// Index into `l.units`.
    unit: usize,
    rows: Vec<Locus>,
}

/// Every set's locus rows (sets without a locus file are left out) and the source words
/// of every line they hold.
fn read_loci(l: &Loaded) -> Result<(Vec<SetLoci>, SourceWords)> {
    let mut sets = Vec::new();
    let mut words: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for k in 0..l.units.len() {
        let Some(rows) = locus_rows(l, k)? else {
            continue;
        };
        if !rows.is_empty() {
            crate::read::sets::tree_words(l, k, |_| true, &mut words)?;
        }
        sets.push(SetLoci { unit: k, rows });
    }
    if sets.is_empty() {
        return Err(Error::Config(format!(
            "--metrics locus: {} names no locus file (the sets were made by an older \
             ldd-sets); extract again",
            ldd_io::error::shown(&l.manifest_path)
        )));
    }
    for s in &sets {
        if let Some(r) = s.rows.iter().find(|r| !words.contains_key(&(r.id as u32))) {
            return Err(Error::Data(format!(
                "{}: line {} is not in its set",
                ldd_io::error::shown(
                    &l.dir
                        .join(l.units[s.unit].set.files.locus.as_deref().unwrap_or(""))
                ),
                r.id
            )));
        }
    }
    Ok((sets, words))
}

/// One system's outputs of the lines `words` holds, aligned to their sources: output
/// tokens and alignment by line id.
pub struct Aligned {
    /// Output tokens by line id.
    pub tokens: BTreeMap<u32, Vec<String>>,
    /// Their links to the source words (0-based source word, output token) by line id.
    pub links: BTreeMap<u32, Alignment>,
    /// Lemmas (lowercased) of the lines that need them ([`Matcher::prepare`]), by line id.
    pub lemmas: BTreeMap<u32, Vec<String>>,
}

impl Aligned {
    /// The output tokens of line `id` linked to its source word `word` (1-based), with
    /// their positions (0-based), in link order.
    pub fn linked(&self, id: u32, word: u32) -> Vec<(usize, &str)> {
        let (Some(toks), Some(links)) = (self.tokens.get(&id), self.links.get(&id)) else {
            return Vec::new();
        };
        links
            .iter()
            .filter(|l| l.0 + 1 == word as usize)
            .filter_map(|&(_, j)| Some((j, toks.get(j)?.as_str())))
            .collect()
    }
}

/// Every system's outputs (`hyps`) of the lines `words` holds, aligned to their sources
/// with the aligner of `opts`, loaded once; `f` gets each system's outputs in turn (one
/// system's lines held at a time). An output without the corpus's line count is an error.
fn align_each(
    l: &Loaded,
    hyps: &[PathBuf],
    opts: &AlignOptions,
    words: &SourceWords,
    mut f: impl FnMut(Aligned) -> Result<()>,
) -> Result<()> {
    let langs = (l.m.languages.source(), l.m.languages.target());
    let trained = alignment::load(opts, langs)?;
    for hyp in hyps {
        let out = alignment::align_output(&trained, hyp, words, opts, langs)?;
        if out.lines != l.m.corpus.lines {
            return Err(super::count_error(hyp, out.lines, l));
        }
        f(Aligned {
            tokens: out.tokens,
            links: out.links,
            lemmas: BTreeMap::new(),
        })?;
    }
    Ok(())
}

/// One system's rendering of one locus, judged.
#[derive(Debug, Clone)]
pub struct Rendering {
    /// The output's tokens (as the aligner tokenizes).
    pub tokens: Vec<String>,
    /// Positions (0-based) of the output tokens linked to the dependent.
    pub dep: Vec<usize>,
    /// The same for the head.
    pub head: Vec<usize>,
    /// The judgement ([`judge`]): `None` when the reference has no token for the locus.
    pub judgement: Option<bool>,
}

/// Judges `loci` (each with its reference line) on every system's outputs (`hyps`): the
/// outputs of their lines are aligned to their sources, `words` (the words of their
/// trees, by line id: [`crate::read::sets::tree_words`]), and matched with `j`. Per locus,
/// in order: the reference's tokens and each system's rendering, in `hyps` order.
pub fn judge_loci(
    l: &Loaded,
    j: &mut Judging,
    hyps: &[PathBuf],
    loci: &[(&Locus, &str)],
    words: &SourceWords,
) -> Result<Vec<(Vec<String>, Vec<Rendering>)>> {
    let refs: BTreeMap<u32, Vec<String>> = loci
        .iter()
        .map(|(x, r)| {
            let t = alignment::tokens(r, j.aligner.pretokenized);
            (x.id as u32, t.into_iter().map(String::from).collect())
        })
        .collect();
    let mut systems = Vec::with_capacity(hyps.len());
    let (aligner, matcher) = (&j.aligner, &mut j.matcher);
    align_each(l, hyps, aligner, words, |mut a| {
        matcher.prepare(&mut a, loci.iter().map(|x| x.0), &refs)?;
        systems.push(a);
        Ok(())
    })?;
    let rendering = |loc: &Locus, a: &Aligned| {
        let id = loc.id as u32;
        let linked =
            |w: u32| -> Vec<usize> { a.linked(id, w).into_iter().map(|(p, _)| p).collect() };
        Rendering {
            tokens: a.tokens.get(&id).cloned().unwrap_or_default(),
            dep: linked(loc.dep.id),
            head: loc.head.as_ref().map_or_else(Vec::new, |h| linked(h.id)),
            judgement: judge(loc, a, &j.matcher),
        }
    };
    Ok(loci
        .iter()
        .map(|(loc, _)| {
            let r = refs.get(&(loc.id as u32)).cloned().unwrap_or_default();
            (r, systems.iter().map(|a| rendering(loc, a)).collect())
        })
        .collect())
}

/// The judgement of one locus: `None` when the reference has no token for it.
pub fn judge(loc: &Locus, a: &Aligned, m: &Matcher) -> Option<bool> {
    let id = loc.id as u32;
    if !a.links.contains_key(&id) {
        return Some(false);
    }
    let rendered = |word: u32, refs: &[RefToken]| -> Option<bool> {
        if refs.is_empty() || word == 0 {
            return None;
        }
        Some(
            a.linked(id, word)
                .iter()
                .any(|&(j, h)| refs.iter().any(|r| m.renders(a, id, j, h, r))),
        )
    };
    let dep = rendered(loc.dep.id, &loc.ref_dep);
    let head = loc
        .head
        .as_ref()
        .and_then(|h| rendered(h.id, &loc.ref_head));
    match (dep, head) {
        (None, None) => None,
        (d, h) => Some(d.unwrap_or(true) && h.unwrap_or(true)),
    }
}

/// What [`evaluate`] gives: score rows, trends, and the judgements file.
pub struct Evaluated {
    /// Rows per system (`[system][row]`), the corpus row first.
    pub rows: Vec<Vec<Row>>,
    /// Trends over d per system and phenomenon.
    pub trends: Vec<Trend>,
    /// `scores.loci.tsv` ([`crate::format::judged`]): every distinct locus, judged for every
    /// system.
    pub judgements: String,
    /// Its rows.
    pub judged_rows: u64,
}

/// What one system's output gives a locus: the judgement and the output tokens (1-based
/// positions) aligned to its dependent and head.
struct Rendered {
    judgement: Option<bool>,
    hyp_dep: Vec<u32>,
    hyp_head: Vec<u32>,
}

/// One system's judgement of every distinct locus, and its output tokens by line id.
struct SystemLoci {
    rendered: Vec<Rendered>,
    outputs: BTreeMap<u32, Vec<String>>,
}

/// Locus rows and trends of every system, `confidence` the level of the Wilson
/// intervals, and the judgement of every locus ([`Evaluated`]); `reference` is the
/// corpus's target side.
pub fn evaluate(
    l: &Loaded,
    hyps: &[PathBuf],
    systems: &[String],
    judging: Judging,
    m: &Metric,
    confidence: f64,
    reference: &Path,
) -> Result<Evaluated> {
    let Judging {
        aligner: opts,
        mut matcher,
    } = judging;
    let opts = &opts;
    let (sets, words) = read_loci(l)?;
    let by_set: Vec<(usize, &[Locus])> = sets.iter().map(|s| (s.unit, s.rows.as_slice())).collect();
    let distinct = distinct_loci(l, &by_set);
    let refs = reference_tokens(reference, &words, opts)?;
    // judged[system][set][row]
    let mut judged: Vec<Vec<Vec<Option<bool>>>> = Vec::new();
    // per_system[system]: each distinct locus rendered, the output tokens by line id.
    let mut per_system: Vec<SystemLoci> = Vec::new();
    let positions = |a: &Aligned, id: u32, word: Option<u32>| -> Vec<u32> {
        word.map_or_else(Vec::new, |w| {
            a.linked(id, w).iter().map(|&(j, _)| j as u32 + 1).collect()
        })
    };
    align_each(l, hyps, opts, &words, |mut a| {
        matcher.prepare(&mut a, sets.iter().flat_map(|s| s.rows.iter()), &refs)?;
        let j: Vec<Vec<Option<bool>>> = sets
            .iter()
            .map(|s| s.rows.iter().map(|r| judge(r, &a, &matcher)).collect())
            .collect();
        let rendered = distinct
            .iter()
            .map(|d| {
                let r = &sets[d.set].rows[d.row];
                let id = r.id as u32;
                Rendered {
                    judgement: j[d.set][d.row],
                    hyp_dep: positions(&a, id, Some(r.dep.id)),
                    hyp_head: positions(&a, id, r.head.as_ref().map(|h| h.id)),
                }
            })
            .collect();
        judged.push(j);
        per_system.push(SystemLoci {
            rendered,
            outputs: a.tokens,
        });
        Ok(())
    })?;
    let row = |s: usize, scope: &str, outcomes: &[Option<bool>], base: &[Option<bool>]| {
        share::row(
            &systems[s],
            m,
            scope,
            outcomes,
            (s > 0).then_some(base),
            confidence,
        )
    };
    let mut rows: Vec<Vec<Row>> = vec![Vec::new(); hyps.len()];
    // The corpus: every distinct locus (phenomenon, line, dependent, head) once.
    for (s, sys_rows) in rows.iter_mut().enumerate() {
        let pick = |s: usize| -> Vec<Option<bool>> {
            per_system[s].rendered.iter().map(|r| r.judgement).collect()
        };
        let mut r = row(s, "corpus", &pick(s), &pick(0));
        r.bucket = "corpus".into();
        r.sentences = l.m.corpus.lines;
        sys_rows.push(r);
    }
    for (si, set) in sets.iter().enumerate() {
        let u = &l.units[set.unit];
        for (s, sys_rows) in rows.iter_mut().enumerate() {
            let mut r = row(s, "set", &judged[s][si], &judged[0][si]);
            r.kind = u.set.kind.name().into();
            r.phenomenon = u.set.phenomenon.clone();
            r.bucket = u.set.bucket.clone();
            r.min_distance = Some(u.set.min_distance);
            r.exact = Some(u.set.exact);
            r.sentences = u.ids.len() as u64;
            sys_rows.push(r);
        }
    }
    let (judgements, judged_rows) =
        judgements(l, &sets, &distinct, &words, &refs, &per_system, systems);
    Ok(Evaluated {
        trends: share::trends(m, systems, &rows),
        rows,
        judgements,
        judged_rows,
    })
}

/// The reference tokens (as the aligner tokenizes them) of the lines `words` holds.
fn reference_tokens(
    reference: &Path,
    words: &SourceWords,
    opts: &AlignOptions,
) -> Result<BTreeMap<u32, Vec<String>>> {
    let ids: Vec<u32> = words.keys().copied().collect();
    let (lines, _) = read_selected(reference, &ids)?;
    Ok(ids
        .iter()
        .zip(&lines)
        .map(|(&id, line)| {
            let t = alignment::tokens(line, opts.pretokenized)
                .into_iter()
                .map(String::from)
                .collect();
            (id, t)
        })
        .collect())
}

/// `scores.loci.tsv`: every distinct locus, one row per system, and its row count.
fn judgements(
    l: &Loaded,
    sets: &[SetLoci],
    distinct: &[Distinct],
    words: &SourceWords,
    refs: &BTreeMap<u32, Vec<String>>,
    per_system: &[SystemLoci],
    systems: &[String],
) -> (String, u64) {
    let mut out = String::from(judged::HEADER);
    out.push('\n');
    let mut n = 0u64;
    let none = Vec::new();
    for (k, d) in distinct.iter().enumerate() {
        let r = &sets[d.set].rows[d.row];
        let id = r.id as u32;
        let reference = refs.get(&id).unwrap_or(&none);
        // Positions beyond the reference read now are not shown (they cannot occur when
        // the reference is the file extract aligned, which `score` checked).
        let within = |toks: &[RefToken]| -> Vec<u32> {
            toks.iter()
                .map(|t| t.position)
                .filter(|&p| p as usize <= reference.len())
                .collect()
        };
        for (s, system) in systems.iter().enumerate() {
            let x = &per_system[s].rendered[k];
            let j = Judged {
                phenomenon: l.units[sets[d.set].unit].set.phenomenon.clone(),
                sets: d.buckets.clone(),
                id: r.id,
                distance: r.distance,
                dep: r.dep.clone(),
                head: r.head.clone(),
                system: system.clone(),
                judgement: Judgement::of(x.judgement),
                ref_dep: within(&r.ref_dep),
                ref_head: within(&r.ref_head),
                hyp_dep: x.hyp_dep.clone(),
                hyp_head: x.hyp_head.clone(),
                source: words.get(&id).cloned().unwrap_or_default(),
                reference: reference.clone(),
                output: per_system[s].outputs.get(&id).cloned().unwrap_or_default(),
            };
            out.push_str(&j.row());
            out.push('\n');
            n += 1;
        }
    }
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_rule() {
        for (h, r, want) in [
            ("signed", "signed", true),
            ("Signed", "signed", true),
            ("signing", "signed", true),
            ("take", "taken", true),
            ("an", "and", false),
            ("find", "found", false),
            ("broke", "break", false),
            ("über", "Über", true),
            ("interest", "internal", false),
        ] {
            assert_eq!(matches(h, r), want, "{h} / {r}");
        }
    }
}

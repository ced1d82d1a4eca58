//! The verdict on a locus (`locus:4`): its two words judged by the rule
//! ([`word`], against their checked reference renderings,
//! [`super::reference`]), the relation between them checked in the output's parse
//! ([`super::dependency`]), and a reordering locus judged by the order of its words.
//!
//! - **incorrect** — positive evidence of an error in the dependency: the relation broken
//!   (the dependent dropped, a particle misplaced or glued, a reflexive in another person),
//!   a reordering locus in the source's order, the head omitted, or the dependent omitted
//!   where the output's verb is the reference's (a phenomenon without a relation: wherever
//!   it is omitted);
//! - else **differs** — a word rendered by other words the tool cannot vouch for (a
//!   dependent missing where the verb differs is no evidence either);
//! - else **unaligned** — a word the output has where the aligner cannot place it;
//! - else **correct** — both words rendered as the reference renders them, in the
//!   relation (and, reordering loci, the order) it has; a locus whose reference does not
//!   render its dependent is judged on the head alone when the phenomenon's dependent has
//!   by design often no rendering in the target language (`optional`, German *sich* in
//!   English);
//! - else **partial** — judged on one of its two words only: counted apart;
//! - else **no reference**.

use super::dependency::{self, Check};
use super::relation::Relation;
use super::rule::{self, Line, Side, Word};
use crate::format::judged::Judgement;
use crate::format::locus::Locus;

/// What a locus is: its phenomenon (whose relation in the target language is checked),
/// and whether it is a reordering locus (judged by order).
#[derive(Debug, Clone, Copy)]
pub struct Kind<'a> {
    /// The phenomenon's name.
    pub phenomenon: &'a str,
    /// A reordering locus (its set's kind is `reorder`).
    pub reorder: bool,
}

/// A locus as one output renders it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendering {
    /// The dependent (reorder loci: the first link's source word).
    pub dep: rule::Word,
    /// The head (`None`: a locus of one word).
    pub head: Option<rule::Word>,
    /// The relation's check, or a reordering locus's order (`None`: not checked).
    pub check: Option<Check>,
    /// The locus's judgement ([`combine`]).
    pub judgement: Judgement,
    /// For two words, whether the output keeps the reference's order of their tokens.
    pub order: Option<bool>,
}

impl Rendering {
    /// The evidence, as `scores.loci.tsv` writes it: the dependent's, then the head's,
    /// then the relation's check or the order, comma-separated.
    pub fn evidence(&self) -> String {
        let mut s = self.dep.evidence.name();
        if let Some(h) = &self.head {
            s.push(',');
            s.push_str(&h.evidence.name());
        }
        if let Some(c) = self.check {
            s.push(',');
            s.push_str(c.name());
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
pub fn sentence_chrf(output: &Side, reference: &Side) -> f64 {
    use ldd_eval::chrf::ChrfScoring;
    use ldd_eval::{ChrfStats, SufficientStats};
    let (h, r) = (output.tokens.join(" "), reference.tokens.join(" "));
    ChrfStats::from_pair(&h, &r).score(&ChrfScoring::default()) / 100.0
}

/// Judges one line: its content words (by the parts of speech of `line`) and `loci` (each
/// with its kind), with `reference` and `output` aligned to its source words.
pub fn judge_line(
    line: &Line<'_>,
    reference: &Side,
    output: &Side,
    loci: &[(&Locus, Kind<'_>)],
) -> LineJudgements {
    let words = line
        .upos
        .iter()
        .enumerate()
        .filter(|(_, u)| rule::CONTENT.contains(&u.as_str()))
        .map(|(w, _)| (w, word(line, reference, output, w)))
        .collect();
    LineJudgements {
        sentence_chrf: sentence_chrf(output, reference),
        words,
        loci: loci
            .iter()
            .map(|(l, kind)| judge(line, l, *kind, reference, output))
            .collect(),
    }
}

/// Judges `source_word` (0-based) of a line: `reference` and `output` aligned to the
/// line's source words; its reference tokens those the aligner links to it that plausibly
/// render it ([`super::reference::checked`]).
pub fn word(line: &Line<'_>, reference: &Side, output: &Side, source_word: usize) -> Word {
    let rendering = super::reference::checked(line, reference, source_word);
    rule::word_with(line, reference, output, source_word, rendering)
}

/// A locus's renderings in the reference: its words' checked tokens ([`super::reference`]),
/// the dependent's found through the relation of its phenomenon in the target language
/// where it has one ([`dependency::reference_dependent`]), the head's through the
/// dependent's where the head has none ([`dependency::reference_head`]).
#[derive(Debug, Clone)]
pub struct Renderings<'a> {
    /// The dependent's tokens (0-based).
    pub dep: Vec<usize>,
    /// The head's (`None`: a locus of one word).
    pub head: Option<Vec<usize>>,
    /// The phenomenon's relation in the target language, when it applies to this locus
    /// (its source head is of a part of speech the relation names).
    pub relation: Option<&'a Relation>,
}

/// The renderings in `reference` of `loc`, a locus of `kind` on `line`.
pub fn renderings<'a>(
    line: &Line<'a>,
    loc: &Locus,
    kind: Kind<'_>,
    reference: &Side,
) -> Renderings<'a> {
    let dep_word = loc.dep.id as usize - 1;
    let head_word = loc.head.as_ref().map(|h| h.id as usize - 1);
    let head_pos = head_word
        .and_then(|h| line.upos.get(h))
        .map_or("", String::as_str);
    let relation = (!kind.reorder)
        .then(|| line.relations.get(line.target, kind.phenomenon))
        .flatten()
        .filter(|r| r.head_upos.is_empty() || r.head_upos.iter().any(|u| u == head_pos));
    let mut head = head_word.map(|h| super::reference::checked(line, reference, h));
    let mut dep = super::reference::checked(line, reference, dep_word);
    if let Some(r) = relation {
        dep = dependency::reference_dependent(r, reference, &dep, head.as_deref().unwrap_or(&[]));
        if let Some(h) = head.as_mut().filter(|h| h.is_empty()) {
            *h = dependency::reference_head(reference, &dep, head_pos);
        }
    }
    Renderings {
        dep,
        head,
        relation,
    }
}

/// Judges `loc`, a locus of `kind`, on one line: `reference` and `output` aligned to its
/// source words (and parsed, for the relation).
pub fn judge(
    line: &Line<'_>,
    loc: &Locus,
    kind: Kind<'_>,
    reference: &Side,
    output: &Side,
) -> Rendering {
    let dep_word = loc.dep.id as usize - 1;
    let head_word = loc.head.as_ref().map(|h| h.id as usize - 1);
    let found = renderings(line, loc, kind, reference);
    let relation = found.relation;
    let head = head_word
        .zip(found.head)
        .map(|(h, r)| rule::word_with(line, reference, output, h, r));
    let mut dep = rule::word_with(line, reference, output, dep_word, found.dep);
    // A particle the reference writes with its verb (`aufgeben`) is rendered as the verb is.
    if let Some(h) = &head {
        if !dep.reference.is_empty() && dep.reference.iter().all(|t| h.reference.contains(t)) {
            dep.judgement = h.judgement;
        }
    }
    let sides = (reference, output);
    let check = head.as_ref().and_then(|h| {
        let words = ((&dep, dep_word), (h, head_word.unwrap_or(dep_word)));
        checked(line, kind, relation, words, sides)
    });
    let order = head.as_ref().and_then(|h| rule::order_kept(&dep, h));
    let carries = head
        .as_ref()
        .is_some_and(|h| carries(line, relation, (h, head_word), reference));
    let judgement = combine(&dep, head.as_ref(), check, (relation, carries));
    Rendering {
        dep,
        head,
        check,
        judgement,
        order,
    }
}

/// The check of a locus of two words (`dep` and `head`, each with its source word): its
/// relation where it has one and both words a reference rendering, a reordering locus's
/// order.
fn checked(
    line: &Line<'_>,
    kind: Kind<'_>,
    relation: Option<&Relation>,
    ((dep, dep_word), (head, head_word)): ((&Word, usize), (&Word, usize)),
    (reference, output): (&Side, &Side),
) -> Option<Check> {
    match relation {
        Some(r) if !dep.reference.is_empty() && !head.reference.is_empty() => {
            dependency::check(&dependency::Locus {
                relation: r,
                reference,
                output,
                ref_head: &head.reference,
                ref_dep: &dep.reference,
                head,
                source: (dep_word, head_word),
                target: line.target,
            })
        }
        None if kind.reorder => {
            let at = |w: &Word| rendered_at(w, reference, output);
            let forms = |w: &Word| -> Vec<Option<String>> {
                w.reference.iter().map(|&t| reference.lower(t)).collect()
            };
            // Two words rendered alike (`and … and`): their order says nothing.
            let alike = forms(dep) == forms(head);
            let source_first = dep_word < head_word;
            (!alike)
                .then(|| reordered((dep, &at(dep)), (head, &at(head)), source_first))
                .flatten()
        }
        _ => None,
    }
}

/// Whether the head (`head`, of source word `head_word`) carries the verdict of an
/// optional dependent the reference does not render: only as a content word that
/// translates it (not the source word itself: a name copied through says nothing).
fn carries(
    line: &Line<'_>,
    relation: Option<&Relation>,
    (head, head_word): (&Word, Option<usize>),
    reference: &Side,
) -> bool {
    let source_head = head_word
        .and_then(|h| line.source.get(h))
        .map(|w| w.to_lowercase());
    relation.is_some_and(|r| r.optional)
        && head.reference.iter().all(|&t| {
            let content = reference
                .analysis(t)
                .is_none_or(|a| super::rule::CONTENT.contains(&a.upos.as_str()));
            content && reference.lower(t) != source_head
        })
}

/// A reordering locus's order when the output has both its words (`source_first`: whether
/// the dependent comes first in the source): the source's order is an error wherever the
/// output has the two words (rendered, or found where the aligner does not place them);
/// the reference's order is correct only when both are rendered where the aligner places
/// them. `None` when a word is missing, or when the reference keeps the source's order (the
/// aligner does not find the two words crossed there: nothing to judge by).
fn reordered(
    (dep, dep_at): (&Word, &[usize]),
    (head, head_at): (&Word, &[usize]),
    source_first: bool,
) -> Option<Check> {
    let there = |w: &Word| {
        w.judgement == Judgement::Correct
            || (w.evidence == rule::Evidence::Unplaced && !w.found.is_empty())
    };
    if !there(dep) || !there(head) {
        return None;
    }
    let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len().max(1) as f64;
    let reference_first = mean(&dep.reference) < mean(&head.reference);
    if reference_first == source_first || dep_at.iter().any(|t| head_at.contains(t)) {
        return None;
    }
    let output_first = mean(dep_at) < mean(head_at);
    let placed = dep.judgement == Judgement::Correct && head.judgement == Judgement::Correct;
    match output_first == reference_first {
        true if placed => Some(Check::ReferenceOrder),
        true => None,
        false => Some(Check::SourceOrder),
    }
}

/// Where the output renders `word`: its tokens ([`Word::tokens`]) that are the word of one
/// of its reference tokens, else all of them (the aligner may link a neighbour too).
fn rendered_at(word: &Word, reference: &Side, output: &Side) -> Vec<usize> {
    let all = word.tokens();
    let forms: Vec<Option<String>> = word.reference.iter().map(|&t| reference.lower(t)).collect();
    let same: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&t| forms.contains(&output.lower(t)))
        .collect();
    if same.is_empty() {
        all
    } else {
        same
    }
}

/// The judgement of a locus from its words (`dep`, `head`), its check, its relation in the
/// target language and whether the head carries the verdict when the reference does not
/// render the dependent (the module's order of outcomes).
pub fn combine(
    dep: &Word,
    head: Option<&Word>,
    check: Option<Check>,
    (relation, carries): (Option<&Relation>, bool),
) -> Judgement {
    use Judgement::*;
    if check.is_some_and(Check::broken) {
        return Incorrect;
    }
    let head_j = head.map(|h| h.judgement);
    // The relation, checked, decides the dependent.
    let dep_j = match check {
        Some(Check::Intact | Check::ReferenceOrder) => Correct,
        _ => dep.judgement,
    };
    // A dependent missing where the output's verb is another than the reference's is no
    // evidence: that verb may render it (`registered` for `signed up`). Where the
    // reference's verb has no checked rendering, nothing says the output's differs: the
    // dependent's omission stands.
    let dep_j = match (dep_j, head_j, relation) {
        (Incorrect, Some(Differs | Unaligned), Some(_)) => Differs,
        (j, ..) => j,
    };
    let both = [Some(dep_j), head_j];
    for j in [Incorrect, Differs, Unaligned] {
        if both.contains(&Some(j)) {
            return j;
        }
    }
    match (dep_j, head_j) {
        (Correct, Some(Correct) | None) => Correct,
        (NoReference, Some(Correct)) if carries => Correct,
        (NoReference, Some(Correct)) | (Correct, Some(NoReference)) => Partial,
        _ => NoReference,
    }
}

#[cfg(test)]
mod tests;

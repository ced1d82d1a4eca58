//! The judgement rule of one source word (`locus:4`): whether a system's output renders it
//! as the reference does, decided by the output's words at that word alone — never by the
//! rest of the sentence. [`super::verdict`] judges a locus (the two words of a long-distance
//! relation) from its two words, the relation between them and, for reordering loci, their
//! order.
//!
//! Both sides are aligned to the source words with the sets' aligner, symmetrised by
//! grow-diag-final-and ([`ALIGNMENT`]): the reference (the corpus target) and each output.
//! For a source word *w*, with *R* its **checked** reference tokens (those the aligner links
//! to it that plausibly render it, [`super::reference`]) and *H* the output tokens linked to
//! it:
//!
//! 1. *R* empty: **no reference** — nothing to compare with (not judged);
//! 2. a token of *H* is the word of a token of *R* (case-folded), or — for a content word —
//!    the output has that word at the reference token's occurrence (the occurrences of the
//!    word on both sides matched in order: each to its own when the output has as many as
//!    the reference, else by their relative positions in the lines, so that the occurrence
//!    left unmatched is the one the output lacks): **correct** (evidence `same` when the
//!    aligner links it to *w*, `present` when not);
//! 3. a token of *H* renders a token of *R* by another form of the word — the same lemma
//!    (with the target language's model on both sides), or, without one, for a content word,
//!    a morphological variant ([`variant`]) — **correct**;
//! 4. *w* is a content word and a token of *H* is a likely translation of it: the aligner's
//!    lexical translation probabilities of the pair reach [`LEXICON`] ([`Lexical::score`])
//!    — **correct** (a paraphrase);
//! 5. otherwise, when a token the aligner links to no source word would render *w* as in
//!    3 or 4 — or, for a function word, the output has its word elsewhere — the output has
//!    the word but the aligner cannot place it: **unaligned** (not judged, counted apart);
//! 6. otherwise, when the output has no token at *w*: **incorrect** (an omission);
//! 7. otherwise **differs**: the output's words at *w* are other words, which the tool
//!    cannot vouch for — a synonym or an error (not judged, counted apart). An output word
//!    that is merely not the reference's is not evidence of an error.
//!
//! [`LEXICON`] was chosen once on **TED talks 1 and 4 of the WMT21 English→German MQM
//! annotations** and is never chosen on the data it is reported on: `make validate-mqm`
//! reports the rule on talks 3, 5 and 6 (docs/evaluation.md).

use crate::format::judged::Judgement;
use crate::pipeline::align::Direction;

/// The symmetrisation both sides are aligned with: denser than the intersection, so
/// fewer words are left without a rendering.
pub const ALIGNMENT: Direction = Direction::GrowDiagFinalAnd;

/// The rule's version, as every record that names the rule gives it (`locus:1` matched
/// surface forms on the intersection alignment; `locus:2` combined word and sentence
/// chrF; `locus:3` called every word other than the reference's an error and judged a
/// locus on either of its words).
pub const VERSION: &str = "locus:4";

/// The rule as the signature names it.
pub const NAME: &str = "checked-reference+word+lemma+lexicon+relation+order";

/// The data [`LEXICON`] was chosen on, as the signature names it.
pub const FIT: &str = "wmt21-ted-ende-mqm-talks-1-4";

/// An output token is a likely translation of a content word when the aligner's lexical
/// score of the pair ([`Lexical::score`]) reaches this (chosen on [`FIT`] by the
/// word-level within-item z with the raters: benches/locus_fit.py).
pub const LEXICON: f64 = 0.7;

/// The universal parts of speech of content words: the words a paraphrase (a morphological
/// variant, a likely translation) may render; any other word must be rendered by the same
/// word or lemma.
pub const CONTENT: [&str; 6] = ["NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"];

/// A line as the aligner tokenized it, and its links to the source words.
#[derive(Debug, Clone, Default)]
pub struct Side {
    /// Tokens.
    pub tokens: Vec<String>,
    /// Links: (0-based source word, 0-based token), sorted.
    pub links: Vec<(usize, usize)>,
    /// The aligner's confidence in each link (its posterior probability), in the order of
    /// `links` (`None`: the aligner gives none, fast_align's model).
    pub posteriors: Option<Vec<f64>>,
    /// The target language's model's analysis of each token (lemma, tags, head and
    /// relation), when it was parsed (`--tgt-model`).
    pub analyses: Option<Vec<ldd_parse::Tag>>,
}

impl Side {
    /// A hand-made side for tests: `tokens` split at spaces, `links` as given, neither
    /// posteriors nor parses.
    #[cfg(test)]
    pub(crate) fn by_hand(tokens: &str, links: &[(usize, usize)]) -> Side {
        Side {
            tokens: tokens.split(' ').map(String::from).collect(),
            links: links.to_vec(),
            posteriors: None,
            analyses: None,
        }
    }

    /// Tokens (0-based positions, ascending) linked to `source_word` (0-based).
    pub fn linked(&self, source_word: usize) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .links
            .iter()
            .filter(|l| l.0 == source_word)
            .map(|l| l.1)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The aligner's confidence in the link of `source_word` and `token` (`None`: no such
    /// link, or no posteriors).
    pub fn confidence(&self, source_word: usize, token: usize) -> Option<f64> {
        let k = self.links.binary_search(&(source_word, token)).ok()?;
        self.posteriors.as_ref()?.get(k).copied()
    }

    /// Tokens (0-based positions, ascending) linked to no source word.
    pub fn unplaced(&self) -> Vec<usize> {
        let mut placed = vec![false; self.tokens.len()];
        for &(_, t) in &self.links {
            if let Some(p) = placed.get_mut(t) {
                *p = true;
            }
        }
        (0..self.tokens.len()).filter(|&t| !placed[t]).collect()
    }

    /// The lowercased lemma of `token`, when parsed and known.
    pub fn lemma(&self, token: usize) -> Option<String> {
        let l = &self.analyses.as_ref()?.get(token)?.lemma;
        (!l.is_empty() && l != "_").then(|| l.to_lowercase())
    }

    /// The analysis of `token`, when parsed.
    pub fn analysis(&self, token: usize) -> Option<&ldd_parse::Tag> {
        self.analyses.as_ref()?.get(token)
    }

    /// `token` as a word of the parse (its form and analysis), when parsed.
    pub fn word(&self, token: usize) -> Option<ldd_conllu::Word<'_>> {
        let a = self.analysis(token)?;
        Some(ldd_conllu::Word {
            form: self.tokens.get(token)?,
            lemma: &a.lemma,
            upos: &a.upos,
            xpos: &a.xpos,
            feats: &a.feats,
            head: Some(a.head),
            deprel: &a.deprel,
            deps: "_",
            misc: "_",
        })
    }

    /// The 0-based head of `token` in the parse (`None`: the root, or not parsed).
    pub fn head_of(&self, token: usize) -> Option<usize> {
        let h = self.analysis(token)?.head as usize;
        (h > 0).then(|| h - 1)
    }

    /// The lowercased form of `token`.
    pub fn lower(&self, token: usize) -> Option<String> {
        self.tokens.get(token).map(|t| t.to_lowercase())
    }
}

/// The aligner's lexical translation probabilities of a source word and a target token:
/// what evidence of a paraphrase the rule uses.
pub trait Lexicon {
    /// `p(target | source)` and `p(source | target)` (`None`: the model has no such
    /// direction).
    fn probabilities(&self, source: &str, target: &str) -> Lexical;

    /// Whether the model knows both words (its probabilities of the pair are evidence).
    fn knows(&self, _source: &str, _target: &str) -> bool {
        true
    }
}

/// A function of the two words is a lexicon (for tests and examples).
impl<F: Fn(&str, &str) -> Lexical> Lexicon for F {
    fn probabilities(&self, source: &str, target: &str) -> Lexical {
        self(source, target)
    }
}

/// The lexical translation probabilities of one pair.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Lexical {
    /// `p(target | source)`.
    pub forward: Option<f64>,
    /// `p(source | target)`.
    pub reverse: Option<f64>,
}

impl Lexical {
    /// The score compared with [`LEXICON`]: the geometric mean of the two directions'
    /// probabilities (the one there is, with fast_align's model in one direction). Both
    /// must be high: a frequent word that a rare word's row collects (`p(the | rare)`) has
    /// a low reverse probability.
    pub fn score(&self) -> f64 {
        match (self.forward, self.reverse) {
            (Some(f), Some(r)) => (f * r).sqrt(),
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => 0.0,
        }
    }
}

/// What the rule knows of a line besides its two sides.
pub struct Line<'a> {
    /// The source words (the tree's words).
    pub source: &'a [String],
    /// Their universal parts of speech (empty: unknown, every word taken as a content
    /// word).
    pub upos: &'a [String],
    /// The aligner's lexical probabilities.
    pub lexicon: &'a dyn Lexicon,
    /// The target language (ISO code): whose inflectional endings make a variant.
    pub target: &'a str,
    /// How each phenomenon's dependency is rendered in the target language.
    pub relations: &'a super::relation::Relations,
}

impl Line<'_> {
    /// Whether `source_word` is a content word (or its part of speech is unknown).
    pub fn content(&self, source_word: usize) -> bool {
        self.upos
            .get(source_word)
            .is_none_or(|u| CONTENT.contains(&u.as_str()))
    }
}

/// How the rule decided a word: the evidence, in the order the rule looks for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Evidence {
    /// The reference has no token linked to the word.
    NoReference,
    /// An output token at the word is a reference token's word, case-folded.
    Same,
    /// An output token at the word has a reference token's lemma.
    Lemma,
    /// An output token at the word is a morphological variant of a reference token.
    Variant,
    /// An output token at the word is a likely translation of the source word (its
    /// [`Lexical::score`]).
    Translation(f64),
    /// The output has a reference token's word at its occurrence, though not where the
    /// aligner links the (content) source word.
    Present,
    /// No output token at the word renders it, but a token linked to no source word would
    /// (or, for a function word, the output has its word elsewhere).
    Unplaced,
    /// The output's tokens at the word are other words (the best [`Lexical::score`]): not
    /// judged.
    Other(f64),
    /// The output has no token at the word, and no unplaced token renders it.
    Omitted,
}

impl Evidence {
    /// The judgement the evidence gives.
    pub fn judgement(self) -> Judgement {
        match self {
            Evidence::NoReference => Judgement::NoReference,
            Evidence::Same
            | Evidence::Lemma
            | Evidence::Variant
            | Evidence::Translation(_)
            | Evidence::Present => Judgement::Correct,
            Evidence::Unplaced => Judgement::Unaligned,
            Evidence::Other(_) => Judgement::Differs,
            Evidence::Omitted => Judgement::Incorrect,
        }
    }

    /// Its name in files (`translation` and `other` with their score, 4 decimals).
    pub fn name(self) -> String {
        match self {
            Evidence::NoReference => "no_reference".into(),
            Evidence::Same => "same".into(),
            Evidence::Lemma => "lemma".into(),
            Evidence::Variant => "variant".into(),
            Evidence::Translation(s) => format!("translation:{s:.4}"),
            Evidence::Present => "present".into(),
            Evidence::Unplaced => "unplaced".into(),
            Evidence::Other(s) => format!("other:{s:.4}"),
            Evidence::Omitted => "omitted".into(),
        }
    }
}

/// One source word as an output renders it.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// The outcome.
    pub judgement: Judgement,
    /// What decided it.
    pub evidence: Evidence,
    /// Reference tokens linked to the word (0-based positions).
    pub reference: Vec<usize>,
    /// Output tokens linked to the word (0-based positions).
    pub output: Vec<usize>,
    /// Output tokens that render the word where the aligner does not link it to the word
    /// (evidence `present`: the reference's word at its occurrence; `unplaced`: the tokens
    /// linked to no source word that render it).
    pub found: Vec<usize>,
}

impl Word {
    /// The output tokens of the word's rendering: those found elsewhere when the rule
    /// found it there (the aligner's tokens are then other words), else those linked to
    /// it.
    pub fn tokens(&self) -> Vec<usize> {
        if self.found.is_empty() {
            self.output.clone()
        } else {
            self.found.clone()
        }
    }
}

/// Whether output token `out_token` renders reference token `ref_token` of `source_word`
/// by another form of the word: the same lemma (both sides parsed), or, without parses,
/// (content words) a morphological variant.
fn another_form(
    line: &Line<'_>,
    source_word: usize,
    (reference, ref_token): (&Side, usize),
    (output, out_token): (&Side, usize),
) -> Option<Evidence> {
    let (a, b) = (
        output.tokens.get(out_token)?.to_lowercase(),
        reference.tokens.get(ref_token)?.to_lowercase(),
    );
    if a == b {
        return None;
    }
    if output.analyses.is_some() && reference.analyses.is_some() {
        let (x, y) = (output.lemma(out_token), reference.lemma(ref_token));
        return (x.is_some() && x == y).then_some(Evidence::Lemma);
    }
    (line.content(source_word) && variant(&a, &b, line.target)).then_some(Evidence::Variant)
}

/// The best evidence other than the same word that one of the output tokens `tokens`
/// renders `source_word`, whose reference tokens are `refs`: the same lemma, a variant,
/// else (content words) the best lexical score of the tokens, a translation when it
/// reaches [`LEXICON`]; `None` for a word that is not a content word and no token.
fn paraphrase(
    line: &Line<'_>,
    source_word: usize,
    (reference, refs): (&Side, &[usize]),
    (output, tokens): (&Side, &[usize]),
) -> Option<Evidence> {
    let mut found: Option<Evidence> = None;
    for &h in tokens {
        for &r in refs {
            match another_form(line, source_word, (reference, r), (output, h)) {
                Some(Evidence::Lemma) => return Some(Evidence::Lemma),
                Some(e) => found = Some(e),
                None => {}
            }
        }
    }
    if found.is_some() || !line.content(source_word) || tokens.is_empty() {
        return found;
    }
    let source = line.source.get(source_word)?;
    let score = tokens
        .iter()
        .filter_map(|&h| output.tokens.get(h))
        .map(|t| line.lexicon.probabilities(source, t).score())
        .fold(0.0, f64::max);
    Some(if score >= LEXICON {
        Evidence::Translation(score)
    } else {
        Evidence::Other(score)
    })
}

/// Judges `source_word` (0-based) of a line against the reference tokens `rendering` (its
/// rendering in the reference: [`super::verdict::word`] gives the checked one), with
/// `reference` and `output` aligned to the line's source words.
pub fn word_with(
    line: &Line<'_>,
    reference: &Side,
    output: &Side,
    source_word: usize,
    rendering: Vec<usize>,
) -> Word {
    let h = output.linked(source_word);
    let (evidence, found) = if rendering.is_empty() {
        (Evidence::NoReference, Vec::new())
    } else {
        decide(line, source_word, (reference, &rendering), (output, &h))
    };
    Word {
        judgement: evidence.judgement(),
        evidence,
        reference: rendering,
        output: h,
        found,
    }
}

/// The evidence for `source_word` with reference tokens `ref_tokens` and output tokens
/// `out_tokens` (both not empty: `ref_tokens`), and the output tokens found to render it
/// elsewhere.
fn decide(
    line: &Line<'_>,
    source_word: usize,
    (reference, ref_tokens): (&Side, &[usize]),
    (output, out_tokens): (&Side, &[usize]),
) -> (Evidence, Vec<usize>) {
    let kept: Vec<usize> = ref_tokens
        .iter()
        .filter_map(|&t| occurrence(reference, t, output))
        .collect();
    if kept.iter().any(|t| out_tokens.contains(t))
        || same_word(source_word, (reference, ref_tokens), (output, out_tokens))
    {
        return (Evidence::Same, Vec::new());
    }
    if !kept.is_empty() {
        // A function word (`to`, `of`, a particle) found elsewhere is no evidence that it
        // renders the locus: the output has it, the aligner does not place it there.
        let evidence = if line.content(source_word) {
            Evidence::Present
        } else {
            Evidence::Unplaced
        };
        return (evidence, kept);
    }
    let at = paraphrase(
        line,
        source_word,
        (reference, ref_tokens),
        (output, out_tokens),
    );
    if let Some(e) = at.filter(|e| e.judgement() == Judgement::Correct) {
        return (e, Vec::new());
    }
    let renders = |t: usize| {
        paraphrase(line, source_word, (reference, ref_tokens), (output, &[t]))
            .is_some_and(|e| e.judgement() == Judgement::Correct)
    };
    let found: Vec<usize> = output
        .unplaced()
        .into_iter()
        .filter(|&t| renders(t))
        .collect();
    let own: Vec<usize> = out_tokens
        .iter()
        .copied()
        .filter(|&t| !anothers(source_word, (reference, ref_tokens), (output, t)))
        .collect();
    // A function word whose word the output still has elsewhere: which occurrence renders
    // which is not known — not an omission.
    let elsewhere: Vec<usize> = if line.content(source_word) {
        Vec::new()
    } else {
        let forms: Vec<Option<String>> = ref_tokens.iter().map(|&t| reference.lower(t)).collect();
        (0..output.tokens.len())
            .filter(|&t| forms.contains(&output.lower(t)))
            .collect()
    };
    if !found.is_empty() {
        (Evidence::Unplaced, found)
    } else if own.is_empty() && !elsewhere.is_empty() {
        (Evidence::Unplaced, elsewhere)
    } else if own.is_empty() && gap_closed(reference, ref_tokens, output) {
        (Evidence::Omitted, Vec::new())
    } else {
        (at.unwrap_or(Evidence::Other(0.0)), Vec::new())
    }
}

/// Whether output token `token` is another word's rather than `source_word`'s: the
/// occurrence of a reference token other than `source_word`'s reference tokens
/// `ref_tokens` (a word the reference has elsewhere, kept where it was), or the word of a
/// reference token the aligner links to another source word.
fn anothers(
    source_word: usize,
    (reference, ref_tokens): (&Side, &[usize]),
    (output, token): (&Side, usize),
) -> bool {
    let Some(form) = output.lower(token) else {
        return false;
    };
    let is = |t: usize| reference.lower(t).as_deref() == Some(form.as_str());
    let kept_elsewhere = (0..reference.tokens.len()).any(|r| {
        !ref_tokens.contains(&r) && is(r) && occurrence(reference, r, output) == Some(token)
    });
    if kept_elsewhere {
        return true;
    }
    !ref_tokens.iter().any(|&t| is(t))
        && reference
            .links
            .iter()
            .any(|&(v, t)| v != source_word && is(t))
}

/// Whether the output closes the gap the reference tokens `ref_tokens` leave: the nearest
/// reference tokens on either side of them that the output has (at their occurrences, the
/// line's ends if none) stand side by side in the output, with nothing between them — the
/// rendering is gone, not replaced (a word in its place, whatever the aligner makes of it,
/// is a rendering the rule cannot vouch for, not an omission).
pub fn gap_closed(reference: &Side, ref_tokens: &[usize], output: &Side) -> bool {
    let (Some(&first), Some(&last)) = (ref_tokens.iter().min(), ref_tokens.iter().max()) else {
        return false;
    };
    let left = (0..first)
        .rev()
        .find_map(|t| occurrence(reference, t, output))
        .map_or(-1, |o| o as i64);
    let right = (last + 1..reference.tokens.len())
        .find_map(|t| occurrence(reference, t, output))
        .map_or(output.tokens.len() as i64, |o| o as i64);
    right == left + 1
}

/// Whether one of the output tokens `out_tokens` the aligner links to `source_word` is the
/// word of one of its reference tokens `ref_tokens` (case-folded) and renders no other
/// source word that the reference renders by that word: the output has the word at the
/// locus, whichever occurrence of a repeated word the order of the lines would pair it with
/// — but not another word's occurrence that the aligner links to the locus too (*me* of *for me*
/// taken for the dropped *me* of *offering me*).
fn same_word(
    source_word: usize,
    (reference, ref_tokens): (&Side, &[usize]),
    (output, out_tokens): (&Side, &[usize]),
) -> bool {
    let lower = |side: &Side, t: usize| side.tokens.get(t).map(|x| x.to_lowercase());
    out_tokens.iter().any(|&x| {
        let Some(o) = lower(output, x) else {
            return false;
        };
        let theirs = |v: usize| {
            reference
                .linked(v)
                .iter()
                .any(|&t| lower(reference, t) == Some(o.clone()))
        };
        ref_tokens
            .iter()
            .any(|&t| lower(reference, t) == Some(o.clone()))
            && !output
                .links
                .iter()
                .any(|&(v, y)| y == x && v != source_word && theirs(v))
    })
}

/// The output token that is the occurrence of reference `token`'s word (case-folded),
/// if the output has it: the occurrences of the word on both sides matched in order —
/// each to its own when the output has as many as the reference (or more), else the
/// output's to the reference's of the nearest relative positions (an order-keeping
/// matching of least total distance, `match_in_order`), so that the one left out is the
/// one the output lacks.
pub fn occurrence(reference: &Side, token: usize, output: &Side) -> Option<usize> {
    let word = reference.tokens[token].to_lowercase();
    let at = |side: &Side| -> Vec<usize> {
        (0..side.tokens.len())
            .filter(|&k| side.tokens[k].to_lowercase() == word)
            .collect()
    };
    let (o, p) = (at(reference), at(output));
    let k = o.iter().position(|&x| x == token)?;
    if p.len() >= o.len() {
        // The same word as often as the reference (or more): its k-th occurrence.
        return p.get(k).copied();
    }
    let rel = |x: usize, n: usize| (x as f64 + 0.5) / n as f64;
    let ro: Vec<f64> = o.iter().map(|&x| rel(x, reference.tokens.len())).collect();
    let rp: Vec<f64> = p.iter().map(|&x| rel(x, output.tokens.len())).collect();
    match_in_order(&rp, &ro)
        .into_iter()
        .position(|j| j == k)
        .map(|i| p[i])
}

/// The order-keeping matching of `fewer` into `more` of least total distance
/// `Σ |fewer[i] − more[j(i)]|`: for each of `fewer`, its index in `more` (increasing). Ties
/// keep the earlier of `more`.
fn match_in_order(fewer: &[f64], more: &[f64]) -> Vec<usize> {
    let (m, n) = (fewer.len(), more.len());
    // cost[i][j]: the least cost of matching fewer[..i] into more[..j].
    let mut cost = vec![vec![f64::INFINITY; n + 1]; m + 1];
    cost[0].iter_mut().for_each(|c| *c = 0.0);
    for i in 1..=m {
        for j in i..=n {
            let take = cost[i - 1][j - 1] + (fewer[i - 1] - more[j - 1]).abs();
            cost[i][j] = take.min(cost[i][j - 1]);
        }
    }
    let mut out = vec![0; m];
    let (mut i, mut j) = (m, n);
    while i > 0 {
        if j > i && cost[i][j - 1] <= cost[i][j] {
            j -= 1;
        } else {
            out[i - 1] = j - 1;
            i -= 1;
            j -= 1;
        }
    }
    out
}

/// Whether the output keeps the reference's relative order of two words (`None`: a side
/// has no token for one of them): the mean positions of their tokens compared (the
/// output's: [`Word::tokens`]).
pub fn order_kept(first: &Word, second: &Word) -> Option<bool> {
    let mean = |v: &[usize]| -> Option<f64> {
        (!v.is_empty()).then(|| v.iter().sum::<usize>() as f64 / v.len() as f64)
    };
    let r = mean(&first.reference)?.partial_cmp(&mean(&second.reference)?)?;
    let h = mean(&first.tokens())?.partial_cmp(&mean(&second.tokens())?)?;
    Some(r == h)
}

/// The inflectional endings of a target language (lowercase) that make two words
/// variants ([`variant`]); other languages: any ending of at most two letters.
fn endings(lang: &str) -> Option<&'static [&'static str]> {
    match lang {
        "en" => Some(&[
            "", "s", "es", "ed", "d", "ing", "er", "est", "e", "y", "ies", "ied", "'s", "n", "en",
        ]),
        "de" => Some(&[
            "", "e", "en", "em", "er", "es", "n", "s", "st", "t", "et", "te", "ten", "tet", "test",
            "tes", "ter", "ern", "ere", "eren", "erem", "erer", "eres", "est", "ste", "sten",
            "stem", "ster", "stes",
        ]),
        _ => None,
    }
}

/// Whether two lowercased words are morphological variants of one stem: after their
/// longest common prefix (the stem, at least 4 letters), what remains of each is an
/// inflectional ending of `lang` (`endings`; a doubled last letter of the stem before it
/// allowed: *stopped* / *stop*). German participles may add `ge-` (*gemeldet* /
/// *meldete*).
pub fn variant(left: &str, right: &str, lang: &str) -> bool {
    if left == right {
        return true;
    }
    let participle = |w: &str| -> Option<String> {
        w.strip_prefix("ge")
            .filter(|r| lang == "de" && r.chars().count() >= 4)
            .map(String::from)
    };
    stem_variant(left, right, lang)
        || participle(left).is_some_and(|x| stem_variant(&x, right, lang))
        || participle(right).is_some_and(|y| stem_variant(left, &y, lang))
}

fn stem_variant(left: &str, right: &str, lang: &str) -> bool {
    let (left, right): (Vec<char>, Vec<char>) = (left.chars().collect(), right.chars().collect());
    let stem = left.iter().zip(&right).take_while(|(x, y)| x == y).count();
    if stem < 4 || !left[..stem].iter().all(|c| c.is_alphabetic()) {
        return false;
    }
    let last = left[stem - 1];
    let ending = |rest: &[char]| -> bool {
        let s: String = rest.iter().collect();
        let ok = |e: &str| match endings(lang) {
            Some(list) => list.contains(&e),
            None => e.chars().count() <= 2,
        };
        ok(&s) || (rest.first() == Some(&last) && rest.len() > 1 && ok(&s[last.len_utf8()..]))
    };
    ending(&left[stem..]) && ending(&right[stem..])
}

#[cfg(test)]
mod tests;

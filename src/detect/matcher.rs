//! Matching: a [`RuleSet`] compiled into a [`Matcher`] (lemma and form lists in hash sets,
//! so that a long list costs one lookup per word), and the matches of one sentence.
//!
//! For every phenomenon and every word with a head (never the root attachment), the
//! phenomenon's patterns are tried in order; the first whose dependent condition the word
//! meets and that gives it a head makes the match, so a word is the dependent of at most
//! one match per phenomenon. A pattern gives the parser's head when it meets the head
//! condition and the order; else, with a [`Repair`](super::rules::Repair), the nearest
//! fitting word on the repair's side of the dependent within its clause (see
//! [`CompiledPattern::head_of`]).

use std::collections::HashSet;

use ldd_conllu::{Sentence, Word};

use super::rules::{deprel_matches, Condition, Match, Order, Pattern, Repair, RuleSet, Search};

/// Compiled rules, ready to match sentences.
#[derive(Debug, Clone)]
pub struct Matcher {
    /// Each phenomenon's patterns, in rule order.
    phenomena: Vec<Vec<CompiledPattern>>,
}

#[derive(Debug, Clone)]
struct CompiledPattern {
    order: Order,
    dependent: CompiledCondition,
    head: CompiledCondition,
    repair: Option<CompiledRepair>,
}

#[derive(Debug, Clone)]
struct CompiledRepair {
    search: Search,
    stop: Option<CompiledCondition>,
    from: CompiledCondition,
    nearest: bool,
}

/// A [`Condition`] with its lemma and form lists as hash sets.
#[derive(Debug, Clone)]
struct CompiledCondition {
    cond: Condition,
    lemma: HashSet<String>,
    not_lemma: HashSet<String>,
    form: HashSet<String>,
    not_form: HashSet<String>,
}

impl RuleSet {
    /// The matcher that runs these rules (every pattern of every phenomenon as it is:
    /// [`RuleSet::select`] keeps those of the source language).
    pub fn compile(&self) -> Matcher {
        Matcher {
            phenomena: self
                .phenomena
                .iter()
                .map(|p| p.patterns.iter().map(CompiledPattern::new).collect())
                .collect(),
        }
    }
}

impl CompiledCondition {
    fn new(c: &Condition) -> Self {
        let set = |v: &[String]| v.iter().cloned().collect();
        CompiledCondition {
            lemma: set(&c.lemma),
            not_lemma: set(&c.not_lemma),
            form: set(&c.form),
            not_form: set(&c.not_form),
            cond: c.clone(),
        }
    }

    /// Whether word `id` of `s` meets the condition.
    fn matches(&self, s: &Sentence<'_>, id: u32) -> bool {
        s.word(id)
            .is_some_and(|w| self.matches_word(w, || capitalized(s, id)))
    }

    fn matches_word(&self, w: &Word<'_>, capitalized: impl Fn() -> bool) -> bool {
        let c = &self.cond;
        (c.deprel.is_empty() || c.deprel.iter().any(|p| deprel_matches(p, w.deprel)))
            && !c.not_deprel.iter().any(|p| deprel_matches(p, w.deprel))
            && (c.upos.is_empty() || c.upos.iter().any(|u| u == w.upos))
            && !c.not_upos.iter().any(|u| u == w.upos)
            && (c.xpos.is_empty() || c.xpos.iter().any(|x| x == w.xpos))
            && !c.not_xpos.iter().any(|x| x == w.xpos)
            && c.feats.iter().all(|f| w.has_feat(f))
            && !c.not_feats.iter().any(|f| w.has_feat(f))
            && (self.lemma.is_empty() || self.lemma.contains(w.lemma))
            && !self.not_lemma.contains(w.lemma)
            && (self.form.is_empty() || self.form.contains(w.form))
            && !self.not_form.contains(w.form)
            && c.capitalized.is_none_or(|want| capitalized() == want)
    }
}

/// Whether word `id` of `s` is capitalized inside its sentence: its form begins with an
/// upper-case letter and a word other than punctuation comes before it.
fn capitalized(s: &Sentence<'_>, id: u32) -> bool {
    let upper = s
        .word(id)
        .and_then(|w| w.form.chars().next())
        .is_some_and(char::is_uppercase);
    upper && s.words[..id as usize - 1].iter().any(|w| w.upos != "PUNCT")
}

impl CompiledRepair {
    fn new(r: &Repair) -> Self {
        CompiledRepair {
            search: r.search,
            stop: r.stop.as_ref().map(CompiledCondition::new),
            from: CompiledCondition::new(&r.from),
            nearest: r.nearest,
        }
    }
}

impl CompiledPattern {
    fn new(p: &Pattern) -> Self {
        CompiledPattern {
            order: p.order,
            dependent: CompiledCondition::new(&p.dependent),
            head: CompiledCondition::new(&p.head),
            repair: p.repair.as_ref().map(CompiledRepair::new),
        }
    }

    /// Whether word `j` can be the head of dependent `dep`: the head condition and the order.
    fn fits(&self, s: &Sentence<'_>, dep: u32, j: u32) -> bool {
        let order = match self.order {
            Order::Any => true,
            Order::DependentFirst => dep < j,
            Order::HeadFirst => j < dep,
        };
        order && j != dep && self.head.matches(s, j)
    }

    /// The head this pattern gives dependent `dep`, whose parser head is `h`:
    /// - `h` when it fits and there is no repair;
    /// - with a repair, when `h` fits: `h`, or with `nearest`, the first fitting word met
    ///   walking from the dependent towards `h` before a stop word;
    /// - with a repair, when `h` does not fit but meets `from`: the first fitting word met
    ///   walking from the dependent to the repair's side, before a stop word;
    /// - else none.
    fn head_of(&self, s: &Sentence<'_>, dep: u32, h: u32) -> Option<u32> {
        let fits = self.fits(s, dep, h);
        let Some(r) = &self.repair else {
            return fits.then_some(h);
        };
        if fits {
            let towards = if h < dep {
                Search::Before
            } else {
                Search::After
            };
            let closer = r.nearest.then(|| self.walk(s, dep, towards, Some(h), r));
            return Some(closer.flatten().unwrap_or(h));
        }
        if !r.from.matches(s, h) {
            return None;
        }
        self.walk(s, dep, r.search, None, r)
    }

    /// Walks from `dep` to the `side`, up to `until` (not included) or the sentence's edge:
    /// the first word that fits, unless a word meeting the repair's stop condition comes
    /// first.
    fn walk(
        &self,
        s: &Sentence<'_>,
        dep: u32,
        side: Search,
        until: Option<u32>,
        r: &CompiledRepair,
    ) -> Option<u32> {
        let n = s.len() as u32;
        let mut j = dep;
        loop {
            j = match side {
                Search::Before if j > 1 => j - 1,
                Search::After if j < n => j + 1,
                _ => return None,
            };
            if Some(j) == until {
                return None;
            }
            if self.fits(s, dep, j) {
                return Some(j);
            }
            let stop = r.stop.as_ref();
            if stop.is_some_and(|c| c.matches(s, j)) {
                return None;
            }
        }
    }
}

impl Matcher {
    /// All matches of all phenomena in `sentence`, by phenomenon then dependent id.
    pub fn detect(&self, sentence: &Sentence<'_>, out: &mut Vec<Match>) {
        out.clear();
        for (pi, patterns) in self.phenomena.iter().enumerate() {
            for (i, w) in sentence.words.iter().enumerate() {
                let dep = i as u32 + 1;
                let Some(h) = w.head.filter(|&h| h != 0 && h != dep) else {
                    continue;
                };
                let head = patterns
                    .iter()
                    .filter(|p| p.dependent.matches_word(w, || capitalized(sentence, dep)))
                    .find_map(|p| p.head_of(sentence, dep, h));
                if let Some(head) = head {
                    out.push(Match {
                        phenomenon: pi as u16,
                        dependent: dep,
                        head,
                        distance: dep.abs_diff(head) - 1,
                    });
                }
            }
        }
    }
}

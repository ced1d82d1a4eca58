//! Matching: a [`RuleSet`] compiled into a [`Matcher`] (lemma and form lists in hash sets,
//! so that a long list costs one lookup per word), and the matches of one sentence.
//!
//! For every phenomenon and every word with a head (never the root attachment), the
//! phenomenon's patterns are tried in order; the first whose dependent condition the word
//! meets and that gives it a head makes the match, so a word is the dependent of at most
//! one match per phenomenon. A pattern gives the parser's head when it meets the head
//! condition and the order; else, with a [`Repair`], the nearest fitting word on the
//! repair's side of the dependent within its clause (`CompiledPattern::head_of` states the
//! rule).

use std::collections::HashSet;

use ldd_conllu::{Sentence, Word};

use super::rules::{Condition, Match, Order, Pattern, Repair, RuleSet, Search};

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
    fn new(condition: &Condition) -> Self {
        let set = |v: &[String]| v.iter().cloned().collect();
        CompiledCondition {
            lemma: set(&condition.lemma),
            not_lemma: set(&condition.not_lemma),
            form: set(&condition.form),
            not_form: set(&condition.not_form),
            cond: condition.clone(),
        }
    }

    /// Whether word `id` of `sentence` meets the condition.
    fn matches(&self, sentence: &Sentence<'_>, id: u32) -> bool {
        sentence
            .word(id)
            .is_some_and(|w| self.matches_word(w, || capitalized(sentence, id)))
    }

    fn matches_word(&self, word: &Word<'_>, capitalized: impl Fn() -> bool) -> bool {
        self.cond.matches_tags(word, capitalized)
            && (self.lemma.is_empty() || self.lemma.contains(word.lemma))
            && !self.not_lemma.contains(word.lemma)
            && (self.form.is_empty() || self.form.contains(word.form))
            && !self.not_form.contains(word.form)
    }
}

/// Whether word `id` of `sentence` is capitalized inside its sentence: its form begins with an
/// upper-case letter and a word other than punctuation comes before it.
fn capitalized(sentence: &Sentence<'_>, id: u32) -> bool {
    let upper = sentence
        .word(id)
        .and_then(|w| w.form.chars().next())
        .is_some_and(char::is_uppercase);
    upper
        && sentence.words[..id as usize - 1]
            .iter()
            .any(|w| w.upos != "PUNCT")
}

impl CompiledRepair {
    fn new(repair: &Repair) -> Self {
        CompiledRepair {
            search: repair.search,
            stop: repair.stop.as_ref().map(CompiledCondition::new),
            from: CompiledCondition::new(&repair.from),
            nearest: repair.nearest,
        }
    }
}

impl CompiledPattern {
    fn new(pattern: &Pattern) -> Self {
        CompiledPattern {
            order: pattern.order,
            dependent: CompiledCondition::new(&pattern.dependent),
            head: CompiledCondition::new(&pattern.head),
            repair: pattern.repair.as_ref().map(CompiledRepair::new),
        }
    }

    /// Whether word `head` can be the head of dependent `dep`: the head condition and the order.
    fn fits(&self, sentence: &Sentence<'_>, dep: u32, head: u32) -> bool {
        let order = match self.order {
            Order::Any => true,
            Order::DependentFirst => dep < head,
            Order::HeadFirst => head < dep,
        };
        order && head != dep && self.head.matches(sentence, head)
    }

    /// The head this pattern gives dependent `dep`, whose parser head is `parser_head`:
    /// - `parser_head` when it fits and there is no repair;
    /// - with a repair, when `parser_head` fits: `parser_head`, or with `nearest`, the first
    ///   fitting word met walking from the dependent towards `parser_head` before a stop word;
    /// - with a repair, when `parser_head` does not fit but meets `from`: the first fitting
    ///   word met walking from the dependent to the repair's side, before a stop word;
    /// - else none.
    fn head_of(&self, sentence: &Sentence<'_>, dep: u32, parser_head: u32) -> Option<u32> {
        let fits = self.fits(sentence, dep, parser_head);
        let Some(r) = &self.repair else {
            return fits.then_some(parser_head);
        };
        if fits {
            let towards = if parser_head < dep {
                Search::Before
            } else {
                Search::After
            };
            let closer = r
                .nearest
                .then(|| self.walk(sentence, dep, towards, Some(parser_head), r));
            return Some(closer.flatten().unwrap_or(parser_head));
        }
        if !r.from.matches(sentence, parser_head) {
            return None;
        }
        self.walk(sentence, dep, r.search, None, r)
    }

    /// Walks from `dep` to the `side`, up to `until` (not included) or the sentence's edge:
    /// the first word that fits, unless a word meeting the repair's stop condition comes
    /// first.
    fn walk(
        &self,
        sentence: &Sentence<'_>,
        dep: u32,
        side: Search,
        until: Option<u32>,
        repair: &CompiledRepair,
    ) -> Option<u32> {
        let n = sentence.len() as u32;
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
            if self.fits(sentence, dep, j) {
                return Some(j);
            }
            let stop = repair.stop.as_ref();
            if stop.is_some_and(|c| c.matches(sentence, j)) {
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use ldd_conllu::{parse_block, Block};

    use super::super::rules::{Match, RuleSet};

    /// The matches of `rules` (selected for `lang`) in the sentence of `rows`: one
    /// `form upos xpos head deprel` row per word.
    fn matches(rules: &str, lang: &str, rows: &[&str]) -> Vec<(u32, u32)> {
        let set = RuleSet::parse(rules, Path::new("t.toml"))
            .and_then(|r| r.select(None, lang))
            .unwrap();
        let mut text = String::new();
        for (i, r) in rows.iter().enumerate() {
            let f: Vec<&str> = r.split(' ').collect();
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t_\t{}\t{}\t_\t_\n",
                i + 1,
                f[0],
                f[0],
                f[1],
                f[2],
                f[3],
                f[4]
            ));
        }
        let block = Block {
            text,
            first_line: 1,
        };
        let s = parse_block(&block, Path::new("t.conllu")).unwrap();
        let mut out: Vec<Match> = Vec::new();
        set.compile().detect(&s, &mut out);
        out.iter().map(|m| (m.dependent, m.head)).collect()
    }

    const PARTICLE: &str = r#"
[[phenomenon]]
name = "particle"
[phenomenon.dependent]
deprel = ["compound:prt"]

[[phenomenon.pattern]]
languages = ["de"]
order = "head_first"
[phenomenon.pattern.dependent]
xpos = ["PTKVZ"]
[phenomenon.pattern.head]
upos = ["VERB"]
[phenomenon.pattern.repair]
search = "before"
stop = { upos = ["PUNCT"], not_form = ["."] }
from = { not_upos = ["PROPN"] }
nearest = true
"#;

    /// A particle the parser attached to a noun is attached to the nearest verb before it
    /// in its clause; a comma ends the search, an abbreviation's period does not; one
    /// attached to a proper noun is not re-attached. Other languages run the top-level
    /// pattern only.
    #[test]
    fn the_repair_finds_the_verb_of_the_clause() {
        let noun = [
            "Sie VERB VVFIN 0 root",
            "ruft PRON PPER 1 obj",
            "Dr NOUN NN 1 obj",
            ". PUNCT $. 3 punct",
            "Lee NOUN NN 3 flat",
            "an ADP PTKVZ 5 case",
        ];
        assert_eq!(matches(PARTICLE, "de", &noun), [(6, 1)]);
        assert_eq!(matches(PARTICLE, "en", &noun), []);
        let comma = [
            "ruft VERB VVFIN 0 root",
            ", PUNCT $, 3 punct",
            "Lee NOUN NN 1 obj",
            "an ADP PTKVZ 3 case",
        ];
        assert_eq!(matches(PARTICLE, "de", &comma), []);
        let name = [
            "ruft VERB VVFIN 0 root",
            "Lee PROPN NE 1 obj",
            "an ADP PTKVZ 2 case",
        ];
        assert_eq!(matches(PARTICLE, "de", &name), []);
    }

    /// The built-in German particle: a particle relation whose head the parser's UPOS calls
    /// a noun but the tagger's STTS tag a full verb (finite, imperative, infinitive) keeps
    /// that head ("Schauen Sie sich an"); a participle's never ("angeschaut" is one word).
    #[test]
    fn builtin_german_particle_takes_the_taggers_full_verb() {
        let rows = |verb: &str| {
            [
                verb.to_string(),
                "Sie PRON PPER 1 nsubj".into(),
                "sich PRON PRF 1 obj".into(),
                "an ADP PTKVZ 1 compound:prt".into(),
            ]
        };
        let m = |verb: &str| {
            let r = rows(verb);
            let r: Vec<&str> = r.iter().map(String::as_str).collect();
            matches(crate::config::BUILTIN_RULES, "de", &r)
        };
        assert_eq!(m("Schauen NOUN VVINF 0 root"), [(4, 1)]);
        assert_eq!(m("Schauen NOUN VVIMP 0 root"), [(4, 1)]);
        assert_eq!(m("Schauen NOUN VVPP 0 root"), []);
        assert_eq!(m("Schauen NOUN NN 0 root"), []);
    }

    /// With `nearest`, a verb between the particle and the parser's verb becomes its head,
    /// unless punctuation comes first; the parser's verb after the particle fails the order
    /// and is repaired.
    #[test]
    fn nearest_takes_the_closer_verb_of_the_clause() {
        let between = [
            "ging VERB VVFIN 0 root",
            "und CCONJ KON 3 cc",
            "tauschte VERB VVFIN 1 conj",
            "es PRON PPER 3 obj",
            "aus ADP PTKVZ 1 compound:prt",
        ];
        assert_eq!(matches(PARTICLE, "de", &between), [(5, 3)]);
        let across = [
            "ging VERB VVFIN 0 root",
            ", PUNCT $, 3 punct",
            "tauschte VERB VVFIN 1 conj",
            ", PUNCT $, 3 punct",
            "aus ADP PTKVZ 1 compound:prt",
        ];
        assert_eq!(matches(PARTICLE, "de", &across), [(5, 1)]);
        let after = [
            "Er PRON PPER 3 nsubj",
            "an ADP PTKVZ 3 compound:prt",
            "kommt VERB VVFIN 0 root",
        ];
        assert_eq!(matches(PARTICLE, "de", &after), []);
    }

    /// Patterns are tried in order, the first that gives a head wins: a word is the
    /// dependent of one match at most.
    #[test]
    fn a_word_matches_once_per_phenomenon() {
        let rules = format!(
            "{PARTICLE}\n[[phenomenon.pattern]]\nlanguages = [\"de\"]\n\
             [phenomenon.pattern.dependent]\nform = [\"an\"]\n"
        );
        let s = [
            "ruft VERB VVFIN 0 root",
            "ihn PRON PPER 1 obj",
            "an ADP PTKVZ 2 compound:prt",
        ];
        // The first pattern re-attaches to `ruft`; the second (the parser's head) is not
        // tried.
        assert_eq!(matches(&rules, "de", &s), [(3, 1)]);
    }

    /// `capitalized = false`: a word capitalized inside its sentence (a name or a title)
    /// does not match; the first word, even after an opening quote, does.
    #[test]
    fn capitalized_words_inside_a_sentence_are_names() {
        let rules = r#"
[[phenomenon]]
name = "particle"
[phenomenon.dependent]
deprel = ["compound:prt"]
capitalized = false
[phenomenon.head]
capitalized = false
"#;
        let name = [
            "They PRON PRP 2 nsubj",
            "joined VERB VBD 0 root",
            "Stand VERB VB 2 obj",
            "Up ADP RP 3 compound:prt",
        ];
        assert_eq!(matches(rules, "en", &name), []);
        let quoted = [
            "\" PUNCT `` 2 punct",
            "Pick VERB VB 0 root",
            "it PRON PRP 2 obj",
            "up ADP RP 2 compound:prt",
        ];
        assert_eq!(matches(rules, "en", &quoted), [(4, 2)]);
    }
}

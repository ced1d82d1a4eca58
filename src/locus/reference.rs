//! Reference renderings checked before they count (`locus:4`): a reference token the
//! aligner links to a source word is that word's rendering only when it plausibly is one —
//! else the locus word has no reference rendering, and nothing is compared with it.
//!
//! A token linked to source word *w* is kept when it is *w* itself (case-folded: a name, a
//! number, a cognate, the same punctuation), or
//! 1. it is not punctuation (no letter or digit);
//! 2. it is not a number or a name (the target model's PROPN; without one, a capitalized
//!    word inside a sentence of a language that does not capitalize its nouns) unless *w* is
//!    one (PROPN, NUM, X, SYM) or the aligner's lexicon supports the pair
//!    ([`super::rule::LEXICON`]);
//! 3. with the target model's parse, its part of speech can render *w*'s ([`pos_fits`]): a
//!    content word is not rendered by a function word (an article, a preposition, a
//!    conjunction, a pronoun: *sich* → `to`), a pronoun only by a pronoun or determiner;
//!    and
//! 4. the aligner is sure of the link (its posterior reaches [`CONFIDENCE`]) or its lexicon
//!    supports the pair (the lexical score, [`super::rule::Lexical::score`], reaches
//!    [`FLOOR`]); without posteriors (fast_align's model), the lexical score reaches
//!    [`FLOOR`] where the aligner knows both words (an unknown word's score says nothing).
//!
//! The constants were chosen on the shared gold alignments (`de-en-europarl100`, every
//! link of the reference to a source word), and the precision of the renderings is reported
//! on the hand-written renderings of 153 PUD loci (docs/evaluation.md), never tuned on.
//!
//! [`super::dependency`] adds the renderings found through the reference's parse (the
//! particle attached to the head's rendering).

use super::rule::{Line, Side, LEXICON};

/// The least lexical score of a source word and a reference token the aligner links to it
/// for the token to count as the word's rendering when the aligner is not sure of the link.
pub const FLOOR: f64 = 0.01;

/// The aligner's posterior of a link above which it counts without lexical support.
pub const CONFIDENCE: f64 = 0.5;

/// Languages that capitalize their nouns: a capitalized word inside a sentence is not
/// taken for a name without a parse.
const NOUNS_CAPITALIZED: [&str; 2] = ["de", "lb"];

/// The reference tokens the aligner links to `source_word` that plausibly render it.
pub fn checked(line: &Line<'_>, reference: &Side, source_word: usize) -> Vec<usize> {
    reference
        .linked(source_word)
        .into_iter()
        .filter(|&t| plausible(line, reference, source_word, t))
        .collect()
}

/// Whether reference token `token` plausibly renders `source_word` (the module's rules).
pub fn plausible(line: &Line<'_>, reference: &Side, source_word: usize, token: usize) -> bool {
    let Some(tok) = reference.tokens.get(token) else {
        return false;
    };
    let Some(src) = line.source.get(source_word) else {
        return true;
    };
    if src.to_lowercase() == tok.to_lowercase() {
        return true;
    }
    if !tok.chars().any(char::is_alphanumeric) {
        return false;
    }
    let lexical = line.lexicon.probabilities(src, tok);
    let score = lexical.score();
    // A lexicon without the pair's probabilities (no direction) gives no evidence.
    let evidence =
        (lexical.forward.is_some() || lexical.reverse.is_some()) && line.lexicon.knows(src, tok);
    let kind = line.upos.get(source_word).map_or("", String::as_str);
    let named = matches!(kind, "PROPN" | "NUM" | "X" | "SYM");
    let looks_named = is_number(tok) || is_name(reference, token, line.target);
    if looks_named && !named && score < LEXICON {
        return false;
    }
    if let Some(a) = reference.analysis(token) {
        if !kind.is_empty() && !pos_fits(kind, &a.upos, score >= FLOOR) {
            return false;
        }
    }
    match reference.confidence(source_word, token) {
        Some(c) => c >= CONFIDENCE || score >= FLOOR,
        None => !(evidence && score < FLOOR),
    }
}

/// Whether a reference token of universal part of speech `rendering` can render a source
/// word of `source`'s (`supported`: the aligner's lexicon supports the pair): a content
/// word not by a function word (a verb by an auxiliary, though); a verb by a verb or an
/// adjective (a participle), a noun by a noun, a name, a numeral or an adjective, an adverb
/// by an adverb or an adjective — by another content word only with the lexicon's support
/// (a nominalization); a pronoun by a pronoun or a determiner (*sich* → `itself`, `its`);
/// any other word by anything but punctuation.
pub fn pos_fits(source: &str, rendering: &str, supported: bool) -> bool {
    const FUNCTION: [&str; 9] = [
        "DET", "ADP", "CCONJ", "SCONJ", "PART", "PRON", "PUNCT", "SYM", "AUX",
    ];
    let group = |pos: &str| match pos {
        "VERB" | "AUX" => Some('v'),
        "NOUN" | "PROPN" | "NUM" => Some('n'),
        "ADJ" => Some('a'),
        "ADV" => Some('d'),
        _ => None,
    };
    let near = |a: char, b: char| a == b || a == 'a' || b == 'a';
    match source {
        "VERB" | "NOUN" | "PROPN" | "ADJ" | "ADV" | "NUM" => {
            if FUNCTION.contains(&rendering) && !(source == "VERB" && rendering == "AUX") {
                return false;
            }
            match (group(source), group(rendering)) {
                (Some(a), Some(b)) => near(a, b) || supported,
                _ => true,
            }
        }
        "PRON" => rendering == "PRON" || rendering == "DET",
        _ => rendering != "PUNCT",
    }
}

/// A number: digits, no letter.
fn is_number(token: &str) -> bool {
    token.chars().any(|c| c.is_ascii_digit()) && !token.chars().any(char::is_alphabetic)
}

/// A name: the parse's PROPN; without a parse, a capitalized token after the first of a
/// language that does not capitalize its nouns.
fn is_name(side: &Side, token: usize, lang: &str) -> bool {
    if let Some(a) = side.analysis(token) {
        return a.upos == "PROPN";
    }
    token > 0
        && !NOUNS_CAPITALIZED.contains(&lang)
        && side
            .tokens
            .get(token)
            .and_then(|t| t.chars().next())
            .is_some_and(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locus::rule::{Lexical, Lexicon};

    struct Toy;
    impl Lexicon for Toy {
        fn probabilities(&self, source: &str, target: &str) -> Lexical {
            let p = match (source, target) {
                ("sich", "himself") => 0.2,
                ("meldete", "signed") => 0.3,
                ("sich", ",") | ("meldete", "Brazil") => 0.02,
                _ => 0.001,
            };
            Lexical {
                forward: Some(p),
                reverse: Some(p),
            }
        }
        fn knows(&self, source: &str, _target: &str) -> bool {
            source != "Redneragentur"
        }
    }

    fn side(tokens: &str, links: &[(usize, usize)]) -> Side {
        Side::by_hand(tokens, links)
    }

    #[test]
    fn punctuation_names_numbers_and_unlikely_tokens_are_no_rendering() {
        // Osborne meldete sich bei Redneragentur an 1961
        let source: Vec<String> = "Osborne meldete sich bei Redneragentur an 1961"
            .split(' ')
            .map(String::from)
            .collect();
        let upos: Vec<String> = ["PROPN", "VERB", "PRON", "ADP", "NOUN", "ADP", "NUM"]
            .map(String::from)
            .to_vec();
        let relations = crate::locus::relation::Relations::default();
        let line = Line {
            source: &source,
            upos: &upos,
            lexicon: &Toy,
            target: "en",
            relations: &relations,
        };
        let reference = side(
            "Osborne signed up , himself Brazil agency 1961 in",
            &[
                (0, 0),
                (1, 1),
                (1, 5),
                (2, 3),
                (2, 4),
                (3, 8),
                (4, 6),
                (6, 7),
            ],
        );
        // The name itself; the verb's likely translation, not a name it is linked to.
        assert_eq!(checked(&line, &reference, 0), [0]);
        assert_eq!(checked(&line, &reference, 1), [1]);
        // `sich`: not the comma, the pronoun.
        assert_eq!(checked(&line, &reference, 2), [4]);
        // `bei` → `in`: known words, an unlikely pair (0.001 < FLOOR).
        assert!(checked(&line, &reference, 3).is_empty());
        // An unknown word: its score is no evidence.
        assert_eq!(checked(&line, &reference, 4), [6]);
        // A number for a number.
        assert_eq!(checked(&line, &reference, 6), [7]);
        // German capitalizes its nouns: no name without a parse.
        let de = Line {
            target: "de",
            ..line
        };
        assert!(is_name(&reference, 5, "en") && !is_name(&reference, 5, "de"));
        assert!(!is_name(&reference, 0, "en"));
        // ... so `Brazil` (0.02 ≥ FLOOR) stays the verb's rendering there.
        assert_eq!(checked(&de, &reference, 1), [1, 5]);
    }
}

//! Does a tree belong to its corpus line? The check behind `extract --conllu`.
//!
//! A parse made elsewhere rarely reproduces the corpus line byte for byte: its text may be
//! PTB- or Moses-tokenized (`` `` Do n't … '' ``, `-LRB-`, `&apos;`, `@-@`), normalised
//! (NFC/NFD, a BOM, non-breaking spaces, `’` for `'`) or split into syntactic words. So
//! the check compares what tokenization and ordinary normalisation cannot change, the
//! line's **key** ([`key`]):
//!
//! 1. PTB bracket escapes (`-LRB-` `-RRB-` `-LSB-` `-RSB-` `-LCB-` `-RCB-`, any case) are
//!    dropped, and Moses/HTML entities (`&apos;` `&quot;` `&amp;` `&lt;` `&gt;` `&#91;`
//!    `&#93;` `&#124;`, and `@-@` `@,@` `@.@`) are dropped too;
//! 2. the text is put in Unicode NFKC (so NFD and NFC, full-width and ligature forms meet);
//! 3. every character that is not a letter or a digit is dropped (white space, quotes of
//!    any kind, punctuation, BOM, control and format characters);
//! 4. letters are lower-cased (Unicode full lower case; `ß` stays `ß`).
//!
//! A tree belongs to its line when the key of its `# text` (or, without that comment, of
//! its surface tokens joined by spaces, multiword tokens as one) equals the key of the
//! line. Split clitics (`do n't`, `can not`) and re-spaced punctuation therefore pass; a
//! tree of another line or language fails unless the two have the same letters and
//! digits in the same order. The exact comparison (up to white space) is tried first so
//! that a run can report how many lines passed only after normalisation.

use ldd_conllu::Sentence;
use unicode_normalization::UnicodeNormalization;

/// How a tree matched its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Belongs {
    /// Its text equals the line up to white space.
    Exactly,
    /// Only their keys ([`key`]) are equal.
    Normalised,
}

/// Tokenizer escapes that stand for punctuation, dropped before the key is taken.
const ESCAPES: [&str; 14] = [
    "-lrb-", "-rrb-", "-lsb-", "-rsb-", "-lcb-", "-rcb-", "&apos;", "&quot;", "&amp;", "&lt;",
    "&gt;", "&#91;", "&#93;", "&#124;",
];

/// Moses' aggressive-hyphen and number markers (`@-@`), dropped with their `@`s.
const AT_ESCAPES: [&str; 3] = ["@-@", "@,@", "@.@"];

/// The letters and digits of `text`, in order, after tokenizer escapes are dropped, NFKC
/// and lower-casing (see the module documentation).
pub fn key(text: &str) -> String {
    let mut s = text.to_string();
    if s.contains(['-', '&', '@']) {
        for e in AT_ESCAPES {
            s = s.replace(e, " ");
        }
        s = drop_ascii_ci(&s, &ESCAPES);
    }
    s.nfkc()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// `text` without any of `needles` (ASCII, lower case), matched case-insensitively.
fn drop_ascii_ci(text: &str, needles: &[&str]) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    'outer: while i < text.len() {
        for n in needles {
            if lower[i..].starts_with(n) {
                out.push(' ');
                i += n.len();
                continue 'outer;
            }
        }
        // `lower` has the same byte offsets as `text` (ASCII lower-casing only).
        let c = text[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Whether a character is kept when texts are compared exactly: not white space, a control
/// character or a line or paragraph separator (which a tokenizer or parser may add, drop or
/// replace).
fn kept(c: &char) -> bool {
    !(c.is_whitespace() || c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
}

/// The tree's text as compared: its `# text` comment, or else its surface tokens.
pub fn tree_text(tree: &Sentence<'_>) -> String {
    match tree.comment("text") {
        Some(t) => t.to_string(),
        None => tree
            .tokens()
            .iter()
            .map(|t| t.form)
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Whether the tree's text ([`tree_text`]) equals `source` up to white space, compared
/// without building either text.
fn equal_squeezed(tree: &Sentence<'_>, source: &str) -> bool {
    let line = source.chars().filter(kept);
    match tree.comment("text") {
        Some(t) => t.chars().filter(kept).eq(line),
        // The spaces joining the tokens are not kept, so the forms are chained as they are.
        None => tree
            .tokens()
            .iter()
            .flat_map(|t| t.form.chars())
            .filter(kept)
            .eq(line),
    }
}

/// Checks that a tree belongs to its corpus line (see the module documentation). On a
/// mismatch, returns the tree's text as compared.
pub fn check_belongs(tree: &Sentence<'_>, source: &str) -> Result<Belongs, String> {
    if equal_squeezed(tree, source) {
        return Ok(Belongs::Exactly);
    }
    let text = tree_text(tree);
    if key(&text) == key(source) {
        Ok(Belongs::Normalised)
    } else {
        Err(text)
    }
}

#[cfg(test)]
mod tests {
    use super::key;

    #[test]
    fn tokenization_and_normalisation_do_not_change_the_key() {
        let line = "\"Don't take them off,\" I cried (twice) & ran.";
        let ptb = "`` Do n't take them off , '' I cried -LRB- twice -RRB- &amp; ran .";
        assert_eq!(key(line), "donttakethemofficriedtwiceran");
        assert_eq!(key(ptb), key(line));
        assert_eq!(key("Erd\u{f6}l"), key("\u{feff}Erdo\u{308}l"));
        assert_eq!(key("l\u{2019}homme\u{a0}a"), key("l'homme a"));
        assert_eq!(key("state @-@ of @-@ the @-@ art"), key("state-of-the-art"));
        assert_eq!(key("ﬁne ＡＢＣ"), "fineabc");
        assert_eq!(key("Straße"), "straße");
    }

    #[test]
    fn different_words_give_different_keys() {
        assert_ne!(key("Do n't take them off"), key("Do take them off"));
        assert_ne!(key("Er kam an."), key("He arrived."));
        // An escape-looking word that is not an escape stays.
        assert_eq!(key("-LRBX-"), "lrbx");
    }
}

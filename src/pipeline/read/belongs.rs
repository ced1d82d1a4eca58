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
//!
//! A parser may also rewrite a word: the paper's published English parse has the words
//! `it is` for the surface `'tis`, with no multiword-token line — twice in one line at
//! times (`(but 'tis not necessary … and 'tis her own fault`). So a tree whose key differs
//! from the line's only in **small places** — each at most [`MAX_LOCAL`] letters or digits
//! on either side, after which the two agree again for [`SYNC`] characters (or both end) —
//! with the rest, at least [`MIN_SHARED`] characters and three quarters of the longer key,
//! the same, is **tolerated**: the places are counted, in the manifest and in what
//! `extract` reports. A tree of another line (shifted, another corpus) differs in far more
//! and is refused, its message showing both texts where they first differ.

use ldd_conllu::Sentence;
use unicode_normalization::UnicodeNormalization;

/// How a tree matched its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Belongs {
    /// Its text equals the line up to white space.
    Exactly,
    /// Only their keys ([`key`]) are equal.
    Normalised,
    /// Their keys differ in this many small, local places (see the module documentation).
    Tolerated(u32),
}

/// The most letters or digits a tolerated difference has on either side.
pub const MAX_LOCAL: usize = 2;

/// The fewest letters and digits a tolerated line shares with its tree.
pub const MIN_SHARED: usize = 10;

/// How many characters must agree after a place before the next may start (or both keys
/// end).
pub const SYNC: usize = 3;

/// The places where two different keys differ, when each is small and local and the rest
/// is shared (see the module documentation); `None` otherwise. Both keys are walked
/// together; at a character where they part, the smallest skip (at most [`MAX_LOCAL`] on
/// either side) after which they agree again is one place.
fn small_differences(left: &str, right: &str) -> Option<u32> {
    let (left, right): (Vec<char>, Vec<char>) = (left.chars().collect(), right.chars().collect());
    let (mut i, mut j, mut shared, mut places) = (0, 0, 0usize, 0u32);
    while i < left.len() || j < right.len() {
        if i < left.len() && j < right.len() && left[i] == right[j] {
            (i, j, shared) = (i + 1, j + 1, shared + 1);
            continue;
        }
        let (di, dj) = resync(&left[i..], &right[j..])?;
        (i, j, places) = (i + di, j + dj, places + 1);
    }
    let longer = left.len().max(right.len());
    (places > 0 && shared >= MIN_SHARED && 4 * shared >= 3 * longer).then_some(places)
}

/// The smallest skip `(on left, on right)`, at most [`MAX_LOCAL`] each, after which `left`
/// and `right` agree again: their next [`SYNC`] characters, or all that is left of both.
fn resync(left: &[char], right: &[char]) -> Option<(usize, usize)> {
    let agree = |x: &[char], y: &[char]| match x.len().min(y.len()) >= SYNC {
        true => x[..SYNC] == y[..SYNC],
        false => x == y,
    };
    (1..=2 * MAX_LOCAL).find_map(|total| {
        (0..=total.min(MAX_LOCAL))
            .map(|di| (di, total - di))
            .filter(|&(di, dj)| dj <= MAX_LOCAL && di <= left.len() && dj <= right.len())
            .find(|&(di, dj)| agree(&left[di..], &right[dj..]))
    })
}

/// `text` around its `nth` letter or digit (0-based; the end if it has fewer): up to 30
/// characters before and 50 from there, `…` where cut.
fn around(text: &str, nth: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = chars
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_alphanumeric())
        .nth(nth)
        .map_or(chars.len(), |(i, _)| i);
    let start = at.saturating_sub(30);
    let end = (at + 50).min(chars.len());
    format!(
        "{}{}{}",
        if start > 0 { "…" } else { "" },
        chars[start..end].iter().collect::<String>(),
        if end < chars.len() { "…" } else { "" }
    )
}

/// Where a tree's text and its line first differ: an excerpt of each around the first
/// letter or digit where their keys part (for messages; not escaped).
pub fn where_they_differ(text: &str, line: &str) -> (String, String) {
    let (a, b) = (key(text), key(line));
    let k = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    (around(text, k), around(line, k))
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
fn kept(character: &char) -> bool {
    !(character.is_whitespace()
        || character.is_control()
        || matches!(character, '\u{2028}' | '\u{2029}'))
}

/// [`kept`] of an ASCII character: neither a space nor a control character.
fn kept_ascii(byte: &u8) -> bool {
    *byte > b' ' && *byte != 0x7f
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
/// without building either text: at once when the `# text` comment is the line (a parse
/// of the corpus), a byte at a time when both are ASCII.
fn equal_squeezed(tree: &Sentence<'_>, source: &str) -> bool {
    let line = source.chars().filter(kept);
    match tree.comment("text") {
        Some(t) if t == source => true,
        Some(t) if t.is_ascii() && source.is_ascii() => t
            .bytes()
            .filter(kept_ascii)
            .eq(source.bytes().filter(kept_ascii)),
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
    let (a, b) = (key(&text), key(source));
    if a == b {
        Ok(Belongs::Normalised)
    } else if let Some(places) = small_differences(&a, &b) {
        Ok(Belongs::Tolerated(places))
    } else {
        Err(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_local_differences_are_counted_another_line_is_not() {
        let places = |tree: &str, line: &str| small_differences(&key(tree), &key(line));
        let line = "'Tis the season to be jolly, said she.";
        let parsed = "it is the season to be jolly , said she .";
        assert_eq!(places(parsed, line), Some(1));
        assert_eq!(
            places(
                "Ich sah den Mann , der over die Brücke ging .",
                "Ich sah den Mann, der o'er die Brücke ging."
            ),
            Some(1)
        );
        // Several small places in one line, each counted (the paper's tree 8844 has two
        // `it is` for `'tis`, and `( but` for `(but`, which the key does not see).
        assert_eq!(
            places(
                "it is the season , it is the time .",
                "'Tis the season, 'tis the time."
            ),
            Some(2)
        );
        assert_eq!(
            places(
                "She said ( but it is not necessary , and it is her own fault ) nothing else .",
                "She said (but 'tis not necessary, and 'tis her own fault) nothing else."
            ),
            Some(2)
        );
        assert_eq!(
            places(
                "it is cold , it is late , and it is over now for the day .",
                "'tis cold, 'tis late, and 'tis o'er now for the day."
            ),
            Some(4)
        );
        // Another line, a shifted one, a short one, a long rewrite: refused.
        for (a, b) in [
            (
                "'Tis the season to be jolly.",
                "The next line is another one.",
            ),
            ("'Tis.", "it is ."),
            ("Er kam gestern nach Hause.", "Er kam heute nach Hause ."),
            (
                "The committee approved the budget for the coming year.",
                "The committee rejected the budget for the coming year .",
            ),
            (
                "He said that he would come back tomorrow morning.",
                "She said that she could go back today in the evening .",
            ),
        ] {
            assert_eq!(places(b, a), None, "{a} / {b}");
        }
        let (t, l) = where_they_differ(
            "a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 it is the end",
            "A b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 'tis the end",
        );
        assert!(t.starts_with('…') && t.contains("3 it is the end"), "{t}");
        assert!(l.contains("3 'tis the end"), "{l}");
    }

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

    #[test]
    fn the_ascii_path_keeps_what_the_char_path_keeps() {
        for b in 0..=127u8 {
            assert_eq!(kept_ascii(&b), kept(&char::from(b)), "byte {b}");
        }
    }

    #[test]
    fn texts_equal_up_to_white_space_on_every_path() {
        let block = ldd_conllu::Block {
            text: "# text = Er  kam an .\n1\tEr\t_\t_\t_\t_\t0\troot\t_\t_\n".into(),
            first_line: 1,
        };
        let tree = ldd_conllu::parse_block(&block, std::path::Path::new("t")).expect("a tree");
        // Equal; ASCII with other spaces; not ASCII; different.
        assert!(equal_squeezed(&tree, "Er  kam an ."));
        assert!(equal_squeezed(&tree, " Er kam an.\u{b}"));
        assert!(equal_squeezed(&tree, "Er\u{a0}kam an\u{2028}."));
        assert!(!equal_squeezed(&tree, "Er kam an!"));
        assert!(!equal_squeezed(&tree, "Er kam a."));
    }
}

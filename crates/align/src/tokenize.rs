//! Fast Unicode-aware tokenizer for the target side.

use crate::punct_table::PUNCT_SYMBOL_RANGES;

/// Whether `character` has Unicode general category P* (punctuation) or S* (symbol).
///
/// ASCII is answered by a direct test; other characters by binary search in a table generated
/// from the Unicode Character Database (see `tools/gen_punct_table.py`).
#[inline]
pub fn is_punct_or_symbol(character: char) -> bool {
    if character.is_ascii() {
        return character.is_ascii_punctuation();
    }
    let cp = character as u32;
    PUNCT_SYMBOL_RANGES
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The tokens of a line as the aligner takes them: whitespace-split if `pretokenized` (the
/// line is tokenized already, e.g. by Moses), else [`tokenize`]'s.
pub fn line_tokens(line: &str, pretokenized: bool) -> Vec<&str> {
    if pretokenized {
        line.split_whitespace().collect()
    } else {
        tokenize(line)
    }
}

/// Joiners kept inside a word when a letter or digit stands on both sides.
#[inline]
fn is_word_joiner(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}' | '-' | '\u{2010}' | '\u{2011}')
}

/// Splits `text` into tokens (borrowed slices of `text`).
///
/// Rules, applied left to right:
/// 1. Whitespace (`char::is_whitespace`) separates tokens and is dropped.
/// 2. Every character of Unicode general category P* (punctuation) or S* (symbol) is a token of
///    its own (so `"Hello, world!"` gives `Hello` `,` `world` `!`, and `"..."` three `.`),
///    except in the two word-internal cases below.
/// 3. An apostrophe (`'` or `’`) or hyphen (`-`, U+2010, U+2011) with a letter or digit
///    (`char::is_alphanumeric`) immediately on both sides stays inside the word:
///    `don't`, `l'été`, `well-known`, `COVID-19`.
/// 4. A `.` or `,` with a decimal digit (`char::is_numeric`) immediately on both sides stays
///    inside the number: `3.5`, `1,000`.
/// 5. Everything else (letters, digits, combining marks, other characters) accumulates into
///    the current word.
pub fn tokenize(text: &str) -> Vec<&str> {
    let mut out = Vec::with_capacity(text.len() / 5 + 1);
    let mut start: Option<usize> = None; // start byte of the current word
    let mut prev: Option<char> = None; // previous char within the current whitespace chunk
    let mut iter = text.char_indices().peekable();
    while let Some((pos, c)) = iter.next() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push(&text[s..pos]);
            }
            prev = None;
            continue;
        }
        if is_punct_or_symbol(c) {
            let next = iter.peek().map(|&(_, n)| n);
            let internal = match (prev, next) {
                (Some(p), Some(n)) => {
                    (is_word_joiner(c) && p.is_alphanumeric() && n.is_alphanumeric())
                        || (matches!(c, '.' | ',') && p.is_numeric() && n.is_numeric())
                }
                _ => false,
            };
            if !internal {
                if let Some(s) = start.take() {
                    out.push(&text[s..pos]);
                }
                out.push(&text[pos..pos + c.len_utf8()]);
                prev = Some(c);
                continue;
            }
        }
        if start.is_none() {
            start = Some(pos);
        }
        prev = Some(c);
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pretokenized line splits at whitespace alone; another by the tokenizer's rules.
    #[test]
    fn line_tokens_split_pretokenized_lines_at_whitespace() {
        assert_eq!(line_tokens(" Hello,  world! ", true), ["Hello,", "world!"]);
        assert_eq!(
            line_tokens(" Hello,  world! ", false),
            ["Hello", ",", "world", "!"]
        );
    }

    #[test]
    fn rules() {
        assert_eq!(tokenize("Hello, world!"), ["Hello", ",", "world", "!"]);
        assert_eq!(tokenize("I don't know."), ["I", "don't", "know", "."]);
        assert_eq!(
            tokenize("a well-known 3.5 1,000"),
            ["a", "well-known", "3.5", "1,000"]
        );
        assert_eq!(
            tokenize("'quoted' -x- (a)"),
            ["'", "quoted", "'", "-", "x", "-", "(", "a", ")"]
        );
        assert_eq!(
            tokenize("„Größe“ — 5€ ..."),
            ["„", "Größe", "“", "—", "5", "€", ".", ".", "."]
        );
        assert_eq!(tokenize("l’été  \t\n"), ["l’été"]);
        assert_eq!(tokenize("end."), ["end", "."]);
        assert_eq!(tokenize("3."), ["3", "."]);
        assert!(tokenize("   ").is_empty());
        assert!(is_punct_or_symbol('«') && is_punct_or_symbol('+') && !is_punct_or_symbol('é'));
    }
}

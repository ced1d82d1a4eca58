//! sacreBLEU's default `13a` tokenizer (mteval-v13a), reimplemented exactly.
//!
//! Steps, as in sacreBLEU 2.4.3 `tokenizer_13a.py` + `tokenizer_re.py`:
//! 1. remove `<skipped>`; remove `-\n`; replace `\n` by a space;
//! 2. if the line contains `&`: replace `&quot;` `&amp;` `&lt;` `&gt;` (in this order);
//! 3. pad with one space on each side, then apply four regex substitutions in turn:
//!    * `([\{-\~\[-\` -\&\(-\+\:-\@\/])` → ` \1 ` (ASCII punctuation except `'` `,` `-` `.`),
//!    * `([^0-9])([\.,])` → `\1 \2 ` (period/comma unless preceded by a digit),
//!    * `([\.,])([^0-9])` → ` \1 \2` (period/comma unless followed by a digit),
//!    * `([0-9])(-)` → `\1 \2 ` (dash after a digit);
//! 4. split on Python whitespace and join with single spaces.
//!
//! Each substitution follows Python `re.sub` semantics: non-overlapping matches scanned
//! left to right. All pattern characters are ASCII, so the passes work on bytes (bytes of
//! multi-byte UTF-8 characters are never ASCII and behave like any other non-digit).

use crate::util::py_split;

/// Returns the 13a tokenization of `line` as a single space-joined string.
pub fn tokenize(line: &str) -> String {
    py_split(&pre_split(line)).collect::<Vec<_>>().join(" ")
}

/// Calls `on_token` on each 13a token of `line` (equivalent to splitting [`tokenize`]'s
/// output).
pub fn for_each_token(line: &str, mut on_token: impl FnMut(&str)) {
    let s = pre_split(line);
    for t in py_split(&s) {
        on_token(t);
    }
}

/// Everything before the final whitespace normalisation.
fn pre_split(line: &str) -> String {
    let mut s = if line.contains("<skipped>") {
        line.replace("<skipped>", "")
    } else {
        line.to_owned()
    };
    if s.contains('\n') {
        s = s.replace("-\n", "").replace('\n', " ");
    }
    if s.contains('&') {
        s = s
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
    }
    regexp(&format!(" {s} "))
}

/// sacreBLEU's `TokenizerRegexp` (the part 13a and `zh` share) before its whitespace
/// normalisation: its four substitutions in turn.
pub(crate) fn regexp(text: &str) -> String {
    split_periods(&pad_punctuation(text))
}

/// `([\{-\~\[-\` -\&\(-\+\:-\@\/])` → ` \1 `: ASCII punctuation except `'` `,` `-` `.`
/// spaced (also Tercom's first normalisation).
pub(crate) fn pad_punctuation(text: &str) -> String {
    let mut b = Vec::with_capacity(text.len() * 2);
    for &c in text.as_bytes() {
        if is_punct_class(c) {
            b.extend_from_slice(&[b' ', c, b' ']);
        } else {
            b.push(c);
        }
    }
    utf8(b)
}

/// `([^0-9])([\.,])` → `\1 \2 `, `([\.,])([^0-9])` → ` \1 \2`, `([0-9])(-)` → `\1 \2 `:
/// periods and commas not between digits, and dashes after digits, spaced (also Tercom's).
pub(crate) fn split_periods(text: &str) -> String {
    let b = substitute(
        text.as_bytes(),
        |x, y| !x.is_ascii_digit() && is_pc(y),
        |x, y, out| out.extend_from_slice(&[x, b' ', y, b' ']),
    );
    let b = substitute(
        &b,
        |x, y| is_pc(x) && !y.is_ascii_digit(),
        |x, y, out| out.extend_from_slice(&[b' ', x, b' ', y]),
    );
    let b = substitute(
        &b,
        |x, y| x.is_ascii_digit() && y == b'-',
        |x, y, out| out.extend_from_slice(&[x, b' ', y, b' ']),
    );
    utf8(b)
}

/// Bytes that only ASCII spaces were inserted into, at character boundaries: UTF-8.
fn utf8(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `[\{-\~\[-\` -\&\(-\+\:-\@\/]`
fn is_punct_class(byte: u8) -> bool {
    matches!(byte, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

fn is_pc(byte: u8) -> bool {
    byte == b'.' || byte == b','
}

/// One `re.sub` pass for a two-character pattern: scans left to right and, on a match at
/// `i`, emits the replacement and resumes at `i + 2` (non-overlapping, like Python).
fn substitute(
    bytes: &[u8],
    is_match: impl Fn(u8, u8) -> bool,
    emit: impl Fn(u8, u8, &mut Vec<u8>),
) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 4);
    let mut i = 0;
    while i < bytes.len() {
        if i + 1 < bytes.len() && is_match(bytes[i], bytes[i + 1]) {
            emit(bytes[i], bytes[i + 1], &mut out);
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::tokenize;

    /// Expected outputs produced by sacrebleu 2.4.3:
    /// `Tokenizer13a()(line)` for each line.
    #[test]
    fn matches_sacrebleu_13a_outputs() {
        let cases: &[(&str, &str)] = &[
            ("Hello, world.", "Hello , world ."),
            (
                "It costs $1,000.50 - or 2-3 items.",
                "It costs $ 1,000.50 - or 2 - 3 items .",
            ),
            ("a...b", "a . . . b"),
            ("1.a 1,b a,1 .5 5.", "1 . a 1 , b a , 1 . 5 5 ."),
            (
                "&quot;Quoted&quot; &amp; &lt;tag&gt; &amp;quot;",
                "\" Quoted \" & < tag > & quot ;",
            ),
            ("don't re-enter e-mail", "don't re-enter e-mail"),
            ("foo<skipped>bar", "foobar"),
            ("line-\nbreak\nnext", "linebreak next"),
            ("  (x) [y] {z} @a #b ", "( x ) [ y ] { z } @ a # b"),
            ("Größe: 3–4 km, ca. 10.", "Größe : 3–4 km , ca . 10 ."),
            ("é.f,g", "é . f , g"),
            ("", ""),
            ("\u{a0}nbsp\u{2009}thin\u{1c}x", "nbsp thin x"),
            ("1999-2000 ,.5 .,", "1999 - 2000 , .5 . ,"),
        ];
        for (input, expected) in cases {
            assert_eq!(&tokenize(input), expected, "input {input:?}");
        }
    }
}

//! The marked format: a set line's tokens with the words of each qualifying pair tagged,
//! written by `extract` ([`mark_pairs`], [`mark_links`]) and parsed again by the report
//! ([`parse`]). The text's own `<` is written `&lt;` (and an `&` that would start `&lt;` or
//! `&amp;` as `&amp;`), so no corpus text can look like a tag ([`escape`]).

use std::borrow::Cow;

/// How `.marked` files mark words (recorded in the manifest).
pub const MARKER: &str = "tokens joined by spaces; in pair k (numbered from 1 in each line) \
the dependent is wrapped as <dk>form</dk> and its head as <hk>form</hk>";

/// A lexical set line marked: in pair `k` (1-based, in the order given) the dependent
/// tagged `dk` and the head `hk`. `pairs` are `(dependent, head)` word ids (1-based) of a
/// sentence of `words` words whose tokens are `tokens` (as for [`mark`]).
pub fn mark_pairs(tokens: &[(String, u32, u32)], words: usize, pairs: &[(u32, u32)]) -> String {
    let mut marks = vec![Vec::new(); words];
    for (k, &(dependent, head)) in pairs.iter().enumerate() {
        marks[dependent as usize - 1].push(format!("d{}", k + 1));
        marks[head as usize - 1].push(format!("h{}", k + 1));
    }
    mark(tokens, &marks)
}

/// A reorder set line marked on both sides: link `n` (1-based) of `links`, `(source word
/// index, target token index)` (0-based), tags the source word `sn` and the target token
/// `tn`. Returns the marked source (tokens as for [`mark`], `words` words) and target.
pub fn mark_links(
    tokens: &[(String, u32, u32)],
    words: usize,
    target: &[&str],
    links: &[(usize, usize)],
) -> (String, String) {
    let mut marks = vec![Vec::new(); words];
    for (n, &(i, _)) in links.iter().enumerate() {
        if let Some(w) = marks.get_mut(i) {
            w.push(format!("s{}", n + 1));
        }
    }
    let tags: Vec<String> = (1..=links.len()).map(|n| format!("t{n}")).collect();
    let tgt_marks: Vec<(usize, &str)> = links
        .iter()
        .zip(&tags)
        .map(|(&(_, j), t)| (j, t.as_str()))
        .collect();
    (mark(tokens, &marks), mark_plain(target, &tgt_marks))
}

/// Renders tokens with marks. `tokens` are `(form, first word id, last word id)`;
/// `marks[k]` lists, for word id `k + 1`, the tags it carries (e.g. `d1`, `h1`): a token is
/// written as `<d1>form</d1>`, tags nested in list order. A multiword token carries the
/// tags of all its words. Tokens are joined by single spaces.
pub fn mark(tokens: &[(String, u32, u32)], marks: &[Vec<String>]) -> String {
    let mut s = String::new();
    for (i, (form, first, last)) in tokens.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let tags: Vec<&str> = (*first..=*last)
            .filter_map(|id| marks.get(id as usize - 1))
            .flatten()
            .map(String::as_str)
            .collect();
        push_wrapped(&mut s, &tags, form);
    }
    s
}

/// Renders plain tokens with some of them wrapped in tags: `marks` lists `(index, tag)`;
/// a token with several tags nests them in list order (`<t1><t2>w</t2></t1>`).
pub fn mark_plain(tokens: &[&str], marks: &[(usize, &str)]) -> String {
    let mut s = String::new();
    for (j, w) in tokens.iter().enumerate() {
        if j > 0 {
            s.push(' ');
        }
        let tags: Vec<&str> = marks.iter().filter(|m| m.0 == j).map(|m| m.1).collect();
        push_wrapped(&mut s, &tags, w);
    }
    s
}

/// Text as a marked line holds it: `<` as `&lt;`, and `&` as `&amp;` where it starts
/// `&lt;` or `&amp;` (any other `&`, e.g. of `&quot;` in Moses-escaped text, stays), so that
/// [`unescape`] gives back exactly the text and no text forms a tag.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.contains(['<', '&']) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for (i, c) in text.char_indices() {
        match c {
            '<' => out.push_str("&lt;"),
            '&' if text[i..].starts_with("&lt;") || text[i..].starts_with("&amp;") => {
                out.push_str("&amp;")
            }
            c => out.push(c),
        }
    }
    out.into()
}

/// The text of [`escape`]d text.
pub fn unescape(text: &str) -> Cow<'_, str> {
    if !text.contains('&') {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some(r) = rest.strip_prefix("&lt;") {
            out.push('<');
            rest = r;
        } else if let Some(r) = rest.strip_prefix("&amp;") {
            out.push('&');
            rest = r;
        } else {
            out.push('&');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out.into()
}

/// Writes `word` wrapped in `tags`, the first outermost: `<t1><t2>word</t2></t1>` (the
/// word [`escape`]d).
fn push_wrapped(out: &mut String, tags: &[&str], word: &str) {
    for t in tags {
        out.push('<');
        out.push_str(t);
        out.push('>');
    }
    out.push_str(&escape(word));
    for t in tags.iter().rev() {
        out.push_str("</");
        out.push_str(t);
        out.push('>');
    }
}

/// A piece of a marked line: text, or a marked word with its tags (`d1`, `h1`, `s1`, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Unmarked text.
    Text(String),
    /// A word wrapped in marks, outermost tag first.
    Marked(Vec<String>, String),
}

/// Whether `name` is a mark tag name: `d`, `h`, `s` or `t` followed by digits.
fn is_tag(name: &str) -> bool {
    let mut c = name.chars();
    matches!(c.next(), Some('d' | 'h' | 's' | 't'))
        && name.len() > 1
        && name[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Splits a marked line (as [`mark`] and [`mark_plain`] write them) into pieces, their
/// text [`unescape`]d. Only well-formed mark tags count; anything else (e.g. a literal `<`
/// in a line written before text was escaped) is text.
pub fn parse(line: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut plain_start = 0;
    let mut i = 0;
    let bytes = line.as_bytes();
    while i < bytes.len() {
        if bytes[i] == b'<' {
            // Opening tags, then the word, then the same closing tags in reverse.
            let mut tags = Vec::new();
            let mut j = i;
            while j < bytes.len() && bytes[j] == b'<' {
                let Some(end) = line[j..].find('>') else {
                    break;
                };
                let name = &line[j + 1..j + end];
                if !is_tag(name) {
                    break;
                }
                tags.push(name);
                j += end + 1;
            }
            if !tags.is_empty() {
                let close: String = tags.iter().rev().map(|t| format!("</{t}>")).collect();
                if let Some(w) = line[j..].find(&close) {
                    let word = &line[j..j + w];
                    if !word.is_empty() && !word.contains(' ') {
                        if plain_start < i {
                            out.push(text(&line[plain_start..i]));
                        }
                        out.push(Piece::Marked(
                            tags.iter().map(|t| t.to_string()).collect(),
                            unescape(word).into_owned(),
                        ));
                        i = j + w + close.len();
                        plain_start = i;
                        continue;
                    }
                }
            }
        }
        i += line[i..].chars().next().map_or(1, char::len_utf8);
    }
    if plain_start < line.len() {
        out.push(text(&line[plain_start..]));
    }
    out
}

/// A text piece, unescaped.
fn text(text: &str) -> Piece {
    Piece::Text(unescape(text).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marked_lines_split_into_words_and_marks() {
        let p = parse("Osborne <h1>meldete</h1> sich <d1>an</d1> , <x> a<b");
        assert_eq!(
            p,
            vec![
                Piece::Text("Osborne ".into()),
                Piece::Marked(vec!["h1".into()], "meldete".into()),
                Piece::Text(" sich ".into()),
                Piece::Marked(vec!["d1".into()], "an".into()),
                Piece::Text(" , <x> a<b".into()),
            ]
        );
        let p = parse("<d1><h2>sich</h2></d1> x <t12>wär</t12>");
        assert_eq!(
            p,
            vec![
                Piece::Marked(vec!["d1".into(), "h2".into()], "sich".into()),
                Piece::Text(" x ".into()),
                Piece::Marked(vec!["t12".into()], "wär".into()),
            ]
        );
        // An unclosed tag is text.
        assert_eq!(parse("<d1>x"), vec![Piece::Text("<d1>x".into())]);
    }

    #[test]
    fn corpus_text_cannot_forge_a_tag() {
        let tok = |f: &str, a, b| (f.to_string(), a, b);
        let tokens = [
            tok("<d1>x</d1>", 1, 1),
            tok("&lt;", 2, 2),
            tok("a&amp;b&quot;", 3, 3),
            tok("sich", 4, 4),
        ];
        let line = mark_pairs(&tokens, 4, &[(4, 3)]);
        assert_eq!(
            line,
            "&lt;d1>x&lt;/d1> &amp;lt; <h1>a&amp;amp;b&quot;</h1> <d1>sich</d1>"
        );
        assert_eq!(
            parse(&line),
            vec![
                Piece::Text("<d1>x</d1> &lt; ".into()),
                Piece::Marked(vec!["h1".into()], "a&amp;b&quot;".into()),
                Piece::Text(" ".into()),
                Piece::Marked(vec!["d1".into()], "sich".into()),
            ]
        );
        for t in ["&", "&&lt;", "&amp;amp;", "<<", "a & b", "&lt"] {
            assert_eq!(unescape(&escape(t)), t, "{t}");
        }
    }

    #[test]
    fn what_is_written_parses_back() {
        let tok = |f: &str, a, b| (f.to_string(), a, b);
        // "Er ruft zum Spiel an": `zum` is a multiword token (words 3–4).
        let tokens = [
            tok("Er", 1, 1),
            tok("ruft", 2, 2),
            tok("zum", 3, 4),
            tok("Spiel", 5, 5),
            tok("an", 6, 6),
        ];
        let line = mark_pairs(&tokens, 6, &[(6, 2), (4, 5)]);
        // Pair 2: the dependent is word 4, inside `zum`; its head `Spiel`.
        assert_eq!(
            line,
            "Er <h1>ruft</h1> <d2>zum</d2> <h2>Spiel</h2> <d1>an</d1>"
        );
        assert_eq!(
            parse(&line),
            vec![
                Piece::Text("Er ".into()),
                Piece::Marked(vec!["h1".into()], "ruft".into()),
                Piece::Text(" ".into()),
                Piece::Marked(vec!["d2".into()], "zum".into()),
                Piece::Text(" ".into()),
                Piece::Marked(vec!["h2".into()], "Spiel".into()),
                Piece::Text(" ".into()),
                Piece::Marked(vec!["d1".into()], "an".into()),
            ]
        );
        let (src, tgt) = mark_links(&tokens[..2], 2, &["He", "calls"], &[(0, 0), (1, 1)]);
        assert_eq!(
            parse(&src)[0],
            Piece::Marked(vec!["s1".into()], "Er".into())
        );
        assert_eq!(
            parse(&tgt)[2],
            Piece::Marked(vec!["t2".into()], "calls".into())
        );
    }
}

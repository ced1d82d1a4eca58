//! CoNLL-U rows, merging of several sentences into one tree, and block formatting.

use std::fmt::Write as _;

/// The ID column of a CoNLL-U row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowId {
    /// A syntactic word `n` (1-based).
    Word(u32),
    /// A multiword token `a-b`.
    Range(u32, u32),
    /// An empty node `n.k` (enhanced UD).
    Empty(u32, u32),
}

/// One CoNLL-U row (word, multiword token or empty node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// ID column.
    pub id: RowId,
    /// FORM.
    pub form: String,
    /// LEMMA (empty = `_`).
    pub lemma: String,
    /// UPOS (empty = `_`).
    pub upos: String,
    /// XPOS (empty = `_`).
    pub xpos: String,
    /// FEATS (empty = `_`).
    pub feats: String,
    /// HEAD; `None` prints `_` (multiword tokens, empty nodes).
    pub head: Option<u32>,
    /// DEPREL (empty = `_`).
    pub deprel: String,
    /// DEPS, `_` or `h:rel|h:rel` with `h` = `n` or `n.k` (empty = `_`).
    pub deps: String,
    /// MISC (empty = `_`).
    pub misc: String,
}

/// Merges the sentences UDPipe produced for one input line into one tree.
///
/// Word ids, multiword-token ranges, empty nodes, HEAD and DEPS of sentence `s` are shifted by
/// the number of words in sentences `0..s`. The first word with HEAD 0 stays the root; every
/// other HEAD-0 word (the roots of later sentences) is attached to it as `parataxis` (also in
/// DEPS: `0:rel` becomes `<root>:parataxis`), so the result has exactly one root.
/// Empty nodes `0.k` of a later sentence are renumbered after the empty nodes that already hang
/// after the last word of the previous sentences.
pub fn merge_sentences(sentences: Vec<Vec<Row>>) -> Vec<Row> {
    // Global id of the root that stays the root.
    let mut primary_root = None;
    let mut offset = 0u32;
    for s in &sentences {
        if primary_root.is_none() {
            primary_root = s.iter().find_map(|r| match (r.id, r.head) {
                (RowId::Word(n), Some(0)) => Some(n + offset),
                _ => None,
            });
        }
        offset += word_count(s);
    }

    let mut out: Vec<Row> = Vec::with_capacity(sentences.iter().map(Vec::len).sum());
    let mut offset = 0u32;
    for s in sentences {
        // Empty nodes already attached after word `offset` (n.k with n == offset).
        let empty_shift = out
            .iter()
            .filter_map(|r| match r.id {
                RowId::Empty(n, k) if n == offset => Some(k),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let map_node = |n: u32, k: Option<u32>| -> (u32, Option<u32>) {
            match k {
                Some(k) if n == 0 => (offset, Some(k + empty_shift)),
                k => (n + offset, k),
            }
        };
        let words = word_count(&s);
        for mut r in s {
            let (id, is_word) = match r.id {
                RowId::Word(n) => (RowId::Word(n + offset), true),
                RowId::Range(a, b) => (RowId::Range(a + offset, b + offset), false),
                RowId::Empty(n, k) => {
                    let (n, k) = map_node(n, Some(k));
                    (RowId::Empty(n, k.unwrap_or(0)), false)
                }
            };
            r.id = id;
            let keeps_root = is_word && matches!(id, RowId::Word(n) if Some(n) == primary_root);
            match r.head {
                Some(0) if is_word && !keeps_root => {
                    r.head = primary_root;
                    r.deprel = "parataxis".to_owned();
                }
                Some(0) | None => {}
                Some(h) => r.head = Some(h + offset),
            }
            if !r.deps.is_empty() && r.deps != "_" {
                r.deps = renumber_deps(&r.deps, keeps_root, primary_root, &map_node);
            }
            out.push(r);
        }
        offset += words;
    }
    out
}

/// Renumbers the heads in a DEPS value; `0:rel` becomes `<root>:parataxis` unless `keeps_root`.
fn renumber_deps(
    deps: &str,
    keeps_root: bool,
    primary_root: Option<u32>,
    map_node: &dyn Fn(u32, Option<u32>) -> (u32, Option<u32>),
) -> String {
    let mut out = String::with_capacity(deps.len() + 4);
    for (i, dep) in deps.split('|').enumerate() {
        if i > 0 {
            out.push('|');
        }
        let Some((head, rel)) = dep.split_once(':') else {
            out.push_str(dep);
            continue;
        };
        let parsed = match head.split_once('.') {
            Some((n, k)) => n.parse::<u32>().ok().zip(k.parse::<u32>().ok().map(Some)),
            None => head.parse::<u32>().ok().map(|n| (n, None)),
        };
        match parsed {
            Some((0, None)) => match (keeps_root, primary_root) {
                (false, Some(root)) => {
                    let _ = write!(out, "{root}:parataxis");
                }
                _ => out.push_str(dep),
            },
            Some((n, k)) => {
                let (n, k) = map_node(n, k);
                match k {
                    Some(k) => {
                        let _ = write!(out, "{n}.{k}:{rel}");
                    }
                    None => {
                        let _ = write!(out, "{n}:{rel}");
                    }
                }
            }
            None => out.push_str(dep),
        }
    }
    out
}

/// Number of syntactic words (not ranges, not empty nodes) in a sentence.
fn word_count(rows: &[Row]) -> u32 {
    let n = rows
        .iter()
        .filter(|r| matches!(r.id, RowId::Word(_)))
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Replaces characters that would corrupt a CoNLL-U line or be taken as a line break by common
/// readers (control characters incl. TAB/CR/LF, U+2028, U+2029) by a space.
pub fn sanitize(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}';
    if text.contains(bad) {
        std::borrow::Cow::Owned(text.replace(bad, " "))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Appends one field, `_` if empty, with unsafe characters replaced.
fn push_field(out: &mut String, value: &str) {
    if value.is_empty() {
        out.push('_');
    } else {
        out.push_str(&sanitize(value));
    }
}

/// Appends a complete CoNLL-U block: `# sent_id`, `# text`, the rows and a blank line.
///
/// `text` is written trimmed and sanitized (see [`sanitize`]); with no rows the block is the two
/// comment lines followed by the blank line (an empty sentence).
pub fn write_block(out: &mut String, sent_id: u64, text: &str, rows: &[Row]) {
    let _ = writeln!(out, "# sent_id = {sent_id}");
    out.push_str("# text = ");
    out.push_str(&sanitize(text.trim()));
    out.push('\n');
    for r in rows {
        let _ = match r.id {
            RowId::Word(n) => write!(out, "{n}"),
            RowId::Range(a, b) => write!(out, "{a}-{b}"),
            RowId::Empty(n, k) => write!(out, "{n}.{k}"),
        };
        for f in [&r.form, &r.lemma, &r.upos, &r.xpos, &r.feats] {
            out.push('\t');
            push_field(out, f);
        }
        out.push('\t');
        match r.head {
            Some(h) => {
                let _ = write!(out, "{h}");
            }
            None => out.push('_'),
        }
        for f in [&r.deprel, &r.deps, &r.misc] {
            out.push('\t');
            push_field(out, f);
        }
        out.push('\n');
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: RowId, head: Option<u32>, deprel: &str, deps: &str) -> Row {
        Row {
            id,
            form: "w".into(),
            lemma: String::new(),
            upos: String::new(),
            xpos: String::new(),
            feats: String::new(),
            head,
            deprel: deprel.into(),
            deps: deps.into(),
            misc: String::new(),
        }
    }

    #[test]
    fn merge_renumbers_ranges_empty_nodes_heads_and_deps() {
        use RowId::*;
        let s1 = vec![
            row(Range(1, 2), None, "", ""),
            row(Word(1), Some(2), "case", "2:case"),
            row(Word(2), Some(0), "root", "0:root"),
            row(Empty(2, 1), None, "", "2:orphan"),
        ];
        let s2 = vec![
            row(Empty(0, 1), None, "", "0:root"),
            row(Word(1), Some(2), "nsubj", "2:nsubj|0.1:x"),
            row(Range(2, 3), None, "", ""),
            row(Word(2), Some(0), "root", "0:root"),
            row(Word(3), Some(2), "obj", "2:obj"),
        ];
        let m = merge_sentences(vec![s1, s2]);
        let ids: Vec<RowId> = m.iter().map(|r| r.id).collect();
        assert_eq!(
            ids,
            vec![
                Range(1, 2),
                Word(1),
                Word(2),
                Empty(2, 1),
                Empty(2, 2),
                Word(3),
                Range(4, 5),
                Word(4),
                Word(5)
            ]
        );
        assert_eq!(m[2].head, Some(0));
        assert_eq!(m[2].deps, "0:root");
        assert_eq!(m[4].deps, "2:parataxis");
        assert_eq!(m[5].head, Some(4));
        assert_eq!(m[5].deps, "4:nsubj|2.2:x");
        assert_eq!((m[7].head, m[7].deprel.as_str()), (Some(2), "parataxis"));
        assert_eq!(m[7].deps, "2:parataxis");
        assert_eq!(m[8].head, Some(4));
        let roots = m.iter().filter(|r| r.head == Some(0)).count();
        assert_eq!(roots, 1);
    }

    #[test]
    fn block_format_and_sanitizing() {
        let mut s = String::new();
        let mut r = row(RowId::Word(1), Some(0), "root", "");
        r.form = "a\tb".into();
        write_block(&mut s, 7, " x\ty\u{2028} ", &[r]);
        assert_eq!(
            s,
            "# sent_id = 7\n# text = x y\n1\ta b\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
        );
        let mut e = String::new();
        write_block(&mut e, 3, "   ", &[]);
        assert_eq!(e, "# sent_id = 3\n# text = \n\n");
    }
}

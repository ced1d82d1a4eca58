//! Writing CoNLL-U: a [`Sentence`] back to text (losslessly), and several sentences merged
//! into one tree ([`write_merged`]) for the parse stage, where one corpus line must give
//! exactly one tree.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use crate::model::{Extra, Sentence, Word};

impl Sentence<'_> {
    /// The sentence in CoNLL-U, followed by a blank line.
    pub fn to_conllu(&self) -> String {
        let mut buf = Vec::new();
        // Writing to a Vec cannot fail; every field is a &str, so the bytes are UTF-8.
        let _ = self.write(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// Writes the sentence in CoNLL-U, followed by a blank line: words with their ids,
    /// every other line verbatim at its place. Reading and writing is byte-identical for
    /// any file the reader accepts (modulo `\r\n` and blank-line runs).
    pub fn write<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let mut extras = self.extras.iter().peekable();
        for (i, w) in self.words.iter().enumerate() {
            while let Some((_, e)) = extras.next_if(|(pos, _)| *pos as usize <= i) {
                write_extra(out, e)?;
            }
            let mut itoa = itoa::Buffer::new();
            out.write_all(itoa.format(i + 1).as_bytes())?;
            for f in [w.form, w.lemma, w.upos, w.xpos, w.feats] {
                out.write_all(b"\t")?;
                out.write_all(f.as_bytes())?;
            }
            out.write_all(b"\t")?;
            match w.head {
                Some(h) => out.write_all(itoa.format(h).as_bytes())?,
                None => out.write_all(b"_")?,
            }
            for f in [w.deprel, w.deps, w.misc] {
                out.write_all(b"\t")?;
                out.write_all(f.as_bytes())?;
            }
            out.write_all(b"\n")?;
        }
        for (_, e) in extras {
            write_extra(out, e)?;
        }
        out.write_all(b"\n")
    }
}

fn write_extra<W: Write>(out: &mut W, extra: &Extra<'_>) -> io::Result<()> {
    let line = match extra {
        Extra::Comment(l) | Extra::Empty(l) => l,
        Extra::Multiword { line, .. } => line,
    };
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")
}

/// Replaces characters that would corrupt a CoNLL-U line or be taken as a line break by
/// common readers (control characters incl. TAB/CR/LF, U+2028, U+2029) by a space.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}';
    if text.contains(bad) {
        Cow::Owned(text.replace(bad, " "))
    } else {
        Cow::Borrowed(text)
    }
}

/// A field value ready to be written: sanitized (see [`sanitize`]), `_` when empty.
pub fn field(value: &str) -> Cow<'_, str> {
    if value.is_empty() {
        Cow::Borrowed("_")
    } else {
        sanitize(value)
    }
}

/// Writes one block for several sentences merged into one tree: `# sent_id = <sent_id>`,
/// `# text = <text>` (trimmed, sanitized), the merged rows and a blank line. With no
/// sentence the block is the two comments (an empty sentence).
///
/// Word ids, multiword-token ranges, empty nodes, HEAD and DEPS of sentence `s` are shifted
/// by the number of words in sentences `0..s`. The first word with HEAD 0 stays the root;
/// every other HEAD-0 word (the roots of later sentences) is attached to it as `parataxis`
/// (also in DEPS: `0:rel` becomes `<root>:parataxis`), so the result has exactly one root.
/// Empty nodes `0.k` of a later sentence are renumbered after the empty nodes that already
/// hang after the last word of the previous sentences. Comments of the sentences are
/// dropped. Field values are written as they are (see [`field`]).
pub fn write_merged(out: &mut String, sent_id: u64, text: &str, sentences: &[Sentence<'_>]) {
    let _ = writeln!(out, "# sent_id = {sent_id}");
    out.push_str("# text = ");
    out.push_str(&sanitize(text.trim()));
    out.push('\n');

    let mut primary_root = None;
    let mut offset = 0u32;
    for s in sentences {
        if primary_root.is_none() {
            primary_root = s
                .words
                .iter()
                .position(|w| w.head == Some(0))
                .map(|i| i as u32 + 1 + offset);
        }
        offset += s.words.len() as u32;
    }

    let mut offset = 0u32;
    // Largest `k` of the empty nodes `n.k` written so far after word `n == offset`.
    let mut last_empty = (0u32, 0u32);
    for s in sentences {
        let empty_shift = if last_empty.0 == offset {
            last_empty.1
        } else {
            0
        };
        let node = |n: u32, k: Option<u32>| -> (u32, Option<u32>) {
            match k {
                Some(k) if n == 0 => (offset, Some(k + empty_shift)),
                k => (n + offset, k),
            }
        };
        let mut extras = s.extras.iter().peekable();
        for (i, w) in s.words.iter().enumerate() {
            while let Some((_, e)) = extras.next_if(|(pos, _)| *pos as usize <= i) {
                merged_extra(out, e, offset, primary_root, &node, &mut last_empty);
            }
            merged_word(out, w, i as u32 + 1, offset, primary_root, &node);
        }
        for (_, e) in extras {
            merged_extra(out, e, offset, primary_root, &node, &mut last_empty);
        }
        offset += s.words.len() as u32;
    }
    out.push('\n');
}

type NodeMap<'a> = dyn Fn(u32, Option<u32>) -> (u32, Option<u32>) + 'a;

fn merged_word(
    out: &mut String,
    word: &Word<'_>,
    id: u32,
    offset: u32,
    primary_root: Option<u32>,
    node: &NodeMap<'_>,
) {
    let gid = id + offset;
    let keeps_root = Some(gid) == primary_root;
    let mut deprel = word.deprel;
    let head = match word.head {
        Some(0) if !keeps_root => {
            deprel = "parataxis";
            primary_root
        }
        Some(0) | None => word.head,
        Some(h) => Some(h + offset),
    };
    let _ = write!(out, "{gid}");
    for f in [word.form, word.lemma, word.upos, word.xpos, word.feats] {
        out.push('\t');
        out.push_str(f);
    }
    match head {
        Some(h) => {
            let _ = write!(out, "\t{h}");
        }
        None => out.push_str("\t_"),
    }
    out.push('\t');
    out.push_str(deprel);
    out.push('\t');
    out.push_str(&renumber_deps(word.deps, keeps_root, primary_root, node));
    out.push('\t');
    out.push_str(word.misc);
    out.push('\n');
}

fn merged_extra(
    out: &mut String,
    extra: &Extra<'_>,
    offset: u32,
    primary_root: Option<u32>,
    node: &NodeMap<'_>,
    last_empty: &mut (u32, u32),
) {
    match extra {
        Extra::Comment(_) => {}
        Extra::Multiword {
            first, last, line, ..
        } => {
            let rest = line.split_once('\t').map_or("", |(_, r)| r);
            let _ = writeln!(out, "{}-{}\t{rest}", first + offset, last + offset);
        }
        Extra::Empty(line) => {
            let cols: Vec<&str> = line.split('\t').collect();
            let (n, k) = cols[0]
                .split_once('.')
                .and_then(|(n, k)| Some((n.parse::<u32>().ok()?, k.parse::<u32>().ok()?)))
                .unwrap_or((0, 0));
            let (n, k) = node(n, Some(k));
            let k = k.unwrap_or(0);
            *last_empty = (n, k);
            let _ = write!(out, "{n}.{k}");
            for (c, v) in cols.iter().enumerate().skip(1) {
                out.push('\t');
                if c == 8 {
                    out.push_str(&renumber_deps(v, false, primary_root, node));
                } else {
                    out.push_str(v);
                }
            }
            out.push('\n');
        }
    }
}

/// Renumbers the heads in a DEPS value; `0:rel` becomes `<root>:parataxis` unless
/// `keeps_root`.
fn renumber_deps(
    deps: &str,
    keeps_root: bool,
    primary_root: Option<u32>,
    node: &NodeMap<'_>,
) -> String {
    if deps.is_empty() || deps == "_" {
        return deps.to_string();
    }
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
            Some((n, k)) => match node(n, k) {
                (n, Some(k)) => {
                    let _ = write!(out, "{n}.{k}:{rel}");
                }
                (n, None) => {
                    let _ = write!(out, "{n}:{rel}");
                }
            },
            None => out.push_str(dep),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::{parse_block, Block};
    use std::path::Path;

    fn parse(text: &str) -> Block {
        Block {
            text: text.to_string(),
            first_line: 1,
        }
    }

    #[test]
    fn merge_renumbers_ranges_empty_nodes_heads_and_deps() {
        let b1 = parse(
            "1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n\
             1\tw\t_\t_\t_\t_\t2\tcase\t2:case\t_\n\
             2\tw\t_\t_\t_\t_\t0\troot\t0:root\t_\n\
             2.1\tw\t_\t_\t_\t_\t_\t_\t2:orphan\t_\n",
        );
        let b2 = parse(
            "0.1\tw\t_\t_\t_\t_\t_\t_\t0:root\t_\n\
             1\tw\t_\t_\t_\t_\t2\tnsubj\t2:nsubj|0.1:x\t_\n\
             2-3\tvom\t_\t_\t_\t_\t_\t_\t_\t_\n\
             2\tw\t_\t_\t_\t_\t0\troot\t0:root\t_\n\
             3\tw\t_\t_\t_\t_\t2\tobj\t2:obj\t_\n",
        );
        let p = Path::new("t");
        let s = [parse_block(&b1, p).unwrap(), parse_block(&b2, p).unwrap()];
        let mut out = String::new();
        write_merged(&mut out, 7, " a\tb ", &s);
        assert_eq!(
            out,
            "# sent_id = 7\n# text = a b\n\
             1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n\
             1\tw\t_\t_\t_\t_\t2\tcase\t2:case\t_\n\
             2\tw\t_\t_\t_\t_\t0\troot\t0:root\t_\n\
             2.1\tw\t_\t_\t_\t_\t_\t_\t2:orphan\t_\n\
             2.2\tw\t_\t_\t_\t_\t_\t_\t2:parataxis\t_\n\
             3\tw\t_\t_\t_\t_\t4\tnsubj\t4:nsubj|2.2:x\t_\n\
             4-5\tvom\t_\t_\t_\t_\t_\t_\t_\t_\n\
             4\tw\t_\t_\t_\t_\t2\tparataxis\t2:parataxis\t_\n\
             5\tw\t_\t_\t_\t_\t4\tobj\t4:obj\t_\n\n"
        );
        // The merged block is one valid tree.
        let merged = parse(&format!("{}\n", out.trim_end()));
        let m = parse_block(&merged, p).unwrap();
        assert_eq!(m.words.iter().filter(|w| w.head == Some(0)).count(), 1);
        let mut empty = String::new();
        write_merged(&mut empty, 3, "   ", &[]);
        assert_eq!(empty, "# sent_id = 3\n# text = \n\n");
    }

    #[test]
    fn fields_are_sanitized_and_never_empty() {
        assert_eq!(field(""), "_");
        assert_eq!(field("a\tb\u{2028}c"), "a b c");
        assert_eq!(field("x"), "x");
    }
}

//! A compact UD sentence that borrows its fields from the CoNLL-U text.
//!
//! Words (integer ids) carry the ten CoNLL-U columns; comment lines, multiword-token
//! ranges (`3-4`) and empty nodes (`5.1`) are kept verbatim as [`Extra`] lines at
//! their position, so writing a sentence back reproduces it line for line. Only
//! words count for dependency distance: ranges and empty nodes are not words.

use std::io::{self, Write};

/// One syntactic word (a CoNLL-U line with an integer id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word<'a> {
    /// FORM column.
    pub form: &'a str,
    /// LEMMA column.
    pub lemma: &'a str,
    /// UPOS column.
    pub upos: &'a str,
    /// XPOS column.
    pub xpos: &'a str,
    /// FEATS column (`_` or `Key=Value|...`).
    pub feats: &'a str,
    /// HEAD column: 0 for the root, `None` if the column is `_`.
    pub head: Option<u32>,
    /// DEPREL column, with subtype (`obl:tmod`).
    pub deprel: &'a str,
    /// DEPS column.
    pub deps: &'a str,
    /// MISC column.
    pub misc: &'a str,
}

impl Word<'_> {
    /// Whether FEATS contains the exact `Key=Value` item.
    pub fn has_feat(&self, key_value: &str) -> bool {
        // Fast path: a substring search rules out most words before splitting.
        self.feats.contains(key_value) && self.feats.split('|').any(|f| f == key_value)
    }

    /// Whether MISC contains `SpaceAfter=No`.
    pub fn no_space_after(&self) -> bool {
        self.misc != "_" && self.misc.split('|').any(|f| f == "SpaceAfter=No")
    }
}

/// A non-word line kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extra<'a> {
    /// A comment line, including its leading `#`.
    Comment(&'a str),
    /// A multiword token `first-last` with its surface form; `line` is the whole line.
    Multiword {
        /// First word id covered.
        first: u32,
        /// Last word id covered.
        last: u32,
        /// Surface form.
        form: &'a str,
        /// The whole line.
        line: &'a str,
    },
    /// An empty node (`n.k`) of the enhanced graph; `line` is the whole line.
    Empty(&'a str),
}

/// A UD sentence: words plus the extra lines at their positions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sentence<'a> {
    /// Words in id order; word id `i` is `words[i - 1]`.
    pub words: Vec<Word<'a>>,
    /// Non-word lines, each with the number of words that precede it.
    pub extras: Vec<(u32, Extra<'a>)>,
}

/// A surface token: a plain word or a multiword token covering several words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// Surface form.
    pub form: &'a str,
    /// First word id covered (1-based).
    pub first: u32,
    /// Last word id covered (equal to `first` for a plain word).
    pub last: u32,
}

impl<'a> Sentence<'a> {
    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the sentence has no words (e.g. an empty corpus line).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The word with 1-based id `id`.
    pub fn word(&self, id: u32) -> Option<&Word<'a>> {
        self.words.get((id as usize).checked_sub(1)?)
    }

    /// The value of a `# key = value` comment, if present.
    pub fn comment(&self, key: &str) -> Option<&'a str> {
        self.extras.iter().find_map(|(_, e)| match e {
            Extra::Comment(c) => {
                let rest = c.strip_prefix('#')?.trim_start().strip_prefix(key)?;
                rest.trim_start().strip_prefix('=').map(str::trim)
            }
            _ => None,
        })
    }

    /// Surface tokens in order: multiword tokens replace the words they cover.
    pub fn tokens(&self) -> Vec<Token<'a>> {
        let mut ranges = self.extras.iter().filter_map(|(_, e)| match e {
            Extra::Multiword {
                first, last, form, ..
            } => Some((*first, *last, *form)),
            _ => None,
        });
        let mut next_range = ranges.next();
        let mut out = Vec::with_capacity(self.words.len());
        let mut id = 1u32;
        while id as usize <= self.words.len() {
            if let Some((first, last, form)) = next_range {
                if first == id && last >= first {
                    out.push(Token { form, first, last });
                    id = last + 1;
                    next_range = ranges.next();
                    continue;
                }
                if first < id {
                    next_range = ranges.next();
                    continue;
                }
            }
            out.push(Token {
                form: self.words[id as usize - 1].form,
                first: id,
                last: id,
            });
            id += 1;
        }
        out
    }

    /// Surface tokens with owned forms, `(form, first word id, last word id)`, for
    /// marking after the sentence's text is gone.
    pub fn owned_tokens(&self) -> Vec<(String, u32, u32)> {
        self.tokens()
            .into_iter()
            .map(|t| (t.form.to_string(), t.first, t.last))
            .collect()
    }

    /// The sentence in CoNLL-U, followed by a blank line.
    pub fn to_conllu(&self) -> String {
        let mut buf = Vec::new();
        // Writing to a Vec cannot fail; every field is a &str, so the bytes are UTF-8.
        let _ = self.write(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    }

    /// Writes the sentence in CoNLL-U, followed by a blank line.
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

fn write_extra<W: Write>(out: &mut W, e: &Extra<'_>) -> io::Result<()> {
    let line = match e {
        Extra::Comment(l) | Extra::Empty(l) => l,
        Extra::Multiword { line, .. } => line,
    };
    out.write_all(line.as_bytes())?;
    out.write_all(b"\n")
}

//! Streaming CoNLL-U reader (plain or gzip) and the parser of one sentence block.
//!
//! Why not the `conllu` crate: version 0.8 reads a multiword-token line such as
//! `26-27 am` as if it were a word (its id field is parsed and then ignored), which
//! shifts every later word and breaks heads and distances; it also drops the line
//! numbers we need for error messages and allocates a graph per sentence. This
//! reader keeps ranges and empty nodes as verbatim extra lines, so reading and
//! writing a sentence is lossless, and it borrows every field from the block text.
//!
//! Accepted layout: sentences separated by one or more blank (or whitespace-only)
//! lines, optional comments, `\n` or `\r\n` line ends, a missing final blank line,
//! a UTF-8 BOM. A block with comments but no word lines is an *empty sentence*
//! (ldd-sets' parse stage writes one for an empty corpus line).

use std::path::Path;

use crate::corpus::{ByteLines, FileInfo};
use crate::error::{Error, Result};
use crate::tree::{Extra, Sentence, Word};

/// The text of one sentence block with its position in the file.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// The block's lines, each terminated by `\n` (no blank separator line).
    pub text: String,
    /// 1-based line number of the block's first line.
    pub first_line: u64,
}

/// Reads CoNLL-U sentence blocks one at a time.
pub struct ConlluReader {
    lines: ByteLines,
    buf: Vec<u8>,
    sentences: u64,
}

impl ConlluReader {
    /// Opens a plain or gzip CoNLL-U file.
    pub fn open(path: &Path) -> Result<Self> {
        Ok(ConlluReader {
            lines: ByteLines::open(path)?,
            buf: Vec::new(),
            sentences: 0,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.lines.path()
    }

    /// Reads the next block into `block`; returns `false` at end of file.
    pub fn next_block(&mut self, block: &mut Block) -> Result<bool> {
        block.text.clear();
        block.first_line = 0;
        while self.lines.next_into(&mut self.buf)? {
            let line = self.lines.utf8(&self.buf)?;
            if line.trim().is_empty() {
                if block.text.is_empty() {
                    continue;
                }
                break;
            }
            if block.text.is_empty() {
                block.first_line = self.lines.line_no();
            }
            block.text.push_str(line);
            block.text.push('\n');
        }
        if block.text.is_empty() {
            return Ok(false);
        }
        self.sentences += 1;
        Ok(true)
    }

    /// Reads the remaining blocks and returns the file's info; `lines` holds the
    /// number of sentences.
    pub fn finish(mut self) -> Result<FileInfo> {
        let mut b = Block::default();
        while self.next_block(&mut b)? {}
        let mut info = self.lines.finish()?;
        info.lines = self.sentences;
        Ok(info)
    }
}

/// Parses one block into a [`Sentence`]; `path` is used in error messages.
pub fn parse_block<'a>(block: &'a Block, path: &Path) -> Result<Sentence<'a>> {
    let mut s = Sentence::default();
    let err =
        |offset: usize, msg: String| Error::input(path, block.first_line + offset as u64, msg);
    for (k, line) in block.text.lines().enumerate() {
        if line.starts_with('#') {
            s.extras.push((s.words.len() as u32, Extra::Comment(line)));
            continue;
        }
        let mut f = line.split('\t');
        let mut cols: [&str; 10] = [""; 10];
        let mut n = 0;
        for c in f.by_ref() {
            if n < 10 {
                cols[n] = c;
            }
            n += 1;
        }
        if n != 10 {
            return Err(err(
                k,
                format!("expected 10 tab-separated columns, found {n}"),
            ));
        }
        let id = cols[0];
        let pos = s.words.len() as u32;
        if let Some((a, b)) = id.split_once('-') {
            let (first, last) = match (a.parse::<u32>(), b.parse::<u32>()) {
                (Ok(a), Ok(b)) if a >= 1 && b >= a => (a, b),
                _ => return Err(err(k, format!("invalid multiword-token range `{id}`"))),
            };
            if first != pos + 1 {
                return Err(err(
                    k,
                    format!("multiword token `{id}` must precede word {}", pos + 1),
                ));
            }
            s.extras.push((
                pos,
                Extra::Multiword {
                    first,
                    last,
                    form: cols[1],
                    line,
                },
            ));
            continue;
        }
        if let Some((a, b)) = id.split_once('.') {
            if a.parse::<u32>().is_err() || b.parse::<u32>().is_err() {
                return Err(err(k, format!("invalid empty-node id `{id}`")));
            }
            s.extras.push((pos, Extra::Empty(line)));
            continue;
        }
        match id.parse::<u32>() {
            Ok(i) if i == pos + 1 => {}
            Ok(i) => {
                return Err(err(
                    k,
                    format!("word id {i} out of sequence (expected {})", pos + 1),
                ))
            }
            Err(_) => return Err(err(k, format!("invalid word id `{id}`"))),
        }
        let head = match cols[6] {
            "_" => None,
            h => match h.parse::<u32>() {
                Ok(h) => Some(h),
                Err(_) => return Err(err(k, format!("invalid HEAD `{h}`"))),
            },
        };
        s.words.push(Word {
            form: cols[1],
            lemma: cols[2],
            upos: cols[3],
            xpos: cols[4],
            feats: cols[5],
            head,
            deprel: cols[7],
            deps: cols[8],
            misc: cols[9],
        });
    }
    let n = s.words.len() as u32;
    if let Some(bad) = s.words.iter().position(|w| w.head.is_some_and(|h| h > n)) {
        let offset = word_line_offset(block, bad as u32 + 1);
        let h = s.words[bad].head.unwrap_or(0);
        return Err(err(
            offset,
            format!("HEAD {h} is beyond the sentence's {n} words"),
        ));
    }
    for (_, e) in &s.extras {
        if let Extra::Multiword { last, line, .. } = e {
            if *last > n {
                let offset = block.text.lines().position(|l| l == *line).unwrap_or(0);
                return Err(err(
                    offset,
                    format!("multiword token ends at word {last} but the sentence has {n} words"),
                ));
            }
        }
    }
    Ok(s)
}

/// Line offset (within the block) of word `id`; only used to report errors.
fn word_line_offset(block: &Block, id: u32) -> usize {
    let want = id.to_string();
    block
        .text
        .lines()
        .position(|l| l.split('\t').next() == Some(want.as_str()))
        .unwrap_or(0)
}

/// Reads a whole CoNLL-U file and calls `f` with each parsed sentence and its
/// 1-based index. For tools and tests; the extraction pipeline streams instead.
pub fn for_each_sentence(
    path: &Path,
    mut f: impl FnMut(u64, &Sentence<'_>) -> Result<()>,
) -> Result<u64> {
    let mut r = ConlluReader::open(path)?;
    let mut block = Block::default();
    let mut n = 0;
    while r.next_block(&mut block)? {
        n += 1;
        let s = parse_block(&block, path)?;
        f(n, &s)?;
    }
    Ok(n)
}

//! Streaming CoNLL-U reader (plain or gzip, through [`ldd_io::Input`]) and the parser of
//! one sentence block.
//!
//! Accepted layout: sentences separated by one or more blank (or whitespace-only) lines,
//! optional comments, `\n` or `\r\n` line ends, a missing final blank line, a UTF-8 BOM.
//! A block with comments but no word lines is an *empty sentence* (ldd-sets' parse stage
//! writes one for an empty corpus line).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use ldd_io::{Counted, Error, FileInfo, Input, Result};

use crate::model::{Extra, Sentence, Word};

/// The largest sentence block read: 64 MiB (the CoNLL-U of a 1 MiB source line, the line
/// limit of [`ldd_io::MAX_LINE_BYTES`], is a fraction of this). A longer block is an error
/// naming its first line, so memory stays bounded whatever the input.
pub const MAX_BLOCK_BYTES: usize = 64 << 20;

/// The text of one sentence block with its position in the file.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// The block's lines, each terminated by `\n` (no blank separator line).
    pub text: String,
    /// 1-based line number of the block's first line.
    pub first_line: u64,
}

/// Reads CoNLL-U sentence blocks one at a time.
pub struct Reader<R: Read = File> {
    input: Input<R>,
    sentences: u64,
}

impl Reader<File> {
    /// Opens a plain or gzip CoNLL-U file.
    pub fn open(path: &Path) -> Result<Self> {
        Ok(Reader::new(Input::open(path)?))
    }
}

impl<R: Read> Reader<R> {
    /// Reads blocks from an opened input.
    pub fn new(input: Input<R>) -> Self {
        Reader {
            input,
            sentences: 0,
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.input.path()
    }

    /// Reads the next block into `block`; returns `false` at end of file.
    ///
    /// Lines are appended straight into the block's buffer and UTF-8 is checked once per
    /// block; an invalid byte is reported with its file and line.
    pub fn next_block(&mut self, block: &mut Block) -> Result<bool> {
        let mut buf = std::mem::take(&mut block.text).into_bytes();
        buf.clear();
        block.first_line = 0;
        while let Some(start) = self.input.append_line(&mut buf)? {
            if buf[start..].iter().all(u8::is_ascii_whitespace) {
                buf.truncate(start);
                if buf.is_empty() {
                    continue;
                }
                break;
            }
            if start == 0 {
                block.first_line = self.input.line_no();
            }
            if buf.len() >= MAX_BLOCK_BYTES {
                return Err(Error::input(
                    self.input.path(),
                    block.first_line,
                    format!(
                        "the sentence block starting here is longer than the limit of \
                         {MAX_BLOCK_BYTES} bytes (no blank line ends it)"
                    ),
                ));
            }
            buf.push(b'\n');
        }
        block.text = match String::from_utf8(buf) {
            Ok(t) => t,
            Err(e) => {
                let bytes = e.as_bytes();
                let bad = e.utf8_error().valid_up_to();
                let line_start = memchr::memrchr(b'\n', &bytes[..bad]).map_or(0, |p| p + 1);
                let line =
                    block.first_line + memchr::memchr_iter(b'\n', &bytes[..bad]).count() as u64;
                return Err(self.input.utf8_error(line, bad - line_start));
            }
        };
        if block.text.is_empty() {
            return Ok(false);
        }
        self.sentences += 1;
        Ok(true)
    }

    /// Skips up to `max_blocks` blocks (unparsed); returns how many were skipped.
    pub fn skip_blocks(&mut self, max_blocks: u64) -> Result<u64> {
        let mut b = Block::default();
        let mut k = 0;
        while k < max_blocks && self.next_block(&mut b)? {
            k += 1;
        }
        Ok(k)
    }

    /// The number of sentences read so far.
    pub fn sentences(&self) -> u64 {
        self.sentences
    }

    /// Counts the remaining blocks as [`Reader::count_rest`] does, but stops once it has
    /// seen more than `max` sentences in all (then the file is not read further).
    pub fn count_rest_up_to(&mut self, max: u64) -> Result<Counted> {
        let room = (max + 1).saturating_sub(self.sentences);
        Ok(match self.skip_blocks(room)? < room {
            true => Counted::Exactly(self.sentences),
            false => Counted::MoreThan(max),
        })
    }

    /// Reads the remaining blocks and returns the total number of sentences.
    pub fn count_rest(&mut self) -> Result<u64> {
        let mut b = Block::default();
        while self.next_block(&mut b)? {}
        Ok(self.sentences)
    }

    /// Reads the remaining blocks and returns the file's info; `lines` holds the number of
    /// sentences.
    pub fn finish(mut self) -> Result<FileInfo> {
        let sentences = self.count_rest()?;
        let mut info = self.input.finish()?;
        info.lines = sentences;
        Ok(info)
    }
}

/// The lines of a block (each ending in `\n`) with their first ten tab-separated fields
/// and their field count: `(line index, line, fields, count)`. One pass over the bytes
/// finds both separators (SIMD `memchr2`), which makes this the fast path of reading.
fn rows(text: &str) -> impl Iterator<Item = (usize, &str, [&str; 10], usize)> + '_ {
    let bytes = text.as_bytes();
    let mut seps = memchr::memchr2_iter(b'\t', b'\n', bytes);
    let mut line_start = 0;
    let mut k = 0;
    std::iter::from_fn(move || {
        let mut cols = [""; 10];
        let mut n = 0;
        let mut field_start = line_start;
        for pos in seps.by_ref() {
            if n < 10 {
                cols[n] = &text[field_start..pos];
            }
            n += 1;
            field_start = pos + 1;
            if bytes[pos] == b'\n' {
                let line = &text[line_start..pos];
                line_start = pos + 1;
                k += 1;
                return Some((k - 1, line, cols, n));
            }
        }
        None
    })
}

/// A `# sent_id = ID` comment glued to the sentence's first word line, as the paper's
/// published parses have them (`# sent_id = 331\t``\t…`: sentence 33, word 1): the
/// comment and the word line, or `None` for any other line. Unambiguous: the line has a
/// word line's ten fields, and the first word's id is `1` (or a multiword range `1-K`),
/// taken from the end of the first field, the rest a non-empty id.
fn glued_comment(line: &str, fields: usize) -> Option<(&str, &str)> {
    let first = line.split('\t').next()?;
    let id = first.strip_prefix("# sent_id = ")?;
    if fields != 10 || id.contains(char::is_whitespace) {
        return None;
    }
    let range = id.rfind("1-").filter(|&i| {
        let k = &id[i + 2..];
        !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit())
    });
    let at = match range {
        Some(i) => i,
        None if id.ends_with('1') => id.len() - 1,
        None => return None,
    };
    let cut = first.len() - (id.len() - at);
    (at > 0).then(|| (&line[..cut], &line[cut..]))
}

/// Parses one block into a [`Sentence`] and checks that it is a tree (see
/// [`Sentence::check_tree`]); `path` is used in error messages. A `# sent_id` comment
/// glued to the first word line is read as the two lines it stands for
/// ([`Sentence::glued`]).
pub fn parse_block<'a>(block: &'a Block, path: &Path) -> Result<Sentence<'a>> {
    let mut s = Sentence::default();
    let mut last_empty: Option<(u32, u32)> = None;
    let err =
        |offset: usize, msg: String| Error::input(path, block.first_line + offset as u64, msg);
    for (k, mut line, mut cols, n) in rows(&block.text) {
        if line.starts_with('#') {
            let glued = glued_comment(line, n).filter(|_| s.words.is_empty());
            let Some((comment, word)) = glued else {
                s.extras.push((s.words.len() as u32, Extra::Comment(line)));
                continue;
            };
            s.extras.push((0, Extra::Comment(comment)));
            s.glued = true;
            (line, cols[0]) = (word, word.split('\t').next().unwrap_or(word));
        }
        if n != 10 {
            return Err(err(
                k,
                format!("expected 10 tab-separated columns, found {n}"),
            ));
        }
        let pos = s.words.len() as u32;
        let row = if cols[0].bytes().all(|b| b.is_ascii_digit()) {
            word(&cols, pos).map(Row::Word)
        } else {
            other_row(&cols, line, pos, &mut last_empty)
        };
        match row.map_err(|m| err(k, m))? {
            Row::Word(w) => s.words.push(w),
            Row::Extra(e) => s.extras.push((pos, e)),
        }
    }
    if let Err(bad) = s.check_tree() {
        let offset = match bad.word {
            Some(id) => word_line_offset(block, id),
            None => 0,
        };
        return Err(err(offset, bad.message));
    }
    Ok(s)
}

/// A line of a block after its comments: a word, or a multiword token or empty node.
enum Row<'a> {
    Word(Word<'a>),
    Extra(Extra<'a>),
}

/// The row `line` (columns `cols`) whose id is not a plain number, after `pos` words: a
/// multiword token `a-b`, an empty node `a.b` (`last_empty` is the previous one), else
/// read as a word (whose id is then invalid). The error is the message.
fn other_row<'a>(
    cols: &[&'a str; 10],
    line: &'a str,
    pos: u32,
    last_empty: &mut Option<(u32, u32)>,
) -> std::result::Result<Row<'a>, String> {
    let id = cols[0];
    if let Some((a, b)) = id.split_once('-') {
        let (first, last) = match (a.parse::<u32>(), b.parse::<u32>()) {
            (Ok(a), Ok(b)) if a >= 1 && b > a => (a, b),
            _ => return Err(format!("invalid multiword-token range `{}`", q(id))),
        };
        if first != pos + 1 {
            return Err(format!(
                "multiword token `{}` must come right before word {}",
                q(id),
                pos + 1
            ));
        }
        let form = cols[1];
        return Ok(Row::Extra(Extra::Multiword {
            first,
            last,
            form,
            line,
        }));
    }
    if let Some((a, b)) = id.split_once('.') {
        let (a, b) = match (a.parse::<u32>(), b.parse::<u32>()) {
            (Ok(a), Ok(b)) if b >= 1 => (a, b),
            _ => return Err(format!("invalid empty-node id `{}`", q(id))),
        };
        // Empty node a.b comes right after word a (a = 0: before the first word),
        // numbered a.1, a.2, … in order.
        let want = match *last_empty {
            Some((la, lb)) if la == pos => lb + 1,
            _ => 1,
        };
        if a != pos || b != want {
            return Err(format!(
                "empty node `{}` out of place (expected {pos}.{want} here)",
                q(id)
            ));
        }
        *last_empty = Some((a, b));
        return Ok(Row::Extra(Extra::Empty(line)));
    }
    word(cols, pos).map(Row::Word)
}

/// The word of columns `cols`, word `pos + 1` of its sentence; the error is the message.
fn word<'a>(cols: &[&'a str; 10], pos: u32) -> std::result::Result<Word<'a>, String> {
    match cols[0].parse::<u32>() {
        Ok(i) if i == pos + 1 => {}
        Ok(i) => {
            return Err(format!(
                "word id {i} out of sequence (expected {})",
                pos + 1
            ))
        }
        Err(_) => return Err(format!("invalid word id `{}`", q(cols[0]))),
    }
    let head = match cols[6] {
        "_" => None,
        h => match h.parse::<u32>() {
            Ok(h) => Some(h),
            Err(_) => return Err(format!("invalid HEAD `{}`", q(h))),
        },
    };
    if let Err(why) = check_feats(cols[5]) {
        return Err(format!("invalid FEATS `{}`: {why}", q(cols[5])));
    }
    if cols[7].is_empty() || cols[7].contains(char::is_whitespace) {
        return Err(format!(
            "invalid DEPREL `{}` (empty or with white space; `_` if unannotated)",
            q(cols[7])
        ));
    }
    Ok(Word {
        form: cols[1],
        lemma: cols[2],
        upos: cols[3],
        xpos: cols[4],
        feats: cols[5],
        head,
        deprel: cols[7],
        deps: cols[8],
        misc: cols[9],
    })
}

/// `text` split at every `sep` (an ASCII byte, so every piece is whole UTF-8), as
/// `str::split` does but a byte at a time, which is faster on short fields.
fn split_ascii(text: &str, sep: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(|b| b == sep) {
            Some(i) => {
                rest = Some(&r[i + 1..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// Whether every character of `text` passes `ok`, ASCII bytes tested without decoding.
fn all_chars(text: &str, ok: impl Fn(char) -> bool) -> bool {
    if text.is_ascii() {
        text.bytes().all(|b| ok(char::from(b)))
    } else {
        text.chars().all(ok)
    }
}

/// Whether `feats` is a valid FEATS column of ASCII characters (see [`check_feats`]), in
/// one pass over its bytes: the fast path; `false` for anything else, whose fault (or
/// validity, for letters beyond ASCII) [`check_feats`] then works out.
fn ascii_feats_valid(feats: &[u8]) -> bool {
    // In a name (else in a value), and the length of the name or value so far.
    let (mut name, mut len) = (true, 0usize);
    for &b in feats {
        match (name, b) {
            (true, b'=') if len > 0 => (name, len) = (false, 0),
            (true, b) if b.is_ascii_alphanumeric() || b == b'[' || b == b']' => len += 1,
            (false, b',') if len > 0 => len = 0,
            (false, b'|') if len > 0 => (name, len) = (true, 0),
            (false, b) if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' => len += 1,
            _ => return false,
        }
    }
    !name && len > 0
}

/// Checks a FEATS column: `_`, or `Name=Value[,Value…]` features joined by `|`; names are
/// letters, digits and `[` `]` (layered features such as `Number[psor]`), values letters,
/// digits, `_` and `-`.
pub fn check_feats(feats: &str) -> std::result::Result<(), &'static str> {
    if feats == "_" || ascii_feats_valid(feats.as_bytes()) {
        return Ok(());
    }
    feats_fault(feats)
}

/// [`check_feats`] of a column other than `_`, a feature and a value at a time: the fault
/// it names, or `Ok` (letters beyond ASCII).
fn feats_fault(feats: &str) -> std::result::Result<(), &'static str> {
    if feats.is_empty() {
        return Err("empty (`_` if there are none)");
    }
    for feat in split_ascii(feats, b'|') {
        let Some(eq) = feat.bytes().position(|b| b == b'=') else {
            return Err("a feature is not Name=Value");
        };
        let (name, values) = (&feat[..eq], &feat[eq + 1..]);
        if name.is_empty() || !all_chars(name, |c| c.is_alphanumeric() || c == '[' || c == ']') {
            return Err(
                "a feature name is empty or has characters other than letters, digits, [ ]",
            );
        }
        if split_ascii(values, b',')
            .any(|v| v.is_empty() || !all_chars(v, |c| c.is_alphanumeric() || c == '_' || c == '-'))
        {
            return Err(
                "a feature value is empty or has characters other than letters, digits, _ -",
            );
        }
    }
    Ok(())
}

/// An input value quoted in a message (escaped, at most 40 characters).
fn q(text: &str) -> String {
    ldd_io::error::quote(text, 40)
}

/// Line offset (within the block) of word `id`, or of the multiword token starting at
/// `id`; only used to report errors.
fn word_line_offset(block: &Block, id: u32) -> usize {
    let want = id.to_string();
    block
        .text
        .lines()
        .position(|l| {
            let first = l.split('\t').next().unwrap_or("");
            first == want || first.split_once('-').is_some_and(|(a, _)| a == want)
        })
        .unwrap_or(0)
}

/// Reads a whole CoNLL-U file and calls `on_sentence` with each parsed sentence and its
/// 1-based index. For tools and tests; the extraction pipeline streams instead.
pub fn for_each_sentence<E: From<Error>>(
    path: &Path,
    mut on_sentence: impl FnMut(u64, &Sentence<'_>) -> std::result::Result<(), E>,
) -> std::result::Result<u64, E> {
    let mut r = Reader::open(path)?;
    let mut block = Block::default();
    let mut n = 0;
    while r.next_block(&mut block)? {
        n += 1;
        let s = parse_block(&block, path)?;
        on_sentence(n, &s)?;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns(line: &str) -> [&str; 10] {
        let mut cols = [""; 10];
        for (c, f) in cols.iter_mut().zip(line.split('\t')) {
            *c = f;
        }
        cols
    }

    /// The first sentence of German PUD: 32 words with their columns, the five comments
    /// before them and the multiword token `26-27 am` before word 26.
    #[test]
    fn first_pud_block_is_read_word_by_word() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/data/ud/de_pud-ud-test.conllu");
        let mut reader = Reader::open(&path).expect("PUD");
        let mut block = Block::default();
        assert!(reader.next_block(&mut block).expect("read"));
        let s = parse_block(&block, &path).expect("a tree");
        assert_eq!(s.words.len(), 32);
        assert_eq!(s.extras.len(), 6);
        assert!(matches!(
            s.extras[1],
            (0, Extra::Comment("# sent_id = n01001011"))
        ));
        assert!(matches!(
            s.extras[5],
            (
                25,
                Extra::Multiword {
                    first: 26,
                    last: 27,
                    form: "am",
                    ..
                }
            )
        ));
        let w = &s.words[2];
        assert_eq!(
            (w.form, w.lemma, w.upos, w.feats, w.head, w.deprel),
            (
                "Großteil",
                "Großteil",
                "NOUN",
                "Case=Nom|Gender=Masc|Number=Sing",
                Some(12),
                "nsubj"
            )
        );
        assert_eq!(s.words.iter().filter(|w| w.head == Some(0)).count(), 1);
    }

    /// The one-pass check accepts exactly the FEATS the feature-by-feature check accepts:
    /// every string of up to 5 characters from the grammar's ASCII characters and a few
    /// it refuses (and `check_feats` then names the fault).
    #[test]
    fn the_ascii_feats_path_agrees_with_the_feature_by_feature_check() {
        let alphabet = b"aZ9=|,_-[] .";
        let mut s = Vec::new();
        let mut accepted = 0;
        for len in 0..=5u32 {
            for mut k in 0..alphabet.len().pow(len) {
                s.clear();
                for _ in 0..len {
                    s.push(alphabet[k % alphabet.len()]);
                    k /= alphabet.len();
                }
                let text = std::str::from_utf8(&s).expect("ASCII");
                let slow = feats_fault(text).is_ok();
                assert_eq!(ascii_feats_valid(&s), slow, "{text:?}");
                accepted += usize::from(slow);
            }
        }
        assert!(accepted > 100, "{accepted}");
        assert!(check_feats("Case=Nom|Number[psor]=Plur,Sing|Foo=a_b-c").is_ok());
        assert!(check_feats("Gender=Fém").is_ok());
        assert!(check_feats("Gender=F m").is_err());
    }

    #[test]
    fn word_columns_are_checked() {
        let line = "2\tzu\tzu\tADP\tAPPR\t_\t3\tcase\t_\t_";
        let w = word(&columns(line), 1).expect("word 2");
        assert_eq!((w.form, w.head, w.deprel), ("zu", Some(3), "case"));
        let faults = [
            (line, 0, "word id 2 out of sequence (expected 1)"),
            (
                "x\tzu\tzu\tADP\t_\t_\t3\tcase\t_\t_",
                0,
                "invalid word id `x`",
            ),
            ("1\tzu\tzu\tADP\t_\t_\tx\tcase\t_\t_", 0, "invalid HEAD `x`"),
            (
                "1\tzu\tzu\tADP\t_\tCase\t3\tcase\t_\t_",
                0,
                "invalid FEATS `Case`",
            ),
            (
                "1\tzu\tzu\tADP\t_\t_\t3\tca se\t_\t_",
                0,
                "invalid DEPREL `ca se`",
            ),
        ];
        for (line, pos, message) in faults {
            let got = word(&columns(line), pos).expect_err(line);
            assert!(got.starts_with(message), "{line}: {got}");
        }
    }

    #[test]
    fn multiword_tokens_and_empty_nodes_are_placed() {
        let mut last_empty = None;
        let zum = "2-3\tzum\t_\t_\t_\t_\t_\t_\t_\t_";
        let row = other_row(&columns(zum), zum, 1, &mut last_empty).expect("before word 2");
        assert!(matches!(
            row,
            Row::Extra(Extra::Multiword {
                first: 2,
                last: 3,
                form: "zum",
                ..
            })
        ));
        let err = other_row(&columns(zum), zum, 2, &mut last_empty).err();
        assert_eq!(
            err.as_deref(),
            Some("multiword token `2-3` must come right before word 3")
        );
        let bad = "3-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_";
        let err = other_row(&columns(bad), bad, 2, &mut last_empty).err();
        assert_eq!(err.as_deref(), Some("invalid multiword-token range `3-2`"));
        for (id, pos, expected) in [("1.1", 1, None), ("1.2", 1, None), ("1.1", 1, Some("1.3"))] {
            let line = format!("{id}\t_\t_\t_\t_\t_\t_\t_\t_\t_");
            let got = other_row(&columns(&line), &line, pos, &mut last_empty).err();
            let want =
                expected.map(|e| format!("empty node `{id}` out of place (expected {e} here)"));
            assert_eq!(got, want);
        }
        assert_eq!(last_empty, Some((1, 2)));
    }
}

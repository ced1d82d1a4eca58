//! Interned, compactly stored parallel corpus.

use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;

use crate::error::{AlignError, Result};

/// Small fast non-cryptographic hasher (FxHash) for the vocabulary maps.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;

/// A vocabulary interning words to dense `u32` ids (in order of first appearance). Every
/// word is stored once, in one string; the index holds ids only: about 5 bytes a word
/// beyond its text.
#[derive(Debug, Clone, Default)]
pub struct Vocab {
    text: String,
    /// End of every word in `text`.
    ends: Vec<u32>,
    index: hashbrown::HashTable<u32>,
}

#[inline]
fn word_hash(word: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(word.as_bytes());
    h.finish()
}

impl Vocab {
    /// Creates an empty vocabulary.
    pub fn new() -> Self {
        Self::default()
    }

    /// Word `id` of `text` cut at `ends`.
    #[inline]
    fn slice<'t>(text: &'t str, ends: &[u32], id: u32) -> &'t str {
        let i = id as usize;
        let start = if i == 0 { 0 } else { ends[i - 1] as usize };
        &text[start..ends[i] as usize]
    }

    /// Returns the id of `word`, adding it if it is new.
    pub fn intern(&mut self, word: &str) -> u32 {
        let h = word_hash(word);
        let Vocab { text, ends, index } = self;
        if let Some(&id) = index.find(h, |&id| Vocab::slice(text, ends, id) == word) {
            return id;
        }
        let id = u32::try_from(ends.len()).expect("vocabulary exceeds u32::MAX words");
        text.push_str(word);
        ends.push(u32::try_from(text.len()).expect("vocabulary exceeds 4 GB of text"));
        index.insert_unique(h, id, |&i| word_hash(Vocab::slice(text, ends, i)));
        id
    }

    /// Id of `word`, if known.
    pub fn get(&self, word: &str) -> Option<u32> {
        self.index
            .find(word_hash(word), |&id| self.word(id) == word)
            .copied()
    }

    /// The word with id `id`. Panics if `id` is out of range.
    pub fn word(&self, id: u32) -> &str {
        Vocab::slice(&self.text, &self.ends, id)
    }

    /// Number of distinct words.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the vocabulary is empty.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// All words in id order.
    pub fn words(&self) -> impl ExactSizeIterator<Item = &str> {
        (0..self.ends.len() as u32).map(|id| self.word(id))
    }
}

/// A parallel corpus: two interned vocabularies and the sentences of each side stored in CSR
/// form (one flat `Vec<u32>` of word ids plus sentence offsets).
///
/// The *source* side is the left side of a `source ||| target` line (German in this project),
/// the *target* side the right one. Alignment direction is chosen at training time
/// ([`crate::TrainOptions::reverse`]), never by swapping the corpus.
#[derive(Debug, Clone)]
pub struct Corpus {
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    src_ids: Vec<u32>,
    src_off: Vec<usize>,
    tgt_ids: Vec<u32>,
    tgt_off: Vec<usize>,
}

impl Default for Corpus {
    fn default() -> Self {
        Self::new()
    }
}

impl Corpus {
    /// Creates an empty corpus.
    pub fn new() -> Self {
        Corpus {
            src_vocab: Vocab::new(),
            tgt_vocab: Vocab::new(),
            src_ids: Vec::new(),
            src_off: vec![0],
            tgt_ids: Vec::new(),
            tgt_off: vec![0],
        }
    }

    /// Appends a sentence pair given as token sequences. Either side may be empty (such a pair
    /// is skipped by training and gets an empty alignment).
    pub fn push_pair<S: AsRef<str>, T: AsRef<str>>(&mut self, src: &[S], tgt: &[T]) {
        for w in src {
            let id = self.src_vocab.intern(w.as_ref());
            self.src_ids.push(id);
        }
        self.src_off.push(self.src_ids.len());
        for w in tgt {
            let id = self.tgt_vocab.intern(w.as_ref());
            self.tgt_ids.push(id);
        }
        self.tgt_off.push(self.tgt_ids.len());
    }

    /// Builds a corpus from an iterator of `(source tokens, target tokens)` pairs.
    pub fn from_pairs<I, S, T>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (Vec<S>, Vec<T>)>,
        S: AsRef<str>,
        T: AsRef<str>,
    {
        let mut c = Corpus::new();
        for (s, t) in pairs {
            c.push_pair(&s, &t);
        }
        c
    }

    /// Appends one fast_align input line `source tokens ||| target tokens` (tokens separated by
    /// whitespace). Returns `false` (and appends nothing) if the line has no `|||` token.
    pub fn push_fast_align_line(&mut self, line: &str) -> bool {
        let mut toks = line.split_whitespace();
        let src: Vec<&str> = toks.by_ref().take_while(|t| *t != "|||").collect();
        // `take_while` consumed the separator, if there was one.
        let rest: Vec<&str> = toks.collect();
        if rest.is_empty() && !line.split_whitespace().any(|t| t == "|||") {
            return false;
        }
        self.push_pair(&src, &rest);
        true
    }

    /// Reads a fast_align input file (`source ||| target` per line, whitespace-tokenized;
    /// plain or gzip, recognised by content). A line without `|||` is an error naming the
    /// file and line.
    pub fn read_fast_align(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let mut input = ldd_io::Input::open(path)?;
        let mut c = Corpus::new();
        while let Some(line) = input.next_line()? {
            if !c.push_fast_align_line(line) {
                return Err(AlignError::CorpusLine {
                    path: path.to_path_buf(),
                    line: input.line_no() as usize,
                    reason: "no ||| separator".into(),
                });
            }
        }
        Ok(c)
    }

    /// Number of sentence pairs.
    pub fn len(&self) -> usize {
        self.src_off.len() - 1
    }

    /// Whether the corpus has no sentence pair.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Word ids of source sentence `index`.
    pub fn src(&self, index: usize) -> &[u32] {
        &self.src_ids[self.src_off[index]..self.src_off[index + 1]]
    }

    /// Word ids of target sentence `index`.
    pub fn tgt(&self, index: usize) -> &[u32] {
        &self.tgt_ids[self.tgt_off[index]..self.tgt_off[index + 1]]
    }

    /// `(source length, target length)` of pair `index`.
    pub fn lengths(&self, index: usize) -> (usize, usize) {
        (
            self.src_off[index + 1] - self.src_off[index],
            self.tgt_off[index + 1] - self.tgt_off[index],
        )
    }

    /// Source-side vocabulary.
    pub fn src_vocab(&self) -> &Vocab {
        &self.src_vocab
    }

    /// Target-side vocabulary.
    pub fn tgt_vocab(&self) -> &Vocab {
        &self.tgt_vocab
    }

    /// Source tokens of pair `index` as strings.
    pub fn src_tokens(&self, index: usize) -> Vec<&str> {
        self.src(index)
            .iter()
            .map(|&i| self.src_vocab.word(i))
            .collect()
    }

    /// Target tokens of pair `index` as strings.
    pub fn tgt_tokens(&self, index: usize) -> Vec<&str> {
        self.tgt(index)
            .iter()
            .map(|&i| self.tgt_vocab.word(i))
            .collect()
    }

    /// Internal view of the corpus as (conditioning side, generated side) for a direction:
    /// forward conditions on the source, reverse on the target.
    pub(crate) fn view(&self, reverse: bool) -> Side<'_> {
        if reverse {
            Side {
                cond_ids: &self.tgt_ids,
                cond_off: &self.tgt_off,
                cond_vocab: &self.tgt_vocab,
                gen_ids: &self.src_ids,
                gen_off: &self.src_off,
                gen_vocab: &self.src_vocab,
            }
        } else {
            Side {
                cond_ids: &self.src_ids,
                cond_off: &self.src_off,
                cond_vocab: &self.src_vocab,
                gen_ids: &self.tgt_ids,
                gen_off: &self.tgt_off,
                gen_vocab: &self.tgt_vocab,
            }
        }
    }
}

/// What the two sides of a model's corpus are (e.g. language codes), saved with the model
/// and checked by whoever loads it; both empty when unknown.
#[derive(Debug, Clone, Default)]
pub(crate) struct Labels {
    pub source: String,
    pub target: String,
}

impl Labels {
    /// Labels of the source and target sides.
    pub fn new(source: &str, target: &str) -> Labels {
        Labels {
            source: source.to_string(),
            target: target.to_string(),
        }
    }

    /// Both labels; `None` when neither was recorded.
    pub fn get(&self) -> Option<(&str, &str)> {
        let (s, t) = (&self.source, &self.target);
        (!s.is_empty() || !t.is_empty()).then_some((s.as_str(), t.as_str()))
    }
}

/// A direction-resolved view: `cond` words generate (are aligned to by) `gen` words.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub cond_ids: &'a [u32],
    pub cond_off: &'a [usize],
    pub cond_vocab: &'a Vocab,
    pub gen_ids: &'a [u32],
    pub gen_off: &'a [usize],
    pub gen_vocab: &'a Vocab,
}

impl<'a> Side<'a> {
    pub fn len(&self) -> usize {
        self.cond_off.len() - 1
    }
    #[inline]
    pub fn cond(&self, index: usize) -> &'a [u32] {
        &self.cond_ids[self.cond_off[index]..self.cond_off[index + 1]]
    }
    #[inline]
    pub fn gen(&self, index: usize) -> &'a [u32] {
        &self.gen_ids[self.gen_off[index]..self.gen_off[index + 1]]
    }
}

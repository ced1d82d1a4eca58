//! Sentence pairs as the aligner reads them, chunk by chunk: an in-memory [`Corpus`], or a
//! [`PairStore`] — the pairs encoded on disk and streamed once per pass, so that training
//! holds the vocabularies and the model, never the corpus.
//!
//! A store is an unnamed temporary file (removed by the operating system when the store is
//! dropped or the process ends, however it ends) holding, per pair, the two lengths and the
//! word ids of both sides as LEB128 varints. Ids are given in order of first appearance, so
//! frequent words have small ids: about 1.5 bytes per token on the shared corpora.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::corpus::{Corpus, Vocab};
use crate::error::{AlignError, Result};
use crate::index::split_by_offsets;

/// Most pairs in one chunk.
const CHUNK_PAIRS: usize = 256;

/// Most cells (`m·(n + 1)` in the larger direction) in one chunk, unless one pair has more:
/// bounds the posteriors held for the pairs in flight.
const CHUNK_CELLS: usize = 1 << 18;

/// Bytes read from a store at a time.
const READ_BLOCK: usize = 1 << 18;

/// Builds a [`PairStore`]: interns the words of every pair pushed and appends its encoding
/// to the temporary file.
pub struct PairStoreBuilder {
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    out: BufWriter<File>,
    dir: PathBuf,
    pairs: usize,
    bytes: u64,
    tokens: [u64; 2],
    buf: Vec<u8>,
}

/// Sentence pairs encoded in an unnamed temporary file, with their vocabularies (see the
/// module documentation); read back chunk by chunk by training and alignment.
pub struct PairStore {
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    file: File,
    dir: PathBuf,
    pairs: usize,
    bytes: u64,
    tokens: [u64; 2],
}

impl std::fmt::Debug for PairStore {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("PairStore")
            .field("pairs", &self.pairs)
            .field("bytes", &self.bytes)
            .finish()
    }
}

fn put_varint(buf: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        buf.push((value as u8) | 0x80);
        value >>= 7;
    }
    buf.push(value as u8);
}

impl PairStoreBuilder {
    /// A store in the system's temporary directory.
    pub fn new() -> Result<PairStoreBuilder> {
        PairStoreBuilder::in_dir(&std::env::temp_dir())
    }

    /// A store whose unnamed file lives in `dir`.
    pub fn in_dir(dir: &Path) -> Result<PairStoreBuilder> {
        let file = tempfile::tempfile_in(dir).map_err(|e| AlignError::io(dir, e))?;
        Ok(PairStoreBuilder {
            src_vocab: Vocab::new(),
            tgt_vocab: Vocab::new(),
            out: BufWriter::with_capacity(1 << 16, file),
            dir: dir.to_path_buf(),
            pairs: 0,
            bytes: 0,
            tokens: [0; 2],
            buf: Vec::new(),
        })
    }

    /// Appends a pair given as token sequences (either side may be empty: such a pair is
    /// neither trained on nor aligned).
    pub fn push_pair<S: AsRef<str>, T: AsRef<str>>(&mut self, src: &[S], tgt: &[T]) -> Result<()> {
        let buf = &mut self.buf;
        buf.clear();
        put_varint(buf, src.len() as u64);
        put_varint(buf, tgt.len() as u64);
        for w in src {
            put_varint(buf, u64::from(self.src_vocab.intern(w.as_ref())));
        }
        for w in tgt {
            put_varint(buf, u64::from(self.tgt_vocab.intern(w.as_ref())));
        }
        self.out
            .write_all(buf)
            .map_err(|e| AlignError::io(&self.dir, e))?;
        self.pairs += 1;
        self.bytes += buf.len() as u64;
        self.tokens[0] += src.len() as u64;
        self.tokens[1] += tgt.len() as u64;
        Ok(())
    }

    /// Appends every pair of `pairs` (an in-memory corpus, or another store).
    pub fn push_pairs<'p>(&mut self, pairs: impl Into<Pairs<'p>>) -> Result<()> {
        let pairs = pairs.into();
        let (sv, tv) = (pairs.src_vocab(), pairs.tgt_vocab());
        let mut r = pairs.reader()?;
        let mut chunk = Chunk::default();
        while r.next_chunk(&mut chunk)? {
            for k in 0..chunk.len() {
                let src: Vec<&str> = chunk.src(k).iter().map(|&w| sv.word(w)).collect();
                let tgt: Vec<&str> = chunk.tgt(k).iter().map(|&w| tv.word(w)).collect();
                self.push_pair(&src, &tgt)?;
            }
        }
        Ok(())
    }

    /// Pairs pushed so far.
    pub fn len(&self) -> usize {
        self.pairs
    }

    /// Whether no pair was pushed.
    pub fn is_empty(&self) -> bool {
        self.pairs == 0
    }

    /// The store, ready to be read.
    pub fn finish(self) -> Result<PairStore> {
        let dir = self.dir;
        let file = self
            .out
            .into_inner()
            .map_err(|e| AlignError::io(&dir, e.into_error()))?;
        Ok(PairStore {
            src_vocab: self.src_vocab,
            tgt_vocab: self.tgt_vocab,
            file,
            dir,
            pairs: self.pairs,
            bytes: self.bytes,
            tokens: self.tokens,
        })
    }
}

impl PairStore {
    /// Number of sentence pairs.
    pub fn len(&self) -> usize {
        self.pairs
    }

    /// Whether the store holds no pair.
    pub fn is_empty(&self) -> bool {
        self.pairs == 0
    }

    /// Size of the encoded pairs on disk, in bytes.
    pub fn encoded_bytes(&self) -> u64 {
        self.bytes
    }

    /// Source and target tokens stored.
    pub fn tokens(&self) -> (u64, u64) {
        (self.tokens[0], self.tokens[1])
    }

    /// Source-side vocabulary.
    pub fn src_vocab(&self) -> &Vocab {
        &self.src_vocab
    }

    /// Target-side vocabulary.
    pub fn tgt_vocab(&self) -> &Vocab {
        &self.tgt_vocab
    }
}

/// The pairs an aligner trains on or aligns: in memory or in a store, all of them or an
/// evenly spread sample ([`Pairs::sample`]).
#[derive(Clone, Copy)]
pub struct Pairs<'a> {
    source: Source<'a>,
    keep: Option<usize>,
}

#[derive(Clone, Copy)]
enum Source<'a> {
    Memory(&'a Corpus),
    Stored(&'a PairStore),
}

impl<'a> From<&'a Corpus> for Pairs<'a> {
    fn from(corpus: &'a Corpus) -> Self {
        Pairs {
            source: Source::Memory(corpus),
            keep: None,
        }
    }
}

impl<'a> From<&'a PairStore> for Pairs<'a> {
    fn from(store: &'a PairStore) -> Self {
        Pairs {
            source: Source::Stored(store),
            keep: None,
        }
    }
}

impl<'a> Pairs<'a> {
    /// At most `max_pairs` of the pairs, spread evenly over them (pair `i` of `N` is kept
    /// when `⌊(i + 1)·n / N⌋ > ⌊i·n / N⌋`, `n` = `max_pairs`): a training sample that
    /// covers every part of the data.
    pub fn sample(self, max_pairs: usize) -> Pairs<'a> {
        Pairs {
            keep: Some(max_pairs),
            ..self
        }
    }

    /// Pairs of the source, sampled or not.
    fn total(&self) -> usize {
        match self.source {
            Source::Memory(c) => c.len(),
            Source::Stored(s) => s.len(),
        }
    }

    /// Whether pair `index` of the source is one of these pairs.
    #[inline]
    fn selected(&self, index: usize) -> bool {
        match self.keep {
            Some(n) if n < self.total() => {
                let (index, n, t) = (index as u128, n as u128, self.total() as u128);
                (index + 1) * n / t > index * n / t
            }
            _ => true,
        }
    }

    /// Number of pairs.
    pub fn len(&self) -> usize {
        let t = self.total();
        self.keep.map_or(t, |n| n.min(t))
    }

    /// Whether there is no pair.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Source-side vocabulary (of all the pairs of the source, sampled or not).
    pub fn src_vocab(&self) -> &'a Vocab {
        match self.source {
            Source::Memory(c) => c.src_vocab(),
            Source::Stored(s) => &s.src_vocab,
        }
    }

    /// Target-side vocabulary.
    pub fn tgt_vocab(&self) -> &'a Vocab {
        match self.source {
            Source::Memory(c) => c.tgt_vocab(),
            Source::Stored(s) => &s.tgt_vocab,
        }
    }

    /// The pairs as an in-memory corpus (for what needs them all at once, as fast_align's
    /// model does): the corpus itself, or read back.
    pub(crate) fn in_memory(&self) -> Result<std::borrow::Cow<'a, Corpus>> {
        if let (Source::Memory(c), None) = (self.source, self.keep) {
            return Ok(std::borrow::Cow::Borrowed(c));
        }
        let mut c = Corpus::new();
        let mut r = self.reader()?;
        let mut chunk = Chunk::default();
        let (sv, tv) = (self.src_vocab(), self.tgt_vocab());
        while r.next_chunk(&mut chunk)? {
            for k in 0..chunk.len() {
                let src: Vec<&str> = chunk.src(k).iter().map(|&w| sv.word(w)).collect();
                let tgt: Vec<&str> = chunk.tgt(k).iter().map(|&w| tv.word(w)).collect();
                c.push_pair(&src, &tgt);
            }
        }
        Ok(std::borrow::Cow::Owned(c))
    }

    /// A reader of the pairs from the first, chunk by chunk.
    pub(crate) fn reader(&self) -> Result<ChunkReader<'a>> {
        Ok(ChunkReader {
            pairs: *self,
            next: 0,
            emitted: 0,
            pos: 0,
            buf: Vec::new(),
            at: 0,
            pending: None,
        })
    }
}

/// Consecutive pairs of a corpus, word ids of each side stored flat with offsets.
#[derive(Default)]
pub(crate) struct Chunk {
    /// Corpus index of the first pair.
    pub first: usize,
    src: Vec<u32>,
    src_off: Vec<usize>,
    tgt: Vec<u32>,
    tgt_off: Vec<usize>,
}

impl Chunk {
    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.src_off.len().saturating_sub(1)
    }

    /// Source word ids of pair `index` of the chunk.
    #[inline]
    pub fn src(&self, index: usize) -> &[u32] {
        &self.src[self.src_off[index]..self.src_off[index + 1]]
    }

    /// Target word ids of pair `index` of the chunk.
    #[inline]
    pub fn tgt(&self, index: usize) -> &[u32] {
        &self.tgt[self.tgt_off[index]..self.tgt_off[index + 1]]
    }

    fn clear(&mut self, first: usize) {
        self.first = first;
        self.src.clear();
        self.tgt.clear();
        self.src_off.clear();
        self.tgt_off.clear();
        self.src_off.push(0);
        self.tgt_off.push(0);
    }

    fn end_pair(&mut self) {
        self.src_off.push(self.src.len());
        self.tgt_off.push(self.tgt.len());
    }

    /// Whether a pair of lengths `(n, m)` still fits (a chunk takes at least one pair).
    fn fits(&self, cells: usize, n: usize, m: usize) -> bool {
        self.len() == 0 || (self.len() < CHUNK_PAIRS && cells + pair_cells(n, m) <= CHUNK_CELLS)
    }
}

/// Cells of a pair in its larger direction.
fn pair_cells(n: usize, m: usize) -> usize {
    (m * (n + 1)).max(n * (m + 1))
}

/// Reads the pairs of [`Pairs`] chunk by chunk; where chunks end depends on the pairs'
/// lengths alone.
pub(crate) struct ChunkReader<'a> {
    pairs: Pairs<'a>,
    /// Next pair of the source.
    next: usize,
    /// Pairs given so far.
    emitted: usize,
    /// File offset of `buf[0]` (stores).
    pos: u64,
    buf: Vec<u8>,
    /// Read position in `buf`.
    at: usize,
    /// The lengths of the next pair, read but not yet taken (a chunk ended before it).
    pending: Option<(usize, usize)>,
}

impl ChunkReader<'_> {
    /// Fills `chunk` with the next pairs; `false` at the end.
    pub fn next_chunk(&mut self, chunk: &mut Chunk) -> Result<bool> {
        chunk.clear(self.emitted);
        let total = self.pairs.total();
        let mut cells = 0;
        match self.pairs.source {
            Source::Memory(c) => {
                while self.next < total {
                    let (src, tgt) = (c.src(self.next), c.tgt(self.next));
                    if !self.pairs.selected(self.next) {
                        self.next += 1;
                        continue;
                    }
                    if !chunk.fits(cells, src.len(), tgt.len()) {
                        break;
                    }
                    cells += pair_cells(src.len(), tgt.len());
                    chunk.src.extend_from_slice(src);
                    chunk.tgt.extend_from_slice(tgt);
                    chunk.end_pair();
                    self.next += 1;
                }
            }
            Source::Stored(s) => {
                while self.next < total {
                    let (n, m) = match self.pending.take() {
                        Some(lengths) => lengths,
                        None => (self.varint(s)? as usize, self.varint(s)? as usize),
                    };
                    let keep = self.pairs.selected(self.next);
                    if keep && !chunk.fits(cells, n, m) {
                        self.pending = Some((n, m));
                        break;
                    }
                    for _ in 0..n {
                        let w = self.varint(s)?;
                        let id = self.id(s, w, s.src_vocab.len())?;
                        if keep {
                            chunk.src.push(id);
                        }
                    }
                    for _ in 0..m {
                        let w = self.varint(s)?;
                        let id = self.id(s, w, s.tgt_vocab.len())?;
                        if keep {
                            chunk.tgt.push(id);
                        }
                    }
                    self.next += 1;
                    if keep {
                        cells += pair_cells(n, m);
                        chunk.end_pair();
                    }
                }
            }
        }
        self.emitted += chunk.len();
        Ok(chunk.len() > 0)
    }

    fn id(&self, store: &PairStore, word: u64, vocab: usize) -> Result<u32> {
        if word < vocab as u64 {
            Ok(word as u32)
        } else {
            Err(corrupt(store))
        }
    }

    /// The next varint of the store.
    fn varint(&mut self, store: &PairStore) -> Result<u64> {
        let mut x = 0u64;
        let mut shift = 0;
        loop {
            if self.at == self.buf.len() {
                self.refill(store)?;
            }
            let b = self.buf[self.at];
            self.at += 1;
            x |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(x);
            }
            shift += 7;
            if shift > 63 {
                return Err(corrupt(store));
            }
        }
    }

    /// Reads the next block of the store, keeping what is not yet consumed.
    fn refill(&mut self, store: &PairStore) -> Result<()> {
        self.pos += self.at as u64;
        self.buf.drain(..self.at);
        self.at = 0;
        let have = self.buf.len();
        let want = READ_BLOCK.min((store.bytes - self.pos) as usize - have);
        if want == 0 {
            return Err(corrupt(store));
        }
        self.buf.resize(have + want, 0);
        store
            .file
            .read_exact_at(&mut self.buf[have..], self.pos + have as u64)
            .map_err(|e| AlignError::io(&store.dir, e))
    }
}

/// A chunk with the output space of its pairs.
struct Slot<R> {
    chunk: Chunk,
    /// Per pair, its `f64`s and `u32`s (`sizes` of its lengths), stored flat.
    reals: Vec<f64>,
    ids: Vec<u32>,
    real_off: Vec<usize>,
    id_off: Vec<usize>,
    results: Vec<Option<R>>,
}

impl<R: Send> Slot<R> {
    fn new() -> Slot<R> {
        Slot {
            chunk: Chunk::default(),
            reals: Vec::new(),
            ids: Vec::new(),
            real_off: Vec::new(),
            id_off: Vec::new(),
            results: Vec::new(),
        }
    }

    /// Makes the output space of the chunk's pairs (in the calling thread, whose memory
    /// it then reuses).
    fn prepare(&mut self, sizes: &(impl Fn(usize, usize) -> (usize, usize) + Sync)) {
        let c = &self.chunk;
        self.real_off.clear();
        self.id_off.clear();
        let (mut r, mut i) = (0, 0);
        self.real_off.push(0);
        self.id_off.push(0);
        for k in 0..c.len() {
            let (a, b) = sizes(c.src(k).len(), c.tgt(k).len());
            (r, i) = (r + a, i + b);
            self.real_off.push(r);
            self.id_off.push(i);
        }
        // Grown as needed and kept: no allocation per pair.
        if self.reals.len() < r {
            self.reals.resize(r, 0.0);
        }
        if self.ids.len() < i {
            self.ids.resize(i, 0);
        }
    }

    /// Computes every pair of the chunk in parallel into its output space.
    fn compute(
        &mut self,
        per_pair: &(impl Fn(&Chunk, usize, &mut [f64], &mut [u32]) -> Option<R> + Sync),
    ) {
        let c = &self.chunk;
        let (r, i) = (self.real_off[c.len()], self.id_off[c.len()]);
        let reals = split_by_offsets(&mut self.reals[..r], &self.real_off);
        let ids = split_by_offsets(&mut self.ids[..i], &self.id_off);
        self.results = reals
            .into_par_iter()
            .zip(ids)
            .enumerate()
            .map(|(k, (a, b))| per_pair(c, k, a, b))
            .collect();
    }

    /// Hands every result to `sum`, in order.
    fn sum(&mut self, sum: &mut impl FnMut(&Chunk, usize, &[f64], &[u32], R)) {
        let c = &self.chunk;
        for (k, r) in self.results.drain(..).enumerate() {
            if let Some(r) = r {
                let reals = &self.reals[self.real_off[k]..self.real_off[k + 1]];
                let ids = &self.ids[self.id_off[k]..self.id_off[k + 1]];
                sum(c, k, reals, ids, r);
            }
        }
    }
}

/// Runs `per_pair` on every pair of `pairs` in parallel, chunk by chunk, each pair writing
/// into its own `f64`s and `u32`s (as many as `sizes(n, m)` gives for its lengths), and
/// hands them with its result (`None`: nothing for that pair) to `sum` in corpus order,
/// then the number of pairs summed so far to `done`: one chunk is summed (and the next
/// read) while the one after is computed. The output space of two chunks is reused from
/// chunk to chunk. Results do not depend on the number of threads.
pub(crate) fn stream<R: Send>(
    pairs: Pairs<'_>,
    sizes: impl Fn(usize, usize) -> (usize, usize) + Sync,
    per_pair: impl Fn(&Chunk, usize, &mut [f64], &mut [u32]) -> Option<R> + Sync,
    mut sum: impl FnMut(&Chunk, usize, &[f64], &[u32], R) + Send,
    mut done: impl FnMut(usize) + Send,
) -> Result<()> {
    let mut reader = pairs.reader()?;
    let (mut cur, mut prev) = (Slot::<R>::new(), Slot::<R>::new());
    let mut have = reader.next_chunk(&mut cur.chunk)?;
    let mut next = Chunk::default();
    let (per_pair, sizes) = (&per_pair, &sizes);
    let mut pending = false;
    loop {
        if have {
            cur.prepare(sizes);
        }
        let (summed, computing) = (&mut prev, &mut cur);
        let (sum, done, reader, next_buf) = (&mut sum, &mut done, &mut reader, &mut next);
        let (read, ()) = rayon::join(
            move || -> Result<bool> {
                if pending {
                    summed.sum(sum);
                    done(summed.chunk.first + summed.chunk.len());
                }
                if have {
                    reader.next_chunk(next_buf)
                } else {
                    Ok(false)
                }
            },
            move || {
                if have {
                    computing.compute(per_pair);
                }
            },
        );
        let more = read?;
        if !have {
            return Ok(());
        }
        pending = true;
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut cur.chunk, &mut next);
        have = more;
    }
}

fn corrupt(store: &PairStore) -> AlignError {
    AlignError::io(
        &store.dir,
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "the aligner's temporary pair file was changed while in use",
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs read back from a store equal the pairs pushed, across chunks and read blocks.
    #[test]
    fn store_round_trip() {
        let mut b = PairStoreBuilder::new().unwrap();
        let mut c = Corpus::new();
        for k in 0..3000usize {
            let src: Vec<String> = (0..(k % 37))
                .map(|i| format!("s{}", (i * k) % 997))
                .collect();
            let tgt: Vec<String> = (0..(k % 23))
                .map(|i| format!("t{}", (i + k) % 3001))
                .collect();
            b.push_pair(&src, &tgt).unwrap();
            c.push_pair(&src, &tgt);
        }
        let s = b.finish().unwrap();
        assert_eq!(s.len(), 3000);
        for pairs in [Pairs::from(&s), Pairs::from(&c)] {
            let mut r = pairs.reader().unwrap();
            let mut chunk = Chunk::default();
            let mut k = 0;
            while r.next_chunk(&mut chunk).unwrap() {
                assert_eq!(chunk.first, k);
                for i in 0..chunk.len() {
                    let words = |ids: &[u32], v: &Vocab| -> Vec<String> {
                        ids.iter().map(|&w| v.word(w).to_string()).collect()
                    };
                    assert_eq!(words(chunk.src(i), pairs.src_vocab()), c.src_tokens(k));
                    assert_eq!(words(chunk.tgt(i), pairs.tgt_vocab()), c.tgt_tokens(k));
                    k += 1;
                }
            }
            assert_eq!(k, 3000);
        }
        let back = Pairs::from(&s).in_memory().unwrap();
        assert_eq!(back.len(), 3000);
        assert_eq!(back.src_tokens(13), c.src_tokens(13));
        // A sample of 1000: every third pair, in order.
        let sample = Pairs::from(&s).sample(1000);
        assert_eq!(sample.len(), 1000);
        let back = sample.in_memory().unwrap();
        assert_eq!(back.len(), 1000);
        assert_eq!(back.tgt_tokens(5), c.tgt_tokens(17));
        assert_eq!(
            Pairs::from(&c)
                .sample(1000)
                .in_memory()
                .unwrap()
                .tgt_tokens(5),
            c.tgt_tokens(17)
        );
    }
}

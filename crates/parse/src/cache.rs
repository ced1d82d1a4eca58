//! Content-addressed, resumable cache of parsed corpora (gzip CoNLL-U).
//!
//! Layout of a cache directory, for one key `K`:
//!
//! - `K.conllu.gz`: the finished parse, a concatenation of gzip members (read it with
//!   `ldd_io::Input`, like every other file).
//! - `K.json`: the manifest ([`CacheManifest`]); written last, via temp file + rename. A hit
//!   requires it to parse, to carry `K` and the current format, and the sha256 and size it
//!   records to match `K.conllu.gz`.
//! - `K.partial/`: while parsing: `chunk-000000.conllu.gz`, ... (each a complete gzip file of
//!   `chunk_lines` blocks, written all-or-nothing by `ldd_io::AtomicFile`) and `chunks.jsonl`, one [`ChunkRecord`]
//!   per finished chunk (appended after the chunk file is renamed). Removed when finished.
//! - `.K.ldd-lock`: while `K` is built ([`ldd_io::lock`]): a second process that needs the
//!   same entry waits, then finds it finished. A hit reads only, without a lock, so a
//!   read-only cache shared by many users serves hits.
//!
//! **Ranges (shards).** A parse of corpus lines `first..first + count` only
//! ([`ParseCache::get_or_parse_lines`]) has a key of its own, so a re-run shard is a cache
//! hit. Chunks end at multiples of `chunk_lines` counted from corpus line 1, whatever the
//! range, so every chunk of a shard that does not touch the shard's ends is byte for byte
//! the chunk a whole-corpus parse writes; [`ParseCache::assemble`] builds the whole
//! corpus's entry from the parses of its shards by copying those chunks and recompressing
//! only the few that straddle a shard boundary — the result is byte-identical to a
//! whole-corpus parse.

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use flate2::Compression;
use ldd_io::{AtomicFile, LineRange};
use sha2::{Digest, Sha256};

use indicatif::ProgressBar;

use crate::error::{ParseError, Result};
use crate::input::{count_lines, read_corpus_lines, CorpusLines};
use crate::parser::{ParsedLine, Parser};
use crate::stream::{BlockSink, ParseOptions, ParseStats};

/// Version of the cached output format; part of every key. Bump it whenever the CoNLL-U written
/// for the same corpus and model can change (merging rules, comments, UDPipe version).
pub const CACHE_FORMAT: &str = "ldd-parse-conllu-v2/udpipe-1.4.1-dev";

/// What [`ParseCache::get_or_parse`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheOutcome {
    /// A valid finished parse was found; nothing was parsed.
    Hit,
    /// The whole corpus was parsed.
    Parsed,
    /// Valid chunks of an interrupted parse were kept; parsing restarted at input line
    /// `from_line` (1-based).
    Resumed {
        /// First line parsed in this run.
        from_line: u64,
    },
}

/// Another process held the entry's lock: this run waited for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waited {
    /// That process.
    pub pid: u32,
    /// How long this run waited.
    pub time: std::time::Duration,
}

/// What [`ParseCache::get_or_parse_waited`] gives: the parse, what was done, and the wait
/// for another process parsing the same lines (not parse time).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Got {
    /// The cached gzip CoNLL-U.
    pub conllu: PathBuf,
    /// Hit, parsed or resumed.
    pub outcome: CacheOutcome,
    /// The wait for another process, if there was one.
    pub waited: Option<Waited>,
}

/// The manifest `K.json` of a finished cached parse.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CacheManifest {
    /// [`CACHE_FORMAT`] at write time.
    pub format: String,
    /// The cache key (file stem).
    pub key: String,
    /// Corpus path when parsed (informational only).
    pub corpus: PathBuf,
    /// sha256 of the corpus file's raw bytes.
    pub corpus_sha256: String,
    /// Model path when parsed (informational only).
    pub model: PathBuf,
    /// sha256 of the model file.
    pub model_sha256: String,
    /// Counts over the whole corpus (`stats.lines` = number of CoNLL-U blocks).
    pub stats: ParseStats,
    /// Size of `K.conllu.gz` in bytes.
    pub conllu_gz_bytes: u64,
    /// sha256 of `K.conllu.gz`.
    pub conllu_gz_sha256: String,
    /// The corpus lines parsed (`None`: the whole corpus).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<LineRange>,
    /// The gzip members of `K.conllu.gz`, in order (empty in entries written before
    /// ldd-sets recorded them).
    #[serde(default)]
    pub chunks: Vec<ChunkRecord>,
}

/// One line of `K.partial/chunks.jsonl`: a finished chunk.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChunkRecord {
    /// 0-based chunk index (file `chunk-{index:06}.conllu.gz`).
    pub index: usize,
    /// First input line (1-based) in the chunk.
    pub first_line: u64,
    /// Counts of the chunk (`stats.lines` lines: `first_line..first_line + stats.lines`).
    pub stats: ParseStats,
    /// Size of the chunk file.
    pub bytes: u64,
    /// sha256 of the chunk file.
    pub sha256: String,
}

/// A directory of cached parses keyed by corpus content, model content and [`CACHE_FORMAT`].
#[derive(Clone, Debug)]
pub struct ParseCache {
    dir: PathBuf,
}

impl ParseCache {
    /// Uses (and creates if needed) `dir` as cache directory.
    pub fn new(dir: impl Into<PathBuf>) -> Result<Self> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(|e| ParseError::io("creating", &dir, e))?;
        Ok(Self { dir })
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of a corpus/model pair:
    /// `sha256("<CACHE_FORMAT>\n<sha256(corpus bytes)>\n<sha256(model bytes)>\n")` in hex.
    ///
    /// The corpus is hashed as stored (raw bytes, gzip or not): recompressing a corpus changes
    /// its key. Returns `(key, corpus_sha256, model_sha256)`.
    pub fn key(&self, corpus: &Path, model: &Path) -> Result<(String, String, String)> {
        let corpus_sha = sha256_file(corpus)?;
        let model_sha = sha256_file(model)?;
        let key = key_of(&corpus_sha, &model_sha, None);
        Ok((key, corpus_sha, model_sha))
    }

    /// Path of the finished parse for `key`.
    pub fn conllu_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.conllu.gz"))
    }

    /// Path of the manifest for `key`.
    pub fn manifest_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// Path of the directory of chunks of an unfinished parse for `key`.
    pub fn partial_dir(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.partial"))
    }

    /// Takes the lock of entry `key` (the file `.K.ldd-lock` in the cache directory), waiting
    /// while another process builds the same entry; `waiting` is told that process's id.
    /// Two runs that need the same parse (say, two outputs of one corpus, or a merge and
    /// an unsharded run) thus parse it once: the second finds the first's entry.
    fn lock_entry(&self, key: &str, waiting: &mut dyn FnMut(u32)) -> Result<ldd_io::cleanup::Lock> {
        Ok(ldd_io::cleanup::Lock::wait(&self.dir.join(key), waiting)?)
    }

    /// Returns the cached gzip CoNLL-U parse of `corpus_path` with `model_path`, parsing (or
    /// resuming an interrupted parse) if there is no valid cached one.
    ///
    /// Invalid caches (manifest missing or unreadable, checksum or size mismatch, chunks whose
    /// checksum does not match their record) are deleted and rebuilt, never used. If
    /// `opts.progress` is set and has no length, the corpus lines are counted first for the ETA.
    pub fn get_or_parse(
        &self,
        corpus_path: impl AsRef<Path>,
        model_path: impl AsRef<Path>,
        opts: &ParseOptions,
    ) -> Result<(PathBuf, CacheOutcome)> {
        self.get_or_parse_lines(corpus_path.as_ref(), model_path.as_ref(), None, opts)
    }

    /// [`ParseCache::get_or_parse`] of the corpus lines in `range` only (`None`: all), for a
    /// shard: block `i` of the output still has `# sent_id = i` for corpus line `i`. A corpus
    /// shorter than the range is an error.
    pub fn get_or_parse_lines(
        &self,
        corpus: &Path,
        model: &Path,
        range: Option<LineRange>,
        opts: &ParseOptions,
    ) -> Result<(PathBuf, CacheOutcome)> {
        let got = self.get_or_parse_waited(corpus, model, range, opts)?;
        Ok((got.conllu, got.outcome))
    }

    /// Takes the lock of entry `key`; while another process holds it, the progress bar
    /// says that this run waits for that process (its clock restarts once the lock is
    /// taken), and the wait is returned.
    fn lock_waiting(
        &self,
        key: &str,
        progress: Option<&ProgressBar>,
    ) -> Result<(ldd_io::cleanup::Lock, Option<Waited>)> {
        let start = std::time::Instant::now();
        let mut pid = None;
        let lock = self.lock_entry(key, &mut |p| {
            pid = Some(p);
            if let Some(bar) = progress {
                bar.suspend(|| {
                    ldd_io::message::say(&format!(
                        "ldd-sets: waiting for process {p}, which is parsing the same lines \
                         into the cache"
                    ))
                });
                bar.set_prefix(format!("waiting for process {p}"));
            }
        })?;
        let waited = pid.map(|pid| Waited {
            pid,
            time: start.elapsed(),
        });
        if let (Some(_), Some(bar)) = (waited, progress) {
            bar.set_prefix("parsing");
            bar.reset_elapsed();
            bar.reset_eta();
        }
        Ok((lock, waited))
    }

    /// [`ParseCache::get_or_parse_lines`], with the wait for another process parsing the
    /// same lines reported apart ([`Got`]).
    pub fn get_or_parse_waited(
        &self,
        corpus: &Path,
        model: &Path,
        range: Option<LineRange>,
        opts: &ParseOptions,
    ) -> Result<Got> {
        let corpus_sha256 = sha256_file(corpus)?;
        let model_sha256 = sha256_file(model)?;
        let key = key_of(&corpus_sha256, &model_sha256, range);
        let conllu = self.conllu_path(&key);
        // A hit needs no lock (so a read-only cache serves hits); a miss is built under the
        // entry's lock, and checked again once the lock is held.
        if self.valid_manifest(&key)?.is_some() {
            return Ok(Got {
                conllu,
                outcome: CacheOutcome::Hit,
                waited: None,
            });
        }
        let (_lock, waited) = self.lock_waiting(&key, opts.progress.as_ref())?;
        let outcome = if self.valid_manifest(&key)?.is_some() {
            CacheOutcome::Hit
        } else {
            let request = Request {
                key,
                corpus,
                corpus_sha256,
                model,
                model_sha256,
                range,
            };
            self.build(&request, opts)?
        };
        Ok(Got {
            conllu,
            outcome,
            waited,
        })
    }

    /// Builds entry `request.key` under its lock: removes a stale finished file, keeps the
    /// valid chunks of an interrupted parse, parses the rest, then concatenates the chunks
    /// and writes the manifest.
    fn build(&self, request: &Request, opts: &ParseOptions) -> Result<CacheOutcome> {
        let final_path = self.conllu_path(&request.key);
        remove_if_exists(&final_path)?;
        remove_if_exists(&self.manifest_path(&request.key))?;
        let partial = self.partial_dir(&request.key);
        fs::create_dir_all(&partial).map_err(|e| ParseError::io("creating", &partial, e))?;
        let kept = validate_chunks(&partial, request.first())?;
        let done_lines: u64 = kept.iter().map(|r| r.stats.lines).sum();
        if let Some(bar) = &opts.progress {
            show_resumed(bar, request, done_lines)?;
        }
        let records = parse_rest(request, &partial, kept, opts)?;
        if let Some(bar) = &opts.progress {
            bar.finish_and_clear();
        }
        let stats = total_stats(&records, request, &partial)?;
        let (bytes, sha) = concatenate(&partial, &records, &final_path)?;
        self.write_manifest(&CacheManifest {
            format: CACHE_FORMAT.to_owned(),
            key: request.key.clone(),
            corpus: request.corpus.to_owned(),
            corpus_sha256: request.corpus_sha256.clone(),
            model: request.model.to_owned(),
            model_sha256: request.model_sha256.clone(),
            stats,
            conllu_gz_bytes: bytes,
            conllu_gz_sha256: sha,
            range: request.range,
            chunks: records,
        })?;
        fs::remove_dir_all(&partial).map_err(|e| ParseError::io("removing", &partial, e))?;
        Ok(if done_lines > 0 {
            CacheOutcome::Resumed {
                from_line: done_lines + 1,
            }
        } else {
            CacheOutcome::Parsed
        })
    }

    /// The manifest of the finished entry whose parse is `conllu` (a path returned by
    /// [`ParseCache::get_or_parse_lines`]).
    pub fn entry(&self, conllu: &Path) -> Result<CacheManifest> {
        let key = conllu
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".conllu.gz"))
            .unwrap_or_default();
        self.valid_manifest(key)?.ok_or_else(|| ParseError::Cache {
            path: conllu.to_path_buf(),
            message: "no valid cache entry for this parse".into(),
        })
    }

    /// Writes `K.json` (all-or-nothing).
    fn write_manifest(&self, manifest: &CacheManifest) -> Result<()> {
        let path = self.manifest_path(&manifest.key);
        let json = serde_json::to_vec_pretty(manifest).map_err(|e| ParseError::Cache {
            path: path.clone(),
            message: e.to_string(),
        })?;
        ldd_io::write_bytes_atomic(&path, &json)?;
        Ok(())
    }

    /// Builds the entry of the whole corpus from the parses of its shards, `pieces` in
    /// corpus order and covering it exactly once, without parsing: chunks inside a piece are
    /// copied (their checksums verified), chunks that straddle two pieces are decompressed and
    /// compressed again block by block, as the parse stage writes them, so the result is
    /// byte-identical to a parse of the whole corpus with `chunk_lines` lines per chunk. A
    /// valid entry that exists already is kept. Returns the entry's path.
    pub fn assemble(
        &self,
        whole: &WholeCorpus,
        pieces: &[Piece],
        chunk_lines: u64,
    ) -> Result<PathBuf> {
        let key = key_of(&whole.corpus_sha256, &whole.model_sha256, None);
        let final_path = self.conllu_path(&key);
        if self.valid_manifest(&key)?.is_some() {
            return Ok(final_path);
        }
        let _lock = self.lock_entry(&key, &mut |_| {})?;
        if self.valid_manifest(&key)?.is_some() {
            return Ok(final_path);
        }
        let groups = group_chunks(pieces, chunk_lines.max(1))?;
        let mut hw = HashWriter {
            inner: AtomicFile::create(&final_path)?,
            hasher: Sha256::new(),
            bytes: 0,
        };
        let mut records = Vec::with_capacity(groups.len());
        let mut stats = ParseStats::default();
        for (index, group) in groups.iter().enumerate() {
            let record = write_group(&mut hw, index, group, &final_path)?;
            stats.merge(&record.stats);
            records.push(record);
        }
        if groups.is_empty() {
            GzEncoder::new(&mut hw, Compression::default())
                .finish()
                .map_err(|e| ParseError::io("writing", &final_path, e))?;
        }
        let (bytes, sha) = (hw.bytes, ldd_io::input::hex(&hw.hasher.finalize()));
        hw.inner.commit()?;
        self.write_manifest(&CacheManifest {
            format: CACHE_FORMAT.to_owned(),
            key,
            corpus: whole.corpus.clone(),
            corpus_sha256: whole.corpus_sha256.clone(),
            model: whole.model.clone(),
            model_sha256: whole.model_sha256.clone(),
            stats,
            conllu_gz_bytes: bytes,
            conllu_gz_sha256: sha,
            range: None,
            chunks: records,
        })?;
        Ok(final_path)
    }

    /// The manifest of `key` if the finished parse is present and matches it.
    pub fn valid_manifest(&self, key: &str) -> Result<Option<CacheManifest>> {
        let manifest_path = self.manifest_path(key);
        let Ok(text) = fs::read(&manifest_path) else {
            return Ok(None);
        };
        let Ok(m) = serde_json::from_slice::<CacheManifest>(&text) else {
            return Ok(None);
        };
        if m.format != CACHE_FORMAT || m.key != key {
            return Ok(None);
        }
        let path = self.conllu_path(key);
        match fs::metadata(&path) {
            Ok(meta) if meta.len() == m.conllu_gz_bytes => {}
            _ => return Ok(None),
        }
        Ok((sha256_file(&path)? == m.conllu_gz_sha256).then_some(m))
    }
}

/// What an entry to build is of: corpus, model and lines, with its key.
struct Request<'a> {
    key: String,
    corpus: &'a Path,
    corpus_sha256: String,
    model: &'a Path,
    model_sha256: String,
    range: Option<LineRange>,
}

impl Request<'_> {
    /// The first corpus line (1-based) of the entry.
    fn first(&self) -> u64 {
        self.range.map_or(1, |r| r.first)
    }
}

/// Sets the progress bar for a build that kept `done_lines` lines of an interrupted parse:
/// its length (counting the corpus lines if it has none) and position. The rate and time
/// left count only what this run parses.
fn show_resumed(bar: &ProgressBar, request: &Request, done_lines: u64) -> Result<()> {
    if bar.length().is_none() {
        bar.set_length(match request.range {
            Some(r) => r.count,
            None => count_lines(request.corpus)?,
        });
    }
    bar.set_position(done_lines);
    bar.reset_eta();
    Ok(())
}

/// Parses the lines of `request` after the `kept` chunks into further chunks of `partial`;
/// returns the records of all chunks. A stop requested by `opts.stop_after_chunks` surfaces
/// here as `ParseError::Stopped`.
fn parse_rest(
    request: &Request,
    partial: &Path,
    kept: Vec<ChunkRecord>,
    opts: &ParseOptions,
) -> Result<Vec<ChunkRecord>> {
    let done_lines: u64 = kept.iter().map(|r| r.stats.lines).sum();
    let lines = lines_after(request.corpus, request.first(), done_lines, partial)?;
    let left = request
        .range
        .map_or(u64::MAX, |r| r.count.saturating_sub(done_lines));
    let mut lines = lines
        .take(usize::try_from(left).unwrap_or(usize::MAX))
        .peekable();
    if lines.peek().is_none() {
        return Ok(kept);
    }
    let parser = Parser::load(request.model)?;
    let mut sink = ChunkSink::new(partial, &kept, opts)?;
    parser
        .run_pipeline(lines, request.first() + done_lines, opts, &mut sink)
        .and_then(|_| sink.finish_chunk())?;
    Ok(sink.records)
}

/// The lines of `corpus` from line `first + done` on: lines before `first` are skipped
/// unchecked, the `done` lines already parsed are read (so a bad byte in them is still an
/// error). A corpus shorter than `first + done - 1` lines is an error naming `partial`.
fn lines_after(corpus: &Path, first: u64, done: u64, partial: &Path) -> Result<CorpusLines> {
    let short = |message: String| ParseError::Cache {
        path: partial.to_owned(),
        message,
    };
    let mut lines = read_corpus_lines(corpus)?;
    let before = lines.skip_lines(first - 1)?;
    if before < first - 1 {
        return Err(short(format!(
            "lines {first}.. are to be parsed but {} has {before} lines",
            corpus.display()
        )));
    }
    for _ in 0..done {
        match lines.next() {
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e),
            None => {
                return Err(short(format!(
                    "chunks cover {done} lines but {} is shorter",
                    corpus.display()
                )))
            }
        }
    }
    Ok(lines)
}

/// The counts of all chunks; for a range, an error naming `partial` unless they cover it
/// exactly.
fn total_stats(records: &[ChunkRecord], request: &Request, partial: &Path) -> Result<ParseStats> {
    let mut stats = ParseStats::default();
    for r in records {
        stats.merge(&r.stats);
    }
    match request.range {
        Some(r) if stats.lines != r.count => Err(ParseError::Cache {
            path: partial.to_owned(),
            message: format!(
                "lines {}..{} are to be parsed but {} ends at line {}",
                r.first,
                r.end() - 1,
                request.corpus.display(),
                r.first + stats.lines - 1
            ),
        }),
        _ => Ok(stats),
    }
}

/// A chunk of a piece at byte `offset` of the piece's file.
type PieceChunk<'a> = (&'a Piece, &'a ChunkRecord, u64);

/// The chunks of `pieces` grouped by the whole corpus's chunk they belong to (chunks of
/// `chunk_lines` lines counted from line 1), in order. An error unless the pieces follow one
/// another from line 1 and every chunk lies inside one whole-corpus chunk.
fn group_chunks(pieces: &[Piece], chunk_lines: u64) -> Result<Vec<Vec<PieceChunk<'_>>>> {
    let mut next = 1u64;
    let mut groups: Vec<Vec<PieceChunk<'_>>> = Vec::new();
    let bad = |p: &Piece, message: String| ParseError::Cache {
        path: p.path.clone(),
        message,
    };
    for p in pieces {
        if p.range.first != next {
            let message = format!(
                "parse of lines {}.. follows a parse ending at line {}",
                p.range.first,
                next - 1
            );
            return Err(bad(p, message));
        }
        let mut offset = 0u64;
        let mut line = p.range.first;
        for c in &p.chunks {
            let g = (c.first_line - 1) / chunk_lines;
            let last = c.first_line + c.stats.lines - 1;
            if c.first_line != line || c.stats.lines == 0 || (last - 1) / chunk_lines != g {
                let message = format!(
                    "chunk {} (lines {}..{last}) does not fit chunks of {chunk_lines} lines",
                    c.index, c.first_line
                );
                return Err(bad(p, message));
            }
            if groups.len() as u64 <= g {
                groups.resize_with(g as usize + 1, Vec::new);
            }
            groups[g as usize].push((p, c, offset));
            offset += c.bytes;
            line = last + 1;
        }
        if line != p.range.end() {
            let message = format!(
                "its chunks cover lines {}..{} but the shard is lines {}..{}",
                p.range.first,
                line - 1,
                p.range.first,
                p.range.end() - 1
            );
            return Err(bad(p, message));
        }
        next = p.range.end();
    }
    Ok(groups)
}

/// Writes whole-corpus chunk `index`, made of the piece chunks `group`, to `hw` (the file
/// `dest`): one piece chunk is copied as it is, several are recompressed as one. Returns its
/// record.
fn write_group<W: Write>(
    hw: &mut HashWriter<W>,
    index: usize,
    group: &[PieceChunk<'_>],
    dest: &Path,
) -> Result<ChunkRecord> {
    let mut stats = ParseStats::default();
    for (_, c, _) in group {
        stats.merge(&c.stats);
    }
    let bytes = match group {
        [(p, c, offset)] => read_chunk(p, c, *offset)?,
        _ => recompress(group, dest)?,
    };
    hw.write_all(&bytes)
        .map_err(|e| ParseError::io("writing", dest, e))?;
    Ok(ChunkRecord {
        index,
        first_line: group.first().map_or(1, |(_, c, _)| c.first_line),
        stats,
        bytes: bytes.len() as u64,
        sha256: ldd_io::input::hex(&Sha256::digest(&bytes)),
    })
}

/// The piece chunks `group` decompressed and compressed again as one gzip member, block by
/// block as the parse stage writes them (so the bytes are those of a whole-corpus parse).
fn recompress(group: &[PieceChunk<'_>], dest: &Path) -> Result<Vec<u8>> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    for (p, c, offset) in group {
        let bytes = read_chunk(p, c, *offset)?;
        let mut input = ldd_io::Input::from_reader(&p.path, bytes.as_slice())?;
        let mut block = String::new();
        while let Some(l) = input.next_line()? {
            block.push_str(l);
            block.push('\n');
            if l.is_empty() {
                enc.write_all(block.as_bytes())
                    .map_err(|e| ParseError::io("compressing", &p.path, e))?;
                block.clear();
            }
        }
        if !block.is_empty() {
            return Err(ParseError::Cache {
                path: p.path.clone(),
                message: format!("chunk {} ends inside a sentence block", c.index),
            });
        }
    }
    enc.finish()
        .map_err(|e| ParseError::io("compressing", dest, e))
}

/// The cache key of a corpus, a model and a range of lines:
/// `sha256("<CACHE_FORMAT>\n<corpus sha256>\n<model sha256>\n")` for the whole corpus, with
/// `lines <first>+<count>\n` appended for a range.
fn key_of(corpus_sha: &str, model_sha: &str, range: Option<LineRange>) -> String {
    let mut text = format!("{CACHE_FORMAT}\n{corpus_sha}\n{model_sha}\n");
    if let Some(r) = range {
        text.push_str(&format!("lines {}+{}\n", r.first, r.count));
    }
    ldd_io::input::hex(&Sha256::digest(text))
}

/// The corpus and model a whole-corpus entry built by [`ParseCache::assemble`] is for.
#[derive(Clone, Debug)]
pub struct WholeCorpus {
    /// Corpus path (informational).
    pub corpus: PathBuf,
    /// sha256 of the corpus file.
    pub corpus_sha256: String,
    /// Model path (informational).
    pub model: PathBuf,
    /// sha256 of the model file.
    pub model_sha256: String,
}

/// The parse of one shard, for [`ParseCache::assemble`]: a gzip file made of `chunks`.
#[derive(Clone, Debug)]
pub struct Piece {
    /// The file (a cache entry or a copy of one).
    pub path: PathBuf,
    /// The lines it holds.
    pub range: LineRange,
    /// Its gzip members, in order.
    pub chunks: Vec<ChunkRecord>,
}

/// The bytes of `chunk` of `piece`, at byte `offset` of its file, checked against the
/// chunk's size and sha256.
fn read_chunk(piece: &Piece, chunk: &ChunkRecord, offset: u64) -> Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = File::open(&piece.path).map_err(|e| ParseError::io("opening", &piece.path, e))?;
    f.seek(SeekFrom::Start(offset))
        .map_err(|e| ParseError::io("reading", &piece.path, e))?;
    let mut bytes = Vec::new();
    f.take(chunk.bytes)
        .read_to_end(&mut bytes)
        .map_err(|e| ParseError::io("reading", &piece.path, e))?;
    if bytes.len() as u64 != chunk.bytes
        || ldd_io::input::hex(&Sha256::digest(&bytes)) != chunk.sha256
    {
        return Err(ParseError::Cache {
            path: piece.path.clone(),
            message: format!(
                "chunk {} (lines {}..) does not match its recorded size and sha256: the file \
                 changed since it was written",
                chunk.index, chunk.first_line
            ),
        });
    }
    Ok(bytes)
}

/// Reads `chunks.jsonl` and keeps the longest valid prefix of chunks: consecutive indices and
/// line ranges from line `first`, file present with the recorded size and sha256. Everything
/// else in the directory (later chunks, temp files) is deleted and the sidecar rewritten.
fn validate_chunks(partial: &Path, first: u64) -> Result<Vec<ChunkRecord>> {
    let sidecar = partial.join("chunks.jsonl");
    let mut valid = Vec::new();
    if let Ok(f) = File::open(&sidecar) {
        let mut next_line = first;
        for line in BufReader::new(f).lines() {
            let Ok(line) = line else { break };
            let Ok(r) = serde_json::from_str::<ChunkRecord>(&line) else {
                break;
            };
            let path = chunk_path(partial, r.index);
            let ok = r.index == valid.len()
                && r.first_line == next_line
                && r.stats.lines > 0
                && fs::metadata(&path).is_ok_and(|m| m.len() == r.bytes)
                && sha256_file(&path).is_ok_and(|s| s == r.sha256);
            if !ok {
                break;
            }
            next_line += r.stats.lines;
            valid.push(r);
        }
    }
    let keep: Vec<String> = valid
        .iter()
        .map(|r| format!("chunk-{:06}.conllu.gz", r.index))
        .collect();
    let entries = fs::read_dir(partial).map_err(|e| ParseError::io("listing", partial, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| ParseError::io("listing", partial, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name != "chunks.jsonl" && !keep.contains(&name) {
            let p = entry.path();
            fs::remove_file(&p).map_err(|e| ParseError::io("removing", &p, e))?;
        }
    }
    let mut text = String::new();
    for r in &valid {
        text.push_str(&serde_json::to_string(r).unwrap_or_default());
        text.push('\n');
    }
    ldd_io::write_bytes_atomic(&sidecar, text.as_bytes())?;
    Ok(valid)
}

/// File of chunk `index`.
fn chunk_path(partial: &Path, index: usize) -> PathBuf {
    partial.join(format!("chunk-{index:06}.conllu.gz"))
}

/// Writes blocks into rolling chunk files and records each finished chunk in the sidecar.
struct ChunkSink {
    partial: PathBuf,
    chunk_lines: u64,
    stop_after: Option<usize>,
    written_this_run: usize,
    records: Vec<ChunkRecord>,
    current: Option<OpenChunk>,
    sidecar: File,
}

/// The chunk being written.
struct OpenChunk {
    index: usize,
    first_line: u64,
    stats: ParseStats,
    enc: GzEncoder<HashWriter<AtomicFile>>,
}

impl ChunkSink {
    /// Continues after the valid `records`.
    fn new(partial: &Path, records: &[ChunkRecord], opts: &ParseOptions) -> Result<Self> {
        let sidecar_path = partial.join("chunks.jsonl");
        let sidecar = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&sidecar_path)
            .map_err(|e| ParseError::io("opening", &sidecar_path, e))?;
        Ok(Self {
            partial: partial.to_owned(),
            chunk_lines: opts.chunk_lines.max(1) as u64,
            stop_after: opts.stop_after_chunks,
            written_this_run: 0,
            records: records.to_vec(),
            current: None,
            sidecar,
        })
    }

    /// Finishes the open chunk (if any): gzip trailer, fsync, rename, sidecar record.
    fn finish_chunk(&mut self) -> Result<()> {
        let Some(c) = self.current.take() else {
            return Ok(());
        };
        let path = chunk_path(&self.partial, c.index);
        let hw = c
            .enc
            .finish()
            .map_err(|e| ParseError::io("writing", &path, e))?;
        let (bytes, sha) = (hw.bytes, ldd_io::input::hex(&hw.hasher.finalize()));
        hw.inner.commit()?;
        let record = ChunkRecord {
            index: c.index,
            first_line: c.first_line,
            stats: c.stats,
            bytes,
            sha256: sha,
        };
        let mut line = serde_json::to_string(&record).unwrap_or_default();
        line.push('\n');
        let sidecar = self.partial.join("chunks.jsonl");
        self.sidecar
            .write_all(line.as_bytes())
            .and_then(|()| self.sidecar.sync_data())
            .map_err(|e| ParseError::io("writing", &sidecar, e))?;
        self.records.push(record);
        self.written_this_run += 1;
        if self.stop_after.is_some_and(|k| self.written_this_run >= k) {
            return Err(ParseError::Stopped {
                chunks: self.records.len(),
                lines: self.records.iter().map(|r| r.stats.lines).sum(),
            });
        }
        Ok(())
    }
}

impl BlockSink for ChunkSink {
    fn block(&mut self, line_no: u64, parsed: &ParsedLine) -> Result<()> {
        if self.current.is_none() {
            let index = self.records.len();
            let hw = HashWriter {
                inner: AtomicFile::create(&chunk_path(&self.partial, index))?,
                hasher: Sha256::new(),
                bytes: 0,
            };
            self.current = Some(OpenChunk {
                index,
                first_line: line_no,
                stats: ParseStats::default(),
                enc: GzEncoder::new(hw, Compression::default()),
            });
        }
        let full = if let Some(c) = self.current.as_mut() {
            c.enc
                .write_all(parsed.conllu.as_bytes())
                .map_err(|e| ParseError::io("writing", chunk_path(&self.partial, c.index), e))?;
            c.stats.add(parsed);
            // Chunks end at multiples of `chunk_lines` counted from corpus line 1, also in
            // a parse of a range (see the module docs).
            (c.first_line - 1 + c.stats.lines) % self.chunk_lines == 0
        } else {
            false
        };
        if full {
            self.finish_chunk()?;
        }
        Ok(())
    }
}

/// A writer that hashes and counts what passes through it.
struct HashWriter<W: Write> {
    inner: W,
    hasher: Sha256,
    bytes: u64,
}

impl<W: Write> Write for HashWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Concatenates the chunk files into `dest` (temp file + rename); returns its size and sha256.
/// With no chunks (empty corpus) `dest` is one empty gzip member.
fn concatenate(partial: &Path, records: &[ChunkRecord], dest: &Path) -> Result<(u64, String)> {
    let mut hw = HashWriter {
        inner: AtomicFile::create(dest)?,
        hasher: Sha256::new(),
        bytes: 0,
    };
    if records.is_empty() {
        GzEncoder::new(&mut hw, Compression::default())
            .finish()
            .map_err(|e| ParseError::io("writing", dest, e))?;
    }
    for r in records {
        let path = chunk_path(partial, r.index);
        let mut f = File::open(&path).map_err(|e| ParseError::io("opening", &path, e))?;
        std::io::copy(&mut f, &mut hw).map_err(|e| ParseError::io("copying", &path, e))?;
    }
    let (bytes, sha) = (hw.bytes, ldd_io::input::hex(&hw.hasher.finalize()));
    hw.inner.commit()?;
    Ok((bytes, sha))
}

/// Removes a file, ignoring "not found".
fn remove_if_exists(path: &Path) -> Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(ParseError::io("removing", path, e))
        }
        _ => Ok(()),
    }
}

/// sha256 of a file's bytes, in hex.
pub(crate) fn sha256_file(path: &Path) -> Result<String> {
    Ok(ldd_io::sha256_file(path)?.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `/work/shared` seen from this crate.
    fn shared() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
    }

    fn pud_de() -> PathBuf {
        shared().join("data/parallel/pud.de-en.de")
    }

    fn record(index: usize, first_line: u64, lines: u64, bytes: u64) -> ChunkRecord {
        ChunkRecord {
            index,
            first_line,
            stats: ParseStats {
                lines,
                ..ParseStats::default()
            },
            bytes,
            sha256: String::new(),
        }
    }

    fn piece(name: &str, first: u64, count: u64, chunks: Vec<ChunkRecord>) -> Piece {
        Piece {
            path: PathBuf::from(name),
            range: LineRange { first, count },
            chunks,
        }
    }

    #[test]
    fn keys_are_the_sha256_of_format_shas_and_range() {
        // printf 'ldd-parse-conllu-v2/udpipe-1.4.1-dev\nc0\nm0\n' | sha256sum
        assert_eq!(
            key_of("c0", "m0", None),
            "5b5bf4d04d18e436f9a4432eaa8846f7a871f65b650093cf6429c3e7c3593efd"
        );
        // ... with 'lines 5+10\n' appended
        let range = LineRange {
            first: 5,
            count: 10,
        };
        assert_eq!(
            key_of("c0", "m0", Some(range)),
            "b923ad83398411d02cd1520d5f8848a72facc5deb090324bad33707aabd3cf44"
        );
    }

    #[test]
    fn lines_after_skips_to_the_first_unparsed_line() {
        let partial = Path::new("K.partial");
        // Lines 3.. with 2 of them parsed: the next is PUD's line 5.
        let mut lines = lines_after(&pud_de(), 3, 2, partial).expect("pud");
        let fifth = lines.next().expect("a line").expect("read");
        assert_eq!(
            fifth,
            "Die neuen Ausgaben werden über Clintons wohlgefülltes Bankkonto finanziert."
        );
        assert_eq!(lines.count(), 995);
        // PUD has 1,000 lines: nothing after line 1,000, an error from 1,002 on.
        assert_eq!(
            lines_after(&pud_de(), 1001, 0, partial)
                .expect("end")
                .count(),
            0
        );
        let err = lines_after(&pud_de(), 1002, 0, partial).expect_err("past the end");
        assert!(err.to_string().contains("has 1000 lines"), "{err}");
        let err = lines_after(&pud_de(), 990, 12, partial).expect_err("chunks past the end");
        assert!(err.to_string().contains("chunks cover 12 lines"), "{err}");
    }

    #[test]
    fn total_stats_must_cover_the_range() {
        let request = Request {
            key: "K".into(),
            corpus: Path::new("corpus.de"),
            corpus_sha256: String::new(),
            model: Path::new("m.udpipe"),
            model_sha256: String::new(),
            range: Some(LineRange { first: 5, count: 6 }),
        };
        let records = [record(0, 5, 2, 10), record(1, 7, 4, 10)];
        let stats = total_stats(&records, &request, Path::new("K.partial")).expect("covered");
        assert_eq!(stats.lines, 6);
        let err = total_stats(&records[..1], &request, Path::new("K.partial")).expect_err("short");
        assert!(
            err.to_string()
                .contains("lines 5..10 are to be parsed but corpus.de ends at line 6"),
            "{err}"
        );
    }

    #[test]
    fn chunks_of_shards_group_into_whole_corpus_chunks() {
        // Chunks of 3 lines; shard 1..4 = chunks 1-3, 4; shard 5..10 = chunks 5-6, 7-9, 10.
        let pieces = [
            piece("a", 1, 4, vec![record(0, 1, 3, 100), record(1, 4, 1, 40)]),
            piece(
                "b",
                5,
                6,
                vec![
                    record(0, 5, 2, 70),
                    record(1, 7, 3, 90),
                    record(2, 10, 1, 30),
                ],
            ),
        ];
        let groups = group_chunks(&pieces, 3).expect("fits");
        let shape: Vec<Vec<(&str, u64, u64)>> = groups
            .iter()
            .map(|g| {
                g.iter()
                    .map(|(p, c, offset)| (p.path.to_str().unwrap_or(""), c.first_line, *offset))
                    .collect()
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                vec![("a", 1, 0)],
                vec![("a", 4, 100), ("b", 5, 0)],
                vec![("b", 7, 70)],
                vec![("b", 10, 160)],
            ]
        );
    }

    #[test]
    fn shards_that_do_not_fit_are_refused() {
        let gap = [
            piece("a", 1, 3, vec![record(0, 1, 3, 1)]),
            piece("b", 5, 1, vec![record(0, 5, 1, 1)]),
        ];
        let err = group_chunks(&gap, 3).expect_err("gap");
        assert!(
            err.to_string().contains("follows a parse ending at line 3"),
            "{err}"
        );
        let across = [piece("a", 1, 4, vec![record(0, 1, 4, 1)])];
        let err = group_chunks(&across, 3).expect_err("chunk across a boundary");
        assert!(
            err.to_string().contains("does not fit chunks of 3 lines"),
            "{err}"
        );
        let short = [piece("a", 1, 4, vec![record(0, 1, 3, 1)])];
        let err = group_chunks(&short, 3).expect_err("chunks short of the shard");
        assert!(err
            .to_string()
            .contains("cover lines 1..3 but the shard is lines 1..4"));
    }

    /// The first 7 PUD lines parsed whole and as shards 1..4 and 5..7 with chunks of 3 lines:
    /// the assembled entry is byte for byte the whole parse, and a second assembly is kept.
    #[test]
    fn assembled_shards_equal_the_whole_parse() {
        let dir = tempfile::tempdir().expect("tempdir");
        let corpus = dir.path().join("corpus.de");
        let text: Vec<String> = read_corpus_lines(pud_de())
            .expect("pud")
            .take(7)
            .collect::<Result<_>>()
            .expect("read");
        fs::write(&corpus, text.join("\n") + "\n").expect("write corpus");
        let model = shared().join("models/german-small.udpipe");
        let opts = ParseOptions {
            chunk_lines: 3,
            threads: 1,
            ..ParseOptions::default()
        };
        let whole_cache = ParseCache::new(dir.path().join("whole")).expect("cache");
        let (whole, _) = whole_cache
            .get_or_parse(&corpus, &model, &opts)
            .expect("parse");
        let shards = ParseCache::new(dir.path().join("shards")).expect("cache");
        let mut pieces = Vec::new();
        for range in [
            LineRange { first: 1, count: 4 },
            LineRange { first: 5, count: 3 },
        ] {
            let (path, _) = shards
                .get_or_parse_lines(&corpus, &model, Some(range), &opts)
                .expect("shard");
            let chunks = shards.entry(&path).expect("entry").chunks;
            pieces.push(Piece {
                path,
                range,
                chunks,
            });
        }
        let (_, corpus_sha256, model_sha256) = shards.key(&corpus, &model).expect("key");
        let target = ParseCache::new(dir.path().join("assembled")).expect("cache");
        let whole_corpus = WholeCorpus {
            corpus: corpus.clone(),
            corpus_sha256,
            model,
            model_sha256,
        };
        let assembled = target
            .assemble(&whole_corpus, &pieces, 3)
            .expect("assemble");
        let bytes = fs::read(&assembled).expect("read");
        assert_eq!(bytes, fs::read(&whole).expect("read whole"));
        let entry = target.entry(&assembled).expect("valid entry");
        assert_eq!(entry, whole_cache.entry(&whole).expect("whole entry"));
        assert_eq!(entry.chunks.len(), 3);
        // The middle chunk (lines 4-6) straddles the shards: it was recompressed.
        assert_eq!(entry.chunks[1].first_line, 4);
        assert_eq!(entry.stats.lines, 7);
    }
}

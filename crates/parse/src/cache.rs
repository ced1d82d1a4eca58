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
use crate::input::{count_lines, read_corpus_lines};
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
        let corpus_sha = sha256_file(corpus)?;
        let model_sha = sha256_file(model)?;
        let key = key_of(&corpus_sha, &model_sha, range);
        let first = range.map_or(1, |r| r.first);
        let final_path = self.conllu_path(&key);
        let manifest_path = self.manifest_path(&key);
        // A hit needs no lock (so a read-only cache serves hits); a miss is built under the
        // entry's lock, and checked again once the lock is held.
        let got = |conllu: PathBuf, outcome, waited| Got {
            conllu,
            outcome,
            waited,
        };
        if self.valid_manifest(&key)?.is_some() {
            return Ok(got(final_path, CacheOutcome::Hit, None));
        }
        let (_lock, waited) = self.lock_waiting(&key, opts.progress.as_ref())?;
        if self.valid_manifest(&key)?.is_some() {
            return Ok(got(final_path, CacheOutcome::Hit, waited));
        }
        remove_if_exists(&final_path)?;
        remove_if_exists(&manifest_path)?;

        let partial = self.partial_dir(&key);
        fs::create_dir_all(&partial).map_err(|e| ParseError::io("creating", &partial, e))?;
        let records = validate_chunks(&partial, first)?;
        let done_lines: u64 = records.iter().map(|r| r.stats.lines).sum();

        if let Some(bar) = &opts.progress {
            if bar.length().is_none() {
                bar.set_length(match range {
                    Some(r) => r.count,
                    None => count_lines(corpus)?,
                });
            }
            bar.set_position(done_lines);
            // The rate and time left count only what this run parses.
            bar.reset_eta();
        }

        let mut lines = read_corpus_lines(corpus)?;
        let before = lines.skip_lines(first - 1)?;
        if before < first - 1 {
            return Err(ParseError::Cache {
                path: partial,
                message: format!(
                    "lines {first}.. are to be parsed but {} has {before} lines",
                    corpus.display()
                ),
            });
        }
        for _ in 0..done_lines {
            match lines.next() {
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e),
                None => {
                    return Err(ParseError::Cache {
                        path: partial,
                        message: format!(
                            "chunks cover {done_lines} lines but {} is shorter",
                            corpus.display()
                        ),
                    })
                }
            }
        }
        let left = range.map_or(u64::MAX, |r| r.count.saturating_sub(done_lines));
        let mut lines = lines
            .take(usize::try_from(left).unwrap_or(usize::MAX))
            .peekable();
        let mut all_records = records.clone();
        if lines.peek().is_some() {
            let parser = Parser::load(model)?;
            let mut sink = ChunkSink::new(&partial, &records, opts)?;
            // A stop requested by `opts.stop_after_chunks` surfaces here as `ParseError::Stopped`.
            parser
                .run_pipeline(lines, first + done_lines, opts, &mut sink)
                .and_then(|_| sink.finish_chunk())?;
            all_records = sink.records;
        }
        if let Some(bar) = &opts.progress {
            bar.finish_and_clear();
        }

        let mut stats = ParseStats::default();
        for r in &all_records {
            stats.merge(&r.stats);
        }
        if let Some(r) = range {
            if stats.lines != r.count {
                return Err(ParseError::Cache {
                    path: partial,
                    message: format!(
                        "lines {}..{} are to be parsed but {} ends at line {}",
                        r.first,
                        r.end() - 1,
                        corpus.display(),
                        r.first + stats.lines - 1
                    ),
                });
            }
        }
        let (bytes, sha) = concatenate(&partial, &all_records, &final_path)?;
        let manifest = CacheManifest {
            format: CACHE_FORMAT.to_owned(),
            key: key.clone(),
            corpus: corpus.to_owned(),
            corpus_sha256: corpus_sha,
            model: model.to_owned(),
            model_sha256: model_sha,
            stats,
            conllu_gz_bytes: bytes,
            conllu_gz_sha256: sha,
            range,
            chunks: all_records,
        };
        self.write_manifest(&manifest)?;
        fs::remove_dir_all(&partial).map_err(|e| ParseError::io("removing", &partial, e))?;
        let outcome = if done_lines > 0 {
            CacheOutcome::Resumed {
                from_line: done_lines + 1,
            }
        } else {
            CacheOutcome::Parsed
        };
        Ok(got(final_path, outcome, waited))
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
    fn write_manifest(&self, m: &CacheManifest) -> Result<()> {
        let path = self.manifest_path(&m.key);
        let json = serde_json::to_vec_pretty(m).map_err(|e| ParseError::Cache {
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
        let chunk_lines = chunk_lines.max(1);
        let mut next = 1u64;
        // Global chunk index -> the piece chunks that make it, in order.
        let mut groups: Vec<Vec<(&Piece, &ChunkRecord, u64)>> = Vec::new();
        for p in pieces {
            if p.range.first != next {
                return Err(ParseError::Cache {
                    path: p.path.clone(),
                    message: format!(
                        "parse of lines {}.. follows a parse ending at line {}",
                        p.range.first,
                        next - 1
                    ),
                });
            }
            let mut offset = 0u64;
            let mut line = p.range.first;
            for c in &p.chunks {
                let g = (c.first_line - 1) / chunk_lines;
                let last = c.first_line + c.stats.lines - 1;
                if c.first_line != line || c.stats.lines == 0 || (last - 1) / chunk_lines != g {
                    return Err(ParseError::Cache {
                        path: p.path.clone(),
                        message: format!(
                            "chunk {} (lines {}..{last}) does not fit chunks of {chunk_lines} lines",
                            c.index, c.first_line
                        ),
                    });
                }
                if groups.len() as u64 <= g {
                    groups.resize_with(g as usize + 1, Vec::new);
                }
                groups[g as usize].push((p, c, offset));
                offset += c.bytes;
                line = last + 1;
            }
            if line != p.range.end() {
                return Err(ParseError::Cache {
                    path: p.path.clone(),
                    message: format!(
                        "its chunks cover lines {}..{} but the shard is lines {}..{}",
                        p.range.first,
                        line - 1,
                        p.range.first,
                        p.range.end() - 1
                    ),
                });
            }
            next = p.range.end();
        }
        let mut hw = HashWriter {
            inner: AtomicFile::create(&final_path)?,
            hasher: Sha256::new(),
            bytes: 0,
        };
        let mut records = Vec::with_capacity(groups.len());
        let mut stats = ParseStats::default();
        for (index, group) in groups.iter().enumerate() {
            let mut chunk_stats = ParseStats::default();
            for (_, c, _) in group {
                chunk_stats.merge(&c.stats);
            }
            let start = hw.bytes;
            let mut chunk_hash = Sha256::new();
            if let [(p, c, offset)] = group.as_slice() {
                let bytes = read_chunk(p, c, *offset)?;
                chunk_hash.update(&bytes);
                hw.write_all(&bytes)
                    .map_err(|e| ParseError::io("writing", &final_path, e))?;
            } else {
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
                let bytes = enc
                    .finish()
                    .map_err(|e| ParseError::io("compressing", &final_path, e))?;
                chunk_hash.update(&bytes);
                hw.write_all(&bytes)
                    .map_err(|e| ParseError::io("writing", &final_path, e))?;
            }
            let first_line = group.first().map_or(1, |(_, c, _)| c.first_line);
            records.push(ChunkRecord {
                index,
                first_line,
                stats: chunk_stats,
                bytes: hw.bytes - start,
                sha256: ldd_io::input::hex(&chunk_hash.finalize()),
            });
            stats.merge(&chunk_stats);
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

/// The bytes of chunk `c` of a piece, at byte `offset` of its file, checked against the
/// chunk's size and sha256.
fn read_chunk(p: &Piece, c: &ChunkRecord, offset: u64) -> Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = File::open(&p.path).map_err(|e| ParseError::io("opening", &p.path, e))?;
    f.seek(SeekFrom::Start(offset))
        .map_err(|e| ParseError::io("reading", &p.path, e))?;
    let mut bytes = Vec::new();
    f.take(c.bytes)
        .read_to_end(&mut bytes)
        .map_err(|e| ParseError::io("reading", &p.path, e))?;
    if bytes.len() as u64 != c.bytes || ldd_io::input::hex(&Sha256::digest(&bytes)) != c.sha256 {
        return Err(ParseError::Cache {
            path: p.path.clone(),
            message: format!(
                "chunk {} (lines {}..) does not match its recorded size and sha256: the file \
                 changed since it was written",
                c.index, c.first_line
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

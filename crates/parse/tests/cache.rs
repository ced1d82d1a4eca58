//! The parse cache: hits, resuming an interrupted parse, rebuilding corrupt caches.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use common::*;
use flate2::write::GzEncoder;
use ldd_parse::{read_corpus_lines, CacheOutcome, ParseCache, ParseError, ParseOptions, Parser};

const LINES: usize = 300;
const CHUNK: usize = 60;

fn opts() -> ParseOptions {
    ParseOptions {
        chunk_lines: CHUNK,
        batch_lines: 50,
        ..ParseOptions::default()
    }
}

/// A plain corpus: the first 300 PUD lines plus an empty line in the middle.
fn plain_corpus(dir: &Path) -> PathBuf {
    let mut lines = first_lines(&pud_de(), LINES - 1);
    lines.insert(100, String::new());
    let p = dir.join("corpus.de");
    std::fs::write(&p, lines.join("\n") + "\n").expect("write corpus");
    p
}

/// A gzip corpus of two members (first 300 books lines), to exercise multi-member input.
fn gz_corpus(dir: &Path) -> PathBuf {
    let lines = first_lines(&books_de_gz(), LINES);
    let p = dir.join("corpus.de.gz");
    let mut f = std::fs::File::create(&p).expect("create");
    for part in [&lines[..120], &lines[120..]] {
        let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all((part.join("\n") + "\n").as_bytes())
            .expect("gz");
        f.write_all(&enc.finish().expect("gz")).expect("write");
    }
    p
}

/// What `parse_stream` writes for the corpus (the reference for cached content).
fn reference(corpus: &Path) -> String {
    let p = Parser::load(german_model()).expect("model");
    let mut out = Vec::new();
    p.parse_stream(read_corpus_lines(corpus).expect("open"), &mut out, &opts())
        .expect("parse");
    String::from_utf8(out).expect("utf8")
}

#[test]
fn second_call_is_a_hit_and_does_not_parse() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let corpus = gz_corpus(tmp.path());
    let cache = ParseCache::new(tmp.path().join("cache")).expect("cache");
    let (path, outcome) = cache
        .get_or_parse(&corpus, german_model(), &opts())
        .expect("parse");
    assert_eq!(outcome, CacheOutcome::Parsed);
    assert!(path.to_string_lossy().ends_with(".conllu.gz"));
    let bytes = std::fs::read(&path).expect("read");
    let mtime = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .expect("mtime");
    let text = gunzip(&path);
    assert_eq!(blocks(&text).len(), LINES);
    assert_eq!(
        text,
        reference(&corpus),
        "cached content = parse_stream output"
    );
    assert!(
        !cache.partial_dir(&stem(&path)).exists(),
        "partial dir removed"
    );
    let manifest = cache
        .valid_manifest(&stem(&path))
        .expect("manifest")
        .expect("valid");
    assert_eq!(manifest.stats.lines, LINES as u64);

    std::thread::sleep(std::time::Duration::from_millis(20));
    // The hit must not rewrite the file: same bytes, same mtime.
    let (path2, outcome2) = cache
        .get_or_parse(&corpus, german_model(), &opts())
        .expect("hit");
    assert_eq!(outcome2, CacheOutcome::Hit);
    assert_eq!(path2, path);
    assert_eq!(std::fs::read(&path2).expect("read"), bytes);
    assert_eq!(
        std::fs::metadata(&path2)
            .and_then(|m| m.modified())
            .expect("mtime"),
        mtime
    );
}

fn stem(path: &Path) -> String {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".conllu.gz"))
        .expect("key.conllu.gz")
        .to_owned()
}

fn clean_run(corpus: &Path, dir: &Path) -> Vec<u8> {
    let cache = ParseCache::new(dir).expect("cache");
    let (path, outcome) = cache
        .get_or_parse(corpus, german_model(), &opts())
        .expect("parse");
    assert_eq!(outcome, CacheOutcome::Parsed);
    std::fs::read(path).expect("read")
}

#[test]
fn interrupted_parse_resumes_after_the_last_valid_chunk() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let corpus = plain_corpus(tmp.path());
    let cache = ParseCache::new(tmp.path().join("cache")).expect("cache");
    let stop = ParseOptions {
        stop_after_chunks: Some(2),
        ..opts()
    };
    let err = cache
        .get_or_parse(&corpus, german_model(), &stop)
        .expect_err("stopped");
    assert!(
        matches!(err, ParseError::Stopped { chunks: 2, lines } if lines == 2 * CHUNK as u64),
        "{err}"
    );
    let (key, _, _) = cache.key(&corpus, &german_model()).expect("key");
    let partial = cache.partial_dir(&key);
    assert!(partial.join("chunk-000001.conllu.gz").is_file());
    assert!(!cache.conllu_path(&key).exists());
    // Simulate a kill in the middle of the next chunk: a half-written temp chunk and a torn
    // sidecar line.
    std::fs::write(
        partial.join("chunk-000002.conllu.gz.tmp"),
        b"\x1f\x8bgarbage",
    )
    .expect("w");
    let mut side = std::fs::OpenOptions::new()
        .append(true)
        .open(partial.join("chunks.jsonl"))
        .expect("o");
    side.write_all(b"{\"index\":2,\"first_li").expect("w");
    drop(side);

    let (path, outcome) = cache
        .get_or_parse(&corpus, german_model(), &opts())
        .expect("resume");
    assert_eq!(
        outcome,
        CacheOutcome::Resumed {
            from_line: 2 * CHUNK as u64 + 1
        }
    );
    assert!(!partial.exists());
    let resumed = std::fs::read(&path).expect("read");
    assert!(
        resumed == clean_run(&corpus, &tmp.path().join("clean")),
        "resumed != clean run"
    );
    assert_eq!(gunzip(&path), reference(&corpus));
}

#[test]
fn corrupt_chunk_is_not_used() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let corpus = plain_corpus(tmp.path());
    let cache = ParseCache::new(tmp.path().join("cache")).expect("cache");
    let stop = ParseOptions {
        stop_after_chunks: Some(3),
        ..opts()
    };
    cache
        .get_or_parse(&corpus, german_model(), &stop)
        .expect_err("stopped");
    let (key, _, _) = cache.key(&corpus, &german_model()).expect("key");
    let chunk1 = cache.partial_dir(&key).join("chunk-000001.conllu.gz");
    let mut bytes = std::fs::read(&chunk1).expect("read");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&chunk1, bytes).expect("write");

    let (path, outcome) = cache
        .get_or_parse(&corpus, german_model(), &opts())
        .expect("resume");
    assert_eq!(
        outcome,
        CacheOutcome::Resumed {
            from_line: CHUNK as u64 + 1
        }
    );
    assert_eq!(gunzip(&path), reference(&corpus));
}

#[test]
fn corrupt_final_file_is_rebuilt() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let corpus = plain_corpus(tmp.path());
    let cache = ParseCache::new(tmp.path().join("cache")).expect("cache");
    let (path, _) = cache
        .get_or_parse(&corpus, german_model(), &opts())
        .expect("parse");
    let good = std::fs::read(&path).expect("read");
    std::fs::write(&path, &good[..good.len() - 100]).expect("truncate");
    let (path2, outcome) = cache
        .get_or_parse(&corpus, german_model(), &opts())
        .expect("rebuild");
    assert_eq!(
        outcome,
        CacheOutcome::Parsed,
        "a truncated cache must not be a hit"
    );
    assert_eq!(std::fs::read(&path2).expect("read"), good);

    // A manifest that does not parse is not trusted either.
    std::fs::write(cache.manifest_path(&stem(&path)), b"{not json").expect("write");
    let (_, outcome) = cache
        .get_or_parse(&corpus, german_model(), &opts())
        .expect("rebuild");
    assert_eq!(outcome, CacheOutcome::Parsed);
}

#[test]
fn empty_corpus_and_different_inputs_get_different_keys() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let empty = tmp.path().join("empty.de");
    std::fs::write(&empty, b"").expect("write");
    let cache = ParseCache::new(tmp.path().join("cache")).expect("cache");
    let (path, outcome) = cache
        .get_or_parse(&empty, german_model(), &opts())
        .expect("parse");
    assert_eq!(outcome, CacheOutcome::Parsed);
    assert_eq!(gunzip(&path), "");
    let (k1, _, _) = cache.key(&empty, &german_model()).expect("key");
    let (k2, _, _) = cache
        .key(&empty, &shared().join("models/english-small.udpipe"))
        .expect("key");
    let (k3, _, _) = cache.key(&pud_de(), &german_model()).expect("key");
    assert!(k1 != k2 && k1 != k3 && k2 != k3);
}

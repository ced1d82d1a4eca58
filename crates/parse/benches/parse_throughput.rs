//! Throughput of the parse stage: plain single-thread UDPipe vs the full parallel pipeline.
//!
//! Run: `cargo bench -p ldd-parse --bench parse_throughput`
//! Input: the first N lines (default 5,000; `LDD_BENCH_LINES=N`) of
//! /work/shared/data/parallel/books-sample.de-en.de.gz (`LDD_BENCH_CORPUS=path` to change),
//! model german-small.udpipe. The measurements run in the same process, interleaved in 5
//! rounds (round r: lines r*N/5..(r+1)*N/5 with (1), (1b) then (2)), so that load from other
//! processes on the machine affects all alike. (1) is UDPipe as udpipe-rs calls it (words
//! only); (1b) is `Parser::parse_line` on one thread (UDPipe's whole CoNLL-U through the
//! shim, read back and merged); (2) the parallel pipeline. Target: (2) >= 0.9 x threads x (1).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use flate2::write::GzEncoder;
use ldd_parse::{read_corpus_lines, ParseError, ParseOptions, Parser};

/// Exits with a message on error (a bench has no harness to report to).
fn or_exit<T, E: std::fmt::Display>(r: Result<T, E>, what: &str) -> T {
    r.unwrap_or_else(|e| {
        eprintln!("{what}: {e}");
        std::process::exit(1)
    })
}

/// Process CPU time (user + system) from /proc/self/stat, if available (Linux).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10)) // USER_HZ = 100 on Linux
}

fn main() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    let corpus = std::env::var_os("LDD_BENCH_CORPUS").map_or_else(
        || shared.join("data/parallel/books-sample.de-en.de.gz"),
        PathBuf::from,
    );
    let model = shared.join("models/german-small.udpipe");
    let n: usize = std::env::var("LDD_BENCH_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let lines: Vec<String> = or_exit(
        read_corpus_lines(&corpus).and_then(|it| it.take(n).collect::<Result<Vec<_>, _>>()),
        "reading corpus",
    );
    let parser = or_exit(Parser::load(&model), "loading model");
    // The baseline: UDPipe as udpipe-rs calls it (the same C++ library, words only).
    let plain = or_exit(udpipe_rs::Model::load(&model), "loading model (udpipe-rs)");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    // Warm-up (page cache, allocator, UDPipe scratch pools).
    for l in lines.iter().take(100) {
        let _ = plain.parse(l);
    }

    let rounds = 5;
    let per_round = lines.len().div_ceil(rounds).max(1);
    let (mut plain_t, mut pipe_t) = (Duration::ZERO, Duration::ZERO);
    let (mut plain_cpu, mut pipe_cpu) = (Duration::ZERO, Duration::ZERO);
    let (mut plain_words, mut pipe_words, mut merged) = (0u64, 0u64, 0u64);
    let (mut line_t, mut line_words) = (Duration::ZERO, 0u64);
    for part in lines.chunks(per_round) {
        // (1) Plain UDPipe, one thread: tokenize + tag + parse each line, nothing else.
        let (t, c) = (Instant::now(), cpu_time());
        for l in part {
            if !l.trim().is_empty() {
                plain_words += or_exit(plain.parse(l), "UDPipe").len() as u64;
            }
        }
        plain_t += t.elapsed();
        plain_cpu += cpu_time()
            .zip(c)
            .map_or(Duration::ZERO, |(a, b)| a.saturating_sub(b));

        // (1b) ldd-parse's own call, one thread: UDPipe through the shim (whole CoNLL-U,
        // multiword tokens included), read back, merged into one tree per line.
        let t = Instant::now();
        for (i, l) in part.iter().enumerate() {
            line_words += or_exit(parser.parse_line(i as u64 + 1, l), "parse_line").words as u64;
        }
        line_t += t.elapsed();

        // (2) Full pipeline: parse on all threads, merge, format, write gzip CoNLL-U to a file.
        let out = or_exit(tempfile::tempfile(), "temp file");
        let mut gz = GzEncoder::new(out, flate2::Compression::default());
        let opts = ParseOptions {
            threads,
            ..ParseOptions::default()
        };
        let (t, c) = (Instant::now(), cpu_time());
        let input = part.iter().map(|l| Ok::<_, ParseError>(l.clone()));
        let stats = or_exit(
            parser
                .parse_stream(input, &mut gz, &opts)
                .and_then(|s| gz.try_finish().map(|()| s).map_err(ParseError::Output)),
            "pipeline",
        );
        pipe_t += t.elapsed();
        pipe_cpu += cpu_time()
            .zip(c)
            .map_or(Duration::ZERO, |(a, b)| a.saturating_sub(b));
        pipe_words += stats.words;
        merged += stats.multi_sentence_lines;
    }
    let plain_wps = plain_words as f64 / plain_t.as_secs_f64();
    let pipe_wps = pipe_words as f64 / pipe_t.as_secs_f64();
    let ratio = pipe_wps / plain_wps;
    let target = 0.9 * threads as f64;

    println!(
        "parse_throughput: {} lines of {}, german-small.udpipe, {rounds} interleaved rounds",
        lines.len(),
        corpus
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into_owned()),
    );
    println!(
        "  (1) plain UDPipe, 1 thread  : {plain_words:>8} words in {:7.2} s = {plain_wps:8.0} words/s",
        plain_t.as_secs_f64()
    );
    let line_wps = line_words as f64 / line_t.as_secs_f64();
    println!(
        "  (1b) parse_line, 1 thread   : {line_words:>8} words in {:7.2} s = {line_wps:8.0} words/s = {:.3} x (1) (the shim, CoNLL-U read-back and merge)",
        line_t.as_secs_f64(),
        line_wps / plain_wps
    );
    println!(
        "  (2) parse_stream, {threads} thread(s): {pipe_words:>8} words in {:7.2} s = {pipe_wps:8.0} words/s ({merged} lines merged from >1 sentence)",
        pipe_t.as_secs_f64()
    );
    println!(
        "  CPU used: (1) {:.2} cores, (2) {:.2} cores (below 1 / {threads}: other processes compete)",
        plain_cpu.as_secs_f64() / plain_t.as_secs_f64(),
        pipe_cpu.as_secs_f64() / pipe_t.as_secs_f64()
    );
    let per_cpu = |w: u64, c: Duration| w as f64 / c.as_secs_f64().max(1e-9);
    println!(
        "  words per CPU-second: (1) {:.0}, (2) {:.0} -> pipeline overhead-free fraction {:.2} (contention-independent; x {threads} = expected ratio on idle cores)",
        per_cpu(plain_words, plain_cpu),
        per_cpu(pipe_words, pipe_cpu),
        per_cpu(pipe_words, pipe_cpu) / per_cpu(plain_words, plain_cpu)
    );
    println!(
        "  ratio (2)/(1) = {ratio:.2}x; target >= 0.9 x {threads} = {target:.2}x: {}",
        if ratio >= target { "MET" } else { "NOT MET" }
    );
}

//! Streaming/parallel parsing of real corpora: line counts, thread independence, PUD precision.

mod common;

use common::*;
use ldd_parse::{read_corpus_lines, ParseOptions, ParseStats, Parser};

fn parse_first(
    p: &Parser,
    path: &std::path::Path,
    n: usize,
    opts: &ParseOptions,
) -> (String, ParseStats) {
    let mut out = Vec::new();
    let lines = read_corpus_lines(path).expect("open").take(n);
    let stats = p.parse_stream(lines, &mut out, opts).expect("parse_stream");
    (String::from_utf8(out).expect("utf8"), stats)
}

fn check_blocks_match_lines(path: &std::path::Path, n: usize) {
    let p = Parser::load(german_model()).expect("model");
    let opts = ParseOptions {
        batch_lines: 64,
        ..ParseOptions::default()
    };
    let (out, stats) = parse_first(&p, path, n, &opts);
    let input = first_lines(path, n);
    assert_eq!(input.len(), n);
    let b = blocks(&out);
    assert_eq!(b.len(), n, "one block per input line");
    assert_eq!(stats.lines, n as u64);
    let mut words = 0;
    for (i, (blk, line)) in b.iter().zip(&input).enumerate() {
        assert_eq!(blk.comments[0], format!("# sent_id = {}", i + 1));
        assert_eq!(blk.comments[1], format!("# text = {}", line.trim()));
        assert_one_tree(blk);
        assert_eq!(blk.rows.is_empty(), line.trim().is_empty());
        words += blk.rows.len() as u64;
    }
    assert_eq!(stats.words, words);
}

#[test]
fn pud_first_300_lines_give_300_trees() {
    check_blocks_match_lines(&pud_de(), 300);
}

#[test]
fn books_gz_first_300_lines_give_300_trees() {
    check_blocks_match_lines(&books_de_gz(), 300);
}

#[test]
fn one_and_two_threads_are_byte_identical() {
    let p = Parser::load(german_model()).expect("model");
    let one = ParseOptions {
        threads: 1,
        batch_lines: 1000,
        ..ParseOptions::default()
    };
    let two = ParseOptions {
        threads: 2,
        batch_lines: 37,
        ..ParseOptions::default()
    };
    let (a, sa) = parse_first(&p, &books_de_gz(), 300, &one);
    let (b, sb) = parse_first(&p, &books_de_gz(), 300, &two);
    assert!(!a.is_empty());
    assert_eq!(sa, sb);
    assert!(a == b, "1-thread and 2-thread outputs differ");
}

/// PUD: 1,000 lines = the 1,000 gold trees of de_pud-ud-test.conllu. Reports how many lines
/// UDPipe's tokenizer split into several sentences (each such line is a segmentation error).
#[test]
fn pud_multi_sentence_lines_are_counted_and_merged() {
    let gold =
        std::fs::read_to_string(shared().join("data/ud/de_pud-ud-test.conllu")).expect("gold");
    let gold_trees = gold.lines().filter(|l| l.starts_with("# sent_id")).count();
    let p = Parser::load(german_model()).expect("model");
    let (out, stats) = parse_first(&p, &pud_de(), usize::MAX, &ParseOptions::default());
    assert_eq!(stats.lines, 1000);
    assert_eq!(gold_trees, 1000);
    assert_eq!(blocks(&out).len(), gold_trees);
    eprintln!(
        "PUD de: {} of {} lines split into >1 UDPipe sentence before merging; {} words",
        stats.multi_sentence_lines, stats.lines, stats.words
    );
    // Sanity: merging happened at least once, and not on most lines.
    assert!(
        stats.multi_sentence_lines > 0 && stats.multi_sentence_lines < 100,
        "{stats:?}"
    );
}

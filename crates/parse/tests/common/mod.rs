//! Helpers shared by the integration tests (real files from /work/shared).
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};

/// `/work/shared` seen from this crate.
pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

/// The small German test model.
pub fn german_model() -> PathBuf {
    shared().join("models/german-small.udpipe")
}

/// The PUD German source side (1,000 lines).
pub fn pud_de() -> PathBuf {
    shared().join("data/parallel/pud.de-en.de")
}

/// The gzip books sample (German side).
pub fn books_de_gz() -> PathBuf {
    shared().join("data/parallel/books-sample.de-en.de.gz")
}

/// The first `count` lines of a corpus file (plain or gz).
pub fn first_lines(path: &Path, count: usize) -> Vec<String> {
    ldd_parse::read_corpus_lines(path)
        .expect("open corpus")
        .take(count)
        .collect::<Result<Vec<_>, _>>()
        .expect("read corpus")
}

/// Reads a whole gzip file (all members), decompressed.
pub fn gunzip(path: &Path) -> String {
    let mut s = String::new();
    ldd_io::Input::open(path)
        .expect("open gz")
        .read_to_string(&mut s)
        .expect("gunzip");
    s
}

/// A parsed CoNLL-U block: comments, word rows and multiword-token rows (split into columns).
#[derive(Debug)]
pub struct Block {
    pub comments: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Multiword-token rows (`a-b form _ ... misc`), in order.
    pub mwts: Vec<Vec<String>>,
}

/// Splits CoNLL-U text into blocks (separated by blank lines); checks every row has 10 columns.
pub fn blocks(conllu: &str) -> Vec<Block> {
    assert!(
        conllu.is_empty() || conllu.ends_with("\n\n"),
        "must end with a blank line"
    );
    let mut out = Vec::new();
    for chunk in conllu.split_terminator("\n\n") {
        let mut b = Block {
            comments: Vec::new(),
            rows: Vec::new(),
            mwts: Vec::new(),
        };
        for line in chunk.split('\n') {
            assert!(!line.is_empty(), "blank line inside a block: {chunk:?}");
            if line.starts_with('#') {
                assert!(b.rows.is_empty(), "comment after rows: {chunk:?}");
                b.comments.push(line.to_owned());
            } else {
                let cols: Vec<String> = line.split('\t').map(str::to_owned).collect();
                assert_eq!(cols.len(), 10, "row with {} columns: {line:?}", cols.len());
                if let Some((first, last)) = cols[0].split_once('-') {
                    let (first, last): (usize, usize) = (
                        first.parse().expect("numeric range start"),
                        last.parse().expect("numeric range end"),
                    );
                    assert_eq!(
                        first,
                        b.rows.len() + 1,
                        "range before its first word: {line:?}"
                    );
                    assert!(first < last, "range {first}-{last}");
                    b.mwts.push(cols);
                } else {
                    b.rows.push(cols);
                }
            }
        }
        out.push(b);
    }
    out
}

/// Checks the tree invariants of a block: ids 1..n consecutive, heads in 0..=n, exactly one
/// root (HEAD 0, deprel root) when there are words.
pub fn assert_one_tree(block: &Block) {
    let n = block.rows.len();
    let mut roots = 0;
    for (i, r) in block.rows.iter().enumerate() {
        assert_eq!(r[0], (i + 1).to_string(), "ids must be 1..n: {block:?}");
        let head: usize = r[6].parse().expect("numeric head");
        assert!(head <= n, "head {head} out of range 0..={n}");
        assert_ne!(head, i + 1, "self-loop");
        if head == 0 {
            roots += 1;
            assert_eq!(r[7], "root");
        } else {
            assert_ne!(r[7], "root", "non-root with deprel root");
        }
    }
    if n > 0 {
        assert_eq!(roots, 1, "exactly one root: {block:?}");
    }
    // Multiword tokens cover existing words and do not overlap.
    let mut covered = 0;
    for m in &block.mwts {
        let (first, last) = m[0].split_once('-').expect("range");
        let (first, last): (usize, usize) =
            (first.parse().expect("start"), last.parse().expect("end"));
        assert!(
            first > covered && last <= n,
            "range {first}-{last} in {n} words: {block:?}"
        );
        covered = last;
    }
    // Every word reaches the root (no cycles).
    let heads: Vec<usize> = block
        .rows
        .iter()
        .map(|r| r[6].parse().unwrap_or(0))
        .collect();
    for start in 1..=n {
        let (mut cur, mut steps) = (start, 0);
        while cur != 0 {
            cur = heads[cur - 1];
            steps += 1;
            assert!(steps <= n, "cycle through word {start}: {block:?}");
        }
    }
}

//! The CoNLL-U reader and writer on every shared UD file (lossless round trips both ways),
//! layout variants, malformed input and trees that are not trees.

use std::io::Write;
use std::path::{Path, PathBuf};

use ldd_conllu::{for_each_sentence, parse_block, Block, Extra, Reader};

type R = Result<(), ldd_io::Error>;

/// A file under `../shared/data` beside the repository.
fn data(rel: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    assert!(
        p.is_dir(),
        "tests need ../shared beside the repository root"
    );
    p.join(rel)
}

const UD_FILES: [&str; 9] = [
    "de_gsd-ud-dev.conllu",
    "de_gsd-ud-test.conllu",
    "de_lit-ud-test.conllu",
    "de_pud-ud-test.conllu",
    "en_ewt-ud-dev.conllu",
    "en_ewt-ud-test.conllu",
    "en_gum-ud-dev.conllu",
    "en_gum-ud-test.conllu",
    "en_pud-ud-test.conllu",
];

/// Reading and writing every sentence of every shared UD file reproduces the file
/// byte for byte (comments, multiword tokens, empty nodes, SpaceAfter=No included).
#[test]
fn every_shared_ud_file_round_trips_losslessly() {
    let mut mwt = 0;
    let mut empty_nodes = 0;
    for name in UD_FILES {
        let path = data(&format!("ud/{name}"));
        let original = std::fs::read(&path).unwrap();
        let mut written = Vec::new();
        let n = for_each_sentence(&path, |_, s| {
            for (_, e) in &s.extras {
                match e {
                    Extra::Multiword { .. } => mwt += 1,
                    Extra::Empty(_) => empty_nodes += 1,
                    Extra::Comment(_) => {}
                }
            }
            s.write(&mut written).unwrap();
            R::Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(n > 500, "{name}: {n} sentences");
        assert!(written == original, "{name}: round trip differs");
        // write → read: the written text reads back as the same sentences.
        let tmp = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(tmp.path(), &written).unwrap();
        let mut again = Vec::new();
        let m = for_each_sentence(tmp.path(), |_, s| {
            s.write(&mut again).unwrap();
            R::Ok(())
        })
        .unwrap();
        assert_eq!(m, n, "{name}");
        assert!(again == written, "{name}: write → read differs");
    }
    // The files do contain the hard cases (counted with grep: 2649 ranges, 40 empty nodes).
    assert_eq!(mwt, 2649);
    assert_eq!(empty_nodes, 40);
}

#[test]
fn multiword_tokens_are_not_words() {
    // PUD German tree 1 has "am" = "an dem" as ids 26-27; the sentence has 32 words.
    let path = data("ud/de_pud-ud-test.conllu");
    let mut r = Reader::open(&path).unwrap();
    let mut b = Block::default();
    assert!(r.next_block(&mut b).unwrap());
    let s = parse_block(&b, &path).unwrap();
    assert_eq!(s.len(), 32);
    assert_eq!(s.word(28).unwrap().form, "Montag");
    assert_eq!(s.word(28).unwrap().head, Some(21));
    let toks = s.tokens();
    assert_eq!(toks.len(), 31);
    let am = toks.iter().find(|t| t.form == "am").unwrap();
    assert_eq!((am.first, am.last), (26, 27));
    assert_eq!(s.comment("sent_id"), Some("n01001011"));
}

fn write_tmp(dir: &std::path::Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
    p
}

#[test]
fn layout_variants_read_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let path = data("ud/en_pud-ud-test.conllu");
    let text = std::fs::read_to_string(&path).unwrap();
    let first3: Vec<&str> = text.split("\n\n").take(3).collect();
    let canonical = format!("{}\n\n", first3.join("\n\n"));
    // CRLF, a BOM, several and whitespace-only blank lines, no final blank line.
    let variant = format!(
        "\u{feff}{}",
        first3.join("\n\n \n\t\n").replace('\n', "\r\n")
    );
    let p = write_tmp(tmp.path(), "v.conllu", variant.as_bytes());
    let mut out = Vec::new();
    let n = for_each_sentence(&p, |_, s| {
        s.write(&mut out).unwrap();
        R::Ok(())
    })
    .unwrap();
    assert_eq!(n, 3);
    assert_eq!(String::from_utf8(out).unwrap(), canonical);
    // gzip input reads the same
    let gz = tmp.path().join("v.conllu.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(variant.as_bytes()).unwrap();
    enc.finish().unwrap();
    let mut out = Vec::new();
    for_each_sentence(&gz, |_, s| {
        s.write(&mut out).unwrap();
        R::Ok(())
    })
    .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), canonical);
}

#[test]
fn comment_only_block_is_an_empty_sentence() {
    let tmp = tempfile::tempdir().unwrap();
    let p = write_tmp(
        tmp.path(),
        "e.conllu",
        b"# sent_id = 1\n# text = \n\n# sent_id = 2\n1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\n\n",
    );
    let mut lens = vec![];
    for_each_sentence(&p, |_, s| {
        lens.push(s.len());
        R::Ok(())
    })
    .unwrap();
    assert_eq!(lens, vec![0, 1]);
}

#[test]
fn malformed_conllu_names_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&str, &str); 18] = [
        (
            "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\n",
            ":2: expected 10 tab-separated columns, found 7",
        ),
        (
            "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n3\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n",
            ":2: word id 3 out of sequence (expected 2)",
        ),
        (
            "# c\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t7\tdep\t_\t_\n",
            ":3: HEAD 7 is beyond the sentence's 2 words",
        ),
        ("1\ta\ta\tX\t_\t_\tx\troot\t_\t_\n", ":1: invalid HEAD `x`"),
        (
            "1-3\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n",
            ":1: multiword token 1-3 ends beyond the sentence's 1 words",
        ),
        // Not trees: a cycle, no root, two roots, a word headed by itself.
        (
            "1\ta\ta\tX\t_\t_\t2\tdep\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n3\tc\tc\tX\t_\t_\t0\troot\t_\t_\n",
            ":1: HEAD cycle through word 1: the words do not form a tree",
        ),
        (
            "1\ta\ta\tX\t_\t_\t2\tdep\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n",
            ":1: the sentence has no root (no word with HEAD 0)",
        ),
        (
            "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t0\troot\t_\t_\n",
            ":2: the sentence has 2 roots (words 1, 2)",
        ),
        (
            "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t2\tdep\t_\t_\n",
            ":2: word 2 is its own head",
        ),
        // Overlapping multiword tokens; a range of one word; a word without HEAD.
        (
            "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2-3\tbc\t_\t_\t_\t_\t_\t_\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n3\tc\tc\tX\t_\t_\t1\tdep\t_\t_\n",
            ":3: multiword token 2-3 overlaps the previous one",
        ),
        (
            "1-1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n",
            ":1: invalid multiword-token range `1-1`",
        ),
        // An empty DEPREL; FEATS that are not Name=Value|…
        (
            "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\t\t_\t_\n",
            ":2: invalid DEPREL `` (empty or with white space; `_` if unannotated)",
        ),
        (
            "1\ta\ta\tX\t_\tCase=Nom|Gender\t0\troot\t_\t_\n",
            ":1: invalid FEATS `Case=Nom|Gender`: a feature is not Name=Value",
        ),
        (
            "1\ta\ta\tX\t_\tCase=|Number=Sing\t0\troot\t_\t_\n",
            ":1: invalid FEATS `Case=|Number=Sing`: a feature value is empty or has characters other than letters, digits, _ -",
        ),
        (
            "1\ta\ta\tX\t_\tCa se=Nom\t0\troot\t_\t_\n",
            ":1: invalid FEATS `Ca se=Nom`: a feature name is empty or has characters other than letters, digits, [ ]",
        ),
        // Empty nodes beyond the sentence, out of order, or before their word.
        (
            "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n5.1\te\te\tX\t_\t_\t_\t_\t_\t_\n",
            ":2: empty node `5.1` out of place (expected 1.1 here)",
        ),
        (
            "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n1.2\te\te\tX\t_\t_\t_\t_\t_\t_\n",
            ":2: empty node `1.2` out of place (expected 1.1 here)",
        ),
        (
            "1.1\te\te\tX\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n",
            ":1: empty node `1.1` out of place (expected 0.1 here)",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        // put a valid sentence first so line numbers are file-relative
        let good = "1\tok\tok\tX\t_\t_\t0\troot\t_\t_\n\n";
        let p = write_tmp(
            tmp.path(),
            &format!("m{i}.conllu"),
            format!("{good}{text}").as_bytes(),
        );
        let err = for_each_sentence(&p, |_, _| R::Ok(()))
            .unwrap_err()
            .to_string();
        let (line, msg) = want[1..].split_once(": ").unwrap();
        let line: u64 = line.parse::<u64>().unwrap() + 2;
        let expect = format!("{}:{line}: {msg}", p.display());
        assert_eq!(err, expect);
    }
}

/// The paper's published parses glue each `# sent_id = N` comment to the sentence's first
/// word line (no line break): read as the two lines it stands for — word 1 or a multiword
/// range `1-K` from the end of the first field, the rest the id — and marked; anything
/// else that starts with `#` stays a comment (and a word line after it must still start
/// at word 1).
#[test]
fn a_sent_id_glued_to_the_first_word_line_is_read_as_two_lines() {
    let w = |id: &str, form: &str, head: &str| {
        format!("{id}\t{form}\t{form}\tX\t_\t_\t{head}\tdep\t_\t_")
    };
    let cases: [(String, &str, &[&str]); 3] = [
        (
            format!(
                "# sent_id = 33{}\n{}\n",
                w("1", "It", "2"),
                w("2", "is", "0")
            ),
            "# sent_id = 33",
            &["It", "is"],
        ),
        (
            format!("# sent_id = {}\n{}\n", w("1", "A", "0"), w("2", "b", "1")),
            "# sent_id = ",
            &[],
        ),
        (
            format!(
                "# sent_id = 5{}\n{}\n{}\n",
                w("1-2", "Don't", "_"),
                w("1", "Do", "0"),
                w("2", "n't", "1")
            ),
            "# sent_id = 5",
            &["Do", "n't"],
        ),
    ];
    for (text, comment, words) in &cases {
        let block = Block {
            text: text.clone(),
            first_line: 1,
        };
        let s = parse_block(&block, Path::new("p.conllu"));
        if words.is_empty() {
            // `# sent_id = ` + `1…`: no id is left, so it is a comment and word 2 is out
            // of sequence.
            assert!(s.is_err(), "{text}");
            continue;
        }
        let s = s.unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(s.glued);
        assert_eq!(s.extras[0], (0, Extra::Comment(comment)));
        let forms: Vec<&str> = s.words.iter().map(|w| w.form).collect();
        assert_eq!(&forms, words);
        let mut out = Vec::new();
        s.write(&mut out).unwrap();
        assert!(String::from_utf8(out)
            .unwrap()
            .starts_with(&format!("{comment}\n1")));
    }
    // A comment with tabs that is not a glued id stays a comment.
    let block = Block {
        text: format!("# note = x1{}\n", w("1", "A", "0")),
        first_line: 1,
    };
    let s = parse_block(&block, Path::new("p.conllu")).unwrap();
    assert!(!s.glued && s.words.is_empty());
}

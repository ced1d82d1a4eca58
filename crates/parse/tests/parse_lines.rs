//! One line = one tree: merging, empty lines, hostile characters, input decoding.

mod common;

use common::*;
use ldd_parse::{read_corpus_lines, ParseOptions, Parser};

fn parser() -> Parser {
    Parser::load(german_model()).expect("load german-small")
}

fn stream(p: &Parser, lines: &[&str]) -> String {
    let mut out = Vec::new();
    let input = lines
        .iter()
        .map(|l| Ok::<_, std::io::Error>((*l).to_owned()));
    let stats = p
        .parse_stream(input, &mut out, &ParseOptions::default())
        .expect("parse_stream");
    assert_eq!(stats.lines, lines.len() as u64);
    String::from_utf8(out).expect("utf8 output")
}

#[test]
fn multi_sentence_line_is_merged_into_one_tree() {
    let p = parser();
    let line = "Das Haus ist groß. Der Garten ist klein! Wo wohnt der Mann? Er wohnt in Berlin.";
    let parsed = p.parse_line(42, line).expect("parse");
    assert!(
        parsed.udpipe_sentences >= 2,
        "UDPipe should split this line (got {} sentence)",
        parsed.udpipe_sentences
    );
    let b = blocks(&parsed.conllu);
    assert_eq!(b.len(), 1, "one block for one line");
    let b = &b[0];
    assert_eq!(
        b.comments,
        vec!["# sent_id = 42".to_owned(), format!("# text = {line}")]
    );
    assert_one_tree(b);
    assert_eq!(b.rows.len(), parsed.words);
    assert!(parsed.words >= 16, "all words kept: {}", parsed.words);
    // Later sentences' roots hang from the first root as parataxis.
    let parataxis_to_root = b
        .rows
        .iter()
        .filter(|r| r[7] == "parataxis")
        .filter(|r| b.rows[r[6].parse::<usize>().unwrap_or(1) - 1][6] == "0")
        .count();
    assert!(parataxis_to_root >= parsed.udpipe_sentences - 1);
    // Forms concatenate back to the text (no words lost or reordered).
    let forms: String = b.rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(forms, line.replace(' ', ""));
}

#[test]
fn empty_lines_give_empty_blocks_in_place() {
    let p = parser();
    let out = stream(&p, &["Hallo Welt.", "", " \t  ", "Noch ein Satz.", ""]);
    let b = blocks(&out);
    assert_eq!(b.len(), 5);
    for (i, blk) in b.iter().enumerate() {
        assert_eq!(blk.comments[0], format!("# sent_id = {}", i + 1));
        assert_one_tree(blk);
    }
    for i in [1, 2, 4] {
        assert!(b[i].rows.is_empty(), "block {} must be empty", i + 1);
        assert_eq!(
            b[i].comments,
            vec![format!("# sent_id = {}", i + 1), "# text = ".to_owned()]
        );
    }
    assert!(out.contains("# sent_id = 2\n# text = \n\n# sent_id = 3\n# text = \n\n"));
    assert!(!b[0].rows.is_empty() && !b[3].rows.is_empty());
}

#[test]
fn tabs_and_control_characters_do_not_corrupt_conllu() {
    let p = parser();
    let nasty = "Ein\tTab,\u{1}ein Steuer\u{0}zeichen\u{7f} und\u{2028}ein\u{85}Trenner\r drin.";
    let out = stream(&p, &[nasty, "Danach ein normaler Satz."]);
    let b = blocks(&out); // asserts 10 columns per row, no blank lines inside blocks
    assert_eq!(b.len(), 2);
    for blk in &b {
        assert_one_tree(blk);
    }
    for c in out.chars() {
        assert!(
            c == '\t' || c == '\n' || !(c.is_control() || c == '\u{2028}'),
            "control character {c:?} in output"
        );
    }
    assert_eq!(
        b[0].comments[1],
        "# text = Ein Tab, ein Steuer zeichen  und ein Trenner  drin."
    );
    assert_eq!(b[1].comments[1], "# text = Danach ein normaler Satz.");
}

#[test]
fn bom_crlf_and_invalid_utf8_in_corpus_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = dir.path().join("good.txt");
    std::fs::write(
        &good,
        "\u{feff}Erste Zeile.\r\nZweite Zeile.\r\n\r\n\u{feff}Vierte.",
    )
    .expect("write");
    let lines: Vec<String> = read_corpus_lines(&good)
        .expect("open")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_eq!(
        lines,
        ["Erste Zeile.", "Zweite Zeile.", "", "\u{feff}Vierte."]
    );

    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, b"eins\nzwei\ndr\xffei\nvier\n").expect("write");
    let p = parser();
    let err = p
        .parse_stream(
            read_corpus_lines(&bad).expect("open"),
            Vec::new(),
            &ParseOptions::default(),
        )
        .expect_err("invalid UTF-8 must fail");
    let msg = err.to_string();
    assert!(msg.contains(&format!("{}:3:", bad.display())), "{msg}");
    assert!(msg.contains("invalid UTF-8"), "{msg}");
}

#[test]
fn caller_iterator_errors_name_the_line() {
    let p = parser();
    let input = vec![
        Ok("Ein Satz.".to_owned()),
        Ok("Noch einer.".to_owned()),
        Err(std::io::Error::other("disk on fire")),
    ];
    let err = p
        .parse_stream(input, Vec::new(), &ParseOptions::default())
        .expect_err("must fail");
    assert_eq!(err.to_string(), "input line 3: disk on fire");
}

#[test]
fn model_load_errors_name_the_file() {
    let err = Parser::load("/nonexistent/model.udpipe").expect_err("missing");
    assert!(
        err.to_string().contains("/nonexistent/model.udpipe"),
        "{err}"
    );
    let err = Parser::load(pud_de()).expect_err("not a model");
    assert!(err.to_string().contains("pud.de-en.de"), "{err}");
}

#[test]
fn truncated_model_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bytes = std::fs::read(german_model()).expect("read model");
    for cut in [30, 4096, bytes.len() / 2, bytes.len() - 10] {
        let p = dir.path().join(format!("cut{cut}.udpipe"));
        std::fs::write(&p, &bytes[..cut]).expect("write");
        let err = Parser::load(&p).expect_err("truncated model must not load");
        assert!(
            err.to_string().contains(&format!("cut{cut}.udpipe")),
            "{err}"
        );
    }
}

//! Gold alignments: both formats of the shared hand-aligned Europarl sentences read to the
//! same links, the published defect reported with its line, sure/possible links, index
//! bases and side order, malformed files, and the alignment error rate by hand.

use std::path::{Path, PathBuf};

use ldd_align::{
    alignment_error_rate, read_gold, AlignError, GoldFormat, GoldOptions, GoldSentence,
};

fn gold_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/reference/gold-align/de-en-europarl100")
}

/// `(source, target)` whitespace token counts of the 100 sentence pairs.
fn lengths() -> Vec<(usize, usize)> {
    let side = |f: &str| -> Vec<usize> {
        ldd_io::read_lines(&gold_dir().join(f))
            .unwrap()
            .iter()
            .map(|l| l.split_whitespace().count())
            .collect()
    };
    let (de, en) = (side("test.de"), side("test.en"));
    assert_eq!((de.len(), en.len()), (100, 100));
    de.into_iter().zip(en).collect()
}

#[test]
fn both_shared_formats_give_the_same_links_and_report_the_defect() {
    let lens = lengths();
    let opts = GoldOptions::default();
    let pharaoh = read_gold(&gold_dir().join("de-en.wa"), &opts, &lens).unwrap();
    let wpt = read_gold(&gold_dir().join("de-en.ref.wa"), &opts, &lens).unwrap();
    assert_eq!(pharaoh.format, GoldFormat::Pharaoh, "recognised");
    assert_eq!(wpt.format, GoldFormat::Wpt, "recognised");
    assert_eq!(pharaoh.sentences, wpt.sentences);
    // 1,233 links in the files (wc -l de-en.ref.wa), all sure; one lies outside its pair.
    assert_eq!(pharaoh.sure_links(), 1232);
    assert_eq!(pharaoh.possible_links(), 1232);
    // Sentence 1 of de-en.wa, by hand: `0-0 1-1 2-2 4-3 6-5 8-7 10-11 16-14 17-15 18-15 19-16`.
    assert_eq!(
        pharaoh.sentences[0].sure,
        [
            (0, 0),
            (1, 1),
            (2, 2),
            (4, 3),
            (6, 5),
            (8, 7),
            (10, 11),
            (16, 14),
            (17, 15),
            (18, 15),
            (19, 16)
        ]
    );
    // The published defect: sentence 63 links German token 12 to English token 16, but
    // the English side has 13 tokens (README of the data).
    for g in [&pharaoh, &wpt] {
        assert_eq!(g.outside.len(), 1);
        let o = &g.outside[0];
        assert_eq!(
            (o.sentence, o.link, o.src_len, o.tgt_len),
            (63, (12, 16), 13, 13)
        );
    }
    assert_eq!(
        (pharaoh.outside[0].line, pharaoh.outside[0].token.as_str()),
        (63, "12-16")
    );
    // In de-en.ref.wa the link is on the line `63 12 16 S`.
    let ref_lines = ldd_io::read_lines(&gold_dir().join("de-en.ref.wa")).unwrap();
    assert_eq!(ref_lines[wpt.outside[0].line - 1].trim(), "63 12 16 S");
    assert_eq!(
        wpt.outside[0].to_string(),
        "link 63 12 16 S of sentence 63 is outside the sentence pair (13 source x 13 target tokens)"
    );
    assert!(!pharaoh.sentences[62].sure.contains(&(12, 16)));
    assert_eq!(pharaoh.sentences[62].sure.len(), 12);
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn possible_links_bases_and_side_order() {
    let dir = tempfile::tempdir().unwrap();
    let lens = [(3, 4), (2, 2)];
    // Pharaoh with both possible-link spellings; a link both sure and possible is sure.
    let p = write(dir.path(), "a.wa", "0-0 1?2 2p3 1-2\n1-0\n");
    let g = read_gold(&p, &GoldOptions::default(), &lens).unwrap();
    assert_eq!(
        g.sentences,
        [
            GoldSentence {
                sure: vec![(0, 0), (1, 2)],
                possible: vec![(2, 3)]
            },
            GoldSentence {
                sure: vec![(1, 0)],
                possible: vec![]
            },
        ]
    );
    assert_eq!((g.sure_links(), g.possible_links()), (3, 4));
    // The same links in WPT, 1-based, target index first, one to NULL (0), an S-less
    // line (sure), a confidence field and a blank line.
    let w = write(
        dir.path(),
        "b.wa",
        "1 1 1 S\n1 3 2 S\n\n1 3 2 P\n1 4 3 P 0.5\n2 1 2\n2 2 0 S\n",
    );
    let opts = GoldOptions {
        format: None,
        one_based: true,
        target_first: true,
    };
    let g2 = read_gold(&w, &opts, &lens).unwrap();
    assert_eq!(g2.format, GoldFormat::Wpt);
    assert_eq!(g2.sentences, g.sentences);
    assert_eq!(g2.null_links, 1);
    // Read 0-based and source-first, the same file means other links: only `1 1 1 S`
    // = (1,1) fits; (3,2), (3,2), (4,3) lie outside the 3 x 4 pair and (1,2), (2,0)
    // outside the 2 x 2 pair.
    let opts = GoldOptions {
        format: Some(GoldFormat::Wpt),
        ..GoldOptions::default()
    };
    let g3 = read_gold(&w, &opts, &lens).unwrap();
    assert_eq!(g3.sentences[0].sure, [(1, 1)]);
    assert!(g3.sentences[1].sure.is_empty() && g3.null_links == 0);
    let outside: Vec<_> = g3.outside.iter().map(|o| (o.line, o.link)).collect();
    assert_eq!(
        outside,
        [
            (2, (3, 2)),
            (4, (3, 2)),
            (5, (4, 3)),
            (6, (1, 2)),
            (7, (2, 0))
        ]
    );
}

#[test]
fn malformed_gold_files_are_errors_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let lens = [(3, 3), (3, 3)];
    let opts = GoldOptions::default();
    let err = |name: &str, text: &str, o: &GoldOptions| -> String {
        let p = write(dir.path(), name, text);
        let e = read_gold(&p, o, &lens).unwrap_err();
        let s = e.to_string();
        assert!(s.contains(&p.display().to_string()), "{s}");
        s
    };
    assert!(err("a", "0-0\n0x1\n", &opts).contains(":2: malformed gold link 0x1"));
    // one line too many / too few
    let e = err("b", "0-0\n0-0\n1-1\n", &opts);
    assert!(e.contains("expected 2 alignment lines, found 3"), "{e}");
    let e = err("c", "0-0\n", &opts);
    assert!(e.contains("expected 2 alignment lines, found 1"), "{e}");
    let wpt = GoldOptions {
        format: Some(GoldFormat::Wpt),
        ..opts
    };
    assert!(err("d", "1 0 0 S\n3 0 0 S\n", &wpt).contains(":2: sentence 3 does not exist"));
    assert!(err("e", "1 0 0 X\n", &wpt).contains(":1: link kind X is neither S nor P"));
    assert!(err("f", "1 0\n", &wpt).contains(":1: 2 fields"));
    assert!(err("g", "1 0 0 S high\n", &wpt).contains(":1: confidence high is not a number"));
    let p = write(dir.path(), "h", "0-0\n0-0\n");
    assert!(matches!(
        read_gold(&p, &wpt, &lens),
        Err(AlignError::GoldLine { line: 1, .. })
    ));
}

#[test]
fn alignment_error_rate_by_hand() {
    // S = {(0,0), (1,1)}, P = S ∪ {(2,2)}; A = {(0,0), (2,2), (1,2)}:
    // |A∩S| = 1, |A∩P| = 2, |A| = 3, |S| = 2 → precision 2/3, recall 1/2,
    // AER = 1 − (1 + 2)/(3 + 2) = 0.4.
    let gold = [GoldSentence {
        sure: vec![(0, 0), (1, 1)],
        possible: vec![(2, 2)],
    }];
    let hyp = vec![vec![(0, 0), (2, 2), (1, 2), (1, 2)]];
    let s = alignment_error_rate(&gold, &hyp).unwrap();
    assert_eq!(
        (
            s.hyp_links,
            s.sure_links,
            s.possible_links,
            s.hyp_sure,
            s.hyp_possible
        ),
        (3, 2, 3, 1, 2)
    );
    assert!((s.precision - 2.0 / 3.0).abs() < 1e-12);
    assert!((s.recall - 0.5).abs() < 1e-12);
    assert!((s.aer - 0.4).abs() < 1e-12);
    // The gold itself: AER 0, precision and recall 1.
    let s = alignment_error_rate(&gold, &[vec![(0, 0), (1, 1)]]).unwrap();
    assert_eq!((s.aer, s.precision, s.recall), (0.0, 1.0, 1.0));
    assert!(alignment_error_rate(&gold, &[]).is_err());
}

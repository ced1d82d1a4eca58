//! Class: trees that are not trees of the corpus. A cycle, a tree of another line or
//! language, an edited tree, invalid DEPREL, FEATS or empty nodes are refused with file and
//! line; a parser's small rewriting is tolerated and counted, a shifted corpus is not.

use super::*;

#[test]
fn trees_must_be_trees_and_belong_to_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let blocks = pud_blocks();
    assert_eq!(blocks.len(), 1000);
    // Line numbers of block 3 in the file.
    let first_line_of = |k: usize| -> usize {
        blocks[..k]
            .iter()
            .map(|b| b.matches('\n').count())
            .sum::<usize>()
            + 1
    };
    // A cycle in tree 3: its root points at one of its words.
    let mut bad = blocks.clone();
    let root_line = bad[2]
        .lines()
        .position(|l| l.split('\t').nth(6) == Some("0"))
        .unwrap();
    let mut lines: Vec<String> = bad[2].lines().map(str::to_string).collect();
    let mut cols: Vec<String> = lines[root_line].split('\t').map(str::to_string).collect();
    cols[6] = "1".into();
    lines[root_line] = cols.join("\t");
    bad[2] = lines.join("\n") + "\n\n";
    let o = with_conllu(tmp.path(), "cycle.conllu", &bad.concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("cycle.conllu:") && (e.contains("cycle") || e.contains("no root")),
        "{e}"
    );
    assert!(!tmp.path().join("out").exists());

    // The first tree moved to the end: the first line no longer matches.
    let mut moved = blocks.clone();
    let first = moved.remove(0);
    moved.push(first);
    let o = with_conllu(tmp.path(), "moved.conllu", &moved.concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let want = format!("moved.conllu:{}:", first_line_of(0));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("does not belong to its corpus line"),
        "{}",
        stderr(&o)
    );

    // The other language's parse (same number of trees).
    let en = std::fs::read_to_string(data("ud/en_pud-ud-test.conllu")).unwrap();
    let o = with_conllu(tmp.path(), "en.conllu", &en);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("en.conllu:"), "{}", stderr(&o));

    // A tree that was edited after parsing, at tree 500 only.
    let mut edited = blocks.clone();
    edited[499] = edited[499].replacen("# text = ", "# text = Nicht ", 1);
    let o = with_conllu(tmp.path(), "edited.conllu", &edited.concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let want = format!("edited.conllu:{}:", first_line_of(499));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
}

/// Trees that are not valid CoNLL-U beyond their tree shape are refused by `extract`, with
/// the file and line: an empty DEPREL, FEATS that are not Name=Value, an empty node beyond
/// the sentence.
#[test]
fn invalid_deprel_feats_and_empty_nodes_are_refused_with_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let blocks = pud_blocks();
    let first_word = |b: &str| b.lines().position(|l| l.starts_with("1\t")).unwrap();
    let base_line: usize = blocks[..2].iter().map(|b| b.matches('\n').count()).sum();
    type Change = Box<dyn Fn(&str) -> String>;
    let column = |k: usize, v: &'static str| -> Change {
        Box::new(move |l: &str| {
            let mut c: Vec<&str> = l.split('\t').collect();
            c[k] = v;
            c.join("\t")
        })
    };
    let cases: [(&str, Change, &str); 3] = [
        ("deprel.conllu", column(7, ""), "invalid DEPREL"),
        ("feats.conllu", column(5, "Case"), "invalid FEATS `Case`"),
        (
            "empty.conllu",
            Box::new(|l: &str| format!("99.1\tx\tx\tX\t_\t_\t_\t_\t_\t_\n{l}")),
            "empty node `99.1` out of place",
        ),
    ];
    for (name, change, want) in cases {
        let mut bad = blocks.clone();
        let mut lines: Vec<String> = bad[2].lines().map(str::to_string).collect();
        let k = first_word(&bad[2]);
        lines[k] = change(&lines[k]);
        bad[2] = lines.join("\n") + "\n\n";
        let o = with_conllu(tmp.path(), name, &bad.concat());
        assert_eq!(code(&o), 3, "{name}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(&format!("{name}:{}:", base_line + k + 1)),
            "{name}: {e}"
        );
        assert!(e.contains(want), "{name}: {e}");
    }
}

/// The paper's case, made from a real UD file: English PUD as the source, one corpus line
/// with `'tis` where its tree (and `# text`) has the words `it is`. The tree is tolerated,
/// reported and counted in the manifest; a corpus shifted by one line is refused, and the
/// message shows both texts where they first differ.
#[test]
fn a_parsers_rewritten_word_is_tolerated_and_a_shifted_corpus_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let en = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let k = en
        .lines()
        .position(|l| l.starts_with("At best it is naive"))
        .unwrap();
    let src = t.join("tis.en");
    write_lines(&src, &en, |i, l| {
        if i == k {
            l.replacen("it is", "'tis", 1)
        } else {
            l.to_string()
        }
    });
    let args = |src: &Path, out: &Path| {
        let mut v = pud_command("extract", "en", &["-q", "--no-reorder", "--controls", "0"]);
        let i = v.iter().position(|a| a == "--src").unwrap();
        v[i + 1] = s(src).to_string();
        v.extend(["--out".to_string(), s(out).to_string()]);
        v
    };
    let out = t.join("tis");
    let mut quiet = args(&src, &out);
    quiet.retain(|a| a != "-q");
    let o = run_args(&quiet);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("1 of 1000 trees differ from their corpus line in small places (1 in all"),
        "{}",
        stderr(&o)
    );
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["corpus"]["tolerated_lines"], 1);
    assert_eq!(m["corpus"]["tolerated_places"], 1);
    // Shifted by one line (the first removed, an empty one at the end): refused at line 1.
    let shifted = t.join("shifted.en");
    let tail: Vec<&str> = en.lines().skip(1).chain([""]).collect();
    std::fs::write(&shifted, tail.join("\n") + "\n").unwrap();
    let o = run_args(&args(&shifted, &t.join("sh")));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("does not belong to its corpus line"), "{e}");
    // The excerpts start where the texts part, not at the first 80 characters.
    let first = en.lines().next().unwrap();
    let second = en.lines().nth(1).unwrap();
    assert!(e.contains(&first[..20]) && e.contains(&second[..20]), "{e}");
    assert!(!t.join("sh").exists());
}

//! `extract --conllu` with a parse made elsewhere: trees whose text was tokenized (PTB),
//! normalised (NFD, BOM) or left out are accepted; trees of another line, language or
//! corpus are refused, naming the first bad tree.

mod common;

use std::path::{Path, PathBuf};

use common::{data, ids, lines, run, stderr};
use unicode_normalization::UnicodeNormalization;

/// A PTB-style tokenization of a raw English line: quotes to `` and '', brackets to
/// -LRB- -RRB-, `n't` and `'s` split off, punctuation separated.
fn ptb(line: &str) -> String {
    let mut out = String::new();
    let mut prev_space = true;
    for c in line.chars() {
        match c {
            '“' | '‘' => out.push_str(" `` "),
            '”' | '’' if prev_space => out.push_str(" `` "),
            '”' => out.push_str(" '' "),
            '"' if prev_space => out.push_str(" `` "),
            '"' => out.push_str(" '' "),
            '(' => out.push_str(" -LRB- "),
            ')' => out.push_str(" -RRB- "),
            ',' | ';' | ':' | '?' | '!' => {
                out.push(' ');
                out.push(c);
                out.push(' ');
            }
            _ => out.push(c),
        }
        prev_space = c.is_whitespace();
    }
    let words: Vec<String> = out
        .split_whitespace()
        .flat_map(|w| {
            let w = w.replace('’', "'");
            if let Some(stem) = w.strip_suffix("n't") {
                vec![stem.to_string(), "n't".to_string()]
            } else if let Some(stem) = w.strip_suffix("'s") {
                vec![stem.to_string(), "'s".to_string()]
            } else if let Some(stem) = w.strip_suffix('.') {
                vec![stem.to_string(), ".".to_string()]
            } else {
                vec![w]
            }
        })
        .filter(|w| !w.is_empty())
        .collect();
    words.join(" ")
}

/// The sentence blocks of a CoNLL-U file.
fn blocks(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.split_inclusive("\n\n").map(str::to_string).collect()
}

/// `block` with its `# text` comment replaced by `text`.
fn with_text(block: &str, text: &str) -> String {
    block
        .lines()
        .map(|l| {
            if l.starts_with("# text = ") {
                format!("# text = {text}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n\n"
}

/// Runs `extract` on English PUD (source) and German (target) with this CoNLL-U.
fn extract_with(
    dir: &Path,
    name: &str,
    conllu: &str,
    src: &Path,
    extra: &[&str],
) -> (std::process::Output, PathBuf) {
    let c = dir.join(name);
    std::fs::write(&c, conllu).unwrap();
    let out = dir.join(format!("out-{name}"));
    let tgt = data("parallel/pud.de-en.de");
    let mut args = vec![
        "extract",
        "-q",
        "--no-reorder",
        "--src",
        src.to_str().unwrap(),
        "--tgt",
        tgt.to_str().unwrap(),
        "--src-lang",
        "en",
        "--tgt-lang",
        "de",
        "--conllu",
        c.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    (run(&args), out)
}

fn manifest(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap()
}

/// Lines 1-based of the first line of block `k` (0-based) in a file of `blocks`.
fn first_line_of(blocks: &[String], k: usize) -> usize {
    blocks[..k]
        .iter()
        .map(|b| b.matches('\n').count())
        .sum::<usize>()
        + 1
}

#[test]
fn tokenized_and_normalised_parses_of_the_same_lines_are_accepted() {
    let tmp = tempfile::tempdir().unwrap();
    let src = data("parallel/pud.de-en.en");
    let raw = lines(&src);
    let gold = blocks(&data("ud/en_pud-ud-test.conllu"));
    assert_eq!(raw.len(), 1000);
    assert_eq!(gold.len(), 1000);

    // The reference run: gold trees whose text is the raw line.
    let (o, reference) = extract_with(tmp.path(), "gold.conllu", &gold.concat(), &src, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(manifest(&reference)["corpus"].get("normalised_lines"), None);

    // PTB-tokenized text: hand-checked on line 1 ("“While … not,” Obama …").
    let first = ptb(&raw[0]);
    assert!(
        first.starts_with(
            "`` While much of the digital transition is unprecedented in the United States , the"
        ),
        "{first}"
    );
    assert!(first.contains("is not , '' Obama"), "{first}");
    assert_eq!(
        ptb("Don't take them off (now)."),
        "Do n't take them off -LRB- now -RRB- ."
    );
    let tokenized: Vec<String> = gold
        .iter()
        .zip(&raw)
        .map(|(b, l)| with_text(b, &ptb(l)))
        .collect();
    let squeeze = |s: &str| s.split_whitespace().collect::<String>();
    let changed = raw
        .iter()
        .filter(|l| squeeze(&ptb(l)) != squeeze(l))
        .count();
    assert!(
        changed > 100,
        "only {changed} lines changed by PTB tokenization"
    );
    let (o, out) = extract_with(tmp.path(), "ptb.conllu", &tokenized.concat(), &src, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        manifest(&out)["corpus"]["normalised_lines"].as_u64(),
        Some(changed as u64)
    );
    for (p, b) in [("particle", "ge1"), ("preposition_stranding", "ge0")] {
        let want = ids(&reference.join(p), b);
        assert!(!want.is_empty(), "{p} {b}");
        assert_eq!(ids(&out.join(p), b), want, "{p} {b}");
    }

    // Treebank text in NFD, the file and every `# text` with a BOM; the source with a BOM
    // and non-breaking spaces.
    let nfd: String = "\u{feff}".to_string()
        + &gold
            .iter()
            .zip(&raw)
            .map(|(b, l)| with_text(b, &format!("\u{feff}{}", l.nfd().collect::<String>())))
            .collect::<String>();
    let (o, out) = extract_with(tmp.path(), "nfd.conllu", &nfd, &src, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let non_ascii = raw
        .iter()
        .filter(|l| l.nfd().collect::<String>() != **l)
        .count();
    assert_eq!(
        manifest(&out)["corpus"]["normalised_lines"].as_u64(),
        Some(1000),
        "every `# text` starts with a BOM ({non_ascii} lines also change under NFD)"
    );
    let nbsp_src = tmp.path().join("nbsp.en");
    std::fs::write(
        &nbsp_src,
        format!(
            "\u{feff}{}\n",
            raw.iter()
                .map(|l| l.replace(' ', "\u{a0}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    )
    .unwrap();
    let (o, out) = extract_with(tmp.path(), "gold2.conllu", &gold.concat(), &nbsp_src, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        ids(&out.join("particle"), "ge1"),
        ids(&reference.join("particle"), "ge1")
    );

    // Without `# text`, the surface tokens are compared.
    let no_text: String = gold
        .iter()
        .map(|b| {
            b.lines()
                .filter(|l| !l.starts_with("# text"))
                .collect::<Vec<_>>()
                .join("\n")
                + "\n\n"
        })
        .collect();
    let (o, _) = extract_with(tmp.path(), "notext.conllu", &no_text, &src, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn parses_of_other_lines_languages_or_corpora_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let src = data("parallel/pud.de-en.en");
    let raw = lines(&src);
    let gold = blocks(&data("ud/en_pud-ud-test.conllu"));
    let tokenized: Vec<String> = gold
        .iter()
        .zip(&raw)
        .map(|(b, l)| with_text(b, &ptb(l)))
        .collect();

    let refused = |name: &str, conllu: &str, src: &Path, line: usize| {
        let (o, out) = extract_with(tmp.path(), name, conllu, src, &[]);
        assert_eq!(o.status.code(), Some(3), "{name}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(&format!("{name}:{line}:")), "{name}: {e}");
        assert!(e.contains("does not belong to its corpus line"), "{e}");
        assert!(e.contains("--trust-conllu"), "{e}");
        assert!(!out.exists(), "{name}");
    };

    // Shifted by one tree (the first dropped, a copy of the last appended).
    let mut shifted = tokenized.clone();
    shifted.remove(0);
    shifted.push(tokenized[999].clone());
    refused("shifted.conllu", &shifted.concat(), &src, 1);

    // The other language's trees (German PUD, same 1,000 sentences).
    let de = blocks(&data("ud/de_pud-ud-test.conllu"));
    refused("german.conllu", &de.concat(), &src, 1);

    // A parse of another corpus with the same line count: the English PUD trees against
    // the first 1,000 lines of newstest2013.
    let news = lines(&data("parallel/newstest2013.de-en.en"));
    let news_src = tmp.path().join("news1000.en");
    std::fs::write(&news_src, news[..1000].join("\n") + "\n").unwrap();
    refused("pud-for-news.conllu", &tokenized.concat(), &news_src, 1);

    // One edited tree, at tree 500 only: named by its first line.
    let mut edited = tokenized.clone();
    edited[499] = edited[499].replacen("# text = ", "# text = Not ", 1);
    refused(
        "edited.conllu",
        &edited.concat(),
        &src,
        first_line_of(&edited, 499),
    );

    // --trust-conllu accepts the shifted parse and records that nothing was checked.
    let (o, out) = extract_with(
        tmp.path(),
        "trusted.conllu",
        &shifted.concat(),
        &src,
        &["--trust-conllu"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        manifest(&out)["corpus"]["unchecked_lines"].as_u64(),
        Some(1000)
    );
}

//! What `score` prints, as a sacreBLEU user expects it (issue 55): named systems
//! (`--hyp NAME=FILE`, `--name`, `--hyp -`), a table that fits 100 columns for up to 4
//! systems with every mark and `-` explained under it, `--format json|csv|summary`,
//! `-b`, `-w`, `--wide`; sacreBLEU's warning about tokenized text; and `make demo`
//! showing its results. On the demo's sets (300 lines), extracted once.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use common::{stderr, Ldd};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The demo's sets, and three systems in the usual layout of experiments: `m1/hyp.en`
/// (every third word dropped), `m2/hyp.en` (words swapped), `m3/hyp.en` (the reference).
fn fixture() -> &'static Path {
    static F: OnceLock<tempfile::TempDir> = OnceLock::new();
    F.get_or_init(|| {
        let t = tempfile::tempdir().unwrap();
        let demo = root().join("demo");
        Ldd::cmd("extract")
            .args(&["-q", "--offline", "--src-lang", "de", "--tgt-lang", "en"])
            .path("--src", &demo.join("pud.de-en.de"))
            .path("--tgt", &demo.join("pud.de-en.en"))
            .path("--conllu", &demo.join("de_pud-300.conllu"))
            .out(&t.path().join("sets"))
            .ok();
        for (m, from) in [
            ("m1", "systems/ref-drop3.en"),
            ("m2", "systems/ref-swap.en"),
            ("m3", "pud.de-en.en"),
        ] {
            std::fs::create_dir_all(t.path().join(m)).unwrap();
            std::fs::copy(demo.join(from), t.path().join(m).join("hyp.en")).unwrap();
        }
        t
    })
    .path()
}

/// `score` in the fixture's directory on its sets, writing into `out` (relative).
fn score(out: &str, args: &[&str]) -> Ldd {
    Ldd::cmd("score")
        .current_dir(fixture())
        .args(&["--sets", "sets", "--out", out])
        .args(args)
}

/// `s` with every run of whitespace one space: a legend wrapped to fit reads as one line.
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Each system's corpus score of each metric, systems then metrics, from `scores.json`.
fn corpus_scores(j: &serde_json::Value) -> Vec<(String, String, f64)> {
    let mut out = Vec::new();
    for sys in j["systems"].as_array().unwrap() {
        for m in j["metrics"].as_array().unwrap() {
            let row = j["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| {
                    r["system"] == sys["name"] && r["metric"] == m["key"] && r["scope"] == "corpus"
                })
                .unwrap();
            out.push((
                sys["name"].as_str().unwrap().to_string(),
                m["key"].as_str().unwrap().to_string(),
                row["score"].as_f64().unwrap(),
            ));
        }
    }
    out
}

const THREE: [&str; 6] = [
    "--hyp",
    "a=m1/hyp.en",
    "--hyp",
    "b=m2/hyp.en",
    "--hyp",
    "c=m3/hyp.en",
];

/// Three systems named `NAME=FILE` (their files all `hyp.en`), BLEU, chrF and locus
/// accuracy: every line of the table fits 100 columns, its scores are the JSON's, and
/// every table that shows a `-` says why under it.
#[test]
fn three_named_systems_fit_100_columns_and_every_dash_is_explained() {
    let o = score("three", &THREE)
        .args(&["--metrics", "bleu,chrf,locus"])
        .ok();
    let table = String::from_utf8(o.stdout).unwrap();
    for l in table.lines() {
        assert!(
            l.chars().count() <= 100,
            "{} columns: {l}",
            l.chars().count()
        );
    }
    let j = json(&fixture().join("three/scores.json"));
    let names: Vec<&str> = j["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b", "c"]);
    // The corpus line of each metric's table: the three corpus scores, as the JSON has them.
    let mut corpus_lines = table.lines().filter(|l| l.starts_with("corpus "));
    for m in ["bleu", "chrf", "locus"] {
        let line = corpus_lines.next().unwrap();
        for (sys, key, v) in corpus_scores(&j) {
            if key == m {
                assert!(line.contains(&format!("{v:.2}")), "{sys} {m} {v}: {line}");
            }
        }
    }
    explained(&table);
    // The reference as a system is significantly better than the first: starred, and
    // the star explained.
    let t = flat(&table);
    assert!(
        t.contains("*: differs from the baseline a (paired bs"),
        "{table}"
    );
    // Locus accuracy's test is McNemar's, never the bootstrap's.
    let start = table.find("\nLocus\n").unwrap() + 1;
    let locus = table[start..].split("\n\n").next().unwrap();
    assert!(!locus.contains("paired bs"), "{locus}");
    if locus
        .lines()
        .skip(2)
        .any(|l| !l.contains(": ") && l.contains('*'))
    {
        assert!(
            flat(locus).contains("(McNemar's exact test, p < 0.05)"),
            "{locus}"
        );
    }
    // --wide: the intervals, each named as what it is (bootstrap for BLEU, Wilson for
    // locus accuracy), and the locus trends' missing intervals explained.
    let o = score("three", &THREE)
        .args(&["--metrics", "bleu,chrf,locus", "--wide", "-w", "1"])
        .ok();
    let wide = String::from_utf8(o.stdout).unwrap();
    explained(&wide);
    let block = |title: &str| -> String {
        let start = wide.find(&format!("\n{title}\n")).unwrap() + 1;
        wide[start..].split("\n\n").next().unwrap().to_string()
    };
    let bleu = block("BLEU");
    assert!(
        flat(&bleu).contains("95% CI: bootstrap interval (1000 resamples, seed 12345)"),
        "{bleu}"
    );
    let locus = block("Locus");
    assert!(
        flat(&locus).contains("95% CI: Wilson score interval"),
        "{locus}"
    );
    assert!(!locus.contains("bootstrap"), "{locus}");
    assert!(
        flat(&wide).contains("trends of accuracies have no interval"),
        "{wide}"
    );
    // One decimal.
    let v = corpus_scores(&j)[0].2;
    assert!(bleu.contains(&format!(" {v:.1} ")), "{v}: {bleu}");
}

/// Every block of a table (lines up to a blank line) that shows a `-` cell explains it in
/// its legend (`-: why`); so does `…` for a name cut to fit.
fn explained(table: &str) {
    for block in table.split("\n\n") {
        let body: Vec<&str> = block.lines().take_while(|l| !l.contains(": ")).collect();
        let dash = body
            .iter()
            .any(|l| l.split_whitespace().any(|w| w == "-" || w == "-!"));
        if dash {
            assert!(
                flat(block).contains("-: "),
                "a `-` without a reason:\n{block}"
            );
        }
        if body.iter().any(|l| l.contains('…')) {
            assert!(
                flat(block).contains("…: "),
                "a cut without a reason:\n{block}"
            );
        }
    }
}

/// Four systems with long names still fit: the names are cut, the cut said.
#[test]
fn four_long_names_are_cut_to_fit() {
    let o = score(
        "four",
        &[
            "--hyp",
            "transformer-big-baseline=m1/hyp.en",
            "--hyp",
            "transformer-big-backtranslation=m2/hyp.en",
            "--hyp",
            "transformer-big-reference=m3/hyp.en",
            "--hyp",
            "transformer-big-again=m1/hyp.en",
            "--metrics",
            "bleu",
        ],
    )
    .ok();
    let table = String::from_utf8(o.stdout).unwrap();
    for l in table.lines() {
        assert!(
            l.chars().count() <= 100,
            "{} columns: {l}",
            l.chars().count()
        );
    }
    assert!(table.contains('…'), "{table}");
    explained(&table);
    // Cut in the middle: the four names stay apart.
    let head = table.lines().find(|l| l.starts_with("set ")).unwrap();
    let mut cut: Vec<&str> = head
        .split_whitespace()
        .filter(|w| w.contains('…'))
        .collect();
    assert_eq!(cut.len(), 4, "{head}");
    cut.dedup();
    assert_eq!(cut.len(), 4, "{head}");
}

/// `--format json` is scores.json (json.load reads it); `--format csv` is scores.csv;
/// `-b` prints one number per system and metric, as `-w` rounds it; `--name` names the
/// `--hyp` in its place; two systems of the same file name are told to be named.
#[test]
fn json_csv_and_the_scores_alone() {
    let o = score(
        "fmt",
        &[
            "--hyp",
            "m1/hyp.en",
            "--name",
            "x",
            "--hyp",
            "m2/hyp.en",
            "--name",
            "y",
        ],
    )
    .args(&["-f", "json", "--metrics", "bleu,chrf"])
    .ok();
    assert_eq!(
        o.stdout,
        std::fs::read(fixture().join("fmt/scores.json")).unwrap()
    );
    let mut py = Command::new("python3")
        .args([
            "-c",
            "import json, sys; d = json.load(sys.stdin); print(len(d['systems']))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    py.stdin.take().unwrap().write_all(&o.stdout).unwrap();
    let py = py.wait_with_output().unwrap();
    assert!(py.status.success());
    assert_eq!(String::from_utf8_lossy(&py.stdout).trim(), "2");
    let o = score("fmt", &["--hyp", "x=m1/hyp.en", "--hyp", "y=m2/hyp.en"])
        .args(&["--format", "csv", "--metrics", "bleu,chrf"])
        .ok();
    assert_eq!(
        o.stdout,
        std::fs::read(fixture().join("fmt/scores.csv")).unwrap()
    );
    let o = score("fmt", &["--hyp", "x=m1/hyp.en", "--hyp", "y=m2/hyp.en"])
        .args(&["-b", "-w", "3", "--metrics", "bleu,chrf"])
        .ok();
    // Two systems: each number labelled with its system and metric (issue 64).
    let label = |key: &str| if key == "bleu" { "BLEU" } else { "chrF" };
    let want: Vec<String> = corpus_scores(&json(&fixture().join("fmt/scores.json")))
        .iter()
        .map(|(sys, key, v)| format!("{sys}\t{}\t{v:.3}", label(key)))
        .collect();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), want.join("\n") + "\n");
    assert_eq!(want.len(), 4);
    // The usual layout, unnamed: refused, saying how to name them.
    let o = score("fmt", &["--hyp", "m1/hyp.en", "--hyp", "m2/hyp.en"]).run();
    assert_eq!(o.status.code(), Some(4));
    assert!(stderr(&o).contains("NAME=FILE"), "{}", stderr(&o));
    // -b and --wide go with the table.
    let o = score("fmt", &["--hyp", "x=m1/hyp.en", "-b", "-f", "json"]).run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
}

fn with_stdin(cmd: Ldd, input: &Path) -> Output {
    let mut c = cmd.command();
    c.stdin(std::fs::File::open(input).unwrap());
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// `--hyp -` reads one system from standard input, and scores it as its file, locus
/// accuracy (a second read) included; `NAME=-` names it.
#[test]
fn one_system_on_standard_input() {
    let metrics = ["--metrics", "bleu,chrf,locus", "-q"];
    score("file", &["--hyp", "m2/hyp.en"]).args(&metrics).ok();
    with_stdin(
        score("stdin", &["--hyp", "-"]).args(&metrics),
        &fixture().join("m2/hyp.en"),
    );
    with_stdin(
        score("named", &["--hyp", "swap=-"]).args(&metrics),
        &fixture().join("m2/hyp.en"),
    );
    let scores = |dir: &str| -> Vec<f64> {
        corpus_scores(&json(&fixture().join(dir).join("scores.json")))
            .iter()
            .map(|x| x.2)
            .collect()
    };
    assert_eq!(scores("stdin"), scores("file"));
    assert_eq!(scores("named"), scores("file"));
    let j = json(&fixture().join("stdin/scores.json"));
    assert_eq!(j["systems"][0]["name"], "stdin");
    assert_eq!(j["systems"][0]["path"], "-");
    assert_eq!(
        json(&fixture().join("named/scores.json"))["systems"][0]["name"],
        "swap"
    );
    // Endless standard input: read up to a line past the corpus, refused at once.
    let start = std::time::Instant::now();
    let mut c = score("endless", &["--hyp", "-"]).command();
    let mut yes = Command::new("yes").stdout(Stdio::piped()).spawn().unwrap();
    c.stdin(yes.stdout.take().unwrap());
    let o = c.output().unwrap();
    let _ = yes.kill();
    let _ = yes.wait();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the corpus has 300 lines"),
        "{}",
        stderr(&o)
    );
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
    // Standard input holds one system.
    let o = score("two", &["--hyp", "-", "--hyp", "x=-"]).run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    // The report of a system scored from standard input shows its examples once given
    // its file by name, and says how when not.
    let page = fixture().join("stdin-report.html");
    let o = Ldd::cmd("report")
        .current_dir(fixture())
        .args(&["--sets", "sets", "--scores", "stdin/scores.json"])
        .path("--out", &page)
        .ok();
    assert!(
        stderr(&o).contains("report --hyp stdin=FILE")
            || std::fs::read_to_string(&page)
                .unwrap()
                .contains("report --hyp stdin=FILE")
    );
    Ldd::cmd("report")
        .current_dir(fixture())
        .args(&[
            "--sets",
            "sets",
            "--scores",
            "stdin/scores.json",
            "--hyp",
            "stdin=m2/hyp.en",
        ])
        .path("--out", &page)
        .ok();
    let o = Ldd::cmd("report")
        .current_dir(fixture())
        .args(&[
            "--sets",
            "sets",
            "--scores",
            "stdin/scores.json",
            "--hyp",
            "other=m2/hyp.en",
        ])
        .path("--out", &page)
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("no system `other`"), "{}", stderr(&o));
}

/// sacreBLEU's warning when 100 lines or more end in a tokenized period, word for word,
/// for an output (as sacreBLEU) and a reference; `--force` and scores without BLEU give
/// none.
#[test]
fn tokenized_text_is_warned_about_as_sacrebleu_does() {
    let f = fixture();
    let tokenized: String = std::fs::read_to_string(f.join("m3/hyp.en"))
        .unwrap()
        .lines()
        .map(|l| format!("{} .\n", l.trim_end_matches('.')))
        .collect();
    std::fs::create_dir_all(f.join("tok")).unwrap();
    std::fs::write(f.join("tok/hyp.en"), &tokenized).unwrap();
    let warning = "That's 100 lines that end in a tokenized period ('.')\n\
                   ldd-sets: warning: It looks like you forgot to detokenize your test data, \
                   which may hurt your score.\n\
                   ldd-sets: warning: If you insist your data is detokenized, or don't care, \
                   you can suppress this message with the `force` parameter.";
    let o = score("tok-out", &["--hyp", "tok/hyp.en", "--metrics", "bleu"]).ok();
    let e = stderr(&o);
    assert!(
        e.contains(&format!("ldd-sets: warning: tok/hyp.en: {warning}")),
        "{e}"
    );
    assert!(!e.contains("pud.de-en.en:"), "{e}");
    for quiet in [&["--force"][..], &["--metrics", "chrf"][..]] {
        let o = score("tok-out", &["--hyp", "tok/hyp.en", "--replace"])
            .args(quiet)
            .ok();
        assert!(!stderr(&o).contains("tokenized period"), "{}", stderr(&o));
    }
    // The reference: the sets of a tokenized target side, scored with a detokenized output.
    let demo = root().join("demo");
    Ldd::cmd("extract")
        .current_dir(f)
        .args(&[
            "-q",
            "--offline",
            "--src-lang",
            "de",
            "--tgt-lang",
            "en",
            "--controls",
            "0",
        ])
        .path("--src", &demo.join("pud.de-en.de"))
        .args(&["--tgt", "tok/hyp.en"])
        .path("--conllu", &demo.join("de_pud-300.conllu"))
        .path("--out", &f.join("tok-sets"))
        .ok();
    let o = Ldd::cmd("score")
        .current_dir(f)
        .args(&[
            "--sets",
            "tok-sets",
            "--hyp",
            "m3/hyp.en",
            "--metrics",
            "bleu",
        ])
        .ok();
    let e = stderr(&o);
    assert!(
        e.contains(&format!("ldd-sets: warning: tok/hyp.en: {warning}")),
        "{e}"
    );
    assert!(!e.contains("m3/hyp.en:"), "{e}");
}

/// `make demo` shows what it did: the set sizes, each system's scores, where the report is.
#[test]
fn the_demo_prints_set_sizes_scores_and_the_report() {
    let t = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ldd-sets"));
    let o = Command::new("make")
        .current_dir(root())
        .args(["--no-print-directory", "-s", "demo-run"])
        .arg(format!("BIN={}", bin.display()))
        .arg(format!("DEMO_OUT={}", t.path().join("demo").display()))
        .env_remove("MAKEFLAGS")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let sizes = out
        .find("sentences with a pair at distance >= d:")
        .expect(&out);
    let scores = out.find("\nsystem ").expect(&out);
    let report = out.find("report written to ").expect(&out);
    assert!(sizes < scores && scores < report, "{out}");
    let j = json(&t.path().join("demo/scores.json"));
    for (sys, key, v) in corpus_scores(&j) {
        let line = out[scores + 1..]
            .lines()
            .nth(1 + usize::from(sys == "ref-swap"))
            .unwrap();
        assert!(line.starts_with(&sys), "{line}");
        assert!(line.contains(&format!("{v:.2}")), "{key}: {line}");
    }
    for l in out[scores..report].lines() {
        assert!(l.chars().count() <= 100, "{l}");
    }
}

/// When no trend has a correlation (the first 40 lines of the demo, the reference as the
/// system: the same score at every distance) one line says so, not a table of `-`.
#[test]
fn no_trend_is_one_line_not_a_table_of_dashes() {
    let t = tempfile::tempdir().unwrap();
    let demo = root().join("demo");
    let head = |from: &str, to: &str, n: usize| {
        let text = std::fs::read_to_string(demo.join(from)).unwrap();
        let kept: String = text.lines().take(n).map(|l| format!("{l}\n")).collect();
        std::fs::write(t.path().join(to), kept).unwrap();
    };
    head("pud.de-en.de", "small.de", 40);
    head("pud.de-en.en", "small.en", 40);
    let trees = std::fs::read_to_string(demo.join("de_pud-300.conllu")).unwrap();
    let blocks: Vec<&str> = trees.split("\n\n").take(40).collect();
    std::fs::write(t.path().join("small.conllu"), blocks.join("\n\n") + "\n\n").unwrap();
    Ldd::cmd("extract")
        .current_dir(t.path())
        .args(&["-q", "--offline", "--src-lang", "de", "--tgt-lang", "en"])
        .args(&[
            "--src",
            "small.de",
            "--tgt",
            "small.en",
            "--conllu",
            "small.conllu",
        ])
        .args(&["--out", "sets"])
        .ok();
    let o = Ldd::cmd("score")
        .current_dir(t.path())
        .args(&["--sets", "sets", "--hyp", "small.en", "--out", "scored"])
        .ok();
    let table = String::from_utf8(o.stdout).unwrap();
    assert!(
        table.contains(
            "Distance trend over ge sets: none (7 with the same score at every distance)"
        ),
        "{table}"
    );
    assert!(!table.contains("Distance trend over ge sets\n"), "{table}");
    assert!(!table.contains("spearman"), "{table}");
}

//! Fifth round, first class: every file a user names for output goes through the one guard
//! (`ldd_io::Output`), and a file updated in place has one writer at a time. Each case of
//! issue 65 on the release binary: a user's file of comment lines and a link at an output's
//! name are refused (exit 4) and left as they were; formats that cannot say who wrote them
//! (Pharaoh, CoNLL-U) are replaced only with `--replace`; `contrast` and `sheets` refuse to
//! replace their own output while it holds a user's file, naming it. Every option of every
//! command is enumerated from clap's definitions by the unit tests of `src/cli/guard.rs`.

use super::*;

/// A user's file of comment lines.
const NOTES: &str = "# my notes\n# keep these\n";

/// `dir/notes` (a user's file) and `dir/link` (a link to it).
fn notes_and_link(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, NOTES).unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&notes, &link).unwrap();
    (notes, link)
}

/// The user's file and the link are as they were.
fn untouched(notes: &Path, link: &Path) {
    assert_eq!(std::fs::read_to_string(notes).unwrap(), NOTES);
    let m = std::fs::symlink_metadata(link).unwrap();
    assert!(m.file_type().is_symlink());
    assert_eq!(std::fs::read_link(link).unwrap(), notes);
}

/// `check-detection` of PUD German lines `lines` with the small model, recording in `file`.
fn record(dir: &Path, lines: &str, file: &Path) -> Command {
    let mut c = bin();
    c.args(["check-detection", "-q", "--offline", "--lines", lines])
        .args(["--gold", s(&data("ud/de_pud-ud-test.conllu"))])
        .args(["--model", s(&german_small())])
        .args(["--cache", s(&dir.join("cache")), "--record", s(file)])
        .current_dir(dir)
        .stdout(Stdio::null());
    c
}

#[test]
fn record_never_rewrites_a_users_file_or_a_link_and_three_runs_at_once_keep_all_three() {
    let t = tempfile::tempdir().unwrap();
    let (notes, link) = notes_and_link(t.path());
    for f in [&notes, &link] {
        let o = record(t.path(), "1-20", f).output().unwrap();
        refused(
            &o,
            4,
            if f == &link {
                "symbolic link"
            } else {
                "was not written by"
            },
        );
        untouched(&notes, &link);
    }
    let shared = t.path().join("figures.toml");
    let children: Vec<_> = ["1-20", "2-21", "3-22"]
        .iter()
        .map(|l| record(t.path(), l, &shared).spawn().unwrap())
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let text = std::fs::read_to_string(&shared).unwrap();
    let mut lines: Vec<&str> = text.lines().filter(|l| l.starts_with("lines = ")).collect();
    lines.sort();
    assert_eq!(
        lines,
        ["lines = \"1-20\"", "lines = \"2-21\"", "lines = \"3-22\""]
    );
    // A fourth run updates the file it wrote (the same lines: its entry replaced).
    assert!(record(t.path(), "1-20", &shared)
        .status()
        .unwrap()
        .success());
    assert_eq!(
        std::fs::read_to_string(&shared)
            .unwrap()
            .matches("[[measured]]")
            .count(),
        3
    );
}

/// `align` of PUD's first 40 lines with `extra` arguments.
fn align(dir: &Path, extra: &[&str]) -> Output {
    let head = |side: &str| {
        let p = dir.join(format!("head.{side}"));
        if !p.exists() {
            let text =
                std::fs::read_to_string(data(&format!("parallel/pud.de-en.{side}"))).unwrap();
            let first: Vec<&str> = text.lines().take(40).collect();
            std::fs::write(&p, first.join("\n") + "\n").unwrap();
        }
        p
    };
    let (src, tgt) = (head("de"), head("en"));
    bin()
        .args([
            "align",
            "-q",
            "--align-iterations",
            "1",
            "--src",
            s(&src),
            "--tgt",
            s(&tgt),
        ])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn align_and_parse_never_replace_a_users_file_or_a_link_and_alignments_only_with_replace() {
    let t = tempfile::tempdir().unwrap();
    let (notes, link) = notes_and_link(t.path());
    let out = t.path().join("a.txt");
    for f in [&notes, &link] {
        refused(&align(t.path(), &["--out", s(f)]), 4, "");
        let o = align(
            t.path(),
            &["--out", s(&out), "--posteriors", s(f), "--replace"],
        );
        refused(&o, 4, "");
        refused(&align(t.path(), &["--out", s(f), "--replace"]), 4, "");
        untouched(&notes, &link);
        assert!(
            !out.exists(),
            "--out written although --posteriors was refused"
        );
    }
    // Pharaoh alignments cannot say who wrote them: an existing file only with --replace.
    assert!(align(t.path(), &["--out", s(&out)]).status.success());
    let first = std::fs::read(&out).unwrap();
    refused(&align(t.path(), &["--out", s(&out)]), 4, "pass --replace");
    assert!(align(t.path(), &["--out", s(&out), "--replace"])
        .status
        .success());
    assert_eq!(std::fs::read(&out).unwrap(), first);
    let cache = t.path().join("cache");
    let parse = |o: &Path, extra: &[&str]| {
        bin()
            .args([
                "parse",
                "-q",
                "--offline",
                "--src",
                s(&t.path().join("head.de")),
            ])
            .args([
                "--model",
                s(&german_small()),
                "--cache",
                s(&cache),
                "--out",
                s(o),
            ])
            .args(extra)
            .output()
            .unwrap()
    };
    for f in [&notes, &link] {
        refused(&parse(f, &[]), 4, "");
        refused(&parse(f, &["--replace"]), 4, "");
        untouched(&notes, &link);
    }
    let conllu = t.path().join("p.conllu");
    assert!(parse(&conllu, &[]).status.success());
    refused(&parse(&conllu, &[]), 4, "pass --replace");
    assert!(parse(&conllu, &["--replace"]).status.success());
}

#[test]
fn a_saved_aligner_model_never_replaces_a_users_file_or_a_link() {
    let t = tempfile::tempdir().unwrap();
    let (notes, link) = notes_and_link(t.path());
    std::fs::copy(&notes, t.path().join("my.hmm.ldda")).unwrap();
    std::os::unix::fs::symlink(&notes, t.path().join("ln.hmm.ldda")).unwrap();
    for prefix in ["my", "ln"] {
        let p = t.path().join(prefix);
        let o = align(t.path(), &["--save-align-model", s(&p)]);
        refused(&o, 4, "");
        let sets = t.path().join(format!("sets-{prefix}"));
        let o = run_args(&pud_args(
            &sets,
            &["-q", "--controls", "0", "--save-align-model", s(&p)],
        ));
        refused(&o, 4, "");
        assert!(
            !sets.exists(),
            "extract worked before refusing its model's name"
        );
        untouched(&notes, &link);
        assert_eq!(
            std::fs::read_to_string(t.path().join("my.hmm.ldda")).unwrap(),
            NOTES
        );
    }
    // Its own model, saved before, is replaced.
    let own = t.path().join("own");
    assert!(align(t.path(), &["--save-align-model", s(&own)])
        .status
        .success());
    assert!(align(t.path(), &["--save-align-model", s(&own)])
        .status
        .success());
}

#[test]
fn report_and_the_sheets_key_never_replace_a_users_file_or_a_link() {
    let t = tempfile::tempdir().unwrap();
    let (notes, link) = notes_and_link(t.path());
    let sets = quick_sets(t.path());
    for f in [&notes, &link] {
        let o = bin()
            .args(["report", "-q", "--sets", s(&sets), "--out", s(f)])
            .output()
            .unwrap();
        refused(&o, 4, "");
        untouched(&notes, &link);
    }
}

#[test]
fn contrast_and_sheets_refuse_to_replace_their_output_holding_a_users_file_and_name_it() {
    let t = tempfile::tempdir().unwrap();
    let sets = judged_sets(t.path(), None, &[]);
    let [a, b] = two_systems(t.path());
    let sheets = t.path().join("sheets");
    let key = t.path().join("key.csv");
    let sheet = |extra: &[&str]| {
        sheets_cmd(
            &sets,
            &[&a, &b],
            &sheets,
            &[&["--key", s(&key)], extra].concat(),
        )
    };
    assert!(sheet(&[]).status.success());
    std::fs::write(sheets.join("annotator-1.csv"), "my answers").unwrap();
    refused(&sheet(&[]), 4, "annotator-1.csv");
    assert_eq!(
        std::fs::read_to_string(sheets.join("annotator-1.csv")).unwrap(),
        "my answers"
    );
    std::fs::remove_file(sheets.join("annotator-1.csv")).unwrap();
    assert!(
        sheet(&[]).status.success(),
        "its own output alone is replaced"
    );
    let contrast = t.path().join("contrast");
    let run = || {
        bin()
            .args(["contrast", "-q", "--sets", s(&sets), "--out", s(&contrast)])
            .output()
            .unwrap()
    };
    let o = run();
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(contrast.join("scores-of-my-system.txt"), "0.5").unwrap();
    refused(&run(), 4, "scores-of-my-system.txt");
    assert!(contrast.join("scores-of-my-system.txt").exists());
    std::fs::remove_file(contrast.join("scores-of-my-system.txt")).unwrap();
    assert!(run().status.success(), "its own output alone is replaced");
}

/// Three `score` runs at once into the same sets, each adding a system beside the same
/// baseline: the scores are read, merged and written back under the directory's lock, so
/// none is lost (without it, the last to write drops what the others added).
#[test]
fn three_scores_at_once_into_the_same_sets_keep_every_system() {
    let t = tempfile::tempdir().unwrap();
    let sets = quick_sets(t.path());
    let [a, b] = two_systems(t.path());
    let c = t.path().join("sysc.en");
    let lower = std::fs::read_to_string(&a).unwrap().to_lowercase();
    std::fs::write(&c, lower).unwrap();
    let base = format!("sysa={}", s(&a));
    let runs = [
        vec![base.clone()],
        vec![base.clone(), format!("sysb={}", s(&b))],
        vec![base.clone(), format!("sysc={}", s(&c))],
    ];
    let children: Vec<_> = runs
        .iter()
        .map(|hyps| {
            let mut cmd = bin();
            cmd.args([
                "score",
                "-q",
                "--sets",
                s(&sets),
                "-m",
                "chrf",
                "--paired-bs-n",
                "10",
            ]);
            for h in hyps {
                cmd.args(["--hyp", h]);
            }
            cmd.stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let scores: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sets.join("scores.json")).unwrap()).unwrap();
    let mut names: Vec<&str> = scores["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["sysa", "sysb", "sysc"]);
}

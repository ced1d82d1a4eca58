//! Class: the commands ldd-sets prints for a person to paste — the "next:" lines after
//! `extract`, the note that a report shows earlier scores, the advice when `score` refuses
//! to merge, the directory to give instead of a `run` output — hold their paths quoted by
//! one function (`ldd_io::shell`). Pasted into `sh`, each gives back the same path, runs no
//! payload, and a path that starts with `-` is not taken for an option (the advice names
//! the file after `sys=`, so it cannot be). Every hint pasted into more shells, with more
//! hostile names: tests/hostile/paste_back.rs.

use std::path::PathBuf;

use super::*;

/// Directory names a careless or hostile user may have: command substitution, backticks,
/// quotes and spaces, a line feed, a terminal control sequence, a leading dash.
const NAMES: [&str; 5] = [
    "o $(touch PWNED1)",
    "b`touch PWNED2`;x",
    "q'u\"o te",
    "nl\nline",
    "-o esc\u{1b}[2J",
];

/// What `sh` makes of `words` (shell words as printed), run in `dir`.
fn sh_words(dir: &Path, words: &str) -> Vec<String> {
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s\\0' {words}"))
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{words}: {}", stderr(&o));
    let mut v: Vec<String> = String::from_utf8(o.stdout)
        .unwrap()
        .split('\0')
        .map(String::from)
        .collect();
    v.pop();
    v
}

/// Runs `line`, a printed command, with `sh` in `dir` and ldd-sets on the PATH.
fn sh_run(dir: &Path, line: &str) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_ldd-sets")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    Command::new("sh")
        .arg("-c")
        .arg(line)
        .env("PATH", path)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The text from `marker` (excluded) to the end of `text`, without the final line break:
/// a command printed last, which may span lines when a path holds a line feed.
fn after<'a>(text: &'a str, marker: &str) -> &'a str {
    let at = text
        .rfind(marker)
        .unwrap_or_else(|| panic!("no `{marker}` in {text:?}"));
    text[at + marker.len()..].trim_end_matches('\n')
}

#[test]
fn next_lines_and_report_notes_paste_back_to_the_same_sets() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let hyp = t.join("hyp.en");
    std::fs::copy(data("parallel/pud.de-en.en"), &hyp).unwrap();
    for name in NAMES {
        // Relative to the directory the commands run in, as a user types it.
        let mut args = pud_command("extract", "de", &["--no-reorder", "--controls", "0"]);
        // `--out=-o …`: a value that starts with `-` is given glued to its option.
        args.push(format!("--out={name}"));
        let o = bin().args(&args).current_dir(t).output().unwrap();
        assert!(o.status.success(), "{name:?}: {}", stderr(&o));
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(!out.contains('\u{1b}'), "a raw control character: {out:?}");
        // The next: line that shows the report, pasted: it reports these sets.
        let report = format!(
            "ldd-sets report --sets {}",
            after(&out, "ldd-sets report --sets ")
        );
        let o = sh_run(t, &report);
        assert!(o.status.success(), "{report}: {}", stderr(&o));
        assert!(t.join(name).join("report.html").is_file(), "{report}");
        no_payload(t);
        // The note after scoring: the report shows the earlier scores; its command pasted.
        let score = |quiet: bool| {
            let mut c = bin();
            c.args(["score", &format!("--sets={name}"), "--hyp", s(&hyp)])
                .current_dir(t);
            if quiet {
                c.arg("-q");
            }
            c.output().unwrap()
        };
        assert!(score(true).status.success());
        let o = score(false);
        let e = stderr(&o);
        assert!(!e.contains('\u{1b}'), "a raw control character: {e:?}");
        let update = format!(
            "ldd-sets report --sets {}",
            after(&e, "update it: ldd-sets report --sets ")
        );
        let before = std::fs::read(t.join(name).join("report.html")).unwrap();
        let o = sh_run(t, &update);
        assert!(o.status.success(), "{update}: {}", stderr(&o));
        let after_ = std::fs::read(t.join(name).join("report.html")).unwrap();
        assert_ne!(
            before, after_,
            "{update}: the report did not take the scores"
        );
        no_payload(t);
    }
}

#[test]
fn advice_and_refusals_quote_the_paths_they_name() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = quick_sets(t);
    // The baseline's path in the advice when score refuses to merge.
    std::fs::copy(data("parallel/pud.de-en.en"), t.join("hyp-other.en")).unwrap();
    for (dir, file) in [
        ("d $(touch PWNED3)", "sys.en"),
        (".", "-h `touch PWNED4`.en"),
    ] {
        std::fs::create_dir_all(t.join(dir)).unwrap();
        let rel: PathBuf = Path::new(dir).join(file);
        let rel = rel.strip_prefix(".").unwrap_or(&rel).to_path_buf();
        std::fs::copy(data("parallel/pud.de-en.en"), t.join(&rel)).unwrap();
        // `--hyp=sys=-h …`: a value that starts with `-` is given glued to its option; the
        // system is named, as a name from such a file name is refused (tests/hostile/names.rs).
        let o = bin()
            .args(["score", "-q", "--replace", "--sets", s(&sets)])
            .arg(format!("--hyp=sys={}", rel.display()))
            .current_dir(t)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        // Another system at another confidence level: not merged, and the advice names
        // the baseline to score first.
        let o = bin()
            .args([
                "score",
                "-q",
                "--sets",
                s(&sets),
                "--confidence",
                "0.9",
                "--hyp",
            ])
            .arg(t.join("hyp-other.en"))
            .current_dir(t)
            .output()
            .unwrap();
        assert_eq!(code(&o), 4, "{}", stderr(&o));
        let e = stderr(&o);
        let marker = "paired tests: --hyp ";
        let word = &e[e.find(marker).unwrap() + marker.len()..e.find(" ...)").unwrap()];
        let back = sh_words(t, word);
        assert_eq!(back.len(), 1, "{word}");
        // `sys=FILE`: the advice keeps the name (tests/hostile/paste_back.rs pastes it
        // into more shells and into the binary).
        let file = back[0]
            .strip_prefix("sys=")
            .unwrap_or_else(|| panic!("{word}: the name `sys=` dropped"));
        assert_eq!(Path::new(file), rel.as_path(), "{word}");
        no_payload(t);
    }
    // The corpus directory to give instead of a `run` output.
    let run = t.join("run");
    for corpus in ["c $(touch PWNED5)", "-c x"] {
        std::fs::create_dir_all(run.join(corpus)).unwrap();
        std::fs::copy(
            sets.join("manifest.json"),
            run.join(corpus).join("manifest.json"),
        )
        .unwrap();
        let o = bin()
            .args(["report", "-q", "--sets", "run"])
            .current_dir(t)
            .output()
            .unwrap();
        assert_ne!(code(&o), 0);
        let e = stderr(&o);
        let word = &e[e.rfind("(--sets ").unwrap() + 8..e.trim_end().len() - 1];
        let back = sh_words(t, word);
        assert_eq!(back.len(), 1, "{word}");
        assert_eq!(back, [format!("run/{corpus}")], "{word}");
        no_payload(t);
        std::fs::remove_dir_all(run.join(corpus)).unwrap();
    }
}

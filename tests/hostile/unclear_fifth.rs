//! The fifth campaign's unclear cases outside MQM (those are in `mqm_keys`): a value that
//! is not UTF-8 names its option, whatever the option and the command (enumerated from
//! each command's `--help`, so that a new option cannot escape); `check-detection` with an
//! empty gold file is refused naming it, not measured over "sentences 0-0 (1)".

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use super::*;

/// The commands `ldd-sets --help` lists.
fn commands() -> Vec<String> {
    let o = bin().arg("--help").output().unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

/// The long options of `command` that take a value (`--name <NAME>`), from its `--help`.
fn value_options(command: &str) -> Vec<String> {
    let o = bin().args([command, "--help"]).output().unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim_start();
        // `-w, --width <N>`: the long form.
        let l = match l.starts_with('-') && !l.starts_with("--") {
            true => l.split_once(", ").map_or(l, |x| x.1),
            false => l,
        };
        if let Some((flag, rest)) = l.split_once(' ') {
            if flag.starts_with("--") && rest.trim_start().starts_with('<') {
                out.push(flag.to_string());
            }
        }
    }
    out
}

/// Every option of every command that takes a value, given bytes that are not UTF-8: the
/// message names the option (clap's own, "invalid UTF-8 was detected in one or more
/// arguments", names none) — spaced (`--name VALUE`) and joined (`--name=VALUE`).
#[test]
fn a_value_that_is_not_utf8_names_its_option_for_every_option() {
    let tmp = tempfile::tempdir().unwrap();
    let mut tried = 0;
    for command in commands() {
        for flag in value_options(&command) {
            let joined = [flag.as_bytes(), b"=x\xffy"].concat();
            for args in [
                vec![
                    OsStr::new(&command),
                    OsStr::new(&flag),
                    OsStr::from_bytes(b"x\xffy"),
                ],
                vec![OsStr::new(&command), OsStr::from_bytes(&joined)],
            ] {
                let o = bin().args(&args).current_dir(tmp.path()).output().unwrap();
                let e = stderr(&o);
                assert!(!o.status.success(), "{command} {flag}: {e}");
                assert!(
                    !e.contains("invalid UTF-8 was detected"),
                    "{command} {flag}: {e}"
                );
                if e.contains("not UTF-8") {
                    assert!(
                        e.contains(&format!("{flag} x\u{fffd}y: not UTF-8 text")),
                        "{command} {flag}: {e}"
                    );
                }
                tried += 1;
            }
        }
    }
    assert!(tried > 200, "{tried} cases");
    // `score --name` and `--seg-scores` (the cases the campaign found), whole.
    let sets = quick_sets(tmp.path());
    let hyp = data("parallel/pud.de-en.en");
    for (flag, value) in [
        ("--name", &b"sys\xff"[..]),
        ("--seg-scores", &b"m=a\xff.txt"[..]),
    ] {
        let o = bin()
            .args(["score", "--sets", s(&sets), "--hyp", s(&hyp), flag])
            .arg(OsStr::from_bytes(value))
            .output()
            .unwrap();
        let shown = String::from_utf8_lossy(value);
        refused(
            &o,
            2,
            &format!("ldd-sets: error: {flag} {shown}: not UTF-8 text"),
        );
        assert!(!sets.join("scores.json").exists());
    }
}

/// `check-detection --parsed` with an empty gold file (empty, or empty lines only): refused
/// naming the gold file (exit 3), nothing printed on stdout — not
/// figures of "sentences 0-0 (1)".
#[test]
fn check_detection_refuses_an_empty_gold_file() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let pud = data("ud/de_pud-ud-test.conllu");
    for (name, text) in [("empty.conllu", ""), ("blank.conllu", "\n\n")] {
        let gold = t.join(name);
        std::fs::write(&gold, text).unwrap();
        for parsed in [&gold, &pud] {
            let o = bin()
                .args(["check-detection", "--lang", "de", "--gold", s(&gold)])
                .args(["--parsed", s(parsed)])
                .output()
                .unwrap();
            refused(
                &o,
                3,
                &format!("{}:1: no sentence: not a CoNLL-U treebank", gold.display()),
            );
            assert!(
                o.stdout.is_empty(),
                "{}",
                String::from_utf8_lossy(&o.stdout)
            );
            assert!(!stderr(&o).contains("0-0"), "{}", stderr(&o));
        }
    }
}

//! `check-detection` given what it cannot measure: a parse with fewer trees than the gold
//! file has sentences or with trees of other sentences, lines outside the file, a gold file that is not CoNLL-U, a file name
//! that does not say its language, and `--record` onto a file that is not a figures file or
//! onto its own input. Each is refused with the file named and a documented exit code, and
//! nothing is written.

use std::path::Path;

use super::code;
use crate::common::Ldd;

const TREE: &str = "# text = Er kommt an .\n1\tEr\ter\tPRON\tPPER\t_\t2\tnsubj\t_\t_\n\
2\tkommt\tkommen\tVERB\tVVFIN\t_\t0\troot\t_\t_\n3\tan\tan\tADP\tPTKVZ\t_\t2\tcompound:prt\t_\t_\n\
4\t.\t.\tPUNCT\t$.\t_\t2\tpunct\t_\t_\n\n";

/// `check-detection --gold GOLD --parsed PARSED --lang de` and `extra`.
fn check(gold: &Path, parsed: &Path, extra: &[&str]) -> std::process::Output {
    Ldd::cmd("check-detection")
        .path("--gold", gold)
        .path("--parsed", parsed)
        .args(&["--lang", "de"])
        .args(extra)
        .run()
}

#[test]
fn check_detection_refuses_what_it_cannot_measure() {
    let dir = tempfile::tempdir().unwrap();
    let gold = dir.path().join("gold.conllu");
    let short = dir.path().join("short.conllu");
    std::fs::write(&gold, TREE.repeat(3)).unwrap();
    std::fs::write(&short, TREE.repeat(2)).unwrap();
    let o = check(&gold, &short, &[]);
    let err = crate::common::stderr(&o);
    assert_eq!(code(&o), 3, "{err}");
    assert!(
        err.contains("short.conllu") && err.contains("fewer trees"),
        "{err}"
    );
    let o = check(&short, &gold, &[]);
    assert_eq!(code(&o), 3, "{}", crate::common::stderr(&o));
    assert!(crate::common::stderr(&o).contains("more trees"));

    let other = dir.path().join("other.conllu");
    std::fs::write(
        &other,
        TREE.replace("Er kommt", "Sie kommt")
            .replace("\tEr\ter", "\tSie\tsie")
            .repeat(3),
    )
    .unwrap();
    let o = check(&gold, &other, &[]);
    let err = crate::common::stderr(&o);
    assert_eq!(code(&o), 3, "{err}");
    assert!(
        err.contains("other.conllu:1") && err.contains("not of gold sentence 1"),
        "{err}"
    );

    let o = check(&gold, &gold, &["--lines", "2-4"]);
    assert_eq!(code(&o), 4);
    assert!(crate::common::stderr(&o).contains("has 3 sentences"));
    let o = check(&gold, &gold, &["--lines", "3-2"]);
    assert_eq!(code(&o), 4);

    let text = dir.path().join("text.conllu");
    std::fs::write(&text, "Er kommt an .\n").unwrap();
    let o = check(&text, &gold, &[]);
    let err = crate::common::stderr(&o);
    assert_eq!(code(&o), 3, "{err}");
    assert!(err.contains("text.conllu"), "{err}");

    let o = Ldd::cmd("check-detection")
        .path("--gold", &gold)
        .path("--parsed", &gold)
        .run();
    assert_eq!(code(&o), 4);
    assert!(crate::common::stderr(&o).contains("--lang"));
}

#[test]
fn check_detection_records_only_into_a_figures_file() {
    let dir = tempfile::tempdir().unwrap();
    let gold = dir.path().join("de_tiny-ud-test.conllu");
    std::fs::write(&gold, TREE.repeat(2)).unwrap();
    let model = crate::common::shared().join("models/german-small.udpipe");
    let notes = dir.path().join("notes.toml");
    std::fs::write(&notes, "title = \"my notes\"\n").unwrap();
    let record = |file: &Path| {
        Ldd::cmd("check-detection")
            .path("--gold", &gold)
            .path("--model", &model)
            .path("--cache", &dir.path().join("cache"))
            .path("--record", file)
            .args(&["-q"])
            .run()
    };
    let o = record(&notes);
    assert_eq!(code(&o), 4, "{}", crate::common::stderr(&o));
    assert!(crate::common::stderr(&o).contains("notes.toml"));
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "title = \"my notes\"\n"
    );
    let o = record(&gold);
    assert_ne!(code(&o), 0);
    assert_eq!(std::fs::read_to_string(&gold).unwrap(), TREE.repeat(2));
}

/// Interrupted while it parses, `check-detection` removes the temporary text of the gold
/// file from the cache and records nothing (the parse cache keeps its finished chunks, to
/// resume, as for `parse`).
#[test]
fn check_detection_interrupted_leaves_no_text_and_no_record() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let figures = dir.path().join("figures.toml");
    let child = Ldd::cmd("check-detection")
        .path("--gold", &crate::common::data("ud/de_pud-ud-test.conllu"))
        .path(
            "--model",
            &crate::common::shared().join("models/german-small.udpipe"),
        )
        .path("--cache", &cache)
        .path("--record", &figures)
        .args(&["-q", "--threads", "1"])
        .command()
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let texts = || -> Vec<String> {
        std::fs::read_dir(&cache)
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|n| n.contains("gold-text"))
                    .collect()
            })
            .unwrap_or_default()
    };
    let t = std::time::Instant::now();
    while texts().is_empty() && t.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(
        texts().len(),
        1,
        "the text of the gold file, while it is parsed"
    );
    std::thread::sleep(std::time::Duration::from_millis(500));
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", crate::common::stderr(&o));
    assert!(texts().is_empty(), "{:?}", texts());
    assert!(!figures.exists());
}

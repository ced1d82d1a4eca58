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

//! Issue 53, item 7: system names. A name reaches file names (`<bucket>.hyp.NAME`), CSV
//! files people open in spreadsheets, shell commands the tool prints and the report; one
//! check of system names ([`ldd_sets::score::check_name`]) guards every way a name enters:
//! derived from a file name, given as `--hyp NAME=FILE` or `--name`, by `score`, `slice`,
//! `sheets`, `report` and `score --contrastive`, and read back from a `scores.json`. The
//! one CSV writer makes every cell safe for spreadsheets whatever passes it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::common::{stderr, Ldd};
use super::{code, s};

/// Names a spreadsheet runs, a shell expands, a file system hides or takes for a path.
const HOSTILE: [&str; 8] = [
    "=HYPERLINK(\"x\";\"y\")",
    "@SUM(A1)",
    "+cmd",
    "-cmd",
    "sys $(id)",
    ".hidden",
    "a..b",
    "tab\there",
];

/// The demo's sets, extracted once for the tests of this module (its corpus of 300 lines).
fn demo_sets() -> PathBuf {
    static SETS: OnceLock<tempfile::TempDir> = OnceLock::new();
    SETS.get_or_init(|| {
        let t = tempfile::tempdir().unwrap();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("demo");
        Ldd::cmd("extract")
            .args(&["-q", "--offline", "--src-lang", "de", "--tgt-lang", "en"])
            .path("--src", &root.join("pud.de-en.de"))
            .path("--tgt", &root.join("pud.de-en.en"))
            .path("--conllu", &root.join("de_pud-300.conllu"))
            .args(&["--controls", "2"])
            .out(&t.path().join("sets"))
            .ok();
        t
    })
    .path()
    .join("sets")
}

/// A copy of a demo system's output at `dir/name`.
fn system(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/systems/ref-drop3.en");
    std::fs::copy(from, &p).unwrap();
    p
}

/// Refused with the configuration exit code, the message naming the option and saying
/// what a name may hold, nothing written.
fn refused(o: &std::process::Output, what: &str, out: &Path) {
    assert_eq!(code(o), 4, "{what}: {}", stderr(o));
    let e = stderr(o);
    assert!(e.contains("not a valid name"), "{what}: {e}");
    assert!(e.contains("letters, digits"), "{what}: {e}");
    assert!(
        !out.join("scores.csv").exists(),
        "{what}: scores.csv written"
    );
}

#[test]
fn hostile_system_names_are_refused_wherever_they_enter() {
    let t = tempfile::tempdir().unwrap();
    let sets = &demo_sets();
    let out = t.path().join("scores");
    for bad in HOSTILE {
        // Derived from the file name (`<name>.en`).
        let derived = system(t.path(), &format!("{bad}.en"));
        let o = Ldd::cmd("score")
            .path("--sets", sets)
            .path("--hyp", &derived)
            .path("--out", &out)
            .run();
        refused(&o, &format!("--hyp {bad}.en"), &out);
        let plain = system(t.path(), "plain.en");
        // Given as NAME=FILE (when NAME has a name's characters, else a file: not found or
        // refused by its derived name), and by --name.
        let o = Ldd::cmd("score")
            .path("--sets", sets)
            .args(&["--hyp", &format!("{bad}={}", s(&plain))])
            .path("--out", &out)
            .run();
        assert_ne!(code(&o), 0, "--hyp {bad}=FILE: {}", stderr(&o));
        assert!(!out.join("scores.csv").exists());
        let o = Ldd::cmd("score")
            .path("--sets", sets)
            .path("--hyp", &plain)
            .args(&[&format!("--name={bad}")])
            .path("--out", &out)
            .run();
        refused(&o, &format!("score --name {bad}"), &out);
        // The other commands that take systems.
        let o = Ldd::cmd("sheets")
            .path("--sets", sets)
            .path("--hyp", &derived)
            .path("--out", &t.path().join("sheets"))
            .run();
        refused(&o, &format!("sheets --hyp {bad}.en"), &out);
        assert!(!t.path().join("sheets").exists());
        let o = Ldd::cmd("slice")
            .path("--sets", sets)
            .path("--hyp", &plain)
            .args(&[&format!("--name={bad}")])
            .run();
        refused(&o, &format!("slice --name {bad}"), &out);
        let o = Ldd::cmd("report")
            .path("--sets", sets)
            .path("--hyp", &derived)
            .path("--out", &t.path().join("r.html"))
            .run();
        refused(&o, &format!("report --hyp {bad}.en"), &out);
    }
    // A name of a system's characters before `=` is a name; anything else makes the whole
    // argument a file, which says what to do when it does not exist.
    let o = Ldd::cmd("score")
        .path("--sets", sets)
        .args(&["--hyp", "a=b=c.en"])
        .path("--out", &out)
        .run();
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("b=c.en"), "{}", stderr(&o));
}

/// A `scores.json` edited to hold a hostile name is refused where it is read back: by a
/// `score` that would merge it (and so write the name into `scores.csv`) and by `report`.
#[test]
fn hostile_names_in_a_scores_file_are_refused_when_read() {
    let t = tempfile::tempdir().unwrap();
    let sets = &demo_sets();
    let out = t.path().join("scores");
    let a = system(t.path(), "a.en");
    let b = system(t.path(), "b.en");
    Ldd::cmd("score")
        .path("--sets", sets)
        .path("--hyp", &a)
        .path("--hyp", &b)
        .args(&["-q", "--metrics", "bleu"])
        .path("--out", &out)
        .ok();
    let json = std::fs::read_to_string(out.join("scores.json")).unwrap();
    let csv = std::fs::read(out.join("scores.csv")).unwrap();
    for bad in HOSTILE {
        let quoted = serde_json::to_string(bad).unwrap();
        let edited = json.replace("\"b\"", &quoted);
        assert_ne!(edited, json);
        std::fs::write(out.join("scores.json"), &edited).unwrap();
        // Adding chrF for `a` alone would keep `b` beside it.
        let o = Ldd::cmd("score")
            .path("--sets", sets)
            .path("--hyp", &a)
            .args(&["-q", "--metrics", "chrf"])
            .path("--out", &out)
            .run();
        assert_eq!(code(&o), 3, "merging {bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("not a valid name"), "{}", stderr(&o));
        assert_eq!(std::fs::read(out.join("scores.csv")).unwrap(), csv, "{bad}");
        let o = Ldd::cmd("report")
            .path("--sets", sets)
            .path("--scores", &out.join("scores.json"))
            .path("--out", &t.path().join("r.html"))
            .run();
        assert_eq!(code(&o), 3, "report of {bad}: {}", stderr(&o));
        assert!(!t.path().join("r.html").exists());
    }
}

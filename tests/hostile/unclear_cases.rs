//! The fourth campaign's unclear cases: a path that is not UTF-8 is refused before any
//! work, naming its option; `score --out` names a file or another directory; contrast items
//! edited after `contrast` wrote them.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use super::*;

#[test]
fn a_path_that_is_not_utf8_is_refused_before_any_work_naming_its_option() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let bad = |name: &[u8]| t.join(OsStr::from_bytes(name));
    let src = bad(b"src\xff.de");
    std::fs::copy(data("parallel/pud.de-en.de"), &src).unwrap();
    let sets = quick_sets(t);
    let hyp = bad(b"hyp\xfe.en");
    std::fs::copy(data("parallel/pud.de-en.en"), &hyp).unwrap();
    let out = t.join("out");
    // extract's corpus side and parse, score's output and reference, tally's files.
    let extract = |flag: &str, p: &Path| {
        let mut c = bin();
        let args = pud_args(&out, &["-q"]);
        let i = args.iter().position(|a| a == flag).unwrap();
        c.args(&args[..=i]).arg(p).args(&args[i + 2..]);
        c.output().unwrap()
    };
    let score = |flag: &str, p: &Path| {
        let mut c = bin();
        c.args(["score", "-q", "--sets", s(&sets), "--hyp"]);
        if flag == "--hyp" {
            c.arg(p);
        } else {
            c.arg(data("parallel/pud.de-en.en")).arg(flag).arg(p);
        }
        c.output().unwrap()
    };
    let cases = [
        ("--src", extract("--src", &src)),
        ("--conllu", extract("--conllu", &bad(b"t\xff.conllu"))),
        ("--hyp", score("--hyp", &hyp)),
        ("--ref", score("--ref", &hyp)),
        ("--out", score("--out", &bad(b"o\xff"))),
        (
            "SHEET",
            bin().arg("tally").arg(bad(b"a\xff.csv")).output().unwrap(),
        ),
    ];
    for (flag, o) in cases {
        assert_eq!(code(&o), 4, "{flag}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(&format!("error: {flag} ")), "{flag}: {e}");
        assert!(
            e.contains("not UTF-8 text") && e.contains('\u{fffd}'),
            "{flag}: {e}"
        );
        assert!(
            !e.contains("manifest") && !e.contains("scores.json"),
            "{flag}: {e}"
        );
    }
    // Refused before any work: nothing was written.
    assert!(!out.exists() && !t.join(OsStr::from_bytes(b"o\xff")).exists());
    assert!(!sets.join("scores.json").exists());
}

#[test]
fn score_out_a_file_or_elsewhere_says_what_it_is_and_what_to_type() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = quick_sets(t);
    let hyp = data("parallel/pud.de-en.en");
    // A file, or a link to one, as --out: a clear message, before any scoring.
    let file = t.join("scores-here.txt");
    std::fs::write(&file, "mine\n").unwrap();
    let link = t.join("link");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    for out in [&file, &link] {
        let o = bin()
            .args([
                "score",
                "-q",
                "--sets",
                s(&sets),
                "--hyp",
                s(&hyp),
                "--out",
                s(out),
            ])
            .output()
            .unwrap();
        assert_eq!(code(&o), 4, "{}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("is a file, not a directory") && e.contains("give a directory"),
            "{e}"
        );
        assert!(!e.contains("Not a directory"), "{e}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
    // Scored elsewhere while the sets have a report: the note does not call the sets'
    // report stale, and its command makes a report of these scores.
    let o = bin()
        .args(["report", "-q", "--sets", s(&sets)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read(sets.join("report.html")).unwrap();
    let elsewhere = t.join("elsewhere");
    let o = bin()
        .args([
            "score",
            "--sets",
            s(&sets),
            "--hyp",
            s(&hyp),
            "--out",
            s(&elsewhere),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(!e.contains("shows the earlier scores"), "{e}");
    assert!(e.contains("shows the sets' own scores, not these"), "{e}");
    let cmd = &e[e.find("a report of these: ").unwrap() + 19..].trim_end();
    let words = shlex::split(cmd).unwrap();
    assert_eq!(&words[..2], ["ldd-sets", "report"], "{cmd}");
    let o = bin().args(&words[1..]).output().unwrap();
    assert!(o.status.success(), "{cmd}: {}", stderr(&o));
    let shown = std::fs::read_to_string(elsewhere.join("report.html")).unwrap();
    assert!(
        shown.contains("<section id=\"findings\"><h2>Findings</h2>\n<p>For every"),
        "{cmd}"
    );
    assert_eq!(std::fs::read(sets.join("report.html")).unwrap(), page);
    // Scored in the sets' directory: the note still says the report is stale.
    let o = bin()
        .args(["score", "--sets", s(&sets), "--hyp", s(&hyp)])
        .output()
        .unwrap();
    assert!(
        stderr(&o).contains("shows the earlier scores; update it"),
        "{}",
        stderr(&o)
    );
}

/// Edits of `items.jsonl` after `contrast` wrote it — a variant retyped, its text changed,
/// an item dropped, a blank line added — are refused by `score --contrast`: the file's
/// SHA-256 is not the one `contrast.json` records.
#[test]
fn edited_contrast_items_are_refused_by_their_checksum() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    // The aligner trained on PUD alone: loci with reference words enough, in a second.
    let sets = t.join("sets");
    extract_pud("de", &sets, &["-q", "--controls", "0"]);
    let con = t.join("con");
    let o = bin()
        .args(["contrast", "-q", "--sets", s(&sets), "--out", s(&con)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let items = std::fs::read_to_string(con.join("items.jsonl")).unwrap();
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(con.join("contrast.json")).unwrap()).unwrap();
    assert_eq!(rec["items_sha256"], ldd_io::sha256_bytes(items.as_bytes()));
    let n = std::fs::read_to_string(con.join("contrast.en"))
        .unwrap()
        .lines()
        .count();
    let lp = t.join("lp.txt");
    std::fs::write(&lp, "-1.5\n".repeat(n)).unwrap();
    let score = || {
        bin()
            .args(["score", "-q", "--sets", s(&sets), "--contrast", s(&con)])
            .args(["--contrastive", s(&lp), "--out", s(&t.join("sc"))])
            .output()
            .unwrap()
    };
    assert!(score().status.success(), "{}", stderr(&score()));
    let first_end = items.find('\n').unwrap() + 1;
    let edits = [
        items.replacen("\"type\":\"dropped\"", "\"type\":\"swapped\"", 1),
        items.replacen("\"text\":\"", "\"text\":\"not ", 1),
        items[first_end..].to_string(),
        items.clone() + "\n",
    ];
    for edited in edits {
        assert_ne!(edited, items);
        std::fs::write(con.join("items.jsonl"), &edited).unwrap();
        let o = score();
        assert_eq!(code(&o), 3, "{}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("items.jsonl: changed since `ldd-sets contrast` wrote it"),
            "{e}"
        );
        assert!(e.contains("contrast.json records"), "{e}");
    }
}

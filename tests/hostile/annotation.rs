//! Class: the annotation workflow. Spreadsheet cells and marks cannot be forged, blinding
//! comes from a secret (not the seed), and `tally` and `sheets` refuse what would give
//! wrong numbers.

use super::*;

/// Every cell of a CSV (`,`) or TSV (`\t`) file.
fn cells(p: &Path, sep: u8) -> Vec<String> {
    let mut r = csv::ReaderBuilder::new()
        .delimiter(sep)
        .has_headers(false)
        .flexible(true)
        .quoting(sep == b',')
        .from_path(p)
        .unwrap();
    r.records()
        .flat_map(|rec| rec.unwrap().iter().map(String::from).collect::<Vec<_>>())
        .collect()
}

/// Whether a spreadsheet would take `cell` for a formula (OWASP): it starts with `=`, `+`,
/// `-`, `@`, a tab or a carriage return and is not a number.
fn formula(cell: &str) -> bool {
    cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && cell.parse::<f64>().is_err()
}

/// Cells that a spreadsheet would run as formulas (a reference starting with `=1+2`, an
/// output with `@SUM(A1)`) get a leading `'` in the sheets, the key, `aces.tsv` and
/// `scores.loci.tsv`; `tally` and `report` read them back without it. Corpus text that
/// looks like a mark (`[[x]]`, `{{y}}`, `<d1>z</d1>`) is escaped in the sheets and the
/// marked files and never becomes a mark in the report.
#[test]
fn spreadsheet_cells_and_marks_cannot_be_forged() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let reference = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let evil_ref = t.join("ref.en");
    write_lines(&evil_ref, &reference, |_, l| {
        format!("=1+2 [[x]] {{{{y}}}} <d1>z</d1> {l}")
    });
    let sets = judged_sets(t, Some(&evil_ref), &["--pretokenized"]);
    let sysa = t.join("sysa.en");
    write_lines(&sysa, &reference, |_, l| format!("@SUM(A1) {l}"));
    let sysb = t.join("sysb.en");
    write_lines(&sysb, &reference, |_, l| format!("-2+3 {l}"));
    let o = sheets_cmd(&sets, &[&sysa, &sysb], &t.join("sh"), &["--per-cell", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let con = t.join("con");
    let o = bin()
        .args(["contrast", "-q", "--sets", s(&sets), "--out", s(&con)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = bin()
        .args(["score", "-q", "--sets", s(&sets), "--metrics", "bleu,locus"])
        .args(["--hyp", s(&sysa), "--hyp", s(&sysb)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let files = [
        (t.join("sh/translation.csv"), b','),
        (t.join("sh/detection.csv"), b','),
        (t.join("sh.key.csv"), b','),
        (con.join("aces.tsv"), b'\t'),
        (sets.join("scores.loci.tsv"), b'\t'),
    ];
    for (f, sep) in &files {
        let all = cells(f, *sep);
        assert!(!all.is_empty(), "{}", f.display());
        if let Some(c) = all.iter().find(|c| formula(c)) {
            panic!("{}: a formula cell `{c}`", f.display());
        }
    }
    let tr = std::fs::read_to_string(t.join("sh/translation.csv")).unwrap();
    for quoted in ["'=1+2 ", "'@SUM(A1) ", "'-2+3 "] {
        assert!(tr.contains(quoted), "{quoted} not in the sheet");
    }
    let aces = std::fs::read_to_string(con.join("aces.tsv")).unwrap();
    assert!(aces.contains("\t'=1+2 "), "aces.tsv");
    // Marks: the corpus's look-alikes are escaped, the real marks are there.
    assert!(
        tr.contains("\\[\\[x\\]\\] \\{\\{y\\}\\} <d1>z</d1>"),
        "{tr}"
    );
    assert!(!tr.contains("[[x]]") && !tr.contains("{{y}}"));
    let marked: String = std::fs::read_dir(sets.join("reorder"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| s(p).ends_with(".marked.en"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(marked.contains("&lt;d1>z&lt;/d1>"));
    assert!(!marked.contains("<d1>z</d1>"));

    // tally: two annotators who say `no` to everything; the disagreements with locus
    // accuracy carry the texts as written, without the spreadsheet's `'`.
    let rows = std::fs::read_to_string(t.join("sh/translation.csv")).unwrap();
    let mut r = csv::Reader::from_reader(rows.as_bytes());
    let head = r.headers().unwrap().clone();
    let ans = head.iter().position(|h| h == "answer").unwrap();
    let com = head.iter().position(|h| h == "comment").unwrap();
    let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    for (who, comment) in [("ann.csv", "a"), ("bob.csv", "b")] {
        let mut w = csv::Writer::from_path(t.join(who)).unwrap();
        w.write_record(&head).unwrap();
        for rec in &recs {
            let mut v: Vec<String> = rec.iter().map(String::from).collect();
            v[ans] = "no".into();
            v[com] = comment.into();
            w.write_record(&v).unwrap();
        }
        w.flush().unwrap();
    }
    let o = bin()
        .args(["tally", "-q", s(&t.join("ann.csv")), s(&t.join("bob.csv"))])
        .args(["--key", s(&t.join("sh.key.csv")), "--out", s(&t.join("ty"))])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.join("ty/tally.json")).unwrap()).unwrap();
    let dis = j["automatic"]["disagreements"].as_array().unwrap();
    assert!(!dis.is_empty());
    for d in dis {
        let reference = d["reference"].as_str().unwrap();
        assert!(reference.starts_with("=1+2 \\[\\[x"), "{reference}");
    }
    for c in cells(&t.join("ty/tally.csv"), b',') {
        assert!(!formula(&c), "tally.csv: {c}");
    }
    // report: the loci's texts without the `'`, the look-alikes as text.
    let o = bin()
        .args([
            "report",
            "--sets",
            s(&sets),
            "--tally",
            s(&t.join("ty/tally.json")),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
    assert!(page.contains(">=1+2 [[x]] {{y}} &lt;d1&gt;z&lt;/d1&gt; "));
    assert!(page.contains("@SUM(A1)") && !page.contains("&#39;@SUM(A1)"));
    assert!(!page.contains(">z<sub>") && !page.contains(">x<sub>"));
    assert!(!page.contains(">y<sub>"));
}

/// The slot order of the translation sheet is drawn from the systems' whole outputs, not
/// from what `sheets.json` and the rows give (seed, line): one output line that no sheet
/// shows changes the order, and the run's id; the same inputs give the same files.
#[test]
fn blinding_comes_from_a_secret_not_from_the_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("one"), &["--per-cell", "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown: std::collections::BTreeSet<String> = cells(&t.join("one/translation.csv"), b',')
        .into_iter()
        .collect();
    // sysb with a line no row shows changed.
    let text = std::fs::read_to_string(&b).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let k = (0..lines.len())
        .rev()
        .find(|&k| !shown.iter().any(|c| c.contains(lines[k])))
        .unwrap();
    let b2 = t.join("sysb.en.2");
    write_lines(&b2, &text, |i, l| {
        if i == k {
            format!("{l} !")
        } else {
            l.to_string()
        }
    });
    std::fs::rename(&b2, &b).unwrap();
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("two"), &["--per-cell", "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let slots = |dir: &str| -> Vec<String> {
        let key = std::fs::read_to_string(t.join(format!("{dir}.key.csv"))).unwrap();
        key.lines()
            .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
            .collect()
    };
    let (one, two) = (slots("one"), slots("two"));
    assert_eq!(one.len(), two.len());
    assert_ne!(one, two, "the order did not depend on the outputs");
    let visible = |dir: &str, f: &str| {
        std::fs::read_to_string(t.join(dir).join(f))
            .unwrap()
            .replace(char::is_alphanumeric, "")
    };
    assert_eq!(
        visible("one", "detection.csv"),
        visible("two", "detection.csv")
    );
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.join("one/sheets.json")).unwrap()).unwrap();
    let run = record["run"].as_str().unwrap();
    assert_eq!(run.len(), 16);
    assert!(!std::fs::read_to_string(t.join("two/sheets.json"))
        .unwrap()
        .contains(run));
    // The same inputs: the same files.
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("three"), &["--per-cell", "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in [
        "translation.csv",
        "detection.csv",
        "form.html",
        "sheets.json",
    ] {
        assert_eq!(
            std::fs::read(t.join("two").join(f)).unwrap(),
            std::fs::read(t.join("three").join(f)).unwrap()
        );
    }
    assert_eq!(slots("two"), slots("three"));
}

/// `tally` refuses what would give wrong numbers with exit 0: sheets of two `sheets` runs,
/// a key of another run, one sheet given twice or copied, a key with a row twice or a
/// phantom system or an automatic judgement locus accuracy never gives, unfilled sheets;
/// `sheets` refuses a distance asked twice or beyond 100, and distances with no locus.
#[test]
fn tally_and_sheets_refuse_what_would_give_wrong_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    for (out, seed) in [("r1", "1"), ("r2", "2")] {
        let o = sheets_cmd(
            &sets,
            &[&a, &b],
            &t.join(out),
            &["--per-cell", "3", "--seed", seed],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // A filled copy of a run's translation sheet, answers `yes`/`no` alternating from
    // `start` (a `.csv` per annotator).
    let fill = |run: &str, name: &str, start: usize| -> std::path::PathBuf {
        let text = std::fs::read_to_string(t.join(run).join("translation.csv")).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let head = r.headers().unwrap().clone();
        let ans = head.iter().position(|h| h == "answer").unwrap();
        let p = t.join(name);
        let mut w = csv::Writer::from_path(&p).unwrap();
        w.write_record(&head).unwrap();
        for (k, rec) in r.records().enumerate() {
            let mut v: Vec<String> = rec.unwrap().iter().map(String::from).collect();
            v[ans] = ["yes", "no"][(k + start) % 2].into();
            if k % 5 == 0 {
                v[ans] = "partly".into();
            }
            w.write_record(&v).unwrap();
        }
        w.flush().unwrap();
        p
    };
    let x1 = fill("r1", "x1.csv", 0);
    let y1 = fill("r1", "y1.csv", 1);
    let y2 = fill("r2", "y2.csv", 1);
    let tally = |args: &[&Path], key: Option<&Path>| -> Output {
        let mut c = bin();
        c.arg("tally");
        for p in args {
            c.arg(p);
        }
        if let Some(k) = key {
            c.args(["--key", s(k)]);
        }
        c.output().unwrap()
    };
    let (k1, k2) = (t.join("r1.key.csv"), t.join("r2.key.csv"));
    let o = tally(&[&x1, &y1], Some(&k1));
    assert!(o.status.success(), "{}", stderr(&o));
    refused(
        &tally(&[&x1, &y2], Some(&k1)),
        3,
        "come from different `sheets` runs",
    );
    refused(
        &tally(&[&x1, &y1], Some(&k2)),
        3,
        "the key of another `sheets` run",
    );
    refused(&tally(&[&x1, &x1], None), 3, "are the same sheet");
    let copy = t.join("copy.csv");
    std::fs::copy(&x1, &copy).unwrap();
    refused(&tally(&[&x1, &copy], None), 3, "are the same sheet");
    // Edited keys.
    let key = std::fs::read_to_string(&k1).unwrap();
    let lines: Vec<&str> = key.lines().collect();
    let run = lines[1].rsplit(',').next().unwrap();
    let phantom = format!("T001,C,phantom,correct,{run}");
    // The second row of item T001 with the first row's system.
    let first: Vec<&str> = lines[1].split(',').collect();
    let mut second: Vec<&str> = lines[2].split(',').collect();
    assert_eq!((first[0], second[0]), ("T001", "T001"));
    second[2] = first[2];
    let slot_again = format!("T001,A,phantom,correct,{run}");
    let edits: [(String, &str); 5] = [
        (format!("{key}{}\n", lines[1]), "twice"),
        (format!("{key}{slot_again}\n"), "T001 A: a second row"),
        (
            format!("{key}{phantom}\n"),
            "do not all have the same systems",
        ),
        (
            key.replacen(",correct,", ",maybe,", 1),
            "automatic `maybe` is not one of",
        ),
        (key.replacen(lines[2], &second.join(","), 1), "twice"),
    ];
    for (text, want) in &edits {
        let p = t.join("edited.key.csv");
        std::fs::write(&p, text).unwrap();
        refused(&tally(&[&x1, &y1], Some(&p)), 3, want);
    }
    // Unfilled sheets: an error, not a table of `-`.
    let o = tally(&[&t.join("r1/translation.csv")], None);
    refused(&o, 3, "no answer in any of its");
    assert!(o.stdout.is_empty());
    // sheets: a distance twice, beyond 100, or with no locus.
    let o = sheets_cmd(&sets, &[&a], &t.join("d"), &["--distances", "1,1,1"]);
    refused(&o, 4, "1 given twice");
    let o = sheets_cmd(&sets, &[&a], &t.join("d"), &["--distances", "101"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = sheets_cmd(&sets, &[&a], &t.join("d"), &["--distances", "99"]);
    refused(&o, 3, "no locus to sample");
    assert!(!t.join("d").exists() && !t.join("d.key.csv").exists());
}

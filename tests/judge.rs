//! `sheets` and `tally` on the shared PUD (gold trees, the aligner trained on the shared
//! de-en corpora): the sample, blinding, determinism; filled fixtures of 2 and 3
//! annotators with κ computed by hand and by statsmodels; the HTML form filled in headless
//! Chromium, saved, and tallied.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn read_text(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// A CSV file as rows of column → value.
fn csv_rows(p: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(p).unwrap();
    let h: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            h.iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Writes rows (with the header of the first) as CSV.
fn write_rows(p: &Path, rows: &[BTreeMap<String, String>], header: &[String]) {
    let mut w = csv::Writer::from_path(p).unwrap();
    w.write_record(header).unwrap();
    for r in rows {
        w.write_record(header.iter().map(|h| r[h].as_str()))
            .unwrap();
    }
    w.flush().unwrap();
}

fn header_of(p: &Path) -> Vec<String> {
    let mut r = csv::Reader::from_path(p).unwrap();
    r.headers().unwrap().iter().map(String::from).collect()
}

/// The sheet `src` with answer `answer(k)` for row k, written to `dst`.
fn fill(src: &Path, dst: &Path, answer: impl Fn(usize) -> &'static str) {
    let mut rows = csv_rows(src);
    for (k, r) in rows.iter_mut().enumerate() {
        r.insert("answer".into(), answer(k).into());
    }
    write_rows(dst, &rows, &header_of(src));
}

struct Fixture {
    _t: tempfile::TempDir,
    dir: PathBuf,
    sets: PathBuf,
    hyps: [PathBuf; 2],
}

impl Fixture {
    /// PUD's sets with a saved aligner, and two systems: the reference (`sysalpha`) and the
    /// reference without every third word (`sysbeta`).
    fn new() -> Fixture {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().to_path_buf();
        let sets = dir.join("sets");
        let books = data("parallel/books-sample.de-en");
        let news = data("parallel/newstest2013.de-en");
        let model = dir.join("model");
        extract_pud(
            "de",
            &sets,
            &[
                "--controls",
                "0",
                "--quiet",
                "--align-train",
                books.to_str().unwrap(),
                "--align-train",
                news.to_str().unwrap(),
                "--save-align-model",
                model.to_str().unwrap(),
            ],
        );
        let reference = lines(&data("parallel/pud.de-en.en"));
        let dropped: Vec<String> = reference
            .iter()
            .map(|l| without_every_third_word(l))
            .collect();
        let a = dir.join("sysalpha.en");
        let b = dir.join("sysbeta.en");
        std::fs::write(&a, reference.join("\n") + "\n").unwrap();
        std::fs::write(&b, dropped.join("\n") + "\n").unwrap();
        Fixture {
            _t: t,
            dir,
            sets,
            hyps: [a, b],
        }
    }

    fn sheets(&self, out: &str, extra: &[&str]) -> std::process::Output {
        Ldd::cmd("sheets")
            .path("--sets", &self.sets)
            .path("--hyp", &self.hyps[0])
            .path("--hyp", &self.hyps[1])
            .path("--out", &self.dir.join(out))
            .args(extra)
            .ok()
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }
}

/// statsmodels' Cohen's κ of every pair and Fleiss' κ of `labels[annotator][unit]`.
fn statsmodels_kappas(labels: &[Vec<String>]) -> Option<serde_json::Value> {
    if std::env::var("LDD_SKIP_PYTHON").as_deref() == Ok("1") {
        return None;
    }
    let py = std::env::var_os("LDD_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"));
    let script = r#"
import json, sys, itertools
import numpy as np
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa, aggregate_raters
labels = json.load(sys.stdin)
cats = sorted({l for a in labels for l in a})
idx = {c: i for i, c in enumerate(cats)}
out = {"cohen": [], "fleiss": None}
for a, b in itertools.combinations(range(len(labels)), 2):
    t = np.zeros((len(cats), len(cats)))
    for x, y in zip(labels[a], labels[b]):
        t[idx[x], idx[y]] += 1
    out["cohen"].append(float(cohens_kappa(t).kappa))
data = np.array([[idx[labels[a][u]] for a in range(len(labels))] for u in range(len(labels[0]))])
counts, _ = aggregate_raters(data, n_cat=len(cats))
out["fleiss"] = float(fleiss_kappa(counts, method="fleiss"))
print(json.dumps(out))
"#;
    let mut child = Command::new(&py)
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (tests/setup/install.sh makes the venv)",
                py.display()
            )
        });
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(labels).unwrap().as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(
        o.status.success(),
        "statsmodels missing? tests/setup/install.sh installs it"
    );
    Some(serde_json::from_slice(&o.stdout).unwrap())
}

fn tally_json(args: &[&Path], extra: &[&str], out: &Path) -> serde_json::Value {
    let mut c = Ldd::cmd("tally");
    for a in args {
        c = c.args(&[a.to_str().unwrap()]);
    }
    c.args(extra).path("--out", out).args(&["--quiet"]).ok();
    serde_json::from_str(&std::fs::read_to_string(out.join("tally.json")).unwrap()).unwrap()
}

#[test]
fn sheets_then_tally_with_two_and_three_annotators() {
    let f = Fixture::new();
    f.sheets("sheets", &["--per-cell", "6", "--quiet"]);
    let det = f.p("sheets/detection.csv");
    let tr = f.p("sheets/translation.csv");
    let key = f.p("sheets.key.csv");
    assert!(key.is_file(), "the key is beside the sheets, not in them");

    // The sample: 6 loci per phenomenon and d ∈ {1, 2, 5} (fewer only where the eqD set
    // has fewer), each with its locus marked once and the marked words those of the locus.
    let d = csv_rows(&det);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(f.sets.join("manifest.json")).unwrap())
            .unwrap();
    let mut cells: BTreeMap<(String, String), usize> = BTreeMap::new();
    for r in &d {
        *cells
            .entry((r["phenomenon"].clone(), r["distance"].clone()))
            .or_default() += 1;
        assert_eq!(r["source"].matches("[[").count(), 1, "{r:?}");
        assert_eq!(r["source"].matches("{{").count(), 1, "{r:?}");
        assert_eq!(r["answer"], "");
    }
    for s in manifest["sets"].as_array().unwrap() {
        if s["kind"] != "lexical" || s["exact"] != true {
            continue;
        }
        let dist = s["min_distance"].to_string();
        if !["1", "2", "5"].contains(&dist.as_str()) {
            continue;
        }
        let loci = lines(&f.sets.join(s["files"]["locus"].as_str().unwrap())).len() - 1;
        let key = (s["phenomenon"].as_str().unwrap().to_string(), dist);
        assert_eq!(
            cells.get(&key).copied().unwrap_or(0),
            loci.min(6),
            "{key:?}"
        );
    }
    // Each marked pair is the locus of its line: the words of the eqD set's locus file.
    for r in d.iter().take(12) {
        let set = format!("{}/eq{}.locus.tsv", r["phenomenon"], r["distance"]);
        let rows = lines(&f.sets.join(&set));
        let found = rows.iter().any(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            c[0] == r["line"]
                && r["source"].contains(&format!("[[{}]]", c[4]))
                && r["source"].contains(&format!("{{{{{}}}}}", c[6]))
        });
        assert!(found, "{r:?} not a locus of {set}");
    }

    // Blinding: no system name anywhere the annotators look; the key names both, once per
    // item, in an order that varies between items.
    for file in [
        "detection.csv",
        "translation.csv",
        "form.html",
        "sheets.json",
    ] {
        let text = std::fs::read_to_string(f.p("sheets").join(file)).unwrap();
        for name in ["sysalpha", "sysbeta"] {
            assert!(!text.contains(name), "{file} names {name}");
        }
    }
    let k = csv_rows(&key);
    let t = csv_rows(&tr);
    assert_eq!(k.len(), t.len());
    // Every sampled locus in the translation sheet but those whose reference shows no
    // mark (issue 42, point 9).
    let record: serde_json::Value =
        serde_json::from_str(&read_text(&f.p("sheets/sheets.json"))).unwrap();
    let items = record["translation_items"].as_u64().unwrap() as usize;
    assert_eq!(
        items + record["no_reference"].as_u64().unwrap() as usize,
        d.len()
    );
    assert_eq!(k.len(), 2 * items);
    let first: BTreeSet<&str> = k
        .iter()
        .filter(|r| r["slot"] == "A")
        .map(|r| r["system"].as_str())
        .collect();
    assert_eq!(first.len(), 2, "both systems come first in some items");
    for r in &k {
        if r["system"] == "sysalpha" {
            assert_ne!(
                r["automatic"], "incorrect",
                "the reference renders every locus: {r:?}"
            );
        }
    }
    // Deterministic: the same seed writes the same files.
    f.sheets("again", &["--per-cell", "6", "--quiet"]);
    for file in ["detection.csv", "translation.csv", "form.html"] {
        assert_eq!(
            std::fs::read(f.p("sheets").join(file)).unwrap(),
            std::fs::read(f.p("again").join(file)).unwrap(),
            "{file}"
        );
    }
    assert_eq!(
        std::fs::read(&key).unwrap(),
        std::fs::read(f.p("again.key.csv")).unwrap()
    );

    // Hand-computed κ: two annotators on ten items, agreeing on 7, one saying yes 6 times
    // and the other 5: pₒ = 0.7, pₑ = 0.5, κ = 0.4.
    let ten = f.p("ten.csv");
    write_rows(&ten, &d[..10], &header_of(&det));
    let a = [
        "yes", "yes", "yes", "yes", "yes", "yes", "no", "no", "no", "no",
    ];
    let b = [
        "yes", "yes", "yes", "yes", "no", "no", "yes", "no", "no", "no",
    ];
    fill(&ten, &f.p("ten-a.csv"), |k| a[k]);
    fill(&ten, &f.p("ten-b.csv"), |k| b[k]);
    let j = tally_json(&[&f.p("ten-a.csv"), &f.p("ten-b.csv")], &[], &f.p("t10"));
    let kappa = j["agreement"]["cohen"][0]["kappa"].as_f64().unwrap();
    assert!((kappa - 0.4).abs() < 1e-12, "{kappa}");
    assert_eq!(j["agreement"]["raw"].as_f64(), Some(0.7));
    assert_eq!(j["disagreements"].as_array().unwrap().len(), 3);
    // Three annotators on four items: (y,y,y) (y,y,n) (n,n,n) (y,n,n): Fleiss' κ = 1/3.
    let four = f.p("four.csv");
    write_rows(&four, &d[..4], &header_of(&det));
    let grid = [
        ["yes", "yes", "yes"],
        ["yes", "yes", "no"],
        ["no", "no", "no"],
        ["yes", "no", "no"],
    ];
    let annotator = |x: usize| move |k: usize| -> &'static str { grid[k][x] };
    for x in 0..3 {
        fill(&four, &f.p(&format!("four-{x}.csv")), annotator(x));
    }
    let j = tally_json(
        &[&f.p("four-0.csv"), &f.p("four-1.csv"), &f.p("four-2.csv")],
        &[],
        &f.p("t4"),
    );
    let fleiss = j["agreement"]["fleiss"].as_f64().unwrap();
    assert!((fleiss - 1.0 / 3.0).abs() < 1e-12, "{fleiss}");

    // The whole sheets, three annotators with answers that differ here and there: every κ
    // equals statsmodels'.
    let pick = |seed: usize| {
        move |k: usize| -> &'static str {
            let v = (k * 7 + seed * 13 + k / 3 * seed) % 10;
            [
                "yes", "yes", "yes", "yes", "no", "no", "yes", "unsure", "yes", "no",
            ][v]
        }
    };
    let files: Vec<PathBuf> = (0..3).map(|x| f.p(&format!("det-{x}.csv"))).collect();
    for (x, p) in files.iter().enumerate() {
        fill(&det, p, pick(x));
    }
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let j = tally_json(&refs, &[], &f.p("tall"));
    let labels: Vec<Vec<String>> = (0..3)
        .map(|x| (0..d.len()).map(|k| pick(x)(k).to_string()).collect())
        .collect();
    if let Some(want) = statsmodels_kappas(&labels) {
        for (got, want) in j["agreement"]["cohen"]
            .as_array()
            .unwrap()
            .iter()
            .zip(want["cohen"].as_array().unwrap())
        {
            let (g, w) = (got["kappa"].as_f64().unwrap(), want.as_f64().unwrap());
            assert!((g - w).abs() < 1e-9, "Cohen {g} vs statsmodels {w}");
        }
        let (g, w) = (
            j["agreement"]["fleiss"].as_f64().unwrap(),
            want["fleiss"].as_f64().unwrap(),
        );
        assert!((g - w).abs() < 1e-9, "Fleiss {g} vs statsmodels {w}");
    }
    // Detection precision per cell: the majority's yes among yes and no.
    let groups = j["groups"].as_array().unwrap();
    assert_eq!(groups.len(), cells.len());
    for g in groups {
        assert!(g["judged"].as_u64() <= g["units"].as_u64());
    }

    // Translation with the key: per system, and locus accuracy against the majority.
    let tfiles: Vec<PathBuf> = (0..2).map(|x| f.p(&format!("tr-{x}.csv"))).collect();
    let trows = csv_rows(&tr);
    let sys_of: BTreeMap<(String, String), String> = k
        .iter()
        .map(|r| ((r["item"].clone(), r["slot"].clone()), r["system"].clone()))
        .collect();
    // Both annotators: the reference's outputs right, the other's wrong, but for one item.
    let answer = |x: usize| {
        let trows = trows.clone();
        let sys_of = sys_of.clone();
        move |k: usize| -> &'static str {
            let r = &trows[k];
            let alpha = sys_of[&(r["item"].clone(), r["slot"].clone())] == "sysalpha";
            match (alpha, x == 1 && k == 0) {
                (_, true) => "partly",
                (true, _) => "yes",
                (false, _) => "no",
            }
        }
    };
    for (x, p) in tfiles.iter().enumerate() {
        fill(&tr, p, answer(x));
    }
    let j = tally_json(
        &[&tfiles[0], &tfiles[1]],
        &["--key", key.to_str().unwrap()],
        &f.p("ttr"),
    );
    for g in j["groups"].as_array().unwrap() {
        let share = g["share"].as_f64();
        match g["system"].as_str().unwrap() {
            "sysalpha" => assert_eq!(share, Some(100.0), "{g}"),
            _ => assert_eq!(share, Some(0.0), "{g}"),
        }
    }
    let auto = &j["automatic"];
    let t = auto["table"].as_array().unwrap();
    let n: u64 = t
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(auto["units"].as_u64(), Some(n));
    let off = |r: usize, c: usize| t[r].as_array().unwrap()[c].as_u64().unwrap();
    let listed = auto["disagreements"].as_array().unwrap();
    assert_eq!(listed.len() as u64, off(0, 1) + off(1, 0));
    for d in listed {
        assert_ne!(d["automatic"] == "correct", d["majority"] == "yes", "{d}");
        assert!(d["output"].is_string() && d["reference"].is_string());
    }
    let judged_auto = k
        .iter()
        .filter(|r| r["automatic"] == "correct" || r["automatic"] == "incorrect")
        .count() as u64;
    assert!(
        n <= judged_auto && n + 1 >= judged_auto,
        "{n} {judged_auto}"
    );

    // Refused: a sheet of another kind, an unknown answer, a sheet missing items.
    let o = Ldd::cmd("tally")
        .args(&[det.to_str().unwrap(), tr.to_str().unwrap()])
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a translation sheet among detection sheets"),
        "{}",
        stderr(&o)
    );
    let bad = f.p("bad.csv");
    fill(&det, &bad, |k| if k == 3 { "maybe" } else { "yes" });
    let o = Ldd::cmd("tally").args(&[bad.to_str().unwrap()]).run();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad.csv:5") && stderr(&o).contains("`maybe`"),
        "{}",
        stderr(&o)
    );
    // A comment over two lines (as a spreadsheet saves one): the error names the line the
    // bad row is on in the file, one further down.
    let mut rows = csv_rows(&bad);
    rows[0].insert("comment".into(), "first\nsecond".into());
    let bad2 = f.p("bad2.csv");
    write_rows(&bad2, &rows, &header_of(&det));
    assert_eq!(read_text(&bad2).lines().count(), rows.len() + 2);
    let o = Ldd::cmd("tally").args(&[bad2.to_str().unwrap()]).run();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad2.csv:6") && stderr(&o).contains("`maybe`"),
        "{}",
        stderr(&o)
    );
    let o = Ldd::cmd("tally")
        .args(&[det.to_str().unwrap(), ten.to_str().unwrap()])
        .run();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("every annotator's sheet must hold them all"),
        "{}",
        stderr(&o)
    );
    // tally replaces only its own outputs.
    let foreign = f.p("foreign");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("tally.json"), "{\"mine\": 1}\n").unwrap();
    // (A filled sheet: an unfilled one is refused before anything is written.)
    let o = Ldd::cmd("tally")
        .args(&[files[0].to_str().unwrap()])
        .path("--out", &foreign)
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not written by `ldd-sets tally`"),
        "{}",
        stderr(&o)
    );
    assert_eq!(read_text(&foreign.join("tally.json")), "{\"mine\": 1}\n");
    assert!(!foreign.join("tally.csv").exists());
    // The key never goes where annotators look.
    let o = Ldd::cmd("sheets")
        .path("--sets", &f.sets)
        .path("--hyp", &f.hyps[0])
        .path("--out", &f.p("inside"))
        .path("--key", &f.p("inside/key.csv"))
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(!f.p("inside").exists());
    // Sets made before locus files (an older ldd-sets): refused, naming the manifest, with
    // nothing written.
    let old = f.p("old-sets");
    copy_tree(&f.sets, &old);
    let mut m: serde_json::Value =
        serde_json::from_str(&read_text(&old.join("manifest.json"))).unwrap();
    for s in m["sets"].as_array_mut().unwrap() {
        s["files"].as_object_mut().unwrap().remove("locus");
    }
    std::fs::write(
        old.join("manifest.json"),
        serde_json::to_string_pretty(&m).unwrap(),
    )
    .unwrap();
    let o = Ldd::cmd("sheets")
        .path("--sets", &old)
        .path("--hyp", &f.hyps[0])
        .path("--out", &f.p("from-old"))
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("names no locus file"), "{}", stderr(&o));
    assert!(!f.p("from-old").exists());
}

/// Copies the directory `from` to `to` (files and directories).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn the_form_is_filled_in_chromium_saved_and_tallied() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/fill-form.mjs");
    let modules =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/node_modules/playwright-core");
    assert!(
        modules.exists(),
        "playwright-core is missing: run `make browser` (npm ci in tests/browser)"
    );
    let f = Fixture::new();
    f.sheets("sheets", &["--per-cell", "3", "--quiet"]);
    let saved = f.p("saved");
    std::fs::create_dir(&saved).unwrap();
    let o = Command::new("node")
        .arg(&script)
        .arg(f.p("sheets/form.html"))
        .arg(&saved)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["pageErrors"].as_array().unwrap().len(), 0, "{j}");
    assert_eq!(
        j["blocked"].as_array().unwrap().len(),
        0,
        "the form loads nothing: {j}"
    );
    for id in ["detection", "translation"] {
        // The saved file is the sheet with the clicked answers: same columns and texts.
        let orig = f.p(&format!("sheets/{id}.csv"));
        let got = saved.join(format!("{id}.csv"));
        assert_eq!(header_of(&got), header_of(&orig), "{id}");
        let (a, b) = (csv_rows(&orig), csv_rows(&got));
        assert_eq!(a.len(), b.len());
        let answers: &[&str] = if id == "detection" {
            &["yes", "no", "unsure"]
        } else {
            &["yes", "partly", "no", "reference lacks it"]
        };
        for (k, (x, y)) in a.iter().zip(&b).enumerate() {
            for c in x.keys().filter(|c| *c != "answer" && *c != "comment") {
                assert_eq!(x[c], y[c], "{id} row {k} column {c}");
            }
            assert_eq!(y["answer"], answers[k % answers.len()], "{id} row {k}");
        }
        assert_eq!(b[0]["comment"], "says \"so\", twice");
        assert_eq!(
            j[format!("{id}Count")].as_str().unwrap(),
            format!("{} of {} answered", a.len(), a.len())
        );
        // tally reads it as it is.
        let out = f.p(&format!("tally-{id}"));
        let t = tally_json(&[&got], &[], &out);
        assert_eq!(t["units"].as_u64(), Some(a.len() as u64));
        let yes: u64 = t["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["correct"].as_u64().unwrap())
            .sum();
        let want = (0..a.len()).filter(|k| k % answers.len() == 0).count() as u64;
        assert_eq!(yes, want, "{id}");
    }
}

/// PUD's sets with the aligner trained on PUD alone (quick), and three systems: the
/// reference (`sysa`), without every third word (`sysb`), without every second (`sysc`).
fn light() -> (tempfile::TempDir, PathBuf, Vec<PathBuf>) {
    let t = tempfile::tempdir().unwrap();
    let sets = t.path().join("sets");
    let model = t.path().join("model");
    extract_pud(
        "de",
        &sets,
        &[
            "--controls",
            "0",
            "--quiet",
            "--save-align-model",
            model.to_str().unwrap(),
        ],
    );
    let reference = lines(&data("parallel/pud.de-en.en"));
    let drop = |n: usize| -> String {
        reference
            .iter()
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                let kept: Vec<&str> = w
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| n == 0 || k % n != n - 1)
                    .map(|(_, x)| *x)
                    .collect();
                kept.join(" ") + "\n"
            })
            .collect()
    };
    let hyps: Vec<PathBuf> = [("sysa", 0), ("sysb", 3), ("sysc", 2)]
        .iter()
        .map(|(name, n)| {
            let p = t.path().join(format!("{name}.en"));
            std::fs::write(&p, drop(*n)).unwrap();
            p
        })
        .collect();
    (t, sets, hyps)
}

fn light_sheets(sets: &Path, hyps: &[PathBuf], out: &Path, extra: &[&str]) -> std::process::Output {
    let mut c = Ldd::cmd("sheets").path("--sets", sets).path("--out", out);
    for h in hyps {
        c = c.path("--hyp", h);
    }
    c.args(extra).ok()
}

/// Issue 42, point 9: a sampled locus with no reference rendering (none aligned to it, or
/// none that plausibly renders it: `locus:4`) is in the detection sheet only — the
/// translation sheet would ask about marks the reference does not show; `sheets.json` and
/// the summary say how many were left out.
#[test]
fn translation_sheets_leave_out_loci_without_reference_words() {
    let (t, sets, hyps) = light();
    let out = t.path().join("sh");
    let o = light_sheets(&sets, &hyps[..2], &out, &["--per-cell", "8"]);
    let det = csv_rows(&out.join("detection.csv"));
    let tr = csv_rows(&out.join("translation.csv"));
    // The sheet marks the reference by the judgement's checked renderings (`locus:4`:
    // the tokens the judging alignment links to the locus that plausibly render it), so a
    // locus whose file gives reference words may still be left out (its words were a
    // comma, a name for a verb, ...); every sampled locus is shown or counted as left out.
    let mut without = 0;
    for r in &det {
        let shown = tr
            .iter()
            .any(|x| x["line"] == r["line"] && x["source"] == r["source"]);
        without += usize::from(!shown);
    }
    assert!(without > 0, "PUD has loci without reference words");
    let items: BTreeSet<&str> = tr.iter().map(|r| r["item"].as_str()).collect();
    assert_eq!(items.len(), det.len() - without);
    for r in &tr {
        assert!(
            r["reference"].contains("[[") || r["reference"].contains("{{"),
            "{r:?}: no mark in the reference"
        );
    }
    let record: serde_json::Value =
        serde_json::from_str(&read_text(&out.join("sheets.json"))).unwrap();
    assert_eq!(record["no_reference"].as_u64(), Some(without as u64));
    assert_eq!(
        record["translation_items"].as_u64(),
        Some(items.len() as u64)
    );
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains(&format!("{without} of the {} loci left out", det.len())),
        "{said}"
    );
}

/// Issue 42, point 10: `tally` of sheets nobody filled is an error (exit 3), not a table of
/// `-`; annotators are named by their files; the systems come in the same order in every
/// row of the table and of `tally.json`.
#[test]
fn tally_names_annotators_by_file_keeps_systems_in_order_and_refuses_unfilled_sheets() {
    let (t, sets, hyps) = light();
    let out = t.path().join("sh");
    light_sheets(&sets, &hyps, &out, &["--per-cell", "6", "--quiet"]);
    let tr = out.join("translation.csv");
    let copy = t.path().join("copy.csv");
    std::fs::copy(&tr, &copy).unwrap();
    for sheets in [vec![&tr], vec![&tr, &copy]] {
        let mut c = Ldd::cmd("tally");
        for s in &sheets {
            c = c.args(&[s.to_str().unwrap()]);
        }
        let o = c.run();
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("no answer in any of its"),
            "{}",
            stderr(&o)
        );
        assert!(o.stdout.is_empty(), "no table");
    }
    let alice = t.path().join("alice.csv");
    let bob = t.path().join("bob.csv");
    fill(&tr, &alice, |k| ["yes", "no", "partly"][k % 3]);
    fill(&tr, &bob, |k| ["yes", "no", "partly", "yes"][k % 4]);
    // One filled, one not: the unfilled one is named.
    let o = Ldd::cmd("tally")
        .args(&[alice.to_str().unwrap(), tr.to_str().unwrap()])
        .run();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("translation.csv: no answer"),
        "{}",
        stderr(&o)
    );
    let o = Ldd::cmd("tally")
        .args(&[alice.to_str().unwrap(), bob.to_str().unwrap()])
        .path("--key", &t.path().join("sh.key.csv"))
        .path("--out", &t.path().join("ty"))
        .ok();
    let table = String::from_utf8_lossy(&o.stdout).into_owned();
    let (a, b) = (alice.to_str().unwrap(), bob.to_str().unwrap());
    assert!(
        table.contains(&format!("Cohen's kappa, {a} and {b}:")),
        "{table}"
    );
    assert!(
        table.contains(&format!("(answers of {a} | {b})")),
        "{table}"
    );
    // Per (phenomenon, d): the systems, in table order.
    let mut cells: Vec<((String, String), Vec<String>)> = Vec::new();
    // (The legend under the table, `-: …` and its wrapped lines, is not a row.)
    let rows = table.lines().skip(2).take_while(|l| !l.is_empty());
    for l in rows.filter(|l| !l.starts_with("-:") && !l.starts_with(' ')) {
        let c: Vec<&str> = l.split_whitespace().collect();
        let key = (c[0].to_string(), c[1].to_string());
        match cells.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(c[2].to_string()),
            None => cells.push((key, vec![c[2].to_string()])),
        }
    }
    assert!(cells.len() >= 4, "{table}");
    for (k, systems) in &cells {
        assert_eq!(systems, &["sysa", "sysb", "sysc"], "{k:?}\n{table}");
    }
    let j: serde_json::Value =
        serde_json::from_str(&read_text(&t.path().join("ty/tally.json"))).unwrap();
    let order: Vec<&str> = j["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["system"].as_str().unwrap())
        .collect();
    for chunk in order.chunks(3) {
        assert_eq!(chunk, ["sysa", "sysb", "sysc"]);
    }
}

//! `ldd-sets report` on real sets: PUD de→en from the gold trees (with reordering sets and
//! controls), unscored, with one system and with three; opened in headless Chromium
//! (Debian's `chromium`, driven by playwright-core: `make browser` or `.ci/run` installs
//! it); the demo pipeline (`make demo-run`) on the bundled sample; the books-sized run's
//! time and size; the lenient scores reader; errors.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::*;
use ldd_sets::format::manifest::Manifest;
use ldd_sets::format::sets::ControlStatus;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The reference with a word-level change applied to every line.
fn system(dir: &Path, name: &str, f: impl Fn(Vec<&str>) -> Vec<String>) -> PathBuf {
    let p = dir.join(format!("{name}.en"));
    let text: Vec<String> = lines(&data("parallel/pud.de-en.en"))
        .iter()
        .map(|l| f(l.split(' ').collect()).join(" "))
        .collect();
    std::fs::write(&p, text.join("\n") + "\n").unwrap();
    p
}

fn drop3(w: Vec<&str>) -> Vec<String> {
    w.iter()
        .enumerate()
        .filter(|(i, _)| i % 3 != 2)
        .map(|(_, w)| w.to_string())
        .collect()
}

fn swap(w: Vec<&str>) -> Vec<String> {
    let mut v: Vec<String> = w.iter().map(|x| x.to_string()).collect();
    for i in (0..v.len().saturating_sub(1)).step_by(2) {
        v.swap(i, i + 1);
    }
    v
}

fn first_half(w: Vec<&str>) -> Vec<String> {
    w[..w.len().div_ceil(2)]
        .iter()
        .map(|x| x.to_string())
        .collect()
}

/// PUD de→en (gold trees, reordering, 5 controls), extracted once for all tests, with
/// three systems' outputs beside it.
struct Fixture {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    sets: PathBuf,
    systems: Vec<PathBuf>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let sets = dir.join("pud");
        // The paper's rules: the set sizes and pair counts below were checked by hand
        // against the gold trees with them (docs/rules.md has the built-in rules' figures).
        extract_pud(
            "de",
            &sets,
            &["--controls", "5", "-q", "--rules", PAPER_RULES],
        );
        let systems = vec![
            system(&dir, "drop3", drop3),
            system(&dir, "swap", swap),
            system(&dir, "half", first_half),
        ];
        Fixture {
            _tmp: tmp,
            dir,
            sets,
            systems,
        }
    })
}

/// A copy of the fixture's sets in a fresh directory, scored for `n` systems (0: none).
fn scored(n: usize) -> (tempfile::TempDir, PathBuf) {
    let f = fixture();
    let tmp = tempfile::tempdir().unwrap();
    let sets = tmp.path().join("pud");
    copy_dir(&f.sets, &sets);
    if n > 0 {
        let mut args = vec![
            "score".to_string(),
            "-q".into(),
            "--sets".into(),
            s(&sets).into(),
            "--ref".into(),
            s(&data("parallel/pud.de-en.en")).into(),
        ];
        for h in &f.systems[..n] {
            args.extend(["--hyp".to_string(), s(h).to_string()]);
        }
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        run_ok(&a);
    }
    (tmp, sets)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let t = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &t);
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

/// Every word marked `<xK>word</xK>` in the set's marked files (source and target).
fn marked_words(sets: &Path) -> BTreeSet<String> {
    let m = Manifest::read(sets).unwrap();
    let mut out = BTreeSet::new();
    for set in &m.sets {
        for f in [Some(&set.files.marked), set.files.marked_target.as_ref()]
            .into_iter()
            .flatten()
        {
            for l in lines(&sets.join(f)) {
                for tok in l.split(' ') {
                    let mut t = tok;
                    // Strip nested tags: <d1><h2>w</h2></d1>
                    while t.starts_with('<') {
                        match t.find('>') {
                            Some(i) => t = &t[i + 1..],
                            None => break,
                        }
                    }
                    if t.len() < tok.len() {
                        if let Some(i) = t.find("</") {
                            out.insert(t[..i].to_string());
                        }
                    }
                }
            }
        }
    }
    out
}

/// Runs the browser check on a report; returns its JSON.
fn browser(report: &Path, shot: &Path, extra: &[&str]) -> serde_json::Value {
    let script = root().join("tests/browser/check-report.mjs");
    assert!(
        root()
            .join("tests/browser/node_modules/playwright-core")
            .is_dir(),
        "playwright-core is missing: run `make browser` (npm ci in tests/browser); \
         Chromium is Debian's `chromium` package"
    );
    let out = Command::new("node")
        .arg(&script)
        .arg(report)
        .arg(shot)
        .args(extra)
        .output()
        .expect("node runs (apt-get install nodejs)");
    assert!(
        out.status.success(),
        "browser check failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The charts a report must have, counted from the manifest and the scores: set sizes
/// per phenomenon, distances per lexical phenomenon, the reordering measure, and per
/// metric a score chart per phenomenon.
fn expected_charts(sets: &Path, systems: usize) -> usize {
    let m = Manifest::read(sets).unwrap();
    let phen: BTreeSet<&str> = m.sets.iter().map(|s| s.phenomenon.as_str()).collect();
    let lexical = m.rules.phenomena.len();
    let reorder = usize::from(m.reorder.is_some());
    // One distribution chart per measure column of reorder.tsv.
    let measures = if m.reorder.is_some() {
        let tsv = read(&sets.join("reorder/reorder.tsv"));
        let header = tsv.lines().next().unwrap().to_string();
        header
            .split('\t')
            .filter(|c| ["position", "crossing", "kendall", "fuzzy"].contains(c))
            .count()
    } else {
        0
    };
    let scores = if systems > 0 {
        // BLEU and chrF on every phenomenon, RIBES on reorder sets.
        2 * phen.len() + reorder
    } else {
        0
    };
    phen.len() + lexical + measures + scores
}

fn check_in_browser(systems: usize, name: &str) {
    let (_tmp, sets) = scored(systems);
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    let report = sets.join("report.html");
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&shot);
    let j = browser(&report, &shot, &[]);

    // Nothing left the page: the only request is the report itself.
    let url = j["url"].as_str().unwrap();
    assert_eq!(j["requests"], serde_json::json!([url]), "{j}");
    assert_eq!(j["blocked"], serde_json::json!([]));
    assert_eq!(j["pageErrors"], serde_json::json!([]));
    assert_eq!(j["scripts"], 0);
    assert_eq!(j["externalRefs"], serde_json::json!([]));
    assert_eq!(
        j["sections"],
        serde_json::json!([
            "findings",
            "scores",
            "sizes",
            "distances",
            "examples",
            "settings"
        ]),
        "the findings open the page, the settings close it"
    );

    // Every chart rendered, with its title.
    let charts = j["charts"].as_array().unwrap();
    assert_eq!(charts.len(), expected_charts(&sets, systems), "{charts:#?}");
    assert_eq!(j["figures"].as_u64().unwrap() as usize, charts.len());
    let mut ids = BTreeSet::new();
    for c in charts {
        let id = c["id"].as_str().unwrap();
        assert!(ids.insert(id.to_string()), "duplicate chart id {id}");
        let title = c["title"].as_str().unwrap();
        assert!(!title.trim().is_empty(), "{c}");
        assert!(c["desc"].as_str().unwrap().len() > title.len(), "{c}");
        assert_eq!(c["role"], "img");
        assert_eq!(c["labelledby"], format!("{id}-t {id}-d"));
        assert_eq!(c["visible"], true, "{c}");
        assert!(c["width"].as_f64().unwrap() >= 300.0, "{c}");
        assert!(c["height"].as_f64().unwrap() >= 250.0, "{c}");
        // Axes, ticks, bars or lines and markers: a drawn chart has many shapes and labels.
        assert!(c["shapes"].as_u64().unwrap() >= 20, "{c}");
        assert!(c["texts"].as_u64().unwrap() >= 8, "{c}");
    }
    let titles: Vec<&str> = charts
        .iter()
        .map(|c| c["title"].as_str().unwrap())
        .collect();
    for t in [
        "Set sizes: reflexive",
        "Set sizes: reorder",
        "Dependency distances: particle",
    ] {
        assert!(titles.contains(&t), "{titles:?}");
    }
    if systems > 0 {
        assert!(titles.contains(&"BLEU vs distance: particle"), "{titles:?}");
        assert!(titles.contains(&"RIBES vs distance: reorder"), "{titles:?}");
    }

    // The examples browser shows marked words without JavaScript: dependents, heads and
    // aligned words, each a word that the set files mark.
    let m = Manifest::read(&sets).unwrap();
    let shown: u64 = m.sets.iter().map(|x| x.sentences.min(10).min(2)).sum();
    assert_eq!(j["visibleExamples"].as_u64().unwrap(), shown);
    let total: u64 = m.sets.iter().map(|x| x.sentences.min(10)).sum();
    assert_eq!(j["examples"].as_u64().unwrap(), total);
    let first_more = m.sets.iter().find(|x| x.sentences > 2).unwrap();
    assert_eq!(
        j["visibleExamplesAfterClick"].as_u64().unwrap(),
        shown + first_more.sentences.min(10) - 2,
        "show more opens the rest of the first set's sample"
    );
    assert!(j["visibleMarks"].as_u64().unwrap() >= shown, "{j}");
    assert_eq!(
        j["visibleMarkClasses"],
        serde_json::json!(["m-a", "m-d", "m-h"])
    );
    let words = marked_words(&sets);
    for w in j["visibleMarkWords"].as_array().unwrap() {
        assert!(
            words.contains(w.as_str().unwrap()),
            "{w} is not a marked word"
        );
    }

    // The screenshot is a PNG.
    let png = std::fs::read(&shot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 50_000, "{} bytes", png.len());
}

#[test]
fn unscored_report_renders_in_chromium() {
    check_in_browser(0, "unscored");
}

#[test]
fn one_system_report_renders_in_chromium() {
    check_in_browser(1, "one-system");
}

#[test]
fn three_system_report_renders_in_chromium() {
    check_in_browser(3, "three-systems");
}

#[test]
fn report_shows_each_systems_output_for_the_sampled_lines() {
    let (_tmp, sets) = scored(3);
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    let html = read(&sets.join("report.html"));
    // Each system's output of a line shown for reflexive/ge1, found independently: the
    // line ids in the section, then that line of each system's file.
    let start = html.find("id=\"ex-reflexive-ge1\"").unwrap();
    let section = &html[start..start + html[start..].find("</section>").unwrap()];
    let id: usize = section
        .split("<dt>line</dt><dd>")
        .nth(1)
        .and_then(|x| x.split('<').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(ids(&sets.join("reflexive"), "ge1").contains(&(id as u64)));
    let f = fixture();
    for (name, h) in ["drop3", "swap", "half"].iter().zip(&f.systems) {
        let line = &lines(h)[id - 1];
        let shown = line
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&#39;");
        assert!(
            section.contains(&format!("<dt>{name}</dt><dd lang=\"en\">{shown}</dd>")),
            "{name}: {shown}"
        );
    }
    // Reports are deterministic.
    let first = std::fs::read(sets.join("report.html")).unwrap();
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    assert_eq!(first, std::fs::read(sets.join("report.html")).unwrap());
}

#[test]
fn lexical_distances_agree_with_the_buckets() {
    let f = fixture();
    let m = Manifest::read(&f.sets).unwrap();
    let mut notes = Vec::new();
    let d = ldd_sets::report::data::lexical_distances(&m, &mut notes);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(d.len(), 2);
    for dist in &d {
        let pairs = |b: &str| m.set(&dist.phenomenon, b).unwrap().pairs;
        assert_eq!(dist.total(), pairs("ge0"));
        for k in 0..=5usize {
            // eqK pairs are exactly the pairs at distance K; geK those at K or more.
            assert_eq!(
                dist.counts.get(k).copied().unwrap_or(0),
                pairs(&format!("eq{k}"))
            );
            assert_eq!(
                dist.counts.iter().skip(k).sum::<u64>(),
                pairs(&format!("ge{k}"))
            );
        }
    }
    // PUD's figures by the paper's rules (checked by hand): 135 reflexive and 119 particle pairs.
    assert_eq!(d[0].phenomenon, "reflexive");
    assert_eq!(d[0].total(), 135);
    assert_eq!(d[1].total(), 119);
    // They are extract's record, not found again: the report reads no tree. A manifest
    // without them (an older ldd-sets) shows none, with a note saying why.
    assert_eq!(d, m.distances);
    let mut old = m.clone();
    old.distances.clear();
    assert!(ldd_sets::report::data::lexical_distances(&old, &mut notes).is_empty());
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("records no pair distances"), "{notes:?}");
    // A record that disagrees with the sets is refused when the manifest is read.
    let mut edited = m.clone();
    edited.distances[1].counts[0] += 1;
    let tmp = tempfile::tempdir().unwrap();
    edited.write(&tmp.path().join("manifest.json")).unwrap();
    let e = Manifest::read(tmp.path()).unwrap_err().to_string();
    assert!(e.contains("120 particle pairs by distance but 119"), "{e}");
    assert!(e.contains("manifest.json"), "{e}");
}

/// The tables every format renders are built once, in `ldd_sets::view`, and hold every
/// record once: the score view puts each row of a real scores.json (two systems, every
/// default metric) in one cell, in the file's order when read system by system (the
/// order of scores.csv, whose lines are then exactly header, rows and trends); the size
/// view lists the manifest's sets once each, in manifest order (summary.csv's rows); the
/// distance view's bins add up to each phenomenon's ge0 pairs.
#[test]
fn the_views_hold_every_record_once() {
    use ldd_sets::view::{distances, ScoreView, Sizes};
    let (_tmp, sets) = scored(2);
    let sc: ldd_sets::format::scores::Scores =
        serde_json::from_str(&read(&sets.join("scores.json"))).unwrap();
    let v = ScoreView::of(&sc);
    assert_eq!(v.systems, ["drop3", "swap"]);
    let keys: Vec<&str> = v.tables.iter().map(|t| t.metric).collect();
    assert_eq!(keys, ["bleu", "chrf", "ribes"]);
    let in_view: Vec<*const _> = v.by_system().map(|r| r as *const _).collect();
    let in_file: Vec<*const _> = sc.rows.iter().map(|r| r as *const _).collect();
    assert_eq!(in_view, in_file, "every row once, in the file's order");
    let m = Manifest::read(&sets).unwrap();
    for t in &v.tables {
        assert!(
            !t.lines[0].key.is_set(),
            "{}: the corpus line first",
            t.metric
        );
        assert!(t.corpus().is_some());
        for l in &t.lines {
            assert_eq!(l.cells.len(), 2);
            assert!(l.cells.iter().all(Option::is_some), "{:?}", l.key);
            for (col, c) in l.cells.iter().enumerate() {
                let r = c.unwrap();
                assert_eq!(
                    (r.system.as_str(), r.metric.as_str()),
                    (v.systems[col], t.metric)
                );
                assert_eq!(
                    (r.phenomenon.as_str(), r.bucket.as_str()),
                    (l.key.phenomenon, l.key.bucket)
                );
            }
        }
        // RIBES scores the reorder sets only; BLEU and chrF every set.
        let set_lines = t.lines.iter().filter(|l| l.key.is_set()).count();
        let expected = m
            .sets
            .iter()
            .filter(|x| t.metric != "ribes" || x.kind == ldd_sets::format::sets::SetKind::Reorder)
            .count();
        assert_eq!(set_lines, expected, "{}", t.metric);
    }
    let trend = v.trend(1, "bleu", "particle").unwrap();
    assert_eq!(
        (trend.system.as_str(), trend.metric.as_str()),
        ("swap", "bleu")
    );
    let csv = read(&sets.join("scores.csv"));
    assert_eq!(csv.lines().count(), 1 + sc.rows.len() + sc.trends.len());
    // Sizes: the manifest's sets, once each, in its order; summary.csv's rows.
    let sizes = Sizes::of(&m.sets);
    let names: Vec<(&str, &str)> = sizes
        .sets()
        .map(|x| (x.phenomenon.as_str(), x.bucket.as_str()))
        .collect();
    let manifest: Vec<(&str, &str)> = m
        .sets
        .iter()
        .map(|x| (x.phenomenon.as_str(), x.bucket.as_str()))
        .collect();
    assert_eq!(names, manifest);
    let phenomena: Vec<&str> = sizes.phenomena.iter().map(|r| r.phenomenon).collect();
    assert_eq!(phenomena, ["reflexive", "particle", "reorder"]);
    assert!(
        sizes.phenomena[2].eq.is_empty(),
        "reorder sets are ge sets only"
    );
    let summary = read(&sets.join("summary.csv"));
    let rows: Vec<(&str, &str)> = summary
        .lines()
        .skip(1)
        .map(|l| {
            let mut c = l.split(',');
            (c.next().unwrap(), c.next().unwrap())
        })
        .collect();
    assert_eq!(rows, manifest);
    // Distances: the bins hold every ge0 pair (135 reflexive, 119 particle).
    let tables: Vec<_> = m.distances.iter().map(distances::pair_distances).collect();
    let totals: Vec<(&str, u64, u64)> = tables
        .iter()
        .map(|d| (d.phenomenon, d.pairs, d.bars.iter().map(|b| b.count).sum()))
        .collect();
    assert_eq!(totals, [("reflexive", 135, 135), ("particle", 119, 119)]);
}

#[test]
fn latex_tables_hold_the_set_sizes_and_scores() {
    let (_tmp, sets) = scored(1);
    let out = sets.join("tables.tex");
    run_ok(&[
        "report",
        "-q",
        "--sets",
        s(&sets),
        "--format",
        "latex",
        "--out",
        s(&out),
    ]);
    let tex = read(&out);
    // PUD's set sizes by the paper's rules (131 68 52 42 33 24; 112 104 94 72 62 56).
    assert!(tex.contains("reflexive & 131 & 68$^\\ddagger$ & 52$^\\ddagger$ & 42$^\\ddagger$ & 33$^\\ddagger$ & 24$^\\ddagger$ \\\\"), "{tex}");
    assert!(
        tex.contains("particle & 112 & 104 & 94$^\\ddagger$"),
        "{tex}"
    );
    // The reorder sets' thresholds are those of the manifest (crossing: 7, 9, 11, 13).
    let m = Manifest::read(&sets).unwrap();
    let heads: Vec<String> = m
        .reorder
        .as_ref()
        .unwrap()
        .options
        .buckets
        .iter()
        .map(|b| format!("ge{b}"))
        .collect();
    assert_eq!(heads, ["ge7", "ge9", "ge11", "ge13"]);
    let head = heads.join(" & ");
    assert!(
        tex.contains(&format!("reorder & {head}")) || tex.contains(&format!("phenomenon & {head}")),
        "{tex}"
    );
    assert_eq!(
        tex.matches("\\begin{tabular}").count(),
        3 + 3,
        "3 size tables, 3 metrics"
    );
    assert_eq!(
        tex.matches("\\begin{tabular}").count(),
        tex.matches("\\end{tabular}").count()
    );
    // The BLEU row of particle/ge1 carries the set score and controls mean of scores.json.
    let j: serde_json::Value = serde_json::from_str(&read(&sets.join("scores.json"))).unwrap();
    let row = j["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "bleu" && r["phenomenon"] == "particle" && r["bucket"] == "ge1")
        .unwrap();
    let line = tex
        .lines()
        .find(|l| l.starts_with("particle & ge1 & 104 & "))
        .unwrap();
    assert!(
        line.contains(&format!("{:.2}", row["score"].as_f64().unwrap())),
        "{line}"
    );
    assert!(
        line.contains(&format!("{:.2}", row["control_mean"].as_f64().unwrap())),
        "{line}"
    );
}

/// The fields `score` gains with significance testing (the shared contract) are shown
/// when present; without them (older scores.json) the report shows "–".
#[test]
fn significance_fields_are_shown_when_present() {
    let (_tmp, sets) = scored(2);
    let path = sets.join("scores.json");
    let mut j: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
    // `score` itself writes them: two systems get a paired bootstrap by default.
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    let real = read(&sets.join("report.html"));
    let bleu_sig = j["signatures"]["bleu"].as_str().unwrap();
    assert!(bleu_sig.contains("nrefs:1"), "{bleu_sig}");
    assert!(
        real.contains(bleu_sig),
        "the report shows score's BLEU signature"
    );
    assert_eq!(j["significance"]["method"], "bs");
    assert!(real.contains("bs (paired bootstrap resampling), 1000 resamples, seed 12345"));
    // An older scores.json, without the fields: "–" where they would be.
    let mut older = j.clone();
    for k in ["signatures", "significance"] {
        older.as_object_mut().unwrap().remove(k);
    }
    for r in older["rows"].as_array_mut().unwrap() {
        let r = r.as_object_mut().unwrap();
        for k in [
            "ci_low",
            "ci_high",
            "p_value",
            "control_diff",
            "control_diff_ci_low",
            "control_diff_ci_high",
            "control_p_value",
            "small_set",
            "signature",
        ] {
            r.remove(k);
        }
    }
    std::fs::write(&path, serde_json::to_string(&older).unwrap()).unwrap();
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    let old = read(&sets.join("report.html"));
    assert!(
        old.contains("<td class=\"n\">–</td>"),
        "p vs baseline is – without p-values"
    );
    assert!(!old.contains(bleu_sig));
    j["signatures"] =
        serde_json::json!({"bleu": "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3"});
    j["significance"] =
        serde_json::json!({"method": "bs", "n": 1000, "seed": 12345, "confidence": 0.95});
    for r in j["rows"].as_array_mut().unwrap() {
        // Scores written before q-values existed.
        r.as_object_mut().unwrap().remove("control_q_value");
        if r["metric"] == "bleu"
            && r["phenomenon"] == "particle"
            && r["bucket"] == "ge2"
            && r["system"] == "swap"
        {
            r["ci_low"] = serde_json::json!(1.25);
            r["ci_high"] = serde_json::json!(7.5);
            r["control_diff"] = serde_json::json!(-1.0);
            r["control_diff_ci_low"] = serde_json::json!(-2.5);
            r["control_diff_ci_high"] = serde_json::json!(-0.125);
            r["control_p_value"] = serde_json::json!(0.004);
            r["p_value"] = serde_json::json!(0.0001);
            r["small_set"] = serde_json::json!(true);
        }
    }
    std::fs::write(&path, serde_json::to_string(&j).unwrap()).unwrap();
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    let html = read(&sets.join("report.html"));
    assert!(html.contains("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3"));
    assert!(html
        .contains("bs (paired bootstrap resampling), 1000 resamples, seed 12345, confidence 0.95"));
    let row_start = html
        .find("<tr><th scope=\"row\">particle/ge2</th>")
        .unwrap();
    let row = &html[row_start..row_start + html[row_start..].find("</tr>").unwrap()];
    assert!(row.contains("[1.25, 7.50]"), "{row}");
    assert!(
        row.contains("-1.00 <span class=\"ci\">[-2.50, -0.13]</span>")
            || row.contains("-1.00 <span class=\"ci\">[-2.50, -0.12]</span>"),
        "{row}"
    );
    // Scores without q-values: the unadjusted p, said so, with the one mark of "lower than
    // length-matched controls"; the paired test's mark after the score.
    assert!(row.contains("p 0.004 <strong>!</strong>"), "{row}");
    assert!(row.contains("</span> <strong>*</strong>"), "{row}");
    assert!(!html.contains("<strong>**</strong>"));
}

#[test]
fn bad_scores_and_outputs_are_rejected() {
    let (_tmp, sets) = scored(1);
    // Not JSON: names the file and line, exit 3.
    let bad = sets.join("bad.json");
    std::fs::write(&bad, "{\n  \"corpus_lines\": 1000,\n  oops\n}\n").unwrap();
    let o = run(&["report", "--sets", s(&sets), "--scores", s(&bad)]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad.json:3: not an ldd-sets scores.json"),
        "{}",
        stderr(&o)
    );
    // Scores of other sets: a set size that differs.
    let mut j: serde_json::Value = serde_json::from_str(&read(&sets.join("scores.json"))).unwrap();
    let row = j["rows"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|r| r["scope"] == "set")
        .unwrap();
    row["sentences"] = serde_json::json!(7);
    let other = sets.join("other.json");
    std::fs::write(&other, j.to_string()).unwrap();
    let o = run(&["report", "--sets", s(&sets), "--scores", s(&other)]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("has 7 sentences there but 131 in the manifest"),
        "{}",
        stderr(&o)
    );
    // An output that is not .html — here a file of the sets, not a report — is refused by
    // the one output guard before any work (exit 4) and nothing is written.
    let o = run(&[
        "report",
        "--sets",
        s(&sets),
        "--out",
        s(&sets.join("manifest.json")),
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("was not written by `ldd-sets report`"),
        "{}",
        stderr(&o)
    );
    assert!(Manifest::read(&sets).is_ok());
    // A missing sets directory: exit 5 naming the manifest.
    let o = run(&["report", "--sets", s(&sets.join("nope"))]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    assert!(stderr(&o).contains("nope/manifest.json"), "{}", stderr(&o));
}

/// The report reads the per-line reordering file and the sampled sets' marked files once,
/// checked against the checksums the run recorded as they are read: a changed file is
/// refused naming it (exit 3), even when its content still parses; restored, it renders.
#[test]
fn changed_measures_and_marked_files_are_refused() {
    let (_tmp, sets) = scored(0);
    for rel in ["reorder/reorder.tsv", "reflexive/ge1.marked.de"] {
        let path = sets.join(rel);
        let good = std::fs::read(&path).unwrap();
        // A valid row more at the end (ids and measures that parse).
        let mut changed = good.clone();
        changed.extend_from_slice(&good[good.len() - 40..]);
        std::fs::write(&path, &changed).unwrap();
        let o = run(&["report", "--sets", s(&sets)]);
        assert_eq!(o.status.code(), Some(3), "{rel}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("{rel}: changed since ldd-sets wrote it")),
            "{rel}: {}",
            stderr(&o)
        );
        std::fs::write(&path, &good).unwrap();
        run_ok(&["report", "--sets", s(&sets)]);
    }
}

/// The bundled demo sample is exactly the first 300 PUD pairs with their gold German
/// trees, plus the two synthetic systems `demo/make-sample.sh` describes, under 1 MB.
#[test]
fn demo_sample_is_the_first_300_pud_pairs() {
    let demo = root().join("demo");
    let mut bytes = 0;
    for e in walk(&demo) {
        bytes += std::fs::metadata(&e).unwrap().len();
    }
    assert!(bytes <= 1_000_000, "demo/ is {bytes} bytes");
    for (f, shared) in [
        ("pud.de-en.de", "parallel/pud.de-en.de"),
        ("pud.de-en.en", "parallel/pud.de-en.en"),
    ] {
        assert_eq!(
            lines(&demo.join(f)),
            lines(&data(shared))[..300].to_vec(),
            "{f}"
        );
    }
    let trees = read(&data("ud/de_pud-ud-test.conllu"));
    let first: Vec<&str> = trees.split("\n\n").take(300).collect();
    assert_eq!(
        read(&demo.join("de_pud-300.conllu")),
        first.join("\n\n") + "\n\n"
    );
    let refs = lines(&demo.join("pud.de-en.en"));
    let want = |f: fn(Vec<&str>) -> Vec<String>| -> Vec<String> {
        refs.iter()
            .map(|l| f(l.split_whitespace().collect()).join(" "))
            .collect()
    };
    assert_eq!(lines(&demo.join("systems/ref-drop3.en")), want(drop3));
    assert_eq!(lines(&demo.join("systems/ref-swap.en")), want(swap));
    assert!(read(&demo.join("README.md")).contains("CC BY-SA 4.0"));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// `make demo-run` (what `make demo` runs after building) with this test's binary, no
/// model, an empty cache and HOME: it ends with a report, and its sets are those of the
/// 300 pairs.
/// `make demo-run` into `tmp/demo-out` with an empty HOME, model directory and cache
/// (`tmp/empty`): its stdout, after asserting success.
fn demo_run(tmp: &Path) -> String {
    let out = tmp.join("demo-out");
    let empty = tmp.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = Command::new("make")
        .current_dir(root())
        .args(["--no-print-directory", "demo-run"])
        .arg(format!("BIN={}", env!("CARGO_BIN_EXE_ldd-sets")))
        .arg(format!("DEMO_OUT={}", out.display()))
        .env("HOME", &empty)
        .env("LDD_SETS_MODELS", &empty)
        .env("LDD_SETS_CACHE", &empty)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{stdout}\n{}", stderr(&o));
    stdout
}

#[test]
fn make_demo_ends_with_a_report() {
    let tmp = tempfile::tempdir().unwrap();
    let stdout = demo_run(tmp.path());
    let (out, empty) = (tmp.path().join("demo-out"), tmp.path().join("empty"));
    let report = out.join("report.html");
    assert!(
        stdout.contains(&format!("report written to {}", report.display())),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with(&format!(
        "demo done: open {} in a browser",
        report.display()
    )));
    assert!(
        absent_or_empty(&empty),
        "the demo wrote into HOME or a cache"
    );
    let m = Manifest::read(&out).unwrap();
    assert_eq!(m.corpus.lines, 300);
    assert!(m.reorder.is_some() && !m.controls.is_empty());
    // Sets of the sample are subsets of the full PUD sets: reflexive/ge1 = the full run's
    // ids up to 300.
    let full: BTreeSet<u64> = ids(&fixture().sets.join("reflexive"), "ge1")
        .into_iter()
        .filter(|&i| i <= 300)
        .collect();
    assert_eq!(ids(&out.join("reflexive"), "ge1"), full);
    let html = read(&report);
    assert!(html.contains("scored for 2 systems"));
    assert!(html.contains("<dt>ref-drop3</dt>") && html.contains("<dt>ref-swap</dt>"));
}

/// The demo's sets of 2 sentences get no mark of "lower than length-matched controls"
/// (`!`, nor the strong `**` of before): 10 controls cannot show a 2-line set below its
/// length-matched samples at any q < 0.05 (issue 64). Needs the honest set-vs-controls
/// p-values of `score` (the permutation test): it fails on scores whose p-values come from
/// resampling the set's own lines.
#[test]
fn demo_two_sentence_sets_get_no_strong_mark() {
    let tmp = tempfile::tempdir().unwrap();
    demo_run(tmp.path());
    let out = tmp.path().join("demo-out");
    let html = read(&out.join("report.html"));
    assert!(!html.contains("<strong>**</strong>"));
    let m = Manifest::read(&out).unwrap();
    let two: Vec<String> = m
        .sets
        .iter()
        .filter(|x| x.sentences == 2)
        .map(|x| format!("{}/{}", x.phenomenon, x.bucket))
        .collect();
    assert!(!two.is_empty(), "the demo has a 2-sentence set");
    let scores = between(&html, "<section id=\"scores\">", "</section>");
    for set in &two {
        for row in scores
            .split(&format!("<tr><th scope=\"row\">{set}</th>"))
            .skip(1)
        {
            let row = &row[..row.find("</tr>").unwrap()];
            assert!(!row.contains("<strong>!</strong>"), "{set}: {row}");
        }
    }
    let findings = between(&html, "<section id=\"findings\">", "</section>");
    for set in &two {
        let bucket = set.split_once('/').unwrap().1;
        for cell in findings
            .split("<td>")
            .filter(|c| c.starts_with("lower than"))
        {
            assert!(
                !cell.contains(&format!(" {bucket} <strong>!</strong>"))
                    && !cell.contains(&format!(": {bucket} <strong>!</strong>")),
                "{set}: {cell}"
            );
        }
    }
}

/// A books-sized run: PUD repeated 28 times (28,000 lines, the size of the books sample),
/// --max-distance 7 (36 sets), 10 controls each, two systems. The report is written in
/// under a second and is under 5 MB. (`make bench-report` measures the books sample
/// itself, which needs a parse.)
#[test]
fn books_sized_report_is_fast_and_small() {
    let f = fixture();
    let dir = f.dir.join("big");
    std::fs::create_dir_all(&dir).unwrap();
    let rep = |src: &Path, dst: &Path| {
        let t = read(src);
        std::fs::write(dst, t.repeat(28)).unwrap();
    };
    let (src, tgt, conllu) = (
        dir.join("big.de"),
        dir.join("big.en"),
        dir.join("big.conllu"),
    );
    rep(&data("parallel/pud.de-en.de"), &src);
    rep(&data("parallel/pud.de-en.en"), &tgt);
    rep(&data("ud/de_pud-ud-test.conllu"), &conllu);
    let (a, b) = (dir.join("a.en"), dir.join("b.en"));
    rep(&f.systems[0], &a);
    rep(&f.systems[1], &b);
    let sets = dir.join("sets");
    Ldd::cmd("extract")
        .corpus(&src, &tgt, ("de", "en"))
        .path("--conllu", &conllu)
        .args(&["-q", "--max-distance", "7", "--controls", "10"])
        .out(&sets)
        .ok();
    run_ok(&[
        "score",
        "-q",
        "--sets",
        s(&sets),
        "--hyp",
        s(&a),
        "--hyp",
        s(&b),
    ]);
    let m = Manifest::read(&sets).unwrap();
    assert_eq!(m.corpus.lines, 28_000);
    assert_eq!(m.sets.len(), 36);
    let controlled: Vec<_> = m.controls.iter().filter(|c| c.sentences > 0).collect();
    assert!(controlled.len() >= 30, "{}", controlled.len());
    assert!(controlled
        .iter()
        .all(|c| c.count == 10 && c.status == ControlStatus::Written));
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        run_ok(&["report", "-q", "--sets", s(&sets)]);
        best = best.min(t.elapsed());
    }
    let size = std::fs::metadata(sets.join("report.html")).unwrap().len();
    eprintln!("books-sized report: {best:?}, {size} bytes");
    assert!(best < Duration::from_secs(1), "{best:?}");
    assert!(size < 5_000_000, "{size} bytes");
}

/// Sets from ldd-sets' own parse: the report names the UDPipe model (from the parse
/// cache's record, checked against the manifest's checksums) and its command uses --model.
#[test]
fn parsed_sets_name_their_model() {
    use sha2::{Digest, Sha256};
    let tmp = tempfile::tempdir().unwrap();
    let (src, tgt) = (tmp.path().join("p.de"), tmp.path().join("p.en"));
    std::fs::write(
        &src,
        lines(&data("parallel/pud.de-en.de"))[..40].join("\n") + "\n",
    )
    .unwrap();
    std::fs::write(
        &tgt,
        lines(&data("parallel/pud.de-en.en"))[..40].join("\n") + "\n",
    )
    .unwrap();
    let model = german_small();
    let sets = tmp.path().join("sets");
    let cache = tmp.path().join("cache");
    Ldd::cmd("extract")
        .corpus(&src, &tgt, ("de", "en"))
        .small_german(&cache)
        .args(&["-q", "--offline", "--no-reorder", "--controls", "0"])
        .out(&sets)
        .ok();
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    let html = read(&sets.join("report.html"));
    let sha = format!("{:x}", Sha256::digest(std::fs::read(&model).unwrap()));
    assert!(
        html.contains(&format!(
            "UDPipe model <code>{}</code> (SHA-256 <code title=\"{sha}\">{}…</code>)",
            model.display(),
            &sha[..12]
        )),
        "{}",
        &html[html.find("Parser").unwrap()..][..400]
    );
    assert!(html.contains(&format!(" --model={} ", model.display())));
    // Gold trees: no parser.
    let (_t, gold) = scored(0);
    run_ok(&["report", "-q", "--sets", s(&gold)]);
    let html = read(&gold.join("report.html"));
    assert!(html.contains("none: the trees were given with <code>--conllu</code>"));
    assert!(
        html.contains(" --conllu="),
        "{}",
        &html[html.find("class=\"cmd\"").unwrap()..]
    );
}

/// Every file under `dir` (relative paths) with its bytes, `manifest.json` and the report
/// left out (they name the output directory and the command's own timing).
fn tree_bytes(root: &Path, dir: &Path, out: &mut std::collections::BTreeMap<String, Vec<u8>>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            tree_bytes(root, &p, out);
        } else {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if rel != "manifest.json" && !rel.starts_with("report.") {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
}

/// The lines of the report's `<pre class="cmd">` block, HTML entities undone.
fn report_commands(html: &str) -> Vec<String> {
    let start = html.find("<pre class=\"cmd\">").unwrap() + "<pre class=\"cmd\">".len();
    let end = start + html[start..].find("</pre>").unwrap();
    html[start..end]
        .replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs a recorded command line through the shell, `ldd-sets` being this build.
fn run_shell(cmd: &str) {
    let cmd = cmd.replacen(
        "ldd-sets ",
        &format!("{} ", env!("CARGO_BIN_EXE_ldd-sets")),
        1,
    );
    let o = Command::new("sh").arg("-c").arg(&cmd).output().unwrap();
    assert!(o.status.success(), "{cmd}\n{}", stderr(&o));
}

/// scores.json's rows and trends without their signatures (which name the manifest's
/// SHA-256, and the manifest its output directory).
fn score_rows(sets: &Path) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(&read(&sets.join("scores.json"))).unwrap();
    let mut out = serde_json::json!([]);
    for k in ["rows", "trends"] {
        for r in v[k].as_array_mut().unwrap() {
            r.as_object_mut().unwrap().remove("signature");
            out.as_array_mut().unwrap().push(r.clone());
        }
    }
    out
}

/// The report prints the command lines the manifest and scores.json recorded — every
/// option as typed, in the parser's canonical form, --out, --threads and --quiet left
/// out — and they reproduce the sets byte for byte and the scores number for number, with
/// fast_align's aligner and non-default buckets, measure, controls and seed, and the
/// score's metrics and resampling options.
#[test]
fn recorded_commands_reproduce_the_sets_and_scores() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    let opts = [
        "--controls",
        "2",
        "--seed",
        "7",
        "--reorder-measure",
        "kendall",
        "--reorder-buckets",
        "10,20",
        "--align-model-type",
        "fast-align",
        "--align-lowercase",
        "--align-iterations",
        "3",
        "--threads",
        "2",
        "-q",
    ];
    extract_pud("de", &first, &opts);
    let f = fixture();
    run_ok(&[
        "score",
        "-q",
        "--sets",
        s(&first),
        "--hyp",
        s(&f.systems[0]),
        "--hyp",
        s(&f.systems[1]),
        "-m",
        "bleu,chrf",
        "--paired-bs-n",
        "50",
        "--seed",
        "3",
    ]);
    run_ok(&["report", "-q", "--sets", s(&first)]);
    let cmds = report_commands(&read(&first.join("report.html")));
    assert_eq!(cmds.len(), 3, "{cmds:?}");
    // Exactly what the files recorded.
    let m: serde_json::Value = serde_json::from_str(&read(&first.join("manifest.json"))).unwrap();
    let sc: serde_json::Value = serde_json::from_str(&read(&first.join("scores.json"))).unwrap();
    let words = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect()
    };
    let extract = words(&m["tool"]["command"]);
    let score = words(&sc["commands"][0]);
    assert_eq!(sc["commands"].as_array().unwrap().len(), 1);
    assert_eq!(cmds[0], ldd_sets::format::command::shell_line(&extract));
    assert_eq!(cmds[1], ldd_sets::format::command::shell_line(&score));
    assert_eq!(
        cmds[2],
        format!("ldd-sets report --sets {}", first.display())
    );
    // Every option as typed, canonical; --out, --threads and -q not recorded.
    let typed = Ldd::cmd("extract").pud("de").out(&first).args(&opts).argv();
    let mut want: Vec<String> = vec!["ldd-sets".into(), "extract".into()];
    let mut i = 1;
    while i < typed.len() {
        let (k, v) = (&typed[i], typed.get(i + 1));
        match v.filter(|v| k.starts_with("--") && !v.starts_with('-')) {
            Some(v) => {
                if k != "--threads" && k != "--out" {
                    want.push(format!("{k}={v}"));
                }
                i += 2;
            }
            None => {
                if k != "-q" {
                    want.push(k.clone());
                }
                i += 1;
            }
        }
    }
    let mut got = extract.clone();
    got[2..].sort();
    want[2..].sort();
    assert_eq!(got, want);
    assert_eq!(
        score[2..],
        [
            format!("--sets={}", first.display()),
            format!("--hyp={}", f.systems[0].display()),
            format!("--hyp={}", f.systems[1].display()),
            "--metrics=bleu,chrf".to_string(),
            "--paired-bs-n=50".to_string(),
            "--seed=3".to_string(),
        ]
    );
    // Run again into another directory: the same sets, the same scores.
    let second = tmp.path().join("second");
    assert!(!cmds[0].contains("--out"), "{}", cmds[0]);
    run_shell(&format!("{} --out={} -q", cmds[0], second.display()));
    let (mut a, mut b) = (Default::default(), Default::default());
    tree_bytes(&first, &first, &mut a);
    tree_bytes(&second, &second, &mut b);
    a.remove("scores.json");
    a.remove("scores.csv");
    assert!(
        a.keys().any(|k| k.starts_with("reorder/ge10.")),
        "{:?}",
        a.keys()
    );
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (k, v) in &a {
        assert!(
            *v == b[k],
            "{k} differs between the run and its recorded command"
        );
    }
    let sets_arg = format!("--sets={}", first.display());
    run_shell(&format!(
        "{} -q",
        cmds[1].replace(&sets_arg, &format!("--sets={}", second.display()))
    ));
    assert_eq!(score_rows(&first), score_rows(&second));
}

/// A report replaces only a report: a user's file of the same name (HTML or LaTeX, or a
/// symlink) is refused with exit 4 and left as it was; an earlier report is replaced.
#[test]
fn only_earlier_reports_are_replaced() {
    let (tmp, sets) = scored(0);
    let mine = tmp.path().join("mine.html");
    std::fs::write(&mine, "<html>my notes</html>\n").unwrap();
    let o = run(&["report", "-q", "--sets", s(&sets), "--out", s(&mine)]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("was not written by `ldd-sets report`"));
    assert_eq!(read(&mine), "<html>my notes</html>\n");
    let tex = tmp.path().join("paper.tex");
    std::fs::write(&tex, "\\documentclass{article}\n").unwrap();
    let o = run(&[
        "report",
        "-q",
        "--sets",
        s(&sets),
        "--format",
        "latex",
        "--out",
        s(&tex),
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert_eq!(read(&tex), "\\documentclass{article}\n");
    let link = tmp.path().join("link.html");
    std::os::unix::fs::symlink(&mine, &link).unwrap();
    let o = run(&["report", "-q", "--sets", s(&sets), "--out", s(&link)]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert_eq!(read(&mine), "<html>my notes</html>\n");
    // The default output, twice: the second run replaces the first.
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    let first = std::fs::metadata(sets.join("report.html")).unwrap();
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    assert!(
        read(&sets.join("report.html")).contains("<meta name=\"generator\" content=\"ldd-sets ")
    );
    assert_eq!(
        first.len(),
        std::fs::metadata(sets.join("report.html")).unwrap().len()
    );
}

/// The page opens with the findings: per system, each metric's score on the shortest and
/// the longest `ge` set of every phenomenon, as scores.json has them; and, given the
/// annotators' tally, their agreement and judgements.
#[test]
fn findings_open_the_page_and_the_tally_is_shown() {
    let (tmp, sets) = scored(2);
    // A detection sheet (no aligner needed), two annotators, tallied.
    let sheets = tmp.path().join("sheets");
    run_ok(&[
        "sheets",
        "-q",
        "--sets",
        s(&sets),
        "--out",
        s(&sheets),
        "--per-cell",
        "4",
    ]);
    let text = read(&sheets.join("detection.csv"));
    let mut answered = [String::new(), String::new()];
    for (k, line) in text.lines().enumerate() {
        for (a, out) in answered.iter_mut().enumerate() {
            let fill = if k == 0 {
                line.to_string()
            } else {
                // The answer column is the second to last: rows end with `,,` unanswered.
                let answer = if (k + a) % 3 == 0 { "no" } else { "yes" };
                format!("{}{answer},", line.strip_suffix(",").unwrap())
            };
            out.push_str(&fill);
            out.push('\n');
        }
    }
    let (a, b) = (tmp.path().join("a.csv"), tmp.path().join("b.csv"));
    std::fs::write(&a, &answered[0]).unwrap();
    std::fs::write(&b, &answered[1]).unwrap();
    let tally = tmp.path().join("tally");
    run_ok(&["tally", "-q", s(&a), s(&b), "--out", s(&tally)]);
    let t: serde_json::Value = serde_json::from_str(&read(&tally.join("tally.json"))).unwrap();
    let kappa = t["agreement"]["cohen"][0]["kappa"].as_f64().unwrap();

    run_ok(&[
        "report",
        "-q",
        "--sets",
        s(&sets),
        "--tally",
        s(&tally.join("tally.json")),
    ]);
    let html = read(&sets.join("report.html"));
    let at = |id: &str| html.find(&format!("<section id=\"{id}\"")).unwrap();
    assert!(at("findings") < at("scores") && at("scores") < at("annotation"));
    assert!(at("annotation") < at("sizes") && at("examples") < at("settings"));
    let findings = &html[at("findings")..at("scores")];
    let sc: serde_json::Value = serde_json::from_str(&read(&sets.join("scores.json"))).unwrap();
    let score = |sys: &str, bucket: &str| -> f64 {
        sc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| {
                r["system"] == sys
                    && r["metric"] == "bleu"
                    && r["phenomenon"] == "particle"
                    && r["bucket"] == bucket
            })
            .unwrap()["score"]
            .as_f64()
            .unwrap()
    };
    for sys in ["drop3", "swap"] {
        let block = &findings[findings
            .find(&format!("<h3 id=\"findings-{sys}\">{sys}</h3>"))
            .unwrap()..];
        let row = &block[block.find("<td>particle</td><td>BLEU</td>").unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        let (first, last) = (score(sys, "ge0"), score(sys, "ge5"));
        assert!(
            row.contains(&format!("{first:.2} <small>(d ≥ 0, n ")),
            "{row}"
        );
        assert!(
            row.contains(&format!("{last:.2} <small>(d ≥ 5, n ")),
            "{row}"
        );
        // Without locus accuracy the within-sentence comparison is said to be unmeasured.
        assert!(
            block.contains("Within-sentence comparison: not measured"),
            "{block}"
        );
    }
    let annotation = &html[at("annotation")..at("sizes")];
    assert!(
        annotation.contains("detection sheet, 2 annotators"),
        "{annotation}"
    );
    assert!(annotation.contains(&format!("{kappa:.2}")), "{annotation}");
    assert!(
        annotation.contains("<td>particle</td><td class=\"n\">5</td>"),
        "{annotation}"
    );
}

/// The text of `html` between `from` and the next `to` after it.
fn between<'a>(html: &'a str, from: &str, to: &str) -> &'a str {
    let a = html.find(from).unwrap_or_else(|| panic!("no {from}")) + from.len();
    &html[a..a + html[a..]
        .find(to)
        .unwrap_or_else(|| panic!("no {to} after {from}"))]
}

/// Findings are read from the same score tables as the Scores section: every set a table
/// marks lower than its controls (`!`, `†`) is listed in Findings for that system,
/// phenomenon and metric with the same mark — the `ge` sets too, not only the `eq` ones —
/// nothing else is, and small sets carry the tables' ⚠ there as well. The paired test's
/// `*` is no finding.
#[test]
fn findings_list_every_set_the_tables_mark_worse_than_controls() {
    let (_tmp, sets) = scored(3);
    run_ok(&["report", "-q", "--sets", s(&sets)]);
    let html = read(&sets.join("report.html"));
    let sc: serde_json::Value = serde_json::from_str(&read(&sets.join("scores.json"))).unwrap();
    let systems: Vec<String> = sc["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap().to_string())
        .collect();
    // (system, metric label, phenomenon, bucket, mark, small) as the set tables show them.
    let mut marked = BTreeSet::new();
    let scores = between(&html, "<section id=\"scores\">", "</section>");
    for chunk in scores.split("<h3 id=\"metric-").skip(1) {
        let label = between(chunk, "\">", "</h3>");
        let table = between(chunk, "<details open>", "</details>");
        for row in table.split("<tr><th scope=\"row\">").skip(1) {
            let (phenomenon, bucket) = between(row, "", "</th>").split_once('/').unwrap();
            let small = between(row, "</th>", "</td>").contains('⚠');
            // Per system: the score's paired mark, then the controls' mark.
            let strong: Vec<&str> = row.split("<strong>").skip(1).collect();
            for (k, cell) in strong.iter().skip(1).step_by(2).enumerate() {
                let mark = &cell[..cell.find("</strong>").unwrap()];
                if !mark.is_empty() {
                    let key = (
                        systems[k].clone(),
                        label.to_string(),
                        phenomenon.to_string(),
                    );
                    marked.insert((key, bucket.to_string(), mark.to_string(), small));
                }
            }
        }
    }
    assert!(
        marked.iter().any(|(_, b, _, _)| b.starts_with("ge")),
        "the fixture has no ge set marked worse than its controls: {marked:?}"
    );
    // The same, as Findings lists them.
    let mut listed = BTreeSet::new();
    let findings = between(&html, "<section id=\"findings\">", "</section>");
    for sys in &systems {
        let block = between(
            findings,
            &format!("<h3 id=\"findings-{sys}\">{sys}</h3>"),
            "</table>",
        );
        for row in block.split("<tr><td>").skip(1) {
            let cells: Vec<&str> = row.split("</td>").collect();
            let (phenomenon, label) = (cells[0], &cells[1][4..]);
            let worse = &cells[7][4..];
            if worse == "–" {
                continue;
            }
            let worse = worse
                .strip_prefix(
                    "lower than length-matched sentences (other sentence properties differ too): ",
                )
                .unwrap_or_else(|| panic!("{worse}"));
            for item in worse.split("; ") {
                let (bucket, rest) = item.split_once(" <strong>").unwrap();
                let mark = &rest[..rest.find("</strong>").unwrap()];
                assert!(rest.contains("(p ") || rest.contains("(q "), "{rest}");
                let key = (sys.clone(), label.to_string(), phenomenon.to_string());
                listed.insert((
                    key,
                    bucket.to_string(),
                    mark.to_string(),
                    rest.contains('⚠'),
                ));
            }
        }
    }
    assert_eq!(listed, marked);
}

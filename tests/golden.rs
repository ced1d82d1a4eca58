//! Behaviour is preserved: the SHA-256 of every file `extract` writes (except
//! `manifest.json`, which records machine-specific paths) for three runs on the shared
//! corpora, compared with the values recorded in `tests/golden/*.sha256` before the
//! restructuring of issue 8.
//!
//! - `pud-de-en`: PUD German → English from the gold trees;
//! - `pud-en-de`: PUD English → German from the gold trees;
//! - `newstest2013-de-en`: newstest2013 German → English parsed by `german-small`;
//! - `*-paper`: the same three runs with `--paper-compat`, recorded with the binary of
//!   before issue 54 (the paper's rules were then the default rules).
//!
//! All with default options besides that flag (10 controls, seed 1, reordering sets with the built-in
//! aligner trained on the corpus itself). The manifest's schema is pinned too: the path of
//! every field it holds (`tests/golden/*.manifest-fields`), so that renaming a field of a
//! type the manifest records is a visible change of the file format, not a silent one.
//! `LDD_SETS_RECORD_GOLDEN=1` rewrites the recorded files instead of comparing (only when
//! a deliberate change is made; the commit must say which values changed and why).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::Ldd;
use sha2::{Digest, Sha256};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// `relative path -> sha256` of every file below `root` except `manifest.json`.
fn checksums(root: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                if rel != "manifest.json" {
                    let bytes = std::fs::read(&p).unwrap();
                    out.insert(rel, format!("{:x}", Sha256::digest(&bytes)));
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// Every field path of a JSON value (`a.b`, `a[].c`; the file names of `checksums` as
/// `{file}`), sorted, once each.
fn field_paths(v: &serde_json::Value, at: &str, out: &mut std::collections::BTreeSet<String>) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                let k = if at == "checksums" {
                    "{file}"
                } else {
                    k.as_str()
                };
                let p = if at.is_empty() {
                    k.to_string()
                } else {
                    format!("{at}.{k}")
                };
                out.insert(p.clone());
                field_paths(x, &p, out);
            }
        }
        serde_json::Value::Array(a) => {
            for x in a {
                field_paths(x, &format!("{at}[]"), out);
            }
        }
        _ => {}
    }
}

fn check_manifest_fields(case: &str, out: &Path) {
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let mut got = std::collections::BTreeSet::new();
    field_paths(&m, "", &mut got);
    let text: String = got.iter().map(|p| format!("{p}\n")).collect();
    let file = golden_dir().join(format!("{case}.manifest-fields"));
    if std::env::var_os("LDD_SETS_RECORD_GOLDEN").is_some() {
        std::fs::write(&file, text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let want: std::collections::BTreeSet<String> = want.lines().map(str::to_string).collect();
    assert!(want.len() > 100, "{case}: {} recorded fields", want.len());
    let gone: Vec<_> = want.difference(&got).collect();
    let new: Vec<_> = got.difference(&want).collect();
    assert!(
        gone.is_empty() && new.is_empty(),
        "{case}: manifest.json's fields differ from {} (a format change: bump format_version \
         or keep the old name with serde)\ngone: {gone:?}\nnew: {new:?}",
        file.display()
    );
}

/// What keeps manifest.json's values from being what the run wrote and read: its
/// `checksums` are the files' SHA-256 and cover every file; each input's bytes, lines and
/// SHA-256 are the file's; the corpus has the source's lines; each set and control file
/// holds the sentences the manifest counts; the tool, languages and default seed and
/// count of controls (10 where they were written) are the run's. None of it depends on
/// the detection rules: a re-recorded golden run keeps it true.
fn manifest_value_errors(m: &serde_json::Value, out: &Path, langs: (&str, &str)) -> Vec<String> {
    let mut errors = Vec::new();
    let mut expect = |what: String, got: &serde_json::Value, want: serde_json::Value| {
        if *got != want {
            errors.push(format!("{what}: {got} ≠ {want}"));
        }
    };
    let sums: BTreeMap<String, serde_json::Value> = checksums(out)
        .into_iter()
        .map(|(p, h)| (p, serde_json::Value::from(h)))
        .collect();
    expect("checksums".into(), &m["checksums"], serde_json::json!(sums));
    for side in ["source", "target", "conllu"] {
        let i = &m["inputs"][side];
        if side == "conllu" && i.is_null() {
            continue; // parsed by the run itself
        }
        let Some(bytes) = i["path"].as_str().and_then(|p| std::fs::read(p).ok()) else {
            expect(
                format!("inputs.{side}.path"),
                &i["path"],
                "a readable file".into(),
            );
            continue;
        };
        let lines = bytes.iter().filter(|&&b| b == b'\n').count();
        let sha = format!("{:x}", Sha256::digest(&bytes));
        expect(
            format!("inputs.{side}.bytes"),
            &i["bytes"],
            bytes.len().into(),
        );
        expect(format!("inputs.{side}.sha256"), &i["sha256"], sha.into());
        if side != "conllu" {
            expect(format!("inputs.{side}.lines"), &i["lines"], lines.into());
        }
    }
    let src_lines = m["inputs"]["source"]["lines"].clone();
    expect("corpus.lines".into(), &m["corpus"]["lines"], src_lines);
    expect(
        "languages".into(),
        &m["languages"],
        serde_json::json!({"source": langs.0, "target": langs.1}),
    );
    expect("tool.name".into(), &m["tool"]["name"], "ldd-sets".into());
    expect(
        "tool.version".into(),
        &m["tool"]["version"],
        env!("CARGO_PKG_VERSION").into(),
    );
    expect(
        "tool.command[1]".into(),
        &m["tool"]["command"][1],
        "extract".into(),
    );
    errors.extend(set_file_errors(m, out));
    errors
}

/// What keeps each set and control file from holding the sentences the manifest counts,
/// or the controls from their default seed and count (10 where they were written).
fn set_file_errors(m: &serde_json::Value, out: &Path) -> Vec<String> {
    let mut errors = Vec::new();
    let mut expect = |what: String, got: serde_json::Value, want: &serde_json::Value| {
        if got != *want {
            errors.push(format!("{what}: {got} ≠ {want}"));
        }
    };
    let lines_of = |rel: &serde_json::Value| {
        let text =
            std::fs::read_to_string(out.join(rel.as_str().unwrap_or("-"))).unwrap_or_default();
        serde_json::Value::from(text.lines().count())
    };
    for s in m["sets"].as_array().into_iter().flatten() {
        let what = format!("sets {}/{}", s["phenomenon"], s["bucket"]);
        for file in ["source", "target", "ids"] {
            expect(
                format!("{what} {file}"),
                lines_of(&s["files"][file]),
                &s["sentences"],
            );
        }
    }
    for c in m["controls"].as_array().into_iter().flatten() {
        let what = format!("controls {}/{}", c["phenomenon"], c["bucket"]);
        expect(format!("{what} seed"), c["seed"].clone(), &1.into());
        let files = c["files"].as_array().map_or(0, Vec::len);
        expect(format!("{what} files"), c["count"].clone(), &files.into());
        if c["status"] == "written" {
            expect(format!("{what} count"), c["count"].clone(), &10.into());
        }
        for f in c["files"].as_array().into_iter().flatten() {
            let file = format!("{what} {}", f["source"]);
            expect(file, lines_of(&f["source"]), &c["sentences"]);
        }
    }
    errors
}

/// manifest.json's values against the run (`manifest_value_errors`), and the check itself
/// against a tampered copy: a set's count, a checksum and an input's size changed are each
/// found.
fn check_manifest_values(case: &str, out: &Path, langs: (&str, &str)) {
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert!(
        m["sets"].as_array().is_some_and(|s| s.len() > 5),
        "{case}: {}",
        m["sets"]
    );
    let errors = manifest_value_errors(&m, out, langs);
    assert!(
        errors.is_empty(),
        "{case}: manifest.json's values:\n{}",
        errors.join("\n")
    );
    let mut bad = m.clone();
    bad["sets"][0]["sentences"] = (m["sets"][0]["sentences"].as_u64().unwrap() + 1).into();
    let first = m["checksums"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    bad["checksums"][first.as_str()] = "0".repeat(64).into();
    bad["inputs"]["source"]["bytes"] = 1.into();
    assert_eq!(manifest_value_errors(&bad, out, langs).len(), 5, "{case}");
}

fn check(case: &str, out: &Path) {
    check_manifest_fields(case, out);
    let langs = if case.starts_with("pud-en") {
        ("en", "de")
    } else {
        ("de", "en")
    };
    check_manifest_values(case, out, langs);
    let got = checksums(out);
    let file = golden_dir().join(format!("{case}.sha256"));
    let text: String = got.iter().map(|(p, h)| format!("{h}  {p}\n")).collect();
    if std::env::var_os("LDD_SETS_RECORD_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&file, text).unwrap();
        return;
    }
    let want: BTreeMap<String, String> = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
        .lines()
        .map(|l| {
            let (h, p) = l.split_once("  ").expect("`sha256  path` lines");
            (p.to_string(), h.to_string())
        })
        .collect();
    assert!(want.len() > 100, "{case}: {} recorded files", want.len());
    let missing: Vec<_> = want.keys().filter(|k| !got.contains_key(*k)).collect();
    let extra: Vec<_> = got.keys().filter(|k| !want.contains_key(*k)).collect();
    let differ: Vec<_> = want
        .iter()
        .filter(|(k, h)| got.get(*k).is_some_and(|g| g != *h))
        .map(|(k, _)| k)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && differ.is_empty(),
        "{case}: output differs from {}\nmissing: {missing:?}\nextra: {extra:?}\ndiffer: {differ:?}",
        file.display()
    );
}

fn pud(src: &str, case: &str, extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut args = vec!["--threads", "2"];
    args.extend(extra);
    common::extract_pud(src, &out, &args);
    check(case, &out);
}

/// The parse cache of the newstest2013 runs, shared so that the corpus is parsed once.
fn newstest_cache() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

fn newstest(case: &str, extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    Ldd::cmd("extract")
        .newstest()
        .small_german(&newstest_cache().join("cache"))
        .out(&out)
        .args(&["--quiet"])
        .args(extra)
        .ok();
    check(case, &out);
}

#[test]
fn pud_de_en_gold_trees() {
    pud("de", "pud-de-en", &[]);
}

#[test]
fn pud_en_de_gold_trees() {
    pud("en", "pud-en-de", &[]);
}

#[test]
fn newstest2013_de_en_small_model() {
    newstest("newstest2013-de-en", &[]);
}

// `--paper-compat` keeps the paper's method exactly: the files of these runs were recorded
// with the binary of before issue 54 (its rules, the paper's, were then the default), and
// stay byte-identical whatever the default rules become.

#[test]
fn pud_de_en_gold_trees_paper_compat() {
    pud("de", "pud-de-en-paper", &["--paper-compat"]);
}

#[test]
fn pud_en_de_gold_trees_paper_compat() {
    pud("en", "pud-en-de-paper", &["--paper-compat"]);
}

#[test]
fn newstest2013_de_en_small_model_paper_compat() {
    newstest("newstest2013-de-en-paper", &["--paper-compat"]);
}

//! Helpers shared by the integration tests: paths to ../shared and running the binary.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `../shared` beside the repository root.
pub fn shared() -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    assert!(
        p.join("data").is_dir(),
        "tests need ../shared beside the repository root (looked at {})",
        p.display()
    );
    p
}

/// A file under `../shared/data`.
pub fn data(rel: &str) -> PathBuf {
    shared().join("data").join(rel)
}

/// Runs `ldd-sets` with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ldd-sets"))
        .args(args)
        .output()
        .expect("the ldd-sets binary runs")
}

/// Runs `ldd-sets` and asserts success.
pub fn run_ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(
        out.status.success(),
        "ldd-sets {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Lines of a text file.
pub fn lines(p: &Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// The ids of a set as numbers.
pub fn ids(dir: &Path, set: &str) -> BTreeSet<u64> {
    lines(&dir.join(format!("{set}.ids")))
        .iter()
        .map(|l| l.parse().expect("an id"))
        .collect()
}

/// Runs `extract` on PUD with the given source language (gold trees) into `out`.
pub fn extract_pud(src: &str, out: &Path, extra: &[&str]) -> Output {
    let tgt = if src == "de" { "en" } else { "de" };
    let s = data(&format!("parallel/pud.de-en.{src}"));
    let t = data(&format!("parallel/pud.de-en.{tgt}"));
    let c = data(&format!("ud/{src}_pud-ud-test.conllu"));
    let mut args = vec![
        "extract",
        "--src",
        s.to_str().unwrap(),
        "--tgt",
        t.to_str().unwrap(),
        "--src-lang",
        src,
        "--tgt-lang",
        tgt,
        "--conllu",
        c.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_ok(&args)
}

/// Whether a directory is absent or empty.
pub fn absent_or_empty(p: &Path) -> bool {
    !p.exists()
        || std::fs::read_dir(p)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false)
}

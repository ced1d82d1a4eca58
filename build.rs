//! The aligner cache's code key (`LDD_SETS_ALIGNER_CODE`): the SHA-256 of the sources
//! whose change can change a trained aligner model — the aligner crate and the code that
//! gives it its training pairs. A cached model is reused only by a binary built from the
//! same sources, so a change of the aligner never meets a model trained by another.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

const SOURCES: [&str; 3] = [
    "crates/align/src",
    "src/pipeline/align/mod.rs",
    "src/pipeline/detect/line.rs",
];

fn files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            files(&e, out);
        }
    } else if p.extension().is_some_and(|e| e == "rs") {
        out.push(p.to_path_buf());
    }
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut all = Vec::new();
    for s in SOURCES {
        println!("cargo:rerun-if-changed={s}");
        files(&root.join(s), &mut all);
    }
    let mut h = Sha256::new();
    for f in &all {
        let rel = f.strip_prefix(&root).unwrap_or(f);
        h.update(rel.to_string_lossy().as_bytes());
        h.update([0]);
        h.update(std::fs::read(f).unwrap_or_default());
        h.update([0]);
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=LDD_SETS_ALIGNER_CODE={}", &hex[..16]);
}

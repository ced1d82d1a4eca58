//! Property tests (proptest) of the readers that take hostile input: the CoNLL-U reader, the
//! rules parser, the Pharaoh reader and the manifest reader. Inputs are built from real
//! lines and fragments mutated at random (bytes flipped, lines cut, fields swapped, control
//! characters and huge numbers inserted). Properties: no panic; an error names the file and
//! a line that exists; whatever is accepted satisfies the reader's invariants. The number of
//! cases is fixed (`PROPTEST_CASES` raises it), so the run takes seconds in CI.

mod common;

use std::io::Write;
use std::path::Path;

use proptest::prelude::*;

use ldd_conllu::{for_each_sentence, Extra};
use ldd_sets::format::manifest::Manifest;
use ldd_sets::pipeline::detect::rules::RuleSet;
use ldd_sets::pipeline::read::sets::resolve;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Pieces of real input, to be recombined and mutated.
fn conllu_lines() -> Vec<String> {
    let text = std::fs::read_to_string(common::data("ud/de_pud-ud-test.conllu")).unwrap();
    text.lines().take(400).map(str::to_string).collect()
}

/// A mutation of a list of lines.
#[derive(Debug, Clone)]
enum Mutation {
    Flip { at: usize, byte: u8 },
    Cut { at: usize },
    Dup { at: usize },
    Insert { at: usize, text: String },
    SwapTabs { at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let nasty = prop_oneof![
        Just("\u{1b}[2J".to_string()),
        Just("\0".to_string()),
        Just("\t".to_string()),
        Just("99999999999999999999".to_string()),
        Just("-1".to_string()),
        Just("0".to_string()),
        Just("1-0".to_string()),
        Just("3.1".to_string()),
        Just("\u{feff}".to_string()),
        Just("#".to_string()),
        Just("\r".to_string()),
        Just("../../etc/passwd".to_string()),
        "[ -~]{0,12}",
    ];
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        any::<usize>().prop_map(|at| Mutation::Cut { at }),
        any::<usize>().prop_map(|at| Mutation::Dup { at }),
        (any::<usize>(), nasty).prop_map(|(at, text)| Mutation::Insert { at, text }),
        any::<usize>().prop_map(|at| Mutation::SwapTabs { at }),
    ]
}

fn apply(text: &str, muts: &[Mutation]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for m in muts {
        let n = bytes.len().max(1);
        match m {
            Mutation::Flip { at, byte } => {
                if !bytes.is_empty() {
                    bytes[at % n] = *byte;
                }
            }
            Mutation::Cut { at } => bytes.truncate(at % n),
            Mutation::Dup { at } => {
                let start = at % n;
                let end = (start + 40).min(bytes.len());
                let piece = bytes[start..end].to_vec();
                bytes.splice(start..start, piece);
            }
            Mutation::Insert { at, text } => {
                let at = at % n;
                bytes.splice(at..at, text.bytes());
            }
            Mutation::SwapTabs { at } => {
                let tabs: Vec<usize> = bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\t')
                    .map(|(i, _)| i)
                    .collect();
                if !tabs.is_empty() {
                    let i = tabs[at % tabs.len()];
                    bytes[i] = b' ';
                }
            }
        }
    }
    bytes
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
    p
}

/// The line an error message names, `path:LINE: ...`.
fn line_of(msg: &str, path: &Path) -> Option<u64> {
    let rest = msg.strip_prefix(&format!("{}:", path.display()))?;
    rest.split(':').next()?.parse().ok()
}

fn line_count(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1
}

proptest! {
    #![proptest_config(config())]

    /// CoNLL-U: no panic; errors name the file and an existing line; accepted sentences
    /// are trees and write back to text that reads as the same sentences.
    #[test]
    fn conllu_reader(start in 0usize..300, len in 1usize..100, muts in prop::collection::vec(mutation(), 0..6)) {
        let lines = conllu_lines();
        let end = (start + len).min(lines.len());
        let text = lines[start..end].join("\n") + "\n";
        let bytes = apply(&text, &muts);
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "f.conllu", &bytes);
        let mut written = Vec::new();
        let res = for_each_sentence(&p, |_, s| {
            s.check_tree().map_err(|e| ldd_io::Error::input(Path::new("tree"), 0, e.message))?;
            for (_, e) in &s.extras {
                if let Extra::Multiword { first, last, .. } = e {
                    assert!(*first >= 1 && first < last && *last as usize <= s.len());
                }
            }
            s.write(&mut written).unwrap();
            Ok::<(), ldd_io::Error>(())
        });
        match res {
            Ok(n) => {
                let again = write(dir.path(), "g.conllu", &written);
                let mut rewritten = Vec::new();
                let m = for_each_sentence(&again, |_, s| {
                    s.write(&mut rewritten).unwrap();
                    Ok::<(), ldd_io::Error>(())
                }).unwrap();
                prop_assert_eq!(m, n);
                prop_assert!(rewritten == written);
            }
            Err(e) => {
                let msg = e.to_string();
                let line = line_of(&msg, &p);
                prop_assert!(line.is_some(), "no file:line in {msg}");
                let line = line.unwrap();
                prop_assert!(line >= 1 && line <= line_count(&bytes), "{msg}");
                prop_assert!(!msg.contains('\u{1b}') && !msg.contains('\0'), "{msg:?}");
            }
        }
    }

    /// Rules: no panic; errors name the file (and a line that exists); accepted rules have
    /// valid names and patterns, each with at least one dependent condition.
    #[test]
    fn rules_parser(muts in prop::collection::vec(mutation(), 0..6)) {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("config/phenomena.toml"),
        ).unwrap();
        let bytes = apply(&text, &muts);
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "r.toml", &bytes);
        match RuleSet::load(&p) {
            Ok(r) => {
                prop_assert!(!r.phenomena.is_empty());
                for ph in &r.phenomena {
                    prop_assert!(ldd_io::name::is_valid(ldd_io::NameKind::Phenomenon, &ph.name));
                    prop_assert!(!ph.patterns.is_empty());
                    prop_assert!(ph.patterns.iter().all(|x| x.dependent != Default::default()));
                }
                prop_assert!(r.max_distance <= 100);
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.contains(&p.display().to_string()), "{msg}");
                if let Some(line) = line_of(&msg, &p) {
                    prop_assert!(line <= line_count(&bytes), "{msg}");
                }
                prop_assert!(!msg.contains('\u{1b}') && !msg.contains('\0'), "{msg:?}");
            }
        }
    }

    /// Pharaoh: no panic; every accepted link lies inside its sentence pair; errors name the
    /// file and an existing line (or the line counts).
    #[test]
    fn pharaoh_reader(muts in prop::collection::vec(mutation(), 0..6)) {
        let text = "0-0 1-1 2-3\n\n3-2 0-1\n1-0\n";
        let lens = [(3, 4), (1, 1), (4, 3), (2, 1)];
        let bytes = apply(text, &muts);
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "a.align", &bytes);
        match ldd_align::pharaoh::read_file(&p, Some(&lens)) {
            Ok(al) => {
                prop_assert_eq!(al.len(), lens.len());
                for (a, (s, t)) in al.iter().zip(lens) {
                    prop_assert!(a.iter().all(|&(i, j)| i < s && j < t));
                }
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.contains(&p.display().to_string()), "{msg}");
                prop_assert!(!msg.contains('\u{1b}') && !msg.contains('\0'), "{msg:?}");
            }
        }
    }

    /// Manifest: no panic; an accepted manifest's file names all stay inside the directory
    /// (or are refused by `resolve`).
    #[test]
    fn manifest_reader(muts in prop::collection::vec(mutation(), 0..4)) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o");
        let text = manifest_text();
        let bytes = apply(&text, &muts);
        std::fs::create_dir(&out).unwrap();
        write(&out, "manifest.json", &bytes);
        match Manifest::read(&out) {
            Ok(m) => {
                for s in &m.sets {
                    for f in s.files.all() {
                        if let Ok(p) = resolve(&out, f) {
                            prop_assert!(p.starts_with(&out));
                            prop_assert!(!p.components().any(|c| matches!(c, std::path::Component::ParentDir)));
                        }
                    }
                }
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.contains("manifest.json"), "{msg}");
                prop_assert!(!msg.contains('\u{1b}') && !msg.contains('\0'), "{msg:?}");
            }
        }
    }
}

/// A real manifest (PUD, gold trees, no controls, no reordering), made once.
fn manifest_text() -> String {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o");
        common::extract_pud("de", &out, &["--controls", "0", "--no-reorder", "--quiet"]);
        std::fs::read_to_string(out.join("manifest.json")).unwrap()
    })
    .clone()
}

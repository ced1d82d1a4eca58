//! Helpers shared by the integration tests: paths to ../shared and running the binary.
#![allow(dead_code)]

pub mod markdown;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{Read, Write};
use std::net::TcpListener;
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
    Ldd::default().args(args).run()
}

/// Runs `ldd-sets` and asserts success.
pub fn run_ok(args: &[&str]) -> Output {
    Ldd::default().args(args).ok()
}

/// stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file under `dir`: relative path → bytes.
pub fn snapshot(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
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

/// The inputs of PUD with `src` (`de` or `en`) as the source side, with its gold trees, as
/// arguments: `--src … --tgt … --src-lang … --tgt-lang … --conllu …`.
pub fn pud_inputs(src: &str) -> Vec<String> {
    let tgt = if src == "de" { "en" } else { "de" };
    let path = |rel: String| data(&rel).to_str().unwrap().to_string();
    [
        "--src".to_string(),
        path(format!("parallel/pud.de-en.{src}")),
        "--tgt".into(),
        path(format!("parallel/pud.de-en.{tgt}")),
        "--src-lang".into(),
        src.into(),
        "--tgt-lang".into(),
        tgt.into(),
        "--conllu".into(),
        path(format!("ud/{src}_pud-ud-test.conllu")),
    ]
    .to_vec()
}

/// `cmd`, then [`pud_inputs`] of `src`, then `rest`: a command line for [`run`].
pub fn pud_command(cmd: &str, src: &str, rest: &[&str]) -> Vec<String> {
    let mut v = vec![cmd.to_string()];
    v.extend(pud_inputs(src));
    v.extend(rest.iter().map(|x| x.to_string()));
    v
}

/// The arguments as `&str`, for [`run`] and [`run_ok`].
pub fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// A command line of `ldd-sets`, built by what the run is made of rather than spelled flag
/// by flag: `Ldd::cmd("extract").newstest().small_german(&cache).out(&o).ok()`.
#[derive(Debug, Clone, Default)]
pub struct Ldd {
    args: Vec<String>,
    dir: Option<PathBuf>,
    /// Environment changes: a value set, or `None` for a variable removed.
    env: Vec<(String, Option<PathBuf>)>,
}

impl Ldd {
    /// The arguments given so far (the command first).
    pub fn argv(&self) -> Vec<String> {
        self.args.clone()
    }

    /// `ldd-sets CMD`.
    pub fn cmd(cmd: &str) -> Ldd {
        Ldd::default().args(&[cmd])
    }

    /// More arguments, as they are.
    pub fn args(mut self, args: &[&str]) -> Ldd {
        self.args.extend(args.iter().map(|a| a.to_string()));
        self
    }

    /// `FLAG PATH`.
    pub fn path(self, flag: &str, p: &Path) -> Ldd {
        self.args(&[flag, p.to_str().expect("a UTF-8 path")])
    }

    /// `--out DIR`.
    pub fn out(self, dir: &Path) -> Ldd {
        self.path("--out", dir)
    }

    /// `--src S --tgt T --src-lang A --tgt-lang B`.
    pub fn corpus(self, src: &Path, tgt: &Path, (a, b): (&str, &str)) -> Ldd {
        self.path("--src", src)
            .path("--tgt", tgt)
            .args(&["--src-lang", a, "--tgt-lang", b])
    }

    /// The shared newstest2013, German → English.
    pub fn newstest(self) -> Ldd {
        self.corpus(
            &data("parallel/newstest2013.de-en.de"),
            &data("parallel/newstest2013.de-en.en"),
            ("de", "en"),
        )
    }

    /// PUD with `src` (`de` or `en`) as the source side and its gold trees ([`pud_inputs`]).
    pub fn pud(mut self, src: &str) -> Ldd {
        self.args.extend(pud_inputs(src));
        self
    }

    /// The small German UDPipe model of ../shared, with the parse cache in `cache`.
    pub fn small_german(self, cache: &Path) -> Ldd {
        self.path("--model", &german_small()).path("--cache", cache)
    }

    /// Runs in `dir` instead of the test's directory.
    pub fn current_dir(mut self, dir: &Path) -> Ldd {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// Sets the environment variable `k` to `v` for the run.
    pub fn env(mut self, k: &str, v: &Path) -> Ldd {
        self.env.push((k.to_string(), Some(v.to_path_buf())));
        self
    }

    /// Removes the environment variable `k` for the run.
    pub fn env_remove(mut self, k: &str) -> Ldd {
        self.env.push((k.to_string(), None));
        self
    }

    /// The command, for a test that spawns it, feeds it input or signals it.
    pub fn command(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_ldd-sets"));
        c.args(&self.args);
        if let Some(d) = &self.dir {
            c.current_dir(d);
        }
        for (k, v) in &self.env {
            match v {
                Some(v) => c.env(k, v),
                None => c.env_remove(k),
            };
        }
        c
    }

    /// Runs it.
    pub fn run(&self) -> Output {
        self.command().output().expect("the ldd-sets binary runs")
    }

    /// Runs it and asserts success.
    pub fn ok(&self) -> Output {
        let out = self.run();
        assert!(
            out.status.success(),
            "ldd-sets {:?} failed: {}",
            self.args,
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }
}

/// The small German UDPipe model of ../shared.
pub fn german_small() -> PathBuf {
    shared().join("models/german-small.udpipe")
}

/// Runs `extract` on PUD with the given source language (gold trees) into `out`.
pub fn extract_pud(src: &str, out: &Path, extra: &[&str]) -> Output {
    Ldd::cmd("extract").pud(src).out(out).args(extra).ok()
}

/// Whether a directory is absent or empty.
pub fn absent_or_empty(p: &Path) -> bool {
    !p.exists()
        || std::fs::read_dir(p)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false)
}

/// Serves `files` (path -> body) on 127.0.0.1 for at most `max` requests; returns the base
/// URL. Unknown paths get a 404.
pub fn serve(files: HashMap<String, Vec<u8>>, max: usize) -> String {
    serve_typed(
        files.into_iter().map(|(k, v)| (k, (None, v))).collect(),
        max,
    )
}

/// Like [`serve`], with an optional `Content-Type` per path.
pub fn serve_typed(files: HashMap<String, (Option<&'static str>, Vec<u8>)>, max: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(max) {
            let Ok(mut s) = stream else { continue };
            let mut req = Vec::new();
            let mut buf = [0u8; 1024];
            while !req.windows(4).any(|w| w == b"\r\n\r\n") {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => req.extend_from_slice(&buf[..n]),
                }
            }
            let req = String::from_utf8_lossy(&req);
            let path = req.split_whitespace().nth(1).unwrap_or("/").to_string();
            let resp = match files.get(&path) {
                Some((ctype, body)) => {
                    let ctype = ctype
                        .map(|c| format!("Content-Type: {c}\r\n"))
                        .unwrap_or_default();
                    let mut r = format!(
                        "HTTP/1.1 200 OK\r\n{ctype}Content-Length: {}\r\nConnection: close\r\n\r\n",
                        body.len()
                    )
                    .into_bytes();
                    r.extend_from_slice(body);
                    r
                }
                None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_vec(),
            };
            let _ = s.write_all(&resp);
        }
    });
    format!("http://{addr}")
}

/// The files in a directory (names), sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// `relative path -> bytes` of every file below `root`.
pub fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The manifest text without its `shard` record (the last key of the manifest).
/// A manifest's JSON without its shard record and its recorded command line (a merged
/// run's is `merge`'s; each shard's is in the shard record).
fn without_shard_record(manifest: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(manifest).unwrap();
    v.as_object_mut().unwrap().remove("shard");
    v["tool"].as_object_mut().unwrap().remove("command");
    v
}

/// Asserts that `merged` holds exactly the files of `whole`, byte for byte, and the same
/// manifest but for the `shard` record and the command line recorded; returns the merged
/// manifest.
pub fn assert_same_output(whole: &Path, merged: &Path) -> serde_json::Value {
    let (a, b) = (files(whole), files(merged));
    let names_a: Vec<&String> = a.keys().collect();
    let names_b: Vec<&String> = b.keys().collect();
    assert_eq!(names_a, names_b, "the same files");
    assert!(a.len() > 50, "{} files", a.len());
    for (name, bytes) in &a {
        if name == "manifest.json" {
            continue;
        }
        assert!(&b[name] == bytes, "{name} differs");
    }
    let mw = String::from_utf8(a["manifest.json"].clone()).unwrap();
    let mm = String::from_utf8(b["manifest.json"].clone()).unwrap();
    assert!(
        !mw.contains("\"shard\""),
        "an unsharded run has no shard record"
    );
    assert!(
        mm.contains(",\n  \"shard\": {"),
        "a merged manifest has a shard record"
    );
    assert_eq!(
        without_shard_record(&mm),
        without_shard_record(&mw),
        "manifests differ beyond the shard record and the command line"
    );
    serde_json::from_str(&mm).unwrap()
}

/// Sentences of a CoNLL-U file as (word lines split into columns); deliberately
/// simple and independent of the crate's reader.
pub fn oracle_trees(path: &Path) -> Vec<Vec<Vec<String>>> {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|b| {
            b.lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| l.split('\t').map(str::to_string).collect::<Vec<_>>())
                .filter(|c| c[0].chars().all(|ch| ch.is_ascii_digit()))
                .collect()
        })
        .collect()
}

/// `line` without every third word (words split on spaces): a system made from the
/// reference.
pub fn without_every_third_word(line: &str) -> String {
    let w: Vec<&str> = line
        .split(' ')
        .enumerate()
        .filter(|(i, _)| i % 3 != 2)
        .map(|(_, w)| w)
        .collect();
    w.join(" ")
}

/// The venv's Python when it has `module` (`LDD_PYTHON` overrides; `LDD_SKIP_PYTHON=1`
/// skips the oracle comparison).
pub fn python_with(module: &str) -> Option<std::path::PathBuf> {
    if std::env::var("LDD_SKIP_PYTHON").as_deref() == Ok("1") {
        eprintln!("LDD_SKIP_PYTHON=1: skipping the statsmodels comparison");
        return None;
    }
    let py = std::env::var_os("LDD_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python")
        });
    let ok = std::process::Command::new(&py)
        .args(["-c", &format!("import {module}")])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "{module} not found at {} — tests/setup/install.sh, or set LDD_PYTHON (LDD_SKIP_PYTHON=1 skips)",
        py.display()
    );
    Some(py)
}

/// Runs the Python oracle `tests/oracle/SCRIPT` with the venv's Python holding `module`,
/// `input` on its stdin; its JSON output (`None`: Python comparisons skipped).
pub fn python_oracle(
    module: &str,
    script: &str,
    input: &serde_json::Value,
) -> Option<serde_json::Value> {
    use std::io::Write;
    let py = python_with(module)?;
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/oracle")
        .join(script);
    let mut child = std::process::Command::new(py)
        .arg(&script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{} failed", script.display());
    Some(serde_json::from_slice(&o.stdout).unwrap())
}

/// PUD with `src` (`de` or `en`) as the source side and its gold trees, the aligner trained
/// on the shared de-en corpora, no controls, into `out`.
pub fn pud_aligned(src: &str, out: &Path, extra: &[&str]) {
    let books = data("parallel/books-sample.de-en");
    let news = data("parallel/newstest2013.de-en");
    let mut args = vec!["--controls", "0", "--quiet"];
    args.extend(["--align-train", books.to_str().unwrap()]);
    args.extend(["--align-train", news.to_str().unwrap()]);
    args.extend_from_slice(extra);
    extract_pud(src, out, &args);
}

/// The paper's detection rules (what `--paper-compat` detects with), for fixtures whose
/// hand-checked sets are theirs; the reordering stays the default.
pub const PAPER_RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/config/phenomena-paper.toml");

//! The helpers the classes share: the binary, its exit code, PUD's extract arguments and
//! quick set directories, a command's peak memory, PUD's trees as blocks, sets scored or
//! judged with two systems, a file tree and its copy.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use super::common::*;

/// A path as an argument (the tests' paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The binary, through the common builder.
pub fn bin() -> Command {
    Ldd::default().command()
}

/// A command's exit code (-1 when a signal ended it).
pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// `extract` on PUD de→en from gold trees with `out` and extra arguments.
pub fn pud_args(out: &Path, extra: &[&str]) -> Vec<String> {
    pud_command("extract", "de", &[&["--out", s(out)], extra].concat())
}

/// PUD de→en sets without reordering or controls (fast), in `dir/sets`.
pub fn quick_sets(dir: &Path) -> std::path::PathBuf {
    let sets = dir.join("sets");
    let o = run_args(&pud_args(&sets, &["-q", "--no-reorder", "--controls", "0"]));
    assert!(o.status.success(), "{}", stderr(&o));
    sets
}

/// The binary run with `args`.
pub fn run_args(args: &[String]) -> Output {
    bin().args(args).output().unwrap()
}

/// Every entry of `dir` (names).
pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Runs `cmd` and returns its output and its own peak resident memory in bytes (the child
/// is reaped with `wait4`, which reports its resource use).
#[allow(clippy::zombie_processes)]
pub fn run_measured(cmd: &mut Command) -> (Output, u64) {
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let mut stderr_pipe = child.stderr;
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(p) = stderr_pipe.as_mut() {
            use std::io::Read;
            let _ = p.read_to_end(&mut s);
        }
        s
    });
    let mut status = 0;
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waiting for our own child; `ru` is ours to write.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    assert_eq!(r, pid);
    let stderr = reader.join().unwrap();
    let out = Output {
        status: std::os::unix::process::ExitStatusExt::from_raw(status),
        stdout: Vec::new(),
        stderr,
    };
    (out, ru.ru_maxrss as u64 * 1024)
}

/// The PUD German trees as blocks.
pub fn pud_blocks() -> Vec<String> {
    std::fs::read_to_string(data("ud/de_pud-ud-test.conllu"))
        .unwrap()
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|b| format!("{b}\n\n"))
        .collect()
}

/// `extract` on PUD de→en with `text` as its CoNLL-U (written to `tmp/name`).
pub fn with_conllu(tmp: &Path, name: &str, text: &str) -> Output {
    let p = tmp.join(name);
    std::fs::write(&p, text).unwrap();
    let mut args = pud_args(&tmp.join("out"), &["--controls", "0", "--no-reorder"]);
    let i = args.iter().position(|a| a == "--conllu").unwrap();
    args[i + 1] = s(&p).to_string();
    run_args(&args)
}

/// Every path below `dir`, relative, directories with a trailing `/`.
pub fn tree(dir: &Path) -> std::collections::BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut std::collections::BTreeSet<String>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if e.file_type().unwrap().is_dir() {
                out.insert(format!("{rel}/"));
                walk(root, &p, out);
            } else {
                out.insert(rel);
            }
        }
    }
    let mut out = std::collections::BTreeSet::new();
    walk(dir, dir, &mut out);
    out
}

/// A copy of the directory `from` at `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// A pair config in `dir` whose one corpus, `plain`, is downloaded from `base`.
pub fn pair_config(dir: &Path, base: &str) -> std::path::PathBuf {
    let pair = dir.join("pair.toml");
    std::fs::write(
        &pair,
        format!(
            "source = \"de\"\ntarget = \"en\"\nfiles = \"de-en\"\n[model]\nname = \"german-small.udpipe\"\n\
             [[corpus]]\nname = \"plain\"\nurl = \"{base}/plain.{{lang}}\"\nformat = \"plain\"\n"
        ),
    )
    .unwrap();
    pair
}

/// PUD sets (no reordering) in `dir/sets`, scored with a system `sys.en` (the reference).
pub fn scored_sets(dir: &Path) -> std::path::PathBuf {
    let sets = dir.join("sets");
    let o = run_args(&pud_args(&sets, &["-q", "--no-reorder", "--controls", "2"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let sys = dir.join("sys.en");
    std::fs::copy(data("parallel/pud.de-en.en"), &sys).unwrap();
    let o = bin()
        .args(["score", "-q", "--sets", s(&sets), "--hyp", s(&sys)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    sets
}

/// `parse` of the German side of PUD with the small test model.
pub fn parse_pud(cache: &Path, out: &Path) -> Command {
    let mut cmd = bin();
    cmd.args(["parse", "-q", "--src", s(&data("parallel/pud.de-en.de"))])
        .args(["--model", s(&shared().join("models/german-small.udpipe"))])
        .args(["--cache", s(cache), "--out", s(out)]);
    cmd
}

/// Asserts that a command failed with exit code `code` and a message containing `text`.
pub fn refused(o: &Output, code_: i32, text: &str) {
    assert_eq!(code(o), code_, "{}", stderr(o));
    assert!(stderr(o).contains(text), "{}", stderr(o));
}

/// PUD de→en sets from the gold trees with the aligner's model saved (`dir/model`), no
/// controls, the reference side `tgt` (default: PUD's) and `extra` arguments.
pub fn judged_sets(dir: &Path, tgt: Option<&Path>, extra: &[&str]) -> std::path::PathBuf {
    let sets = dir.join("sets");
    let model = dir.join("model");
    let mut args = pud_args(
        &sets,
        &[
            &["-q", "--controls", "0", "--save-align-model", s(&model)],
            extra,
        ]
        .concat(),
    );
    if let Some(t) = tgt {
        let i = args.iter().position(|a| a == "--tgt").unwrap();
        args[i + 1] = s(t).to_string();
    }
    let o = run_args(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    sets
}

/// `text`'s lines, each changed by `f`, written to `path`.
pub fn write_lines(path: &Path, text: &str, f: impl Fn(usize, &str) -> String) {
    let out: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| f(i, l) + "\n")
        .collect();
    std::fs::write(path, out).unwrap();
}

/// Two systems beside `dir`'s sets: `sysa.en` the reference, `sysb.en` without every third
/// word.
pub fn two_systems(dir: &Path) -> [std::path::PathBuf; 2] {
    let reference = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let (a, b) = (dir.join("sysa.en"), dir.join("sysb.en"));
    write_lines(&a, &reference, |_, l| l.to_string());
    write_lines(&b, &reference, |_, l| {
        let w: Vec<&str> = l.split(' ').collect();
        w.iter()
            .enumerate()
            .filter(|(k, _)| k % 3 != 2)
            .map(|(_, x)| *x)
            .collect::<Vec<_>>()
            .join(" ")
    });
    [a, b]
}

/// `sheets` of `sets` for the systems `hyps` into `out`, with `extra` arguments.
pub fn sheets_cmd(sets: &Path, hyps: &[&Path], out: &Path, extra: &[&str]) -> Output {
    let mut c = bin();
    c.args(["sheets", "-q", "--sets", s(sets), "--out", s(out)]);
    for h in hyps {
        c.args(["--hyp", s(h)]);
    }
    c.args(extra).output().unwrap()
}

/// No payload of a pasted command (a `PWNED…` file) appeared in `dir`.
pub fn no_payload(dir: &Path) {
    let pwned: Vec<String> = entries(dir)
        .into_iter()
        .filter(|e| e.starts_with("PWNED"))
        .collect();
    assert!(
        pwned.is_empty(),
        "a printed command ran a payload: {pwned:?}"
    );
}

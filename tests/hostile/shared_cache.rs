//! Class: the cache shared between runs and users. A cache that cannot be written still
//! serves what it holds (a cached parse), trains what it lacks for the run alone and says
//! so, and a miss names the cache and how to go on; each output's aligner is a file of its
//! own, never a hard link to the cache's; a run that waits for another process's parse says
//! so, and the wait is not reported as parse time.

use std::os::unix::fs::MetadataExt;

use super::*;

/// The first `n` lines of PUD de→en in `dir` (source, target).
fn pud_head(dir: &Path, n: usize) -> (std::path::PathBuf, std::path::PathBuf) {
    let side = |lang: &str| {
        let p = dir.join(format!("head{n}.{lang}"));
        let text = std::fs::read_to_string(data(&format!("parallel/pud.de-en.{lang}"))).unwrap();
        let lines: Vec<&str> = text.lines().take(n).collect();
        std::fs::write(&p, lines.join("\n") + "\n").unwrap();
        p
    };
    (side("de"), side("en"))
}

/// `extract` of `corpus` parsed by the small German model with the cache `cache` into
/// `out` (reorder sets, no controls).
fn extract(corpus: &(std::path::PathBuf, std::path::PathBuf), cache: &Path, out: &Path) -> Command {
    let mut c = Ldd::cmd("extract")
        .corpus(&corpus.0, &corpus.1, ("de", "en"))
        .small_german(cache)
        .out(out)
        .args(&["--controls", "0"])
        .command();
    c.env_remove("LDD_SETS_CACHE");
    c
}

/// Runs `c` as a user who cannot write what root made (nobody, when the tests run as
/// root; else as it is, the cache made read-only by its mode).
fn as_other_user(mut c: Command) -> Output {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        c.uid(65534).gid(65534);
    }
    c.output().unwrap()
}

/// Sets the mode of `p` and everything under it (directories `dir`, files `file`).
fn chmod_tree(p: &Path, dir: u32, file: u32) {
    let mode = if p.is_dir() { dir } else { file };
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
    if p.is_dir() {
        for e in std::fs::read_dir(p).unwrap() {
            chmod_tree(&e.unwrap().path(), dir, file);
        }
    }
}

#[test]
fn a_read_only_cache_serves_its_parse_and_says_what_it_cannot_keep() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let corpus = pud_head(t, 60);
    let cache = t.join("cache");
    let o = extract(&corpus, &cache, &t.join("first"))
        .arg("-q")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // The same cache without its aligners, read-only (another user's, shared).
    let ro = t.join("ro");
    copy_tree(&cache, &ro);
    std::fs::remove_dir_all(ro.join("aligners")).unwrap();
    let outs = t.join("outs");
    std::fs::create_dir(&outs).unwrap();
    chmod_tree(t, 0o755, 0o644);
    chmod_tree(&ro, 0o555, 0o444);
    std::fs::set_permissions(&outs, std::fs::Permissions::from_mode(0o777)).unwrap();
    let o = as_other_user(extract(&corpus, &ro, &outs.join("second")));
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("cache hit, not parsed again"), "{e}");
    assert!(
        e.contains("the aligner cache") && e.contains("cannot be written"),
        "{e}"
    );
    assert!(e.contains("not kept") && e.contains("--cache DIR"), "{e}");
    // The same sets as with a cache that could be written.
    for f in [
        "reorder/alignments.txt",
        "reflexive/ge0.ids",
        "particle/ge1.ids",
    ] {
        let (a, b) = (t.join("first").join(f), outs.join("second").join(f));
        assert_eq!(std::fs::read(&a).ok(), std::fs::read(&b).ok(), "{f}");
    }
    // A corpus whose parse is not in it: refused, naming the cache and what to do.
    let other = pud_head(t, 40);
    chmod_tree(&outs, 0o777, 0o666);
    let o = as_other_user(extract(&other, &ro, &outs.join("third")));
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(&format!("{}: the parse cache cannot be written", s(&ro))),
        "{e}"
    );
    assert!(
        e.contains("--cache DIR") && e.contains("--conllu FILE"),
        "{e}"
    );
    assert!(!outs.join("third").exists());
    chmod_tree(t, 0o755, 0o644);
}

#[test]
fn outputs_hold_copies_of_the_cached_aligner_never_links() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let corpus = pud_head(t, 60);
    let cache = t.join("cache");
    let model = |out: &str| t.join(out).join("reorder/aligner.hmm.ldda");
    for out in ["a", "b"] {
        let o = extract(&corpus, &cache, &t.join(out))
            .arg("-q")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let cached: Vec<std::path::PathBuf> = std::fs::read_dir(cache.join("aligners"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ldda"))
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
    let before = std::fs::read(&cached[0]).unwrap();
    for p in [model("a"), model("b"), cached[0].clone()] {
        assert_eq!(std::fs::metadata(&p).unwrap().nlink(), 1, "{}", p.display());
    }
    assert_eq!(std::fs::read(model("a")).unwrap(), before);
    // Editing one output's model changes neither the cache nor the other output, and the
    // next run still loads the cached model.
    std::fs::write(model("a"), b"edited").unwrap();
    assert_eq!(std::fs::read(&cached[0]).unwrap(), before);
    assert_eq!(std::fs::read(model("b")).unwrap(), before);
    let o = extract(&corpus, &cache, &t.join("c")).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("loaded from the cache"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(model("c")).unwrap(), before);
}

#[test]
fn a_run_waiting_for_anothers_parse_says_so_and_does_not_count_the_wait() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let corpus = pud_head(t, 30);
    let cache = t.join("cache");
    std::fs::create_dir(&cache).unwrap();
    // The entry's lock, held by this test as another ldd-sets process would hold it.
    let key_text = format!(
        "{}\n{}\n{}\n",
        ldd_parse::CACHE_FORMAT,
        ldd_io::sha256_file(&corpus.0).unwrap().0,
        ldd_io::sha256_file(&german_small()).unwrap().0
    );
    let key = ldd_io::sha256_bytes(key_text.as_bytes());
    let lock = cache.join(format!(".{key}.ldd-lock"));
    let me = std::process::id();
    std::fs::write(&lock, format!("ldd-sets lock, process {me}\n")).unwrap();
    let held = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&lock)
        .unwrap();
    held.lock().unwrap();
    let start = Instant::now();
    let child = extract(&corpus, &cache, &t.join("out"))
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(3));
    held.unlock().unwrap();
    drop(held);
    let o = child.wait_with_output().unwrap();
    let total = start.elapsed().as_secs_f64();
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "waiting for process {me}, which is parsing the same lines into the cache"
        )),
        "{e}"
    );
    // `parse: … parsed (P s, after waiting W s for process N, …)`: W is the wait, and P
    // the parse alone.
    let line = e.lines().find(|l| l.contains("ldd-sets: parse: ")).unwrap();
    let number = |after: &str| -> f64 {
        let rest = &line[line.find(after).unwrap() + after.len()..];
        rest[..rest.find(' ').unwrap()].parse().unwrap()
    };
    let (parse, wait) = (number("parsed ("), number("after waiting "));
    assert!(wait >= 2.9, "{line}");
    assert!(
        parse + wait <= total + 0.5,
        "{line}: the wait is counted as parse time"
    );
    assert!(line.contains(&format!("for process {me}")), "{line}");
}

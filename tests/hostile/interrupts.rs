//! Class: interrupts and concurrent runs. A signal removes staging and lock and leaves no
//! output; a second run on the same output fails at once while the first completes; a dead
//! process's staging is removed with a note; and every subcommand that writes, interrupted
//! at 20 random moments, leaves nothing behind.

use super::*;

/// A run that takes seconds: PUD with the aligner trained on the books sample too.
fn slow_args(out: &Path) -> Vec<String> {
    let books = data("parallel/books-sample.de-en");
    pud_args(out, &["--align-train", s(&books), "--quiet"])
}

/// Waits until `p` exists (or the time is up).
fn wait_for(p: &Path, secs: u64) -> bool {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(secs) {
        if p.exists() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn a_signal_removes_staging_and_lock_and_leaves_no_output() {
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGQUIT] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let child = bin()
            .args(slow_args(&out))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        assert!(wait_for(&tmp.path().join(".out.ldd-lock"), 30));
        std::thread::sleep(Duration::from_millis(800));
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(child.id() as i32, sig) };
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(128 + sig), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("temporary files removed"),
            "{}",
            stderr(&o)
        );
        assert!(entries(tmp.path()).is_empty(), "{:?}", entries(tmp.path()));
    }
}

#[test]
fn a_second_run_on_the_same_output_fails_at_once_and_the_first_completes() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let first = bin().args(slow_args(&out)).spawn().unwrap();
    assert!(wait_for(&tmp.path().join(".out.ldd-lock"), 30));
    let t = Instant::now();
    let o = run_args(&pud_args(&out, &["--controls", "0"]));
    assert!(t.elapsed() < Duration::from_secs(10));
    assert_eq!(code(&o), 7, "{}", stderr(&o));
    let want = format!("in use by process {}", first.id());
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    let o = first.wait_with_output().unwrap();
    assert!(o.status.success());
    assert!(out.join("manifest.json").exists());
    assert_eq!(entries(tmp.path()), vec!["out"]);
}

#[test]
fn stale_staging_of_a_dead_process_is_removed_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    // What a `kill -9` leaves: a staging directory of a process that no longer runs.
    let stale = tmp.path().join(".out.ldd-tmp-99999999-0");
    std::fs::create_dir_all(stale.join("reflexive")).unwrap();
    std::fs::write(stale.join("reflexive/ge0.de"), "x\n").unwrap();
    std::fs::write(stale.join(".ldd-staging"), "99999999").unwrap();
    // A directory of the user's with a staging name but without ldd-sets' marker stays.
    let users = tmp.path().join(".out.ldd-tmp-99999998-0");
    std::fs::create_dir_all(&users).unwrap();
    let o = run_args(&pud_args(&out, &["--controls", "0", "--no-reorder"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("left by process 99999999"),
        "{}",
        stderr(&o)
    );
    assert_eq!(entries(tmp.path()), vec![".out.ldd-tmp-99999998-0", "out"]);
}

/// A seeded generator of fractions in [0, 1) (SplitMix64).
struct Fractions(u64);

impl Fractions {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Runs `args` (where `{W}` stands for a fresh copy of `base`) once to its end, then 20
/// times interrupted by SIGINT or SIGTERM at random moments spread over its run time, and
/// checks that every interrupted run leaves no temporary file, staging directory or lock,
/// nothing that the complete run does not write, and each of `whole` (paths relative to
/// the copy) either as it was before or as the complete run writes it. Paths starting
/// with one of `resumable` may stay (the parse cache's `K.partial/`, kept by design so
/// that a second run resumes after the last complete chunk).
fn sweep(name: &str, base: &Path, args: &[String], whole: &[&str], resumable: &[&str]) {
    let work = tempfile::tempdir().unwrap();
    let argv = |w: &Path| -> Vec<String> { args.iter().map(|a| a.replace("{W}", s(w))).collect() };
    let before = tree(base);
    let sub = |set: &std::collections::BTreeSet<String>, p: &str| -> Vec<String> {
        set.iter()
            .filter(|x| *x == p || x.starts_with(&format!("{p}/")))
            .cloned()
            .collect()
    };

    // The shortest of three complete runs (a busy machine slows some), so that the random
    // moments fall inside a run.
    let mut full = Duration::MAX;
    let mut after = Default::default();
    for k in 0..3 {
        let w = work.path().join(format!("complete{k}"));
        copy_tree(base, &w);
        let t = Instant::now();
        let o = bin().args(argv(&w)).current_dir(&w).output().unwrap();
        full = full.min(t.elapsed());
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        after = tree(&w);
        std::fs::remove_dir_all(&w).unwrap();
    }

    let mut rng = Fractions(name.bytes().fold(7, |h, b| h * 31 + u64::from(b)));
    // At least 20 tries, and more (up to 40) until 10 were interrupted: a run that
    // completes before its signal (the machine got faster than when `full` was measured,
    // e.g. a build beside the tests ended) shows that a run takes at most that long.
    let mut interrupted = 0;
    let mut tries = 0;
    while tries < 20 || (interrupted < 10 && tries < 40) {
        let i = tries;
        tries += 1;
        let w = work.path().join(format!("try{i}"));
        copy_tree(base, &w);
        let at = full.mul_f64(((i % 20) as f64 + rng.next()) / 20.0);
        let sig = if i % 2 == 0 {
            libc::SIGINT
        } else {
            libc::SIGTERM
        };
        let child = bin()
            .args(argv(&w))
            .current_dir(&w)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(at);
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(child.id() as i32, sig) };
        let o = child.wait_with_output().unwrap();
        let now = tree(&w);
        let what = format!("{name}, try {i} (signal {sig} after {at:?} of {full:?})");
        let left: Vec<&String> = now
            .iter()
            .filter(|p| p.contains(".ldd-tmp") || p.contains(".ldd-lock") || p.contains("/.tmp"))
            .collect();
        assert!(left.is_empty(), "{what}: left {left:?}\n{}", stderr(&o));
        let foreign: Vec<&String> = now
            .iter()
            .filter(|p| !before.contains(*p) && !after.contains(*p))
            .filter(|p| !resumable.iter().any(|r| p.starts_with(r)))
            .collect();
        assert!(foreign.is_empty(), "{what}: {foreign:?}\n{}", stderr(&o));
        match o.status.code() {
            Some(0) => {
                assert_eq!(now, after, "{what}");
                full = full.min(at);
            }
            Some(c) if c == 128 + sig => {
                interrupted += 1;
                assert!(
                    stderr(&o).contains("temporary files removed"),
                    "{what}: {}",
                    stderr(&o)
                );
                for p in whole {
                    let (n, b, a) = (sub(&now, p), sub(&before, p), sub(&after, p));
                    assert!(n == b || n == a, "{what}: {p} is partial: {n:?}");
                }
            }
            // Stopped before the handlers were installed (process start): nothing written.
            None => {
                use std::os::unix::process::ExitStatusExt;
                assert_eq!(o.status.signal(), Some(sig), "{what}");
                assert_eq!(now, before, "{what}");
                interrupted += 1;
            }
            other => panic!("{what}: exit {other:?}: {}", stderr(&o)),
        }
        std::fs::remove_dir_all(&w).unwrap();
    }
    assert!(
        interrupted >= 10,
        "{name}: only {interrupted} of {tries} runs were interrupted"
    );
}

/// The first 300 lines of PUD de-en, their gold trees, and the sets extracted from them.
fn sweep_base() -> tempfile::TempDir {
    let base = tempfile::tempdir().unwrap();
    let b = base.path();
    for l in ["de", "en"] {
        let text = std::fs::read_to_string(data(&format!("parallel/pud.de-en.{l}"))).unwrap();
        let cut: String = text.lines().take(300).map(|x| format!("{x}\n")).collect();
        std::fs::write(b.join(format!("pud.de-en.{l}")), &cut).unwrap();
        // A "system": the reference with its lines reversed word by word.
        if l == "en" {
            let sys: String = cut
                .lines()
                .map(|x| x.split(' ').rev().collect::<Vec<_>>().join(" ") + "\n")
                .collect();
            std::fs::write(b.join("sys.en"), sys).unwrap();
        }
    }
    let trees: String = pud_blocks().into_iter().take(300).collect();
    std::fs::write(b.join("pud.conllu"), trees).unwrap();
    let extract = |out: &str, extra: &[&str]| {
        let mut a: Vec<String> = [
            "extract",
            "-q",
            "--src",
            "pud.de-en.de",
            "--tgt",
            "pud.de-en.en",
            "--src-lang",
            "de",
            "--tgt-lang",
            "en",
            "--conllu",
            "pud.conllu",
            "--out",
            out,
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        a.extend(extra.iter().map(|x| x.to_string()));
        let o = bin().args(&a).current_dir(b).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    };
    extract("sets", &["--save-align-model", "aligner"]);
    extract("shard1", &["--shard", "1/2", "--no-reorder"]);
    extract("shard2", &["--shard", "2/2", "--no-reorder"]);
    let o = bin()
        .args(["score", "-q", "--sets", "sets", "--hyp", "sys.en"])
        .current_dir(b)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // Two annotators' sheets, for `tally`.
    let o = bin()
        .args([
            "sheets",
            "-q",
            "--sets",
            "sets",
            "--out",
            "sheets0",
            "--per-cell",
            "5",
        ])
        .current_dir(b)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // Filled in (rows end with the empty answer and comment): `tally` refuses unfilled ones.
    let sheet = std::fs::read_to_string(b.join("sheets0/detection.csv")).unwrap();
    for (who, answer) in [("a", "yes"), ("b", "no")] {
        let filled = sheet.replace(",,\n", &format!(",{answer},\n"));
        assert_ne!(filled, sheet);
        std::fs::write(b.join(format!("sheet-{who}.csv")), filled).unwrap();
    }
    base
}

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// The parse cache's resumable partial parse of the 300 German lines.
const PARTIAL: &str =
    "cache/b8da5a9e1289c989b42d784aa2b9a1fb89942f0319e35f867a702a8506b5354f.partial/";

#[test]
fn every_subcommand_interrupted_at_random_moments_leaves_nothing_behind() {
    let base = sweep_base();
    // `corpora` downloads PUD from a local server (both sides or neither must appear).
    let pud: std::collections::HashMap<String, Vec<u8>> = ["de", "en"]
        .iter()
        .map(|l| {
            let text = std::fs::read(data(&format!("parallel/pud.de-en.{l}"))).unwrap();
            (format!("/plain.{l}"), text)
        })
        .collect();
    // Two requests per run: three complete runs and 20 interrupted ones.
    pair_config(base.path(), &serve(pud, 23 * 2));
    std::fs::create_dir(base.path().join("corpora")).unwrap();
    // Command lines ({W}: the working copy of `base`, {M}: the shared models), the output
    // that must be whole or as before, and what may stay on purpose.
    let pud = "--src {W}/pud.de-en.de --tgt {W}/pud.de-en.en";
    let parse = "--models {M} --offline --cache {W}/cache";
    let cases: [(&str, String, &str, &[&str]); 9] = [
        (
            "extract",
            format!("extract {pud} --src-lang de --tgt-lang en --conllu {{W}}/pud.conllu --out {{W}}/out"),
            "out",
            &[],
        ),
        ("merge", "merge --out {W}/merged {W}/shard1 {W}/shard2".into(), "merged", &[]),
        (
            "score",
            "score --sets {W}/sets --hyp {W}/sys.en --hyp {W}/pud.de-en.en".into(),
            "sets",
            &[],
        ),
        ("report", "report --sets {W}/sets".into(), "sets", &[]),
        ("slice", "slice --sets {W}/sets --hyp {W}/sys.en".into(), "sets", &[]),
        (
            "align",
            format!("align {pud} --conllu {{W}}/pud.conllu --out {{W}}/pud.align"),
            "pud.align",
            &[],
        ),
        (
            "parse",
            format!("parse --src {{W}}/pud.de-en.de --pair de-en {parse} --out {{W}}/pud.parsed.conllu"),
            "pud.parsed.conllu",
            &[PARTIAL],
        ),
        (
            "run",
            format!("run --pair de-en --corpora {{W}} --only pud {parse} --out {{W}}/run"),
            "run/pud",
            &[PARTIAL],
        ),
        (
            "corpora",
            "corpora --pair {W}/pair.toml --dir {W}/corpora".into(),
            "corpora",
            &[],
        ),
    ];
    let models = s(&shared().join("models")).to_string();
    for (name, line, whole, resumable) in cases {
        let args = words(&line.replace("{M}", &models));
        sweep(name, base.path(), &args, &[whole], resumable);
    }
    // Annotation: the sheets and their key (beside them) appear together; the tally whole.
    let sheets = words("sheets --sets {W}/sets --hyp {W}/sys.en --out {W}/sheets --per-cell 20");
    sweep(
        "sheets",
        base.path(),
        &sheets,
        &["sheets", "sheets.key.csv"],
        &[],
    );
    let tally = words("tally {W}/sheet-a.csv {W}/sheet-b.csv --out {W}/tally");
    sweep("tally", base.path(), &tally, &["tally"], &[]);
    // The locality-bias data: the three settings, the ids and the record appear together.
    let permute = format!(
        "permute --src {} --tgt {} --src-lang de --tgt-lang en --length 12 --test 300 --dev 300 \
         --out {{W}}/permuted",
        s(&data("parallel/books-sample.de-en.de.gz")),
        s(&data("parallel/books-sample.de-en.en.gz"))
    );
    sweep("permute", base.path(), &words(&permute), &["permuted"], &[]);
}

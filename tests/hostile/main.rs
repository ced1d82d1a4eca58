//! Hostile input, black box: each class of issue 9 tried against the binary. Nothing is
//! written outside OUT, nothing of the user's is deleted, interrupts and concurrent runs
//! leave nothing behind, resources stay bounded, invalid input is refused with file and
//! line, and messages never carry raw control characters.

#[path = "../common/mod.rs"]
mod common;
mod detection;
mod mqm;

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

mod endless_inputs;
mod failed_download;
mod paper_parse;
mod printed_commands;
mod shared_cache;
mod unclear_cases;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn bin() -> Command {
    Ldd::default().command()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// `extract` on PUD de→en from gold trees with `out` and extra arguments.
fn pud_args(out: &Path, extra: &[&str]) -> Vec<String> {
    pud_command("extract", "de", &[&["--out", s(out)], extra].concat())
}

/// PUD de→en sets without reordering or controls (fast), in `dir/sets`.
fn quick_sets(dir: &Path) -> std::path::PathBuf {
    let sets = dir.join("sets");
    let o = run_args(&pud_args(&sets, &["-q", "--no-reorder", "--controls", "0"]));
    assert!(o.status.success(), "{}", stderr(&o));
    sets
}

fn run_args(args: &[String]) -> Output {
    bin().args(args).output().unwrap()
}

/// Every entry of `dir` (names).
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------
// 1. Writes outside the output directory
// ---------------------------------------------------------------------------------------

#[test]
fn language_codes_cannot_name_paths_or_collide_with_set_files() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let out = tmp.path().join("a/b/out");
    for (flag, bad) in [
        ("--tgt-lang", "../../../victim.txt"),
        ("--tgt-lang", "/tmp/x"),
        ("--src-lang", "conllu"),
        ("--tgt-lang", "ids"),
        ("--tgt-lang", "DE"),
    ] {
        let mut args = pud_args(&out, &[]);
        let i = args.iter().position(|a| a == flag).unwrap();
        args[i + 1] = bad.to_string();
        let o = run_args(&args);
        assert_eq!(code(&o), 4, "{flag} {bad}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("not a valid language code") || e.contains("would collide"),
            "{e}"
        );
        assert!(!tmp.path().join("a").exists());
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}

#[test]
fn pair_configs_cannot_name_paths_outside_their_directories() {
    let tmp = tempfile::tempdir().unwrap();
    for (field, model_name, corpus_name, files) in [
        ("corpus", "m.udpipe", "/../../escape", "de-en"),
        ("model", "../../../etc/passwd", "books", "de-en"),
        ("files", "m.udpipe", "books", "../de-en"),
    ] {
        let pair = tmp.path().join(format!("{field}.toml"));
        std::fs::write(
            &pair,
            format!(
                "source = \"de\"\ntarget = \"en\"\nfiles = \"{files}\"\n[model]\nname = \"{model_name}\"\n\
                 [[corpus]]\nname = \"{corpus_name}\"\nurl = \"http://127.0.0.1:9/x\"\nformat = \"plain\"\n"
            ),
        )
        .unwrap();
        let dir = tmp.path().join(format!("c-{field}"));
        let o = bin()
            .args(["corpora", "--pair", s(&pair), "--dir", s(&dir), "--quiet"])
            .output()
            .unwrap();
        assert_eq!(code(&o), 4, "{field}: {}", stderr(&o));
        assert!(stderr(&o).contains("is not a valid"), "{}", stderr(&o));
        assert!(!dir.exists());
    }
    assert!(!Path::new("/escape").exists());
}

// ---------------------------------------------------------------------------------------
// 2. Deletion of what ldd-sets did not write
// ---------------------------------------------------------------------------------------

#[test]
fn outputs_that_are_not_ours_or_hold_inputs_are_never_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    // A web project with a file named manifest.json.
    let web = tmp.path().join("web");
    std::fs::create_dir(&web).unwrap();
    std::fs::write(web.join("manifest.json"), "{\"name\": \"my app\"}").unwrap();
    std::fs::write(web.join("index.html"), "<html>").unwrap();
    let o = run_args(&pud_args(&web, &[]));
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not an ldd-sets output"),
        "{}",
        stderr(&o)
    );
    assert_eq!(entries(&web), vec!["index.html", "manifest.json"]);

    // A previous output that now also holds the inputs.
    let out = tmp.path().join("out");
    assert!(
        run_args(&pud_args(&out, &["--controls", "0", "--no-reorder"]))
            .status
            .success()
    );
    let (src, tgt, tree) = (out.join("c.de"), out.join("c.en"), out.join("c.conllu"));
    std::fs::copy(data("parallel/pud.de-en.de"), &src).unwrap();
    std::fs::copy(data("parallel/pud.de-en.en"), &tgt).unwrap();
    std::fs::copy(data("ud/de_pud-ud-test.conllu"), &tree).unwrap();
    let mut args = pud_args(&out, &["--controls", "0", "--no-reorder"]);
    for (flag, p) in [("--src", &src), ("--tgt", &tgt), ("--conllu", &tree)] {
        let i = args.iter().position(|a| a == flag).unwrap();
        args[i + 1] = s(p).to_string();
    }
    let o = run_args(&args);
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(stderr(&o).contains("contains the input"), "{}", stderr(&o));
    assert!(src.exists() && tgt.exists() && tree.exists());

    // File outputs equal to an input.
    let corpus = tmp.path().join("corpus.de");
    std::fs::copy(data("parallel/pud.de-en.de"), &corpus).unwrap();
    let before = std::fs::read(&corpus).unwrap();
    let o = bin()
        .args([
            "align",
            "--src",
            s(&corpus),
            "--tgt",
            s(&data("parallel/pud.de-en.en")),
        ])
        .args(["--out", s(&corpus), "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    let o = bin()
        .args([
            "parse",
            "--src",
            s(&corpus),
            "--out",
            s(&tmp.path().join("./corpus.de")),
        ])
        .args(["--model", s(&shared().join("models/german-small.udpipe"))])
        .args(["--cache", s(&tmp.path().join("cache")), "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&corpus).unwrap(), before);
}

// ---------------------------------------------------------------------------------------
// 3. Interrupts and concurrency
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// 4. Unbounded resources
// ---------------------------------------------------------------------------------------

/// Runs `cmd` and returns its output and its own peak resident memory in bytes (the child
/// is reaped with `wait4`, which reports its resource use).
#[allow(clippy::zombie_processes)]
fn run_measured(cmd: &mut Command) -> (Output, u64) {
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

#[test]
fn a_20000_word_pair_is_aligned_alone_and_memory_stays_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let de = std::fs::read_to_string(data("parallel/pud.de-en.de")).unwrap();
    let en = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    // The whole of PUD once more as one pair (a document pasted as one line), then its
    // first 130 sentences again: 20,615 German and 20,952 English whitespace tokens.
    let doc = |text: &str| -> Vec<String> {
        let l: Vec<&str> = text.lines().collect();
        l.iter().chain(&l[..130]).map(|x| x.to_string()).collect()
    };
    let (doc_de, doc_en) = (doc(&de), doc(&en));
    let (mut src, mut tgt) = (de.clone(), en.clone());
    src.push_str(&doc_de.join(" "));
    src.push('\n');
    tgt.push_str(&doc_en.join(" "));
    tgt.push('\n');
    let (sp, tp) = (tmp.path().join("c.de"), tmp.path().join("c.en"));
    std::fs::write(&sp, &src).unwrap();
    std::fs::write(&tp, &tgt).unwrap();
    // The HMM leaves the long pair unaligned, and says so.
    let hal = tmp.path().join("h.align");
    let o = bin()
        .args(["align", "--src", s(&sp), "--tgt", s(&tp), "--pretokenized"])
        .args(["--align-model-type", "hmm"])
        .args(["--out", s(&hal)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let h = lines(&hal);
    assert_eq!(h.len(), 1001);
    assert!(h[1000].is_empty() && h[..1000].iter().filter(|l| !l.is_empty()).count() > 950);
    assert!(
        stderr(&o).contains(
            "1 sentence pairs with more than 1000 tokens on a side were left out of training and not aligned"
        ),
        "{}",
        stderr(&o)
    );
    // fast_align's model aligns it alone, after training.
    let al = tmp.path().join("c.align");
    let (o, peak) = run_measured(bin().args([
        "align",
        "--src",
        s(&sp),
        "--tgt",
        s(&tp),
        "--pretokenized",
        "--align-model-type",
        "fast-align",
        "--out",
        s(&al),
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(peak < 2 << 30, "peak memory {} MB", peak >> 20);
    let lines = lines(&al);
    assert_eq!(lines.len(), 1001);
    assert!(lines[..1000].iter().filter(|l| !l.is_empty()).count() > 950);
    assert!(
        stderr(&o).contains(
            "1 sentence pairs with more than 1000 tokens on a side were left out of training"
        ),
        "{}",
        stderr(&o)
    );
    // The long pair is aligned after training, by the model. Its words came from PUD
    // sentence k link to words of the same sentence k on the other side.
    let sentence_of = |doc: &[String]| -> Vec<usize> {
        doc.iter()
            .enumerate()
            .flat_map(|(k, l)| std::iter::repeat_n(k, l.split_whitespace().count()))
            .collect()
    };
    let (ks, kt) = (sentence_of(&doc_de), sentence_of(&doc_en));
    assert_eq!((ks.len(), kt.len()), (20_615, 20_952));
    let links: Vec<(usize, usize)> = lines[1000]
        .split(' ')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (i, j) = l.split_once('-').unwrap();
            (i.parse().unwrap(), j.parse().unwrap())
        })
        .collect();
    assert!(links.len() > 5_000, "{} links", links.len());
    let same = links.iter().filter(|&&(i, j)| ks[i] == kt[j]).count();
    assert!(
        same * 100 > links.len() * 90,
        "{same} of {} links within their sentence",
        links.len()
    );
}

/// A pair of 150,000 words a side (2.25·10¹⁰ token pairs, beyond the 10⁹ the aligner
/// takes) stays unaligned as documented, with every step — symmetrisation included — in
/// memory linear in its length.
#[test]
fn a_150000_word_pair_stays_unaligned_in_linear_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let de = std::fs::read_to_string(data("parallel/pud.de-en.de")).unwrap();
    let en = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let words = |text: &str| -> String {
        // Short words, so that the line stays under the 1 MiB line limit.
        let w: Vec<&str> = text.split_whitespace().filter(|w| w.len() <= 4).collect();
        w.iter()
            .cycle()
            .take(150_000)
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (sp, tp) = (tmp.path().join("c.de"), tmp.path().join("c.en"));
    std::fs::write(&sp, format!("{de}{}\n", words(&de))).unwrap();
    std::fs::write(&tp, format!("{en}{}\n", words(&en))).unwrap();
    for how in ["intersection", "grow-diag-final-and"] {
        let al = tmp.path().join(format!("{how}.align"));
        let (o, peak) = run_measured(bin().args([
            "align",
            "--src",
            s(&sp),
            "--tgt",
            s(&tp),
            "--pretokenized",
            "--align-direction",
            how,
            "--align-max-tokens",
            "100000",
            "--out",
            s(&al),
        ]));
        assert!(o.status.success(), "{how}: {}", stderr(&o));
        assert!(peak < 1 << 30, "{how}: peak memory {} MB", peak >> 20);
        let lines = lines(&al);
        assert_eq!(lines.len(), 1001, "{how}");
        assert_eq!(lines[1000], "", "{how}: the long pair stays unaligned");
        assert!(
            lines[..1000].iter().filter(|l| !l.is_empty()).count() > 950,
            "{how}"
        );
    }
}

#[test]
fn option_limits_are_errors_not_resource_exhaustion() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = run_args(&pud_args(&out, &["--controls", "1000000"]));
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = run_args(&pud_args(&out, &["--threads", "100000"]));
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(stderr(&o).contains("between 1 and 256"), "{}", stderr(&o));
    assert!(!out.exists());
}

#[test]
fn many_sets_are_written_under_a_low_open_file_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let mut cmd = bin();
    cmd.args(pud_args(
        &out,
        &["--max-distance", "100", "--controls", "0", "--quiet"],
    ));
    // SAFETY: setrlimit in the child before exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 64,
                rlim_max: 64,
            };
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
            Ok(())
        });
    }
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("particle/ge100.ids").exists());
    assert!(out.join("reflexive/eq100.marked.de").exists());
}

#[test]
fn a_fifo_is_refused_at_once_instead_of_hanging() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("pipe.de");
    let c = std::ffi::CString::new(s(&fifo)).unwrap();
    // SAFETY: creating a FIFO at a path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let mut args = pud_args(&tmp.path().join("out"), &[]);
    let i = args.iter().position(|a| a == "--src").unwrap();
    args[i + 1] = s(&fifo).to_string();
    let t = Instant::now();
    let o = run_args(&args);
    assert!(t.elapsed() < Duration::from_secs(20));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is a pipe (FIFO), not a regular file"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------------------------------
// 5. Invalid input accepted silently
// ---------------------------------------------------------------------------------------

/// The PUD German trees as blocks.
fn pud_blocks() -> Vec<String> {
    std::fs::read_to_string(data("ud/de_pud-ud-test.conllu"))
        .unwrap()
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|b| format!("{b}\n\n"))
        .collect()
}

fn with_conllu(tmp: &Path, name: &str, text: &str) -> Output {
    let p = tmp.join(name);
    std::fs::write(&p, text).unwrap();
    let mut args = pud_args(&tmp.join("out"), &["--controls", "0", "--no-reorder"]);
    let i = args.iter().position(|a| a == "--conllu").unwrap();
    args[i + 1] = s(&p).to_string();
    run_args(&args)
}

#[test]
fn trees_must_be_trees_and_belong_to_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let blocks = pud_blocks();
    assert_eq!(blocks.len(), 1000);
    // Line numbers of block 3 in the file.
    let first_line_of = |k: usize| -> usize {
        blocks[..k]
            .iter()
            .map(|b| b.matches('\n').count())
            .sum::<usize>()
            + 1
    };
    // A cycle in tree 3: its root points at one of its words.
    let mut bad = blocks.clone();
    let root_line = bad[2]
        .lines()
        .position(|l| l.split('\t').nth(6) == Some("0"))
        .unwrap();
    let mut lines: Vec<String> = bad[2].lines().map(str::to_string).collect();
    let mut cols: Vec<String> = lines[root_line].split('\t').map(str::to_string).collect();
    cols[6] = "1".into();
    lines[root_line] = cols.join("\t");
    bad[2] = lines.join("\n") + "\n\n";
    let o = with_conllu(tmp.path(), "cycle.conllu", &bad.concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("cycle.conllu:") && (e.contains("cycle") || e.contains("no root")),
        "{e}"
    );
    assert!(!tmp.path().join("out").exists());

    // The first tree moved to the end: the first line no longer matches.
    let mut moved = blocks.clone();
    let first = moved.remove(0);
    moved.push(first);
    let o = with_conllu(tmp.path(), "moved.conllu", &moved.concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let want = format!("moved.conllu:{}:", first_line_of(0));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("does not belong to its corpus line"),
        "{}",
        stderr(&o)
    );

    // The other language's parse (same number of trees).
    let en = std::fs::read_to_string(data("ud/en_pud-ud-test.conllu")).unwrap();
    let o = with_conllu(tmp.path(), "en.conllu", &en);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("en.conllu:"), "{}", stderr(&o));

    // A tree that was edited after parsing, at tree 500 only.
    let mut edited = blocks.clone();
    edited[499] = edited[499].replacen("# text = ", "# text = Nicht ", 1);
    let o = with_conllu(tmp.path(), "edited.conllu", &edited.concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let want = format!("edited.conllu:{}:", first_line_of(499));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
}

/// A sentence block that never ends (no blank line) is cut off at 64 MiB with an error
/// naming its first line, instead of being read whole.
#[test]
fn an_endless_sentence_block_is_refused_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let blocks = pud_blocks();
    // Block 2's word lines repeated until the block is over 64 MiB: one "sentence" of
    // about 1.6 million words.
    let words: String = blocks[1]
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let mut text = blocks[0].clone();
    let first = text.lines().count() + 1; // block 1, its blank line, then block 2
    while text.len() < (96 << 20) {
        text.push_str(&words);
    }
    let p = tmp.path().join("endless.conllu");
    std::fs::write(&p, &text).unwrap();
    drop(text);
    let mut args = pud_args(
        &tmp.path().join("out"),
        &["--controls", "0", "--no-reorder"],
    );
    let i = args.iter().position(|a| a == "--conllu").unwrap();
    args[i + 1] = s(&p).to_string();
    let (o, peak) = run_measured(bin().args(&args));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "endless.conllu:{first}: the sentence block starting here is longer than the limit of 67108864 bytes"
        )),
        "{}",
        stderr(&o)
    );
    assert!(peak < 400 << 20, "peak memory {} MB", peak >> 20);
    assert!(!tmp.path().join("out").exists());
}

#[test]
fn aligner_models_must_fit_the_languages_direction_and_be_sound() {
    let tmp = tempfile::tempdir().unwrap();
    let prefix = tmp.path().join("m");
    let out = tmp.path().join("o1");
    let o = run_args(&pud_args(
        &out,
        &[
            "--controls",
            "0",
            "--align-model-type",
            "fast-align",
            "--save-align-model",
            s(&prefix),
            "--quiet",
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    // Another language pair: PUD en→de with the de-en model.
    let en_args = |out: &Path, model_type: &str, prefix: &Path| -> Vec<String> {
        vec![
            "extract".into(),
            "--src".into(),
            s(&data("parallel/pud.de-en.en")).into(),
            "--tgt".into(),
            s(&data("parallel/pud.de-en.de")).into(),
            "--src-lang".into(),
            "en".into(),
            "--tgt-lang".into(),
            "de".into(),
            "--conllu".into(),
            s(&data("ud/en_pud-ud-test.conllu")).into(),
            "--controls".into(),
            "0".into(),
            "--align-model-type".into(),
            model_type.into(),
            "--align-model".into(),
            s(prefix).into(),
            "--out".into(),
            s(out).into(),
        ]
    };
    // The same with the HMM's one file.
    let hmm = tmp.path().join("h");
    let o = run_args(&pud_args(
        &tmp.path().join("h1"),
        &[
            "--controls",
            "0",
            "--align-model-type",
            "hmm",
            "--save-align-model",
            s(&hmm),
            "--quiet",
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(tmp.path().join("h.hmm.ldda").is_file());
    for (model_type, p, o) in [("fast-align", &prefix, "o2"), ("hmm", &hmm, "h2")] {
        let o = run_args(&en_args(&tmp.path().join(o), model_type, p));
        assert_eq!(code(&o), 3, "{model_type}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("an aligner model for de-en, but this corpus is en-de"),
            "{}",
            stderr(&o)
        );
    }
    // The two directions swapped.
    let (fwd, rev) = (tmp.path().join("m.fwd.ldda"), tmp.path().join("m.rev.ldda"));
    let swap = tmp.path().join("swap");
    std::fs::rename(&fwd, &swap).unwrap();
    std::fs::rename(&rev, &fwd).unwrap();
    std::fs::rename(&swap, &rev).unwrap();
    let o = run_args(&pud_args(
        &tmp.path().join("o3"),
        &[
            "--controls",
            "0",
            "--align-model-type",
            "fast-align",
            "--align-model",
            s(&prefix),
        ],
    ));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("model is needed here"),
        "{}",
        stderr(&o)
    );
    // A NaN tension with a valid checksum.
    let mut bytes = std::fs::read(&fwd).unwrap();
    bytes[44..52].copy_from_slice(&f64::NAN.to_le_bytes());
    let n = bytes.len();
    let mut crc = flate2::Crc::new();
    crc.update(&bytes[..n - 4]);
    bytes[n - 4..].copy_from_slice(&crc.sum().to_le_bytes());
    std::fs::write(&fwd, &bytes).unwrap();
    std::fs::copy(&fwd, &rev).unwrap();
    let o = run_args(&pud_args(
        &tmp.path().join("o4"),
        &[
            "--controls",
            "0",
            "--align-model-type",
            "fast-align",
            "--align-model",
            s(&prefix),
            "--align-direction",
            "reverse",
        ],
    ));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad diagonal tension NaN"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------------------------------
// 6. Messages and permissions
// ---------------------------------------------------------------------------------------

#[test]
fn messages_escape_control_characters() {
    let tmp = tempfile::tempdir().unwrap();
    let evil = tmp.path().join("x\u{1b}[2J\u{7}.de");
    let mut args = pud_args(&tmp.path().join("out"), &[]);
    let i = args.iter().position(|a| a == "--src").unwrap();
    args[i + 1] = s(&evil).to_string();
    let o = run_args(&args);
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    let e = stderr(&o);
    assert!(!e.contains('\u{1b}') && !e.contains('\u{7}'), "{e:?}");
    assert!(e.contains("x\\u{1b}[2J\\u{7}.de"), "{e}");
    // A CoNLL-U line carrying escape sequences in a bad HEAD.
    let mut blocks = pud_blocks();
    blocks[0] = blocks[0].replacen("\t0\troot\t", "\t\u{1b}]0;pwned\u{7}\troot\t", 1);
    let o = with_conllu(tmp.path(), "esc.conllu", &blocks.concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        !e.contains('\u{1b}') && e.contains("invalid HEAD `\\u{1b}]0;pwned\\u{7}`"),
        "{e:?}"
    );
}

#[test]
fn outputs_follow_the_umask() {
    for (umask, file_mode, dir_mode) in [(0o022, 0o644, 0o755), (0o077, 0o600, 0o700)] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let mut cmd = bin();
        cmd.args(pud_args(&out, &["--controls", "2", "--quiet"]));
        // SAFETY: umask in the child before exec.
        unsafe {
            cmd.pre_exec(move || {
                libc::umask(umask);
                Ok(())
            });
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&out), dir_mode);
        assert_eq!(mode(&out.join("reflexive")), dir_mode);
        for f in [
            out.join("manifest.json"),
            out.join("summary.csv"),
            out.join("reflexive/ge1.de"),
            out.join("reflexive/controls/ge1.1.ids"),
            out.join("reorder/alignments.txt"),
        ] {
            assert_eq!(mode(&f), file_mode, "{}", f.display());
        }
    }
}

#[test]
fn non_utf8_rules_and_alignments_name_their_line() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("r.toml");
    let mut f = std::fs::File::create(&rules).unwrap();
    f.write_all(b"[[phenomenon]]\nname = \"x\"\n[phenomenon.dependent]\nlemma = [\"\xff\"]\n")
        .unwrap();
    let o = run_args(&pud_args(&tmp.path().join("o"), &["--rules", s(&rules)]));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("r.toml:4: invalid UTF-8"),
        "{}",
        stderr(&o)
    );
    let al = tmp.path().join("a.align");
    let mut text = "0-0\n".repeat(5).into_bytes();
    text.extend_from_slice(b"0-\xff\n");
    std::fs::write(&al, &text).unwrap();
    let o = run_args(&pud_args(&tmp.path().join("o"), &["--alignments", s(&al)]));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a.align:6: invalid UTF-8"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn long_lines_foreign_runs_and_edited_manifests_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    // A 2 MiB line (the limit is 1 MiB) on line 3 of the target side.
    let tgt = tmp.path().join("long.en");
    let mut text = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let at = text.match_indices('\n').nth(1).unwrap().0 + 1;
    text.insert_str(at, &"a".repeat(2 << 20));
    std::fs::write(&tgt, text).unwrap();
    let mut args = pud_args(&tmp.path().join("o"), &[]);
    let i = args.iter().position(|a| a == "--tgt").unwrap();
    args[i + 1] = s(&tgt).to_string();
    let o = run_args(&args);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("long.en:3: line is longer than the limit of 1048576 bytes"),
        "{}",
        stderr(&o)
    );

    // compare: runs of two different corpora.
    let de = tmp.path().join("de");
    let en = tmp.path().join("en");
    extract_pud("de", &de, &["--controls", "0", "--no-reorder", "--quiet"]);
    extract_pud("en", &en, &["--controls", "0", "--no-reorder", "--quiet"]);
    let o = bin()
        .args(["compare", "--gold", s(&de), "--pred", s(&en)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("different corpora"), "{}", stderr(&o));

    // slice: a manifest edited to write outside the sets directory.
    let m = de.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(
        &m,
        text.replacen("\"reflexive/ge0.ids\"", "\"../../../escape/ge0.ids\"", 1),
    )
    .unwrap();
    let o = bin()
        .args([
            "slice",
            "--sets",
            s(&de),
            "--hyp",
            s(&data("parallel/pud.de-en.en")),
        ])
        .output()
        .unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("leaves the set directory"),
        "{}",
        stderr(&o)
    );
    assert!(!tmp.path().join("escape").exists() && !Path::new("/escape").exists());
}

#[test]
fn a_lock_name_planted_as_a_symlink_is_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(&victim, tmp.path().join(".out.ldd-lock")).unwrap();
    let o = run_args(&pud_args(&tmp.path().join("out"), &["--controls", "0"]));
    assert_ne!(code(&o), 0);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

// ---------------------------------------------------------------------------------------
// Signal sweep: every subcommand that writes, interrupted at 20 random moments
// ---------------------------------------------------------------------------------------

/// Every path below `dir`, relative, directories with a trailing `/`.
fn tree(dir: &Path) -> std::collections::BTreeSet<String> {
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

fn copy_tree(from: &Path, to: &Path) {
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

// ---------------------------------------------------------------------------------------
// Downloads that stall; corpora at a user's file name
// ---------------------------------------------------------------------------------------

/// A server on 127.0.0.1 that accepts every connection, reads the request, sends `reply`
/// and then nothing more for a minute. Returns its base URL.
fn stalling_server(reply: &'static [u8]) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let _ = std::io::Read::read(&mut s, &mut buf);
                let _ = s.write_all(reply);
                std::thread::sleep(Duration::from_secs(60));
            });
        }
    });
    format!("http://{addr}")
}

fn pair_config(dir: &Path, base: &str) -> std::path::PathBuf {
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

#[test]
fn a_stalling_server_fails_the_download_after_the_idle_timeout() {
    let tmp = tempfile::tempdir().unwrap();
    // Headers and 5 bytes of a 1,000-byte body, then silence; and no response at all.
    for (reply, after) in [
        (
            &b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\nHallo"[..],
            "after 5 bytes",
        ),
        (&b""[..], "after 0 bytes"),
    ] {
        let base = stalling_server(reply);
        let pair = pair_config(tmp.path(), &base);
        let dir = tmp.path().join("corpora");
        let t = Instant::now();
        let o = bin()
            .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
            .env("LDD_SETS_IDLE_TIMEOUT", "1.5")
            .output()
            .unwrap();
        let took = t.elapsed();
        assert_eq!(code(&o), 6, "{}", stderr(&o));
        assert!(took < Duration::from_secs(20), "took {took:?}");
        assert!(took >= Duration::from_millis(1500), "took {took:?}");
        let e = stderr(&o);
        assert!(
            e.contains("idle timeout") && e.contains("LDD_SETS_IDLE_TIMEOUT"),
            "{e}"
        );
        assert!(e.contains(after), "{e}");
        assert!(absent_or_empty(&dir), "{:?}", entries(&dir));
    }
    // A timeout that is not a number of seconds is refused.
    let pair = pair_config(tmp.path(), "http://127.0.0.1:9");
    let o = bin()
        .args([
            "corpora",
            "-q",
            "--pair",
            s(&pair),
            "--dir",
            s(&tmp.path().join("c2")),
        ])
        .env("LDD_SETS_CONNECT_TIMEOUT", "soon")
        .output()
        .unwrap();
    assert_ne!(code(&o), 0);
    assert!(
        stderr(&o).contains("LDD_SETS_CONNECT_TIMEOUT=soon"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn corpora_never_replaces_or_removes_a_users_file_at_its_output_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("corpora");
    std::fs::create_dir_all(&dir).unwrap();
    let mine = dir.join("plain.de-en.de.gz");
    std::fs::write(&mine, "my own notes\n").unwrap();
    let de = std::fs::read(data("parallel/pud.de-en.de")).unwrap();
    let en = std::fs::read(data("parallel/pud.de-en.en")).unwrap();
    let base = serve(
        std::collections::HashMap::from([
            ("/plain.de".to_string(), de),
            ("/plain.en".to_string(), en),
        ]),
        4,
    );
    let pair = pair_config(tmp.path(), &base);
    let o = bin()
        .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("does not replace a file it may not have written"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "my own notes\n");
    assert_eq!(entries(&dir), vec!["plain.de-en.de.gz"]);
}

// ---------------------------------------------------------------------------------------
// Paths read from manifests and scores; outputs that are inputs; reserved names; messages
// ---------------------------------------------------------------------------------------

/// PUD sets (no reordering) in `dir/sets`, scored with a system `sys.en` (the reference).
fn scored_sets(dir: &Path) -> std::path::PathBuf {
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

#[test]
fn report_shows_a_systems_lines_only_from_the_file_it_scored() {
    let tmp = tempfile::tempdir().unwrap();
    let sets = scored_sets(tmp.path());
    // scores.json edited to name a private file of the same line count.
    let secret = tmp.path().join("secret.txt");
    let secret_lines: String = (1..=1000).map(|i| format!("SECRET-{i}\n")).collect();
    std::fs::write(&secret, &secret_lines).unwrap();
    let scores = sets.join("scores.json");
    let text = std::fs::read_to_string(&scores).unwrap();
    let sys = s(&tmp.path().join("sys.en")).to_string();
    assert!(text.contains(&sys));
    std::fs::write(&scores, text.replace(&sys, s(&secret))).unwrap();
    let o = bin().args(["report", "--sets", s(&sets)]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
    assert!(
        !page.contains("SECRET-"),
        "the report embedded the file named in scores.json"
    );
    assert!(
        page.contains("is not the file scored"),
        "the report says why"
    );
    // The scored file itself is shown.
    std::fs::write(&scores, text).unwrap();
    let o = bin().args(["report", "--sets", s(&sets)]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
    assert!(!page.contains("is not the file scored"));
}

#[test]
fn slice_never_writes_through_a_symlinked_set_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let sets = scored_sets(tmp.path());
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::rename(sets.join("reflexive"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, sets.join("reflexive")).unwrap();
    let before = entries(&elsewhere);
    let o = bin()
        .args([
            "slice",
            "--sets",
            s(&sets),
            "--hyp",
            s(&tmp.path().join("sys.en")),
        ])
        .output()
        .unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("is a symbolic link"), "{}", stderr(&o));
    assert_eq!(entries(&elsewhere), before);
    assert!(!entries(&sets).iter().any(|e| e.contains(".hyp.")));
}

#[test]
fn no_output_may_be_an_input_of_the_same_command() {
    let tmp = tempfile::tempdir().unwrap();
    let (de, en) = (data("parallel/pud.de-en.de"), data("parallel/pud.de-en.en"));
    let prefix = tmp.path().join("m");
    let o = bin()
        .args([
            "align",
            "-q",
            "--src",
            s(&de),
            "--tgt",
            s(&en),
            "--align-model-type",
            "fast-align",
            "--save-align-model",
            s(&prefix),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let fwd = tmp.path().join("m.fwd.ldda");
    let model = std::fs::read(&fwd).unwrap();
    // `align --out` naming the model file it loads.
    let o = bin()
        .args([
            "align",
            "-q",
            "--src",
            s(&de),
            "--tgt",
            s(&en),
            "--align-model-type",
            "fast-align",
            "--align-model",
            s(&prefix),
        ])
        .args(["--out", s(&fwd)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&fwd).unwrap(), model);
    // `--save-align-model P` where an input (here the target side) is the file `name` the
    // model would be saved as: refused, the input untouched.
    let save_over_input = |name: &str, prefix: &str, model_type: &[&str]| {
        let tgt = tmp.path().join(name);
        std::fs::copy(&en, &tgt).unwrap();
        let o = bin()
            .args(["align", "-q", "--src", s(&de), "--tgt", s(&tgt)])
            .args(model_type)
            .args(["--save-align-model", s(&tmp.path().join(prefix))])
            .output()
            .unwrap();
        assert_eq!(code(&o), 4, "{name}: {}", stderr(&o));
        assert_eq!(std::fs::read(&tgt).unwrap(), std::fs::read(&en).unwrap());
    };
    save_over_input("t.fwd.ldda", "t", &["--align-model-type", "fast-align"]);
    assert!(!tmp.path().join("t.rev.ldda").exists());
    // The HMM's model file, loaded and named as the output.
    let h = tmp.path().join("h");
    let o = bin()
        .args(["align", "-q", "--src", s(&de), "--tgt", s(&en)])
        .args(["--align-model-type", "hmm", "--save-align-model", s(&h)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let hfile = tmp.path().join("h.hmm.ldda");
    let model = std::fs::read(&hfile).unwrap();
    let o = bin()
        .args(["align", "-q", "--src", s(&de), "--tgt", s(&en)])
        .args(["--align-model-type", "hmm"])
        .args(["--align-model", s(&h), "--out", s(&hfile)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&hfile).unwrap(), model);
    // The same with the default model, the HMM: P.hmm.ldda.
    save_over_input("u.hmm.ldda", "u", &[]);
}

#[test]
fn a_users_file_at_the_locks_name_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let lock = tmp.path().join(".out.ldd-lock");
    std::fs::write(&lock, "my notes, not a lock\n").unwrap();
    let o = run_args(&pud_args(&out, &["-q", "--no-reorder"]));
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not an ldd-sets lock"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        "my notes, not a lock\n"
    );
    assert!(!out.exists());
    // A directory there too.
    std::fs::remove_file(&lock).unwrap();
    std::fs::create_dir(&lock).unwrap();
    let o = run_args(&pud_args(&out, &["-q", "--no-reorder"]));
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(lock.is_dir());
    assert_eq!(entries(tmp.path()), vec![".out.ldd-lock"]);
}

/// `parse` of the German side of PUD with the small test model.
fn parse_pud(cache: &Path, out: &Path) -> Command {
    let mut cmd = bin();
    cmd.args(["parse", "-q", "--src", s(&data("parallel/pud.de-en.de"))])
        .args(["--model", s(&shared().join("models/german-small.udpipe"))])
        .args(["--cache", s(cache), "--out", s(out)]);
    cmd
}

#[test]
fn directories_that_are_files_or_dot_get_a_clear_message() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("afile");
    std::fs::write(&file, "x").unwrap();
    let o = parse_pud(&file, &tmp.path().join("x.conllu"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("exists and is not a directory"),
        "{}",
        stderr(&o)
    );
    let o = bin()
        .args(["corpora", "-q", "--pair", "de-en", "--dir", s(&file)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("exists and is not a directory"),
        "{}",
        stderr(&o)
    );
    let prev = tmp.path().join("prev");
    std::fs::create_dir(&prev).unwrap();
    let o = run_args(&pud_args(&prev.join("."), &["-q", "--no-reorder"]));
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("without a final `/.`"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

#[test]
fn names_from_an_edited_manifest_are_escaped_in_the_table_and_the_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let sets = scored_sets(tmp.path());
    let m = sets.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    let evil = text.replace(
        "\"bucket\": \"ge3\"",
        "\"bucket\": \"ge3\\u001b[2J\\u0007\"",
    );
    assert_ne!(evil, text);
    std::fs::write(&m, evil).unwrap();
    let o = bin()
        .args([
            "score",
            "--sets",
            s(&sets),
            "--hyp",
            s(&tmp.path().join("sys.en")),
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    assert!(o.status.success(), "{out}");
    let csv = std::fs::read_to_string(sets.join("scores.csv")).unwrap();
    assert!(!csv.contains('\u{1b}'), "raw escape in scores.csv");
    assert!(csv.contains("ge3\\u{1b}[2J\\u{7}"), "{csv}");
    assert!(out.contains("ge3\\u{1b}[2J\\u{7}"), "{out}");
}

/// A full disk (simulated: the file-size limit at 0 bytes, SIGXFSZ ignored, so every write
/// fails with EFBIG) makes the command fail with an I/O error and leaves no lock, no
/// temporary file and no 0-byte file in the parse cache or beside the output.
#[test]
fn a_disk_that_takes_no_byte_leaves_no_lock_or_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    std::fs::create_dir(&cache).unwrap();
    let mut cmd = parse_pud(&cache, &tmp.path().join("x.conllu"));
    // SAFETY: setrlimit and signal disposition in the child before exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: 0,
                rlim_max: libc::RLIM_INFINITY,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
            Ok(())
        });
    }
    let o = cmd.output().unwrap();
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(stderr(&o).contains("File too large"), "{}", stderr(&o));
    let left = tree(tmp.path());
    assert!(left.iter().all(|p| p == "cache/"), "left behind: {left:?}");
}

/// Trees that are not valid CoNLL-U beyond their tree shape are refused by `extract`, with
/// the file and line: an empty DEPREL, FEATS that are not Name=Value, an empty node beyond
/// the sentence.
#[test]
fn invalid_deprel_feats_and_empty_nodes_are_refused_with_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let blocks = pud_blocks();
    let first_word = |b: &str| b.lines().position(|l| l.starts_with("1\t")).unwrap();
    let base_line: usize = blocks[..2].iter().map(|b| b.matches('\n').count()).sum();
    type Change = Box<dyn Fn(&str) -> String>;
    let column = |k: usize, v: &'static str| -> Change {
        Box::new(move |l: &str| {
            let mut c: Vec<&str> = l.split('\t').collect();
            c[k] = v;
            c.join("\t")
        })
    };
    let cases: [(&str, Change, &str); 3] = [
        ("deprel.conllu", column(7, ""), "invalid DEPREL"),
        ("feats.conllu", column(5, "Case"), "invalid FEATS `Case`"),
        (
            "empty.conllu",
            Box::new(|l: &str| format!("99.1\tx\tx\tX\t_\t_\t_\t_\t_\t_\n{l}")),
            "empty node `99.1` out of place",
        ),
    ];
    for (name, change, want) in cases {
        let mut bad = blocks.clone();
        let mut lines: Vec<String> = bad[2].lines().map(str::to_string).collect();
        let k = first_word(&bad[2]);
        lines[k] = change(&lines[k]);
        bad[2] = lines.join("\n") + "\n\n";
        let o = with_conllu(tmp.path(), name, &bad.concat());
        assert_eq!(code(&o), 3, "{name}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(&format!("{name}:{}:", base_line + k + 1)),
            "{name}: {e}"
        );
        assert!(e.contains(want), "{name}: {e}");
    }
}

/// Asserts that a command failed with exit code `code` and a message containing `text`.
fn refused(o: &Output, code_: i32, text: &str) {
    assert_eq!(code(o), code_, "{}", stderr(o));
    assert!(stderr(o).contains(text), "{}", stderr(o));
}

/// Every file a manifest names is read only as the run wrote it (its SHA-256 recorded in
/// the manifest): `score`, `slice`, `report`, `compare` and `merge` refuse a changed set
/// file and a name the run did not record, naming the file; the restored file is read.
#[test]
fn set_files_changed_after_the_run_are_refused_by_every_reader() {
    let tmp = tempfile::tempdir().unwrap();
    let sets = scored_sets(tmp.path());
    let hyp = tmp.path().join("sys.en");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sets.join("manifest.json")).unwrap())
            .unwrap();
    let checksums = manifest["checksums"].as_object().unwrap();
    // Every file of every set and control is recorded, and the manifest itself is not.
    for set in manifest["sets"].as_array().unwrap() {
        for f in set["files"].as_object().unwrap().values() {
            assert!(checksums.contains_key(f.as_str().unwrap()), "{f}");
        }
    }
    assert!(checksums.contains_key("reflexive/controls/ge1.2.ids"));
    assert!(!checksums.contains_key("manifest.json"));

    let readers: Vec<(&str, Vec<&str>)> = vec![
        (
            "score",
            vec!["score", "-q", "--sets", s(&sets), "--hyp", s(&hyp)],
        ),
        ("slice", vec!["slice", "--sets", s(&sets), "--hyp", s(&hyp)]),
        ("report", vec!["report", "--sets", s(&sets)]),
        (
            "compare",
            vec!["compare", "--gold", s(&sets), "--pred", s(&sets)],
        ),
    ];
    let ids = sets.join("reflexive/ge1.ids");
    let good = std::fs::read(&ids).unwrap();
    // One more id, a valid line number: only the checksum tells.
    let mut changed = good.clone();
    changed.extend_from_slice(b"1000\n");
    std::fs::write(&ids, &changed).unwrap();
    for (name, args) in &readers {
        let o = bin().args(args).output().unwrap();
        assert_eq!(code(&o), 3, "{name}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("reflexive/ge1.ids: changed since ldd-sets wrote it"),
            "{name}: {e}"
        );
        assert!(
            e.contains(checksums["reflexive/ge1.ids"].as_str().unwrap()),
            "{name}: {e}"
        );
    }
    assert!(!entries(&sets.join("reflexive"))
        .iter()
        .any(|e| e.contains(".hyp.")));
    std::fs::write(&ids, &good).unwrap();
    for (name, args) in &readers {
        let o = bin().args(args).output().unwrap();
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }

    // A manifest edited to name a file the run did not write (with the right content).
    let text = std::fs::read_to_string(sets.join("manifest.json")).unwrap();
    std::fs::copy(&ids, sets.join("reflexive/mine.ids")).unwrap();
    let edited = text.replace(
        "\"ids\": \"reflexive/ge1.ids\"",
        "\"ids\": \"reflexive/mine.ids\"",
    );
    assert_ne!(edited, text);
    std::fs::write(sets.join("manifest.json"), edited).unwrap();
    let o = bin().args(&readers[0].1).output().unwrap();
    refused(
        &o,
        3,
        "`reflexive/mine.ids` is not among the files the run recorded",
    );

    // `merge` reads a shard's files only as the shard wrote them.
    let shards: Vec<_> = (1..=2)
        .map(|i| tmp.path().join(format!("shard{i}")))
        .collect();
    for (i, out) in shards.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let o = run_args(&pud_args(out, &["-q", "--no-reorder", "--shard", &shard]));
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let conllu = shards[1].join("particle/ge0.conllu");
    let text = std::fs::read_to_string(&conllu).unwrap();
    assert!(text.contains("\tcompound:prt\t"));
    std::fs::write(&conllu, text.replacen("\tcompound:prt\t", "\tobl\t", 1)).unwrap();
    let merged = tmp.path().join("merged");
    let o = bin()
        .args([
            "merge",
            "-q",
            "--out",
            s(&merged),
            s(&shards[0]),
            s(&shards[1]),
        ])
        .output()
        .unwrap();
    refused(
        &o,
        3,
        "particle/ge0.conllu: changed since ldd-sets wrote it",
    );
    assert!(!merged.exists());
}

// ---------------------------------------------------------------------------------------
// Third round (issue 43): the annotation workflow, the report, numeric limits, downloads
// ---------------------------------------------------------------------------------------

/// PUD de→en sets from the gold trees with the aligner's model saved (`dir/model`), no
/// controls, the reference side `tgt` (default: PUD's) and `extra` arguments.
fn judged_sets(dir: &Path, tgt: Option<&Path>, extra: &[&str]) -> std::path::PathBuf {
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
fn write_lines(path: &Path, text: &str, f: impl Fn(usize, &str) -> String) {
    let out: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| f(i, l) + "\n")
        .collect();
    std::fs::write(path, out).unwrap();
}

/// Two systems beside `dir`'s sets: `sysa.en` the reference, `sysb.en` without every third
/// word.
fn two_systems(dir: &Path) -> [std::path::PathBuf; 2] {
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

fn sheets_cmd(sets: &Path, hyps: &[&Path], out: &Path, extra: &[&str]) -> Output {
    let mut c = bin();
    c.args(["sheets", "-q", "--sets", s(sets), "--out", s(out)]);
    for h in hyps {
        c.args(["--hyp", s(h)]);
    }
    c.args(extra).output().unwrap()
}

/// Every cell of a CSV (`,`) or TSV (`\t`) file.
fn cells(p: &Path, sep: u8) -> Vec<String> {
    let mut r = csv::ReaderBuilder::new()
        .delimiter(sep)
        .has_headers(false)
        .flexible(true)
        .quoting(sep == b',')
        .from_path(p)
        .unwrap();
    r.records()
        .flat_map(|rec| rec.unwrap().iter().map(String::from).collect::<Vec<_>>())
        .collect()
}

/// Whether a spreadsheet would take `cell` for a formula (OWASP): it starts with `=`, `+`,
/// `-`, `@`, a tab or a carriage return and is not a number.
fn formula(cell: &str) -> bool {
    cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && cell.parse::<f64>().is_err()
}

/// Every output path a user names goes through the guard of `--out`: `sheets --key` never
/// replaces the sets' manifest, a set's ids or locus file, the corpus, a user's file or a
/// link (exit 4, nothing written, the file unchanged), nor a user's file at the default key
/// path; `--out link/` fails before any work (extract, permute, sheets — no key left
/// behind); `align --posteriors` naming its input model leaves `--out` as it was.
#[test]
fn user_named_outputs_are_guarded_like_out() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    let corpus = t.join("corpus.en");
    std::fs::copy(data("parallel/pud.de-en.en"), &corpus).unwrap();
    let mine = t.join("notes.txt");
    std::fs::write(&mine, "mine\n").unwrap();
    let link = t.join("link.csv");
    std::os::unix::fs::symlink(&mine, &link).unwrap();
    let victims = [
        sets.join("manifest.json"),
        sets.join("reflexive/eq1.ids"),
        sets.join("reflexive/eq1.locus.tsv"),
        corpus.clone(),
        a.clone(),
        mine.clone(),
        link.clone(),
    ];
    for v in &victims {
        let before = std::fs::read(v).unwrap();
        let o = sheets_cmd(&sets, &[&a, &b], &t.join("sh"), &["--key", s(v)]);
        assert_eq!(code(&o), 4, "{}: {}", v.display(), stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("was not written by `ldd-sets sheets`")
                || e.contains("is a symbolic link")
                || e.contains("is the input"),
            "{e}"
        );
        assert_eq!(std::fs::read(v).unwrap(), before, "{}", v.display());
        assert!(!t.join("sh").exists());
    }
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    // A user's file at the default key path.
    std::fs::write(t.join("sh.key.csv"), "my key\n").unwrap();
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("sh"), &[]);
    refused(
        &o,
        4,
        "sh.key.csv: exists and was not written by `ldd-sets sheets`",
    );
    assert_eq!(
        std::fs::read_to_string(t.join("sh.key.csv")).unwrap(),
        "my key\n"
    );
    // A key `sheets` wrote is replaced by the next run.
    std::fs::remove_file(t.join("sh.key.csv")).unwrap();
    for _ in 0..2 {
        let o = sheets_cmd(&sets, &[&a, &b], &t.join("sh"), &[]);
        assert!(o.status.success(), "{}", stderr(&o));
    }

    // `--out link/`: refused before any work, naming the link; nothing left.
    let real = t.join("real");
    std::fs::create_dir(&real).unwrap();
    std::os::unix::fs::symlink(&real, t.join("to-real")).unwrap();
    let slash = format!("{}/", s(&t.join("to-real")));
    let books = data("parallel/books-sample.de-en");
    let runs: Vec<(&str, Vec<String>)> = vec![
        (
            "extract",
            pud_args(Path::new(&slash), &["-q", "--align-train", s(&books)]),
        ),
        (
            "permute",
            [
                "permute",
                "-q",
                "--src",
                s(&data("parallel/newstest2013.de-en.de")),
                "--tgt",
                s(&data("parallel/newstest2013.de-en.en")),
                "--src-lang",
                "de",
                "--tgt-lang",
                "en",
                "--test",
                "10",
                "--dev",
                "10",
                "--out",
                &slash,
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "sheets",
            [
                "sheets",
                "-q",
                "--sets",
                s(&sets),
                "--hyp",
                s(&a),
                "--out",
                &slash,
                "--key",
                s(&t.join("k.csv")),
            ]
            .map(String::from)
            .to_vec(),
        ),
    ];
    for (name, args) in runs {
        let started = Instant::now();
        let o = run_args(&args);
        refused(&o, 4, "to-real: is a symbolic link");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{name} worked before refusing"
        );
        assert!(entries(&real).is_empty(), "{name}");
        assert!(!t.join("k.csv").exists(), "{name} left its key behind");
    }

    // `align --posteriors` naming the model it reads: refused, `--out` as it was.
    let out = t.join("old.align");
    std::fs::write(&out, "0-0\n").unwrap();
    let o = bin()
        .args(["align", "-q", "--src", s(&data("parallel/pud.de-en.de"))])
        .args(["--tgt", s(&data("parallel/pud.de-en.en"))])
        .args(["--src-lang", "de", "--tgt-lang", "en"])
        .args(["--align-model", s(&t.join("model")), "--out", s(&out)])
        .args(["--posteriors", s(&t.join("model.hmm.ldda"))])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "0-0\n");
    assert!(t.join("model.hmm.ldda").is_file());
}

/// Text from edited files reaches HTML, LaTeX and the terminal only escaped: a metric key
/// of `scores.json` holding a `<meta http-equiv=refresh>` tag and ESC/BEL is text in every
/// caption, title and table of the report (whose policy also forbids a base URL and form
/// targets), one LaTeX comment line, and an edited `items.jsonl` variant type is refused
/// by `score --contrast` with its escape shown, never raw, as is a `--seg-scores` name. A
/// truncated `items.jsonl` is named as the culprit (not the score file); `--target-model
/// auto` without the model advises the command's own remedy, not `--model`.
/// Writes `text` as the items of the contrast directory `con` and forges the checksum
/// its `contrast.json` records, so that the checks behind the checksum are reached.
fn forge_items(con: &Path, text: &str) {
    std::fs::write(con.join("items.jsonl"), text).unwrap();
    let rec = con.join("contrast.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    v["items_sha256"] = ldd_io::sha256_bytes(text.as_bytes()).into();
    std::fs::write(&rec, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

#[test]
fn edited_names_reach_html_latex_and_the_terminal_only_as_text() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    let o = bin()
        .args([
            "score",
            "-q",
            "--sets",
            s(&sets),
            "--hyp",
            s(&a),
            "--hyp",
            s(&b),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let scores = sets.join("scores.json");
    let text = std::fs::read_to_string(&scores).unwrap();
    let tag = "<meta http-equiv=\\\"refresh\\\" content=\\\"0;url=file:///etc/passwd\\\">";
    for (k, evil) in [
        format!("chrf{tag}\\u001b[2J\\u0007"),
        "chrf\\n\\\\input{/etc/passwd}<b>x</b>".to_string(),
    ]
    .iter()
    .enumerate()
    {
        let edited = text.replace("\"chrf\"", &format!("\"{evil}\""));
        assert_ne!(edited, text);
        std::fs::write(&scores, &edited).unwrap();
        let o = bin().args(["report", "--sets", s(&sets)]).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
        assert!(!page.contains("<meta http-equiv=\"refresh"), "case {k}");
        assert!(!page.contains("<b>x</b>"), "case {k}");
        assert!(page.contains("&lt;meta http-equiv=&quot;refresh") || k == 1);
        assert!(page.contains("base-uri 'none'; form-action 'none'"));
        let tex = t.join("r.tex");
        let o = bin()
            .args(["report", "--sets", s(&sets), "--format", "latex"])
            .args(["--out", s(&tex)])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let latex = std::fs::read_to_string(&tex).unwrap();
        assert!(!latex.contains('\u{1b}') && !latex.contains('\u{7}'));
        assert!(
            !latex.lines().any(|l| l.starts_with("\\input")),
            "a line break in a name ended a LaTeX comment"
        );
    }
    std::fs::write(&scores, &text).unwrap();

    // A variant type of an edited items.jsonl: refused, escaped in the message.
    let con = t.join("con");
    let o = bin()
        .args(["contrast", "-q", "--sets", s(&sets), "--out", s(&con)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let items = std::fs::read_to_string(con.join("items.jsonl")).unwrap();
    let n = std::fs::read_to_string(con.join("contrast.en"))
        .unwrap()
        .lines()
        .count();
    let lp = t.join("lp.txt");
    std::fs::write(&lp, "-1.5\n".repeat(n)).unwrap();
    for evil in ["dropped\\u001b[2J\\u0007", "dropped<b>x</b>", "Dropped"] {
        let edited = items.replacen("\"type\":\"dropped\"", &format!("\"type\":\"{evil}\""), 1);
        assert_ne!(edited, items);
        forge_items(&con, &edited);
        let o = bin()
            .args(["score", "--sets", s(&sets), "--contrast", s(&con)])
            .args(["--contrastive", s(&lp), "--out", s(&t.join("sc"))])
            .output()
            .unwrap();
        let all = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
        assert_eq!(code(&o), 3, "{all}");
        assert!(all.contains("is not a type name"), "{all}");
        assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all:?}");
    }

    // A truncated items.jsonl is blamed, not the score file, and with no line count of it.
    let last = items.trim_end().rfind('\n').unwrap();
    for (cut, want) in [
        (&items[..=last], "items, but contrast.json records"),
        (&items[..last - 5], "not a contrast item"),
    ] {
        forge_items(&con, cut);
        let o = bin()
            .args(["score", "-q", "--sets", s(&sets), "--contrast", s(&con)])
            .args(["--contrastive", s(&lp), "--out", s(&t.join("sc"))])
            .output()
            .unwrap();
        refused(&o, 3, want);
        let e = stderr(&o);
        assert!(e.contains("items.jsonl") && !e.contains("lp.txt"), "{e}");
    }

    // A metric's name with controls never reaches score's table: refused, shown escaped.
    let seg: Vec<std::path::PathBuf> = (0..2).map(|k| t.join(format!("seg{k}.txt"))).collect();
    for f in &seg {
        std::fs::write(f, "0.5\n".repeat(1000)).unwrap();
    }
    let o = bin()
        .args(["score", "--sets", s(&sets), "--hyp", s(&a), "--hyp", s(&b)])
        .arg("--seg-scores")
        .arg(format!("m\u{1b}[2J\u{7}={},{}", s(&seg[0]), s(&seg[1])))
        .args(["--metrics", "bleu", "--out", s(&t.join("sc2"))])
        .output()
        .unwrap();
    let all = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
    assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all:?}");
    assert_eq!(code(&o), 4, "{all}");
    assert!(
        all.contains("--seg-scores name `m\\u{1b}[2J\\u{7}`"),
        "{all}"
    );

    // `auto` for a target model that is not there: the advice names the command's option.
    let empty = t.join("no-models");
    std::fs::create_dir(&empty).unwrap();
    let o = bin()
        .args([
            "contrast",
            "-q",
            "--sets",
            s(&sets),
            "--out",
            s(&t.join("c2")),
        ])
        .args(["--target-model", "auto"])
        .env("LDD_SETS_MODELS", &empty)
        .output()
        .unwrap();
    refused(&o, 6, "or give the model file instead of `auto`");
    assert!(!stderr(&o).contains("--model"), "{}", stderr(&o));
}

/// Cells that a spreadsheet would run as formulas (a reference starting with `=1+2`, an
/// output with `@SUM(A1)`) get a leading `'` in the sheets, the key, `aces.tsv` and
/// `scores.loci.tsv`; `tally` and `report` read them back without it. Corpus text that
/// looks like a mark (`[[x]]`, `{{y}}`, `<d1>z</d1>`) is escaped in the sheets and the
/// marked files and never becomes a mark in the report.
#[test]
fn spreadsheet_cells_and_marks_cannot_be_forged() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let reference = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let evil_ref = t.join("ref.en");
    write_lines(&evil_ref, &reference, |_, l| {
        format!("=1+2 [[x]] {{{{y}}}} <d1>z</d1> {l}")
    });
    let sets = judged_sets(t, Some(&evil_ref), &["--pretokenized"]);
    let sysa = t.join("sysa.en");
    write_lines(&sysa, &reference, |_, l| format!("@SUM(A1) {l}"));
    let sysb = t.join("sysb.en");
    write_lines(&sysb, &reference, |_, l| format!("-2+3 {l}"));
    let o = sheets_cmd(&sets, &[&sysa, &sysb], &t.join("sh"), &["--per-cell", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let con = t.join("con");
    let o = bin()
        .args(["contrast", "-q", "--sets", s(&sets), "--out", s(&con)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = bin()
        .args(["score", "-q", "--sets", s(&sets), "--metrics", "bleu,locus"])
        .args(["--hyp", s(&sysa), "--hyp", s(&sysb)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let files = [
        (t.join("sh/translation.csv"), b','),
        (t.join("sh/detection.csv"), b','),
        (t.join("sh.key.csv"), b','),
        (con.join("aces.tsv"), b'\t'),
        (sets.join("scores.loci.tsv"), b'\t'),
    ];
    for (f, sep) in &files {
        let all = cells(f, *sep);
        assert!(!all.is_empty(), "{}", f.display());
        if let Some(c) = all.iter().find(|c| formula(c)) {
            panic!("{}: a formula cell `{c}`", f.display());
        }
    }
    let tr = std::fs::read_to_string(t.join("sh/translation.csv")).unwrap();
    for quoted in ["'=1+2 ", "'@SUM(A1) ", "'-2+3 "] {
        assert!(tr.contains(quoted), "{quoted} not in the sheet");
    }
    let aces = std::fs::read_to_string(con.join("aces.tsv")).unwrap();
    assert!(aces.contains("\t'=1+2 "), "aces.tsv");
    // Marks: the corpus's look-alikes are escaped, the real marks are there.
    assert!(
        tr.contains("\\[\\[x\\]\\] \\{\\{y\\}\\} <d1>z</d1>"),
        "{tr}"
    );
    assert!(!tr.contains("[[x]]") && !tr.contains("{{y}}"));
    let marked: String = std::fs::read_dir(sets.join("reorder"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| s(p).ends_with(".marked.en"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(marked.contains("&lt;d1>z&lt;/d1>"));
    assert!(!marked.contains("<d1>z</d1>"));

    // tally: two annotators who say `no` to everything; the disagreements with locus
    // accuracy carry the texts as written, without the spreadsheet's `'`.
    let rows = std::fs::read_to_string(t.join("sh/translation.csv")).unwrap();
    let mut r = csv::Reader::from_reader(rows.as_bytes());
    let head = r.headers().unwrap().clone();
    let ans = head.iter().position(|h| h == "answer").unwrap();
    let com = head.iter().position(|h| h == "comment").unwrap();
    let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    for (who, comment) in [("ann.csv", "a"), ("bob.csv", "b")] {
        let mut w = csv::Writer::from_path(t.join(who)).unwrap();
        w.write_record(&head).unwrap();
        for rec in &recs {
            let mut v: Vec<String> = rec.iter().map(String::from).collect();
            v[ans] = "no".into();
            v[com] = comment.into();
            w.write_record(&v).unwrap();
        }
        w.flush().unwrap();
    }
    let o = bin()
        .args(["tally", "-q", s(&t.join("ann.csv")), s(&t.join("bob.csv"))])
        .args(["--key", s(&t.join("sh.key.csv")), "--out", s(&t.join("ty"))])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.join("ty/tally.json")).unwrap()).unwrap();
    let dis = j["automatic"]["disagreements"].as_array().unwrap();
    assert!(!dis.is_empty());
    for d in dis {
        let reference = d["reference"].as_str().unwrap();
        assert!(reference.starts_with("=1+2 \\[\\[x"), "{reference}");
    }
    for c in cells(&t.join("ty/tally.csv"), b',') {
        assert!(!formula(&c), "tally.csv: {c}");
    }
    // report: the loci's texts without the `'`, the look-alikes as text.
    let o = bin()
        .args([
            "report",
            "--sets",
            s(&sets),
            "--tally",
            s(&t.join("ty/tally.json")),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
    assert!(page.contains(">=1+2 [[x]] {{y}} &lt;d1&gt;z&lt;/d1&gt; "));
    assert!(page.contains("@SUM(A1)") && !page.contains("&#39;@SUM(A1)"));
    assert!(!page.contains(">z<sub>") && !page.contains(">x<sub>"));
    assert!(!page.contains(">y<sub>"));
}

/// The slot order of the translation sheet is drawn from the systems' whole outputs, not
/// from what `sheets.json` and the rows give (seed, line): one output line that no sheet
/// shows changes the order, and the run's id; the same inputs give the same files.
#[test]
fn blinding_comes_from_a_secret_not_from_the_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("one"), &["--per-cell", "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown: std::collections::BTreeSet<String> = cells(&t.join("one/translation.csv"), b',')
        .into_iter()
        .collect();
    // sysb with a line no row shows changed.
    let text = std::fs::read_to_string(&b).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let k = (0..lines.len())
        .rev()
        .find(|&k| !shown.iter().any(|c| c.contains(lines[k])))
        .unwrap();
    let b2 = t.join("sysb.en.2");
    write_lines(&b2, &text, |i, l| {
        if i == k {
            format!("{l} !")
        } else {
            l.to_string()
        }
    });
    std::fs::rename(&b2, &b).unwrap();
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("two"), &["--per-cell", "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let slots = |dir: &str| -> Vec<String> {
        let key = std::fs::read_to_string(t.join(format!("{dir}.key.csv"))).unwrap();
        key.lines()
            .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
            .collect()
    };
    let (one, two) = (slots("one"), slots("two"));
    assert_eq!(one.len(), two.len());
    assert_ne!(one, two, "the order did not depend on the outputs");
    let visible = |dir: &str, f: &str| {
        std::fs::read_to_string(t.join(dir).join(f))
            .unwrap()
            .replace(char::is_alphanumeric, "")
    };
    assert_eq!(
        visible("one", "detection.csv"),
        visible("two", "detection.csv")
    );
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.join("one/sheets.json")).unwrap()).unwrap();
    let run = record["run"].as_str().unwrap();
    assert_eq!(run.len(), 16);
    assert!(!std::fs::read_to_string(t.join("two/sheets.json"))
        .unwrap()
        .contains(run));
    // The same inputs: the same files.
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("three"), &["--per-cell", "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in [
        "translation.csv",
        "detection.csv",
        "form.html",
        "sheets.json",
    ] {
        assert_eq!(
            std::fs::read(t.join("two").join(f)).unwrap(),
            std::fs::read(t.join("three").join(f)).unwrap()
        );
    }
    assert_eq!(slots("two"), slots("three"));
}

/// `tally` refuses what would give wrong numbers with exit 0: sheets of two `sheets` runs,
/// a key of another run, one sheet given twice or copied, a key with a row twice or a
/// phantom system or an automatic judgement locus accuracy never gives, unfilled sheets;
/// `sheets` refuses a distance asked twice or beyond 100, and distances with no locus.
#[test]
fn tally_and_sheets_refuse_what_would_give_wrong_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    for (out, seed) in [("r1", "1"), ("r2", "2")] {
        let o = sheets_cmd(
            &sets,
            &[&a, &b],
            &t.join(out),
            &["--per-cell", "3", "--seed", seed],
        );
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // A filled copy of a run's translation sheet, answers `yes`/`no` alternating from
    // `start` (a `.csv` per annotator).
    let fill = |run: &str, name: &str, start: usize| -> std::path::PathBuf {
        let text = std::fs::read_to_string(t.join(run).join("translation.csv")).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let head = r.headers().unwrap().clone();
        let ans = head.iter().position(|h| h == "answer").unwrap();
        let p = t.join(name);
        let mut w = csv::Writer::from_path(&p).unwrap();
        w.write_record(&head).unwrap();
        for (k, rec) in r.records().enumerate() {
            let mut v: Vec<String> = rec.unwrap().iter().map(String::from).collect();
            v[ans] = ["yes", "no"][(k + start) % 2].into();
            if k % 5 == 0 {
                v[ans] = "partly".into();
            }
            w.write_record(&v).unwrap();
        }
        w.flush().unwrap();
        p
    };
    let x1 = fill("r1", "x1.csv", 0);
    let y1 = fill("r1", "y1.csv", 1);
    let y2 = fill("r2", "y2.csv", 1);
    let tally = |args: &[&Path], key: Option<&Path>| -> Output {
        let mut c = bin();
        c.arg("tally");
        for p in args {
            c.arg(p);
        }
        if let Some(k) = key {
            c.args(["--key", s(k)]);
        }
        c.output().unwrap()
    };
    let (k1, k2) = (t.join("r1.key.csv"), t.join("r2.key.csv"));
    let o = tally(&[&x1, &y1], Some(&k1));
    assert!(o.status.success(), "{}", stderr(&o));
    refused(
        &tally(&[&x1, &y2], Some(&k1)),
        3,
        "come from different `sheets` runs",
    );
    refused(
        &tally(&[&x1, &y1], Some(&k2)),
        3,
        "the key of another `sheets` run",
    );
    refused(&tally(&[&x1, &x1], None), 3, "are the same sheet");
    let copy = t.join("copy.csv");
    std::fs::copy(&x1, &copy).unwrap();
    refused(&tally(&[&x1, &copy], None), 3, "are the same sheet");
    // Edited keys.
    let key = std::fs::read_to_string(&k1).unwrap();
    let lines: Vec<&str> = key.lines().collect();
    let run = lines[1].rsplit(',').next().unwrap();
    let phantom = format!("T001,C,phantom,correct,{run}");
    // The second row of item T001 with the first row's system.
    let first: Vec<&str> = lines[1].split(',').collect();
    let mut second: Vec<&str> = lines[2].split(',').collect();
    assert_eq!((first[0], second[0]), ("T001", "T001"));
    second[2] = first[2];
    let slot_again = format!("T001,A,phantom,correct,{run}");
    let edits: [(String, &str); 5] = [
        (format!("{key}{}\n", lines[1]), "twice"),
        (format!("{key}{slot_again}\n"), "T001 A: a second row"),
        (
            format!("{key}{phantom}\n"),
            "do not all have the same systems",
        ),
        (
            key.replacen(",correct,", ",maybe,", 1),
            "automatic `maybe` is not one of",
        ),
        (key.replacen(lines[2], &second.join(","), 1), "twice"),
    ];
    for (text, want) in &edits {
        let p = t.join("edited.key.csv");
        std::fs::write(&p, text).unwrap();
        refused(&tally(&[&x1, &y1], Some(&p)), 3, want);
    }
    // Unfilled sheets: an error, not a table of `-`.
    let o = tally(&[&t.join("r1/translation.csv")], None);
    refused(&o, 3, "no answer in any of its");
    assert!(o.stdout.is_empty());
    // sheets: a distance twice, beyond 100, or with no locus.
    let o = sheets_cmd(&sets, &[&a], &t.join("d"), &["--distances", "1,1,1"]);
    refused(&o, 4, "1 given twice");
    let o = sheets_cmd(&sets, &[&a], &t.join("d"), &["--distances", "101"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = sheets_cmd(&sets, &[&a], &t.join("d"), &["--distances", "99"]);
    refused(&o, 3, "no locus to sample");
    assert!(!t.join("d").exists() && !t.join("d.key.csv").exists());
}

/// Numbers are checked before any work: `permute --test` beyond any corpus (no more an
/// empty train split), percent thresholds over 100, segment scores whose sums overflow.
#[test]
fn numeric_limits_are_checked_before_work() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let permute = |test: &str, dev: &str| {
        bin()
            .args([
                "permute",
                "-q",
                "--src",
                s(&data("parallel/newstest2013.de-en.de")),
            ])
            .args(["--tgt", s(&data("parallel/newstest2013.de-en.en"))])
            .args(["--src-lang", "de", "--tgt-lang", "en", "--length", "10"])
            .args(["--test", test, "--dev", dev, "--out", s(&t.join("p"))])
            .output()
            .unwrap()
    };
    for (test, dev) in [("18446744073709551615", "0"), ("0", "18446744073709551615")] {
        let o = permute(test, dev);
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert!(!t.join("p").exists());
    }
    let o = permute("1000000000", "1000000000");
    refused(&o, 4, "fewer than --test");
    for (measure, k) in [("kendall", "150"), ("fuzzy", "101"), ("crossing", "5000")] {
        let o = run_args(&pud_args(
            &t.join("x"),
            &[
                "--reorder-measure",
                measure,
                "--reorder-buckets",
                &format!("10,{k}"),
            ],
        ));
        assert_ne!(code(&o), 0, "{measure} {k}");
        assert!(!t.join("x").exists());
        let e = stderr(&o);
        assert!(
            e.contains(k) && (e.contains("at most") || e.contains("is not in")),
            "{e}"
        );
    }
    let sets = scored_sets(t);
    for big in ["1.7e308", "-1.7e308", "1e16"] {
        let seg = t.join("seg.txt");
        let mut v = vec!["0.5".to_string(); 1000];
        v[7] = big.into();
        std::fs::write(&seg, v.join("\n") + "\n").unwrap();
        let o = bin()
            .args([
                "score",
                "-q",
                "--sets",
                s(&sets),
                "--hyp",
                s(&t.join("sys.en")),
            ])
            .args(["--seg-scores", &format!("comet={}", s(&seg))])
            .args(["--out", s(&t.join("sc"))])
            .output()
            .unwrap();
        refused(&o, 3, "seg.txt:8: not a finite number of at most 1e15");
    }
}

/// `contrast` reads the corpus only as the sets were made from it (an edited reference of
/// the same line count is refused, naming it), and a variants file with 200,000
/// replacements is refused at once instead of writing millions of variants.
#[test]
fn contrast_checks_its_corpus_and_bounds_its_variants() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let reference = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let tgt = t.join("ref.en");
    std::fs::write(&tgt, &reference).unwrap();
    let sets = judged_sets(t, Some(&tgt), &[]);
    write_lines(&tgt, &reference, |i, l| {
        if i == 182 {
            l.replacen("rather", "sooner", 1)
        } else {
            l.to_string()
        }
    });
    let o = bin()
        .args([
            "contrast",
            "-q",
            "--sets",
            s(&sets),
            "--out",
            s(&t.join("c")),
        ])
        .output()
        .unwrap();
    refused(&o, 3, "ref.en: changed since the sets of");
    assert!(!t.join("c").exists());
    std::fs::write(&tgt, &reference).unwrap();
    let many: Vec<String> = (0..200_000).map(|i| format!("\"w{i}\"")).collect();
    let variants = t.join("variants.toml");
    std::fs::write(
        &variants,
        format!(
            "[variants]\ndefault = [\"replaced\"]\n[replace.en]\nhimself = [{}]\n",
            many.join(", ")
        ),
    )
    .unwrap();
    let started = Instant::now();
    let o = bin()
        .args([
            "contrast",
            "-q",
            "--sets",
            s(&sets),
            "--out",
            s(&t.join("c")),
        ])
        .args(["--variants", s(&variants)])
        .output()
        .unwrap();
    refused(&o, 4, "200000 entries, more than 100");
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(!t.join("c").exists());
}

/// `report` reads `scores.loci.tsv` only as `score` wrote it: a file grown after scoring
/// is noted, not parsed, and one grown with its checksum rewritten in `scores.json` is
/// refused at the first row beyond what the sets can hold — in bounded time and memory.
#[test]
fn report_bounds_a_tampered_loci_file() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, _] = two_systems(t);
    let o = bin()
        .args(["score", "-q", "--sets", s(&sets), "--hyp", s(&a)])
        .args(["--metrics", "bleu,locus"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let loci = sets.join("scores.loci.tsv");
    let text = std::fs::read_to_string(&loci).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    // About 100 MB: the rows again and again.
    let mut grown = text.clone();
    let block = rows.join("\n") + "\n";
    while grown.len() < 100 << 20 {
        grown.push_str(&block);
    }
    std::fs::write(&loci, &grown).unwrap();
    let (o, bytes) = run_measured(bin().args(["report", "--sets", s(&sets)]));
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
    assert!(page.contains("changed after scoring"));
    assert!(bytes < 200 << 20, "{bytes} bytes");
    let scores = sets.join("scores.json");
    let json = std::fs::read_to_string(&scores).unwrap();
    let old = ldd_io::sha256_bytes(text.as_bytes());
    let new = ldd_io::sha256_bytes(grown.as_bytes());
    assert!(json.contains(&old));
    std::fs::write(&scores, json.replace(&old, &new)).unwrap();
    let started = Instant::now();
    let (o, bytes) = run_measured(bin().args(["report", "--sets", s(&sets)]));
    refused(&o, 3, "more rows than the sets have loci");
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(bytes < 200 << 20, "{bytes} bytes");
}

/// A member of a corpus archive that is a link (tar.gz: symbolic and hard links; zip: a
/// symbolic link) is refused, naming it, instead of giving an empty corpus.
#[test]
fn archive_members_that_are_links_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let de = std::fs::read(data("parallel/pud.de-en.de")).unwrap();
    let gz = |bytes: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    };
    let mut files = std::collections::HashMap::new();
    for kind in [tar::EntryType::Symlink, tar::EntryType::Link] {
        let mut tarball = tar::Builder::new(Vec::new());
        let mut h = tar::Header::new_gnu();
        h.set_size(de.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tarball
            .append_data(&mut h, "real.de", de.as_slice())
            .unwrap();
        for lang in ["de", "en"] {
            let mut h = tar::Header::new_gnu();
            h.set_entry_type(kind);
            h.set_size(0);
            h.set_mode(0o777);
            tarball
                .append_link(&mut h, format!("c.{lang}"), "real.de")
                .unwrap();
        }
        files.insert(format!("/{kind:?}.tgz"), gz(&tarball.into_inner().unwrap()));
    }
    let mut zipped = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut zipped);
        let o = zip::write::SimpleFileOptions::default();
        z.start_file("real.de", o).unwrap();
        z.write_all(&de).unwrap();
        for lang in ["de", "en"] {
            z.add_symlink(format!("c.{lang}"), "real.de", o).unwrap();
        }
        z.finish().unwrap();
    }
    files.insert("/Zip.zip".into(), zipped.into_inner());
    let base = serve(files, 16);
    for (name, format) in [
        ("Symlink.tgz", "tgz"),
        ("Link.tgz", "tgz"),
        ("Zip.zip", "zip"),
    ] {
        let pair = tmp.path().join("pair.toml");
        std::fs::write(
            &pair,
            format!(
                "source = \"de\"\ntarget = \"en\"\nfiles = \"de-en\"\n[model]\nname = \"german-small.udpipe\"\n\
                 [[corpus]]\nname = \"c\"\nurl = \"{base}/{name}\"\nformat = \"{format}\"\n\
                 members = {{ de = \"c.de\", en = \"c.en\" }}\n"
            ),
        )
        .unwrap();
        let dir = tmp.path().join(format!("corpora-{format}"));
        let o = bin()
            .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
            .output()
            .unwrap();
        refused(&o, 3, "member `c.de` is a link or not a regular file");
        assert!(absent_or_empty(&dir), "{name}: {:?}", entries(&dir));
    }
}

/// A server that sends the headers of a `size`-byte body, then `chunk` bytes every
/// `every`, for a minute at most. Returns its base URL.
fn dripping_server(size: usize, chunk: usize, every: Duration) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let _ = std::io::Read::read(&mut s, &mut buf);
                let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {size}\r\n\r\n");
                let _ = s.write_all(head.as_bytes());
                let t = Instant::now();
                while t.elapsed() < Duration::from_secs(60) {
                    if s.write_all(&vec![b'x'; chunk]).is_err() {
                        return;
                    }
                    std::thread::sleep(every);
                }
            });
        }
    });
    format!("http://{addr}")
}

/// A download that drips a byte now and then never trips the idle timeout, but fails by
/// the lowest rate; one fast enough for that but endless fails by the overall deadline;
/// each naming its variable, nothing kept.
#[test]
fn a_dripping_download_fails_by_its_rate_and_an_endless_one_by_its_deadline() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            dripping_server(1 << 20, 1, Duration::from_millis(500)),
            "lowest rate",
            "LDD_SETS_MIN_RATE",
        ),
        (
            dripping_server(1 << 30, 4096, Duration::from_millis(100)),
            "overall deadline",
            "LDD_SETS_DOWNLOAD_TIMEOUT",
        ),
    ];
    for (base, what, var) in cases {
        let pair = pair_config(tmp.path(), &base);
        let dir = tmp.path().join("corpora");
        let started = Instant::now();
        let o = bin()
            .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
            .env("LDD_SETS_IDLE_TIMEOUT", "2")
            .env("LDD_SETS_DOWNLOAD_TIMEOUT", "4")
            .output()
            .unwrap();
        let took = started.elapsed();
        assert_eq!(code(&o), 6, "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(what) && e.contains(var), "{e}");
        assert!(took < Duration::from_secs(20), "took {took:?}");
        assert!(absent_or_empty(&dir), "{:?}", entries(&dir));
    }
}

/// A full disk (the file-size limit at 0 bytes) fails `tally --out` and `score --out` with
/// an I/O error and leaves no directory they made, no temporary file.
#[test]
fn a_full_disk_leaves_no_empty_output_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("sh"), &["--per-cell", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let filled = t.join("filled.csv");
    let text = std::fs::read_to_string(t.join("sh/detection.csv")).unwrap();
    std::fs::write(&filled, text.replace(",,\n", ",yes,\n")).unwrap();
    let full = |mut c: Command| {
        // SAFETY: setrlimit and signal disposition in the child before exec.
        unsafe {
            c.pre_exec(|| {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let lim = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: libc::RLIM_INFINITY,
                };
                libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
                Ok(())
            });
        }
        c.output().unwrap()
    };
    let mut c = bin();
    c.args(["tally", "-q", s(&filled), "--out", s(&t.join("new/tally"))]);
    let o = full(c);
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(!t.join("new").exists());
    let mut c = bin();
    c.args(["score", "-q", "--sets", s(&sets), "--hyp", s(&a)])
        .args([
            "--metrics",
            "bleu,locus",
            "--out",
            s(&t.join("new2/scores")),
        ]);
    let o = full(c);
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(!t.join("new2").exists());
    let left: Vec<String> = entries(t)
        .into_iter()
        .filter(|e| e.contains("ldd-tmp") || e.contains("ldd-lock"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The paper's case, made from a real UD file: English PUD as the source, one corpus line
/// with `'tis` where its tree (and `# text`) has the words `it is`. The tree is tolerated,
/// reported and counted in the manifest; a corpus shifted by one line is refused, and the
/// message shows both texts where they first differ.
#[test]
fn a_parsers_rewritten_word_is_tolerated_and_a_shifted_corpus_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let en = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let k = en
        .lines()
        .position(|l| l.starts_with("At best it is naive"))
        .unwrap();
    let src = t.join("tis.en");
    write_lines(&src, &en, |i, l| {
        if i == k {
            l.replacen("it is", "'tis", 1)
        } else {
            l.to_string()
        }
    });
    let args = |src: &Path, out: &Path| {
        let mut v = pud_command("extract", "en", &["-q", "--no-reorder", "--controls", "0"]);
        let i = v.iter().position(|a| a == "--src").unwrap();
        v[i + 1] = s(src).to_string();
        v.extend(["--out".to_string(), s(out).to_string()]);
        v
    };
    let out = t.join("tis");
    let mut quiet = args(&src, &out);
    quiet.retain(|a| a != "-q");
    let o = run_args(&quiet);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("1 of 1000 trees differ from their corpus line in small places (1 in all"),
        "{}",
        stderr(&o)
    );
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["corpus"]["tolerated_lines"], 1);
    assert_eq!(m["corpus"]["tolerated_places"], 1);
    // Shifted by one line (the first removed, an empty one at the end): refused at line 1.
    let shifted = t.join("shifted.en");
    let tail: Vec<&str> = en.lines().skip(1).chain([""]).collect();
    std::fs::write(&shifted, tail.join("\n") + "\n").unwrap();
    let o = run_args(&args(&shifted, &t.join("sh")));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("does not belong to its corpus line"), "{e}");
    // The excerpts start where the texts part, not at the first 80 characters.
    let first = en.lines().next().unwrap();
    let second = en.lines().nth(1).unwrap();
    assert!(e.contains(&first[..20]) && e.contains(&second[..20]), "{e}");
    assert!(!t.join("sh").exists());
}

/// A fast_align model given to `--metrics locus` for sets aligned by the HMM is named as
/// a model of the other aligner, not reported as a missing file.
#[test]
fn a_model_of_the_other_aligner_is_named_as_such() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let fa = t.join("fa");
    let o = bin()
        .args(["align", "-q", "--src", s(&data("parallel/pud.de-en.de"))])
        .args([
            "--tgt",
            s(&data("parallel/pud.de-en.en")),
            "--src-lang",
            "de",
        ])
        .args(["--tgt-lang", "en", "--align-model-type", "fast-align"])
        .args(["--save-align-model", s(&fa)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let [a, _] = two_systems(t);
    let o = bin()
        .args(["score", "-q", "--sets", s(&sets), "--hyp", s(&a)])
        .args(["--metrics", "locus", "--align-model", s(&fa)])
        .output()
        .unwrap();
    refused(&o, 4, "is a model of the other aligner (fast_align's)");
}

//! Hostile input, black box: each class of issue 9 tried against the binary. Nothing is
//! written outside OUT, nothing of the user's is deleted, interrupts and concurrent runs
//! leave nothing behind, resources stay bounded, invalid input is refused with file and
//! line, and messages never carry raw control characters.

mod common;

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

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
    for sig in [libc::SIGTERM, libc::SIGINT] {
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
    for who in ["a", "b"] {
        std::fs::copy(
            b.join("sheets0/detection.csv"),
            b.join(format!("sheet-{who}.csv")),
        )
        .unwrap();
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

//! Class: inputs that never end, or go on far past the corpus. Every file of one line per
//! corpus line — a system's output, a further reference, segment scores, the corpus sides
//! themselves — is read no further than the line that proves its count wrong: the command
//! stops there, names the file and that line, and never reads to an end that may not come
//! (`ldd_io::Input::limit_lines`, and `count_rest_up_to` where the count is reported).

use super::*;

/// The PUD reference with `extra` more lines of `x`.
fn longer(dir: &Path, name: &str, extra: usize) -> std::path::PathBuf {
    let p = dir.join(name);
    let mut text = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    text.push_str(&"x\n".repeat(extra));
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs `args` through bash (for `<(…)`), failing the test after `secs` seconds.
fn bash_within(args: &str, secs: u64) -> Output {
    let bin = env!("CARGO_BIN_EXE_ldd-sets");
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!("exec '{bin}' {args}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(secs) {
            // The whole process group: ldd-sets and the endless writer.
            // SAFETY: kill has no memory preconditions; the group is the child's own.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            panic!("still reading an endless input after {secs} s: {args}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn an_endless_output_stops_at_the_first_line_past_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = quick_sets(t);
    // A process substitution and a pipe on standard input, each endless.
    for hyp in ["<(yes x)", "/dev/stdin < <(yes 'a b c')"] {
        let o = bash_within(&format!("score --sets '{}' --hyp {hyp}", s(&sets)), 60);
        assert_eq!(code(&o), 3, "{hyp}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(":1001: more lines than the 1000 expected: the corpus has 1000 lines"),
            "{hyp}: {e}"
        );
        assert!(!sets.join("scores.json").exists());
    }
}

#[test]
fn every_line_counted_input_stops_at_the_first_line_past_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = quick_sets(t);
    let good = data("parallel/pud.de-en.en");
    // Far longer than the corpus: each is refused at line 1001, naming it.
    let long = longer(t, "long.en", 200_000);
    let seg_long = t.join("seg.txt");
    std::fs::write(&seg_long, "0.5\n".repeat(200_000)).unwrap();
    let seg_good = t.join("seg-ok.txt");
    std::fs::write(&seg_good, "0.5\n".repeat(1000)).unwrap();
    let score = |extra: &[&str]| {
        bin()
            .args(["score", "-q", "--sets", s(&sets), "--out", s(&t.join("sc"))])
            .args(extra)
            .output()
            .unwrap()
    };
    let cases: Vec<(&str, Output)> = vec![
        ("--hyp", score(&["--hyp", s(&long)])),
        (
            "--ref",
            score(&["--hyp", s(&good), "--ref", s(&good), "--ref", s(&long)]),
        ),
        (
            "--seg-scores",
            score(&[
                "--hyp",
                s(&good),
                "--seg-scores",
                &format!("comet={}", s(&seg_long)),
            ]),
        ),
        (
            "slice --hyp",
            bin()
                .args(["slice", "--sets", s(&sets), "--hyp", s(&long)])
                .output()
                .unwrap(),
        ),
    ];
    for (what, o) in cases {
        assert_eq!(code(&o), 3, "{what}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(":1001: more lines than the 1000 expected"),
            "{what}: {e}"
        );
    }
    // The same outputs of the right length are scored (the limit is not off by one).
    let o = score(&[
        "--hyp",
        s(&good),
        "--seg-scores",
        &format!("comet={}", s(&seg_good)),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn corpus_sides_of_other_lengths_are_counted_no_further_than_past_the_shortest() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let long = longer(t, "long.en", 200_000);
    let one_more = longer(t, "one.en", 1);
    // extract: the longer side is counted up to one line past the other's; one line more
    // is still counted exactly.
    for (tgt, want) in [
        (&long, "has more than 1001 lines"),
        (&one_more, "has 1001 lines"),
    ] {
        let mut args = pud_args(&t.join("out"), &["-q", "--no-reorder"]);
        let i = args.iter().position(|a| a == "--tgt").unwrap();
        args[i + 1] = s(tgt).to_string();
        let o = run_args(&args);
        assert_eq!(code(&o), 3, "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("inputs are not line-aligned"), "{e}");
        assert!(e.contains(&format!("{} {want}", s(tgt))), "{e}");
        assert!(
            e.contains("has 1000 lines") && e.contains("has 1000 sentences"),
            "{e}"
        );
    }
    // align without a parse: the same.
    let o = bin()
        .args(["align", "-q", "--src", s(&data("parallel/pud.de-en.de"))])
        .args(["--tgt", s(&long), "--src-lang", "de", "--tgt-lang", "en"])
        .args(["--out", s(&t.join("a.txt"))])
        .output()
        .unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("has 1000 lines but") && stderr(&o).contains("has more than 1001"),
        "{}",
        stderr(&o)
    );
}

//! Class: unbounded resources. Long sentence pairs and endless sentence blocks in bounded
//! memory, option and numeric limits as errors before any work, many sets under a low
//! open-file limit (the same files as without it), a FIFO refused at once.

use super::*;

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
    // The same run without the limit writes the same bytes (issue 56): the manifest too,
    // once the output directory's own name is set aside.
    let free = tmp.path().join("free");
    let o = run_args(&pud_args(
        &free,
        &["--max-distance", "100", "--controls", "0", "--quiet"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let (limited, unlimited) = (files_below(&out), files_below(&free));
    assert!(limited.len() > 300, "{}", limited.len());
    assert_eq!(
        limited.keys().collect::<Vec<_>>(),
        unlimited.keys().collect::<Vec<_>>()
    );
    for (rel, bytes) in &limited {
        let (mut a, mut b) = (bytes.clone(), unlimited[rel].clone());
        if rel == "manifest.json" {
            a = String::from_utf8(a)
                .unwrap()
                .replace(s(&out), "OUT")
                .into_bytes();
            b = String::from_utf8(b)
                .unwrap()
                .replace(s(&free), "OUT")
                .into_bytes();
        }
        assert!(a == b, "{rel} differs under the 64-file limit");
    }
}

/// `relative path -> bytes` of every file below `root`.
fn files_below(root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
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

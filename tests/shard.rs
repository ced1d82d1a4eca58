//! Sharded runs (`--shard I/N`) and `merge`: the merged output of the shards is
//! byte-identical to an unsharded run (except the manifest's `shard` record), on PUD with
//! gold trees (reordering from a saved aligner model, and from alignments of the whole
//! corpus) and on newstest2013 parsed by the small model (whose whole-corpus parse `merge`
//! assembles from the shards' parses, byte for byte); a missing, duplicated or foreign shard
//! is refused and nothing is written. The same runs under GNU parallel and Slurm are in
//! `tests/cluster.rs`.

mod common;

use std::path::{Path, PathBuf};

use common::{
    assert_same_output, data, files, pud_command, run, run_ok, shared, stderr, strs, Ldd,
};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `extract` on PUD (gold trees) with `extra` options.
fn pud(src: &str, out: &Path, extra: &[&str]) {
    common::extract_pud(src, out, &[&["--quiet"], extra].concat());
}

/// Trains and saves the aligner on PUD de-en (UD words of the gold trees) under `prefix`.
fn pud_aligner(prefix: &Path) {
    let align = prefix.with_extension("align");
    let args = pud_command(
        "align",
        "de",
        &["--save-model", s(prefix), "--out", s(&align), "--quiet"],
    );
    run_ok(&strs(&args));
}

#[test]
fn pud_shards_merge_to_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let model = d.join("aligner");
    pud_aligner(&model);
    let with_model = ["--align-model", s(&model)];
    pud("de", &d.join("whole"), &with_model);
    // The shards at different thread counts; given to merge in another order.
    for (i, threads) in [(1, "1"), (2, "2"), (3, "1")] {
        let shard = format!("{i}/3");
        let out = d.join(format!("shard{i}"));
        pud(
            "de",
            &out,
            &[&with_model[..], &["--shard", &shard, "--threads", threads]].concat(),
        );
        // A shard has no controls, only its own lines, and says so in its manifest.
        assert!(!out.join("reflexive/controls").exists());
        let m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap())
                .unwrap();
        assert_eq!(m["shard"]["kind"], "part");
        assert_eq!(m["shard"]["index"], i);
        let ids = common::ids(&out.join("reflexive"), "ge0");
        let (lo, hi) = [(1, 333), (334, 666), (667, 1000)][i - 1];
        assert!(!ids.is_empty() && ids.iter().all(|&id| (lo..=hi).contains(&id)));
    }
    let merged = d.join("merged");
    let o = run_ok(&[
        "merge",
        "--out",
        s(&merged),
        s(&d.join("shard3")),
        s(&d.join("shard1")),
        s(&d.join("shard2")),
    ]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("merged 3 shards: 1000 lines"));
    let m = assert_same_output(&d.join("whole"), &merged);
    // The shard record: the ranges of 1,000 lines in 3 shards, by hand.
    let shards = m["shard"]["shards"].as_array().unwrap();
    let ranges: Vec<(u64, u64)> = shards
        .iter()
        .map(|s| {
            (
                s["lines"]["first"].as_u64().unwrap(),
                s["lines"]["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(ranges, [(1, 333), (334, 333), (667, 334)]);
    assert_eq!(m["shard"]["kind"], "merged");
    // Controls were drawn: the merged output is scored like any other.
    assert!(merged.join("reflexive/controls/ge1.10.ids").is_file());
    let sc = d.join("sc");
    std::fs::create_dir(&sc).unwrap();
    run_ok(&[
        "score",
        "--sets",
        s(&merged),
        "--hyp",
        s(&data("parallel/pud.de-en.en")),
        "--quiet",
    ]);
}

/// English source, reordering from the alignments of the whole corpus (`--alignments`),
/// 4 shards of 1,000 lines, 8 controls with another seed.
#[test]
fn pud_shards_with_whole_corpus_alignments() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let align = d.join("en-de.align");
    Ldd::cmd("align")
        .pud("en")
        .out(&align)
        .args(&["--quiet"])
        .ok();
    // Gzipped, without .gz: recognised by content.
    let gz = d.join("en-de-align-gz");
    {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(
            std::fs::File::create(&gz).unwrap(),
            flate2::Compression::default(),
        );
        e.write_all(&std::fs::read(&align).unwrap()).unwrap();
        e.finish().unwrap();
    }
    let opts = ["--alignments", s(&gz), "--controls", "8", "--seed", "7"];
    pud("en", &d.join("whole"), &opts);
    let mut dirs = Vec::new();
    for i in 1..=4 {
        let out = d.join(format!("s{i}"));
        pud(
            "en",
            &out,
            &[&opts[..], &["--shard", &format!("{i}/4")]].concat(),
        );
        dirs.push(out);
    }
    let merged = d.join("merged");
    let mut args = vec!["merge", "--out", s(&merged), "--quiet"];
    args.extend(dirs.iter().map(|p| s(p)));
    run_ok(&args);
    let m = assert_same_output(&d.join("whole"), &merged);
    let controls = m["controls"].as_array().unwrap();
    assert!(controls.iter().all(|c| c["seed"] == 7));
    assert!(controls.iter().any(|c| c["count"] == 8));
}

/// newstest2013 parsed by the small German model: each shard parses its own lines (cached
/// per shard: a re-run shard is a cache hit), `merge` assembles the whole corpus's parse in
/// the cache — byte-identical to the unsharded parse — and the outputs are identical.
#[test]
fn newstest2013_parsed_shards_merge_to_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cache = d.join("cache");
    let src = data("parallel/newstest2013.de-en.de");
    // The whole parse, and an aligner trained once on the UD words of it.
    let whole_conllu = d.join("whole.conllu");
    let parse = || {
        Ldd::cmd("parse")
            .path("--src", &src)
            .small_german(&cache)
            .args(&["--quiet"])
    };
    parse().path("--out", &whole_conllu).ok();
    let aligner = d.join("aligner");
    Ldd::cmd("align")
        .newstest()
        .path("--conllu", &whole_conllu)
        .path("--save-model", &aligner)
        .args(&["--quiet"])
        .ok();
    let extract_to = |out: &Path| {
        Ldd::cmd("extract")
            .newstest()
            .small_german(&cache)
            .path("--align-model", &aligner)
            .out(out)
    };
    let extract = |out: &Path, extra: &[&str]| {
        extract_to(out).args(&["--quiet"]).args(extra).ok();
    };
    extract(&d.join("whole"), &[]);
    // Set the whole corpus's cache entry aside: merge must build it from the shards.
    let entries = |ext: &str| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(&cache)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(ext))
            .collect();
        v.sort();
        v
    };
    let whole_gz = entries(".conllu.gz");
    assert_eq!(whole_gz.len(), 1);
    let whole_bytes = std::fs::read(&whole_gz[0]).unwrap();
    for p in entries(".json").iter().chain(&whole_gz) {
        std::fs::remove_file(p).unwrap();
    }

    let shards: Vec<PathBuf> = (1..=3).map(|i| d.join(format!("shard{i}"))).collect();
    for (i, out) in shards.iter().enumerate() {
        extract(out, &["--shard", &format!("{}/3", i + 1)]);
        assert!(out.join("shard-parse.conllu.gz").is_file());
    }
    // Three shard entries in the cache, one per range; a re-run shard is a cache hit.
    assert_eq!(entries(".conllu.gz").len(), 3);
    let again = extract_to(&shards[1]).args(&["--shard", "2/3"]).run();
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("lines 1001-2000") && stderr(&again).contains("cache hit"),
        "{}",
        stderr(&again)
    );
    // `parse --shard` writes the shard's trees, numbered by corpus line.
    let part = d.join("part2.conllu");
    parse().args(&["--shard", "2/3"]).path("--out", &part).ok();
    let text = std::fs::read_to_string(&part).unwrap();
    assert!(text.starts_with("# sent_id = 1001\n"), "{}", &text[..40]);
    assert_eq!(text.matches("# sent_id = ").count(), 1000);

    let merged = d.join("merged");
    run_ok(&[
        "merge",
        "--out",
        s(&merged),
        s(&shards[2]),
        s(&shards[0]),
        s(&shards[1]),
    ]);
    assert_same_output(&d.join("whole"), &merged);
    // The assembled parse is the unsharded parse, byte for byte, at the same place.
    let assembled = entries(".conllu.gz")
        .into_iter()
        .find(|p| *p == whole_gz[0])
        .expect("merge put the whole corpus's parse into the cache");
    assert!(std::fs::read(&assembled).unwrap() == whole_bytes);
    // ... and it is a valid cache entry: an unsharded run now finds it.
    let hit = extract_to(&d.join("again")).run();
    assert!(stderr(&hit).contains("cache hit"), "{}", stderr(&hit));
}

/// Shard outputs of PUD (gold trees, no reordering) for the refusal tests.
fn pud_shards(d: &Path, n: u32, extra: &[&str]) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| {
            let out = d.join(format!("p{i}of{n}{}", extra.join("")));
            pud(
                "de",
                &out,
                &[&["--no-reorder", "--shard", &format!("{i}/{n}")][..], extra].concat(),
            );
            out
        })
        .collect()
}

#[test]
fn merge_refuses_missing_duplicated_and_foreign_shards_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = pud_shards(d, 3, &[]);
    let other_seed = pud_shards(d, 3, &["--seed", "2"]);
    let four = pud_shards(d, 4, &[]);
    let en = d.join("en2of3");
    pud("en", &en, &["--no-reorder", "--shard", "2/3"]);
    let whole = d.join("whole");
    pud("de", &whole, &["--no-reorder"]);

    // A previous merged output at OUT stays as it was when a merge fails.
    let out = d.join("out");
    run_ok(&[
        "merge",
        "--out",
        s(&out),
        "--quiet",
        s(&p[0]),
        s(&p[1]),
        s(&p[2]),
    ]);
    let before = files(&out);

    let cases: Vec<(Vec<&PathBuf>, &str)> = vec![
        (vec![&p[0], &p[2]], "shard 2/3 missing (given: 1/3"),
        (vec![&p[0]], "shards 2/3, 3/3 missing"),
        (vec![&p[0], &p[1], &p[1], &p[2]], "shard 2/3 is given twice"),
        (vec![&p[0], &other_seed[1], &p[2]], "`shard.controls.seed`"),
        (
            vec![&p[0], &en, &p[2]],
            "not from the same inputs and settings",
        ),
        (
            vec![&p[0], &p[1], &p[2], &four[3]],
            "belongs to a run of 4 shards but",
        ),
        (vec![&p[0], &p[1], &whole], "made without --shard"),
        (vec![&p[0], &p[1], &out], "is a merged output already"),
    ];
    for (dirs, want) in cases {
        let fresh = d.join("fresh");
        for target in [&fresh, &out] {
            let mut args = vec!["merge", "--out", s(target)];
            args.extend(dirs.iter().map(|p| s(p)));
            let o = run(&args);
            assert_eq!(o.status.code(), Some(4), "{args:?}: {}", stderr(&o));
            // OUT given as a shard too is an input of the merge: the one output guard
            // refuses it as such before any work.
            let want = if dirs.contains(&target) {
                "contains the input"
            } else {
                want
            };
            assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
            // Every path the message names is one the user can look at: the shards or
            // OUT, never a staging directory of the failed merge.
            let root = d.to_str().unwrap();
            for word in stderr(&o).split_whitespace().filter(|w| w.contains(root)) {
                let path = word.trim_matches(|c: char| "'\"`,;()".contains(c));
                let path = match path.trim_end_matches(':').rsplit_once(':') {
                    Some((file, line)) if line.chars().all(|c| c.is_ascii_digit()) => file,
                    _ => path.trim_end_matches(':'),
                };
                let path = Path::new(path);
                assert!(
                    path == target.as_path() || path.exists(),
                    "{args:?} names {}, which does not exist: {}",
                    path.display(),
                    stderr(&o)
                );
                assert!(!word.contains("staging"), "{args:?}: {}", stderr(&o));
            }
        }
        assert!(!fresh.exists(), "nothing written for {want}");
        assert!(
            files(&out) == before,
            "the previous output is untouched ({want})"
        );
        let left: Vec<String> = common::listing(d)
            .into_iter()
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
    }
}

/// A shard's output is not a complete set of sets: score, slice, report and compare refuse
/// it and say to merge; a shard whose files were changed is refused by merge.
#[test]
fn shard_outputs_are_refused_until_merged_and_checked_when_merged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = pud_shards(d, 2, &[]);
    let hyp = data("parallel/pud.de-en.en");
    for args in [
        vec!["score", "--sets", s(&p[0]), "--hyp", s(&hyp)],
        vec!["report", "--sets", s(&p[0])],
        vec![
            "compare",
            "--gold",
            s(&p[0]),
            "--pred",
            s(&p[1]),
            "--bucket",
            "ge1",
        ],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(4), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is shard 1/2 of a sharded run")
                && stderr(&o).contains("ldd-sets merge"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // An id outside the shard's lines: the file no longer has the checksum the shard
    // recorded; with the checksum edited too, the id itself is refused.
    let ids = p[1].join("particle/ge1.ids");
    let orig = std::fs::read_to_string(&ids).unwrap();
    let changed = format!("3\n{orig}");
    std::fs::write(&ids, &changed).unwrap();
    let out = d.join("out");
    let o = run(&["merge", "--out", s(&out), s(&p[0]), s(&p[1])]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("particle/ge1.ids: changed since ldd-sets wrote it"),
        "{}",
        stderr(&o)
    );
    let manifest = p[1].join("manifest.json");
    let recorded = std::fs::read_to_string(&manifest).unwrap();
    let hex = |b: &[u8]| -> String {
        use sha2::Digest;
        sha2::Sha256::digest(b)
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect()
    };
    let edited = recorded.replace(&hex(orig.as_bytes()), &hex(changed.as_bytes()));
    assert_ne!(edited, recorded);
    std::fs::write(&manifest, edited).unwrap();
    let o = run(&["merge", "--out", s(&out), s(&p[0]), s(&p[1])]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line id 3 is not a line of this shard (501..1000)"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    std::fs::write(&ids, &orig).unwrap();
    std::fs::write(&manifest, &recorded).unwrap();
    // A manifest file name that leaves the shard's directory (in both shards, so that they
    // still agree).
    let texts: Vec<(PathBuf, String)> = p
        .iter()
        .map(|d| {
            let f = d.join("manifest.json");
            let t = std::fs::read_to_string(&f).unwrap();
            (f, t)
        })
        .collect();
    for (f, t) in &texts {
        std::fs::write(
            f,
            t.replace("\"shard-lengths.txt\"", "\"../p2of2/shard-lengths.txt\""),
        )
        .unwrap();
    }
    let o = run(&["merge", "--out", s(&out), s(&p[0]), s(&p[1])]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("leaves the set directory"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    for (f, t) in &texts {
        std::fs::write(f, t).unwrap();
    }
    run_ok(&["merge", "--out", s(&out), "--quiet", s(&p[0]), s(&p[1])]);
}

#[test]
fn shard_option_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let extract = |shard: &str| {
        run(&strs(&pud_command(
            "extract",
            "de",
            &["--out", s(&out), "--shard", shard],
        )))
    };
    for bad in ["0/3", "4/3", "3", "1/0", "x/2"] {
        let o = extract(bad);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("expected I/N"), "{bad}: {}", stderr(&o));
    }
    // Reordering sets need one aligner for all shards; refused before any work.
    let o = extract("1/2");
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--align-model PREFIX"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

/// `run --shard` over a directory of corpora: every corpus is sharded; `merge` of the run
/// outputs merges corpus by corpus and equals the unsharded `run`.
#[test]
fn run_shards_merge_corpus_by_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let corpora = d.join("corpora");
    std::fs::create_dir(&corpora).unwrap();
    for lang in ["de", "en"] {
        std::fs::copy(
            data(&format!("parallel/pud.de-en.{lang}")),
            corpora.join(format!("pud.de-en.{lang}")),
        )
        .unwrap();
        // A second, small corpus: the first 100 lines of newstest2013.
        let news =
            std::fs::read_to_string(data(&format!("parallel/newstest2013.de-en.{lang}"))).unwrap();
        let head: String = news.lines().take(100).map(|l| format!("{l}\n")).collect();
        std::fs::write(corpora.join(format!("news100.de-en.{lang}")), head).unwrap();
    }
    let cache = d.join("cache");
    let models = shared().join("models");
    let base = [
        "run",
        "--pair",
        "de-en",
        "--corpora",
        s(&corpora),
        "--models",
        s(&models),
        "--offline",
        "--cache",
        s(&cache),
        "--no-reorder",
        "--quiet",
    ];
    run_ok(&[&base[..], &["--out", s(&d.join("whole"))]].concat());
    for i in 1..=2 {
        run_ok(
            &[
                &base[..],
                &[
                    "--out",
                    s(&d.join(format!("s{i}"))),
                    "--shard",
                    &format!("{i}/2"),
                ],
            ]
            .concat(),
        );
    }
    let merged = d.join("merged");
    let o = run_ok(&[
        "merge",
        "--out",
        s(&merged),
        s(&d.join("s2")),
        s(&d.join("s1")),
    ]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        text.contains("news100: merged 2 shards: 100 lines"),
        "{text}"
    );
    assert!(text.contains("pud: merged 2 shards: 1000 lines"), "{text}");
    for corpus in ["news100", "pud"] {
        assert_same_output(&d.join("whole").join(corpus), &merged.join(corpus));
    }
}

//! Sharded runs on the engines researchers use: GNU parallel runs the 3 shards of a corpus
//! side by side, and a single-node Slurm cluster on this machine (munge, slurmctld and
//! slurmd from Debian, started by `tests/cluster/slurm-cluster.sh` and stopped afterwards)
//! runs them as an array job (`examples/slurm/shard.sbatch`) with a merge job that depends
//! on it (`merge.sbatch`, both submitted by `examples/slurm/submit.sh`). On PUD (gold
//! trees) and newstest2013 (parsed by the small model, every shard parsing its own lines),
//! the merged output equals the unsharded run byte for byte, and the whole corpus's parse
//! that merge assembles equals the unsharded parse.
//!
//! Needs GNU parallel, and Slurm with munge and root for the cluster (`.ci/run` installs
//! the Debian packages `parallel`, `slurm-wlm` and `munge`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{assert_same_output, data, run_ok, shared};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One corpus to shard: the `ldd-sets` arguments of its run (without --out and --shard),
/// its unsharded output, and its parse cache.
struct Case {
    name: &'static str,
    args: Vec<String>,
    whole: PathBuf,
    cache: Option<PathBuf>,
}

/// The two corpora, each with its unsharded run done and an aligner trained once.
fn cases(d: &Path) -> Vec<Case> {
    let pud_aligner = d.join("pud-aligner");
    let news_aligner = d.join("news-aligner");
    let (pde, pen) = (data("parallel/pud.de-en.de"), data("parallel/pud.de-en.en"));
    let (nde, nen) = (
        data("parallel/newstest2013.de-en.de"),
        data("parallel/newstest2013.de-en.en"),
    );
    let langs = ["--src-lang", "de", "--tgt-lang", "en"];
    // PUD: the aligner on the UD words of the gold trees; newstest2013: on raw text (the
    // aligner's tokenizer), as for a corpus not parsed yet.
    let conllu = data("ud/de_pud-ud-test.conllu");
    run_ok(
        &[
            &[
                "align",
                "--src",
                s(&pde),
                "--tgt",
                s(&pen),
                "--conllu",
                s(&conllu),
            ][..],
            &langs,
            &["--save-model", s(&pud_aligner), "--quiet"],
        ]
        .concat(),
    );
    run_ok(
        &[
            &["align", "--src", s(&nde), "--tgt", s(&nen)][..],
            &langs,
            &["--save-model", s(&news_aligner), "--quiet"],
        ]
        .concat(),
    );
    let cache = d.join("cache");
    let model = shared().join("models/german-small.udpipe");
    let strings = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let mut cases = vec![
        Case {
            name: "pud",
            args: strings(
                &[
                    &[
                        "extract",
                        "--src",
                        s(&pde),
                        "--tgt",
                        s(&pen),
                        "--conllu",
                        s(&conllu),
                    ][..],
                    &langs,
                    &["--align-model", s(&pud_aligner), "--quiet"],
                ]
                .concat(),
            ),
            whole: d.join("pud-whole"),
            cache: None,
        },
        Case {
            name: "newstest2013",
            args: strings(
                &[
                    &["extract", "--src", s(&nde), "--tgt", s(&nen)][..],
                    &langs,
                    &[
                        "--model",
                        s(&model),
                        "--cache",
                        s(&cache),
                        "--align-model",
                        s(&news_aligner),
                        "--quiet",
                    ],
                ]
                .concat(),
            ),
            whole: d.join("news-whole"),
            cache: Some(cache),
        },
    ];
    for c in &mut cases {
        let mut args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        args.extend(["--out", s(&c.whole)]);
        run_ok(&args);
    }
    cases
}

/// Empties the parse cache but for what an engine's shards must not find: the shards'
/// entries and the whole corpus's (returned, to compare with what merge assembles).
fn clear_cache(cache: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut whole = Vec::new();
    for e in std::fs::read_dir(cache).unwrap() {
        let p = e.unwrap().path();
        if p.to_string_lossy().ends_with(".conllu.gz") {
            let json = p.with_extension("").with_extension("json");
            let record = std::fs::read_to_string(&json).unwrap_or_default();
            if !record.contains("\"range\"") {
                whole.push((p.clone(), std::fs::read(&p).unwrap()));
            }
            std::fs::remove_file(&json).ok();
            std::fs::remove_file(&p).unwrap();
        }
    }
    assert_eq!(
        whole.len(),
        1,
        "one whole-corpus parse in {}",
        cache.display()
    );
    whole
}

/// Checks an engine's merged output against the unsharded run, and the assembled parse.
fn check(c: &Case, merged: &Path, whole_parse: &[(PathBuf, Vec<u8>)]) {
    assert_same_output(&c.whole, merged);
    for (path, bytes) in whole_parse {
        let got = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(&got == bytes, "{}: the assembled parse differs", c.name);
    }
}

#[test]
fn gnu_parallel_runs_the_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for c in cases(d) {
        let parses = c.cache.as_deref().map(clear_cache).unwrap_or_default();
        let shards = d.join(format!("{}-parallel", c.name));
        let status = Command::new("parallel")
            .args(["--will-cite", "--halt", "now,fail=1", "-j", "2", "-q"])
            .arg(env!("CARGO_BIN_EXE_ldd-sets"))
            .args(&c.args)
            .args(["--threads", "1", "--shard", "{}/3", "--out"])
            .arg(shards.join("{}"))
            .args([":::", "1", "2", "3"])
            .status()
            .expect("GNU parallel runs (apt-get install parallel; .ci/run does)");
        assert!(status.success(), "{}: parallel failed", c.name);
        let merged = d.join(format!("{}-parallel-merged", c.name));
        let dirs: Vec<PathBuf> = (1..=3).map(|i| shards.join(i.to_string())).collect();
        let mut args = vec!["merge", "--out", s(&merged), "--quiet"];
        args.extend(dirs.iter().map(|p| s(p)));
        run_ok(&args);
        check(&c, &merged, &parses);
    }
}

/// Stops the test cluster however the test ends.
struct Cluster(PathBuf);

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(root().join("tests/cluster/slurm-cluster.sh"))
            .arg("stop")
            .arg(&self.0)
            .status();
    }
}

#[test]
fn slurm_runs_the_array_job_and_the_dependent_merge() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let conf_dir = d.join("slurm");
    let up = Command::new(root().join("tests/cluster/slurm-cluster.sh"))
        .arg("start")
        .arg(&conf_dir)
        .output()
        .expect("tests/cluster/slurm-cluster.sh runs");
    let cluster = Cluster(conf_dir.clone());
    assert!(
        up.status.success(),
        "the single-node Slurm cluster did not start (Debian's slurm-wlm and munge, as root; \
         .ci/run installs them): {}",
        String::from_utf8_lossy(&up.stderr)
    );
    let conf = conf_dir.join("slurm.conf");
    for c in cases(d) {
        let parses = c.cache.as_deref().map(clear_cache).unwrap_or_default();
        let shards = d.join(format!("{}-slurm", c.name));
        let merged = d.join(format!("{}-slurm-merged", c.name));
        let out = Command::new(root().join("examples/slurm/submit.sh"))
            .arg("--wait")
            .arg("3")
            .arg(&shards)
            .arg(&merged)
            .args(&c.args)
            .current_dir(d)
            .env("SLURM_CONF", &conf)
            .env("LDD_SETS", env!("CARGO_BIN_EXE_ldd-sets"))
            // This node has 2 CPUs: one per task, so two shards run at a time.
            .env("SBATCH_OPTS", "--cpus-per-task=1 --mem=2G --time=30")
            .output()
            .expect("submit.sh runs");
        let logs: String = common::listing(d)
            .into_iter()
            .filter(|n| n.ends_with(".log"))
            .map(|n| {
                format!(
                    "== {n}\n{}",
                    std::fs::read_to_string(d.join(&n)).unwrap_or_default()
                )
            })
            .collect();
        assert!(
            out.status.success(),
            "{}: the Slurm jobs failed: {}{}\n{logs}",
            c.name,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("(array 1-3)") && text.contains("merge: job"),
            "{text}"
        );
        // Each shard ran as a task of the array job, into SHARDS/I.
        for i in 1..=3 {
            let m = std::fs::read_to_string(shards.join(format!("{i}/manifest.json"))).unwrap();
            assert!(m.contains(&format!("\"index\": {i},")) && m.contains("\"count\": 3,"));
        }
        check(&c, &merged, &parses);
    }
    drop(cluster);
}

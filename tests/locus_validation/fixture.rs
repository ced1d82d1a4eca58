//! The fixture of both suites: the three sets directories, their references scored on
//! their own (the loci as the reference renders them), and reading `scores.loci.tsv`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use crate::common::*;
use ldd_sets::format::from_spreadsheet;

/// The flag of `score` that names the target language's UDPipe model: `--tgt-model` from
/// `locus:4` on; `--lemma-model` before.
pub(crate) const TGT_MODEL_FLAG: &str = "--tgt-model";

// ---------------------------------------------------------------------------------------
// Judgements

/// A judgement of `scores.loci.tsv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Correct,
    Incorrect,
    Differs,
    Partial,
    Unaligned,
    NoReference,
}

impl Outcome {
    pub(crate) fn parse(s: &str) -> Outcome {
        match s {
            "correct" => Outcome::Correct,
            "incorrect" => Outcome::Incorrect,
            "differs" => Outcome::Differs,
            "partial" => Outcome::Partial,
            "unaligned" => Outcome::Unaligned,
            "no_reference" => Outcome::NoReference,
            other => panic!("unknown judgement {other:?}"),
        }
    }

    /// Whether both words were judged: `correct`, `incorrect` or `differs`.
    pub(crate) fn decided(self) -> bool {
        matches!(
            self,
            Outcome::Correct | Outcome::Incorrect | Outcome::Differs
        )
    }
}

/// A locus as the reference renders it.
#[derive(Debug, Clone)]
pub(crate) struct Locus {
    pub(crate) phenomenon: String,
    /// 1-based line.
    pub(crate) id: usize,
    /// The source words' IDs, as written (`head` empty: one marked link).
    pub(crate) dep: String,
    pub(crate) head: String,
    /// Reference tokens (0-based) of the dependent and of the head.
    pub(crate) ref_dep: Vec<usize>,
    pub(crate) ref_head: Vec<usize>,
    /// The first system's (the reference's) judgement.
    pub(crate) on_reference: Outcome,
}

/// A `scores.loci.tsv`: the loci (file order) and every system's judgements of them.
pub(crate) struct Scored {
    pub(crate) rule: String,
    pub(crate) loci: Vec<Locus>,
    pub(crate) of: BTreeMap<String, Vec<Outcome>>,
    /// The `reference` column of each line that has a locus.
    pub(crate) reference: BTreeMap<usize, String>,
}

/// The name of the first system of every `score` call.
pub(crate) const REFERENCE: &str = "reference";

/// Reads `scores.loci.tsv`, whose first system is [`REFERENCE`].
pub(crate) fn read_scored(path: &Path) -> Scored {
    let rows = lines(path);
    let zero = |c: &str| -> Vec<usize> {
        c.split_whitespace()
            .map(|p| p.parse::<usize>().unwrap() - 1)
            .collect()
    };
    let mut s = Scored {
        rule: String::new(),
        loci: Vec::new(),
        of: BTreeMap::new(),
        reference: BTreeMap::new(),
    };
    for row in &rows[1..] {
        let c: Vec<&str> = row.split('\t').collect();
        assert!(c.len() >= 25 && c[24].starts_with("locus:"), "{row}");
        s.rule = c[24].to_string();
        let (id, outcome) = (c[2].parse().unwrap(), Outcome::parse(c[9]));
        if c[8] == REFERENCE {
            s.loci.push(Locus {
                phenomenon: c[0].to_string(),
                id,
                dep: c[4].to_string(),
                head: c[6].to_string(),
                ref_dep: zero(c[10]),
                ref_head: zero(c[12]),
                on_reference: outcome,
            });
            s.reference.insert(id, from_spreadsheet(c[19]).into_owned());
        } else {
            let l = s.loci.last().expect("the reference's row first");
            assert!(
                (l.phenomenon.as_str(), l.id, l.dep.as_str(), l.head.as_str())
                    == (c[0], id, c[4], c[6]),
                "{row}"
            );
        }
        s.of.entry(c[8].to_string()).or_default().push(outcome);
    }
    for (system, v) in &s.of {
        assert_eq!(v.len(), s.loci.len(), "{system}: a row per locus");
    }
    s
}

// ---------------------------------------------------------------------------------------
// The fixture

/// A sets directory of the suites, its reference and the loci as the reference renders
/// them.
pub(crate) struct Corpus {
    /// `PUD de→en`.
    pub(crate) name: &'static str,
    /// `de-en` or `en-de` (the fixtures' `direction`); newstest's is `newstest2013`.
    pub(crate) direction: &'static str,
    pub(crate) sets: PathBuf,
    pub(crate) source: PathBuf,
    pub(crate) reference: PathBuf,
    pub(crate) target: &'static str,
    /// The reference's gold trees (line k = tree k).
    pub(crate) gold: Option<PathBuf>,
    /// The target language's UDPipe model.
    pub(crate) model: PathBuf,
    /// Where its systems and scores go.
    pub(crate) dir: PathBuf,
    /// The reference's lines, and their tokens as the aligner tokenizes them.
    pub(crate) raw: Vec<String>,
    pub(crate) tokens: Vec<Vec<String>>,
    /// The loci, with the reference scored on its own.
    pub(crate) loci: Vec<Locus>,
}

impl Corpus {
    /// Line `id` (1-based) of the reference, with its tokens' byte spans.
    pub(crate) fn spans(&self, id: usize) -> Vec<(usize, usize)> {
        token_spans(&self.raw[id - 1])
    }
}

/// The byte spans of `line`'s tokens as the aligner tokenizes it.
pub(crate) fn token_spans(line: &str) -> Vec<(usize, usize)> {
    ldd_align::tokenize(line)
        .into_iter()
        .map(|t| {
            let s = t.as_ptr() as usize - line.as_ptr() as usize;
            (s, s + t.len())
        })
        .collect()
}

pub(crate) struct Fixture {
    pub(crate) corpora: Vec<Corpus>,
    pub(crate) seconds: f64,
}

/// Where the fixture lives: `LDD_VALIDATE_DIR`, else a temporary directory of the process.
pub(crate) fn root() -> PathBuf {
    static TMP: OnceLock<tempfile::TempDir> = OnceLock::new();
    match std::env::var_os("LDD_VALIDATE_DIR") {
        Some(d) => {
            std::fs::create_dir_all(&d).unwrap();
            PathBuf::from(d)
        }
        None => TMP
            .get_or_init(|| tempfile::tempdir().unwrap())
            .path()
            .into(),
    }
}

/// The fixture, built once per run of the binary (a build that failed fails every test
/// that uses it, saying why).
pub(crate) fn fixture() -> &'static Fixture {
    static F: OnceLock<Result<Fixture, String>> = OnceLock::new();
    let f = F.get_or_init(|| {
        std::panic::catch_unwind(build).map_err(|e| {
            e.downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        })
    });
    match f {
        Ok(f) => f,
        Err(e) => panic!("the fixture failed: {e}"),
    }
}

/// Whether `sets` may be used as it is (`LDD_VALIDATE_REUSE=1` and extracted already).
pub(crate) fn reuse(sets: &Path) -> bool {
    std::env::var("LDD_VALIDATE_REUSE").as_deref() == Ok("1")
        && std::env::var_os("LDD_VALIDATE_DIR").is_some()
        && sets.join("manifest.json").is_file()
}

pub(crate) fn build() -> Fixture {
    let start = Instant::now();
    let root = root();
    let model = |lang: &str| {
        let name = if lang == "de" { "german" } else { "english" };
        shared().join(format!("models/{name}-small.udpipe"))
    };
    let mut corpora = Vec::new();
    for (src, tgt) in [("de", "en"), ("en", "de")] {
        corpora.push(Corpus {
            name: if src == "de" {
                "PUD de→en"
            } else {
                "PUD en→de"
            },
            direction: if src == "de" { "de-en" } else { "en-de" },
            dir: root.join(format!("systems-pud-{src}-{tgt}")),
            sets: root.join(format!("pud-{src}-{tgt}")),
            source: data(&format!("parallel/pud.de-en.{src}")),
            reference: data(&format!("parallel/pud.de-en.{tgt}")),
            target: tgt,
            gold: Some(data(&format!("ud/{tgt}_pud-ud-test.conllu"))),
            model: model(tgt),
            raw: Vec::new(),
            tokens: Vec::new(),
            loci: Vec::new(),
        });
    }
    corpora.push(Corpus {
        name: "newstest2013 de→en",
        direction: "newstest2013",
        dir: root.join("systems-newstest2013-de-en"),
        sets: root.join("newstest2013-de-en"),
        source: data("parallel/newstest2013.de-en.de"),
        reference: data("parallel/newstest2013.de-en.en"),
        target: "en",
        gold: None,
        model: model("en"),
        raw: Vec::new(),
        tokens: Vec::new(),
        loci: Vec::new(),
    });
    // The three at once: extracting and scoring leave cores idle.
    std::thread::scope(|s| {
        let running: Vec<_> = corpora
            .iter_mut()
            .map(|c| s.spawn(|| prepare(c, &root)))
            .collect();
        for r in running {
            if let Err(e) = r.join() {
                std::panic::resume_unwind(e);
            }
        }
    });
    Fixture {
        corpora,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Extracts the corpus's sets, reads its reference and scores it on its own: the loci.
pub(crate) fn prepare(c: &mut Corpus, root: &Path) {
    if !reuse(&c.sets) {
        match c.gold {
            Some(_) => {
                let src = if c.target == "en" { "de" } else { "en" };
                pud_aligned(src, &c.sets, &[]);
            }
            None => {
                Ldd::cmd("extract")
                    .newstest()
                    .small_german(&root.join("cache"))
                    .args(&["--offline", "--controls", "0", "--quiet"])
                    .out(&c.sets)
                    .ok();
            }
        }
    }
    c.raw = lines(&c.reference);
    c.tokens = c
        .raw
        .iter()
        .map(|l| {
            ldd_align::tokenize(l)
                .into_iter()
                .map(String::from)
                .collect()
        })
        .collect();
    std::fs::create_dir_all(&c.dir).unwrap();
    let first = score(c, &[], &c.dir.join("reference-alone"));
    for (id, r) in &first.reference {
        assert_eq!(
            *r,
            c.tokens[id - 1].join(" "),
            "{}: line {id}: the sets' reference is the corpus's",
            c.name
        );
    }
    c.loci = first.loci;
}

/// Scores the corpus's reference (raw) first, then `systems` (name, file), with locus
/// accuracy alone, into `out`.
pub(crate) fn score(c: &Corpus, systems: &[(String, PathBuf)], out: &Path) -> Scored {
    let hyp = |name: &str, p: &Path| format!("{name}={}", p.to_str().unwrap());
    let mut cmd = Ldd::cmd("score")
        .path("--sets", &c.sets)
        .args(&["--hyp", &hyp(REFERENCE, &c.reference)]);
    for (name, file) in systems {
        cmd = cmd.args(&["--hyp", &hyp(name, file)]);
    }
    cmd.path(TGT_MODEL_FLAG, &c.model)
        .args(&["--metrics", "locus", "--quiet", "--replace"])
        .out(out)
        .ok();
    read_scored(&out.join("scores.loci.tsv"))
}

/// Writes a whole-corpus output `NAME.TGT` into `dir`.
pub(crate) fn write_system(
    dir: &Path,
    name: &str,
    target: &str,
    lines: &[String],
) -> (String, PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(format!("{name}.{target}"));
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    (name.to_string(), p)
}

//! Locus accuracy checked on systems made from the reference, in two suites that share one
//! fixture: three sets directories extracted without controls — PUD German→English and
//! English→German from the gold trees, with the aligner trained on the shared de-en corpora,
//! and newstest2013 German→English parsed by the small German model — and each reference
//! scored on its own, which gives the reference tokens of every locus. Every `score` call
//! names the target language's UDPipe model ([`TGT_MODEL_FLAG`]) and scores the unperturbed
//! reference as its first system; a suite scores all its systems of a corpus in one call.
//!
//! - **the perturbation suite** ([`damage_at_the_locus_flips_it_and_damage_elsewhere_does_not`]):
//!   systems made from the reference *as the aligner tokenizes it*, by the tool's own
//!   alignment of the reference to the loci. Damage at the locus: every reference token
//!   aligned to a locus (of any set) replaced by a random content word of the corpus, by a
//!   word of the same part of speech, or by the word of the most similar spelling (at least
//!   95% `incorrect` or `differs`, never `correct`); the tokens deleted, the particle
//!   dropped (particle loci), a reflexive in another person or dropped (reflexive loci): at
//!   least 95% `incorrect`. Damage elsewhere: every word token aligned to no locus replaced,
//!   or deleted: at least 95% unchanged. The reference itself: every locus judged there is
//!   `correct`;
//! - **the validation suite** ([`systems_made_without_the_tools_alignment_are_judged_as_made`]):
//!   whole-corpus outputs edited in the raw reference text wherever possible without the
//!   tool's alignment. From the gold trees of PUD's references, every `compound:prt` token
//!   of a VERB or AUX dropped, moved (German: directly after its verb; English: from beside
//!   its verb to the end of its clause) or glued to its verb (at least 95% `incorrect`);
//!   the source line as the output, or the reference of the next line (at most 1%
//!   `correct`); the two reference tokens of a reorder locus swapped — this kind starts
//!   from the tool's alignment (at least 95% `incorrect`); a token replaced by a
//!   hand-written synonym ([`SYNONYMS`]; at most 10% `incorrect`). The loci present in the
//!   hand-checked renderings ([`RENDERINGS`]) are counted again by those hand positions.
//!
//! Outcomes (`locus:4`): `correct`, `incorrect`, `differs` (rendered by other words the tool
//! cannot vouch for: not judged), `partial` (one of the two words judged: not judged),
//! `unaligned`, `no_reference`; files of `locus:3` have the first two and the last two.
//! Requirements hold per corpus × phenomenon row of at least [`MIN_LOCI`] loci, and per
//! kind over the three corpora. Each test prints its table (`make validate-locus`, or
//! `cargo test --release --test locus_validation -- --nocapture`) before asserting, and
//! last checks that docs/evaluation.md holds it.
//!
//! `LDD_VALIDATE_DIR=DIR` keeps the sets, the systems and their `scores.loci.tsv` in `DIR`;
//! with `LDD_VALIDATE_REUSE=1` too, sets directories already extracted there are used as
//! they are.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use common::*;
use ldd_sets::format::from_spreadsheet;
use ldd_sets::locus::rule::variant;

/// The flag of `score` that names the target language's UDPipe model: `--tgt-model` from
/// `locus:4` on; `--lemma-model` before.
const TGT_MODEL_FLAG: &str = "--tgt-model";

/// The hand-written synonyms: `direction id position word synonym note` (relative paths:
/// from the repository root).
const SYNONYMS: &str = "tests/fixtures/locus-synonyms.pud.tsv";

/// The hand-checked renderings of PUD's loci: `direction id phenomenon dep dep_word head
/// head_word ref_dep ref_head note`.
const RENDERINGS: &str = "tests/fixtures/locus-renderings.pud.tsv";

/// The fewest loci of a row held to the requirement (fewer are printed, and count in the
/// kind's total over the corpora, which is held to it too).
const MIN_LOCI: usize = 20;

// ---------------------------------------------------------------------------------------
// Judgements

/// A judgement of `scores.loci.tsv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Correct,
    Incorrect,
    Differs,
    Partial,
    Unaligned,
    NoReference,
}

impl Outcome {
    fn parse(s: &str) -> Outcome {
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
    fn decided(self) -> bool {
        matches!(
            self,
            Outcome::Correct | Outcome::Incorrect | Outcome::Differs
        )
    }
}

/// A locus as the reference renders it.
#[derive(Debug, Clone)]
struct Locus {
    phenomenon: String,
    /// 1-based line.
    id: usize,
    /// The source words' IDs, as written (`head` empty: one marked link).
    dep: String,
    head: String,
    /// Reference tokens (0-based) of the dependent and of the head.
    ref_dep: Vec<usize>,
    ref_head: Vec<usize>,
    /// The first system's (the reference's) judgement.
    on_reference: Outcome,
}

/// A `scores.loci.tsv`: the loci (file order) and every system's judgements of them.
struct Scored {
    rule: String,
    loci: Vec<Locus>,
    of: BTreeMap<String, Vec<Outcome>>,
    /// The `reference` column of each line that has a locus.
    reference: BTreeMap<usize, String>,
}

/// The name of the first system of every `score` call.
const REFERENCE: &str = "reference";

/// Reads `scores.loci.tsv`, whose first system is [`REFERENCE`].
fn read_scored(path: &Path) -> Scored {
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
struct Corpus {
    /// `PUD de→en`.
    name: &'static str,
    /// `de-en` or `en-de` (the fixtures' `direction`); newstest's is `newstest2013`.
    direction: &'static str,
    sets: PathBuf,
    source: PathBuf,
    reference: PathBuf,
    target: &'static str,
    /// The reference's gold trees (line k = tree k).
    gold: Option<PathBuf>,
    /// The target language's UDPipe model.
    model: PathBuf,
    /// Where its systems and scores go.
    dir: PathBuf,
    /// The reference's lines, and their tokens as the aligner tokenizes them.
    raw: Vec<String>,
    tokens: Vec<Vec<String>>,
    /// The loci, with the reference scored on its own.
    loci: Vec<Locus>,
}

impl Corpus {
    /// Line `id` (1-based) of the reference, with its tokens' byte spans.
    fn spans(&self, id: usize) -> Vec<(usize, usize)> {
        token_spans(&self.raw[id - 1])
    }
}

/// The byte spans of `line`'s tokens as the aligner tokenizes it.
fn token_spans(line: &str) -> Vec<(usize, usize)> {
    ldd_align::tokenize(line)
        .into_iter()
        .map(|t| {
            let s = t.as_ptr() as usize - line.as_ptr() as usize;
            (s, s + t.len())
        })
        .collect()
}

struct Fixture {
    corpora: Vec<Corpus>,
    seconds: f64,
}

/// Where the fixture lives: `LDD_VALIDATE_DIR`, else a temporary directory of the process.
fn root() -> PathBuf {
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
fn fixture() -> &'static Fixture {
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
fn reuse(sets: &Path) -> bool {
    std::env::var("LDD_VALIDATE_REUSE").as_deref() == Ok("1")
        && std::env::var_os("LDD_VALIDATE_DIR").is_some()
        && sets.join("manifest.json").is_file()
}

fn build() -> Fixture {
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
fn prepare(c: &mut Corpus, root: &Path) {
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
fn score(c: &Corpus, systems: &[(String, PathBuf)], out: &Path) -> Scored {
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
fn write_system(dir: &Path, name: &str, target: &str, lines: &[String]) -> (String, PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let p = dir.join(format!("{name}.{target}"));
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    (name.to_string(), p)
}

/// The phenomena of `loci`, in their order.
fn phenomena(loci: &[Locus]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in loci {
        if !out.contains(&l.phenomenon) {
            out.push(l.phenomenon.clone());
        }
    }
    out
}

fn pct(k: usize, n: usize) -> String {
    if n == 0 {
        "-".into()
    } else {
        format!("{:.1}", 100.0 * k as f64 / n as f64)
    }
}

/// A fixture file's path: absolute as it is, else from the repository root.
fn fixture_file(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// Asserts that docs/evaluation.md holds `table`.
fn assert_documented(table: &str) {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/evaluation.md"))
            .unwrap();
    assert!(
        docs.contains(table),
        "docs/evaluation.md should hold the table above"
    );
}

// ---------------------------------------------------------------------------------------
// The perturbation suite

/// The kinds of damage, in the table's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Reference,
    Random,
    SamePos,
    Spelling,
    Deleted,
    ParticleDropped,
    ReflexivePerson,
    ReflexiveDropped,
    ElsewhereReplaced,
    ElsewhereDeleted,
}

const KINDS: [Kind; 10] = [
    Kind::Reference,
    Kind::Random,
    Kind::SamePos,
    Kind::Spelling,
    Kind::Deleted,
    Kind::ParticleDropped,
    Kind::ReflexivePerson,
    Kind::ReflexiveDropped,
    Kind::ElsewhereReplaced,
    Kind::ElsewhereDeleted,
];

impl Kind {
    /// The system's name (its file's stem) and the table's label.
    fn name(self) -> &'static str {
        match self {
            Kind::Reference => "reference",
            Kind::Random => "random-word",
            Kind::SamePos => "same-pos-word",
            Kind::Spelling => "similar-spelling",
            Kind::Deleted => "deleted",
            Kind::ParticleDropped => "particle-dropped",
            Kind::ReflexivePerson => "reflexive-person",
            Kind::ReflexiveDropped => "reflexive-dropped",
            Kind::ElsewhereReplaced => "elsewhere-replaced",
            Kind::ElsewhereDeleted => "elsewhere-deleted",
        }
    }

    /// The only phenomenon whose loci the kind damages (`None`: every phenomenon's).
    fn phenomenon(self) -> Option<&'static str> {
        match self {
            Kind::ParticleDropped => Some("particle"),
            Kind::ReflexivePerson | Kind::ReflexiveDropped => Some("reflexive"),
            _ => None,
        }
    }

    /// Whether a row of `n` loci meets the kind's requirement; the share it is held to.
    fn meets(self, r: &Row) -> (bool, String) {
        let n = r.loci;
        let at_least = |k: usize, p: usize| 100 * k >= p * n;
        match self {
            Kind::Reference => (r.correct == n, format!("{} of {n} correct", r.correct)),
            Kind::Random | Kind::SamePos | Kind::Spelling => (
                at_least(r.incorrect + r.differs, 95),
                format!(
                    "{} of {n} incorrect or differs, {} correct",
                    r.incorrect + r.differs,
                    r.correct
                ),
            ),
            Kind::ElsewhereReplaced | Kind::ElsewhereDeleted => (
                at_least(r.unchanged, 95),
                format!("{} of {n} unchanged", r.unchanged),
            ),
            _ => (
                at_least(r.incorrect, 95),
                format!("{} of {n} incorrect", r.incorrect),
            ),
        }
    }
}

/// The lemmas of every lowercased form of the UD treebanks of `lang` in ../shared
/// (lowercased).
fn lemmas(lang: &str) -> HashMap<String, BTreeSet<String>> {
    let mut out: HashMap<String, BTreeSet<String>> = HashMap::new();
    for entry in std::fs::read_dir(data("ud")).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with(&format!("{lang}_")) {
            continue;
        }
        for tree in oracle_trees(&p) {
            for w in tree {
                out.entry(w[1].to_lowercase())
                    .or_default()
                    .insert(w[2].to_lowercase());
            }
        }
    }
    out
}

/// The most frequent universal part of speech of every lowercased form of the UD
/// treebanks of `lang` in ../shared.
fn lexicon(lang: &str) -> HashMap<String, String> {
    let mut counts: HashMap<String, HashMap<String, u32>> = HashMap::new();
    for entry in std::fs::read_dir(data("ud")).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with(&format!("{lang}_")) {
            continue;
        }
        for tree in oracle_trees(&p) {
            for w in tree {
                *counts
                    .entry(w[1].to_lowercase())
                    .or_default()
                    .entry(w[3].clone())
                    .or_default() += 1;
            }
        }
    }
    counts
        .into_iter()
        .map(|(form, c)| {
            let best = c
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)));
            (form, best.unwrap().0)
        })
        .collect()
}

/// A token's part of speech: the lexicon's, else a guess from its characters.
fn pos_of(token: &str, lex: &HashMap<String, String>) -> String {
    if let Some(p) = lex.get(&token.to_lowercase()) {
        return p.clone();
    }
    if !token.chars().any(char::is_alphanumeric) {
        "PUNCT".into()
    } else if token.chars().all(|c| c.is_ascii_digit()) {
        "NUM".into()
    } else if token.chars().next().is_some_and(char::is_uppercase) {
        "PROPN".into()
    } else {
        "NOUN".into()
    }
}

/// SplitMix64 of a seed: the suite's deterministic draws.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Levenshtein distance of two words, in characters.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The replacement words of a corpus: its target side's distinct tokens by part of speech.
struct Vocabulary {
    /// The lemmas of each lowercased form (UD treebanks).
    lemmas: HashMap<String, BTreeSet<String>>,
    target: &'static str,
    lex: HashMap<String, String>,
    words: Vec<String>,
    by_pos: BTreeMap<String, Vec<usize>>,
    content: Vec<usize>,
}

impl Vocabulary {
    fn new(reference: &[Vec<String>], target: &'static str) -> Vocabulary {
        let lex = lexicon(target);
        let distinct: BTreeSet<&String> = reference.iter().flatten().collect();
        let words: Vec<String> = distinct.into_iter().cloned().collect();
        let mut by_pos: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut content = Vec::new();
        for (k, w) in words.iter().enumerate() {
            let p = pos_of(w, &lex);
            if ["NOUN", "VERB", "ADJ", "ADV", "PROPN"].contains(&p.as_str())
                && w.chars().all(char::is_alphabetic)
            {
                content.push(k);
            }
            by_pos.entry(p).or_default().push(k);
        }
        Vocabulary {
            target,
            lemmas: lemmas(target),
            lex,
            words,
            by_pos,
            content,
        }
    }

    /// Whether `c` may replace `w`: not the same word, nor a variant of it, nor another
    /// form of it (a lemma they share in the UD treebanks: `grew` / `grow`, `dem` / `der`).
    fn other(&self, c: &str, w: &str) -> bool {
        let (c, w) = (c.to_lowercase(), w.to_lowercase());
        let shared = match (self.lemmas.get(&c), self.lemmas.get(&w)) {
            (Some(a), Some(b)) => !a.is_disjoint(b),
            _ => false,
        };
        c != w && !variant(&c, &w, self.target) && !shared
    }

    /// A word of `pool` drawn with `seed` that may replace `w`.
    fn draw(&self, pool: &[usize], w: &str, seed: u64) -> String {
        for k in 0..64u64 {
            let c = &self.words[pool[(mix(seed ^ k) % pool.len() as u64) as usize]];
            if self.other(c, w) {
                return c.clone();
            }
        }
        panic!("no replacement for {w}");
    }

    fn replacement(&self, kind: Kind, w: &str, seed: u64) -> String {
        match kind {
            Kind::SamePos => {
                let pool = self
                    .by_pos
                    .get(&pos_of(w, &self.lex))
                    .filter(|p| p.iter().any(|&k| self.other(&self.words[k], w)))
                    .unwrap_or(&self.content);
                self.draw(pool, w, seed)
            }
            Kind::Spelling => self.similar(w, seed),
            _ => self.draw(&self.content, w, seed),
        }
    }

    /// The word of most similar spelling (Levenshtein, at most 3; ties drawn with `seed`),
    /// else a random content word.
    fn similar(&self, w: &str, seed: u64) -> String {
        let n = w.chars().count();
        let mut best: (usize, Vec<&String>) = (4, Vec::new());
        for c in &self.words {
            let m = c.chars().count();
            if m + 3 < n || n + 3 < m || !self.other(c, w) {
                continue;
            }
            let d = distance(&c.to_lowercase(), &w.to_lowercase());
            if d < best.0 {
                best = (d, vec![c]);
            } else if d == best.0 {
                best.1.push(c);
            }
        }
        if best.1.is_empty() {
            return self.draw(&self.content, w, seed);
        }
        best.1[(mix(seed) % best.1.len() as u64) as usize].clone()
    }
}

/// A personal or reflexive pronoun of `lang` in another person, of the same case (`None`:
/// not one): what a reflexive in the wrong person becomes (the reference often renders a
/// German reflexive by a personal pronoun: *mich* → *me*).
fn other_person(w: &str, lang: &str) -> Option<&'static str> {
    let pairs: &[(&str, &str)] = match lang {
        "en" => &[
            ("i", "he"),
            ("me", "him"),
            ("myself", "himself"),
            ("you", "he"),
            ("yourself", "himself"),
            ("he", "i"),
            ("him", "me"),
            ("himself", "myself"),
            ("she", "i"),
            ("her", "me"),
            ("herself", "myself"),
            ("it", "we"),
            ("itself", "ourselves"),
            ("oneself", "myself"),
            ("we", "they"),
            ("us", "them"),
            ("ourselves", "themselves"),
            ("yourselves", "themselves"),
            ("they", "we"),
            ("them", "us"),
            ("themselves", "ourselves"),
        ],
        _ => &[
            ("sich", "mich"),
            ("mich", "sich"),
            ("dich", "sich"),
            ("mir", "sich"),
            ("dir", "sich"),
            ("uns", "sich"),
            ("euch", "sich"),
            ("ich", "er"),
            ("du", "er"),
            ("er", "ich"),
            ("wir", "sie"),
            ("ihn", "mich"),
            ("ihm", "mir"),
            ("ihnen", "uns"),
        ],
    };
    let lw = w.to_lowercase();
    pairs.iter().find(|p| p.0 == lw).map(|p| p.1)
}

/// What a kind of damage does to one line: position → replacement (`None`: deleted).
fn edits(
    kind: Kind,
    tokens: &[String],
    loci: &[&Locus],
    voc: &Vocabulary,
) -> BTreeMap<usize, Option<String>> {
    let mut at: BTreeSet<usize> = BTreeSet::new();
    for l in loci {
        at.extend(&l.ref_dep);
        at.extend(&l.ref_head);
    }
    let of = |ph: &str| -> BTreeSet<usize> {
        loci.iter()
            .filter(|l| l.phenomenon == ph)
            .flat_map(|l| l.ref_dep.iter().copied())
            .collect()
    };
    let seed = |p: usize| mix((loci[0].id as u64) << 20 ^ (p as u64) << 4 ^ kind as u64);
    let mut e = BTreeMap::new();
    match kind {
        Kind::Reference => {}
        Kind::Random | Kind::SamePos | Kind::Spelling => {
            for &p in &at {
                e.insert(p, Some(voc.replacement(kind, &tokens[p], seed(p))));
            }
        }
        Kind::Deleted => e.extend(at.iter().map(|&p| (p, None))),
        Kind::ParticleDropped => e.extend(of("particle").into_iter().map(|p| (p, None))),
        Kind::ReflexiveDropped => e.extend(of("reflexive").into_iter().map(|p| (p, None))),
        Kind::ReflexivePerson => {
            for p in of("reflexive") {
                if let Some(o) = other_person(&tokens[p], voc.target) {
                    e.insert(p, Some(o.to_string()));
                }
            }
        }
        Kind::ElsewhereReplaced | Kind::ElsewhereDeleted => {
            for (p, t) in tokens.iter().enumerate() {
                if at.contains(&p) || !t.chars().any(char::is_alphanumeric) {
                    continue;
                }
                let r = (kind == Kind::ElsewhereReplaced)
                    .then(|| voc.replacement(Kind::Random, t, seed(p)));
                e.insert(p, r);
            }
        }
    }
    e
}

/// Whether a locus is touched by a kind of damage (and so counted).
fn touched(kind: Kind, l: &Locus, tokens: &[String], target: &str) -> bool {
    match kind {
        Kind::ParticleDropped | Kind::ReflexiveDropped => {
            Some(l.phenomenon.as_str()) == kind.phenomenon() && !l.ref_dep.is_empty()
        }
        Kind::ReflexivePerson => {
            l.phenomenon == "reflexive"
                && l.ref_dep
                    .iter()
                    .any(|&p| other_person(&tokens[p], target).is_some())
        }
        _ => true,
    }
}

/// One row of the perturbation table.
#[derive(Debug, Default)]
struct Row {
    loci: usize,
    incorrect: usize,
    differs: usize,
    correct: usize,
    unchanged: usize,
    unaligned: usize,
    /// Judged `correct` or `incorrect`.
    judged: usize,
    /// The system's BLEU on the lines with a locus of the phenomenon.
    bleu: f64,
}

impl Row {
    fn add(&mut self, o: Outcome, before: Outcome) {
        self.loci += 1;
        self.incorrect += usize::from(o == Outcome::Incorrect);
        self.differs += usize::from(o == Outcome::Differs);
        self.correct += usize::from(o == Outcome::Correct);
        self.unchanged += usize::from(o == before);
        self.unaligned += usize::from(o == Outcome::Unaligned);
        self.judged += usize::from(matches!(o, Outcome::Correct | Outcome::Incorrect));
    }
}

/// Every kind of damage of the corpus's reference (as the aligner tokenizes it), scored in
/// one call; the rows by phenomenon, then kind.
fn perturbation(c: &Corpus) -> Vec<(String, Kind, Row)> {
    let dir = c.dir.join("perturbation");
    let mut by_line: BTreeMap<usize, Vec<&Locus>> = BTreeMap::new();
    for l in &c.loci {
        by_line.entry(l.id).or_default().push(l);
    }
    let voc = Vocabulary::new(&c.tokens, c.target);
    let same: Vec<String> = c.tokens.iter().map(|t| t.join(" ")).collect();
    let mut files = vec![write_system(&dir, "tokenized", c.target, &same)];
    for &kind in &KINDS[1..] {
        let mut out = same.clone();
        for (&id, on) in &by_line {
            let toks = &c.tokens[id - 1];
            let e = edits(kind, toks, on, &voc);
            let kept: Vec<String> = toks
                .iter()
                .enumerate()
                .filter_map(|(p, t)| match e.get(&p) {
                    Some(r) => r.clone(),
                    None => Some(t.clone()),
                })
                .collect();
            out[id - 1] = kept.join(" ");
        }
        files.push(write_system(&dir, kind.name(), c.target, &out));
    }
    let scored = score(c, &files, &dir.join("scores"));
    // The reference as the aligner tokenizes it is the suite's reference.
    let system = |kind: Kind| -> &Vec<Outcome> {
        let name = if kind == Kind::Reference {
            "tokenized"
        } else {
            kind.name()
        };
        &scored.of[name]
    };
    let base = system(Kind::Reference);
    let mut rows = Vec::new();
    for ph in phenomena(&scored.loci) {
        let lines_of: BTreeMap<usize, ()> = scored
            .loci
            .iter()
            .filter(|l| l.phenomenon == ph)
            .map(|l| (l.id, ()))
            .collect();
        for &kind in KINDS
            .iter()
            .filter(|k| k.phenomenon().is_none_or(|p| p == ph))
        {
            let got = system(kind);
            let file = &files[KINDS.iter().position(|&k| k == kind).unwrap()].1;
            let mut r = Row {
                bleu: bleu(&lines(file), &same, &lines_of),
                ..Row::default()
            };
            for (k, l) in scored.loci.iter().enumerate() {
                if l.phenomenon == ph
                    && base[k].decided()
                    && touched(kind, l, &c.tokens[l.id - 1], c.target)
                {
                    r.add(got[k], base[k]);
                }
            }
            rows.push((ph.clone(), kind, r));
        }
    }
    rows
}

/// BLEU (sacreBLEU's defaults) of the lines `on` (by 1-based line) of `hyp` against
/// `reference`.
fn bleu<T>(hyp: &[String], reference: &[String], on: &BTreeMap<usize, T>) -> f64 {
    use ldd_eval::{BleuScoring, BleuStats, SufficientStats};
    let mut total = BleuStats::default();
    for &id in on.keys() {
        total.add(&BleuStats::from_pair(&hyp[id - 1], &reference[id - 1]));
    }
    total.score(&BleuScoring::default())
}

#[test]
fn damage_at_the_locus_flips_it_and_damage_elsewhere_does_not() {
    let f = fixture();
    let start = Instant::now();
    let mut table = String::new();
    let _ = writeln!(
        table,
        "| corpus | phenomenon | damage | loci | incorrect (%) | differs (%) | correct (%) | unchanged (%) | unaligned | coverage (%) | BLEU of their lines |"
    );
    let _ = writeln!(
        table,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    let mut failures = Vec::new();
    let mut pooled: Vec<(Kind, Row)> = KINDS.iter().map(|&k| (k, Row::default())).collect();
    for c in &f.corpora {
        for (ph, kind, r) in perturbation(c) {
            let _ = writeln!(
                table,
                "| {} | {ph} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
                c.name,
                kind.name(),
                r.loci,
                pct(r.incorrect, r.loci),
                pct(r.differs, r.loci),
                pct(r.correct, r.loci),
                pct(r.unchanged, r.loci),
                r.unaligned,
                pct(r.judged, r.loci),
                r.bleu,
            );
            let (ok, what) = kind.meets(&r);
            if r.loci >= MIN_LOCI && !ok {
                failures.push(format!("{} {ph} {}: {what}", c.name, kind.name()));
            }
            let p = &mut pooled.iter_mut().find(|p| p.0 == kind).unwrap().1;
            p.loci += r.loci;
            p.incorrect += r.incorrect;
            p.differs += r.differs;
            p.correct += r.correct;
            p.unchanged += r.unchanged;
        }
    }
    for (kind, p) in &pooled {
        let (ok, what) = kind.meets(p);
        if !ok {
            failures.push(format!("{}, all corpora: {what}", kind.name()));
        }
    }
    println!(
        "Fixture: {:.0} s; the perturbation suite: {:.0} s\n\n{table}",
        f.seconds,
        start.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_documented(&table);
}

// ---------------------------------------------------------------------------------------
// The validation suite

/// The systems of the validation suite, in the table's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Made {
    ParticleDropped,
    ParticleMoved,
    ParticleGlued,
    SourceCopied,
    AnotherLine,
    ReorderSwapped,
    Synonym,
}

const MADE: [Made; 7] = [
    Made::ParticleDropped,
    Made::ParticleMoved,
    Made::ParticleGlued,
    Made::SourceCopied,
    Made::AnotherLine,
    Made::ReorderSwapped,
    Made::Synonym,
];

impl Made {
    fn name(self) -> &'static str {
        match self {
            Made::ParticleDropped => "particle-dropped",
            Made::ParticleMoved => "particle-moved",
            Made::ParticleGlued => "particle-glued",
            Made::SourceCopied => "source-copied",
            Made::AnotherLine => "another-line",
            Made::ReorderSwapped => "reorder-swapped",
            Made::Synonym => "synonym",
        }
    }

    /// Whether it is made from the gold trees of the reference.
    fn gold(self) -> bool {
        matches!(
            self,
            Made::ParticleDropped | Made::ParticleMoved | Made::ParticleGlued
        )
    }

    /// The only phenomenon whose loci it counts (`None`: any).
    fn phenomenon(self) -> Option<&'static str> {
        match self {
            _ if self.gold() => Some("particle"),
            Made::ReorderSwapped => Some("reorder"),
            _ => None,
        }
    }

    /// Whether a locus of line `id` whose reference tokens are `dep` and `head` is
    /// touched: `changed` holds the changed tokens of each changed line.
    fn touches(
        self,
        phenomenon: &str,
        (id, dep, head): (usize, &[usize], &[usize]),
        changed: &BTreeMap<usize, BTreeSet<usize>>,
    ) -> bool {
        let Some(ch) = changed.get(&id) else {
            return false;
        };
        if self.phenomenon().is_some_and(|p| p != phenomenon) {
            return false;
        }
        let hit = |side: &[usize]| side.iter().any(|p| ch.contains(p));
        match self {
            Made::SourceCopied | Made::AnotherLine => true,
            Made::ReorderSwapped => hit(dep) && hit(head),
            Made::Synonym => hit(head),
            _ => hit(dep) || hit(head),
        }
    }

    /// The fewest loci of a row held to the requirement on its own: a share of at most 1%
    /// says something only of 100 loci or more; every row counts in the kind's total over
    /// the corpora, which is held to it whatever its size.
    fn min_loci(self) -> usize {
        match self {
            Made::SourceCopied | Made::AnotherLine => 100,
            _ => MIN_LOCI,
        }
    }

    /// Whether a row meets the requirement.
    fn meets(self, t: &Tally) -> (bool, String) {
        let n = t.loci;
        match self {
            Made::SourceCopied | Made::AnotherLine => (
                100 * t.correct <= n,
                format!("{} of {n} correct", t.correct),
            ),
            Made::Synonym => (
                100 * t.incorrect <= 10 * n,
                format!("{} of {n} incorrect", t.incorrect),
            ),
            _ => (
                100 * t.incorrect >= 95 * n,
                format!("{} of {n} incorrect", t.incorrect),
            ),
        }
    }
}

/// The outcomes of a row of the validation table.
#[derive(Debug, Default, Clone)]
struct Tally {
    loci: usize,
    incorrect: usize,
    differs: usize,
    correct: usize,
    partial: usize,
    unaligned: usize,
    no_reference: usize,
}

impl Tally {
    fn add(&mut self, o: Outcome) {
        self.loci += 1;
        self.incorrect += usize::from(o == Outcome::Incorrect);
        self.differs += usize::from(o == Outcome::Differs);
        self.correct += usize::from(o == Outcome::Correct);
        self.partial += usize::from(o == Outcome::Partial);
        self.unaligned += usize::from(o == Outcome::Unaligned);
        self.no_reference += usize::from(o == Outcome::NoReference);
    }

    fn merge(&mut self, o: &Tally) {
        self.loci += o.loci;
        self.incorrect += o.incorrect;
        self.differs += o.differs;
        self.correct += o.correct;
        self.partial += o.partial;
        self.unaligned += o.unaligned;
        self.no_reference += o.no_reference;
    }
}

/// A word of a gold tree, with the byte span of its surface token in the line (a word of a
/// multiword token: the whole token's).
#[derive(Debug, Clone)]
struct GoldWord {
    id: usize,
    form: String,
    upos: String,
    head: usize,
    deprel: String,
    span: (usize, usize),
    in_multiword: bool,
}

/// The trees of a CoNLL-U file: each `# text` and its words (word k at index k − 1).
fn gold_trees(path: &Path) -> Vec<(String, Vec<GoldWord>)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let line = block
            .lines()
            .find_map(|l| l.strip_prefix("# text = "))
            .expect("a # text")
            .to_string();
        let (mut words, mut cursor, mut within) = (Vec::new(), 0usize, (0usize, 0usize, 0, 0));
        for row in block.lines().filter(|l| !l.starts_with('#')) {
            let c: Vec<&str> = row.split('\t').collect();
            if c[0].contains('.') {
                continue;
            }
            let mut locate = |form: &str| -> (usize, usize) {
                let rest = &line[cursor..];
                let skip = rest.len() - rest.trim_start().len();
                assert!(
                    rest[skip..].starts_with(form),
                    "{}: {form:?} not at {:?}",
                    path.display(),
                    &rest[skip..]
                );
                cursor += skip + form.len();
                (cursor - form.len(), cursor)
            };
            if let Some((a, b)) = c[0].split_once('-') {
                let span = locate(c[1]);
                within = (a.parse().unwrap(), b.parse().unwrap(), span.0, span.1);
                continue;
            }
            let id: usize = c[0].parse().unwrap();
            let in_multiword = within.0 <= id && id <= within.1;
            let span = if in_multiword {
                (within.2, within.3)
            } else {
                locate(c[1])
            };
            words.push(GoldWord {
                id,
                form: c[1].to_string(),
                upos: c[3].to_string(),
                head: c[6].parse().unwrap(),
                deprel: c[7].to_string(),
                span,
                in_multiword,
            });
        }
        out.push((line, words));
    }
    out
}

/// A change of a line: bytes `start..end` become `text`.
#[derive(Debug, Clone)]
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// The edit deleting `span` of `line` with the whitespace before it (at the line's
/// start, or glued to what precedes it: the whitespace after it).
fn delete(line: &str, (s, e): (usize, usize)) -> Edit {
    let before = line[..s].len() - line[..s].trim_end().len();
    let after = line[e..].len() - line[e..].trim_start().len();
    let (start, end) = if before > 0 {
        (s - before, e)
    } else {
        (s, e + after)
    };
    Edit {
        start,
        end,
        text: String::new(),
    }
}

/// `line` with `edits` (which do not overlap) made.
fn apply(line: &str, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (std::cmp::Reverse(e.start), std::cmp::Reverse(e.end)));
    let mut out = line.to_string();
    for e in sorted {
        out.replace_range(e.start..e.end, &e.text);
    }
    out
}

/// Why a gold particle was left as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Skipped {
    /// German moved: already directly after its verb; English moved: not beside its verb.
    InPlace,
    /// English moved: already at its clause's end.
    NoChange,
    /// The particle or its verb is part of a multiword token.
    Multiword,
    /// Its edits overlap another particle's of the line.
    Overlap,
}

/// A byte span of a line.
type Span = (usize, usize);

/// What `made` does to particle `p` of verb `v` in `line` (target language `lang`): the
/// edits and the byte spans changed, or why not.
fn particle_edits(
    made: Made,
    line: &str,
    words: &[GoldWord],
    (p, v): (&GoldWord, &GoldWord),
    lang: &str,
) -> Result<(Vec<Edit>, Vec<Span>), Skipped> {
    if p.in_multiword || v.in_multiword {
        return Err(Skipped::Multiword);
    }
    let insert = |at: usize, word: &str| Edit {
        start: at,
        end: at,
        text: format!(" {word}"),
    };
    match (made, lang) {
        (Made::ParticleDropped, _) => Ok((vec![delete(line, p.span)], vec![p.span, v.span])),
        (Made::ParticleMoved, "de") => {
            if p.id == v.id + 1 {
                return Err(Skipped::InPlace);
            }
            Ok((
                vec![delete(line, p.span), insert(v.span.1, &p.form)],
                vec![p.span, v.span],
            ))
        }
        (Made::ParticleMoved, _) => {
            if p.id.abs_diff(v.id) != 1 {
                return Err(Skipped::InPlace);
            }
            let end = words[p.id..]
                .iter()
                .find(|w| w.upos == "PUNCT")
                .map_or(words.len(), |w| w.id - 1);
            if end == p.id {
                return Err(Skipped::NoChange);
            }
            Ok((
                vec![delete(line, p.span), insert(words[end - 1].span.1, &p.form)],
                vec![p.span, v.span],
            ))
        }
        (Made::ParticleGlued, _) => {
            let glued = if lang == "de" {
                let particle = p.form.to_lowercase();
                let mut verb = v.form.chars();
                match verb.next() {
                    Some(f) if f.is_uppercase() => {
                        let mut cap = particle.chars();
                        let head: String = cap
                            .next()
                            .into_iter()
                            .flat_map(char::to_uppercase)
                            .collect();
                        format!(
                            "{head}{}{}{}",
                            cap.as_str(),
                            f.to_lowercase(),
                            verb.as_str()
                        )
                    }
                    _ => format!("{particle}{}", v.form),
                }
            } else {
                format!("{}{}", v.form, p.form)
            };
            let verb = Edit {
                start: v.span.0,
                end: v.span.1,
                text: glued,
            };
            Ok((vec![verb, delete(line, p.span)], vec![p.span, v.span]))
        }
        _ => unreachable!("{made:?} is not made from the gold trees"),
    }
}

/// A system made from the reference: its lines, the changed tokens (0-based, in the
/// reference as the aligner tokenizes it) of every changed line, and notes for the log.
struct Built {
    lines: Vec<String>,
    changed: BTreeMap<usize, BTreeSet<usize>>,
    notes: String,
}

/// The tokens of `spans` (the aligner's, of a line) that overlap any of `bytes`.
fn overlapping(spans: &[(usize, usize)], bytes: &[(usize, usize)]) -> BTreeSet<usize> {
    (0..spans.len())
        .filter(|&k| bytes.iter().any(|b| spans[k].0 < b.1 && b.0 < spans[k].1))
        .collect()
}

/// A particle kind made from the reference's gold trees.
fn from_gold(made: Made, c: &Corpus, trees: &[(String, Vec<GoldWord>)]) -> Built {
    assert_eq!(trees.len(), c.raw.len(), "{}: a tree per line", c.name);
    let mut out = Built {
        lines: c.raw.clone(),
        changed: BTreeMap::new(),
        notes: String::new(),
    };
    let (mut particles, mut edited) = (0, 0);
    let mut skipped: BTreeMap<Skipped, usize> = BTreeMap::new();
    for (k, (text, words)) in trees.iter().enumerate() {
        assert_eq!(*text, c.raw[k], "{}: line {}: # text", c.name, k + 1);
        let mut accepted: Vec<Edit> = Vec::new();
        let mut bytes = Vec::new();
        for p in words {
            let v = match p.head.checked_sub(1).map(|h| &words[h]) {
                Some(v)
                    if p.deprel == "compound:prt" && ["VERB", "AUX"].contains(&v.upos.as_str()) =>
                {
                    v
                }
                _ => continue,
            };
            particles += 1;
            match particle_edits(made, text, words, (p, v), c.target) {
                Ok((e, b)) => {
                    let clash = e.iter().any(|x| {
                        accepted
                            .iter()
                            .any(|y| x.start <= y.end && y.start <= x.end)
                    });
                    if clash {
                        *skipped.entry(Skipped::Overlap).or_default() += 1;
                        continue;
                    }
                    edited += 1;
                    accepted.extend(e);
                    bytes.extend(b);
                }
                Err(why) => *skipped.entry(why).or_default() += 1,
            }
        }
        if !accepted.is_empty() {
            out.lines[k] = apply(text, &accepted);
            out.changed
                .insert(k + 1, overlapping(&c.spans(k + 1), &bytes));
        }
    }
    let _ = write!(
        out.notes,
        "{particles} gold particles, {edited} edited on {} lines, left: {skipped:?}",
        out.changed.len()
    );
    out
}

/// The first reorder locus of each line judged `correct` on the reference whose two
/// words' tokens are contiguous, apart and different, swapped.
fn reorder_swapped(c: &Corpus) -> Built {
    let mut out = Built {
        lines: c.raw.clone(),
        changed: BTreeMap::new(),
        notes: String::new(),
    };
    let contiguous = |s: &[usize]| !s.is_empty() && s.windows(2).all(|w| w[1] == w[0] + 1);
    for l in c.loci.iter().filter(|l| l.phenomenon == "reorder") {
        if out.changed.contains_key(&l.id)
            || l.on_reference != Outcome::Correct
            || !contiguous(&l.ref_dep)
            || !contiguous(&l.ref_head)
            || l.ref_dep.iter().any(|p| l.ref_head.contains(p))
        {
            continue;
        }
        let line = &c.raw[l.id - 1];
        let spans = c.spans(l.id);
        let side = |s: &[usize]| (spans[s[0]].0, spans[s[s.len() - 1]].1);
        let (a, b) = (side(&l.ref_dep), side(&l.ref_head));
        let (ta, tb) = (&line[a.0..a.1], &line[b.0..b.1]);
        if ta.to_lowercase() == tb.to_lowercase() {
            continue;
        }
        let swap = [
            Edit {
                start: a.0,
                end: a.1,
                text: tb.to_string(),
            },
            Edit {
                start: b.0,
                end: b.1,
                text: ta.to_string(),
            },
        ];
        out.lines[l.id - 1] = apply(line, &swap);
        let changed = l.ref_dep.iter().chain(&l.ref_head).copied().collect();
        out.changed.insert(l.id, changed);
    }
    let _ = write!(out.notes, "{} lines swapped", out.changed.len());
    out
}

/// Rows of a tab-separated fixture file for `direction` (a header row starting with
/// `direction` and `#` comments skipped), its cells.
fn fixture_rows(path: &Path, direction: &str) -> Option<Vec<Vec<String>>> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| {
                l.split('\t')
                    .map(|c| c.trim().to_string())
                    .collect::<Vec<_>>()
            })
            .filter(|c| c[0] == direction)
            .collect(),
    )
}

/// Every token [`SYNONYMS`] lists for the corpus replaced by its synonym.
fn synonym(c: &Corpus) -> Built {
    let mut out = Built {
        lines: c.raw.clone(),
        changed: BTreeMap::new(),
        notes: String::new(),
    };
    let rows = fixture_rows(&fixture_file(SYNONYMS), c.direction).unwrap_or_default();
    let mut by_line: BTreeMap<usize, Vec<Edit>> = BTreeMap::new();
    for r in &rows {
        let (id, pos): (usize, usize) = (r[1].parse().unwrap(), r[2].parse().unwrap());
        let spans = c.spans(id);
        let (s, e) = spans[pos - 1];
        assert_eq!(
            &c.raw[id - 1][s..e],
            r[3],
            "{SYNONYMS}: {} line {id} position {pos}",
            c.direction
        );
        by_line.entry(id).or_default().push(Edit {
            start: s,
            end: e,
            text: r[4].clone(),
        });
        out.changed.entry(id).or_default().insert(pos - 1);
    }
    for (id, e) in by_line {
        out.lines[id - 1] = apply(&c.raw[id - 1], &e);
    }
    let _ = write!(
        out.notes,
        "{} synonyms on {} lines",
        rows.len(),
        out.changed.len()
    );
    out
}

/// The system `made` of the corpus (`None`: not made for it).
fn make(made: Made, c: &Corpus, trees: Option<&[(String, Vec<GoldWord>)]>) -> Option<Built> {
    let every = || (1..=c.raw.len()).map(|id| (id, BTreeSet::new())).collect();
    match made {
        _ if made.gold() => Some(from_gold(made, c, trees?)),
        Made::SourceCopied => Some(Built {
            lines: lines(&c.source),
            changed: every(),
            notes: format!("every one of {} lines", c.raw.len()),
        }),
        Made::AnotherLine => Some(Built {
            lines: (0..c.raw.len())
                .map(|k| c.raw[(k + 1) % c.raw.len()].clone())
                .collect(),
            changed: every(),
            notes: format!("every one of {} lines", c.raw.len()),
        }),
        Made::ReorderSwapped => Some(reorder_swapped(c)),
        Made::Synonym => c.gold.is_some().then(|| synonym(c)),
        _ => unreachable!(),
    }
}

/// The reference tokens (0-based) of the hand-checked loci of the corpus, by (phenomenon,
/// line, dep, head) (`None`: no file).
type Hand = BTreeMap<(String, usize, String, String), (Vec<usize>, Vec<usize>)>;

fn hand_renderings(c: &Corpus) -> Option<Hand> {
    c.gold.as_ref()?;
    let rows = fixture_rows(&fixture_file(RENDERINGS), c.direction)?;
    let zero = |s: &str| -> Vec<usize> {
        s.split(|ch: char| !ch.is_ascii_digit())
            .filter(|p| !p.is_empty())
            .map(|p| p.parse::<usize>().unwrap() - 1)
            .collect()
    };
    Some(
        rows.iter()
            .map(|r| {
                let key = (
                    r[2].clone(),
                    r[1].parse().unwrap(),
                    r[3].clone(),
                    r[5].clone(),
                );
                (key, (zero(&r[7]), zero(&r[8])))
            })
            .collect(),
    )
}

/// A row of the validation table: corpus, phenomenon, system, positions (`tool` or
/// `hand`), its tally.
type Line = (&'static str, String, &'static str, &'static str, Tally);

/// The systems of the corpus, scored in one call: the rows by positions (the tool's, then
/// the hand-checked), phenomenon and system; and notes for the log.
fn validation(c: &Corpus) -> (Vec<Line>, Vec<String>) {
    let dir = c.dir.join("validation");
    let trees = c.gold.as_deref().map(gold_trees);
    let mut made = Vec::new();
    for m in MADE {
        if let Some(o) = make(m, c, trees.as_deref()) {
            let file = write_system(&dir, m.name(), c.target, &o.lines);
            made.push((m, o, file));
        }
    }
    let files: Vec<(String, PathBuf)> = made.iter().map(|m| m.2.clone()).collect();
    let scored = score(c, &files, &dir.join("scores"));
    let hand = hand_renderings(c);
    let mut rows: Vec<Line> = Vec::new();
    let mut notes = Vec::new();
    for (m, o, _) in &made {
        let n = scored
            .loci
            .iter()
            .filter(|l| {
                l.on_reference == Outcome::Correct
                    && m.touches(&l.phenomenon, (l.id, &l.ref_dep, &l.ref_head), &o.changed)
            })
            .count();
        notes.push(format!(
            "{} {}: {}; {n} loci counted",
            c.name,
            m.name(),
            o.notes
        ));
    }
    if let Some(h) = &hand {
        let found = scored
            .loci
            .iter()
            .filter(|l| h.contains_key(&key(l)))
            .count();
        notes.push(format!(
            "{}: {} hand-checked loci, {found} of them among the sets' loci",
            c.name,
            h.len()
        ));
    }
    for positions in ["tool", "hand"] {
        if positions == "hand" && hand.is_none() {
            continue;
        }
        for ph in phenomena(&scored.loci) {
            if positions == "hand" {
                // The hand-checked loci as the reference renders them.
                let mut t = Tally::default();
                for l in scored.loci.iter().filter(|l| l.phenomenon == ph) {
                    if hand.as_ref().unwrap().contains_key(&key(l)) {
                        t.add(l.on_reference);
                    }
                }
                rows.push((c.name, ph.clone(), REFERENCE, positions, t));
            }
            for (m, o, _) in &made {
                let t = tally(&scored, (&ph, *m), &o.changed, positions, hand.as_ref());
                if m.phenomenon().is_none_or(|p| p == ph) {
                    rows.push((c.name, ph.clone(), m.name(), positions, t));
                }
            }
        }
    }
    (rows, notes)
}

fn key(l: &Locus) -> (String, usize, String, String) {
    (l.phenomenon.clone(), l.id, l.dep.clone(), l.head.clone())
}

/// The outcomes of system `m` on the loci of phenomenon `ph` judged `correct` on the
/// reference that it touches, by the tool's positions or the hand-checked ones.
fn tally(
    scored: &Scored,
    (ph, m): (&str, Made),
    changed: &BTreeMap<usize, BTreeSet<usize>>,
    positions: &str,
    hand: Option<&Hand>,
) -> Tally {
    let got = &scored.of[m.name()];
    let mut t = Tally::default();
    for (k, l) in scored.loci.iter().enumerate() {
        if l.phenomenon != ph || l.on_reference != Outcome::Correct {
            continue;
        }
        let (dep, head) = if positions == "hand" {
            match hand.and_then(|h| h.get(&key(l))) {
                Some((d, h)) => (d.as_slice(), h.as_slice()),
                None => continue,
            }
        } else {
            (l.ref_dep.as_slice(), l.ref_head.as_slice())
        };
        if m.touches(ph, (l.id, dep, head), changed) {
            t.add(got[k]);
        }
    }
    t
}

#[test]
fn systems_made_without_the_tools_alignment_are_judged_as_made() {
    let f = fixture();
    let start = Instant::now();
    let mut table = String::new();
    let _ = writeln!(
        table,
        "| corpus | phenomenon | system | positions | loci | incorrect (%) | differs (%) | correct (%) | partial | unaligned | no reference |"
    );
    let _ = writeln!(
        table,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    let mut failures = Vec::new();
    let mut pooled: Vec<(Made, Tally)> = MADE.iter().map(|&m| (m, Tally::default())).collect();
    let mut notes = Vec::new();
    for c in &f.corpora {
        let (rows, n) = validation(c);
        notes.extend(n);
        if c.gold.is_some() && hand_renderings(c).is_none() {
            failures.push(format!(
                "{}: no hand-checked renderings ({RENDERINGS})",
                c.name
            ));
        }
        for (corpus, ph, system, positions, t) in rows {
            let _ = writeln!(
                table,
                "| {corpus} | {ph} | {system} | {positions} | {} | {} | {} | {} | {} | {} | {} |",
                t.loci,
                pct(t.incorrect, t.loci),
                pct(t.differs, t.loci),
                pct(t.correct, t.loci),
                t.partial,
                t.unaligned,
                t.no_reference,
            );
            let Some(m) = MADE.iter().find(|m| m.name() == system) else {
                continue;
            };
            if positions != "tool" {
                continue;
            }
            let (ok, what) = m.meets(&t);
            if t.loci >= m.min_loci() && !ok {
                failures.push(format!("{corpus} {ph} {system}: {what}"));
            }
            pooled.iter_mut().find(|p| p.0 == *m).unwrap().1.merge(&t);
        }
    }
    for (m, t) in &pooled {
        let (ok, what) = m.meets(t);
        if !ok {
            failures.push(format!("{}, all corpora: {what}", m.name()));
        }
    }
    println!(
        "Fixture: {:.0} s; the validation suite: {:.0} s\n\n{table}\n{}\n",
        f.seconds,
        start.elapsed().as_secs_f64(),
        notes.join("\n")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_documented(&table);
}

//! The perturbation suite: the reference as the aligner tokenizes it, damaged at the
//! tokens the tool aligns to each locus, or everywhere else.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::common::*;
use crate::fixture::{score, write_system, Corpus, Locus, Outcome};
use crate::{pct, phenomena, MIN_LOCI};
use ldd_eval::{BleuScoring, BleuStats, SufficientStats};
use ldd_sets::locus::rule::variant;
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

    /// The row of the totals over the corpora that a row of phenomenon `ph` counts in:
    /// the kind's phenomenon (`all`: every phenomenon), the elsewhere kinds' `lexical` and
    /// `reorder` apart.
    fn total(self, ph: &str) -> &'static str {
        match self {
            Kind::ElsewhereReplaced | Kind::ElsewhereDeleted if ph == "reorder" => "reorder",
            Kind::ElsewhereReplaced | Kind::ElsewhereDeleted => "lexical",
            _ => self.phenomenon().unwrap_or("all"),
        }
    }

    /// Whether a row (of `reorder` loci, or not) meets the kind's requirement; the shares
    /// it is held to. Damage elsewhere flips at most 5% of any row; it leaves at least 95%
    /// of the lexical loci unchanged, and is not held to that at reorder loci: with the rest
    /// of the line destroyed the aligner cannot tell which `the` renders which `der`, and a
    /// reorder locus of function words abstains (`unaligned`) instead of keeping its verdict.
    fn meets(self, r: &Row, reorder: bool) -> (bool, String) {
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
                100 * r.flipped <= 5 * n && (reorder || at_least(r.unchanged, 95)),
                format!(
                    "{} of {n} flipped, {} unchanged{}",
                    r.flipped,
                    r.unchanged,
                    if reorder { " (not held)" } else { "" }
                ),
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
    treebank_words(lang, |w| {
        out.entry(w[1].to_lowercase())
            .or_default()
            .insert(w[2].to_lowercase());
    });
    out
}

/// Calls `f` with every word (its CoNLL-U columns) of the UD treebanks of `lang` in
/// ../shared.
fn treebank_words(lang: &str, mut f: impl FnMut(&[String])) {
    for entry in std::fs::read_dir(data("ud")).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with(&format!("{lang}_")) {
            continue;
        }
        for tree in oracle_trees(&p) {
            for w in tree {
                f(&w);
            }
        }
    }
}

/// The most frequent universal part of speech of every lowercased form of the UD
/// treebanks of `lang` in ../shared.
fn lexicon(lang: &str) -> HashMap<String, String> {
    let mut counts: HashMap<String, HashMap<String, u32>> = HashMap::new();
    treebank_words(lang, |w| {
        *counts
            .entry(w[1].to_lowercase())
            .or_default()
            .entry(w[3].clone())
            .or_default() += 1;
    });
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
#[derive(Debug, Default, Clone)]
struct Row {
    loci: usize,
    incorrect: usize,
    differs: usize,
    correct: usize,
    unchanged: usize,
    /// Turned from `correct` to `incorrect`, or back.
    flipped: usize,
    unaligned: usize,
    /// Judged `correct` or `incorrect`.
    judged: usize,
    /// The BLEU statistics of the system's lines with a locus of the row's phenomena, by
    /// corpus and line.
    lines: BTreeMap<(&'static str, usize), BleuStats>,
}

impl Row {
    fn add(&mut self, o: Outcome, before: Outcome) {
        use Outcome::{Correct, Incorrect};
        self.loci += 1;
        self.incorrect += usize::from(o == Incorrect);
        self.differs += usize::from(o == Outcome::Differs);
        self.correct += usize::from(o == Correct);
        self.unchanged += usize::from(o == before);
        self.flipped += usize::from(matches!(
            (before, o),
            (Correct, Incorrect) | (Incorrect, Correct)
        ));
        self.unaligned += usize::from(o == Outcome::Unaligned);
        self.judged += usize::from(matches!(o, Correct | Incorrect));
    }

    fn merge(&mut self, o: &Row) {
        self.loci += o.loci;
        self.incorrect += o.incorrect;
        self.differs += o.differs;
        self.correct += o.correct;
        self.unchanged += o.unchanged;
        self.flipped += o.flipped;
        self.unaligned += o.unaligned;
        self.judged += o.judged;
        self.lines.extend(o.lines.iter().map(|(k, v)| (*k, *v)));
    }

    /// BLEU (sacreBLEU's defaults) of its lines, each counted once.
    fn bleu(&self) -> f64 {
        let mut total = BleuStats::default();
        for s in self.lines.values() {
            total.add(s);
        }
        total.score(&BleuScoring::default())
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
        let lines_of: BTreeSet<usize> = scored
            .loci
            .iter()
            .filter(|l| l.phenomenon == ph)
            .map(|l| l.id)
            .collect();
        for &kind in KINDS
            .iter()
            .filter(|k| k.phenomenon().is_none_or(|p| p == ph))
        {
            let got = system(kind);
            let hyp = lines(&files[KINDS.iter().position(|&k| k == kind).unwrap()].1);
            let mut r = Row::default();
            for &id in &lines_of {
                let stats = BleuStats::from_pair(&hyp[id - 1], &same[id - 1]);
                r.lines.insert((c.name, id), stats);
            }
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

/// The table's row of `r`.
fn write_row(table: &mut String, corpus: &str, ph: &str, kind: Kind, r: &Row) {
    let _ = writeln!(
        table,
        "| {corpus} | {ph} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
        kind.name(),
        r.loci,
        pct(r.incorrect, r.loci),
        pct(r.differs, r.loci),
        pct(r.correct, r.loci),
        pct(r.unchanged, r.loci),
        pct(r.flipped, r.loci),
        r.unaligned,
        pct(r.judged, r.loci),
        r.bleu(),
    );
}

/// The perturbation table of `corpora` — a row per corpus, phenomenon and kind, then the
/// totals over the corpora (corpus `all`): a row per kind, the elsewhere kinds' lexical
/// and reorder loci apart — and the rows that fail their requirement.
pub(crate) fn table(corpora: &[Corpus]) -> (String, Vec<String>) {
    let mut table = String::new();
    let _ = writeln!(
        table,
        "| corpus | phenomenon | damage | loci | incorrect (%) | differs (%) | correct (%) | unchanged (%) | flipped (%) | unaligned | coverage (%) | BLEU of their lines |"
    );
    let _ = writeln!(table, "|{}", " --- |".repeat(12));
    let mut failures = Vec::new();
    let mut totals: Vec<(Kind, &'static str, Row)> = Vec::new();
    for c in corpora {
        for (ph, kind, r) in perturbation(c) {
            write_row(&mut table, c.name, &ph, kind, &r);
            let (ok, what) = kind.meets(&r, ph == "reorder");
            if r.loci >= MIN_LOCI && !ok {
                failures.push(format!("{} {ph} {}: {what}", c.name, kind.name()));
            }
            let label = kind.total(&ph);
            match totals.iter_mut().find(|t| (t.0, t.1) == (kind, label)) {
                Some(t) => t.2.merge(&r),
                None => totals.push((kind, label, r)),
            }
        }
    }
    totals.sort_by_key(|t| (KINDS.iter().position(|&k| k == t.0), t.1 == "reorder"));
    for (kind, label, r) in &totals {
        write_row(&mut table, "all", label, *kind, r);
        let (ok, what) = kind.meets(r, *label == "reorder");
        if !ok {
            failures.push(format!("{}, {label}, all corpora: {what}", kind.name()));
        }
    }
    (table, failures)
}

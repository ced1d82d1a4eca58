//! The validation suite: whole-corpus outputs edited in the raw reference text, wherever
//! possible without the tool's alignment.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::common::*;
use crate::fixture::{score, write_system, Corpus, Locus, Outcome, Scored, REFERENCE};
use crate::{pct, phenomena, MIN_LOCI};

/// The hand-written synonyms: `direction id position word synonym note` (relative paths:
/// from the repository root).
const SYNONYMS: &str = "tests/fixtures/locus-synonyms.pud.tsv";

/// The hand-checked renderings of PUD's loci: `direction id phenomenon dep dep_word head
/// head_word ref_dep ref_head note`.
const RENDERINGS: &str = "tests/fixtures/locus-renderings.pud.tsv";

/// The systems of the validation suite, in the table's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Made {
    ParticleDropped,
    ParticleMoved,
    ParticleGlued,
    SourceCopied,
    AnotherLine,
    NextLine,
    ReorderSwapped,
    Synonym,
}

const MADE: [Made; 8] = [
    Made::ParticleDropped,
    Made::ParticleMoved,
    Made::ParticleGlued,
    Made::SourceCopied,
    Made::AnotherLine,
    Made::NextLine,
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
            Made::NextLine => "next-line",
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
            Made::SourceCopied | Made::AnotherLine | Made::NextLine => true,
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
            Made::SourceCopied | Made::AnotherLine | Made::NextLine => 100,
            _ => MIN_LOCI,
        }
    }

    /// Whether its rows are held to the requirement: `next-line` is reported only — the
    /// next line of a news document shares words with the line (`said`, names), a test
    /// other than an unrelated output's, which is `another-line`'s.
    fn held(self) -> bool {
        self != Made::NextLine
    }

    /// Whether a row meets the requirement.
    fn meets(self, t: &Tally) -> (bool, String) {
        let n = t.loci;
        match self {
            Made::SourceCopied | Made::AnotherLine | Made::NextLine => (
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

/// A fixture file's path: absolute as it is, else from the repository root.
fn fixture_file(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
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

/// Line k of the output the reference's line k + `by` (counted round the corpus).
fn shifted(c: &Corpus, by: usize) -> Built {
    let n = c.raw.len();
    Built {
        lines: (0..n).map(|k| c.raw[(k + by) % n].clone()).collect(),
        changed: (1..=n).map(|id| (id, BTreeSet::new())).collect(),
        notes: format!("every one of {n} lines, line k + {by} for line k"),
    }
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
        // Half the corpus away (another document), and the next line.
        Made::AnotherLine => Some(shifted(c, c.raw.len() / 2)),
        Made::NextLine => Some(shifted(c, 1)),
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

/// The validation table of `corpora` (a row per corpus, phenomenon, system and positions),
/// the rows that fail their requirement, and notes for the log.
pub(crate) fn table(corpora: &[Corpus]) -> (String, Vec<String>, Vec<String>) {
    let mut table = String::new();
    let _ = writeln!(
        table,
        "| corpus | phenomenon | system | positions | loci | incorrect (%) | differs (%) | correct (%) | partial | unaligned | no reference |"
    );
    let _ = writeln!(table, "|{}", " --- |".repeat(11));
    let mut failures = Vec::new();
    let mut pooled: Vec<(Made, Tally)> = MADE.iter().map(|&m| (m, Tally::default())).collect();
    let mut notes = Vec::new();
    for c in corpora {
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
            if positions != "tool" || !m.held() {
                continue;
            }
            let (ok, what) = m.meets(&t);
            if t.loci >= m.min_loci() && !ok {
                failures.push(format!("{corpus} {ph} {system}: {what}"));
            }
            pooled.iter_mut().find(|p| p.0 == *m).unwrap().1.merge(&t);
        }
    }
    for (m, t) in pooled.iter().filter(|p| p.0.held()) {
        let (ok, what) = m.meets(t);
        if !ok {
            failures.push(format!("{}, all corpora: {what}", m.name()));
        }
    }
    (table, failures, notes)
}

//! The reference renderings the judgement compares against, measured against renderings
//! it did not choose (issue 63, item 3):
//!
//! - **the hand-written renderings of 153 PUD loci** (`tests/fixtures/locus-renderings.pud.tsv`,
//!   written by reading each sentence pair, never by the tool; the annotation rules are in
//!   docs/evaluation.md): the precision and recall of `locus:4`'s checked renderings (the
//!   `ref_dep` and `ref_head` of the reference scored on its own, the fixture's
//!   `reference-alone`), beside those of every link of the judging alignment to the word
//!   (what `locus:3` compared against, unchecked) and of the links the sets' locus files
//!   record (`extract`'s alignment, the intersection), per direction and word;
//! - **the shared gold alignments** (`de-en-europarl100`, 100 sentences aligned by hand):
//!   every reference token the judging alignment links to a source word, checked or not,
//!   against the gold links — where the checks' constants were chosen.
//!
//! A token counts as right when the hand-written (gold) rendering of its word has it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::*;
use crate::fixture::{Corpus, Locus};

/// A locus's key: direction, line, phenomenon, dependent, head.
type Key = (String, usize, String, String, String);

/// A locus's key: direction, line, phenomenon, dependent, head.
fn key_of(c: &Corpus, l: &Locus) -> Key {
    (
        c.direction.to_string(),
        l.id,
        l.phenomenon.clone(),
        l.dep.clone(),
        l.head.clone(),
    )
}

/// Counts of tokens: right (in the hand-written rendering), proposed, hand-written.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Tally {
    right: usize,
    proposed: usize,
    written: usize,
}

impl Tally {
    fn add(&mut self, proposed: &BTreeSet<usize>, written: &BTreeSet<usize>) {
        self.right += proposed.intersection(written).count();
        self.proposed += proposed.len();
        self.written += written.len();
    }

    fn merge(&mut self, other: &Tally) {
        self.right += other.right;
        self.proposed += other.proposed;
        self.written += other.written;
    }

    /// Precision and recall, three decimals, with their counts.
    fn cells(&self) -> (String, String) {
        let f = |k: usize, n: usize| match n {
            0 => "-".to_string(),
            _ => format!("{:.3} ({k}/{n})", k as f64 / n as f64),
        };
        (f(self.right, self.proposed), f(self.right, self.written))
    }

    /// Precision, for comparisons.
    pub(crate) fn precision(&self) -> f64 {
        self.right as f64 / self.proposed.max(1) as f64
    }
}

/// 1-based positions of a cell.
fn positions(cell: &str) -> BTreeSet<usize> {
    cell.split_whitespace()
        .map(|p| p.parse().expect("a position"))
        .collect()
}

/// The hand-written renderings: key → (dependent's, head's) 1-based positions.
fn hand_written() -> BTreeMap<Key, (BTreeSet<usize>, BTreeSet<usize>)> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/locus-renderings.pud.tsv");
    let rows = lines(&path);
    assert_eq!(
        rows[0],
        "direction\tid\tphenomenon\tdep\tdep_word\thead\thead_word\tref_dep\tref_head\tnote"
    );
    rows[1..]
        .iter()
        .map(|r| {
            let c: Vec<&str> = r.split('\t').collect();
            let key = (
                c[0].to_string(),
                c[1].parse().unwrap(),
                c[2].to_string(),
                c[3].to_string(),
                c[5].to_string(),
            );
            (key, (positions(c[7]), positions(c[8])))
        })
        .collect()
}

/// The aligner's links the sets' locus files record for each locus of `c`: key →
/// (dependent's, head's) 1-based positions.
fn recorded(c: &Corpus) -> BTreeMap<Key, (BTreeSet<usize>, BTreeSet<usize>)> {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(c.sets.join("manifest.json")).unwrap())
            .unwrap();
    let mut out = BTreeMap::new();
    for set in manifest["sets"].as_array().unwrap() {
        let Some(file) = set["files"]["locus"].as_str() else {
            continue;
        };
        let ph = set["phenomenon"].as_str().unwrap();
        for r in &lines(&c.sets.join(file))[1..] {
            let cells: Vec<&str> = r.split('\t').collect();
            let key = (
                c.direction.to_string(),
                cells[0].parse().unwrap(),
                ph.to_string(),
                cells[3].to_string(),
                cells[5].to_string(),
            );
            out.entry(key)
                .or_insert_with(|| (positions(cells[7]), positions(cells[10])));
        }
    }
    out
}

/// Every link of the judging alignment of `c`'s reference to each locus's words: key →
/// (dependent's, head's) 1-based positions.
fn judging_links(c: &Corpus) -> BTreeMap<Key, (BTreeSet<usize>, BTreeSet<usize>)> {
    use ldd_sets::locus::{Judging, Parsing};
    let loaded = ldd_sets::pipeline::read::sets::load(&c.sets).unwrap();
    let loci = ldd_sets::locus::read_loci(&loaded).unwrap();
    let parsing = Parsing {
        model: ldd_sets::pipeline::parse::TargetChoice::Off,
        cache: None,
        quiet: true,
    };
    let judging = Judging::new(&loaded, None, &parsing).unwrap();
    let trained = judging.load().unwrap();
    let (refs, _) = judging.align(&trained, &c.reference, &loci.words).unwrap();
    c.loci
        .iter()
        .map(|l| {
            let side = &refs[&(l.id as u32)];
            let of = |w: &str| -> BTreeSet<usize> {
                match w.parse::<usize>() {
                    Ok(w) => side.linked(w - 1).into_iter().map(|p| p + 1).collect(),
                    Err(_) => BTreeSet::new(),
                }
            };
            let key = key_of(c, l);
            (key, (of(&l.dep), of(&l.head)))
        })
        .collect()
}

/// The totals of the table: `locus:4`'s checked renderings, the judging alignment's links,
/// the locus files' links.
pub(crate) struct Totals {
    pub(crate) checked: Tally,
    pub(crate) judging: Tally,
    pub(crate) recorded: Tally,
}

/// The table of the hand-written renderings (rows per direction and word, then the total)
/// and its totals.
pub(crate) fn table(corpora: &[Corpus]) -> (String, Totals) {
    let hand = hand_written();
    let mut table = String::from(
        "| direction | word | loci | hand-written tokens | locus:4 (checked): precision | recall | the judging alignment's links (locus:3): precision | recall | the locus files' links: precision | recall |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let mut totals = Totals {
        checked: Tally::default(),
        judging: Tally::default(),
        recorded: Tally::default(),
    };
    for c in corpora.iter().filter(|c| c.gold.is_some()) {
        let links = recorded(c);
        let raw = judging_links(c);
        let checked: BTreeMap<Key, (BTreeSet<usize>, BTreeSet<usize>)> = c
            .loci
            .iter()
            .map(|l| {
                let key = key_of(c, l);
                let one = |v: &[usize]| v.iter().map(|p| p + 1).collect();
                (key, (one(&l.ref_dep), one(&l.ref_head)))
            })
            .collect();
        for (word, pick) in [("dependent", 0), ("head", 1)] {
            let (mut t4, mut tj, mut tl, mut n): (Tally, Tally, Tally, usize) = Default::default();
            for (key, written) in hand.iter().filter(|(k, _)| k.0 == c.direction) {
                let side = |v: &(BTreeSet<usize>, BTreeSet<usize>)| {
                    if pick == 0 {
                        v.0.clone()
                    } else {
                        v.1.clone()
                    }
                };
                let got = checked
                    .get(key)
                    .unwrap_or_else(|| panic!("{key:?}: not a locus"));
                t4.add(&side(got), &side(written));
                tj.add(&side(&raw[key]), &side(written));
                tl.add(&side(&links[key]), &side(written));
                n += 1;
            }
            let row = format!("| {} | {word} | {n} | {} |", c.name, t4.written);
            table.push_str(&cells(row, [&t4, &tj, &tl]));
            totals.checked.merge(&t4);
            totals.judging.merge(&tj);
            totals.recorded.merge(&tl);
        }
    }
    let row = format!(
        "| PUD, both | both | {} | {} |",
        hand.len(),
        totals.checked.written
    );
    let (a, b, c) = (&totals.checked, &totals.judging, &totals.recorded);
    table.push_str(&cells(row, [a, b, c]));
    (table, totals)
}

/// `row` with the precision and recall of each tally, ended.
fn cells(mut row: String, tallies: [&Tally; 3]) -> String {
    for t in tallies {
        let (p, r) = t.cells();
        row.push_str(&format!(" {p} | {r} |"));
    }
    row.push('\n');
    row
}

/// The shared gold alignments: every link of the judging alignment of the reference to a
/// source word, unchecked and checked, against the hand-aligned links; the sets extracted
/// into `dir` (the source's trees from the small German model's tags and parse of the
/// gold's own tokens, so that word k of a tree is token k of the gold; the aligner trained
/// on the shared de-en corpora, as PUD's). Returns the two tallies (proposed: the links of
/// each kind; written: the gold links of the words the judgement aligns at all).
pub(crate) fn europarl(dir: &Path) -> (Tally, Tally) {
    use ldd_sets::locus::{reference, rule, Judging, Parsing};
    let gold = data("reference/gold-align/de-en-europarl100");
    let de: Vec<String> = lines(&gold.join("test.de"))
        .into_iter()
        .map(|l| l.trim_start_matches('\u{feff}').to_string())
        .collect();
    let (src, tgt, conllu) = (dir.join("ep.de"), dir.join("ep.en"), dir.join("ep.conllu"));
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(&src, de.join("\n") + "\n").unwrap();
    std::fs::copy(gold.join("test.en"), &tgt).unwrap();
    let parser = ldd_parse::Parser::load(shared().join("models/german-small.udpipe")).unwrap();
    let mut text = String::new();
    let mut words = BTreeMap::new();
    let mut upos = BTreeMap::new();
    for (k, line) in de.iter().enumerate() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let tags = parser.analyse(&toks).unwrap();
        text.push_str(&format!("# sent_id = {}\n# text = {line}\n", k + 1));
        for (i, (w, t)) in toks.iter().zip(&tags).enumerate() {
            let feats = if t.feats.is_empty() { "_" } else { &t.feats };
            let [l, u, x, r] = [&t.lemma, &t.upos, &t.xpos, &t.deprel];
            text.push_str(&format!(
                "{}\t{w}\t{l}\t{u}\t{x}\t{feats}\t{}\t{r}\t_\t_\n",
                i + 1,
                t.head
            ));
        }
        text.push('\n');
        words.insert(
            k as u32 + 1,
            toks.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        );
        upos.insert(
            k as u32 + 1,
            tags.iter().map(|t| t.upos.clone()).collect::<Vec<_>>(),
        );
    }
    std::fs::write(&conllu, text).unwrap();
    let sets = dir.join("sets");
    if !crate::fixture::reuse(&sets) {
        let books = data("parallel/books-sample.de-en");
        let news = data("parallel/newstest2013.de-en");
        Ldd::cmd("extract")
            .corpus(&src, &tgt, ("de", "en"))
            .path("--conllu", &conllu)
            .path("--align-train", &books)
            .path("--align-train", &news)
            .args(&["--pretokenized", "--controls", "0", "--quiet"])
            .out(&sets)
            .ok();
    }
    let loaded = ldd_sets::pipeline::read::sets::load(&sets).unwrap();
    let parsing = Parsing {
        model: ldd_sets::pipeline::parse::TargetChoice::parse(
            shared()
                .join("models/english-small.udpipe")
                .to_str()
                .unwrap(),
        )
        .unwrap(),
        cache: Some(dir.join("cache")),
        quiet: true,
    };
    let judging = Judging::new(&loaded, None, &parsing).unwrap();
    let trained = judging.load().unwrap();
    let (refs, _) = judging.align(&trained, &tgt, &words).unwrap();
    let links: Vec<BTreeSet<(usize, usize)>> = lines(&gold.join("de-en.wa"))
        .iter()
        .map(|l| {
            l.split_whitespace()
                .map(|p| {
                    let (a, b) = p.split_once('-').unwrap();
                    (a.parse().unwrap(), b.parse().unwrap())
                })
                .collect()
        })
        .collect();
    let (mut all, mut checked) = (Tally::default(), Tally::default());
    for (id, side) in &refs {
        let line = rule::Line {
            source: &words[id],
            upos: &upos[id],
            lexicon: &trained,
            target: "en",
            relations: &judging.relations,
        };
        let gold = &links[*id as usize - 1];
        let aligned: BTreeSet<usize> = side.links.iter().map(|l| l.0).collect();
        for w in aligned {
            let written: BTreeSet<usize> = gold.iter().filter(|l| l.0 == w).map(|l| l.1).collect();
            all.add(&side.linked(w).into_iter().collect(), &written);
            checked.add(
                &reference::checked(&line, side, w).into_iter().collect(),
                &written,
            );
        }
    }
    (all, checked)
}

/// The gold alignments' table: the judging alignment's links, unchecked and checked.
pub(crate) fn europarl_table(all: &Tally, checked: &Tally) -> String {
    let ((pa, ra), (pc, rc)) = (all.cells(), checked.cells());
    format!(
        "| de-en-europarl100 (gold links) | links | precision | recall |\n| --- | --- | --- | --- |\n| every link of the judging alignment | {} | {pa} | {ra} |\n| the checked ones (`locus:4`) | {} | {pc} | {rc} |\n",
        all.proposed, checked.proposed
    )
}

//! `sheets`: a seeded sample of loci for people to judge, spread evenly over phenomena and
//! distances, as two sheets — *detection* (does the marked pair really form the
//! phenomenon?) and *translation* (does each blinded system's output convey it?) — and the
//! key that unblinds the systems, kept apart.
//!
//! The sample: for every lexical phenomenon and every distance `d` of `distances`, the
//! loci of its `eqD` set ordered by a hash of (line, locus) seeded by `seed`, phenomenon and
//! `d`, and the first `per_cell` taken. Translation items show the same loci, one row per
//! system in an order shuffled per item; each row's output has the words aligned to the
//! locus marked (the aligner of locus accuracy), and the key records which system it is
//! and what locus accuracy judged. Loci with no reference word aligned to them are left
//! out of the translation sheet: its reference would show no mark.
//!
//! Blinding: the order of the systems is drawn from a secret that nothing the annotators
//! get holds — the SHA-256 of every system's whole output (with its name) — not from the
//! seed, which `sheets.json` records; the same inputs still give the same files. The run's
//! id ([`SheetsRecord::run`]) is a hash of everything the files are made from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::judged::Judgement;
use crate::format::locus::Locus;
use crate::format::marked::{self, Piece};
use crate::format::sets::SetKind;
use crate::format::sheet::{
    marked_word, sheet_text, DetectionRow, KeyRow, Mark, SheetsRecord, TranslationRow,
    DETECTION_QUESTION, TRANSLATION_QUESTION,
};
use crate::locus::words::Upos;
use crate::locus::{self, SourceWords};
use crate::pipeline::read::select::read_needed_hashed;
use crate::pipeline::read::sets::Loaded;

/// What `sheets` samples and from which systems.
#[derive(Debug, Clone)]
pub struct SheetsOptions {
    /// Systems' translations of the whole corpus (none: a detection sheet only).
    pub hyps: Vec<PathBuf>,
    /// System names, in `hyps` order (written to the key only).
    pub names: Vec<String>,
    /// Loci per phenomenon and distance.
    pub per_cell: usize,
    /// The distances sampled (the `eqD` sets).
    pub distances: Vec<u32>,
    /// Seed of the sample and of the order of systems.
    pub seed: u64,
    /// Aligner model for the outputs (`--align-model`) [default: the manifest's].
    pub align_model: Option<PathBuf>,
    /// How the key's locus judgements parse the reference and the outputs (`--tgt-model`,
    /// as `score`'s).
    pub parsing: locus::Parsing,
}

/// The sheets, built.
#[derive(Debug)]
pub struct Sheets {
    /// Detection rows.
    pub detection: Vec<DetectionRow>,
    /// Translation rows (empty without systems).
    pub translation: Vec<TranslationRow>,
    /// The key of the translation rows.
    pub key: Vec<KeyRow>,
    /// What was sampled.
    pub record: SheetsRecord,
    /// Cells with fewer loci than asked (`phenomenon eqD: n`).
    pub short: Vec<String>,
}

/// A sampled locus with the texts shown.
struct Item {
    phenomenon: String,
    /// A reordering locus (its set's kind is `reorder`).
    reorder: bool,
    locus: Locus,
    /// The line of the set's marked file (every locus of the line tagged).
    marked: String,
    /// The reference line.
    reference: String,
    /// The order its translation rows show the systems in (indices into `hyps`).
    order: Vec<usize>,
}

/// The source with locus number `number` marked: its dependent `[[…]]`, its head `{{…}}`
/// (the text escaped, [`sheet_text`]).
fn mark_source(marked_line: &str, number: u32) -> String {
    let (d, h) = (format!("d{number}"), format!("h{number}"));
    marked::parse(marked_line)
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => sheet_text(&t).into_owned(),
            Piece::Marked(tags, w) if tags.contains(&d) => marked_word(&w, Mark::Dependent),
            Piece::Marked(tags, w) if tags.contains(&h) => marked_word(&w, Mark::Head),
            Piece::Marked(_, w) => sheet_text(&w).into_owned(),
        })
        .collect()
}

/// Tokens joined by spaces, those at 0-based `dep` marked `[[…]]` and at `head` `{{…}}`
/// (the text escaped, [`sheet_text`]).
fn mark_tokens(tokens: &[String], dep: &[usize], head: &[usize]) -> String {
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if dep.contains(&i) {
                marked_word(t, Mark::Dependent)
            } else if head.contains(&i) {
                marked_word(t, Mark::Head)
            } else {
                sheet_text(t).into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The blinding secret: a hash of every system's name and whole output (`None` without
/// systems). Annotators see a few lines of each output, never a whole one.
fn blinding_secret(options: &SheetsOptions) -> Result<Option<String>> {
    if options.hyps.is_empty() {
        return Ok(None);
    }
    let mut text = String::from("ldd-sets sheets blinding\n");
    for (name, hyp) in options.names.iter().zip(&options.hyps) {
        let (sha, _) = ldd_io::sha256_file(hyp)?;
        text.push_str(&format!("{name}\t{sha}\n"));
    }
    Ok(Some(ldd_io::sha256_bytes(text.as_bytes())))
}

/// The order of the systems in the item of locus key `key`, drawn from `secret`.
fn slot_order(secret: &str, key: u64, systems: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..systems).collect();
    order.sort_by_cached_key(|&s| ldd_io::sha256_bytes(format!("{secret}\t{key}\t{s}").as_bytes()));
    order
}

/// The run's id: the first 16 hex digits of a hash of what the files are made from.
fn run_id(options: &SheetsOptions, manifest_sha256: &str, secret: Option<&str>) -> String {
    let text = format!(
        "ldd-sets sheets run\n{}\n{manifest_sha256}\n{}\n{}\n{:?}\n{}\n",
        env!("CARGO_PKG_VERSION"),
        options.seed,
        options.per_cell,
        options.distances,
        secret.unwrap_or("")
    );
    ldd_io::sha256_bytes(text.as_bytes())[..16].to_string()
}

/// The distances asked for, checked: each at most 100 (`--max-distance`'s limit) and none
/// twice, and at least one locus asked for.
fn check_sample(options: &SheetsOptions) -> Result<()> {
    if options.per_cell == 0 || options.distances.is_empty() {
        return Err(Error::Config(
            "sheets: --per-cell and --distances must ask for at least one locus".into(),
        ));
    }
    for (i, d) in options.distances.iter().enumerate() {
        if *d > 100 {
            return Err(Error::Config(format!(
                "sheets --distances: {d} is beyond the largest distance a set can have (100)"
            )));
        }
        if options.distances[..i].contains(d) {
            return Err(Error::Config(format!(
                "sheets --distances: {d} given twice; each distance is sampled once"
            )));
        }
    }
    Ok(())
}

/// The sampled loci of every lexical phenomenon and distance, in that order, and the words
/// and parts of speech of their lines' trees.
fn sample(
    loaded: &Loaded,
    options: &SheetsOptions,
    secret: Option<&str>,
    short: &mut Vec<String>,
) -> Result<(Vec<Item>, (SourceWords, Upos))> {
    let (mut items, mut trees) = (Vec::new(), BTreeMap::new());
    for cell in cells(loaded, options, short)? {
        items.extend(sample_cell(
            loaded, options, secret, cell, short, &mut trees,
        )?);
    }
    let (mut words, mut upos) = (SourceWords::new(), Upos::new());
    for (id, (w, p)) in trees {
        words.insert(id, w);
        upos.insert(id, p);
    }
    Ok((items, (words, upos)))
}

/// A cell of the sample: a phenomenon, a distance, and the index of its `eqK` set.
type Cell<'a> = (&'a str, u32, usize);

/// The cells (phenomenon, distance) and their `eqK` sets, each with its locus file
/// (checked before anything is read); a cell without a set is noted in `short`.
fn cells<'a>(
    loaded: &'a Loaded,
    options: &SheetsOptions,
    short: &mut Vec<String>,
) -> Result<Vec<Cell<'a>>> {
    let mut phenomena: Vec<&str> = Vec::new();
    for u in loaded
        .units
        .iter()
        .filter(|u| u.set.kind == SetKind::Lexical)
    {
        if !phenomena.contains(&u.set.phenomenon.as_str()) {
            phenomena.push(&u.set.phenomenon);
        }
    }
    let mut cells = Vec::new();
    for ph in phenomena {
        for &d in &options.distances {
            match loaded.units.iter().position(|u| {
                u.set.kind == SetKind::Lexical
                    && u.set.phenomenon == ph
                    && u.set.exact
                    && u.set.min_distance == d
            }) {
                Some(k) => cells.push((ph, d, k)),
                None => short.push(format!(
                    "{ph} eq{d}: no such set (extract with a larger --max-distance)"
                )),
            }
        }
    }
    if cells
        .iter()
        .any(|&(_, _, k)| loaded.units[k].set.files.locus.is_none())
    {
        return Err(Error::Config(format!(
            "sheets: {} names no locus file (the sets were made by an older ldd-sets); \
             extract again",
            ldd_io::error::shown(&loaded.manifest_path)
        )));
    }
    Ok(cells)
}

/// The trees' words and parts of speech by line id, as the sample collects them.
type TreeColumns = BTreeMap<u32, (Vec<String>, Vec<String>)>;

/// One cell's sampled items (a short cell noted in `short`), with the words of their
/// trees added to `trees` when there are systems to align.
fn sample_cell(
    loaded: &Loaded,
    options: &SheetsOptions,
    secret: Option<&str>,
    (phenomenon, distance, unit_index): Cell<'_>,
    short: &mut Vec<String>,
    trees: &mut TreeColumns,
) -> Result<Vec<Item>> {
    let u = &loaded.units[unit_index];
    let mut rows = crate::pipeline::read::sets::locus_rows(loaded, unit_index)?.unwrap_or_default();
    rows.sort_by_key(|r| (r.id, r.number));
    let key = |r: &Locus| r.id << 16 | u64::from(r.number);
    let stream = (phenomenon, u.set.bucket.as_str());
    let keyed =
        crate::pipeline::sample::first_by_hash(rows, options.seed, stream, key, options.per_cell);
    // Each item's systems in an order drawn for it from the secret.
    let orders: Vec<Vec<usize>> = keyed
        .iter()
        .map(|r| secret.map_or_else(Vec::new, |x| slot_order(x, key(r), options.hyps.len())))
        .collect();
    if keyed.len() < options.per_cell {
        short.push(format!("{phenomenon} eq{distance}: {} loci", keyed.len()));
    }
    // The marked source and the reference of each sampled line, read once each.
    let position: BTreeMap<u32, u32> = u
        .ids
        .iter()
        .enumerate()
        .map(|(i, &id)| (id, i as u32 + 1))
        .collect();
    let mut wanted: Vec<u32> = keyed
        .iter()
        .filter_map(|r| position.get(&(r.id as u32)).copied())
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let marked_lines = read_wanted(loaded, &u.set.files.marked, &wanted)?;
    let targets = read_wanted(loaded, &u.set.files.target, &wanted)?;
    // The words of their trees, which the systems' outputs are aligned to.
    if !options.hyps.is_empty() {
        let ids: std::collections::BTreeSet<u32> = keyed.iter().map(|r| r.id as u32).collect();
        let wanted = |id| ids.contains(&id);
        crate::pipeline::read::sets::tree_columns(
            loaded,
            unit_index,
            wanted,
            trees,
            locus::word_columns,
        )?;
    }
    let items = keyed.into_iter().zip(orders).map(|(r, order)| {
        let pos = position.get(&(r.id as u32)).copied().unwrap_or(0);
        Item {
            phenomenon: phenomenon.to_string(),
            reorder: u.set.kind == crate::format::sets::SetKind::Reorder,
            marked: marked_lines.get(&pos).cloned().unwrap_or_default(),
            reference: targets.get(&pos).cloned().unwrap_or_default(),
            locus: r,
            order,
        }
    });
    Ok(items.collect())
}

/// The lines `wanted` (1-based, sorted) of the set file `rel`, checked against the manifest.
fn read_wanted(loaded: &Loaded, rel: &str, wanted: &[u32]) -> Result<BTreeMap<u32, String>> {
    let (_, lines) =
        crate::pipeline::read::sets::read_recorded(&loaded.manifest, &loaded.dir, rel, |p| {
            read_needed_hashed(p, wanted)
        })?;
    Ok(wanted.iter().copied().zip(lines).collect())
}

/// The translation rows of item `item_index` (`T001`, …), one per system in the order drawn for
/// the item when it was sampled, and their key rows; `source` is the source with the
/// locus marked, `judged` the reference's tokens and each system's rendering of the locus
/// (the reference's words marked are those the judgement compared with).
fn translation_rows(
    item_index: usize,
    it: &Item,
    source: &str,
    judged: &locus::Judged,
    options: &SheetsOptions,
    run: &str,
) -> (Vec<TranslationRow>, Vec<KeyRow>) {
    let item = format!("T{:03}", item_index + 1);
    let reference = match judged.outputs.first() {
        Some((_, r)) => mark_tokens(
            &judged.reference,
            &r.dep.reference,
            r.head.as_ref().map_or(&[][..], |h| &h.reference),
        ),
        None => judged.reference.join(" "),
    };
    let (mut translation, mut key) = (Vec::new(), Vec::new());
    for (slot, &s) in it.order.iter().enumerate() {
        let (tokens, r) = &judged.outputs[s];
        let slot = ((b'A' + slot as u8) as char).to_string();
        translation.push(TranslationRow {
            item: item.clone(),
            slot: slot.clone(),
            phenomenon: it.phenomenon.clone(),
            distance: it.locus.distance,
            line: it.locus.id,
            source: source.to_string(),
            reference: reference.clone(),
            output: mark_tokens(
                tokens,
                &r.dep.output,
                r.head.as_ref().map_or(&[][..], |h| &h.output),
            ),
            question: TRANSLATION_QUESTION.into(),
            answer: String::new(),
            comment: String::new(),
            run: run.into(),
        });
        key.push(KeyRow {
            item: item.clone(),
            slot,
            system: options.names[s].clone(),
            automatic: match r.judgement {
                Judgement::NoReference => "no reference",
                j => j.name(),
            }
            .into(),
            run: run.into(),
        });
    }
    (translation, key)
}

/// Builds the sheets of `loaded` (no file written): the loci sampled (with every line they
/// need read once), judged on the systems' outputs, then laid out as rows.
pub fn build(loaded: &Loaded, options: &SheetsOptions) -> Result<Sheets> {
    check_sample(options)?;
    // `--hyp -`: standard input read once, then read as a file by every step.
    let _stdin = match options.hyps.iter().any(|h| ldd_io::is_stdin(h)) {
        true => Some(ldd_io::StdinCopy::read(loaded.manifest.corpus.lines)?),
        false => None,
    };
    let secret = blinding_secret(options)?;
    let run = run_id(options, &loaded.manifest_sha256, secret.as_deref());
    let mut short = Vec::new();
    let (items, (words, upos)) = sample(loaded, options, secret.as_deref(), &mut short)?;
    if items.is_empty() {
        return Err(Error::Data(format!(
            "sheets: no locus to sample in {} at the distances {:?} ({}); choose --distances \
             of sets that have loci",
            ldd_io::error::shown(&loaded.manifest_path),
            options.distances,
            short.join("; ")
        )));
    }
    // Judged first (when there are systems), then every row laid out.
    let judged = judge_items(loaded, options, &items, (&words, &upos))?;
    let sources: Vec<String> = items
        .iter()
        .map(|it| mark_source(&it.marked, it.locus.number))
        .collect();
    let detection = detection_rows(&items, &sources, &run);
    let translated = translation_items(&items, &sources, &judged, options, &run);
    let (translation, key, kept, no_reference) = translated;
    let record = SheetsRecord {
        tool: format!("ldd-sets {}", env!("CARGO_PKG_VERSION")),
        run,
        manifest_sha256: loaded.manifest_sha256.clone(),
        seed: options.seed,
        per_cell: options.per_cell,
        distances: options.distances.clone(),
        systems: options.hyps.len(),
        detection_items: detection.len(),
        translation_items: kept,
        no_reference,
    };
    Ok(Sheets {
        detection,
        translation,
        key,
        record,
        short,
    })
}

/// Every sampled locus judged on every system's output (none without systems).
fn judge_items(
    loaded: &Loaded,
    options: &SheetsOptions,
    items: &[Item],
    trees: (&SourceWords, &Upos),
) -> Result<Vec<locus::Judged>> {
    if options.hyps.is_empty() {
        return Ok(Vec::new());
    }
    let j = locus::Judging::new(loaded, options.align_model.as_deref(), &options.parsing)?;
    let loci: Vec<locus::ToJudge<'_>> = items
        .iter()
        .map(|it| {
            let kind = locus::Kind {
                phenomenon: &it.phenomenon,
                reorder: it.reorder,
            };
            (&it.locus, kind, it.reference.as_str())
        })
        .collect();
    locus::judge_loci(loaded, &j, &options.hyps, &loci, trees)
}

/// The detection sheet: one row per sampled locus (`D001`, …), its source marked.
fn detection_rows(items: &[Item], sources: &[String], run: &str) -> Vec<DetectionRow> {
    items
        .iter()
        .zip(sources)
        .enumerate()
        .map(|(i, (it, source))| DetectionRow {
            item: format!("D{:03}", i + 1),
            phenomenon: it.phenomenon.clone(),
            distance: it.locus.distance,
            line: it.locus.id,
            source: source.clone(),
            question: DETECTION_QUESTION.into(),
            answer: String::new(),
            comment: String::new(),
            run: run.into(),
        })
        .collect()
}

/// The translation sheet and its key: the loci whose reference shows a mark, numbered in
/// order; also how many were kept and how many left out for want of a mark.
fn translation_items(
    items: &[Item],
    sources: &[String],
    judged: &[locus::Judged],
    options: &SheetsOptions,
    run: &str,
) -> (Vec<TranslationRow>, Vec<KeyRow>, usize, usize) {
    let (mut translation, mut key) = (Vec::new(), Vec::new());
    let (mut kept, mut no_reference) = (0, 0);
    for ((it, source), judged) in items.iter().zip(sources).zip(judged) {
        // The reference's marks: the words aligned to the locus (the same in every output's
        // judgement).
        let marked = judged.outputs.first().is_some_and(|(_, r)| {
            !r.dep.reference.is_empty() || r.head.as_ref().is_some_and(|h| !h.reference.is_empty())
        });
        if !marked {
            no_reference += 1;
            continue;
        }
        let (t, k) = translation_rows(kept, it, source, judged, options, run);
        translation.extend(t);
        key.extend(k);
        kept += 1;
    }
    (translation, key, kept, no_reference)
}

/// The key's default place: `<out>.key.csv`, beside the sheets directory (never in it).
pub fn default_key(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sheets".into());
    crate::layout::sheets_key(&ldd_io::parent_dir(out), &name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marking_keeps_one_locus() {
        let line = "Osborne <h1>meldete</h1> sich <d2>an</d2> <h2>x</h2> , <d1>an</d1>";
        assert_eq!(
            mark_source(line, 1),
            "Osborne {{meldete}} sich an x , [[an]]"
        );
        let toks: Vec<String> = ["He", "signed", "up"].map(String::from).to_vec();
        assert_eq!(mark_tokens(&toks, &[2], &[1]), "He {{signed}} [[up]]");
        // Text that looks like a mark is escaped.
        let toks: Vec<String> = ["[[x]]", "<d1>y</d1>", "z"].map(String::from).to_vec();
        assert_eq!(
            mark_tokens(&toks, &[2], &[]),
            "\\[\\[x\\]\\] <d1>y</d1> [[z]]"
        );
    }

    #[test]
    fn the_slot_order_depends_on_the_secret_not_the_seed() {
        let orders = |secret: &str| -> Vec<Vec<usize>> {
            (0..40).map(|k| slot_order(secret, k, 3)).collect()
        };
        let (a, b) = (orders("a"), orders("b"));
        assert_ne!(a, b);
        assert_eq!(a, orders("a"));
        for o in &a {
            let mut s = o.clone();
            s.sort_unstable();
            assert_eq!(s, [0, 1, 2]);
        }
        // Every system comes first in some item.
        let firsts: std::collections::BTreeSet<usize> = a.iter().map(|o| o[0]).collect();
        assert_eq!(firsts.len(), 3);
    }
}

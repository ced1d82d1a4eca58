//! Contrastive accuracy (`score --contrast DIR --contrastive FILE`): the share of the
//! items of `contrast` ([`crate::contrast`]) on which a system's score of the reference is
//! higher than its score of every variant — per set (the items whose locus the set holds)
//! and corpus, with Wilson intervals and McNemar's exact test against the first system
//! ([`super::share`]), trends over distance, for all variants (`contrastive`) and for each
//! error type apart (`contrastive-dropped`, …).
//!
//! A system's scores are one number per line of `contrast.TGT`: log-probabilities, as
//! fairseq, Marian or Hugging Face scoring print them (higher is better), or costs such as
//! negative log-probabilities (`--lower-is-better contrastive`, as LingEval97's and
//! ContraPro's scripts take by default). A tie is not a pass.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{share, stats::read_numbers, Loaded, Metric, Row, Trend};
use crate::error::{Error, Result};
use crate::format::contrast::{ContrastItem, ContrastRecord, Variant};
use crate::layout;

/// The metric's key (all variants); a type's key is `contrastive-TYPE`.
pub const KEY: &str = "contrastive";

/// What `--contrast` and `--contrastive` give.
#[derive(Debug, Clone)]
pub struct ContrastiveOptions {
    /// `contrast`'s output directory.
    pub dir: PathBuf,
    /// One file of scores per system.
    pub files: Vec<PathBuf>,
    /// Whether a higher score is better (log-probabilities) or a lower one (costs).
    pub higher_is_better: bool,
}

/// Largest `items.jsonl` read: 1 GiB.
const MAX_ITEMS_BYTES: u64 = 1 << 30;

/// The items of `dir` and the SHA-256 of `items.jsonl`, checked: made from the sets of
/// `loaded` (the record names their manifest's SHA-256).
pub fn items(dir: &Path, loaded: &Loaded) -> Result<(Vec<ContrastItem>, String)> {
    let rec_path = dir.join(layout::CONTRAST_RECORD);
    let rec: ContrastRecord = serde_json::from_str(&ldd_io::read_text(&rec_path, 1 << 20)?)
        .map_err(|e| {
            Error::input(
                &rec_path,
                e.line() as u64,
                format!("not contrast's record: {e}"),
            )
        })?;
    if rec.manifest_sha256 != loaded.manifest_sha256 {
        return Err(Error::Config(format!(
            "--contrast {}: made from other sets than {} (another manifest SHA-256); run \
             `ldd-sets contrast` on these sets",
            ldd_io::error::shown(dir),
            ldd_io::error::shown(&loaded.manifest_path)
        )));
    }
    let path = dir.join(layout::CONTRAST_ITEMS);
    let text = ldd_io::read_text(&path, MAX_ITEMS_BYTES)?;
    let sha = ldd_io::sha256_bytes(text.as_bytes());
    if sha != rec.items_sha256 {
        return Err(Error::Data(format!(
            "{}: changed since `ldd-sets contrast` wrote it (SHA-256 {sha}; {} records {}): \
             its items and variants are what the scores are of — run `ldd-sets contrast` on \
             these sets again, and score its new items",
            ldd_io::error::shown(&path),
            ldd_io::error::shown(&rec_path),
            if rec.items_sha256.is_empty() {
                "none, written by an older ldd-sets"
            } else {
                rec.items_sha256.as_str()
            }
        )));
    }
    let mut items = Vec::new();
    let mut next = 1u64;
    for (k, line) in text.lines().enumerate() {
        let it: ContrastItem = serde_json::from_str(line)
            .map_err(|e| Error::input(&path, k as u64 + 1, format!("not a contrast item: {e}")))?;
        // A type names a metric (`contrastive-TYPE`): a name, never markup or controls.
        let typed = |v: &&Variant| ldd_io::name::is_valid(ldd_io::NameKind::Phenomenon, &v.kind);
        if let Some(v) = it.variants.iter().find(|v| !typed(v)) {
            return Err(Error::input(
                &path,
                k as u64 + 1,
                format!(
                    "variant type `{}` is not a type name (lowercase letters, digits, `_`, `-`)",
                    ldd_io::error::quote(&v.kind, 40)
                ),
            ));
        }
        if it.first_line != next || it.variants.is_empty() {
            return Err(Error::input(
                &path,
                k as u64 + 1,
                "its first_line does not follow the item before, or it has no variant",
            ));
        }
        next += 1 + it.variants.len() as u64;
        items.push(it);
    }
    if items.len() as u64 != rec.items {
        return Err(Error::Data(format!(
            "{}: {} items, but contrast.json records {}",
            ldd_io::error::shown(&path),
            items.len(),
            rec.items
        )));
    }
    Ok((items, sha))
}

/// The metric keys the items give: all variants, then each error type present.
pub fn keys(items: &[ContrastItem]) -> Vec<String> {
    let types: BTreeSet<&str> = items
        .iter()
        .flat_map(|i| i.variants.iter().map(|v| v.kind.as_str()))
        .collect();
    std::iter::once(KEY.to_string())
        .chain(types.into_iter().map(|t| format!("{KEY}-{t}")))
        .collect()
}

/// Each system's scores, checked: one finite number per line of `contrast.TGT`.
pub fn read_scores(
    options: &ContrastiveOptions,
    items: &[ContrastItem],
    tgt: &str,
) -> Result<Vec<Vec<f64>>> {
    let lines: u64 = items.iter().map(|i| 1 + i.variants.len() as u64).sum();
    let expected = format!(
        "{} has {lines} lines (one score per line of it)",
        ldd_io::error::shown(&options.dir.join(layout::contrast_side(tgt)))
    );
    options
        .files
        .iter()
        .map(|f| read_numbers(f, lines, &expected))
        .collect()
}

/// Whether the reference beats every variant of type `kind` (`None`: every type) of `it`
/// under `scores` (higher better when `higher`, else lower); `None` when the item has no
/// such variant.
fn passed(it: &ContrastItem, scores: &[f64], kind: Option<&str>, higher: bool) -> Option<bool> {
    let at = |line: u64| scores[line as usize - 1];
    let reference = at(it.first_line);
    let mut any = false;
    let mut all = true;
    for (k, v) in it.variants.iter().enumerate() {
        if kind.is_some_and(|t| t != v.kind) {
            continue;
        }
        any = true;
        let variant = at(it.first_line + 1 + k as u64);
        all &= if higher {
            reference > variant
        } else {
            reference < variant
        };
    }
    any.then_some(all)
}

/// Rows and trends of every metric of `metrics` (in [`keys`] order) for every system
/// (`scores[system]`, higher better when `higher`), `confidence` the level of the Wilson
/// intervals. A row's `loci` counts the items judged; `sentences` is the scope's.
pub fn evaluate(
    loaded: &Loaded,
    items: &[ContrastItem],
    scores: &[Vec<f64>],
    systems: &[String],
    metrics: &[Metric],
    confidence: f64,
    higher: bool,
) -> Vec<(Vec<Vec<Row>>, Vec<Trend>)> {
    let mut out = Vec::new();
    for m in metrics {
        let kind = m.key.strip_prefix(&format!("{KEY}-"));
        // outcome[system][item]; items without a variant of the type are left out.
        let outcome: Vec<Vec<Option<bool>>> = scores
            .iter()
            .map(|s| items.iter().map(|it| passed(it, s, kind, higher)).collect())
            .collect();
        let pick = |s: usize, keep: &dyn Fn(&ContrastItem) -> bool| -> Vec<Option<bool>> {
            items
                .iter()
                .zip(&outcome[s])
                .filter(|(it, o)| keep(it) && o.is_some())
                .map(|(_, o)| *o)
                .collect()
        };
        // One scope (the corpus, then every set) at a time, the baseline's outcomes once.
        let mut rows: Vec<Vec<Row>> = vec![Vec::new(); systems.len()];
        let mut scope =
            |name: &str, keep: &dyn Fn(&ContrastItem) -> bool, fill: &dyn Fn(&mut Row)| {
                let base = pick(0, keep);
                for (s, sys_rows) in rows.iter_mut().enumerate() {
                    let mut r = share::row(
                        &systems[s],
                        m,
                        name,
                        &pick(s, keep),
                        (s > 0).then_some(base.as_slice()),
                        confidence,
                    );
                    fill(&mut r);
                    sys_rows.push(r);
                }
            };
        scope("corpus", &|_| true, &|r| {
            r.bucket = "corpus".into();
            r.sentences = loaded.manifest.corpus.lines;
        });
        for u in &loaded.units {
            let set = &u.set;
            let held = |it: &ContrastItem| {
                it.phenomenon == set.phenomenon && it.sets.contains(&set.bucket)
            };
            scope("set", &held, &|r| {
                r.kind = set.kind.name().into();
                r.phenomenon = set.phenomenon.clone();
                r.bucket = set.bucket.clone();
                r.min_distance = Some(set.min_distance);
                r.exact = Some(set.exact);
                r.sentences = u.ids.len() as u64;
            });
        }
        let trends = share::trends(m, systems, &rows);
        out.push((rows, trends));
    }
    out
}

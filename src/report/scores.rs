//! `scores.json` read for the report, in its one schema ([`crate::format::scores`], lenient:
//! scores written by older versions of `ldd-sets score` still render, with "–" for what
//! they lack), and checked against the manifest of the sets it claims to score: a
//! `scores.json` left over from other sets is an error, not a wrong report.

use std::path::Path;

use crate::error::{Error, Result};
use crate::format::manifest::Manifest;
pub use crate::format::scores::{Row, Scores, SMALL_SET};
/// How a metric key is shown: its registry label (`BLEU`, `chrF`, `RIBES`), `locus
/// accuracy` for [`crate::score::locus::KEY`], or a segment-level metric's key itself.
pub fn metric_label(key: &str) -> &str {
    if key == crate::score::locus::KEY {
        "locus accuracy"
    } else {
        ldd_eval::metric::label(key)
    }
}

/// The largest score a metric can have, when it is bounded: 100 for the registry's
/// metrics (BLEU, chrF, RIBES ×100), locus accuracy and contrastive accuracy (shares in
/// percent); `None` for a `--seg-scores` metric, whose range is its own.
pub fn metric_max(key: &str) -> Option<f64> {
    let contrastive = crate::score::contrastive::KEY;
    let bounded = ldd_eval::metric::find(key).is_some()
        || key == crate::score::locus::KEY
        || key == contrastive
        || key
            .strip_prefix(contrastive)
            .is_some_and(|t| t.starts_with('-'));
    bounded.then_some(100.0)
}

/// Largest `scores.json` read: 256 MiB.
const MAX_SCORES_BYTES: u64 = 256 << 20;

/// Reads `scores.json` at `path` and checks it against the manifest of the sets: same
/// corpus size, every set row naming a set of the manifest with its sentence count, every row's system
/// listed. Errors name the file (and the line, for JSON errors).
pub fn read(path: &Path, m: &Manifest) -> Result<Scores> {
    let text = ldd_io::read_text(path, MAX_SCORES_BYTES)?;
    let s: Scores = serde_json::from_str(&text).map_err(|e| {
        Error::input(
            path,
            e.line() as u64,
            format!("not an ldd-sets scores.json: {e}"),
        )
    })?;
    let shown = ldd_io::error::shown(path);
    if s.corpus_lines != m.corpus.lines {
        return Err(Error::Data(format!(
            "{shown}: scores a corpus of {} lines but the sets' corpus has {} lines; \
                 re-run `ldd-sets score` on these sets",
            s.corpus_lines, m.corpus.lines
        )));
    }
    for r in &s.rows {
        if !s.systems.iter().any(|x| x.name == r.system) {
            return Err(Error::Data(format!(
                "{shown}: a row names system `{}`, which is not in `systems`",
                ldd_io::error::quote(&r.system, 100)
            )));
        }
        let finite = [r.score, r.control_mean, r.control_sd, r.ci_low, r.ci_high]
            .iter()
            .flatten()
            .chain(&r.control_scores)
            .all(|v| v.is_finite());
        if !finite {
            return Err(Error::Data(format!(
                "{shown}: a score of {}/{} is not a finite number",
                ldd_io::error::quote(&r.phenomenon, 100),
                ldd_io::error::quote(&r.bucket, 100)
            )));
        }
        if !r.is_set() {
            continue;
        }
        match m.set(&r.phenomenon, &r.bucket) {
            Some(set) if set.sentences == r.sentences => {}
            Some(set) => {
                return Err(Error::Data(format!(
                    "{shown}: set {}/{} has {} sentences there but {} in the manifest; \
                         the sets changed after scoring: re-run `ldd-sets score`",
                    r.phenomenon, r.bucket, r.sentences, set.sentences
                )))
            }
            None => {
                return Err(Error::Data(format!(
                    "{shown}: set `{}/{}` is not in the manifest; these scores are of other \
                         sets: re-run `ldd-sets score`",
                    ldd_io::error::quote(&r.phenomenon, 100),
                    ldd_io::error::quote(&r.bucket, 100)
                )))
            }
        }
    }
    Ok(s)
}

/// The significance mark of a set row: `**` / `*` for a one-sided control p-value below
/// 0.01 / 0.05; without p-values, `†` when every control scored higher than the set.
pub fn mark(r: &Row) -> &'static str {
    match r.control_p_value {
        Some(p) if p < 0.01 => "**",
        Some(p) if p < 0.05 => "*",
        Some(_) => "",
        None if r.score.is_some() && r.controls > 0 && r.rank == Some(r.controls) => "†",
        None => "",
    }
}

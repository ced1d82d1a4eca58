//! The files of `score`: `scores.json` and `scores.csv` (its table on stdout is
//! [`crate::printer::scores`]'s).

use std::path::Path;

use super::Scores;
use crate::error::{Error, Result};
use crate::layout;
use crate::view::ScoreView;

/// The first columns of `scores.csv`, common to every version (how an existing file is
/// recognised as ours).
const CSV_HEADER: &str =
    "system,metric,scope,kind,phenomenon,bucket,min_distance,exact,sentences,score,\
controls,control_status,control_mean,control_sd,rank,ties,points,spearman,pearson";

/// Writes `scores.json` and `scores.csv`, and `scores.loci.tsv` when `judgements` holds
/// its text, into `dir` (created if needed), together and all-or-nothing. Existing files
/// of those names are replaced only if ldd-sets wrote them (a JSON score report; a CSV or
/// TSV with ldd-sets' header), and never if they are inputs.
pub fn write_outputs(
    report: &Scores,
    judgements: Option<&str>,
    dir: &Path,
    inputs: &[&Path],
) -> Result<()> {
    let json = render_json(report)?;
    // Both or neither: a stop never leaves a new scores.json beside an old scores.csv, nor
    // an empty directory made for them.
    let mut files = vec![
        (dir.join(layout::SCORES_JSON), json.into_bytes()),
        (
            dir.join(layout::SCORES_CSV),
            render_csv(report).into_bytes(),
        ),
    ];
    if let Some(text) = judgements {
        files.push((dir.join(layout::SCORES_LOCI), text.as_bytes().to_vec()));
    }
    ldd_io::write_together(dir, &files, "ldd-sets score", &written_by_us, inputs)?;
    Ok(())
}

/// `scores.json`'s text.
pub fn render_json(report: &Scores) -> Result<String> {
    let mut json = serde_json::to_string_pretty(report)
        .map_err(|e| Error::Data(format!("scores.json: {e}")))?;
    json.push('\n');
    Ok(json)
}

/// Whether an existing `scores.json`, `scores.csv` or `scores.loci.tsv` is a previous
/// output of `score` (the tables by their header line alone).
fn written_by_us(path: &Path) -> bool {
    let header = || -> Option<String> {
        let mut r = ldd_io::Input::open(path).ok()?;
        r.next_line().ok()?.map(String::from)
    };
    match path.extension().and_then(|e| e.to_str()) {
        Some("csv") => header().is_some_and(|h| h.starts_with(CSV_HEADER)),
        Some("tsv") => header().is_some_and(|h| {
            use crate::format::judged::{HEADER, HEADER_1, HEADER_2};
            h == HEADER || h == HEADER_2 || h == HEADER_1
        }),
        _ => ldd_io::read_text(path, 1 << 30).is_ok_and(|text| {
            serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| {
                v.get("rows").is_some_and(|r| r.is_array()) && v.get("corpus_lines").is_some()
            })
        }),
    }
}

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map(|x| x.to_string()).unwrap_or_default()
}

/// The columns of `scores.csv`, in order.
pub const CSV_COLUMNS: &str = "system,metric,scope,kind,phenomenon,bucket,min_distance,exact,\
sentences,score,controls,control_status,control_mean,control_sd,rank,ties,points,spearman,\
pearson,ci_low,ci_high,p_value,control_diff,control_diff_ci_low,control_diff_ci_high,\
control_p_value,small_set,spearman_ci_low,spearman_ci_high,pearson_ci_low,pearson_ci_high,\
loci,no_reference,signature,unaligned,locus_words,locus_words_unaligned,locus_word_score,\
comparable_words,comparable_score,pos_diff,pos_diff_ci_low,pos_diff_ci_high,pos_p_value,\
differs,partial,control_q_value,pos_q_value,pos_did,pos_did_ci_low,pos_did_ci_high,\
pos_did_p_value,diff_points,diff_spearman,diff_spearman_ci_low,diff_spearman_ci_high,\
diff_spearman_p";

/// `scores.csv`: the score tables ([`ScoreView`]) as one row per system × metric ×
/// (corpus, set), then one per trend; written by the one CSV writer
/// ([`crate::format::csv_text`]).
pub fn render_csv(scores: &Scores) -> String {
    let view = ScoreView::of(scores);
    let header: Vec<&str> = CSV_COLUMNS.split(',').collect();
    let rows = view.by_system().map(row_cells);
    let mut trends = Vec::new();
    for t in view.trends {
        trends.push(trend_cells(&header, t));
    }
    crate::format::csv_text(&header, rows.chain(trends))
}

/// The cells of a trend's row, in [`CSV_COLUMNS`]' order (`header`).
fn trend_cells(header: &[&str], trend: &crate::format::scores::Trend) -> Vec<String> {
    let mut c = vec![String::new(); header.len()];
    let mut set = |col: &str, v: String| {
        if let Some(k) = header.iter().position(|h| *h == col) {
            c[k] = v;
        }
    };
    set("system", text(&trend.system));
    set("metric", text(&trend.metric));
    set("scope", "trend".into());
    set("phenomenon", text(&trend.phenomenon));
    set("bucket", "ge*".into());
    set("points", trend.points.len().to_string());
    set("spearman", opt(trend.spearman));
    set("pearson", opt(trend.pearson));
    set("spearman_ci_low", opt(trend.spearman_ci_low));
    set("spearman_ci_high", opt(trend.spearman_ci_high));
    set("pearson_ci_low", opt(trend.pearson_ci_low));
    set("pearson_ci_high", opt(trend.pearson_ci_high));
    set("signature", text(&trend.signature));
    if !trend.diff_points.is_empty() {
        set("diff_points", trend.diff_points.len().to_string());
    }
    set("diff_spearman", opt(trend.diff_spearman));
    set("diff_spearman_ci_low", opt(trend.diff_spearman_ci_low));
    set("diff_spearman_ci_high", opt(trend.diff_spearman_ci_high));
    set("diff_spearman_p", opt(trend.diff_spearman_p));
    c
}

/// Text from the inputs (names from the manifest, the scores read back) with its control
/// characters escaped ([`ldd_io::error::escape`]).
fn text(text: &str) -> String {
    ldd_io::error::escape(text).into_owned()
}

/// The cells of a score row, in [`CSV_COLUMNS`]' order.
fn row_cells(row: &super::Row) -> Vec<String> {
    let mut c = vec![
        text(&row.system),
        text(&row.metric),
        text(&row.scope),
        text(&row.kind),
        text(&row.phenomenon),
        text(&row.bucket),
        opt(row.min_distance),
        opt(row.exact),
        row.sentences.to_string(),
        opt(row.score),
        row.controls.to_string(),
        text(&row.control_status),
        opt(row.control_mean),
        opt(row.control_sd),
        opt(row.rank),
        opt(row.ties),
        String::new(), // points, spearman, pearson: trends only
        String::new(),
        String::new(),
        opt(row.ci_low),
        opt(row.ci_high),
        opt(row.p_value),
        opt(row.control_diff),
        opt(row.control_diff_ci_low),
        opt(row.control_diff_ci_high),
        opt(row.control_p_value),
        row.small_set.to_string(),
        String::new(), // the trends' intervals
        String::new(),
        String::new(),
        String::new(),
        opt(row.loci),
        opt(row.no_reference),
        text(&row.signature),
        opt(row.unaligned),
    ];
    c.extend(baseline_cells(row.baseline.as_ref()));
    c.push(opt(row.differs));
    c.push(opt(row.partial));
    c.push(opt(row.control_q_value));
    c.extend(did_cells(row.baseline.as_ref()));
    c.extend(std::iter::repeat_n(String::new(), 5)); // the trends' net of length
    c
}

/// The five cells of the baseline's q-value and difference-in-differences (empty for
/// other metrics).
fn did_cells(baseline: Option<&crate::format::scores::Baseline>) -> Vec<String> {
    match baseline {
        Some(b) => vec![
            opt(b.q_value),
            opt(b.did),
            opt(b.did_ci_low),
            opt(b.did_ci_high),
            opt(b.did_p_value),
        ],
        None => vec![String::new(); 5],
    }
}

/// The nine cells of locus accuracy's baseline (empty for other metrics).
fn baseline_cells(baseline: Option<&crate::format::scores::Baseline>) -> Vec<String> {
    match baseline {
        Some(baseline) => vec![
            baseline.words.to_string(),
            baseline.unaligned.to_string(),
            opt(baseline.word_score),
            baseline.comparable.to_string(),
            opt(baseline.comparable_score),
            opt(baseline.diff),
            opt(baseline.diff_ci_low),
            opt(baseline.diff_ci_high),
            opt(baseline.p_value),
        ],
        None => vec![String::new(); 9],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scores.csv of any version starts with the columns that mark it as ours.
    #[test]
    fn csv_columns_extend_the_recognised_header() {
        assert!(CSV_COLUMNS.starts_with(CSV_HEADER));
    }

    /// Every row has a cell per column.
    #[test]
    fn rows_have_every_column() {
        let row = super::super::Row::default();
        assert_eq!(row_cells(&row).len(), CSV_COLUMNS.split(',').count());
        let row = super::super::Row {
            baseline: Some(Default::default()),
            ..Default::default()
        };
        assert_eq!(row_cells(&row).len(), CSV_COLUMNS.split(',').count());
    }

    /// Scores without systems render (it used to panic).
    #[test]
    fn empty_report_renders() {
        let r = Scores {
            reference: Some("r".into()),
            ..Default::default()
        };
        assert_eq!(render_csv(&r).lines().count(), 1);
    }
}

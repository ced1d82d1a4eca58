//! `check-detection`'s results: the JSON it prints with `--json` ([`DetectionReport`]),
//! and the figures it records for the registry with `--record` ([`Recorded`]: the built-in
//! `config/detection.toml`, which `ldd-sets languages` shows).

use serde::{Deserialize, Serialize};

use crate::config::BUILTIN_DETECTION;
use crate::error::{Error, Result};

/// What `check-detection` measured: the rules on a parser's trees against the reference
/// rules on the gold trees of the same sentences.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DetectionReport {
    /// The gold CoNLL-U file.
    pub gold: String,
    /// Its SHA-256.
    pub gold_sha256: String,
    /// The UDPipe model that parsed the gold file's text (null: a parse was given).
    pub model: Option<String>,
    /// Its SHA-256.
    pub model_sha256: Option<String>,
    /// The parse compared: the parse cache's file, or the parse given (`--parsed`).
    pub parsed: String,
    /// The source language whose rules ran.
    pub language: String,
    /// The sentences compared: first and last, 1-based, inclusive (the file's line of
    /// sentences, as a corpus has them).
    pub lines: [u64; 2],
    /// The rules run on the parser's trees (their source).
    pub rules: String,
    /// The rules run on the gold trees: what counts as a gold instance.
    pub reference: String,
    /// Level of the intervals.
    pub confidence: f64,
    /// Largest distance bucket: distances above it share the `geN` sets only.
    pub max_distance: u32,
    /// Per phenomenon, in rule order.
    pub phenomena: Vec<PhenomenonResult>,
}

/// One phenomenon's agreement. Instances are keyed by line, dependent word and head word
/// (a word: its characters' position in the sentence's text, so that two tokenizations
/// meet where they agree).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PhenomenonResult {
    /// The phenomenon.
    pub name: String,
    /// Instances in the gold trees.
    pub gold: u64,
    /// Instances in the parser's trees.
    pub found: u64,
    /// Instances in both.
    pub correct: u64,
    /// `correct / found`, with its Wilson interval (null when nothing was found).
    pub precision: Estimate,
    /// `correct / gold`, with its Wilson interval (null when there is no gold instance).
    pub recall: Estimate,
    /// Harmonic mean of precision and recall, with a percentile bootstrap interval over
    /// sentences (null when there is neither a gold nor a found instance).
    pub f1: Estimate,
    /// Of the correct instances, those whose distance falls in the same `eqK` set (both
    /// above the largest bucket counts as the same).
    pub bucket_right: u64,
    /// Gold instances the parser's trees do not give, in line order.
    pub misses: Vec<Instance>,
    /// Instances of the parser's trees that the gold trees do not give, in line order.
    pub false_hits: Vec<Instance>,
}

/// A proportion and its interval.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct Estimate {
    /// The value (null when undefined).
    pub value: Option<f64>,
    /// Lower end of the interval.
    pub low: Option<f64>,
    /// Upper end.
    pub high: Option<f64>,
}

/// A miss or a false hit: the instance in the tree that has it, and how the other tree
/// analyses the same dependent word.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Instance {
    /// Line (sentence) of the gold file, 1-based.
    pub line: u64,
    /// The dependent.
    pub dependent: WordInfo,
    /// Its head.
    pub head: WordInfo,
    /// Words strictly between them.
    pub distance: u32,
    /// The other tree's analysis of the dependent word (null: that tree has no word at
    /// these characters, its tokenization differs there).
    pub other: Option<Analysis>,
}

/// A word of one tree.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct WordInfo {
    /// Word id in its tree, 1-based.
    pub id: u32,
    /// FORM.
    pub form: String,
    /// UPOS.
    pub upos: String,
    /// XPOS.
    pub xpos: String,
    /// DEPREL.
    pub deprel: String,
}

/// A word and its head in a tree.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Analysis {
    /// The word.
    pub word: WordInfo,
    /// Its head (null: the root).
    pub head: Option<WordInfo>,
}

impl DetectionReport {
    /// The JSON `--json` prints.
    pub fn to_json(&self) -> String {
        let mut text =
            serde_json::to_string_pretty(self).expect("a detection report serialises to JSON");
        text.push('\n');
        text
    }
}

/// The figures recorded for the registry: every measurement, in the order recorded.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Recorded {
    /// One entry per language, model, gold file and lines.
    #[serde(default)]
    pub measured: Vec<Measured>,
}

/// Detection of one language's phenomena with one model, against one gold file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Measured {
    /// Source language.
    pub language: String,
    /// Model file name.
    pub model: String,
    /// Its SHA-256.
    pub model_sha256: String,
    /// Gold file name.
    pub gold: String,
    /// Its SHA-256.
    pub gold_sha256: String,
    /// The sentences compared (`first-last`).
    pub lines: String,
    /// The rules measured.
    pub rules: String,
    /// Per phenomenon.
    pub phenomenon: Vec<Figure>,
}

/// One phenomenon's figures.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// The phenomenon.
    pub name: String,
    /// Gold instances.
    pub gold: u64,
    /// Instances found in the parser's trees.
    pub found: u64,
    /// Instances in both.
    pub correct: u64,
    /// Precision (absent when nothing was found).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// Recall (absent without gold instances).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recall: Option<f64>,
}

/// The comment that heads `config/detection.toml`.
/// Whether the file at `path` is a figures file `check-detection --record` wrote (its
/// header, and entries that read), which a new record may update; a file of anyone
/// else's — comment lines, other TOML — is never rewritten.
pub fn is_recorded_file(path: &std::path::Path) -> bool {
    let first = RECORDED_HEADER.lines().next().unwrap_or_default();
    ldd_io::read_text(path, crate::config::MAX_CONFIG_BYTES)
        .is_ok_and(|t| t.starts_with(first) && Recorded::parse(&t, "").is_ok())
}

const RECORDED_HEADER: &str = "\
# Detection measured against gold trees: written by `ldd-sets check-detection --record FILE`
# (`make check-detection RECORD=1` records the held-out PUD lines of German and English),
# shown by `ldd-sets languages`. Data, not code: each entry says which model parsed which
# gold file's text, which lines were compared and with which rules. docs/rules.md, \"How good
# are the sets of a parser?\", says how to read the figures.

";

impl Measured {
    /// The entry of a report (figures rounded to 3 decimals), its files named by `gold`
    /// and `model` (their file names); `None` for a report of a given parse (no model).
    pub fn of(report: &DetectionReport, gold: &str, model: &str) -> Option<Measured> {
        let round = |x: Option<f64>| x.map(|v| (v * 1000.0).round() / 1000.0);
        Some(Measured {
            language: report.language.clone(),
            model: model.to_string(),
            model_sha256: report.model_sha256.clone()?,
            gold: gold.to_string(),
            gold_sha256: report.gold_sha256.clone(),
            lines: format!("{}-{}", report.lines[0], report.lines[1]),
            rules: report.rules.clone(),
            phenomenon: report
                .phenomena
                .iter()
                .map(|p| Figure {
                    name: p.name.clone(),
                    gold: p.gold,
                    found: p.found,
                    correct: p.correct,
                    precision: round(p.precision.value),
                    recall: round(p.recall.value),
                })
                .collect(),
        })
    }

    /// Whether `other` measures the same thing (language, model, gold file and lines), so
    /// that recording it replaces this entry.
    pub fn same_measure(&self, other: &Measured) -> bool {
        self.language == other.language
            && self.model == other.model
            && self.gold == other.gold
            && self.lines == other.lines
    }
}

impl Recorded {
    /// Parses a figures file (`origin` names it in errors).
    pub fn parse(text: &str, origin: &str) -> Result<Recorded> {
        toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
                .unwrap_or(0);
            Error::Config(format!("{origin}:{line}: {}", e.message().trim_end()))
        })
    }

    /// The built-in figures (`config/detection.toml`).
    pub fn builtin() -> Result<Recorded> {
        Self::parse(BUILTIN_DETECTION, "config/detection.toml (built in)")
    }

    /// With `measured` recorded: it replaces the entry of the same measure, else comes last.
    pub fn with(mut self, measured: Measured) -> Recorded {
        match self.measured.iter_mut().find(|x| x.same_measure(&measured)) {
            Some(x) => *x = measured,
            None => self.measured.push(measured),
        }
        self
    }

    /// The entries of language `code`.
    pub fn of_language<'a>(&'a self, code: &'a str) -> impl Iterator<Item = &'a Measured> + 'a {
        self.measured.iter().filter(move |m| m.language == code)
    }

    /// The file's text: the header comment, then the entries.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).expect("recorded figures serialise to TOML");
        format!("{RECORDED_HEADER}{body}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(lines: &str, p: f64) -> Measured {
        Measured {
            language: "de".into(),
            model: "m.udpipe".into(),
            model_sha256: "ab".into(),
            gold: "g.conllu".into(),
            gold_sha256: "cd".into(),
            lines: lines.into(),
            rules: "r".into(),
            phenomenon: vec![Figure {
                name: "particle".into(),
                gold: 10,
                found: 8,
                correct: 7,
                precision: Some(p),
                recall: None,
            }],
        }
    }

    /// Recording a measure again replaces its entry and keeps the others; the file reads
    /// back as written.
    #[test]
    fn recording_replaces_the_same_measure() {
        let r = Recorded::default()
            .with(entry("1-500", 0.5))
            .with(entry("501-1000", 0.6))
            .with(entry("1-500", 0.875));
        assert_eq!(r.measured.len(), 2);
        assert_eq!(r.measured[0].phenomenon[0].precision, Some(0.875));
        assert_eq!(r.measured[1].lines, "501-1000");
        let text = r.to_toml();
        assert!(text.starts_with("# Detection measured"));
        assert_eq!(Recorded::parse(&text, "t").unwrap(), r);
        assert!(Recorded::parse("[[measured]]\nlanguage = 1\n", "t")
            .unwrap_err()
            .to_string()
            .contains("t:2:"));
    }

    /// The built-in figures read.
    #[test]
    fn the_builtin_figures_read() {
        Recorded::builtin().unwrap();
    }
}

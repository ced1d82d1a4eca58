//! The plan of `mqm`: export a campaign as a corpus, or judge sets against its ratings.

use std::path::PathBuf;

use ldd_sets::config::Languages;
use ldd_sets::error::{Error, Result};
use ldd_sets::judge::mqm::MqmOptions;

use super::super::args::mqm::MqmArgs;
use super::confidence;

/// `mqm`'s plan: one of its two tasks.
pub enum MqmPlan {
    /// `--export DIR`: the campaign written as a corpus.
    Export(ExportPlan),
    /// `--sets DIR`: the sets' loci judged against the campaign's ratings.
    Judge(Box<JudgePlan>),
}

/// `mqm --export`'s plan.
pub struct ExportPlan {
    /// The campaign's files.
    pub files: Vec<PathBuf>,
    /// The system whose outputs are the reference (none: the one named like a human
    /// reference).
    pub reference_system: Option<String>,
    /// Where the corpus goes.
    pub dir: PathBuf,
    /// The source and target language codes (they name the files), checked.
    pub languages: Languages,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `mqm --sets`'s plan.
pub struct JudgePlan {
    /// The sets directory.
    pub sets: PathBuf,
    /// The campaign, what counts as an error, the corpus files, the tests and the locus
    /// judgement's models.
    pub options: MqmOptions,
    /// Where mqm.json, mqm.csv and mqm.disagreements.tsv go (`--out`, else the sets).
    pub out: PathBuf,
    /// Where every content word judged goes (`--items`).
    pub items: Option<PathBuf>,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `mqm`'s plan: the intervals' level, the export's language codes, or the sets and at
/// least one severity, checked.
pub fn mqm(a: &MqmArgs) -> Result<MqmPlan> {
    confidence(a.confidence)?;
    if let Some(dir) = &a.export {
        let (Some(src), Some(tgt)) = (&a.src_lang, &a.tgt_lang) else {
            return Err(Error::Config(
                "--export needs --src-lang and --tgt-lang".into(),
            ));
        };
        return Ok(MqmPlan::Export(ExportPlan {
            files: a.mqm.clone(),
            reference_system: a.reference_system.clone(),
            dir: dir.clone(),
            languages: Languages::new(src, tgt)?,
            quiet: a.quiet.quiet,
        }));
    }
    let Some(sets) = &a.sets else {
        return Err(Error::Config("give --sets DIR (or --export DIR)".into()));
    };
    let given = !a.severity.is_empty();
    let severities = if given {
        lower(&a.severity)
    } else {
        vec!["major".into(), "minor".into()]
    };
    if severities.is_empty() {
        return Err(Error::Config(
            "--severity: name at least one severity (e.g. major,minor)".into(),
        ));
    }
    let references = a.references.as_ref().map(|r| {
        let r: Vec<String> = r.iter().map(|s| s.trim().to_string()).collect();
        if r == ["none"] {
            Vec::new()
        } else {
            r
        }
    });
    Ok(MqmPlan::Judge(Box::new(JudgePlan {
        sets: sets.clone(),
        options: MqmOptions {
            files: a.mqm.clone(),
            docs: a.docs.clone(),
            severities,
            severities_given: given,
            source_issues: a.source_issues,
            references,
            categories: lower(&a.categories),
            exclude: a.exclude.clone(),
            conllu: a.conllu.clone(),
            source: a.src.clone(),
            reference: a.reference.clone(),
            permutations: a.permutations as usize,
            seed: a.seed,
            confidence: a.confidence,
            align_model: a.align_model.clone(),
            lemma_model: a.lemma_model.clone(),
        },
        out: a.out.clone().unwrap_or_else(|| sets.clone()),
        items: a.items.clone(),
        quiet: a.quiet.quiet,
    })))
}

/// `v` trimmed and lowercased, empty entries left out.
fn lower(v: &[String]) -> Vec<String> {
    v.iter()
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

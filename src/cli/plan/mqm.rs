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
    /// Every column, however wide (`--wide`).
    pub wide: bool,
}

/// `mqm`'s plan: the intervals' level, the export's language codes, or the sets and at
/// least one severity, checked.
pub fn mqm(args: &MqmArgs) -> Result<MqmPlan> {
    confidence(args.confidence)?;
    if let Some(dir) = &args.export {
        let (Some(src), Some(tgt)) = (&args.src_lang, &args.tgt_lang) else {
            return Err(Error::Config(
                "--export needs --src-lang and --tgt-lang".into(),
            ));
        };
        return Ok(MqmPlan::Export(ExportPlan {
            files: args.mqm.clone(),
            reference_system: args.reference_system.clone(),
            dir: dir.to_path_buf(),
            languages: Languages::new(src, tgt)?,
            quiet: args.quiet.quiet,
        }));
    }
    let Some(sets) = &args.sets else {
        return Err(Error::Config("give --sets DIR (or --export DIR)".into()));
    };
    let given = !args.severity.is_empty();
    let severities = if given {
        lower(&args.severity)
    } else {
        vec!["major".into(), "minor".into()]
    };
    if severities.is_empty() {
        return Err(Error::Config(
            "--severity: name at least one severity (e.g. major,minor)".into(),
        ));
    }
    let references = args.references.as_ref().map(|r| {
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
            files: args.mqm.clone(),
            docs: args.docs.clone(),
            severities,
            severities_given: given,
            source_issues: args.source_issues,
            references,
            categories: lower(&args.categories),
            exclude: args.exclude.clone(),
            conllu: args.conllu.clone(),
            source: args.src.clone(),
            reference: args.reference.clone(),
            permutations: args.permutations as usize,
            seed: args.seed,
            confidence: args.confidence,
            align_model: args.align_model.clone(),
            parsing: args.parsing.parsing(args.quiet.quiet),
        },
        out: args
            .out
            .clone()
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| sets.clone()),
        items: args.items.clone().map(std::path::PathBuf::from),
        quiet: args.quiet.quiet,
        wide: args.wide,
    })))
}

/// `values` trimmed and lowercased, empty entries left out.
fn lower(values: &[String]) -> Vec<String> {
    values
        .iter()
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

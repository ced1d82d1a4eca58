//! The handlers of `extract` and `run`: the plan, then the library, then the printer.

use std::path::Path;

use ldd_sets::error::Result;
use ldd_sets::pipeline::{corpus_jobs, extract_corpus, run_corpora, OneCorpus, Parsing, Progress};
use ldd_sets::printer;

use super::args::extract::{ExtractArgs, RunArgs};
use super::plan;

pub fn extract(args: ExtractArgs) -> Result<()> {
    let p = plan::extract(&args)?;
    let quiet = p.quiet;
    let corpus = OneCorpus {
        source: p.source,
        target: p.target,
        conllu: p.conllu,
        trust_conllu: p.trust_conllu,
    };
    let parsing = Parsing {
        model: p.stages.pair.model.clone(),
        settings: p.stages.parse,
        shard: p.stages.shard,
    };
    let languages = &p.languages;
    let report = extract_corpus(
        corpus,
        &parsing,
        languages,
        &p.stages.sets,
        &p.stages.controls,
        p.out,
    )?;
    if !quiet {
        for note in printer::extract::tree_notes(&report.corpus) {
            printer::say(&note);
        }
        printer::out(&printer::extract::extract_summary(&report, report.seconds));
        if let Some(note) = printer::extract::later_note(&report) {
            printer::say(&note);
        }
        if report.shard.is_none() {
            let next = printer::extract::next_steps(&[&report.out], languages.target());
            printer::out(&next);
        }
    }
    Ok(())
}

pub fn run(args: RunArgs) -> Result<()> {
    let p = plan::run(&args)?;
    let quiet = p.quiet;
    let jobs = corpus_jobs(&p.stages.pair, &p.corpora, p.only.as_deref(), &p.out)?;
    let parsing = Parsing {
        model: p.stages.pair.model.clone(),
        settings: p.stages.parse,
        shard: p.stages.shard,
    };
    let languages = &p.languages;
    let report = run_corpora(
        &jobs,
        languages,
        &p.stages.sets,
        &p.stages.controls,
        &parsing,
        p.replace,
        &mut |progress| match progress {
            _ if quiet => {}
            Progress::Starting(c) => printer::say(&printer::extract::corpus_starting(c)),
            Progress::Done(r) => {
                printer::out(&printer::extract::corpus_heading(&r.corpus.name));
                printer::out(&printer::extract::extract_summary(
                    &r.report,
                    r.extract_seconds,
                ));
                if let Some(note) = printer::extract::later_note(&r.report) {
                    printer::say(&note);
                }
            }
        },
    )?;
    if !quiet {
        printer::out(&printer::extract::run_timing(&report));
        if p.stages.shard.is_none() {
            // A test set's sets first (the corpus systems are scored on), as the README does.
            let mut corpora: Vec<_> = report.corpora.iter().collect();
            corpora.sort_by_key(|c| !p.stages.pair.is_test(&c.corpus.name));
            let dirs: Vec<&Path> = corpora.iter().map(|c| c.report.out.as_path()).collect();
            printer::out(&printer::extract::next_steps(&dirs, languages.target()));
        }
    }
    Ok(())
}

//! The handlers of `extract` and `run`: the plan, then the library, then the printer.

use std::path::Path;
use std::time::Instant;

use ldd_sets::error::Result;
use ldd_sets::parse::find_model;
use ldd_sets::pipeline::{
    corpus_jobs, extract as extract_sets, prepare_corpus, run as run_corpora, CorpusFiles, Parsing,
    Progress, Trees,
};
use ldd_sets::printer;

use super::args::extract::{ExtractArgs, RunArgs};
use super::plan;

pub fn extract(a: ExtractArgs) -> Result<()> {
    let mut p = plan::extract(&a)?;
    let quiet = p.quiet;
    let trees = match p.conllu.take() {
        Some(c) => Trees::Given(c),
        None => {
            let model = find_model(p.stages.pair.model.as_ref(), &p.stages.parse)?;
            p.out.protect.push(model.clone());
            Trees::Parse(model)
        }
    };
    let prepared = prepare_corpus(&p.source, trees, &p.stages.parse, p.stages.shard)?;
    let corpus = CorpusFiles {
        source: p.source,
        target: p.target,
        conllu: prepared.conllu,
        trust_conllu: p.trust_conllu,
        shard: prepared.shard,
    };
    let languages = &p.languages;
    let start = Instant::now();
    let report = extract_sets(
        &corpus,
        languages,
        &p.stages.sets,
        &p.stages.controls,
        &p.out,
    )?;
    if !quiet {
        for note in printer::extract::tree_notes(&report.corpus) {
            printer::say(&note);
        }
        printer::out(&printer::extract::extract_summary(
            &report,
            start.elapsed().as_secs_f64(),
        ));
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

pub fn run(a: RunArgs) -> Result<()> {
    let p = plan::run(&a)?;
    let quiet = p.quiet;
    let jobs = corpus_jobs(&p.stages.pair, &p.corpora, p.only.as_deref(), &p.out)?;
    let parsing = Parsing {
        model: find_model(p.stages.pair.model.as_ref(), &p.stages.parse)?,
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
            let dirs: Vec<&Path> = report
                .corpora
                .iter()
                .map(|c| c.report.out.as_path())
                .collect();
            printer::out(&printer::extract::next_steps(&dirs, languages.target()));
        }
    }
    Ok(())
}

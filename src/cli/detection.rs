//! The handler of `check-detection`: the plan, then the library, then the printer.

use super::args::detection::CheckDetectionArgs;
use super::plan;
use ldd_sets::error::Result;
use ldd_sets::pipeline::detect::check::{check, Parse};
use ldd_sets::pipeline::parse::find_model;
use ldd_sets::pipeline::parse::gold::parse_gold_text;
use ldd_sets::pipeline::write::detection::record;
use ldd_sets::printer;

pub fn check_detection(args: CheckDetectionArgs) -> Result<()> {
    let p = plan::check_detection(&args)?;
    let report = match &p.parsed {
        Some(conllu) => check(
            &p.options,
            &Parse {
                conllu,
                model: None,
            },
        )?,
        None => {
            let model = find_model(p.model.as_ref(), &p.settings)?;
            let (parsed, sentences) = parse_gold_text(&p.options.gold, &model, &p.settings)?;
            if !p.quiet {
                printer::say(&printer::detection::parsed(
                    &p.options.gold,
                    sentences,
                    &parsed,
                ));
            }
            let sha = parsed.entry.model_sha256.as_str();
            let parse = Parse {
                conllu: &parsed.conllu,
                model: Some((&model, sha)),
            };
            check(&p.options, &parse)?
        }
    };
    if let Some(file) = &p.record {
        let quiet = p.quiet;
        record(&report, file, &mut |pid| {
            if !quiet {
                printer::say(&printer::detection::waiting(file, pid));
            }
        })?;
        if !p.quiet {
            printer::say(&printer::detection::recorded(file));
        }
    }
    if p.json {
        printer::out(&report.to_json());
    } else {
        printer::out(&printer::detection::table(&report, p.show));
    }
    Ok(())
}

//! The plan of `permute`.

use ldd_sets::config::Languages;
use ldd_sets::error::Result;
use ldd_sets::permute::{PermuteOptions, Sigma};

use super::super::args::permute::PermuteArgs;

/// `permute`'s plan.
pub struct PermutePlan {
    /// The corpus, the length kept, σ, the split and the output directory.
    pub options: PermuteOptions,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `permute`'s plan: the language codes and `--permutation` read.
pub fn permute(args: &PermuteArgs) -> Result<PermutePlan> {
    Ok(PermutePlan {
        options: PermuteOptions {
            languages: Languages::new(&args.src_lang, &args.tgt_lang)?,
            sigma: sigma(args.permutation.as_deref())?,
            source: args.src.clone(),
            target: args.tgt.clone(),
            length: usize::from(args.length),
            seed: args.seed,
            test: args.test as usize,
            dev: args.dev as usize,
            out: args.out.to_path_buf(),
        },
        quiet: args.quiet.quiet,
    })
}

/// `P0,P1,..` or `paper`.
fn sigma(value: Option<&str>) -> Result<Sigma> {
    let Some(value) = value else {
        return Ok(Sigma::Seeded);
    };
    if value == "paper" {
        return Ok(Sigma::Paper);
    }
    value
        .split(',')
        .map(|p| {
            p.trim().parse::<usize>().map_err(|_| {
                ldd_sets::Error::Config(format!(
                    "--permutation: `{}` is not a position (0-based whole numbers, \
                     comma-separated, or `paper`)",
                    ldd_io::error::quote(p, 20)
                ))
            })
        })
        .collect::<Result<Vec<usize>>>()
        .map(Sigma::Given)
}

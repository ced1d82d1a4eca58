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
pub fn permute(a: &PermuteArgs) -> Result<PermutePlan> {
    Ok(PermutePlan {
        options: PermuteOptions {
            languages: Languages::new(&a.src_lang, &a.tgt_lang)?,
            sigma: sigma(a.permutation.as_deref())?,
            source: a.src.clone(),
            target: a.tgt.clone(),
            length: usize::from(a.length),
            seed: a.seed,
            test: a.test as usize,
            dev: a.dev as usize,
            out: a.out.clone(),
        },
        quiet: a.quiet.quiet,
    })
}

/// `P0,P1,..` or `paper`.
fn sigma(s: Option<&str>) -> Result<Sigma> {
    let Some(s) = s else {
        return Ok(Sigma::Seeded);
    };
    if s == "paper" {
        return Ok(Sigma::Paper);
    }
    s.split(',')
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

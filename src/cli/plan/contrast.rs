//! The plan of `contrast`.

use std::path::PathBuf;

use ldd_sets::config::contrast::ContrastConfig;
use ldd_sets::contrast::ContrastOptions;
use ldd_sets::error::Result;
use ldd_sets::pipeline::parse::TargetModel;
use ldd_sets::pipeline::read::sets::Loaded;

use super::super::args::contrast::ContrastArgs;

/// `contrast`'s plan.
pub struct ContrastPlan {
    /// The sets directory.
    pub sets: PathBuf,
    /// The output directory.
    pub out: PathBuf,
    /// The variant rules (`--variants`, else the built-in ones), read.
    pub config: ContrastConfig,
    /// The target language's tagger, loaded once the sets name that language.
    pub target_model: Option<TargetModel>,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `contrast`'s plan: the variant rules read and checked.
pub fn contrast(args: &ContrastArgs) -> Result<ContrastPlan> {
    let config = match &args.variants {
        Some(f) => ContrastConfig::load(f)?,
        None => ContrastConfig::builtin()?,
    };
    Ok(ContrastPlan {
        sets: args.sets.clone(),
        out: args.out.to_path_buf(),
        config,
        target_model: args.target_model.clone(),
        quiet: args.quiet.quiet,
    })
}

impl ContrastPlan {
    /// The library's options for the `loaded` sets: `--target-model` loaded for their target
    /// language.
    pub fn options(self, loaded: &Loaded) -> Result<ContrastOptions> {
        let tagger = match &self.target_model {
            Some(m) => Some(m.load(loaded.manifest.languages.target())?),
            None => None,
        };
        // The references are parsed by the same model (else the registry's, when at
        // hand), as locus accuracy parses them: the variants change the words it judges.
        let model = match self.target_model {
            Some(m) => ldd_sets::pipeline::parse::TargetChoice::Given(m),
            None => ldd_sets::pipeline::parse::TargetChoice::AtHand,
        };
        Ok(ContrastOptions {
            out: self.out,
            config: self.config,
            tagger,
            parsing: ldd_sets::locus::Parsing {
                model,
                cache: None,
                quiet: self.quiet,
            },
        })
    }
}

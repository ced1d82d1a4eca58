//! The arguments of `contrast`, as typed (the plan reads them).

use std::path::{Path, PathBuf};

use clap::Args;

use ldd_sets::pipeline::parse::TargetModel;

use super::{given, Common, QuietArgs};
use ldd_io::Output;

use super::outputs::{self, output};

#[derive(Args)]
pub struct ContrastArgs {
    /// Output directory of `ldd-sets extract` (made with the aligner, so that its locus
    /// files name the reference words).
    #[arg(long, value_name = "DIR")]
    pub sets: PathBuf,
    /// Output directory: items.jsonl, contrast.SRC, contrast.TGT, contrapro.json (ContraPro's
    /// evaluate.py), lingeval97.json (LingEval97's evaluate.py and json_to_plaintext.py),
    /// aces.jsonl and aces.tsv (ACES's aces-score / aces-eval), contrast.json. Replaced as a
    /// whole, and only if `contrast` wrote it.
    #[arg(long, value_name = "DIR", value_parser = output(&outputs::CONTRAST))]
    pub out: Output,
    /// Variant rules replacing the built-in config/contrast.toml: the variant types of each
    /// phenomenon and the reflexive pronouns of each target language (a word list, and each
    /// pronoun's UD features for --target-model).
    #[arg(long, value_name = "FILE")]
    pub variants: Option<PathBuf>,
    /// A UDPipe model of the target language (a bare file name not in the current
    /// directory is looked up in the models directory, $LDD_SETS_MODELS), or `auto`: the
    /// registry's, from the models directory; never downloaded. The references are tagged, and `replaced` variants
    /// go by UD features: only a token tagged as a reflexive pronoun is replaced, by every
    /// pronoun of the same case and another person or number ([by_features] and
    /// [pronouns] in the variant rules) [default: the word list of the variant rules]
    #[arg(long, value_name = "FILE|auto", value_parser = TargetModel::parse)]
    pub target_model: Option<TargetModel>,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

impl Common for ContrastArgs {
    fn inputs(&self) -> Vec<&Path> {
        let model = match &self.target_model {
            Some(TargetModel::File(f)) => Some(f),
            _ => None,
        };
        given([self.variants.as_ref(), model])
    }
}

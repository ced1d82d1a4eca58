//! The plan of `merge`.

use ldd_sets::pipeline::merge::MergeOptions;

use super::super::args::merge::MergeArgs;

/// `merge`'s plan.
pub struct MergePlan {
    /// The shards, the merged output and the parse cache.
    pub options: MergeOptions,
    /// Print nothing but errors.
    pub quiet: bool,
}

/// `merge`'s plan: the flags as given (the shards are checked against each other when
/// read).
pub fn merge(args: &MergeArgs) -> MergePlan {
    MergePlan {
        options: MergeOptions {
            shards: args.shards.clone(),
            out: args.out.to_path_buf(),
            cache: args.cache.clone().map(std::path::PathBuf::from),
        },
        quiet: args.quiet.quiet,
    }
}

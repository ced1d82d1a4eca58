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
pub fn merge(a: &MergeArgs) -> MergePlan {
    MergePlan {
        options: MergeOptions {
            shards: a.shards.clone(),
            out: a.out.clone(),
            cache: a.cache.clone(),
        },
        quiet: a.quiet.quiet,
    }
}

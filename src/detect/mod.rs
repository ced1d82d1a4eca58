//! Stage 3, **detect**: where the long-distance dependencies are.
//!
//! What enters: parsed sentences (lexical LDD; [`mod@line`] parses and checks each corpus
//! line's tree) and the token sequences of sentence pairs (reordering LDD). What leaves:
//! [`rules::Match`]es — a dependent, its head and the distance between them — for every
//! phenomenon of the [`rules::RuleSet`], and per pair the largest reordering found by word
//! alignment ([`alignment`], with the aligner obtained once — loaded, cached or trained —
//! by [`aligner_cache`]; [`reorder`]). Which rules run is resolved once, for every command
//! ([`select`]); rules are data ([`rules`]), matched by [`matcher`]. [`check`] measures
//! detection on a parser's trees against gold trees (`check-detection`).

pub mod aligner_cache;
pub mod alignment;
pub mod check;
pub mod line;
pub mod locus;
pub mod matcher;
pub mod reorder;
pub mod rules;
pub mod select;

/// The value among `all` whose `name` is `s` (the `FromStr` of the option enums), or an
/// error listing every name.
fn by_name<T: Copy>(all: &[T], name: fn(T) -> &'static str, s: &str) -> Result<T, String> {
    all.iter().copied().find(|&v| name(v) == s).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|&v| name(v)).collect();
        format!("`{s}`: expected one of {}", names.join(", "))
    })
}

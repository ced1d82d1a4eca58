//! Tables as what they show, before any format: the set-size, score, trend and distance
//! tables built once — from the manifest's sets, the scores and the recorded distances —
//! and rendered as text by [`crate::printer`], as HTML and LaTeX by [`crate::report`], and
//! as CSV by the files that hold them (`summary.csv` by [`crate::write`], `scores.csv` by
//! [`crate::score`]).
//!
//! What enters: [`crate::format`]'s records (a run's sets, its scores, the recorded pair
//! distances, the reordering measures).
//! What leaves: typed rows and cells of each table; no text is formatted here.

pub mod distances;
pub mod scores;
pub mod sizes;

pub use scores::{ScoreLine, ScoreTable, ScoreView};
pub use sizes::{SizeRow, Sizes};

//! Tables as what they show, before any format: the set-size, score, trend and distance
//! tables built once — from the manifest's sets, the scores and the recorded distances —
//! and rendered as text by [`crate::printer`], as HTML and LaTeX by [`crate::report`], and
//! as CSV by the files that hold them (`summary.csv` by [`crate::pipeline::write`], `scores.csv` by
//! [`crate::score`]).
//!
//! What enters: [`crate::format`]'s records (a run's sets, its scores, the recorded pair
//! distances, the reordering measures).
//! What leaves: typed rows and cells of each table; no text is formatted here.
//!
//! In short (what enters → what leaves): the tables as what they show, before any format,
//! built once and rendered by every format: the set sizes (`sizes::Sizes`, a row per
//! phenomenon with its `ge` and `eq` sets; the printer's summary, the report's HTML and
//! LaTeX tables, `summary.csv` written by `write::summary`), the scores and trends
//! (`scores::ScoreView`, a table per metric with a line per corpus/set and a cell per
//! system; `score`'s table, the report's HTML and LaTeX, `scores.csv` in the file's row
//! order), the distances (`distances`: each phenomenon's pairs and each reordering
//! measure's lines binned for the histograms). No renderer joins the records itself
//! (`tests/architecture.rs`: `the_tables_are_built_once_in_view`)

pub mod distances;
pub mod scores;
pub mod sizes;

pub use scores::{ScoreLine, ScoreTable, ScoreView};
pub use sizes::{SizeRow, Sizes};

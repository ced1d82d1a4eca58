//! What ldd-sets prints, rendered as text by one module (the commands only print it):
//! `extract`'s, `run`'s and `merge`'s summaries ([`extract`]), `score`'s tables, summary
//! and numbers ([`score_table`], laid out by [`grid`]) and its notes, and `compare`'s table
//! ([`scores`]), `align --gold`'s scores ([`align`]), what `sheets` and `tally`
//! print ([`judge`]), `contrast`'s and `permute`'s summaries ([`contrast`], [`permute`]),
//! `check-detection`'s table ([`detection`]), and the registry of models ([`languages`]).
//!
//! It is also the one sink of everything ldd-sets writes on stdout and stderr: the commands
//! hand their text to [`out`] and their notes and warnings to [`say`], and the library's
//! messages reach [`say`] through `ldd_io::message::say` (the binary sets the sink
//! with `ldd_io::message::set_sink`); no other module prints (`tests/architecture.rs`).
//!
//! What enters: what a command did (its report). What leaves: its text on stdout and the
//! notes on stderr.
//!
//! In short (what enters → what leaves): the one sink of stdout and stderr (`out`, `say`;
//! the libraries' messages reach `say` through `ldd_io::message`, and no other module
//! prints: `tests/architecture.rs`), and everything the commands print, as text:
//! `extract`'s, `run`'s and `merge`'s summaries, `score`'s and `compare`'s tables, `align
//! --gold`'s scores, `sheets`' summary and `tally`'s table, `contrast`'s and `permute`'s
//! summaries, the `languages` registry, and every note, warning and error line a command
//! prints (the handlers of `cli/` hand the sinks only what a printer function rendered:
//! `tests/architecture.rs`)

pub mod align;
pub mod contrast;
pub mod detection;
pub mod extract;
pub mod grid;
pub mod judge;
pub mod languages;
pub mod mqm;
pub mod permute;
pub mod score_table;
pub mod scores;
mod trends;

/// The line saying a command wrote its file: `report written to PATH`.
pub fn written(what: &str, path: &std::path::Path) -> String {
    format!("{what} written to {}\n", ldd_io::error::shown(path))
}

/// The line of a command that failed: `ldd-sets: error: ` and the error (control
/// characters escaped, its lines kept).
pub fn error(error: &crate::error::Error) -> String {
    format!(
        "ldd-sets: error: {}",
        ldd_io::error::escape_except(&error.to_string(), Some('\n'))
    )
}

/// The warning when the signal handlers cannot be installed.
pub fn no_interrupt_handling(error: &dyn std::fmt::Display) -> String {
    format!(
        "ldd-sets: warning: cannot handle interrupts ({error}); an interrupted run may leave \
         temporary files"
    )
}

/// Writes `text` on stdout as it is (a command's result: tables, summaries, next steps).
pub fn out(text: &str) {
    print!("{text}");
}

/// Writes `line` and a newline on stderr (a note, a warning, what a stage did).
pub fn say(line: &str) {
    eprintln!("{line}");
}

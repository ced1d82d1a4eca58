//! The one channel through which the libraries tell the user what they do on the way (a
//! note, a download, a progress line in a log, a stale temporary removed): they call
//! [`say`], and the binary sets where it goes with [`set_sink`] (its printer, which writes
//! it on stderr). Without a sink nothing is written: a library prints nothing itself.

use std::sync::OnceLock;

/// Where [`say`] sends its lines: set once by the binary ([`set_sink`]).
static SINK: OnceLock<fn(&str)> = OnceLock::new();

/// Sends every line [`say`] is given to `sink`; the first call wins.
pub fn set_sink(sink: fn(&str)) {
    let _ = SINK.set(sink);
}

/// Tells the user `line` (without its newline) through the sink set with [`set_sink`];
/// nothing without one.
pub fn say(line: &str) {
    if let Some(sink) = SINK.get() {
        sink(line);
    }
}

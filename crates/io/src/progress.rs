//! Every progress bar ldd-sets shows, in one style: what runs, the time it has run, a bar,
//! done and total in the stage's unit, the percentage, the rate and the time left —
//!
//! ```text
//! parsing  1:12 ██████████░░░░░░░░░░  5,120/13,000 sentences  39% (71/s, ETA 1:51)
//! ```
//!
//! On a terminal the bar is redrawn several times a second (and at least every half
//! second, so the clock moves while a slow first step runs); when stderr is a file or a
//! pipe (a log, a cluster job), the same line without the bar is written every
//! [`LOG_EVERY`] instead, so a long stage is never silent. Nothing with `--quiet`. Stages
//! report by advancing the bar ([`ProgressBar::inc`], safe from many threads); rates and
//! times are formatted by [`rate`] and [`clock`] (whole numbers, thousands separated).
//!
//! In short (what enters → what leaves): the one style of every progress bar on stderr
//! (what runs, clock, bar, done/total, percentage, rate, ETA; a line every 30 s when stderr
//! is not a terminal); stages advance the bars they are given

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use indicatif::ProgressBar;
use indicatif::{ProgressDrawTarget, ProgressState, ProgressStyle};

/// How often a progress line is written when stderr is not a terminal.
pub const LOG_EVERY: Duration = Duration::from_secs(30);

/// A progress bar on stderr for `what` (e.g. `parsing`) counting `unit`s (e.g.
/// `sentences`) towards `total` (`None`: not known yet; the stage may set it with
/// [`ProgressBar::set_length`]); `None` when `quiet`.
pub fn bar(what: &str, unit: &str, total: Option<u64>, quiet: bool) -> Option<ProgressBar> {
    if quiet {
        return None;
    }
    let terminal = std::io::stderr().is_terminal();
    let target = if terminal {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::term_like_with_hz(Box::new(Log::default()), 1)
    };
    let bar = ProgressBar::with_draw_target(total, target);
    bar.set_style(style(unit, terminal));
    bar.set_prefix(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(500));
    Some(bar)
}

/// The style of every bar: `what clock [bar] status`, the bar on terminals only.
pub fn style(unit: &str, with_bar: bool) -> ProgressStyle {
    let template = if with_bar {
        "{prefix} {clock} {wide_bar} {status}"
    } else {
        "ldd-sets: {prefix} {clock}: {status}"
    };
    let unit = unit.to_string();
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("█▓░")
        .with_key("clock", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&clock(s.elapsed()));
        })
        .with_key(
            "status",
            move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&status(s.pos(), s.len(), &unit, s.per_sec(), s.eta()));
            },
        )
}

/// `done/total unit  pct% (rate, ETA t)`, or `done unit (rate)` while the total is not
/// known; the ETA is `-` until there is a rate.
pub fn status(done: u64, total: Option<u64>, unit: &str, per_sec: f64, eta: Duration) -> String {
    let mut s = String::new();
    match total {
        Some(total) => {
            let pct = (done.min(total) * 100).checked_div(total).unwrap_or(100);
            let eta = if per_sec > 0.0 && per_sec.is_finite() {
                clock(eta)
            } else {
                "-".to_string()
            };
            let _ = write!(
                s,
                "{}/{} {unit} {pct:>3}% ({}, ETA {eta})",
                thousands(done),
                thousands(total),
                rate(per_sec)
            );
        }
        None => {
            let _ = write!(s, "{} {unit} ({})", thousands(done), rate(per_sec));
        }
    }
    s
}

/// A rate per second, legibly: `1,234/s`, `71/s`, `7.3/s`, `0.4/s`.
pub fn rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        return "-/s".to_string();
    }
    if per_sec >= 9.95 {
        format!("{}/s", thousands(per_sec.round() as u64))
    } else {
        format!("{per_sec:.1}/s")
    }
}

/// A duration as `m:ss`, or `h:mm:ss` from an hour.
pub fn clock(duration: Duration) -> String {
    let t = duration.as_secs();
    let (h, m, s) = (t / 3600, t / 60 % 60, t % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// A count with thousands separated by commas: `13,000`.
pub fn thousands(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A draw target for stderr that is not a terminal: the bar's line, written as a line
/// of its own at most every `every` ([`LOG_EVERY`]) — to stderr, or (tests) to a buffer.
#[derive(Debug)]
struct Log {
    /// Least time between two lines written.
    every: Duration,
    /// Where lines go: `None` is stderr.
    to: Option<std::sync::Arc<Mutex<String>>>,
    /// The line being drawn, and when a line was last written (`None`: when the bar
    /// started).
    state: Mutex<(String, Option<Instant>)>,
}

impl Default for Log {
    fn default() -> Self {
        Log {
            every: LOG_EVERY,
            to: None,
            state: Mutex::default(),
        }
    }
}

impl indicatif::TermLike for Log {
    fn width(&self) -> u16 {
        120
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, text: &str) -> std::io::Result<()> {
        self.write_str(text)
    }
    fn write_str(&self, text: &str) -> std::io::Result<()> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.0.push_str(text);
        Ok(())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let line = std::mem::take(&mut st.0);
        let now = Instant::now();
        let last = *st.1.get_or_insert(now);
        if now.duration_since(last) >= self.every && !line.trim().is_empty() {
            st.1 = Some(now);
            match &self.to {
                None => crate::message::say(line.trim_end()),
                Some(buf) => {
                    let mut b = buf.lock().unwrap_or_else(|e| e.into_inner());
                    b.push_str(line.trim_end());
                    b.push('\n');
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parse bar's text: total, percentage, a whole rate and an ETA (the issue's bar
    /// had none of them and a rate with four decimals).
    #[test]
    fn status_has_total_percentage_rate_and_eta() {
        assert_eq!(
            status(
                9216,
                Some(13_000),
                "sentences",
                70.8627,
                Duration::from_secs(53)
            ),
            "9,216/13,000 sentences  70% (71/s, ETA 0:53)"
        );
        assert_eq!(
            status(9216, None, "sentences", 70.8627, Duration::ZERO),
            "9,216 sentences (71/s)"
        );
        assert_eq!(
            status(0, Some(13_000), "sentences", 0.0, Duration::ZERO),
            "0/13,000 sentences   0% (-/s, ETA -)"
        );
        assert_eq!(
            status(5, Some(0), "pairs", 1.0, Duration::ZERO),
            "5/0 pairs 100% (1.0/s, ETA 0:00)"
        );
    }

    #[test]
    fn rates_clocks_and_counts_are_legible() {
        assert_eq!(rate(70.8627), "71/s");
        assert_eq!(rate(12_345.6), "12,346/s");
        assert_eq!(rate(7.25), "7.2/s");
        assert_eq!(rate(9.96), "10/s");
        assert_eq!(rate(f64::INFINITY), "-/s");
        assert_eq!(clock(Duration::from_secs(272)), "4:32");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    /// The bar as drawn carries what runs, the clock, the count with its total and the
    /// percentage: drawn through the style, with and without the bar, onto a log that
    /// keeps every line.
    #[test]
    fn the_style_renders_the_status() {
        for with_bar in [true, false] {
            let buf = std::sync::Arc::new(Mutex::new(String::new()));
            let log = Log {
                every: Duration::ZERO,
                to: Some(buf.clone()),
                state: Mutex::default(),
            };
            let target = ProgressDrawTarget::term_like(Box::new(log));
            let bar = ProgressBar::with_draw_target(Some(2000), target);
            bar.set_style(style("sentences", with_bar));
            bar.set_prefix("parsing");
            bar.set_position(500);
            bar.tick();
            let shown = buf.lock().unwrap().clone();
            let shown = shown.lines().last().unwrap_or_default().to_string();
            if with_bar {
                assert!(shown.starts_with("parsing 0:00 █"), "{shown}");
                assert!(shown.contains("░ 500/2,000 sentences  25% ("), "{shown}");
            } else {
                assert!(
                    shown.starts_with("ldd-sets: parsing 0:00: 500/2,000 sentences  25% ("),
                    "{shown}"
                );
            }
            assert!(shown.contains("/s, ETA "), "{shown}");
        }
    }
}

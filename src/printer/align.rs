//! What the aligner prints: its progress and notes as it trains and aligns (stderr), and
//! for `align --gold` the warnings about the gold alignments read (stderr) and the scores
//! against them (stdout).

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use ldd_align::{AerScores, Gold, Stage};

use crate::pipeline::align::{AlignOptions, Event, ModelType};

/// The warnings about `gold`, read from `path`, one a line: links outside their sentence
/// pair (left out), and sentence pairs without a gold link.
pub fn gold_warnings(gold: &Gold, path: &Path) -> Vec<String> {
    let shown = ldd_io::error::shown(path);
    let mut out: Vec<String> = gold
        .outside
        .iter()
        .map(|o| format!("ldd-sets: warning: {shown}:{}: {o}; left out", o.line))
        .collect();
    let unlinked = gold
        .sentences
        .iter()
        .filter(|g| g.sure.is_empty() && g.possible.is_empty())
        .count();
    if unlinked > 0 {
        out.push(format!(
            "ldd-sets: warning: {shown}: {unlinked} of {} sentence pairs have no gold link, so \
             every link aligned in them counts against precision (is the gold for part of the \
             corpus only?)",
            gold.sentences.len()
        ));
    }
    out
}

/// The gold alignments read from `path` (`base`: their first index; `order`: `src-tgt`
/// or `tgt-src`), the alignments of `options` and their `scores`: AER, precision and recall.
pub fn gold_summary(
    gold: &Gold,
    path: &Path,
    (base, order): (u8, &str),
    options: &AlignOptions,
    scores: &AerScores,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "gold {} ({}, {base}-based, {order}): {} sentence pairs, {} sure and {} possible links{}{}",
        ldd_io::error::shown(path),
        gold.format,
        gold.sentences.len(),
        scores.sure_links,
        scores.possible_links - scores.sure_links,
        match gold.outside.len() {
            0 => String::new(),
            n => format!("; {n} outside their sentence pair, left out"),
        },
        match gold.null_links {
            0 => String::new(),
            n => format!("; {n} to NULL, ignored"),
        },
    );
    let _ = writeln!(
        out,
        "alignment {}{}: {} links",
        options.direction,
        if options.lowercase {
            ", lowercased"
        } else {
            ""
        },
        scores.hyp_links
    );
    let _ = writeln!(
        out,
        "AER {:.4}  precision {:.4}  recall {:.4}  (|A∩S| {}, |A∩P| {})",
        scores.aer, scores.precision, scores.recall, scores.hyp_sure, scores.hyp_possible
    );
    out
}

/// The aligner's progress on stderr (the `progress` of [`AlignOptions`]): a line per
/// training pass with its time and what is left, the table's size, notes; on a terminal the
/// pass under way is also redrawn in place with its percentage and time left.
pub fn progress() -> impl Fn(&Event<'_>) + Send + Sync + 'static {
    let shown = Mutex::new(Shown {
        tty: std::io::stderr().is_terminal(),
        pass: None,
        drawn: None,
    });
    move |e: &Event<'_>| {
        if let Ok(mut s) = shown.lock() {
            s.event(e);
        }
    }
}

/// What the progress display knows of the pass under way.
struct Pass {
    pass: u32,
    passes: u32,
    stage: Stage,
    start: Instant,
}

struct Shown {
    tty: bool,
    pass: Option<Pass>,
    /// When the live line was last drawn (a line is on screen).
    drawn: Option<Instant>,
}

impl Shown {
    fn event(&mut self, event: &Event<'_>) {
        use ldd_align::Event as A;
        match *event {
            Event::Aligner(A::Pass {
                pass,
                passes,
                stage,
            }) => {
                self.pass = Some(Pass {
                    pass,
                    passes,
                    stage,
                    start: Instant::now(),
                })
            }
            Event::Aligner(A::Progress { done, total }) => self.draw(done, total),
            Event::Aligner(A::PassDone) => {
                if let Some(p) = self.pass.take() {
                    if p.stage != Stage::Align {
                        self.line(&pass_done(&p));
                    }
                }
            }
            _ => {
                if let Some(text) = describe(event) {
                    self.line(&text);
                }
            }
        }
    }

    /// Redraws the live line, at most five times a second, on a terminal.
    fn draw(&mut self, done: u64, total: u64) {
        let (Some(p), true) = (&self.pass, self.tty) else {
            return;
        };
        if self.drawn.is_some_and(|t| t.elapsed().as_millis() < 200) || total == 0 {
            return;
        }
        let frac = done as f64 / total as f64;
        let spent = p.start.elapsed().as_secs_f64();
        let left = if frac > 0.0 {
            format!(", {} left", duration(spent * (1.0 - frac) / frac))
        } else {
            String::new()
        };
        eprint!(
            "\r\x1b[Kldd-sets: aligner: {}: {:.0}%{left}",
            pass_name(p),
            100.0 * frac
        );
        self.drawn = Some(Instant::now());
    }

    /// Prints a whole line (clearing the live line first).
    fn line(&mut self, text: &str) {
        if self.drawn.take().is_some() {
            eprint!("\r\x1b[K");
        }
        eprintln!("{text}");
    }
}

/// A pass as the display names it.
fn pass_name(pass: &Pass) -> String {
    let what = match pass.stage {
        Stage::Count => "counting word pairs (IBM Model 1, iteration 1)".to_string(),
        Stage::Ibm1 {
            reverse,
            iteration,
            of,
        } => format!(
            "IBM Model 1 {}, iteration {iteration} of {of}",
            if reverse { "reverse" } else { "forward" }
        ),
        Stage::Hmm { iteration, of } => format!("HMM, iteration {iteration} of {of}"),
        Stage::FastAlign {
            reverse,
            iteration,
            of,
        } => format!(
            "fast_align {}, iteration {iteration} of {of}",
            if reverse { "reverse" } else { "forward" }
        ),
        Stage::Align => "aligning".to_string(),
    };
    if pass.passes > 1 {
        format!("pass {}/{} ({what})", pass.pass, pass.passes)
    } else {
        what
    }
}

/// The line of a finished pass: its time, and (roughly: every pass like it) what is left.
fn pass_done(pass: &Pass) -> String {
    let spent = pass.start.elapsed().as_secs_f64();
    let left = pass.passes - pass.pass;
    let rest = if left > 0 {
        format!(", about {} left", duration(spent * f64::from(left)))
    } else {
        String::new()
    };
    format!(
        "ldd-sets: aligner: {} done in {:.1} s{rest}",
        pass_name(pass),
        spent
    )
}

/// Seconds as `12 s`, `3 min 5 s` or `1 h 2 min`.
fn duration(seconds: f64) -> String {
    let seconds = seconds.max(0.0).round() as u64;
    match seconds {
        0..60 => format!("{seconds} s"),
        60..3600 => format!("{} min {} s", seconds / 60, seconds % 60),
        _ => format!("{} h {} min", seconds / 3600, seconds % 3600 / 60),
    }
}

/// The line that training starts: the model, its pairs and EM iterations.
fn training(pairs: u64, model: ModelType, iterations: (u32, u32)) -> String {
    match model {
        ModelType::Hmm => format!(
            "ldd-sets: training the HMM aligner (both directions by agreement) on {pairs} \
             sentence pairs ({} IBM1 + {} HMM EM iterations)...",
            iterations.0, iterations.1
        ),
        ModelType::FastAlign => format!(
            "ldd-sets: training fast_align's aligner on {pairs} sentence pairs ({} EM \
             iterations a direction)...",
            iterations.0
        ),
    }
}

/// The note on pairs over `--align-max-tokens`: what becomes of them with each model.
fn too_long(pairs: u64, max_tokens: usize, model: ModelType, huge: u64) -> String {
    match model {
        ModelType::Hmm => format!(
            "ldd-sets: note: {pairs} sentence pairs with more than {max_tokens} tokens on a \
             side were left out of training and not aligned (--align-max-tokens)"
        ),
        ModelType::FastAlign => format!(
            "ldd-sets: note: {pairs} sentence pairs with more than {max_tokens} tokens on a \
             side were left out of training (--align-max-tokens) and aligned one at a \
             time{}",
            if huge > 0 {
                format!(
                    "; {huge} of them, over {} token pairs, were not aligned",
                    ldd_align::MAX_LONG_CELLS
                )
            } else {
                String::new()
            }
        ),
    }
}

/// The line of every event but the passes'.
fn describe(event: &Event<'_>) -> Option<String> {
    Some(match *event {
        Event::Read {
            pairs,
            tokens,
            bytes,
        } => format!(
            "ldd-sets: aligner: {pairs} sentence pairs read ({} + {} tokens), {:.1} MB encoded \
             on disk ({:.2} bytes a token)",
            tokens.0,
            tokens.1,
            bytes as f64 / 1e6,
            bytes as f64 / (tokens.0 + tokens.1).max(1) as f64
        ),
        Event::Sample { trained, of } => format!(
            "ldd-sets: aligner: training on {trained} of the {of} pairs, spread evenly \
             (--align-train-max); all are aligned"
        ),
        Event::Training {
            pairs,
            model,
            iterations,
        } => training(pairs, model, iterations),
        Event::Aligner(ldd_align::Event::Table { seen, kept, bytes }) => format!(
            "ldd-sets: aligner: {seen} word pairs co-occur, {kept} kept ({:.0}%): a table of \
             {:.0} MB",
            100.0 * kept as f64 / seen.max(1) as f64,
            bytes as f64 / 1e6
        ),
        Event::Trained { model, seconds } => format!(
            "ldd-sets: {} aligner trained in {seconds:.1} s",
            match model {
                ModelType::Hmm => "HMM",
                ModelType::FastAlign => "fast_align's",
            }
        ),
        Event::Aligned { pairs, seconds } => {
            format!("ldd-sets: alignment of {pairs} pairs done in {seconds:.1} s")
        }
        Event::TooLong {
            pairs,
            max_tokens,
            model,
            huge,
        } => too_long(pairs, max_tokens, model, huge),
        Event::Cached { pairs, path } => format!(
            "ldd-sets: aligner loaded from the cache, not trained again (trained before on \
             {pairs} sentence pairs of the same files): {}",
            ldd_io::error::shown(path)
        ),
        Event::Waiting { pid } => format!(
            "ldd-sets: waiting for process {pid}, which is training the same aligner into the \
             cache"
        ),
        Event::CacheNotWritable { dir, why } => format!(
            "ldd-sets: note: the aligner cache {} cannot be written ({why}); the aligner is \
             trained for this run and not kept — to keep it, give the parse cache a directory \
             you can write: --cache DIR (or {})",
            ldd_io::error::shown(dir),
            crate::pipeline::parse::CACHE_ENV
        ),
        Event::Unlabelled { path } => format!(
            "ldd-sets: note: {} was saved by an older ldd-sets and does not record its \
             languages; they cannot be checked",
            ldd_io::error::shown(path)
        ),
        Event::Aligner(_) => return None,
    })
}

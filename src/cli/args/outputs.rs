//! The outputs a user names, one [`OutputKind`] per option whose value ldd-sets writes to:
//! how the one guard (`ldd_io::named`) treats it. Every such option has the value type
//! [`Output`], built by [`output`]; the command line checks each one before any work
//! (`super::super::guard`), and its test enumerates them from clap's definitions.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use clap::builder::{OsStringValueParser, TypedValueParser};
use ldd_io::{Output, OutputKind, Shape};

/// The value parser of an option whose value is an output of `kind`.
pub fn output(kind: &'static OutputKind) -> impl TypedValueParser<Value = Output> {
    OsStringValueParser::new().map(move |s| Output::new(s, kind))
}

fn never(_: &Path) -> bool {
    false
}

/// A directory's kind: replaced whole when `is_ours`.
const fn dir(owner: &'static str, is_ours: fn(&Path) -> bool) -> OutputKind {
    OutputKind {
        owner,
        shape: Shape::Dir,
        is_ours,
        replaceable_with_flag: None,
        files: None,
        entries: None,
    }
}

/// A directory files are added to.
const fn into(owner: &'static str) -> OutputKind {
    OutputKind {
        owner,
        shape: Shape::Into,
        is_ours: never,
        replaceable_with_flag: None,
        files: None,
        entries: None,
    }
}

/// A file replaced whole when `is_ours`.
const fn file(owner: &'static str, is_ours: fn(&Path) -> bool) -> OutputKind {
    OutputKind {
        owner,
        shape: Shape::File,
        is_ours,
        replaceable_with_flag: None,
        files: None,
        entries: None,
    }
}

/// A file in a format with no room to say who wrote it: replaced only with `--replace`, and
/// only when it reads as `format`.
const fn plain(owner: &'static str, format: fn(&Path) -> bool) -> OutputKind {
    OutputKind {
        owner,
        shape: Shape::File,
        is_ours: never,
        replaceable_with_flag: Some(format),
        files: None,
        entries: None,
    }
}

pub static SETS: OutputKind = dir("ldd-sets extract", ldd_sets::format::manifest::is_output);
pub static RUN: OutputKind = into("ldd-sets run --out");
pub static MERGED: OutputKind = dir("ldd-sets merge", ldd_sets::format::manifest::is_output);
pub static CONTRAST: OutputKind = OutputKind {
    entries: Some(ldd_sets::layout::is_contrast_file),
    ..dir("ldd-sets contrast", ldd_sets::contrast::is_contrast_dir)
};
pub static SHEETS: OutputKind = OutputKind {
    entries: Some(ldd_sets::layout::is_sheets_file),
    ..dir("ldd-sets sheets", ldd_sets::judge::is_sheets_dir)
};
pub static PERMUTE: OutputKind = dir("ldd-sets permute", ldd_sets::permute::is_permute_dir);
pub static MQM_EXPORT: OutputKind = dir("ldd-sets mqm --export", ldd_sets::judge::is_export_dir);
pub static SCORES: OutputKind = into("ldd-sets score --out");
pub static TALLY: OutputKind = into("ldd-sets tally --out");
pub static MQM: OutputKind = into("ldd-sets mqm --out");
pub static CORPORA: OutputKind = into("ldd-sets corpora --dir");
pub static CACHE: OutputKind = into("ldd-sets --cache");
pub static REPORT: OutputKind = file("ldd-sets report", is_report);
pub static KEY: OutputKind = file("ldd-sets sheets", ldd_sets::format::sheet::is_key_file);
pub static MQM_ITEMS: OutputKind = file("ldd-sets mqm", ldd_sets::judge::mqm_written_by_us);
pub static RECORD: OutputKind = OutputKind {
    shape: Shape::Updated,
    ..file(
        "ldd-sets check-detection",
        ldd_sets::format::detection::is_recorded_file,
    )
};
pub static ALIGNER: OutputKind = OutputKind {
    files: Some(aligner_files),
    ..file("ldd-sets --save-align-model", ldd_align::is_model_file)
};
pub static ALIGNMENTS: OutputKind = plain("ldd-sets align", is_pharaoh);
pub static POSTERIORS: OutputKind = plain("ldd-sets align", is_posteriors);
pub static PARSE: OutputKind = plain("ldd-sets parse", is_conllu);

/// Every file an aligner model prefix names (both model types'): what
/// `--save-align-model PREFIX` may write, and what `--align-model PREFIX` reads.
pub fn aligner_files(prefix: &Path) -> Vec<PathBuf> {
    let mut v = ldd_sets::layout::model_files(prefix, true);
    v.extend(ldd_sets::layout::model_files(prefix, false));
    v
}

/// Whether `path` is a report `report` wrote: HTML naming ldd-sets as its generator, or
/// LaTeX opening with its comment.
fn is_report(path: &Path) -> bool {
    let head = first_lines(path, 8).unwrap_or_default().join("\n");
    head.contains("<meta name=\"generator\" content=\"ldd-sets ") || head.starts_with("% ldd-sets ")
}

/// Whether every line of `path` (the first 1,000) is Pharaoh alignments (`i-j` links).
fn is_pharaoh(path: &Path) -> bool {
    let Some(lines) = first_lines(path, 1000) else {
        return false;
    };
    lines.iter().all(|l| {
        l.split_whitespace().all(|link| {
            link.split_once('-').is_some_and(|(a, b)| {
                [a, b]
                    .iter()
                    .all(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
            })
        })
    })
}

/// Whether every line of `path` (the first 1,000) is link probabilities.
fn is_posteriors(path: &Path) -> bool {
    first_lines(path, 1000).is_some_and(|lines| {
        lines
            .iter()
            .all(|l| l.split_whitespace().all(|x| x.parse::<f64>().is_ok()))
    })
}

/// Whether `path` (plain or gzip) reads as CoNLL-U: comments, and at least one word line of
/// ten columns before the first line that is neither.
fn is_conllu(path: &Path) -> bool {
    for l in first_lines(path, 1000).unwrap_or_default() {
        if l.split('\t').count() == 10 {
            return true;
        }
        if !l.starts_with('#') {
            return false;
        }
    }
    false
}

/// The first `n` lines of `path` (plain or gzip), or none if it cannot be read as text (a
/// binary file, another user's): then it is of no text format.
fn first_lines(path: &Path, n: usize) -> Option<Vec<String>> {
    let input = ldd_io::Input::open(path).ok()?;
    std::io::BufReader::new(std::io::Read::take(input, 4 << 20))
        .lines()
        .take(n)
        .collect::<std::io::Result<Vec<String>>>()
        .ok()
}

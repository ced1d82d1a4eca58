//! Side path **permute**: the data of the method's locality-bias experiment (Choshen &
//! Abend 2019, section 3), which was never released. Systems trained on the same pairs
//! with the source tokens in their order (REGULAR), all moved by one fixed permutation σ
//! (PERMUTED), or reversed (REVERSED) show whether an architecture prefers monotone
//! translation: one without a locality bias scores the same on all three.
//!
//! What enters: a parallel corpus, tokenized (one sentence per line; tokens are separated
//! by whitespace, as Moses' tokenizer writes them). What leaves: the pairs whose source
//! has exactly N tokens (and whose target is not empty), split into train, dev and test by
//! a seeded hash of the line number, in three settings that differ only in the source's
//! token order; the target sides are the same in all three. Two passes over the corpus;
//! memory holds the line numbers of the kept pairs only.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use ldd_eval::rng::splitmix64;
use ldd_io::{FileInfo, Input, Staging};

use crate::config::Languages;
use crate::error::{Error, Result};
use crate::format::permute::{PermuteRecord, Splits, DEFINITION, SETTINGS};
use crate::layout;

/// The permutation of the method's experiment (sentences of 18 tokens): the token at
/// position *i* moves to position `PAPER[i]` (0-based).
pub const PAPER: [usize; 18] = [11, 5, 9, 15, 8, 14, 10, 1, 3, 16, 12, 2, 0, 6, 17, 4, 13, 7];

/// Where σ comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Sigma {
    /// Drawn from the seed (never the identity when N > 1).
    Seeded,
    /// Given: the new position of each token, 0-based.
    Given(Vec<usize>),
    /// The method's σ ([`PAPER`]; N must be 18).
    Paper,
}

/// What `permute` makes.
#[derive(Debug, Clone)]
pub struct PermuteOptions {
    /// Source side (plain or gzip), tokenized.
    pub source: PathBuf,
    /// Target side.
    pub target: PathBuf,
    /// Source and target language codes (the output file extensions).
    pub languages: Languages,
    /// N: the source length kept, in tokens.
    pub length: usize,
    /// Seed of the split and of a drawn σ.
    pub seed: u64,
    /// σ.
    pub sigma: Sigma,
    /// Pairs held out for test.
    pub test: usize,
    /// Pairs held out for dev.
    pub dev: usize,
    /// Output directory (replaced as a whole only if `permute` wrote it).
    pub out: PathBuf,
}

/// σ for `options`, checked: a permutation of 0..N.
pub fn sigma(options: &PermuteOptions) -> Result<Vec<usize>> {
    let n = options.length;
    let s = match &options.sigma {
        Sigma::Seeded => return Ok(drawn(n, options.seed)),
        Sigma::Paper if n != PAPER.len() => {
            return Err(Error::Config(format!(
                "--permutation paper: the method's permutation is of 18 tokens, not --length {n}"
            )))
        }
        Sigma::Paper => PAPER.to_vec(),
        Sigma::Given(s) => s.clone(),
    };
    let mut seen = vec![false; n];
    for &p in &s {
        if p >= n || std::mem::replace(&mut seen[p], true) {
            return Err(Error::Config(format!(
                "--permutation: not a permutation of 0..{} ({} positions given, {p} is {})",
                n.saturating_sub(1),
                s.len(),
                if p >= n { "out of range" } else { "repeated" }
            )));
        }
    }
    if s.len() != n {
        return Err(Error::Config(format!(
            "--permutation: {} positions given, --length is {n}",
            s.len()
        )));
    }
    Ok(s)
}

/// A permutation of 0..`length` drawn from `seed` (Fisher–Yates over a SplitMix64 stream),
/// drawn again while it is the identity (`length` > 1).
pub fn drawn(length: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    loop {
        let mut p: Vec<usize> = (0..length).collect();
        for i in (1..length).rev() {
            state = splitmix64(state);
            // Lemire's multiply-shift: uniform enough for n ≤ 1000.
            let j = ((u128::from(state) * (i as u128 + 1)) >> 64) as usize;
            p.swap(i, j);
        }
        if length < 2 || p.iter().enumerate().any(|(i, &x)| i != x) {
            return p;
        }
    }
}

/// `tokens` with the token at position *i* moved to position `sigma[i]`.
pub fn apply<'a>(tokens: &[&'a str], sigma: &[usize]) -> Vec<&'a str> {
    let mut out = vec![""; tokens.len()];
    for (i, t) in tokens.iter().enumerate() {
        out[sigma[i]] = t;
    }
    out
}

/// The split of a kept pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Split {
    Train,
    Dev,
    Test,
}

impl Split {
    const ALL: [Split; 3] = [Split::Train, Split::Dev, Split::Test];

    fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Dev => "dev",
            Split::Test => "test",
        }
    }
}

/// Whether `dir` is an output of `permute` (it has a readable `permute.json`).
pub fn is_permute_dir(dir: &Path) -> bool {
    crate::format::is_record::<PermuteRecord>(&dir.join(layout::PERMUTE_RECORD))
}

/// Reads both sides in lockstep, calling `each` with each line number (1-based) and the two
/// lines; the sides must have the same number of lines.
fn pairs(
    options: &PermuteOptions,
    mut each: impl FnMut(u64, &str, &str) -> Result<()>,
) -> Result<(FileInfo, FileInfo)> {
    let (mut src, mut tgt) = (Input::open(&options.source)?, Input::open(&options.target)?);
    let mut n = 0u64;
    loop {
        let s = src.next_line()?.map(str::to_owned);
        let t = tgt.next_line()?;
        match (s, t) {
            (Some(s), Some(t)) => {
                n += 1;
                each(n, &s, t)?;
            }
            (None, None) => break,
            (s, _) => {
                let (short, long) = match s {
                    Some(_) => (&options.target, &options.source),
                    None => (&options.source, &options.target),
                };
                return Err(Error::input(
                    short,
                    n + 1,
                    format!(
                        "ends after {n} lines, but {} has more: the sides must be line-aligned",
                        ldd_io::error::shown(long)
                    ),
                ));
            }
        }
    }
    Ok((src.finish()?, tgt.finish()?))
}

/// The pairs held out for test and dev plus one for training: the fewest kept pairs
/// `permute` needs. Checked before any work, with N ≥ 1.
fn fewest_pairs(options: &PermuteOptions) -> Result<usize> {
    if options.length == 0 {
        return Err(Error::Config("--length must be at least 1".into()));
    }
    let held = options
        .test
        .checked_add(options.dev)
        .and_then(|n| n.checked_add(1));
    held.ok_or_else(|| {
        Error::Config(format!(
            "--test {} and --dev {}: more pairs than any corpus has",
            options.test, options.dev
        ))
    })
}

/// The split of each kept pair (by line number): ranked by a seeded hash of its line
/// number, the first `test` ranks test, the next `dev` dev, the rest train.
fn assign_splits(mut kept: Vec<(u64, u64)>, test: usize, dev: usize) -> BTreeMap<u64, Split> {
    kept.sort_unstable();
    kept.iter()
        .enumerate()
        .map(|(rank, &(_, id))| {
            let split = match rank {
                r if r < test => Split::Test,
                r if r < test + dev => Split::Dev,
                _ => Split::Train,
            };
            (id, split)
        })
        .collect()
}

/// Pass 1: the pairs whose source has N tokens and whose target is not empty, each
/// given its split; and the two sides as read.
fn split_pairs(
    options: &PermuteOptions,
    fewest: usize,
) -> Result<(BTreeMap<u64, Split>, FileInfo, FileInfo)> {
    let mut kept: Vec<(u64, u64)> = Vec::new();
    let (source, target) = pairs(options, |id, source, target| {
        if source.split_whitespace().count() == options.length && !target.trim().is_empty() {
            kept.push((splitmix64(options.seed ^ splitmix64(id)), id));
        }
        Ok(())
    })?;
    if kept.len() < fewest {
        return Err(Error::Config(format!(
            "{}: {} pairs have a source of {} tokens and a target, fewer than --test {} + \
             --dev {} + 1 for training",
            ldd_io::error::shown(&options.source),
            kept.len(),
            options.length,
            options.test,
            options.dev
        )));
    }
    Ok((
        assign_splits(kept, options.test, options.dev),
        source,
        target,
    ))
}

/// A source line in the three settings: as it is, moved by σ, reversed.
fn settings_lines(source: &str, sigma: &[usize]) -> [String; 3] {
    let tokens: Vec<&str> = source.split_whitespace().collect();
    let mut reversed = tokens.clone();
    reversed.reverse();
    [
        tokens.join(" "),
        apply(&tokens, sigma).join(" "),
        reversed.join(" "),
    ]
}

/// The output files of every split and setting (and the splits' line numbers), open
/// for writing in the staging directory.
struct SplitFiles {
    root: PathBuf,
    files: BTreeMap<String, std::io::BufWriter<ldd_io::fs::File>>,
}

impl SplitFiles {
    /// Creates every file under `root`, the sides named by `source` and `target`.
    fn create(root: &Path, source: &str, target: &str) -> Result<Self> {
        let mut files = SplitFiles {
            root: root.to_path_buf(),
            files: BTreeMap::new(),
        };
        for split in Split::ALL {
            files.open(layout::permute_ids(split.name()))?;
            for setting in SETTINGS {
                files.open(layout::permute_file(setting, split.name(), source))?;
                files.open(layout::permute_file(setting, split.name(), target))?;
            }
        }
        Ok(files)
    }

    fn open(&mut self, rel: String) -> Result<()> {
        let path = self.root.join(&rel);
        ldd_io::fs::create_parent(&path)?;
        let file = std::io::BufWriter::new(ldd_io::fs::create_new(&path)?);
        self.files.insert(rel, file);
        Ok(())
    }

    /// Writes `line` to the file `rel`.
    fn put(&mut self, rel: String, line: &str) -> Result<()> {
        let file = self
            .files
            .get_mut(&rel)
            .ok_or_else(|| Error::Data(format!("{rel}: not opened")))?;
        writeln!(file, "{line}").map_err(|e| Error::io(&self.root.join(&rel), e))
    }

    /// Flushes and syncs every file.
    fn finish(self) -> Result<()> {
        for (rel, file) in self.files {
            let path = self.root.join(&rel);
            file.into_inner()
                .map_err(|e| Error::io(&path, e.into_error()))?
                .sync_all()
                .map_err(|e| Error::io(&path, e))?;
        }
        Ok(())
    }
}

/// Pass 2: every kept pair into its split, in corpus order, in the three settings; the
/// pairs per split. The sides must read as in pass 1.
fn write_pairs(
    options: &PermuteOptions,
    splits: &BTreeMap<u64, Split>,
    sigma: &[usize],
    files: &mut SplitFiles,
    read: (&FileInfo, &FileInfo),
) -> Result<Splits> {
    let (source_lang, target_lang) = (options.languages.source(), options.languages.target());
    let mut counts = Splits::default();
    let (source, target) = pairs(options, |id, source, target| {
        let Some(&split) = splits.get(&id) else {
            return Ok(());
        };
        match split {
            Split::Train => counts.train += 1,
            Split::Dev => counts.dev += 1,
            Split::Test => counts.test += 1,
        }
        files.put(layout::permute_ids(split.name()), &id.to_string())?;
        for (setting, line) in SETTINGS.iter().zip(&settings_lines(source, sigma)) {
            files.put(
                layout::permute_file(setting, split.name(), source_lang),
                line,
            )?;
            files.put(
                layout::permute_file(setting, split.name(), target_lang),
                target,
            )?;
        }
        Ok(())
    })?;
    if source.sha256 != read.0.sha256 || target.sha256 != read.1.sha256 {
        return Err(Error::Data(format!(
            "{} or {} changed while it was read; run `permute` again",
            ldd_io::error::shown(&options.source),
            ldd_io::error::shown(&options.target)
        )));
    }
    Ok(counts)
}

/// The record of the run: inputs, N, seed, σ and where it came from, pairs per split.
fn record(
    options: &PermuteOptions,
    read: (FileInfo, FileInfo),
    sigma: &[usize],
    counts: Splits,
) -> PermuteRecord {
    PermuteRecord {
        tool: format!("ldd-sets {}", env!("CARGO_PKG_VERSION")),
        source: read.0,
        target: read.1,
        source_lang: options.languages.source().to_string(),
        target_lang: options.languages.target().to_string(),
        length: options.length,
        seed: options.seed,
        permutation: sigma.to_vec(),
        permutation_from: match &options.sigma {
            Sigma::Seeded => "seed",
            Sigma::Given(_) => "given",
            Sigma::Paper => "paper",
        }
        .into(),
        definition: DEFINITION.into(),
        settings: SETTINGS.iter().map(|s| s.to_string()).collect(),
        pairs: counts.train + counts.dev + counts.test,
        splits: counts,
    }
}

/// Writes σ and the record into `root`.
fn write_record(root: &Path, record: &PermuteRecord) -> Result<()> {
    let permutation: Vec<String> = record.permutation.iter().map(usize::to_string).collect();
    ldd_io::write_bytes_atomic(
        &root.join(layout::PERMUTATION),
        format!("{}\n", permutation.join(" ")).as_bytes(),
    )?;
    let json = serde_json::to_string_pretty(record).map_err(|e| Error::Data(e.to_string()))?;
    ldd_io::write_bytes_atomic(&root.join(layout::PERMUTE_RECORD), (json + "\n").as_bytes())?;
    Ok(())
}

/// Writes the three settings of the kept pairs into `options.out` (all or nothing) and
/// returns their record: check → split (pass 1) → write (pass 2) → record.
pub fn permute_corpus(options: &PermuteOptions) -> Result<PermuteRecord> {
    let fewest = fewest_pairs(options)?;
    let sigma = sigma(options)?;
    let (splits, source, target) = split_pairs(options, fewest)?;
    let inputs = [options.source.as_path(), options.target.as_path()];
    let staging = Staging::new(&options.out, &is_permute_dir, &inputs)?;
    let root = staging.path().to_path_buf();
    let mut files = SplitFiles::create(
        &root,
        options.languages.source(),
        options.languages.target(),
    )?;
    let counts = write_pairs(options, &splits, &sigma, &mut files, (&source, &target))?;
    files.finish()?;
    let record = record(options, (source, target), &sigma, counts);
    write_record(&root, &record)?;
    staging.commit(&is_permute_dir)?;
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigma_moves_each_token_to_its_position() {
        let t = ["a", "b", "c", "d"];
        assert_eq!(apply(&t, &[2, 0, 3, 1]), ["b", "d", "a", "c"]);
        let p = drawn(18, 7);
        assert_eq!(p, drawn(18, 7));
        assert_ne!(p, drawn(18, 8));
        let mut sorted = p.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..18).collect::<Vec<_>>());
        assert_eq!(drawn(2, 1), [1, 0]);
    }

    /// The three settings of a line: the same tokens, in order, moved by σ, reversed.
    #[test]
    fn three_settings_of_a_line() {
        assert_eq!(
            settings_lines("a  b c\td", &[2, 0, 3, 1]),
            ["a b c d", "b d a c", "d c b a"]
        );
    }

    /// The lowest-ranked pairs are test, then dev, then train, whatever the line order.
    #[test]
    fn splits_by_rank() {
        let kept = vec![(40, 1), (10, 2), (30, 3), (20, 4), (50, 5)];
        let splits = assign_splits(kept, 1, 2);
        let names: Vec<(u64, &str)> = splits.iter().map(|(&id, s)| (id, s.name())).collect();
        assert_eq!(
            names,
            [
                (1, "train"),
                (2, "test"),
                (3, "dev"),
                (4, "dev"),
                (5, "train")
            ]
        );
    }
}

//! The aligner a corpus is aligned with, obtained once: loaded (`--align-model`), found
//! in the aligner cache, or trained (and then kept in the cache) — like the parse cache,
//! so that a second `run` or `extract` on unchanged training files loads the model
//! instead of training it again.
//!
//! The cache is the `aligners/` folder of the parse cache directory. An entry is the
//! model's files (`<key>.hmm.ldda`, or fast_align's `<key>.fwd.ldda` / `<key>.rev.ldda`)
//! and its record `<key>.json` ([`CacheEntry`]), written last. The key is the SHA-256 of
//! everything a trained model depends on: the record's format, the aligner's code
//! (`LDD_SETS_ALIGNER_CODE`, a hash of its sources made by `build.rs`), the languages, the
//! options that change training, and the SHA-256 of every training file — the
//! `--align-train` files, and the corpus's source, target and parse when its own pairs are
//! trained on. An entry is used only when its record reads, names its key and format, and
//! its model files have the checksums it records; anything else is trained again and
//! replaced. Two processes that need the same entry train it once: the second waits for
//! the first's lock, then finds the entry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ldd_align::Corpus;

use super::{AlignOptions, CorpusSides, ModelType, Trained};
use crate::error::{Error, Result};
use crate::format::aligner::{CacheEntry, CACHE_FORMAT};

/// The sources of the aligner's code, hashed at build time (see `build.rs`).
const CODE: &str = env!("LDD_SETS_ALIGNER_CODE");

/// Largest entry record read.
const MAX_ENTRY_BYTES: u64 = 1 << 20;

/// Where an aligner came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Trained by this run.
    Trained,
    /// Loaded from the aligner cache: trained before on the same files.
    Cached,
    /// Loaded from `--align-model`.
    Loaded,
}

/// An aligner ready to align corpora with, and where its saved files are.
#[derive(Debug)]
pub struct Obtained {
    /// The model.
    pub trained: Trained,
    /// The prefix of its saved files (the cache entry's, `--align-model`'s or
    /// `--save-align-model`'s); `None`: saved nowhere.
    pub files: Option<PathBuf>,
    /// Where it came from.
    pub origin: Origin,
    /// Seconds it took to obtain (train, or load).
    pub seconds: f64,
}

/// What obtaining an aligner did, for the summary.
#[derive(Debug, Clone, Copy)]
pub struct AlignerSummary {
    /// Sentence pairs it was trained on (now or, from the cache, before; 0 when loaded).
    pub pairs: u64,
    /// Seconds it took to obtain.
    pub seconds: f64,
    /// Where it came from.
    pub origin: Origin,
}

impl Obtained {
    /// What obtaining it did.
    pub fn summary(&self) -> AlignerSummary {
        AlignerSummary {
            pairs: self.trained.pairs,
            seconds: self.seconds,
            origin: self.origin,
        }
    }

    /// Writes its model under `prefix` (an output being staged): its saved files copied
    /// (the cache's too: a copy, never a hard link, so that editing one output's model
    /// changes neither the cache entry nor another output; the system may share the
    /// blocks, a reflink, where the file system can), or the model saved anew.
    pub fn place(&self, prefix: &Path) -> Result<()> {
        let Some(from) = &self.files else {
            return self.trained.save(prefix);
        };
        let hmm = self.trained.options().model_type == ModelType::Hmm;
        let to = crate::layout::model_files(prefix, hmm);
        for (src, dst) in crate::layout::model_files(from, hmm).iter().zip(&to) {
            if !src.is_file() {
                continue;
            }
            ldd_io::fs::create_parent(dst)?;
            ldd_io::fs::copy_new(src, dst)?;
        }
        Ok(())
    }
}

/// The corpus an aligner is obtained for, when its own pairs may be trained on.
#[derive(Debug, Clone, Copy)]
pub struct OwnCorpus<'a> {
    /// Its pairs, as aligned (the UD words of its trees, the target's tokens).
    pub pairs: &'a Corpus,
    /// Its two files.
    pub sides: CorpusSides<'a>,
    /// Its parse, which gives the source tokens of `pairs`.
    pub conllu: &'a Path,
}

/// The aligner of `opts` for languages `langs`: loaded from `opts.model`; else trained on
/// the `--align-train` files and, with `own`, on the corpus's own pairs (unless its files
/// are among the training files) — or, with a `cache` directory, found there when the
/// same training was done before. A trained model goes into the cache (and, as before, to
/// `--save-align-model`; a model from the cache is saved there too).
pub fn obtain(
    opts: &AlignOptions,
    langs: (&str, &str),
    own: Option<OwnCorpus<'_>>,
    cache: Option<&Path>,
) -> Result<Obtained> {
    let start = Instant::now();
    if let Some(prefix) = &opts.model {
        return Ok(Obtained {
            trained: super::load(opts, langs)?,
            files: Some(prefix.clone()),
            origin: Origin::Loaded,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    let (files, with_own) = super::training_files(opts, langs, own.map(|o| o.sides))?;
    let train = || match own {
        Some(o) => super::train_corpus(o.pairs, opts, langs, Some(o.sides)),
        None => super::train(opts, langs),
    };
    let Some(dir) = cache else {
        return Ok(Obtained {
            trained: train()?,
            files: opts.save_model.clone(),
            origin: Origin::Trained,
            seconds: start.elapsed().as_secs_f64(),
        });
    };
    let mut inputs: Vec<&Path> = files
        .iter()
        .flat_map(|(s, t)| [s.as_path(), t.as_path()])
        .collect();
    let own_files = own.filter(|_| with_own);
    if let Some(o) = own_files {
        inputs.extend([o.sides.source, o.sides.target, o.conllu]);
    }
    let key = key(opts, langs, &files, own_files)?;
    let prefix = dir.join(&key);
    let hit = |start: Instant| cache_hit(dir, &key, opts, langs, start);
    // A hit needs no lock; a miss is trained under the entry's lock, and looked up again
    // once the lock is held (another process may have trained it meanwhile).
    if let Some(o) = hit(start)? {
        return Ok(o);
    }
    let locked = ldd_io::fs::create_dir_all(dir).and_then(|()| {
        ldd_io::cleanup::Lock::wait(&prefix, &mut |pid| {
            opts.progress.report(&super::Event::Waiting { pid });
        })
    });
    // A cache that cannot be written (read-only, another user's) still serves its hits;
    // a miss is trained for this run alone, and said so.
    let _lock = match locked.map_err(Error::from) {
        Ok(lock) => lock,
        Err(e) if e.is_not_writable() => {
            opts.progress.report(&super::Event::CacheNotWritable {
                dir,
                why: &e.to_string(),
            });
            return Ok(Obtained {
                trained: train()?,
                files: opts.save_model.clone(),
                origin: Origin::Trained,
                seconds: start.elapsed().as_secs_f64(),
            });
        }
        Err(e) => return Err(e),
    };
    if let Some(o) = hit(start)? {
        return Ok(o);
    }
    let trained = train()?;
    trained.save(&prefix)?;
    write_entry(dir, &key, opts, langs, trained.pairs, &inputs)?;
    Ok(Obtained {
        trained,
        files: Some(prefix),
        origin: Origin::Trained,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The aligner of cache entry `key` in `dir`, when the entry is there and valid: loaded
/// (and saved to `--save-align-model` too), its use reported.
fn cache_hit(
    dir: &Path,
    key: &str,
    opts: &AlignOptions,
    langs: (&str, &str),
    start: Instant,
) -> Result<Option<Obtained>> {
    let Some(entry) = valid_entry(dir, key, opts)? else {
        return Ok(None);
    };
    let prefix = dir.join(key);
    let trained = super::load_trained(&prefix, opts, langs, entry.trained_pairs)?;
    opts.progress.report(&super::Event::Cached {
        pairs: entry.trained_pairs,
        path: &entry_model(&prefix, opts),
    });
    if let Some(p) = &opts.save_model {
        trained.save(p)?;
    }
    Ok(Some(Obtained {
        trained,
        files: Some(prefix),
        origin: Origin::Cached,
        seconds: start.elapsed().as_secs_f64(),
    }))
}

/// Records the model just saved under `dir/key` in the cache: its files' SHA-256, the
/// pairs it was trained on and the training files (`inputs`), written atomically.
fn write_entry(
    dir: &Path,
    key: &str,
    opts: &AlignOptions,
    langs: (&str, &str),
    trained_pairs: u64,
    inputs: &[&Path],
) -> Result<()> {
    let prefix = dir.join(key);
    let mut sums = BTreeMap::new();
    for f in model_files(&prefix, opts) {
        if f.is_file() {
            sums.insert(file_name(&f), ldd_io::sha256_file(&f)?.0);
        }
    }
    let entry = CacheEntry {
        format: CACHE_FORMAT.to_string(),
        key: key.to_string(),
        model_type: opts.model_type.name().to_string(),
        languages: (langs.0.to_string(), langs.1.to_string()),
        trained_pairs,
        files: sums,
        training: inputs.iter().map(|p| p.to_path_buf()).collect(),
    };
    let mut text = serde_json::to_string_pretty(&entry)
        .map_err(|e| Error::Data(format!("aligner cache entry: {e}")))?;
    text.push('\n');
    ldd_io::output::write_bytes_atomic(
        &crate::layout::aligner_cache_entry(dir, key),
        text.as_bytes(),
    )?;
    Ok(())
}

/// The files of the model saved under `prefix` with `opts`.
fn model_files(prefix: &Path, opts: &AlignOptions) -> Vec<PathBuf> {
    crate::layout::model_files(prefix, opts.model_type == ModelType::Hmm)
}

/// The first file of the entry's model (for messages).
fn entry_model(prefix: &Path, opts: &AlignOptions) -> PathBuf {
    model_files(prefix, opts)
        .into_iter()
        .find(|f| f.is_file())
        .unwrap_or_else(|| prefix.to_path_buf())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The key of a training: the SHA-256 (hex) of the cache format, the aligner's code, the
/// languages, the options that change the model, and the checksums of the training files
/// (and of the corpus's own files when its pairs are trained on).
pub fn key(
    opts: &AlignOptions,
    langs: (&str, &str),
    files: &[(PathBuf, PathBuf)],
    own: Option<OwnCorpus<'_>>,
) -> Result<String> {
    use sha2::{Digest, Sha256};
    let mut text =
        format!(
        "{CACHE_FORMAT}\ncode {CODE}\nlanguages {} {}\nmodel {}\niterations {}\nmax-tokens {}\n\
         lowercase {}\npretokenized {}\n",
        langs.0, langs.1, opts.model_type, opts.iterations, opts.max_tokens, opts.lowercase,
        opts.pretokenized
    );
    // fast_align's model is trained only in the directions the alignment needs.
    if opts.model_type == ModelType::FastAlign {
        text.push_str(&format!("direction {}\n", opts.direction));
    }
    let sha = |p: &Path| -> Result<String> { Ok(ldd_io::sha256_file(p)?.0) };
    for (s, t) in files {
        text.push_str(&format!("train {} {}\n", sha(s)?, sha(t)?));
    }
    if let Some(o) = own {
        text.push_str(&format!(
            "own {} {} {}\n",
            sha(o.sides.source)?,
            sha(o.sides.target)?,
            sha(o.conllu)?
        ));
    }
    let digest = Sha256::digest(text.as_bytes());
    Ok(digest.iter().map(|b| format!("{b:02x}")).collect())
}

/// The record of entry `key` when the entry is whole: the record reads, is of this
/// format, names `key` and the model type of `opts`, and every model file it records has
/// its checksum. `None` otherwise (the entry is then trained again and replaced).
fn valid_entry(dir: &Path, key: &str, opts: &AlignOptions) -> Result<Option<CacheEntry>> {
    let path = crate::layout::aligner_cache_entry(dir, key);
    if !path.is_file() {
        return Ok(None);
    }
    let Ok(text) = ldd_io::read_text(&path, MAX_ENTRY_BYTES) else {
        return Ok(None);
    };
    let Ok(entry) = serde_json::from_str::<CacheEntry>(&text) else {
        return Ok(None);
    };
    if entry.format != CACHE_FORMAT
        || entry.key != key
        || entry.model_type != opts.model_type.name()
        || entry.files.is_empty()
    {
        return Ok(None);
    }
    for (name, sum) in &entry.files {
        let Ok(f) = ldd_io::output::confined(dir, name) else {
            return Ok(None);
        };
        let Ok((got, _)) = ldd_io::sha256_file(&f) else {
            return Ok(None);
        };
        if &got != sum {
            return Ok(None);
        }
    }
    Ok(Some(entry))
}

//! How outputs are judged: the sets' aligner, which links the reference and every output to
//! the source words, and the target language's model, which parses them (the lemmas and
//! the relation the rule checks), with the relations of `config/relations.toml`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::relation::Relations;
use super::rule::{self, Side};
use super::{Sides, SourceWords};
use crate::error::{Error, Result};
use crate::pipeline::align::{self, AlignOptions, ModelType, Trained};
use crate::pipeline::parse::{Tagger, TargetChoice};
use crate::pipeline::read::sets::Loaded;

/// How the reference and the outputs are parsed: the target language's model
/// (`--tgt-model`), where its parses are kept (the parse cache, `--cache`), and whether a
/// missing model goes unsaid (`-q`).
#[derive(Debug, Clone, Default)]
pub struct Parsing {
    /// The model chosen.
    pub model: TargetChoice,
    /// The parse cache directory (`None`: [`crate::pipeline::parse::cache_dir`]'s default;
    /// parses not kept when it has none).
    pub cache: Option<PathBuf>,
    /// No note about a missing model.
    pub quiet: bool,
}

/// How outputs are judged: the aligner that links both sides to the source words, the
/// target language's model that parses them, and the relations it checks.
#[derive(Debug)]
pub struct Judging {
    /// The aligner: the sets' saved model, symmetrised by [`rule::ALIGNMENT`].
    pub aligner: AlignOptions,
    /// The target language's model (`--tgt-model`), if any.
    model: Option<Tagger>,
    /// How each phenomenon's dependency is rendered in the target language.
    pub relations: Relations,
    /// Where parses of the judged lines are kept (`None`: not kept).
    cache: Option<PathBuf>,
    /// Language codes (source, target).
    langs: (String, String),
    /// The corpus's lines and the manifest recording them: no file aligned has more.
    corpus: (u64, PathBuf),
}

impl Judging {
    /// How the loci of `loaded` are judged: with its aligner (`align_model`, else the model the
    /// run loaded or saved; [`aligner`]) and the target language's model as `parsing`
    /// chooses it. Without a model, a note says once what is not checked.
    pub fn new(loaded: &Loaded, align_model: Option<&Path>, parsing: &Parsing) -> Result<Judging> {
        let tgt = loaded.manifest.languages.target();
        let model = parsing.model.load(tgt)?;
        let relations = Relations::builtin()?;
        let cache = match &parsing.cache {
            Some(d) => Some(d.clone()),
            None => crate::pipeline::parse::cache_dir(None).ok(),
        };
        if model.is_none() && !parsing.quiet && parsing.model != TargetChoice::Off {
            ldd_io::message::say(&format!(
                "ldd-sets: note: no UDPipe model of the target language `{}` at hand: locus \
                 accuracy judges without checking the relation in the output's parse, and \
                 matches inflections by their endings instead of lemmas (give --tgt-model \
                 FILE, or put the registry's model in the models directory)",
                ldd_io::error::escape(tgt)
            ));
        }
        Ok(Judging {
            aligner: aligner(loaded, align_model)?,
            model,
            relations,
            cache,
            langs: (
                loaded.manifest.languages.source().to_string(),
                tgt.to_string(),
            ),
            corpus: (loaded.manifest.corpus.lines, loaded.manifest_path.clone()),
        })
    }

    /// The settings part of the signature: the rule, its constants and the data they were
    /// chosen on, the alignment and the aligner model's SHA-256 (first 16 hex digits of each
    /// file), and the target model's (`tgt-model:none` without one).
    pub fn settings(&self) -> Result<String> {
        let opts = &self.aligner;
        let mut sums = Vec::new();
        if let Some(prefix) = &opts.model {
            for f in crate::layout::model_files(prefix, opts.model_type == ModelType::Hmm) {
                let (sha, _) = ldd_io::sha256_file(&f)?;
                sums.push(sha[..16].to_string());
            }
        }
        let model = self.model.as_ref().map_or("none", |t| t.sha.as_str());
        Ok(format!(
            "{}|rule:{}|lexicon:{}|floor:{}|fit:{}|aligner:{}-{}|model:{}|tgt-model:{model}|ci:wilson|test:mcnemar-exact",
            rule::VERSION,
            rule::NAME,
            rule::LEXICON,
            super::reference::FLOOR,
            rule::FIT,
            opts.model_type,
            opts.direction.name(),
            sums.join("+")
        ))
    }

    /// The aligner, loaded once.
    pub fn load(&self) -> Result<Trained> {
        align::load(&self.aligner, (&self.langs.0, &self.langs.1))
    }

    /// The lines `words` names of the file `path` (the reference or an output), read,
    /// tokenized as the aligner does, aligned to their source words with `trained` and
    /// parsed ([`Judging::align_texts`]); and the file's line count, for the caller to check.
    pub fn align(
        &self,
        trained: &Trained,
        path: &Path,
        words: &SourceWords,
    ) -> Result<(Sides, u64)> {
        let ids: Vec<u32> = words.keys().copied().collect();
        let input =
            crate::pipeline::read::select::open_corpus_long(path, self.corpus.0, &self.corpus.1)?;
        let (lines, n) = crate::pipeline::read::select::read_selected(input, &ids)?;
        let texts: BTreeMap<u32, String> = ids.into_iter().zip(lines).collect();
        Ok((self.align_texts(trained, &texts, words)?, n))
    }

    /// `texts` (by line id; each line's source words in `words`) tokenized as the aligner
    /// does, aligned to their source words with `trained`, and parsed by the target model.
    pub fn align_texts(
        &self,
        trained: &Trained,
        texts: &BTreeMap<u32, String>,
        words: &SourceWords,
    ) -> Result<Sides> {
        let mut pairs = ldd_align::Corpus::new();
        let mut tokens = Vec::with_capacity(texts.len());
        let none = Vec::new();
        for (id, text) in texts {
            let t: Vec<String> = ldd_align::line_tokens(text, self.aligner.pretokenized)
                .into_iter()
                .map(String::from)
                .collect();
            pairs.push_pair(words.get(id).unwrap_or(&none), &t);
            tokens.push((*id, t));
        }
        let a = align::align(
            &pairs,
            &self.aligner,
            (&self.langs.0, &self.langs.1),
            None,
            Some(trained),
        )?;
        let posteriors = a
            .posteriors
            .map(|p| p.into_iter().map(Some).collect::<Vec<_>>());
        let mut posteriors = posteriors.unwrap_or_else(|| vec![None; a.alignments.len()]);
        let mut sides: Sides = tokens
            .into_iter()
            .zip(a.alignments)
            .zip(posteriors.iter_mut())
            .map(|(((id, tokens), links), post)| {
                let side = match post.take() {
                    Some(p) => {
                        let mut both: Vec<((usize, usize), f64)> =
                            links.into_iter().zip(p).collect();
                        both.sort_unstable_by_key(|x| x.0);
                        let (links, p): (Vec<_>, Vec<_>) = both.into_iter().unzip();
                        Side {
                            tokens,
                            links,
                            posteriors: Some(p),
                            analyses: None,
                        }
                    }
                    None => {
                        let mut links = links;
                        links.sort_unstable();
                        Side {
                            tokens,
                            links,
                            posteriors: None,
                            analyses: None,
                        }
                    }
                };
                (id, side)
            })
            .collect();
        self.analyse(&mut sides)?;
        Ok(sides)
    }

    /// With a model, adds the analyses (tags, head, relation) of every line of `sides` (as
    /// the aligner tokenized it), from the cache or parsed in parallel; nothing without one.
    pub fn analyse(&self, sides: &mut Sides) -> Result<()> {
        let Some(model) = &self.model else {
            return Ok(());
        };
        let ids: Vec<u32> = sides.keys().copied().collect();
        let lines: Vec<Vec<String>> = sides.values().map(|s| s.tokens.clone()).collect();
        let line_ids: Vec<u64> = ids.iter().map(|&i| u64::from(i)).collect();
        let analysed = match &self.cache {
            Some(dir) => ldd_parse::AnalysisCache::new(dir).get_or_analyse(
                &model.parser,
                &model.sha,
                &lines,
                &line_ids,
            ),
            None => ldd_parse::AnalysisCache::analyse(&model.parser, &lines, &line_ids),
        }
        .map_err(|e| {
            Error::Resource(format!(
                "{}: {e}",
                ldd_io::error::shown(model.parser.model_path())
            ))
        })?;
        for (side, a) in sides.values_mut().zip(analysed) {
            side.analyses = Some(a);
        }
        Ok(())
    }

    /// Whether the outputs are parsed (lemmas matched, the relation checked).
    pub fn has_model(&self) -> bool {
        self.model.is_some()
    }

    /// The target language: whose inflectional endings make a morphological variant.
    pub fn target(&self) -> &str {
        &self.langs.1
    }
}

/// The aligner that aligns the reference and the outputs to their sources: the manifest's
/// alignment options with a saved model — `model` (`--align-model`), else the model the
/// run loaded, else the one it saved — symmetrised by [`rule::ALIGNMENT`].
pub fn aligner(loaded: &Loaded, model: Option<&Path>) -> Result<AlignOptions> {
    let Some(r) = &loaded.manifest.reorder else {
        return Err(Error::Config(format!(
            "locus judging needs the aligner the sets were made with, and {} records none (the \
             sets were made with --no-reorder); extract again without --no-reorder",
            ldd_io::error::shown(&loaded.manifest_path)
        )));
    };
    let rec = &r.options.align;
    let mut opts = AlignOptions::from(rec);
    let hmm = opts.model_type == ModelType::Hmm;
    // The aligner saved with the sets, checked like every file of them.
    let own = match &r.files.model {
        Some(rel) if model.is_none() => {
            for f in crate::layout::model_files(Path::new(rel), hmm) {
                let name = f.to_string_lossy();
                if loaded.manifest.checksums.contains_key(name.as_ref()) {
                    crate::pipeline::read::sets::file(&loaded.manifest, &loaded.dir, &name)?;
                }
            }
            Some(crate::pipeline::read::sets::resolve(&loaded.dir, rel)?)
        }
        _ => None,
    };
    let prefix = model
        .map(Path::to_path_buf)
        .or(own)
        .or_else(|| rec.model.clone())
        .or_else(|| rec.save_model.clone());
    let Some(prefix) = prefix else {
        let why = if r.options.alignments.is_some() {
            "the sets were aligned by the given --alignments, not by the built-in aligner"
        } else {
            "the sets were made by an older ldd-sets, which kept the aligner only with \
             --save-align-model"
        };
        return Err(Error::Config(format!(
            "locus judging aligns each output to its source with the aligner the sets were \
             made with, but {} records no saved aligner ({why}): give --align-model PREFIX (a \
             model of the same type, {}, as `extract --save-align-model PREFIX` or `align` \
             save it), or extract the sets again",
            ldd_io::error::shown(&loaded.manifest_path),
            opts.model_type
        )));
    };
    check_model(&prefix, hmm, &opts, model.is_some())?;
    opts.model = Some(prefix);
    opts.direction = rule::ALIGNMENT;
    opts.train.clear();
    opts.save_model = None;
    opts.progress = Default::default();
    Ok(opts)
}

/// Refuses an aligner model whose files are missing at `prefix`, or that is the other
/// type's (`given`: named by `--align-model`).
fn check_model(prefix: &Path, hmm: bool, opts: &AlignOptions, given: bool) -> Result<()> {
    for f in crate::layout::model_files(prefix, hmm) {
        if f.is_file() {
            continue;
        }
        // A model of the other type at that prefix: say so, not that a file is missing.
        let other = crate::layout::model_files(prefix, !hmm);
        if other.iter().all(|o| o.is_file()) {
            return Err(Error::Config(format!(
                "locus judging: {} is a model of the other aligner ({}), but the sets \
                 were aligned with the {} model, which locus judging must use: give \
                 --align-model PREFIX of such a model (saved by `extract \
                 --save-align-model`, or `align --align-model-type {}`)",
                ldd_io::error::shown(&other[0]),
                if hmm { "fast_align's" } else { "HMM" },
                opts.model_type,
                opts.model_type,
            )));
        }
        return Err(Error::Config(format!(
            "locus judging: the aligner model {} does not exist{}",
            ldd_io::error::shown(&f),
            if given {
                ""
            } else {
                " (the manifest names it): give --align-model PREFIX"
            }
        )));
    }
    Ok(())
}

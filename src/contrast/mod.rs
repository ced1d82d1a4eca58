//! Stage **contrast**: contrastive pairs from the sets (Burlot & Yvon 2017; LingEval97,
//! ContraPro). For every distinct locus whose reference words the run's aligner found,
//! variants of the reference that break exactly the long-distance relation — the
//! dependent's rendering dropped, a separable particle moved next to its verb, a reflexive
//! pronoun in another person or number (from a word list, or by the UD features a
//! target-language tagger gives), the two crossing words of a reorder set swapped —
//! each differing from the reference only in the tokens linked to the locus. A system
//! passes an item when it scores the reference above every variant.
//!
//! What enters: a sets directory with locus files, the corpus it was made from, and the
//! variant rules (`config/contrast.toml`, data). What leaves: `items.jsonl`, the plain
//! line-aligned files `contrast.SRC` / `contrast.TGT` (one line per reference and
//! variant) that NMT toolkits score, `aces.tsv` for metric challenge sets, and
//! `contrast.json`. The edits are made on the reference's own text (the spans of its
//! tokens), so everything outside the locus is kept byte for byte.
//!
//! Words: *contrast* names what this room makes — the items (`ContrastItem`), their
//! files, options and directory (`contrast_sets`, `ContrastOptions`, `is_contrast_dir`);
//! *contrastive* names only the scoring of them, contrastive accuracy
//! (`score::contrastive`, `ContrastiveOptions`, `score --contrastive`), and the `contrastive`
//! field of ContraPro's JSON, which is its format's word.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ldd_io::Staging;

use crate::config::contrast::ContrastConfig;
use crate::error::{Error, Result};
use crate::format::contrast::{
    label as contrast_label, AcesRow, ContraProError, ContraProItem, ContrastItem, ContrastRecord,
    ItemLocus, LingEvalError, LingEvalItem, Variant, ACES, ACES_HEADER, LINGEVAL97,
};
use crate::format::locus::Locus;
use crate::format::spreadsheet_tsv_cell;
use crate::layout;
use crate::pipeline::parse::Tagger;
use crate::pipeline::read::select::{open_corpus_long, read_selected_hashed};
use crate::pipeline::read::sets::{distinct_loci, locus_rows, Loaded};

/// What `contrast` makes.
#[derive(Debug)]
pub struct ContrastOptions {
    /// The output directory (replaced as a whole only if `contrast` wrote it).
    pub out: PathBuf,
    /// The variant rules.
    pub config: ContrastConfig,
    /// A tagger of the target language: `replaced` then goes by its UD features
    /// ([`crate::config::contrast::ByFeatures`]) instead of the word list.
    pub tagger: Option<Tagger>,
    /// How the references are parsed for the judgement's checked renderings of the loci
    /// ([`crate::locus::verdict::renderings`]): the words the variants change.
    pub parsing: crate::locus::Parsing,
}

/// A token's byte span in its line.
type Span = (usize, usize);

/// The span of `tok`, a slice of `line`.
fn span(line: &str, tok: &str) -> Span {
    let s = tok.as_ptr() as usize - line.as_ptr() as usize;
    (s, s + tok.len())
}

/// Whether `character` opens what follows it (a bracket or a quotation mark), so that a word
/// after it is written without a space.
fn opens(character: char) -> bool {
    matches!(
        character,
        '(' | '[' | '{' | '„' | '‚' | '“' | '‘' | '«' | '‹' | '¿' | '¡' | '"' | '\''
    )
}

/// `text` without the spans, each removed with at most one of the two runs of whitespace
/// beside it, so that everything else is kept byte for byte, spaces included, and no word
/// gains or loses its attachment: a token between two runs goes with the run before it; a
/// token glued only to what follows goes with the run before it when punctuation follows
/// (`lighting up.` → `lighting.`); a token glued only to what precedes goes with the run
/// after it when that is an opening bracket or quotation mark (`„eine Frau` → `„Frau`);
/// otherwise the token goes alone (`hin, dass` → `hin dass`). At the text's edges a token
/// goes with the run on its inner side.
fn without(text: &str, spans: &[Span]) -> String {
    let mut out = text.to_string();
    let mut sorted = spans.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    for &(s, e) in sorted.iter().rev() {
        let space = |c: &char| c.is_whitespace();
        let left: usize = out[..s]
            .chars()
            .rev()
            .take_while(space)
            .map(char::len_utf8)
            .sum();
        let right: usize = out[e..].chars().take_while(space).map(char::len_utf8).sum();
        let before = out[..s - left].chars().next_back();
        let after = out[e + right..].chars().next();
        let (s, e) = match (left > 0, right > 0) {
            (true, true) => (s - left, e),
            (true, false) if !after.is_some_and(char::is_alphanumeric) => (s - left, e),
            (false, true) if before.is_none_or(opens) => (s, e + right),
            _ => (s, e),
        };
        out.replace_range(s..e, "");
    }
    out
}

/// `text` with the first letter of `like` upper case when `like`'s is.
fn cased(text: &str, like: &str) -> String {
    if like.chars().next().is_some_and(char::is_uppercase) {
        let mut c = text.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect())
            .unwrap_or_default()
    } else {
        text.to_string()
    }
}

/// A reference line as `contrast` changes it.
pub struct Reference<'a> {
    /// The line.
    pub text: &'a str,
    /// Its tokens (slices of it) as the aligner tokenized them.
    pub toks: &'a [&'a str],
    /// Their tags, when a target-language tagger is given.
    pub tags: Option<&'a [ldd_parse::Tag]>,
}

/// The replacements of the reference token `tok` (at `position`, 1-based) for a
/// `replaced` variant: by its UD features when the reference was tagged (with those
/// features), else from the word list.
fn replacements<'c>(
    tok: &str,
    position: u32,
    reference: &Reference,
    config: &'c ContrastConfig,
    target_lang: &str,
) -> (Vec<&'c str>, String) {
    match reference.tags {
        Some(tags) => {
            let (Some(t), Some(inventory)) = (
                tags.get(position as usize - 1),
                config.pronouns.get(target_lang),
            ) else {
                return (Vec::new(), String::new());
            };
            let subs = config.by_features.replacements(tok, &t.feats, inventory);
            (subs, t.feats.clone())
        }
        None => {
            let subs = config
                .replace
                .get(target_lang)
                .and_then(|l| l.get(&tok.to_lowercase()))
                .map(|v| v.iter().map(String::as_str).collect())
                .unwrap_or_default();
            (subs, String::new())
        }
    }
}

/// Whether the reference token `tok` (at `position`, 1-based) is a pronoun: tagged `PRON`
/// when the reference was tagged, else one of the variant rules' pronouns of the target
/// language (`[replace]`, `[pronouns]`). A reflexive's variants change its pronoun only:
/// the aligner's other links for it (`to`, `was` for German *sich* in English) are no
/// reflexive to drop.
fn is_pronoun(
    tok: &str,
    position: u32,
    reference: &Reference,
    config: &ContrastConfig,
    target_lang: &str,
) -> bool {
    match reference.tags {
        Some(tags) => tags
            .get(position as usize - 1)
            .is_some_and(|t| t.upos == "PRON"),
        None => {
            let w = tok.to_lowercase();
            config
                .replace
                .get(target_lang)
                .is_some_and(|l| l.contains_key(&w))
                || config
                    .pronouns
                    .get(target_lang)
                    .is_some_and(|l| l.contains_key(&w))
        }
    }
}

/// A reference token: its byte span in the line and its text.
type Token<'a> = (Span, &'a str);

/// The words of `tokens`, joined by spaces.
fn words(tokens: &[Token]) -> String {
    tokens
        .iter()
        .map(|token| token.1)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `dropped`: the reference without the dependent's tokens.
fn dropped_variant(kind: &str, reference: &str, dep: &[Token]) -> Variant {
    let spans: Vec<Span> = dep.iter().map(|token| token.0).collect();
    Variant {
        kind: kind.to_string(),
        text: without(reference, &spans),
        original: words(dep),
        replacement: String::new(),
        features: String::new(),
    }
}

/// `moved`: the one dependent token removed as `dropped` removes it, then put back right
/// after the head's last token, with one space before it; `None` when it is already right
/// after the head (only space between) or inside it.
fn moved_variant(kind: &str, reference: &str, dep: Token, head: &[Token]) -> Option<Variant> {
    let ((dep_start, dep_end), word) = dep;
    let head_end = head.iter().map(|token| token.0 .1).max().unwrap_or(0);
    let head_start = head.iter().map(|token| token.0 .0).min().unwrap_or(0);
    let after_head = dep_start >= head_end && reference[head_end..dep_start].trim().is_empty();
    if after_head || (dep_start >= head_start && dep_end <= head_end) {
        return None;
    }
    let dropped = without(reference, &[(dep_start, dep_end)]);
    let at = if dep_start >= head_end {
        head_end
    } else {
        head_end - (reference.len() - dropped.len())
    };
    Some(Variant {
        kind: kind.to_string(),
        text: format!("{} {word}{}", &dropped[..at], &dropped[at..]),
        original: word.to_string(),
        replacement: word.to_string(),
        features: String::new(),
    })
}

/// `replaced`: every dependent token replaced by each of its replacements, cased as it.
fn replaced_variants(
    kind: &str,
    reference: &Reference,
    dep: &[Token],
    dep_at: &[u32],
    config: &ContrastConfig,
    target_lang: &str,
) -> Vec<Variant> {
    let text = reference.text;
    let mut out = Vec::new();
    for (&((start, end), word), &position) in dep.iter().zip(dep_at) {
        let (subs, features) = replacements(word, position, reference, config, target_lang);
        for sub in subs {
            let sub = cased(sub, word);
            out.push(Variant {
                kind: kind.to_string(),
                text: format!("{}{sub}{}", &text[..start], &text[end..]),
                original: word.to_string(),
                replacement: sub,
                features: features.clone(),
            });
        }
    }
    out
}

/// `swapped`: the one dependent token and the one head token exchanged; `None` when they
/// are the same word.
fn swapped_variant(kind: &str, reference: &str, dep: Token, head: Token) -> Option<Variant> {
    let (first, second) = if dep.0 < head.0 {
        (dep, head)
    } else {
        (head, dep)
    };
    let ((s1, e1), t1) = first;
    let ((s2, e2), t2) = second;
    if t1 == t2 {
        return None;
    }
    Some(Variant {
        kind: kind.to_string(),
        text: format!(
            "{}{t2}{}{t1}{}",
            &reference[..s1],
            &reference[e1..s2],
            &reference[e2..]
        ),
        original: format!("{t1} {t2}"),
        replacement: format!("{t2} {t1}"),
        features: String::new(),
    })
}

/// The variants of `reference_line` for a locus of `phenomenon`.
pub fn variants(
    phenomenon: &str,
    reference_line: &Reference,
    loc: &Locus,
    config: &ContrastConfig,
    target_lang: &str,
) -> Vec<Variant> {
    let (reference, toks) = (reference_line.text, reference_line.toks);
    let at = |p: u32| toks.get(p as usize - 1).map(|t| (span(reference, t), *t));
    // The dependent's tokens and their positions (1-based).
    let (dep, dep_at): (Vec<Token>, Vec<u32>) = loc
        .ref_dep
        .iter()
        .filter_map(|r| Some((at(r.position)?, r.position)))
        .unzip();
    let head: Vec<Token> = loc.ref_head.iter().filter_map(|r| at(r.position)).collect();
    let mut out = Vec::new();
    for kind in config.kinds(phenomenon) {
        match kind.as_str() {
            "dropped" if !dep.is_empty() => out.push(dropped_variant(kind, reference, &dep)),
            "moved" if dep.len() == 1 && !head.is_empty() => {
                out.extend(moved_variant(kind, reference, dep[0], &head));
            }
            "replaced" => {
                out.extend(replaced_variants(
                    kind,
                    reference_line,
                    &dep,
                    &dep_at,
                    config,
                    target_lang,
                ));
            }
            "swapped" if dep.len() == 1 && head.len() == 1 && dep[0].0 != head[0].0 => {
                out.extend(swapped_variant(kind, reference, dep[0], head[0]));
            }
            _ => {}
        }
    }
    // The same text twice (a list naming a pronoun twice) is one variant.
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|v| v.text != reference && seen.insert(v.text.clone()));
    out
}

/// Whether `dir` is an output of `contrast` that a new run may replace: it has a readable
/// `contrast.json` and nothing but what `contrast` writes (a file added there is never
/// deleted).
pub fn is_contrast_dir(dir: &Path) -> bool {
    crate::format::is_record::<ContrastRecord>(&dir.join(layout::CONTRAST_RECORD))
        && ldd_io::foreign_entries(dir, &layout::is_contrast_file).is_empty()
}

/// Refuses a tagger for a target language whose pronouns the rules do not list.
fn check_tagger(config: &ContrastConfig, tagger: Option<&Tagger>, target_lang: &str) -> Result<()> {
    if tagger.is_some() && !config.pronouns.contains_key(target_lang) {
        return Err(Error::Config(format!(
            "contrast --target-model: the variant rules list no pronouns of `{}` \
             ([pronouns.{0}] in config/contrast.toml); add them and pass --variants FILE",
            ldd_io::error::escape(target_lang)
        )));
    }
    Ok(())
}

/// A set (its unit's index) and its locus rows.
type LocusSet = (usize, Vec<Locus>);

/// The locus rows of every set that has a locus file (at least one), and whether the
/// aligner tokenized the reference as pretokenized (the sets must have been aligned).
fn locus_sets(loaded: &Loaded) -> Result<(Vec<LocusSet>, bool)> {
    let mut sets: Vec<LocusSet> = Vec::new();
    for unit in 0..loaded.units.len() {
        if let Some(rows) = locus_rows(loaded, unit)? {
            sets.push((unit, rows));
        }
    }
    if sets.is_empty() {
        return Err(Error::Config(format!(
            "{} names no locus file (the sets were made by an older ldd-sets); extract again",
            ldd_io::error::shown(&loaded.manifest_path)
        )));
    }
    let Some(reorder) = &loaded.manifest.reorder else {
        return Err(Error::Config(format!(
            "contrast: {} records no aligner (the sets were made with --no-reorder), so its \
             locus files have no reference words to change; extract again without --no-reorder",
            ldd_io::error::shown(&loaded.manifest_path)
        )));
    };
    Ok((sets, reorder.options.align.pretokenized))
}

/// The source and reference lines `ids`, each side read as the sets were made from it
/// (its SHA-256 as the manifest records it): another line count or one edited word would
/// change which word is dropped.
fn read_lines(loaded: &Loaded, ids: &[u32]) -> Result<(Vec<String>, Vec<String>)> {
    let manifest = &loaded.manifest;
    for side in [&manifest.inputs.source.path, &manifest.inputs.target.path] {
        if !side.is_file() {
            return Err(Error::Io {
                path: side.clone(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!(
                        "the corpus {} records is not there (paths are as given to extract, \
                         relative to the directory it ran in: run contrast from there)",
                        ldd_io::error::shown(&loaded.manifest_path)
                    ),
                ),
            });
        }
    }
    let mut sides = Vec::new();
    for side in [&manifest.inputs.source, &manifest.inputs.target] {
        let input = open_corpus_long(&side.path, manifest.corpus.lines, &loaded.manifest_path)?;
        let (lines, n, sha) = read_selected_hashed(input, ids)?;
        if n != manifest.corpus.lines || sha != side.sha256 {
            return Err(Error::Data(format!(
                "{}: changed since the sets of {} were made from it ({n} lines, SHA-256 {sha}; \
                 the manifest records {} lines, {}); extract again",
                ldd_io::error::shown(&side.path),
                ldd_io::error::shown(&loaded.manifest_path),
                manifest.corpus.lines,
                side.sha256
            )));
        }
        sides.push(lines);
    }
    let references = sides.pop().unwrap_or_default();
    let sources = sides.pop().unwrap_or_default();
    Ok((sources, references))
}

/// The item of a locus with its variants, numbered `number`, its source line at
/// `first_line` of the item files.
fn contrast_item(
    number: usize,
    phenomenon: &str,
    buckets: Vec<String>,
    loc: &Locus,
    lines: (&str, &str),
    variants: Vec<Variant>,
    first_line: u64,
) -> ContrastItem {
    ContrastItem {
        item: format!("C{number:06}"),
        phenomenon: phenomenon.to_string(),
        sets: buckets,
        distance: loc.distance,
        line: loc.id,
        source: lines.0.to_string(),
        reference: lines.1.to_string(),
        locus: ItemLocus {
            dep: loc.dep.id,
            dep_word: loc.dep.form.clone(),
            head: loc.head.as_ref().map(|h| h.id),
            head_word: loc.head.as_ref().map(|h| h.form.clone()),
            ref_dep: loc.ref_dep.iter().map(|r| r.position).collect(),
            ref_head: loc.ref_head.iter().map(|r| r.position).collect(),
        },
        variants,
        first_line,
    }
}

/// The items of every distinct locus of `loaded` (phenomenon, line, dependent, head; in the
/// order of the phenomena in the manifest, then of line, dependent and head) that has
/// variants, and the number of loci without any: loci → lines → variants → items.
pub fn items(
    loaded: &Loaded,
    config: &ContrastConfig,
    tagger: Option<&Tagger>,
    parsing: &crate::locus::Parsing,
) -> Result<(Vec<ContrastItem>, u64)> {
    let target_lang = loaded.manifest.languages.target();
    check_tagger(config, tagger, target_lang)?;
    let (sets, pretokenized) = locus_sets(loaded)?;
    let by_set: Vec<(usize, &[Locus])> = sets.iter().map(|(k, r)| (*k, r.as_slice())).collect();
    let distinct = distinct_loci(loaded, &by_set);
    let mut ids: Vec<u32> = distinct
        .iter()
        .map(|d| sets[d.set].1[d.row].id as u32)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let (sources, references) = read_lines(loaded, &ids)?;
    let line: BTreeMap<u32, (&String, &String)> = ids
        .iter()
        .copied()
        .zip(sources.iter().zip(&references))
        .collect();
    let checked = Checked::new(loaded, parsing, &line)?;
    let (mut items, mut skipped, mut next) = (Vec::new(), 0u64, 1u64);
    for d in distinct {
        let (unit, rows) = &sets[d.set];
        let phenomenon = &loaded.units[*unit].set.phenomenon;
        let Some((source, reference)) = line.get(&(rows[d.row].id as u32)) else {
            continue;
        };
        let kind = crate::locus::kind_of(loaded, *unit);
        let Some(loc) = checked.locus(&rows[d.row], kind) else {
            skipped += 1;
            continue;
        };
        let toks = ldd_align::line_tokens(reference, pretokenized);
        // Tagged only where a `replaced` variant may come of it.
        let replaces =
            !loc.ref_dep.is_empty() && config.kinds(phenomenon).iter().any(|k| k == "replaced");
        let tags = match tagger {
            Some(t) if replaces => Some(t.tags(loc.id as u32, &toks)?),
            _ => None,
        };
        let r = Reference {
            text: reference,
            toks: &toks,
            tags: tags.as_deref(),
        };
        // A phenomenon with `replaced` variants (a reflexive) varies its pronouns only.
        let mut loc = loc;
        if config.kinds(phenomenon).iter().any(|k| k == "replaced") {
            loc.ref_dep.retain(|t| {
                let tok = toks.get(t.position as usize - 1).copied().unwrap_or("");
                is_pronoun(tok, t.position, &r, config, target_lang)
            });
        }
        let v = variants(phenomenon, &r, &loc, config, target_lang);
        if v.is_empty() {
            skipped += 1;
            continue;
        }
        let first_line = next;
        next += 1 + v.len() as u64;
        let lines = (source.as_str(), reference.as_str());
        let number = items.len() + 1;
        items.push(contrast_item(
            number, phenomenon, d.buckets, &loc, lines, v, first_line,
        ));
    }
    Ok((items, skipped))
}

/// The references of the loci's lines as the locus judgement sees them — aligned to their
/// source words by the sets' aligner and parsed by the target model — so that every
/// variant changes the renderings the judgement compares against, checked
/// ([`crate::locus::verdict::renderings`]): not a comma, a name or an unlikely word the
/// aligner linked to a reflexive.
struct Checked {
    loci: crate::locus::Loci,
    sides: crate::locus::Sides,
    trained: crate::pipeline::align::Trained,
    judging: crate::locus::Judging,
}

impl Checked {
    /// The reference lines `line` (by id: source and reference) of `loaded`'s loci.
    fn new(
        loaded: &Loaded,
        parsing: &crate::locus::Parsing,
        line: &BTreeMap<u32, (&String, &String)>,
    ) -> Result<Checked> {
        let loci = crate::locus::read_loci(loaded)?;
        let judging = crate::locus::Judging::new(loaded, None, parsing)?;
        let trained = judging.load()?;
        let texts: BTreeMap<u32, String> = line.iter().map(|(id, l)| (*id, l.1.clone())).collect();
        let sides = judging.align_texts(&trained, &texts, &loci.words)?;
        Ok(Checked {
            loci,
            sides,
            trained,
            judging,
        })
    }

    /// `loc` with its reference tokens the checked renderings of its words (`kind`: its
    /// set's); `None` for a locus whose phenomenon has a relation in the target language
    /// that does not apply to it (a parser's false hit: a head that is no verb).
    fn locus(&self, loc: &Locus, kind: crate::locus::Kind<'_>) -> Option<Locus> {
        let id = loc.id as u32;
        let side = self.sides.get(&id)?;
        let cx = crate::locus::Context {
            words: &self.loci.words,
            upos: &self.loci.upos,
            lexicon: &self.trained,
            target: self.judging.target(),
            relations: &self.judging.relations,
        };
        let line = cx.line(id);
        let found = crate::locus::verdict::renderings(&line, loc, kind, side);
        let has_relation = self
            .judging
            .relations
            .get(line.target, kind.phenomenon)
            .is_some();
        if has_relation && found.relation.is_none() {
            return None;
        }
        let tokens = |positions: &[usize]| -> Vec<crate::format::locus::RefToken> {
            positions
                .iter()
                .map(|&p| crate::format::locus::RefToken {
                    position: p as u32 + 1,
                    form: side.tokens[p].clone(),
                    conf: None,
                })
                .collect()
        };
        Some(Locus {
            ref_dep: tokens(&found.dep),
            ref_head: tokens(found.head.as_deref().unwrap_or(&[])),
            ..loc.clone()
        })
    }
}

/// The corpus's name: the source file's name without `.gz`, its language and its pair
/// (`pud.de-en.de` → `pud`).
fn corpus_name(loaded: &Loaded) -> String {
    let file = loaded
        .manifest
        .inputs
        .source
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name = file.strip_suffix(".gz").unwrap_or(&file).to_string();
    let (s, t) = (
        loaded.manifest.languages.source(),
        loaded.manifest.languages.target(),
    );
    for suffix in [format!(".{s}"), format!(".{s}-{t}"), format!(".{t}-{s}")] {
        if let Some(n) = name.strip_suffix(&suffix) {
            name = n.to_string();
        }
    }
    name
}

/// The lowest `ge` set of `sets` (else the first set): the set of a phenomenon that holds
/// all its items.
fn lowest_set(sets: &[String]) -> String {
    let ge = |b: &String| b.strip_prefix("ge").and_then(|k| k.parse::<u32>().ok());
    sets.iter()
        .filter_map(|b| Some((ge(b)?, b)))
        .min()
        .map(|(_, b)| b.clone())
        .or_else(|| sets.first().cloned())
        .unwrap_or_default()
}

/// Whether a TSV cell reads back as written with a CSV reader's default quoting too (it
/// does not start with a quotation mark).
fn round_trips(cell: &str) -> bool {
    !cell.starts_with('"')
}

/// An item in ContraPro's format; `toks` are the reference's tokens.
fn contrapro_item(item: &ContrastItem, corpus: &str, toks: &[&str]) -> ContraProItem {
    let head_toks: Vec<&str> = item
        .locus
        .ref_head
        .iter()
        .filter_map(|&p| toks.get(p as usize - 1).copied())
        .collect();
    ContraProItem {
        document: corpus.to_string(),
        segment: item.line,
        src_segment: item.source.clone(),
        ref_segment: item.reference.clone(),
        src_pronoun: item.phenomenon.clone(),
        ref_pronoun: lowest_set(&item.sets),
        ante_distance: item.distance,
        intrasegmental: true,
        src_ante_phrase: item.locus.head_word.clone().unwrap_or_default(),
        ref_ante_phrase: head_toks.join(" "),
        errors: item
            .variants
            .iter()
            .map(|v| ContraProError {
                contrastive: v.text.clone(),
                replacement: v.replacement.clone(),
                kind: v.kind.clone(),
            })
            .collect(),
        item: item.item.clone(),
    }
}

/// An item in LingEval97's format (its error kind LingEval97's own where the phenomenon
/// has one).
fn lingeval_item(item: &ContrastItem, corpus: &str) -> LingEvalItem {
    let lingeval_kind = LINGEVAL97
        .iter()
        .find(|(p, _)| *p == item.phenomenon)
        .map(|(_, c)| c.to_string());
    LingEvalItem {
        source: item.source.clone(),
        reference: item.reference.clone(),
        origin: format!("{corpus}.{}", item.line),
        errors: item
            .variants
            .iter()
            .map(|v| LingEvalError {
                kind: lingeval_kind
                    .clone()
                    .unwrap_or_else(|| contrast_label(&item.phenomenon, &v.kind)),
                contrastive: v.text.clone(),
                distance: item.distance,
            })
            .collect(),
    }
}

/// A line of the plain-text sides: no line break inside.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// The texts of the files of `contrast`, built item by item.
#[derive(Default)]
struct ContrastFiles {
    jsonl: String,
    source: String,
    target: String,
    aces_tsv: String,
    aces_jsonl: String,
    contrapro: Vec<ContraProItem>,
    lingeval: Vec<LingEvalItem>,
}

impl ContrastFiles {
    /// A variant's row of ACES (variant kinds ACES has a phenomenon for), in JSON lines
    /// and, when every cell reads back as written, in the TSV file.
    fn add_aces(
        &mut self,
        item: &ContrastItem,
        variant: &Variant,
        langpair: &str,
        record: &mut ContrastRecord,
    ) -> Result<()> {
        let Some((_, phenomena, _)) = ACES.iter().find(|(k, _, _)| *k == variant.kind) else {
            return Ok(());
        };
        let row = AcesRow {
            source: item.source.clone(),
            good: item.reference.clone(),
            incorrect: variant.text.clone(),
            reference: item.reference.clone(),
            phenomena: phenomena.to_string(),
            langpair: langpair.to_string(),
            ldd_phenomenon: contrast_label(&item.phenomenon, &variant.kind),
            ldd_item: item.item.clone(),
        };
        self.aces_jsonl.push_str(&json(&row)?);
        self.aces_jsonl.push('\n');
        record.aces_rows += 1;
        let cells = [
            spreadsheet_tsv_cell(&row.source),
            spreadsheet_tsv_cell(&row.good),
            spreadsheet_tsv_cell(&row.incorrect),
            spreadsheet_tsv_cell(&row.reference),
            spreadsheet_tsv_cell(&row.phenomena),
            spreadsheet_tsv_cell(&row.langpair),
            spreadsheet_tsv_cell(&row.ldd_phenomenon),
            spreadsheet_tsv_cell(&row.ldd_item),
        ];
        if cells.iter().all(|c| round_trips(c)) {
            let _ = writeln!(self.aces_tsv, "{}", cells.join("\t"));
            record.aces_tsv_rows += 1;
        }
        Ok(())
    }

    /// An item with its variants, in every format, counted in `record`.
    fn add(
        &mut self,
        item: &ContrastItem,
        corpus: &str,
        pretokenized: bool,
        langpair: &str,
        record: &mut ContrastRecord,
    ) -> Result<()> {
        self.jsonl.push_str(&json(item)?);
        self.jsonl.push('\n');
        let _ = writeln!(self.source, "{}", one_line(&item.source));
        let _ = writeln!(self.target, "{}", one_line(&item.reference));
        *record
            .per_phenomenon
            .entry(item.phenomenon.clone())
            .or_default() += 1;
        let toks = ldd_align::line_tokens(&item.reference, pretokenized);
        self.contrapro.push(contrapro_item(item, corpus, &toks));
        self.lingeval.push(lingeval_item(item, corpus));
        for variant in &item.variants {
            let _ = writeln!(self.source, "{}", one_line(&item.source));
            let _ = writeln!(self.target, "{}", one_line(&variant.text));
            record.variants += 1;
            *record.per_type.entry(variant.kind.clone()).or_default() += 1;
            self.add_aces(item, variant, langpair, record)?;
        }
        Ok(())
    }
}

/// The files of `contrast` from its items: `(name, text)` in the order they are written.
fn files(
    loaded: &Loaded,
    items: &[ContrastItem],
    record: &mut ContrastRecord,
) -> Result<Vec<(String, String)>> {
    let (sl, tl) = (
        loaded.manifest.languages.source(),
        loaded.manifest.languages.target(),
    );
    let pretokenized = loaded
        .manifest
        .reorder
        .as_ref()
        .is_some_and(|r| r.options.align.pretokenized);
    let corpus = corpus_name(loaded);
    let langpair = format!("{sl}-{tl}");
    let mut out = ContrastFiles {
        aces_tsv: format!("{ACES_HEADER}\n"),
        ..Default::default()
    };
    for item in items {
        out.add(item, &corpus, pretokenized, &langpair, record)?;
    }
    Ok(vec![
        (layout::CONTRAST_ITEMS.to_string(), out.jsonl),
        (layout::contrast_side(sl), out.source),
        (layout::contrast_side(tl), out.target),
        (
            layout::CONTRAST_CONTRAPRO.to_string(),
            pretty(&out.contrapro)?,
        ),
        (
            layout::CONTRAST_LINGEVAL97.to_string(),
            pretty(&out.lingeval)?,
        ),
        (layout::CONTRAST_ACES.to_string(), out.aces_tsv),
        (layout::CONTRAST_ACES_JSONL.to_string(), out.aces_jsonl),
    ])
}

/// `value` as one line of JSON.
fn json<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::Data(e.to_string()))
}

/// `value` as indented JSON, with a final line break.
fn pretty<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string_pretty(value)
        .map(|s| s + "\n")
        .map_err(|e| Error::Data(e.to_string()))
}

/// Writes the items of `loaded` into `options.out` (all or nothing) and returns the record.
pub fn contrast_sets(loaded: &Loaded, options: &ContrastOptions) -> Result<ContrastRecord> {
    let (items, skipped) = items(
        loaded,
        &options.config,
        options.tagger.as_ref(),
        &options.parsing,
    )?;
    let (sl, tl) = (
        loaded.manifest.languages.source(),
        loaded.manifest.languages.target(),
    );
    let mut record = ContrastRecord {
        tool: format!("ldd-sets {}", env!("CARGO_PKG_VERSION")),
        manifest_sha256: loaded.manifest_sha256.clone(),
        languages: [sl.to_string(), tl.to_string()],
        items: items.len() as u64,
        variants: 0,
        per_type: BTreeMap::new(),
        per_phenomenon: BTreeMap::new(),
        skipped,
        replaced_by: match &options.tagger {
            Some(t) => format!("features|model:{}", t.sha),
            None => "word list".into(),
        },
        aces_rows: 0,
        aces_tsv_rows: 0,
        items_sha256: String::new(),
    };
    let mut written = files(loaded, &items, &mut record)?;
    // `score --contrast` reads the items only if they are these.
    if let Some((_, jsonl)) = written.iter().find(|(n, _)| n == layout::CONTRAST_ITEMS) {
        record.items_sha256 = ldd_io::sha256_bytes(jsonl.as_bytes());
    }
    written.push((layout::CONTRAST_RECORD.to_string(), pretty(&record)?));
    let inputs = [
        loaded.manifest_path.as_path(),
        loaded.manifest.inputs.source.path.as_path(),
        loaded.manifest.inputs.target.path.as_path(),
    ];
    let staging = Staging::new(&options.out, &is_contrast_dir, &inputs)?;
    let root = staging.path().to_path_buf();
    for (name, text) in written {
        ldd_io::write_bytes_atomic(&root.join(name), text.as_bytes())?;
    }
    staging.commit(&is_contrast_dir)?;
    Ok(record)
}

#[cfg(test)]
mod tests;

//! Where every file of ldd-sets lives: the one module that names output files, used by the
//! writers that create them and the readers that find them again.
//!
//! What enters: a phenomenon, a bucket, a language, a system's name.
//! What leaves: the name of its file (a path relative to the output directory, or one
//! beside a given file or directory).
//!
//! An output directory `OUT` (paths relative to it):
//!
//! ```text
//! manifest.json  summary.csv                    the run, and one row per set
//! <phenomenon>/<bucket>.{<src>,<tgt>,ids,conllu,marked.<src>,locus.tsv}   a set
//! reorder/ge<k>.{…, marked.<tgt>}                a reorder set
//! reorder/alignments.txt  reorder/reorder.tsv   every line's alignment and measures
//! reorder/aligner.hmm.ldda (or .fwd/.rev.ldda)   the aligner that aligned them
//! <phenomenon>/controls/<bucket>.<k>.{ids,<src>,<tgt>}   control k (1-based) of a set
//! <set file stem>.hyp.<system>  <control stem>.hyp.<system>   `slice`'s per-set outputs
//! scores.json  scores.csv  report.html  report.tex   `score` and `report`
//! shard-lengths.txt  shard-parse.conllu.gz       a shard's extras, for `merge`
//! ```
//!
//! Annotation (`sheets --out DIR`, `tally --out DIR`): `DIR/{detection.csv,
//! translation.csv,form.html,sheets.json}`, the key `DIR.key.csv` beside DIR;
//! `tally.json`, `tally.csv`.
//!
//! Corpora (`corpora`, `run`): `<dir>/<name>.<files>.<lang>.gz`; aligner models:
//! `<prefix>.hmm.ldda`, or fast_align's `<prefix>.fwd.ldda`, `<prefix>.rev.ldda`; the
//! aligner cache: `<cache>/aligners/<key>.json` and the model `<cache>/aligners/<key>.*`;
//! `check-detection`'s text of a gold file, parsed into the cache: `<cache>/gold-text.txt`
//! (a temporary file, removed once parsed).
//!
//! In short (what enters → what leaves): the name of every file ldd-sets writes (sets,
//! marked files, buckets, controls, reorder files, `slice`'s outputs, scores, report, shard
//! extras, corpora, aligner models), used by the writers and by the readers; no other code
//! spells a file name (`tests/architecture.rs`)

use std::path::{Path, PathBuf};

/// The text of a gold file's sentences that `check-detection` parses, one per line, in the
/// parse cache (written as a temporary file and removed once parsed).
pub const GOLD_TEXT: &str = "gold-text.txt";
/// The run's record: `OUT/manifest.json`.
pub const MANIFEST: &str = "manifest.json";
/// One row per set: `OUT/summary.csv`.
pub const SUMMARY: &str = "summary.csv";
/// `score`'s result: `scores.json`.
pub const SCORES_JSON: &str = "scores.json";
/// `score`'s rows as CSV: `scores.csv`.
pub const SCORES_CSV: &str = "scores.csv";
/// `contrast`'s items: `items.jsonl`.
pub const CONTRAST_ITEMS: &str = "items.jsonl";
/// `contrast`'s record: `contrast.json`.
pub const CONTRAST_RECORD: &str = "contrast.json";
/// `contrast`'s rows for metric challenge sets (ACES columns): `aces.tsv`.
pub const CONTRAST_ACES: &str = "aces.tsv";
/// `contrast`'s items in the JSON-lines form of ACES's published dataset: `aces.jsonl`.
pub const CONTRAST_ACES_JSONL: &str = "aces.jsonl";
/// `contrast`'s items as ContraPro's `evaluate.py` reads them: `contrapro.json`.
pub const CONTRAST_CONTRAPRO: &str = "contrapro.json";
/// `contrast`'s items as LingEval97's `evaluate.py` and `json_to_plaintext.py` read them:
/// `lingeval97.json`.
pub const CONTRAST_LINGEVAL97: &str = "lingeval97.json";

/// One side of `contrast`'s plain files: `contrast.<lang>`.
pub fn contrast_side(lang: &str) -> String {
    format!("contrast.{lang}")
}

/// Whether `name` is a file `contrast` writes into its output directory.
pub fn is_contrast_file(name: &str) -> bool {
    [
        CONTRAST_ITEMS,
        CONTRAST_RECORD,
        CONTRAST_ACES,
        CONTRAST_ACES_JSONL,
        CONTRAST_CONTRAPRO,
        CONTRAST_LINGEVAL97,
    ]
    .contains(&name)
        || name.strip_prefix("contrast.").is_some_and(|lang| {
            !lang.is_empty() && lang.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// `permute`'s record: `permute.json`.
pub const PERMUTE_RECORD: &str = "permute.json";
/// `permute`'s σ, one line of 0-based positions: `permutation.txt`.
pub const PERMUTATION: &str = "permutation.txt";

/// A file of one `permute` setting and split: `<setting>/<split>.<lang>`.
pub fn permute_file(setting: &str, split: &str, lang: &str) -> String {
    format!("{setting}/{split}.{lang}")
}

/// The corpus line numbers of a `permute` split: `<split>.ids`.
pub fn permute_ids(split: &str) -> String {
    format!("{split}.ids")
}

/// Locus accuracy's judgement of every locus and system (`score --metrics locus`):
/// `scores.loci.tsv` ([`crate::format::judged`]).
pub const SCORES_LOCI: &str = "scores.loci.tsv";
/// A shard's source lengths, for merge to draw controls: `shard-lengths.txt`.
pub const SHARD_LENGTHS: &str = "shard-lengths.txt";
/// A shard's parse, for merge to join: `shard-parse.conllu.gz`.
pub const SHARD_PARSE: &str = "shard-parse.conllu.gz";
/// The directory of reorder sets and files (also the phenomenon name of reorder sets).
pub const REORDER_DIR: &str = "reorder";

/// The name of a bucket: `ge<distance>` (at least `distance`) or `eq<distance>` (exactly).
pub fn bucket(exact: bool, distance: u32) -> String {
    if exact {
        format!("eq{distance}")
    } else {
        format!("ge{distance}")
    }
}

/// A set's file: `<dir>/<name>.<ext>` (`ext` a language code, `ids`, `conllu`, or
/// [`marked`]).
pub fn set_file(dir: &str, name: &str, ext: &str) -> String {
    format!("{dir}/{name}.{ext}")
}

/// The extension of a set's marked file in `lang`: `marked.<lang>`.
pub fn marked(lang: &str) -> String {
    format!("marked.{lang}")
}

/// The extension of a set's line ids: `ids`.
pub const IDS: &str = "ids";
/// The extension of a set's trees: `conllu`.
pub const CONLLU: &str = "conllu";
/// An annotation sheet of detection items: `detection.csv` (in `sheets --out DIR`).
pub const SHEET_DETECTION: &str = "detection.csv";
/// An annotation sheet of translation items: `translation.csv`.
pub const SHEET_TRANSLATION: &str = "translation.csv";
/// The sheets as one page to fill in: `form.html`.
pub const SHEET_FORM: &str = "form.html";
/// What `sheets` sampled: `sheets.json`.
pub const SHEET_RECORD: &str = "sheets.json";
/// Whether `name` is a file `sheets` writes into its directory.
pub fn is_sheets_file(name: &str) -> bool {
    [SHEET_DETECTION, SHEET_TRANSLATION, SHEET_FORM, SHEET_RECORD].contains(&name)
}

/// `tally`'s result: `tally.json`.
pub const TALLY_JSON: &str = "tally.json";
/// `tally`'s groups as CSV: `tally.csv`.
pub const TALLY_CSV: &str = "tally.csv";
/// The campaign `mqm --export` writes: its segments, `segments.tsv` (line, segment, doc).
pub const MQM_SEGMENTS: &str = "segments.tsv";
/// What `mqm --export` wrote, with every file's SHA-256: `export.json`.
pub const MQM_EXPORT_RECORD: &str = "export.json";
/// The folder of the systems' outputs `mqm --export` writes.
pub const MQM_SYSTEMS: &str = "systems";
/// The corpus name `mqm --export` gives the campaign (files `mqm.SRC-TGT.LANG`).
pub const MQM_CORPUS: &str = "mqm";

/// One side of the corpus `mqm --export` writes: `<dir>/mqm.<src>-<tgt>.<lang>`.
pub fn mqm_side(dir: &Path, pair: &str, lang: &str) -> PathBuf {
    dir.join(format!("{}.{lang}", corpus_stem(MQM_CORPUS, pair)))
}

/// A system's output as `mqm --export` writes it: `systems/<system>.<lang>`.
pub fn mqm_system(dir: &Path, system: &str, lang: &str) -> PathBuf {
    dir.join(MQM_SYSTEMS).join(format!("{system}.{lang}"))
}

/// `mqm`'s report: `mqm.json`.
pub const MQM_JSON: &str = "mqm.json";
/// `mqm`'s human and automatic accuracy per system and set: `mqm.csv`.
pub const MQM_CSV: &str = "mqm.csv";
/// `mqm`'s loci where the judgement and the raters disagree: `mqm.disagreements.tsv`.
pub const MQM_DISAGREEMENTS: &str = "mqm.disagreements.tsv";

/// The key of the sheets directory `<parent>/<name>`: `<parent>/<name>.key.csv`, beside it,
/// so the directory can be given to annotators as it is.
pub fn sheets_key(parent: &Path, name: &str) -> PathBuf {
    parent.join(format!("{name}.key.csv"))
}

/// The extension of a set's locus file: `locus.tsv`.
pub const LOCUS: &str = "locus.tsv";

/// Every line's Pharaoh alignment: `reorder/alignments.txt`.
pub fn reorder_alignments() -> String {
    format!("{REORDER_DIR}/alignments.txt")
}

/// The confidence of every link of [`reorder_alignments`]: `reorder/posteriors.txt`.
pub fn reorder_posteriors() -> String {
    format!("{REORDER_DIR}/posteriors.txt")
}

/// Every line's reordering measures: `reorder/reorder.tsv`.
pub fn reorder_measures() -> String {
    format!("{REORDER_DIR}/reorder.tsv")
}

/// The prefix of the aligner model saved in an output (files by [`model_files`]):
/// `reorder/aligner`.
pub fn reorder_aligner() -> String {
    format!("{REORDER_DIR}/aligner")
}

/// The aligner cache inside the cache directory `cache` (that of parses): `aligners/`.
pub fn aligner_cache_dir(cache: &Path) -> PathBuf {
    cache.join("aligners")
}

/// The record of the aligner cache's entry `key` in the cache `dir`: `<key>.json`; its
/// model's prefix is `dir/<key>`.
pub fn aligner_cache_entry(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.json"))
}

/// The stem of a set's control files: `<phenomenon>/controls/<bucket>`.
pub fn control_prefix(phenomenon: &str, bucket: &str) -> String {
    format!("{phenomenon}/controls/{bucket}")
}

/// Control number `control` (1-based) of the set whose control stem is `prefix`:
/// `<prefix>.<control>`, to which a file's extension is added ([`with_ext`]).
pub fn control_stem(prefix: &str, control: usize) -> String {
    format!("{prefix}.{control}")
}

/// File `ext` of control number `control` (1-based) of the set whose control stem is `prefix`:
/// `<prefix>.<control>.<ext>`.
pub fn control_file(prefix: &str, control: usize, ext: &str) -> String {
    with_ext(&control_stem(prefix, control), ext)
}

/// `<stem>.<ext>`.
pub fn with_ext(stem: &str, ext: &str) -> String {
    format!("{stem}.{ext}")
}

/// The stem of a set's files, from its ids file (`p/ge1.ids` → `p/ge1`).
pub fn set_stem(ids_file: &str) -> &str {
    ids_file
        .strip_suffix(&format!(".{IDS}"))
        .unwrap_or(ids_file)
}

/// `slice`'s output for `system` of the set or control with stem `stem`:
/// `<stem>.hyp.<system>`.
pub fn hyp_file(stem: &str, system: &str) -> String {
    format!("{stem}.hyp.{system}")
}

/// A report's default file in the sets directory: `report.<ext>`.
pub fn report_file(sets: &Path, ext: &str) -> PathBuf {
    sets.join(format!("report.{ext}"))
}

/// The common stem of a corpus's two sides: `<name>.<files>`.
pub fn corpus_stem(name: &str, files: &str) -> String {
    format!("{name}.{files}")
}

/// One side of a corpus as `corpora` writes it: `<dir>/<name>.<files>.<lang>.gz`.
pub fn corpus_side(dir: &Path, name: &str, files: &str, lang: &str) -> PathBuf {
    dir.join(format!("{}.{lang}.gz", corpus_stem(name, files)))
}

/// The corpus name of a file named like a side of a corpus (`<name>.<files>.<lang>[.gz]`),
/// or `None`.
pub fn corpus_name<'a>(file: &'a str, files: &str, lang: &str) -> Option<&'a str> {
    let stem = file.strip_suffix(".gz").unwrap_or(file);
    stem.strip_suffix(&format!(".{files}.{lang}"))
}

/// The files a corpus side may be, given the stem (`P` → `P.<lang>.gz`, `P.<lang>`), in
/// the order they are looked for.
pub fn side_candidates(stem: &str, lang: &str) -> [String; 2] {
    let base = format!("{stem}.{lang}");
    [format!("{base}.gz"), base]
}

/// A saved aligner model of fast_align's type: `<prefix>.fwd.ldda` or `<prefix>.rev.ldda`.
pub fn model_file(prefix: &Path, reverse: bool) -> PathBuf {
    with_suffix(prefix, if reverse { ".rev.ldda" } else { ".fwd.ldda" })
}

/// A saved HMM aligner model, both directions: `<prefix>.hmm.ldda`.
pub fn hmm_model_file(prefix: &Path) -> PathBuf {
    with_suffix(prefix, ".hmm.ldda")
}

/// The files of a saved aligner model: `<prefix>.hmm.ldda` for the HMM (`hmm`), else
/// fast_align's two (forward, reverse).
pub fn model_files(prefix: &Path, hmm: bool) -> Vec<PathBuf> {
    if hmm {
        vec![hmm_model_file(prefix)]
    } else {
        vec![model_file(prefix, false), model_file(prefix, true)]
    }
}

fn with_suffix(prefix: &Path, suffix: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names the README documents, as the writers and readers get them.
    #[test]
    fn names_are_the_documented_ones() {
        assert_eq!(set_file("prt", &bucket(false, 3), IDS), "prt/ge3.ids");
        assert_eq!(
            set_file(REORDER_DIR, &bucket(true, 1), &marked("en")),
            "reorder/eq1.marked.en"
        );
        let c = control_stem(&control_prefix("prt", "ge3"), 2);
        assert_eq!(with_ext(&c, "de"), "prt/controls/ge3.2.de");
        assert_eq!(
            control_file("prt/controls/ge3", 2, IDS),
            "prt/controls/ge3.2.ids"
        );
        assert_eq!(hyp_file(set_stem("prt/ge3.ids"), "sys"), "prt/ge3.hyp.sys");
        assert_eq!(hyp_file(&c, "sys"), "prt/controls/ge3.2.hyp.sys");
        assert_eq!(reorder_measures(), "reorder/reorder.tsv");
        assert_eq!(
            hmm_model_file(Path::new(&reorder_aligner())),
            Path::new("reorder/aligner.hmm.ldda")
        );
        assert_eq!(
            corpus_side(Path::new("c"), "newstest2013", "de-en", "de"),
            Path::new("c/newstest2013.de-en.de.gz")
        );
        assert_eq!(
            corpus_name("newstest2013.de-en.de.gz", "de-en", "de"),
            Some("newstest2013")
        );
        assert_eq!(corpus_name("newstest2013.de-en.en", "de-en", "de"), None);
        assert_eq!(
            side_candidates("c/x", "en"),
            ["c/x.en.gz".to_string(), "c/x.en".to_string()]
        );
        assert_eq!(
            model_file(Path::new("m/a"), true),
            Path::new("m/a.rev.ldda")
        );
        assert_eq!(
            report_file(Path::new("s"), "tex"),
            Path::new("s/report.tex")
        );
    }
}

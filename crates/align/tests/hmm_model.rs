//! The HMM model by agreement as a saved, reusable model: it aligns as training does, saves
//! and loads bit-exactly, is told apart from fast_align's model files, refuses bad files,
//! and aligns the same at any thread count; fast_align's older files still load.

mod common;

use std::path::{Path, PathBuf};

use ldd_align::{
    tokenize, train_and_align_hmm_joint, AlignError, Corpus, HmmModel, HmmOptions, Model,
    TrainOptions,
};

fn parallel(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/parallel")
        .join(name)
}

/// The first `n` pairs of a shared de-en corpus, tokenized and lowercased.
fn shared_corpus(prefix: &str, n: usize) -> Corpus {
    let read = |lang: &str| ldd_io::read_lines(&parallel(&format!("{prefix}.{lang}"))).unwrap();
    let (de, en) = (read("de"), read("en"));
    let mut c = Corpus::new();
    for (d, e) in de.iter().zip(&en).take(n) {
        let lower =
            |s: &str| -> Vec<String> { tokenize(s).into_iter().map(str::to_lowercase).collect() };
        c.push_pair(&lower(d), &lower(e));
    }
    c
}

fn pud() -> Corpus {
    shared_corpus("pud.de-en", 1000)
}

fn opts() -> HmmOptions {
    HmmOptions {
        hmm_iterations: 3,
        ..HmmOptions::default()
    }
}

/// Training the model and aligning with it gives exactly what training and aligning in one
/// call gives: links and posteriors of both directions and of the agreed alignment.
#[test]
fn the_model_aligns_its_training_corpus_as_training_does() {
    let c = pud();
    let once = train_and_align_hmm_joint(&c, &opts()).unwrap();
    let model = HmmModel::train(&c, &opts()).unwrap();
    let again = model.align(&c);
    assert_eq!(again, once);
    // A real alignment: most target words of PUD are linked in each direction.
    let links: usize = again.forward.links.iter().map(Vec::len).sum();
    let words: usize = (0..c.len()).map(|k| c.lengths(k).1).sum();
    assert!(
        links * 10 > words * 7,
        "{links} links for {words} target words"
    );
}

/// save → load gives the same alignments, on the training corpus and on another one (with
/// unseen words), the same labels and options, and saving again gives the same bytes.
#[test]
fn round_trip_aligns_identically() {
    let dir = tempfile::tempdir().unwrap();
    let c = pud();
    let mut model = HmmModel::train(&c, &opts()).unwrap();
    model.set_labels("de", "en");
    let path = dir.path().join("m.hmm.ldda");
    model.save(&path).unwrap();
    let loaded = HmmModel::load(&path).unwrap();
    assert_eq!(loaded.labels(), Some(("de", "en")));
    assert_eq!(loaded.options(), model.options());
    assert_eq!(loaded.num_params(), model.num_params());
    assert_eq!(loaded.align(&c), model.align(&c));
    let other = shared_corpus("newstest2013.de-en", 300);
    let (a, b) = (loaded.align(&other), model.align(&other));
    assert_eq!(a, b);
    assert_eq!(a.forward.links.len(), 300);
    let path2 = dir.path().join("m2.hmm.ldda");
    loaded.save(&path2).unwrap();
    assert!(std::fs::read(&path).unwrap() == std::fs::read(&path2).unwrap());
}

/// The same alignments with one thread and with two.
#[test]
fn aligns_the_same_at_any_thread_count() {
    let c = pud();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let m = HmmModel::train(&c, &opts()).unwrap();
            m.align(&c)
        })
    };
    assert_eq!(run(1), run(2));
}

fn model_error(r: Result<impl Sized, AlignError>, path: &Path) -> String {
    match r {
        Err(e @ AlignError::ModelFormat { .. }) | Err(e @ AlignError::Io { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains(&path.display().to_string()), "{msg}");
            msg
        }
        Err(e) => panic!("unexpected error kind {e}"),
        Ok(_) => panic!("loaded a bad model from {}", path.display()),
    }
}

/// An HMM file is not loaded as fast_align's model nor the other way round, each error
/// naming the other kind; truncated and corrupted HMM files are errors naming the file.
#[test]
fn kinds_told_apart_and_bad_files_refused() {
    let dir = tempfile::tempdir().unwrap();
    let c = shared_corpus("pud.de-en", 200);
    let hmm = dir.path().join("m.hmm.ldda");
    HmmModel::train(&c, &opts()).unwrap().save(&hmm).unwrap();
    let fa = dir.path().join("m.fwd.ldda");
    Model::train(&c, &TrainOptions::default())
        .unwrap()
        .save(&fa)
        .unwrap();
    assert!(model_error(Model::load(&hmm), &hmm).contains("an HMM model"));
    assert!(model_error(HmmModel::load(&fa), &fa).contains("a fast_align model"));
    let bytes = std::fs::read(&hmm).unwrap();
    for cut in [0usize, 7, 12, 60, bytes.len() / 2, bytes.len() - 1] {
        let p = dir.path().join(format!("cut{cut}"));
        std::fs::write(&p, &bytes[..cut]).unwrap();
        model_error(HmmModel::load(&p), &p);
    }
    for pos in [13usize, 50, bytes.len() / 3, bytes.len() - 2] {
        let mut b = bytes.clone();
        b[pos] ^= 0x5a;
        let p = dir.path().join(format!("flip{pos}"));
        std::fs::write(&p, &b).unwrap();
        model_error(HmmModel::load(&p), &p);
    }
}

/// A version-2 file turned into version 1 (no side labels), as ldd-sets 1 wrote them.
fn as_version_1(v2: &[u8]) -> Vec<u8> {
    // magic (8) | version (4) | flags, iterations (8) | four f64 (32) | two labels.
    let mut pos = 8 + 4 + 8 + 32;
    for _ in 0..2 {
        let n = u32::from_le_bytes(v2[pos..pos + 4].try_into().unwrap()) as usize;
        pos += 4 + n;
    }
    let mut out = v2[..8].to_vec();
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&v2[12..52]);
    out.extend_from_slice(&v2[pos..v2.len() - 4]);
    let mut crc = flate2::Crc::new();
    crc.update(&out);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out
}

/// fast_align's model files of the earlier versions still load and align as they did:
/// version 2 (what `Model::save` still writes) and version 1 (no labels).
#[test]
fn old_fast_align_files_still_load() {
    let dir = tempfile::tempdir().unwrap();
    let c = shared_corpus("pud.de-en", 300);
    let mut m = Model::train(&c, &TrainOptions::default()).unwrap();
    m.set_labels("de", "en");
    let v2 = dir.path().join("v2.fwd.ldda");
    m.save(&v2).unwrap();
    let bytes = std::fs::read(&v2).unwrap();
    assert_eq!(
        &bytes[8..12],
        &2u32.to_le_bytes(),
        "fast_align's files stay version 2"
    );
    let v1 = dir.path().join("v1.fwd.ldda");
    std::fs::write(&v1, as_version_1(&bytes)).unwrap();
    let (l2, l1) = (Model::load(&v2).unwrap(), Model::load(&v1).unwrap());
    assert_eq!(l2.labels(), Some(("de", "en")));
    assert_eq!(l1.labels(), None);
    assert_eq!(l1.align(&c), m.align(&c));
    assert_eq!(l2.align(&c), m.align(&c));
}

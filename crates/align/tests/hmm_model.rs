//! The aligner as a trained, saved, reusable model (the HMM by agreement, and fast_align's
//! files): trained on pairs in memory or streamed from a store alike, saved and loaded
//! bit-exactly, the same at any thread count, files of the other kind or a bad file
//! refused, older files still loaded; and what pruning the table costs.

mod common;

use std::path::{Path, PathBuf};

use ldd_align::{
    tokenize, AlignError, Aligned, Aligner, AlignerSpec, Corpus, Direction, HmmOptions, Model,
    ModelFile, PairStoreBuilder, TrainOptions, SILENT,
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

fn spec() -> AlignerSpec {
    AlignerSpec::Hmm(HmmOptions {
        hmm_iterations: 3,
        ..HmmOptions::default()
    })
}

fn align(a: &Aligner, c: &Corpus, d: Direction) -> Aligned {
    a.align(c, d, SILENT).unwrap()
}

fn hmm_file(dir: &Path, name: &str) -> impl Fn(ModelFile) -> PathBuf {
    let p = dir.join(name);
    move |_| p.clone()
}

/// Training on the pairs in memory or streamed from a store gives the same aligner (saved
/// bytes equal) and the same links and posteriors; a real alignment: most target words of
/// PUD are linked in each direction.
#[test]
fn a_store_trains_as_memory_does() {
    let dir = tempfile::tempdir().unwrap();
    let c = pud();
    let mut b = PairStoreBuilder::new().unwrap();
    b.push_pairs(&c).unwrap();
    let store = b.finish().unwrap();
    assert_eq!(store.len(), c.len());
    let from_memory = Aligner::train(&c, &spec(), SILENT).unwrap();
    let from_store = Aligner::train(&store, &spec(), SILENT).unwrap();
    let (p1, p2) = (dir.path().join("m.hmm"), dir.path().join("s.hmm"));
    from_memory.save(|_| p1.clone()).unwrap();
    from_store.save(|_| p2.clone()).unwrap();
    assert!(std::fs::read(&p1).unwrap() == std::fs::read(&p2).unwrap());
    for d in Direction::ALL {
        let a = align(&from_memory, &c, d);
        assert_eq!(a, from_store.align(&store, d, SILENT).unwrap(), "{d}");
    }
    let fwd = align(&from_memory, &c, Direction::Forward);
    let links: usize = fwd.links.iter().map(Vec::len).sum();
    let words: usize = (0..c.len()).map(|k| c.lengths(k).1).sum();
    assert!(
        links * 10 > words * 7,
        "{links} links for {words} target words"
    );
}

/// save → load gives the same alignments, on the training corpus and on another one (with
/// unseen words), the same labels and sizes, and saving again gives the same bytes.
#[test]
fn round_trip_aligns_identically() {
    let dir = tempfile::tempdir().unwrap();
    let c = pud();
    let mut model = Aligner::train(&c, &spec(), SILENT).unwrap();
    model.set_labels("de", "en");
    model.save(hmm_file(dir.path(), "m.hmm.ldda")).unwrap();
    let path = dir.path().join("m.hmm.ldda");
    let loaded = Aligner::load(&[(ModelFile::Hmm, &path)]).unwrap();
    assert_eq!(loaded.labels(), Some(("de", "en")));
    assert_eq!(loaded.num_params(), model.num_params());
    assert!(loaded.has_posteriors());
    let other = shared_corpus("newstest2013.de-en", 300);
    for d in [Direction::Intersection, Direction::GrowDiagFinalAnd] {
        assert_eq!(align(&loaded, &c, d), align(&model, &c, d));
        let (a, b) = (align(&loaded, &other, d), align(&model, &other, d));
        assert_eq!(a, b);
        assert_eq!(a.links.len(), 300);
    }
    loaded.save(hmm_file(dir.path(), "m2.hmm.ldda")).unwrap();
    assert!(
        std::fs::read(&path).unwrap() == std::fs::read(dir.path().join("m2.hmm.ldda")).unwrap()
    );
}

/// The same alignments and posteriors, bit for bit, with one thread and with two, with
/// the table pruned (the default) and whole.
#[test]
fn aligns_the_same_at_any_thread_count() {
    let c = pud();
    for prune in [HmmOptions::default().prune, 0.0] {
        let spec = AlignerSpec::Hmm(HmmOptions {
            hmm_iterations: 3,
            prune,
            ..HmmOptions::default()
        });
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let m = Aligner::train(&c, &spec, SILENT).unwrap();
                align(&m, &c, Direction::GrowDiagFinalAnd)
            })
        };
        assert_eq!(run(1), run(2), "prune {prune}");
    }
}

/// Pruning keeps part of the table and costs little: on PUD and newstest2013 (4,000 pairs)
/// the pruned aligner keeps fewer word pairs than the whole table holds, and its
/// intersection links agree with the unpruned aligner's on at least 97% of them.
#[test]
fn pruning_keeps_fewer_pairs_and_nearly_the_same_links() {
    let mut c = pud();
    let news = shared_corpus("newstest2013.de-en", 3000);
    for k in 0..news.len() {
        c.push_pair(&news.src_tokens(k), &news.tgt_tokens(k));
    }
    let train = |prune| {
        let spec = AlignerSpec::Hmm(HmmOptions {
            prune,
            ..HmmOptions::default()
        });
        Aligner::train(&c, &spec, SILENT).unwrap()
    };
    let (pruned, whole) = (train(HmmOptions::default().prune), train(0.0));
    assert!(
        pruned.num_params() * 10 < whole.num_params() * 9,
        "{} of {}",
        pruned.num_params(),
        whole.num_params()
    );
    let (a, b) = (
        align(&pruned, &c, Direction::Intersection),
        align(&whole, &c, Direction::Intersection),
    );
    let (mut same, mut all) = (0, 0);
    for (x, y) in a.links.iter().zip(&b.links) {
        same += x.iter().filter(|l| y.contains(l)).count();
        all += x.len().max(y.len());
    }
    assert!(same * 100 >= all * 97, "{same} of {all} links the same");
}

fn model_error(r: Result<Aligner, AlignError>, path: &Path) -> String {
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
/// naming the other kind; a forward file is not the reverse one; truncated and corrupted
/// HMM files are errors naming the file.
#[test]
fn kinds_told_apart_and_bad_files_refused() {
    let dir = tempfile::tempdir().unwrap();
    let c = shared_corpus("pud.de-en", 200);
    let hmm = dir.path().join("m.hmm.ldda");
    let a = Aligner::train(&c, &spec(), SILENT).unwrap();
    a.save(|_| hmm.clone()).unwrap();
    let fa = dir.path().join("m.fwd.ldda");
    Model::train(&c, &TrainOptions::default())
        .unwrap()
        .save(&fa)
        .unwrap();
    let fast = |reverse| ModelFile::FastAlign { reverse };
    assert!(model_error(Aligner::load(&[(fast(false), &hmm)]), &hmm).contains("an HMM model"));
    assert!(
        model_error(Aligner::load(&[(ModelFile::Hmm, &fa)]), &fa).contains("a fast_align model")
    );
    assert!(model_error(Aligner::load(&[(fast(true), &fa)]), &fa).contains("a forward model"));
    let bytes = std::fs::read(&hmm).unwrap();
    for cut in [0usize, 7, 12, 60, bytes.len() / 2, bytes.len() - 1] {
        let p = dir.path().join(format!("cut{cut}"));
        std::fs::write(&p, &bytes[..cut]).unwrap();
        model_error(Aligner::load(&[(ModelFile::Hmm, &p)]), &p);
    }
    for pos in [13usize, 50, bytes.len() / 3, bytes.len() - 2] {
        let mut b = bytes.clone();
        b[pos] ^= 0x5a;
        let p = dir.path().join(format!("flip{pos}"));
        std::fs::write(&p, &b).unwrap();
        model_error(Aligner::load(&[(ModelFile::Hmm, &p)]), &p);
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
/// version 2 (what is still written) and version 1 (no labels).
#[test]
fn old_fast_align_files_still_load() {
    let dir = tempfile::tempdir().unwrap();
    let c = shared_corpus("pud.de-en", 300);
    let spec = AlignerSpec::FastAlign {
        options: TrainOptions::default(),
        direction: Direction::Forward,
    };
    let mut m = Aligner::train(&c, &spec, SILENT).unwrap();
    m.set_labels("de", "en");
    let v2 = dir.path().join("v2.fwd.ldda");
    m.save(|_| v2.clone()).unwrap();
    let bytes = std::fs::read(&v2).unwrap();
    assert_eq!(
        &bytes[8..12],
        &2u32.to_le_bytes(),
        "fast_align's files stay version 2"
    );
    let v1 = dir.path().join("v1.fwd.ldda");
    std::fs::write(&v1, as_version_1(&bytes)).unwrap();
    let file = ModelFile::FastAlign { reverse: false };
    let l2 = Aligner::load(&[(file, &v2)]).unwrap();
    let l1 = Aligner::load(&[(file, &v1)]).unwrap();
    assert_eq!(l2.labels(), Some(("de", "en")));
    assert_eq!(l1.labels(), None);
    let d = Direction::Forward;
    assert_eq!(align(&l1, &c, d), align(&m, &c, d));
    assert_eq!(align(&l2, &c, d), align(&m, &c, d));
    assert!(!l2.has_posteriors());
}

/// An HMM file of version 3 (each direction's whole table, before the shared pruned table),
/// saved by ldd-sets trained on the first 12 PUD pairs, loads and aligns those pairs as
/// that ldd-sets did (its Pharaoh output, kept beside the file).
#[test]
fn version_3_hmm_files_still_load() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let model = data.join("pud12-v3.hmm.ldda");
    let a = Aligner::load(&[(ModelFile::Hmm, &model)]).unwrap();
    assert_eq!(a.labels(), Some(("de", "en")));
    let read = |lang: &str| ldd_io::read_lines(&parallel(&format!("pud.de-en.{lang}"))).unwrap();
    let (de, en) = (read("de"), read("en"));
    let mut c = Corpus::new();
    for (d, e) in de.iter().zip(&en).take(12) {
        c.push_pair(&tokenize(d), &tokenize(e));
    }
    let expected = ldd_align::pharaoh::read_file(data.join("pud12-v3.align"), None).unwrap();
    let got = align(&a, &c, Direction::Intersection);
    assert_eq!(got.links, expected);
    assert!(got.links.iter().map(Vec::len).sum::<usize>() > 25);
}

/// The lexical translation probabilities the aligner holds, as the locus judgement reads
/// them (`Aligner::lexical`; the model is trained lowercased): on PUD, *regierung* translates
/// as *government* in both directions, far
/// above an unrelated pair; a word the model never saw gets `UNSEEN_PROB`; fast_align's
/// model gives the directions it has, and a saved and loaded aligner the same values.
#[test]
fn lexical_probabilities_of_a_word_pair() {
    let c = pud();
    let a = Aligner::train(&c, &spec(), SILENT).unwrap();
    let (f, r) = a.lexical("regierung", "government");
    let (f, r) = (f.unwrap(), r.unwrap());
    assert!(f > 0.2 && r > 0.2, "{f} {r}");
    let (uf, ur) = a.lexical("regierung", "banana");
    assert!(uf.unwrap() < f / 100.0 && ur.unwrap() < r / 100.0);
    assert_eq!(
        a.lexical("nichtsowort", "government"),
        (Some(ldd_align::UNSEEN_PROB), Some(ldd_align::UNSEEN_PROB))
    );
    let dir = tempfile::tempdir().unwrap();
    a.save(hmm_file(dir.path(), "m.ldda")).unwrap();
    let p = dir.path().join("m.ldda");
    let b = Aligner::load(&[(ModelFile::Hmm, p.as_path())]).unwrap();
    assert_eq!(
        b.lexical("regierung", "government"),
        a.lexical("regierung", "government")
    );
    let fast = AlignerSpec::FastAlign {
        options: TrainOptions::default(),
        direction: Direction::Forward,
    };
    let fa = Aligner::train(&c, &fast, SILENT).unwrap();
    let (f, r) = fa.lexical("regierung", "government");
    assert!(f.unwrap() > 0.2 && r.is_none(), "{f:?} {r:?}");
}

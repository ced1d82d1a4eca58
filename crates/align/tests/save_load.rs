//! Model files: round trip and errors on bad files.

mod common;

use ldd_align::{AlignError, Model, TrainOptions};

fn trained(reverse: bool) -> (Model, ldd_align::Corpus) {
    let corpus = common::random_corpus(500, 80, 9);
    let opts = TrainOptions {
        reverse,
        ..TrainOptions::default()
    };
    (Model::train(&corpus, &opts).unwrap(), corpus)
}

/// save -> load gives the same options, tension, probabilities and alignments (also on a
/// corpus the model was not trained on), and saving the loaded model gives the same bytes.
#[test]
fn round_trip_identical_alignments() {
    let dir = tempfile::tempdir().unwrap();
    for reverse in [false, true] {
        let (model, corpus) = trained(reverse);
        let path = dir.path().join("model.lddalign");
        model.save(&path).unwrap();
        let loaded = Model::load(&path).unwrap();
        assert_eq!(loaded.tension().to_bits(), model.tension().to_bits());
        assert_eq!(loaded.num_params(), model.num_params());
        assert_eq!(loaded.options().reverse, reverse);
        assert_eq!(loaded.align(&corpus), model.align(&corpus));
        let other = common::random_corpus(100, 120, 77);
        assert_eq!(loaded.align(&other), model.align(&other));
        assert_eq!(loaded.prob(Some("s1"), "t1"), model.prob(Some("s1"), "t1"));
        assert_eq!(loaded.prob(None, "t1"), model.prob(None, "t1"));
        let path2 = dir.path().join("model2.lddalign");
        loaded.save(&path2).unwrap();
        assert!(std::fs::read(&path).unwrap() == std::fs::read(&path2).unwrap());
    }
}

fn assert_model_error(path: &std::path::Path, what: &str) {
    match Model::load(path) {
        Err(e @ AlignError::ModelFormat { .. }) | Err(e @ AlignError::Io { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains(&path.display().to_string()), "{what}: {msg}");
        }
        Err(e) => panic!("{what}: unexpected error kind {e}"),
        Ok(_) => panic!("{what}: loaded a bad model"),
    }
}

/// Missing, truncated, corrupted, foreign and empty files are errors naming the file.
#[test]
fn bad_files_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (model, _) = trained(false);
    let good = dir.path().join("good.lddalign");
    model.save(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();

    assert_model_error(&dir.path().join("missing.lddalign"), "missing");
    for cut in [0usize, 5, 12, 100, bytes.len() / 2, bytes.len() - 1] {
        let p = dir.path().join(format!("cut{cut}.lddalign"));
        std::fs::write(&p, &bytes[..cut]).unwrap();
        assert_model_error(&p, "truncated");
    }
    for pos in [9usize, 40, bytes.len() / 3, bytes.len() - 2] {
        let mut b = bytes.clone();
        b[pos] ^= 0x5a;
        let p = dir.path().join(format!("flip{pos}.lddalign"));
        std::fs::write(&p, &b).unwrap();
        assert_model_error(&p, "corrupted");
    }
    let p = dir.path().join("text.lddalign");
    std::fs::write(&p, "0-0 1-1\n").unwrap();
    assert_model_error(&p, "foreign");
    let msg = Model::load(&p).unwrap_err().to_string();
    assert!(msg.contains("magic"), "{msg}");
}

//! Results must be bit-identical whatever the number of threads.

mod common;

use ldd_align::{Model, TrainOptions};

/// Training and aligning inside explicitly built 1-thread and 2-thread rayon pools gives
/// identical alignments and byte-identical saved models, in both directions.
#[test]
fn one_and_two_threads_identical() {
    let corpus = common::random_corpus(1500, 300, 42);
    let dir = tempfile::tempdir().unwrap();
    for reverse in [false, true] {
        let opts = TrainOptions {
            reverse,
            ..TrainOptions::default()
        };
        let mut runs = Vec::new();
        for threads in [1usize, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let (model, al) = pool.install(|| Model::train_and_align(&corpus, &opts).unwrap());
            let al2 = pool.install(|| model.align(&corpus));
            assert_eq!(al, al2);
            let path = dir.path().join(format!("m{threads}{reverse}.bin"));
            model.save(&path).unwrap();
            runs.push((al, std::fs::read(&path).unwrap(), model.tension()));
        }
        assert_eq!(
            runs[0].0, runs[1].0,
            "alignments differ (reverse={reverse})"
        );
        assert_eq!(runs[0].2.to_bits(), runs[1].2.to_bits(), "tension differs");
        assert!(
            runs[0].1 == runs[1].1,
            "saved models differ (reverse={reverse})"
        );
    }
    // The `threads` option builds its own pool and gives the same result too.
    let opts = TrainOptions {
        threads: Some(3),
        ..TrainOptions::default()
    };
    let (_, al3) = Model::train_and_align(&corpus, &opts).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (_, al1) = pool
        .install(|| Model::train_and_align(&corpus, &TrainOptions::default()))
        .unwrap();
    assert_eq!(al1, al3);
}

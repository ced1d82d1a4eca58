//! Control sampling and RIBES on the shared Books sample (source lengths from the German side).

use std::path::PathBuf;

use ldd_eval::{ribes, sample_controls, ControlOptions, EvalError};

fn read_gz(rel: &str) -> Vec<String> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared")
        .join(rel);
    ldd_io::read_lines(&p).unwrap_or_else(|e| panic!("{e}"))
}

fn lengths() -> Vec<u32> {
    read_gz("data/parallel/books-sample.de-en.de.gz")
        .iter()
        .map(|l| l.split_whitespace().count() as u32)
        .collect()
}

#[test]
fn books_controls_are_length_matched_and_reproducible() {
    let lengths = lengths();
    assert_eq!(lengths.len(), 28030);
    // a "challenge set": every 40th line with 15..=40 source words
    let set: Vec<u32> = (1..=28030u32)
        .filter(|&i| i % 40 == 0 && (15..=40).contains(&lengths[i as usize - 1]))
        .collect();
    assert!(set.len() > 100);
    let opts = ControlOptions {
        count: 100,
        seed: 2019,
        ..Default::default()
    };
    let c = sample_controls(&lengths, &set, &opts).expect("controls");
    assert_eq!(c.controls.len(), 100);
    assert_eq!(c.shortfall_total(), 0, "mid-length sentences are plentiful");
    for ctl in &c.controls {
        assert_eq!(ctl.ids.len(), set.len());
        for (&s, &p) in set.iter().zip(&ctl.ids) {
            assert!(set.binary_search(&p).is_err(), "set member drawn");
            assert!(lengths[s as usize - 1].abs_diff(lengths[p as usize - 1]) <= 1);
        }
        let total: u32 = ctl.histogram.iter().map(|&(_, n)| n).sum();
        assert_eq!(total as usize, set.len());
    }
    assert_eq!(c, sample_controls(&lengths, &set, &opts).expect("controls"));
    let other = ControlOptions { seed: 2020, ..opts };
    assert_ne!(
        c.controls,
        sample_controls(&lengths, &set, &other)
            .expect("controls")
            .controls
    );
}

#[test]
fn books_long_sentences_fall_back_and_report() {
    let lengths = lengths();
    let max = *lengths.iter().max().expect("non-empty");
    // the 20 longest lines: their ±1 windows run dry, so partners come from wider windows
    let mut by_len: Vec<u32> = (1..=28030u32).collect();
    by_len.sort_by_key(|&i| std::cmp::Reverse(lengths[i as usize - 1]));
    let mut set: Vec<u32> = by_len[..20].to_vec();
    set.sort_unstable();
    let opts = ControlOptions {
        count: 5,
        seed: 1,
        ..Default::default()
    };
    let c = sample_controls(&lengths, &set, &opts).expect("controls");
    assert!(c.shortfall_total() > 0, "longest sentence has {max} words");
    for ctl in &c.controls {
        for s in &ctl.shortfalls {
            assert!(s
                .lengths_used
                .iter()
                .all(|&(l, _)| s.set_length.abs_diff(l) > 1));
            assert_eq!(s.count, s.lengths_used.iter().map(|&(_, n)| n).sum::<u32>());
        }
    }
    // a pool smaller than the set is an error, not a loop
    let tiny = vec![3u32, 4, 0, 5];
    assert_eq!(
        sample_controls(&tiny, &[1, 2, 4], &opts),
        Err(EvalError::PoolTooSmall {
            needed: 3,
            available: 0
        })
    );
}

#[test]
fn ribes_on_books_reference_vs_reordered() {
    let refs = read_gz("data/parallel/books-sample.de-en.en.gz");
    let sample: Vec<&String> = refs.iter().step_by(97).collect();
    let same = ribes::line_stats(&sample, &sample).expect("ribes");
    let reversed: Vec<String> = sample
        .iter()
        .map(|l| l.split_whitespace().rev().collect::<Vec<_>>().join(" "))
        .collect();
    let rev = ribes::line_stats(&reversed, &sample).expect("ribes");
    use ldd_eval::{sum_all, SufficientStats};
    assert_eq!(sum_all(&same).score(&()), 1.0);
    let r = sum_all(&rev).score(&());
    assert!(r < 0.2, "reversed corpus RIBES {r}");
}

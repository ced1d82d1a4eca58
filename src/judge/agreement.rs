//! How far the locus judgement agrees with MQM raters (`mqm`), and the same figures for
//! two baselines that know nothing of the locus: **segment chrF at the same share** (the
//! judged items of the lowest sentence chrF called incorrect, as many as the judgement
//! calls incorrect: the same coverage and the same share, so only *which* items differ)
//! at the item level, and **corpus BLEU** at the system level.
//!
//! Items are words or loci of one system's output (a word of a line, a locus), each with
//! the judgement, the raters' verdict, the output's sentence chrF and its group (the same
//! word or locus in every system's output: what the permutation test shuffles within).

use ldd_eval::agreement::{kendall_tau_b, within_group_permutation, Table};
use ldd_eval::stats::spearman;

use crate::format::judged::Judgement;
use crate::format::mqm::{Agreement, Counted, Silent};

/// One judged item.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Item {
    /// The same word or locus in every system's output.
    pub group: u64,
    /// The judgement.
    pub judgement: Judgement,
    /// Whether the raters saw an error there (`None`: their verdict cannot be located:
    /// the output has no token for the word, and no rater marked it in the source).
    pub error: Option<bool>,
    /// The output line's sentence chrF (0–1): the baseline's evidence.
    pub chrf: f64,
}

/// The permutation test's settings.
#[derive(Debug, Clone, Copy)]
pub struct Permutations {
    /// Shuffles (0: no test).
    pub shuffles: usize,
    /// Their seed.
    pub seed: u64,
}

/// The item-level agreement of `items`' judgements with the raters (the system-level
/// fields left empty: [`with_systems`]).
pub fn agreement(items: &[Item], permutations: Permutations) -> Agreement {
    let mut not_judged = [Counted::default(); 4];
    let mut judged = Vec::new();
    for x in items {
        match x.judgement.judged() {
            Some(correct) => judged.push((x.group, !correct, x.error)),
            None => {
                let k = match x.judgement {
                    Judgement::Unaligned => 0,
                    Judgement::Differs => 2,
                    Judgement::Partial => 3,
                    _ => 1,
                };
                not_judged[k].add(x.error == Some(true));
            }
        }
    }
    let [unaligned, no_reference, differs, partial] = not_judged;
    Agreement {
        unaligned,
        no_reference,
        differs,
        partial,
        ..table(items.len() as u64, &judged, permutations)
    }
}

/// The baseline of `items`: their judged items with a located rater verdict ranked by
/// sentence chrF (ties in item order), the lowest called incorrect — as many as the
/// judgement calls incorrect among them; the items not judged, or without a located
/// verdict, are left out as the judgement's are.
pub fn chrf_baseline(items: &[Item], permutations: Permutations) -> Agreement {
    let judged: Vec<&Item> = items
        .iter()
        .filter(|x| x.judgement.judged().is_some())
        .collect();
    let located: Vec<usize> = (0..judged.len())
        .filter(|&k| judged[k].error.is_some())
        .collect();
    let incorrect = located
        .iter()
        .filter(|&&k| judged[k].judgement == Judgement::Incorrect)
        .count();
    let mut order = located.clone();
    order.sort_by(|&a, &b| judged[a].chrf.total_cmp(&judged[b].chrf).then(a.cmp(&b)));
    // Items without a located verdict keep the judgement's call (they are counted apart).
    let mut called: Vec<bool> = judged
        .iter()
        .map(|x| x.judgement == Judgement::Incorrect)
        .collect();
    for &k in &located {
        called[k] = false;
    }
    for &k in order.iter().take(incorrect) {
        called[k] = true;
    }
    let rows: Vec<(u64, bool, Option<bool>)> = judged
        .iter()
        .zip(called)
        .map(|(x, c)| (x.group, c, x.error))
        .collect();
    table(items.len() as u64, &rows, permutations)
}

/// The 2×2 table of `rows` (group, called incorrect, rater error) of `items` items: the
/// rows without a located rater verdict are counted apart ([`Agreement::silent`]).
fn table(items: u64, rows: &[(u64, bool, Option<bool>)], permutations: Permutations) -> Agreement {
    let mut silent = Silent::default();
    let located: Vec<(u64, bool, bool)> = rows
        .iter()
        .filter_map(|&(g, a, e)| match e {
            Some(e) => Some((g, a, e)),
            None => {
                silent.items += 1;
                silent.incorrect += u64::from(a);
                None
            }
        })
        .collect();
    let rows = &located;
    let t = Table::of(rows.iter().map(|&(_, a, e)| (a, e)));
    Agreement {
        items,
        judged: t.n() + silent.items,
        silent,
        coverage: (items > 0).then(|| (t.n() + silent.items) as f64 / items as f64),
        incorrect_and_error: t.tp,
        incorrect_no_error: t.fp,
        correct_and_error: t.fn_,
        correct_no_error: t.tn,
        incorrect_share: t.automatic_rate(),
        rater_error_rate: t.people_rate(),
        error_if_incorrect: t.precision(),
        error_if_correct: t.miss_rate(),
        mcc: (t.n() > 0).then(|| t.mcc()),
        kappa: t.kappa(),
        permutation_p: (t.n() > 0 && permutations.shuffles > 0)
            .then(|| within_group_permutation(rows, permutations.shuffles, permutations.seed)),
        permutations: permutations.shuffles,
        ..Agreement::default()
    }
}

/// `agreement` with its system-level fields: the correlations of the systems' automatic scores
/// (`auto`: the judgement's accuracy, or the baseline's corpus BLEU) and human accuracies
/// (`human`) with their MQM scores (`mqm`), over the systems that have all three.
pub fn with_systems(
    agreement: Agreement,
    auto: &[Option<f64>],
    human: &[Option<f64>],
    mqm: &[Option<f64>],
) -> Agreement {
    let pairs: Vec<(f64, f64, f64)> = auto
        .iter()
        .zip(human)
        .zip(mqm)
        .filter_map(|((agreement, h), m)| Some(((*agreement)?, (*h)?, (*m)?)))
        .collect();
    let (a_, h, m): (Vec<f64>, Vec<f64>, Vec<f64>) = (
        pairs.iter().map(|p| p.0).collect(),
        pairs.iter().map(|p| p.1).collect(),
        pairs.iter().map(|p| p.2).collect(),
    );
    Agreement {
        systems: pairs.len(),
        spearman: spearman(&a_, &m),
        kendall: kendall_tau_b(&a_, &m),
        human_spearman: spearman(&h, &m),
        human_kendall: kendall_tau_b(&h, &m),
        ..agreement
    }
}

/// The share of correct items among the judged ones (×100), and of items without a rater
/// error among all (×100): a system's automatic and human accuracy on `items`.
pub fn accuracies(items: &[Item]) -> (Option<f64>, Option<f64>) {
    let judged: Vec<bool> = items.iter().filter_map(|x| x.judgement.judged()).collect();
    let correct = judged.iter().filter(|c| **c).count();
    let ok = items.iter().filter(|x| x.error != Some(true)).count();
    (
        (!judged.is_empty()).then(|| 100.0 * correct as f64 / judged.len() as f64),
        (!items.is_empty()).then(|| 100.0 * ok as f64 / items.len() as f64),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(group: u64, j: Judgement, error: bool, chrf: f64) -> Item {
        Item {
            group,
            judgement: j,
            error: Some(error),
            chrf,
        }
    }

    #[test]
    fn the_baseline_calls_the_same_share_by_sentence_chrf() {
        use Judgement::*;
        let items = [
            item(1, Incorrect, true, 0.9),
            item(1, Correct, false, 0.2),
            item(2, Correct, true, 0.1),
            item(2, Unaligned, true, 0.0),
            item(3, Correct, false, 0.5),
        ];
        let p = Permutations {
            shuffles: 0,
            seed: 1,
        };
        let a = agreement(&items, p);
        assert_eq!((a.items, a.judged, a.incorrect_and_error), (5, 4, 1));
        assert_eq!((a.unaligned.items, a.unaligned.rater_errors), (1, 1));
        // One judged incorrect: the baseline calls the one of lowest chrF (0.1), not the
        // unaligned item (0.0), which it leaves out as the judgement does.
        let b = chrf_baseline(&items, p);
        assert_eq!((b.items, b.judged), (5, 4));
        assert_eq!((b.incorrect_and_error, b.incorrect_no_error), (1, 0));
        assert_eq!((b.correct_and_error, b.correct_no_error), (1, 2));
        assert_eq!(b.incorrect_share, a.incorrect_share);
        assert_eq!(accuracies(&items), (Some(75.0), Some(40.0)));
        // An item judged incorrect whose raters' verdict cannot be located (an omission):
        // counted apart, out of both tables; the baseline still calls one of the others.
        let mut more = items.to_vec();
        more.push(Item {
            group: 4,
            judgement: Incorrect,
            error: None,
            chrf: 0.05,
        });
        let (a, b) = (agreement(&more, p), chrf_baseline(&more, p));
        assert_eq!(
            (a.items, a.judged, a.silent.items, a.silent.incorrect),
            (6, 5, 1, 1)
        );
        assert_eq!(a.incorrect_and_error + a.incorrect_no_error, 1);
        assert_eq!((b.silent.items, b.incorrect_and_error), (1, 1));
        assert_eq!(a.coverage, Some(5.0 / 6.0));
    }

    #[test]
    fn system_correlations_skip_systems_without_a_score() {
        let a = with_systems(
            Agreement::default(),
            &[Some(1.0), Some(2.0), None, Some(3.0)],
            &[Some(1.0), Some(3.0), Some(2.0), Some(2.0)],
            &[Some(-3.0), Some(-2.0), Some(-1.0), Some(-1.0)],
        );
        assert_eq!(a.systems, 3);
        assert!((a.spearman.unwrap() - 1.0).abs() < 1e-12);
    }
}

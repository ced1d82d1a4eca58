//! The locus of a set line: the two source words of its long-distance relation and the
//! reference tokens aligned to them ([`crate::format::locus`] gives the file form).
//!
//! Lexical sets: the dependent and head of each qualifying [`Match`], with every reference
//! token the alignment links to each. Reorder sets: the source and target words of the
//! marked links ([`super::reorder::ReorderOptions::marked_links`]).

use ldd_align::{Alignment, Corpus, Link};

use crate::format::locus::{Locus, RefToken, Word};
use crate::pipeline::detect::rules::Match;

/// The alignment of one line with its confidences and tokens.
pub struct AlignedLine<'a> {
    /// Its links (0-based source word, target token).
    pub links: &'a Alignment,
    /// The confidence of each link, in the order of `links` (`None`: the aligner gives none).
    pub conf: Option<&'a [f64]>,
    /// Its source words (UD words of the tree).
    pub source: Vec<&'a str>,
    /// Its target tokens.
    pub target: Vec<&'a str>,
}

impl<'a> AlignedLine<'a> {
    /// Line `line` of `pairs` with its alignment and confidences.
    pub fn new(
        pairs: &'a Corpus,
        line: usize,
        alignments: &'a [Alignment],
        posteriors: Option<&'a [Vec<f64>]>,
    ) -> Option<AlignedLine<'a>> {
        Some(AlignedLine {
            links: alignments.get(line)?,
            conf: posteriors.and_then(|p| p.get(line)).map(Vec::as_slice),
            source: pairs.src_tokens(line),
            target: pairs.tgt_tokens(line),
        })
    }

    /// The reference token of link number `link`.
    fn token(&self, link: usize) -> RefToken {
        let (_, j) = self.links[link];
        RefToken {
            position: j as u32 + 1,
            form: self.target.get(j).copied().unwrap_or_default().to_string(),
            conf: self.conf.and_then(|c| c.get(link)).copied(),
        }
    }

    /// Every reference token linked to source word `id` (1-based), in target order.
    pub fn aligned_to(&self, id: u32) -> Vec<RefToken> {
        let Some(i) = (id as usize).checked_sub(1) else {
            return Vec::new();
        };
        let mut out: Vec<RefToken> = (0..self.links.len())
            .filter(|&n| self.links[n].0 == i)
            .map(|n| self.token(n))
            .collect();
        out.sort_by_key(|t| t.position);
        out
    }

    /// The reference token of `link`, if the alignment has it.
    fn linked(&self, link: Link) -> Vec<RefToken> {
        self.links
            .iter()
            .position(|&l| l == link)
            .map(|n| vec![self.token(n)])
            .unwrap_or_default()
    }
}

/// The loci of lexical matches `matches` on line `id` with source words `forms` (UD words, in
/// order), in marking order; with `aligned`, each with its reference tokens.
pub fn lexical(
    id: u64,
    matches: &[&Match],
    forms: &[String],
    aligned: Option<&AlignedLine>,
) -> Vec<Locus> {
    let word = |w: u32| Word {
        id: w,
        form: (w as usize)
            .checked_sub(1)
            .and_then(|i| forms.get(i))
            .cloned()
            .unwrap_or_default(),
    };
    matches
        .iter()
        .enumerate()
        .map(|(n, m)| Locus {
            id,
            number: n as u32 + 1,
            distance: m.distance,
            dep: word(m.dependent),
            head: Some(word(m.head)),
            ref_dep: aligned
                .map(|a| a.aligned_to(m.dependent))
                .unwrap_or_default(),
            ref_head: aligned.map(|a| a.aligned_to(m.head)).unwrap_or_default(),
        })
        .collect()
}

/// The locus of a reorder set's line `id`: the marked `links` (one or two), `distance`
/// the line's measure in words.
pub fn reorder(id: u64, distance: u32, links: &[Link], line: &AlignedLine) -> Vec<Locus> {
    let Some(&first) = links.first() else {
        return Vec::new();
    };
    let word = |(i, _): Link| Word {
        id: i as u32 + 1,
        form: line.source.get(i).copied().unwrap_or_default().to_string(),
    };
    let second = links.get(1).copied();
    vec![Locus {
        id,
        number: 1,
        distance,
        dep: word(first),
        head: second.map(word),
        ref_dep: line.linked(first),
        ref_head: second.map(|l| line.linked(l)).unwrap_or_default(),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_tokens_and_links_with_their_confidence() {
        let mut pairs = Corpus::new();
        pairs.push_pair(&["Er", "fängt", "heute", "an"], &["He", "starts", "today"]);
        let al = vec![vec![(0, 0), (1, 1), (2, 2), (3, 1)]];
        let post = vec![vec![0.9, 0.8, 0.7, 0.6]];
        let a = AlignedLine::new(&pairs, 0, &al, Some(&post)).unwrap();
        let m = Match {
            phenomenon: 0,
            dependent: 4,
            head: 2,
            distance: 1,
        };
        let forms: Vec<String> = ["Er", "fängt", "heute", "an"].map(String::from).to_vec();
        let l = &lexical(7, &[&m], &forms, Some(&a))[0];
        assert_eq!(
            l.row(),
            "7\t1\t1\t4\tan\t2\tfängt\t2\tstarts\t0.6000\t2\tstarts\t0.8000"
        );
        let r = &reorder(7, 3, &[(0, 0), (2, 2)], &a)[0];
        assert_eq!(
            r.row(),
            "7\t1\t3\t1\tEr\t3\theute\t1\tHe\t0.9000\t3\ttoday\t0.7000"
        );
        let none = &lexical(7, &[&m], &forms, None)[0];
        assert_eq!(none.row(), "7\t1\t1\t4\tan\t2\tfängt\t\t\t\t\t\t");
    }
}

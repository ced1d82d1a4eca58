//! TER (Snover et al. 2006) exactly as sacreBLEU 2.x's `TER(...)` computes it: the
//! Tercom tokenizer ([`tercom`]) with its options (`--ter-case-sensitive`,
//! `--ter-normalized`, `--ter-no-punct`, `--ter-asian-support`), then the number of edits
//! — insertions, deletions, substitutions and shifts of word sequences — by sacreBLEU's
//! `lib_ter` (Tercom's greedy shift search: shifts of up to 10 words at most 50 positions
//! away, each the one that lowers the beam edit distance most, until none does or 1,000
//! candidates were tried; the edit distance searched in a beam of 25 around the
//! diagonal).
//!
//! Per line: the fewest edits over the references and their mean length; a corpus sums
//! both, and TER = 100 · edits / length (100 when the references are empty and the
//! hypotheses not, 0 when both are). Lower is better.

use crate::util::{case, pad, py_rstrip, py_split, yes_no};
use crate::{EvalError, SufficientStats};

/// TER as configured: sacreBLEU's `TER(...)` object (defaults: Tercom's).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ter {
    /// Tercom's normalisation and tokenization (`--ter-normalized`).
    pub normalized: bool,
    /// Remove punctuation (`--ter-no-punct`).
    pub no_punct: bool,
    /// Asian characters split and their punctuation removed (`--ter-asian-support`).
    pub asian_support: bool,
    /// Keep case (`--ter-case-sensitive`).
    pub case_sensitive: bool,
}

/// TER sufficient statistics: edits and reference length (a mean over references).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TerStats {
    /// The fewest edits over the references.
    pub edits: f64,
    /// The references' mean length.
    pub ref_len: f64,
}

impl SufficientStats for TerStats {
    type Params = ();

    fn add(&mut self, other: &Self) {
        self.edits += other.edits;
        self.ref_len += other.ref_len;
    }

    fn add_times(&mut self, other: &Self, times: u64) {
        self.edits += other.edits * times as f64;
        self.ref_len += other.ref_len * times as f64;
    }

    /// sacreBLEU's `TER._compute_score_from_stats`.
    fn score(&self, _: &()) -> f64 {
        let s = if self.ref_len > 0.0 {
            self.edits / self.ref_len
        } else if self.edits > 0.0 {
            1.0
        } else {
            0.0
        };
        100.0 * s
    }
}

impl Ter {
    /// sacreBLEU's signature settings: `case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.4.3`.
    pub fn signature(&self) -> String {
        format!(
            "case:{}|tok:tercom|norm:{}|punct:{}|asian:{}|version:{}",
            case(!self.case_sensitive),
            yes_no(self.normalized),
            yes_no(!self.no_punct),
            yes_no(self.asian_support),
            crate::SACREBLEU_VERSION
        )
    }

    /// The tokens of `line` (right-stripped, then [`tercom`]).
    pub fn words(&self, line: &str) -> Vec<String> {
        py_split(&tercom(self, py_rstrip(line)))
            .map(str::to_string)
            .collect()
    }

    /// The statistics of one hypothesis line against its references (at least one).
    pub fn stats<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> TerStats {
        let h = self.words(hyp);
        let mut best = i64::MAX;
        let mut lengths = 0.0f64;
        for r in refs {
            let r = self.words(r.as_ref());
            let (edits, len) = translation_edit_rate(&h, &r);
            lengths += len as f64;
            best = best.min(edits);
        }
        TerStats {
            edits: best as f64,
            ref_len: lengths / refs.len().max(1) as f64,
        }
    }

    /// Per-line statistics of parallel hypotheses and references (`refs[k]`: the k-th
    /// reference of every line).
    pub fn line_stats<H: AsRef<str>, R: AsRef<str>>(
        &self,
        hyps: &[H],
        refs: &[&[R]],
    ) -> Result<Vec<TerStats>, EvalError> {
        crate::per_line_refs(hyps, refs, |h, r| Ok(self.stats(h, r)))
    }

    /// Corpus TER.
    pub fn corpus_score<H: AsRef<str>, R: AsRef<str>>(
        &self,
        hyps: &[H],
        refs: &[&[R]],
    ) -> Result<f64, EvalError> {
        Ok(crate::sum_all(&self.line_stats(hyps, refs)?).score(&()))
    }
}

/// Whether `character` is in `ASIAN_PUNCT` or `FULL_WIDTH_PUNCT` of sacreBLEU's Tercom
/// tokenizer.
fn is_asian_punct(character: char) -> bool {
    matches!(character as u32,
        0x3001 | 0x3002 | 0x3008..=0x3011 | 0x3014..=0x301F | 0xFF61..=0xFF65 | 0x30FB
        | 0xFF0E | 0xFF0C | 0xFF1F | 0xFF1A | 0xFF1B | 0xFF01 | 0xFF02 | 0xFF08 | 0xFF09)
}

/// Characters `_normalize_asian` spaces one by one (its Hiragana and Katakana rules match
/// only a whole line, which the padding of the Western part rules out).
fn is_asian_split(character: char) -> bool {
    matches!(character as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF
        | 0x31C0..=0x31EF | 0x2E80..=0x2EFF
        | 0x3300..=0x33FF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F
        | 0x3200..=0x3F22)
}

/// sacreBLEU's `TercomTokenizer(normalized, no_punct, asian_support, case_sensitive)` on
/// `sent`: lowercased unless case-sensitive; normalised (end-of-line hyphens and newlines
/// joined, `&quot;` `&amp;` `&lt;` `&gt;` unescaped, punctuation, possessive `'s`, period
/// and comma (not between digits) and a dash after a digit split off; with Asian support
/// also CJK characters and Asian punctuation); punctuation `.,?:;!"()` removed (with Asian
/// support also Asian punctuation); whitespace normalised.
pub fn tercom(ter: &Ter, sent: &str) -> String {
    if sent.is_empty() {
        return String::new();
    }
    let mut s = if ter.case_sensitive {
        sent.to_string()
    } else {
        sent.to_lowercase()
    };
    if ter.normalized {
        s = s
            .replace("\n-", "")
            .replace('\n', " ")
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
        // 13a's punctuation and its period, comma and dash rules, with the possessive
        // between them.
        s = crate::tokenize13a::pad_punctuation(&format!(" {s} "));
        s = s.replace("'s ", " 's ");
        if let Some(stem) = s.strip_suffix("'s") {
            s = format!("{stem} 's");
        }
        s = crate::tokenize13a::split_periods(&s);
        if ter.asian_support {
            s = pad(&s, is_asian_split);
            s = pad(&s, is_asian_punct);
        }
    }
    if ter.no_punct {
        s.retain(|c| !matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')'));
        if ter.asian_support {
            s.retain(|c| !is_asian_punct(c));
        }
    }
    py_split(&s).collect::<Vec<_>>().join(" ")
}

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: usize = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
const INFINITY: i64 = 10_000_000_000_000_000;

/// An edit operation of the trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Nop,
    Sub,
    Ins,
    Del,
    Undef,
}

/// sacreBLEU's `translation_edit_rate`: `(edits, reference length)`.
pub fn translation_edit_rate<S: AsRef<str> + PartialEq>(
    hyp: &[S],
    reference: &[S],
) -> (i64, usize) {
    if reference.is_empty() {
        return (hyp.len() as i64, 0);
    }
    let h: Vec<&str> = hyp.iter().map(AsRef::as_ref).collect();
    let r: Vec<&str> = reference.iter().map(AsRef::as_ref).collect();
    let ed = BeamEditDistance { r: &r };
    let mut shifts = 0i64;
    let mut words = h;
    let mut checked = 0usize;
    loop {
        let (delta, shifted, c) = shift(&words, &r, &ed, checked);
        checked = c;
        if checked >= MAX_SHIFT_CANDIDATES || delta <= 0 {
            break;
        }
        shifts += 1;
        words = shifted;
    }
    (shifts + ed.distance(&words).0, r.len())
}

/// `_shift`: the best shift of `hypothesis` (its gain, the shifted words, the candidates
/// checked).
fn shift<'a>(
    hypothesis: &[&'a str],
    reference: &[&str],
    ed: &BeamEditDistance,
    mut checked: usize,
) -> (i64, Vec<&'a str>, usize) {
    let (pre_score, inv_trace) = ed.distance(hypothesis);
    // Rewriting the reference into the hypothesis: insertions and deletions flip.
    let trace: Vec<Op> = inv_trace
        .iter()
        .map(|op| match op {
            Op::Ins => Op::Del,
            Op::Del => Op::Ins,
            o => *o,
        })
        .collect();
    let (align, ref_err, hyp_err) = trace_to_alignment(&trace);
    // (gain, length, -start_h, -idx, words): the largest wins, as Python's tuples compare.
    let mut best: Option<(i64, usize, i64, i64, Vec<&'a str>)> = None;
    for (start_h, start_r, length) in shifted_pairs(hypothesis, reference) {
        if hyp_err[start_h..start_h + length].iter().all(|&e| !e) {
            continue;
        }
        if ref_err[start_r..start_r + length].iter().all(|&e| !e) {
            continue;
        }
        let at = align[start_r];
        if start_h as i64 <= at && at < (start_h + length) as i64 {
            continue;
        }
        let mut prev_idx: i64 = -1;
        for offset in -1i64..length as i64 {
            let pos = start_r as i64 + offset;
            let idx = if pos == -1 {
                0
            } else if (pos as usize) < align.len() {
                align[pos as usize] + 1
            } else {
                break;
            };
            if idx == prev_idx {
                continue;
            }
            prev_idx = idx;
            let shifted = perform_shift(hypothesis, start_h, length, idx as usize);
            let cand = (
                pre_score - ed.distance(&shifted).0,
                length,
                -(start_h as i64),
                -idx,
                shifted,
            );
            checked += 1;
            if best.as_ref().is_none_or(|b| cand > *b) {
                best = Some(cand);
            }
        }
        if checked >= MAX_SHIFT_CANDIDATES {
            break;
        }
    }
    match best {
        None => (0, hypothesis.to_vec(), checked),
        Some((gain, _, _, _, words)) => (gain, words, checked),
    }
}

/// `_perform_shift`.
fn perform_shift<'a>(
    words: &[&'a str],
    start: usize,
    length: usize,
    target: usize,
) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(words.len());
    if target < start {
        out.extend_from_slice(&words[..target]);
        out.extend_from_slice(&words[start..start + length]);
        out.extend_from_slice(&words[target..start]);
        out.extend_from_slice(&words[start + length..]);
    } else if target > start + length {
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + length..target]);
        out.extend_from_slice(&words[start..start + length]);
        out.extend_from_slice(&words[target..]);
    } else {
        // Python's slices clip at the end.
        let clip = |k: usize| k.min(words.len());
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[clip(start + length)..clip(length + target)]);
        out.extend_from_slice(&words[start..start + length]);
        out.extend_from_slice(&words[clip(length + target)..]);
    }
    out
}

/// `_find_shifted_pairs`: `(start_h, start_r, length)` of every common word sequence of up
/// to [`MAX_SHIFT_SIZE`] words whose starts are at most [`MAX_SHIFT_DIST`] apart.
fn shifted_pairs(hypothesis: &[&str], reference: &[&str]) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for start_h in 0..hypothesis.len() {
        for start_r in 0..reference.len() {
            if start_r.abs_diff(start_h) > MAX_SHIFT_DIST {
                continue;
            }
            let mut length = 0;
            while hypothesis[start_h + length] == reference[start_r + length]
                && length < MAX_SHIFT_SIZE
            {
                length += 1;
                out.push((start_h, start_r, length));
                if hypothesis.len() == start_h + length || reference.len() == start_r + length {
                    break;
                }
            }
        }
    }
    out
}

/// `trace_to_alignment`: reference position → hypothesis position, and the error flags of
/// reference and hypothesis positions.
fn trace_to_alignment(trace: &[Op]) -> (Vec<i64>, Vec<bool>, Vec<bool>) {
    let (mut pos_h, mut pos_r) = (-1i64, -1i64);
    let (mut align, mut ref_err, mut hyp_err) = (Vec::new(), Vec::new(), Vec::new());
    for op in trace {
        match op {
            Op::Nop | Op::Sub => {
                pos_h += 1;
                pos_r += 1;
                align.push(pos_h);
                let e = *op == Op::Sub;
                hyp_err.push(e);
                ref_err.push(e);
            }
            Op::Ins => {
                pos_h += 1;
                hyp_err.push(true);
            }
            Op::Del => {
                pos_r += 1;
                align.push(pos_h);
                ref_err.push(true);
            }
            Op::Undef => {}
        }
    }
    debug_assert_eq!(align.len() as i64, pos_r + 1);
    (align, ref_err, hyp_err)
}

/// sacreBLEU's `BeamEditDistance` against a reference (its cache of prefix rows only saves
/// time: each row depends on the hypothesis prefix and length alone, so it is left out).
struct BeamEditDistance<'r> {
    r: &'r [&'r str],
}

impl BeamEditDistance<'_> {
    /// The edit distance of `hypothesis` to the reference and its trace.
    fn distance(&self, hypothesis: &[&str]) -> (i64, Vec<Op>) {
        let (nh, nr) = (hypothesis.len(), self.r.len());
        let mut dist: Vec<Vec<(i64, Op)>> = Vec::with_capacity(nh + 1);
        dist.push((0..=nr).map(|j| (j as i64, Op::Ins)).collect());
        let ratio = if nh > 0 { nr as f64 / nh as f64 } else { 1.0 };
        let beam = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH as i64
        };
        for i in 1..=nh {
            let mut row = vec![(INFINITY, Op::Undef); nr + 1];
            let diag = (i as f64 * ratio).floor() as i64;
            let min_j = (diag - beam).max(0) as usize;
            let mut max_j = ((nr + 1) as i64).min(diag + beam).max(0) as usize;
            if i == nh {
                max_j = nr + 1;
            }
            let prev = &dist[i - 1];
            for j in min_j..max_j {
                if j == 0 {
                    row[j] = (prev[j].0 + 1, Op::Del);
                } else {
                    let (cost, op) = if hypothesis[i - 1] == self.r[j - 1] {
                        (0, Op::Nop)
                    } else {
                        (1, Op::Sub)
                    };
                    for (c, o) in [
                        (prev[j - 1].0 + cost, op),
                        (prev[j].0 + 1, Op::Del),
                        (row[j - 1].0 + 1, Op::Ins),
                    ] {
                        if row[j].0 > c {
                            row[j] = (c, o);
                        }
                    }
                }
            }
            dist.push(row);
        }
        let mut trace = Vec::new();
        let (mut i, mut j) = (nh, nr);
        while i > 0 || j > 0 {
            let op = dist[i][j].1;
            trace.push(op);
            match op {
                Op::Sub | Op::Nop => {
                    i -= 1;
                    j -= 1;
                }
                Op::Ins => j -= 1,
                Op::Del => i -= 1,
                // Unreachable: the last row spans every column.
                Op::Undef => break,
            }
        }
        trace.reverse();
        (dist[nh][nr].0, trace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(t: Ter, s: &str) -> String {
        tercom(&t, s)
    }

    /// sacreBLEU 2.4.3's `test_tokenizer_ter.py` cases.
    #[test]
    fn tercom_tokenizer_as_sacrebleu() {
        let d = Ter::default();
        for (i, o) in [
            ("a b c d", "a b c d"),
            ("", ""),
            ("a b c d.", "a b c d."),
            ("A B C D.", "a b c d."),
        ] {
            assert_eq!(tok(d, i), o);
        }
        let np = Ter {
            no_punct: true,
            ..d
        };
        assert_eq!(tok(np, "a b c d."), "a b c d");
        assert_eq!(tok(np, "A ; B ) C : D."), "a b c d");
        let norm = Ter {
            normalized: true,
            ..d
        };
        assert_eq!(tok(norm, "a b (c) d."), "a b ( c ) d .");
        assert_eq!(tok(norm, "Jim's car."), "jim 's car .");
        assert_eq!(tok(norm, "4.2"), "4.2");
        let asian = Ter {
            normalized: true,
            asian_support: true,
            ..d
        };
        assert_eq!(tok(asian, "美众院公布对特"), "美 众 院 公 布 对 特");
        assert_eq!(tok(asian, "りの拳銃を持"), "りの 拳 銃 を 持");
    }

    #[test]
    fn one_shift_fixes_the_order() {
        let w = |s: &'static str| s.split(' ').collect::<Vec<_>>();
        assert_eq!(
            translation_edit_rate(&w("d e f g h a b c"), &w("a b c d e f g h")),
            (1, 8)
        );
        assert_eq!(translation_edit_rate(&w("a"), &[] as &[&str]), (1, 0));
    }
}

//! Proof of equality with sacreBLEU 2.4.3 (`BLEU()` / `CHRF()` defaults) on real data.
//!
//! Needs the venv: `python3 -m venv .venv && .venv/bin/pip install sacrebleu==2.4.3`
//! (workspace root). `LDD_PYTHON` overrides the interpreter; `LDD_SKIP_PYTHON=1` skips.

use std::path::{Path, PathBuf};
use std::process::Command;

use ldd_eval::{
    bleu, chrf, sum_all, sum_ids, BleuScoring, BleuStats, ChrfScoring, ChrfStats, SufficientStats,
};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shared(rel: &str) -> PathBuf {
    manifest().join("../../../shared").join(rel)
}

fn read_lines(rel: &str) -> Vec<String> {
    let path = shared(rel);
    ldd_io::read_lines(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// The venv interpreter, or `None` when skipping is explicitly requested.
fn python() -> Option<PathBuf> {
    if std::env::var("LDD_SKIP_PYTHON").as_deref() == Ok("1") {
        eprintln!("LDD_SKIP_PYTHON=1: skipping the sacreBLEU oracle");
        return None;
    }
    let py = std::env::var_os("LDD_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest().join("../../.venv/bin/python"));
    let ok = Command::new(&py)
        .args([
            "-c",
            "import sacrebleu; assert sacrebleu.__version__ == '2.4.3'",
        ])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "sacreBLEU 2.4.3 not found at {} — create the venv from the workspace root with\n  \
         python3 -m venv .venv && .venv/bin/pip install sacrebleu==2.4.3\n\
         or set LDD_PYTHON=/path/to/python (or LDD_SKIP_PYTHON=1 to skip)",
        py.display()
    );
    Some(py)
}

// ---- deterministic hypotheses -------------------------------------------------------

/// (a) every 3rd word dropped; every 50th line emptied.
fn drop_third(i: usize, line: &str) -> String {
    if i % 50 == 49 {
        return String::new();
    }
    let w: Vec<&str> = line
        .split(' ')
        .enumerate()
        .filter(|(k, _)| k % 3 != 2)
        .map(|(_, w)| w)
        .collect();
    w.join(" ")
}

/// (b) words rotated left by `i % 3 + 1`, then adjacent pairs swapped on odd lines.
fn rotate(i: usize, line: &str) -> String {
    let mut w: Vec<&str> = line.split_whitespace().collect();
    if !w.is_empty() {
        let k = (i % 3 + 1) % w.len();
        w.rotate_left(k);
    }
    if i % 2 == 1 {
        for p in w.chunks_mut(2) {
            p.reverse();
        }
    }
    w.join(" ")
}

/// (c) "system-like": the German source with a small word dictionary applied.
fn germanish(src: &str) -> String {
    const DICT: &[(&str, &str)] = &[
        ("der", "the"),
        ("die", "the"),
        ("das", "the"),
        ("den", "the"),
        ("dem", "the"),
        ("Der", "The"),
        ("Die", "The"),
        ("Das", "The"),
        ("und", "and"),
        ("ist", "is"),
        ("nicht", "not"),
        ("ich", "I"),
        ("Ich", "I"),
        ("er", "he"),
        ("Er", "He"),
        ("sie", "they"),
        ("Sie", "She"),
        ("es", "it"),
        ("Es", "It"),
        ("zu", "to"),
        ("mit", "with"),
        ("ein", "a"),
        ("eine", "a"),
        ("von", "of"),
        ("auf", "on"),
        ("für", "for"),
        ("war", "was"),
        ("hatte", "had"),
        ("sich", "himself"),
        ("in", "in"),
        ("im", "in the"),
        ("aber", "but"),
        ("wie", "like"),
        ("so", "so"),
        ("mir", "me"),
        ("mich", "me"),
        ("wir", "we"),
        ("Wir", "We"),
        ("nur", "only"),
    ];
    src.split(' ')
        .map(|w| {
            DICT.iter()
                .find(|(de, _)| *de == w)
                .map_or(w, |(_, en)| *en)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// (c') the reference lowercased with ASCII punctuation detached.
fn lower_detached(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    for c in line.to_lowercase().chars() {
        if c.is_ascii_punctuation() && c != '\'' {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Hand-made pairs exercising the 13a rules and Python whitespace.
fn tricky() -> (Vec<String>, Vec<String>) {
    let pairs: &[(&str, &str)] = &[
        (
            "He said &quot;yes&quot; &amp; left.",
            "He said \"yes\" & left.",
        ),
        (
            "It cost 1,000.5 dollars - or 2-3 euros.",
            "It cost 1,000.5 dollars -- or 2-3 euros.",
        ),
        ("", "An empty hypothesis line."),
        (
            "Dr. Smith's e-mail: a@b.com (urgent)!",
            "Dr. Smith's e-mail: a@b.com (urgent)!",
        ),
        (
            "U.S.-based firm<skipped> grew 5.5% in 2019-2020 ...",
            "U.S.-based firm grew 5.5 % in 2019-2020...",
        ),
        ("„Anführung“ – ‚so‘ — ok…", "„Anführung“ - ‚so‘ — ok..."),
        (
            "tabs\tand\u{a0}nbsp\u{2009}thin \u{1c}sep",
            "tabs and nbsp thin sep",
        ),
        ("trailing spaces   ", "trailing spaces"),
        ("&lt;b&gt;bold&lt;/b&gt; &amp;quot;", "<b>bold</b> &quot;"),
        ("x", "y"),
        ("a,b.c;d:e?f!g", "a , b . c ; d : e ? f ! g"),
        ("Ünïcödé wörds ñ 漢字 текст", "Unicode words n 漢字 текст"),
    ];
    pairs
        .iter()
        .map(|(h, r)| (h.to_string(), r.to_string()))
        .unzip()
}

// ---- oracle ---------------------------------------------------------------------------

/// (name, full hypothesis corpus, full reference corpus, 1-based ids of the scored set)
type Spec<'a> = (&'static str, &'a [String], &'a [String], &'a [u32]);

struct Case {
    name: &'static str,
    hyps: Vec<String>,
    refs: Vec<String>,
}

#[derive(Debug)]
struct Oracle {
    bleu: f64,
    chrf: f64,
    bleu_stats: BleuStats,
    chrf_stats: ChrfStats,
}

const SCRIPT: &str = r#"
import sys
from sacrebleu.metrics import BLEU, CHRF
def read(p):
    with open(p, encoding='utf-8', newline='') as f:
        return f.read().split('\n')
d = sys.argv[1]
for name in sys.argv[2:]:
    hyps, refs = read(f'{d}/{name}.hyp'), read(f'{d}/{name}.ref')
    assert len(hyps) == len(refs)
    b = BLEU().corpus_score(hyps, [refs])
    cm = CHRF()
    c = cm.corpus_score(hyps, [refs])
    cs = [sum(x) for x in zip(*cm._extract_corpus_statistics(hyps, [refs]))]
    print(name, repr(b.score), repr(c.score), b.sys_len, b.ref_len,
          *b.counts, *b.totals, *cs)
"#;

fn run_oracle(py: &Path, dir: &Path, cases: &[Case]) -> Vec<Oracle> {
    for c in cases {
        std::fs::write(dir.join(format!("{}.hyp", c.name)), c.hyps.join("\n")).expect("write");
        std::fs::write(dir.join(format!("{}.ref", c.name)), c.refs.join("\n")).expect("write");
    }
    let out = Command::new(py)
        .arg("-c")
        .arg(SCRIPT)
        .arg(dir)
        .args(cases.iter().map(|c| c.name))
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), cases.len(), "{text}");
    lines
        .iter()
        .zip(cases)
        .map(|(l, c)| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f[0], c.name);
            let u = |k: usize| f[k].parse::<u64>().expect("int");
            let mut cs = ChrfStats::default();
            for n in 0..6 {
                cs.hyp[n] = u(13 + 3 * n);
                cs.reference[n] = u(14 + 3 * n);
                cs.hits[n] = u(15 + 3 * n);
            }
            Oracle {
                bleu: f[1].parse().expect("float"),
                chrf: f[2].parse().expect("float"),
                bleu_stats: BleuStats {
                    hyp_len: u(3),
                    ref_len: u(4),
                    matches: [u(5), u(6), u(7), u(8), 0, 0],
                    totals: [u(9), u(10), u(11), u(12), 0, 0],
                },
                chrf_stats: cs,
            }
        })
        .collect()
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ldd-eval-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("mkdir");
    d
}

/// Fixed challenge-set-like id list: every `step`-th line from `start`, 1-based.
fn ids(n: usize, start: usize, step: usize) -> Vec<u32> {
    (start..=n).step_by(step).map(|i| i as u32).collect()
}

fn pick(lines: &[String], ids: &[u32]) -> Vec<String> {
    ids.iter().map(|&i| lines[i as usize - 1].clone()).collect()
}

#[test]
fn bleu_and_chrf_equal_sacrebleu_on_real_sets() {
    let Some(py) = python() else { return };
    let news_en = read_lines("data/parallel/newstest2013.de-en.en");
    let news_de = read_lines("data/parallel/newstest2013.de-en.de");
    let books_en = read_lines("data/parallel/books-sample.de-en.en.gz");
    let books_de = read_lines("data/parallel/books-sample.de-en.de.gz");
    assert_eq!((news_en.len(), books_en.len()), (3000, 28030));

    // Full-corpus hypotheses; subsets are scored by summing per-line stats of the full corpus.
    let news_drop: Vec<String> = news_en
        .iter()
        .enumerate()
        .map(|(i, l)| drop_third(i, l))
        .collect();
    let news_rot: Vec<String> = news_en
        .iter()
        .enumerate()
        .map(|(i, l)| rotate(i, l))
        .collect();
    let news_sys: Vec<String> = news_de.iter().map(|l| germanish(l)).collect();
    let books_sys: Vec<String> = books_de.iter().map(|l| germanish(l)).collect();
    let books_low: Vec<String> = books_en.iter().map(|l| lower_detached(l)).collect();
    let (tricky_h, tricky_r) = tricky();

    let news_set = ids(3000, 5, 7);
    let books_set = ids(28030, 3, 13);
    let books_set2: Vec<u32> = (1..=2000).collect();
    let all_news: Vec<u32> = (1..=3000).collect();
    let all_tricky: Vec<u32> = (1..=tricky_h.len() as u32).collect();
    // (name, full hyps, full refs, subset ids)
    let specs: Vec<Spec> = vec![
        ("news_drop3_all", &news_drop, &news_en, &all_news),
        ("news_rotate_set", &news_rot, &news_en, &news_set),
        ("news_system_set", &news_sys, &news_en, &news_set),
        ("books_system_set", &books_sys, &books_en, &books_set),
        ("books_lower_first2000", &books_low, &books_en, &books_set2),
        ("tricky", &tricky_h, &tricky_r, &all_tricky),
    ];
    let cases: Vec<Case> = specs
        .iter()
        .map(|(name, h, r, set)| Case {
            name,
            hyps: pick(h, set),
            refs: pick(r, set),
        })
        .collect();
    let dir = temp_dir("oracle");
    let oracle = run_oracle(&py, &dir, &cases);
    let _ = std::fs::remove_dir_all(&dir);

    for ((name, h, r, set), o) in specs.iter().zip(&oracle) {
        // News/tricky: stats of the whole corpus, summed over the set's ids (as the tool
        // does). Books: only the set's lines (keeps the debug-build test fast; the
        // equivalence of both routes is `subset_sum_equals_direct_scoring`).
        let (b, c) = if h.len() > 5000 {
            let (sh, sr) = (pick(h, set), pick(r, set));
            (
                sum_all(&bleu::line_stats(&sh, &sr).expect("bleu stats")),
                sum_all(&chrf::line_stats(&sh, &sr).expect("chrf stats")),
            )
        } else {
            let bl = bleu::line_stats(h, r).expect("bleu stats");
            let ch = chrf::line_stats(h, r).expect("chrf stats");
            (
                sum_ids(&bl, set).expect("ids"),
                sum_ids(&ch, set).expect("ids"),
            )
        };
        assert_eq!(b, o.bleu_stats, "{name}: BLEU sufficient statistics");
        assert_eq!(c, o.chrf_stats, "{name}: chrF sufficient statistics");
        let (bs, cs) = (
            b.score(&BleuScoring::default()),
            c.score(&ChrfScoring::default()),
        );
        eprintln!(
            "{name}: lines={} BLEU ours={bs:?} sacrebleu={:?} | chrF ours={cs:?} sacrebleu={:?} | bit-identical={}",
            set.len(),
            o.bleu,
            o.chrf,
            bs.to_bits() == o.bleu.to_bits() && cs.to_bits() == o.chrf.to_bits()
        );
        assert!(
            (bs - o.bleu).abs() <= 1e-9,
            "{name}: BLEU {bs} vs {}",
            o.bleu
        );
        assert!(
            (cs - o.chrf).abs() <= 1e-9,
            "{name}: chrF {cs} vs {}",
            o.chrf
        );
        assert!(bs > 0.0 && cs > 0.0, "{name}: degenerate case");
    }
}

/// The documented CLI (`sacrebleu REF -i HYP -m bleu chrf -b -w 4`) agrees to 4 decimals.
#[test]
fn sacrebleu_cli_agrees_to_four_decimals() {
    let Some(py) = python() else { return };
    let refs = read_lines("data/parallel/newstest2013.de-en.en");
    let hyps: Vec<String> = refs
        .iter()
        .enumerate()
        .map(|(i, l)| drop_third(i, l))
        .collect();
    let dir = temp_dir("cli");
    let (hp, rp) = (dir.join("hyp.txt"), dir.join("ref.txt"));
    std::fs::write(&hp, hyps.join("\n") + "\n").expect("write");
    std::fs::write(&rp, refs.join("\n") + "\n").expect("write");
    let out = Command::new(&py)
        .args(["-m", "sacrebleu"])
        .arg(&rp)
        .arg("-i")
        .arg(&hp)
        .args(["-m", "bleu", "chrf", "-b", "-w", "4"])
        .output()
        .expect("run sacrebleu");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf8");
    let nums: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|s| !s.is_empty())
        .collect();
    let ours = [
        format!(
            "{:.4}",
            bleu::corpus_bleu(&hyps, &refs).expect("bleu").score
        ),
        format!("{:.4}", chrf::corpus_chrf(&hyps, &refs).expect("chrf")),
    ];
    assert_eq!(nums, ours, "sacrebleu CLI output: {text}");
}

/// Scoring a subset by summing per-line stats equals recomputing it from its lines.
#[test]
fn subset_sum_equals_direct_scoring() {
    let refs = read_lines("data/parallel/newstest2013.de-en.en");
    let src = read_lines("data/parallel/newstest2013.de-en.de");
    let hyps: Vec<String> = src.iter().map(|l| germanish(l)).collect();
    let bl = bleu::line_stats(&hyps, &refs).expect("stats");
    let ch = chrf::line_stats(&hyps, &refs).expect("stats");
    for set in [ids(3000, 1, 9), ids(3000, 10, 101), vec![5, 6, 7, 3000]] {
        let (sh, sr) = (pick(&hyps, &set), pick(&refs, &set));
        let direct_b = sum_all(&bleu::line_stats(&sh, &sr).expect("stats"));
        let direct_c = sum_all(&chrf::line_stats(&sh, &sr).expect("stats"));
        assert_eq!(sum_ids(&bl, &set).expect("ids"), direct_b);
        assert_eq!(sum_ids(&ch, &set).expect("ids"), direct_c);
        assert_eq!(
            sum_ids(&bl, &set)
                .expect("ids")
                .score(&BleuScoring::default()),
            bleu::corpus_bleu(&sh, &sr).expect("bleu").score
        );
        assert_eq!(
            sum_ids(&ch, &set)
                .expect("ids")
                .score(&ChrfScoring::default()),
            chrf::corpus_chrf(&sh, &sr).expect("chrf")
        );
    }
    assert!(sum_ids(&bl, &[0]).is_err() && sum_ids(&bl, &[3001]).is_err());
}

/// The `intl` and `zh` tokenizers against sacreBLEU's on every code point, each in the
/// contexts their rules look at (`a{c}b 1{c}2 {c}`: after and before a letter, between
/// digits, alone). `zh` agrees everywhere. `intl` follows Unicode general categories: the
/// Rust `regex` crate's tables and the Python `regex` module's can be of different Unicode
/// versions, so they may differ only on code points that ours leave unassigned (`Cn`):
/// characters a newer Unicode added.
#[test]
fn intl_and_zh_tokenize_every_code_point_as_sacrebleu() {
    use ldd_eval::tokenize::{Tokenizer, TokenizerName};
    let Some(py) = python() else { return };
    // Line breaks and the other characters Python's splitlines() breaks on are left out:
    // they cannot be inside a corpus line.
    let cps: Vec<char> = (0..=0x10FFFFu32)
        .filter_map(char::from_u32)
        .filter(|c| !matches!(*c as u32, 0x0A..=0x0D | 0x1C..=0x1E | 0x85 | 0x2028 | 0x2029))
        .collect();
    let lines: Vec<String> = cps.iter().map(|c| format!("a{c}b 1{c}2 {c}")).collect();
    let dir = temp_dir("tokenizers");
    let input = dir.join("lines.txt");
    std::fs::write(&input, lines.join("\n")).expect("write");
    let script = r#"
import sys
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh
with open(sys.argv[1], encoding='utf-8', newline='') as f:
    lines = f.read().split('\n')
tok = TokenizerV14International() if sys.argv[2] == 'intl' else TokenizerZh()
sys.stdout.reconfigure(encoding='utf-8', newline='\n')
sys.stdout.write('\n'.join(tok(l) for l in lines))
"#;
    let unassigned = regex::Regex::new(r"^\p{Cn}$").expect("regex");
    for (name, t) in [("intl", TokenizerName::Intl), ("zh", TokenizerName::Zh)] {
        let out = Command::new(&py)
            .args(["-c", script, input.to_str().expect("utf8"), name])
            .output()
            .expect("run python");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want = String::from_utf8(out.stdout).expect("utf8");
        let want: Vec<&str> = want.split('\n').collect();
        assert_eq!(want.len(), lines.len());
        let tok = Tokenizer::new(t).expect("tokenizer");
        let mut newer = 0;
        for ((c, l), w) in cps.iter().zip(&lines).zip(&want) {
            let got = tok.tokenize(l).expect("tokenize");
            if got != *w {
                assert!(
                    name == "intl" && unassigned.is_match(&c.to_string()),
                    "{name} U+{:04X}: {got:?} vs sacreBLEU {w:?}",
                    *c as u32
                );
                newer += 1;
            }
        }
        eprintln!(
            "{name}: {} code points, {newer} differ (unassigned in our Unicode tables)",
            cps.len()
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

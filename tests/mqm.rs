//! `mqm` on the real WMT21 TED English→German MQM annotations (../shared/data/mqm): the
//! campaign exported as a corpus, its sets extracted as `make validate-mqm` extracts them
//! (the shared English model; the aligner trained on the campaign and the shared de-en
//! corpora), then the raters' errors located at words by hand on real segments — a target
//! span, an omission in the source, an unclosed span, two and three raters, a system
//! missing a segment — MQM's scores against the campaign's own averages, the agreement
//! statistics and their baselines against scikit-learn and scipy, and the held-out figures
//! against those docs/evaluation.md gives.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use common::*;

fn tsv() -> PathBuf {
    data("mqm/mqm_ted_ende.tsv")
}

/// The campaign exported, its sets extracted with a saved aligner: built once for all the
/// tests of this file.
struct Fixture {
    _dir: tempfile::TempDir,
    ted: PathBuf,
    sets: PathBuf,
}

/// Every system's output of the exported campaign `ted`, each beside the campaign's
/// source, as one parallel corpus `PREFIX.en` / `PREFIX.de` for training the aligner (the
/// systems in byte order of their file names, as `make validate-mqm`'s `LC_ALL=C` loop).
fn outputs_corpus(ted: &Path, prefix: &Path) {
    let source = std::fs::read(ted.join("mqm.en-de.en")).unwrap();
    let mut systems: Vec<PathBuf> = std::fs::read_dir(ted.join("systems"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    systems.sort();
    assert_eq!(systems.len(), 13);
    let (mut en, mut de) = (Vec::new(), Vec::new());
    for s in &systems {
        en.extend_from_slice(&source);
        de.extend(std::fs::read(s).unwrap());
    }
    std::fs::write(prefix.with_extension("en-de.en"), en).unwrap();
    std::fs::write(prefix.with_extension("en-de.de"), de).unwrap();
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let ted = dir.path().join("ted");
        Ldd::cmd("mqm")
            .path("--mqm", &tsv())
            .path("--export", &ted)
            .args(&["--src-lang", "en", "--tgt-lang", "de", "--quiet"])
            .ok();
        let outputs = dir.path().join("outputs");
        outputs_corpus(&ted, &outputs);
        let sets = dir.path().join("sets");
        // As `make validate-mqm` makes them: the aligner trained on the campaign (its
        // source with the reference and with every system's output) and the shared de-en
        // corpora; the paper's detection rules, on which the locus rule was tuned (the
        // built-in rules came later, issue 54: [`builtin_held_out`]).
        Ldd::cmd("extract")
            .corpus(
                &ted.join("mqm.en-de.en"),
                &ted.join("mqm.en-de.de"),
                ("en", "de"),
            )
            .path("--model", &shared().join("models/english-small.udpipe"))
            .path("--cache", &dir.path().join("cache"))
            .path("--align-train", &data("parallel/books-sample.de-en"))
            .path("--align-train", &data("parallel/multi30k-train.de-en"))
            .path("--align-train", &data("parallel/newstest2013.de-en"))
            .path("--align-train", &data("parallel/pud.de-en"))
            .path("--align-train", &outputs.with_extension("en-de"))
            .path("--save-align-model", &dir.path().join("model/ted"))
            .args(&["--offline", "--controls", "0", "--quiet"])
            .path("--rules", Path::new(common::PAPER_RULES))
            .out(&sets)
            .ok();
        Fixture {
            _dir: dir,
            ted,
            sets,
        }
    })
}

/// The campaign's rows as cells (header first).
fn campaign() -> Vec<Vec<String>> {
    lines(&tsv())
        .iter()
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

/// Writes `rows` (header first) as an MQM file.
fn write_campaign(p: &Path, rows: &[Vec<String>]) {
    let text: String = rows.iter().map(|r| r.join("\t") + "\n").collect();
    std::fs::write(p, text).unwrap();
}

/// Runs `mqm` on the fixture's sets with `file`, writing into `out` (and `out/items.tsv`);
/// returns mqm.json and the items, each as a map of its columns.
fn judge(
    file: &Path,
    out: &Path,
    extra: &[&str],
) -> (serde_json::Value, Vec<BTreeMap<String, String>>) {
    judge_on(&fixture().sets, file, out, extra)
}

/// [`judge`] on the sets `sets`.
fn judge_on(
    sets: &Path,
    file: &Path,
    out: &Path,
    extra: &[&str],
) -> (serde_json::Value, Vec<BTreeMap<String, String>>) {
    let items = out.join("items.tsv");
    Ldd::cmd("mqm")
        .path("--sets", sets)
        .path("--mqm", file)
        .path("--out", out)
        .path("--items", &items)
        .args(if extra.contains(&"--permutations") {
            &["--quiet"][..]
        } else {
            &["--permutations", "200", "--quiet"][..]
        })
        .args(extra)
        .ok();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("mqm.json")).unwrap()).unwrap();
    let l = lines(&items);
    let head: Vec<String> = l[0].split('\t').map(String::from).collect();
    let rows = l[1..]
        .iter()
        .map(|r| {
            head.iter()
                .cloned()
                .zip(r.split('\t').map(String::from))
                .collect()
        })
        .collect();
    (report, rows)
}

/// The corpus line of an MQM segment.
fn line_of(seg: &str) -> String {
    let f = fixture();
    lines(&f.ted.join("segments.tsv"))
        .iter()
        .skip(1)
        .find(|l| l.split('\t').nth(1) == Some(seg))
        .map(|l| l.split('\t').next().unwrap().to_string())
        .unwrap()
}

/// The items of `system` on the line of segment `seg`.
fn items_of<'a>(
    items: &'a [BTreeMap<String, String>],
    system: &str,
    seg: &str,
) -> Vec<&'a BTreeMap<String, String>> {
    let line = line_of(seg);
    items
        .iter()
        .filter(|r| r["system"] == system && r["line"] == line)
        .collect()
}

#[test]
fn export_writes_the_campaign_as_a_corpus() {
    let f = fixture();
    let src = lines(&f.ted.join("mqm.en-de.en"));
    let reference = lines(&f.ted.join("mqm.en-de.de"));
    let huawei = lines(&f.ted.join("systems/HuaweiTSC.de"));
    assert_eq!((src.len(), reference.len(), huawei.len()), (529, 529, 529));
    assert_eq!(
        std::fs::read_dir(f.ted.join("systems")).unwrap().count(),
        13,
        "13 systems besides the reference"
    );
    assert!(src[0].starts_with("I want to ask you all to consider for a second"));
    assert!(reference[0].starts_with("Bitte machen Sie sich alle für einen Moment"));
    // Marks taken out: the row reads `Ich möchte <v>euch</v> alle bitten, …`.
    assert!(huawei[0].starts_with("Ich möchte euch alle bitten, für eine Sekunde"));
    let segs = lines(&f.ted.join("segments.tsv"));
    assert_eq!(segs[0], "line\tsegment\tdoc");
    assert_eq!(segs[1], "1\t1\ttalk.1");
    assert_eq!(segs.last().unwrap(), "529\t606\ttalk.6");
    // An unknown reference system is refused, naming the systems there are.
    let t = tempfile::tempdir().unwrap();
    let o = Ldd::cmd("mqm")
        .path("--mqm", &tsv())
        .path("--export", &t.path().join("x"))
        .args(&[
            "--src-lang",
            "en",
            "--tgt-lang",
            "de",
            "--reference-system",
            "human",
        ])
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("Facebook-AI"), "{}", stderr(&o));
    assert!(absent_or_empty(&t.path().join("x")));
}

#[test]
fn errors_are_located_at_words_by_hand() {
    let t = tempfile::tempdir().unwrap();
    let (r, items) = judge(&tsv(), &t.path().join("all"), &[]);
    assert_eq!(r["segments"]["segments"], 529);
    assert_eq!(r["segments"]["matched"], 529);
    // metricsystem1's `<v>?` of segment 475 is never closed.
    assert_eq!(r["segments"]["unclosed_spans"], 1);
    assert_eq!(r["systems"].as_array().unwrap().len(), 13, "ref left out");
    // Nemo, segment 1: one error, `… Universum wissen , <v>vom Licht zu uns kommt</v> .`
    // (Accuracy/Mistranslation), tokens 30 to 34 of the output as tokenized (`Ich`=1, …,
    // `wissen`=28, `,`=29, `vom`=30, …, `kommt`=34, `.`=35). A word has an error exactly
    // when an output token linked to it is one of them.
    let n = items_of(&items, "Nemo", "1");
    assert!(n.len() > 10);
    let mut seen = 0;
    for x in &n {
        let in_span = x["positions"]
            .split_whitespace()
            .any(|p| (30..=34).contains(&p.parse::<u32>().unwrap()));
        assert_eq!(x["error"] == "1", in_span, "{x:?}");
        seen += usize::from(in_span);
    }
    assert!(seen >= 1, "{seen}");
    // VolcTrans-AT, segment 303: an omission, `I <v>I think</v> that looks like …` in
    // the source: `think` has an error whatever its rendering; the other content words of
    // the segment none (its only error).
    let v = items_of(&items, "VolcTrans-AT", "303");
    let think = v.iter().find(|x| x["form"] == "think").unwrap();
    assert_eq!(think["error"], "1");
    assert!(v
        .iter()
        .filter(|x| x["form"] != "think")
        .all(|x| x["error"] != "1"));
    // metricsystem3, segment 316: `and <v>is designed</v>, again` omitted: `designed`.
    let m = items_of(&items, "metricsystem3", "316");
    assert_eq!(
        m.iter().find(|x| x["form"] == "designed").unwrap()["error"],
        "1"
    );
    // Every item has the evidence that decided it, of its judgement; positions match the
    // tokens given.
    for x in &items {
        let first = x["evidence"].split([',', ':']).next().unwrap();
        let judgement = match first {
            "same" | "present" | "lemma" | "variant" | "translation" => "correct",
            "other" => "differs",
            "omitted" => "incorrect",
            "unplaced" => "unaligned",
            "no_reference" => "no_reference",
            e => panic!("{e}"),
        };
        if x["level"] == "word" {
            assert_eq!(x["judgement"], judgement, "{x:?}");
        }
        let n = x["positions"].split_whitespace().count();
        assert_eq!(n, x["output"].split_whitespace().count(), "{x:?}");
    }
    // MQM's scores: each system's mean over the 529 segments equals the mean of the
    // campaign's own per-segment averages (mqm_ted_ende.avg_seg_scores.tsv).
    let mut avg: BTreeMap<String, (f64, u32)> = BTreeMap::new();
    for l in lines(&data("mqm/mqm_ted_ende.avg_seg_scores.tsv"))
        .iter()
        .skip(1)
    {
        let (sys, rest) = l.split_once('\t').unwrap();
        let v = rest.split(' ').next().unwrap();
        if let Ok(v) = v.parse::<f64>() {
            let e = avg.entry(sys.to_string()).or_default();
            e.0 += v;
            e.1 += 1;
        }
    }
    for s in r["systems"].as_array().unwrap() {
        let (sum, n) = avg[s["system"].as_str().unwrap()];
        assert_eq!(n, 529);
        let got = s["mqm"].as_f64().unwrap();
        assert!((got - sum / 529.0).abs() < 1e-6, "{s}: {}", sum / 529.0);
    }
}

#[test]
fn an_unclosed_span_runs_to_the_end() {
    // HuaweiTSC, segment 1, with `<v>euch` never closed: every word with a token from
    // `euch` on has an error.
    let t = tempfile::tempdir().unwrap();
    let mut rows = campaign();
    for r in rows
        .iter_mut()
        .filter(|r| r[0] == "HuaweiTSC" && r[3] == "1")
    {
        r[6] = r[6].replace("</v>", "");
    }
    let file = t.path().join("unclosed.tsv");
    write_campaign(&file, &rows);
    let (r, items) = judge(&file, &t.path().join("out"), &["--docs", "talk.1"]);
    assert_eq!(r["segments"]["unclosed_spans"], 2);
    let h = items_of(&items, "HuaweiTSC", "1");
    // `Ich möchte euch …`: `euch` is token 3.
    let mut with = 0;
    for x in &h {
        let from_euch = x["positions"]
            .split_whitespace()
            .any(|p| p.parse::<u32>().unwrap() >= 3);
        assert_eq!(x["error"] == "1", from_euch, "{x:?}");
        with += usize::from(from_euch);
    }
    assert!(with >= 5, "{with}");
}

#[test]
fn several_raters_decide_by_half_and_missing_segments_are_left_out() {
    let t = tempfile::tempdir().unwrap();
    let base = campaign();
    let nemo1: Vec<Vec<String>> = base
        .iter()
        .filter(|r| r[0] == "Nemo" && r[3] == "1")
        .cloned()
        .collect();
    assert_eq!(nemo1.len(), 1);
    // A second rater of Nemo's segment 1 who saw no error: one of two is half.
    let no_error = |rater: &str| {
        let mut r = nemo1[0].clone();
        r[4] = rater.into();
        r[6] = r[6].replace("<v>", "").replace("</v>", "");
        r[7] = "No-error".into();
        r[8] = "No-error".into();
        r
    };
    let mut two = base.clone();
    two.push(no_error("raterX"));
    // HuaweiTSC's segment 1 dropped: HuaweiTSC was not rated there.
    two.retain(|r| !(r[0] == "HuaweiTSC" && r[3] == "1"));
    let file = t.path().join("two.tsv");
    write_campaign(&file, &two);
    let (r, items) = judge(&file, &t.path().join("two"), &["--docs", "talk.1"]);
    let errors = |items: &[BTreeMap<String, String>]| -> Vec<String> {
        items_of(items, "Nemo", "1")
            .iter()
            .filter(|x| x["error"] == "1")
            .map(|x| x["form"].clone())
            .collect()
    };
    let (_, one) = judge(&tsv(), &t.path().join("one"), &["--docs", "talk.1"]);
    assert!(!errors(&one).is_empty());
    assert_eq!(errors(&items), errors(&one));
    assert!(items_of(&items, "HuaweiTSC", "1").is_empty());
    let segments = |name: &str| {
        r["systems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["system"] == name)
            .unwrap()["segments"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(segments("HuaweiTSC") + 1, segments("Facebook-AI"));
    // A third rater who saw none: one of three is less than half.
    let mut three = two.clone();
    three.push(no_error("raterY"));
    let file = t.path().join("three.tsv");
    write_campaign(&file, &three);
    let (_, items) = judge(&file, &t.path().join("three"), &["--docs", "talk.1"]);
    assert!(errors(&items).is_empty());
    // A target text that differs between one system's rows of a segment is refused.
    let mut bad = base.clone();
    let mut r = nemo1[0].clone();
    r[4] = "raterZ".into();
    r[6] = "Etwas anderes.".into();
    bad.push(r);
    let file = t.path().join("bad.tsv");
    write_campaign(&file, &bad);
    let o = Ldd::cmd("mqm")
        .path("--sets", &fixture().sets)
        .path("--mqm", &file)
        .path("--out", &t.path().join("bad"))
        .run();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("bad.tsv:{}", bad.len())),
        "{}",
        stderr(&o)
    );
    assert!(absent_or_empty(&t.path().join("bad")));
}

/// MQM's kept- and changed-order figures (issue 56): loci of two words counted once each
/// by whether the output keeps the reference's order, among the locus items, with their
/// rater errors among those items' errors; the TED systems keep some orders and change
/// others, so a rule that reports every order as kept fails here.
fn check_order_figures(r: &serde_json::Value, items: &[BTreeMap<String, String>]) {
    let loci: Vec<&BTreeMap<String, String>> =
        items.iter().filter(|x| x["level"] == "locus").collect();
    let errors = loci.iter().filter(|x| x["error"] == "1").count() as u64;
    let figure = |k: &str, f: &str| r[k][f].as_u64().unwrap();
    let (kept, changed) = (
        figure("order_kept", "items"),
        figure("order_changed", "items"),
    );
    assert!(kept > 0 && changed > 0, "kept {kept}, changed {changed}");
    assert!(kept + changed <= loci.len() as u64, "{} loci", loci.len());
    for k in ["order_kept", "order_changed"] {
        assert!(figure(k, "rater_errors") <= figure(k, "items"), "{}", r[k]);
    }
    let with_error = figure("order_kept", "rater_errors") + figure("order_changed", "rater_errors");
    assert!(with_error <= errors, "{with_error} of {errors}");
}

/// What [`held_out`] gives: mqm.json, the items and the output directory.
type HeldOut = (serde_json::Value, Vec<BTreeMap<String, String>>, PathBuf);

/// The options of `make validate-mqm`'s held-out run: talks 3, 5 and 6, parsed by the
/// shared German model, the default 10,000 shuffles.
fn held_out_options(lemma: &Path) -> Vec<&str> {
    vec![
        "--docs",
        "talk.3,talk.5,talk.6",
        "--permutations",
        "10000",
        "--tgt-model",
        lemma.to_str().unwrap(),
    ]
}

/// `mqm` on the held-out talks as `make validate-mqm` runs it: mqm.json and the items,
/// made once for the tests that read them.
fn held_out() -> &'static HeldOut {
    static H: OnceLock<HeldOut> = OnceLock::new();
    H.get_or_init(|| {
        let out = fixture()._dir.path().join("held-out");
        let lemma = shared().join("models/german-small.udpipe");
        let (r, items) = judge(&tsv(), &out, &held_out_options(&lemma));
        (r, items, out)
    })
}

/// The held-out run on the sets of the built-in detection rules (issue 54), extracted
/// with the fixture's aligner loaded (no training: seconds): mqm.json.
fn builtin_held_out() -> &'static serde_json::Value {
    static H: OnceLock<serde_json::Value> = OnceLock::new();
    H.get_or_init(|| {
        let f = fixture();
        let dir = f._dir.path();
        let sets = dir.join("sets-builtin");
        Ldd::cmd("extract")
            .corpus(
                &f.ted.join("mqm.en-de.en"),
                &f.ted.join("mqm.en-de.de"),
                ("en", "de"),
            )
            .path("--model", &shared().join("models/english-small.udpipe"))
            .path("--cache", &dir.join("cache"))
            .path("--align-model", &dir.join("model/ted"))
            .args(&["--offline", "--controls", "0", "--quiet"])
            .out(&sets)
            .ok();
        let lemma = shared().join("models/german-small.udpipe");
        let out = dir.join("held-out-builtin");
        judge_on(&sets, &tsv(), &out, &held_out_options(&lemma)).0
    })
}

/// Three decimals, `-` when undefined.
fn f3(v: &serde_json::Value) -> String {
    v.as_f64().map_or("-".into(), |x| format!("{x:.3}"))
}

/// One row of the agreement table (a baseline's row leaves items, coverage and silent
/// empty); p with four decimals, as `mqm` prints it (10,000 shuffles: the smallest is
/// 0.0001).
fn agreement_row(t: &mut String, name: &str, a: &serde_json::Value, base: bool) {
    let (items, coverage, silent) = if base {
        (String::new(), String::new(), String::new())
    } else {
        (
            a["items"].to_string(),
            f3(&a["coverage"]),
            a["silent"]["items"].to_string(),
        )
    };
    t.push_str(&format!(
        "| {name} | {items} | {} | {coverage} | {silent} | {} | {} | {} | {} | {} | {} | {} |\n",
        a["judged"],
        f3(&a["incorrect_share"]),
        f3(&a["rater_error_rate"]),
        f3(&a["error_if_incorrect"]),
        f3(&a["error_if_correct"]),
        f3(&a["mcc"]),
        f3(&a["kappa"]),
        a["permutation_p"]
            .as_f64()
            .map_or("-".into(), |x| format!("{x:.4}")),
    ));
}

/// The kind's name in the tables.
fn kind_name(k: &serde_json::Value) -> &'static str {
    if k["kind"] == "reorder" {
        "reordering"
    } else {
        "lexical"
    }
}

/// The agreement table headed `title`: every content word (with `words`), the kinds
/// `kinds` admits, every locus — each beside its baseline.
fn agreement_table(
    r: &serde_json::Value,
    title: &str,
    words: bool,
    kinds: impl Fn(&str) -> bool,
) -> String {
    let mut t = format!(
        "| {title} | items | judged | coverage | raters silent | judged incorrect | \
         rater error | P(err \\| incorrect) | P(err \\| correct) | MCC | κ | within-item p |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let chrf = "↳ segment chrF, same share";
    if words {
        agreement_row(&mut t, "every content word", &r["words"], false);
        agreement_row(&mut t, chrf, &r["words_baseline"], true);
    }
    for k in r["kinds"].as_array().unwrap() {
        let name = kind_name(k);
        if kinds(name) {
            agreement_row(
                &mut t,
                &format!("{name} loci: their words"),
                &k["words"],
                false,
            );
            agreement_row(&mut t, chrf, &k["words_baseline"], true);
            agreement_row(&mut t, &format!("{name} loci"), &k["loci"], false);
            agreement_row(&mut t, chrf, &k["loci_baseline"], true);
        }
    }
    agreement_row(&mut t, "every locus", &r["loci"], false);
    agreement_row(&mut t, chrf, &r["loci_baseline"], true);
    t
}

/// The systems' correlations with MQM's score headed `title`: word accuracy (with
/// `words`), the kinds `kinds` admits, locus accuracy and corpus BLEU.
fn systems_table(
    r: &serde_json::Value,
    title: &str,
    words: bool,
    kinds: impl Fn(&str) -> bool,
) -> String {
    let mut t = format!(
        "| {title} | Spearman | Kendall | the raters' own (Spearman, Kendall) |\n\
         | --- | --- | --- | --- |\n"
    );
    let sys = |t: &mut String, name: &str, a: &serde_json::Value, human: bool| {
        let h = if human {
            format!("{}, {}", f3(&a["human_spearman"]), f3(&a["human_kendall"]))
        } else {
            String::new()
        };
        t.push_str(&format!(
            "| {name} | {} | {} | {h} |\n",
            f3(&a["spearman"]),
            f3(&a["kendall"])
        ));
    };
    if words {
        sys(&mut t, "word accuracy", &r["words"], true);
    }
    for k in r["kinds"].as_array().unwrap() {
        let name = kind_name(k);
        if kinds(name) {
            sys(&mut t, &format!("{name} locus accuracy"), &k["loci"], true);
        }
    }
    sys(&mut t, "locus accuracy", &r["loci"], true);
    sys(
        &mut t,
        "corpus BLEU (baseline)",
        &r["words_baseline"],
        false,
    );
    t
}

/// The held-out figures as docs/evaluation.md tabulates them: every level beside its
/// baseline, then the systems' correlations with MQM's score.
fn held_out_tables(r: &serde_json::Value) -> String {
    agreement_table(r, "held-out talks 3, 5, 6", true, |_| true)
        + "\n"
        + &systems_table(r, "13 systems, held out: against MQM's score", true, |_| {
            true
        })
}

/// The held-out figures of the built-in detection rules as docs/evaluation.md tabulates
/// them: what differs from the paper's rules (the lexical loci), beside the baselines.
/// Per phenomenon, from the held-out locus items: the loci (system × locus), each outcome's
/// count, the coverage (correct and incorrect of all) and the raters' error rate among
/// the items of each outcome with a located verdict (`-`: none).
fn phenomena_table(items: &[BTreeMap<String, String>]) -> String {
    let outcomes = [
        "correct",
        "incorrect",
        "differs",
        "partial",
        "unaligned",
        "no_reference",
    ];
    let mut t = String::from(
        "| held out, per phenomenon | loci | correct | incorrect | differs | partial | \
         unaligned | no reference | coverage | rater error: correct | incorrect | differs |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let mut phenomena: Vec<&str> = items
        .iter()
        .filter(|x| x["level"] == "locus")
        .map(|x| x["upos"].as_str())
        .collect();
    phenomena.sort();
    phenomena.dedup();
    for ph in phenomena {
        let of: Vec<&BTreeMap<String, String>> = items
            .iter()
            .filter(|x| x["level"] == "locus" && x["upos"] == ph)
            .collect();
        let count = |j: &str| of.iter().filter(|x| x["judgement"] == j).count();
        let counts: Vec<String> = outcomes.iter().map(|j| count(j).to_string()).collect();
        let rate = |j: &str| {
            let located: Vec<_> = of
                .iter()
                .filter(|x| x["judgement"] == j && !x["error"].is_empty())
                .collect();
            let errors = located.iter().filter(|x| x["error"] == "1").count();
            match located.len() {
                0 => "-".to_string(),
                n => format!("{:.3} ({errors}/{n})", errors as f64 / n as f64),
            }
        };
        let coverage = (count("correct") + count("incorrect")) as f64 / of.len() as f64;
        t.push_str(&format!(
            "| {ph} | {} | {} | {coverage:.3} | {} | {} | {} |\n",
            of.len(),
            counts.join(" | "),
            rate("correct"),
            rate("incorrect"),
            rate("differs"),
        ));
    }
    t
}

fn builtin_tables(r: &serde_json::Value) -> String {
    let lexical = |k: &str| k == "lexical";
    agreement_table(r, "held out, built-in rules", false, lexical)
        + "\n"
        + &systems_table(r, "13 systems, held out, built-in rules", false, lexical)
}

/// The held-out figures docs/evaluation.md states are the ones `mqm` gives on the sets
/// `make validate-mqm` makes, by the paper's and by the built-in detection rules (which
/// differ in the lexical loci alone: the words and the reordering loci are the same); and
/// the judgement carries information about where raters find errors beyond the words'
/// difficulty (word level: MCC > 0, within-item p < 0.01).
#[test]
fn held_out_figures_are_the_ones_the_docs_give() {
    let (r, items, _) = held_out();
    let b = builtin_held_out();
    let tables = held_out_tables(r) + "\n" + &phenomena_table(items) + "\n" + &builtin_tables(b);
    println!("{tables}");
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/evaluation.md"))
            .unwrap();
    for t in [
        held_out_tables(r),
        phenomena_table(items),
        builtin_tables(b),
    ] {
        assert!(docs.contains(&t), "docs/evaluation.md should hold:\n{t}");
    }
    for key in ["words", "words_baseline"] {
        assert_eq!(r[key], b[key], "{key}");
    }
    let reorder = |x: &serde_json::Value| {
        x["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["kind"] == "reorder")
            .cloned()
    };
    assert_eq!(reorder(r), reorder(b));
    assert!(reorder(r).is_some());
    // `locus:4` calls a word incorrect only on evidence (an omission): the professional
    // systems' content words almost never are, and the other words are `differs`.
    let w = &r["words"];
    let called =
        w["incorrect_and_error"].as_f64().unwrap() + w["incorrect_no_error"].as_f64().unwrap();
    assert!(called * 100.0 < w["judged"].as_f64().unwrap(), "{w}");
    assert!(w["differs"]["items"].as_u64().unwrap() > 1000, "{w}");
    let judgement = r["judgement"].as_str().unwrap();
    assert!(
        judgement.starts_with("locus:4|rule:checked-reference+"),
        "{judgement}"
    );
    let sha = ldd_io::sha256_file(&shared().join("models/german-small.udpipe"))
        .unwrap()
        .0;
    assert!(
        judgement.contains(&format!("|tgt-model:{}|", &sha[..16])),
        "{judgement}"
    );
}

#[test]
fn agreement_equals_scikit_learn_and_scipy() {
    let t = tempfile::tempdir().unwrap();
    let (r, items, _) = held_out();
    check_order_figures(r, items);
    let items: Vec<&BTreeMap<String, String>> =
        items.iter().filter(|x| x["level"] == "word").collect();
    let judged: Vec<&BTreeMap<String, String>> = items
        .iter()
        .copied()
        .filter(|x| x["judgement"] == "correct" || x["judgement"] == "incorrect")
        .collect();
    // The 2×2 table: the judged items whose raters' verdict is located (0 or 1); the
    // others (no output token for the word: an omission) counted apart.
    let located: Vec<&BTreeMap<String, String>> = judged
        .iter()
        .copied()
        .filter(|x| !x["error"].is_empty())
        .collect();
    let w = &r["words"];
    assert_eq!(w["items"].as_u64(), Some(items.len() as u64));
    assert_eq!(w["judged"].as_u64(), Some(judged.len() as u64));
    let silent = judged.len() - located.len();
    assert_eq!(w["silent"]["items"].as_u64(), Some(silent as u64));
    assert!(silent > 20, "{silent}");
    let inc_err = located
        .iter()
        .filter(|x| x["judgement"] == "incorrect" && x["error"] == "1")
        .count();
    assert_eq!(w["incorrect_and_error"].as_u64(), Some(inc_err as u64));
    let p = w["permutation_p"].as_f64().unwrap();
    assert!(p > 0.0 && p <= 1.0);
    // The baseline: the same number of located items called incorrect, those of lowest
    // sentence chrF (ties in item order).
    let incorrect = located
        .iter()
        .filter(|x| x["judgement"] == "incorrect")
        .count();
    let mut order: Vec<usize> = (0..located.len()).collect();
    let chrf = |k: usize| located[k]["sentence_chrf"].parse::<f64>().unwrap();
    order.sort_by(|&a, &b| chrf(a).total_cmp(&chrf(b)).then(a.cmp(&b)));
    let mut called = vec![0u8; located.len()];
    for &k in &order[..incorrect] {
        called[k] = 1;
    }
    let systems = r["systems"].as_array().unwrap();
    let input = serde_json::json!({
        "automatic": located.iter().map(|x| u8::from(x["judgement"] == "incorrect")).collect::<Vec<_>>(),
        "people": located.iter().map(|x| x["error"].parse::<u8>().unwrap()).collect::<Vec<_>>(),
        "accuracy": systems.iter().map(|s| s["word_accuracy"].as_f64().unwrap()).collect::<Vec<_>>(),
        "mqm": systems.iter().map(|s| s["mqm"].as_f64().unwrap()).collect::<Vec<_>>(),
    });
    let baseline = serde_json::json!({
        "automatic": called,
        "people": input["people"],
        "accuracy": systems.iter().map(|s| s["bleu"].as_f64().unwrap()).collect::<Vec<_>>(),
        "mqm": input["mqm"],
    });
    // The report's section shows these figures, and leaves out an mqm.json of other sets.
    let html = t.path().join("report.html");
    let report = |mqm: &Path| {
        Ldd::cmd("report")
            .path("--sets", &fixture().sets)
            .path("--mqm", mqm)
            .path("--out", &html)
            .args(&["--quiet"])
            .ok();
        std::fs::read_to_string(&html).unwrap()
    };
    let page = report(&held_out().2.join("mqm.json"));
    let section = &page[page.find("<section id=\"mqm\">").expect("an MQM section")..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(
        section.contains("documents talk.3, talk.5, talk.6"),
        "{section}"
    );
    let mcc = format!("<td class=\"n\">{:.3}</td>", w["mcc"].as_f64().unwrap());
    assert!(section.contains(&mcc), "{mcc} in {section}");
    for s in systems {
        assert!(section.contains(&format!("<tr><td>{}</td>", s["system"].as_str().unwrap())));
    }
    let mut other = r.clone();
    other["manifest_sha256"] = serde_json::json!("0".repeat(64));
    let other_path = t.path().join("other.json");
    std::fs::write(&other_path, other.to_string()).unwrap();
    let page = report(&other_path);
    assert!(!page.contains("<section id=\"mqm\">"));
    assert!(page.contains("was made for other sets"));
    let Some(want) = python_oracle("sklearn", "agreement.py", &input) else {
        return;
    };
    let want_baseline = python_oracle("sklearn", "agreement.py", &baseline).unwrap();
    let b = &r["words_baseline"];
    for (got, key, want) in [
        (&w["mcc"], "mcc", &want),
        (&w["kappa"], "kappa", &want),
        (&w["spearman"], "spearman", &want),
        (&w["kendall"], "kendall", &want),
        (&b["mcc"], "mcc", &want_baseline),
        (&b["kappa"], "kappa", &want_baseline),
        (&b["spearman"], "spearman", &want_baseline),
        (&b["kendall"], "kendall", &want_baseline),
    ] {
        let (a, b) = (got.as_f64().unwrap(), want[key].as_f64().unwrap());
        assert!((a - b).abs() < 1e-9, "{key}: {a} {b}");
    }
}

/// Every table `mqm` prints fits 100 columns (the agreement table split in two, the
/// items outside the 2×2 table counted, with a word of `--wide`); `--wide` prints them in
/// one table, with their rater error rates, however wide.
#[test]
fn every_table_fits_100_columns_unless_wide() {
    let t = tempfile::tempdir().unwrap();
    let run = |out: &str, wide: &[&str]| {
        let o = Ldd::cmd("mqm")
            .path("--sets", &fixture().sets)
            .path("--mqm", &tsv())
            .path("--out", &t.path().join(out))
            .args(&["--docs", "talk.3,talk.5,talk.6", "--permutations", "200"])
            .args(wide)
            .ok();
        String::from_utf8(o.stdout).unwrap()
    };
    let narrow = run("narrow", &[]);
    let widest = |s: &str| s.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(widest(&narrow) <= 100, "{narrow}");
    assert!(narrow.contains("--wide: one table"), "{narrow}");
    let wide = run("wide", &["--wide"]);
    assert!(widest(&wide) > 100, "{wide}");
    assert!(
        wide.contains("% err)") && !wide.contains("--wide: one table"),
        "{wide}"
    );
    // The same figures: every number of the narrow agreement table is in the wide one.
    let rows = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("every locus") || l.starts_with("every content word"))
            .map(String::from)
            .collect()
    };
    for (n, w) in rows(&narrow).iter().zip(rows(&wide).iter()) {
        for v in n.split_whitespace().filter(|v| v.contains('.')) {
            assert!(w.contains(v), "{v} of `{n}` not in `{w}`");
        }
    }
}

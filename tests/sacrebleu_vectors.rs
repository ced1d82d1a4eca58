//! sacreBLEU 2.4.3's own test vectors through `ldd-sets score`: every case of its
//! `test/test_bleu.py`, `test/test_chrf.py` and `test/test_ter.py` that starts from text
//! (hypotheses and references; the cases that start from statistics are unit tests of
//! `ldd_eval::bleu`), each run as a user would — its references made a corpus by
//! `extract` (trivial source trees), its hypotheses scored with the sacreBLEU flags that
//! stand for the case's arguments — and compared with the expected value the test file
//! gives, within that file's tolerance (BLEU 1e-8 on the 0–1 scale, or two decimals for
//! the maximum-order cases; chrF 1e-4; TER 1e-3 on the 0–1 scale). The cases' data and
//! expected values are sacreBLEU's (Apache-2.0; github.com/mjpost/sacrebleu, tag v2.4.3).
//!
//! With the venv, sacreBLEU itself also scores every case with the same settings: the
//! score agrees, and `scores.json`'s signature starts with sacreBLEU's own signature of
//! the metric, byte for byte (`tests/oracle/sacrebleu_cases.py`).
//!
//! Also: BLEU of a toy en→zh, en→ja and en→ko corpus with no `--tokenize` equals
//! `sacrebleu -l en-xx` (its per-language tokenizer, MeCab with sacreBLEU's dictionaries
//! for Japanese and Korean, loaded from the venv's site-packages).

mod common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::{json, Value};

/// How a case's result is checked.
enum Check {
    /// `|score − want| < tol`, on the 0–100 scale.
    Within(f64, f64),
    /// The score printed with two decimals.
    Fixed2(&'static str),
}

struct Case {
    name: String,
    /// `bleu`, `chrf` or `ter`.
    metric: &'static str,
    /// `ldd-sets score` flags for the case's settings.
    flags: Vec<&'static str>,
    /// sacreBLEU's metric class and keyword arguments.
    py: (&'static str, Value),
    hyps: Vec<&'static str>,
    /// `refs[k]`: the k-th reference stream.
    refs: Vec<Vec<&'static str>>,
    check: Check,
}

const REFS_A: [&str; 3] = [
    "The dog bit the man.",
    "It was not unexpected.",
    "The man bit him first.",
];
const REFS_B: [&str; 3] = [
    "The dog had bit the man.",
    "No one was surprised.",
    "The man had bitten the dog.",
];
const HYPS: [&str; 3] = [
    "The dog bit the man.",
    "It wasn't surprising.",
    "The man had just bitten him.",
];

/// `sacrebleu.raw_corpus_bleu(hyps, refs, smooth)`: floor smoothing, no tokenization,
/// effective order.
fn raw(
    name: &str,
    hyps: Vec<&'static str>,
    refs: Vec<Vec<&'static str>>,
    smooth: Option<&'static str>,
    want: f64,
) -> Case {
    let mut flags = vec!["--tokenize", "none", "-s", "floor", "--effective-order"];
    let mut kwargs = json!({"tokenize": "none", "smooth_method": "floor", "force": true, "effective_order": true});
    if let Some(v) = smooth {
        flags.extend(["-sv", v]);
        kwargs["smooth_value"] = json!(v.parse::<f64>().unwrap());
    }
    Case {
        name: name.into(),
        metric: "bleu",
        flags,
        py: ("BLEU", kwargs),
        hyps,
        refs,
        // EPSILON 1e-8 on score / 100.
        check: Check::Within(100.0 * want, 1e-6),
    }
}

fn cases() -> Vec<Case> {
    let mut c = Vec::new();
    // test_bleu.py: test_raw_bleu
    for (k, (h, r, w)) in [
        (
            vec!["this is a test", "another test"],
            vec!["ref1", "ref2"],
            0.0,
        ),
        (vec!["this is a test"], vec!["this is a test"], 1.0),
        (
            vec!["this is a fest"],
            vec!["this is a test"],
            0.223606797749979,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        c.push(raw(&format!("raw_bleu {k}"), h, vec![r], Some("0.01"), w));
    }
    // test_corpus_bleu (two references)
    for (k, (hyps, flags, kwargs, want)) in [
        (HYPS.to_vec(), vec![], json!({}), 48.530827),
        (vec!["", "", ""], vec![], json!({}), 0.0),
        (
            HYPS.to_vec(),
            vec!["--tokenize", "none"],
            json!({"tokenize": "none"}),
            49.1919566,
        ),
        (
            HYPS.to_vec(),
            vec!["-tok", "13a"],
            json!({"tokenize": "13a"}),
            48.530827,
        ),
        (
            HYPS.to_vec(),
            vec!["--tokenize", "intl"],
            json!({"tokenize": "intl"}),
            43.91623493,
        ),
        (
            HYPS.to_vec(),
            vec!["-s", "none"],
            json!({"smooth_method": "none"}),
            48.530827,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        c.push(Case {
            name: format!("corpus_bleu {k}"),
            metric: "bleu",
            flags,
            py: ("BLEU", kwargs),
            hyps,
            refs: vec![REFS_A.to_vec(), REFS_B.to_vec()],
            check: Check::Within(want, 1e-8),
        });
    }
    // test_effective_order
    for (k, (h, r, w)) in [
        ("test", "a test", 0.3678794411714425),
        ("a test", "a test", 1.0),
        ("a little test", "a test", 0.03218297948685433),
    ]
    .into_iter()
    .enumerate()
    {
        c.push(raw(
            &format!("effective_order {k}"),
            vec![h],
            vec![vec![r]],
            Some("0.01"),
            w,
        ));
    }
    // test_statistics: counts [4, 2, 1, 0] of totals [6, 5, 4, 3], hyp 6 and ref 8
    // tokens; through the command line, the score those statistics give.
    let stats = ldd_eval::BleuStats {
        hyp_len: 6,
        ref_len: 8,
        matches: [4, 2, 1, 0, 0, 0],
        totals: [6, 5, 4, 3, 0, 0],
    };
    let raw_scoring = ldd_eval::BleuScoring {
        smooth: ldd_eval::Smooth::Floor(0.01),
        effective_order: true,
        ..Default::default()
    };
    use ldd_eval::SufficientStats;
    let offset_h = vec!["am I am a character sequence"];
    let offset_r = vec![vec!["I am a symbol string sequence a a"]];
    c.push(raw(
        "statistics",
        offset_h.clone(),
        offset_r.clone(),
        Some("0.01"),
        stats.score(&raw_scoring) / 100.0,
    ));
    // test_offset: without offset (0.0), then floor's default 0.1
    c.push(raw(
        "offset 0",
        offset_h.clone(),
        offset_r.clone(),
        Some("0.0"),
        0.0,
    ));
    c.push(raw(
        "offset default",
        offset_h,
        offset_r,
        None,
        0.1555722182,
    ));
    // test_max_ngram_order
    for (order, want) in [
        ("1", "77.65"),
        ("2", "60.50"),
        ("3", "53.93"),
        ("4", "48.53"),
        ("5", "46.14"),
        ("6", "43.28"),
    ] {
        c.push(Case {
            name: format!("max_ngram_order {order}"),
            metric: "bleu",
            flags: vec!["--max-ngram-order", order],
            py: (
                "BLEU",
                json!({"max_ngram_order": order.parse::<u32>().unwrap()}),
            ),
            hyps: HYPS.to_vec(),
            refs: vec![REFS_A.to_vec(), REFS_B.to_vec()],
            check: Check::Fixed2(want),
        });
    }
    // test_chrf.py: test_chrf (eps smoothing, β 3), test_chrf_eff_order (β 3)
    let chrf = |name: String,
                flags: Vec<&'static str>,
                kwargs: Value,
                h: Vec<&'static str>,
                r: Vec<&'static str>,
                want: f64| Case {
        name,
        metric: "chrf",
        flags,
        py: ("CHRF", kwargs),
        hyps: h,
        refs: vec![r],
        check: Check::Within(want, 1e-4),
    };
    let eps: Vec<(Vec<&str>, Vec<&str>, f64)> = vec![
        (vec!["abcdefg"], vec!["hijklmnop"], 0.0),
        (vec!["a"], vec!["b"], 0.0),
        (vec![""], vec!["b"], 0.0),
        (vec![""], vec!["ref"], 0.0),
        (vec![""], vec!["reference"], 0.0),
        (vec!["aa"], vec!["ab"], 8.3333),
        (vec!["a", "b"], vec!["a", "c"], 8.3333),
        (vec!["a"], vec!["a"], 16.6667),
        (vec!["a b c"], vec!["a b c"], 50.0),
        (vec!["a b c"], vec!["abc"], 50.0),
        (
            vec![" risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."],
            vec!["risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."],
            63.361730,
        ),
        (
            vec![" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
            vec!["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
            64.1302698,
        ),
        (
            vec!["Niemand hat die Absicht, eine Mauer zu errichten"],
            vec!["Niemand hat die Absicht, eine Mauer zu errichten"],
            100.0,
        ),
    ];
    for (k, (h, r, w)) in eps.into_iter().enumerate() {
        c.push(chrf(
            format!("chrf {k}"),
            vec!["--chrf-beta", "3", "--chrf-eps-smoothing"],
            json!({"char_order": 6, "word_order": 0, "beta": 3, "eps_smoothing": true}),
            h,
            r,
            w,
        ));
    }
    let eff: Vec<(Vec<&str>, Vec<&str>, f64)> = vec![
        (vec!["a"], vec!["a"], 100.0),
        (vec![""], vec!["reference"], 0.0),
        (vec!["a b c"], vec!["a b c"], 100.0),
        (vec!["a b c"], vec!["abc"], 100.0),
        (vec![""], vec!["c"], 0.0),
        (vec!["a", "b"], vec!["a", "c"], 50.0),
        (vec!["aa"], vec!["ab"], 25.0),
    ];
    for (k, (h, r, w)) in eff.into_iter().enumerate() {
        c.push(chrf(
            format!("chrf_eff_order {k}"),
            vec!["--chrf-beta", "3"],
            json!({"char_order": 6, "word_order": 0, "beta": 3, "eps_smoothing": false}),
            h,
            r,
            w,
        ));
    }
    // test_chrf_keep_whitespace
    for (k, (h, r, w)) in [
        (
            "Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich.",
            "Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.",
            67.3481606,
        ),
        (
            "risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists .",
            "risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists .",
            65.2414427,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        c.push(chrf(
            format!("chrf_keep_whitespace {k}"),
            vec!["--chrf-beta", "3", "--chrf-whitespace"],
            json!({"char_order": 6, "word_order": 0, "beta": 3, "whitespace": true}),
            vec![h],
            vec![r],
            w,
        ));
    }
    // test_chrf_sentence_level (eps smoothing, β 2)
    for (k, (h, r, w)) in [
        (
            "Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
            "Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.",
            39.14078509,
        ),
        (
            "Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
            "A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.",
            31.22557079,
        ),
        (
            "Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
            "Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli.",
            57.15704367,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        c.push(chrf(
            format!("chrf_sentence_level {k}"),
            vec!["--chrf-eps-smoothing"],
            json!({"eps_smoothing": true}),
            vec![h],
            vec![r],
            w,
        ));
    }
    // test_ter.py: test_ter
    let ter: Vec<(Vec<&str>, Vec<&str>, f64)> = vec![
        (vec!["aaaa bbbb cccc dddd"], vec!["aaaa bbbb cccc dddd"], 0.0),
        (vec!["dddd eeee ffff"], vec!["aaaa bbbb cccc"], 1.0),
        (vec![""], vec!["a"], 1.0),
        (vec!["a"], vec![""], 1.0),
        (vec![""], vec![""], 0.0),
        (vec!["d e f g h a b c"], vec!["a b c d e f g h"], 1.0 / 8.0),
        (
            vec![
                "wählen Sie \" Bild neu berechnen , \" um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere Größe .",
                "wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option \" Alle Aufgaben aktualisieren . \"",
                "klicken Sie auf der Registerkarte \" Optionen \" auf die Schaltfläche \" Benutzerdefiniert \" und geben Sie Werte für \" Fehlerkorrektur-Level \" und \" Y / X-Verhältnis \" ein .",
                "Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .",
                "wählen Sie im Dialogfeld \" Neu aus Vorlage \" eine Vorlage aus und klicken Sie auf \" Neu . \"",
            ],
            vec![
                "wählen Sie \" Bild neu berechnen , \" um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe beibehalten wird .",
                "wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option \" Alle Aufgaben aktualisieren . \"",
                "klicken Sie auf der Registerkarte \" Optionen \" auf die Schaltfläche \" Benutzerdefiniert \" und geben Sie für \" Fehlerkorrektur-Level \" und \" Y / X-Verhältnis \" niedrigere Werte ein .",
                "Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über die Bühne bewegt .",
                "wählen Sie im Dialogfeld \" Neu aus Vorlage \" eine Vorlage aus und klicken Sie auf \" Neu . \"",
            ],
            0.136,
        ),
    ];
    for (k, (h, r, w)) in ter.into_iter().enumerate() {
        c.push(Case {
            name: format!("ter {k}"),
            metric: "ter",
            flags: vec!["--metrics", "ter"],
            py: ("TER", json!({})),
            hyps: h,
            refs: vec![r],
            check: Check::Within(100.0 * w, 1e-3),
        });
    }
    c
}

fn write_lines(p: &Path, lines: &[&str]) {
    let mut s = String::new();
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    std::fs::write(p, s).unwrap();
}

/// A sets directory whose corpus has `reference` as its target side (language
/// `tgt_lang`) and one-word source lines with trivial trees, made by `extract`.
fn corpus(dir: &Path, reference: &[&str], tgt_lang: &str) -> (PathBuf, PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    let (src, tgt, conllu) = (
        dir.join("src.de"),
        dir.join(format!("ref.{tgt_lang}")),
        dir.join("src.conllu"),
    );
    write_lines(&src, &vec!["x"; reference.len()]);
    write_lines(&tgt, reference);
    std::fs::write(
        &conllu,
        "# text = x\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n\n".repeat(reference.len()),
    )
    .unwrap();
    let sets = dir.join("sets");
    Ldd::cmd("extract")
        .path("--src", &src)
        .path("--tgt", &tgt)
        .args(&[
            "--src-lang",
            "de",
            "--tgt-lang",
            tgt_lang,
            "--no-reorder",
            "--controls",
            "0",
            "-q",
        ])
        .path("--conllu", &conllu)
        .out(&sets)
        .ok();
    (sets, tgt)
}

/// `scores.json`'s corpus row of `metric` after `ldd-sets score` of `hyps` on `sets` with
/// `extra` arguments.
fn corpus_row(
    sets: &Path,
    hyps: &Path,
    extra: &[&str],
    env: Option<(&str, &Path)>,
    metric: &str,
) -> Value {
    let out = sets.with_file_name("scored");
    let mut cmd = Ldd::cmd("score")
        .path("--sets", sets)
        .path("--hyp", hyps)
        .path("--out", &out)
        .args(extra)
        .args(&["-q"]);
    if let Some((k, v)) = env {
        cmd = cmd.env(k, v);
    }
    cmd.ok();
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("scores.json")).unwrap()).unwrap();
    s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == metric && r["scope"] == "corpus")
        .unwrap_or_else(|| panic!("no corpus row of {metric}"))
        .clone()
}

#[test]
fn sacrebleu_test_vectors_through_score() {
    let t = tempfile::tempdir().unwrap();
    let cases = cases();
    assert_eq!(cases.len(), 53);
    let mut got = Vec::new();
    for (k, c) in cases.iter().enumerate() {
        let dir = t.path().join(format!("case{k}"));
        let (sets, tgt) = corpus(&dir, &c.refs[0], "en");
        let hyp = dir.join("hyp.en");
        write_lines(&hyp, &c.hyps);
        let mut args: Vec<String> = c.flags.iter().map(|s| s.to_string()).collect();
        args.extend(["--ref".into(), tgt.display().to_string()]);
        for (j, r) in c.refs.iter().enumerate().skip(1) {
            let p = dir.join(format!("ref{j}.en"));
            write_lines(&p, r);
            args.extend(["--ref".into(), p.display().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let row = corpus_row(&sets, &hyp, &args, None, c.metric);
        let score = row["score"].as_f64().unwrap();
        match c.check {
            Check::Within(want, tol) => {
                assert!((score - want).abs() < tol, "{}: {score} vs {want}", c.name)
            }
            Check::Fixed2(want) => assert_eq!(format!("{score:.2}"), want, "{}", c.name),
        }
        assert!(
            row["signature"]
                .as_str()
                .unwrap()
                .starts_with(&format!("nrefs:{}|", c.refs.len())),
            "{}",
            c.name
        );
        got.push((score, row["signature"].as_str().unwrap().to_string()));
    }
    // sacreBLEU itself on the same cases: the same score, and its signature.
    let request: Vec<Value> = cases
        .iter()
        .map(|c| json!({"metric": c.py.0, "kwargs": c.py.1, "hyps": c.hyps, "refs": c.refs}))
        .collect();
    let Some(want) = python_oracle("sacrebleu", "sacrebleu_cases.py", &json!(request)) else {
        return;
    };
    for ((c, (score, sig)), w) in cases.iter().zip(&got).zip(want.as_array().unwrap()) {
        let ws = w["score"].as_f64().unwrap();
        assert!(
            (score - ws).abs() <= 1e-9 * ws.abs().max(1.0),
            "{}: {score} vs sacreBLEU {ws}",
            c.name
        );
        let wsig = w["signature"].as_str().unwrap();
        assert!(
            sig.starts_with(&format!("{wsig}|")),
            "{}: {sig}\n  vs sacreBLEU {wsig}",
            c.name
        );
    }
}

/// The toy corpora: references and a system's output, per target language.
fn toy(lang: &str) -> (Vec<&'static str>, Vec<&'static str>) {
    match lang {
        "zh" => (
            vec![
                "我们明天早上八点在火车站见面。",
                "这本书的作者是一位著名的历史学家。",
                "由于天气原因，航班被推迟了两个小时。",
                "他每天晚上都会给孩子读一个故事。",
            ],
            vec![
                "我们明天早上八点在车站见面。",
                "这本书的作者是著名历史学家。",
                "因为天气，航班推迟了两个小时。",
                "他每天晚上给孩子们读故事。",
            ],
        ),
        "ja" => (
            vec![
                "私たちは明日の朝八時に駅で会います。",
                "この本の著者は有名な歴史家です。",
                "天候のため、飛行機は二時間遅れました。",
                "彼は毎晩子供に物語を読んであげます。",
            ],
            vec![
                "私たちは明日の朝8時に駅で会います。",
                "この本の作者は有名な歴史家です。",
                "天気のせいで、飛行機は2時間遅れた。",
                "彼は毎晩子どもたちに話を読みます。",
            ],
        ),
        _ => (
            vec![
                "우리는 내일 아침 여덟 시에 기차역에서 만납니다.",
                "이 책의 저자는 유명한 역사학자입니다.",
                "날씨 때문에 비행기가 두 시간 지연되었습니다.",
                "그는 매일 밤 아이에게 이야기를 읽어 줍니다.",
            ],
            vec![
                "우리는 내일 아침 8시에 역에서 만납니다.",
                "이 책의 작가는 유명한 역사가입니다.",
                "날씨 때문에 비행기가 2시간 늦어졌습니다.",
                "그는 매일 밤 아이들에게 이야기를 읽어줍니다.",
            ],
        ),
    }
}

/// The venv's site-packages (where `sacrebleu[ja,ko]` put MeCab and its dictionaries).
fn site_packages() -> PathBuf {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/lib");
    std::fs::read_dir(&lib)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (tests/setup/install.sh makes the venv)",
                lib.display()
            )
        })
        .flatten()
        .map(|e| e.path().join("site-packages"))
        .find(|p| p.join("ipadic").is_dir())
        .unwrap_or_else(|| panic!("no site-packages with ipadic under {}", lib.display()))
}

#[test]
fn cjk_targets_take_sacrebleus_tokenizers() {
    let Some(py) = python_with("sacrebleu") else {
        return;
    };
    let site = site_packages();
    let t = tempfile::tempdir().unwrap();
    for (lang, tok) in [
        ("zh", "zh"),
        ("ja", "ja-mecab-0.996-IPA"),
        ("ko", "ko-mecab-0.996/ko-0.9.2-KO"),
    ] {
        let (refs, hyps) = toy(lang);
        let dir = t.path().join(lang);
        let (sets, tgt) = corpus(&dir, &refs, lang);
        let hyp = dir.join(format!("hyp.{lang}"));
        write_lines(&hyp, &hyps);
        let row = corpus_row(&sets, &hyp, &[], Some(("LDD_SETS_MECAB", &site)), "bleu");
        // sacrebleu REF -i HYP -l en-xx -m bleu --format json
        let o = std::process::Command::new(&py)
            .args([
                "-m",
                "sacrebleu",
                tgt.to_str().unwrap(),
                "-i",
                hyp.to_str().unwrap(),
            ])
            .args([
                "-l",
                &format!("en-{lang}"),
                "-m",
                "bleu",
                "-w",
                "16",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let want: Value = serde_json::from_slice(&o.stdout).unwrap();
        let score = row["score"].as_f64().unwrap();
        let sb = want["score"].as_f64().unwrap();
        assert!(
            (score - sb).abs() < 1e-12,
            "{lang}: {score} vs sacrebleu {sb}"
        );
        assert!(score > 5.0 && score < 95.0, "{lang}: {score}");
        let sig = row["signature"].as_str().unwrap();
        assert!(
            sig.starts_with(&format!(
                "nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:{tok}|smooth:exp|version:2.4.3|"
            )),
            "{lang}: {sig}"
        );
        assert_eq!(want["tok"], tok, "{lang}");
        // 13a on the same corpus is another number: the tokenizer matters.
        let other = corpus_row(&sets, &hyp, &["--tokenize", "13a"], None, "bleu");
        assert_ne!(other["score"].as_f64(), Some(score), "{lang}");
    }
    // Without MeCab, ja-mecab is refused with what to install (exit 6), before any output.
    let (refs, hyps) = toy("ja");
    let (sets, _) = corpus(&t.path().join("none"), &refs, "ja");
    let hyp = t.path().join("none/hyp.ja");
    write_lines(&hyp, &hyps);
    let o = Ldd::cmd("score")
        .path("--sets", &sets)
        .path("--hyp", &hyp)
        .env("LDD_SETS_MECAB", t.path())
        .env_remove("VIRTUAL_ENV")
        .run();
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("pip install \"sacrebleu[ja]==2.4.3\""),
        "{}",
        stderr(&o)
    );
    assert!(!sets.join("scores.json").exists());
}

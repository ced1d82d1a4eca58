//! `contrast` on the shared PUD en→de sets (English source with its gold trees, German
//! reference) and on newstest2013 en→de (English parsed with the small model; it has
//! preposition-stranding items, PUD has none), the aligner trained on the shared de-en
//! corpora: variants checked by hand for each phenomenon, and every variant of every item
//! differs from its reference only at the locus, as its type says (property over all
//! items); the plain files, the ACES rows and the record agree with the items; `replaced`
//! by the German tagger's UD features, checked by hand per feature set; refusals leave
//! nothing.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::*;

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The tokens of a German line as the aligner tokenizes it.
fn toks(s: &str) -> Vec<String> {
    ldd_align::tokenize(s)
        .into_iter()
        .map(String::from)
        .collect()
}

/// An `aces.tsv` cell as text: the `'` before text a spreadsheet would run removed.
fn unquoted(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest)
            if rest
                .trim_start_matches('\'')
                .starts_with(['=', '+', '-', '@']) =>
        {
            rest
        }
        _ => cell,
    }
}

#[test]
fn variants_differ_from_the_reference_only_at_the_locus() {
    let t = tempfile::tempdir().unwrap();
    let sets = t.path().join("sets");
    pud_aligned("en", &sets, &[]);
    let out = t.path().join("contrast");
    contrast(&sets, &out, &[]);
    let items = check_items(&out, false);
    check_by_hand(&items);
    check_contrastive(&sets, &out, &items, t.path());
    let tagged = check_by_features(&sets, &items, t.path());
    // Line 865: dative `sich`; the word list's `aus mich` is a case error as well.
    assert_eq!(replacements(&tagged, 865), ["dir", "euch", "mir", "uns"]);
    assert_eq!(replacements(&items, 865), ["mich", "uns"]);
    let it = tagged.iter().find(|i| i["line"] == 865).unwrap();
    assert!(it["variants"].as_array().unwrap().iter().any(|v| v["text"]
        .as_str()
        .unwrap()
        .contains("das Beste aus mir herausholen")));
    check_feature_refusals(&sets, t.path());
}

/// The English side of newstest2013 parsed with the small English model, German reference:
/// the sets hold preposition-stranding items (PUD's do not: none of its four stranding
/// loci has a linked reference word). Every variant differs from its reference only at the
/// locus, with and without the German tagger; a stranding item checked by hand; and two
/// `mich`/`uns` the word list replaces but the tagger does not call reflexive.
#[test]
fn newstest_stranding_and_features() {
    let t = tempfile::tempdir().unwrap();
    let sets = t.path().join("sets");
    Ldd::cmd("extract")
        .corpus(
            &data("parallel/newstest2013.de-en.en"),
            &data("parallel/newstest2013.de-en.de"),
            ("en", "de"),
        )
        .path("--model", &shared().join("models/english-small.udpipe"))
        .path("--cache", &t.path().join("cache"))
        .path("--align-train", &data("parallel/books-sample.de-en"))
        .args(&["--controls", "0", "-q"])
        .out(&sets)
        .ok();
    let out = t.path().join("contrast");
    contrast(&sets, &out, &[]);
    let items = check_items(&out, false);
    // "… was a great joy to work with" / "…, mit der wir aber eine Goldmedaille
    // gewannen …": the stranded `with` linked to `mit`, dropped.
    let it = items
        .iter()
        .find(|i| i["phenomenon"] == "preposition_stranding" && i["line"] == 2894)
        .unwrap();
    assert_eq!(it["locus"]["dep_word"], "with");
    assert_eq!(it["locus"]["head_word"], "work");
    let v = it["variants"].as_array().unwrap();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["type"], "dropped");
    assert_eq!(v[0]["original"], "mit");
    assert_eq!(
        v[0]["text"],
        "Eine Mannschaft , die vielleicht in Bezug auf Persönlichkeiten nicht die Beste war , \
         der wir aber eine Goldmedaille gewannen und die uns große Freude bereitete , war jene \
         des vorolympischen Turniers 1995 in Neuquén , Argentinien ."
    );
    let tagged = check_by_features(&sets, &items, t.path());
    // "… als mich jemand leicht auf die Schulter tippte": `by myself` linked to an object
    // `mich` (an alignment error). The word list makes it `sich`, a grammatical sentence
    // of another meaning; the tagger does not call it reflexive, so no variant. And
    // "Und uns selbst …", an emphatic `uns`.
    assert_eq!(replacements(&items, 2449), ["sich", "dich"]);
    assert!(replacements(&tagged, 2449).is_empty());
    assert_eq!(replacements(&items, 405), ["sich", "euch"]);
    assert!(replacements(&tagged, 405).is_empty());
}

/// Runs `contrast --sets SETS --out OUT` with `extra`.
fn contrast(sets: &Path, out: &Path, extra: &[&str]) {
    Ldd::cmd("contrast")
        .path("--sets", sets)
        .path("--out", out)
        .args(extra)
        .args(&["-q"])
        .ok();
}

/// The `replaced` variants' replacements of the reflexive item of `line`.
fn replacements(items: &[serde_json::Value], line: u64) -> Vec<String> {
    let it = items
        .iter()
        .find(|i| i["line"] == line && i["phenomenon"] == "reflexive")
        .unwrap_or_else(|| panic!("no reflexive item on line {line}"));
    it["variants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["type"] == "replaced")
        .map(|v| v["replacement"].as_str().unwrap().to_string())
        .collect()
}

/// Reads the items of the en→de contrast directory `out` and checks every variant of
/// every item against its reference (it differs only at the locus, as its type says; with
/// `tagged` false a replacement is the word list's), the plain files, the ACES rows and
/// the record.
fn check_items(out: &Path, tagged: bool) -> Vec<serde_json::Value> {
    let items: Vec<serde_json::Value> = read(&out.join("items.jsonl"))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let src_lines = lines(&out.join("contrast.en"));
    let tgt_lines = lines(&out.join("contrast.de"));
    let aces = lines(&out.join("aces.tsv"));
    assert_eq!(
        aces[0],
        "source\tgood-translation\tincorrect-translation\treference\tphenomena\tlangpair"
    );
    let replace: BTreeMap<&str, &[&str]> = [
        ("sich", &["mich", "uns"][..]),
        ("mich", &["sich", "dich"]),
        ("dich", &["sich", "mich"]),
        ("uns", &["sich", "euch"]),
        ("euch", &["sich", "uns"]),
        ("mir", &["sich", "dir"]),
        ("dir", &["sich", "mir"]),
    ]
    .into();
    let mut per_type: BTreeMap<String, u64> = BTreeMap::new();
    let mut next_line = 1u64;
    let mut aces_row = 1;
    for (k, it) in items.iter().enumerate() {
        assert_eq!(it["item"], format!("C{:06}", k + 1));
        assert_eq!(it["first_line"].as_u64(), Some(next_line));
        let reference = it["reference"].as_str().unwrap();
        let r = toks(reference);
        let pos = |key: &str| -> Vec<usize> {
            it["locus"][key]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_u64().unwrap() as usize - 1)
                .collect()
        };
        let (dep, head) = (pos("ref_dep"), pos("ref_head"));
        let first = next_line as usize - 1;
        assert_eq!(tgt_lines[first], reference);
        let variants = it["variants"].as_array().unwrap();
        assert!(!variants.is_empty());
        for (j, v) in variants.iter().enumerate() {
            let text = v["text"].as_str().unwrap();
            assert_eq!(tgt_lines[first + 1 + j], text);
            assert_eq!(src_lines[first + 1 + j], it["source"].as_str().unwrap());
            let kind = v["type"].as_str().unwrap();
            *per_type.entry(kind.to_string()).or_default() += 1;
            let got = toks(text);
            let what = format!("{} {kind}: {reference} -> {text}", it["item"]);
            match kind {
                "dropped" => {
                    let want: Vec<String> = r
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| !dep.contains(i))
                        .map(|(_, w)| w.clone())
                        .collect();
                    assert_eq!(got, want, "{what}");
                }
                "replaced" => {
                    assert_eq!(got.len(), r.len(), "{what}");
                    let diff: Vec<usize> = (0..r.len()).filter(|&i| got[i] != r[i]).collect();
                    assert_eq!(diff.len(), 1, "{what}");
                    assert!(dep.contains(&diff[0]), "{what}");
                    let (old, new) = (r[diff[0]].to_lowercase(), got[diff[0]].to_lowercase());
                    if !tagged {
                        assert!(replace[old.as_str()].contains(&new.as_str()), "{what}");
                    }
                }
                "moved" => {
                    assert_eq!(dep.len(), 1, "{what}");
                    let last_head = *head.iter().max().unwrap();
                    let mut want: Vec<String> = r.clone();
                    let w = want.remove(dep[0]);
                    let at = if dep[0] < last_head {
                        last_head
                    } else {
                        last_head + 1
                    };
                    want.insert(at, w);
                    assert_eq!(got, want, "{what}");
                    assert_ne!(got, r, "{what}");
                }
                "swapped" => {
                    let mut want = r.clone();
                    want.swap(dep[0], head[0]);
                    assert_eq!(got, want, "{what}");
                    assert_eq!(it["phenomenon"], "reorder");
                }
                other => panic!("{other}"),
            }
            // The ACES row of the variant (a cell a spreadsheet would run as a formula has a
            // leading `'`, docs/contrast.md).
            let row: Vec<&str> = aces[aces_row].split('\t').map(unquoted).collect();
            aces_row += 1;
            assert_eq!(row[1], reference);
            assert_eq!(row[2], text);
            assert_eq!(
                row[4],
                format!("ldd-{}-{kind}", it["phenomenon"].as_str().unwrap())
            );
            assert_eq!(row[5], "en-de");
        }
        next_line += 1 + variants.len() as u64;
    }
    assert_eq!(tgt_lines.len() as u64, next_line - 1);
    assert_eq!(src_lines.len(), tgt_lines.len());
    assert_eq!(aces.len(), aces_row);
    let rec: serde_json::Value = serde_json::from_str(&read(&out.join("contrast.json"))).unwrap();
    assert_eq!(rec["items"].as_u64(), Some(items.len() as u64));
    for (k, n) in &per_type {
        assert_eq!(rec["per_type"][k].as_u64(), Some(*n), "{k}");
    }
    for k in ["dropped", "replaced", "swapped"] {
        assert!(
            per_type.get(k).copied().unwrap_or(0) > 5,
            "{k}: {per_type:?}"
        );
    }
    items
}

/// `--target-model` (the German model) on `sets`, against the word-list run `plain`: the
/// same items and variants, except that `replaced` now goes by the tagger's UD features —
/// each replaced token's features are the tagger's, and its replacements are the pronouns
/// of its case in another person or number, as worked out by hand for each (form,
/// features) met; the property checks of [`check_items`] hold. Returns the items.
fn check_by_features(
    sets: &Path,
    plain: &[serde_json::Value],
    tmp: &Path,
) -> Vec<serde_json::Value> {
    let model = shared().join("models/german-small.udpipe");
    let out = tmp.join("contrast-features");
    contrast(sets, &out, &["--target-model", model.to_str().unwrap()]);
    let items = check_items(&out, true);
    let rec: serde_json::Value = serde_json::from_str(&read(&out.join("contrast.json"))).unwrap();
    let sha = ldd_io::sha256_file(&model).unwrap().0;
    assert_eq!(rec["replaced_by"], format!("features|model:{}", &sha[..16]));
    // By hand: the case decides between mich/dich and mir/dir; the plural forms serve
    // both cases; a pronoun is not replaced by itself.
    let by_hand: BTreeMap<(&str, &str), [&str; 4]> = [
        (
            ("sich", "Case=Acc|Person=3|PronType=Prs|Reflex=Yes"),
            ["dich", "euch", "mich", "uns"],
        ),
        (
            ("sich", "Case=Dat|Person=3|PronType=Prs|Reflex=Yes"),
            ["dir", "euch", "mir", "uns"],
        ),
        (
            (
                "uns",
                "Case=Acc|Number=Plur|Person=1|PronType=Prs|Reflex=Yes",
            ),
            ["dich", "euch", "mich", "sich"],
        ),
    ]
    .into();
    let tagger = ldd_parse::Parser::load(&model).unwrap();
    let others = |it: &serde_json::Value| -> Vec<serde_json::Value> {
        it["variants"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| v["type"] != "replaced")
            .cloned()
            .collect()
    };
    assert_eq!(items.len(), plain.len());
    let mut replaced = 0;
    for (it, p) in items.iter().zip(plain) {
        assert_eq!(it["line"], p["line"]);
        assert_eq!(it["locus"], p["locus"]);
        assert_eq!(others(it), others(p), "{}", it["item"]);
        let reference = it["reference"].as_str().unwrap();
        let r = toks(reference);
        let refs: Vec<&str> = r.iter().map(String::as_str).collect();
        let mut got: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for v in it["variants"].as_array().unwrap() {
            if v["type"] != "replaced" {
                continue;
            }
            replaced += 1;
            let text = toks(v["text"].as_str().unwrap());
            let at = (0..r.len()).find(|&i| text[i] != r[i]).unwrap();
            // The features recorded are the tagger's for that token.
            let tags = tagger.tags(&refs).unwrap();
            assert_eq!(v["features"], tags[at].feats.as_str(), "{}", it["item"]);
            assert_eq!(v["original"], r[at].as_str());
            let key = (r[at].to_lowercase(), tags[at].feats.clone());
            got.entry(key).or_default().push(text[at].to_lowercase());
        }
        for ((form, feats), subs) in got {
            let want = by_hand
                .get(&(form.as_str(), feats.as_str()))
                .unwrap_or_else(|| panic!("{}: {form} {feats} not worked out by hand", it["item"]));
            assert_eq!(subs, want, "{}", it["item"]);
        }
    }
    assert!(replaced >= 20, "{replaced}");
    items
}

/// `--target-model`'s refusals, each leaving nothing: the rules list no pronouns of the
/// target language, a file that is not a model, `auto` without the model.
fn check_feature_refusals(sets: &Path, tmp: &Path) {
    let model = shared().join("models/german-small.udpipe");
    // Refusals, each leaving nothing.
    let refused = |args: &[&str], models: &Path, code: i32, says: &str| {
        let bad = tmp.join("contrast-refused");
        let o = Ldd::cmd("contrast")
            .path("--sets", sets)
            .path("--out", &bad)
            .args(args)
            .env("LDD_SETS_MODELS", models)
            .run();
        assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
        assert!(!bad.exists());
    };
    let no_de = tmp.join("no-de.toml");
    std::fs::write(
        &no_de,
        "[variants]\nreflexive = [\"replaced\"]\n[pronouns.fr]\nse = \"Person=3\"\n",
    )
    .unwrap();
    let m = model.to_str().unwrap();
    refused(
        &["--target-model", m, "--variants", no_de.to_str().unwrap()],
        tmp,
        4,
        "no pronouns of `de` ([pronouns.de]",
    );
    let not_model = sets.join("manifest.json");
    refused(
        &["--target-model", not_model.to_str().unwrap()],
        tmp,
        6,
        "manifest.json",
    );
    let empty = tmp.join("no-models");
    std::fs::create_dir_all(&empty).unwrap();
    refused(
        &["--target-model", "auto"],
        &empty,
        6,
        "german-gsd-ud-2.5-191206.udpipe",
    );
}

/// `score --contrastive` on three synthetic systems — one that prefers the reference, one
/// the shorter and one the longer sentence — equals the Python oracle (statsmodels'
/// Wilson interval and exact McNemar test) on every set, corpus, metric and system; bad
/// score files are refused naming file and line.
fn check_contrastive(sets: &Path, contrast: &Path, items: &[serde_json::Value], tmp: &Path) {
    let tgt = lines(&contrast.join("contrast.de"));
    let firsts: std::collections::BTreeSet<usize> = items
        .iter()
        .map(|i| i["first_line"].as_u64().unwrap() as usize - 1)
        .collect();
    let write = |name: &str, f: &dyn Fn(usize, &str) -> f64| {
        let p = tmp.join(name);
        let text: String = tgt
            .iter()
            .enumerate()
            .map(|(k, l)| format!("{}\n", f(k, l)))
            .collect();
        std::fs::write(&p, text).unwrap();
        p
    };
    let files = [
        write("reference.scores", &|k, _| {
            if firsts.contains(&k) {
                -1.0
            } else {
                -2.5
            }
        }),
        write("shorter.scores", &|_, l| -(l.chars().count() as f64)),
        write("longer.scores", &|_, l| l.chars().count() as f64 / 10.0),
    ];
    let scored = tmp.join("contrastive");
    let mut cmd = Ldd::cmd("score")
        .path("--sets", sets)
        .path("--contrast", contrast);
    for f in &files {
        cmd = cmd.path("--contrastive", f);
    }
    cmd.args(&["-q"]).path("--out", &scored).ok();
    let s: serde_json::Value = serde_json::from_str(&read(&scored.join("scores.json"))).unwrap();
    let rows = s["rows"].as_array().unwrap();
    // The reference-lover passes every item.
    for r in rows.iter().filter(|r| r["system"] == "reference") {
        if r["loci"].as_u64() > Some(0) {
            assert_eq!(r["score"].as_f64(), Some(100.0), "{r}");
        }
    }
    let m: serde_json::Value = serde_json::from_str(&read(&sets.join("manifest.json"))).unwrap();
    let set_list: Vec<[String; 2]> = m["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            [
                x["phenomenon"].as_str().unwrap().into(),
                x["bucket"].as_str().unwrap().into(),
            ]
        })
        .collect();
    let request = serde_json::json!({
        "items": contrast.join("items.jsonl"),
        "sets": set_list,
        "scores": files,
        "systems": ["reference", "shorter", "longer"],
        "confidence": 0.95,
    });
    let Some(want) = python_oracle("statsmodels", "contrastive.py", &request) else {
        return;
    };
    let want = want.as_array().unwrap();
    let key = |r: &serde_json::Value| {
        format!(
            "{} {} {} {}/{}",
            r["system"].as_str().unwrap(),
            r["metric"].as_str().unwrap(),
            r["scope"].as_str().unwrap(),
            r["phenomenon"].as_str().unwrap(),
            r["bucket"].as_str().unwrap()
        )
    };
    let got: BTreeMap<String, &serde_json::Value> = rows.iter().map(|r| (key(r), r)).collect();
    assert_eq!(got.len(), want.len());
    let close = |a: &serde_json::Value, b: &serde_json::Value| match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * y.abs().max(1.0),
        (None, None) => true,
        _ => false,
    };
    let mut mixed = 0;
    for w in want {
        let g = got[&key(w)];
        assert_eq!(g["loci"], w["n"], "{}", key(w));
        for (a, b) in [
            ("score", "score"),
            ("ci_low", "ci_low"),
            ("ci_high", "ci_high"),
            ("p_value", "p"),
        ] {
            assert!(close(&g[a], &w[b]), "{} {a}: {} vs {}", key(w), g[a], w[b]);
        }
        if w["score"].as_f64().is_some_and(|x| x > 0.0 && x < 100.0) {
            mixed += 1;
        }
    }
    // The longer-lover passes some items and fails others: the comparison is not trivial.
    assert!(mixed > 4, "{mixed}");
    // The report shows every contrastive metric beside the others.
    let page = tmp.join("report.html");
    Ldd::cmd("report")
        .path("--sets", sets)
        .path("--scores", &scored.join("scores.json"))
        .path("--out", &page)
        .ok();
    let html = read(&page);
    assert!(!html.contains("does not name its output file"));
    for m in s["metrics"].as_array().unwrap() {
        let key = m["key"].as_str().unwrap();
        assert!(key.starts_with("contrastive"));
        assert!(html.contains(&format!("{key}: ")), "{key}");
    }
    // A score file of another length, or with a word in it, is refused.
    let short = tmp.join("short.scores");
    std::fs::write(&short, "1\n2\n").unwrap();
    let bad = tmp.join("bad.scores");
    std::fs::write(&bad, "1\nlots\n").unwrap();
    for (f, code, want) in [
        (
            &short,
            3,
            format!("has 2 lines but {}", contrast.join("contrast.de").display()),
        ),
        (&bad, 3, "bad.scores:2: not a number: `lots`".to_string()),
    ] {
        let o = Ldd::cmd("score")
            .path("--sets", sets)
            .path("--contrast", contrast)
            .path("--contrastive", f)
            .path("--out", &tmp.join("refused"))
            .run();
        assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
        assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    }
    assert!(!tmp.join("refused").exists());
}

/// A few items checked by hand.
fn check_by_hand(items: &[serde_json::Value]) {
    let find = |ph: &str, line: u64| -> &serde_json::Value {
        items
            .iter()
            .find(|i| i["phenomenon"] == ph && i["line"] == line)
            .unwrap_or_else(|| panic!("{ph} {line}"))
    };
    let texts = |it: &serde_json::Value| -> Vec<(String, String)> {
        it["variants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["type"].as_str().unwrap().to_string(),
                    v["text"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let pair = |k: &str, t: &str| (k.to_string(), t.to_string());
    // A reflexive: "who identified themselves as district authorities" / "die sich als
    // Bezirksbeamte auswiesen": `sich` dropped, and in the first person singular and plural.
    let r = find("reflexive", 75);
    assert_eq!(r["locus"]["dep_word"], "themselves");
    let t = texts(r);
    assert_eq!(t.len(), 3);
    for (k, (kind, with)) in [
        ("dropped", "die als Bezirksbeamte"),
        ("replaced", "die mich als Bezirksbeamte"),
        ("replaced", "die uns als Bezirksbeamte"),
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(t[k].0, *kind);
        assert!(t[k].1.contains(with), "{}", t[k].1);
    }
    // A particle verb: "my phone didn't stop lighting up" / "hörte mein Telefon nicht mehr
    // auf zu blinken": `auf` (linked to `up`) dropped, and moved after `blinken`.
    assert_eq!(
        texts(find("particle", 338)),
        [
            pair(
                "dropped",
                "Ich hatte nicht viele Episoden gesehen, und dann hörte mein Telefon nicht mehr zu blinken."
            ),
            pair(
                "moved",
                "Ich hatte nicht viele Episoden gesehen, und dann hörte mein Telefon nicht mehr zu blinken auf."
            ),
        ]
    );
    // A token glued to its neighbour goes alone: the aligner linked `out` of "pointed
    // out" to the comma of "darauf hin, dass" (an alignment error the variant inherits).
    assert!(texts(find("particle", 114))[0]
        .1
        .starts_with("Er wies außerdem darauf hin dass Rogers"));
    // A reorder line: the two words of the crossing links change places.
    assert_eq!(
        texts(find("reorder", 305)),
        [pair(
            "swapped",
            "Cotton wurde am 31. Oktober 1832 geboren einem Dorf in der Nähe von Sunderland in."
        )]
    );
}

#[test]
fn refusals_leave_nothing() {
    let t = tempfile::tempdir().unwrap();
    let sets = t.path().join("sets");
    pud_aligned("en", &sets, &["--no-reorder"]);
    let out = t.path().join("contrast");
    let o = Ldd::cmd("contrast")
        .path("--sets", &sets)
        .path("--out", &out)
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("--no-reorder"), "{}", stderr(&o));
    assert!(!out.exists());
    let bad = t.path().join("bad.toml");
    std::fs::write(&bad, "[variants]\nreflexive = [\"inverted\"]\n").unwrap();
    let o = Ldd::cmd("contrast")
        .path("--sets", &sets)
        .path("--out", &out)
        .path("--variants", &bad)
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad.toml: [variants] reflexive: unknown variant type `inverted`"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

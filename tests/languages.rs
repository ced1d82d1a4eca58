//! Every UDPipe language: the built-in model registry, `ldd-sets languages`, pairs without
//! a config (model, URL, phenomena), configs from any directory, verified model downloads
//! against a loopback server, and names that could leave their directory.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;
use ldd_sets::config::registry::Registry;
use sha2::{Digest, Sha256};

const LINDAT: &str = "https://lindat.mff.cuni.cz/repository/xmlui/bitstream/handle/11234/1-3131";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `ldd-sets` in `cwd`.
fn run_in(cwd: &Path, args: &[&str]) -> Output {
    Ldd::default()
        .args(args)
        .current_dir(cwd)
        .env_remove("LDD_SETS_MODELS_URL")
        .run()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The registry: the 94 models of 61 languages of the UDPipe 1 manual ("Universal
/// Dependencies 2.5 Models"), file names `<language>-<treebank>-ud-2.5-191206.udpipe`,
/// one default per language, and the defaults of the R package checked by hand.
#[test]
fn registry_has_every_udpipe_2_5_model() {
    let reg = Registry::builtin().unwrap();
    assert_eq!(reg.languages.len(), 61);
    let files: Vec<&str> = reg
        .languages
        .iter()
        .flat_map(|l| l.models.iter().map(|m| m.file.as_str()))
        .collect();
    assert_eq!(files.len(), 94);
    for f in &files {
        let stem = f.strip_suffix("-ud-2.5-191206.udpipe").expect(f);
        let (lang, bank) = stem.split_once('-').expect(f);
        assert!(
            lang.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') && !bank.is_empty(),
            "{f}"
        );
    }
    // A sample of the UDPipe 1 manual's treebank list, across scripts and families.
    for f in [
        "ancient_greek-proiel",
        "classical_chinese-kyoto",
        "czech-cltt",
        "german-hdt",
        "norwegian-nynorsklia",
        "old_church_slavonic-proiel",
        "scottish_gaelic-arcosg",
        "wolof-wtb",
    ] {
        let f = format!("{f}-ud-2.5-191206.udpipe");
        assert!(files.contains(&f.as_str()), "{f}");
    }
    // Not UD 2.5 models (udpipe-rs 0.2 lists some of these): no such file on LINDAT.
    for f in ["kazakh-ktb", "polish-sz", "sanskrit-ufal", "buryat-bdt"] {
        assert!(
            reg.model(&format!("{f}-ud-2.5-191206.udpipe")).is_none(),
            "{f}"
        );
    }
    // udpipe_download_model("<language>") defaults (bnosac/udpipe R/udpipe_models.R),
    // polish-sz renamed polish-pdb in UD 2.4.
    for (code, default) in [
        ("fr", "french-gsd"),
        ("de", "german-gsd"),
        ("en", "english-ewt"),
        ("ru", "russian-gsd"),
        ("pl", "polish-pdb"),
        ("cs", "czech-pdt"),
        ("nl", "dutch-alpino"),
        ("la", "latin-perseus"),
        ("grc", "ancient_greek-perseus"),
        ("sv", "swedish-talbanken"),
        ("nb", "norwegian-bokmaal"),
        ("nn", "norwegian-nynorsk"),
        ("zh", "chinese-gsd"),
    ] {
        let l = reg.language(code).unwrap_or_else(|| panic!("{code}"));
        assert_eq!(
            l.default_model().file,
            format!("{default}-ud-2.5-191206.udpipe"),
            "{code}"
        );
    }
    // ISO 639-3 codes find the same language; ISO 639-1 where one exists.
    assert_eq!(reg.language("fra").unwrap().code, "fr");
    assert_eq!(reg.language("deu").unwrap().code, "de");
    assert_eq!(reg.language("sme").unwrap().code, "se");
    assert_eq!(reg.language("grc").unwrap().name, "Ancient Greek");
    assert!(reg.language("xx").is_none());
    // Checksums known for the models hashed from the published files: 11.
    let known: Vec<_> = reg
        .languages
        .iter()
        .flat_map(|l| &l.models)
        .filter(|m| m.sha256.is_some())
        .collect();
    assert_eq!(known.len(), 11);
    assert!(known.iter().all(|m| m.size.is_some()));
    // A pair without a config: files SRC-TGT, the default model, OPUS Books (OPUS names
    // its pairs in alphabetical order).
    let (fr, origin) = ldd_sets::config::Pair::resolve(&"fr-en".parse().unwrap(), None).unwrap();
    assert_eq!(origin, ldd_sets::config::PairOrigin::Registry);
    assert_eq!(
        (fr.source.as_str(), fr.target.as_str(), fr.files.as_str()),
        ("fr", "en", "fr-en")
    );
    assert_eq!(fr.model.unwrap().name, "french-gsd-ud-2.5-191206.udpipe");
    assert_eq!(
        fr.corpus[0].url,
        "https://object.pouta.csc.fi/OPUS-Books/v1/moses/en-fr.txt.zip"
    );
    assert_eq!(fr.corpus[0].members["fr"], "Books.en-fr.fr");
    assert_eq!(fr.corpus[0].members["en"], "Books.en-fr.en");
    // The shipped pair configs name the registry's default models.
    for (pair, src) in [("de-en", "de"), ("en-de", "en"), ("en-ru", "en")] {
        let (p, _) = ldd_sets::config::Pair::resolve(&pair.parse().unwrap(), None).unwrap();
        assert_eq!(
            p.model.unwrap().name,
            reg.language(src).unwrap().default_model().file
        );
    }
}

/// Default phenomena follow the treebanks' annotation and the languages' grammar; the
/// paper's settings are kept (German: reflexive, particle; English: all three).
/// The phenomena a registry entry may name are the built-in rules' names, read from them
/// (no copy to keep in step), in rule order.
#[test]
fn registry_phenomena_are_the_builtin_rules() {
    let rules = ldd_sets::pipeline::detect::rules::RuleSet::builtin().unwrap();
    let names: Vec<String> = rules.phenomena.iter().map(|p| p.name.clone()).collect();
    assert_eq!(ldd_sets::config::registry::builtin_phenomena(), names);
    assert_eq!(names, ["reflexive", "particle", "preposition_stranding"]);
}

#[test]
fn default_phenomena_per_language() {
    let reg = Registry::builtin().unwrap();
    let ph = |c: &str| reg.language(c).unwrap().default_model().phenomena.join(",");
    assert_eq!(ph("de"), "reflexive,particle");
    assert_eq!(ph("en"), "reflexive,particle,preposition_stranding");
    assert_eq!(ph("nl"), "reflexive,particle,preposition_stranding");
    assert_eq!(ph("nb"), "reflexive,particle,preposition_stranding");
    assert_eq!(ph("sv"), "particle,preposition_stranding"); // Talbanken has no Reflex=Yes
    assert_eq!(ph("hu"), "reflexive,particle"); // preverbs: compound:preverb
    assert_eq!(ph("et"), "reflexive,particle");
    assert_eq!(ph("cs"), "reflexive");
    assert_eq!(ph("ru"), "reflexive");
    assert_eq!(ph("fr"), ""); // french-gsd: Reflex=Yes only on intensifiers
    assert_eq!(ph("lv"), ""); // Reflex=Yes on verb forms
    assert_eq!(ph("ja"), "");
    // ... but the French model that marks `se` gets reflexive.
    let (_, sequoia) = reg.model("french-sequoia-ud-2.5-191206.udpipe").unwrap();
    assert_eq!(sequoia.phenomena, ["reflexive"]);
    // Only languages where stranding is grammatical get it.
    for l in &reg.languages {
        for m in &l.models {
            if m.phenomena.iter().any(|p| p == "preposition_stranding") {
                assert!(
                    ["en", "nl", "nb", "nn", "sv", "da"].contains(&l.code.as_str()),
                    "{}",
                    m.file
                );
            }
            assert!(!m.evidence.is_empty(), "{}", m.file);
        }
    }
}

/// `ldd-sets languages` lists every language and every model, from any directory.
#[test]
fn languages_command_lists_every_entry() {
    let reg = Registry::builtin().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let o = run_in(tmp.path(), &["languages"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    for l in &reg.languages {
        let row = out
            .lines()
            .find(|r| r.split_whitespace().next() == Some(l.code.as_str()))
            .unwrap_or_else(|| panic!("no row for {}: {out}", l.code));
        assert!(row.contains(&l.iso639_3) && row.contains(&l.name), "{row}");
        assert!(
            row.contains(&format!("* {}", l.default_model().file)),
            "{row}"
        );
        for m in &l.models {
            assert_eq!(out.matches(&m.file).count(), 1, "{}", m.file);
        }
    }
    let de = out.lines().find(|r| r.starts_with("de ")).unwrap();
    assert!(de.contains("reflexive, particle"), "{de}");
    let fr = out.lines().find(|r| r.starts_with("fr ")).unwrap();
    assert!(fr.contains("(none: reordering sets only)"), "{fr}");

    // One language in full: URLs, checksums, evidence.
    let o = run_in(tmp.path(), &["languages", "tel"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains(&format!("{LINDAT}/telugu-mtg-ud-2.5-191206.udpipe")),
        "{out}"
    );
    assert!(
        out.contains(
            "3cfdd2aab9a1c7b69f796b57f9fc7c7694d83b14211474c258cf905d1ba6a17c (2168122 bytes)"
        ),
        "{out}"
    );
    let o = run_in(tmp.path(), &["languages", "xx"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
}

/// A corpus directory with one tiny corpus of pair `src`-`tgt`.
fn tiny_corpus(dir: &Path, src: &str, tgt: &str) -> PathBuf {
    let d = dir.join("corpora");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(format!("t.{src}-{tgt}.{src}")), "a b c\n").unwrap();
    std::fs::write(d.join(format!("t.{src}-{tgt}.{tgt}")), "x y z\n").unwrap();
    d
}

/// `run --pair SRC-en --offline` without a config names the registry's model file and its
/// URL, from a directory without `config/`, for languages across scripts.
#[test]
fn run_without_config_names_model_and_url() {
    for (src, model, none) in [
        ("fr", "french-gsd", true),
        ("de", "german-gsd", false), // shipped config
        ("ru", "russian-gsd", false),
        ("ar", "arabic-padt", true),
        ("zh", "chinese-gsd", true),
        ("ja", "japanese-gsd", true),
        ("hi", "hindi-hdtb", true),
        ("fi", "finnish-tdt", false),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let corpora = tiny_corpus(tmp.path(), src, "en");
        let models = tmp.path().join("models");
        let out = tmp.path().join("out");
        let o = run_in(
            tmp.path(),
            &[
                "run",
                "--pair",
                &format!("{src}-en"),
                "--corpora",
                s(&corpora),
                "--models",
                s(&models),
                "--offline",
                "--out",
                s(&out),
            ],
        );
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(6), "{src}: {e}");
        let file = format!("{model}-ud-2.5-191206.udpipe");
        assert!(
            e.contains(&format!("UDPipe model {file} not found")),
            "{src}: {e}"
        );
        assert!(
            e.contains(&format!("Get it from {LINDAT}/{file}")),
            "{src}: {e}"
        );
        assert!(
            e.contains(&format!("{}", models.join(&file).display())),
            "{e}"
        );
        assert_eq!(
            e.contains("annotates none of the built-in phenomena"),
            none,
            "{src}: {e}"
        );
        assert!(!out.exists() && listing(&models).is_empty(), "{src}");
    }
    // A source language without a registry model: --model is needed.
    let tmp = tempfile::tempdir().unwrap();
    let corpora = tiny_corpus(tmp.path(), "xx", "en");
    let o = run_in(
        tmp.path(),
        &[
            "run",
            "--pair",
            "xx-en",
            "--corpora",
            s(&corpora),
            "--out",
            "o",
            "--offline",
        ],
    );
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no model in the UDPipe 2.5 registry"),
        "{}",
        stderr(&o)
    );
}

/// Shipped configs work from any directory; `--config DIR` overrides them, and an
/// invalid pair name or a config naming a file outside the models directory is refused.
#[test]
fn configs_from_any_directory_and_overrides() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    // Shipped de-en from a directory without config/: the pair is known, the corpora not.
    let o = run_in(
        tmp.path(),
        &[
            "run",
            "--pair",
            "de-en",
            "--corpora",
            s(&empty),
            "--out",
            "o",
        ],
    );
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no corpora for de-en"),
        "{}",
        stderr(&o)
    );

    // --config DIR overrides the shipped config.
    let conf = tmp.path().join("conf");
    std::fs::create_dir_all(conf.join("pairs")).unwrap();
    std::fs::write(
        conf.join("pairs/de-en.toml"),
        "source = \"de\"\ntarget = \"en\"\nfiles = \"de-en\"\n[model]\nname = \"german-hdt-ud-2.5-191206.udpipe\"\n",
    )
    .unwrap();
    let corpora = tiny_corpus(tmp.path(), "de", "en");
    let o = run_in(
        tmp.path(),
        &[
            "run",
            "--pair",
            "de-en",
            "--config",
            s(&conf),
            "--corpora",
            s(&corpora),
            "--models",
            s(&empty),
            "--offline",
            "--out",
            "o",
        ],
    );
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("{LINDAT}/german-hdt-ud-2.5-191206.udpipe")),
        "{}",
        stderr(&o)
    );
    // ... and so does config/ in the current directory.
    std::fs::rename(&conf, tmp.path().join("config")).unwrap();
    let o = run_in(
        tmp.path(),
        &[
            "run",
            "--pair",
            "de-en",
            "--corpora",
            s(&corpora),
            "--models",
            s(&empty),
            "--offline",
            "--out",
            "o",
        ],
    );
    assert!(
        stderr(&o).contains("german-hdt-ud-2.5-191206.udpipe"),
        "{}",
        stderr(&o)
    );
    // A missing --config directory is an error, not silently ignored.
    let o = run_in(
        tmp.path(),
        &[
            "run",
            "--pair",
            "de-en",
            "--config",
            "nope",
            "--corpora",
            s(&corpora),
            "--out",
            "o",
        ],
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));

    // Names that become paths.
    for bad in ["../de-en", "de-en/x", "de", "de-en-fr", "d.e-en"] {
        let o = run_in(
            tmp.path(),
            &["run", "--pair", bad, "--corpora", s(&corpora), "--out", "o"],
        );
        assert_eq!(o.status.code(), Some(4), "{bad}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is not a valid language pair"),
            "{bad}: {}",
            stderr(&o)
        );
    }
    let evil = tmp.path().join("evil.toml");
    std::fs::write(
        &evil,
        "source = \"de\"\ntarget = \"en\"\nfiles = \"de-en\"\n[model]\nname = \"../../x.udpipe\"\n",
    )
    .unwrap();
    let o = run_in(
        tmp.path(),
        &[
            "run",
            "--pair",
            s(&evil),
            "--corpora",
            s(&corpora),
            "--out",
            "o",
        ],
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("[model] name: `../../x.udpipe` is not a valid name")
            && stderr(&o).contains("no `..`"),
        "{}",
        stderr(&o)
    );
    let o = run_in(
        tmp.path(),
        &[
            "extract",
            "--src",
            "a",
            "--tgt",
            "b",
            "--src-lang",
            "../de",
            "--tgt-lang",
            "en",
            "--out",
            "o",
        ],
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
}

/// A language whose default model annotates no phenomenon says so and builds only
/// reordering sets; a pair config naming a model that does annotate one runs it.
#[test]
fn language_without_phenomena_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let src = data("parallel/pud.de-en.de");
    let tgt = data("parallel/pud.de-en.en");
    let conllu = data("ud/de_pud-ud-test.conllu");
    let out = tmp.path().join("out");
    let base = [
        "extract",
        "--src",
        s(&src),
        "--tgt",
        s(&tgt),
        "--tgt-lang",
        "en",
        "--conllu",
        s(&conllu),
        "--controls",
        "0",
        "--src-lang",
        "fr",
    ];
    let mut args = base.to_vec();
    args.extend(["--out", s(&out)]);
    let o = run_in(tmp.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "French (fr): the UDPipe model french-gsd-ud-2.5-191206.udpipe annotates none"
        ),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("Only reordering sets are built"),
        "{}",
        stderr(&o)
    );
    assert_eq!(listing(&out), ["manifest.json", "reorder", "summary.csv"]);

    // With --no-reorder there is nothing to do: an error, no output.
    let out2 = tmp.path().join("out2");
    let mut args = base.to_vec();
    args.extend(["--out", s(&out2), "--no-reorder"]);
    let o = run_in(tmp.path(), &args);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(!out2.exists());

    // A pair config naming french-sequoia (which marks `se` Reflex=Yes): reflexive runs.
    let pair = tmp.path().join("fr-en.toml");
    std::fs::write(
        &pair,
        "source = \"fr\"\ntarget = \"en\"\nfiles = \"fr-en\"\n[model]\nname = \"french-sequoia-ud-2.5-191206.udpipe\"\n",
    )
    .unwrap();
    let out3 = tmp.path().join("out3");
    let mut args = base.to_vec();
    args.extend(["--out", s(&out3), "--pair", s(&pair), "--no-reorder"]);
    let o = run_in(tmp.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        listing(&out3),
        ["manifest.json", "reflexive", "summary.csv"]
    );
    // The same sets as German's reflexive sets from the same trees by the paper's rules:
    // a language without patterns of its own runs each rule's general condition, which is
    // the paper's (German's patterns add a repair and head conditions, docs/rules.md).
    let de = tmp.path().join("de");
    let o = run_in(
        tmp.path(),
        &[
            "extract",
            "--src",
            s(&src),
            "--tgt",
            s(&tgt),
            "--src-lang",
            "de",
            "--tgt-lang",
            "en",
            "--conllu",
            s(&conllu),
            "--controls",
            "0",
            "--no-reorder",
            "--rules",
            common::PAPER_RULES,
            "--out",
            s(&de),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        lines(&out3.join("reflexive/ge1.ids")),
        lines(&de.join("reflexive/ge1.ids"))
    );
    assert_eq!(
        lines(&de.join("reflexive/ge1.ids")).len(),
        68,
        "the paper's rules: reflexive ge1 = 68"
    );
}

/// Runs `parse --pair PAIR` on three lines of PUD with models downloaded from `base`.
fn parse_with_download(tmp: &Path, pair: &str, base: &str, models: &Path) -> Output {
    let src = tmp.join("three.txt");
    let text: Vec<String> = lines(&data("parallel/pud.de-en.de"))
        .into_iter()
        .take(3)
        .collect();
    std::fs::write(&src, text.join("\n") + "\n").unwrap();
    run_in(
        tmp,
        &[
            "parse",
            "--src",
            s(&src),
            "--out",
            s(&tmp.join("three.conllu")),
            // Parsed again into the same file: a CoNLL-U cannot say who wrote it.
            "--replace",
            "--pair",
            pair,
            "--models",
            s(models),
            "--models-url",
            base,
            "--cache",
            s(&tmp.join("cache")),
            "--threads",
            "1",
        ],
    )
}

/// Model downloads through the registry against a loopback server: a real UDPipe model is
/// kept (and used); an HTML page, a truncated model, a wrong size or SHA-256 are rejected
/// and leave nothing in the models directory; a local file with the wrong SHA-256 is not
/// used.
#[test]
fn model_downloads_are_verified() {
    let model = std::fs::read(shared().join("models/german-small.udpipe")).unwrap();
    let page =
        b"<!DOCTYPE html>\n<html><head><title>Item not found</title></head><body></body></html>\n"
            .to_vec();
    let gsd = "/german-gsd-ud-2.5-191206.udpipe";
    let serve_one = |ctype: Option<&'static str>, body: Vec<u8>, path: &str| {
        serve_typed(HashMap::from([(path.to_string(), (ctype, body))]), 4)
    };
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();

    // A UDPipe model (the small German one standing in for german-gsd): downloaded,
    // checked, kept under the registry's file name, used for parsing.
    let models = t.join("ok");
    let o = parse_with_download(t, "de-fr", &serve_one(None, model.clone(), gsd), &models);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("loads as a UDPipe model"),
        "{}",
        stderr(&o)
    );
    assert_eq!(listing(&models), ["german-gsd-ud-2.5-191206.udpipe"]);
    assert_eq!(std::fs::read(models.join(&gsd[1..])).unwrap(), model);
    let parsed = std::fs::read_to_string(t.join("three.conllu")).unwrap();
    assert_eq!(parsed.matches("# sent_id = ").count(), 3);

    // Rejected downloads: the reason is named, nothing is left.
    let truncated = model[..model.len() / 2].to_vec();
    /// name, pair, Content-Type, body, the reason the error must give
    type Case<'a> = (&'a str, &'a str, Option<&'static str>, Vec<u8>, &'a str);
    let cases: Vec<Case> = vec![
        ("html", "de-fr", None, page.clone(), "HTML page"),
        (
            "typed",
            "de-fr",
            Some("text/html;charset=UTF-8"),
            model.clone(),
            "Content-Type text/html",
        ),
        ("truncated", "de-fr", None, truncated, "not a UDPipe model"),
        // telugu-mtg: size and SHA-256 known; a different model is refused.
        (
            "size",
            "te-en",
            None,
            model.clone(),
            "8580582 bytes received, but the file has 2168122 bytes",
        ),
    ];
    for (name, pair, ctype, body, why) in cases {
        let path = if pair == "te-en" {
            "/telugu-mtg-ud-2.5-191206.udpipe"
        } else {
            gsd
        };
        let models = t.join(name);
        let base = serve_one(ctype, body, path);
        let o = parse_with_download(t, pair, &base, &models);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(6), "{name}: {e}");
        assert!(e.contains(why), "{name}: {e}");
        assert!(
            e.contains(&format!("{base}{path}")),
            "{name}: names the URL: {e}"
        );
        assert_eq!(
            listing(&models),
            Vec::<String>::new(),
            "{name}: nothing kept"
        );
    }

    // SHA-256 from a pair config: a wrong one is refused, the right one accepted.
    let right = sha256_hex(&model);
    for (sha, ok) in [("ab".repeat(32), false), (right.clone(), true)] {
        let pair = t.join("pair.toml");
        std::fs::write(
            &pair,
            format!(
                "source = \"de\"\ntarget = \"fr\"\nfiles = \"de-fr\"\n[model]\nname = \"{}\"\nsha256 = \"{sha}\"\n",
                &gsd[1..]
            ),
        )
        .unwrap();
        let models = t.join(format!("sha-{ok}"));
        let o = parse_with_download(t, s(&pair), &serve_one(None, model.clone(), gsd), &models);
        let e = stderr(&o);
        if ok {
            assert!(o.status.success(), "{e}");
            assert!(e.contains("SHA-256 verified"), "{e}");
        } else {
            assert_eq!(o.status.code(), Some(6), "{e}");
            assert!(
                e.contains(&format!("SHA-256 mismatch: expected {sha}, got {right}")),
                "{e}"
            );
            assert_eq!(listing(&models), Vec::<String>::new());
        }
    }

    // A file already in the models directory whose SHA-256 differs from the registry's
    // is not used (nor replaced).
    let models = t.join("local");
    std::fs::create_dir(&models).unwrap();
    std::fs::write(models.join("telugu-mtg-ud-2.5-191206.udpipe"), &model).unwrap();
    let o = parse_with_download(t, "te-en", "http://127.0.0.1:9", &models);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(6), "{e}");
    assert!(
        e.contains(&format!("has SHA-256 {right}, but the published")),
        "{e}"
    );
    assert!(
        e.contains("3cfdd2aab9a1c7b69f796b57f9fc7c7694d83b14211474c258cf905d1ba6a17c"),
        "{e}"
    );
}

/// The table of languages in docs/usage.md is the registry's (code, name, default
/// phenomena, model).
#[test]
fn documented_table_matches_the_registry() {
    let reg = Registry::builtin().unwrap();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/usage.md"))
            .unwrap();
    let rows: BTreeMap<String, String> = readme
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|l| {
            let code = l.split('`').nth(1)?.to_string();
            Some((code, l.to_string()))
        })
        .collect();
    for l in &reg.languages {
        let row = rows
            .get(&l.code)
            .unwrap_or_else(|| panic!("docs/usage.md has no row for {}", l.code));
        let d = l.default_model();
        let ph = if d.phenomena.is_empty() {
            "—".to_string()
        } else {
            d.phenomena.join(", ")
        };
        let want = format!(
            "| `{}` | {} | {} | {} | `{}` |",
            l.code,
            l.iso639_3,
            l.name,
            ph,
            d.file.trim_end_matches("-ud-2.5-191206.udpipe")
        );
        assert!(
            row.starts_with(&want),
            "docs/usage.md row for {}:\n{row}\nwant:\n{want}",
            l.code
        );
    }
}

//! Class: invalid input accepted silently. Aligner models of another pair, direction or
//! aligner, or unsound ones; rules and alignments that are not UTF-8; a contrast corpus
//! edited since the sets; archive members that are links: each refused, naming what is
//! wrong.

use super::*;

#[test]
fn aligner_models_must_fit_the_languages_direction_and_be_sound() {
    let tmp = tempfile::tempdir().unwrap();
    let prefix = tmp.path().join("m");
    let out = tmp.path().join("o1");
    let o = run_args(&pud_args(
        &out,
        &[
            "--controls",
            "0",
            "--align-model-type",
            "fast-align",
            "--save-align-model",
            s(&prefix),
            "--quiet",
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    // Another language pair: PUD en→de with the de-en model.
    let en_args = |out: &Path, model_type: &str, prefix: &Path| -> Vec<String> {
        vec![
            "extract".into(),
            "--src".into(),
            s(&data("parallel/pud.de-en.en")).into(),
            "--tgt".into(),
            s(&data("parallel/pud.de-en.de")).into(),
            "--src-lang".into(),
            "en".into(),
            "--tgt-lang".into(),
            "de".into(),
            "--conllu".into(),
            s(&data("ud/en_pud-ud-test.conllu")).into(),
            "--controls".into(),
            "0".into(),
            "--align-model-type".into(),
            model_type.into(),
            "--align-model".into(),
            s(prefix).into(),
            "--out".into(),
            s(out).into(),
        ]
    };
    // The same with the HMM's one file.
    let hmm = tmp.path().join("h");
    let o = run_args(&pud_args(
        &tmp.path().join("h1"),
        &[
            "--controls",
            "0",
            "--align-model-type",
            "hmm",
            "--save-align-model",
            s(&hmm),
            "--quiet",
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(tmp.path().join("h.hmm.ldda").is_file());
    for (model_type, p, o) in [("fast-align", &prefix, "o2"), ("hmm", &hmm, "h2")] {
        let o = run_args(&en_args(&tmp.path().join(o), model_type, p));
        assert_eq!(code(&o), 3, "{model_type}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("an aligner model for de-en, but this corpus is en-de"),
            "{}",
            stderr(&o)
        );
    }
    // The two directions swapped.
    let (fwd, rev) = (tmp.path().join("m.fwd.ldda"), tmp.path().join("m.rev.ldda"));
    let swap = tmp.path().join("swap");
    std::fs::rename(&fwd, &swap).unwrap();
    std::fs::rename(&rev, &fwd).unwrap();
    std::fs::rename(&swap, &rev).unwrap();
    let o = run_args(&pud_args(
        &tmp.path().join("o3"),
        &[
            "--controls",
            "0",
            "--align-model-type",
            "fast-align",
            "--align-model",
            s(&prefix),
        ],
    ));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("model is needed here"),
        "{}",
        stderr(&o)
    );
    // A NaN tension with a valid checksum.
    let mut bytes = std::fs::read(&fwd).unwrap();
    bytes[44..52].copy_from_slice(&f64::NAN.to_le_bytes());
    let n = bytes.len();
    let mut crc = flate2::Crc::new();
    crc.update(&bytes[..n - 4]);
    bytes[n - 4..].copy_from_slice(&crc.sum().to_le_bytes());
    std::fs::write(&fwd, &bytes).unwrap();
    std::fs::copy(&fwd, &rev).unwrap();
    let o = run_args(&pud_args(
        &tmp.path().join("o4"),
        &[
            "--controls",
            "0",
            "--align-model-type",
            "fast-align",
            "--align-model",
            s(&prefix),
            "--align-direction",
            "reverse",
        ],
    ));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad diagonal tension NaN"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn non_utf8_rules_and_alignments_name_their_line() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("r.toml");
    let mut f = std::fs::File::create(&rules).unwrap();
    f.write_all(b"[[phenomenon]]\nname = \"x\"\n[phenomenon.dependent]\nlemma = [\"\xff\"]\n")
        .unwrap();
    let o = run_args(&pud_args(&tmp.path().join("o"), &["--rules", s(&rules)]));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("r.toml:4: invalid UTF-8"),
        "{}",
        stderr(&o)
    );
    let al = tmp.path().join("a.align");
    let mut text = "0-0\n".repeat(5).into_bytes();
    text.extend_from_slice(b"0-\xff\n");
    std::fs::write(&al, &text).unwrap();
    let o = run_args(&pud_args(&tmp.path().join("o"), &["--alignments", s(&al)]));
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a.align:6: invalid UTF-8"),
        "{}",
        stderr(&o)
    );
}

/// `contrast` reads the corpus only as the sets were made from it (an edited reference of
/// the same line count is refused, naming it), and a variants file with 200,000
/// replacements is refused at once instead of writing millions of variants.
#[test]
fn contrast_checks_its_corpus_and_bounds_its_variants() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let reference = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let tgt = t.join("ref.en");
    std::fs::write(&tgt, &reference).unwrap();
    let sets = judged_sets(t, Some(&tgt), &[]);
    write_lines(&tgt, &reference, |i, l| {
        if i == 182 {
            l.replacen("rather", "sooner", 1)
        } else {
            l.to_string()
        }
    });
    let o = bin()
        .args([
            "contrast",
            "-q",
            "--sets",
            s(&sets),
            "--out",
            s(&t.join("c")),
        ])
        .output()
        .unwrap();
    refused(&o, 3, "ref.en: changed since the sets of");
    assert!(!t.join("c").exists());
    std::fs::write(&tgt, &reference).unwrap();
    let many: Vec<String> = (0..200_000).map(|i| format!("\"w{i}\"")).collect();
    let variants = t.join("variants.toml");
    std::fs::write(
        &variants,
        format!(
            "[variants]\ndefault = [\"replaced\"]\n[replace.en]\nhimself = [{}]\n",
            many.join(", ")
        ),
    )
    .unwrap();
    let started = Instant::now();
    let o = bin()
        .args([
            "contrast",
            "-q",
            "--sets",
            s(&sets),
            "--out",
            s(&t.join("c")),
        ])
        .args(["--variants", s(&variants)])
        .output()
        .unwrap();
    refused(&o, 4, "200000 entries, more than 100");
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(!t.join("c").exists());
}

/// A member of a corpus archive that is a link (tar.gz: symbolic and hard links; zip: a
/// symbolic link) is refused, naming it, instead of giving an empty corpus.
#[test]
fn archive_members_that_are_links_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let de = std::fs::read(data("parallel/pud.de-en.de")).unwrap();
    let gz = |bytes: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    };
    let mut files = std::collections::HashMap::new();
    for kind in [tar::EntryType::Symlink, tar::EntryType::Link] {
        let mut tarball = tar::Builder::new(Vec::new());
        let mut h = tar::Header::new_gnu();
        h.set_size(de.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tarball
            .append_data(&mut h, "real.de", de.as_slice())
            .unwrap();
        for lang in ["de", "en"] {
            let mut h = tar::Header::new_gnu();
            h.set_entry_type(kind);
            h.set_size(0);
            h.set_mode(0o777);
            tarball
                .append_link(&mut h, format!("c.{lang}"), "real.de")
                .unwrap();
        }
        files.insert(format!("/{kind:?}.tgz"), gz(&tarball.into_inner().unwrap()));
    }
    let mut zipped = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut zipped);
        let o = zip::write::SimpleFileOptions::default();
        z.start_file("real.de", o).unwrap();
        z.write_all(&de).unwrap();
        for lang in ["de", "en"] {
            z.add_symlink(format!("c.{lang}"), "real.de", o).unwrap();
        }
        z.finish().unwrap();
    }
    files.insert("/Zip.zip".into(), zipped.into_inner());
    let base = serve(files, 16);
    for (name, format) in [
        ("Symlink.tgz", "tgz"),
        ("Link.tgz", "tgz"),
        ("Zip.zip", "zip"),
    ] {
        let pair = tmp.path().join("pair.toml");
        std::fs::write(
            &pair,
            format!(
                "source = \"de\"\ntarget = \"en\"\nfiles = \"de-en\"\n[model]\nname = \"german-small.udpipe\"\n\
                 [[corpus]]\nname = \"c\"\nurl = \"{base}/{name}\"\nformat = \"{format}\"\n\
                 members = {{ de = \"c.de\", en = \"c.en\" }}\n"
            ),
        )
        .unwrap();
        let dir = tmp.path().join(format!("corpora-{format}"));
        let o = bin()
            .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
            .output()
            .unwrap();
        refused(&o, 3, "member `c.de` is a link or not a regular file");
        assert!(absent_or_empty(&dir), "{name}: {:?}", entries(&dir));
    }
}

/// A fast_align model given to `--metrics locus` for sets aligned by the HMM is named as
/// a model of the other aligner, not reported as a missing file.
#[test]
fn a_model_of_the_other_aligner_is_named_as_such() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let fa = t.join("fa");
    let o = bin()
        .args(["align", "-q", "--src", s(&data("parallel/pud.de-en.de"))])
        .args([
            "--tgt",
            s(&data("parallel/pud.de-en.en")),
            "--src-lang",
            "de",
        ])
        .args(["--tgt-lang", "en", "--align-model-type", "fast-align"])
        .args(["--save-align-model", s(&fa)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let [a, _] = two_systems(t);
    let o = bin()
        .args(["score", "-q", "--sets", s(&sets), "--hyp", s(&a)])
        .args(["--metrics", "locus", "--align-model", s(&fa)])
        .output()
        .unwrap();
    refused(&o, 4, "is a model of the other aligner (fast_align's)");
}

//! Class: outputs edited after the run. Every file a manifest names is read only as the run
//! wrote it, a report shows a system's lines only from the file it scored and bounds a
//! tampered loci file, a manifest edited to write outside its directory or runs of
//! different corpora are refused.

use super::*;

#[test]
fn long_lines_foreign_runs_and_edited_manifests_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    // A 2 MiB line (the limit is 1 MiB) on line 3 of the target side.
    let tgt = tmp.path().join("long.en");
    let mut text = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    let at = text.match_indices('\n').nth(1).unwrap().0 + 1;
    text.insert_str(at, &"a".repeat(2 << 20));
    std::fs::write(&tgt, text).unwrap();
    let mut args = pud_args(&tmp.path().join("o"), &[]);
    let i = args.iter().position(|a| a == "--tgt").unwrap();
    args[i + 1] = s(&tgt).to_string();
    let o = run_args(&args);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("long.en:3: line is longer than the limit of 1048576 bytes"),
        "{}",
        stderr(&o)
    );

    // compare: runs of two different corpora.
    let de = tmp.path().join("de");
    let en = tmp.path().join("en");
    extract_pud("de", &de, &["--controls", "0", "--no-reorder", "--quiet"]);
    extract_pud("en", &en, &["--controls", "0", "--no-reorder", "--quiet"]);
    let o = bin()
        .args(["compare", "--gold", s(&de), "--pred", s(&en)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("different corpora"), "{}", stderr(&o));

    // slice: a manifest edited to write outside the sets directory.
    let m = de.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(
        &m,
        text.replacen("\"reflexive/ge0.ids\"", "\"../../../escape/ge0.ids\"", 1),
    )
    .unwrap();
    let o = bin()
        .args([
            "slice",
            "--sets",
            s(&de),
            "--hyp",
            s(&data("parallel/pud.de-en.en")),
        ])
        .output()
        .unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("leaves the set directory"),
        "{}",
        stderr(&o)
    );
    assert!(!tmp.path().join("escape").exists() && !Path::new("/escape").exists());
}

#[test]
fn report_shows_a_systems_lines_only_from_the_file_it_scored() {
    let tmp = tempfile::tempdir().unwrap();
    let sets = scored_sets(tmp.path());
    // scores.json edited to name a private file of the same line count.
    let secret = tmp.path().join("secret.txt");
    let secret_lines: String = (1..=1000).map(|i| format!("SECRET-{i}\n")).collect();
    std::fs::write(&secret, &secret_lines).unwrap();
    let scores = sets.join("scores.json");
    let text = std::fs::read_to_string(&scores).unwrap();
    let sys = s(&tmp.path().join("sys.en")).to_string();
    assert!(text.contains(&sys));
    std::fs::write(&scores, text.replace(&sys, s(&secret))).unwrap();
    let o = bin().args(["report", "--sets", s(&sets)]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
    assert!(
        !page.contains("SECRET-"),
        "the report embedded the file named in scores.json"
    );
    assert!(
        page.contains("is not the file scored"),
        "the report says why"
    );
    // The scored file itself is shown.
    std::fs::write(&scores, text).unwrap();
    let o = bin().args(["report", "--sets", s(&sets)]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
    assert!(!page.contains("is not the file scored"));
}

/// Every file a manifest names is read only as the run wrote it (its SHA-256 recorded in
/// the manifest): `score`, `slice`, `report`, `compare` and `merge` refuse a changed set
/// file and a name the run did not record, naming the file; the restored file is read.
#[test]
fn set_files_changed_after_the_run_are_refused_by_every_reader() {
    let tmp = tempfile::tempdir().unwrap();
    let sets = scored_sets(tmp.path());
    let hyp = tmp.path().join("sys.en");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sets.join("manifest.json")).unwrap())
            .unwrap();
    let checksums = manifest["checksums"].as_object().unwrap();
    // Every file of every set and control is recorded, and the manifest itself is not.
    for set in manifest["sets"].as_array().unwrap() {
        for f in set["files"].as_object().unwrap().values() {
            assert!(checksums.contains_key(f.as_str().unwrap()), "{f}");
        }
    }
    assert!(checksums.contains_key("reflexive/controls/ge1.2.ids"));
    assert!(!checksums.contains_key("manifest.json"));

    let readers: Vec<(&str, Vec<&str>)> = vec![
        (
            "score",
            vec!["score", "-q", "--sets", s(&sets), "--hyp", s(&hyp)],
        ),
        ("slice", vec!["slice", "--sets", s(&sets), "--hyp", s(&hyp)]),
        ("report", vec!["report", "--sets", s(&sets)]),
        (
            "compare",
            vec!["compare", "--gold", s(&sets), "--pred", s(&sets)],
        ),
    ];
    let ids = sets.join("reflexive/ge1.ids");
    let good = std::fs::read(&ids).unwrap();
    // One more id, a valid line number: only the checksum tells.
    let mut changed = good.clone();
    changed.extend_from_slice(b"1000\n");
    std::fs::write(&ids, &changed).unwrap();
    for (name, args) in &readers {
        let o = bin().args(args).output().unwrap();
        assert_eq!(code(&o), 3, "{name}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("reflexive/ge1.ids: changed since ldd-sets wrote it"),
            "{name}: {e}"
        );
        assert!(
            e.contains(checksums["reflexive/ge1.ids"].as_str().unwrap()),
            "{name}: {e}"
        );
    }
    assert!(!entries(&sets.join("reflexive"))
        .iter()
        .any(|e| e.contains(".hyp.")));
    std::fs::write(&ids, &good).unwrap();
    for (name, args) in &readers {
        let o = bin().args(args).output().unwrap();
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }

    // A manifest edited to name a file the run did not write (with the right content).
    let text = std::fs::read_to_string(sets.join("manifest.json")).unwrap();
    std::fs::copy(&ids, sets.join("reflexive/mine.ids")).unwrap();
    let edited = text.replace(
        "\"ids\": \"reflexive/ge1.ids\"",
        "\"ids\": \"reflexive/mine.ids\"",
    );
    assert_ne!(edited, text);
    std::fs::write(sets.join("manifest.json"), edited).unwrap();
    let o = bin().args(&readers[0].1).output().unwrap();
    refused(
        &o,
        3,
        "`reflexive/mine.ids` is not among the files the run recorded",
    );

    // `merge` reads a shard's files only as the shard wrote them.
    let shards: Vec<_> = (1..=2)
        .map(|i| tmp.path().join(format!("shard{i}")))
        .collect();
    for (i, out) in shards.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let o = run_args(&pud_args(out, &["-q", "--no-reorder", "--shard", &shard]));
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let conllu = shards[1].join("particle/ge0.conllu");
    let text = std::fs::read_to_string(&conllu).unwrap();
    assert!(text.contains("\tcompound:prt\t"));
    std::fs::write(&conllu, text.replacen("\tcompound:prt\t", "\tobl\t", 1)).unwrap();
    let merged = tmp.path().join("merged");
    let o = bin()
        .args([
            "merge",
            "-q",
            "--out",
            s(&merged),
            s(&shards[0]),
            s(&shards[1]),
        ])
        .output()
        .unwrap();
    refused(
        &o,
        3,
        "particle/ge0.conllu: changed since ldd-sets wrote it",
    );
    assert!(!merged.exists());
}

/// `report` reads `scores.loci.tsv` only as `score` wrote it: a file grown after scoring
/// is noted, not parsed, and one grown with its checksum rewritten in `scores.json` is
/// refused at the first row beyond what the sets can hold — in bounded time and memory.
#[test]
fn report_bounds_a_tampered_loci_file() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, _] = two_systems(t);
    let o = bin()
        .args(["score", "-q", "--sets", s(&sets), "--hyp", s(&a)])
        .args(["--metrics", "bleu,locus"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let loci = sets.join("scores.loci.tsv");
    let text = std::fs::read_to_string(&loci).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    // About 100 MB: the rows again and again.
    let mut grown = text.clone();
    let block = rows.join("\n") + "\n";
    while grown.len() < 100 << 20 {
        grown.push_str(&block);
    }
    std::fs::write(&loci, &grown).unwrap();
    let (o, bytes) = run_measured(bin().args(["report", "--sets", s(&sets)]));
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
    assert!(page.contains("changed after scoring"));
    assert!(bytes < 200 << 20, "{bytes} bytes");
    let scores = sets.join("scores.json");
    let json = std::fs::read_to_string(&scores).unwrap();
    let old = ldd_io::sha256_bytes(text.as_bytes());
    let new = ldd_io::sha256_bytes(grown.as_bytes());
    assert!(json.contains(&old));
    std::fs::write(&scores, json.replace(&old, &new)).unwrap();
    let started = Instant::now();
    let (o, bytes) = run_measured(bin().args(["report", "--sets", s(&sets)]));
    refused(&o, 3, "more rows than the sets have loci");
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(bytes < 200 << 20, "{bytes} bytes");
}

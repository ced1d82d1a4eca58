//! Bad and unusual input: every error names its file (and line), exits non-zero with
//! the documented code, and leaves nothing in --out.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use common::*;

struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new() -> Case {
        Case {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
        p
    }
    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }
    /// Runs extract de→en on the given files; returns (exit code, stderr).
    fn extract(&self, src: &Path, tgt: &Path, conllu: &Path, extra: &[&str]) -> (i32, String) {
        let out = self.out();
        let mut args = vec![
            "extract",
            "--src",
            src.to_str().unwrap(),
            "--tgt",
            tgt.to_str().unwrap(),
            "--src-lang",
            "de",
            "--tgt-lang",
            "en",
            "--conllu",
            conllu.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = run(&args);
        (o.status.code().unwrap_or(-1), stderr(&o))
    }
}

/// The first `n` lines of the PUD corpus (both sides) and trees, as bytes.
fn pud_head(n: usize) -> (String, String, String) {
    let take = |p: PathBuf| {
        let t = std::fs::read_to_string(p).unwrap();
        t.lines()
            .take(n)
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    let trees = std::fs::read_to_string(data("ud/de_pud-ud-test.conllu")).unwrap();
    let trees: String = trees
        .split("\n\n")
        .take(n)
        .map(|b| format!("{b}\n\n"))
        .collect();
    (
        take(data("parallel/pud.de-en.de")),
        take(data("parallel/pud.de-en.en")),
        trees,
    )
}

#[test]
fn mismatched_line_counts_name_all_three_files() {
    let c = Case::new();
    let (s, t, tr) = pud_head(40);
    let src = c.file("s.de", s.as_bytes());
    let short: String = t.lines().take(39).map(|l| format!("{l}\n")).collect();
    let tgt = c.file("t.en", short.as_bytes());
    let trees = c.file("p.conllu", tr.as_bytes());
    let (code, err) = c.extract(&src, &tgt, &trees, &[]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains(&format!("{} has 40 lines", src.display())),
        "{err}"
    );
    assert!(
        err.contains(&format!("{} has 39 lines", tgt.display())),
        "{err}"
    );
    assert!(
        err.contains(&format!("{} has 40 sentences", trees.display())),
        "{err}"
    );
    assert!(absent_or_empty(&c.out()));
}

#[test]
fn malformed_conllu_is_reported_with_line() {
    let c = Case::new();
    let (s, t, tr) = pud_head(10);
    // break word 5 of tree 3: drop its last column
    let mut blocks: Vec<String> = tr.split("\n\n").map(str::to_string).collect();
    let lines: Vec<&str> = blocks[2].lines().collect();
    let target_line = lines.iter().position(|l| l.starts_with("5\t")).unwrap();
    let mut new_lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    new_lines[target_line] = new_lines[target_line]
        .rsplit_once('\t')
        .unwrap()
        .0
        .to_string();
    blocks[2] = new_lines.join("\n");
    let broken = blocks.join("\n\n");
    let file_line = broken[..broken.find(&new_lines[target_line]).unwrap()]
        .matches('\n')
        .count()
        + 1;
    let (src, tgt) = (c.file("s.de", s.as_bytes()), c.file("t.en", t.as_bytes()));
    let trees = c.file("p.conllu", broken.as_bytes());
    let (code, err) = c.extract(&src, &tgt, &trees, &[]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains(&format!(
            "{}:{file_line}: expected 10 tab-separated columns, found 9",
            trees.display()
        )),
        "{err}"
    );
    assert!(absent_or_empty(&c.out()));
}

#[test]
fn invalid_utf8_names_file_and_line() {
    let c = Case::new();
    let (s, t, tr) = pud_head(10);
    let mut bad = s.into_bytes();
    let pos = bad
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(5)
        .unwrap()
        .0
        + 3;
    bad[pos] = 0xff; // inside line 7
    let (src, tgt, trees) = (
        c.file("s.de", &bad),
        c.file("t.en", t.as_bytes()),
        c.file("p.conllu", tr.as_bytes()),
    );
    let (code, err) = c.extract(&src, &tgt, &trees, &[]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains(&format!(
            "{}:7: invalid UTF-8 at byte 3 of the line",
            src.display()
        )),
        "{err}"
    );
    assert!(absent_or_empty(&c.out()));
}

#[test]
fn truncated_gzip_is_an_input_error() {
    let c = Case::new();
    let (s, t, tr) = pud_head(200);
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(tr.as_bytes()).unwrap();
    let gz = enc.finish().unwrap();
    let trees = c.file("p.conllu.gz", &gz[..gz.len() / 2]);
    let (src, tgt) = (c.file("s.de", s.as_bytes()), c.file("t.en", t.as_bytes()));
    let (code, err) = c.extract(&src, &tgt, &trees, &[]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains(&trees.display().to_string()), "{err}");
    assert!(err.contains("truncated or corrupt gzip"), "{err}");
    assert!(absent_or_empty(&c.out()));
}

#[test]
fn missing_file_is_an_io_error() {
    let c = Case::new();
    let (s, t, _) = pud_head(3);
    let (src, tgt) = (c.file("s.de", s.as_bytes()), c.file("t.en", t.as_bytes()));
    let missing = c.dir.path().join("nope.conllu");
    let (code, err) = c.extract(&src, &tgt, &missing, &[]);
    assert_eq!(code, 5, "{err}");
    assert!(
        err.contains(&format!("{}: No such file", missing.display())),
        "{err}"
    );
    assert!(absent_or_empty(&c.out()));
}

/// Empty lines, CRLF line ends, a BOM and a very long line are read correctly:
/// empty pairs are counted but never selected; the rest is selected as without them.
#[test]
fn unusual_but_valid_input() {
    let c = Case::new();
    let (s, t, tr) = pud_head(40);
    let mut src_lines: Vec<String> = s.lines().map(str::to_string).collect();
    let mut tgt_lines: Vec<String> = t.lines().map(str::to_string).collect();
    // line 26 has a reflexive (d=0) and a particle (d=5): empty its target side
    tgt_lines[25] = String::new();
    // a very long target line
    tgt_lines[0] = "word ".repeat(200_000);
    src_lines[0] = format!("\u{feff}{}", src_lines[0]);
    let src = c.file("s.de", src_lines.join("\r\n").as_bytes());
    let tgt = c.file("t.en", (tgt_lines.join("\r\n") + "\r\n").as_bytes());
    let trees = c.file("p.conllu", tr.as_bytes());
    let (code, err) = c.extract(&src, &tgt, &trees, &["--quiet"]);
    assert_eq!(code, 0, "{err}");
    let out = c.out();
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["corpus"]["lines"], 40);
    assert_eq!(m["corpus"]["empty_lines"], 1);
    assert!(!ids(&out.join("particle"), "ge0").contains(&26));
    assert!(!ids(&out.join("reflexive"), "ge0").contains(&26));
    // Selected source lines are copied as read, without \r.
    let all = ids(&out.join("particle"), "ge0");
    assert!(all.contains(&31));
    let first = *all.iter().next().unwrap();
    let row0 = &lines(&out.join("particle/ge0.de"))[0];
    assert_eq!(
        row0,
        &s.lines().nth(first as usize - 1).unwrap().to_string()
    );
    assert!(!row0.contains('\r'));
}

#[test]
fn unknown_config_key_names_file_line_and_key() {
    let c = Case::new();
    let (s, t, tr) = pud_head(5);
    let (src, tgt, trees) = (
        c.file("s.de", s.as_bytes()),
        c.file("t.en", t.as_bytes()),
        c.file("p.conllu", tr.as_bytes()),
    );
    let rules = c.file(
        "r.toml",
        b"[[phenomenon]]\nname = \"x\"\n[phenomenon.dependent]\ndeprel = [\"nsubj\"]\nupos_tag = [\"NOUN\"]\n",
    );
    let (code, err) = c.extract(&src, &tgt, &trees, &["--rules", rules.to_str().unwrap()]);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains(&format!("{}:5:", rules.display())), "{err}");
    assert!(err.contains("unknown field `upos_tag`"), "{err}");
    // an invalid value names its key and line
    let rules = c.file(
        "r2.toml",
        b"[[phenomenon]]\nname = \"x\"\n[phenomenon.dependent]\ndeprel = [\"nsubj\"]\nupos = [\"NOUN\", \"NOUNS\"]\n",
    );
    let (code, err) = c.extract(&src, &tgt, &trees, &["--rules", rules.to_str().unwrap()]);
    assert_eq!(code, 4, "{err}");
    assert!(
        err.contains(&format!(
            "{}:5: invalid value for `dependent.upos`: `NOUNS` is not a universal POS tag",
            rules.display()
        )),
        "{err}"
    );
    // unknown phenomenon on the command line
    let (code, err) = c.extract(&src, &tgt, &trees, &["--phenomena", "reflexive,nope"]);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("unknown phenomenon `nope`"), "{err}");
    assert!(absent_or_empty(&c.out()));
}

#[test]
fn refuses_to_overwrite_a_foreign_directory() {
    let c = Case::new();
    let (s, t, tr) = pud_head(5);
    let (src, tgt, trees) = (
        c.file("s.de", s.as_bytes()),
        c.file("t.en", t.as_bytes()),
        c.file("p.conllu", tr.as_bytes()),
    );
    std::fs::create_dir(c.out()).unwrap();
    std::fs::write(c.out().join("thesis.tex"), "precious").unwrap();
    let (code, err) = c.extract(&src, &tgt, &trees, &[]);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("not an ldd-sets output"), "{err}");
    assert_eq!(
        std::fs::read_to_string(c.out().join("thesis.tex")).unwrap(),
        "precious"
    );
}

/// A failed rerun leaves the previous complete output untouched.
#[test]
fn failed_rerun_keeps_previous_output() {
    let c = Case::new();
    let (s, t, tr) = pud_head(50);
    let (src, tgt, trees) = (
        c.file("s.de", s.as_bytes()),
        c.file("t.en", t.as_bytes()),
        c.file("p.conllu", tr.as_bytes()),
    );
    assert_eq!(c.extract(&src, &tgt, &trees, &["-q"]).0, 0);
    let before = std::fs::read(c.out().join("manifest.json")).unwrap();
    let short = c.file(
        "t2.en",
        t.lines().take(10).collect::<Vec<_>>().join("\n").as_bytes(),
    );
    assert_eq!(c.extract(&src, &short, &trees, &["-q"]).0, 3);
    assert_eq!(
        std::fs::read(c.out().join("manifest.json")).unwrap(),
        before
    );
}

/// Damaged gzip data that still inflates (a stored block with a changed byte) decodes to
/// bytes that are not UTF-8 long before gzip's checksum at the end is checked: the error
/// names the gzip damage, and the line where it shows, not a text error.
#[test]
fn damaged_gzip_is_named_as_gzip_not_as_invalid_utf8() {
    let c = Case::new();
    let (s, t, tr) = pud_head(200);
    let stored = |text: &str| {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
        enc.write_all(text.as_bytes()).unwrap();
        let mut gz = enc.finish().unwrap();
        // A byte in the middle of the 100th line (its offset in the text + the gzip header
        // of 10 bytes + the stored block's 5-byte header) becomes 0xFF.
        let line_start: usize = text.lines().take(99).map(|l| l.len() + 1).sum();
        gz[10 + 5 + line_start + 3] = 0xFF;
        gz
    };
    let (src, tgt) = (c.file("s.de.gz", &stored(&s)), c.file("t.en", t.as_bytes()));
    let trees = c.file("p.conllu", tr.as_bytes());
    let (code, err) = c.extract(&src, &tgt, &trees, &[]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains(&format!(
            "{}:100: truncated or corrupt gzip data",
            src.display()
        )),
        "{err}"
    );
    assert!(err.contains("invalid UTF-8 at byte 4"), "{err}");
    let src = c.file("s2.de", s.as_bytes());
    let trees = c.file("p2.conllu.gz", &stored(&tr));
    let (code, err) = c.extract(&src, &tgt, &trees, &[]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("truncated or corrupt gzip data"), "{err}");
    assert!(absent_or_empty(&c.out()));
}

//! Pharaoh alignment I/O and its errors.

use std::io::Write;

use ldd_align::{pharaoh, AlignError};

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn format_and_parse_round_trip() {
    let links = vec![(0, 0), (1, 2), (10, 3)];
    let line = pharaoh::format_line(&links);
    assert_eq!(line, "0-0 1-2 10-3");
    assert_eq!(pharaoh::parse_line(&line).unwrap(), links);
    assert_eq!(pharaoh::parse_line("  ").unwrap(), vec![]);
    assert_eq!(pharaoh::format_line(&[]), "");
}

/// A well-formed file (plain or gzip) is read, empty lines being empty alignments.
#[test]
fn reads_plain_and_gzip() {
    let dir = tempfile::tempdir().unwrap();
    let text = "0-0 1-1\n\n2-0\n";
    let lens = [(2, 2), (1, 1), (3, 1)];
    let p = write(&dir, "a.align", text);
    let expected = vec![vec![(0, 0), (1, 1)], vec![], vec![(2, 0)]];
    assert_eq!(pharaoh::read_file(&p, Some(&lens)).unwrap(), expected);
    let gz = dir.path().join("a.align.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::fast(),
    );
    enc.write_all(text.as_bytes()).unwrap();
    enc.finish().unwrap();
    assert_eq!(pharaoh::read_file(&gz, None).unwrap(), expected);
    // Gzip is recognised by content, not by name (regression: a gzipped file without
    // `.gz` used to fail).
    let unnamed = dir.path().join("gzipped.align");
    std::fs::copy(&gz, &unnamed).unwrap();
    assert_eq!(pharaoh::read_file(&unnamed, Some(&lens)).unwrap(), expected);
}

/// Too few or too many lines: the error names the file and both counts.
#[test]
fn wrong_line_count() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "short.align", "0-0\n1-1\n");
    let err = pharaoh::read_file(&p, Some(&[(2, 2); 3])).unwrap_err();
    assert!(
        matches!(
            err,
            AlignError::LineCount {
                expected: 3,
                found: ldd_io::Counted::Exactly(2),
                ..
            }
        ),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("short.align") && msg.contains('3') && msg.contains('2'),
        "{msg}"
    );
    let err = pharaoh::read_file(&p, Some(&[(2, 2); 1])).unwrap_err();
    assert!(
        matches!(
            err,
            AlignError::LineCount {
                expected: 1,
                found: ldd_io::Counted::Exactly(2),
                ..
            }
        ),
        "{err:?}"
    );
}

/// A link beyond its sentence: the error names file, line and token.
#[test]
fn index_out_of_range() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "range.align", "0-0 1-1\n0-0 0-5\n");
    let err = pharaoh::read_file(&p, Some(&[(2, 2), (2, 3)])).unwrap_err();
    assert!(
        matches!(err, AlignError::LinkOutOfRange { line: 2, .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("range.align:2") && msg.contains("0-5"),
        "{msg}"
    );
    // Source side too.
    let err = pharaoh::read_file(&p, Some(&[(1, 2), (2, 6)])).unwrap_err();
    assert!(err.to_string().contains("range.align:1"), "{err}");
}

/// Garbage tokens: the error names file, line and token; nothing panics.
#[test]
fn malformed_tokens() {
    let dir = tempfile::tempdir().unwrap();
    for (k, bad) in [
        "0-",
        "-1",
        "a-b",
        "1-2-3",
        "0_0",
        "1--2",
        "+1-2",
        "99999999999999999999999-0",
        "0-0x",
    ]
    .iter()
    .enumerate()
    {
        let p = write(&dir, &format!("bad{k}.align"), &format!("0-0\n1-1 {bad}\n"));
        let err = pharaoh::read_file(&p, None).unwrap_err();
        assert!(
            matches!(err, AlignError::MalformedLink { line: 2, .. }),
            "{bad}: {err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("bad{k}.align:2")) && msg.contains(bad),
            "{msg}"
        );
    }
    let err = pharaoh::read_file(dir.path().join("missing.align"), None).unwrap_err();
    assert!(err.to_string().contains("missing.align"), "{err}");
}

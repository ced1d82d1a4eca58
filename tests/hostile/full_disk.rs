//! Class: a full disk (simulated with the file-size limit at 0 bytes): the command fails
//! with an I/O error and leaves no lock, temporary file, empty file or empty directory.

use super::*;

/// A full disk (simulated: the file-size limit at 0 bytes, SIGXFSZ ignored, so every write
/// fails with EFBIG) makes the command fail with an I/O error and leaves no lock, no
/// temporary file and no 0-byte file in the parse cache or beside the output.
#[test]
fn a_disk_that_takes_no_byte_leaves_no_lock_or_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    std::fs::create_dir(&cache).unwrap();
    let mut cmd = parse_pud(&cache, &tmp.path().join("x.conllu"));
    // SAFETY: setrlimit and signal disposition in the child before exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: 0,
                rlim_max: libc::RLIM_INFINITY,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
            Ok(())
        });
    }
    let o = cmd.output().unwrap();
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(stderr(&o).contains("File too large"), "{}", stderr(&o));
    let left = tree(tmp.path());
    assert!(left.iter().all(|p| p == "cache/"), "left behind: {left:?}");
}

/// A full disk (the file-size limit at 0 bytes) fails `tally --out` and `score --out` with
/// an I/O error and leaves no directory they made, no temporary file.
#[test]
fn a_full_disk_leaves_no_empty_output_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("sh"), &["--per-cell", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let filled = t.join("filled.csv");
    let text = std::fs::read_to_string(t.join("sh/detection.csv")).unwrap();
    std::fs::write(&filled, text.replace(",,\n", ",yes,\n")).unwrap();
    let full = |mut c: Command| {
        // SAFETY: setrlimit and signal disposition in the child before exec.
        unsafe {
            c.pre_exec(|| {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let lim = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: libc::RLIM_INFINITY,
                };
                libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
                Ok(())
            });
        }
        c.output().unwrap()
    };
    let mut c = bin();
    c.args(["tally", "-q", s(&filled), "--out", s(&t.join("new/tally"))]);
    let o = full(c);
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(!t.join("new").exists());
    let mut c = bin();
    c.args(["score", "-q", "--sets", s(&sets), "--hyp", s(&a)])
        .args([
            "--metrics",
            "bleu,locus",
            "--out",
            s(&t.join("new2/scores")),
        ]);
    let o = full(c);
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    assert!(!t.join("new2").exists());
    let left: Vec<String> = entries(t)
        .into_iter()
        .filter(|e| e.contains("ldd-tmp") || e.contains("ldd-lock"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

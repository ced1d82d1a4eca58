//! Class: downloads that stall or drip: failed by the idle timeout, the lowest rate or the
//! overall deadline, each naming its variable, nothing kept.

use super::*;

/// A server on 127.0.0.1 that accepts every connection, reads the request, sends `reply`
/// and then nothing more for a minute. Returns its base URL.
fn stalling_server(reply: &'static [u8]) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let _ = std::io::Read::read(&mut s, &mut buf);
                let _ = s.write_all(reply);
                std::thread::sleep(Duration::from_secs(60));
            });
        }
    });
    format!("http://{addr}")
}

#[test]
fn a_stalling_server_fails_the_download_after_the_idle_timeout() {
    let tmp = tempfile::tempdir().unwrap();
    // Headers and 5 bytes of a 1,000-byte body, then silence; and no response at all.
    for (reply, after) in [
        (
            &b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\nHallo"[..],
            "after 5 bytes",
        ),
        (&b""[..], "after 0 bytes"),
    ] {
        let base = stalling_server(reply);
        let pair = pair_config(tmp.path(), &base);
        let dir = tmp.path().join("corpora");
        let t = Instant::now();
        let o = bin()
            .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
            .env("LDD_SETS_IDLE_TIMEOUT", "1.5")
            .output()
            .unwrap();
        let took = t.elapsed();
        assert_eq!(code(&o), 6, "{}", stderr(&o));
        assert!(took < Duration::from_secs(20), "took {took:?}");
        assert!(took >= Duration::from_millis(1500), "took {took:?}");
        let e = stderr(&o);
        assert!(
            e.contains("idle timeout") && e.contains("LDD_SETS_IDLE_TIMEOUT"),
            "{e}"
        );
        assert!(e.contains(after), "{e}");
        assert!(absent_or_empty(&dir), "{:?}", entries(&dir));
    }
    // A timeout that is not a number of seconds is refused.
    let pair = pair_config(tmp.path(), "http://127.0.0.1:9");
    let o = bin()
        .args([
            "corpora",
            "-q",
            "--pair",
            s(&pair),
            "--dir",
            s(&tmp.path().join("c2")),
        ])
        .env("LDD_SETS_CONNECT_TIMEOUT", "soon")
        .output()
        .unwrap();
    assert_ne!(code(&o), 0);
    assert!(
        stderr(&o).contains("LDD_SETS_CONNECT_TIMEOUT=soon"),
        "{}",
        stderr(&o)
    );
}

/// A server that sends the headers of a `size`-byte body, then `chunk` bytes every
/// `every`, for a minute at most. Returns its base URL.
fn dripping_server(size: usize, chunk: usize, every: Duration) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let _ = std::io::Read::read(&mut s, &mut buf);
                let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {size}\r\n\r\n");
                let _ = s.write_all(head.as_bytes());
                let t = Instant::now();
                while t.elapsed() < Duration::from_secs(60) {
                    if s.write_all(&vec![b'x'; chunk]).is_err() {
                        return;
                    }
                    std::thread::sleep(every);
                }
            });
        }
    });
    format!("http://{addr}")
}

/// A download that drips a byte now and then never trips the idle timeout, but fails by
/// the lowest rate; one fast enough for that but endless fails by the overall deadline;
/// each naming its variable, nothing kept.
#[test]
fn a_dripping_download_fails_by_its_rate_and_an_endless_one_by_its_deadline() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            dripping_server(1 << 20, 1, Duration::from_millis(500)),
            "lowest rate",
            "LDD_SETS_MIN_RATE",
        ),
        (
            dripping_server(1 << 30, 4096, Duration::from_millis(100)),
            "overall deadline",
            "LDD_SETS_DOWNLOAD_TIMEOUT",
        ),
    ];
    for (base, what, var) in cases {
        let pair = pair_config(tmp.path(), &base);
        let dir = tmp.path().join("corpora");
        let started = Instant::now();
        let o = bin()
            .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
            .env("LDD_SETS_IDLE_TIMEOUT", "2")
            .env("LDD_SETS_DOWNLOAD_TIMEOUT", "4")
            .output()
            .unwrap();
        let took = started.elapsed();
        assert_eq!(code(&o), 6, "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(what) && e.contains(var), "{e}");
        assert!(took < Duration::from_secs(20), "took {took:?}");
        assert!(absent_or_empty(&dir), "{:?}", entries(&dir));
    }
}

//! Downloads, verified before anything is kept.
//!
//! [`download`] streams a URL into a hidden temporary file beside its target (an
//! [`AtomicFile`], so an interrupt removes it too), computing its SHA-256 and size on the
//! way, and rejects the response when it is an HTML page (by `Content-Type` or by its first
//! bytes — what a server sends for an error or a login page), empty, larger than allowed,
//! or not of the expected size or SHA-256. The caller may check the content further (e.g.
//! load a model) through [`Download::path`] and then [`Download::persist`] it under the
//! target name; a [`Download`] dropped without being persisted removes its temporary file,
//! so a failed or interrupted download leaves nothing behind.
//!
//! Every download has a connect timeout, an idle timeout, a lowest rate and an overall
//! deadline ([`Timeouts`]): a server that does not accept the connection, sends no byte for
//! the idle timeout (before the response or within the body), sends less than the lowest
//! rate on average over any stretch of the idle timeout (a drip of a byte now and then),
//! or has not finished by the deadline, fails the download with a message naming the
//! limit and its variable, instead of hanging the command. Set them with
//! `LDD_SETS_CONNECT_TIMEOUT`, `LDD_SETS_IDLE_TIMEOUT`, `LDD_SETS_DOWNLOAD_TIMEOUT`
//! (seconds; defaults 30, 60 and 21,600 — six hours) and `LDD_SETS_MIN_RATE` (bytes per
//! second; default 1,024; 0: none).

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::output::AtomicFile;

/// What a download must be.
#[derive(Debug, Clone, Copy)]
pub struct Expect<'a> {
    /// SHA-256 (hex, any case) of the content, where known.
    pub sha256: Option<&'a str>,
    /// Size in bytes, where known.
    pub size: Option<u64>,
    /// The most bytes accepted.
    pub max_bytes: u64,
}

/// A verified download in a temporary file beside its final place.
#[derive(Debug)]
pub struct Download {
    file: AtomicFile,
    /// SHA-256 of the content (lowercase hex).
    pub sha256: String,
    /// Size in bytes.
    pub bytes: u64,
}

/// Why a download failed (the URL is named by the caller).
#[derive(Debug)]
pub struct DownloadError(String);

impl fmt::Display for DownloadError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.0)
    }
}

impl std::error::Error for DownloadError {}

fn fail<T>(msg: impl Into<String>) -> Result<T, DownloadError> {
    Err(DownloadError(msg.into()))
}

impl Download {
    /// The temporary file holding the content (complete: written and flushed).
    pub fn path(&self) -> &Path {
        self.file.tmp_path()
    }

    /// Syncs the file and renames it to its target.
    pub fn persist(self) -> Result<PathBuf, DownloadError> {
        let target = self.file.target().to_path_buf();
        self.file.commit().or_else(|e| fail(e.to_string()))?;
        Ok(target)
    }
}

/// Whether `head` (the first bytes of a response) is an HTML document.
pub fn looks_like_html(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let text: Vec<u8> = head[start..]
        .iter()
        .take(1024)
        .map(u8::to_ascii_lowercase)
        .collect();
    let has = |needle: &[u8]| text.windows(needle.len()).any(|w| w == needle);
    text.starts_with(b"<!doctype html")
        || text.starts_with(b"<html")
        || text.starts_with(b"<head")
        || (text.starts_with(b"<?xml") && has(b"<html"))
}

/// How long a download may wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// For the connection to be accepted.
    pub connect: Duration,
    /// For the next byte (of the response headers or of the body).
    pub idle: Duration,
    /// For the whole download.
    pub total: Duration,
    /// The lowest average rate, in bytes per second, over every stretch of `idle` (0: none).
    pub min_rate: u64,
}

/// Environment variable: the connect timeout in seconds.
pub const CONNECT_TIMEOUT_ENV: &str = "LDD_SETS_CONNECT_TIMEOUT";
/// Environment variable: the idle timeout in seconds.
pub const IDLE_TIMEOUT_ENV: &str = "LDD_SETS_IDLE_TIMEOUT";
/// Environment variable: the overall deadline of a download in seconds.
pub const DOWNLOAD_TIMEOUT_ENV: &str = "LDD_SETS_DOWNLOAD_TIMEOUT";
/// Environment variable: the lowest average rate in bytes per second.
pub const MIN_RATE_ENV: &str = "LDD_SETS_MIN_RATE";

impl Timeouts {
    /// The limits from the environment (`LDD_SETS_CONNECT_TIMEOUT`,
    /// `LDD_SETS_IDLE_TIMEOUT`, `LDD_SETS_DOWNLOAD_TIMEOUT`, in seconds, fractions
    /// allowed; `LDD_SETS_MIN_RATE` in bytes per second), else 30 s, 60 s, 6 h and
    /// 1,024 B/s. A value that is not a positive number of seconds (at most 7 days), or a
    /// whole number of bytes, is an error naming the variable.
    pub fn from_env() -> Result<Timeouts, DownloadError> {
        let get = |var: &str, default: u64| -> Result<Duration, DownloadError> {
            match std::env::var(var) {
                Err(_) => Ok(Duration::from_secs(default)),
                Ok(v) => match v.trim().parse::<f64>() {
                    Ok(s) if s > 0.0 && s <= 604_800.0 => Ok(Duration::from_secs_f64(s)),
                    _ => fail(format!(
                        "{var}={}: not a number of seconds between 0 and 604800",
                        crate::error::quote(&v, 40)
                    )),
                },
            }
        };
        let min_rate = match std::env::var(MIN_RATE_ENV) {
            Err(_) => 1024,
            Ok(v) => v.trim().parse::<u64>().or_else(|_| {
                fail(format!(
                    "{MIN_RATE_ENV}={}: not a whole number of bytes per second",
                    crate::error::quote(&v, 40)
                ))
            })?,
        };
        Ok(Timeouts {
            connect: get(CONNECT_TIMEOUT_ENV, 30)?,
            idle: get(IDLE_TIMEOUT_ENV, 60)?,
            total: get(DOWNLOAD_TIMEOUT_ENV, 21_600)?,
            min_rate,
        })
    }
}

/// The message of a download past its deadline.
fn deadline_message(timeouts: &Timeouts, bytes: u64) -> String {
    format!(
        "the download was not finished after {:.0} s ({bytes} bytes received; overall \
         deadline; set {DOWNLOAD_TIMEOUT_ENV}=SECONDS to wait longer); nothing was kept",
        timeouts.total.as_secs_f64()
    )
}

/// The message of an idle timeout.
fn idle_message(timeouts: &Timeouts, bytes: u64) -> String {
    format!(
        "the server sent nothing for {:.0} s after {bytes} bytes (idle timeout; set \
         {IDLE_TIMEOUT_ENV}=SECONDS to wait longer); nothing was kept",
        timeouts.idle.as_secs_f64()
    )
}

/// Downloads `url` into a temporary file beside `target` (its directory is created if
/// needed) and checks it against `expect` (see the module documentation).
pub fn download(url: &str, target: &Path, expect: &Expect) -> Result<Download, DownloadError> {
    let t = Timeouts::from_env()?;
    let started = Instant::now();
    let dir = crate::output::parent_dir(target);
    std::fs::create_dir_all(&dir)
        .or_else(|e| fail(format!("cannot create {}: {e}", crate::error::shown(&dir))))?;
    let mut file = AtomicFile::create(target).or_else(|e| fail(e.to_string()))?;
    let body = request(url, &t)?;
    let rx = read_in_background(body)?;
    let mut got = Received::new();
    while let Some(buf) = next_buffer(&rx, &t, started, got.bytes)? {
        got.add(&buf, &t, expect)?;
        file.write_all(&buf)
            .or_else(|e| fail(format!("cannot write {}: {e}", crate::error::shown(target))))?;
    }
    file.flush()
        .or_else(|e| fail(format!("cannot write {}: {e}", crate::error::shown(target))))?;
    let (sha256, bytes) = got.finish(expect)?;
    Ok(Download {
        file,
        sha256,
        bytes,
    })
}

/// Sends the request for `url` and returns the reader of the response's body, unless the
/// connection or the response timed out or the response is an HTML page by its
/// `Content-Type`.
fn request(url: &str, timeouts: &Timeouts) -> Result<impl Read + Send + 'static, DownloadError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_connect(Some(timeouts.connect))
        .timeout_recv_response(Some(timeouts.idle))
        .build()
        .into();
    let resp = agent.get(url).call().or_else(|e| {
        fail(match e {
            ureq::Error::Timeout(ureq::Timeout::Connect) => format!(
                "the server did not accept the connection within {:.0} s (connect timeout; set \
                 {CONNECT_TIMEOUT_ENV}=SECONDS to wait longer)",
                timeouts.connect.as_secs_f64()
            ),
            ureq::Error::Timeout(_) => idle_message(timeouts, 0),
            e => e.to_string(),
        })
    })?;
    let html_type = resp.body().mime_type().is_some_and(|m| {
        let m = m.to_ascii_lowercase();
        m == "text/html" || m == "application/xhtml+xml"
    });
    if html_type {
        return fail(
            "the server sent an HTML page (Content-Type text/html), not the file — an error or \
             login page; nothing was kept",
        );
    }
    Ok(resp.into_body().into_reader())
}

/// A body read into buffers (empty at the end), or the error that ended it.
type Buffers = mpsc::Receiver<std::io::Result<Vec<u8>>>;

/// Reads `body` on a thread of its own, so that a stalled read can be given up after the
/// idle timeout (the thread then ends with the process); at most four buffers are in
/// flight.
fn read_in_background(mut body: impl Read + Send + 'static) -> Result<Buffers, DownloadError> {
    let (tx, rx) = mpsc::sync_channel::<std::io::Result<Vec<u8>>>(4);
    std::thread::Builder::new()
        .name("ldd-download".into())
        .spawn(move || loop {
            let mut buf = vec![0u8; 1 << 16];
            let r = match body.read(&mut buf) {
                Ok(n) => {
                    buf.truncate(n);
                    Ok(buf)
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => Err(e),
            };
            let end = !matches!(&r, Ok(b) if !b.is_empty());
            if tx.send(r).is_err() || end {
                return;
            }
        })
        .or_else(|e| fail(format!("cannot start the download: {e}")))?;
    Ok(rx)
}

/// The next buffer of the body (`None` at its end), waiting at most the idle timeout and
/// never past the deadline of a download `started` then; `bytes` were received so far.
fn next_buffer(
    rx: &Buffers,
    timeouts: &Timeouts,
    started: Instant,
    bytes: u64,
) -> Result<Option<Vec<u8>>, DownloadError> {
    let left = timeouts.total.saturating_sub(started.elapsed());
    if left.is_zero() {
        return fail(deadline_message(timeouts, bytes));
    }
    match rx.recv_timeout(timeouts.idle.min(left)) {
        Ok(Ok(b)) if b.is_empty() => Ok(None),
        Ok(Ok(b)) => Ok(Some(b)),
        Ok(Err(e)) => fail(format!("the transfer broke after {bytes} bytes: {e}")),
        Err(mpsc::RecvTimeoutError::Timeout) if started.elapsed() >= timeouts.total => {
            fail(deadline_message(timeouts, bytes))
        }
        Err(mpsc::RecvTimeoutError::Timeout) => fail(idle_message(timeouts, bytes)),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            fail(format!("the transfer broke after {bytes} bytes"))
        }
    }
}

/// What has been received: size, hash, the first 1,024 bytes, and the bytes of the current
/// stretch of the idle timeout (for the lowest rate).
struct Received {
    bytes: u64,
    hasher: Sha256,
    head: Vec<u8>,
    stretch: Instant,
    stretch_bytes: u64,
}

impl Received {
    /// Nothing yet; the first stretch starts now.
    fn new() -> Self {
        Received {
            bytes: 0,
            hasher: Sha256::new(),
            head: Vec::new(),
            stretch: Instant::now(),
            stretch_bytes: 0,
        }
    }

    /// Counts and hashes `buf`; an error when a finished stretch was slower than the lowest
    /// rate or the download grew beyond `expect.max_bytes`.
    fn add(
        &mut self,
        buf: &[u8],
        timeouts: &Timeouts,
        expect: &Expect,
    ) -> Result<(), DownloadError> {
        let n = buf.len();
        self.bytes += n as u64;
        self.stretch_bytes += n as u64;
        let spent = self.stretch.elapsed();
        if spent >= timeouts.idle {
            if (self.stretch_bytes as f64) < timeouts.min_rate as f64 * spent.as_secs_f64() {
                return fail(format!(
                    "the server sent {} bytes in {:.0} s, less than {} bytes per second \
                     (lowest rate; set {MIN_RATE_ENV}=BYTES, 0 for none); nothing was kept",
                    self.stretch_bytes,
                    spent.as_secs_f64(),
                    timeouts.min_rate
                ));
            }
            (self.stretch, self.stretch_bytes) = (Instant::now(), 0);
        }
        if self.bytes > expect.max_bytes {
            return fail(format!(
                "more than {} bytes: larger than any file expected here; nothing was kept",
                expect.max_bytes
            ));
        }
        if self.head.len() < 1024 {
            self.head
                .extend_from_slice(&buf[..n.min(1024 - self.head.len())]);
        }
        self.hasher.update(buf);
        Ok(())
    }

    /// The SHA-256 (lowercase hex) and size of the whole download, unless it is empty, an
    /// HTML page by its first bytes, or not of the expected size or SHA-256.
    fn finish(self, expect: &Expect) -> Result<(String, u64), DownloadError> {
        let bytes = self.bytes;
        if bytes == 0 {
            return fail("the server sent an empty file; nothing was kept");
        }
        if looks_like_html(&self.head) {
            return fail(
                "the server sent an HTML page, not the file — an error or login page; nothing \
                 was kept",
            );
        }
        if let Some(size) = expect.size.filter(|s| *s != bytes) {
            return fail(format!(
                "{bytes} bytes received, but the file has {size} bytes: the download is \
                 incomplete or not the published file; nothing was kept"
            ));
        }
        let sha256 = crate::input::hex(&self.hasher.finalize());
        if let Some(want) = expect.sha256.filter(|w| !w.eq_ignore_ascii_case(&sha256)) {
            return fail(format!(
                "SHA-256 mismatch: expected {}, got {sha256}: the download is corrupt or not \
                 the published file; nothing was kept",
                want.to_ascii_lowercase()
            ));
        }
        Ok((sha256, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_recognised_by_its_first_bytes() {
        for page in [
            &b"<!DOCTYPE html><html><body>404</body></html>"[..],
            b"\n  <HTML><head><title>Error</title>",
            b"\xEF\xBB\xBF<!doctype HTML>",
            b"<?xml version=\"1.0\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\">\n<html>",
            b"<head><meta http-equiv=\"refresh\"></head>",
        ] {
            assert!(looks_like_html(page), "{}", String::from_utf8_lossy(page));
        }
        for data in [
            &b"PK\x03\x04"[..],
            b"\x1f\x8b\x08",
            b"Das ist ein Satz.\nThis is <html> in a sentence.",
            b"<?xml version=\"1.0\"?><tmx>",
            b"",
        ] {
            assert!(!looks_like_html(data), "{}", String::from_utf8_lossy(data));
        }
    }

    fn timeouts(idle_ms: u64, min_rate: u64) -> Timeouts {
        Timeouts {
            connect: Duration::from_secs(1),
            idle: Duration::from_millis(idle_ms),
            total: Duration::from_secs(60),
            min_rate,
        }
    }

    fn expect(sha256: Option<&str>, size: Option<u64>, max_bytes: u64) -> Expect<'_> {
        Expect {
            sha256,
            size,
            max_bytes,
        }
    }

    /// A real file received in buffers of 1,000 bytes has the file's SHA-256 and size;
    /// a wrong size or SHA-256, an HTML head or nothing at all is refused.
    #[test]
    fn received_bytes_are_hashed_counted_and_checked() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/models/README.md");
        let content = std::fs::read(&path).expect("the models' README");
        let (want, size) = crate::input::sha256_file(&path).expect("sha256");
        let t = timeouts(60_000, 0);
        let receive = |e: &Expect| -> Result<(String, u64), DownloadError> {
            let mut got = Received::new();
            for buf in content.chunks(1000) {
                got.add(buf, &t, e)?;
            }
            got.finish(e)
        };
        let (sha, bytes) = receive(&expect(Some(&want.to_uppercase()), Some(size), size))
            .expect("the file as published");
        assert_eq!((sha, bytes), (want.clone(), content.len() as u64));
        let err = receive(&expect(None, Some(size + 1), u64::MAX)).expect_err("size");
        assert!(
            err.0.contains("bytes received, but the file has"),
            "{}",
            err.0
        );
        let err = receive(&expect(Some("00"), None, u64::MAX)).expect_err("sha256");
        assert!(
            err.0.starts_with("SHA-256 mismatch: expected 00, got "),
            "{}",
            err.0
        );
        let err = receive(&expect(None, None, size - 1)).expect_err("too large");
        assert!(
            err.0.starts_with(&format!("more than {} bytes", size - 1)),
            "{}",
            err.0
        );
        let err = Received::new()
            .finish(&expect(None, None, 9))
            .expect_err("empty");
        assert!(err.0.contains("empty file"), "{}", err.0);
        let mut page = Received::new();
        page.add(b"<!DOCTYPE html><p>404", &t, &expect(None, None, 99))
            .expect("small");
        let err = page.finish(&expect(None, None, 99)).expect_err("html");
        assert!(err.0.contains("HTML page"), "{}", err.0);
    }

    /// A stretch of the idle timeout with fewer bytes than the lowest rate fails.
    #[test]
    fn a_drip_below_the_lowest_rate_fails() {
        let t = timeouts(20, 1_000_000);
        let mut got = Received::new();
        got.add(b"x", &t, &expect(None, None, 99))
            .expect("stretch not over");
        std::thread::sleep(Duration::from_millis(30));
        let err = got
            .add(b"y", &t, &expect(None, None, 99))
            .expect_err("too slow");
        assert!(
            err.0
                .starts_with("the server sent 2 bytes in 0 s, less than 1000000"),
            "{}",
            err.0
        );
    }

    #[test]
    fn buffers_end_with_an_empty_one_or_an_error() {
        let t = timeouts(20, 0);
        let (tx, rx) = mpsc::sync_channel(4);
        tx.send(Ok(b"ab".to_vec())).expect("send");
        tx.send(Ok(Vec::new())).expect("send");
        let started = Instant::now();
        assert_eq!(
            next_buffer(&rx, &t, started, 0).expect("data"),
            Some(b"ab".to_vec())
        );
        assert_eq!(next_buffer(&rx, &t, started, 2).expect("end"), None);
        let err = next_buffer(&rx, &t, started, 2).expect_err("idle");
        assert!(
            err.0
                .starts_with("the server sent nothing for 0 s after 2 bytes"),
            "{}",
            err.0
        );
        tx.send(Err(std::io::Error::other("reset"))).expect("send");
        let err = next_buffer(&rx, &t, started, 5).expect_err("broken");
        assert_eq!(err.0, "the transfer broke after 5 bytes: reset");
        drop(tx);
        let err = next_buffer(&rx, &t, started, 5).expect_err("gone");
        assert_eq!(err.0, "the transfer broke after 5 bytes");
        let late = Instant::now() - Duration::from_secs(61);
        let err = next_buffer(&rx, &t, late, 7).expect_err("deadline");
        assert!(
            err.0
                .starts_with("the download was not finished after 60 s (7 bytes"),
            "{}",
            err.0
        );
    }
}

//! The saved-model file format both models share: a magic header and a version, then
//! little-endian fields, and a CRC-32 of every preceding byte at the end. Floats are stored
//! bit-exactly; strings and vocabularies as byte length + UTF-8; a lexical table column by
//! column (see [`Columns`]).
//!
//! Versions: 1 and 2 are fast_align's model (2 adds the side labels), 3 and 4 the HMM by
//! agreement (4: one pruned table for both directions). Each model reads the versions it
//! owns and names the other's.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::corpus::{Labels, Vocab};
use crate::error::{AlignError, Result};
use crate::lexicon::PairTable;
use crate::table::Columns;

/// First bytes of every saved model.
const MAGIC: &[u8; 8] = b"LDDALIGN";

/// Newest version of fast_align's model files.
pub(crate) const FAST_ALIGN_VERSION: u32 = 2;
/// Version of the HMM model files written.
pub(crate) const HMM_VERSION: u32 = 4;
/// Oldest version of the HMM model files read (a column table per direction).
pub(crate) const OLD_HMM_VERSION: u32 = 3;

/// Writes a model file through an [`ldd_io::AtomicFile`], summing the CRC as it goes.
pub(crate) struct Writer {
    inner: ldd_io::AtomicFile,
    crc: flate2::Crc,
    path: PathBuf,
}

impl Writer {
    /// Starts the file at `path` with the header of `version`.
    pub fn create(path: &Path, version: u32) -> Result<Writer> {
        let mut w = Writer {
            inner: ldd_io::AtomicFile::create(path)?,
            crc: flate2::Crc::new(),
            path: path.to_path_buf(),
        };
        w.put(MAGIC)?;
        w.u32(version)?;
        Ok(w)
    }

    /// Raw bytes.
    pub fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.crc.update(bytes);
        self.inner
            .write_all(bytes)
            .map_err(|e| AlignError::io(&self.path, e))
    }

    /// A `u32`.
    pub fn u32(&mut self, value: u32) -> Result<()> {
        self.put(&value.to_le_bytes())
    }

    /// A `u64`.
    pub fn u64(&mut self, value: u64) -> Result<()> {
        self.put(&value.to_le_bytes())
    }

    /// An `f64`, bit-exactly.
    pub fn f64(&mut self, value: f64) -> Result<()> {
        self.put(&value.to_le_bytes())
    }

    /// A string: `u32` byte length + UTF-8.
    pub fn str(&mut self, text: &str) -> Result<()> {
        self.u32(text.len() as u32)?;
        self.put(text.as_bytes())
    }

    /// Side labels: the source's, then the target's, each as [`Writer::str`].
    pub fn labels(&mut self, labels: &Labels) -> Result<()> {
        self.str(&labels.source)?;
        self.str(&labels.target)
    }

    /// A vocabulary: `u64` count, then every word as [`Writer::str`], in id order.
    pub fn vocab(&mut self, vocab: &Vocab) -> Result<()> {
        self.u64(vocab.len() as u64)?;
        for word in vocab.words() {
            self.str(word)?;
        }
        Ok(())
    }

    /// A table: `u64` columns, then per column `u64` length and per entry `u32`
    /// conditioning id + `f64` probability.
    pub fn columns(&mut self, columns: &Columns) -> Result<()> {
        let cols = columns.col_off.len() - 1;
        self.u64(cols as u64)?;
        let mut buf = Vec::with_capacity(1 << 16);
        for g in 0..cols {
            let range = columns.col_off[g]..columns.col_off[g + 1];
            buf.clear();
            buf.extend_from_slice(&(range.len() as u64).to_le_bytes());
            for (&e, &p) in columns.conds[range.clone()]
                .iter()
                .zip(&columns.probs[range])
            {
                buf.extend_from_slice(&e.to_le_bytes());
                buf.extend_from_slice(&p.to_le_bytes());
            }
            self.put(&buf)?;
        }
        Ok(())
    }

    /// `f64`s, bit-exactly, without a count.
    pub fn f64s(&mut self, xs: &[f64]) -> Result<()> {
        for part in xs.chunks(1 << 13) {
            let buf: Vec<u8> = part.iter().flat_map(|x| x.to_le_bytes()).collect();
            self.put(&buf)?;
        }
        Ok(())
    }

    /// The HMM's table: `u64` entries, then per source word the `u64` length of its row,
    /// the `u32` target ids of the rows, `f32` `p(t | s)` and `p(s | t)` of every entry,
    /// then per target word `f64` `p(t | NULL)` and its column's other probability, and per
    /// source word `p(s | NULL)` and its row's other probability.
    pub fn pair_table(&mut self, table: &PairTable) -> Result<()> {
        self.u64(table.entries() as u64)?;
        let lens: Vec<u8> = table
            .row_off
            .windows(2)
            .flat_map(|w| ((w[1] - w[0]) as u64).to_le_bytes())
            .collect();
        self.put(&lens)?;
        for part in table.cols.chunks(1 << 14) {
            let buf: Vec<u8> = part.iter().flat_map(|x| x.to_le_bytes()).collect();
            self.put(&buf)?;
        }
        for v in [&table.fwd, &table.rev] {
            for part in v.chunks(1 << 14) {
                let buf: Vec<u8> = part.iter().flat_map(|x| x.to_le_bytes()).collect();
                self.put(&buf)?;
            }
        }
        for v in [
            &table.null_fwd,
            &table.other_rev,
            &table.null_rev,
            &table.other_fwd,
        ] {
            self.f64s(v)?;
        }
        Ok(())
    }

    /// Appends the CRC; the file is complete but not yet in place (see
    /// [`ldd_io::AtomicFile`]).
    pub fn finish(mut self) -> Result<ldd_io::AtomicFile> {
        let crc = self.crc.sum();
        self.inner
            .write_all(&crc.to_le_bytes())
            .map_err(|e| AlignError::io(&self.path, e))?;
        Ok(self.inner)
    }
}

/// Reads the fields of a model file whose header and CRC were checked by [`open`].
pub(crate) struct Reader<'a> {
    pub bytes: &'a [u8],
    pub pos: usize,
}

/// Whether the file at `path` starts as an ldd-align model file does (its magic header):
/// what `--save-align-model` may replace.
pub fn is_model_file(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    std::fs::File::open(path).is_ok_and(|mut f| f.read_exact(&mut head).is_ok() && &head == MAGIC)
}

/// Checks the magic header and the CRC of a model file's bytes: its version and a reader
/// after the version. Errors are the reason, for [`AlignError::ModelFormat`].
pub(crate) fn open(bytes: &[u8]) -> std::result::Result<(u32, Reader<'_>), String> {
    if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not an ldd-align model (bad magic header)".into());
    }
    let mut r = Reader {
        bytes: &bytes[..bytes.len() - 4],
        pos: MAGIC.len(),
    };
    let version = r.u32()?;
    let mut crc = flate2::Crc::new();
    crc.update(r.bytes);
    let mut stored = [0u8; 4];
    stored.copy_from_slice(&bytes[bytes.len() - 4..]);
    // An unknown version is reported as such, before its checksum is judged.
    if (1..=HMM_VERSION).contains(&version) && crc.sum() != u32::from_le_bytes(stored) {
        return Err("checksum mismatch (file truncated or corrupt)".into());
    }
    Ok((version, r))
}

impl<'a> Reader<'a> {
    /// The next `len` bytes.
    pub fn take(&mut self, len: usize) -> std::result::Result<&'a [u8], String> {
        let end = self
            .pos
            .checked_add(len)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| "unexpected end of file (truncated)".to_string())?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    /// A `u32`.
    pub fn u32(&mut self) -> std::result::Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A `u64`.
    pub fn u64(&mut self) -> std::result::Result<u64, String> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(a))
    }

    /// An `f64`.
    pub fn f64(&mut self) -> std::result::Result<f64, String> {
        Ok(f64::from_bits(self.u64()?))
    }

    /// A count, checked against the bytes left (each counted item takes at least 4 bytes).
    pub fn len(&mut self) -> std::result::Result<usize, String> {
        let n = self.u64()?;
        if n > (self.bytes.len() - self.pos) as u64 / 4 {
            return Err(format!(
                "count {n} exceeds the file size (truncated or corrupt)"
            ));
        }
        Ok(n as usize)
    }

    /// A string written by [`Writer::str`]; `what` names it in errors.
    pub fn str(&mut self, what: &str) -> std::result::Result<String, String> {
        let n = self.u32()? as usize;
        std::str::from_utf8(self.take(n)?)
            .map(str::to_string)
            .map_err(|_| format!("{what} is not UTF-8"))
    }

    /// Side labels written by [`Writer::labels`].
    pub fn labels(&mut self) -> std::result::Result<Labels, String> {
        Ok(Labels {
            source: self.str("label")?,
            target: self.str("label")?,
        })
    }

    /// A vocabulary written by [`Writer::vocab`]; a repeated word is an error.
    pub fn vocab(&mut self) -> std::result::Result<Vocab, String> {
        let n = self.len()?;
        let mut v = Vocab::new();
        for _ in 0..n {
            let w = self.str("vocabulary word")?;
            let before = v.len();
            v.intern(&w);
            if v.len() == before {
                return Err(format!("duplicate vocabulary word {w:?}"));
            }
        }
        Ok(v)
    }

    /// A table written by [`Writer::columns`], checked: one column per generated word,
    /// conditioning ids ascending and at most `conds` (the null word), probabilities finite
    /// and non-negative.
    pub fn columns(&mut self, gens: usize, conds: usize) -> std::result::Result<Columns, String> {
        let n_cols = self.len()?;
        if n_cols != gens {
            return Err(format!("{n_cols} columns for {gens} generated words"));
        }
        let mut c = Columns {
            col_off: Vec::with_capacity(n_cols + 1),
            ..Columns::default()
        };
        c.col_off.push(0);
        for _ in 0..n_cols {
            let n = self.len()?;
            let mut last: Option<u32> = None;
            for _ in 0..n {
                let e = self.u32()?;
                let p = self.f64()?;
                if e as usize > conds || last.is_some_and(|l| l >= e) {
                    return Err(format!("bad conditioning-word id {e}"));
                }
                if !(p.is_finite() && p >= 0.0) {
                    return Err(format!("bad probability {p}"));
                }
                last = Some(e);
                c.conds.push(e);
                c.probs.push(p);
            }
            c.col_off.push(c.conds.len());
        }
        Ok(c)
    }

    /// `count` `f64`s.
    pub fn f64s(&mut self, count: usize) -> std::result::Result<Vec<f64>, String> {
        let bytes = self.take(count.checked_mul(8).ok_or("count too large")?)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
            .collect())
    }

    /// A table written by [`Writer::pair_table`] for `ns` source and `nt` target words,
    /// checked: rows that add up, target ids ascending within a row and below `nt`,
    /// probabilities finite and positive.
    pub fn pair_table(&mut self, ns: usize, nt: usize) -> std::result::Result<PairTable, String> {
        let k = self.len()?;
        let mut row_off = Vec::with_capacity(ns + 1);
        row_off.push(0usize);
        for _ in 0..ns {
            let n = usize::try_from(self.u64()?).map_err(|_| "bad row length")?;
            let end = row_off[row_off.len() - 1]
                .checked_add(n)
                .filter(|&e| e <= k)
                .ok_or("rows longer than the table")?;
            row_off.push(end);
        }
        if row_off[ns] != k {
            return Err(format!("rows of {} entries for {k}", row_off[ns]));
        }
        let bytes = self.take(k.checked_mul(4).ok_or("count too large")?)?;
        let cols: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        for w in row_off.windows(2) {
            let row = &cols[w[0]..w[1]];
            if row.iter().any(|&c| c as usize >= nt) || row.windows(2).any(|p| p[0] >= p[1]) {
                return Err("bad target word id in the table".into());
            }
        }
        let bad = || "bad probability in the table".to_string();
        let mut singles = || -> std::result::Result<Vec<f32>, String> {
            let bytes = self.take(k.checked_mul(4).ok_or("count too large")?)?;
            let v: Vec<f32> = bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            if v.iter().any(|&p| !(p.is_finite() && p > 0.0)) {
                return Err(bad());
            }
            Ok(v)
        };
        let (fwd, rev) = (singles()?, singles()?);
        let mut next = |n: usize| -> std::result::Result<Vec<f64>, String> {
            let v = self.f64s(n)?;
            if v.iter().any(|&p| !(p.is_finite() && p > 0.0)) {
                return Err(bad());
            }
            Ok(v)
        };
        let (null_fwd, other_rev) = (next(nt)?, next(nt)?);
        let (null_rev, other_fwd) = (next(ns)?, next(ns)?);
        let mut t = PairTable {
            row_off,
            cols,
            fwd,
            rev,
            null_fwd,
            null_rev,
            other_fwd,
            other_rev,
            ..PairTable::default()
        };
        t.index_rows();
        Ok(t)
    }

    /// Fails unless every byte was read.
    pub fn end(&self) -> std::result::Result<(), String> {
        if self.pos != self.bytes.len() {
            return Err("trailing bytes".into());
        }
        Ok(())
    }
}

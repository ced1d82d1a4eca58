//! The binding to UDPipe: a loaded model and its whole CoNLL-U output, through the C++ shim
//! `cxx/udpipe_conllu.cpp` (UDPipe's own `conllu` output format, so multiword tokens are
//! kept). The UDPipe library is the one `udpipe-rs` compiles and links.

use std::ffi::{c_char, c_void, CStr, CString};
use std::path::Path;
use std::ptr::NonNull;

// Links the UDPipe C++ library that udpipe-rs builds; the shim calls into it.
use udpipe_rs as _;

extern "C" {
    fn ldd_udpipe_load(path: *const c_char, error: *mut *mut c_char) -> *mut c_void;
    fn ldd_udpipe_free_model(model: *mut c_void);
    fn ldd_udpipe_parse(
        model: *const c_void,
        text: *const c_char,
        len: usize,
        sentences: *mut usize,
        out_len: *mut usize,
        error: *mut *mut c_char,
    ) -> *mut c_char;
    fn ldd_udpipe_tag(
        model: *const c_void,
        tokens: *const c_char,
        len: usize,
        parse: std::ffi::c_int,
        out_len: *mut usize,
        error: *mut *mut c_char,
    ) -> *mut c_char;
    fn ldd_udpipe_free_string(s: *mut c_char);
}

/// A loaded UDPipe 1 model (`ufal::udpipe::model`), owned; freed on drop.
pub(crate) struct Model(NonNull<c_void>);

// SAFETY: the model is immutable after loading and `parse` reaches only its `const` methods
// with per-call tokenizer and output objects (README.md, "Is a UDPipe model safe to share
// across threads?"); it may be moved to and used from any thread.
unsafe impl Send for Model {}
// SAFETY: as above.
unsafe impl Sync for Model {}

/// UDPipe's CoNLL-U for one text.
pub(crate) struct Conllu {
    /// Every sentence's block (comments, multiword-token lines, words), each ended by a
    /// blank line.
    pub text: String,
    /// How many sentences the tokenizer found.
    pub sentences: usize,
}

/// Takes ownership of a string the shim returned (null: `None`).
///
/// SAFETY: `error_ptr` is null or a NUL-terminated string from the shim, not yet freed.
unsafe fn take_error(error_ptr: *mut c_char) -> Option<String> {
    if error_ptr.is_null() {
        return None;
    }
    // SAFETY: see the function's contract.
    let s = unsafe { CStr::from_ptr(error_ptr) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: allocated by the shim with malloc, freed once here.
    unsafe { ldd_udpipe_free_string(error_ptr) };
    Some(s)
}

/// Takes ownership of a result the shim returned: its text, or the error it set.
///
/// SAFETY: `out` is null or a string of `len` bytes from the shim, not yet freed; `error`
/// is null or a shim error string, not yet freed.
unsafe fn take_output(out: *mut c_char, len: usize, error: *mut c_char) -> Result<String, String> {
    // SAFETY: see the function's contract.
    let message = unsafe { take_error(error) };
    if out.is_null() {
        return Err(message.unwrap_or_else(|| "UDPipe failed (out of memory?)".into()));
    }
    // SAFETY: the shim returned `len` initialised bytes at `out` (plus a NUL).
    let bytes = unsafe { std::slice::from_raw_parts(out.cast::<u8>(), len) };
    let text = String::from_utf8_lossy(bytes).into_owned();
    // SAFETY: allocated by the shim, freed once here.
    unsafe { ldd_udpipe_free_string(out) };
    Ok(text)
}

impl Model {
    /// Loads the model file at `path`. The caller checks the file header first: some
    /// non-model files make UDPipe's loader read garbage lengths.
    pub fn load(path: &Path) -> Result<Self, String> {
        use std::os::unix::ffi::OsStrExt;
        let c_path = CString::new(path.as_os_str().as_bytes())
            .map_err(|_| "the path contains a NUL byte".to_string())?;
        let mut error = std::ptr::null_mut();
        // SAFETY: `c_path` is a valid C string; `error` is a valid out pointer.
        let m = unsafe { ldd_udpipe_load(c_path.as_ptr(), &mut error) };
        // SAFETY: `error` is null or a shim string.
        let message = unsafe { take_error(error) };
        match NonNull::new(m) {
            Some(m) => Ok(Self(m)),
            None => Err(message.unwrap_or_else(|| "UDPipe cannot load it".into())),
        }
    }

    /// Tokenizes, tags and parses `text` with the model's default options.
    pub fn parse(&self, text: &str) -> Result<Conllu, String> {
        let (mut sentences, mut len, mut error) = (0usize, 0usize, std::ptr::null_mut());
        // SAFETY: the model pointer is live (owned by `self`); `text` is valid for `len`
        // bytes; the out pointers are valid.
        let out = unsafe {
            ldd_udpipe_parse(
                self.0.as_ptr(),
                text.as_ptr().cast(),
                text.len(),
                &mut sentences,
                &mut len,
                &mut error,
            )
        };
        // SAFETY: as `take_output` requires, straight from the shim.
        let text = unsafe { take_output(out, len, error) }?;
        Ok(Conllu { text, sentences })
    }
}

impl Model {
    /// Tags `tokens` (one sentence, already tokenized; none may contain a line break or a
    /// tab) with the model's default tagger and, with `parse`, its default parser, and
    /// returns their analyses, in order (without the parser, every head is 0 and every
    /// relation empty).
    pub fn tag(&self, tokens: &[&str], parse: bool) -> Result<Vec<crate::Tag>, String> {
        if tokens.is_empty() {
            return Ok(Vec::new());
        }
        let text = tokens.join("\n");
        let (mut len, mut error) = (0usize, std::ptr::null_mut());
        // SAFETY: the model pointer is live (owned by `self`); `text` is valid for its
        // length; the out pointers are valid.
        let out = unsafe {
            ldd_udpipe_tag(
                self.0.as_ptr(),
                text.as_ptr().cast(),
                text.len(),
                std::ffi::c_int::from(parse),
                &mut len,
                &mut error,
            )
        };
        // SAFETY: as `take_output` requires, straight from the shim.
        let text = unsafe { take_output(out, len, error) }?;
        let tags = text
            .split('\n')
            .map(analysis)
            .collect::<Result<Vec<_>, String>>()?;
        if tags.len() != tokens.len() {
            return Err(format!(
                "UDPipe gave {} tags for {} tokens",
                tags.len(),
                tokens.len()
            ));
        }
        if let Some(t) = tags.iter().find(|t| t.head as usize > tags.len()) {
            return Err(format!(
                "UDPipe gave head {} in a sentence of {} tokens",
                t.head,
                tags.len()
            ));
        }
        Ok(tags)
    }
}

/// One line of the shim's analyses: `lemma TAB upos TAB xpos TAB feats TAB head TAB deprel`.
fn analysis(line: &str) -> Result<crate::Tag, String> {
    let f: Vec<&str> = line.split('\t').collect();
    let [lemma, upos, xpos, feats, head, deprel] = f[..] else {
        return Err(format!("UDPipe gave a malformed tag line `{line}`"));
    };
    let head = head
        .parse::<u32>()
        .map_err(|_| format!("UDPipe gave a malformed head in `{line}`"))?;
    Ok(crate::Tag {
        lemma: lemma.to_string(),
        upos: upos.to_string(),
        xpos: xpos.to_string(),
        feats: feats.to_string(),
        head,
        deprel: deprel.to_string(),
    })
}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `ldd_udpipe_load` and is freed only here.
        unsafe { ldd_udpipe_free_model(self.0.as_ptr()) }
    }
}

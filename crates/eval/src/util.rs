//! Python-compatible string helpers and sorted-multiset n-gram matching.

/// `true` for exactly the characters for which Python 3's `str.isspace()` is true; these
/// are the separators of `str.split()` and what `str.rstrip()` removes. (Differs from
/// [`char::is_whitespace`]: includes U+001C–U+001F, excludes U+200E/U+200F.)
pub(crate) fn is_py_space(character: char) -> bool {
    matches!(
        character,
        '\t'..='\r'
            | '\u{1c}'..='\u{20}'
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// Python's `text.split()` (no argument).
pub(crate) fn py_split(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_py_space).filter(|t| !t.is_empty())
}

/// Python's `text.rstrip()` (no argument).
pub(crate) fn py_rstrip(text: &str) -> &str {
    text.trim_end_matches(is_py_space)
}

/// Sorts both n-gram key lists and returns the clipped match count
/// `sum over distinct keys k of min(count_hyp(k), count_ref(k))`.
pub(crate) fn clipped_matches<K: Ord>(hyp: &mut [K], reference: &mut [K]) -> u64 {
    reference.sort_unstable();
    clipped_matches_sorted(hyp, &[reference])
}

/// The clipped match count against several references (sacreBLEU's BLEU): `sum over
/// distinct hypothesis keys k of min(count_hyp(k), max over references of count_ref(k))`.
/// Sorts `hyp`; every reference list must be sorted.
pub(crate) fn clipped_matches_sorted<K: Ord, R: AsRef<[K]>>(hyp: &mut [K], refs: &[R]) -> u64 {
    hyp.sort_unstable();
    let mut at = vec![0usize; refs.len()];
    let (mut i, mut matches) = (0usize, 0u64);
    while i < hyp.len() {
        let start = i;
        while i < hyp.len() && hyp[i] == hyp[start] {
            i += 1;
        }
        let key = &hyp[start];
        let mut most = 0u64;
        for (r, j) in refs.iter().zip(at.iter_mut()) {
            let r = r.as_ref();
            while *j < r.len() && r[*j] < *key {
                *j += 1;
            }
            let mut c = 0u64;
            while *j < r.len() && r[*j] == *key {
                c += 1;
                *j += 1;
            }
            most = most.max(c);
        }
        matches += ((i - start) as u64).min(most);
    }
    matches
}

/// Spaces every character of `text` for which `is_spaced` holds
/// (`re.sub(r"(X)", r" \1 ", text)`).
pub(crate) fn pad(text: &str, is_spaced: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_spaced(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// `line` lowercased when `lowercase` holds, else as it is.
pub(crate) fn lowered(line: &str, lowercase: bool) -> std::borrow::Cow<'_, str> {
    if lowercase {
        std::borrow::Cow::Owned(line.to_lowercase())
    } else {
        std::borrow::Cow::Borrowed(line)
    }
}

/// `yes` or `no`, as sacreBLEU's signatures write a flag.
pub(crate) fn yes_no(flag: bool) -> &'static str {
    if flag {
        "yes"
    } else {
        "no"
    }
}

/// `lc` or `mixed`, as sacreBLEU's signatures write whether text is lowercased.
pub(crate) fn case(lowercased: bool) -> &'static str {
    if lowercased {
        "lc"
    } else {
        "mixed"
    }
}

/// Python's `text.strip()` (no argument).
pub(crate) fn py_strip(text: &str) -> &str {
    text.trim_matches(is_py_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn py_space_set_matches_python_isspace() {
        // [c for c in range(0x110000) if chr(c).isspace()] in CPython 3.11
        let expected: Vec<u32> = vec![
            0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000,
            0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028,
            0x2029, 0x202f, 0x205f, 0x3000,
        ];
        let got: Vec<u32> = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_py_space(c))
            .map(|c| c as u32)
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn clipped_matches_counts_min() {
        let mut h = vec![1, 1, 1, 2, 5];
        let mut r = vec![1, 1, 2, 2, 3];
        assert_eq!(clipped_matches(&mut h, &mut r), 3);
        assert_eq!(clipped_matches::<u32>(&mut [], &mut [1]), 0);
        let mut h = vec![1, 1, 1, 2, 5];
        let refs = [vec![1, 2, 2], vec![1, 1, 3]];
        assert_eq!(clipped_matches_sorted(&mut h, &refs), 3);
    }
}

//! The marked format: a set line's tokens with the words of each qualifying pair tagged.

/// How `.marked` files mark words (recorded in the manifest).
pub const MARKER: &str = "tokens joined by spaces; in pair k (numbered from 1 in each line) \
the dependent is wrapped as <dk>form</dk> and its head as <hk>form</hk>";

/// Renders tokens with marks. `tokens` are `(form, first word id, last word id)`;
/// `marks[k]` lists, for word id `k + 1`, the tags it carries (e.g. `d1`, `h1`): a token is
/// written as `<d1>form</d1>`, tags nested in list order. A multiword token carries the
/// tags of all its words. Tokens are joined by single spaces.
pub fn mark(tokens: &[(String, u32, u32)], marks: &[Vec<String>]) -> String {
    let mut s = String::new();
    for (i, (form, first, last)) in tokens.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let tags: Vec<&String> = (*first..=*last)
            .filter_map(|id| marks.get(id as usize - 1))
            .flatten()
            .collect();
        for t in &tags {
            s.push('<');
            s.push_str(t);
            s.push('>');
        }
        s.push_str(form);
        for t in tags.iter().rev() {
            s.push_str("</");
            s.push_str(t);
            s.push('>');
        }
    }
    s
}

/// Renders plain tokens with one of them (index `at`) wrapped in `<tag>…</tag>`.
pub fn mark_one(tokens: &[&str], at: usize, tag: &str) -> String {
    tokens
        .iter()
        .enumerate()
        .map(|(j, w)| {
            if j == at {
                format!("<{tag}>{w}</{tag}>")
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

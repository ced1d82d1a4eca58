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

/// Renders plain tokens with some of them wrapped in tags: `marks` lists `(index, tag)`;
/// a token with several tags nests them in list order (`<t1><t2>w</t2></t1>`).
pub fn mark_plain(tokens: &[&str], marks: &[(usize, &str)]) -> String {
    let mut s = String::new();
    for (j, w) in tokens.iter().enumerate() {
        if j > 0 {
            s.push(' ');
        }
        let tags: Vec<&str> = marks.iter().filter(|m| m.0 == j).map(|m| m.1).collect();
        for t in &tags {
            s.push('<');
            s.push_str(t);
            s.push('>');
        }
        s.push_str(w);
        for t in tags.iter().rev() {
            s.push_str("</");
            s.push_str(t);
            s.push('>');
        }
    }
    s
}

//! The marked format: a set line's tokens with the words of each qualifying pair tagged.

/// How `.marked` files mark words (recorded in the manifest).
pub const MARKER: &str = "tokens joined by spaces; in pair k (numbered from 1 in each line) \
the dependent is wrapped as <dk>form</dk> and its head as <hk>form</hk>";

/// A lexical set line marked: in pair `k` (1-based, in the order given) the dependent
/// tagged `dk` and the head `hk`. `pairs` are `(dependent, head)` word ids (1-based) of a
/// sentence of `words` words whose tokens are `tokens` (as for [`mark`]).
pub fn mark_pairs(tokens: &[(String, u32, u32)], words: usize, pairs: &[(u32, u32)]) -> String {
    let mut marks = vec![Vec::new(); words];
    for (k, &(dependent, head)) in pairs.iter().enumerate() {
        marks[dependent as usize - 1].push(format!("d{}", k + 1));
        marks[head as usize - 1].push(format!("h{}", k + 1));
    }
    mark(tokens, &marks)
}

/// A reorder set line marked on both sides: link `n` (1-based) of `links`, `(source word
/// index, target token index)` (0-based), tags the source word `sn` and the target token
/// `tn`. Returns the marked source (tokens as for [`mark`], `words` words) and target.
pub fn mark_links(
    tokens: &[(String, u32, u32)],
    words: usize,
    target: &[&str],
    links: &[(usize, usize)],
) -> (String, String) {
    let mut marks = vec![Vec::new(); words];
    for (n, &(i, _)) in links.iter().enumerate() {
        if let Some(w) = marks.get_mut(i) {
            w.push(format!("s{}", n + 1));
        }
    }
    let tags: Vec<String> = (1..=links.len()).map(|n| format!("t{n}")).collect();
    let tgt_marks: Vec<(usize, &str)> = links
        .iter()
        .zip(&tags)
        .map(|(&(_, j), t)| (j, t.as_str()))
        .collect();
    (mark(tokens, &marks), mark_plain(target, &tgt_marks))
}

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

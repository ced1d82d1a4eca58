//! Text tables for the terminal: columns sized to their widest cell, and the legend lines
//! under a table, wrapped to [`COLUMNS`].

/// The width every default table and legend of `score` keeps within (sacreBLEU's users
/// read them in a terminal).
pub const COLUMNS: usize = 100;

/// The width of `text` on a terminal, in characters (`Δ`, `±` and `…` are one each).
pub fn width(text: &str) -> usize {
    text.chars().count()
}

/// `text` cut to `max` characters by a `…` in its middle, so that names sharing a beginning
/// (`transformer-big-baseline`, `transformer-big-backtranslation`) stay apart by their ends.
pub fn cut(text: &str, max: usize) -> String {
    let n = width(text);
    if n <= max {
        return text.to_string();
    }
    let keep = max.saturating_sub(1);
    let head = keep / 2;
    let tail = keep - head;
    let mut t: String = text.chars().take(head).collect();
    t.push('…');
    t.extend(text.chars().skip(n - tail));
    t
}

/// One column: its header, whether its cells are right-aligned, and the text that
/// separates it from the column before (`"  "`, `" | "`).
#[derive(Debug, Clone)]
pub struct Col {
    /// The header cell.
    pub head: String,
    /// Right-aligned (numbers) or left-aligned (names).
    pub right: bool,
    /// Printed before the column (nothing before the first).
    pub sep: &'static str,
}

impl Col {
    /// A left-aligned column.
    pub fn left(head: &str, sep: &'static str) -> Col {
        Col {
            head: head.to_string(),
            right: false,
            sep,
        }
    }

    /// A right-aligned column.
    pub fn right(head: &str, sep: &'static str) -> Col {
        Col {
            head: head.to_string(),
            right: true,
            sep,
        }
    }
}

/// A cell: its text, and for an undefined value (`-`) why it is undefined.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// What the cell shows.
    pub text: String,
    /// Why the value is undefined (`None`: a value).
    pub why: Option<String>,
}

impl Cell {
    /// A cell with a value.
    pub fn new(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            why: None,
        }
    }

    /// An undefined value, shown as `text` (`-`, or `- ` beside columns with marks).
    pub fn dash(text: &str, why: impl Into<String>) -> Cell {
        Cell {
            text: text.to_string(),
            why: Some(why.into()),
        }
    }
}

/// A table: its columns and rows of cells, one per column.
#[derive(Debug, Clone, Default)]
pub struct Grid {
    /// The columns.
    pub cols: Vec<Col>,
    /// The rows, each with one cell per column.
    pub body: Vec<Vec<Cell>>,
}

impl Grid {
    /// Drops each group of columns (e.g. every system's `Δctl`) whose every cell is
    /// undefined: a column that says nothing. Returns whether any went.
    pub fn drop_empty(&mut self, groups: &[Vec<usize>]) -> bool {
        let mut gone: Vec<usize> = groups
            .iter()
            .filter(|g| {
                g.iter().all(|&c| {
                    self.body
                        .iter()
                        .all(|r| r.get(c).is_none_or(|v| v.why.is_some()))
                })
            })
            .flatten()
            .copied()
            .collect();
        gone.sort_unstable();
        gone.dedup();
        for &c in gone.iter().rev() {
            let sep = self.cols.remove(c).sep;
            // The first column of a group hands its separator to the column after it.
            if let Some(next) = self.cols.get_mut(c) {
                if width(sep) > width(next.sep) {
                    next.sep = sep;
                }
            }
            for r in &mut self.body {
                if c < r.len() {
                    r.remove(c);
                }
            }
        }
        !gone.is_empty()
    }

    /// Why the undefined cells of the table are undefined, each reason once.
    pub fn dashes(&self, legend: &mut Legend) {
        for why in self.body.iter().flatten().filter_map(|c| c.why.as_deref()) {
            legend.dash(why);
        }
    }

    /// Whether a header is still a column's.
    pub fn has(&self, head: &str) -> bool {
        self.cols.iter().any(|c| c.head.trim() == head)
    }

    /// The table as lines of text, trailing spaces removed.
    pub fn render(&self) -> String {
        let widths: Vec<usize> = (0..self.cols.len())
            .map(|c| {
                self.body
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(|v| width(&v.text))
                    .chain([width(&self.cols[c].head)])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &mut dyn Iterator<Item = &str>| {
            let mut s = String::new();
            for (i, ((c, w), v)) in self.cols.iter().zip(&widths).zip(cells).enumerate() {
                if i > 0 {
                    s.push_str(c.sep);
                }
                let pad = " ".repeat(w.saturating_sub(width(v)));
                if c.right {
                    s.push_str(&pad);
                    s.push_str(v);
                } else {
                    s.push_str(v);
                    s.push_str(&pad);
                }
            }
            let mut s = s.trim_end().to_string();
            s.push('\n');
            s
        };
        let mut out = line(&mut self.cols.iter().map(|c| c.head.as_str()));
        for r in &self.body {
            out.push_str(&line(&mut r.iter().map(|c| c.text.as_str())));
        }
        out
    }
}

/// The explanations under a table: each mark or column name once, in the order first met.
#[derive(Debug, Clone, Default)]
pub struct Legend {
    items: Vec<(String, String)>,
    dashes: Vec<String>,
}

impl Legend {
    /// Explains `key` (`*`, `Δctl`, `95% CI`) by `text`, unless already explained.
    pub fn add(&mut self, key: &str, text: &str) {
        if !self.items.iter().any(|(k, _)| k == key) {
            self.items.push((key.to_string(), text.to_string()));
        }
    }

    /// Notes why a cell shows `-`, unless that reason is already noted.
    pub fn dash(&mut self, why: &str) {
        if !self.dashes.iter().any(|d| d == why) {
            self.dashes.push(why.to_string());
        }
    }

    /// The legend, wrapped to [`COLUMNS`] (nothing when there is nothing to explain): the
    /// marks and columns first, then every reason for a `-`.
    pub fn render(&self) -> String {
        let mut parts: Vec<String> = self
            .items
            .iter()
            .map(|(k, t)| format!("{k}: {t}"))
            .collect();
        if !self.dashes.is_empty() {
            parts.push(format!("-: {}", self.dashes.join("; ")));
        }
        wrap(&parts.join("; "), COLUMNS, "  ")
    }
}

/// `text` wrapped at spaces into lines of at most `max` characters (a longer word stands
/// alone), the lines after the first indented by `indent`; empty for empty text.
pub fn wrap(text: &str, max: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    // A key (`-:`, `*:`) stays with the word after it.
    let mut words: Vec<String> = Vec::new();
    for w in text.split(' ').filter(|w| !w.is_empty()) {
        match words.last_mut() {
            Some(last) if last.ends_with(':') && !last.contains(' ') && width(last) <= 2 => {
                last.push(' ');
                last.push_str(w);
            }
            _ => words.push(w.to_string()),
        }
    }
    for word in &words {
        let word = word.as_str();
        let start = if out.is_empty() { "" } else { indent };
        if !line.is_empty() && width(start) + width(&line) + 1 + width(word) > max {
            out.push_str(start);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(if out.is_empty() { "" } else { indent });
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_their_widest_cell_and_empty_ones_go() {
        let mut g = Grid {
            cols: vec![
                Col::left("set", ""),
                Col::right("sys", " | "),
                Col::right("Δ", "  "),
            ],
            body: vec![
                vec![
                    Cell::new("corpus"),
                    Cell::new("12.09*"),
                    Cell::dash("-", "x"),
                ],
                vec![Cell::new("a/ge1"), Cell::new("9.9 "), Cell::dash("- ", "y")],
            ],
        };
        assert_eq!(
            g.render(),
            "set    |    sys   Δ\ncorpus | 12.09*   -\na/ge1  |   9.9   -\n"
        );
        let mut l = Legend::default();
        g.dashes(&mut l);
        assert_eq!(l.render(), "-: x; y\n");
        assert!(!g.drop_empty(&[vec![1]]));
        assert!(g.drop_empty(&[vec![2]]));
        assert_eq!(
            g.render(),
            "set    |    sys\ncorpus | 12.09*\na/ge1  |   9.9\n"
        );
    }

    #[test]
    fn legends_wrap_and_say_each_thing_once() {
        let mut l = Legend::default();
        l.add("*", "differs");
        l.add("*", "again");
        l.dash("no controls");
        l.dash("no controls");
        l.dash("empty set");
        assert_eq!(l.render(), "*: differs; -: no controls; empty set\n");
        assert_eq!(wrap("aa bb cc", 5, " "), "aa bb\n cc\n");
        assert_eq!(cut("ref-drop3", 5), "re…p3");
        assert_eq!(cut("ref-drop3", 6), "re…op3");
        assert_eq!(wrap("xx -: no controls", 6, ""), "xx\n-: no\ncontrols\n");
        assert_eq!(Legend::default().render(), "");
    }
}

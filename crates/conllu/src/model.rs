//! The data model: a compact UD sentence that borrows its fields from the CoNLL-U text.
//!
//! Words (integer ids) carry the ten CoNLL-U columns; comment lines, multiword-token
//! ranges (`3-4`) and empty nodes (`5.1`) are kept verbatim as [`Extra`] lines at
//! their position, so writing a sentence back reproduces it line for line. Only
//! words count for dependency distance: ranges and empty nodes are not words.

/// One syntactic word (a CoNLL-U line with an integer id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word<'a> {
    /// FORM column.
    pub form: &'a str,
    /// LEMMA column.
    pub lemma: &'a str,
    /// UPOS column.
    pub upos: &'a str,
    /// XPOS column.
    pub xpos: &'a str,
    /// FEATS column (`_` or `Key=Value|...`).
    pub feats: &'a str,
    /// HEAD column: 0 for the root, `None` if the column is `_`.
    pub head: Option<u32>,
    /// DEPREL column, with subtype (`obl:tmod`).
    pub deprel: &'a str,
    /// DEPS column.
    pub deps: &'a str,
    /// MISC column.
    pub misc: &'a str,
}

impl Word<'_> {
    /// Whether FEATS contains the exact `Key=Value` item.
    pub fn has_feat(&self, key_value: &str) -> bool {
        // Fast path: a substring search rules out most words before splitting.
        self.feats.contains(key_value) && self.feats.split('|').any(|f| f == key_value)
    }

    /// Whether MISC contains `SpaceAfter=No`.
    pub fn no_space_after(&self) -> bool {
        self.misc != "_" && self.misc.split('|').any(|f| f == "SpaceAfter=No")
    }
}

/// The values of feature `name` in a FEATS string (`Case=Acc,Dat|Person=3` gives `Acc`
/// and `Dat` for `Case`); none when it is absent.
pub fn feature<'a>(feats: &'a str, name: &str) -> Vec<&'a str> {
    feats
        .split('|')
        .filter_map(|f| f.split_once('='))
        .filter(|(k, _)| *k == name)
        .flat_map(|(_, v)| v.split(','))
        .collect()
}

/// A non-word line kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extra<'a> {
    /// A comment line, including its leading `#`.
    Comment(&'a str),
    /// A multiword token `first-last` with its surface form; `line` is the whole line.
    Multiword {
        /// First word id covered.
        first: u32,
        /// Last word id covered.
        last: u32,
        /// Surface form.
        form: &'a str,
        /// The whole line.
        line: &'a str,
    },
    /// An empty node (`n.k`) of the enhanced graph; `line` is the whole line.
    Empty(&'a str),
}

/// A UD sentence: words plus the extra lines at their positions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sentence<'a> {
    /// Words in id order; word id `i` is `words[i - 1]`.
    pub words: Vec<Word<'a>>,
    /// Non-word lines, each with the number of words that precede it.
    pub extras: Vec<(u32, Extra<'a>)>,
    /// Its `# sent_id` comment was glued to its first word line, with no line break, and
    /// read as the two lines it stands for ([`crate::reader::parse_block`]).
    pub glued: bool,
}

/// Why a sentence is not a tree ([`Sentence::check_tree`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeError {
    /// The word (1-based id) where the problem shows, if there is one.
    pub word: Option<u32>,
    /// What is wrong.
    pub message: String,
}

impl TreeError {
    /// The error `message` at word `word`.
    fn at(word: u32, message: String) -> Self {
        TreeError {
            word: Some(word),
            message,
        }
    }
}

/// A surface token: a plain word or a multiword token covering several words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// Surface form.
    pub form: &'a str,
    /// First word id covered (1-based).
    pub first: u32,
    /// Last word id covered (equal to `first` for a plain word).
    pub last: u32,
}

impl<'a> Sentence<'a> {
    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the sentence has no words (e.g. an empty corpus line).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The word with 1-based id `id`.
    pub fn word(&self, id: u32) -> Option<&Word<'a>> {
        self.words.get((id as usize).checked_sub(1)?)
    }

    /// The value of a `# key = value` comment, if present.
    pub fn comment(&self, key: &str) -> Option<&'a str> {
        self.extras.iter().find_map(|(_, e)| match e {
            Extra::Comment(c) => {
                let rest = c.strip_prefix('#')?.trim_start().strip_prefix(key)?;
                rest.trim_start().strip_prefix('=').map(str::trim)
            }
            _ => None,
        })
    }

    /// Surface tokens in order: multiword tokens replace the words they cover.
    pub fn tokens(&self) -> Vec<Token<'a>> {
        let mut ranges = self.extras.iter().filter_map(|(_, e)| match e {
            Extra::Multiword {
                first, last, form, ..
            } => Some((*first, *last, *form)),
            _ => None,
        });
        let mut next_range = ranges.next();
        let mut out = Vec::with_capacity(self.words.len());
        let mut id = 1u32;
        while id as usize <= self.words.len() {
            if let Some((first, last, form)) = next_range {
                if first == id && last >= first {
                    out.push(Token { form, first, last });
                    id = last + 1;
                    next_range = ranges.next();
                    continue;
                }
                if first < id {
                    next_range = ranges.next();
                    continue;
                }
            }
            out.push(Token {
                form: self.words[id as usize - 1].form,
                first: id,
                last: id,
            });
            id += 1;
        }
        out
    }

    /// Surface tokens with owned forms, `(form, first word id, last word id)`, for
    /// marking after the sentence's text is gone.
    pub fn owned_tokens(&self) -> Vec<(String, u32, u32)> {
        self.tokens()
            .into_iter()
            .map(|t| (t.form.to_string(), t.first, t.last))
            .collect()
    }

    /// Checks that the words form one tree: every HEAD within the sentence, no word its own
    /// head, exactly one root (HEAD 0), no cycle, and multiword-token ranges in order, not
    /// overlapping and within the sentence. A sentence without words, or whose HEAD columns
    /// are all `_` (not parsed), passes.
    pub fn check_tree(&self) -> Result<(), TreeError> {
        self.check_multiwords()?;
        let unparsed = self.words.iter().filter(|w| w.head.is_none()).count();
        if unparsed == self.words.len() {
            return Ok(());
        }
        if let Some(i) = self.words.iter().position(|w| w.head.is_none()) {
            return Err(TreeError::at(
                i as u32 + 1,
                format!("word {} has HEAD `_` but other words have heads", i + 1),
            ));
        }
        self.check_root()?;
        self.check_acyclic()
    }

    /// Multiword-token ranges in order, not overlapping, within the sentence.
    fn check_multiwords(&self) -> Result<(), TreeError> {
        let n = self.words.len() as u32;
        let mut last_range_end = 0u32;
        for (_, e) in &self.extras {
            if let Extra::Multiword { first, last, .. } = e {
                if *first <= last_range_end {
                    return Err(TreeError::at(
                        *first,
                        format!("multiword token {first}-{last} overlaps the previous one"),
                    ));
                }
                if *last > n {
                    return Err(TreeError::at(
                        *first,
                        format!(
                            "multiword token {first}-{last} ends beyond the sentence's {n} words"
                        ),
                    ));
                }
                last_range_end = *last;
            }
        }
        Ok(())
    }

    /// Every HEAD (all given) within the sentence and not the word itself; exactly one root.
    fn check_root(&self) -> Result<(), TreeError> {
        let n = self.words.len() as u32;
        let mut roots = Vec::new();
        for (i, w) in self.words.iter().enumerate() {
            let id = i as u32 + 1;
            match w.head {
                Some(0) => roots.push(id),
                Some(h) if h > n => {
                    return Err(TreeError::at(
                        id,
                        format!("HEAD {h} is beyond the sentence's {n} words"),
                    ))
                }
                Some(h) if h == id => {
                    return Err(TreeError::at(id, format!("word {id} is its own head")))
                }
                _ => {}
            }
        }
        match roots.len() {
            1 => Ok(()),
            0 => Err(TreeError {
                word: None,
                message: "the sentence has no root (no word with HEAD 0)".into(),
            }),
            k => {
                let ids: Vec<String> = roots.iter().take(5).map(u32::to_string).collect();
                Err(TreeError::at(
                    roots[1],
                    format!("the sentence has {k} roots (words {})", ids.join(", ")),
                ))
            }
        }
    }

    /// Every word reaches the root by its heads (all given, within the sentence): no cycle.
    fn check_acyclic(&self) -> Result<(), TreeError> {
        // 0 = unvisited, 1 = on the current path, 2 = reaches the root.
        let mut state = vec![0u8; self.words.len() + 1];
        state[0] = 2;
        for start in 1..=self.words.len() as u32 {
            let mut id = start;
            while state[id as usize] == 0 {
                state[id as usize] = 1;
                id = self.words[id as usize - 1].head.unwrap_or(0);
            }
            if state[id as usize] == 1 {
                return Err(TreeError::at(
                    id,
                    format!("HEAD cycle through word {id}: the words do not form a tree"),
                ));
            }
            let mut id = start;
            while state[id as usize] == 1 {
                state[id as usize] = 2;
                id = self.words[id as usize - 1].head.unwrap_or(0);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sentence of `heads.len()` words with these heads (`None`: `_`).
    fn sentence(heads: &[Option<u32>]) -> Sentence<'static> {
        Sentence {
            words: heads
                .iter()
                .map(|&head| Word {
                    form: "w",
                    lemma: "_",
                    upos: "X",
                    xpos: "_",
                    feats: "_",
                    head,
                    deprel: "dep",
                    deps: "_",
                    misc: "_",
                })
                .collect(),
            ..Sentence::default()
        }
    }

    fn error(heads: &[Option<u32>]) -> (Option<u32>, String) {
        let e = sentence(heads).check_tree().expect_err("not a tree");
        (e.word, e.message)
    }

    #[test]
    fn trees_pass_and_each_fault_is_named_at_its_word() {
        assert_eq!(sentence(&[Some(2), Some(0), Some(2)]).check_tree(), Ok(()));
        assert_eq!(sentence(&[None, None]).check_tree(), Ok(()));
        assert_eq!(sentence(&[]).check_tree(), Ok(()));
        let cases = [
            (
                vec![Some(0), None],
                Some(2),
                "word 2 has HEAD `_` but other words have heads",
            ),
            (
                vec![Some(0), Some(3)],
                Some(2),
                "HEAD 3 is beyond the sentence's 2 words",
            ),
            (vec![Some(0), Some(2)], Some(2), "word 2 is its own head"),
            (
                vec![Some(2), Some(1)],
                None,
                "the sentence has no root (no word with HEAD 0)",
            ),
            (
                vec![Some(0), Some(0), Some(0)],
                Some(2),
                "the sentence has 3 roots (words 1, 2, 3)",
            ),
            (
                vec![Some(0), Some(3), Some(4), Some(2)],
                Some(2),
                "HEAD cycle through word 2: the words do not form a tree",
            ),
        ];
        for (heads, word, message) in cases {
            assert_eq!(error(&heads), (word, message.to_owned()), "{heads:?}");
        }
    }

    #[test]
    fn multiword_ranges_must_follow_each_other_within_the_sentence() {
        let mut s = sentence(&[Some(0), Some(1), Some(1)]);
        let mw = |first, last| Extra::Multiword {
            first,
            last,
            form: "zum",
            line: "",
        };
        s.extras = vec![(0, mw(1, 2)), (2, mw(2, 3))];
        let e = s.check_tree().expect_err("overlap");
        assert_eq!(
            e,
            TreeError::at(2, "multiword token 2-3 overlaps the previous one".into())
        );
        s.extras = vec![(2, mw(3, 4))];
        let e = s.check_tree().expect_err("beyond");
        assert_eq!(
            e.message,
            "multiword token 3-4 ends beyond the sentence's 3 words"
        );
        s.extras = vec![(0, mw(1, 2))];
        assert_eq!(s.check_tree(), Ok(()));
    }
}

//! The relation, checked in the parses (`locus:4`): where the dependent of a locus is in
//! the reference (its checked rendering, or the token attached to the head's rendering),
//! and whether an output whose verb is the reference's has the dependent in the relation
//! and the place its language requires ([`super::relation`], `config/relations.toml`).
//!
//! - A **pronoun** (a reflexive): the output has the reference's pronoun at the locus — the
//!   token the aligner links to the dependent, a pronoun of the verb's clause, or the
//!   reference pronoun's occurrence — `intact`; another pronoun there (another person or
//!   case) `person`; none `dropped`.
//! - A **particle**: found as the reference's particle word at the locus (linked to the
//!   dependent, attached to the verb, in the verb's clause, or at its occurrence), or
//!   written together with the verb (`anmeldete`). Missing: `dropped`. German and Dutch
//!   (`clause_final`): a separated particle must follow its verb and have no more of the
//!   verb's clause after it than the reference's has — else `misplaced` (also when the verb
//!   is non-finite or ends a subordinate clause, whose particle is written with it); a
//!   particle written with a finite verb of a main clause is `glued`. English
//!   (`after_head`): the particle follows its verb with nothing between them but what the
//!   reference has, or the verb's object (`between`) — else `misplaced`; written with the
//!   verb, `glued`.

use super::relation::{Placement, Relation};
use super::rule::{Evidence, Side, Word};
use crate::pipeline::detect::rules::Condition;

/// What the check of a locus's relation found (or, for a reordering locus, its order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The output has the dependent in the reference's relation and place.
    Intact,
    /// The output's verb is the reference's, the dependent is missing.
    Dropped,
    /// The particle stands where its language does not put it.
    Misplaced,
    /// The particle is written together with a verb that separates it.
    Glued,
    /// Another pronoun stands for the reference's (another person or case).
    Person,
    /// Not checked: no parse of the target language.
    Unparsed,
    /// A reordering locus in the reference's order.
    ReferenceOrder,
    /// A reordering locus in the source's order.
    SourceOrder,
}

impl Check {
    /// Its name in `scores.loci.tsv`'s evidence.
    pub fn name(self) -> &'static str {
        match self {
            Check::Intact => "relation:intact",
            Check::Dropped => "relation:dropped",
            Check::Misplaced => "relation:misplaced",
            Check::Glued => "relation:glued",
            Check::Person => "relation:person",
            Check::Unparsed => "relation:unparsed",
            Check::ReferenceOrder => "order:reference",
            Check::SourceOrder => "order:source",
        }
    }

    /// Whether it is evidence of an error in the dependency.
    pub fn broken(self) -> bool {
        matches!(
            self,
            Check::Dropped | Check::Misplaced | Check::Glued | Check::Person | Check::SourceOrder
        )
    }
}

/// Whether token `token` of `side` meets one of `conditions`.
fn meets(side: &Side, token: usize, conditions: &[Condition]) -> bool {
    let capitalized = token > 0
        && side
            .tokens
            .get(token)
            .and_then(|t| t.chars().next())
            .is_some_and(char::is_uppercase);
    side.word(token)
        .is_some_and(|w| conditions.iter().any(|c| c.matches(&w, capitalized)))
}

/// The tokens whose head is `token`.
fn children(side: &Side, token: usize) -> Vec<usize> {
    (0..side.tokens.len())
        .filter(|&t| side.head_of(t) == Some(token))
        .collect()
}

/// Whether `token` is in the clause of `verb`: its heads lead to the verb through no
/// relation of `clause` (a token of another clause, or punctuation, is not).
fn in_clause(side: &Side, token: usize, verb: usize, clause: &[String]) -> bool {
    let mut t = token;
    for _ in 0..side.tokens.len() {
        if t == verb {
            return token != verb;
        }
        let Some(a) = side.analysis(t) else {
            return false;
        };
        let rel = a.deprel.split(':').next().unwrap_or("");
        if clause.iter().any(|c| c == rel || *c == a.deprel) {
            return false;
        }
        match side.head_of(t) {
            Some(h) => t = h,
            None => return false,
        }
    }
    false
}

/// The dependent's rendering in the reference: the checked tokens `linked` that meet the
/// relation's `rendering` (a particle's: attached to a token of the head's rendering `head`
/// too) or are a token of the head's rendering (a particle written with its verb), else a
/// token attached to a token of `head` that meets its `attached`. Without a parse, `linked`
/// as it is.
pub fn reference_dependent(
    relation: &Relation,
    reference: &Side,
    linked: &[usize],
    head: &[usize],
) -> Vec<usize> {
    if reference.analyses.is_none() {
        return linked.to_vec();
    }
    let kept: Vec<usize> = linked
        .iter()
        .copied()
        .filter(|&t| {
            let attached = relation.placement.is_none()
                || head.is_empty()
                || reference.head_of(t).is_some_and(|h| head.contains(&h));
            head.contains(&t)
                || (attached
                    && (relation.rendering.is_empty() || meets(reference, t, &relation.rendering)))
        })
        .collect();
    if !kept.is_empty() {
        return kept;
    }
    // A particle written with the verb that renders the head (`aufzugeben`).
    if let Some(&t) = head.iter().find(|&&h| prefixed(relation, reference, h)) {
        return vec![t];
    }
    let mut found: Vec<usize> = head
        .iter()
        .flat_map(|&h| children(reference, h))
        .filter(|&c| !head.contains(&c) && meets(reference, c, &relation.attached))
        .collect();
    found.sort_unstable();
    found.dedup();
    found.truncate(1);
    if found.is_empty() {
        found.extend(
            head.iter()
                .find_map(|&h| nearest_after(relation, reference, h)),
        );
    }
    found
}

/// Punctuation that ends a clause: the end of the stretch [`nearest_after`] searches.
const CLAUSE_ENDS: [&str; 6] = [",", ";", ":", ".", "!", "?"];

/// The first token after `verb` that meets the relation's `nearest`, else the last one
/// before the next punctuation that ends a clause (or the next verb) if it meets its
/// `closing`.
fn nearest_after(relation: &Relation, side: &Side, verb: usize) -> Option<usize> {
    let end = (verb + 1..side.tokens.len())
        .find(|&t| {
            CLAUSE_ENDS.contains(&side.tokens[t].as_str())
                || side.analysis(t).is_some_and(|a| a.upos == "VERB")
        })
        .unwrap_or(side.tokens.len());
    let stretch = verb + 1..end;
    stretch
        .clone()
        .find(|&t| meets(side, t, &relation.nearest))
        .or_else(|| {
            let last = stretch
                .rev()
                .find(|&t| side.tokens[t].chars().any(char::is_alphanumeric))?;
            meets(side, last, &relation.closing).then_some(last)
        })
}

/// Whether token `token` of `side` begins with one of the relation's particles written
/// together with a verb (with at least three more letters: `aufgeben`, `angespült`).
fn prefixed(relation: &Relation, side: &Side, token: usize) -> bool {
    let Some(form) = side.lower(token) else {
        return false;
    };
    relation.prefixes.iter().any(|p| {
        form.strip_prefix(p.as_str())
            .is_some_and(|rest| rest.chars().count() >= 3)
    })
}

/// The head's rendering in the reference found through its dependent's: the token the
/// parse attaches the dependent's rendering `dep` to, when it can render the head (a word
/// of universal part of speech `head_pos`, [`super::reference::pos_fits`]) — `took` of
/// `took place` for *fand … statt*.
pub fn reference_head(reference: &Side, dep: &[usize], head_pos: &str) -> Vec<usize> {
    let Some(&d) = dep.first() else {
        return Vec::new();
    };
    match reference.head_of(d) {
        Some(h) if !dep.contains(&h) => {
            let pos = reference.analysis(h).map_or("", |a| a.upos.as_str());
            let fits = pos == "VERB" && super::reference::pos_fits(head_pos, pos, false);
            if fits {
                vec![h]
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

/// The verb among `tokens`: the first the parse calls a verb or auxiliary, else the first.
fn verb_of(side: &Side, tokens: &[usize]) -> Option<usize> {
    tokens
        .iter()
        .copied()
        .find(|&t| {
            side.analysis(t)
                .is_some_and(|a| a.upos == "VERB" || a.upos == "AUX")
        })
        .or_else(|| tokens.first().copied())
}

/// What a locus check needs: the relation, both sides, the reference's renderings of the
/// head and the dependent, the output's rendering of the head, and the two source words.
pub struct Locus<'a> {
    /// The phenomenon's relation in the target language.
    pub relation: &'a Relation,
    /// The reference, aligned and parsed.
    pub reference: &'a Side,
    /// The output, aligned and parsed.
    pub output: &'a Side,
    /// The head's checked reference tokens.
    pub ref_head: &'a [usize],
    /// The dependent's reference tokens ([`reference_dependent`]; not empty).
    pub ref_dep: &'a [usize],
    /// The head as the output renders it.
    pub head: &'a Word,
    /// The source words (0-based) of the dependent and of the head.
    pub source: (usize, usize),
    /// The target language (whose endings make a variant of the verb).
    pub target: &'a str,
}

/// Whether the output renders the head by the reference's verb: the same word, lemma,
/// variant, or present.
fn verb_kept(head: &Word) -> bool {
    matches!(
        head.evidence,
        Evidence::Same | Evidence::Lemma | Evidence::Variant | Evidence::Present
    )
}

/// The relation of `locus` checked on the output (`None`: not checked — the output's verb
/// is not the reference's, or the reference writes the particle with its verb).
pub fn check(locus: &Locus<'_>) -> Option<Check> {
    let (reference, output) = (locus.reference, locus.output);
    if locus.ref_dep.iter().any(|t| locus.ref_head.contains(t)) {
        return None;
    }
    if reference.analyses.is_none() || output.analyses.is_none() {
        return verb_kept(locus.head).then_some(Check::Unparsed);
    }
    let dep_form = reference.lower(*locus.ref_dep.first()?)?;
    let ref_verb = verb_of(reference, locus.ref_head)?;
    let glued = glued_token(locus, &dep_form, ref_verb);
    if !verb_kept(locus.head) && glued.is_none() {
        return None;
    }
    let verb = glued.or_else(|| verb_of(output, &locus.head.tokens()))?;
    let found = dependent_at(locus, &dep_form, verb);
    if locus.relation.pronoun {
        return Some(match found {
            Some(_) => Check::Intact,
            None if other_pronoun(locus, verb) => Check::Person,
            None => Check::Dropped,
        });
    }
    let Some(placement) = locus.relation.placement else {
        return Some(if found.is_some() {
            Check::Intact
        } else {
            Check::Dropped
        });
    };
    Some(match (found, glued) {
        (Some(p), _) => placed(locus, placement, (verb, p), (ref_verb, locus.ref_dep[0])),
        (None, Some(g)) => match placement {
            Placement::ClauseFinal if joined_here(locus.relation, output, g) => Check::Intact,
            _ => Check::Glued,
        },
        (None, None) => Check::Dropped,
    })
}

/// An output token that writes the reference's particle `dep_form` together with the
/// reference's verb (German: particle first, `anmeldete`; English: verb first, `signedup`):
/// among those the aligner links to either source word, and the head's rendering.
fn glued_token(locus: &Locus<'_>, dep_form: &str, ref_verb: usize) -> Option<usize> {
    let placement = locus.relation.placement?;
    let verb_form = locus.reference.lower(ref_verb)?;
    let output = locus.output;
    let mut tokens = output.linked(locus.source.1);
    tokens.extend(output.linked(locus.source.0));
    tokens.extend(locus.head.tokens());
    tokens.extend(0..output.tokens.len());
    tokens.into_iter().find(|&t| {
        let Some(form) = output.lower(t) else {
            return false;
        };
        let rest = match placement {
            Placement::ClauseFinal => form.strip_prefix(dep_form),
            Placement::AfterHead => form.strip_suffix(dep_form),
        };
        rest.is_some_and(|r| {
            r.chars().count() >= 3
                && (super::rule::variant(r, &verb_form, locus.target) || {
                    let zu = r.strip_prefix("zu").unwrap_or(r);
                    super::rule::variant(zu, &verb_form, locus.target)
                })
        })
    })
}

/// The output's token of the reference's dependent `dep_form` in the verb's clause (or
/// attached to the verb), other than the verb: linked to the dependent, else attached to
/// the verb, else the first of the clause, else at the reference token's occurrence.
fn dependent_at(locus: &Locus<'_>, dep_form: &str, verb: usize) -> Option<usize> {
    let output = locus.output;
    let clause = &locus.relation.clause;
    // The reference's own token, where the output has it, is the dependent wherever the
    // parse puts it (a parse of a damaged line may put it anywhere).
    let own = super::rule::occurrence(locus.reference, locus.ref_dep[0], output);
    let here = |t: usize| {
        own == Some(t) || output.head_of(t) == Some(verb) || in_clause(output, t, verb, clause)
    };
    let is_it = |t: usize| t != verb && output.lower(t).as_deref() == Some(dep_form) && here(t);
    output
        .linked(locus.source.0)
        .into_iter()
        .find(|&t| is_it(t))
        .or_else(|| children(output, verb).into_iter().find(|&t| is_it(t)))
        .or_else(|| (0..output.tokens.len()).find(|&t| is_it(t)))
}

/// Whether another pronoun stands for the reference's: a pronoun the aligner links to the
/// dependent, or a reflexive one attached to the verb.
fn other_pronoun(locus: &Locus<'_>, verb: usize) -> bool {
    let output = locus.output;
    let pronoun = |t: usize| output.analysis(t).is_some_and(|a| a.upos == "PRON");
    let here = |t: usize| {
        output.head_of(t) == Some(verb) || in_clause(output, t, verb, &locus.relation.clause)
    };
    output
        .linked(locus.source.0)
        .into_iter()
        .any(|t| pronoun(t) && here(t))
        || children(output, verb)
            .into_iter()
            .any(|t| pronoun(t) && output.word(t).is_some_and(|w| w.has_feat("Reflex=Yes")))
}

/// Whether the verb `verb` of `side` writes its particle with it: a non-finite form, or the
/// verb of a subordinate clause.
fn joined_here(relation: &Relation, side: &Side, verb: usize) -> bool {
    meets(side, verb, &relation.joined)
        || children(side, verb)
            .into_iter()
            .any(|c| meets(side, c, &relation.subordinate))
}

/// The place of a separated particle `particle` of `verb` in the output, against the
/// reference's (`ref_verb`, `ref_particle`).
fn placed(
    locus: &Locus<'_>,
    placement: Placement,
    (verb, particle): (usize, usize),
    (ref_verb, ref_particle): (usize, usize),
) -> Check {
    let (relation, output, reference) = (locus.relation, locus.output, locus.reference);
    if particle < verb {
        return Check::Misplaced;
    }
    match placement {
        Placement::ClauseFinal => {
            if joined_here(relation, output, verb) {
                return Check::Misplaced;
            }
            if stretch_after(output, particle) > stretch_after(reference, ref_particle) {
                Check::Misplaced
            } else {
                Check::Intact
            }
        }
        Placement::AfterHead => {
            let foreign = |side: &Side, v: usize, p: usize| {
                (v.min(p) + 1..v.max(p))
                    .filter(|&t| !under(side, t, v, &relation.between))
                    .count()
            };
            let r = if ref_particle > ref_verb {
                foreign(reference, ref_verb, ref_particle)
            } else {
                0
            };
            let farther = particle - verb > ref_particle.abs_diff(ref_verb);
            if farther && foreign(output, verb, particle) > r {
                Check::Misplaced
            } else {
                Check::Intact
            }
        }
    }
}

/// The tokens after `token` up to the end of its clause: the next punctuation that ends a
/// clause, or conjunction (the tagger's CCONJ, SCONJ), or the end of the line — how much of
/// its clause follows a particle, whatever the parser makes of a damaged line.
fn stretch_after(side: &Side, token: usize) -> usize {
    (token + 1..side.tokens.len())
        .take_while(|&t| {
            let ends = CLAUSE_ENDS.contains(&side.tokens[t].as_str())
                || side
                    .analysis(t)
                    .is_some_and(|a| a.upos == "CCONJ" || a.upos == "SCONJ");
            !ends
        })
        .count()
}

/// Whether `token` is below a dependent of `verb` whose relation is one of `relations`.
fn under(side: &Side, token: usize, verb: usize, relations: &[String]) -> bool {
    let mut t = token;
    for _ in 0..side.tokens.len() {
        match side.head_of(t) {
            Some(h) if h == verb => {
                let rel = side.analysis(t).map_or("", |a| a.deprel.as_str());
                return relations
                    .iter()
                    .any(|r| r == rel || rel.split(':').next() == Some(r));
            }
            Some(h) => t = h,
            None => return false,
        }
    }
    false
}

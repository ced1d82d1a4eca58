//! Stage **bucket**: which sets a detected pair belongs to.
//!
//! What enters: matches with their distances. What leaves: for every bucket, the pairs
//! that qualify a line for it — `geK` (distance at least K) and `eqK` (exactly K).
//!
//! In short (what enters → what leaves): matches with distances → the pairs qualifying each
//! `geK`/`eqK` set

use std::fmt;

use crate::pipeline::detect::rules::Match;

/// A distance bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bucket {
    /// Pairs with distance at least `d` (`geD`).
    AtLeast(u32),
    /// Pairs with distance exactly `d` (`eqD`).
    Exactly(u32),
}

impl Bucket {
    /// All buckets up to `max`: `ge0..=geMax` then `eq0..=eqMax`.
    pub fn all(max: u32) -> Vec<Bucket> {
        (0..=max)
            .map(Bucket::AtLeast)
            .chain((0..=max).map(Bucket::Exactly))
            .collect()
    }

    /// Whether a pair at `distance` belongs to this bucket.
    pub fn admits(self, distance: u32) -> bool {
        match self {
            Bucket::AtLeast(k) => distance >= k,
            Bucket::Exactly(k) => distance == k,
        }
    }

    /// The minimum distance of the bucket.
    pub fn min_distance(self) -> u32 {
        match self {
            Bucket::AtLeast(k) | Bucket::Exactly(k) => k,
        }
    }

    /// Whether this is an `eq` (exactly) bucket.
    pub fn is_exact(self) -> bool {
        matches!(self, Bucket::Exactly(_))
    }

    /// The matches of phenomenon `phenomenon` (index in the rule set) that this bucket
    /// admits, in order.
    pub fn qualifying(self, matches: &[Match], phenomenon: usize) -> Vec<&Match> {
        matches
            .iter()
            .filter(|m| m.phenomenon as usize == phenomenon && self.admits(m.distance))
            .collect()
    }
}

impl fmt::Display for Bucket {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bucket::AtLeast(k) => formatter.write_str(&crate::layout::bucket(false, *k)),
            Bucket::Exactly(k) => formatter.write_str(&crate::layout::bucket(true, *k)),
        }
    }
}

//! ldd-sets: long-distance-dependency challenge sets for machine translation.
//!
//! Data flows one way: [`corpus`] and [`conllu`] read → [`tree`] holds a parsed
//! sentence → [`rules`] detects phenomena → [`sets`] buckets and writes them →
//! [`manifest`] records the run. [`extract`] drives the pipeline; [`output`]
//! makes it all-or-nothing.

pub mod compare;
pub mod conllu;
pub mod controls;
pub mod corpus;
pub mod error;
pub mod extract;
pub mod fetch;
pub mod manifest;
pub mod output;
pub mod pairs;
pub mod parse;
pub mod reorder;
pub mod rules;
pub mod score;
pub mod sets;
pub mod tree;

pub use error::{Error, Result};

//! Hostile input, black box: each class of issue 9 and of the later hostile rounds tried
//! against the binary, one module per class. Nothing is written outside OUT, nothing of the
//! user's is deleted, interrupts and concurrent runs leave nothing behind, resources stay
//! bounded, invalid input is refused with file and line, and messages never carry raw
//! control characters. The helpers the classes share are in `support`.

#[path = "../common/mod.rs"]
mod common;
mod support;

mod annotation;
mod detection;
mod edited_outputs;
mod endless_inputs;
mod failed_download;
mod full_disk;
mod interrupts;
mod invalid_input;
mod messages;
mod mqm;
mod mqm_keys;
mod names;
mod not_ours;
mod order;
mod paper_parse;
mod paste_back;
mod printed_commands;
mod resources;
mod shared_cache;
mod stalled_downloads;
mod trees;
mod unclear_cases;
mod unclear_fifth;
mod user_outputs;
mod writes_outside;

// What every class module takes with `use super::*;`.
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;
use support::*;

//! Integration tests: the built `reduce` binary run on the fixtures with real scripts.
//!
//! All integration tests build as this one binary (see `[[test]]` in Cargo.toml).

mod builtin;
mod cluster;
mod determinism;
mod each;
mod engine_corpus;
mod faults;
mod flat;
mod forkserver;
mod formatters;
mod languages;
mod last_tokens;
mod layout;
mod multi;
mod names;
mod oracle;
mod recheck;
mod reliability;
mod run_features;
mod text;
mod tree;
mod util;
mod ux;

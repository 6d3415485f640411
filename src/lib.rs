//! `reduce`: a test-case reducer built around one engine and swappable policies.
//!
//! The binary (`src/main.rs`) is a thin shell over this library: the
//! command line ([`cli`]) becomes [`settings::Settings`], which [`app::run`]
//! carries out. Data flows
//! from the input bytes to [`units::Units`] (flat units or the tokens of a
//! parse tree), through a [`policy::Policy`] driven by the
//! [`engine::Engine`], which judges candidates with an
//! [`interfaces::Oracle`] (a user script, or any closure in tests).

// The documentation is for maintainers and is built with
// `--document-private-items` (`.ci/run`), where links to private items resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod allocator;
pub mod app;
mod atomic_write;
pub(crate) mod bitset;
mod checks;
pub mod cli;
pub mod configuration;
mod each;
pub mod engine;
pub mod exit;
pub mod fileset;
pub mod grammar;
mod history;
mod input;
pub mod interfaces;
mod journal;
pub mod languages;
mod llm;
mod multi;
pub mod oracle;
pub(crate) mod output;
pub mod pipeline;
pub mod policy;
pub(crate) mod progress;
mod proposals;
mod report;
pub mod schedulers;
pub mod settings;
mod stages;
pub(crate) mod stats;
pub mod syntax;
pub mod tree;
pub mod units;

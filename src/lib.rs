//! `reduce`: a test-case reducer built around one reduce loop and swappable policies.
//!
//! The binary (`src/main.rs`) is a thin shell over this library. Data flows
//! from the input bytes to [`units::Units`] (flat units or the tokens of a
//! parse tree), through a [`policy::Policy`] driven by the
//! [`reducer::Reducer`] loop, which judges candidates with an
//! [`interfaces::Oracle`] (a user script, or any closure in tests).

// The documentation is for maintainers and is built with
// `--document-private-items` (`.ci/run`), where links to private items resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod app;
pub mod bitset;
pub mod cache;
pub mod cli;
pub mod configuration;
pub mod grammar;
pub mod interfaces;
pub mod languages;
pub mod oracle;
pub mod output;
pub mod pipeline;
pub mod policy;
pub mod progress;
pub mod reducer;
pub mod speculation;
pub mod stats;
pub mod syntax;
pub mod tree;
pub mod units;

//! Exit codes, and the error that carries one to `main`.
//!
//! Every layer that refuses a run (the settings, the checks of the oracle
//! and the input) says which code the refusal exits with; `main` reads it
//! back with [`code_of`]. The codes are documented in `--help` and the README.

/// Reduced (or already minimal), or stopped by a limit.
pub const OK: i32 = 0;
/// An error: unreadable, empty or too large input, unwritable output, ...
pub const ERROR: i32 = 1;
/// Bad usage, a `--grammar` library that cannot be used, or files that
/// cannot be a set (a symlink, a special file, none).
pub(crate) const USAGE: i32 = 2;
/// The oracle cannot be trusted (the original is not interesting, flaky).
pub(crate) const NOT_INTERESTING: i32 = 3;
/// The oracle cannot be run.
pub(crate) const ORACLE_UNUSABLE: i32 = 4;
/// Tests could not run for too long (a full disk, too many open files, ...):
/// the output holds the best result so far and the journal is kept, so the
/// same command resumes the run once the cause is fixed.
pub const FAULT: i32 = 5;
pub const SIGHUP: i32 = 129;
pub const SIGINT: i32 = 130;
pub const SIGTERM: i32 = 143;

/// An error that maps to a specific exit code.
#[derive(Debug)]
pub(crate) struct Failure {
    pub code: i32,
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// A [`Failure`] as an `anyhow` error.
pub(crate) fn failure(code: i32, message: impl Into<String>) -> anyhow::Error {
    Failure {
        code,
        message: message.into(),
    }
    .into()
}

/// The exit code for `err`: its `Failure`'s, else [`ERROR`].
pub fn code_of(err: &anyhow::Error) -> i32 {
    err.downcast_ref::<Failure>().map_or(ERROR, |f| f.code)
}

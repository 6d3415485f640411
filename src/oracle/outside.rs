//! Outside programs that propose candidates: `--reduce-with` reducers and
//! `--propose-with` commands, started here because only the oracle module
//! starts processes.
//!
//! Each runs like a test, with `TMPDIR` a fresh directory, in its own process group,
//! under the oracle's timeout and `--memory-limit`, killed whole when it
//! ends or is cancelled. A `--reduce-with` command is run through
//! `/bin/sh -c` with the path of a copy of the current best (named like
//! the input) as its last argument and rewrites that file in place; exit 0
//! says the file holds its result. A `--propose-with` command gets the
//! current best on stdin and prints candidates on stdout, separated by
//! lines reading [`PROPOSAL_SEPARATOR`]. What they produce is only a
//! proposal: the caller keeps it only if it is smaller and the oracle
//! accepts it.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use super::process::{RUN_MARKER_VAR, RunningGroup, run_marker};
use super::workdir::{remove_dir_robustly, temp_dir};
use super::{Exit, ScriptOracle};
use crate::interfaces::Watch;

/// The line between two candidates a `--propose-with` command prints.
pub(crate) const PROPOSAL_SEPARATOR: &str = "---- reduce candidate ----";

/// The most a `--propose-with` command's output may hold.
const OUTPUT_LIMIT: u64 = 256 << 20;

/// What an outside command gave.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outside<T = Vec<u8>> {
    /// It exited 0 with this output (the rewritten file, or stdout).
    Gave(T),
    /// It failed (a non-zero exit, a signal, the timeout) or was cancelled.
    Failed(Exit),
}

impl<T> Outside<T> {
    /// The output made something else.
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> Outside<U> {
        match self {
            Outside::Gave(t) => Outside::Gave(f(t)),
            Outside::Failed(exit) => Outside::Failed(exit),
        }
    }
}

/// The candidates in a `--propose-with` command's output: the texts
/// between separator lines, empty ones left out.
pub(crate) fn split_proposals(output: &[u8]) -> Vec<Vec<u8>> {
    let mut proposals = vec![Vec::new()];
    for line in output.split_inclusive(|&b| b == b'\n') {
        if line.trim_ascii() == PROPOSAL_SEPARATOR.as_bytes() {
            proposals.push(Vec::new());
        } else if let Some(last) = proposals.last_mut() {
            last.extend_from_slice(line);
        }
    }
    proposals.retain(|p| !p.trim_ascii().is_empty());
    proposals
}

impl ScriptOracle {
    /// Runs `--reduce-with` `command` on a copy of `bytes`; its result is
    /// the file as the command left it. `Err` when it could not be set up
    /// or started.
    pub(crate) fn reduce_with(
        &self,
        command: &str,
        bytes: &[u8],
        cancel: Watch<'_>,
    ) -> Result<Outside> {
        let dir = self.outside_dir()?;
        let file = dir.path().join(&self.file_name);
        let result = fs::write(&file, bytes)
            .with_context(|| format!("cannot write {}", file.display()))
            .and_then(|()| {
                let mut shell = Command::new("/bin/sh");
                shell
                    .arg("-c")
                    .arg(format!("{command} \"$@\""))
                    .arg("reduce-with")
                    .arg(&file);
                self.run_outside(shell, dir.path(), None, cancel)
            })
            .map(|outcome| match outcome {
                Outside::Gave(_) => Outside::Gave(fs::read(&file).unwrap_or_default()),
                failed => failed,
            });
        remove_dir_robustly(dir.path());
        result
    }

    /// Runs `--propose-with` `command` with `bytes` on its stdin; its
    /// result is what it printed.
    pub(crate) fn propose_with(
        &self,
        command: &str,
        bytes: &[u8],
        cancel: Watch<'_>,
    ) -> Result<Outside> {
        let dir = self.outside_dir()?;
        let mut shell = Command::new("/bin/sh");
        shell.arg("-c").arg(command);
        let result = self.run_outside(shell, dir.path(), Some(bytes), cancel);
        remove_dir_robustly(dir.path());
        result
    }

    pub(super) fn outside_dir(&self) -> Result<tempfile::TempDir> {
        temp_dir(self.work_dir.as_deref(), "reduce-outside-")
            .context("cannot create a temporary directory for an outside command")
    }

    /// Runs `command` like a test (own group, timeout, memory limit) with
    /// `dir` as its `TMPDIR`, `stdin` written to it, its stdout collected.
    pub(super) fn run_outside(
        &self,
        mut command: Command,
        dir: &Path,
        stdin: Option<&[u8]>,
        cancel: Watch<'_>,
    ) -> Result<Outside> {
        // The command runs where `reduce` was started, so that `./mine.sh`
        // names what the user sees; its temporary files go to `dir`.
        if let Some(shared) = self.shared_dir() {
            command.env(super::CACHE_DIR_VAR, shared);
        }
        command
            .env("TMPDIR", dir)
            .env(RUN_MARKER_VAR, run_marker())
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0);
        if let Some(memory) = &self.memory {
            memory.apply(&mut command);
        }
        let started = Instant::now();
        let mut child = command.spawn().context("cannot start /bin/sh")?;
        let running = RunningGroup::enter(child.id() as i32, false);
        if let (Some(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
            let bytes = bytes.to_vec();
            // A command that does not read its input must not block us.
            std::thread::spawn(move || pipe.write_all(&bytes));
        }
        let (tx, printed) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                let mut text = Vec::new();
                let _ = out.take(OUTPUT_LIMIT).read_to_end(&mut text);
                let _ = tx.send(text);
            });
        }
        let exit = self.wait(&mut child, started, cancel);
        drop(running);
        let text = printed
            .recv_timeout(Duration::from_secs(1))
            .unwrap_or_default();
        Ok(match exit {
            Exit::Code(0) => Outside::Gave(text),
            failed => Outside::Failed(failed),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposals_are_the_texts_between_separator_lines() {
        let out = b"a\nb\n---- reduce candidate ----\n\n---- reduce candidate ----\nc\n";
        assert_eq!(
            split_proposals(out),
            vec![b"a\nb\n".to_vec(), b"c\n".to_vec()]
        );
        assert_eq!(split_proposals(b"only\n"), vec![b"only\n".to_vec()]);
        assert!(split_proposals(b"").is_empty());
    }
}

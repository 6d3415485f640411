//! `--history DIR`: the original and every accepted candidate saved in
//! order, as `DIR/NNNN-<pass>.<ext>` (`0000-original.c`, `0001-perses.c`,
//! ...), each written atomically, so that a reduction can be replayed
//! step by step. The loop hears of nothing but a [`StepLog`]; this is its
//! implementation at the run's level.
//!
//! A file that cannot be written is said once (through the display) and
//! the run goes on without its history: the history is a debugging aid,
//! never a reason to lose the reduction.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};

use crate::interfaces::{Messages, StepLog};
use crate::output::write_atomically;

/// The history directory and the number of the next step.
pub(crate) struct History<'a> {
    dir: PathBuf,
    /// The input's extension with its dot (`.c`), or nothing.
    ext: String,
    next: Mutex<u32>,
    failed: AtomicBool,
    messages: &'a dyn Messages,
}

impl<'a> History<'a> {
    /// Makes `dir` (if needed) and saves `original` as step 0. Refuses a
    /// `dir` that cannot be made or written.
    pub(crate) fn start(
        dir: &Path,
        file_name: &Path,
        original: &[u8],
        messages: &'a dyn Messages,
    ) -> Result<Self> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot make the --history directory {}", dir.display()))?;
        let ext = file_name
            .extension()
            .map(|e| format!(".{}", e.to_string_lossy()))
            .unwrap_or_default();
        let history = History {
            dir: dir.to_path_buf(),
            ext,
            next: Mutex::new(0),
            failed: AtomicBool::new(false),
            messages,
        };
        history.save("original", original)?;
        Ok(history)
    }

    /// Saves `bytes` as the next step, proposed by `pass`.
    fn save(&self, pass: &str, bytes: &[u8]) -> Result<()> {
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        let name = format!("{:04}-{}{}", *next, file_safe(pass), self.ext);
        let path = self.dir.join(name);
        write_atomically(&path, bytes)
            .with_context(|| format!("cannot write the history file {}", path.display()))?;
        *next += 1;
        Ok(())
    }
}

impl StepLog for History<'_> {
    fn accepted(&self, pass: &str, bytes: &[u8]) {
        if self.failed.load(Ordering::Relaxed) {
            return;
        }
        if let Err(e) = self.save(pass, bytes) {
            self.failed.store(true, Ordering::Relaxed);
            self.messages
                .say(&format!("reduce: {e:#}; the history stops here\n"));
        }
    }
}

/// `pass` with anything but letters, digits, `-` and `_` made a `-`.
fn file_safe(pass: &str) -> String {
    pass.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_names_become_safe_file_names() {
        assert_eq!(file_safe("perses"), "perses");
        assert_eq!(file_safe("drdd/token"), "drdd-token");
        assert_eq!(file_safe("reduce-with 1"), "reduce-with-1");
    }
}

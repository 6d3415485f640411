//! `--memory-limit`: every test's address space capped (`RLIMIT_AS`, set
//! between fork and exec, inherited by everything the script starts), and
//! the tests that ran out of memory under it told from the others by what
//! they printed, counted, and said once.
//!
//! A process over the limit sees its allocations fail: Python raises
//! `MemoryError`, C++ throws `std::bad_alloc`, Rust aborts with "memory
//! allocation of N bytes failed", GCC says "out of memory". The test
//! fails, so the candidate is not interesting, as it should be; the run
//! goes on. Which failures were the limit's is read from the test's
//! output (its first 64 KiB), which is why the limit makes the oracle's
//! output piped rather than discarded.

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::interfaces::Messages;

/// What a program prints when an allocation failed (compared ignoring case).
const OUT_OF_MEMORY_MARKS: [&str; 6] = [
    "memoryerror",
    "std::bad_alloc",
    "out of memory",
    "cannot allocate memory",
    "memory allocation of",
    "memory exhausted",
];

/// The limit and what it stopped, shared by every copy of the oracle.
#[derive(Clone, Debug)]
pub(crate) struct MemoryLimit {
    bytes: u64,
    hits: Arc<AtomicU64>,
    said: Arc<AtomicBool>,
}

impl MemoryLimit {
    pub(crate) fn new(bytes: u64) -> Self {
        MemoryLimit {
            bytes,
            hits: Arc::default(),
            said: Arc::default(),
        }
    }

    /// Makes `command`'s process (and its descendants) run under the limit.
    pub(super) fn apply(&self, command: &mut Command) {
        let limit = self.bytes as libc::rlim_t;
        // SAFETY: the closure runs between fork and exec and only calls
        // setrlimit, which is async-signal-safe, on a struct on its stack.
        unsafe {
            command.pre_exec(move || {
                let rl = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &rl) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }

    /// Counts a failed test whose `output` says it ran out of memory, and
    /// says so the first time.
    pub(super) fn judge_failure(&self, output: &[u8], messages: &dyn Messages) {
        if !ran_out_of_memory(output) {
            return;
        }
        self.hits.fetch_add(1, Ordering::Relaxed);
        if !self.said.swap(true, Ordering::Relaxed) {
            messages.say(&format!(
                "reduce: a test ran out of memory under --memory-limit {} and counts as not \
                 interesting (said once; the summary counts them)\n",
                size_name(self.bytes)
            ));
        }
    }

    /// How many tests ran out of memory under the limit so far.
    pub(crate) fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    pub(crate) fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// Whether a program's `output` says an allocation failed.
fn ran_out_of_memory(output: &[u8]) -> bool {
    let text = String::from_utf8_lossy(output).to_ascii_lowercase();
    OUT_OF_MEMORY_MARKS.iter().any(|m| text.contains(m))
}

/// `bytes` as the flag would spell it: `512M`, `2G`, or a byte count.
pub(crate) fn size_name(bytes: u64) -> String {
    for (shift, suffix) in [(40, "T"), (30, "G"), (20, "M"), (10, "K")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{}{suffix}", bytes >> shift);
        }
    }
    bytes.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_failures_are_told_from_other_failures() {
        assert!(ran_out_of_memory(b"Traceback ...\nMemoryError\n"));
        assert!(ran_out_of_memory(
            b"terminate called after throwing an instance of 'std::bad_alloc'"
        ));
        assert!(ran_out_of_memory(
            b"cc1: out of memory allocating 65536 bytes"
        ));
        assert!(!ran_out_of_memory(b"error: expected ';' before '}' token"));
    }

    #[test]
    fn sizes_are_named_as_the_flag_spells_them() {
        assert_eq!(size_name(512 << 20), "512M");
        assert_eq!(size_name(2 << 30), "2G");
        assert_eq!(size_name(1536 << 20), "1536M");
        assert_eq!(size_name(1_000_001), "1000001");
    }
}

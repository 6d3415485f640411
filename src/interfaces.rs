//! The interfaces the reduce loop consumes, defined apart from it: how a
//! candidate is judged ([`Oracle`], [`Verdict`], [`TestOutcome`], or a
//! [`Fault`] when it could not be), how a
//! running test is told to stop ([`CancelSignal`], [`Watch`]), how
//! candidates are kept from the oracle without running it ([`SyntaxFilter`])
//! and who hears about progress ([`Observer`]), messages ([`Messages`])
//! verdicts worth keeping across runs ([`VerdictLog`]) and accepted steps
//! ([`StepLog`]).
//!
//! The loop (`reducer.rs`) and the implementations (the script oracle in
//! `oracle/`, the syntax check in `syntax.rs`, the run's display in
//! `stages.rs`) import this module and not one another.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::configuration::Configuration;
use crate::stats::PhaseStats;

/// The oracle's judgement of a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Still shows the bug.
    Interesting,
    /// Does not show it, is invalid, crashed the test, or timed out.
    NotInteresting,
}

/// One oracle run's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestOutcome {
    pub verdict: Verdict,
    pub timed_out: bool,
    /// The test was stopped before it finished; its verdict means nothing.
    pub cancelled: bool,
    /// No test ran: the verdict is one an earlier run of the same command
    /// recorded (a set's journal, `multi/journaled.rs`), counted as a
    /// cache hit.
    pub replayed: bool,
}

impl From<Verdict> for TestOutcome {
    fn from(verdict: Verdict) -> Self {
        TestOutcome {
            verdict,
            timed_out: false,
            cancelled: false,
            replayed: false,
        }
    }
}

/// A test that could not be run: its harness failed (the candidate could
/// not be written, the directory made, the script or launcher started).
/// Not a verdict: the loop retries the candidate and, if the fault lasts,
/// stops the run with `cause` as its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong and what to do about it, as the user reads it.
    pub cause: String,
}

/// A candidate as the oracle sees it.
pub struct Candidate<'a> {
    pub config: &'a Configuration,
    pub bytes: &'a [u8],
}

impl Candidate<'_> {
    /// Whether unit `unit` is kept.
    pub fn keeps(&self, unit: u32) -> bool {
        self.config.contains(unit)
    }
}

/// Decides whether candidates are interesting. Implemented by the script
/// oracle and by any `Fn(&Candidate) -> Verdict` closure.
pub trait Oracle: Sync {
    /// Judges `candidate`; should give up early once `cancel` is set.
    /// `Err` when the test could not be run at all (never a verdict).
    fn test(&self, candidate: &Candidate<'_>, cancel: Watch<'_>) -> Result<TestOutcome, Fault>;
}

impl<F> Oracle for F
where
    F: Fn(&Candidate<'_>) -> Verdict + Sync,
{
    fn test(&self, candidate: &Candidate<'_>, _cancel: Watch<'_>) -> Result<TestOutcome, Fault> {
        Ok(self(candidate).into())
    }
}

/// Rejects candidates without running the oracle (e.g. ones that no longer parse).
pub trait SyntaxFilter: Sync {
    /// Whether `bytes` may be handed to the oracle.
    fn accepts(&self, bytes: &[u8]) -> bool;

    /// Whether `bytes`, proposed from `parent`, may be handed to the oracle
    /// under [`Strictness::MissingTokensFree`]. The verdict may depend on
    /// `parent` (the configuration the serial loop would have had), never
    /// on which text was committed when it is asked, so that speculation
    /// keeps the serial loop's verdicts.
    fn accepts_lenient(&self, bytes: &[u8], parent: &[u8]) -> bool {
        let _ = parent;
        self.accepts(bytes)
    }

    /// Candidates tested next are edits of `bytes` (the current best): a
    /// filter may prepare for them (e.g. keep its parse tree to re-parse
    /// incrementally). Must not change what [`Self::accepts`] answers.
    fn rebase(&self, _bytes: &[u8]) {}
}

/// What a syntax filter counts against the input's parse errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strictness {
    /// Every parse error: error regions and missing tokens.
    Strict,
    /// Error regions only (text the grammar cannot place), and no more
    /// than the text the candidate was proposed from has; a missing token
    /// the parser would insert is free, since compilers supply some (a `;`
    /// before `}`, an implicit `int`). A candidate this refuses, a strict
    /// filter refuses too.
    MissingTokensFree,
}

/// Told about progress; writes results where the user wants them.
pub trait Observer {
    /// A new best configuration was committed.
    fn on_improved(&mut self, _config: &Configuration, _bytes: &[u8]) {}
    /// Something was counted (for progress displays).
    fn on_progress(&mut self, _phase: &PhaseStats, _current: &Configuration) {}
}

/// Lines for the person running `reduce`, said while a run is on (a test
/// that could not run, a test directory that could not be removed, `-v`'s
/// oracle output). The display (`progress.rs`) prints them above its live
/// line, so nothing else writes to the terminal during a run.
pub trait Messages: Send + Sync {
    /// Says `text`: one or more whole lines, each ending in a newline.
    fn say(&self, text: &str);
}

/// Hears every verdict the loop caches (by candidate hash, `true` =
/// interesting), so that a later run can start with them (the journal of
/// `journal.rs`). Verdicts it was handed back at the start are not told
/// again.
pub trait VerdictLog: Sync {
    fn verdict(&self, key: u128, interesting: bool);
}

/// Formats a text with an outside formatter (`--format native`,
/// `--format-with`), which the oracle module runs: the closing format pass
/// proposes its output first.
pub trait Formatter {
    /// `text` as the user's formatter, else the first of `commands` (each
    /// a program and its arguments, reading stdin, printing the result)
    /// that is installed and succeeds, prints it; `None` if none does.
    fn format(&self, commands: &[Vec<String>], text: &[u8]) -> Option<Vec<u8>>;
}

/// Hears every candidate the loop accepts, with the pass that proposed
/// it, in order (`--history`, in `history.rs`), so that the loop itself
/// writes no files.
pub trait StepLog: Sync {
    fn accepted(&self, pass: &str, bytes: &[u8]);
}

/// An observer that does nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// A cancel switch with a wake-up: on Linux an eventfd becomes readable when
/// the switch is thrown, so a test's waiter sleeps until its process exits
/// or it is cancelled, with no periodic wake-ups to look at a flag.
pub struct CancelSignal {
    flag: AtomicBool,
    wake: Option<OwnedFd>,
}

impl CancelSignal {
    pub fn new() -> Self {
        CancelSignal {
            flag: AtomicBool::new(false),
            wake: new_eventfd(),
        }
    }

    /// Throws the switch and wakes the test waiting on it.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
        if let Some(fd) = &self.wake {
            wake(fd);
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

impl Default for CancelSignal {
    fn default() -> Self {
        CancelSignal::new()
    }
}

/// What a running test watches to know it should stop: a plain flag
/// (looked at every few milliseconds), the run's interrupt flag (set by
/// the signal handlers, which then wake the waiter through
/// [`wake_interrupted`] where [`make_interrupt_wake`] was called, else
/// looked at as a plain flag), or a [`CancelSignal`] (which wakes the
/// waiter itself).
#[derive(Clone, Copy)]
pub enum Watch<'a> {
    Flag(&'a AtomicBool),
    Interrupt(&'a AtomicBool),
    Signal(&'a CancelSignal),
}

impl Watch<'_> {
    pub fn is_cancelled(self) -> bool {
        match self {
            Watch::Flag(flag) | Watch::Interrupt(flag) => flag.load(Ordering::SeqCst),
            Watch::Signal(signal) => signal.is_cancelled(),
        }
    }

    /// The fd that becomes readable on cancel, if there is one.
    pub fn wake_fd(self) -> Option<i32> {
        match self {
            Watch::Flag(_) => None,
            Watch::Interrupt(_) => INTERRUPT_WAKE.get()?.as_ref().map(AsRawFd::as_raw_fd),
            Watch::Signal(signal) => signal.wake.as_ref().map(AsRawFd::as_raw_fd),
        }
    }
}

/// A new eventfd (Linux; `None` elsewhere or if none can be made).
fn new_eventfd() -> Option<OwnedFd> {
    #[cfg(target_os = "linux")]
    // SAFETY: eventfd takes an initial count and flags; it returns a new
    // fd or -1.
    let wake = match unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) } {
        // SAFETY: `fd` was just returned by eventfd and is owned here only.
        fd if fd >= 0 => Some(unsafe { OwnedFd::from_raw_fd(fd) }),
        _ => None,
    };
    #[cfg(not(target_os = "linux"))]
    let wake = None;
    wake
}

/// Makes `fd` (an eventfd) readable for good. Async-signal-safe.
fn wake(fd: &OwnedFd) {
    let one = 1u64.to_ne_bytes();
    // SAFETY: writes 8 bytes from a live buffer to an eventfd we own; a
    // full counter (EAGAIN) still leaves it readable.
    unsafe { libc::write(fd.as_raw_fd(), one.as_ptr().cast(), one.len()) };
}

/// The eventfd that becomes readable when the run is interrupted (see
/// [`Watch::Interrupt`]), once [`make_interrupt_wake`] made it.
static INTERRUPT_WAKE: OnceLock<Option<OwnedFd>> = OnceLock::new();

/// Makes the eventfd [`wake_interrupted`] writes to; called before the
/// signal handlers are installed.
pub fn make_interrupt_wake() {
    INTERRUPT_WAKE.get_or_init(new_eventfd);
}

/// Wakes every test that watches the interrupt, from a signal handler
/// that runs after the one setting the interrupt flag: only an atomic load
/// and a write, both async-signal-safe.
pub fn wake_interrupted() {
    if let Some(Some(fd)) = INTERRUPT_WAKE.get() {
        wake(fd);
    }
}

//! Tests that could not run are tried again: a [`Fault`] (a full disk, too
//! many open files, a full process table) is often over in seconds, and it
//! says nothing of the candidate, so the loop neither takes it for a
//! verdict nor gives up at once.
//!
//! The same candidate is tested again after a back-off that starts at a
//! tenth of a second and doubles up to a few seconds, until it runs or the
//! fault has lasted [`Limits::fault_patience`](super::Limits); then
//! the fault is the loop's to report (it stops the run). A cancel during a
//! back-off ends the wait at once, as a cancelled test.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::interfaces::{Candidate, Fault, Messages, Oracle, TestOutcome, Verdict, Watch};

/// The first wait before testing again.
const FIRST_WAIT: Duration = Duration::from_millis(100);
/// The longest wait between two tries.
const LONGEST_WAIT: Duration = Duration::from_secs(5);
/// How often a back-off looks at the cancel switch.
const CANCEL_LOOK: Duration = Duration::from_millis(10);

/// Says a fault once, however many tests meet it: the same cause is not
/// said again until another has been.
#[derive(Default)]
pub(crate) struct FaultNotice {
    last: Mutex<String>,
}

impl FaultNotice {
    fn say(&self, fault: &Fault, patience: Duration, messages: &dyn Messages) {
        let mut last = self.last.lock().expect("notice lock poisoned");
        if *last != fault.cause {
            last.clone_from(&fault.cause);
            messages.say(&format!(
                "reduce: {}; trying again for up to {:.0}s\n",
                fault.cause,
                patience.as_secs_f64()
            ));
        }
    }
}

/// Tests `candidate`, trying again while its test cannot run, for up to
/// `patience` from the first fault. A fault is said through `messages`
/// (once, by `notice`).
pub(crate) fn test_patiently(
    oracle: &dyn Oracle,
    candidate: &Candidate<'_>,
    cancel: Watch<'_>,
    patience: Duration,
    messages: Option<(&dyn Messages, &FaultNotice)>,
) -> Result<TestOutcome, Fault> {
    let mut first_fault: Option<Instant> = None;
    let mut wait = FIRST_WAIT;
    loop {
        let fault = match oracle.test(candidate, cancel) {
            Ok(outcome) => return Ok(outcome),
            Err(fault) => fault,
        };
        let since = *first_fault.get_or_insert_with(|| {
            if let Some((messages, notice)) = messages {
                notice.say(&fault, patience, messages);
            }
            Instant::now()
        });
        let left = patience.saturating_sub(since.elapsed());
        if left.is_zero() {
            return Err(fault);
        }
        if !sleep_unless_cancelled(wait.min(left), cancel) {
            return Ok(TestOutcome {
                verdict: Verdict::NotInteresting,
                timed_out: false,
                cancelled: true,
                replayed: false,
            });
        }
        wait = (wait * 2).min(LONGEST_WAIT);
    }
}

/// Sleeps for `length`, looking at `cancel` now and then; whether it
/// slept the whole time.
fn sleep_unless_cancelled(length: Duration, cancel: Watch<'_>) -> bool {
    let until = Instant::now() + length;
    loop {
        if cancel.is_cancelled() {
            return false;
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return true;
        }
        std::thread::sleep(left.min(CANCEL_LOOK));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

    use super::*;
    use crate::configuration::Configuration;

    /// An oracle whose first `faults` tests cannot run.
    struct Faulty {
        faults: u32,
        tries: AtomicU32,
    }

    impl Oracle for Faulty {
        fn test(&self, _: &Candidate<'_>, _: Watch<'_>) -> Result<TestOutcome, Fault> {
            if self.tries.fetch_add(1, Ordering::SeqCst) < self.faults {
                Err(Fault {
                    cause: "the disk is full".into(),
                })
            } else {
                Ok(Verdict::Interesting.into())
            }
        }
    }

    fn try_with(
        faults: u32,
        patience: Duration,
        cancel: &AtomicBool,
    ) -> Result<TestOutcome, Fault> {
        let oracle = Faulty {
            faults,
            tries: AtomicU32::new(0),
        };
        let config = Configuration::full(1);
        let candidate = Candidate {
            config: &config,
            bytes: b"x",
        };
        test_patiently(&oracle, &candidate, Watch::Flag(cancel), patience, None)
    }

    #[test]
    fn a_fault_that_passes_gives_the_verdict_of_the_next_try() {
        let never = AtomicBool::new(false);
        let outcome = try_with(2, Duration::from_secs(60), &never).unwrap();
        assert_eq!(outcome.verdict, Verdict::Interesting);
    }

    #[test]
    fn a_fault_that_lasts_longer_than_the_patience_is_returned() {
        let never = AtomicBool::new(false);
        let err = try_with(u32::MAX, Duration::from_millis(250), &never).unwrap_err();
        assert_eq!(err.cause, "the disk is full");
    }

    #[test]
    fn a_cancel_during_the_back_off_ends_it_as_a_cancelled_test() {
        let cancelled = AtomicBool::new(true);
        let outcome = try_with(u32::MAX, Duration::from_secs(60), &cancelled).unwrap();
        assert!(outcome.cancelled);
    }
}

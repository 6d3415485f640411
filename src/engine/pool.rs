//! The workers that run tests: `N` threads taking jobs from one queue, or,
//! with one job at a time, the engine's own thread (inline), through the
//! same code: a job is the syntax filter's verdict, then the oracle's,
//! tried again while the test cannot run (`patience.rs`).
//!
//! A cancelled job reports [`Finished::Cancelled`]; a worker whose job was
//! cancelled while it ran is busy until the test's processes are gone (a
//! few milliseconds: the cancel wakes the test's waiter at once). Spare
//! workers did not measurably shorten runs and each kept its own
//! allocator arena and parser, 15-20 MB more at peak on a 1 MB input.

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, mpsc};
use std::thread::Scope;
use std::time::{Duration, Instant};

use super::patience::{FaultNotice, test_patiently};
use crate::configuration::Configuration;
use crate::interfaces::{
    CancelSignal, Candidate, Fault, Messages, Oracle, Strictness, SyntaxFilter, TestOutcome, Watch,
};

/// A test handed to a worker.
pub struct Job {
    /// Which test in flight it is (`flight.rs`).
    pub ticket: u64,
    pub config: Arc<Configuration>,
    pub bytes: Arc<Vec<u8>>,
    /// The text it was proposed from, when the filter needs it (lenient).
    pub parent: Option<Arc<Vec<u8>>>,
    pub cancel: Arc<CancelSignal>,
}

/// What a worker did with a job.
pub enum Finished {
    /// The syntax filter refused the candidate; the oracle did not run.
    SyntaxRejected,
    Tested(TestOutcome),
    /// Cancelled before or while it ran; its verdict means nothing.
    Cancelled,
    /// Its test could not run, however often it was tried.
    Fault(Fault),
}

/// A worker's report on a job.
pub struct Report {
    pub ticket: u64,
    pub finished: Finished,
    pub took: Duration,
}

/// What a worker tests with.
#[derive(Clone, Copy)]
pub struct Tester<'a> {
    pub oracle: &'a dyn Oracle,
    /// The syntax filter and how strict it is, if it applies.
    pub filter: Option<(&'a dyn SyntaxFilter, Strictness)>,
    /// How long a test that cannot run is tried again.
    pub patience: Duration,
    /// Where a fault being retried is said, once.
    pub messages: Option<(&'a dyn Messages, &'a FaultNotice)>,
    /// The interrupt an inline test watches (nothing else can cancel it).
    pub interrupt: Option<&'a AtomicBool>,
}

/// Whether `filter` lets `bytes` through at `strictness`; `parent` is the
/// text it was proposed from, needed when lenient.
pub fn syntax_allows(
    (filter, strictness): (&dyn SyntaxFilter, Strictness),
    bytes: &[u8],
    parent: Option<&[u8]>,
) -> bool {
    match (strictness, parent) {
        (Strictness::MissingTokensFree, Some(parent)) => filter.accepts_lenient(bytes, parent),
        _ => filter.accepts(bytes),
    }
}

impl Tester<'_> {
    /// Runs `job`: the syntax filter first, if any, then the oracle,
    /// unless the job was cancelled before it began.
    fn run(&self, job: &Job, cancel: Watch<'_>) -> Report {
        let began = Instant::now();
        let finished = if job.cancel.is_cancelled() {
            Finished::Cancelled
        } else if self
            .filter
            .is_some_and(|f| !syntax_allows(f, &job.bytes, job.parent.as_deref().map(|p| &p[..])))
        {
            Finished::SyntaxRejected
        } else {
            let candidate = Candidate {
                config: &job.config,
                bytes: &job.bytes,
            };
            match test_patiently(
                self.oracle,
                &candidate,
                cancel,
                self.patience,
                self.messages,
            ) {
                Ok(outcome) if outcome.cancelled => Finished::Cancelled,
                Ok(outcome) => Finished::Tested(outcome),
                Err(fault) => Finished::Fault(fault),
            }
        };
        Report {
            ticket: job.ticket,
            finished,
            took: began.elapsed(),
        }
    }
}

/// Where jobs run.
pub enum Pool<'a> {
    /// One at a time, on the engine's thread, when it waits for a report.
    Inline {
        tester: Tester<'a>,
        queue: VecDeque<Job>,
    },
    Threads {
        jobs: mpsc::Sender<Job>,
        done: mpsc::Receiver<Report>,
    },
}

impl<'a> Pool<'a> {
    /// Jobs run on the engine's thread.
    pub fn inline(tester: Tester<'a>) -> Self {
        Pool::Inline {
            tester,
            queue: VecDeque::new(),
        }
    }

    /// `workers` threads in `scope`, which outlive the pool (they stop
    /// once it is dropped and their job is done).
    pub fn threads<'s>(scope: &'s Scope<'s, 'a>, workers: usize, tester: Tester<'a>) -> Self {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (done_tx, done) = mpsc::channel::<Report>();
        for _ in 0..workers {
            let job_rx = Arc::clone(&job_rx);
            let done_tx = done_tx.clone();
            scope.spawn(move || {
                loop {
                    let next = job_rx.lock().expect("job queue poisoned").recv();
                    let Ok(job) = next else { return };
                    let report = tester.run(&job, Watch::Signal(&job.cancel));
                    if done_tx.send(report).is_err() {
                        return;
                    }
                }
            });
        }
        Pool::Threads { jobs: job_tx, done }
    }

    /// Starts `job` (inline: when the engine next waits).
    pub fn submit(&mut self, job: Job) {
        match self {
            Pool::Inline { queue, .. } => queue.push_back(job),
            Pool::Threads { jobs, .. } => jobs.send(job).expect("workers outlive the pool"),
        }
    }

    /// The next report, waiting up to `wait` for one (inline: runs the
    /// next job to its end); `None` if none came.
    pub fn next_report(&mut self, wait: Duration) -> Option<Report> {
        match self {
            Pool::Inline { tester, queue } => {
                let job = queue.pop_front()?;
                let watch = match tester.interrupt {
                    Some(flag) => Watch::Interrupt(flag),
                    None => Watch::Signal(&job.cancel),
                };
                Some(tester.run(&job, watch))
            }
            Pool::Threads { done, .. } => match done.recv_timeout(wait) {
                Ok(report) => Some(report),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    unreachable!("workers outlive the pool")
                }
            },
        }
    }
}

//! The settle step every candidate goes through, whoever asked for it:
//! the verdict cache, the syntax filter's rejections, the oracle's
//! verdict counted, a pass re-tested before it counts (`--recheck`), a
//! test that could not run turned into a stop ([`StopReason::Fault`])
//! rather than a verdict, every verdict cached and told to the journal,
//! and a commit told to the step log, the syntax filter and the observer.

use std::sync::Arc;

use super::Engine;
use super::cache::{key_of, key_of_config};
use super::flight::Flight;
use super::limits::StopReason;
use super::pool::{Finished, Pool, Report};
use crate::configuration::Configuration;
use crate::interfaces::{Observer, Strictness, SyntaxFilter, TestOutcome, Verdict};
use crate::stats::PhaseStats;

/// What a worker's report settled.
pub(super) enum Settled {
    /// The verdict on the test of a ticket.
    Verdict(u64, bool),
    /// A pass that is tested again before it counts.
    Pending,
    /// A report on a test no one waits for any more.
    Stale,
    /// The run stops: a test still wanted was cancelled (only a stop
    /// does that) or could not run.
    Stop(StopReason),
}

/// A candidate as the engine knows it before any test: its cache key, the
/// cache's verdict if it had one, and its text if it came with one (else
/// it is rendered only when its test starts).
pub(super) struct Known {
    pub bytes: Option<Arc<Vec<u8>>>,
    pub key: u128,
    pub verdict: Option<bool>,
}

impl Engine<'_> {
    /// Asks the cache about `config` (whose text is `bytes` if given, else
    /// hashed as it renders, without holding it).
    pub(super) fn look_up(
        &self,
        config: &Configuration,
        bytes: Option<Arc<Vec<u8>>>,
        phase: &mut PhaseStats,
    ) -> Known {
        let key = match &bytes {
            Some(bytes) => key_of(bytes),
            None => key_of_config(self.units, config),
        };
        Known {
            bytes,
            key,
            verdict: self.cached_key(key, phase),
        }
    }

    /// The text of a candidate whose test starts: `bytes` if it has them,
    /// else its rendering, kept there.
    pub(super) fn text_of(
        &self,
        config: &Configuration,
        bytes: &mut Option<Arc<Vec<u8>>>,
    ) -> Arc<Vec<u8>> {
        Arc::clone(bytes.get_or_insert_with(|| Arc::new(self.units.render(config))))
    }

    /// What the cache knows about the candidate of `key`: an oracle
    /// verdict, or a syntax rejection while the filter applies strictly
    /// (any rejection is one for a strict filter, not the other way round).
    pub(super) fn cached_key(&self, key: u128, phase: &mut PhaseStats) -> Option<bool> {
        let filtering = self
            .active_filter()
            .is_some_and(|(_, s)| s == Strictness::Strict);
        let known = self.cache.as_ref().and_then(|c| {
            c.get(key)
                .or_else(|| (filtering && c.syntax_rejected(key)).then_some(false))
        });
        phase.cache_hits += u64::from(known.is_some());
        known
    }

    /// The text of `base`, the configuration candidates were proposed
    /// from, when the filter needs it (lenient).
    pub(super) fn parent_of(&self, base: Option<&Configuration>) -> Option<Arc<Vec<u8>>> {
        let lenient = self
            .active_filter()
            .is_some_and(|(_, s)| s == Strictness::MissingTokensFree);
        base.filter(|_| lenient)
            .map(|b| Arc::new(self.units.render(b)))
    }

    /// Settles a worker's report (see the module documentation).
    pub(super) fn settle(
        &mut self,
        report: Report,
        flight: &mut Flight,
        pool: &mut Pool<'_>,
        phase: &mut PhaseStats,
    ) -> Settled {
        let ticket = report.ticket;
        let Some(entry) = flight.get(ticket) else {
            return Settled::Stale;
        };
        let (key, confirming) = (entry.key, entry.confirming);
        let interesting = match report.finished {
            Finished::Cancelled => {
                return Settled::Stop(self.limit_hit().unwrap_or(StopReason::Interrupted));
            }
            Finished::Fault(fault) => {
                self.fault = Some(fault);
                return Settled::Stop(StopReason::Fault);
            }
            Finished::SyntaxRejected => {
                self.record_rejection(key, phase);
                flight.finish(ticket);
                return Settled::Verdict(ticket, false);
            }
            Finished::Tested(outcome) => {
                self.count_test(&outcome, phase);
                let interesting = outcome.verdict == Verdict::Interesting;
                if !outcome.replayed {
                    self.timing.record(report.took, interesting);
                }
                interesting
            }
        };
        if interesting && self.recheck && !confirming {
            pool.submit(flight.retest(ticket));
            return Settled::Pending;
        }
        self.recheck_failures += u64::from(confirming && !interesting);
        self.remember(key, interesting);
        flight.finish(ticket);
        Settled::Verdict(ticket, interesting)
    }

    /// Counts an oracle test; a verdict replayed from an earlier run ran
    /// none and counts as a cache hit (as a single file's resumed run
    /// finds it in the cache).
    fn count_test(&mut self, outcome: &TestOutcome, phase: &mut PhaseStats) {
        if outcome.replayed {
            phase.cache_hits += 1;
            return;
        }
        phase.tests += 1;
        phase.timeouts += u64::from(outcome.timed_out);
        self.tests_total += 1;
    }

    /// Counts a candidate the syntax filter refused and remembers it.
    fn record_rejection(&mut self, key: u128, phase: &mut PhaseStats) {
        phase.syntax_rejected += 1;
        if let Some(cache) = &mut self.cache {
            cache.insert_syntax_rejected(key);
        }
    }

    /// Caches a verdict and tells the log.
    fn remember(&mut self, key: u128, interesting: bool) {
        if let Some(cache) = &mut self.cache {
            cache.insert(key, interesting);
            if let Some(log) = self.log {
                log.verdict(key, interesting);
            }
        }
    }

    /// Counts and announces a committed candidate: the step log, the
    /// syntax filter (the next candidates are edits of it) and the
    /// observer.
    pub(super) fn commit(
        &self,
        config: &Configuration,
        bytes: &[u8],
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) {
        phase.successes += 1;
        self.rebase_filter(bytes);
        if let Some(steps) = self.steps {
            steps.accepted(&phase.name, bytes);
        }
        observer.on_improved(config, bytes);
        observer.on_progress(phase, config);
    }

    /// The syntax filter and how strict it is, if it applies to the
    /// current phase.
    pub(super) fn active_filter(&self) -> Option<(&dyn SyntaxFilter, Strictness)> {
        self.filter.zip(self.filter_strictness)
    }

    pub(super) fn rebase_filter(&self, bytes: &[u8]) {
        if let Some((filter, _)) = self.active_filter() {
            filter.rebase(bytes);
        }
    }
}

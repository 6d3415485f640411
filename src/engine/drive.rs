//! The one loop: every candidate of every scheduler is tested here. It
//! settles the front of the lookahead (`lookahead.rs`) and commits what
//! the front's scheduler commits, drops copies made on guesses that went
//! wrong, starts waiting tests while workers are free, runs copies of the
//! scheduler ahead on guessed verdicts while workers are still free, tests
//! the next phases' first candidates when the path ahead is over, and
//! waits for a report, which the settle step (`settle.rs`) turns into a
//! verdict. With one job the pool runs each test inline, through the same
//! steps.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::Engine;
use super::flight::Flight;
use super::limits::StopReason;
use super::lookahead::{self, Node, Slot, SlotState};
use super::pool::Pool;
use super::settle::Settled;
use crate::configuration::Configuration;
use crate::interfaces::Observer;
use crate::policy::Policy;
use crate::schedulers::prefetch::Prefetch;
use crate::schedulers::{Ended, Next, Scheduler, Taken};
use crate::stats::PhaseStats;

/// The longest the loop waits for a report before looking at the running
/// tests' guesses again.
const MAX_WAIT: Duration = Duration::from_millis(50);

/// How many nodes may wait behind the front beyond one per job (nodes the
/// cache answered need no worker).
const MAX_SETTLED_AHEAD: usize = 32;

/// Below this chance that the path ahead is the real one, no copy is run
/// further ahead (but along a short chain, see [`Engine::extend`]).
const LEAST_CONFIDENCE: f64 = 0.05;

/// The phases that come next, built as the tests ahead need them.
pub(super) struct Upcoming<'u> {
    source: &'u mut dyn Iterator<Item = Box<dyn Policy>>,
    built: Vec<Box<dyn Policy>>,
}

impl Upcoming<'_> {
    /// A copy of the `i`th phase to come, if there is one.
    fn get(&mut self, i: usize) -> Option<Box<dyn Policy>> {
        while self.built.len() <= i {
            self.built.push(self.source.next()?);
        }
        Some(self.built[i].clone_box())
    }
}

/// Tests of the next phases' first candidates ([`Prefetch`]).
struct Ahead {
    prefetch: Prefetch,
    /// Their tests in flight, in the order started.
    tickets: Vec<u64>,
}

/// One drive's moving parts.
struct Drive<'p, 'u> {
    nodes: VecDeque<Node>,
    flight: Flight,
    pool: Pool<'p>,
    ahead: Option<Ahead>,
    upcoming: Upcoming<'u>,
    /// The text committed last.
    committed: Option<Arc<Vec<u8>>>,
}

/// What a drive left.
pub(super) struct Driven {
    /// The best so far: what was committed last, else the start.
    pub best: Arc<Configuration>,
    pub reason: StopReason,
    pub ended: Ended,
    /// The text committed last, if anything was.
    pub committed: Option<Arc<Vec<u8>>>,
}

/// The best after `taken`'s commits on a path whose best was `best`.
fn best_after(best: &Arc<Configuration>, taken: &Taken) -> Arc<Configuration> {
    taken
        .commits
        .last()
        .map_or_else(|| Arc::clone(best), |c| Arc::clone(&c.config))
}

impl Engine<'_> {
    /// Drives `scheduler` from `start` until it is over or the run stops;
    /// commits are told to `observer`. `upcoming` gives the phases
    /// that run next, for the tests ahead.
    pub(super) fn drive(
        &mut self,
        scheduler: Box<dyn Scheduler>,
        start: Arc<Configuration>,
        observer: &mut dyn Observer,
        phase: &mut PhaseStats,
        upcoming: &mut dyn Iterator<Item = Box<dyn Policy>>,
    ) -> Driven {
        let notice = Arc::clone(&self.notice);
        let interrupt = self.limits.interrupt.clone();
        let tester = self.tester(&notice, interrupt.as_deref());
        let upcoming = Upcoming {
            source: upcoming,
            built: Vec::new(),
        };
        if self.jobs == 1 {
            let pool = Pool::inline(tester);
            return self.drive_on(pool, upcoming, scheduler, start, observer, phase);
        }
        let jobs = self.jobs;
        std::thread::scope(|scope| {
            let pool = Pool::threads(scope, jobs, tester);
            self.drive_on(pool, upcoming, scheduler, start, observer, phase)
        })
    }

    fn drive_on(
        &mut self,
        pool: Pool<'_>,
        upcoming: Upcoming<'_>,
        scheduler: Box<dyn Scheduler>,
        start: Arc<Configuration>,
        observer: &mut dyn Observer,
        phase: &mut PhaseStats,
    ) -> Driven {
        let first = self.make_node(scheduler, start, Vec::new(), false, phase);
        let mut d = Drive {
            nodes: VecDeque::from([first]),
            flight: Flight::default(),
            pool,
            ahead: None,
            upcoming,
            committed: None,
        };
        let reason = loop {
            self.settle_front(&mut d, phase, &mut *observer);
            if d.nodes[0].over {
                break self.finish_ahead(&mut d, phase);
            }
            if let Some(reason) = self.limit_hit() {
                break reason;
            }
            self.drop_wrong(&mut d, phase);
            self.start_waiting(&mut d, phase);
            self.extend(&mut d, phase);
            self.test_ahead(&mut d, phase);
            if d.nodes[0].is_known() {
                continue;
            }
            let window = self.timing.pass_window();
            let wait = d.flight.next_change(window, Instant::now(), MAX_WAIT);
            let Some(report) = d.pool.next_report(wait) else {
                continue;
            };
            match self.settle(report, &mut d.flight, &mut d.pool, phase) {
                Settled::Verdict(ticket, verdict) => {
                    lookahead::give(&mut d.nodes, ticket, verdict);
                    phase.wasted += took_ahead(&mut d, ticket, verdict);
                    observer.on_progress(phase, &d.nodes[0].best);
                }
                Settled::Pending | Settled::Stale => {}
                Settled::Stop(reason) => break reason,
            }
        };
        phase.wasted += d.flight.cancel_all();
        let front = d.nodes.pop_front().expect("the front");
        Driven {
            best: front.best,
            reason,
            ended: front.state.end(),
            committed: d.committed,
        }
    }

    /// Asks `state` for its next batch and looks its candidates up in the
    /// cache: a node on the path whose best is `best`, made on `made_on`.
    fn make_node(
        &self,
        mut state: Box<dyn Scheduler>,
        best: Arc<Configuration>,
        made_on: Vec<bool>,
        on_guessed_pass: bool,
        phase: &mut PhaseStats,
    ) -> Node {
        let (base, slots, over) = match state.next() {
            Next::Over => (None, Vec::new(), true),
            Next::Batch(batch) => {
                let slots = batch.asks.into_iter().map(|ask| {
                    let known = self.look_up(&ask.config, ask.bytes, phase);
                    Slot {
                        config: ask.config,
                        bytes: known.bytes,
                        key: known.key,
                        prior: ask.prior,
                        state: known.verdict.map_or(SlotState::Waiting, SlotState::Known),
                    }
                });
                (batch.base, slots.collect(), false)
            }
        };
        let parent = self.parent_of(base.as_deref());
        Node {
            state,
            best,
            parent,
            slots,
            over,
            made_on,
            taken: Taken::default(),
            on_guessed_pass,
        }
    }

    /// Settles the front while its verdicts are all known: keeps the next
    /// node if it was made on them, else makes it anew from the front's
    /// state; commits what taking them committed.
    fn settle_front(
        &mut self,
        d: &mut Drive<'_, '_>,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) {
        while !d.nodes[0].over && d.nodes[0].is_known() {
            let verdicts = d.nodes[0].verdicts();
            let front = d.nodes.pop_front().expect("the front");
            let taken = if d.nodes.front().is_some_and(|n| n.made_on == verdicts) {
                std::mem::take(&mut d.nodes[0].taken)
            } else {
                phase.wasted += lookahead::drop_from(&mut d.nodes, 0, &mut d.flight);
                let mut state = front.state;
                let taken = state.take(&verdicts);
                let best = best_after(&front.best, &taken);
                let node = self.make_node(state, best, verdicts, false, phase);
                d.nodes.push_front(node);
                taken
            };
            self.apply(taken, &front.slots, d, phase, &mut *observer);
        }
    }

    /// Commits `taken`'s commits (their text from `slots` where one holds
    /// it) and counts its waves and merges.
    fn apply(
        &self,
        taken: Taken,
        slots: &[Slot],
        d: &mut Drive<'_, '_>,
        phase: &mut PhaseStats,
        observer: &mut dyn Observer,
    ) {
        for commit in taken.commits {
            let held = slots
                .iter()
                .find(|s| Arc::ptr_eq(&s.config, &commit.config));
            let bytes = commit
                .bytes
                .or_else(|| held.and_then(|s| s.bytes.clone()))
                .unwrap_or_else(|| Arc::new(self.units.render(&commit.config)));
            self.commit(&commit.config, &bytes, phase, &mut *observer);
            d.committed = Some(bytes);
        }
        phase.waves += taken.waves;
        phase.merged += taken.merged;
    }

    /// Brings the running tests' guesses up to date and drops the copies
    /// made on guesses that no longer hold.
    fn drop_wrong(&mut self, d: &mut Drive<'_, '_>, phase: &mut PhaseStats) {
        d.flight.reguess(self.timing.pass_window(), Instant::now());
        let share = self.timing.pass_share();
        if let Some(at) = lookahead::first_wrong(&d.nodes, &d.flight, share) {
            phase.wasted += lookahead::drop_from(&mut d.nodes, at, &mut d.flight);
        }
    }

    /// Starts the slots still waiting, front first, while workers are
    /// free; a slot whose candidate is in flight already waits for that
    /// test, one the cache knows by now takes its verdict.
    fn start_waiting(&mut self, d: &mut Drive<'_, '_>, phase: &mut PhaseStats) {
        for node in d.nodes.iter_mut().filter(|n| n.waits()) {
            for slot in node.slots.iter_mut() {
                if slot.state != SlotState::Waiting {
                    continue;
                }
                // A test in flight is shared only where its verdict is the
                // candidate's, whoever asked: the cache is on (verdicts go
                // by text) and the filter judges the text alone.
                let shared = self.cache.is_some() && node.parent.is_none();
                if shared && let Some(ticket) = d.flight.hold(slot.key) {
                    slot.state = SlotState::Running(ticket);
                } else if let Some(verdict) = self.cached_key(slot.key, phase) {
                    slot.state = SlotState::Known(verdict);
                } else if d.flight.len() < self.jobs {
                    let bytes = self.text_of(&slot.config, &mut slot.bytes);
                    let job = d.flight.start(
                        slot.key,
                        Arc::clone(&slot.config),
                        bytes,
                        node.parent.clone(),
                    );
                    slot.state = SlotState::Running(job.ticket);
                    d.pool.submit(job);
                    phase.guessed_pass += u64::from(node.on_guessed_pass);
                } else {
                    return;
                }
            }
        }
    }

    /// Runs copies of the tail's scheduler ahead on its guessed verdicts
    /// while workers are free and the path ahead is likely enough: at
    /// least [`LEAST_CONFIDENCE`] likely, or a chain of single candidates
    /// (the path of failures, the next levels of a binary search) up to a
    /// quarter of the workers deep (at least two), whatever its chances.
    fn extend(&mut self, d: &mut Drive<'_, '_>, phase: &mut PhaseStats) {
        let share = self.timing.pass_share();
        let floor = (self.jobs / 4).max(2);
        loop {
            let tail = d.nodes.back().expect("the front");
            if d.flight.len() >= self.jobs
                || d.nodes.len() >= self.jobs + MAX_SETTLED_AHEAD
                || tail.over
                || tail.waits()
            {
                return;
            }
            let unknown = |n: &Node| n.slots.iter().filter(|s| !s.is_known()).count();
            let chain = unknown(tail) <= 1 && d.nodes.iter().map(unknown).sum::<usize>() < floor;
            if !chain && lookahead::path_confidence(&d.nodes, &d.flight, share) < LEAST_CONFIDENCE {
                return;
            }
            let guesses = lookahead::guess(tail, &d.flight, share);
            let mut state = tail.state.clone_box();
            let taken = state.take(&guesses.verdicts);
            let best = best_after(&tail.best, &taken);
            let mut node =
                self.make_node(state, best, guesses.verdicts, guesses.running_pass, phase);
            node.taken = taken;
            d.nodes.push_back(node);
            self.start_waiting(d, phase);
        }
    }

    /// Tests the next phases' first candidates while the path ahead is
    /// over and workers are free ([`Prefetch`]); drops those made for
    /// another end of the phase.
    fn test_ahead(&mut self, d: &mut Drive<'_, '_>, phase: &mut PhaseStats) {
        let tail = d.nodes.back().expect("the front");
        // The path ahead may be cut and made again to the same end: the
        // tests ahead go only once it ends elsewhere.
        let Some(end) = tail.over.then(|| Arc::clone(&tail.best)) else {
            return;
        };
        drop_ahead_unless(d, Some(&end), phase);
        // Only with waves: building the next phases' policies twice (here,
        // then for the phase itself) cost more than the few tests ahead
        // two or three workers get at a phase's end (a third more reducer
        // CPU on a 1.2 MB C++ unit at -j 2).
        if self.cache.is_none() || self.wave <= 1 {
            return;
        }
        let parent = self.parent_of(Some(&end));
        let ahead = d.ahead.get_or_insert_with(|| Ahead {
            prefetch: Prefetch::new(end),
            tickets: Vec::new(),
        });
        while d.flight.len() < self.jobs {
            let upcoming = &mut d.upcoming;
            let Some(candidate) = ahead.prefetch.next_candidate(&mut |i| upcoming.get(i)) else {
                return;
            };
            let known = self.look_up(&candidate, None, phase);
            match known.verdict {
                Some(true) => ahead.prefetch.stop(),
                Some(false) => {}
                None => {
                    let held = parent.is_none().then(|| d.flight.hold(known.key));
                    let ticket = match held.flatten() {
                        Some(ticket) => ticket,
                        None => {
                            // Looked up without a text: rendered now.
                            let bytes = Arc::new(self.units.render(&candidate));
                            let job = d.flight.start(known.key, candidate, bytes, parent.clone());
                            let ticket = job.ticket;
                            d.pool.submit(job);
                            ticket
                        }
                    };
                    ahead.tickets.push(ticket);
                }
            }
        }
    }

    /// At the end of the phase: waits for the tests ahead if the phase
    /// ended where they assumed, so that their verdicts are in the cache
    /// when the next phase asks for their candidates.
    fn finish_ahead(&mut self, d: &mut Drive<'_, '_>, phase: &mut PhaseStats) -> StopReason {
        let end = Arc::clone(&d.nodes[0].best);
        drop_ahead_unless(d, Some(&end), phase);
        while d.ahead.as_ref().is_some_and(|a| !a.tickets.is_empty()) {
            if let Some(reason) = self.limit_hit() {
                return reason;
            }
            let Some(report) = d.pool.next_report(MAX_WAIT) else {
                continue;
            };
            match self.settle(report, &mut d.flight, &mut d.pool, phase) {
                Settled::Verdict(ticket, verdict) => phase.wasted += took_ahead(d, ticket, verdict),
                Settled::Pending | Settled::Stale => {}
                Settled::Stop(reason) => return reason,
            }
        }
        StopReason::Finished
    }
}

/// Drops the tests ahead unless they were made for a phase ending at `end`.
fn drop_ahead_unless(
    d: &mut Drive<'_, '_>,
    end: Option<&Arc<Configuration>>,
    phase: &mut PhaseStats,
) {
    let base = |a: &Ahead| Arc::clone(a.prefetch.base());
    let same = |b: Arc<Configuration>| end.is_some_and(|e| Arc::ptr_eq(e, &b) || **e == *b);
    if d.ahead.as_ref().is_some_and(|a| !same(base(a))) {
        let ahead = d.ahead.take().expect("tests ahead");
        for ticket in ahead.tickets {
            phase.wasted += u64::from(d.flight.release(ticket));
        }
    }
}

/// A test ahead of the next phases has its verdict: a pass ends the tests
/// ahead (what follows it would be proposed from another base). How many
/// tests that cancelled.
fn took_ahead(d: &mut Drive<'_, '_>, ticket: u64, verdict: bool) -> u64 {
    let Some(ahead) = d.ahead.as_mut() else {
        return 0;
    };
    // A candidate two phases propose is held twice.
    let Some(at) = ahead.tickets.iter().position(|t| *t == ticket) else {
        return 0;
    };
    ahead.tickets.retain(|t| *t != ticket);
    if !verdict {
        return 0;
    }
    ahead.prefetch.stop();
    ahead
        .tickets
        .drain(at..)
        .map(|later| u64::from(d.flight.release(later)))
        .sum()
}

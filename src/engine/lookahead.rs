//! Testing ahead, and the rule that makes `-j N` commit what `-j 1`
//! commits, stated once:
//!
//! **A scheduler's verdicts are taken in the order it asked for them, and
//! only real verdicts are ever taken on the path that commits.** Copies of
//! the scheduler may run ahead on guessed verdicts to find what it would
//! ask next, and those candidates are tested while the real verdicts are
//! still coming; a copy made on a guess that turns out wrong is dropped
//! with its tests. So the number of workers, the order in which tests
//! finish and how good the guesses are change which tests run, never what
//! is committed.
//!
//! The lookahead is a chain of [`Node`]s: the front is the scheduler's
//! real state with the batch it asked last; each later node is a copy made
//! by taking the node before it's verdicts, guessed where unknown
//! ([`Node::made_on`]), and asking the next batch. When the front's
//! verdicts are all in, the next node is kept if it was made on exactly
//! those verdicts, else every later node goes and the front's state takes
//! the real ones. A test still running is guessed to fail unless its
//! running time says it passes (`timing.rs`), or its scheduler says it is
//! likely to (a merge's union), or it passed once and is being re-tested.

use std::collections::VecDeque;
use std::sync::Arc;

use super::flight::Flight;
use crate::configuration::Configuration;
use crate::schedulers::{Scheduler, Taken};

/// The share of tests guessed to pass by their running time that pass,
/// as the engine counts on (`timing.rs` guesses a pass from 60%).
const TIMED_PASS: f64 = 0.6;
/// How likely a pass is to pass its re-test.
const RETEST_PASS: f64 = 0.9;

/// One batch of one copy of a scheduler (see the module documentation).
pub(super) struct Node {
    /// The scheduler's state once it asked this batch (or said it is over).
    pub state: Box<dyn Scheduler>,
    /// The best so far on this path, the base of this batch.
    pub best: Arc<Configuration>,
    /// The text the batch was proposed from, when the syntax filter needs
    /// it (lenient).
    pub parent: Option<Arc<Vec<u8>>>,
    pub slots: Vec<Slot>,
    /// The scheduler said it is over: nothing follows.
    pub over: bool,
    /// The verdicts of the node before that this one was made on
    /// (guessed where unknown then).
    pub made_on: Vec<bool>,
    /// What taking them gave: committed when this node becomes the front.
    pub taken: Taken,
    /// Made on the guess that a test still running passes.
    pub on_guessed_pass: bool,
}

/// A candidate of a node's batch.
pub(super) struct Slot {
    pub config: Arc<Configuration>,
    /// Its text, once its test started (or if it came with one).
    pub bytes: Option<Arc<Vec<u8>>>,
    pub key: u128,
    /// How likely it is to pass, if the scheduler said.
    pub prior: Option<f64>,
    pub state: SlotState,
}

/// Where a slot's verdict is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SlotState {
    Known(bool),
    /// Not started yet: no worker was free.
    Waiting,
    /// Its test is in flight under this ticket.
    Running(u64),
}

impl Slot {
    pub fn is_known(&self) -> bool {
        matches!(self.state, SlotState::Known(_))
    }
}

impl Node {
    /// Whether every verdict is known.
    pub fn is_known(&self) -> bool {
        self.slots
            .iter()
            .all(|s| matches!(s.state, SlotState::Known(_)))
    }

    /// The verdicts, once all are known.
    pub fn verdicts(&self) -> Vec<bool> {
        self.slots
            .iter()
            .map(|s| match s.state {
                SlotState::Known(v) => v,
                _ => unreachable!("every verdict is known"),
            })
            .collect()
    }

    /// Whether a slot is still to be started.
    pub fn waits(&self) -> bool {
        self.slots.iter().any(|s| s.state == SlotState::Waiting)
    }
}

/// The verdicts guessed for a node's slots, how likely the guesses all are
/// to be right, and whether one guesses a running test passes.
pub(super) struct Guesses {
    pub verdicts: Vec<bool>,
    pub confidence: f64,
    pub running_pass: bool,
}

/// Guesses `node`'s verdicts (see the module documentation); `pass_share`
/// is the share of recent tests that passed.
pub(super) fn guess(node: &Node, flight: &Flight, pass_share: f64) -> Guesses {
    let mut guesses = Guesses {
        verdicts: Vec::with_capacity(node.slots.len()),
        confidence: 1.0,
        running_pass: false,
    };
    for slot in &node.slots {
        let entry = match slot.state {
            SlotState::Running(ticket) => flight.get(ticket),
            _ => None,
        };
        let (verdict, likely) = match (slot.state, entry) {
            (SlotState::Known(v), _) => (v, 1.0),
            (_, Some(e)) if e.confirming => (true, RETEST_PASS),
            (_, Some(e)) if e.guess.passes => (true, TIMED_PASS),
            _ => match slot.prior {
                Some(p) if p >= 0.5 => (true, p),
                Some(p) => (false, 1.0 - p),
                None => (false, 1.0 - pass_share),
            },
        };
        guesses.running_pass |= verdict && entry.is_some();
        guesses.confidence *= likely;
        guesses.verdicts.push(verdict);
    }
    guesses
}

/// The first node (after the front) made on guesses its predecessor's
/// verdicts or current guesses no longer match, if any.
pub(super) fn first_wrong(
    nodes: &VecDeque<Node>,
    flight: &Flight,
    pass_share: f64,
) -> Option<usize> {
    (1..nodes.len())
        .find(|&i| guess(&nodes[i - 1], flight, pass_share).verdicts != nodes[i].made_on)
}

/// Drops the nodes from `at` on, letting go of their tests; how many tests
/// that cancelled.
pub(super) fn drop_from(nodes: &mut VecDeque<Node>, at: usize, flight: &mut Flight) -> u64 {
    let mut cancelled = 0;
    for node in nodes.drain(at..) {
        for slot in &node.slots {
            if let SlotState::Running(ticket) = slot.state {
                cancelled += u64::from(flight.release(ticket));
            }
        }
    }
    cancelled
}

/// Gives every slot waiting on `ticket` its verdict.
pub(super) fn give(nodes: &mut VecDeque<Node>, ticket: u64, verdict: bool) {
    for node in nodes.iter_mut() {
        for slot in &mut node.slots {
            if slot.state == SlotState::Running(ticket) {
                slot.state = SlotState::Known(verdict);
            }
        }
    }
}

/// How likely the path from the front to the tail is to be the real one:
/// every node's guesses right.
pub(super) fn path_confidence(nodes: &VecDeque<Node>, flight: &Flight, pass_share: f64) -> f64 {
    nodes
        .iter()
        .map(|n| guess(n, flight, pass_share).confidence)
        .product()
}

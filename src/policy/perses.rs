//! Perses: syntax-guided reduction by node replacement and list deletion.
//!
//! Why: deleting whole subtrees (HDD) cannot free a statement from the
//! wrappers around it (`if (c) { crash(); }`). Perses adds *replacement*:
//! keep a compatible descendant `d` of a node `n` and delete everything else
//! under `n`, so `{ if (c1) { if (c2) { crash(); } } }` becomes `{ crash(); }`
//! in one test, while the result stays grammatical.
//!
//! One pass of the tutorial's schedule ([`PersesSchedule::Tutorial`], with
//! the whole-subtree search of [`PersesOptions::tutorial`]):
//! 1. kept-token sizes of every node ([`Tree::sizes`], a prefix sum) and the
//!    live internal nodes sorted by size descending, then rank ascending;
//! 2. the *active list* is picked: a list is a node with at least one
//!    deletable child (the toy grammar's `stmt_list`; in a real grammar any
//!    node with optional, list or extra children). The active list stays the
//!    same while it is live and not finished; otherwise the largest live list
//!    not in `done` is taken and gets a fresh list minimizer;
//! 3. replacements first: for every live internal node `n` in that order,
//!    every present, live proper descendant `d` with
//!    `Tree::can_replace(n, d)`, smallest `d` first (then rank), each
//!    proposing to delete the tokens of `n` not under `d` when that is not
//!    empty;
//! 4. then the active list's deletions, from its minimizer (kept across
//!    passes) over its present deletable children in rank order.
//!
//! `on_reduced` forwards the pass's outcome to the active list's minimizer
//! in its own space (the list's surviving elements). A success clears
//! `done` (a deletion that failed may pass once the program shrank
//! elsewhere); a list whose minimizer reports itself minimal joins `done`.
//! The run ends after a pass that finds nothing while no list is active.
//!
//! Guarantee: at the end no single replacement (within the depth bound) and
//! no deletion the inner minimizer would try on any list succeeds (for a
//! 1-minimal inner minimizer, every list is 1-minimal).
//!
//! Cost per pass: O(nodes + units) for sizes and liveness, O(m log m) to
//! sort the m live internal nodes. Replacement candidates are generated
//! lazily, one node `n` at a time: only when the previous `n`'s candidates
//! are exhausted is the next `n`'s subtree scanned (pruning subtrees with no
//! kept token) and its candidates sorted. Scanning every `n`'s whole subtree
//! would cost O(Σ subtree sizes) = O(nodes × depth) per pass, quadratic on
//! deep inputs, so `max_replacement_depth` bounds how far below `n` the scan
//! goes: with bound k a pass scans at most O(k × nodes) nodes in total (each
//! node is within k levels of at most k ancestors). `None` is unbounded, as
//! in the tutorial and its tests; the CLI passes a bound (real Perses uses a
//! bounded BFS of depth 4–5 too).
//!
//! Options ([`PersesOptions`]): `max_replacement_depth`, `schedule`,
//! `max_replacements_per_node` (sweep only).
//!
//! # The sweep schedule
//!
//! The tutorial's schedule above regenerates the replacement candidates of
//! *every* live node after every success, so each success costs a fresh
//! round of failing tests over the whole program: on a 2,254-token C file it
//! needed 21,196 oracle calls. [`PersesSchedule::Sweep`] is the node-level
//! analogue of Dr. DD's deferred restarts, and close to real Perses'
//! worklist (each node handled once per pass, fixpoint on top):
//!
//! 1. a sweep fixes, at its start, the live internal nodes ordered by kept
//!    size descending, then rank, and walks them with a cursor that
//!    survives successes: a success ends the reduce loop's pass, not the
//!    sweep, and the next pass resumes at the cursor (nodes no longer live
//!    or without a kept token are skipped; liveness and sizes are
//!    recomputed per pass, O(nodes + units));
//! 2. at a node: its replacement candidates as above (smallest first, then
//!    rank, within `max_replacement_depth`; unless
//!    `PersesOptions::every_descendant`, the search stops at a fitting
//!    descendant of two or more subtrees, as real Perses' BFS does, see
//!    `Perses::candidates`), at most
//!    `max_replacements_per_node` of them; a success moves on to the next
//!    node (the promoted descendant comes later in the order anyway);
//! 3. then, if the node is a list with present deletable children, a fresh
//!    inner minimizer over them (rank order, weights = kept sizes), driven
//!    across passes until it reports the list minimal; in a sweep after
//!    one that committed, a list minimized before gets a *rechecking*
//!    minimizer instead (`Minimizer::build_rechecking`: Dr. DD's
//!    single-element scans without its blocks, which all failed last time
//!    and each still hold a needed element), unless
//!    `recheck_minimized_lists` is off;
//! 4. at the end of the order: a new sweep if this one committed anything;
//!    after a fruitless sweep that rechecked some list, one more sweep
//!    from scratch (its tests mostly cache hits, only the skipped blocks
//!    are new), so the run ends where a fresh run from its result would
//!    and a second run changes nothing; otherwise the run is over.
//!    With `lists_minimized_before` (the default pipeline's later rounds,
//!    on a text an earlier Perses run left) every list counts as minimized
//!    from the start: every sweep only rechecks, and a fruitless sweep ends
//!    the run.
//!
//! Nodes only ever die as tokens go, so a sweep's order holds every node
//! that can be live during it. One wrinkle: a bare list (no mandatory
//! part, like the toy grammar's `stmt_list`) lives as long as its parent,
//! so when a nested list is promoted into its place the outer list stays
//! live and the promoted one, under dead wrappers, counts as dead; the
//! list step then works on the promoted list's elements
//! (`Perses::effective_list`), or they would never be minimized. Guarantee at the end (a fruitless sweep):
//! no single one of the first `max_replacements_per_node` replacements of
//! any live node succeeds, and every list is minimal for its inner
//! minimizer (1-minimal for ddmin). Cost: one sweep tests each live node's
//! capped candidates once plus one inner-minimizer run per list, instead of
//! all candidates of all nodes per success. Clones share the order, the
//! pass data and the candidate lists through `Arc`s; only the current
//! list's minimizer is copied.

use std::sync::Arc;

use crate::bitset::BitSet;
use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::{
    ElemList, ListMinimizer, Minimizer, MinimizerSettings, Policy, Selection, selection_of,
};
use crate::tree::{Liveness, NodeId, Sizes, Tree};

mod sweep;
mod waves;

/// The sweep schedule's default cap on replacements tried per node.
pub(crate) const DEFAULT_MAX_REPLACEMENTS_PER_NODE: u32 = 16;

/// How deep below a node Perses looks for a replacing descendant on real
/// inputs (the tutorial's toy trees search the whole subtree). Perses' own
/// default bound is 4–5 levels of its normalized grammar; tree-sitter trees
/// have fewer wrapper levels, so a similar bound keeps a pass O(n·depth).
pub(crate) const PERSES_REPLACEMENT_DEPTH: u32 = 6;

/// In which order Perses tries its edits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PersesSchedule {
    /// The tutorial's: after every success, the replacements of all live
    /// nodes again, then the active list ([`PersesOptions::tutorial`], so
    /// the tutorial's numbers hold).
    Tutorial,
    /// Deferred restarts over nodes: one cursor over the nodes, largest
    /// first, that survives successes; a new sweep only after the end (the
    /// default).
    #[default]
    Sweep,
}

impl PersesSchedule {
    /// Every schedule, in `--perses-schedule`'s order.
    pub const ALL: [PersesSchedule; 2] = [PersesSchedule::Tutorial, PersesSchedule::Sweep];

    /// The schedule's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PersesSchedule::Tutorial => "tutorial",
            PersesSchedule::Sweep => "sweep",
        }
    }
}

/// How Perses searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PersesOptions {
    /// How many levels below a node the search for a replacing descendant
    /// goes (`None`: the whole subtree, as in the tutorial).
    pub max_replacement_depth: Option<u32>,
    /// The order of the edits.
    pub schedule: PersesSchedule,
    /// Sweep only: how many of a node's replacement candidates (the
    /// smallest) are tried per sweep (`None`: all of them).
    pub max_replacements_per_node: Option<u32>,
    /// Sweep only: whether a sweep after one that committed only rechecks
    /// the lists minimized before (`Minimizer::build_rechecking`).
    pub recheck_minimized_lists: bool,
    /// Sweep only: the text is an earlier Perses run's result (a later
    /// round of the default pipeline), so every list counts as minimized
    /// before: every sweep only rechecks, and a fruitless sweep ends the
    /// run instead of being followed by one that minimizes every list
    /// from scratch.
    pub lists_minimized_before: bool,
    /// Whether every fitting descendant is a replacement candidate (the
    /// tutorial's search), or the search stops below a fitting descendant
    /// that holds two or more subtrees and skips single tokens below a
    /// fitting descendant (the binary's; see `Perses::candidates`).
    pub every_descendant: bool,
}

/// What the binary runs: the sweep schedule, a replacement search
/// `PERSES_REPLACEMENT_DEPTH` levels deep.
impl Default for PersesOptions {
    fn default() -> Self {
        PersesOptions {
            max_replacement_depth: Some(PERSES_REPLACEMENT_DEPTH),
            schedule: PersesSchedule::Sweep,
            max_replacements_per_node: Some(DEFAULT_MAX_REPLACEMENTS_PER_NODE),
            recheck_minimized_lists: true,
            lists_minimized_before: false,
            every_descendant: false,
        }
    }
}

impl PersesOptions {
    /// The tutorial's Perses: its schedule, and a replacement search over
    /// the whole subtree (the tutorial's oracle-call counts hold with these).
    pub fn tutorial() -> Self {
        PersesOptions {
            max_replacement_depth: None,
            schedule: PersesSchedule::Tutorial,
            every_descendant: true,
            ..PersesOptions::default()
        }
    }
}

/// What a pass knows about its configuration; immutable, shared by clones.
struct PassData {
    live: Liveness,
    /// Kept tokens under each node.
    size: Sizes,
    /// Live internal nodes, largest first, then by rank.
    order: Vec<NodeId>,
}

/// Where a pass is.
#[derive(Clone)]
enum Phase {
    /// Replacing `order[node_at - 1]` by `cands[next..]`; when those run out,
    /// the candidates of `order[node_at]` are computed.
    Replace {
        node_at: usize,
        node: NodeId,
        cands: Arc<Vec<NodeId>>,
        next: usize,
    },
    /// The active list's deletions.
    Delete,
}

/// Syntax-guided reduction: replacements, then deletions from one active list.
#[derive(Clone)]
pub struct Perses {
    tree: Arc<Tree>,
    /// Nodes with at least one deletable child.
    is_list: Arc<BitSet>,
    inner: Minimizer,
    settings: MinimizerSettings,
    options: PersesOptions,
    /// This pass's data (`None` before the first pass).
    pass: Option<Arc<PassData>>,
    phase: Phase,
    active: Option<NodeId>,
    minimizer: Option<Box<dyn ListMinimizer>>,
    /// The active list's elements this pass, in rank order.
    elems: Arc<Vec<NodeId>>,
    /// Lists whose minimizer found nothing more; cleared on any success.
    done: Arc<BitSet>,
    /// The sweep schedule's state (`None`: a new sweep starts next pass).
    sweep: Option<Sweep>,
    /// Lists the sweep schedule minimized to the end (their minimizer
    /// found nothing more): the sweep after one that committed rechecks
    /// them ([`Minimizer::build_rechecking`]) instead of minimizing from
    /// scratch.
    minimized: Arc<BitSet>,
    /// Whether the next sweep rechecks `minimized` lists.
    next_sweep_rechecks: bool,
}

/// What a sweep is doing at its current node.
#[derive(Clone)]
enum Step {
    /// Nothing yet: the node's candidates are computed when it is reached.
    Enter,
    /// Trying the node's replacements `cands[next..]` (never across passes).
    Replace {
        cands: Arc<Vec<NodeId>>,
        next: usize,
    },
    /// Minimizing the node's list: the deletable children of `list` (the
    /// node, or the list promoted into its place, see
    /// [`Perses::effective_list`]), `elems` this pass; `proposed`: whether
    /// the minimizer proposed anything this pass.
    List {
        list: NodeId,
        minimizer: Box<dyn ListMinimizer>,
        elems: Arc<Vec<NodeId>>,
        proposed: bool,
        /// The minimizer's last wave (`--wave`), for a merge.
        wave: Vec<Selection>,
    },
}

/// The kind of a sweep's latest proposal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Made {
    Nothing,
    Replacement,
    Deletion,
}

/// One sweep over the nodes (see the module documentation).
#[derive(Clone)]
struct Sweep {
    /// The live internal nodes at the sweep's start, largest first, then by rank.
    order: Arc<Vec<NodeId>>,
    /// The node worked on is `order[cursor]`; the sweep is over at the end.
    cursor: usize,
    step: Step,
    /// Whether this sweep committed anything.
    committed: bool,
    /// Whether lists minimized in an earlier sweep are only rechecked.
    rechecks: bool,
    /// Whether this sweep has rechecked a list with a minimizer that
    /// differs from a fresh one.
    rechecked: bool,
    last: Made,
    /// What each proposal of the last wave (`--wave`) does, for a merge.
    wave: Vec<WaveItem>,
}

/// A list of a merged wave, its elements and the positions deleted from it.
type ListDeletion<'a> = (NodeId, &'a Arc<Vec<NodeId>>, Vec<u32>);

/// One proposal of a wave of the sweep.
#[derive(Clone)]
enum WaveItem {
    /// Replaces the node by a descendant.
    Replace(NodeId),
    /// Deletes the elements at `positions` of the list whose elements
    /// (this pass) are `elems`.
    Delete {
        list: NodeId,
        elems: Arc<Vec<NodeId>>,
        positions: Vec<u32>,
    },
}

impl Sweep {
    /// On to the next node.
    fn advance(&mut self) {
        self.cursor += 1;
        self.step = Step::Enter;
    }
}

/// Live internal nodes, largest first, then by rank.
fn size_order(tree: &Tree, live: &Liveness, size: &Sizes) -> Vec<NodeId> {
    let mut order: Vec<NodeId> = (0..tree.len() as NodeId)
        .filter(|&n| !tree.is_leaf(n) && live.is_live(n))
        .collect();
    order.sort_unstable_by_key(|&n| (std::cmp::Reverse(size.get(n)), tree.rank(n)));
    order
}

impl Perses {
    pub fn new(
        tree: Arc<Tree>,
        inner: Minimizer,
        settings: MinimizerSettings,
        options: PersesOptions,
    ) -> Self {
        let n = tree.len() as u32;
        let mut is_list = BitSet::empty(n);
        for id in 0..n {
            if tree.children(id).any(|c| tree.deletable(c)) {
                is_list.insert(id);
            }
        }
        let minimized = if options.lists_minimized_before {
            is_list.clone()
        } else {
            BitSet::empty(n)
        };
        Perses {
            tree,
            is_list: Arc::new(is_list),
            inner,
            settings,
            options,
            pass: None,
            phase: Phase::Delete,
            active: None,
            minimizer: None,
            elems: Arc::new(Vec::new()),
            done: Arc::new(BitSet::empty(n)),
            sweep: None,
            minimized: Arc::new(minimized),
            next_sweep_rechecks: options.lists_minimized_before,
        }
    }

    fn pass(&self) -> &PassData {
        self.pass.as_deref().expect("start_pass comes first")
    }

    /// Keeps the active list while it is live and unfinished; otherwise
    /// takes the largest live list not done, with a fresh minimizer.
    fn pick_active(&mut self) {
        let pass = self.pass();
        if let Some(a) = self.active
            && !self.done.contains(a)
            && pass.live.is_live(a)
        {
            return;
        }
        let next = pass
            .order
            .iter()
            .copied()
            .find(|&n| self.is_list.contains(n) && !self.done.contains(n));
        if next != self.active {
            self.active = next;
            self.minimizer = None;
        }
    }

    /// The present deletable children of `list`, in rank order.
    fn elems_of(&self, list: NodeId, config: &Configuration) -> Vec<NodeId> {
        let tree = &self.tree;
        let mut elems: Vec<NodeId> = tree
            .children(list)
            .filter(|&c| tree.deletable(c) && tree.present(c, config))
            .collect();
        elems.sort_unstable_by_key(|&c| tree.rank(c));
        elems
    }

    fn elem_list(&self, elems: &[NodeId], config: &Configuration) -> ElemList {
        ElemList {
            ids: elems.iter().map(|&n| self.tree.rank(n)).collect(),
            weights: elems
                .iter()
                .map(|&n| self.tree.size(n, config) as u64)
                .collect(),
        }
    }

    /// The descendants that may replace `n`, smallest first, then by rank:
    /// present, live, fitting the slot `n` effectively fills, and at most
    /// `max_replacement_depth` levels below `n` — except descendants of
    /// `n`'s own kind, which are searched at any depth when `any_depth_same_kind`
    /// is set (a nested object, block or expression of the same kind is the
    /// likeliest fit, however deep).
    ///
    /// Unless [`PersesOptions::every_descendant`] is set, the search stops
    /// below a fitting descendant that holds two or more subtrees with kept
    /// tokens (as real Perses' BFS stops at the first fitting node of each
    /// path), and a single kept token below a fitting descendant is no
    /// candidate: `[{a: 1}, {b: 2}]` offers its two objects, not `1` and
    /// `2`, which would only be tried once an object has taken the array's
    /// place. A fitting descendant that wraps one subtree (a block around
    /// one statement, parentheses around one expression) is looked
    /// through, so a function still gives way to the one statement of its
    /// body in one step.
    fn candidates(&self, n: NodeId, any_depth_same_kind: bool) -> Vec<NodeId> {
        let tree = &self.tree;
        let pass = self.pass();
        let anchor = tree.anchor_of(n, &pass.live);
        if tree.parent(anchor).is_none() {
            return Vec::new(); // the root fills no slot
        }
        // How far below `n` candidates may lie.
        let limit = self.options.max_replacement_depth.unwrap_or(u32::MAX);
        let every = self.options.every_descendant;
        let kind = tree.kind(n);
        let mut out = Vec::new();
        // Descendants with their depths below `n`, and whether a fitting
        // descendant lies between them and `n`.
        let mut stack: Vec<(NodeId, u32, bool)> = tree.children(n).map(|c| (c, 1, false)).collect();
        while let Some((d, below, under_fit)) = stack.pop() {
            let size = pass.size.get(d);
            if size == 0 {
                continue;
            }
            let within = below <= limit;
            let same_kind = any_depth_same_kind && tree.kind(d) == kind;
            let fits =
                (within || same_kind) && pass.live.is_live(d) && tree.fits_slot_of(anchor, d);
            if fits && (every || !under_fit || size > 1) {
                out.push(d);
            }
            let search_below =
                (within || any_depth_same_kind) && (every || !fits || self.holds_one_subtree(d));
            if search_below {
                stack.extend(
                    tree.children(d)
                        .map(|c| (c, below.saturating_add(1), under_fit || fits)),
                );
            }
        }
        out.sort_unstable_by_key(|&d| (pass.size.get(d), tree.rank(d)));
        out
    }

    /// Whether at most one child of `d` with kept tokens is an internal
    /// node: `d` only wraps what it holds (`{ s; }`, `(e)`, `a + b`).
    fn holds_one_subtree(&self, d: NodeId) -> bool {
        let pass = self.pass();
        self.tree
            .children(d)
            .filter(|&c| !self.tree.is_leaf(c) && pass.size.get(c) > 0)
            .nth(1)
            .is_none()
    }

    /// Replaces `n` by its descendant `d`: deletes the tokens of `n` not under `d`.
    fn replacement(&self, n: NodeId, d: NodeId) -> Proposal {
        let (outer, inner) = (self.tree.tokens(n), self.tree.tokens(d));
        Proposal::delete(Delta::from_ranges(vec![
            outer.start..inner.start,
            inner.end..outer.end,
        ]))
    }

    /// Deletes the elements `selection` picks from `elems`, separators included.
    fn list_deletion(
        &self,
        selection: &Selection,
        elems: &[NodeId],
        config: &Configuration,
    ) -> Proposal {
        let mut chosen: Vec<NodeId> = selection
            .iter()
            .flat_map(|r| r.clone())
            .map(|p| elems[p as usize])
            .collect();
        chosen.sort_unstable();
        Proposal::delete(self.tree.deletion_delta(&chosen, config))
    }

    /// The next replacement of this pass, if any.
    fn next_replacement(&mut self) -> Option<Proposal> {
        loop {
            let Phase::Replace {
                node_at,
                node,
                cands,
                next,
            } = &mut self.phase
            else {
                return None;
            };
            if let Some(&d) = cands.get(*next) {
                *next += 1;
                let n = *node;
                let size = &self.pass.as_deref().expect("in a pass").size;
                if size.get(n) > size.get(d) {
                    return Some(self.replacement(n, d));
                }
                continue;
            }
            let order = &self.pass.as_deref().expect("in a pass").order;
            let Some(&n) = order.get(*node_at) else {
                self.phase = Phase::Delete;
                return None;
            };
            let at = *node_at + 1;
            let cands = Arc::new(self.candidates(n, false));
            self.phase = Phase::Replace {
                node_at: at,
                node: n,
                cands,
                next: 0,
            };
        }
    }
}

/// The tutorial's schedule.
impl Perses {
    fn tutorial_start_pass(&mut self, config: &Configuration) {
        let tree = &self.tree;
        let earlier = self.pass.as_deref().map(|p| &p.live);
        let (size, live) = tree.sizes_and_liveness(config, earlier);
        let order = size_order(tree, &live, &size);
        self.pass = Some(Arc::new(PassData { live, size, order }));
        self.pick_active();
        self.phase = Phase::Replace {
            node_at: 0,
            node: 0,
            cands: Arc::new(Vec::new()),
            next: 0,
        };
        match self.active {
            Some(a) => {
                let elems = self.elems_of(a, config);
                let list = self.elem_list(&elems, config);
                let minimizer = self
                    .minimizer
                    .get_or_insert_with(|| self.inner.build(&self.settings));
                minimizer.start_pass(&list);
                self.elems = Arc::new(elems);
            }
            None => self.elems = Arc::new(Vec::new()),
        }
    }

    fn tutorial_next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        if let Some(p) = self.next_replacement() {
            return Some(p);
        }
        self.active?;
        let selection = self.minimizer.as_mut()?.next_deletion()?;
        Some(self.list_deletion(&selection, &self.elems, config))
    }

    fn tutorial_on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        let Some(a) = self.active else {
            return reduced.is_some(); // a replacements-only pass
        };
        let elems = reduced.map(|c| {
            let nodes = self.elems_of(a, c);
            self.elem_list(&nodes, c)
        });
        let not_minimal = self
            .minimizer
            .as_mut()
            .is_some_and(|m| m.on_reduced(elems.as_ref()));
        if reduced.is_some() {
            if !self.done.is_empty() {
                self.done = Arc::new(BitSet::empty(self.tree.len() as u32));
            }
        } else if !not_minimal {
            Arc::make_mut(&mut self.done).insert(a);
        }
        true
    }
}

impl Policy for Perses {
    fn name(&self) -> String {
        match self.options.schedule {
            PersesSchedule::Tutorial => format!("perses+{}", self.inner.name()),
            PersesSchedule::Sweep => format!("perses-sweep+{}", self.inner.name()),
        }
    }

    fn start_pass(&mut self, config: &Configuration) {
        match self.options.schedule {
            PersesSchedule::Tutorial => self.tutorial_start_pass(config),
            PersesSchedule::Sweep => self.sweep_start_pass(config),
        }
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        match self.options.schedule {
            PersesSchedule::Tutorial => self.tutorial_next_proposal(config),
            PersesSchedule::Sweep => self.sweep_next_wave(config, 1).pop(),
        }
    }

    /// The sweep's list deletions come in waves; a replacement, and the
    /// tutorial schedule's proposals, one at a time.
    fn next_wave(&mut self, config: &Configuration, k: usize) -> Vec<Proposal> {
        match self.options.schedule {
            PersesSchedule::Tutorial => self.tutorial_next_proposal(config).into_iter().collect(),
            PersesSchedule::Sweep => self.sweep_next_wave(config, k),
        }
    }

    fn merge(&self, config: &Configuration, wave: &[Proposal], chosen: &mut [bool]) -> Proposal {
        match self.options.schedule {
            PersesSchedule::Sweep => self.sweep_merge(config, wave, chosen),
            PersesSchedule::Tutorial => {
                Proposal::union(wave.iter().zip(&*chosen).filter(|c| *c.1).map(|c| c.0))
            }
        }
    }

    fn on_merged(&mut self, passed: &[bool], merged: &[bool], config: &Configuration) -> bool {
        match self.options.schedule {
            PersesSchedule::Tutorial => self.tutorial_on_reduced(Some(config)),
            PersesSchedule::Sweep => {
                self.sweep_on_merged(passed, merged, config);
                true
            }
        }
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        match self.options.schedule {
            PersesSchedule::Tutorial => self.tutorial_on_reduced(reduced),
            PersesSchedule::Sweep => self.sweep_on_reduced(reduced),
        }
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod candidate_tests {
    use super::*;
    use crate::languages::Language;

    /// The texts of the replacement candidates of the array that is the
    /// value of `"a"` in `src` (JSON), with `options`, whitespace dropped.
    fn candidates_of_the_array(src: &str, options: PersesOptions) -> Vec<String> {
        let (tree, units) = crate::tree::parse::parse(Language::named("json"), src.into()).unwrap();
        let tree = Arc::new(tree);
        let mut perses = Perses::new(
            Arc::clone(&tree),
            Minimizer::DdMin,
            MinimizerSettings::default(),
            options,
        );
        perses.start_pass(&Configuration::full(units.len()));
        let array = (0..tree.len() as NodeId)
            .filter(|&n| tree.kind_name(n) == "array")
            .min_by_key(|&n| tree.depth(n))
            .expect("the outer array");
        let text = |d: NodeId| -> String {
            tree.tokens(d)
                .map(|u| String::from_utf8_lossy(units.text(u)).into_owned())
                .collect::<String>()
                .split_whitespace()
                .collect()
        };
        perses
            .candidates(array, true)
            .into_iter()
            .map(text)
            .collect()
    }

    #[test]
    fn the_search_stops_at_a_fitting_node_of_several_subtrees_and_looks_through_wrappers() {
        let src = r#"{"a": [{"x": 1, "y": 2}, {"z": [[3]], "w": 4}]}"#;
        let binary = candidates_of_the_array(src, PersesOptions::default());
        // The objects hold two pairs each: they are candidates, and nothing
        // inside them is (not the numbers, nor `[[3]]`).
        assert_eq!(binary, [r#"{"x":1,"y":2}"#, r#"{"z":[[3]],"w":4}"#]);
        // The tutorial's search offers every fitting descendant, single
        // numbers first.
        let every = candidates_of_the_array(
            src,
            PersesOptions {
                every_descendant: true,
                ..PersesOptions::default()
            },
        );
        for text in ["1", "2", "3", "4", "[3]", "[[3]]"] {
            assert!(every.contains(&text.to_string()), "{text}: {every:?}");
        }
        assert_eq!(every[0], "1", "{every:?}");
        // A fitting node that wraps one subtree is looked through: the
        // array in `[[[3, 4]]]` offers `[[3,4]]` and `[3,4]`, and no single
        // number (they lie below a fitting node).
        let nested = candidates_of_the_array(r#"{"a": [[[3, 4]]]}"#, PersesOptions::default());
        assert_eq!(nested, ["[3,4]", "[[3,4]]"]);
    }
}

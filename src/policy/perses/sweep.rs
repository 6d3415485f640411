//! The Perses sweep's serial steps (`--perses-schedule sweep`, the
//! default): a pass visits the nodes largest first, each tried with its
//! list deletions and replacements, and goes on from where the last
//! success left it. Apart from `perses.rs` (the options, the policy and
//! the tutorial's schedule) as `waves.rs` is, so each file stays readable.

use super::*;

/// The sweep schedule.
impl Perses {
    /// Whether `n` still exists and keeps a token this pass.
    pub(super) fn usable(&self, n: NodeId) -> bool {
        let pass = self.pass();
        pass.live.is_live(n) && pass.size.get(n) > 0
    }

    /// The list whose elements are `n`'s: `n` itself, unless its kept
    /// tokens all lie in one child that no longer exists, because a nested
    /// list was promoted into `n`'s place. A bare list (no mandatory part)
    /// lives as long as its parent, so `n` outlives that replacement while
    /// the promoted list, under dead wrappers, counts as dead; its elements
    /// are the ones to delete. Follows such lone dead children down and
    /// returns the deepest list on the way that fits `n`'s slot.
    pub(super) fn effective_list(&self, n: NodeId) -> NodeId {
        let (tree, pass) = (&self.tree, self.pass());
        let mut found = n;
        let mut at = n;
        loop {
            let mut present = tree.children(at).filter(|&c| pass.size.get(c) > 0);
            let (Some(c), None) = (present.next(), present.next()) else {
                return found;
            };
            if pass.live.is_live(c) {
                return found;
            }
            at = c;
            if self.is_list.contains(at) && tree.fits_slot_of(n, at) {
                found = at;
            }
        }
    }

    pub(super) fn sweep_start_pass(&mut self, config: &Configuration) {
        let tree = &self.tree;
        let earlier = self.pass.as_deref().map(|p| &p.live);
        let (size, live) = tree.sizes_and_liveness(config, earlier);
        let mut sweep = self.sweep.take().unwrap_or_else(|| Sweep {
            order: Arc::new(size_order(tree, &live, &size)),
            cursor: 0,
            step: Step::Enter,
            committed: false,
            rechecks: self.next_sweep_rechecks,
            rechecked: false,
            last: Made::Nothing,
            wave: Vec::new(),
        });
        self.pass = Some(Arc::new(PassData {
            live,
            size,
            order: Vec::new(),
        }));
        sweep.last = Made::Nothing;
        match &mut sweep.step {
            Step::Enter => {}
            // Candidates are only valid in the pass that computed them.
            Step::Replace { .. } => sweep.step = Step::Enter,
            // A list still being minimized: its elements in this configuration.
            Step::List {
                list,
                minimizer,
                elems,
                proposed,
                ..
            } => {
                let n = sweep.order[sweep.cursor];
                let nodes = if self.usable(n) {
                    self.elems_of(*list, config)
                } else {
                    Vec::new()
                };
                if nodes.is_empty() {
                    sweep.advance();
                } else {
                    minimizer.start_pass(&self.elem_list(&nodes, config));
                    *elems = Arc::new(nodes);
                    *proposed = false;
                }
            }
        }
        self.sweep = Some(sweep);
    }

    /// Walks the sweep from where it is to its next proposal, or wave of up
    /// to `k` list deletions, adding the lists it finds minimal on the way
    /// to `minimized`.
    pub(super) fn sweep_step(
        &self,
        sweep: &mut Sweep,
        config: &Configuration,
        minimized: &mut Vec<NodeId>,
        k: usize,
    ) -> Vec<Proposal> {
        let size = &self.pass().size;
        loop {
            let Some(&n) = sweep.order.get(sweep.cursor) else {
                return Vec::new();
            };
            match &mut sweep.step {
                Step::Enter => {
                    if !self.usable(n) {
                        sweep.advance();
                        continue;
                    }
                    let mut cands = self.candidates(n, true);
                    // Only proper shrinks count against the cap, which is
                    // shared evenly by same-kind and other descendants.
                    cands.retain(|&d| size.get(d) < size.get(n));
                    if let Some(cap) = self.options.max_replacements_per_node {
                        let kind = self.tree.kind(n);
                        let (mut same, mut other) = (0, 0);
                        let half = cap.div_ceil(2);
                        cands.retain(|&d| {
                            let count = if self.tree.kind(d) == kind {
                                &mut same
                            } else {
                                &mut other
                            };
                            *count += 1;
                            *count <= half
                        });
                    }
                    sweep.step = Step::Replace {
                        cands: Arc::new(cands),
                        next: 0,
                    };
                }
                Step::Replace { cands, next } => {
                    if let Some(&d) = cands.get(*next) {
                        *next += 1;
                        sweep.last = Made::Replacement;
                        return vec![self.replacement(n, d)];
                    }
                    let list = self.effective_list(n);
                    let elems = if self.is_list.contains(list) {
                        self.elems_of(list, config)
                    } else {
                        Vec::new()
                    };
                    if elems.is_empty() {
                        sweep.advance();
                        continue;
                    }
                    let rechecking = (sweep.rechecks && self.minimized.contains(list))
                        .then(|| self.inner.build_rechecking(&self.settings))
                        .flatten();
                    sweep.rechecked |= rechecking.is_some();
                    let mut minimizer =
                        rechecking.unwrap_or_else(|| self.inner.build(&self.settings));
                    minimizer.start_pass(&self.elem_list(&elems, config));
                    sweep.step = Step::List {
                        list,
                        minimizer,
                        elems: Arc::new(elems),
                        proposed: false,
                        wave: Vec::new(),
                    };
                }
                Step::List {
                    list,
                    minimizer,
                    elems,
                    proposed,
                    wave,
                } => {
                    *wave = minimizer.next_wave(k);
                    if !wave.is_empty() {
                        *proposed = true;
                        sweep.last = Made::Deletion;
                        let deletion = |s: &Selection| self.list_deletion(s, elems, config);
                        return wave.iter().map(deletion).collect();
                    }
                    // The minimizer's pass found nothing; it may still want
                    // another one over the same elements.
                    if *proposed && minimizer.on_reduced(None) {
                        minimizer.start_pass(&self.elem_list(elems, config));
                        *proposed = false;
                        continue;
                    }
                    minimized.push(*list);
                    sweep.advance();
                }
            }
        }
    }

    pub(super) fn sweep_on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        let Some(mut sweep) = self.sweep.take() else {
            return false;
        };
        let Some(config) = reduced else {
            // The pass walked to the end of the order without a success.
            // `self.sweep` stays empty when a new sweep begins: one that
            // rechecks after a sweep that committed; after a fruitless one
            // that rechecked, one that minimizes every list from scratch,
            // so the run ends where a fresh run from its result would.
            let from_scratch = sweep.rechecked && !self.options.lists_minimized_before;
            if sweep.committed || from_scratch {
                self.next_sweep_rechecks = (sweep.committed
                    && self.options.recheck_minimized_lists)
                    || self.options.lists_minimized_before;
                return true;
            }
            self.sweep = Some(sweep);
            return false;
        };
        sweep.committed = true;
        match (&mut sweep.step, sweep.last) {
            (
                Step::List {
                    list, minimizer, ..
                },
                Made::Deletion,
            ) => {
                let elems = self.elem_list(&self.elems_of(*list, config), config);
                if !minimizer.on_reduced(Some(&elems)) {
                    sweep.advance();
                }
            }
            _ => sweep.advance(),
        }
        self.sweep = Some(sweep);
        true
    }
}

//! Policies: what to propose next, and when to stop.
//!
//! The reduce loop (`crate::reducer`) owns the oracle, the cache and the best
//! result; a [`Policy`] only proposes and learns. A pass starts with
//! [`Policy::start_pass`]; each call to [`Policy::next_proposal`] yields one
//! proposal, and *being asked for the next one means the previous one was not
//! interesting*. When a proposal is interesting, or the policy runs out, the
//! loop calls [`Policy::on_reduced`], which decides whether to go on.
//!
//! Policies are plain state machines that can be cloned ([`Policy::clone_box`]):
//! the parallel executor tests proposals ahead on a clone and, when proposal
//! `k` wins, continues from a snapshot taken right after proposal `k` was
//! made. That is exactly the state the serial loop would be in, so `-j N`
//! commits the same steps as `-j 1`.
//!
//! List minimizers (`ListMinimizer`) are the same protocol over an abstract
//! list of elements (units, or tree nodes); `flat::FlatPolicy` runs one over
//! the units directly, and the tree policies run them over nodes.

pub mod bodies;
pub mod bulk;
pub mod cdd;
pub mod ddmin;
pub mod drdd;
pub mod fill;
pub mod flat;
pub mod format;
#[cfg(test)]
mod fuzz_tests;
pub mod hdd;
pub mod idreplace;
pub mod interiors;
pub mod lengths;
pub mod literals;
pub mod perses;
pub mod probdd;
pub mod records;
pub mod registry;
pub mod rename;
pub mod simplify;
pub mod substitute;
pub mod tail;
pub mod tpdd;
#[cfg(test)]
mod tree_tests;
pub mod unused;
pub mod uses;
pub mod wdd;
pub mod windows;

use std::ops::Range;

use crate::configuration::{Configuration, Proposal};

/// A reduction strategy over the units of one input.
pub trait Policy: Send {
    /// A short name for progress and stats, e.g. `hdd+probdd`.
    fn name(&self) -> String;

    /// A pass begins over `config` (the current best).
    fn start_pass(&mut self, config: &Configuration);

    /// The next proposal of this pass, or `None` when the pass has nothing
    /// more. Calling it again means the previous proposal failed.
    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal>;

    /// The pass ended: `reduced` is the new configuration when its last
    /// proposal was interesting. Returns whether to run another pass.
    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        reduced.is_some()
    }

    /// Waves (`--wave`): up to `k` (at least 1) proposals of this pass on
    /// `config`, independent of one another: each an edit of `config` that
    /// means the same whichever of the others pass (disjoint deletions from
    /// one list, the chunks of one bulk level). They are what
    /// [`Self::next_proposal`] would make one after another were each to
    /// fail, from the one it would make next, and the policy is left as
    /// after the last of them: asking again means they all failed. Empty
    /// when the pass has nothing more. The default is `next_proposal`'s
    /// one: a policy that cannot tell which of its proposals are
    /// independent is tested ahead one proposal at a time.
    fn next_wave(&mut self, config: &Configuration, k: usize) -> Vec<Proposal> {
        let _ = k;
        self.next_proposal(config).into_iter().collect()
    }

    /// One proposal applying the `chosen` ones of the last wave together
    /// (`wave` is that wave, `config` its base); the policy unmarks in
    /// `chosen` any it leaves out (one that overlaps another, say). By
    /// default the union of their deletions and rewrites.
    fn merge(&self, config: &Configuration, wave: &[Proposal], chosen: &mut [bool]) -> Proposal {
        let _ = config;
        Proposal::union(wave.iter().zip(&*chosen).filter(|c| *c.1).map(|c| c.0))
    }

    /// The pass ended with a merge of the last wave: `passed[i]` says
    /// whether its `i`th proposal passed alone, `merged[i]` whether it is
    /// part of `config`, the new configuration (at least one is; a merged
    /// proposal passed). Returns whether to run another pass. The default,
    /// right for a wave of one, is [`Self::on_reduced`].
    fn on_merged(&mut self, passed: &[bool], merged: &[bool], config: &Configuration) -> bool {
        let _ = (passed, merged);
        self.on_reduced(Some(config))
    }

    /// A copy of this policy's whole state (for speculative execution).
    fn clone_box(&self) -> Box<dyn Policy>;
}

impl Clone for Box<dyn Policy> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The elements a list minimizer works on in one pass, in their fixed order.
///
/// `ids` identify elements across passes (a unit index, a node id); the
/// order of surviving elements never changes between passes. `weights` are
/// only read by weight-aware minimizers (WDD).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ElemList {
    pub(crate) ids: Vec<u32>,
    pub(crate) weights: Vec<u64>,
}

impl ElemList {
    /// Elements that all weigh 1.
    #[cfg(test)]
    pub(crate) fn unweighted(ids: Vec<u32>) -> Self {
        let weights = vec![1; ids.len()];
        ElemList { ids, weights }
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }
}

/// A subset of a pass's elements, as sorted disjoint ranges of positions
/// into that pass's [`ElemList`].
pub(crate) type Selection = Vec<Range<u32>>;

/// Sorts and merges positions into a [`Selection`].
pub(crate) fn selection_of(mut positions: Vec<u32>) -> Selection {
    positions.sort_unstable();
    positions.dedup();
    let mut out: Selection = Vec::new();
    for p in positions {
        match out.last_mut() {
            Some(r) if r.end == p => r.end += 1,
            _ => out.push(p..p + 1),
        }
    }
    out
}

/// The positions `0..len` not in `selection` (which must be sorted).
pub(crate) fn complement(selection: &[Range<u32>], len: u32) -> Selection {
    let mut out = Vec::new();
    let mut at = 0;
    for r in selection {
        if r.start > at {
            out.push(at..r.start);
        }
        at = at.max(r.end);
    }
    if at < len {
        out.push(at..len);
    }
    out
}

/// Carries per-element state into a new pass, by element id.
///
/// `ids` and `state` are the previous pass's elements and their state (same
/// length), `order` some ordering of (some of) its positions. Afterwards
/// `ids` is `new_ids` and `state[i]` is the old state of `new_ids[i]`, or
/// `fresh` for an element that was not there. When `new_ids` is the old list
/// with some elements deleted (the usual case: the previous pass committed a
/// deletion), this works in place in linear time, `order` is translated to
/// the new positions (deleted ones dropped, relative order kept) and the
/// result is `true`. Otherwise the state goes through a hash map, `order` is
/// cleared and the result is `false`: the caller rebuilds it. `scratch` is
/// working space, left empty.
pub(crate) fn carry_state<T: Copy>(
    ids: &mut Vec<u32>,
    state: &mut Vec<T>,
    order: &mut Vec<u32>,
    new_ids: &[u32],
    fresh: T,
    scratch: &mut Vec<u32>,
) -> bool {
    const GONE: u32 = u32::MAX;
    // scratch[old position] = new position, while `new_ids` is a subsequence.
    scratch.clear();
    scratch.resize(ids.len(), GONE);
    let mut at = 0;
    let mut subsequence = true;
    for (to, id) in new_ids.iter().enumerate() {
        while at < ids.len() && ids[at] != *id {
            at += 1;
        }
        if at == ids.len() {
            subsequence = false;
            break;
        }
        scratch[at] = to as u32;
        at += 1;
    }
    if subsequence {
        // New positions never exceed old ones: compacting forward is safe.
        for (old, &new) in scratch.iter().enumerate() {
            if new != GONE {
                state[new as usize] = state[old];
            }
        }
        state.truncate(new_ids.len());
        order.retain_mut(|pos| {
            *pos = scratch[*pos as usize];
            *pos != GONE
        });
    } else {
        let known: rustc_hash::FxHashMap<u32, T> =
            ids.iter().copied().zip(state.iter().copied()).collect();
        state.clear();
        state.extend(
            new_ids
                .iter()
                .map(|id| known.get(id).copied().unwrap_or(fresh)),
        );
        order.clear();
    }
    ids.clear();
    ids.extend_from_slice(new_ids);
    scratch.clear();
    subsequence
}

/// Restores a sorted `order` whose first `k` entries changed their keys:
/// `order[..k]` and `order[k..]` must each be sorted by `less` already; they
/// are merged in linear time.
pub(crate) fn merge_front(order: &mut [u32], k: usize, less: impl Fn(u32, u32) -> bool) {
    let front: Vec<u32> = order[..k].to_vec();
    let (mut i, mut j, mut w) = (0, k, 0);
    // `w == i + (j - k) <= j`: writing never overtakes unread entries.
    while i < front.len() {
        if j < order.len() && less(order[j], front[i]) {
            order[w] = order[j];
            j += 1;
        } else {
            order[w] = front[i];
            i += 1;
        }
        w += 1;
    }
}

/// A list minimizer: the [`Policy`] protocol over an abstract element list.
pub(crate) trait ListMinimizer: Send {
    /// A short name, e.g. `ddmin`.
    fn name(&self) -> String;

    /// A pass begins over these elements.
    fn start_pass(&mut self, elems: &ElemList);

    /// The next subset of the pass's elements to delete (never empty), or
    /// `None`. Calling it again means the previous deletion failed.
    fn next_deletion(&mut self) -> Option<Selection>;

    /// The pass ended; `reduced` holds the surviving elements when its last
    /// deletion was interesting. Returns whether this list is not yet minimal.
    fn on_reduced(&mut self, reduced: Option<&ElemList>) -> bool {
        reduced.is_some()
    }

    /// Waves: up to `k` (at least 1) deletions of this pass, disjoint and
    /// independent of one another, as [`Policy::next_wave`] asks. The
    /// default is `next_deletion`'s one.
    fn next_wave(&mut self, k: usize) -> Vec<Selection> {
        let _ = k;
        self.next_deletion().into_iter().collect()
    }

    /// The pass ended with a merge of the last wave, as
    /// [`Policy::on_merged`] tells; `reduced` holds the surviving
    /// elements. The default, right for a wave of one, is
    /// [`Self::on_reduced`].
    fn on_merged(&mut self, passed: &[bool], merged: &[bool], reduced: &ElemList) -> bool {
        let _ = (passed, merged);
        self.on_reduced(Some(reduced))
    }

    /// A copy of the whole state.
    fn clone_box(&self) -> Box<dyn ListMinimizer>;
}

impl Clone for Box<dyn ListMinimizer> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The list minimizers, by command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Minimizer {
    DdMin,
    DrDd,
    ProbDd,
    Cdd,
    Wdd,
}

/// Settings shared by the list minimizers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MinimizerSettings {
    /// Prior probability that an element is essential (ProbDD, CDD).
    pub p0: f64,
    /// Dr. DD's budget of single-element scans (`None`: until a scan changes nothing).
    pub restarts: Option<u32>,
}

impl Default for MinimizerSettings {
    fn default() -> Self {
        MinimizerSettings {
            p0: 0.1,
            restarts: None,
        }
    }
}

impl Minimizer {
    pub const ALL: [Minimizer; 5] = [
        Minimizer::DdMin,
        Minimizer::DrDd,
        Minimizer::ProbDd,
        Minimizer::Cdd,
        Minimizer::Wdd,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Minimizer::DdMin => "ddmin",
            Minimizer::DrDd => "drdd",
            Minimizer::ProbDd => "probdd",
            Minimizer::Cdd => "cdd",
            Minimizer::Wdd => "wdd",
        }
    }

    /// A fresh minimizer of this kind.
    pub(crate) fn build(self, settings: &MinimizerSettings) -> Box<dyn ListMinimizer> {
        match self {
            Minimizer::DdMin => Box::new(ddmin::DdMin::new()),
            Minimizer::DrDd => Box::new(drdd::DrDd::new(settings.restarts)),
            Minimizer::ProbDd => Box::new(probdd::ProbDd::new(settings.p0)),
            Minimizer::Cdd => Box::new(cdd::Cdd::new(settings.p0)),
            Minimizer::Wdd => Box::new(wdd::Wdd::new()),
        }
    }

    /// A fresh minimizer of this kind for a list it found minimal before,
    /// which has changed only through deletions elsewhere since, if it has
    /// a cheaper way to recheck one than [`Minimizer::build`]'s. Its blocks
    /// all failed then and each still holds an element that was needed, so
    /// Dr. DD goes straight to its single-element scans (which keep its
    /// 1-minimality); the others have none (`None`): they start from scratch.
    pub(crate) fn build_rechecking(
        self,
        settings: &MinimizerSettings,
    ) -> Option<Box<dyn ListMinimizer>> {
        match self {
            Minimizer::DrDd => Some(Box::new(drdd::DrDd::single_scans(settings.restarts))),
            _ => None,
        }
    }
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)] // one-range selections
mod tests {
    use super::*;

    #[test]
    fn selections_are_sorted_merged_and_complemented() {
        let s = selection_of(vec![5, 1, 2, 9, 2]);
        assert_eq!(s, vec![1..3, 5..6, 9..10]);
        assert_eq!(complement(&s, 11), vec![0..1, 3..5, 6..9, 10..11]);
        assert_eq!(complement(&[], 3), vec![0..3]);
        assert_eq!(complement(&[0..3], 3), vec![]);
    }

    #[test]
    fn rechecking_a_minimal_list_costs_drdd_one_test_per_element_and_the_others_a_full_run() {
        let settings = MinimizerSettings::default();
        let all_needed = |keeps: &dyn Fn(u32) -> bool| (0..8).all(keeps);
        for m in Minimizer::ALL {
            let (kept, fresh) = testing::run_flat(m.build(&settings), 8, all_needed);
            assert_eq!(kept, (0..8).collect::<Vec<_>>(), "{m:?}");
            let rechecking = m
                .build_rechecking(&settings)
                .unwrap_or_else(|| m.build(&settings));
            let (kept, rechecked) = testing::run_flat(rechecking, 8, all_needed);
            assert_eq!(kept, (0..8).collect::<Vec<_>>(), "{m:?}");
            if m == Minimizer::DrDd {
                // Blocks of 4 and of 2 (6 tests) are skipped.
                assert_eq!((fresh, rechecked), (14, 8));
            } else {
                assert_eq!(rechecked, fresh, "{m:?}");
            }
        }
    }
}

/// Helpers for testing list minimizers through the real reduce loop.
#[cfg(test)]
pub(crate) mod testing {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::{ElemList, ListMinimizer};
    use crate::configuration::Configuration;
    use crate::engine::Engine;
    use crate::interfaces::{Candidate, Quiet, Verdict};
    use crate::policy::Policy;
    use crate::policy::flat::FlatPolicy;
    use crate::units::Units;

    /// Runs the policy `build` makes over `source` as bytes, through
    /// [`Engine::run`] with the cache off, judging a candidate by
    /// `interesting(bytes)`; returns the result and the number of tests.
    pub(crate) fn run_over_bytes(
        build: impl Fn(Arc<Units>) -> Box<dyn Policy>,
        source: &[u8],
        interesting: impl Fn(&[u8]) -> bool + Sync,
    ) -> (Vec<u8>, u32) {
        let units = Arc::new(Units::flat(source.to_vec(), crate::units::UnitKind::Byte));
        let calls = AtomicU32::new(0);
        let oracle = |c: &Candidate<'_>| {
            calls.fetch_add(1, Ordering::SeqCst);
            match interesting(c.bytes) {
                true => Verdict::Interesting,
                false => Verdict::NotInteresting,
            }
        };
        let mut engine = Engine::new(&units, &oracle).with_cache(false);
        let mut policy = build(Arc::clone(&units));
        let full = Configuration::full(units.len());
        let (result, _) = engine.run(&mut policy, full, &mut Quiet);
        (units.render(&result), calls.load(Ordering::SeqCst))
    }

    /// Reduces `n` units of weight 1 with `minimizer`; see [`run_weighted`].
    pub(crate) fn run_flat(
        minimizer: Box<dyn ListMinimizer>,
        n: u32,
        interesting: impl Fn(&dyn Fn(u32) -> bool) -> bool + Sync,
    ) -> (Vec<u32>, u32) {
        run_weighted(minimizer, vec![1; n as usize], interesting)
    }

    /// Reduces one unit per weight with `minimizer` under a [`FlatPolicy`],
    /// through [`Engine::run`] with the cache off, judging a candidate by
    /// `interesting(keeps)` where `keeps(u)` tells whether unit `u` is kept.
    /// Returns the kept units and the number of oracle calls.
    pub(crate) fn run_weighted(
        minimizer: Box<dyn ListMinimizer>,
        weights: Vec<u64>,
        interesting: impl Fn(&dyn Fn(u32) -> bool) -> bool + Sync,
    ) -> (Vec<u32>, u32) {
        run_parallel(minimizer, weights, 1, interesting)
    }

    /// [`run_weighted`] with `jobs` oracle tests in flight (speculation).
    pub(crate) fn run_parallel(
        minimizer: Box<dyn ListMinimizer>,
        weights: Vec<u64>,
        jobs: usize,
        interesting: impl Fn(&dyn Fn(u32) -> bool) -> bool + Sync,
    ) -> (Vec<u32>, u32) {
        let n = weights.len() as u32;
        let pieces = vec!["x"; n as usize];
        let units = Units::from_pieces(&pieces);
        let calls = AtomicU32::new(0);
        let oracle = |c: &Candidate<'_>| {
            calls.fetch_add(1, Ordering::SeqCst);
            if interesting(&|u| c.keeps(u)) {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let mut engine = Engine::new(&units, &oracle)
            .with_cache(false)
            .with_jobs(jobs);
        let mut policy: Box<dyn Policy> = Box::new(FlatPolicy::new(minimizer, Arc::new(weights)));
        let (result, _) = engine.run(&mut policy, Configuration::full(n), &mut Quiet);
        (result.kept.iter().collect(), calls.load(Ordering::SeqCst))
    }

    /// Runs the reduce loop's protocol directly over element ids `0..n`,
    /// without rendering or the reducer (for large lists): the result is
    /// interesting iff it keeps every id in `needed` (sorted). Returns the
    /// kept ids and the number of tests.
    pub(crate) fn drive(
        mut minimizer: Box<dyn ListMinimizer>,
        n: u32,
        needed: &[u32],
    ) -> (Vec<u32>, u64) {
        let mut ids: Vec<u32> = (0..n).collect();
        let mut tests = 0;
        loop {
            let elems = ElemList::unweighted(ids.clone());
            minimizer.start_pass(&elems);
            let mut reduced = None;
            while let Some(selection) = minimizer.next_deletion() {
                let mut candidate = Vec::with_capacity(ids.len());
                let mut at = 0;
                for r in &selection {
                    candidate.extend_from_slice(&ids[at..r.start as usize]);
                    at = r.end as usize;
                }
                candidate.extend_from_slice(&ids[at..]);
                tests += 1;
                if needed.iter().all(|u| candidate.binary_search(u).is_ok()) {
                    reduced = Some(candidate);
                    break;
                }
            }
            let keep_going =
                minimizer.on_reduced(reduced.clone().map(ElemList::unweighted).as_ref());
            if let Some(next) = reduced {
                ids = next;
            }
            if !keep_going {
                return (ids, tests);
            }
        }
    }

    /// A tiny deterministic PRNG (xorshift64) for seeded property tests.
    pub(crate) struct XorShift(u64);

    impl XorShift {
        pub(crate) fn new(seed: u64) -> Self {
            XorShift(seed.max(1))
        }

        pub(crate) fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }

        /// Uniform-ish in `0..n` (`n > 0`).
        pub(crate) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    mod properties {
        use super::*;
        use crate::policy::{Minimizer, MinimizerSettings};

        /// One random case: `n` units of random weight, of which `needed` must stay.
        struct Case {
            weights: Vec<u64>,
            needed: Vec<u32>,
        }

        fn random_case(rng: &mut XorShift) -> Case {
            let n = 1 + rng.below(300) as u32;
            let weights = (0..n).map(|_| 1 + rng.below(20)).collect();
            let want = (1 + rng.below(5) as u32).min(n);
            let mut needed = Vec::new();
            while needed.len() < want as usize {
                let u = rng.below(n as u64) as u32;
                if !needed.contains(&u) {
                    needed.push(u);
                }
            }
            needed.sort_unstable();
            Case { weights, needed }
        }

        /// The minimizers under test, with whether each guarantees 1-minimality.
        fn contenders() -> Vec<(&'static str, MinimizerSettings, Minimizer, bool)> {
            let default = MinimizerSettings::default();
            let one_scan = MinimizerSettings {
                restarts: Some(1),
                ..default
            };
            vec![
                ("ddmin", default, Minimizer::DdMin, true),
                ("drdd", default, Minimizer::DrDd, true),
                ("drdd R=1", one_scan, Minimizer::DrDd, false),
                ("probdd", default, Minimizer::ProbDd, false),
                ("cdd", default, Minimizer::Cdd, false),
                ("wdd", default, Minimizer::Wdd, true),
            ]
        }

        #[test]
        fn every_minimizer_keeps_a_monotone_oracle_interesting_and_is_deterministic() {
            let mut rng = XorShift::new(0x5eed_1234_abcd_0042);
            for case_no in 0..200 {
                let case = random_case(&mut rng);
                let n = case.weights.len() as u32;
                let needed = &case.needed;
                let interesting = |keeps: &dyn Fn(u32) -> bool| needed.iter().all(|&u| keeps(u));
                for (name, settings, kind, one_minimal) in contenders() {
                    let run =
                        || run_weighted(kind.build(&settings), case.weights.clone(), interesting);
                    let (kept, calls) = run();
                    let what = format!("{name}, case {case_no}: n = {n}, needed {needed:?}");
                    assert!(interesting(&|u| kept.contains(&u)), "{what}: lost {kept:?}");
                    if one_minimal {
                        for &gone in &kept {
                            assert!(
                                !interesting(&|u| u != gone && kept.contains(&u)),
                                "{what}: {kept:?} is not 1-minimal, {gone} can go"
                            );
                        }
                    }
                    // With a monotone oracle, an element that once failed to
                    // go never can later (a subset of an uninteresting set is
                    // uninteresting), so even ProbDD, CDD and Dr. DD with one
                    // scan end 1-minimal, i.e. exactly at the needed units.
                    assert_eq!(&kept, needed, "{what}");
                    assert_eq!(run(), (kept.clone(), calls), "{what}: not deterministic");
                    if name == "drdd R=1" {
                        // Coarse levels test fewer than 2n blocks, one scan n elements.
                        assert!(calls < 3 * n, "{what}: {calls} calls");
                    }
                    if case_no < 20 {
                        // Speculation restores clones of the minimizer, and
                        // must commit the same steps.
                        let minimizer = kind.build(&settings);
                        let (parallel, _) =
                            run_parallel(minimizer, case.weights.clone(), 3, interesting);
                        assert_eq!(parallel, kept, "{what}: -j 3 differs");
                    }
                }
            }
        }

        #[test]
        fn the_schedules_are_1_minimal_even_for_a_non_monotone_oracle() {
            let mut rng = XorShift::new(0x0dd_0b5e_55ed);
            let mut not_minimal = std::collections::BTreeMap::new();
            for case_no in 0..100 {
                let mut case = random_case(&mut rng);
                case.weights.truncate(1 + case_no % 60);
                let n = case.weights.len() as u32;
                case.needed.retain(|&u| u < n);
                let needed = &case.needed;
                let salt = rng.next();
                // Interesting when the needed units stay and a hash of the
                // kept set is not 0 mod 4: removing units can make a set
                // interesting again, so minimality needs a real re-check.
                let interesting = |keeps: &dyn Fn(u32) -> bool| {
                    let mut hash = salt;
                    let mut all = true;
                    for u in 0..n {
                        if keeps(u) {
                            hash = (hash ^ u as u64).wrapping_mul(0x100_0000_01b3);
                        } else {
                            all = false;
                        }
                    }
                    all || (needed.iter().all(|&u| keeps(u)) && !hash.is_multiple_of(4))
                };
                for (name, settings, kind, one_minimal) in contenders() {
                    let (kept, _) =
                        run_weighted(kind.build(&settings), case.weights.clone(), interesting);
                    let what = format!("{name}, case {case_no}: n = {n}");
                    assert!(interesting(&|u| kept.contains(&u)), "{what}: lost");
                    let removable = kept
                        .iter()
                        .any(|&gone| interesting(&|u| u != gone && kept.contains(&u)));
                    assert!(
                        !(one_minimal && removable),
                        "{what}: {kept:?} is not 1-minimal"
                    );
                    *not_minimal.entry(name).or_insert(0) += removable as u32;
                }
            }
            // The minimizers without the guarantee do miss deletions here
            // (seen: probdd 12, cdd 15, drdd R=1 36 of the 100 cases).
            for name in ["probdd", "cdd", "drdd R=1"] {
                assert!(not_minimal[name] > 0, "{not_minimal:?}");
            }
        }

        #[test]
        fn every_minimizer_reduces_large_lists() {
            for (name, settings, kind, _) in contenders() {
                // ProbDD and CDD with p0 = 0.1 delete at most about ten
                // elements per success, so they need about n/10 passes of
                // O(n) each (as does any minimizer fed a fresh list per
                // pass); a smaller list keeps this test quick.
                let n = match kind {
                    Minimizer::ProbDd | Minimizer::Cdd => 20_000,
                    _ => 100_000,
                };
                let needed = [17, 4_242, n / 2, n - 1];
                let (kept, tests) = drive(kind.build(&settings), n, &needed);
                assert_eq!(kept, needed, "{name}");
                assert!(tests < 2 * n as u64, "{name}: {tests} tests");
            }
        }
    }
}

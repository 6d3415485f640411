//! Many edits at once, split by binary search: the engine of the passes
//! that find their edits by name (`unused`, `uses`) or by kind (`bodies`).
//!
//! Why: on a 1.2 MB C++ unit a test costs a second, and deleting a
//! function nothing calls one test at a time would take hours. When most
//! edits of a kind are harmless, proposing all of them at once costs one
//! test; when some are not, halving the failing chunks finds the harmless
//! ones in about `k log(n/k)` tests for `k` harmful edits among `n`
//! (C-Reduce's `pass_clang_binsrch` does the same with clang_delta's
//! instances).
//!
//! Schedule: a *descent* tries the edits in chunks of `chunk` consecutive
//! seeds, from the first; a chunk that fails is passed over, one that
//! succeeds is committed and the pass recomputes the seeds on the new
//! configuration (a deletion may make more names unused) and goes on at
//! the same position with the same chunk size. After the last chunk the
//! size halves; after chunks of one, a descent that committed something
//! is followed by another from the full size, else the policy is done.
//! A seed that failed alone is not proposed again by this policy: its
//! key joins `needed` (one `main` in every chunk would otherwise cost a
//! failing test at every level of every descent). A chunk of deletions
//! too small for the text ([`SMALLEST_SHARE`]) is passed over untested.
//!
//! Determinism: the seeds are a function of the configuration and the
//! position and chunk size of the outcomes before, so `-j N` proposes what
//! `-j 1` does.

use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashSet;

use crate::configuration::{Configuration, Proposal};
use crate::policy::Policy;

/// A chunk of pure deletions is tested only if it removes at least this
/// share of the kept tokens (one in `SMALLEST_SHARE`): a test costs about
/// the text's size, so on a 240,000-token unit a chunk of a few hundred
/// tokens is left to a later round, where the text is smaller and the
/// same chunk is a larger share of it. On a text of fewer than
/// `SMALLEST_SHARE` tokens every chunk is tested.
pub(crate) const SMALLEST_SHARE: u32 = 1000;

/// One edit a source proposes: what it changes, and a key that names it
/// across passes (the same edit has the same key after other edits).
#[derive(Clone, Debug)]
pub(crate) struct Seed {
    pub proposal: Proposal,
    pub key: u64,
}

/// Where a bulk pass's edits come from.
pub(crate) trait EditSource: Send + Sync + 'static {
    /// What one pass over a configuration knows besides its seeds (the
    /// names in use, say), shared by the proposals of the pass.
    type Pass: Send + Sync + 'static;

    /// The pass's name in stats and progress.
    fn name(&self) -> &'static str;

    /// The seeds on `config`, in the order chunks take them.
    fn seeds(&self, config: &Configuration) -> (Self::Pass, Vec<Seed>);

    /// One proposal that applies `seeds` together: by default the union
    /// of their deletions and rewrites.
    fn combine(&self, _pass: &Self::Pass, _config: &Configuration, seeds: &[Seed]) -> Proposal {
        union(seeds)
    }
}

/// The union of the seeds' deletions and rewrites.
pub(crate) fn union(seeds: &[Seed]) -> Proposal {
    Proposal::union(seeds.iter().map(|s| &s.proposal))
}

/// The seeds of the current pass and what the source knows with them.
struct PassSeeds<P> {
    pass: P,
    seeds: Vec<Seed>,
}

/// Binary search over the seeds of an [`EditSource`].
pub(crate) struct Bulk<S: EditSource> {
    source: Arc<S>,
    current: Option<Arc<PassSeeds<S::Pass>>>,
    /// The chunk size of the descent; 0 before the first pass.
    chunk: usize,
    /// Where the next chunk starts.
    at: usize,
    /// Where the last proposed chunk started.
    last: usize,
    /// Whether the current descent committed something.
    progressed: bool,
    /// Keys of seeds that failed alone.
    needed: Arc<FxHashSet<u64>>,
    /// The widest wave asked for (1 before any): a size starts with chunks
    /// small enough for that many of them to fill the list.
    width: usize,
    /// The chunks proposed last and not yet judged (one, or a wave's), each
    /// with its seed's key when it was one seed.
    proposed: Vec<(Range<usize>, Option<u64>)>,
}

impl<S: EditSource> Clone for Bulk<S> {
    fn clone(&self) -> Self {
        Bulk {
            source: Arc::clone(&self.source),
            current: self.current.clone(),
            chunk: self.chunk,
            at: self.at,
            last: self.last,
            progressed: self.progressed,
            needed: Arc::clone(&self.needed),
            width: self.width,
            proposed: self.proposed.clone(),
        }
    }
}

impl<S: EditSource> Bulk<S> {
    pub(crate) fn new(source: S) -> Self {
        Bulk {
            source: Arc::new(source),
            current: None,
            chunk: 0,
            at: 0,
            last: 0,
            progressed: false,
            needed: Arc::default(),
            width: 1,
            proposed: Vec::new(),
        }
    }

    /// Takes the chunks proposed last off `proposed`; the seeds of those
    /// that were one seed and for which `failed` says so join `needed`.
    fn forget_failed(&mut self, mut failed: impl FnMut(usize) -> bool) {
        for (i, (_, single)) in std::mem::take(&mut self.proposed).into_iter().enumerate() {
            if let Some(key) = single.filter(|_| failed(i)) {
                Arc::make_mut(&mut self.needed).insert(key);
            }
        }
    }

    /// The next chunk's bounds, moving to the next size or descent as the
    /// chunks run out; `None` when the policy is done.
    fn next_chunk(&mut self, len: usize) -> Option<Range<usize>> {
        loop {
            if len == 0 {
                return None;
            }
            if self.at >= len {
                if self.chunk > 1 {
                    self.chunk = self.chunk.div_ceil(2);
                } else if std::mem::take(&mut self.progressed) {
                    self.chunk = len;
                } else {
                    return None;
                }
                self.at = 0;
                continue;
            }
            if self.at == 0 {
                self.chunk = self.chunk.min(len.div_ceil(self.width)).max(1);
            }
            let end = (self.at + self.chunk).min(len);
            let chunk = self.at..end;
            self.last = self.at;
            self.at = end;
            return Some(chunk);
        }
    }
}

impl<S: EditSource> Policy for Bulk<S> {
    fn name(&self) -> String {
        self.source.name().to_string()
    }

    fn start_pass(&mut self, config: &Configuration) {
        let (pass, mut seeds) = self.source.seeds(config);
        if !self.needed.is_empty() {
            seeds.retain(|s| !self.needed.contains(&s.key));
        }
        let len = seeds.len();
        if self.chunk == 0 {
            self.chunk = len.max(1);
        }
        self.chunk = self.chunk.min(len.max(1));
        self.current = Some(Arc::new(PassSeeds { pass, seeds }));
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        self.next_wave(config, 1).pop()
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        if reduced.is_none() {
            self.proposed.clear();
            return false;
        }
        // The committed chunk's seeds are gone: the next ones now start
        // where it did.
        self.proposed.clear();
        self.progressed = true;
        self.at = self.last;
        true
    }

    /// The chunks of the current size from the next one on, up to `k`.
    fn next_wave(&mut self, config: &Configuration, k: usize) -> Vec<Proposal> {
        self.forget_failed(|_| true);
        self.width = self.width.max(k);
        let Some(current) = self.current.clone() else {
            return Vec::new();
        };
        let len = current.seeds.len();
        let mut wave = Vec::new();
        // The first chunk may start a new size or descent; the others
        // follow it at the same size.
        while wave.is_empty() || (wave.len() < k && self.at < len) {
            let Some(chunk) = self.next_chunk(len) else {
                break;
            };
            let seeds = &current.seeds[chunk.clone()];
            let proposal = self.source.combine(&current.pass, config, seeds);
            if proposal.delta.is_empty() && proposal.rewrites.is_empty() {
                continue;
            }
            let removes: u32 = proposal
                .delta
                .ranges()
                .iter()
                .map(|r| config.kept.count_in(r.clone()))
                .sum();
            if proposal.rewrites.is_empty() && removes.saturating_mul(SMALLEST_SHARE) < config.len()
            {
                continue;
            }
            let single = (chunk.len() == 1).then(|| seeds[0].key);
            self.proposed.push((chunk, single));
            wave.push(proposal);
        }
        wave
    }

    /// The seeds of the `chosen` chunks of the wave, combined.
    fn merge(&self, config: &Configuration, _wave: &[Proposal], chosen: &mut [bool]) -> Proposal {
        let Some(current) = &self.current else {
            return Proposal::default();
        };
        let seeds: Vec<Seed> = self
            .proposed
            .iter()
            .zip(&*chosen)
            .filter(|(_, chosen)| **chosen)
            .flat_map(|((chunk, _), _)| current.seeds[chunk.clone()].iter().cloned())
            .collect();
        self.source.combine(&current.pass, config, &seeds)
    }

    /// The descent goes on after the wave: where its first chunk started,
    /// moved on by the seeds of the chunks that stayed.
    fn on_merged(&mut self, passed: &[bool], merged: &[bool], _config: &Configuration) -> bool {
        let start = self.proposed.first().map_or(self.last, |(c, _)| c.start);
        let stayed: usize = self
            .proposed
            .iter()
            .zip(merged)
            .filter(|(_, merged)| !**merged)
            .map(|((c, _), _)| c.len())
            .sum();
        self.forget_failed(|i| passed.get(i) == Some(&false));
        self.progressed = true;
        self.at = start + stayed;
        true
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

/// The text of `source`'s first proposal on the whole of `units`, its
/// whitespace runs made single spaces: what the passes' tests compare.
#[cfg(test)]
pub(crate) fn first_proposal_text<S: EditSource>(source: S, units: &crate::units::Units) -> String {
    let mut bulk = Bulk::new(source);
    let full = Configuration::full(units.len());
    bulk.start_pass(&full);
    let all = bulk.next_proposal(&full).expect("a first proposal");
    let text = String::from_utf8(units.render(&full.apply(&all).unwrap())).unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::Delta;
    use crate::engine::Engine;
    use crate::interfaces::{Candidate, Quiet, Verdict};
    use crate::units::Units;

    /// Seeds that each delete one unit.
    struct EveryUnit;

    impl EditSource for EveryUnit {
        type Pass = ();
        fn name(&self) -> &'static str {
            "every-unit"
        }
        fn seeds(&self, config: &Configuration) -> ((), Vec<Seed>) {
            let seeds = config
                .kept
                .iter()
                .map(|u| Seed {
                    proposal: Proposal::delete(Delta::from_units([u])),
                    key: u64::from(u),
                })
                .collect();
            ((), seeds)
        }
    }

    fn run(units: usize, needed: &[usize]) -> (Vec<u32>, u64) {
        let pieces: Vec<String> = (0..units).map(|i| format!("u{i}")).collect();
        let units = Units::from_pieces(&pieces);
        let needed: Vec<String> = needed.iter().map(|i| format!("u{i} ")).collect();
        let oracle = |c: &Candidate<'_>| {
            let text = String::from_utf8_lossy(c.bytes).to_string() + " ";
            if needed.iter().all(|n| text.contains(n.as_str())) {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let mut engine = Engine::new(&units, &oracle);
        let mut policy: Box<dyn Policy> = Box::new(Bulk::new(EveryUnit));
        let full = Configuration::full(units.len());
        let (result, _) = engine.run(&mut policy, full, &mut Quiet);
        (result.kept.iter().collect(), engine.tests_total())
    }

    #[test]
    fn harmless_edits_all_go_in_one_test() {
        let (kept, calls) = run(64, &[]);
        assert!(kept.is_empty());
        assert_eq!(calls, 1);
    }

    #[test]
    fn a_few_needed_seeds_are_found_by_halving_and_never_proposed_alone_twice() {
        let (kept, calls) = run(64, &[5, 40]);
        assert_eq!(kept, vec![5, 40]);
        // All 64, then halves, quarters, ... down to ones around the two
        // needed units; then one more descent finds nothing new to try
        // (the needed seeds are not proposed again).
        assert!(calls <= 2 * 2 * 6 + 4, "{calls} calls");
    }
}

//! The Perses sweep's waves (`--wave`): the proposals along the sweep's
//! path of failures tested at once, which of them a merge takes, and how
//! the sweep goes on after a merge. Apart from `perses.rs` only to keep
//! that file readable; the sweep's serial steps are in `sweep.rs`.

use super::*;

impl Perses {
    /// The sweep's next proposal, or with `k` > 1 a wave: the proposals
    /// along the path of failures, up to `k` of them, each replacement one
    /// proposal and each list's deletions one wave of its minimizer (the
    /// wave ends where the path would go on in the same list). Proposals
    /// that overlap an earlier one are left out of a merge
    /// ([`Self::sweep_merge`]).
    pub(super) fn sweep_next_wave(&mut self, config: &Configuration, k: usize) -> Vec<Proposal> {
        let Some(mut sweep) = self.sweep.take() else {
            return Vec::new();
        };
        let mut minimized = Vec::new();
        let mut wave = Vec::new();
        sweep.wave.clear();
        if k <= 1 {
            // One proposal: the sweep steps in place (a copy of a list's
            // minimizer per proposal would cost its state's size).
            wave = self.sweep_step(&mut sweep, config, &mut minimized, 1);
        }
        while wave.is_empty() || (wave.len() < k && k > 1) {
            let mut next = sweep.clone();
            let mut found = Vec::new();
            let proposals = self.sweep_step(&mut next, config, &mut found, k - wave.len());
            let item = match (&next.step, next.last) {
                _ if proposals.is_empty() => None,
                (
                    Step::List {
                        list, elems, wave, ..
                    },
                    Made::Deletion,
                ) => Some(
                    wave.iter()
                        .map(|s| WaveItem::Delete {
                            list: *list,
                            elems: Arc::clone(elems),
                            positions: s.iter().flat_map(|r| r.clone()).collect(),
                        })
                        .collect::<Vec<_>>(),
                ),
                _ => Some(vec![WaveItem::Replace(next.order[next.cursor])]),
            };
            let same_list = match (item.as_deref(), sweep.wave.last()) {
                (
                    Some([WaveItem::Delete { list, .. }, ..]),
                    Some(WaveItem::Delete { list: l, .. }),
                ) => list == l,
                _ => false,
            };
            // The first step is taken whatever it is (the path's end too).
            if !wave.is_empty() && (item.is_none() || same_list) {
                break;
            }
            minimized.extend(found);
            let last_wave = std::mem::take(&mut sweep.wave);
            sweep = next;
            sweep.wave = last_wave;
            let Some(items) = item else {
                break;
            };
            sweep.wave.extend(items);
            wave.extend(proposals);
        }
        if !minimized.is_empty() {
            let set = Arc::make_mut(&mut self.minimized);
            for list in minimized {
                set.insert(list);
            }
        }
        self.sweep = Some(sweep);
        wave
    }

    /// Which of the `chosen` proposals of the last wave go into a merge:
    /// in order, each that overlaps none taken before it (a replacement
    /// covers its node, a deletion its elements): of a node's replacements
    /// the first, nothing inside a node replaced.
    fn wave_taken(&self, chosen: &[bool]) -> Vec<bool> {
        let Some(sweep) = &self.sweep else {
            return chosen.to_vec();
        };
        let tree = &self.tree;
        let mut covered: Vec<std::ops::Range<u32>> = Vec::new();
        let mut taken = vec![false; chosen.len()];
        for (i, item) in sweep.wave.iter().enumerate() {
            if !chosen.get(i).copied().unwrap_or(false) {
                continue;
            }
            let footprint: Vec<_> = match item {
                WaveItem::Replace(n) => vec![tree.tokens(*n)],
                WaveItem::Delete {
                    elems, positions, ..
                } => positions
                    .iter()
                    .map(|&p| tree.tokens(elems[p as usize]))
                    .collect(),
            };
            let overlaps = footprint
                .iter()
                .any(|f| covered.iter().any(|c| f.start < c.end && c.start < f.end));
            if !overlaps {
                covered.extend(footprint);
                taken[i] = true;
            }
        }
        taken
    }

    /// The chosen proposals of the last wave that go together
    /// ([`Self::wave_taken`]) as one: the replacements' deletions, and
    /// each list's elements deleted as one deletion (separators as for
    /// one).
    pub(super) fn sweep_merge(
        &self,
        config: &Configuration,
        wave: &[Proposal],
        chosen: &mut [bool],
    ) -> Proposal {
        let Some(sweep) = &self.sweep else {
            return Proposal::union(wave.iter().zip(&*chosen).filter(|c| *c.1).map(|c| c.0));
        };
        let taken = self.wave_taken(chosen);
        chosen.copy_from_slice(&taken);
        let mut parts = Vec::new();
        let mut lists: Vec<ListDeletion<'_>> = Vec::new();
        for ((item, proposal), _) in sweep.wave.iter().zip(wave).zip(&taken).filter(|t| *t.1) {
            match item {
                WaveItem::Replace(_) => parts.push(proposal.clone()),
                WaveItem::Delete {
                    list,
                    elems,
                    positions,
                } => match lists.iter_mut().find(|l| l.0 == *list) {
                    Some(l) => l.2.extend(positions),
                    None => lists.push((*list, elems, positions.clone())),
                },
            }
        }
        for (_, elems, positions) in lists {
            parts.push(self.list_deletion(&selection_of(positions), elems, config));
        }
        Proposal::union(&parts)
    }

    /// A merge of the last wave committed: the sweep goes on after the
    /// wave; the list it ended in hears which of its deletions went in,
    /// and a node whose replacement went in is left.
    pub(super) fn sweep_on_merged(
        &mut self,
        passed: &[bool],
        taken: &[bool],
        config: &Configuration,
    ) {
        let Some(mut sweep) = self.sweep.take() else {
            return;
        };
        sweep.committed = true;
        let node = sweep.order.get(sweep.cursor).copied();
        let advance = match &mut sweep.step {
            Step::List {
                list, minimizer, ..
            } if sweep.last == Made::Deletion => {
                // The wave's last items are this list's minimizer's wave.
                let ours: Vec<usize> = (0..sweep.wave.len())
                    .filter(|&i| matches!(&sweep.wave[i], WaveItem::Delete { list: l, .. } if l == list))
                    .collect();
                let pick = |flags: &[bool]| -> Vec<bool> {
                    ours.iter()
                        .map(|&i| flags.get(i).copied().unwrap_or(false))
                        .collect()
                };
                let elems = self.elem_list(&self.elems_of(*list, config), config);
                !minimizer.on_merged(&pick(passed), &pick(taken), &elems)
            }
            _ => sweep
                .wave
                .iter()
                .zip(taken)
                .any(|(item, t)| *t && matches!(item, WaveItem::Replace(n) if Some(*n) == node)),
        };
        if advance {
            sweep.advance();
        }
        self.sweep = Some(sweep);
    }
}

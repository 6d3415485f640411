//! Configurations, deltas and proposals: the values the reduce loop passes around.
//!
//! A [`Configuration`] is the set of units kept so far (a bitset over the
//! input's units, never a hash set). A [`Delta`] is a set of units to remove,
//! stored as sorted disjoint ranges because a tree node's tokens are a
//! contiguous range. A [`Proposal`] is what a policy hands the loop: a delta,
//! plus optional text rewrites of kept units (used by simplification passes)
//! and optionally a new [`Layout`] of the whitespace between tokens (used by
//! `--format compact`).

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use crate::bitset::BitSet;

/// How the whitespace between kept tokens is rendered.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Layout {
    /// Each token keeps the whitespace that followed it in the input.
    #[default]
    Original,
    /// Line breaks where the input had them after a token, otherwise one
    /// space only where two tokens would fuse; no indentation.
    Lines,
    /// One space only where two tokens would fuse; no line breaks.
    Compact,
    /// The input's whitespace, tidied: no spaces or tabs at the end of a
    /// line, no more than one blank line in a row, one line break at the end.
    Tidy,
    /// Each kept token's rewrite is its text and the whitespace after it,
    /// nothing else is added (the layout made from the tree,
    /// `tree::layout`).
    Given,
}

/// The units kept so far, any kept unit whose text was rewritten, and the
/// layout of the whitespace between them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Configuration {
    pub kept: BitSet,
    /// Replacement text for some kept units (empty for pure deletion).
    pub(crate) rewrites: Arc<BTreeMap<u32, Arc<[u8]>>>,
    pub layout: Layout,
}

impl Configuration {
    /// Every one of `units` units kept, no rewrites.
    pub fn full(units: u32) -> Self {
        Configuration {
            kept: BitSet::full(units),
            rewrites: Arc::default(),
            layout: Layout::Original,
        }
    }

    /// Exactly `units` kept, out of a universe of `universe` units.
    #[cfg(test)]
    pub(crate) fn from_units(universe: u32, units: impl IntoIterator<Item = u32>) -> Self {
        Configuration {
            kept: BitSet::from_units(universe, units),
            rewrites: Arc::default(),
            layout: Layout::Original,
        }
    }

    /// How many units are kept.
    pub fn len(&self) -> u32 {
        self.kept.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    pub fn contains(&self, unit: u32) -> bool {
        self.kept.contains(unit)
    }

    /// The configuration after `proposal`; `None` when it would change nothing.
    pub(crate) fn apply(&self, proposal: &Proposal) -> Option<Configuration> {
        let mut next = self.clone();
        let mut removed = 0;
        for r in proposal.delta.ranges() {
            removed += next.kept.remove_range(r.clone());
        }
        let mut changed = removed > 0;
        if let Some(layout) = proposal.layout
            && layout != next.layout
        {
            next.layout = layout;
            changed = true;
        }
        if !proposal.rewrites.is_empty() {
            let mut rewrites = (*self.rewrites).clone();
            for (unit, text) in &proposal.rewrites {
                if next.kept.contains(*unit) && rewrites.get(unit) != Some(text) {
                    rewrites.insert(*unit, text.clone());
                    changed = true;
                }
            }
            rewrites.retain(|unit, _| next.kept.contains(*unit));
            next.rewrites = Arc::new(rewrites);
        } else if removed > 0 && !self.rewrites.is_empty() {
            let mut rewrites = (*self.rewrites).clone();
            rewrites.retain(|unit, _| next.kept.contains(*unit));
            next.rewrites = Arc::new(rewrites);
        }
        changed.then_some(next)
    }
}

/// A set of units to remove: sorted, disjoint, non-adjacent ranges.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Delta {
    ranges: Vec<Range<u32>>,
}

impl Delta {
    /// The empty delta.
    pub fn new() -> Self {
        Delta::default()
    }

    /// A delta from ranges in any order, overlapping or not.
    pub(crate) fn from_ranges(mut ranges: Vec<Range<u32>>) -> Self {
        ranges.retain(|r| r.start < r.end);
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<u32>> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match merged.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => merged.push(r),
            }
        }
        Delta { ranges: merged }
    }

    /// A delta from single units in any order.
    pub(crate) fn from_units(units: impl IntoIterator<Item = u32>) -> Self {
        Delta::from_ranges(units.into_iter().map(|u| u..u + 1).collect())
    }

    /// Adds a range; cheap when ranges arrive in ascending order.
    pub fn push(&mut self, r: Range<u32>) {
        if r.start >= r.end {
            return;
        }
        match self.ranges.last_mut() {
            Some(last) if r.start >= last.start && r.start <= last.end => {
                last.end = last.end.max(r.end)
            }
            Some(last) if r.start > last.end => self.ranges.push(r),
            None => self.ranges.push(r),
            Some(_) => {
                let mut ranges = std::mem::take(&mut self.ranges);
                ranges.push(r);
                *self = Delta::from_ranges(ranges);
            }
        }
    }

    pub(crate) fn ranges(&self) -> &[Range<u32>] {
        &self.ranges
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether the delta covers `unit`.
    pub fn contains(&self, unit: u32) -> bool {
        let i = self.ranges.partition_point(|r| r.end <= unit);
        self.ranges.get(i).is_some_and(|r| r.start <= unit)
    }

    /// How many units of `config` the delta would remove.
    #[cfg(test)]
    pub(crate) fn removes_from(&self, config: &Configuration) -> u32 {
        self.ranges
            .iter()
            .map(|r| config.kept.count_in(r.clone()))
            .sum()
    }
}

/// One step a policy proposes: remove `delta`, and rewrite the text of some kept units.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Proposal {
    pub(crate) delta: Delta,
    pub(crate) rewrites: Vec<(u32, Arc<[u8]>)>,
    /// A new whitespace layout, if any.
    pub layout: Option<Layout>,
}

impl Proposal {
    /// A pure deletion.
    pub(crate) fn delete(delta: Delta) -> Self {
        Proposal {
            delta,
            rewrites: Vec::new(),
            layout: None,
        }
    }

    /// Only a new whitespace layout.
    pub(crate) fn relayout(layout: Layout) -> Self {
        Proposal {
            delta: Delta::new(),
            rewrites: Vec::new(),
            layout: Some(layout),
        }
    }

    /// The proposals' deletions and rewrites together (a layout only if
    /// they all agree on one).
    pub(crate) fn union<'p>(proposals: impl IntoIterator<Item = &'p Proposal>) -> Proposal {
        let mut ranges: Vec<Range<u32>> = Vec::new();
        let mut rewrites = Vec::new();
        let mut layouts = Vec::new();
        for p in proposals {
            ranges.extend(p.delta.ranges().iter().cloned());
            rewrites.extend(p.rewrites.iter().cloned());
            layouts.push(p.layout);
        }
        layouts.dedup();
        Proposal {
            delta: Delta::from_ranges(ranges),
            rewrites,
            layout: match layouts[..] {
                [one] => one,
                _ => None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_merges_overlapping_and_adjacent_ranges() {
        let d = Delta::from_ranges(vec![5..7, 0..2, 2..3, 6..9, 20..21]);
        assert_eq!(d.ranges(), &[0..3, 5..9, 20..21]);
        assert!(d.contains(8) && !d.contains(9) && d.contains(0) && !d.contains(4));
        let mut p = Delta::new();
        p.push(3..4);
        p.push(4..6);
        p.push(1..2);
        assert_eq!(p.ranges(), &[1..2, 3..6]);
    }

    #[test]
    fn applying_a_delta_that_removes_nothing_changes_nothing() {
        let c = Configuration::from_units(10, [1, 2, 3]);
        assert_eq!(c.apply(&Proposal::delete(Delta::from_units([5, 6]))), None);
        let next = c
            .apply(&Proposal::delete(Delta::from_units([2, 5])))
            .unwrap();
        assert_eq!(next.kept.iter().collect::<Vec<_>>(), vec![1, 3]);
    }

    #[test]
    fn rewrites_of_removed_units_are_dropped() {
        let c = Configuration::full(4);
        let text: Arc<[u8]> = Arc::from(&b"0"[..]);
        let p = Proposal {
            delta: Delta::from_units([1]),
            rewrites: vec![(0, text.clone())],
            layout: None,
        };
        let next = c.apply(&p).unwrap();
        assert_eq!(next.rewrites.get(&0), Some(&text));
        let later = next
            .apply(&Proposal::delete(Delta::from_units([0])))
            .unwrap();
        assert!(later.rewrites.is_empty());
    }
}

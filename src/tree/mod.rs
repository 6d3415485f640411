//! The parse tree: built once, never changed; a candidate is the set of kept tokens.
//!
//! Nodes live in an arena in preorder, so a node's descendants are the ids
//! right after it and its tokens (the leaves, one unit each) are a contiguous
//! range. Liveness is recomputed per pass from the configuration in O(n),
//! and presence and kept tokens under a node are answered from it in O(1)
//! (rank queries), never stored as mutable state that could drift. The
//! arena costs about ten bytes a node (see [`compact`]).
//! Trees come from tree-sitter (`parse`) or are built by hand (`toy`, in tests) for
//! the tutorial's examples.

pub mod blocks;
mod compact;
pub(crate) mod item_ends;
pub(crate) mod layout;
mod liveness;
pub(crate) mod names;
pub mod parse;
pub mod sitter;
#[cfg(test)]
pub(crate) mod toy;

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use crate::configuration::{Configuration, Delta};
use crate::grammar::{Grammar, KindId, Role, SlotId};
use crate::units::Units;
use compact::{NarrowU32s, RankedBits};
use liveness::EmptySubtrees;
pub(crate) use liveness::Liveness;

/// A node's index in the arena (preorder; the root is 0).
pub(crate) type NodeId = u32;

const NONE: u32 = u32::MAX;

/// A node's slot (13 bits, all ones for none) and role (3 bits) in two bytes.
#[derive(Clone, Copy, Debug)]
struct SlotAndRole(u16);

const SLOT_BITS: u32 = 13;
const NO_SLOT: u16 = (1 << SLOT_BITS) - 1;
const ROLES: [Role; 6] = [
    Role::Mandatory,
    Role::Optional,
    Role::ListElem,
    Role::PlusElem,
    Role::Extra,
    Role::Error,
];

impl SlotAndRole {
    fn new(slot: Option<SlotId>, role: Role) -> Self {
        let slot = match slot {
            None => NO_SLOT,
            Some(s) => u16::try_from(s)
                .ok()
                .filter(|&s| s < NO_SLOT)
                .expect("a grammar has fewer than 8,191 slots"),
        };
        let role = ROLES
            .iter()
            .position(|&r| r == role)
            .expect("every role is listed") as u16;
        SlotAndRole(role << SLOT_BITS | slot)
    }

    fn slot(self) -> Option<SlotId> {
        let s = self.0 & NO_SLOT;
        (s != NO_SLOT).then_some(SlotId::from(s))
    }

    fn role(self) -> Role {
        ROLES[usize::from(self.0 >> SLOT_BITS)]
    }
}

/// The children of a node, left to right: each next sibling starts where the
/// subtree before it ends.
#[derive(Clone)]
pub struct Children<'a> {
    tree: &'a Tree,
    next: NodeId,
    end: NodeId,
}

impl Iterator for Children<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        (self.next < self.end).then(|| {
            let c = self.next;
            self.next = self.tree.subtree_end(c);
            c
        })
    }
}

/// An immutable parse tree over the units of one input.
#[derive(Debug)]
pub struct Tree {
    pub grammar: Arc<Grammar>,
    kind: Vec<KindId>,
    parent: Vec<NodeId>,
    /// Each node's role and the slot it fills ([`SlotAndRole`]).
    slot_role: Vec<SlotAndRole>,
    /// Nodes in each subtree, its root included: the descendants of `n` are
    /// `n+1..n+size[n]`.
    size: Arc<NarrowU32s>,
    /// Which nodes are tokens. Tokens are numbered in preorder, so the units
    /// under `n` are the tokens among `n..n+size[n]`: a rank query each.
    is_token: Arc<RankedBits>,
    /// Order key for ties and list order: a hand-built tree's ids, or
    /// `None` for the preorder index (parsed trees).
    rank: Option<Vec<u32>>,
    max_depth: u32,
    /// Parse errors found when the tree was built.
    pub parse_errors: usize,
    /// Bytes of the input inside parse-error regions (ERROR nodes).
    pub error_bytes: usize,
    /// What liveness is in subtrees without kept tokens, computed once.
    empty: OnceLock<EmptySubtrees>,
}

impl Tree {
    pub fn root(&self) -> NodeId {
        0
    }

    pub fn len(&self) -> usize {
        self.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    pub fn kind(&self, n: NodeId) -> KindId {
        self.kind[n as usize]
    }

    #[cfg(test)]
    pub(crate) fn kind_name(&self, n: NodeId) -> &str {
        self.grammar.kind_name(self.kind(n))
    }

    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        let p = self.parent[n as usize];
        (p != NONE).then_some(p)
    }

    /// `n`'s children, in order.
    pub fn children(&self, n: NodeId) -> Children<'_> {
        Children {
            tree: self,
            next: n + 1,
            end: self.subtree_end(n),
        }
    }

    /// The siblings after `n`, in order: they start where `n`'s subtree
    /// ends and stop where its parent's does (none for the root).
    pub(crate) fn later_siblings(&self, n: NodeId) -> Children<'_> {
        let end = self.parent(n).map_or(n, |p| self.subtree_end(p));
        Children {
            tree: self,
            next: self.subtree_end(n),
            end,
        }
    }

    /// Where `n`'s subtree ends in preorder.
    fn subtree_end(&self, n: NodeId) -> NodeId {
        n + self.size.get(n)
    }

    pub(crate) fn is_leaf(&self, n: NodeId) -> bool {
        self.size.get(n) == 1
    }

    /// The slot `n` fills in its parent, if the grammar describes one.
    pub(crate) fn slot(&self, n: NodeId) -> Option<SlotId> {
        self.slot_role[n as usize].slot()
    }

    pub(crate) fn role(&self, n: NodeId) -> Role {
        self.slot_role[n as usize].role()
    }

    /// Whether deleting `n` (its whole subtree) keeps its parent grammatical.
    pub(crate) fn deletable(&self, n: NodeId) -> bool {
        n != 0 && self.role(n).deletable()
    }

    /// The units under `n`.
    pub fn tokens(&self, n: NodeId) -> Range<u32> {
        self.is_token.rank(n)..self.is_token.rank(self.subtree_end(n))
    }

    /// How many ancestors `n` has: O(depth), it walks up (traversals that
    /// need depths track them as they go down).
    #[cfg(test)]
    pub(crate) fn depth(&self, n: NodeId) -> u32 {
        std::iter::successors(self.parent(n), |&p| self.parent(p)).count() as u32
    }

    pub(crate) fn max_depth(&self) -> u32 {
        self.max_depth
    }

    pub(crate) fn rank(&self, n: NodeId) -> u32 {
        self.rank.as_ref().map_or(n, |r| r[n as usize])
    }

    /// The proper descendants of `n`, in preorder.
    #[cfg(test)]
    pub(crate) fn descendants(&self, n: NodeId) -> Range<NodeId> {
        n + 1..self.subtree_end(n)
    }

    /// Whether `d` is `n` or below it.
    pub(crate) fn is_within(&self, d: NodeId, n: NodeId) -> bool {
        d >= n && d < self.subtree_end(n)
    }

    /// The leaf node of unit `u`.
    pub(crate) fn leaf_of(&self, unit: u32) -> NodeId {
        self.is_token.select(unit)
    }

    pub(crate) fn unit_count(&self) -> u32 {
        self.is_token.ones()
    }

    /// Whether any token under `n` is kept.
    pub(crate) fn present(&self, n: NodeId, config: &Configuration) -> bool {
        config.kept.any_in(self.tokens(n))
    }

    /// Kept tokens under `n`.
    pub fn size(&self, n: NodeId, config: &Configuration) -> u32 {
        config.kept.count_in(self.tokens(n))
    }

    /// Kept tokens under every node of `config` ([`Sizes`]): O(units / 64).
    pub(crate) fn sizes(&self, config: &Configuration) -> Sizes {
        Sizes {
            is_token: Arc::clone(&self.is_token),
            size: Arc::clone(&self.size),
            kept: RankedBits::from_words(config.kept.words(), config.kept.universe()),
        }
    }

    /// Which nodes still exist in `config` (see [`Liveness`]).
    #[cfg(test)]
    pub(crate) fn liveness(&self, config: &Configuration) -> Liveness {
        self.sizes_and_liveness(config, None).1
    }

    /// [`Self::sizes`] and `Self::liveness` at once: liveness asks the
    /// sizes which nodes hold a kept token. Given the liveness of an
    /// `earlier` configuration of this tree (the last pass's), it is
    /// updated from it where few units changed.
    pub(crate) fn sizes_and_liveness(
        &self,
        config: &Configuration,
        earlier: Option<&Liveness>,
    ) -> (Sizes, Liveness) {
        let sizes = self.sizes(config);
        let live = earlier
            .and_then(|e| Liveness::update(self, config, &sizes, e))
            .unwrap_or_else(|| Liveness::compute(self, config, &sizes));
        (sizes, live)
    }

    /// The units to remove to delete the subtrees `nodes`, including one
    /// separator per deleted element of a separated list so that `[1, 2, 3]`
    /// minus `2` is `[1, 3]`.
    pub(crate) fn deletion_delta(&self, nodes: &[NodeId], config: &Configuration) -> Delta {
        let mut ranges = Vec::with_capacity(nodes.len());
        // Deleted children of separated lists, by parent, in order.
        let mut lists: BTreeMap<NodeId, Vec<NodeId>> = BTreeMap::new();
        for &n in nodes {
            match self.parent(n) {
                Some(p) if self.grammar.has_separators(self.kind(p)) => {
                    lists.entry(p).or_default().push(n)
                }
                _ => ranges.push(self.tokens(n)),
            }
        }
        for (p, mut deleted) in lists {
            deleted.sort_unstable();
            deleted.dedup();
            self.separated_deletion(p, &deleted, config, &mut ranges);
        }
        Delta::from_ranges(ranges)
    }

    /// Each anonymous token outside a field that stands alone (comments
    /// aside) between two named children filling the same `multiple`
    /// slot, as its parent's kind and its own: the evidence separators are
    /// derived from (`grammar/derive.rs`). Linear in the tree's size.
    fn list_gaps(&self) -> Vec<(KindId, KindId)> {
        let mut gaps = Vec::new();
        for p in 0..self.len() as NodeId {
            if self.is_leaf(p) {
                continue;
            }
            // The slot of the last element seen and the tokens after it.
            let mut last: Option<SlotId> = None;
            let mut between: (u32, KindId) = (0, 0);
            for c in self.children(p) {
                let role = self.role(c);
                let slot = self.slot(c).filter(|&s| self.grammar.slot(s).multiple);
                if role == Role::Extra {
                    continue;
                } else if self.grammar.is_named(self.kind(c)) && slot.is_some() {
                    if last == slot && between.0 == 1 {
                        gaps.push((self.kind(p), between.1));
                    }
                    (last, between) = (slot, (0, 0));
                } else if self.is_leaf(c) && self.slot(c).is_none() && role == Role::Mandatory {
                    between = (between.0 + 1, self.kind(c));
                } else {
                    last = None;
                }
            }
        }
        gaps
    }

    /// Whether `c` is a separator token of the separated list `p`.
    pub(crate) fn is_separator_child(&self, p: NodeId, c: NodeId) -> bool {
        self.is_leaf(c) && self.grammar.is_separator(self.kind(p), self.kind(c))
    }

    /// The slots whose children are the elements of separated list `p`: the
    /// slots of the named children right after a separator (for a C
    /// `declaration`, its declarators, not its type; for a field, not the
    /// bitfield width that follows a declarator), or, when every separator
    /// is a trailing one, right before it.
    fn element_slots(&self, p: NodeId, siblings: &[NodeId]) -> Vec<Option<SlotId>> {
        let mut after = Vec::new();
        let mut before = Vec::new();
        let named = |c: NodeId| self.role(c) != Role::Extra && self.grammar.is_named(self.kind(c));
        for (i, &s) in siblings.iter().enumerate() {
            if !self.is_separator_child(p, s) {
                continue;
            }
            let next = siblings[i + 1..]
                .iter()
                .find(|&&c| self.role(c) != Role::Extra);
            let prev = siblings[..i]
                .iter()
                .rev()
                .find(|&&c| self.role(c) != Role::Extra);
            for (found, slots) in [(next, &mut after), (prev, &mut before)] {
                if let Some(&c) = found.filter(|&&c| named(c))
                    && !slots.contains(&self.slot(c))
                {
                    slots.push(self.slot(c));
                }
            }
        }
        if after.is_empty() { before } else { after }
    }

    /// Deletes `deleted` (children of separated list `p`, ascending). Each
    /// element of the list takes along the named children of other slots
    /// right after it (a bitfield width after its declarator) and one
    /// separator: the nearest kept one before it when a kept element
    /// precedes it, otherwise the nearest kept one after it. Comments are
    /// skipped over when looking for the separator; any other kept token in
    /// the way (a bracket) means there is none. Other children (comments, a
    /// separator, a type) are deleted alone. Linear in the number of siblings.
    fn separated_deletion(
        &self,
        p: NodeId,
        deleted: &[NodeId],
        config: &Configuration,
        ranges: &mut Vec<Range<u32>>,
    ) {
        let siblings: Vec<NodeId> = self.children(p).collect();
        let slots = self.element_slots(p, &siblings);
        let is_element = |c: NodeId| {
            self.role(c) != Role::Extra
                && self.grammar.is_named(self.kind(c))
                && slots.contains(&self.slot(c))
        };
        // A kept sibling a separator search stops at.
        let stops = |s: NodeId| self.role(s) != Role::Extra && self.present(s, config);
        let mut kept_before = false;
        let mut next = deleted.iter().peekable();
        for (at, &s) in siblings.iter().enumerate() {
            if next.next_if(|&&d| d == s).is_none() {
                kept_before |= is_element(s) && self.present(s, config);
                continue;
            }
            ranges.push(self.tokens(s));
            if is_element(s) {
                // Children of other slots that belong with this element.
                let mut end = at + 1;
                while let Some(&f) = siblings.get(end)
                    && (self.role(f) == Role::Extra
                        || (self.grammar.is_named(self.kind(f)) && !is_element(f)))
                {
                    if self.role(f) != Role::Extra {
                        ranges.push(self.tokens(f));
                    }
                    end += 1;
                }
                let sep = if kept_before {
                    siblings[..at].iter().rev().find(|&&x| stops(x))
                } else {
                    siblings[end..].iter().find(|&&x| stops(x))
                };
                if let Some(&sep) = sep.filter(|&&x| self.is_separator_child(p, x)) {
                    ranges.push(self.tokens(sep));
                }
            }
            if next.peek().is_none() {
                break;
            }
        }
    }

    /// The slot `n` effectively fills: climb from `n` through ancestors that
    /// no longer exist to the first whose parent is live (Perses' anchor).
    pub(crate) fn anchor_of(&self, n: NodeId, live: &Liveness) -> NodeId {
        let mut anchor = n;
        while let Some(p) = self.parent(anchor) {
            if p == 0 || live.is_live(p) {
                break;
            }
            anchor = p;
        }
        anchor
    }

    /// Whether `d` may take `n`'s place: its kind must fit the slot `n`
    /// effectively fills. The root fills no slot.
    #[cfg(test)]
    pub(crate) fn can_replace(&self, n: NodeId, d: NodeId, live: &Liveness) -> bool {
        if n == d {
            return false;
        }
        self.fits_slot_of(self.anchor_of(n, live), d)
    }

    /// Whether `d` may fill the slot `anchor` fills (as found by
    /// [`Self::anchor_of`]); lets a caller testing many `d` for one `n`
    /// compute the anchor once. The root fills no slot.
    pub(crate) fn fits_slot_of(&self, anchor: NodeId, d: NodeId) -> bool {
        anchor != d && self.slot_of_accepts(anchor, self.kind(d))
    }

    /// Whether a node of `kind` may fill the slot `anchor` fills (what
    /// [`Self::fits_slot_of`] asks of a node's kind). The root fills no slot.
    pub(crate) fn slot_of_accepts(&self, anchor: NodeId, kind: KindId) -> bool {
        if self.parent(anchor).is_none() {
            return false;
        }
        match self.slot(anchor) {
            Some(slot) => self.grammar.slot(slot).accepts(kind),
            None => kind == self.kind(anchor),
        }
    }
}

/// Kept tokens under each node of a tree in one configuration
/// ([`Tree::sizes`]), each answered in O(1) when asked: the kept tokens
/// before the node's last token minus those before its first, two rank
/// queries on the configuration's kept bits. Nothing per node is stored.
pub(crate) struct Sizes {
    is_token: Arc<RankedBits>,
    size: Arc<NarrowU32s>,
    kept: RankedBits,
}

impl Sizes {
    pub fn get(&self, n: NodeId) -> u32 {
        let first = self.is_token.rank(n);
        let end = self.is_token.rank(n + self.size.get(n));
        self.kept.rank(end) - self.kept.rank(first)
    }
}

/// Streams nodes in preorder into a [`Tree`] and its [`Units`].
pub(crate) struct TreeBuilder {
    grammar: Grammar,
    kind: Vec<KindId>,
    parent: Vec<NodeId>,
    slot_role: Vec<SlotAndRole>,
    rank: Vec<u32>,
    max_depth: u32,
    size: NarrowU32s,
    is_token: RankedBits,
    unit_starts: Vec<u32>,
    open: Vec<NodeId>,
    parse_errors: usize,
    error_bytes: usize,
}

/// How a node enters the builder.
pub(crate) struct NodeSpec<'a> {
    pub kind: KindId,
    /// The field it fills in its parent, if any.
    pub field: Option<&'a str>,
    /// Overrides the role the grammar would give (extras, errors).
    pub role: Option<Role>,
    /// Order key; defaults to the preorder index.
    pub rank: Option<u32>,
}

impl TreeBuilder {
    pub fn new(grammar: Grammar) -> Self {
        TreeBuilder {
            grammar,
            kind: Vec::new(),
            parent: Vec::new(),
            slot_role: Vec::new(),
            rank: Vec::new(),
            max_depth: 0,
            size: NarrowU32s::default(),
            is_token: RankedBits::default(),
            unit_starts: Vec::new(),
            open: Vec::new(),
            parse_errors: 0,
            error_bytes: 0,
        }
    }

    /// Room for `nodes` more nodes, of which at most `tokens` tokens (hints).
    pub(crate) fn reserve(&mut self, nodes: usize, tokens: usize) {
        self.kind.reserve_exact(nodes);
        self.parent.reserve_exact(nodes);
        self.slot_role.reserve_exact(nodes);
        self.size.reserve_exact(nodes);
        self.is_token.reserve_exact(nodes);
        self.unit_starts.reserve_exact(tokens);
    }

    pub(crate) fn grammar(&mut self) -> &mut Grammar {
        &mut self.grammar
    }

    /// Counts a parse error (ERROR or MISSING) found while building.
    pub(crate) fn note_parse_error(&mut self) {
        self.parse_errors += 1;
    }

    /// Counts `bytes` of the input as inside a parse-error region.
    pub(crate) fn note_error_bytes(&mut self, bytes: usize) {
        self.error_bytes += bytes;
    }

    fn push(&mut self, spec: NodeSpec<'_>, is_token: bool) -> NodeId {
        let id = self.kind.len() as NodeId;
        let parent = self.open.last().copied().unwrap_or(NONE);
        let (slot, role) = if parent == NONE {
            (None, Role::Mandatory)
        } else {
            let named = self.grammar.is_named(spec.kind);
            let slot = self
                .grammar
                .slot_of(self.kind[parent as usize], spec.field, named);
            let parent_kind = self.kind[parent as usize];
            let mut role = match spec.role {
                Some(r) => r,
                None if slot.is_none()
                    && self.grammar.is_optional_token(parent_kind, spec.kind) =>
                {
                    Role::Optional
                }
                None => slot.map_or(Role::Mandatory, |s| self.grammar.slot(s).role()),
            };
            if self.grammar.never_deleted(spec.kind) && !matches!(role, Role::Error) {
                role = Role::Mandatory;
            }
            (slot, role)
        };
        self.kind.push(spec.kind);
        self.parent.push(parent);
        self.slot_role.push(SlotAndRole::new(slot, role));
        // Ranks are stored only once a node brings its own.
        if spec.rank.is_some() && self.rank.is_empty() {
            self.rank.extend(0..id);
        }
        if spec.rank.is_some() || !self.rank.is_empty() {
            self.rank.push(spec.rank.unwrap_or(id));
        }
        self.max_depth = self.max_depth.max(self.open.len() as u32);
        self.size.push(1);
        self.is_token.push(is_token);
        id
    }

    /// Opens an internal node; its children follow until [`Self::close`].
    pub fn open(&mut self, spec: NodeSpec<'_>) {
        let id = self.push(spec, false);
        self.open.push(id);
    }

    /// Closes the innermost open node.
    pub(crate) fn close(&mut self) {
        let id = self.open.pop().expect("close without open");
        let end = self.kind.len() as NodeId;
        self.size.set(id, end - id);
    }

    /// Adds a token covering `bytes` of the source (non-empty, after the previous token).
    pub fn token(&mut self, spec: NodeSpec<'_>, bytes: Range<usize>) {
        self.push(spec, true);
        debug_assert!(bytes.start < bytes.end);
        let start = if self.unit_starts.is_empty() {
            0
        } else {
            bytes.start as u32
        };
        self.unit_starts.push(start);
    }

    /// The finished tree and its token units.
    pub fn finish(mut self, source: Vec<u8>) -> (Tree, Units) {
        while !self.open.is_empty() {
            self.close();
        }
        self.is_token.seal();
        self.size.shrink_to_fit();
        let mut units = Units::from_starts(source, self.unit_starts, true);
        if self.grammar.lines_join_after_deletions {
            units = units.joining_lines_after_deletions();
        }
        let mut tree = Tree {
            grammar: Arc::new(self.grammar),
            kind: self.kind,
            parent: self.parent,
            slot_role: self.slot_role,
            size: Arc::new(self.size),
            is_token: Arc::new(self.is_token),
            rank: (!self.rank.is_empty()).then_some(self.rank),
            max_depth: self.max_depth,
            parse_errors: self.parse_errors,
            error_bytes: self.error_bytes,
            empty: OnceLock::new(),
        };
        let gaps = tree.list_gaps();
        Arc::get_mut(&mut tree.grammar)
            .expect("a tree being built owns its grammar")
            .derive_separators(gaps);
        (tree, units)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_slot_and_role_gives_back_both() {
        for role in ROLES {
            for slot in [
                None,
                Some(0),
                Some(1),
                Some(4_000),
                Some(u32::from(NO_SLOT) - 1),
            ] {
                let packed = SlotAndRole::new(slot, role);
                assert_eq!((packed.slot(), packed.role()), (slot, role));
            }
        }
    }
}

//! Which nodes of a tree still exist in a configuration ([`Liveness`]),
//! computed from the kept tokens up, and updated from an earlier
//! configuration's liveness where a commit changed a few tokens: a pass
//! of a large tree then costs the paths from the changed tokens to the
//! root, not every node holding a kept token.

use std::collections::BTreeMap;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::{NONE, NodeId, Sizes, Tree};
use crate::bitset::BitSet;
use crate::configuration::Configuration;
use crate::grammar::{Role, SlotId};

/// Which nodes still exist in a configuration.
///
/// A token exists iff it is kept. A node with mandatory parts exists iff all
/// of them exist (and, for a one-or-more slot, at least one of its elements);
/// a node with no mandatory parts (a bare list) exists iff its parent does.
/// A mandatory part that no longer exists still counts as there when a
/// descendant took its place: its kept tokens all lie under one child, and
/// what stands there (that child, or what stands in the child's place)
/// fits the part's slot — as after a replacement, which deletes a node's
/// tokens around a descendant (`int a[9] = {1}` minus `[9]` is an
/// `init_declarator` whose declarator is the identifier `a`). Without this,
/// every ancestor up to the first optional slot would die with the
/// replaced node, and no later replacement inside them could be checked
/// against the slot it really fills.
/// The separators of a separated list are not mandatory parts: deleting an
/// element takes one along. A node whose one kept token carries a rewrite
/// exists: it was replaced by that text (a simplification keeps a node's
/// first token, rewritten, and deletes the rest).
pub(crate) struct Liveness {
    live: BitSet,
    /// What the existence was derived from, kept to update it for the
    /// next configuration ([`Liveness::update`]).
    facts: Facts,
}

/// The bottom-up facts of one configuration: which nodes hold a kept
/// token, their intrinsic existence, and what stands in their place. A
/// node's facts depend on its subtree's kept tokens and rewrites alone.
struct Facts {
    /// The configuration's kept units.
    kept: BitSet,
    /// The configuration's rewrites.
    rewrites: Arc<BTreeMap<u32, Arc<[u8]>>>,
    /// The nodes holding a kept token; for the others the empty-subtree
    /// values apply.
    holding: BitSet,
    /// The holding nodes' intrinsic existence.
    computed: Intrinsics,
    /// The holding nodes in whose place something else stands, or nothing
    /// (`NONE`); in every other holding node's place stands the node
    /// itself. Only a holding node that does not exist on its own
    /// (`Some(false)`) can have another, or nothing, in its place.
    displaced: FxHashMap<NodeId, NodeId>,
}

impl Facts {
    /// Node `id`'s intrinsic existence.
    fn own(&self, empty: &EmptySubtrees, id: NodeId) -> Intrinsic {
        if self.holding.contains(id) {
            self.computed.get(id)
        } else {
            empty.intrinsic.get(id)
        }
    }

    /// What stands in node `c`'s place (`NONE`: nothing).
    fn occupant(&self, c: NodeId) -> NodeId {
        if !self.holding.contains(c) {
            NONE
        } else if self.computed.get(c) == Some(false) {
            self.displaced.get(&c).copied().unwrap_or(c)
        } else {
            c
        }
    }

    /// Computes and records the facts of holding node `id` from its
    /// children's; `replaced`: its one kept token carries a rewrite.
    fn settle(&mut self, tree: &Tree, empty: &EmptySubtrees, id: NodeId, replaced: bool) {
        // A leaf holding a kept token is that token; a replaced node is
        // its rewrite.
        let own = if tree.is_leaf(id) || replaced {
            Some(true)
        } else {
            Liveness::intrinsic_of(
                tree,
                id,
                |c| self.own(empty, c),
                |c| self.occupant(c) != NONE,
            )
        };
        let stands = Liveness::occupant_of(
            tree,
            id,
            own,
            |c| self.holding.contains(c),
            |c| self.occupant(c),
        );
        self.computed.put(id, own);
        if stands != id {
            self.displaced.insert(id, stands);
        }
    }
}

/// A node's own existence: `Some(all its mandatory parts exist)`, or `None`
/// for a node without mandatory parts, which exists iff its parent does.
type Intrinsic = Option<bool>;

/// A column of [`Intrinsic`] values, two bits a node.
#[derive(Clone, Debug)]
struct Intrinsics {
    /// Nodes with mandatory parts.
    some: BitSet,
    /// Of those, the ones whose mandatory parts all exist.
    value: BitSet,
}

impl Intrinsics {
    fn new(n: u32) -> Self {
        Intrinsics {
            some: BitSet::empty(n),
            value: BitSet::empty(n),
        }
    }

    fn get(&self, id: NodeId) -> Intrinsic {
        self.some.contains(id).then(|| self.value.contains(id))
    }

    /// Sets a node's value (once; every node starts as `None`).
    fn set(&mut self, id: NodeId, v: Intrinsic) {
        if let Some(v) = v {
            self.some.insert(id);
            if v {
                self.value.insert(id);
            }
        }
    }

    /// Sets a node's value, whatever it was.
    fn put(&mut self, id: NodeId, v: Intrinsic) {
        self.some.remove(id);
        self.value.remove(id);
        self.set(id, v);
    }
}

/// Liveness facts that depend on the tree alone: a subtree with no kept
/// token always looks the same, so its nodes' intrinsic existence is
/// computed once per tree, and a dead such subtree whose nodes all depend
/// on their parents or are dead on their own is skipped in O(1).
#[derive(Debug)]
pub(super) struct EmptySubtrees {
    /// Each node's intrinsic existence when its subtree keeps no token.
    intrinsic: Intrinsics,
    /// Whether some node of the subtree exists on its own even then (all
    /// its mandatory parts are bare lists).
    any_exists: BitSet,
}

impl EmptySubtrees {
    fn compute(tree: &Tree) -> Self {
        let n = tree.len() as u32;
        let mut intrinsic = Intrinsics::new(n);
        for id in (0..n).rev() {
            let own = if tree.is_leaf(id) {
                Some(false)
            } else {
                // Nothing stands in the place of a node without kept tokens.
                Liveness::intrinsic_of(tree, id, |c| intrinsic.get(c), |_| false)
            };
            intrinsic.set(id, own);
        }
        let mut any_exists = BitSet::empty(n);
        for id in (0..n).rev() {
            if intrinsic.get(id) == Some(true) || tree.children(id).any(|c| any_exists.contains(c))
            {
                any_exists.insert(id);
            }
        }
        EmptySubtrees {
            intrinsic,
            any_exists,
        }
    }
}

impl Liveness {
    /// O(nodes on the paths to kept tokens, plus the subtrees next to them
    /// that hold none), not O(all nodes): late in a run, when few tokens
    /// are left of a large input, most of the tree is skipped. Bits per
    /// node, plus a map for the few nodes something else stands in for.
    pub(super) fn compute(tree: &Tree, config: &Configuration, sizes: &Sizes) -> Self {
        let n = tree.len() as u32;
        let empty = tree.empty.get_or_init(|| EmptySubtrees::compute(tree));
        let mut facts = Facts {
            kept: config.kept.clone(),
            rewrites: Arc::clone(&config.rewrites),
            holding: Self::holding(tree, config),
            computed: Intrinsics::new(n),
            displaced: FxHashMap::default(),
        };
        // The holding nodes' facts, bottom-up.
        let holding = facts.holding.clone();
        for id in holding.iter_rev() {
            let replaced = Self::replaced(tree, config, sizes, id);
            facts.settle(tree, empty, id, replaced);
        }
        // Existence top-down, in preorder.
        let mut live = BitSet::empty(n);
        let mut id = 0;
        while id < n {
            let is_live = match facts.own(empty, id) {
                Some(v) => v,
                None => tree.parent(id).is_none_or(|p| live.contains(p)),
            };
            if is_live {
                live.insert(id);
            } else if !facts.holding.contains(id) && !empty.any_exists.contains(id) {
                // Dead, and so is everything below: skip it.
                id = tree.subtree_end(id);
                continue;
            }
            id += 1;
        }
        Liveness { live, facts }
    }

    /// The liveness of `config` from `earlier`'s (of another configuration
    /// of the same tree), where fewer units changed than `config` keeps
    /// (`None` otherwise): the facts of the changed tokens' leaves and
    /// their ancestors are computed again, bottom-up, and existence is
    /// carried down from the ancestors whose existence changed into the
    /// subtrees that depend on them. O(those nodes and their children),
    /// plus copying a few bits a node.
    pub(crate) fn update(
        tree: &Tree,
        config: &Configuration,
        sizes: &Sizes,
        earlier: &Liveness,
    ) -> Option<Self> {
        let n = tree.len() as u32;
        let old = &earlier.facts;
        if old.holding.universe() != n || old.kept.universe() != config.kept.universe() {
            return None;
        }
        let changed = changed_units(old, config)?;
        let empty = tree.empty.get_or_init(|| EmptySubtrees::compute(tree));
        // The changed tokens' leaves and their ancestors, each once.
        let mut dirty = BitSet::empty(n);
        let mut order = Vec::new();
        for u in changed {
            let mut at = Some(tree.is_token.select(u));
            while let Some(id) = at.filter(|&id| dirty.insert(id)) {
                order.push(id);
                at = tree.parent(id);
            }
        }
        order.sort_unstable();
        let mut facts = Facts {
            kept: config.kept.clone(),
            rewrites: Arc::clone(&config.rewrites),
            holding: old.holding.clone(),
            computed: old.computed.clone(),
            displaced: old.displaced.clone(),
        };
        for &id in order.iter().rev() {
            facts.computed.put(id, None);
            facts.displaced.remove(&id);
            if sizes.get(id) == 0 {
                facts.holding.remove(id);
                continue;
            }
            facts.holding.insert(id);
            let replaced = Self::replaced(tree, config, sizes, id);
            facts.settle(tree, empty, id, replaced);
        }
        // Existence top-down: every ancestor of a dirty node is dirty, so
        // a dirty node's parent is settled before it.
        let mut live = earlier.live.clone();
        for &id in &order {
            let is_live = match facts.own(empty, id) {
                Some(v) => v,
                None => tree.parent(id).is_none_or(|p| live.contains(p)),
            };
            if is_live != live.contains(id) {
                Self::spread(tree, empty, &facts, &dirty, id, is_live, &mut live);
            }
        }
        Some(Liveness { live, facts })
    }

    /// Sets `id`'s existence to `is_live`, and that of the nodes below it
    /// that depend on it through their parents, down to the first dirty
    /// node (settled in its own turn) or node existing on its own.
    fn spread(
        tree: &Tree,
        empty: &EmptySubtrees,
        facts: &Facts,
        dirty: &BitSet,
        id: NodeId,
        is_live: bool,
        live: &mut BitSet,
    ) {
        let mut stack = vec![id];
        while let Some(p) = stack.pop() {
            if is_live {
                live.insert(p);
            } else {
                live.remove(p);
            }
            stack.extend(tree.children(p).filter(|&c| {
                !dirty.contains(c) && facts.own(empty, c).is_none() && live.contains(c) != is_live
            }));
        }
    }

    /// What stands in node `id`'s place, given its intrinsic existence
    /// `own`, which of its children hold a kept token (`holds`) and what
    /// stands in theirs (`occupant`): `id` itself if it exists (or depends
    /// on its parent); if not, what stands in the place of its one child
    /// holding kept tokens, if that fits `id`'s slot; else nothing (`NONE`).
    fn occupant_of(
        tree: &Tree,
        id: NodeId,
        own: Intrinsic,
        holds: impl Fn(NodeId) -> bool,
        occupant: impl Fn(NodeId) -> NodeId,
    ) -> NodeId {
        if own != Some(false) {
            return id;
        }
        let mut holding = tree.children(id).filter(|&c| holds(c));
        let (Some(c), None) = (holding.next(), holding.next()) else {
            return NONE;
        };
        let o = occupant(c);
        if o != NONE && tree.slot_of_accepts(id, tree.kind(o)) {
            o
        } else {
            NONE
        }
    }

    /// Node `id`'s intrinsic existence from its children's (`child`) and
    /// whether something stands in a child's place (`stands`).
    fn intrinsic_of(
        tree: &Tree,
        id: NodeId,
        child: impl Fn(NodeId) -> Intrinsic,
        stands: impl Fn(NodeId) -> bool,
    ) -> Intrinsic {
        let mut has_mandatory = false;
        let mut ok = true;
        let mut plus_slots: Vec<(SlotId, bool)> = Vec::new();
        let separated = tree.grammar.has_separators(tree.kind(id));
        for c in tree.children(id) {
            match tree.role(c) {
                // Separators go and come with the elements they separate.
                Role::Mandatory if separated && tree.is_separator_child(id, c) => {}
                Role::Mandatory => {
                    has_mandatory = true;
                    // A child that depends on its parent exists iff this node does.
                    if child(c) == Some(false) && !stands(c) {
                        ok = false;
                    }
                }
                Role::PlusElem => {
                    has_mandatory = true;
                    let exists = child(c) != Some(false) || stands(c);
                    let slot = tree.slot(c).unwrap_or(NONE);
                    match plus_slots.iter_mut().find(|(s, _)| *s == slot) {
                        Some((_, any)) => *any |= exists,
                        None => plus_slots.push((slot, exists)),
                    }
                }
                _ => {}
            }
        }
        if plus_slots.iter().any(|&(_, any)| !any) {
            ok = false;
        }
        has_mandatory.then_some(ok)
    }

    /// The definition, node by node over the whole tree: what
    /// [`Self::compute`] must agree with.
    #[cfg(test)]
    pub(crate) fn compute_by_definition(tree: &Tree, config: &Configuration) -> Self {
        let n = tree.len() as u32;
        // A node with one kept token, a rewritten one, was replaced.
        let sizes = tree.sizes(config);
        let replaced = (!config.rewrites.is_empty()).then(|| {
            BitSet::from_units(
                n,
                (0..n).filter(|&id| {
                    sizes.get(id) == 1
                        && config
                            .rewrites
                            .range(tree.tokens(id))
                            .any(|(&u, _)| config.kept.contains(u))
                }),
            )
        });
        let mut intrinsic: Vec<Intrinsic> = vec![None; n as usize];
        let mut occupant: Vec<NodeId> = vec![NONE; n as usize];
        let holds = |c: NodeId| config.kept.any_in(tree.tokens(c));
        for id in (0..n).rev() {
            intrinsic[id as usize] = if tree.is_leaf(id) {
                let t = tree.tokens(id);
                Some(t.start < t.end && config.kept.contains(t.start))
            } else if replaced.as_ref().is_some_and(|r| r.contains(id)) {
                Some(true)
            } else {
                Self::intrinsic_of(
                    tree,
                    id,
                    |c| intrinsic[c as usize],
                    |c| occupant[c as usize] != NONE,
                )
            };
            if holds(id) {
                occupant[id as usize] =
                    Self::occupant_of(tree, id, intrinsic[id as usize], holds, |c| {
                        occupant[c as usize]
                    });
            }
        }
        let mut live = BitSet::empty(n);
        for id in 0..n {
            let is_live = match intrinsic[id as usize] {
                Some(v) => v,
                None => tree.parent(id).is_none_or(|p| live.contains(p)),
            };
            if is_live {
                live.insert(id);
            }
        }
        // No facts: an update from this liveness computes afresh.
        let facts = Facts {
            kept: config.kept.clone(),
            rewrites: Arc::clone(&config.rewrites),
            holding: BitSet::empty(0),
            computed: Intrinsics::new(0),
            displaced: FxHashMap::default(),
        };
        Liveness { live, facts }
    }

    /// Whether node `id`'s one kept token carries a rewrite: it was
    /// replaced by that text. O(1) (none without rewrites, the usual case).
    fn replaced(tree: &Tree, config: &Configuration, sizes: &Sizes, id: NodeId) -> bool {
        !config.rewrites.is_empty()
            && sizes.get(id) == 1
            && (config.kept.first_in(tree.tokens(id)))
                .is_some_and(|u| config.rewrites.contains_key(&u))
    }

    /// The nodes holding a kept token: the kept tokens' leaves and their
    /// ancestors, each reached once. O(nodes holding one + kept tokens),
    /// by the leaves in order while most tokens are kept, else by each
    /// kept token's leaf.
    fn holding(tree: &Tree, config: &Configuration) -> BitSet {
        let mut holding = BitSet::empty(tree.len() as u32);
        let mut up = |leaf: NodeId| {
            let mut at = Some(leaf);
            while let Some(id) = at.filter(|&id| holding.insert(id)) {
                at = tree.parent(id);
            }
        };
        let kept = config.kept.len();
        if kept > tree.is_token.ones() / 8 {
            for (unit, leaf) in tree.is_token.positions().enumerate() {
                if config.kept.contains(unit as u32) {
                    up(leaf);
                }
            }
        } else {
            for unit in config.kept.iter() {
                up(tree.is_token.select(unit));
            }
        }
        holding
    }

    pub(crate) fn is_live(&self, n: NodeId) -> bool {
        self.live.contains(n)
    }
}

/// The units whose kept bit or rewrite differs between `old`'s
/// configuration and `config`, unless more of them than `config` keeps.
fn changed_units(old: &Facts, config: &Configuration) -> Option<Vec<u32>> {
    let limit = config.kept.len() as usize;
    let mut changed = Vec::new();
    let words = old.kept.words().iter().zip(config.kept.words());
    for (w, (a, b)) in words.enumerate() {
        let mut diff = a ^ b;
        while diff != 0 {
            changed.push(w as u32 * 64 + diff.trailing_zeros());
            diff &= diff - 1;
        }
        if changed.len() > limit {
            return None;
        }
    }
    if !Arc::ptr_eq(&old.rewrites, &config.rewrites) {
        let (a, b) = (&old.rewrites, &config.rewrites);
        changed.extend(a.keys().filter(|u| !b.contains_key(u)));
        changed.extend(b.keys().filter(|u| !a.contains_key(u)));
    }
    Some(changed)
}

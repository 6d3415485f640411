//! A declaration deleted together with every statement that mentions it,
//! many names at once.
//!
//! Why: a name and its uses pin each other. Go refuses an import whose
//! uses are gone and a use whose import is gone; C refuses a call of a
//! function that is gone, and the call keeps the function. Deleting the
//! statements that mention a name and its declarations in one candidate
//! (and, by [`Usage::closure`], every declaration those statements held
//! the last mention of) frees both; Shrink Ray's orphaned-declaration
//! passes do the same.
//!
//! A seed is one name with live declarations and at most [`MAX_USES`]
//! kept mentions outside them, each inside a statement: the child of a
//! statement list (`names.statement_lists` in grammars/*.json) that holds
//! it and is not one of the name's declarations. The bulk engine
//! (`crate::policy::bulk`) tries them all at once, then in halves.

use std::sync::Arc;

use crate::configuration::{Configuration, Proposal};
use crate::policy::bulk::{EditSource, Seed, union};
use crate::tree::names::{NameIndex, Spelling, Usage};
use crate::tree::{NodeId, Tree};

/// The most uses a name may have for its statements to be deleted with it:
/// beyond a few, the deletion is most of the program, which fails.
pub(crate) const MAX_USES: u32 = 4;

/// Declarations with the statements that use them, in bulk.
pub(crate) struct WithUses {
    tree: Arc<Tree>,
    index: Arc<NameIndex>,
}

impl WithUses {
    pub(crate) fn new(tree: Arc<Tree>, index: Arc<NameIndex>) -> Self {
        WithUses { tree, index }
    }

    /// The statement holding unit `u`: its ancestor whose parent is a
    /// statement list, if that ancestor may be deleted.
    fn statement_of(&self, u: u32) -> Option<NodeId> {
        let tree = &*self.tree;
        let mut n = tree.leaf_of(u);
        while let Some(p) = tree.parent(n) {
            if tree.grammar.names.holds_statements(tree.kind(p)) {
                return tree.deletable(n).then_some(n);
            }
            n = p;
        }
        None
    }

    /// The seed deleting `s`'s declarations and the statements using it.
    fn seed(&self, s: Spelling, usage: &Usage, config: &Configuration) -> Option<Seed> {
        let (tree, index) = (&*self.tree, &*self.index);
        let mut nodes: Vec<NodeId> = usage.live_items(index, s).collect();
        if nodes.iter().any(|&n| !tree.deletable(n)) {
            return None;
        }
        let declarations = nodes.len();
        for u in index.mentions_of(s).filter(|&u| config.contains(u)) {
            if nodes[..declarations]
                .iter()
                .any(|&d| tree.tokens(d).contains(&u))
            {
                continue;
            }
            let statement = self.statement_of(u)?;
            if !nodes.contains(&statement) {
                nodes.push(statement);
            }
        }
        Some(Seed {
            proposal: Proposal::delete(tree.deletion_delta(&nodes, config)),
            key: u64::from(s),
        })
    }
}

impl EditSource for WithUses {
    type Pass = Usage;

    fn name(&self) -> &'static str {
        "uses"
    }

    fn seeds(&self, config: &Configuration) -> (Usage, Vec<Seed>) {
        let index = &*self.index;
        let usage = Usage::new(index, &self.tree, config);
        let mut seen = vec![false; index.spellings()];
        let mut seeds = Vec::new();
        for (d, declaration) in index.declarations().iter().enumerate() {
            let s = declaration.spelling;
            if seen[s as usize] || !usage.is_live(d as u32) {
                continue;
            }
            seen[s as usize] = true;
            let uses = usage.uses(s);
            if uses == 0 || uses > MAX_USES {
                continue;
            }
            seeds.extend(self.seed(s, &usage, config));
        }
        (usage, seeds)
    }

    fn combine(&self, usage: &Usage, config: &Configuration, seeds: &[Seed]) -> Proposal {
        let delta = union(seeds).delta;
        Proposal::delete(usage.closure(&self.index, &self.tree, config, &delta))
    }
}

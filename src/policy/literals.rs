//! A name's uses replaced by a literal of the language (`0`), so that its
//! declaration, or the include that declares it, can go; many names at
//! once.
//!
//! Why: `#include <stdio.h>` stays for one `EOF` that `0` would replace
//! (C's `NULL` is a literal kind of its own, which the simplify pass
//! replaces), and a global constant stays for its one use in an
//! expression.
//! No deletion removes either: the use keeps the declaration. Shrink Ray's
//! substitution passes and C-Reduce's `replace-var-with-const` do this.
//!
//! A seed is a name with one to [`MAX_USES`] kept mentions outside its own
//! declarations, each filling a slot the language's literal may fill
//! (`names.literal` in grammars/*.json): every such mention rewritten to
//! the literal, and by [`Usage::closure_rewriting`] the name's declarations
//! deleted with whatever else only they mentioned. A name without a
//! declaration in the text (declared by a header) is a seed only where
//! the literal is shorter than the name. The bulk engine
//! (`crate::policy::bulk`) tries them all at once, then in halves.

use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::bulk::{EditSource, Seed};
use crate::policy::uses::MAX_USES;
use crate::tree::Tree;
use crate::tree::names::{NameIndex, Spelling, Usage};

/// Names replaced by a literal, in bulk.
pub(crate) struct Literals {
    tree: Arc<Tree>,
    index: Arc<NameIndex>,
}

impl Literals {
    pub(crate) fn new(tree: Arc<Tree>, index: Arc<NameIndex>) -> Self {
        Literals { tree, index }
    }

    /// The seed rewriting every use of `s`, if each use takes the literal
    /// and the rewrite shrinks the text.
    fn seed(&self, s: Spelling, usage: &Usage, config: &Configuration) -> Option<Seed> {
        let (tree, index) = (&*self.tree, &*self.index);
        let (text, kind) = tree.grammar.names.literal.clone()?;
        let uses = usage.uses_of(index, s, config);
        if uses.is_empty() || uses.len() > MAX_USES as usize {
            return None;
        }
        if !uses
            .iter()
            .all(|&u| tree.slot_of_accepts(tree.leaf_of(u), kind))
        {
            return None;
        }
        let declared = usage.live_items(index, s).next().is_some();
        if !declared && index.text(s).len() <= text.len() {
            return None;
        }
        let rewrites = uses.iter().map(|&u| (u, Arc::clone(&text))).collect();
        Some(Seed {
            proposal: Proposal {
                delta: Delta::new(),
                rewrites,
                layout: None,
            },
            key: u64::from(s),
        })
    }
}

impl EditSource for Literals {
    type Pass = Usage;

    fn name(&self) -> &'static str {
        "literals"
    }

    fn seeds(&self, config: &Configuration) -> (Usage, Vec<Seed>) {
        let index = &*self.index;
        let usage = Usage::new(index, &self.tree, config);
        let mut seen = vec![false; index.spellings()];
        let mut seeds = Vec::new();
        for u in config.kept.iter() {
            let Some(s) = index.spelling_at(u) else {
                continue;
            };
            if !std::mem::replace(&mut seen[s as usize], true) {
                seeds.extend(self.seed(s, &usage, config));
            }
        }
        (usage, seeds)
    }

    fn combine(&self, usage: &Usage, config: &Configuration, seeds: &[Seed]) -> Proposal {
        let rewrites: Vec<(u32, Arc<[u8]>)> = seeds
            .iter()
            .flat_map(|s| s.proposal.rewrites.iter().cloned())
            .collect();
        let rewritten: Vec<u32> = rewrites.iter().map(|(u, _)| *u).collect();
        let delta =
            usage.closure_rewriting(&self.index, &self.tree, config, &Delta::new(), &rewritten);
        Proposal {
            delta,
            rewrites,
            layout: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::languages::Language;
    use crate::policy::bulk::first_proposal_text;

    fn first_proposal(lang: &str, source: &str) -> String {
        let (tree, units) =
            crate::tree::parse::parse(Language::named(lang), source.as_bytes().to_vec()).unwrap();
        let tree = Arc::new(tree);
        let index = Arc::new(NameIndex::new(&tree, &units));
        first_proposal_text(Literals::new(tree, index), &units)
    }

    #[test]
    fn a_library_name_becomes_0_and_a_constant_used_once_goes_with_its_declaration() {
        let c = "#include <stdio.h>\nstatic const int limit = 40;\n\
                 int f(int c) { return c == EOF ? limit : 1; }\n";
        assert_eq!(
            first_proposal("c", c),
            "#include <stdio.h> int f(int c) { return c == 0 ? 0 : 1; }"
        );
    }
}

//! `--rename`: identifiers renamed to short names, one name at a time, each
//! renaming a candidate the oracle judges.
//!
//! Why: after deletion a result still says `struct descriptor_table *tbl`
//! where `struct a *b` shows the same bug; C-Reduce and C-Vise rename by
//! default. Here it is opt-in (people map results back to their code).
//!
//! Which tokens are identifiers is grammar data (`identifiers` in
//! `grammars/<lang>.json`). A name is every kept identifier token with the
//! same current text (a rewrite counts), whatever its kind, so declaration
//! and uses change together; a text no identifier of the input had (a type
//! the simplify policy rewrote to `int`, an expression it replaced) is no
//! name. Names are tried in order of the bytes they
//! take (occurrences × length, largest first); each gets the first of `a` …
//! `z`, `a0` … `z9`, `a00` … that no kept token spells and that is shorter
//! than it. A proposal rewrites all of a name's tokens at once; a success
//! ends the pass and the next pass starts over on the new text, without the
//! names already tried. Every success shortens the text, so the run ends.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::Policy;
use crate::tree::Tree;
use crate::units::Units;

/// Proposes renamings of identifiers to short unused names.
#[derive(Clone)]
pub(crate) struct Rename {
    tree: Arc<Tree>,
    units: Arc<Units>,
    /// The texts of the input's identifier tokens.
    original_names: Arc<HashSet<Vec<u8>>>,
    /// Names (texts) already proposed, whatever came of it.
    tried: HashSet<Vec<u8>>,
    /// This pass's proposals, next first: the name and its renaming.
    queue: Vec<(Vec<u8>, Proposal)>,
}

impl Rename {
    /// A policy over `tree`, whose tokens are `units` (shared).
    pub fn new(tree: Arc<Tree>, units: Arc<Units>) -> Self {
        let original_names = (0..units.len())
            .filter(|&u| tree.grammar.is_identifier(tree.kind(tree.leaf_of(u))))
            .map(|u| units.text(u).trim_ascii().to_vec())
            .collect();
        Rename {
            tree,
            original_names: Arc::new(original_names),
            units,
            tried: HashSet::new(),
            queue: Vec::new(),
        }
    }
}

/// The `i`-th short name: `a` … `z`, then `a0` … `z9`, `a00` …
fn short_name(mut i: usize) -> Vec<u8> {
    let mut name = vec![b'a' + (i % 26) as u8];
    i /= 26;
    let mut digits = 0;
    let mut block = 1;
    // Names with `digits` digits: 26 × 10^digits of them.
    while i >= block {
        i -= block;
        digits += 1;
        block *= 10;
    }
    let mut tail = Vec::new();
    for _ in 0..digits {
        tail.push(b'0' + (i % 10) as u8);
        i /= 10;
    }
    tail.reverse();
    name.extend(tail);
    name
}

impl Policy for Rename {
    fn name(&self) -> String {
        "rename".into()
    }

    fn start_pass(&mut self, config: &Configuration) {
        let grammar = &self.tree.grammar;
        let mut names: BTreeMap<Vec<u8>, Vec<u32>> = BTreeMap::new();
        let mut spelled: HashSet<Vec<u8>> = HashSet::new();
        for u in config.kept.iter() {
            let text = self.units.token_text(config, u).to_vec();
            if grammar.is_identifier(self.tree.kind(self.tree.leaf_of(u)))
                && self.original_names.contains(&text)
            {
                names.entry(text.clone()).or_default().push(u);
            }
            spelled.insert(text);
        }
        let mut order: Vec<(Vec<u8>, Vec<u32>)> = names
            .into_iter()
            .filter(|(name, _)| !self.tried.contains(name))
            .collect();
        // Largest first; ties in text order (the map's), so runs repeat.
        order.sort_by_key(|(name, units)| std::cmp::Reverse(name.len() * units.len()));
        let mut next = 0;
        self.queue.clear();
        for (name, units) in order {
            let short = loop {
                let candidate = short_name(next);
                if !spelled.contains(&candidate) {
                    break candidate;
                }
                next += 1;
            };
            if short.len() >= name.len() {
                continue;
            }
            next += 1;
            let text: Arc<[u8]> = Arc::from(short.as_slice());
            let proposal = Proposal {
                delta: Delta::new(),
                rewrites: units.iter().map(|&u| (u, Arc::clone(&text))).collect(),
                layout: None,
            };
            self.queue.push((name, proposal));
        }
        self.queue.reverse();
    }

    fn next_proposal(&mut self, _config: &Configuration) -> Option<Proposal> {
        let (name, proposal) = self.queue.pop()?;
        self.tried.insert(name);
        Some(proposal)
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        reduced.is_some()
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewritten_type_or_replaced_expression_is_no_name_to_rename() {
        let source = "typedef long size;\nsize n;\nint f(void) { return g(n); }\n";
        let (tree, units) = crate::tree::parse::parse(
            crate::languages::Language::named("c"),
            source.as_bytes().to_vec(),
        )
        .unwrap();
        let tree = Arc::new(tree);
        let mut config = Configuration::full(units.len());
        // As simplify leaves them: the use of `size` as a type reads `int`,
        // and `g(n)` reads `0` (its first token rewritten, the rest deleted).
        let unit_reading = |text: &str, nth: usize| {
            (0..units.len())
                .filter(|&u| units.text(u).trim_ascii() == text.as_bytes())
                .nth(nth)
                .unwrap()
        };
        let (size_use, call) = (unit_reading("size", 1), unit_reading("g", 0));
        let rewrites = Arc::make_mut(&mut config.rewrites);
        rewrites.insert(size_use, Arc::from(&b"int"[..]));
        rewrites.insert(call, Arc::from(&b"long_text"[..]));
        config.kept.remove_range(call + 1..call + 4);
        let mut policy = Rename::new(Arc::clone(&tree), Arc::new(units.clone()));
        policy.start_pass(&config);
        let mut renamed = Vec::new();
        while let Some(p) = policy.next_proposal(&config) {
            renamed.extend(p.rewrites.iter().map(|&(u, _)| u));
        }
        assert!(!renamed.is_empty());
        assert!(
            !renamed.contains(&size_use) && !renamed.contains(&call),
            "{renamed:?}"
        );
    }

    #[test]
    fn short_names_run_through_letters_then_letters_with_digits() {
        let names: Vec<String> = [0, 1, 25, 26, 27, 26 + 259, 26 + 260]
            .iter()
            .map(|&i| String::from_utf8(short_name(i)).unwrap())
            .collect();
        assert_eq!(names, ["a", "b", "z", "a0", "b0", "z9", "a00"]);
    }
}

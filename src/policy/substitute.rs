//! A variable used once, substituted by its value at the use and deleted,
//! many at once (`let v = X; f(v)` → `f((X))`).
//!
//! Why: no deletion removes a declaration whose one use the bug needs,
//! nor the use whose declaration the compiler needs; writing the value in
//! place of the use frees the declaration, and the next round's passes
//! may then drop the parentheses or the value's parts. C-Vise's and
//! Shrink Ray's inlining passes do the same.
//!
//! A seed is a name with exactly one live declaration that gives it a
//! value (`names.value_fields` in grammars/*.json) and exactly one kept
//! mention outside it, where the declaration is a whole statement or
//! item that may go: its deletion, and the mention's token rewritten to
//! the value's kept tokens (in parentheses when there are several), when
//! that leaves fewer tokens. The bulk engine (`crate::policy::bulk`) tries
//! them all at once, then in halves.

use std::sync::Arc;

use crate::configuration::{Configuration, Proposal};
use crate::policy::bulk::{EditSource, Seed};
use crate::tree::names::{Declaration, NameIndex, Usage};
use crate::tree::{NodeId, Tree};
use crate::units::Units;

/// Variables used once, substituted in bulk.
pub(crate) struct Substitute {
    tree: Arc<Tree>,
    units: Arc<Units>,
    index: Arc<NameIndex>,
}

impl Substitute {
    pub(crate) fn new(tree: Arc<Tree>, units: Arc<Units>, index: Arc<NameIndex>) -> Self {
        Substitute { tree, units, index }
    }

    /// The text of `value`'s kept tokens, each with the whitespace that
    /// followed it in the input (the last without), in parentheses when
    /// there are several; and how many tokens that is.
    fn value_text(&self, value: NodeId, config: &Configuration) -> (Vec<u8>, u32) {
        let mut text = Vec::new();
        let mut tokens = 0;
        for u in self.tree.tokens(value).filter(|&u| config.contains(u)) {
            let token = self.units.token_text(config, u);
            text.extend_from_slice(token);
            let after = &self.units.text(u)[token.len().min(self.units.text(u).len())..];
            text.extend_from_slice(if config.rewrites.contains_key(&u) {
                b" "
            } else {
                after
            });
            tokens += 1;
        }
        let end = text.trim_ascii_end().len();
        text.truncate(end);
        if tokens > 1 {
            text.insert(0, b'(');
            text.push(b')');
            tokens += 2;
        }
        (text, tokens)
    }

    /// The seed substituting `d`, if it is the one live declaration of
    /// its name, used once, and substituting it shrinks the text.
    fn seed(&self, d: &Declaration, usage: &Usage, config: &Configuration) -> Option<Seed> {
        let (tree, index) = (&*self.tree, &*self.index);
        let value = d.value.filter(|&v| tree.present(v, config))?;
        if usage.uses(d.spelling) != 1 || usage.live_items(index, d.spelling).count() != 1 {
            return None;
        }
        if !tree.deletable(d.item) {
            return None;
        }
        let own = tree.tokens(d.item);
        let mut uses = index
            .mentions_of(d.spelling)
            .filter(|&u| config.contains(u) && !own.contains(&u));
        let (Some(at), None) = (uses.next(), uses.next()) else {
            return None;
        };
        let (text, tokens) = self.value_text(value, config);
        let delta = tree.deletion_delta(&[d.item], config);
        let deleted: u32 = delta
            .ranges()
            .iter()
            .map(|r| config.kept.count_in(r.clone()))
            .sum();
        if deleted < tokens {
            return None;
        }
        Some(Seed {
            proposal: Proposal {
                delta,
                rewrites: vec![(at, Arc::from(text))],
                layout: None,
            },
            key: u64::from(d.spelling),
        })
    }
}

impl EditSource for Substitute {
    type Pass = ();

    fn name(&self) -> &'static str {
        "substitute"
    }

    fn seeds(&self, config: &Configuration) -> ((), Vec<Seed>) {
        let index = &*self.index;
        let usage = Usage::new(index, &self.tree, config);
        let seeds = index
            .declarations()
            .iter()
            .enumerate()
            .filter(|&(d, _)| usage.is_live(d as u32))
            .filter_map(|(_, declaration)| self.seed(declaration, &usage, config))
            .collect();
        ((), seeds)
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
        let (tree, units) = (Arc::new(tree), Arc::new(units));
        let index = Arc::new(NameIndex::new(&tree, &units));
        first_proposal_text(Substitute::new(tree, Arc::clone(&units), index), &units)
    }

    #[test]
    fn a_variable_used_once_becomes_its_value_at_the_use() {
        // `v` is used once and goes; `w` twice and stays.
        let c = "int f(int);\nint g(void) {\n  int v = f(2) + 1;\n  int w = 3;\n  return f(v) + w * w;\n}\n";
        assert_eq!(
            first_proposal("c", c),
            "int f(int); int g(void) { int w = 3; return f((f(2) + 1)) + w * w; }"
        );
        let rust = "fn g() -> i32 {\n    let v = 4;\n    v + 1\n}\n";
        assert_eq!(first_proposal("rust", rust), "fn g() -> i32 { 4 + 1 }");
    }
}

//! Function bodies made declarations, or the emptiest body the language
//! takes, many at once (`bodies` in grammars/*.json).
//!
//! Why: most of a large unit is function bodies the bug does not need
//! (every inline function of libstdc++), and a body that goes takes with
//! it the last mentions of what only it used, which the `unused` pass
//! then deletes. C and C++ accept `int f(int a);` for `int f(int a) { … }`
//! (C-Reduce's `replace-function-def-with-decl`); other languages get the
//! body their data names (`{}`, `pass`, `{ panic(0) }`).
//!
//! Every live function whose kept body is longer than its replacement is
//! a seed (the outermost only: a body inside another goes with it); the
//! bulk engine (`crate::policy::bulk`) tries them all at once, then in
//! halves. A seed rewrites the body's first kept token to the text and
//! deletes the body's other tokens and the function's children of the
//! `with` kinds (a C++ constructor's member initializers).

use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::bulk::{EditSource, Seed};
use crate::tree::{NodeId, Tree};
use crate::units::{UnitKind, Units};

/// Bodies made declarations (or empty), in bulk.
pub(crate) struct Bodies {
    tree: Arc<Tree>,
    /// The functions with a body rule, in preorder.
    functions: Vec<NodeId>,
}

impl Bodies {
    pub(crate) fn new(tree: Arc<Tree>) -> Self {
        let names = &tree.grammar.names;
        let functions = if names.has_bodies() {
            (0..tree.len() as NodeId)
                .filter(|&n| names.body(tree.kind(n)).is_some())
                .collect()
        } else {
            Vec::new()
        };
        Bodies { tree, functions }
    }

    /// The seed replacing `f`'s body, if it shrinks the text.
    fn seed(&self, f: NodeId, config: &Configuration) -> Option<Seed> {
        let tree = &*self.tree;
        let rule = tree.grammar.names.body(tree.kind(f))?;
        let body = tree
            .children(f)
            .find(|&c| tree.grammar.field_name(tree.slot(c)) == Some(rule.field.as_str()))?;
        let tokens = tree.tokens(body);
        let first = config.kept.first_in(tokens.clone())?;
        let text_tokens = Units::flat(rule.text.to_vec(), UnitKind::Token).len();
        if tree.size(body, config) <= text_tokens {
            return None;
        }
        let mut delta = Delta::new();
        for c in tree.children(f) {
            if rule.with.contains(&tree.kind(c)) {
                delta.push(tree.tokens(c));
            }
        }
        delta.push(first + 1..tokens.end);
        Some(Seed {
            proposal: Proposal {
                delta,
                rewrites: vec![(first, Arc::clone(&rule.text))],
                layout: None,
            },
            key: u64::from(f),
        })
    }
}

impl EditSource for Bodies {
    type Pass = ();

    fn name(&self) -> &'static str {
        "bodies"
    }

    fn seeds(&self, config: &Configuration) -> ((), Vec<Seed>) {
        let mut seeds = Vec::new();
        // The end of the last body taken: bodies inside it go with it.
        let mut taken_to = 0;
        for &f in &self.functions {
            if self.tree.tokens(f).start < taken_to {
                continue;
            }
            if let Some(seed) = self.seed(f, config) {
                taken_to = self.tree.tokens(f).end;
                seeds.push(seed);
            }
        }
        ((), seeds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::languages::Language;
    use crate::policy::bulk::first_proposal_text;

    #[test]
    fn every_body_becomes_a_declaration_in_the_first_proposal() {
        let source = "struct A { A() : x(1) { x++; } int x; };\n\
                      int f(int a) { return a + 1; }\n\
                      int g(void) { struct B { int h() { return 2; } }; return f(3); }\n\
                      int e(void) {}\n";
        let (tree, units) =
            crate::tree::parse::parse(Language::named("cpp"), source.as_bytes().to_vec()).unwrap();
        assert_eq!(
            first_proposal_text(Bodies::new(Arc::new(tree)), &units),
            "struct A { A() ; int x; }; int f(int a) ; int g(void) ; int e(void) ;"
        );
    }
}

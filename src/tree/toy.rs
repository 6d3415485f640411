//! Trees built by hand, for the tutorial's examples and for tests.
//!
//! A toy tree names its nodes with explicit ids (as the tutorial does); the
//! ids become the nodes' ranks, so list order and tie-breaks follow them
//! exactly as in the tutorial. Leaves carry their text; the input is the
//! leaves' texts joined by spaces.

use std::collections::BTreeMap;

use crate::grammar::{Grammar, KindId};
use crate::tree::{NodeSpec, Tree, TreeBuilder};
use crate::units::Units;

/// Grammar of the tutorial's first trees: every node may hold any nodes, and
/// every node but the root may be deleted.
const GENERIC_NODE_TYPES: &str = r#"[
  {"type": "node", "named": true, "fields": {},
   "children": {"multiple": true, "required": false, "types": [{"type": "node", "named": true}]}}
]"#;

/// Grammar of the tutorial's Perses and T-PDD examples:
/// `func ::= "int" "main" "(" ")" block`, `block ::= "{" stmt* "}"`,
/// `stmt ::= if_stmt | block | call`, `if_stmt ::= "if" "(" expr ")" block`,
/// `call ::= identifier "(" ")" ";"`, `expr ::= identifier`.
/// As in the tutorial, the statement list is a node of its own.
pub(crate) const NESTED_IF_NODE_TYPES: &str = r#"[
  {"type": "stmt", "named": true, "subtypes": [
    {"type": "if_stmt", "named": true}, {"type": "block", "named": true}, {"type": "call", "named": true}]},
  {"type": "func", "named": true, "fields": {
    "body": {"multiple": false, "required": true, "types": [{"type": "block", "named": true}]}}},
  {"type": "block", "named": true, "fields": {
    "list": {"multiple": false, "required": true, "types": [{"type": "stmt_list", "named": true}]}}},
  {"type": "stmt_list", "named": true, "fields": {},
   "children": {"multiple": true, "required": false, "types": [{"type": "stmt", "named": true}]}},
  {"type": "if_stmt", "named": true, "fields": {
    "condition": {"multiple": false, "required": true, "types": [{"type": "expr", "named": true}]},
    "body": {"multiple": false, "required": true, "types": [{"type": "block", "named": true}]}}},
  {"type": "call", "named": true, "fields": {
    "function": {"multiple": false, "required": true, "types": [{"type": "identifier", "named": true}]}}},
  {"type": "expr", "named": true, "fields": {
    "name": {"multiple": false, "required": true, "types": [{"type": "identifier", "named": true}]}}},
  {"type": "identifier", "named": true},
  {"type": "int", "named": false}, {"type": "main", "named": false}, {"type": "if", "named": false},
  {"type": "(", "named": false}, {"type": ")", "named": false},
  {"type": "{", "named": false}, {"type": "}", "named": false}, {"type": ";", "named": false}
]"#;

struct ToyNode {
    kind: KindId,
    label: String,
    children: Vec<(Option<String>, u32)>,
}

/// Builds a tree from nodes named by explicit ids.
pub(crate) struct ToyBuilder {
    grammar: Grammar,
    nodes: BTreeMap<u32, ToyNode>,
    next: u32,
}

impl ToyBuilder {
    /// A builder over the given `node-types.json`.
    pub fn new(node_types: &str) -> Self {
        ToyBuilder {
            grammar: Grammar::from_node_types("toy", node_types).expect("toy grammar is valid"),
            nodes: BTreeMap::new(),
            next: 0,
        }
    }

    /// A builder where every node is a deletable `node` ([`GENERIC_NODE_TYPES`]).
    pub(crate) fn generic() -> Self {
        ToyBuilder::new(GENERIC_NODE_TYPES)
    }

    /// Adds node `id` of the generic kind: a leaf with text `label` when
    /// `children` is empty.
    pub(crate) fn insert(&mut self, id: u32, label: &str, children: &[u32]) {
        let kind = self.grammar.kind_id("node", true);
        let children = children.iter().map(|&c| (None, c)).collect();
        self.nodes.insert(
            id,
            ToyNode {
                kind,
                label: label.to_string(),
                children,
            },
        );
        self.next = self.next.max(id + 1);
    }

    /// Adds a node with the next free id and returns it. `kind` is a named
    /// kind of the grammar; children are (field, id) pairs.
    pub fn node(&mut self, kind: &str, children: &[(Option<&str>, u32)]) -> u32 {
        let kind = self.grammar.kind_id(kind, true);
        let id = self.next;
        self.next += 1;
        let children = children
            .iter()
            .map(|(f, c)| (f.map(str::to_string), *c))
            .collect();
        self.nodes.insert(
            id,
            ToyNode {
                kind,
                label: String::new(),
                children,
            },
        );
        id
    }

    /// Adds an anonymous token (`if`, `(`, ...) with the next free id.
    pub(crate) fn tok(&mut self, text: &str) -> u32 {
        let kind = self.grammar.kind_id(text, false);
        self.leaf_of(kind, text)
    }

    /// Adds a named leaf (an identifier) with the next free id.
    pub(crate) fn named_leaf(&mut self, kind: &str, text: &str) -> u32 {
        let kind = self.grammar.kind_id(kind, true);
        self.leaf_of(kind, text)
    }

    fn leaf_of(&mut self, kind: KindId, text: &str) -> u32 {
        let id = self.next;
        self.next += 1;
        self.nodes.insert(
            id,
            ToyNode {
                kind,
                label: text.to_string(),
                children: Vec::new(),
            },
        );
        id
    }

    /// The tree rooted at `root`; leaves' labels, joined by spaces, are the input.
    pub fn build(self, root: u32) -> (Tree, Units) {
        // Lay out the source first: leaves in preorder.
        let mut order = Vec::new();
        let mut stack = vec![(root, None::<String>)];
        while let Some((id, field)) = stack.pop() {
            order.push((id, field));
            let node = &self.nodes[&id];
            for (f, c) in node.children.iter().rev() {
                stack.push((*c, f.clone()));
            }
        }
        let mut source = Vec::new();
        let mut spans = BTreeMap::new();
        for (id, _) in &order {
            let node = &self.nodes[id];
            if node.children.is_empty() {
                if !source.is_empty() {
                    source.push(b' ');
                }
                let start = source.len();
                source.extend_from_slice(node.label.as_bytes());
                spans.insert(*id, start..source.len());
            }
        }
        let mut b = TreeBuilder::new(self.grammar);
        let mut open: Vec<(u32, usize)> = Vec::new(); // (id, children left)
        for (id, field) in order {
            while let Some((_, 0)) = open.last() {
                open.pop();
                b.close();
            }
            if let Some((_, left)) = open.last_mut() {
                *left -= 1;
            }
            let node = &self.nodes[&id];
            let spec = NodeSpec {
                kind: node.kind,
                field: field.as_deref(),
                role: None,
                rank: Some(id),
            };
            if node.children.is_empty() {
                b.token(spec, spans[&id].clone());
            } else {
                b.open(spec);
                open.push((id, node.children.len()));
            }
        }
        b.finish(source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::Configuration;

    #[test]
    fn a_toy_tree_renders_its_leaves_in_order() {
        let mut b = ToyBuilder::generic();
        b.insert(0, "", &[1, 2]);
        b.insert(1, "", &[3, 4]);
        b.insert(2, "c", &[]);
        b.insert(3, "a", &[]);
        b.insert(4, "b", &[]);
        let (tree, units) = b.build(0);
        assert_eq!(units.render(&Configuration::full(units.len())), b"a b c");
        assert_eq!(tree.tokens(0), 0..3);
        assert_eq!(tree.children(0).count(), 2);
        assert_eq!(tree.descendants(1), 2..4);
        assert!(tree.deletable(1) && !tree.deletable(0));
        assert_eq!(tree.depth(2), 2);
    }

    #[test]
    fn later_siblings_are_the_children_after_a_node() {
        let mut b = ToyBuilder::generic();
        b.insert(0, "", &[1, 2]);
        b.insert(1, "", &[3, 4]);
        b.insert(2, "c", &[]);
        b.insert(3, "a", &[]);
        b.insert(4, "b", &[]);
        let (tree, _) = b.build(0);
        let later = |n: u32| tree.later_siblings(n).collect::<Vec<_>>();
        // Preorder: 0 root, 1 its first child, 2 and 3 that child's leaves, 4 the root's last child.
        assert_eq!(later(1), vec![4]);
        assert_eq!(later(2), vec![3]);
        assert_eq!(later(3), Vec::<u32>::new());
        assert_eq!(later(4), Vec::<u32>::new());
        assert_eq!(later(0), Vec::<u32>::new());
    }
}

#[cfg(test)]
mod liveness_tests {
    use super::*;
    use crate::configuration::Configuration;
    use crate::tree::{Liveness, NodeId};

    /// `wrap` has one mandatory part, a bare `list`: an empty `wrap`
    /// exists on its own, and an empty `list` exists iff its parent does,
    /// the two cases that make subtrees without kept tokens not all dead.
    const WRAPPED_LISTS: &str = r#"[
      {"type": "root", "named": true, "fields": {},
       "children": {"multiple": true, "required": false,
                    "types": [{"type": "wrap", "named": true}, {"type": "x", "named": true}]}},
      {"type": "wrap", "named": true, "fields": {
        "inner": {"multiple": false, "required": true, "types": [{"type": "list", "named": true}]}}},
      {"type": "pair", "named": true, "fields": {
        "left": {"multiple": false, "required": true, "types": [{"type": "x", "named": true}]},
        "right": {"multiple": false, "required": true, "types": [{"type": "wrap", "named": true}]}}},
      {"type": "duo", "named": true, "fields": {
        "left": {"multiple": false, "required": true, "types": [{"type": "x", "named": true}]},
        "right": {"multiple": false, "required": true, "types": [{"type": "list", "named": true}]}}},
      {"type": "list", "named": true, "fields": {},
       "children": {"multiple": true, "required": false, "types": [
         {"type": "x", "named": true}, {"type": "wrap", "named": true}, {"type": "pair", "named": true},
         {"type": "duo", "named": true}]}},
      {"type": "x", "named": true}
    ]"#;

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn random_node(b: &mut ToyBuilder, rng: &mut Rng, depth: u32) -> u32 {
        match if depth == 0 { 0 } else { rng.below(4) } {
            0 => b.named_leaf("x", "a"),
            1 => {
                let left = b.named_leaf("x", "l");
                let right = random_wrap(b, rng, depth - 1);
                b.node("pair", &[(Some("left"), left), (Some("right"), right)])
            }
            2 => {
                // A bare list beside a token: it dies with the token.
                let left = b.named_leaf("x", "d");
                let wrap = random_wrap(b, rng, depth - 1);
                let list = b.node("list", &[(None, wrap)]);
                b.node("duo", &[(Some("left"), left), (Some("right"), list)])
            }
            _ => random_wrap(b, rng, depth - 1),
        }
    }

    fn random_wrap(b: &mut ToyBuilder, rng: &mut Rng, depth: u32) -> u32 {
        let items: Vec<u32> = (0..1 + rng.below(3))
            .map(|_| random_node(b, rng, depth))
            .collect();
        let children: Vec<(Option<&str>, u32)> = items.iter().map(|&c| (None, c)).collect();
        let list = b.node("list", &children);
        b.node("wrap", &[(Some("inner"), list)])
    }

    /// A tree of up to four random nodes under a root.
    fn random_tree(rng: &mut Rng) -> (Tree, Units) {
        let mut b = ToyBuilder::new(WRAPPED_LISTS);
        let top: Vec<u32> = (0..1 + rng.below(4))
            .map(|_| random_node(&mut b, rng, 4))
            .collect();
        let children: Vec<(Option<&str>, u32)> = top.iter().map(|&c| (None, c)).collect();
        let root = b.node("root", &children);
        b.build(root)
    }

    #[test]
    fn liveness_agrees_with_its_definition_around_empty_lists() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..200 {
            let (tree, units) = random_tree(&mut rng);
            for _ in 0..10 {
                let mut config = Configuration::full(units.len());
                for u in 0..units.len() {
                    if rng.below(3) > 0 {
                        config.kept.remove(u);
                    }
                }
                let fast = tree.liveness(&config);
                let reference = Liveness::compute_by_definition(&tree, &config);
                for id in 0..tree.len() as NodeId {
                    assert_eq!(fast.is_live(id), reference.is_live(id), "node {id}");
                }
            }
        }
    }

    #[test]
    fn liveness_updated_unit_by_unit_agrees_with_its_definition_around_empty_lists() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let (tree, units) = random_tree(&mut rng);
            let mut config = Configuration::full(units.len());
            let mut live = tree.sizes_and_liveness(&config, None).1;
            for _ in 0..units.len() * 2 {
                // A unit dropped, or now and then kept again.
                let u = rng.below(u64::from(units.len())) as u32;
                if rng.below(4) == 0 {
                    config.kept.insert(u);
                } else {
                    config.kept.remove(u);
                }
                let sizes = tree.sizes(&config);
                live = Liveness::update(&tree, &config, &sizes, &live)
                    .unwrap_or_else(|| tree.sizes_and_liveness(&config, None).1);
                let reference = Liveness::compute_by_definition(&tree, &config);
                for id in 0..tree.len() as NodeId {
                    assert_eq!(live.is_live(id), reference.is_live(id), "node {id}");
                }
            }
        }
    }
}

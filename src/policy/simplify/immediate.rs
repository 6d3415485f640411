//! The simplify pass's rewrite of a function called where it is written
//! (`immediate_calls` in grammars/*.json): `(function (x) { f(x); })(1);`
//! becomes `f(1);`, the body in the call's place with each parameter's
//! uses reading its argument. The function gets there when the
//! `substitute` pass writes a variable's function value at its one call,
//! and nothing else takes the wrapper away.

use super::*;

impl Simplify {
    /// Call `n`'s function written in place given way to its body, each
    /// use of a parameter reading the argument at its place. Only where
    /// every parameter is one name and there are as many arguments, a
    /// block body only where the call is the whole of a statement (an
    /// expression body goes in parentheses anywhere), and where the text
    /// reads as fewer tokens than the call.
    pub(super) fn immediate_call(&self, n: NodeId, config: &Configuration) -> Option<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let rule = tree.grammar.immediate_call(tree.kind(n))?;
        let function = self.function_in(self.children_in(n, &rule.callee).next()?, rule)?;
        let params = self.elements(self.children_in(function, &rule.parameters).next()?);
        let args = self.elements(self.children_in(n, &rule.arguments).next()?);
        if params.len() != args.len() || params.iter().any(|&p| pass.size.get(p) != 1) {
            return None;
        }
        let names: Vec<(KindId, &[u8])> = params
            .iter()
            .map(|&p| {
                let u = pass.next_kept[tree.tokens(p).start as usize];
                (tree.kind(tree.leaf_of(u)), self.units.token_text(config, u))
            })
            .collect();
        let args: Vec<Vec<u8>> = args
            .iter()
            .map(|&a| self.units.join_kept(config, pass.kept_in(tree.tokens(a))))
            .collect();
        let body = self.children_in(function, &rule.body).next()?;
        let mut kept: Vec<u32> = pass.kept_in(tree.tokens(body)).collect();
        let (first, last) = (*kept.first()?, *kept.last()?);
        let paired = |u: u32| tree.grammar.is_paired_token(tree.kind(tree.leaf_of(u)));
        let block = kept.len() >= 2 && paired(first) && paired(last);
        if block {
            if tree.parent(n).map(|p| tree.kind(p)) != Some(rule.statement) {
                return None;
            }
            kept = kept[1..kept.len() - 1].to_vec();
        }
        let argument_of = |u: u32| {
            let kind = tree.kind(tree.leaf_of(u));
            let text = self.units.token_text(config, u);
            let at = names.iter().position(|&(k, t)| k == kind && t == text)?;
            Some(args[at].as_slice())
        };
        let mut text = self.units.join_kept_with(config, kept, argument_of);
        if !block {
            text = [&b"("[..], &text, b")"].concat();
        }
        let start = pass.next_kept[tree.tokens(n).start as usize];
        if text.is_empty() || !self.shrinks(n, start, &text, config) {
            return None;
        }
        let mut delta = Delta::new();
        delta.push(start + 1..tree.tokens(n).end);
        Some(Proposal {
            delta,
            rewrites: vec![(start, Arc::from(text))],
            layout: None,
        })
    }

    /// The function `callee` is, looked through nodes with one named
    /// child (parentheses).
    fn function_in(&self, mut callee: NodeId, rule: &ImmediateRule) -> Option<NodeId> {
        let tree = &self.tree;
        for _ in 0..4 {
            if rule.functions.contains(&tree.kind(callee)) {
                return Some(callee);
            }
            // `elements` gives the named children only.
            let [only] = self.elements(callee)[..] else {
                return None;
            };
            callee = only;
        }
        None
    }

    /// The kept named children of list `list` (no brackets, separators or
    /// comments).
    fn elements(&self, list: NodeId) -> Vec<NodeId> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        tree.children(list)
            .filter(|&c| {
                pass.size.get(c) > 0
                    && tree.grammar.is_named(tree.kind(c))
                    && tree.role(c) != Role::Extra
                    && !tree.is_separator_child(list, c)
            })
            .collect()
    }
}

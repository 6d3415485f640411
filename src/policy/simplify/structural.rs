//! The simplify pass's structural rewrites (`Simplify::structural`, and
//! the closing pass's `Simplify::hoist`), apart from `simplify.rs` only to
//! keep that file readable: each rewrites a node's shape as grammar data
//! allows (`statement_values`, `member_globals`, `aliases`,
//! `positional_lists`, `parameter_globals`, `unwraps`, `sequences`,
//! `hoists`; `immediate_calls` in `immediate.rs`), where
//! the parent file's replacements put a text in a node's place.

use super::*;

impl Simplify {
    /// Rewrites of `n`'s structure the grammar allows (see
    /// [`crate::grammar::Grammar::has_structural_rewrite`]), in this order:
    /// the statement of its value, the top-level variables that may stand
    /// for it as a member access, its alias written out at every use, each
    /// position of its positional lists dropped, the top-level variables
    /// it may become as a parameter, the inside it may give way to, its
    /// elements one after another. Each but the last deletes at least two
    /// kept tokens and otherwise only rewrites kept
    /// tokens, so the measure in the module comment falls; a new variable,
    /// a joined declarator or a written-out alias is only proposed when
    /// the text's tokens fall too.
    pub(super) fn structural(&self, n: NodeId, config: &Configuration) -> Vec<Proposal> {
        let tree = &self.tree;
        let grammar = &tree.grammar;
        let mut out = Vec::new();
        if let Some(p) = tree.parent(n)
            && let Some(rule) = grammar.statement_value(tree.kind(n), tree.kind(p))
        {
            out.extend(self.statement_values(n, rule, config));
        }
        if grammar.member_global(tree.kind(n)).is_some() {
            out.extend(self.member_globals(n, config));
        }
        if grammar.alias_fields(tree.kind(n)).is_some() {
            out.extend(self.write_out_alias(n, config));
        }
        if grammar.positional_list(tree.kind(n)).is_some() {
            out.extend(self.drop_positions(n, config));
        }
        if grammar.parameter_global(tree.kind(n)).is_some() {
            out.extend(self.parameter_globals(n, config));
        }
        if let Some(field) = grammar.unwrap_field(tree.kind(n)) {
            out.extend(self.unwrap(n, field));
        }
        if let Some(text) = grammar.sequence_text(tree.kind(n)) {
            out.extend(self.sequence(n, text, config));
        }
        if grammar.immediate_call(tree.kind(n)).is_some() {
            out.extend(self.immediate_call(n, config));
        }
        out
    }

    /// `n`'s elements one after another: each kept separator directly
    /// under `n` deleted, and the kept token before it rewritten to its
    /// text followed by `text` (Bash: `a | b` → `a` and `b` on lines of
    /// their own). Deletes a kept token per separator and rewrites no
    /// more tokens than it deletes, so the measure falls.
    fn sequence(&self, n: NodeId, text: &str, config: &Configuration) -> Option<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let kind = tree.kind(n);
        let mut delta = Delta::new();
        let mut rewrites = Vec::new();
        let mut before = None;
        for u in pass.kept_in(tree.tokens(n)) {
            let leaf = tree.leaf_of(u);
            let separator =
                tree.parent(leaf) == Some(n) && tree.grammar.is_separator(kind, tree.kind(leaf));
            match before {
                Some(b) if separator => {
                    rewrites.push(self.followed_by(b, text.as_bytes(), config));
                    delta.push(u..u + 1);
                    before = None;
                }
                _ => before = Some(u),
            }
        }
        (!rewrites.is_empty()).then_some(Proposal {
            delta,
            rewrites,
            layout: None,
        })
    }

    /// `n` given way to the inside of the node filling its `field`, between
    /// that node's first and last tokens: `namespace n { int a; }` → `int
    /// a;`. Only where that node's ends are paired tokens (brackets, not
    /// the ends of `extern "C" int f();`) and its inside keeps a token (an
    /// empty wrapper is the tree policies' to delete).
    fn unwrap(&self, n: NodeId, field: &str) -> Option<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let body = if field.is_empty() {
            tree.tokens(n)
        } else {
            tree.tokens(self.children_in(n, field).next()?)
        };
        let all = tree.tokens(n);
        let inside = body.start + 1..body.end.checked_sub(1)?;
        // A node's own ends are its brackets whether or not the language
        // pairs them everywhere (Bash's `{ a; }`).
        let paired = |unit: u32| {
            field.is_empty() || tree.grammar.is_paired_token(tree.kind(tree.leaf_of(unit)))
        };
        if inside.is_empty()
            || !paired(body.start)
            || !paired(inside.end)
            || pass.kept_in(inside.clone()).next().is_none()
        {
            return None;
        }
        let mut delta = Delta::new();
        delta.push(all.start..inside.start);
        delta.push(inside.end..all.end);
        Some(Proposal {
            delta,
            rewrites: Vec::new(),
            layout: None,
        })
    }

    /// For each position of the positional lists naming what `n` names
    /// (a function's parameters and every call's arguments), that
    /// position deleted from all of them at once: `f(int a, int b) {}
    /// ... f(x, y)` → `f(int a) {} ... f(x)`. Proposed once per sweep,
    /// at the first live such node, and only where there are at least two
    /// (one list alone is the tree policies' to shorten) and every list
    /// has the same number of elements (else positions do not match up:
    /// a variadic function, a K&R call).
    fn drop_positions(&self, n: NodeId, config: &Configuration) -> Vec<Proposal> {
        let Some(name) = self.list_name(n, config) else {
            return Vec::new();
        };
        let Some(group) = self.positional.get(name.trim_ascii()) else {
            return Vec::new();
        };
        // Only the first live namesake proposes (found without walking the
        // whole group: a function may be called thousands of times).
        if group.iter().copied().find(|&m| self.named(m, name, config)) != Some(n) {
            return Vec::new();
        }
        let Some(lists) = self.namesake_lists(n, config).filter(|l| l.len() >= 2) else {
            return Vec::new();
        };
        (0..lists[0].1.len())
            .map(|i| {
                let nodes: Vec<NodeId> = lists.iter().map(|(_, l)| l[i]).collect();
                Proposal::delete(self.tree.deletion_delta(&nodes, config))
            })
            .collect()
    }

    /// The text of the one-token name of positional-list node `m`, if it
    /// is live and has one.
    fn list_name<'c>(&'c self, m: NodeId, config: &'c Configuration) -> Option<&'c [u8]> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let (name_paths, _) = tree.grammar.positional_list(tree.kind(m))?;
        let walk = |path: &str| {
            path.split('/')
                .try_fold(m, |at, step| self.children_in(at, step).next())
        };
        let name = match self.owners.get(&m).and_then(|o| o.class_name) {
            Some(class_name) => class_name,
            None => name_paths
                .split('|')
                .filter_map(walk)
                .find(|&name| pass.size.get(name) == 1)?,
        };
        let unit = pass.next_kept[tree.tokens(name).start as usize];
        (pass.size.get(name) == 1).then(|| self.units.token_text(config, unit))
    }

    /// Whether positional-list node `m` is live and named `name`.
    fn named(&self, m: NodeId, name: &[u8], config: &Configuration) -> bool {
        let pass = self.pass.as_ref().expect("inside a pass");
        pass.size.get(m) > 0 && pass.live.is_live(m) && self.list_name(m, config) == Some(name)
    }

    /// The live nodes naming what positional-list node `n` names (`n`
    /// among them), in preorder, each with its list's live elements; none
    /// unless every list has as many.
    fn namesake_lists(
        &self,
        n: NodeId,
        config: &Configuration,
    ) -> Option<Vec<(NodeId, Vec<NodeId>)>> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let name = self.list_name(n, config)?;
        let group = self.positional.get(name.trim_ascii())?;
        let elements_of = |m: NodeId| -> Vec<NodeId> {
            let (_, list_field) = tree.grammar.positional_list(tree.kind(m)).expect("listed");
            let Some(list) = self.children_in(m, list_field).next() else {
                return Vec::new();
            };
            // A constructor's first parameters (`self`) no call passes.
            let skip = self.owners.get(&m).map_or(0, |o| o.skip);
            tree.children(list)
                .filter(|&c| {
                    pass.size.get(c) > 0
                        && pass.live.is_live(c)
                        && tree.deletable(c)
                        && tree.role(c) != Role::Extra
                        && !tree.is_separator_child(list, c)
                })
                .skip(skip)
                .collect()
        };
        let lists: Vec<(NodeId, Vec<NodeId>)> = group
            .iter()
            .copied()
            .filter(|&m| self.named(m, name, config))
            .map(|m| (m, elements_of(m)))
            .collect();
        let count = lists.first()?.1.len();
        lists.iter().all(|(_, l)| l.len() == count).then_some(lists)
    }

    /// Parameter `n` made a top-level variable, as C-Reduce's
    /// param-to-global does (`parameter_globals`): deleted, with the
    /// element at its position in every list naming its function (calls,
    /// prototypes; as [`Simplify::drop_positions`] deletes them), and its
    /// declarator joined to one of the two nearest top-level declarations
    /// before the function whose type reads as the parameter's (`struct
    /// s {...} f();` takes `struct s *b` as `struct s {...} f(), *b;`),
    /// or else declared anew before the function. Only where the
    /// function's own item names the parameter after it (a prototype's
    /// parameter names nothing) and fewer tokens are left.
    fn parameter_globals(&self, n: NodeId, config: &Configuration) -> Vec<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let Some(rule) = tree.grammar.parameter_global(tree.kind(n)) else {
            return Vec::new();
        };
        let Some(declarator) = self.children_in(n, &rule.declarator_field).next() else {
            return Vec::new();
        };
        let Some(owner) = tree.parent(n).and_then(|list| tree.parent(list)) else {
            return Vec::new();
        };
        let Some(lists) = self.namesake_lists(owner, config) else {
            return Vec::new();
        };
        let (_, own) = lists.iter().find(|(m, _)| *m == owner).expect("a namesake");
        let Some(i) = own.iter().position(|&c| c == n) else {
            return Vec::new();
        };
        let (item, first) = self.top_level_item(owner);
        if !self.names_after(declarator, item, config) {
            return Vec::new();
        }
        let nodes: Vec<NodeId> = lists.iter().map(|(_, l)| l[i]).collect();
        let delta = tree.deletion_delta(&nodes, config);
        let removed: usize = delta
            .ranges()
            .iter()
            .map(|r| config.kept.count_in(r.clone()) as usize)
            .sum();
        let declared = self
            .units
            .join_kept(config, pass.kept_in(tree.tokens(declarator)));
        let added = pass.size.get(declarator) as usize + 1;
        let joinable = if removed > added {
            self.joinable_declarations(n, declarator, item, rule, config)
        } else {
            Vec::new()
        };
        let mut out: Vec<Proposal> = joinable
            .into_iter()
            .map(|u| {
                let mut text = self.units.token_text(config, u).to_vec();
                text.extend_from_slice(rule.separator.as_bytes());
                text.push(b' ');
                text.extend_from_slice(&declared);
                Proposal {
                    delta: delta.clone(),
                    rewrites: vec![(u, Arc::from(text))],
                    layout: None,
                }
            })
            .collect();
        if removed > pass.size.get(n) as usize + 1 {
            let mut text = self.units.join_kept(config, pass.kept_in(tree.tokens(n)));
            text.extend_from_slice(rule.terminator.as_bytes());
            out.push(self.with_text_before(delta, first, &text, config));
        }
        out
    }

    /// Whether the one name `declarator` declares is a kept token of
    /// top-level item `item` after it.
    fn names_after(&self, declarator: NodeId, item: NodeId, config: &Configuration) -> bool {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let identifier = |u: &u32| tree.grammar.is_identifier(tree.kind(tree.leaf_of(*u)));
        let mut names = pass.kept_in(tree.tokens(declarator)).filter(identifier);
        let (Some(name), None) = (names.next(), names.next()) else {
            return false;
        };
        let name = self.units.token_text(config, name);
        let after = tree.tokens(declarator).end..tree.tokens(item).end;
        pass.kept_in(after)
            .any(|u| identifier(&u) && self.units.token_text(config, u) == name)
    }

    /// Up to two live top-level declarations before `item` (nearest
    /// first) whose tokens before their first declarator, up to a paired
    /// token, end with parameter `n`'s before its `declarator`: for each,
    /// its last declarator's last kept token, after which one more
    /// declarator goes.
    fn joinable_declarations(
        &self,
        n: NodeId,
        declarator: NodeId,
        item: NodeId,
        rule: &ParameterGlobal,
        config: &Configuration,
    ) -> Vec<u32> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let head = |from: u32, to: u32| -> Vec<&[u8]> {
            pass.kept_in(from..to)
                .take_while(|&u| !tree.grammar.is_paired_token(tree.kind(tree.leaf_of(u))))
                .map(|u| self.units.token_text(config, u))
                .collect()
        };
        let wanted = head(tree.tokens(n).start, tree.tokens(declarator).start);
        if wanted.is_empty() {
            return Vec::new();
        }
        let before = tree.tokens(item).start;
        let earlier = self
            .declarations
            .partition_point(|&d| tree.tokens(d).end <= before);
        let mut out = Vec::new();
        for &d in self.declarations[..earlier].iter().rev() {
            if out.len() == 2 {
                break;
            }
            if tree.kind(d) != rule.declaration || pass.size.get(d) == 0 || !pass.live.is_live(d) {
                continue;
            }
            let mut declarators = self.children_in(d, &rule.declaration_declarator);
            let Some(first) = declarators.next() else {
                continue;
            };
            let last = declarators.last().unwrap_or(first);
            if !head(tree.tokens(d).start, tree.tokens(first).start).ends_with(&wanted) {
                continue;
            }
            out.extend(pass.kept_in(tree.tokens(last)).last());
        }
        out
    }

    /// Alias definition `d` deleted and every live use of its name
    /// rewritten to what it stands for, together with the definition's
    /// children of the kinds that go along (`typedef int v8
    /// __attribute__((vector_size(32))); v8 f();` → `int
    /// __attribute__((vector_size(32))) f();`), where every use's slot
    /// takes the target's kind and fewer tokens are left.
    fn write_out_alias(&self, d: NodeId, config: &Configuration) -> Option<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let grammar = &tree.grammar;
        let (name_field, target_field) = grammar.alias_fields(tree.kind(d))?;
        let present = |n: NodeId| pass.size.get(n) > 0 && pass.live.is_live(n);
        let name = self
            .alias_name(d, name_field)
            .filter(|&c| pass.size.get(c) == 1)?;
        let target = self.children_in(d, target_field).next()?;
        // A name inside its target (`use a::B;`) is written out qualified,
        // wherever the name stands: the syntax check judges the slot.
        let qualifies = tree.is_within(name, target);
        let first_of = |n: NodeId| pass.next_kept[tree.tokens(n).start as usize];
        let name_text = self.units.token_text(config, first_of(name));
        let along = grammar.alias_along(tree.kind(d));
        let mut written: Vec<u32> = pass.kept_in(tree.tokens(target)).collect();
        for c in tree.children(d) {
            if along.contains(&tree.kind(c)) && present(c) {
                written.extend(pass.kept_in(tree.tokens(c)));
            }
        }
        written.sort_unstable();
        let mut uses = Vec::new();
        for &u in self.alias_uses.iter() {
            if !present(u) || tree.is_within(u, d) {
                continue;
            }
            if self.units.token_text(config, first_of(u)) != name_text {
                continue;
            }
            // A use whose slot cannot take the target would be left
            // without its definition.
            if !qualifies && !tree.slot_of_accepts(tree.anchor_of(u, &pass.live), tree.kind(target))
            {
                return None;
            }
            uses.push(first_of(u));
        }
        let added = uses.len() as u32 * (written.len() as u32).saturating_sub(1);
        if uses.is_empty() || pass.size.get(d) <= added {
            return None;
        }
        let text: Arc<[u8]> = Arc::from(self.units.join_kept(config, written));
        let mut delta = Delta::new();
        delta.push(tree.tokens(d));
        Some(Proposal {
            delta,
            rewrites: uses.into_iter().map(|u| (u, Arc::clone(&text))).collect(),
            layout: None,
        })
    }

    /// The live node naming alias `d`: the first at the end of `path`,
    /// field names joined by `/`.
    fn alias_name(&self, d: NodeId, path: &str) -> Option<NodeId> {
        path.split('/')
            .try_fold(d, |n, field| self.children_in(n, field).next())
    }

    /// The live nodes holding kept tokens at the end of `path` (field
    /// names) below `n`, in order.
    fn follow(&self, n: NodeId, path: &[String], out: &mut Vec<NodeId>) {
        let Some((field, rest)) = path.split_first() else {
            out.push(n);
            return;
        };
        for c in self.children_in(n, field) {
            self.follow(c, rest, out);
        }
    }

    /// `n` cut down to a value at the rule's path and its own last kept
    /// token, for each such value: `int a = f();` → `f();`; or, with a
    /// `terminator`, to the value with the terminator after its last kept
    /// token: `if (c) {}` → `c;`; or, with fields to keep, to those and
    /// its only value, joined ([`Self::named_value`]).
    fn statement_values(
        &self,
        n: NodeId,
        rule: &StatementValue,
        config: &Configuration,
    ) -> Vec<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let mut values = Vec::new();
        self.follow(n, &rule.path, &mut values);
        if let Some(joiner) = &rule.joiner {
            return self
                .named_value(n, &values, rule, joiner, config)
                .into_iter()
                .collect();
        }
        let all = self.tree.tokens(n);
        if let Some(terminator) = rule.terminator.as_deref() {
            return values
                .into_iter()
                .filter_map(|value| self.terminated_value(n, value, terminator, config))
                .collect();
        }
        let Some(last) = pass.kept_in(all.clone()).last() else {
            return Vec::new();
        };
        values
            .into_iter()
            .filter_map(|value| {
                let kept = self.tree.tokens(value);
                let mut delta = Delta::new();
                delta.push(all.start..kept.start);
                let trailing = last >= kept.end;
                if trailing {
                    delta.push(kept.end..last);
                    delta.push(last + 1..all.end);
                } else {
                    delta.push(kept.end..all.end);
                }
                let left = pass.size.get(value) + u32::from(trailing);
                (pass.size.get(n) > left).then_some(Proposal {
                    delta,
                    rewrites: Vec::new(),
                    layout: None,
                })
            })
            .collect()
    }

    /// `n` cut down to the nodes filling the rule's `keep` fields, the
    /// joiner, and its only value (the terminator after it): `K f() {
    /// return g(); }` → `K f = g();`. Nothing when `n` holds more than one
    /// value, misses a kept field, or would not lose two tokens.
    fn named_value(
        &self,
        n: NodeId,
        values: &[NodeId],
        rule: &StatementValue,
        joiner: &str,
        config: &Configuration,
    ) -> Option<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let [value] = values else { return None };
        let kept: Option<Vec<NodeId>> = rule
            .keep
            .iter()
            .map(|f| self.children_in(n, f).next())
            .collect();
        let mut parts = kept?;
        parts.push(*value);
        // The joiner and the terminator are written onto kept tokens: the
        // units fall by what is deleted, the text's tokens by two less.
        let left: u32 = parts.iter().map(|&p| pass.size.get(p)).sum();
        if pass.size.get(n) <= left + 2 {
            return None;
        }
        let all = self.tree.tokens(n);
        let mut delta = Delta::new();
        let mut from = all.start;
        for &p in &parts {
            let tokens = self.tree.tokens(p);
            if tokens.start < from {
                return None; // the parts are not in the text's order
            }
            delta.push(from..tokens.start);
            from = tokens.end;
        }
        delta.push(from..all.end);
        let last_of = |p: NodeId| pass.kept_in(self.tree.tokens(p)).last();
        let named = last_of(parts[parts.len() - 2])?;
        let end = last_of(*value)?;
        let terminator = rule.terminator.as_deref().unwrap_or_default();
        Some(Proposal {
            delta,
            rewrites: vec![
                self.followed_by(named, format!(" {joiner}").as_bytes(), config),
                self.followed_by(end, terminator.as_bytes(), config),
            ],
            layout: None,
        })
    }

    /// `n` cut down to `value`, the `terminator` written after the
    /// value's last kept token (a rewrite of that token), when that leaves
    /// fewer tokens.
    fn terminated_value(
        &self,
        n: NodeId,
        value: NodeId,
        terminator: &str,
        config: &Configuration,
    ) -> Option<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let all = self.tree.tokens(n);
        let kept = self.tree.tokens(value);
        let last = pass.kept_in(kept.clone()).last()?;
        if pass.size.get(n) <= pass.size.get(value) {
            return None;
        }
        let mut delta = Delta::new();
        delta.push(all.start..kept.start);
        delta.push(kept.end..all.end);
        Some(Proposal {
            delta,
            rewrites: vec![self.followed_by(last, terminator.as_bytes(), config)],
            layout: None,
        })
    }

    /// The top-level item holding `n` (`n` itself at the top level) and
    /// its first kept token, where text that goes before the item is put.
    fn top_level_item(&self, n: NodeId) -> (NodeId, u32) {
        let pass = self.pass.as_ref().expect("inside a pass");
        let mut item = n;
        while let Some(p) = self.tree.parent(item)
            && p != self.tree.root()
        {
            item = p;
        }
        (item, pass.next_kept[self.tree.tokens(item).start as usize])
    }

    /// A proposal deleting `delta` and putting the declaration `text` on a
    /// line of its own before the top-level item whose first kept token
    /// is `first` (that token's rewrite gets it as a prefix).
    fn with_text_before(
        &self,
        delta: Delta,
        first: u32,
        text: &[u8],
        config: &Configuration,
    ) -> Proposal {
        let mut rewrite = text.to_vec();
        rewrite.push(b'\n');
        rewrite.extend_from_slice(self.units.token_text(config, first));
        Proposal {
            delta,
            rewrites: vec![(first, Arc::from(rewrite))],
            layout: None,
        }
    }

    /// The rewrite of kept unit `u` to its current text followed by `text`.
    fn followed_by(&self, u: u32, text: &[u8], config: &Configuration) -> (u32, Arc<[u8]>) {
        let mut bytes = self.units.token_text(config, u).to_vec();
        bytes.extend_from_slice(text);
        (u, Arc::from(bytes))
    }

    /// Whether kept unit `u` is a token its consumers supply when missing.
    fn implied(&self, u: u32) -> bool {
        let tree = &self.tree;
        tree.grammar.is_implied_token(tree.kind(tree.leaf_of(u)))
    }

    /// `n` moved before the top-level item holding it without its implied
    /// tokens (see [`Simplify::hoists`]); none if it has none or nothing
    /// else.
    pub(super) fn hoist(&self, n: NodeId, config: &Configuration) -> Option<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let (item, first) = self.top_level_item(n);
        let tokens = self.tree.tokens(n);
        if item == n || first >= tokens.start {
            return None;
        }
        let moved: Vec<u32> = pass
            .kept_in(tokens.clone())
            .filter(|&u| !self.implied(u))
            .collect();
        if moved.is_empty() || moved.len() as u32 == pass.size.get(n) {
            return None;
        }
        let text = self.units.join_kept(config, moved);
        let mut delta = Delta::new();
        delta.push(tokens);
        Some(self.with_text_before(delta, first, &text, config))
    }

    /// Member access `n` (`c->p->m`) replaced by its member's name, which
    /// a new top-level variable declares as the member is declared (at
    /// most two texts), where that leaves fewer tokens than the access
    /// had once the last, lenient scan has deleted the implied ones (the
    /// declaration keeps them here, as the strict syntax filter of these
    /// phases refuses what parses only with a missing token).
    fn member_globals(&self, n: NodeId, config: &Configuration) -> Vec<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let Some(rule) = tree.grammar.member_global(tree.kind(n)) else {
            return Vec::new();
        };
        let by_field = |p: NodeId, field: &str| self.children_in(p, field).next();
        let Some(member) = by_field(n, &rule.member_field).filter(|&m| pass.size.get(m) == 1)
        else {
            return Vec::new();
        };
        let name_unit = pass.next_kept[tree.tokens(member).start as usize];
        let name = self.units.token_text(config, name_unit);
        let (_, first) = self.top_level_item(n);
        let tokens = tree.tokens(n);
        let Some(declared) = self
            .members
            .declared
            .get(name)
            .filter(|_| first < tokens.start)
        else {
            return Vec::new();
        };
        if let Some(moved) = self.move_member(n, rule, name_unit, declared, config) {
            return vec![moved];
        }
        let removed = pass.size.get(n) - 1;
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for &(declaration, declarator) in declared.iter() {
            if !pass.live.is_live(declaration) || pass.size.get(declarator) == 0 {
                continue;
            }
            let Some(first_declarator) = by_field(declaration, &rule.declarator_field) else {
                continue;
            };
            let all = tree.tokens(declaration);
            let own = tree.tokens(declarator);
            let before = pass.kept_in(all.start..tree.tokens(first_declarator).start);
            let last = pass.kept_in(all.clone()).last().filter(|&u| u >= own.end);
            let units: Vec<u32> = before.chain(pass.kept_in(own)).chain(last).collect();
            let lasting = units.iter().filter(|&&u| !self.implied(u)).count();
            if (lasting as u32) < removed {
                let text = self.units.join_kept(config, units);
                if !texts.contains(&text) {
                    texts.push(text);
                }
            }
            if texts.len() == 2 {
                break;
            }
        }
        texts
            .iter()
            .map(|text| {
                let mut delta = Delta::new();
                delta.push(tokens.start..name_unit);
                delta.push(name_unit + 1..tokens.end);
                self.with_text_before(delta, first, text, config)
            })
            .collect()
    }

    /// Member access `n` replaced by its member's name (`name_unit`),
    /// and the member's declaration moved from its class to the top
    /// level, before the item holding the access: where that declaration
    /// is the name's only one, declares nothing else, and the access is
    /// the name's only other kept mention (`struct s { int *end(); } v;
    /// ... v.end()` → `int *end(); ... end()`). Deletes the access's
    /// other tokens and moves the declaration's, so the units fall.
    fn move_member(
        &self,
        n: NodeId,
        rule: &MemberGlobal,
        name_unit: u32,
        declared: &[(NodeId, NodeId)],
        config: &Configuration,
    ) -> Option<Proposal> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let &[(declaration, _)] = declared else {
            return None;
        };
        let name = self.units.token_text(config, name_unit);
        let mentions = self.members.mentions.get(name)?;
        let kept = mentions.iter().filter(|&&u| config.contains(u)).count();
        let declarators = self
            .children_in(declaration, &rule.declarator_field)
            .filter(|&d| pass.size.get(d) > 0)
            .count();
        let (all, access) = (tree.tokens(declaration), tree.tokens(n));
        let apart = all.end <= access.start || access.end <= all.start;
        if mentions.len() > super::MOVE_MENTIONS
            || kept != 2
            || declarators != 1
            || !pass.live.is_live(declaration)
            || !apart
        {
            return None;
        }
        let (_, first) = self.top_level_item(n);
        if all.contains(&first) {
            return None;
        }
        let text = self.units.join_kept(config, pass.kept_in(all.clone()));
        let delta = Delta::from_ranges(vec![
            access.start..name_unit,
            name_unit + 1..access.end,
            all,
        ]);
        Some(self.with_text_before(delta, first, &text, config))
    }
}

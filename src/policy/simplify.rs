//! Simplify: replace a node by a smaller text the grammar suggests.
//!
//! Why: deletion alone leaves `int x = 3 * (y + 2);` when the bug only needs
//! `int x = 0;`, or a loop body that cannot go because the loop needs one.
//! C-Vise-like reducers win the rest by transformations; here they are data:
//! `grammars/<lang>.json` lists, per node kind, texts a node of that kind may
//! become (an expression `0` then `1`, a block `{}`, a type `int`), and
//! [`crate::grammar::Grammar::replacements`] hands them out. No kind name
//! appears in this file.
//!
//! A proposal for node `n` and text `t` keeps `n`'s first kept token,
//! rewritten to `t` (replacing any rewrite it already had), and deletes
//! every other token of `n`. It is only made when `t` is strictly smaller
//! than `n`'s current text, both as written (`t` reads as fewer tokens, or
//! as many and fewer bytes, to the plain lexer of `units.rs`) and in units:
//! `n` keeps more than one token and its text (the kept tokens' texts,
//! whitespace left out) is not already `t`, or `n` keeps one token whose
//! text is longer than `t`. Every committed step therefore lowers (kept
//! tokens, bytes of the kept tokens' texts) lexicographically, so the run
//! terminates, and never makes the text read as more tokens (units alone
//! let a name replace Python's `''`, two units, and `''` the name again).
//!
//! After the grammar's texts, a node of two or more kept tokens is tried
//! with subtrees found elsewhere in the candidate (Vulcan's subtree
//! replacement, algorithms.md §9): the `MAX_DONOR_TEXTS` smallest live
//! nodes, outside and around neither the node, without rewrites, with
//! fewer kept tokens, whose kind fits the slot the node fills (from
//! `NODE_TYPES`, as for Perses' replacements), e.g. a block the bug needs
//! non-empty by another function's smaller body. The donor's text (its kept
//! tokens, spaced as in the input) becomes the node's first token's rewrite,
//! so the same measure falls.
//!
//! Structural rewrites, also from grammar data (after a node's texts):
//! a declaration in a block becomes the statement of its value, a
//! function returning one value a variable holding it
//! (`statement_values`), a member access chain a new top-level variable
//! declared as the member is (`member_globals`), an alias definition is
//! written out at every use and deleted (`aliases`), a parameter is
//! deleted with its argument at every call, a template parameter with
//! its argument at every use (`positional_lists`; a constructor with the
//! calls creating its class), or a parameter made a
//! top-level variable (`parameter_globals`), a wrapper
//! gives way to what its braces hold (`unwraps`); `Simplify::hoists`
//! builds auto's closing pass that moves declarations to the top level.
//!
//! Schedule: a *sweep* visits the nodes that have replacements (that fit
//! the slot they fill: a replacement may be limited to one field, see
//! [`crate::grammar::Grammar::replacement_fits`]) and are live with a kept
//! token when it begins, largest kept size first (ties: lowest rank), and
//! at each node tries its texts in the grammar's order. A
//! success ends the reduce loop's pass but not the sweep: the next pass
//! resumes where it stopped (the same node's next text, then the following
//! nodes). A node that is no longer live or keeps no token when its turn
//! comes is skipped. When a sweep ends, a new one starts if the sweep
//! committed anything; otherwise the policy stops.
//!
//! Cost: a sweep sorts its nodes once (O(n log n)); a pass computes
//! liveness, kept sizes and the next kept unit of every unit once, and
//! sorts the live nodes by kind and size (O(nodes log nodes + units)); a
//! grammar text costs O(1) plus, to compare texts, at most as many token
//! steps as the text has bytes; a donor looks at no more than
//! `DONOR_SCAN` nodes of each kind, then renders a few. Large data sits behind
//! [`Arc`], so cloning the policy for speculative runs is cheap.

use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::grammar::{
    ANY_CHILD, ImmediateRule, KindId, MemberGlobal, ParameterGlobal, Role, StatementValue,
};
use crate::policy::Policy;
use crate::tree::{Liveness, NodeId, Sizes, Tree};
use crate::units::{Units, token_starts};

mod immediate;
mod structural;

/// How many subtrees from elsewhere a node is tried with, after the
/// grammar's texts: the smallest that fit its slot.
pub(crate) const MAX_DONOR_TEXTS: usize = 2;
/// How many of a kind's smallest nodes are looked at, and how many of those
/// are kept, when looking for a node's donors: bounds the search per node
/// by the number of kinds, however large the candidate.
const DONOR_SCAN: usize = 64;
const DONOR_PICKS: usize = 4;

/// What a pass knows about its configuration.
struct PassData {
    live: Liveness,
    /// Kept tokens under each node.
    size: Sizes,
    /// Live nodes that keep a token and hold no rewrite, the subtrees a
    /// node may be replaced by: grouped by kind, each group smallest first
    /// (ties: by rank).
    donors: Vec<Vec<NodeId>>,
    /// `next_kept[u]`: the first kept unit at or after `u` (the unit count
    /// if none); one entry more than there are units.
    next_kept: Vec<u32>,
}

impl PassData {
    /// The kept units in `tokens`, in order.
    fn kept_in(&self, tokens: Range<u32>) -> impl Iterator<Item = u32> + '_ {
        let first = self.next_kept[tokens.start as usize];
        // `successors` asks for the next unit as it yields one, so also
        // after the unit count (where no unit is kept after `tokens.start`).
        std::iter::successors(Some(first), move |&u| {
            let next = self.next_kept.get(u as usize + 1).copied();
            next.filter(|&next| next < tokens.end)
        })
        .take_while(move |&u| u < tokens.end)
    }

    fn new(tree: &Tree, config: &Configuration) -> Self {
        let units = tree.unit_count();
        let mut next_kept = vec![units; units as usize + 1];
        for u in (0..units).rev() {
            next_kept[u as usize] = if config.contains(u) {
                u
            } else {
                next_kept[u as usize + 1]
            };
        }
        let (size, live) = tree.sizes_and_liveness(config, None);
        let mut by_kind: HashMap<KindId, Vec<NodeId>> = HashMap::default();
        for n in 0..tree.len() as NodeId {
            if size.get(n) > 0
                && live.is_live(n)
                && config.rewrites.range(tree.tokens(n)).next().is_none()
            {
                by_kind.entry(tree.kind(n)).or_default().push(n);
            }
        }
        let mut donors: Vec<Vec<NodeId>> = by_kind.into_values().collect();
        for group in &mut donors {
            group.sort_unstable_by_key(|&n| (size.get(n), tree.rank(n)));
        }
        // Groups in a fixed order, so that runs repeat.
        donors.sort_unstable_by_key(|group| group[0]);
        PassData {
            live,
            size,
            donors,
            next_kept,
        }
    }
}

/// Grammar-driven simplification: replaces nodes by smaller texts.
#[derive(Clone)]
pub(crate) struct Simplify {
    tree: Arc<Tree>,
    units: Arc<Units>,
    /// This sweep's nodes, in order; `None` until the next sweep begins.
    order: Option<Arc<Vec<NodeId>>>,
    /// Position in `order` of the node being tried.
    cursor: usize,
    /// The next of that node's texts to try.
    next_text: usize,
    /// Whether this sweep committed anything.
    committed: bool,
    pass: Option<Arc<PassData>>,
    /// What each alias name stands for (`aliases` in grammars/*.json): the
    /// target nodes of the definitions naming it.
    aliases: Arc<HashMap<Vec<u8>, Vec<NodeId>>>,
    /// One-token nodes that read as an alias name, other than the names
    /// the definitions give: uses a sweep visits even if their kind has
    /// no replacements.
    alias_uses: Arc<Vec<NodeId>>,
    /// Where each member name is declared (`member_globals`): the
    /// declaring node and the declarator naming it.
    members: Arc<Members>,
    /// The nodes with a positional list (`positional_lists`), by the text
    /// of their one-token name, in preorder.
    positional: Arc<Positional>,
    /// The positional-list nodes that construct a class or are methods
    /// (`constructor`, `method`): the class's name node that names a
    /// constructor, and how many first parameters no call passes.
    owners: Arc<HashMap<NodeId, Owner>>,
    /// The top-level nodes that may declare a parameter made a global
    /// (`parameter_globals`), in order.
    declarations: Arc<Vec<NodeId>>,
    /// Whether this is the closing hoist pass (see [`Simplify::hoists`]),
    /// which proposes nothing else.
    hoisting: bool,
}

impl Simplify {
    /// A policy over `tree`, whose tokens are `units` (shared, for the
    /// token texts).
    pub fn new(tree: Arc<Tree>, units: Arc<Units>) -> Self {
        assert_eq!(tree.unit_count(), units.len(), "the tree's units");
        let (aliases, alias_uses) = find_aliases(&tree, &units);
        let members = find_members(&tree, &units);
        let (positional, owners) = find_positional(&tree, &units);
        let declarations = find_declarations(&tree);
        Simplify {
            tree,
            units,
            order: None,
            cursor: 0,
            next_text: 0,
            committed: false,
            pass: None,
            aliases: Arc::new(aliases),
            alias_uses: Arc::new(alias_uses),
            members: Arc::new(members),
            positional: Arc::new(positional),
            owners: Arc::new(owners),
            declarations: Arc::new(declarations),
            hoisting: false,
        }
    }

    /// The hoist pass: each node the grammar lets move to the top level
    /// (`hoists`) moved before the top-level item holding it without its
    /// implied tokens (`f() { int l; ... }` → `l; f() { ... }`), which
    /// only a filter that lets missing tokens through accepts; auto runs
    /// it among its closing phases, after the lenient scan. A node
    /// without implied tokens is not moved: the move alone gains nothing.
    pub(crate) fn hoists(tree: Arc<Tree>, units: Arc<Units>) -> Self {
        Simplify {
            hoisting: true,
            ..Simplify::new(tree, units)
        }
    }

    /// The texts of what the alias `n` (one kept token, `first`) names
    /// stands for, where that fits the slot `n` fills and is shorter:
    /// `vfloat16` by `float` after `typedef float vfloat16;`.
    fn alias_texts(&self, n: NodeId, first: u32, config: &Configuration) -> Vec<Arc<[u8]>> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let Some(targets) = self.aliases.get(self.units.token_text(config, first)) else {
            return Vec::new();
        };
        let anchor = tree.anchor_of(n, &pass.live);
        let own_texts = tree.grammar.replacements(tree.kind(n));
        let mut out: Vec<Arc<[u8]>> = Vec::new();
        for &t in targets {
            if pass.size.get(t) == 0
                || !pass.live.is_live(t)
                || tree.is_within(n, t)
                || !tree.slot_of_accepts(anchor, tree.kind(t))
            {
                continue;
            }
            let text = self.units.join_kept(config, pass.kept_in(tree.tokens(t)));
            if self.shrinks(n, first, &text, config)
                && !out.iter().any(|o| **o == text[..])
                && !own_texts.iter().any(|r| *r.text == text[..])
            {
                out.push(Arc::from(text));
            }
        }
        out
    }

    /// The nodes a new sweep visits: those with replacements that are live
    /// and keep a token, largest first, then by rank.
    fn sweep_order(&self, pass: &PassData) -> Vec<NodeId> {
        let tree = &self.tree;
        let present = |n: NodeId| pass.size.get(n) > 0 && pass.live.is_live(n);
        if self.hoisting {
            let mut order: Vec<NodeId> = (0..tree.len() as NodeId)
                .filter(|&n| {
                    present(n)
                        && tree
                            .parent(n)
                            .is_some_and(|p| tree.grammar.hoists_from(tree.kind(n), tree.kind(p)))
                })
                .collect();
            // Last first: each move puts its text before those moved
            // earlier, so the moved declarations keep their order.
            order.sort_unstable_by_key(|&n| std::cmp::Reverse(tree.rank(n)));
            return order;
        }
        let mut order: Vec<NodeId> = (0..tree.len() as NodeId)
            .filter(|&n| {
                present(n)
                    && (self.has_replacements(n)
                        || tree.grammar.has_structural_rewrite(tree.kind(n)))
            })
            .collect();
        let with_replacements = order.len();
        order.extend(self.alias_uses.iter().copied().filter(|&n| present(n)));
        if order.len() > with_replacements {
            order.sort_unstable();
            order.dedup();
        }
        order.sort_unstable_by_key(|&n| (std::cmp::Reverse(pass.size.get(n)), tree.rank(n)));
        order
    }

    /// Whether some grammar text may replace `n` where it stands.
    fn has_replacements(&self, n: NodeId) -> bool {
        let tree = &self.tree;
        tree.grammar
            .replacements(tree.kind(n))
            .iter()
            .any(|r| tree.grammar.replacement_fits(r, tree.slot(n)))
    }

    /// The live children of `n` holding kept tokens that fill `field`, in
    /// order.
    fn children_in<'a>(&'a self, n: NodeId, field: &'a str) -> impl Iterator<Item = NodeId> + 'a {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let wanted = (field != ANY_CHILD).then_some(field);
        tree.children(n).filter(move |&c| {
            tree.grammar.field_name(tree.slot(c)) == wanted
                && (wanted.is_some() || tree.grammar.is_named(tree.kind(c)))
                && tree.role(c) != Role::Extra
                && pass.size.get(c) > 0
                && pass.live.is_live(c)
        })
    }

    /// Whether the kept tokens of `n`, from `first` on, read exactly `text`
    /// (whitespace between them left out).
    fn reads(&self, n: NodeId, first: u32, text: &[u8], config: &Configuration) -> bool {
        let pass = self.pass.as_ref().expect("inside a pass");
        let mut rest = text;
        for u in pass.kept_in(first..self.tree.tokens(n).end) {
            let Some(after) = rest.strip_prefix(self.units.token_text(config, u)) else {
                return false;
            };
            rest = after;
        }
        rest.is_empty()
    }

    /// The texts of up to [`MAX_DONOR_TEXTS`] subtrees elsewhere that may
    /// take `n`'s place, smallest first: live, without rewrites, with fewer
    /// kept tokens than `n`, neither inside nor around `n`, of a kind that
    /// fits the slot `n` fills, and reading differently from each other and
    /// from the grammar's texts for `n`.
    fn donor_texts(&self, n: NodeId, config: &Configuration) -> Vec<Arc<[u8]>> {
        let pass = self.pass.as_ref().expect("inside a pass");
        let tree = &self.tree;
        let anchor = tree.anchor_of(n, &pass.live);
        if tree.parent(anchor).is_none() {
            return Vec::new();
        }
        let own_texts = tree.grammar.replacements(tree.kind(n));
        let first = pass.next_kept[tree.tokens(n).start as usize];
        let smaller = |m: NodeId| pass.size.get(m) < pass.size.get(n);
        // The first few of each fitting kind (whether a node fits depends
        // on its kind alone), at most DONOR_SCAN looked at per kind.
        let mut picks: Vec<NodeId> = Vec::new();
        for group in &pass.donors {
            if !tree.slot_of_accepts(anchor, tree.kind(group[0])) {
                continue;
            }
            picks.extend(
                group
                    .iter()
                    .take(DONOR_SCAN)
                    .take_while(|&&m| smaller(m))
                    .filter(|&&m| !tree.is_within(m, n) && !tree.is_within(n, m))
                    .take(DONOR_PICKS),
            );
        }
        picks.sort_unstable_by_key(|&m| (pass.size.get(m), tree.rank(m)));
        let mut out: Vec<Arc<[u8]>> = Vec::new();
        for m in picks {
            if out.len() == MAX_DONOR_TEXTS {
                break;
            }
            let text = self.units.join_kept(config, pass.kept_in(tree.tokens(m)));
            if !out.iter().any(|t| **t == text[..])
                && !own_texts.iter().any(|r| *r.text == text[..])
                && self.shrinks(n, first, &text, config)
            {
                out.push(Arc::from(text));
            }
        }
        out
    }

    /// Whether replacing `n` (first kept token `first`) by `text` shrinks
    /// it: as written (tokens as a lexer reads them, then bytes) as well as
    /// in kept units. A unit may read as several tokens (a rewrite `[]`) and
    /// several units as one (Python's `''`, a start and an end), so units
    /// alone would let a donor `x` replace `''` and the grammar's `''`
    /// replace `x` again: steps that each lower the unit count and come back
    /// to the same text.
    fn shrinks(&self, n: NodeId, first: u32, text: &[u8], config: &Configuration) -> bool {
        let pass = self.pass.as_ref().expect("inside a pass");
        let size = pass.size.get(n);
        if size == 0 {
            return false;
        }
        let wanted = token_starts(text).len();
        // Past this many units `n` surely reads as more tokens than `text`.
        let enough = 4 * (wanted + 1);
        let mut kept = pass.kept_in(first..self.tree.tokens(n).end);
        let head: Vec<u32> = kept.by_ref().take(enough).collect();
        if kept.next().is_some() {
            return true;
        }
        let now = self.units.join_kept(config, head);
        let have = token_starts(&now).len();
        let fewer = wanted < have || (wanted == have && text.len() < now.len());
        if size == 1 {
            return wanted <= have && text.len() < now.len();
        }
        fewer && !self.reads(n, first, text, config)
    }
}

/// The grammar's aliases in `tree`: each alias name's targets, and the
/// one-token nodes elsewhere that read as an alias name.
fn find_aliases(tree: &Tree, units: &Units) -> (HashMap<Vec<u8>, Vec<NodeId>>, Vec<NodeId>) {
    let grammar = &tree.grammar;
    let text = |n: NodeId| units.text(tree.tokens(n).start).trim_ascii();
    let mut aliases: HashMap<Vec<u8>, Vec<NodeId>> = HashMap::default();
    let mut names = Vec::new();
    for n in 0..tree.len() as NodeId {
        let Some((name_field, target_field)) = grammar.alias_fields(tree.kind(n)) else {
            continue;
        };
        let child = |n: NodeId, field: &str| {
            tree.children(n)
                .find(|&c| grammar.field_name(tree.slot(c)) == Some(field))
        };
        let name = name_field.split('/').try_fold(n, child);
        if let (Some(name), Some(target)) = (name, child(n, target_field))
            && tree.tokens(name).len() == 1
        {
            aliases.entry(text(name).to_vec()).or_default().push(target);
            names.push(name);
        }
    }
    if aliases.is_empty() {
        return (aliases, Vec::new());
    }
    let uses = (0..tree.len() as NodeId)
        .filter(|&n| {
            tree.tokens(n).len() == 1
                && tree.is_leaf(n)
                && aliases.contains_key(text(n))
                && names.binary_search(&n).is_err()
        })
        .collect();
    (aliases, uses)
}

/// The nodes of kinds with a positional list (`positional_lists`) whose
/// name is one identifier token, by that token's text, in preorder; a
/// constructor (`constructor`) by its class's name instead. With them,
/// the constructors' and methods' class names and skipped parameters.
fn find_positional(tree: &Tree, units: &Units) -> (Positional, HashMap<NodeId, Owner>) {
    let grammar = &tree.grammar;
    let mut found: Positional = HashMap::default();
    let mut owners = HashMap::default();
    let text = |name: NodeId| units.text(tree.tokens(name).start).trim_ascii().to_vec();
    for n in 0..tree.len() as NodeId {
        let Some((name_paths, _)) = grammar.positional_list(tree.kind(n)) else {
            continue;
        };
        let name = name_paths
            .split('|')
            .find_map(|path| follow(tree, n, path).filter(|&m| one_identifier(tree, m)));
        let Some(mut name) = name else {
            continue;
        };
        if let Some(owner) = owner_of(tree, n, &text(name)) {
            name = owner.class_name.unwrap_or(name);
            owners.insert(n, owner);
        }
        found.entry(text(name)).or_default().push(n);
    }
    (found, owners)
}

/// What a constructor or method owes its class: the class's name node,
/// which names a constructor, and how many first parameters no call
/// passes.
#[derive(Clone, Copy, Debug)]
struct Owner {
    class_name: Option<NodeId>,
    skip: usize,
}

/// Positional-list nodes by the text of their name.
type Positional = HashMap<Vec<u8>, Vec<NodeId>>;

/// The node a path of fields (`/` between steps, `*` a named child
/// outside any field) leads to from `n`.
fn follow(tree: &Tree, n: NodeId, path: &str) -> Option<NodeId> {
    let grammar = &tree.grammar;
    let mut at = Some(n);
    for step in path.split('/') {
        let wanted = (step != ANY_CHILD).then_some(step);
        at = at.and_then(|m| {
            tree.children(m).find(|&c| {
                grammar.field_name(tree.slot(c)) == wanted
                    && (wanted.is_some() || grammar.is_named(tree.kind(c)))
                    && tree.role(c) != Role::Extra
            })
        });
    }
    at
}

/// Whether `n` is one identifier token.
fn one_identifier(tree: &Tree, n: NodeId) -> bool {
    tree.tokens(n).len() == 1 && tree.grammar.is_identifier(tree.kind(n))
}

/// Where node `n`, named `name`, constructs a class (its kind's
/// `constructor` names it so, and it sits in a class of the kind given)
/// or is a method (`method`: its nearest enclosing class or
/// positional-list node is a class of the kind given).
fn owner_of(tree: &Tree, n: NodeId, name: &[u8]) -> Option<Owner> {
    let grammar = &tree.grammar;
    if let Some(rule) = grammar.constructor(tree.kind(n))
        && rule.method == name
    {
        let mut up = tree.parent(n);
        while let Some(p) = up.filter(|&p| tree.kind(p) != rule.class) {
            up = tree.parent(p);
        }
        let class_name =
            follow(tree, up?, &rule.class_name).filter(|&m| one_identifier(tree, m))?;
        let skip = rule.skip;
        return Some(Owner {
            class_name: Some(class_name),
            skip,
        });
    }
    let (class, skip) = grammar.method(tree.kind(n))?;
    let mut up = tree.parent(n);
    while let Some(p) = up {
        if tree.kind(p) == class {
            return Some(Owner {
                class_name: None,
                skip,
            });
        }
        if grammar.positional_list(tree.kind(p)).is_some() {
            return None;
        }
        up = tree.parent(p);
    }
    None
}

/// The top-level nodes of the kinds parameters may join as globals
/// (`parameter_globals`), in order.
fn find_declarations(tree: &Tree) -> Vec<NodeId> {
    let kinds: Vec<KindId> = tree.grammar.global_declarations().collect();
    if kinds.is_empty() {
        return Vec::new();
    }
    tree.children(tree.root())
        .filter(|&c| kinds.contains(&tree.kind(c)))
        .collect()
}

/// Where member names are declared and mentioned (`member_globals`).
#[derive(Default)]
struct Members {
    /// Each member name's declaring nodes, with the declarator naming it.
    declared: HashMap<Vec<u8>, Vec<(NodeId, NodeId)>>,
    /// Each member name's identifier tokens, declarators' included, up to
    /// `MOVE_MENTIONS` of them (a name mentioned more is never moved).
    mentions: HashMap<Vec<u8>, Vec<u32>>,
}

/// The most identifier tokens a member name may have for its declaration
/// to be moved rather than copied: counting kept ones stays O(1) a member.
pub(super) const MOVE_MENTIONS: usize = 16;

/// Where member names are declared (`member_globals`): each name's
/// declaring nodes with the declarator naming it (one whose only
/// identifier token is the name), and the tokens mentioning it.
fn find_members(tree: &Tree, units: &Units) -> Members {
    let grammar = &tree.grammar;
    let mut members = Members::default();
    let rules: Vec<_> = grammar.member_globals().collect();
    if rules.is_empty() {
        return members;
    }
    for n in 0..tree.len() as NodeId {
        let Some(rule) = rules.iter().find(|r| r.declaration == tree.kind(n)) else {
            continue;
        };
        for d in tree.children(n) {
            if grammar.field_name(tree.slot(d)) != Some(rule.declarator_field.as_str()) {
                continue;
            }
            let mut names = tree
                .tokens(d)
                .filter(|&u| grammar.is_identifier(tree.kind(tree.leaf_of(u))));
            if let (Some(u), None) = (names.next(), names.next()) {
                let name = units.text(u).trim_ascii().to_vec();
                members.declared.entry(name).or_default().push((n, d));
            }
        }
    }
    for u in 0..tree.unit_count() {
        if !grammar.is_identifier(tree.kind(tree.leaf_of(u))) {
            continue;
        }
        let text = units.text(u).trim_ascii();
        if members.declared.contains_key(text) {
            let mentions = members.mentions.entry(text.to_vec()).or_default();
            if mentions.len() <= MOVE_MENTIONS {
                mentions.push(u);
            }
        }
    }
    members
}

impl Policy for Simplify {
    fn name(&self) -> String {
        if self.hoisting { "hoist" } else { "simplify" }.into()
    }

    fn start_pass(&mut self, config: &Configuration) {
        let pass = Arc::new(PassData::new(&self.tree, config));
        if self.order.is_none() {
            self.order = Some(Arc::new(self.sweep_order(&pass)));
            self.cursor = 0;
            self.next_text = 0;
            self.committed = false;
        }
        self.pass = Some(pass);
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        let order = Arc::clone(self.order.as_ref()?);
        let pass = Arc::clone(self.pass.as_ref()?);
        let tree = Arc::clone(&self.tree);
        while let Some(&n) = order.get(self.cursor) {
            if self.hoisting {
                self.cursor += 1;
                if let Some(proposal) = self.hoist(n, config) {
                    return Some(proposal);
                }
                continue;
            }
            let texts = tree.grammar.replacements(tree.kind(n));
            let tokens = tree.tokens(n);
            let first = pass.next_kept[tokens.start as usize];
            let present = first < tokens.end && pass.live.is_live(n);
            let replace_by = |text: Arc<[u8]>| {
                let mut delta = Delta::new();
                delta.push(first + 1..tokens.end);
                Proposal {
                    delta,
                    rewrites: vec![(first, text)],
                    layout: None,
                }
            };
            while present && self.next_text < texts.len() {
                let replacement = &texts[self.next_text];
                self.next_text += 1;
                let text = &replacement.text;
                if tree.grammar.replacement_fits(replacement, tree.slot(n))
                    && self.shrinks(n, first, text, config)
                {
                    return Some(replace_by(Arc::clone(text)));
                }
            }
            if present {
                // After the grammar's texts: an alias's target (one kept
                // token) or subtrees from elsewhere (more), then the
                // structural rewrites; recomputed per call, as the
                // configuration may have changed since the last.
                let extra = self.next_text - texts.len();
                let replaceable =
                    self.has_replacements(n) || self.alias_uses.binary_search(&n).is_ok();
                let more_texts = match pass.size.get(n) {
                    _ if !replaceable => Vec::new(),
                    1 => self.alias_texts(n, first, config),
                    _ => self.donor_texts(n, config),
                };
                let proposal = if extra < more_texts.len() {
                    more_texts.into_iter().nth(extra).map(replace_by)
                } else {
                    let rest = extra - more_texts.len();
                    self.structural(n, config).into_iter().nth(rest)
                };
                if proposal.is_some() {
                    self.next_text += 1;
                    return proposal;
                }
            }
            self.cursor += 1;
            self.next_text = 0;
        }
        None
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        if reduced.is_some() {
            // The sweep goes on from the cursor in the next pass.
            self.committed = true;
            return true;
        }
        // The sweep is over: another one if this one changed something
        // (not for hoists: a node that could not move the first time
        // would be tried again in vain).
        self.order = None;
        std::mem::take(&mut self.committed) && !self.hoisting
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::interfaces::{Candidate, Observer, Strictness, SyntaxFilter, Verdict};
    use crate::languages::Language;
    use crate::syntax::SyntaxCheck;
    use crate::tree::parse::parse;

    #[test]
    fn the_kept_units_of_a_stretch_with_none_kept_after_it_are_none() {
        let (tree, units) = parse(Language::named("c"), b"int a; int b;".to_vec()).unwrap();
        let n = units.len();
        // Only the first token kept: from the second on, no unit is.
        let config = Configuration::from_units(n, [0]);
        let pass = PassData::new(&tree, &config);
        assert_eq!(pass.kept_in(0..n).collect::<Vec<_>>(), [0]);
        assert_eq!(pass.kept_in(1..n).count(), 0);
        assert_eq!(pass.kept_in(n..n).count(), 0);
    }

    /// What a run ended with.
    struct Outcome {
        config: Configuration,
        text: String,
        /// (kept tokens, bytes of their texts) after each committed step.
        steps: Vec<(u32, usize)>,
        successes: u64,
    }

    /// Records the size of every committed configuration.
    struct Steps<'a> {
        policy: &'a Simplify,
        steps: Vec<(u32, usize)>,
    }

    impl Observer for Steps<'_> {
        fn on_improved(&mut self, config: &Configuration, _bytes: &[u8]) {
            self.steps.push(measure(self.policy, config));
        }
    }

    /// (kept tokens, bytes of their texts): what every step must lower.
    fn measure(policy: &Simplify, config: &Configuration) -> (u32, usize) {
        let bytes = config
            .kept
            .iter()
            .map(|u| policy.units.token_text(config, u).len())
            .sum();
        (config.len(), bytes)
    }

    /// Runs [`Simplify`] from `start` through the real reduce loop, with the
    /// syntax check as filter, the cache off and `jobs` tests in flight.
    fn simplify_from(
        lang: Language,
        source: &str,
        start: Option<Configuration>,
        jobs: usize,
        interesting: impl Fn(&str) -> bool + Sync,
    ) -> Outcome {
        run_from(lang, source, start, jobs, false, interesting)
    }

    /// Runs [`Simplify`] (or, if `hoisting`, [`Simplify::hoists`] under the
    /// lenient syntax filter, as auto's closing phase does).
    fn run_from(
        lang: Language,
        source: &str,
        start: Option<Configuration>,
        jobs: usize,
        hoisting: bool,
        interesting: impl Fn(&str) -> bool + Sync,
    ) -> Outcome {
        let (tree, units) = parse(lang, source.as_bytes().to_vec()).unwrap();
        let check = SyntaxCheck::for_tree(lang, &tree);
        let oracle = |c: &Candidate<'_>| {
            if interesting(&String::from_utf8_lossy(c.bytes)) {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let build = if hoisting {
            Simplify::hoists
        } else {
            Simplify::new
        };
        let policy = build(Arc::new(tree), Arc::new(units.clone()));
        let mut steps = Steps {
            policy: &policy,
            steps: Vec::new(),
        };
        let mut engine = Engine::new(&units, &oracle)
            .with_filter(Some(&check))
            .with_cache(false)
            .with_jobs(jobs);
        if hoisting {
            engine.set_filter(Some(Strictness::MissingTokensFree));
        }
        let start = start.unwrap_or_else(|| Configuration::full(units.len()));
        let mut boxed: Box<dyn Policy> = Box::new(policy.clone());
        let (config, _) = engine.run(&mut boxed, start, &mut steps);
        let text = String::from_utf8(units.render(&config)).unwrap();
        Outcome {
            config,
            text,
            steps: steps.steps,
            successes: engine.phases[0].successes,
        }
    }

    fn simplify(
        lang: Language,
        source: &str,
        interesting: impl Fn(&str) -> bool + Sync,
    ) -> Outcome {
        simplify_from(lang, source, None, 1, interesting)
    }

    fn collapse(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    const PROGRAM: &str =
        "int main(void) { int x = 3 * (y + 2); if (x > 4) { crash(); } return x * 7; }\n";

    fn crashes(text: &str) -> bool {
        text.contains("crash(")
    }

    #[test]
    fn arithmetic_becomes_0_and_what_the_bug_needs_stays() {
        let out = simplify(Language::named("c"), PROGRAM, crashes);
        assert_eq!(
            collapse(&out.text),
            "int main(int) { 0 ; if (0 ) { crash(); } ; }"
        );
        // `(x > 4)` → `0` would read `if 0`: the syntax check refused it,
        // and `x > 4` went instead. A rewritten token keeps its own
        // trailing whitespace (that of `3` and `x`).
        assert!(
            out.config
                .rewrites
                .values()
                .all(|t| [&b"0"[..], b";", b"int"].contains(&&t[..]))
        );
    }

    #[test]
    fn a_json_value_the_bug_does_not_need_becomes_0_and_a_key_stays_a_string() {
        let source = r#"{"a": [1, 2, {"b": "long string"}], "keep": true}"#;
        let out = simplify(Language::named("json"), source, |t| {
            t.contains(r#""keep": true"#)
        });
        assert_eq!(out.text, r#"{"": 0, "keep": true}"#);
        // Where the consumer needs the type, the empty value stays.
        let out = simplify(Language::named("json"), source, |t| {
            t.contains(r#""keep": true"#) && t.contains('[')
        });
        assert_eq!(out.text, r#"{"": [], "keep": true}"#);
    }

    #[test]
    fn every_surviving_rewrite_keeps_the_program_parsing() {
        let source = r#"
struct point { long long x; unsigned short y; };
typedef struct point point_t;
static const char *names[] = { "alpha", "beta", 'g' == 103 ? "gamma" : "delta" };
int table[4] = { 10, 20, 30, 40 };
int helper(point_t *p, int n) {
    for (int i = 0; i < n; i++) { p->x += table[i % 4] * sizeof(struct point); }
    while (n-- > 0) p->y = (unsigned short)(p->y << 1);
    switch (n) { case 1: return -1; default: break; }
    return (int)p->x + names[0][0];
}
int main(void) {
    point_t pt = { 1, 2 };
    do { pt.x = helper(&pt, 3) ? pt.x : -pt.x; } while (pt.x < 1000);
    if (pt.y != 0xdeadbeef) { crash("bad", pt.x); }
    return 0;
}
"#;
        // The bug needs the typedef's name, so the typedef is not written
        // out at its uses.
        let out = simplify(Language::named("c"), source, |t| {
            crashes(t) && t.contains("point_t")
        });
        assert!(crashes(&out.text));
        assert!(!out.config.rewrites.is_empty());
        let text = collapse(&out.text);
        // Types became `int`, but not the name a typedef declares (`int`
        // would parse there too): `type_identifier` is only replaced as a type.
        for part in [
            "typedef int point_t;",
            "int helper(int *p, int n) {}",
            "int main(int) { 0 ;",
            "crash(\"\", 0);",
        ] {
            assert!(text.contains(part), "{part} not in {text}");
        }
        assert!(out.text.len() < source.len() / 2, "{}", out.text);
        let check = SyntaxCheck::new(Language::named("c"), 0);
        assert!(check.accepts(out.text.as_bytes()), "{}", out.text);
        assert_eq!(check.errors_in(out.text.as_bytes()), Some(0));
    }

    #[test]
    fn every_step_shrinks_and_a_second_run_changes_nothing() {
        let out = simplify(Language::named("c"), PROGRAM, crashes);
        assert!(out.successes > 0);
        assert_eq!(out.steps.len() as u64, out.successes);
        let (tree, units) = parse(Language::named("c"), PROGRAM.as_bytes().to_vec()).unwrap();
        let policy = Simplify::new(Arc::new(tree), Arc::new(units.clone()));
        let mut before = measure(&policy, &Configuration::full(units.len()));
        for &step in &out.steps {
            assert!(step < before, "{step:?} after {before:?}");
            before = step;
        }
        assert!(out.text.len() < PROGRAM.len());
        let again = simplify_from(
            Language::named("c"),
            PROGRAM,
            Some(out.config.clone()),
            1,
            crashes,
        );
        assert_eq!(again.successes, 0);
        assert_eq!(again.config, out.config);
    }

    #[test]
    fn speculative_runs_commit_the_same_steps() {
        let out = simplify(Language::named("c"), PROGRAM, crashes);
        let parallel = simplify_from(Language::named("c"), PROGRAM, None, 3, crashes);
        assert_eq!(parallel.config, out.config);
        assert_eq!(parallel.steps, out.steps);
    }

    /// Every proposal of one pass in which all of them fail, rendered.
    fn all_proposals(lang: Language, source: &str) -> Vec<String> {
        let (tree, units) = parse(lang, source.as_bytes().to_vec()).unwrap();
        let mut policy = Simplify::new(Arc::new(tree), Arc::new(units.clone()));
        let config = Configuration::full(units.len());
        policy.start_pass(&config);
        let mut out = Vec::new();
        while let Some(p) = policy.next_proposal(&config) {
            let next = config.apply(&p).expect("every proposal changes something");
            out.push(collapse(&String::from_utf8_lossy(&units.render(&next))));
        }
        assert!(
            !policy.on_reduced(None),
            "nothing committed: the policy stops"
        );
        out
    }

    #[test]
    fn a_text_that_reads_as_more_tokens_or_as_many_and_longer_is_never_proposed() {
        // Python's `''` is two units (its start and end) but one token: the
        // name `inventory` (one unit) would lower the units, not the text,
        // and `[]` may not replace the one-token name either.
        let proposals = all_proposals(
            Language::named("python"),
            "inventory = 1\nprint(inventory, '', [])\n",
        );
        assert!(!proposals.is_empty());
        for p in &proposals {
            assert!(!p.contains("print(inventory, inventory"), "{p}");
            assert!(!p.contains("[]=") && !p.contains("[] ="), "{p}");
        }
    }

    #[test]
    fn only_strictly_smaller_texts_are_proposed() {
        // `1` is as small as a number gets, `{ }` and `""` already read as
        // their replacement, `int` is `int`; `10` and `(1)` can shrink, and
        // `(1)` and `""` (two tokens each) may also become one of the two
        // smallest expressions from elsewhere (`f` and `a`, in rank order).
        let proposals = all_proposals(
            Language::named("c"),
            "int f() { }\nint a = 1, b = 10, c = (1);\nchar *s = \"\";\n",
        );
        assert_eq!(
            proposals,
            [
                "int f() { } int a = 1, b = 10, c = 0; char *s = \"\";",
                "int f() { } int a = 1, b = 10, c = 1; char *s = \"\";",
                "int f() { } int a = 1, b = 10, c = f; char *s = \"\";",
                "int f() { } int a = 1, b = 10, c = a; char *s = \"\";",
                "int f() { } int a = 1, b = 10, c = (1); char *s = f;",
                "int f() { } int a = 1, b = 10, c = (1); char *s = a;",
                "int f() { } int a = 1, b = 0, c = (1); char *s = \"\";",
                "int f() { } int a = 1, b = 1, c = (1); char *s = \"\";",
                "int f() { } int a = 1, b = 10, c = (1); int *s = \"\";",
            ]
        );
    }

    #[test]
    fn a_replaced_node_and_its_ancestors_stay_live() {
        let source = "int x = 3 * (y + 2);\n";
        let (tree, units) = parse(Language::named("c"), source.as_bytes().to_vec()).unwrap();
        let tree = Arc::new(tree);
        let kind = |n: NodeId| tree.kind_name(n).to_string();
        let find = |name: &str| {
            (0..tree.len() as NodeId)
                .find(|&n| kind(n) == name)
                .unwrap()
        };
        let product = find("binary_expression");
        let sum = tree
            .descendants(product)
            .find(|&n| kind(n) == "binary_expression")
            .unwrap();
        let mut policy = Simplify::new(Arc::clone(&tree), Arc::new(units.clone()));
        let full = Configuration::full(units.len());
        policy.start_pass(&full);
        let first = policy.next_proposal(&full).unwrap();
        let config = full.apply(&first).unwrap();
        assert_eq!(units.render(&config), b"int x = 0 ;\n");
        let live = tree.liveness(&config);
        for name in ["translation_unit", "declaration", "init_declarator"] {
            assert!(live.is_live(find(name)), "{name}");
        }
        assert!(live.is_live(product));
        assert!(!live.is_live(find("parenthesized_expression")) && !live.is_live(sum));
        // Without the rewrite, the lone `3` is a broken product, and the
        // literal stands in its place: `int x = 3 ;`.
        let bare = Configuration {
            rewrites: Arc::default(),
            ..config
        };
        let live = tree.liveness(&bare);
        assert!(!live.is_live(product) && live.is_live(find("number_literal")));
        assert!(live.is_live(find("declaration")));
    }

    #[test]
    fn a_block_may_become_a_smaller_block_from_elsewhere_even_at_the_end_of_the_file() {
        // `{}` loses the call the bug needs twice; g's body, the file's last
        // tokens, has it.
        let source = "void f(void) { a(); b(); c(); d(); }\nvoid g(void) { d(); }";
        let out = simplify(Language::named("c"), source, |t| {
            t.matches("d();").count() == 2
        });
        // (`void` became `int` too.)
        assert_eq!(
            collapse(&out.text),
            "int f(int) { d(); } int g(int) { d(); }"
        );
    }

    #[test]
    fn a_rewritten_token_can_be_rewritten_again_to_something_smaller() {
        // `{}` then `0` for an initializer list: the second replaces the first's rewrite.
        let source = "int a[2] = { 1, 2 };\n";
        let out = simplify(Language::named("c"), source, |_| true);
        assert_eq!(collapse(&out.text), "int a[2] = 0 ;");
        assert_eq!(out.config.rewrites.len(), 1);
        assert_eq!(out.steps.len(), 2);
    }

    #[test]
    fn a_typedef_name_may_become_the_shorter_type_it_stands_for() {
        let source = "typedef float vfloat16;\ntypedef int *iptr;\n\
                      int f(void) { vfloat16 a; iptr p; return a != 0; }\n";
        // The bug needs a float `a`: `int a` loses it, `float a` keeps it.
        let out = simplify(Language::named("c"), source, |t| t.contains("float a"));
        assert!(collapse(&out.text).contains("{ float a;"), "{}", out.text);
        // `iptr` is declared by a pointer declarator, not a one-token name,
        // so it is no alias: only the grammar's `int` is tried.
        assert!(collapse(&out.text).contains("int p;"), "{}", out.text);
    }

    #[test]
    fn a_typedef_is_written_out_with_its_attributes_where_that_leaves_fewer_tokens() {
        let typedef = "typedef int v8 __attribute__((vector_size(32)));\n";
        let needs_vector = |t: &str| t.contains("vector_size(32)") && t.contains("f(");
        // One use: the typedef's 13 tokens go, the use grows by 9.
        let out = simplify(
            Language::named("c"),
            &format!("{typedef}v8 f(void);\n"),
            needs_vector,
        );
        assert!(
            out.text
                .starts_with("int __attribute__((vector_size(32))) f("),
            "{}",
            out.text
        );
        // Two uses would grow by 18: the typedef stays.
        let source = format!("{typedef}v8 f(void);\nv8 g(void);\n");
        let out = simplify(Language::named("c"), &source, |t| {
            needs_vector(t) && t.contains("g(")
        });
        assert!(out.text.starts_with(typedef), "{}", out.text);
    }

    #[test]
    fn a_namespace_or_linkage_block_gives_way_to_the_items_it_holds() {
        let cpp = Language::named("cpp");
        let source = "namespace n {\nint a;\nint b;\n}\nextern \"C\" { int f(int); int g; }\n\
                      extern \"C\" int h(void);\n";
        let out = simplify(cpp, source, |t| {
            t.contains("int a;") && t.contains("int b;") && t.contains("f(int)") && t.contains("h(")
        });
        let text = collapse(&out.text);
        assert!(
            !text.contains("namespace") && !text.contains('{'),
            "{}",
            out.text
        );
        assert!(text.contains("int a; int b;"), "{}", out.text);
        // `extern "C" int h(void);` has no braces to give way to.
        assert!(
            text.contains("extern \"") && text.contains("int h("),
            "{}",
            out.text
        );
        // Where the bug needs the namespace, it stays.
        let out = simplify(cpp, source, |t| {
            t.contains("namespace n") && t.contains("int b;")
        });
        assert!(out.text.contains("namespace n"), "{}", out.text);
    }

    #[test]
    fn a_member_mentioned_only_by_one_access_moves_out_of_its_class() {
        let cpp = Language::named("cpp");
        let source = "struct S {\n  int *end();\n};\nS v;\nint g() { return *v.end(); }\n";
        let out = simplify(cpp, source, |t| {
            t.contains("struct S") && t.contains("return *") && t.matches("end()").count() >= 2
        });
        let text = collapse(&out.text);
        assert!(text.contains("int *end(); int g()"), "{}", out.text);
        assert!(!text.contains("v.end"), "{}", out.text);
        // A member also used elsewhere is copied only where that is
        // shorter, never moved.
        let source = "struct S {\n  int *end();\n};\nS v;\nint g() { return *v.end(); }\n\
                      int h() { return *v.end(); }\n";
        let out = simplify(cpp, source, |t| {
            t.contains("struct S") && t.matches("end()").count() >= 3
        });
        assert!(
            collapse(&out.text).contains("struct S { int *end(); }"),
            "{}",
            out.text
        );
    }

    #[test]
    fn a_for_loop_becomes_its_declaration_and_its_condition() {
        let cpp = Language::named("cpp");
        let source = "void f() {\n  for (int i = 0; i < 3; ++i) g(i);\n}\n";
        let out = simplify(cpp, source, |t| t.contains("i < 3"));
        let text = collapse(&out.text);
        assert!(text.contains("int i = 0; i < 3;"), "{}", out.text);
        assert!(!text.contains("for"), "{}", out.text);
        // C's loops mostly start from an expression, whose `;` is the
        // loop's: the joiner writes it back.
        let source = "void f(void) {\n  int i;\n  for (i = 0; i < 3; i++) g(i);\n}\n";
        let out = simplify(Language::named("c"), source, |t| t.contains("i < 3"));
        let text = out.text.replace(char::is_whitespace, "");
        assert!(text.contains("i=0;i<3;"), "{}", out.text);
        assert!(!text.contains("for"), "{}", out.text);
    }

    #[test]
    fn a_class_gives_way_to_its_members() {
        let cpp = Language::named("cpp");
        let source = "struct S {\n  int a;\n  int b;\n};\n";
        let out = simplify(cpp, source, |t| {
            t.contains("int a;") && t.contains("int b;")
        });
        assert!(!out.text.contains("struct"), "{}", out.text);
    }

    #[test]
    #[cfg(feature = "bash")]
    fn a_bash_pipeline_becomes_its_commands_one_per_line_and_a_group_its_inside() {
        let bash = Language::named("bash");
        let source = "{ a x | b y | c; }\nd && e\n";
        let out = simplify(bash, source, |t| {
            ["a x", "b y", "c", "d", "e"].iter().all(|w| t.contains(w))
        });
        let lines: Vec<&str> = out.text.lines().map(str::trim).collect();
        // `d` keeps the line it had once the group's `}` is gone.
        assert_eq!(lines, ["a x", "b y", "c;", "d", "e"], "{}", out.text);
        // Where the bug needs the pipe, it stays.
        let out = simplify(bash, source, |t| t.contains("| c"));
        assert!(out.text.contains("| c"), "{}", out.text);
    }

    #[test]
    #[cfg(feature = "rust")]
    fn a_rust_use_is_written_out_at_its_uses_and_a_use_list_of_one_loses_its_braces() {
        let rust = Language::named("rust");
        // The bug needs the path and the type, not the `use` line.
        let source = "use core::num::NonZeroUsize;\nfn f() -> Option<NonZeroUsize> { None }\n";
        let out = simplify(rust, source, |t| {
            t.contains("num::NonZeroUsize") && t.contains("Option<")
        });
        let text = collapse(&out.text);
        assert!(!text.contains("use "), "{}", out.text);
        assert!(
            text.contains("Option<core::num::NonZeroUsize>"),
            "{}",
            out.text
        );
        // Braces around one path go; around two they stay.
        let list = "use core::sync::atomic::{AtomicUsize};\nuse a::{B, C};\n";
        let out = simplify(rust, list, |t| {
            t.contains("atomic::") && t.contains("AtomicUsize") && t.contains("B, C")
        });
        let text = collapse(&out.text);
        assert!(
            text.contains("use core::sync::atomic::AtomicUsize;"),
            "{}",
            out.text
        );
        assert!(text.contains("use a::{B, C};"), "{}", out.text);
    }

    #[test]
    fn a_declaration_whose_value_alone_matters_becomes_the_statement_of_that_value() {
        let source = "int g(void);\nint a = g();\n\
                      int f(void) { int a = g(); int b = 7, c = g(); return 2; }\n";
        // The bug needs the calls in `f`, not the variables.
        let out = simplify(Language::named("c"), source, |t| {
            t.matches("g()").count() == 3
        });
        assert!(
            collapse(&out.text).contains("{ g(); g(); ; }"),
            "{}",
            out.text
        );
        // Not at file scope, where a statement is no C.
        assert!(out.text.contains("int a = g();\n"), "{}", out.text);
        // Where the variable is needed, the declaration stays.
        let out = simplify(Language::named("c"), source, |t| {
            t.contains("{ int a = g()")
        });
        assert!(out.text.contains("{ int a = g()"), "{}", out.text);
    }

    #[test]
    fn a_statement_that_only_tests_a_condition_becomes_the_condition_as_a_statement() {
        // The bug needs the comparison (a compiler's warning about it),
        // not the `if` around it.
        let needs_comparison = |t: &str| t.contains("p + 1 == 0");
        for (lang, source) in [
            (
                "c",
                "void f(int p) { if (p + 1 == 0) {} while (p) { g(); } }\n",
            ),
            (
                "cpp",
                "void f(int p) { if (p + 1 == 0) {} while (p) { g(); } }\n",
            ),
        ] {
            let out = simplify(Language::named(lang), source, needs_comparison);
            assert!(
                collapse(&out.text).contains("{ p + 1 == 0; "),
                "{lang}: {}",
                out.text
            );
            // The loop the bug does not need went the same way.
            assert!(!out.text.contains("while"), "{lang}: {}", out.text);
        }
        // Where the bug needs the branch, the `if` stays.
        let source = "void f(int p) { if (p + 1 == 0) { g(); } }\n";
        let out = simplify(Language::named("c"), source, |t| {
            t.contains("p + 1 == 0") && t.contains("g()")
        });
        assert!(out.text.contains("if (p + 1 == 0)"), "{}", out.text);
    }

    #[test]
    fn a_local_declaration_moves_before_its_function_without_its_implied_type() {
        let source = "struct s { int m; };\n\
                      void f(void) { char c; int l; struct s v; use(c, l, v); }\n";
        let hoist = |interesting: fn(&str) -> bool| {
            run_from(Language::named("c"), source, None, 1, true, interesting).text
        };
        // The bug needs `c` to be a char: it stays. `l` may be an int by
        // default at the top level. `struct s v;` has no implied token:
        // moving it would gain nothing, and it is not tried.
        let text = hoist(|t| t.contains("use(c, l, v)") && t.contains("char c"));
        assert_eq!(
            text,
            "struct s { int m; };\nl;\n\
             void f(void) { char c; struct s v; use(c, l, v); }\n"
        );
        // Both go where the bug needs neither type; `struct s v;` stays,
        // whatever the oracle says.
        let text = hoist(|t| t.contains("use(c, l, v)"));
        assert!(text.contains("c;\nl;\nvoid f"), "{text}");
        assert!(text.contains("{ struct s v; use"), "{text}");
    }

    #[test]
    fn a_member_access_chain_becomes_a_global_declared_as_the_member() {
        let source = "struct in { int x; volatile unsigned int *m, n; };\n\
                      struct mid { struct in *q; };\n\
                      struct out { struct mid *p; };\n\
                      void f(struct out *o) { use(o->p->q->m); use(o->p->q->x); }\n";
        // The bug needs `m`'s type and name, not the structs it was
        // reached through; it needs the access to `x` as it is.
        let out = simplify(Language::named("c"), source, |t| {
            t.contains("volatile unsigned int *m;") && t.contains("use(m)") && t.contains("->x")
        });
        assert!(
            out.text.contains("volatile unsigned int *m;\nvoid f"),
            "{}",
            out.text
        );
        assert!(out.text.contains("->x); }") && !out.text.contains("int x;\nvoid"));
        // `o->m` (3 tokens) for `volatile *m;` (4 once the lenient scan has
        // deleted `unsigned int`) would leave more tokens: never tried,
        // though the oracle would take it.
        let source = "struct in { volatile unsigned int *m; };\n\
                      void f(struct in *o) { use(o->m); }\n";
        let out = simplify(Language::named("c"), source, |t| {
            t.contains("use(") && t.contains("m)")
        });
        assert!(out.text.contains("use(o->m)"), "{}", out.text);
    }

    #[test]
    fn a_parameter_becomes_a_global_joined_to_a_declaration_of_its_type() {
        let source = "struct s { int n; } g(void);\n\
                      int report(struct s *b, int k) { return use(b->n, k); }\n\
                      int main(void) { struct s v; return report(&v, 1); }\n";
        // The bug needs `b->n` read in `report` with `k` its parameter,
        // called from `main`: `b` may be a global, declared with `g`, so
        // that `report` and its call lose it (`&v` with it).
        let needs = |t: &str| {
            t.contains("struct s { int n; }")
                && t.contains("*b")
                && t.contains("int k)")
                && t.contains("use(b->n, k)")
                && t.matches("report(").count() == 2
                && t.matches("(void)").count() == 2
        };
        let out = simplify(Language::named("c"), source, needs);
        assert!(out.text.contains("} g(void), *b;"), "{}", out.text);
        assert!(out.text.contains("int report(int k)"), "{}", out.text);
        assert!(out.text.contains("report(1)"), "{}", out.text);
        // No declaration of its type before it: declared anew, which pays
        // only when the calls lose more than the new `;` costs.
        let source = "int report(struct s *b, int k) { return use(b->n, k); }\n\
                      int main(void) { return report(&v, 1) + report(&w, 2); }\n";
        let out = simplify(Language::named("c"), source, |t| {
            t.contains("struct s *b")
                && t.contains("int k)")
                && t.contains("use(b->n, k)")
                && t.matches("report(").count() == 3
        });
        assert!(
            out.text.starts_with("struct s *b;\nint report(int k)"),
            "{}",
            out.text
        );
        // A prototype's parameter names nothing after it: never moved.
        let proposals = all_proposals(
            Language::named("c"),
            "struct s { int n; } g(void);\nint report(struct s *b, int k);\n",
        );
        assert!(
            !proposals.iter().any(|p| p.contains("*b;")),
            "{proposals:?}"
        );
    }

    #[test]
    fn a_parameter_goes_with_its_argument_at_every_call() {
        let source = "int g(int a, long b, char *c);\n\
                      int g(int a, long b, char *c) { return use(b); }\n\
                      int f(void) { return g(1, 2, \"x\") + g(3, 4, 0); }\n";
        // The bug needs `g` to pass `b` on; like a compiler, the oracle
        // wants every list of `g` as long as the others, so `a` and `c`
        // may go only from the prototype, the definition and both calls
        // at once.
        let arities = |t: &str| -> Vec<usize> {
            t.split("g(")
                .skip(1)
                .map(|rest| rest[..rest.find(')').unwrap_or(0)].matches(',').count())
                .collect()
        };
        let out = simplify(Language::named("c"), source, |t| {
            let lists = arities(t);
            t.contains("use(b)")
                && t.contains(" b) {")
                && lists.len() == 4
                && lists.iter().all(|&n| n == lists[0])
        });
        assert_eq!(arities(&out.text), [0, 0, 0, 0], "{}", out.text);
        assert!(!out.text.contains("char"), "{}", out.text);
        assert!(out.text.contains(" b);\n"), "{}", out.text);
        assert!(
            out.text.contains("g(2)") && out.text.contains("g(4)"),
            "{}",
            out.text
        );
        // A call with a different number of arguments: positions do not
        // match up, nothing is proposed.
        let source = "int g(int a, int b) { return a; }\nint f(void) { return g(1); }\n";
        let proposals = all_proposals(Language::named("c"), source);
        assert!(
            !proposals.iter().any(|p| p.contains("g(int a)")),
            "{proposals:?}"
        );
    }
}

//! The names of one parse: which nodes declare which name, and where each
//! name is mentioned, so that the bulk passes can delete what nothing
//! uses, and what only it used, in one candidate.
//!
//! Why: the tree says what may be deleted syntactically; the names say what
//! must go together. Go refuses an import its file does not use and a use
//! of an import that is gone, so neither goes alone; a libstdc++ unit holds
//! thousands of functions nothing calls, which one deletion each would take
//! hours to remove.
//!
//! Which kinds declare a name and where the name is comes from the
//! grammar's data (`names` in grammars/*.json, `crate::grammar::names`);
//! which tokens mention one from `identifiers`. Resolution is by spelling
//! alone: every kept identifier token reading `x` mentions every
//! declaration of `x`. A wrong guess costs a test, never a wrong result,
//! since the oracle judges every candidate.
//!
//! Built once per tree, in one walk over its nodes ([`NameIndex::new`]):
//! linear in the input. What is used in a configuration ([`Usage`]) is
//! computed per pass, linear in the identifier tokens.

use std::ops::Range;

use rustc_hash::FxHashMap as HashMap;

use crate::configuration::{Configuration, Delta};
use crate::tree::{NodeId, Tree};
use crate::units::Units;

/// A name, interned per index.
pub(crate) type Spelling = u32;

/// One declaration of a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Declaration {
    /// What goes when the declaration goes: the declaring node, or the
    /// wrappers around it (`template <...> int f();`).
    pub item: NodeId,
    /// The token holding its name, if it is one (a Go import is named
    /// after the last part of its path, which no token reads alone).
    pub name_unit: Option<u32>,
    pub spelling: Spelling,
    /// The value it gives the name, if any (`names.value_fields`: `f(x)`
    /// in `int v = f(x);`).
    pub value: Option<NodeId>,
}

/// Rows of values grouped by a key, stored flat (compressed sparse rows).
#[derive(Clone, Debug, Default)]
struct Rows {
    starts: Vec<u32>,
    values: Vec<u32>,
}

impl Rows {
    /// Groups `(key, value)` pairs, keys below `keys`; values keep their order.
    fn new(keys: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> Rows {
        let mut starts = vec![0u32; keys + 1];
        for (k, _) in pairs.clone() {
            starts[k as usize + 1] += 1;
        }
        for i in 0..keys {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut values = vec![0u32; starts[keys] as usize];
        for (k, v) in pairs {
            values[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Rows { starts, values }
    }

    fn row(&self, key: Spelling) -> &[u32] {
        let at = key as usize;
        &self.values[self.starts[at] as usize..self.starts[at + 1] as usize]
    }
}

/// Every declaration and every mention of a name in one tree.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameIndex {
    /// The units of identifier tokens, in order.
    mentions: Vec<u32>,
    /// The spelling of each mention (same order).
    mention_spelling: Vec<Spelling>,
    /// The declarations, in preorder of their declaring nodes.
    declarations: Vec<Declaration>,
    /// Each spelling's mentions (indices into `mentions`, in order).
    mentions_of: Rows,
    /// Each spelling's declarations (indices into `declarations`).
    declarations_of: Rows,
    /// Each spelling's text.
    texts: Vec<Vec<u8>>,
}

impl NameIndex {
    /// Indexes the names of `tree` (whose leaves are `units`).
    pub(crate) fn new(tree: &Tree, units: &Units) -> NameIndex {
        let facts = &tree.grammar.names;
        if facts.is_empty() {
            return NameIndex::default();
        }
        let mut interned: HashMap<Vec<u8>, Spelling> = HashMap::default();
        let mut texts: Vec<Vec<u8>> = Vec::new();
        let mut intern = |text: &[u8]| -> Spelling {
            if let Some(&s) = interned.get(text) {
                return s;
            }
            let s = texts.len() as Spelling;
            interned.insert(text.to_vec(), s);
            texts.push(text.to_vec());
            s
        };
        let mut index = NameIndex::default();
        for n in 0..tree.len() as NodeId {
            let kind = tree.kind(n);
            if tree.is_leaf(n) && tree.grammar.is_identifier(kind) {
                let tokens = tree.tokens(n);
                if tokens.len() == 1 {
                    index.mentions.push(tokens.start);
                    index
                        .mention_spelling
                        .push(intern(units.text(tokens.start).trim_ascii()));
                }
            }
            if facts.declares(kind)
                && let Some(name) = name_of(tree, units, n)
            {
                index.declarations.push(Declaration {
                    item: item_of(tree, n),
                    name_unit: name.unit,
                    spelling: intern(&name.text),
                    value: name.value,
                });
            }
        }
        let keys = texts.len();
        let spellings = index.mention_spelling.iter().copied();
        index.mentions_of = Rows::new(keys, spellings.zip(0..));
        let declared = index.declarations.iter().map(|d| d.spelling);
        index.declarations_of = Rows::new(keys, declared.zip(0..));
        index.texts = texts;
        index
    }

    pub(crate) fn declarations(&self) -> &[Declaration] {
        &self.declarations
    }

    /// The declarations of `s` (indices into [`Self::declarations`]).
    pub(crate) fn declarations_of(&self, s: Spelling) -> &[u32] {
        self.declarations_of.row(s)
    }

    /// The units mentioning `s`, in order.
    pub(crate) fn mentions_of(&self, s: Spelling) -> impl Iterator<Item = u32> + '_ {
        self.mentions_of
            .row(s)
            .iter()
            .map(|&i| self.mentions[i as usize])
    }

    /// How many names the index knows.
    pub(crate) fn spellings(&self) -> usize {
        self.texts.len()
    }

    /// The text of `s`.
    pub(crate) fn text(&self, s: Spelling) -> &[u8] {
        &self.texts[s as usize]
    }

    /// The name unit `u` mentions, if it is an identifier token.
    pub(crate) fn spelling_at(&self, u: u32) -> Option<Spelling> {
        let i = self.mentions.binary_search(&u).ok()?;
        Some(self.mention_spelling[i])
    }

    /// The mentions (indices into `mentions`) among `units`.
    fn mentions_in(&self, units: Range<u32>) -> Range<usize> {
        let start = self.mentions.partition_point(|&u| u < units.start);
        let end = self.mentions.partition_point(|&u| u < units.end);
        start..end
    }
}

/// The node `n`'s declaration goes with: itself, or the wrappers around it
/// (`names.wrappers`).
fn item_of(tree: &Tree, n: NodeId) -> NodeId {
    let mut item = n;
    while let Some(p) = tree.parent(item) {
        if !tree.grammar.names.wraps(tree.kind(p)) {
            break;
        }
        item = p;
    }
    item
}

/// What a declaration says of its name.
struct Name {
    unit: Option<u32>,
    text: Vec<u8>,
    value: Option<NodeId>,
}

/// The name `n` declares: its token (if one token reads it), its text and
/// the value given it. From `n`, the first child in one of
/// `names.name_fields` (in their order), else the only named child, until
/// an identifier token; a declaration named after a path
/// (`names.path_names`) without such a field takes the path's last part.
/// The value is the first child in one of `names.value_fields` of a node
/// on that way.
fn name_of(tree: &Tree, units: &Units, n: NodeId) -> Option<Name> {
    let facts = &tree.grammar.names;
    let mut m = n;
    let mut value = None;
    for _ in 0..16 {
        let kind = tree.kind(m);
        if tree.is_leaf(m) {
            let tokens = tree.tokens(m);
            let name = tree.grammar.is_identifier(kind) && tokens.len() == 1;
            return name.then(|| Name {
                unit: Some(tokens.start),
                text: units.text(tokens.start).trim_ascii().to_vec(),
                value,
            });
        }
        value = value.or_else(|| first_in_fields(tree, m, &facts.value_fields));
        let by_field = first_in_fields(tree, m, &facts.name_fields);
        if by_field.is_none()
            && let Some(field) = facts.path_name(kind)
        {
            let path = child_in(tree, m, field)?;
            let text = path_name(tree, units, path)?;
            return Some(Name {
                unit: None,
                text,
                value,
            });
        }
        let mut named = tree.children(m).filter(|&c| {
            tree.grammar.is_named(tree.kind(c)) && tree.role(c) != crate::grammar::Role::Extra
        });
        let only = match (named.next(), named.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        };
        m = by_field.or(only)?;
    }
    None
}

/// The first child of `n` in the first of `fields` that `n` fills.
fn first_in_fields(tree: &Tree, n: NodeId, fields: &[String]) -> Option<NodeId> {
    fields.iter().find_map(|field| child_in(tree, n, field))
}

/// The first child of `n` filling its field `field`.
fn child_in(tree: &Tree, n: NodeId, field: &str) -> Option<NodeId> {
    tree.children(n)
        .find(|&c| tree.grammar.field_name(tree.slot(c)) == Some(field))
}

/// The last part of the path a string node holds (`"net/http"` → `http`).
fn path_name(tree: &Tree, units: &Units, path: NodeId) -> Option<Vec<u8>> {
    let mut text = Vec::new();
    for u in tree.tokens(path) {
        text.extend_from_slice(units.text(u).trim_ascii());
    }
    let inner = text.trim_ascii().strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let last = inner.rsplit(|&b| b == b'/').next()?;
    (!last.is_empty()).then(|| last.to_vec())
}

/// What is used in one configuration: for each name, how many kept
/// mentions lie outside its own live declarations.
pub(crate) struct Usage {
    /// Per spelling: kept mentions outside the live declarations of that
    /// spelling.
    outside: Vec<u32>,
    /// Per mention: whether it lies inside a live declaration of its own
    /// spelling (a recursive call, a prototype's name).
    own: Vec<bool>,
    /// Per declaration: whether it is live (its item has kept tokens and
    /// its name token, if any, is kept).
    live: Vec<bool>,
}

impl Usage {
    /// Counts the uses in `config`: linear in the mentions and declarations.
    pub(crate) fn new(index: &NameIndex, tree: &Tree, config: &Configuration) -> Usage {
        let live: Vec<bool> = index
            .declarations
            .iter()
            .map(|d| tree.present(d.item, config) && d.name_unit.is_none_or(|u| config.contains(u)))
            .collect();
        let mut own = vec![false; index.mentions.len()];
        for (d, _) in index.declarations.iter().zip(&live).filter(|(_, l)| **l) {
            let tokens = tree.tokens(d.item);
            let row = index.mentions_of.row(d.spelling);
            let from = row.partition_point(|&i| index.mentions[i as usize] < tokens.start);
            for &i in &row[from..] {
                if index.mentions[i as usize] >= tokens.end {
                    break;
                }
                own[i as usize] = true;
            }
        }
        let mut outside = vec![0u32; index.texts.len()];
        for (i, &u) in index.mentions.iter().enumerate() {
            if !own[i] && config.contains(u) {
                outside[index.mention_spelling[i] as usize] += 1;
            }
        }
        Usage { outside, own, live }
    }

    /// Whether declaration `d` (an index into the declarations) is live.
    pub(crate) fn is_live(&self, d: u32) -> bool {
        self.live[d as usize]
    }

    /// Whether nothing outside its own declarations mentions `s`.
    pub(crate) fn unused(&self, s: Spelling) -> bool {
        self.outside[s as usize] == 0
    }

    /// How many kept mentions of `s` lie outside its own declarations.
    pub(crate) fn uses(&self, s: Spelling) -> u32 {
        self.outside[s as usize]
    }

    /// The kept mentions of `s` outside its own live declarations, in order.
    pub(crate) fn uses_of(
        &self,
        index: &NameIndex,
        s: Spelling,
        config: &Configuration,
    ) -> Vec<u32> {
        index
            .mentions_of
            .row(s)
            .iter()
            .filter(|&&i| !self.own[i as usize] && config.contains(index.mentions[i as usize]))
            .map(|&i| index.mentions[i as usize])
            .collect()
    }

    /// The live declaration items of `s`.
    pub(crate) fn live_items<'a>(
        &'a self,
        index: &'a NameIndex,
        s: Spelling,
    ) -> impl Iterator<Item = NodeId> + 'a {
        index
            .declarations_of(s)
            .iter()
            .filter(|&&d| self.is_live(d))
            .map(|&d| index.declarations[d as usize].item)
    }

    /// `delta` grown by what it leaves unused: every live declaration of a
    /// name whose last mention outside its own declarations `delta`
    /// deletes goes too, and so on while that deletes more last mentions
    /// (a function with the imports only it used). Linear in the
    /// mentions the deletions cover.
    pub(crate) fn closure(
        &self,
        index: &NameIndex,
        tree: &Tree,
        config: &Configuration,
        delta: &Delta,
    ) -> Delta {
        self.closure_rewriting(index, tree, config, delta, &[])
    }

    /// [`Self::closure`] of a proposal that also rewrites the tokens
    /// `rewritten` to text that mentions no name (a literal): they count
    /// as mentions gone, but stay.
    pub(crate) fn closure_rewriting(
        &self,
        index: &NameIndex,
        tree: &Tree,
        config: &Configuration,
        delta: &Delta,
        rewritten: &[u32],
    ) -> Delta {
        let mut gone = config.kept.clone();
        let mut removed: HashMap<Spelling, u32> = HashMap::default();
        let mut ranges: Vec<Range<u32>> = delta.ranges().to_vec();
        let mut queue = ranges.clone();
        queue.extend(rewritten.iter().map(|&u| u..u + 1));
        while let Some(r) = queue.pop() {
            for i in index.mentions_in(r) {
                let u = index.mentions[i];
                if !gone.remove(u) || self.own[i] {
                    continue;
                }
                let s = index.mention_spelling[i];
                let count = removed.entry(s).or_default();
                *count += 1;
                if *count != self.outside[s as usize] {
                    continue;
                }
                let items: Vec<NodeId> = self.live_items(index, s).collect();
                for r in tree.deletion_delta(&items, config).ranges() {
                    ranges.push(r.clone());
                    queue.push(r.clone());
                }
            }
        }
        // A rewritten token is only queued: it stays, unless a deleted
        // declaration holds it.
        Delta::from_ranges(ranges)
    }
}

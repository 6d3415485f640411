//! Grammar facts: which children may be deleted, and which kinds may fill a slot.
//!
//! Everything the tree policies know about a language comes from here, never
//! from node kind names written into policy code. The facts are read from a
//! tree-sitter grammar's `node-types.json` (each grammar crate ships it as
//! `NODE_TYPES`): for every node kind, its fields and its unnamed children,
//! each a *slot* with `multiple`, `required` and the kinds it accepts
//! (supertypes such as C's `statement` expanded to their subtypes).
//! Per-language knowledge node-types cannot give (separators, kinds never to
//! delete, tokens that may go on their own, texts a node may be replaced by)
//! is layered on top from `grammars/*.json` (parsed into the types of
//! `grammar/schema.rs`, applied by `grammar/data.rs`), and separators are
//! also derived from each tree (`grammar/derive.rs`).

mod data;
mod derive;
pub(crate) mod names;
pub(crate) mod schema;

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// A node kind (named or anonymous), dense per grammar.
pub(crate) type KindId = u16;
/// A slot: one field of a kind, or a kind's unnamed children.
pub(crate) type SlotId = u32;

/// How a child sits in its parent, as far as deletion is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Must stay for the parent to exist.
    Mandatory,
    /// Zero or one (`required: false`, `multiple: false`).
    Optional,
    /// Zero or more (`multiple: true`, `required: false`): a Kleene-star element.
    ListElem,
    /// One or more (`multiple: true`, `required: true`): keep at least one.
    PlusElem,
    /// Comments and other extras: always deletable.
    Extra,
    /// A parse-error region: deletable as a whole.
    Error,
}

impl Role {
    /// Whether deleting a node in this role keeps its parent grammatical.
    pub(crate) fn deletable(self) -> bool {
        !matches!(self, Role::Mandatory)
    }
}

/// What a slot allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub multiple: bool,
    pub required: bool,
    /// Kinds that may fill the slot, sorted, supertypes expanded.
    pub accepts: Vec<KindId>,
}

impl Slot {
    pub(crate) fn role(&self) -> Role {
        match (self.multiple, self.required) {
            (true, false) => Role::ListElem,
            (true, true) => Role::PlusElem,
            (false, false) => Role::Optional,
            (false, true) => Role::Mandatory,
        }
    }

    pub fn accepts(&self, kind: KindId) -> bool {
        self.accepts.binary_search(&kind).is_ok()
    }
}

#[derive(Clone, Debug, Default)]
struct KindSlots {
    fields: Vec<(String, SlotId)>,
    children: Option<SlotId>,
}

/// A word the syntax filter reads as spaces where it stands alone
/// (`syntax_blanks`).
#[derive(Clone, Debug)]
pub(crate) struct SyntaxBlank {
    pub word: Vec<u8>,
    /// The balanced parenthesized group after it goes with it, and must be
    /// there.
    pub group: bool,
    /// A word that must follow it, and stays.
    pub before: Option<Vec<u8>>,
}

/// The text around a stretch of a separated list's elements that makes it
/// a document of its own (`lists_parse_alone` in grammars/*.json): a stretch
/// that starts after the list's opening bracket is preceded by `open`, one
/// that starts after a separator by `open`, `element` and the separator;
/// likewise at its end with `close`.
#[derive(Clone, Debug)]
pub(crate) struct ListContext {
    pub open: Vec<u8>,
    pub element: Vec<u8>,
    pub close: Vec<u8>,
}

/// What a statement may become (`statement_values` in grammars/*.json):
/// the statement of a value it holds, where its parent is of one of the
/// `within` kinds.
#[derive(Clone, Debug)]
pub(crate) struct StatementValue {
    pub within: Vec<KindId>,
    /// Field names from the statement down to the value, outermost first;
    /// [`ANY_CHILD`] steps to the named children outside any field.
    pub path: Vec<String>,
    /// What ends the new statement: `None` for the statement's own last
    /// token (`int a = f();` → `f();`), else this text after the value
    /// (`if (c) {}` → `c;`, the condition as an expression statement).
    pub terminator: Option<String>,
    /// Fields of the statement kept before the value, with `joiner`
    /// between them and it: a function returning a value may become a
    /// variable holding it (Java's `K f() { return g(); }` → `K f = g();`,
    /// keeping `type` and `name`, joined by `=`). Then only a statement
    /// holding exactly one value at `path` is cut down.
    pub keep: Vec<String>,
    pub joiner: Option<String>,
}

/// The optional parts of a `statement_values` rule (see [`StatementValue`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct ValueShape<'a> {
    pub terminator: Option<&'a str>,
    pub keep: Vec<&'a str>,
    pub joiner: Option<&'a str>,
}

/// What the layout made from the tree needs to know of a grammar
/// (`layout` in grammars/*.json). Any node whose first and last children
/// are the tokens `{` and `}` is a block as well.
#[derive(Clone, Debug, Default)]
pub(crate) struct LayoutFacts {
    /// Kinds whose children go one per line, indented one step, between
    /// their first and last tokens (brackets).
    pub blocks: Vec<KindId>,
    /// Kinds whose nodes start a line wherever they are.
    pub lines: Vec<KindId>,
    /// Kinds without brackets of their own whose children go one per line
    /// at the indentation they are at (Go's `statement_list`, which a
    /// block's braces hold as their one child).
    pub lists: Vec<KindId>,
    /// Kinds that are one lexical unit (a string, a regular expression, an
    /// attribute): their tokens keep the spacing the input gave them.
    pub atoms: Vec<KindId>,
    /// Kinds without brackets whose children go one per line, one step
    /// deeper, after a line break (Python's `block`); in a language laid
    /// out by re-indenting, kinds whose inner lines go one step deeper.
    pub indented: Vec<KindId>,
    /// Kinds of an `indented` parent's children that start at the
    /// parent's depth (Bash's `else_clause`): re-indenting only.
    pub clauses: Vec<KindId>,
    /// Tokens with a space on both sides under a parent kind (Rust's `->`).
    pub spaced: Vec<(KindId, KindId)>,
    /// Tokens with no space on either side under a parent kind (Python's
    /// `=` of a keyword argument).
    pub tight: Vec<(KindId, KindId)>,
    /// Spaces per indentation step.
    pub indent: usize,
    /// Whether the layout keeps every line as the input wrote it and only
    /// indents it by depth (a language whose line breaks carry meaning).
    pub reindent: bool,
}

/// The names `layout` in grammars/*.json gives, before they are checked
/// against the grammar and made [`LayoutFacts`].
#[derive(Debug, Default)]
pub(crate) struct LayoutNames<'a> {
    pub blocks: Vec<&'a str>,
    pub lines: Vec<&'a str>,
    pub lists: Vec<&'a str>,
    pub atoms: Vec<&'a str>,
    pub indented: Vec<&'a str>,
    pub clauses: Vec<&'a str>,
    /// Parent kinds and their tokens.
    pub spaced: Vec<(&'a str, Vec<&'a str>)>,
    pub tight: Vec<(&'a str, Vec<&'a str>)>,
    pub indent: Option<usize>,
    pub reindent: bool,
}

/// The step of a `statement_values` path to the named children outside
/// any field (the expression inside C's parentheses).
pub(crate) const ANY_CHILD: &str = "*";

/// The facts about one language's node kinds.
#[derive(Clone, Debug, Default)]
pub struct Grammar {
    pub name: String,
    kinds: Vec<(String, bool)>,
    by_name: HashMap<(String, bool), KindId>,
    slots_of: HashMap<KindId, KindSlots>,
    slots: Vec<Slot>,
    supertypes: HashMap<KindId, Vec<KindId>>,
    /// Anonymous kinds that separate list elements (e.g. `,`), by parent kind.
    separators: HashMap<KindId, Vec<KindId>>,
    /// Parent kinds whose separators the data file gives: none are derived
    /// for them (`grammar/derive.rs`).
    separators_declared: rustc_hash::FxHashSet<KindId>,
    /// Kinds never deleted, whatever their slot says.
    never_delete: Vec<KindId>,
    /// Anonymous kinds that may be deleted on their own, by parent kind
    /// (tokens a hidden rule inlines into a list, which node-types omits).
    optional_tokens: HashMap<KindId, Vec<KindId>>,
    /// Texts a node of a kind may be replaced by, in the order to try them.
    replacements: HashMap<KindId, Vec<Replacement>>,
    /// The field name of each slot that is a field.
    slot_fields: HashMap<SlotId, String>,
    /// The language's consumers accept text the grammar rejects, so the
    /// default pipeline ends with a pass whose filter lets missing tokens
    /// through.
    pub consumers_accept_more: bool,
    /// How results are laid out for people (`layout`), if the language
    /// opts in: `None` keeps the input's spacing.
    pub(crate) layout: Option<LayoutFacts>,
    /// The language's own formatters (`formatters`), each a program and
    /// its arguments reading the text on stdin and printing it formatted,
    /// in the order `--format native` tries them.
    pub(crate) formatters: Vec<Vec<String>>,
    /// The text a consumer supplies at the start of a top-level item that
    /// lacks it (C's implicit `int`: `f(x) {}`), if any (`implied_text`).
    pub implied_text: Option<String>,
    /// Whether the root is a sequence of items that each parse alone (C's
    /// translation unit), so that a candidate may be checked on the items
    /// its edit touches (`top_level_items_parse_alone` in grammars/*.json).
    pub top_level_items_parse_alone: bool,
    /// Whether the next line's tokens join a line a deletion ends, after
    /// the space it leaves (`lines_join_after_deletions`).
    pub lines_join_after_deletions: bool,
    /// Words that start a top-level item and continue none: a large input
    /// may be cut into pieces after a top-level `;` or `}` that one follows
    /// (`item_starts`).
    pub item_starts: Vec<Vec<u8>>,
    /// Words the syntax filter reads as spaces (`syntax_blanks`).
    pub(crate) syntax_blanks: Vec<SyntaxBlank>,
    /// Headers of items whose braces hold items, which a large input is
    /// cut into pieces inside of (`open_blocks`).
    pub open_blocks: Vec<Vec<u8>>,
    /// Lists whose elements parse alone, and how (`lists_parse_alone`).
    list_contexts: HashMap<KindId, ListContext>,
    /// Bracketed lists whose items parse alone, and the text before and
    /// after a stretch of them (`item_lists_parse_alone`).
    item_lists: HashMap<KindId, (Vec<u8>, Vec<u8>)>,
    /// Kinds of identifier tokens, which `--rename` may shorten and
    /// identifier replacement may rewrite to another name.
    identifiers: Vec<KindId>,
    /// Kinds of tokens that are a literal's inside (`literal_insides`).
    literal_insides: Vec<KindId>,
    /// Anonymous tokens that come in pairs (brackets): the pass without the
    /// syntax filter never deletes one alone.
    paired_tokens: Vec<KindId>,
    /// Tokens a consumer supplies when they are missing, wherever the
    /// grammar needs them (C's implicit `int`): that pass's filter lets
    /// their deletion through whatever the parse says.
    implied_tokens: Vec<KindId>,
    /// Kinds whose nodes define an alias (C's `type_definition`): the field
    /// naming the alias, the field holding what it stands for, and the
    /// kinds of children that go with that where the alias is written out
    /// (C's attributes).
    aliases: Vec<(KindId, String, String, Vec<KindId>)>,
    /// Kinds whose nodes may become the statement of a value they hold
    /// (`statement_values`): the parent kinds where, and the field path to
    /// that value.
    statement_values: HashMap<KindId, StatementValue>,
    /// Kinds whose nodes may move to the top level from inside a node of
    /// one of the listed kinds (`hoists`).
    hoists: HashMap<KindId, Vec<KindId>>,
    /// Member accesses that may become a new top-level variable
    /// (`member_globals`).
    member_globals: HashMap<KindId, MemberGlobal>,
    /// Kinds whose nodes name something and hold a list whose elements
    /// go by position (`positional_lists`): the name field and the list
    /// field.
    positional_lists: HashMap<KindId, (String, String)>,
    /// Positional-list kinds that are also a class's constructor where
    /// named so (`positional_lists.*.constructor`).
    constructors: HashMap<KindId, ConstructorRule>,
    /// Positional-list kinds whose nodes right inside a class are methods:
    /// the class kind and the parameters no call passes
    /// (`positional_lists.*.method`).
    methods: HashMap<KindId, (KindId, usize)>,
    /// Parameters that may become a top-level variable
    /// (`parameter_globals`).
    parameter_globals: HashMap<KindId, ParameterGlobal>,
    /// Kinds that may give way to what their field holds between its first
    /// and last token (`unwraps`): the field, empty for the node's own
    /// first and last tokens.
    unwraps: HashMap<KindId, String>,
    /// Kinds whose separated elements may run one after another instead
    /// (`sequences`): the text each separator gives way to.
    sequences: HashMap<KindId, String>,
    /// Call kinds whose callee may be a function written in place
    /// (`immediate_calls`).
    immediate_calls: HashMap<KindId, ImmediateRule>,
    /// Directives that include another file (`includes`): the field
    /// holding the path, and the kind of path that names a file beside
    /// the includer (C's quoted `"util.h"`, not `<stdio.h>`).
    includes: HashMap<KindId, (String, KindId)>,
    /// Which nodes declare names, and where (`names`).
    pub(crate) names: names::NameFacts,
}

/// How a member access names its member and where members are declared
/// (`member_globals` in grammars/*.json).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemberGlobal {
    /// The access's field holding the member's name (one token).
    pub member_field: String,
    /// The kind of node that declares members.
    pub declaration: KindId,
    /// Its field holding each declarator.
    pub declarator_field: String,
}

/// How a parameter names what it declares and how a top-level variable
/// is declared (`parameter_globals` in grammars/*.json).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParameterGlobal {
    /// The parameter's field holding its declarator (the name and what
    /// goes around it, `*b`).
    pub declarator_field: String,
    /// The kind of top-level node that declares variables.
    pub declaration: KindId,
    /// Its field holding each declarator.
    pub declaration_declarator: String,
    /// What goes between two declarators of one declaration.
    pub separator: String,
    /// What ends a declaration.
    pub terminator: String,
}

/// A text a node may be replaced by (`grammars/*.json`, key `replacements`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Replacement {
    pub text: Arc<[u8]>,
    /// Only where the node fills a field of this name; anywhere if `None`.
    pub field: Option<String>,
}

impl Grammar {
    /// An empty grammar: every kind unknown, every child mandatory.
    pub fn empty(name: &str) -> Self {
        Grammar {
            name: name.to_string(),
            ..Grammar::default()
        }
    }

    /// Reads a tree-sitter `node-types.json`.
    pub(crate) fn from_node_types(name: &str, json: &str) -> Result<Self> {
        let entries: Vec<Value> = serde_json::from_str(json)
            .with_context(|| format!("{name}: node-types is not a JSON array"))?;
        let mut g = Grammar::empty(name);
        // Register every kind first so slots can name them.
        for e in &entries {
            let (kind, named) = type_ref(e).with_context(|| format!("{name}: bad entry {e}"))?;
            g.kind_id(&kind, named);
            for sub in e["subtypes"].as_array().into_iter().flatten() {
                let (k, n) = type_ref(sub)?;
                g.kind_id(&k, n);
            }
        }
        for e in &entries {
            let (kind, named) = type_ref(e)?;
            let id = g.kind_id(&kind, named);
            if let Some(subs) = e["subtypes"].as_array() {
                let ids = subs
                    .iter()
                    .map(|s| type_ref(s).map(|(k, n)| g.kind_id(&k, n)))
                    .collect::<Result<Vec<_>>>()?;
                g.supertypes.insert(id, ids);
            }
        }
        for e in &entries {
            let (kind, named) = type_ref(e)?;
            let id = g.kind_id(&kind, named);
            let mut slots = KindSlots::default();
            if let Some(fields) = e["fields"].as_object() {
                for (field, spec) in fields {
                    let slot = g.read_slot(spec)?;
                    slots.fields.push((field.clone(), slot));
                    g.slot_fields.insert(slot, field.clone());
                }
            }
            if e["children"].is_object() {
                slots.children = Some(g.read_slot(&e["children"])?);
            }
            g.slots_of.insert(id, slots);
        }
        Ok(g)
    }

    fn read_slot(&mut self, spec: &Value) -> Result<SlotId> {
        let multiple = spec["multiple"].as_bool().unwrap_or(false);
        let required = spec["required"].as_bool().unwrap_or(false);
        let mut accepts = Vec::new();
        for t in spec["types"].as_array().into_iter().flatten() {
            let (k, n) = type_ref(t)?;
            let id = self.kind_id(&k, n);
            accepts.push(id);
        }
        // Expand supertypes (transitively) to the kinds that can really appear.
        let mut i = 0;
        while i < accepts.len() {
            if let Some(subs) = self.supertypes.get(&accepts[i]) {
                for &s in subs {
                    if !accepts.contains(&s) {
                        accepts.push(s);
                    }
                }
            }
            i += 1;
        }
        accepts.sort_unstable();
        accepts.dedup();
        self.slots.push(Slot {
            multiple,
            required,
            accepts,
        });
        Ok(self.slots.len() as SlotId - 1)
    }

    /// The id of a kind, registering it if new.
    pub(crate) fn kind_id(&mut self, name: &str, named: bool) -> KindId {
        if let Some(&id) = self.by_name.get(&(name.to_string(), named)) {
            return id;
        }
        let id = self.kinds.len() as KindId;
        self.kinds.push((name.to_string(), named));
        self.by_name.insert((name.to_string(), named), id);
        id
    }

    /// The id of a known kind.
    pub(crate) fn find_kind(&self, name: &str, named: bool) -> Option<KindId> {
        self.by_name.get(&(name.to_string(), named)).copied()
    }

    #[cfg(test)]
    pub(crate) fn kind_name(&self, kind: KindId) -> &str {
        &self.kinds[kind as usize].0
    }

    pub(crate) fn is_named(&self, kind: KindId) -> bool {
        self.kinds[kind as usize].1
    }

    pub(crate) fn slot(&self, slot: SlotId) -> &Slot {
        &self.slots[slot as usize]
    }

    /// The slot a child fills in a `parent` node: its field's, or, for a named
    /// child outside any field, the unnamed children's. `None` for anonymous
    /// tokens outside fields (punctuation, keywords), which are mandatory.
    pub(crate) fn slot_of(
        &self,
        parent: KindId,
        field: Option<&str>,
        child_named: bool,
    ) -> Option<SlotId> {
        let slots = self.slots_of.get(&parent)?;
        match field {
            Some(f) => slots
                .fields
                .iter()
                .find(|(name, _)| name == f)
                .map(|&(_, s)| s),
            None if child_named => slots.children,
            None => None,
        }
    }

    /// Whether `kind` is listed as never to be deleted.
    pub(crate) fn never_deleted(&self, kind: KindId) -> bool {
        self.never_delete.contains(&kind)
    }

    /// Whether `token_kind` separates elements inside a `parent` node.
    pub(crate) fn is_separator(&self, parent: KindId, token_kind: KindId) -> bool {
        self.separators
            .get(&parent)
            .is_some_and(|seps| seps.contains(&token_kind))
    }

    /// Whether `parent` nodes have separated elements at all.
    pub(crate) fn has_separators(&self, parent: KindId) -> bool {
        self.separators.contains_key(&parent)
    }

    /// Declares that `separator` tokens separate the elements of `parent` nodes.
    pub(crate) fn add_separator(&mut self, parent: &str, separator: &str) -> Result<()> {
        let Some(p) = self.find_kind(parent, true) else {
            bail!("{}: unknown node kind `{parent}`", self.name);
        };
        let Some(s) = self.find_kind(separator, false) else {
            bail!("{}: unknown token `{separator}`", self.name);
        };
        self.separators.entry(p).or_default().push(s);
        self.separators_declared.insert(p);
        Ok(())
    }

    /// Whether `token_kind`, outside any field of a `parent` node, may be
    /// deleted on its own.
    pub(crate) fn is_optional_token(&self, parent: KindId, token_kind: KindId) -> bool {
        self.optional_tokens
            .get(&parent)
            .is_some_and(|tokens| tokens.contains(&token_kind))
    }

    /// Declares that `token` tokens directly under `parent` nodes may be
    /// deleted on their own.
    pub(crate) fn add_optional_token(&mut self, parent: &str, token: &str) -> Result<()> {
        let Some(p) = self.find_kind(parent, true) else {
            bail!("{}: unknown node kind `{parent}`", self.name);
        };
        let Some(t) = self.find_kind(token, false) else {
            bail!("{}: unknown token `{token}`", self.name);
        };
        self.optional_tokens.entry(p).or_default().push(t);
        Ok(())
    }

    /// Declares that nodes of `kind` are never deleted.
    pub(crate) fn add_never_delete(&mut self, kind: &str) -> Result<()> {
        let Some(k) = self.find_kind(kind, true) else {
            bail!("{}: unknown node kind `{kind}`", self.name);
        };
        self.never_delete.push(k);
        Ok(())
    }

    /// Marks `kind` (named) as an identifier kind (for `--rename` and
    /// identifier replacement).
    pub(crate) fn add_identifier(&mut self, kind: &str) -> Result<()> {
        let Some(k) = self.find_kind(kind, true) else {
            bail!("{}: unknown node kind `{kind}`", self.name);
        };
        self.identifiers.push(k);
        Ok(())
    }

    /// Marks `kind` (named) as a literal's inside (for the interiors pass).
    pub(crate) fn add_literal_inside(&mut self, kind: &str) -> Result<()> {
        let Some(k) = self.find_kind(kind, true) else {
            bail!("{}: unknown node kind `{kind}`", self.name);
        };
        self.literal_insides.push(k);
        Ok(())
    }

    /// Whether the language names any literal insides.
    pub(crate) fn has_literal_insides(&self) -> bool {
        !self.literal_insides.is_empty()
    }

    /// Whether a token of `kind` whose parent is of kind `parent` is a
    /// literal's inside: its kind is one, or it is anonymous right under
    /// one.
    pub(crate) fn is_literal_inside(&self, kind: KindId, parent: Option<KindId>) -> bool {
        self.literal_insides.contains(&kind)
            || (!self.is_named(kind) && parent.is_some_and(|p| self.literal_insides.contains(&p)))
    }

    /// Declares that the elements of a `kind` list parse alone between
    /// `open` and `close`, beside the stand-in element `element` (see
    /// [`ListContext`]).
    pub(crate) fn add_list_context(&mut self, kind: &str, texts: [&str; 3]) -> Result<()> {
        let Some(k) = self.find_kind(kind, true) else {
            bail!("{}: unknown node kind `{kind}`", self.name);
        };
        let [open, element, close] = texts.map(|t| t.as_bytes().to_vec());
        self.list_contexts.insert(
            k,
            ListContext {
                open,
                element,
                close,
            },
        );
        Ok(())
    }

    /// Declares that the items of a `kind` list parse alone between `open`
    /// and `close`.
    pub(crate) fn add_item_list(&mut self, kind: &str, open: &str, close: &str) -> Result<()> {
        let Some(k) = self.find_kind(kind, true) else {
            bail!("{}: unknown node kind `{kind}`", self.name);
        };
        let texts = (open.as_bytes().to_vec(), close.as_bytes().to_vec());
        self.item_lists.insert(k, texts);
        Ok(())
    }

    /// The text before and after a stretch of a `kind` list's items that
    /// makes it a document of its own, if it can be parsed alone.
    pub(crate) fn item_list(&self, kind: KindId) -> Option<(&[u8], &[u8])> {
        let (open, close) = self.item_lists.get(&kind)?;
        Some((open, close))
    }

    /// Whether some list's items, or the root's, parse alone.
    pub(crate) fn has_item_lists(&self) -> bool {
        self.top_level_items_parse_alone || !self.item_lists.is_empty()
    }

    /// How a stretch of a `kind` list's elements is parsed alone, if it can be.
    pub(crate) fn list_context(&self, kind: KindId) -> Option<&ListContext> {
        self.list_contexts.get(&kind)
    }

    /// Marks the anonymous token `token` as one half of a bracket pair.
    pub(crate) fn add_paired_token(&mut self, token: &str) -> Result<()> {
        let Some(k) = self.find_kind(token, false) else {
            bail!("{}: unknown token `{token}`", self.name);
        };
        self.paired_tokens.push(k);
        Ok(())
    }

    /// Declares that a consumer supplies tokens of `kind` (a named kind,
    /// else an anonymous one) when they are missing.
    pub(crate) fn add_implied_token(&mut self, kind: &str) -> Result<()> {
        let Some(k) = self
            .find_kind(kind, true)
            .or_else(|| self.find_kind(kind, false))
        else {
            bail!("{}: unknown token `{kind}`", self.name);
        };
        self.implied_tokens.push(k);
        Ok(())
    }

    /// Whether a consumer supplies tokens of `kind` when they are missing.
    pub(crate) fn is_implied_token(&self, kind: KindId) -> bool {
        self.implied_tokens.contains(&kind)
    }

    /// Whether any token kind is implied.
    pub(crate) fn has_implied_tokens(&self) -> bool {
        !self.implied_tokens.is_empty()
    }

    /// Whether tokens of `kind` are one half of a bracket pair.
    pub(crate) fn is_paired_token(&self, kind: KindId) -> bool {
        self.paired_tokens.contains(&kind)
    }

    /// Which bracket pair tokens of `kind` belong to (an index), and whether
    /// they open it; `None` for tokens that are no bracket. `paired_tokens`
    /// lists each pair's opening token, then its closing one.
    pub(crate) fn bracket(&self, kind: KindId) -> Option<(usize, bool)> {
        let at = self.paired_tokens.iter().position(|&k| k == kind)?;
        Some((at / 2, at % 2 == 0))
    }

    /// Whether tokens of `kind` are identifiers (names).
    pub(crate) fn is_identifier(&self, kind: KindId) -> bool {
        self.identifiers.contains(&kind)
    }

    /// The texts a node of `kind` may be replaced by, in the order to try
    /// them (empty for most kinds); see [`Self::replacement_fits`].
    pub(crate) fn replacements(&self, kind: KindId) -> &[Replacement] {
        self.replacements.get(&kind).map_or(&[], Vec::as_slice)
    }

    /// Declares that a node of `kind` defines an alias: its child in field
    /// `name` names it, its child in field `target` is what it stands for,
    /// together with its children of the kinds `along` (C's attributes).
    /// `name` may be a path of fields joined by `/` (Rust's `use a::B;`:
    /// `argument/name`, the name inside the target).
    pub(crate) fn add_alias(
        &mut self,
        kind: &str,
        name: &str,
        target: &str,
        along: &[&str],
    ) -> Result<()> {
        let mut steps = name.split('/');
        let first = steps.next().unwrap_or_default();
        let k = self.kind_with_fields(kind, &[first, target])?;
        self.check_fields(kind, &steps.collect::<Vec<_>>())?;
        let along = self.named_kinds(along)?;
        self.aliases
            .push((k, name.to_string(), target.to_string(), along));
        Ok(())
    }

    /// If a node of `kind` defines an alias, the fields naming it and
    /// holding what it stands for.
    pub(crate) fn alias_fields(&self, kind: KindId) -> Option<(&str, &str)> {
        self.aliases
            .iter()
            .find(|(k, ..)| *k == kind)
            .map(|(_, name, target, _)| (name.as_str(), target.as_str()))
    }

    /// The kinds of an alias definition's children that go with its
    /// target where the alias is written out.
    pub(crate) fn alias_along(&self, kind: KindId) -> &[KindId] {
        self.aliases
            .iter()
            .find(|(k, ..)| *k == kind)
            .map_or(&[], |(.., along)| along.as_slice())
    }

    /// Whether nodes of `kind` have a field called `field`.
    fn kind_has_field(&self, kind: KindId, field: &str) -> bool {
        self.slots_of
            .get(&kind)
            .is_some_and(|slots| slots.fields.iter().any(|(f, _)| f == field))
    }

    /// Whether some kind has a field called `field`.
    fn has_field(&self, field: &str) -> bool {
        self.slots_of.keys().any(|&k| self.kind_has_field(k, field))
    }

    fn named_kind(&self, kind: &str) -> Result<KindId> {
        self.find_kind(kind, true)
            .with_context(|| format!("{}: unknown node kind `{kind}`", self.name))
    }

    /// The named kind `kind`, which must have each of `fields`.
    fn kind_with_fields(&self, kind: &str, fields: &[&str]) -> Result<KindId> {
        let k = self.named_kind(kind)?;
        for field in fields {
            if !self.kind_has_field(k, field) {
                bail!("{}: `{kind}` has no field `{field}`", self.name);
            }
        }
        Ok(k)
    }

    fn check_fields(&self, kind: &str, fields: &[&str]) -> Result<()> {
        for field in fields {
            if !self.has_field(field) {
                bail!("{}: `{kind}`: no kind has a field `{field}`", self.name);
            }
        }
        Ok(())
    }

    /// Opts in to the layout made from the tree, with the kinds and
    /// tokens `names` gives.
    pub(crate) fn set_layout(&mut self, names: &LayoutNames<'_>) -> Result<()> {
        let tokens = |rules: &[(&str, Vec<&str>)]| -> Result<Vec<(KindId, KindId)>> {
            let mut out = Vec::new();
            for (parent, tokens) in rules {
                let p = self.named_kind(parent)?;
                for t in tokens {
                    let k = self
                        .find_kind(t, false)
                        .with_context(|| format!("{}: unknown token `{t}`", self.name))?;
                    out.push((p, k));
                }
            }
            Ok(out)
        };
        let facts = LayoutFacts {
            blocks: self.named_kinds(&names.blocks)?,
            lines: self.named_kinds(&names.lines)?,
            lists: self.named_kinds(&names.lists)?,
            atoms: self.named_kinds(&names.atoms)?,
            indented: self.named_kinds(&names.indented)?,
            clauses: self.named_kinds(&names.clauses)?,
            spaced: tokens(&names.spaced)?,
            tight: tokens(&names.tight)?,
            indent: names.indent.unwrap_or(2),
            reindent: names.reindent,
        };
        self.layout = Some(facts);
        Ok(())
    }

    /// Declares that a node of `kind` under a parent of a kind in `within`
    /// may become the statement of the value at `path` (field names,
    /// outermost first, or [`ANY_CHILD`]) under it: that value followed by
    /// `terminator`, or by the node's own last token when there is none
    /// (`int a = f();` → `f();` in a block, `if (c) {}` → `c;`).
    pub(crate) fn add_statement_value(
        &mut self,
        kind: &str,
        within: &[&str],
        path: &[&str],
        shape: ValueShape<'_>,
    ) -> Result<()> {
        let k = self.named_kind(kind)?;
        if path.is_empty() || within.is_empty() {
            bail!(
                "{}: the statement value of `{kind}` needs parent kinds and a field path",
                self.name
            );
        }
        if shape.keep.is_empty() != shape.joiner.is_none() {
            bail!(
                "{}: the statement value of `{kind}` keeps fields with a joiner, or neither",
                self.name
            );
        }
        let fields: Vec<&str> = path.iter().copied().filter(|&f| f != ANY_CHILD).collect();
        self.check_fields(kind, &fields)?;
        self.check_fields(kind, &shape.keep)?;
        let within = self.named_kinds(within)?;
        let owned = |texts: &[&str]| texts.iter().map(|f| f.to_string()).collect();
        let rule = StatementValue {
            within,
            path: owned(path),
            terminator: shape.terminator.map(str::to_string),
            keep: owned(&shape.keep),
            joiner: shape.joiner.map(str::to_string),
        };
        self.statement_values.insert(k, rule);
        Ok(())
    }

    /// What a node of `kind` under a parent of kind `parent` may be cut
    /// down to (`statement_values`), if anything.
    pub(crate) fn statement_value(&self, kind: KindId, parent: KindId) -> Option<&StatementValue> {
        self.statement_values
            .get(&kind)
            .filter(|rule| rule.within.contains(&parent))
    }

    fn named_kinds(&self, kinds: &[&str]) -> Result<Vec<KindId>> {
        kinds.iter().map(|k| self.named_kind(k)).collect()
    }

    /// Declares that a node of `kind` whose parent is of a kind in
    /// `parents` may move to the top level (a local declaration to file
    /// scope).
    pub(crate) fn add_hoist(&mut self, kind: &str, parents: &[&str]) -> Result<()> {
        let k = self.named_kind(kind)?;
        let parents = self.named_kinds(parents)?;
        if parents.is_empty() {
            bail!("{}: hoists of `{kind}` name no parent kind", self.name);
        }
        self.hoists.insert(k, parents);
        Ok(())
    }

    /// Whether any kind may move to the top level.
    pub(crate) fn has_hoists(&self) -> bool {
        !self.hoists.is_empty()
    }

    /// Whether a node of `kind` under a parent of `parent`'s kind may move
    /// to the top level.
    pub(crate) fn hoists_from(&self, kind: KindId, parent: KindId) -> bool {
        self.hoists.get(&kind).is_some_and(|p| p.contains(&parent))
    }

    /// Declares that a node of `kind`, a member access naming its member in
    /// field `member`, may become a new top-level variable declared as
    /// that member is: by a node of kind `declaration`, in its field
    /// `declarator`.
    pub(crate) fn add_member_global(
        &mut self,
        kind: &str,
        member: &str,
        declaration: &str,
        declarator: &str,
    ) -> Result<()> {
        let k = self.named_kind(kind)?;
        let declaration_kind = self.named_kind(declaration)?;
        self.check_fields(kind, &[member, declarator])?;
        self.member_globals.insert(
            k,
            MemberGlobal {
                member_field: member.to_string(),
                declaration: declaration_kind,
                declarator_field: declarator.to_string(),
            },
        );
        Ok(())
    }

    /// How a node of `kind` names a member, if it is a member access that
    /// may become a top-level variable.
    pub(crate) fn member_global(&self, kind: KindId) -> Option<&MemberGlobal> {
        self.member_globals.get(&kind)
    }

    /// All member-access rules (to index the declarations once per tree).
    pub(crate) fn member_globals(&self) -> impl Iterator<Item = &MemberGlobal> {
        self.member_globals.values()
    }

    /// Declares that a node of `kind` names something in field `name` and
    /// holds, in field `list`, a list whose elements go by position: the
    /// lists of all such nodes naming the same thing (a function's
    /// parameters, every call's arguments) may lose their `i`-th elements
    /// together.
    pub(crate) fn add_positional_list(&mut self, kind: &str, name: &str, list: &str) -> Result<()> {
        // The name is a field of the node, or a path of fields (`*`: a
        // named child outside any field) down from it, `/` between steps;
        // `|` between paths tried in turn.
        let k = self.kind_with_fields(kind, &[list])?;
        for path in name.split('|') {
            match path.split_once('/') {
                None => {
                    self.kind_with_fields(kind, &[path])?;
                }
                Some(_) => {
                    let steps: Vec<&str> = path.split('/').filter(|&s| s != ANY_CHILD).collect();
                    self.check_fields(kind, &steps)?;
                }
            }
        }
        self.positional_lists
            .insert(k, (name.to_string(), list.to_string()));
        Ok(())
    }

    /// The name field and list field of a node of `kind`, if its list's
    /// elements go by position (`positional_lists`).
    pub(crate) fn positional_list(&self, kind: KindId) -> Option<(&str, &str)> {
        self.positional_lists
            .get(&kind)
            .map(|(name, list)| (name.as_str(), list.as_str()))
    }

    /// Declares that a node of positional-list `kind` named `method` is
    /// the constructor of its nearest `class` ancestor, which names it in
    /// field `class_name`, its first `skip` parameters passed by no call.
    pub(crate) fn add_constructor(
        &mut self,
        kind: &str,
        method: &str,
        class: &str,
        class_name: &str,
        skip: usize,
    ) -> Result<()> {
        let k = self.named_kind(kind)?;
        let class = self.kind_with_fields(class, &[class_name])?;
        let rule = ConstructorRule {
            method: method.as_bytes().to_vec(),
            class,
            class_name: class_name.to_string(),
            skip,
        };
        self.constructors.insert(k, rule);
        Ok(())
    }

    /// Declares that a node of positional-list `kind` right inside a
    /// `class` is a method whose first `skip` parameters no call passes.
    pub(crate) fn add_method(&mut self, kind: &str, class: &str, skip: usize) -> Result<()> {
        let k = self.named_kind(kind)?;
        let class = self.named_kind(class)?;
        self.methods.insert(k, (class, skip));
        Ok(())
    }

    /// The class kind a method of positional-list `kind` is right inside,
    /// and how many first parameters no call passes.
    pub(crate) fn method(&self, kind: KindId) -> Option<(KindId, usize)> {
        self.methods.get(&kind).copied()
    }

    /// How a node of positional-list `kind` may be a class's constructor.
    pub(crate) fn constructor(&self, kind: KindId) -> Option<&ConstructorRule> {
        self.constructors.get(&kind)
    }

    /// Declares that a parameter of `kind` may become a top-level variable
    /// (see [`ParameterGlobal`]).
    pub(crate) fn add_parameter_global(&mut self, kind: &str, rule: [&str; 5]) -> Result<()> {
        let [
            declarator,
            declaration,
            declaration_declarator,
            separator,
            terminator,
        ] = rule;
        let k = self.kind_with_fields(kind, &[declarator])?;
        let declaration_kind = self.kind_with_fields(declaration, &[declaration_declarator])?;
        self.parameter_globals.insert(
            k,
            ParameterGlobal {
                declarator_field: declarator.to_string(),
                declaration: declaration_kind,
                declaration_declarator: declaration_declarator.to_string(),
                separator: separator.to_string(),
                terminator: terminator.to_string(),
            },
        );
        Ok(())
    }

    /// How a parameter of `kind` may become a top-level variable, if it may.
    pub(crate) fn parameter_global(&self, kind: KindId) -> Option<&ParameterGlobal> {
        self.parameter_globals.get(&kind)
    }

    /// The kinds of top-level declarations parameters may join.
    pub(crate) fn global_declarations(&self) -> impl Iterator<Item = KindId> + '_ {
        self.parameter_globals.values().map(|r| r.declaration)
    }

    /// Declares that a node of `kind` may give way to the inside of the
    /// node filling its `field` (C++'s `namespace n { int a; }` → `int
    /// a;`): all its tokens but those between that node's first and last.
    /// Without a field, the node's own first and last tokens are the
    /// brackets (Rust's `{B}` in `use a::{B};`), stored as an empty field.
    pub(crate) fn add_unwrap(&mut self, kind: &str, field: Option<&str>) -> Result<()> {
        let fields: Vec<&str> = field.into_iter().collect();
        let k = self.kind_with_fields(kind, &fields)?;
        self.unwraps
            .insert(k, field.unwrap_or_default().to_string());
        Ok(())
    }

    /// The field whose inside a node of `kind` may give way to (`unwraps`);
    /// empty for the node's own first and last tokens.
    pub(crate) fn unwrap_field(&self, kind: KindId) -> Option<&str> {
        self.unwraps.get(&kind).map(String::as_str)
    }

    /// Declares that the separated elements of a node of `kind` may run
    /// one after another, each separator giving way to `text` (Bash's
    /// `a | b` → `a` and `b` on lines of their own).
    pub(crate) fn add_sequence(&mut self, kind: &str, text: &str) -> Result<()> {
        let k = self.named_kind(kind)?;
        self.sequences.insert(k, text.to_string());
        Ok(())
    }

    /// Declares that a call of `kind` may call a function written in
    /// place (`immediate_calls`).
    pub(crate) fn add_immediate_call(
        &mut self,
        kind: &str,
        call: &schema::ImmediateCall,
    ) -> Result<()> {
        let k = self.kind_with_fields(kind, &[&call.callee, &call.arguments])?;
        let functions = call
            .functions
            .iter()
            .map(|f| self.kind_with_fields(f, &[&call.parameters, &call.body]))
            .collect::<Result<Vec<_>>>()?;
        let rule = ImmediateRule {
            callee: call.callee.clone(),
            arguments: call.arguments.clone(),
            functions,
            parameters: call.parameters.clone(),
            body: call.body.clone(),
            statement: self.named_kind(&call.statement)?,
        };
        self.immediate_calls.insert(k, rule);
        Ok(())
    }

    /// How a call of `kind` may call a function written in place.
    pub(crate) fn immediate_call(&self, kind: KindId) -> Option<&ImmediateRule> {
        self.immediate_calls.get(&kind)
    }

    /// The text a separator of a node of `kind` may give way to (`sequences`).
    pub(crate) fn sequence_text(&self, kind: KindId) -> Option<&str> {
        self.sequences.get(&kind).map(String::as_str)
    }

    /// Declares that a node of `kind` includes the file its `field` names
    /// when that field holds a node of `local` kind (`includes`).
    pub(crate) fn add_include(&mut self, kind: &str, field: &str, local: &str) -> Result<()> {
        let k = self.kind_with_fields(kind, &[field])?;
        let local = self.named_kind(local)?;
        self.includes.insert(k, (field.to_string(), local));
        Ok(())
    }

    /// The path field of an include directive of `kind`, and the kind of
    /// path that names a file beside the includer (`includes`).
    pub(crate) fn include(&self, kind: KindId) -> Option<(&str, KindId)> {
        self.includes.get(&kind).map(|(f, l)| (f.as_str(), *l))
    }

    /// Whether the language has include directives (`includes`).
    pub(crate) fn has_includes(&self) -> bool {
        !self.includes.is_empty()
    }

    /// Whether a node of `kind` has a structural rewrite the simplify
    /// pass proposes (a statement value, a member global, an alias
    /// written out everywhere, a position dropped from every list of a
    /// name, a parameter made a global, an unwrap or a sequence; hoists
    /// have a phase of their own).
    pub(crate) fn has_structural_rewrite(&self, kind: KindId) -> bool {
        self.unwraps.contains_key(&kind)
            || self.sequences.contains_key(&kind)
            || self.statement_values.contains_key(&kind)
            || self.member_globals.contains_key(&kind)
            || self.alias_fields(kind).is_some()
            || self.positional_lists.contains_key(&kind)
            || self.parameter_globals.contains_key(&kind)
            || self.immediate_calls.contains_key(&kind)
    }

    /// The field name of `slot`, if it is a field.
    pub(crate) fn field_name(&self, slot: Option<SlotId>) -> Option<&str> {
        slot.and_then(|s| self.slot_fields.get(&s))
            .map(String::as_str)
    }

    /// Whether `replacement` applies to a node that fills `slot` (the
    /// node's [`crate::tree::Tree::slot`]).
    pub(crate) fn replacement_fits(&self, replacement: &Replacement, slot: Option<SlotId>) -> bool {
        match &replacement.field {
            None => true,
            Some(field) => slot.and_then(|s| self.slot_fields.get(&s)) == Some(field),
        }
    }

    /// Declares that a node of `kind` may be replaced by `text` (tried after
    /// the texts declared before it), anywhere or, with `field`, only where
    /// it fills a field of that name (which some kind must have, accepting
    /// `kind`). The text must not be blank: deleting is the deletion
    /// policies' business.
    pub(crate) fn add_replacement(
        &mut self,
        kind: &str,
        field: Option<&str>,
        text: &str,
    ) -> Result<()> {
        let Some(k) = self.find_kind(kind, true) else {
            bail!("{}: unknown node kind `{kind}`", self.name);
        };
        if let Some(f) = field {
            let fits = self
                .slot_fields
                .iter()
                .any(|(&slot, name)| name == f && self.slots[slot as usize].accepts(k));
            if !fits {
                bail!("{}: no field `{f}` takes a `{kind}`", self.name);
            }
        }
        if text.trim().is_empty() {
            bail!("{}: a blank replacement for `{kind}`", self.name);
        }
        let replacement = Replacement {
            text: Arc::from(text.as_bytes()),
            field: field.map(str::to_string),
        };
        let texts = self.replacements.entry(k).or_default();
        if texts.contains(&replacement) {
            bail!(
                "{}: replacement `{text}` listed twice for `{kind}`",
                self.name
            );
        }
        texts.push(replacement);
        Ok(())
    }
}

fn type_ref(v: &Value) -> Result<(String, bool)> {
    let kind = v["type"]
        .as_str()
        .context("a node type without a `type` string")?
        .to_string();
    let named = v["named"].as_bool().unwrap_or(true);
    Ok((kind, named))
}

/// A call kind whose callee may be a function written in place
/// (`immediate_calls`), with its function kinds resolved.
#[derive(Clone, Debug)]
pub(crate) struct ImmediateRule {
    /// The call's field holding the callee.
    pub callee: String,
    /// The call's field holding the arguments.
    pub arguments: String,
    /// Kinds of functions written in place.
    pub functions: Vec<KindId>,
    /// The function's field holding its parameters.
    pub parameters: String,
    /// The function's field holding its body.
    pub body: String,
    /// The statement a call must be all of for a block body to replace it.
    pub statement: KindId,
}

/// A positional-list kind that constructs its class where named so
/// (`positional_lists.*.constructor`).
#[derive(Clone, Debug)]
pub(crate) struct ConstructorRule {
    /// The constructor's name (`__init__`).
    pub method: Vec<u8>,
    /// The kind of class it constructs (its nearest ancestor of the kind).
    pub class: KindId,
    /// That kind's field naming the class.
    pub class_name: String,
    /// How many of its first parameters no call passes (`self`).
    pub skip: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOY: &str = r#"[
      {"type": "statement", "named": true, "subtypes": [
        {"type": "call", "named": true}, {"type": "block", "named": true}]},
      {"type": "block", "named": true, "fields": {},
       "children": {"multiple": true, "required": false, "types": [{"type": "statement", "named": true}]}},
      {"type": "call", "named": true, "fields": {
        "function": {"multiple": false, "required": true, "types": [{"type": "identifier", "named": true}]},
        "label": {"multiple": false, "required": false, "types": [{"type": "identifier", "named": true}]}}},
      {"type": "identifier", "named": true},
      {"type": ";", "named": false}
    ]"#;

    #[test]
    fn slots_come_from_fields_and_unnamed_children() {
        let g = Grammar::from_node_types("toy", TOY).unwrap();
        let block = g.find_kind("block", true).unwrap();
        let call = g.find_kind("call", true).unwrap();
        let elems = g.slot_of(block, None, true).unwrap();
        assert_eq!(g.slot(elems).role(), Role::ListElem);
        assert!(g.slot(elems).accepts(call) && g.slot(elems).accepts(block));
        let function = g.slot_of(call, Some("function"), true).unwrap();
        assert_eq!(g.slot(function).role(), Role::Mandatory);
        let label = g.slot_of(call, Some("label"), true).unwrap();
        assert_eq!(g.slot(label).role(), Role::Optional);
        assert_eq!(g.slot_of(block, None, false), None);
    }

    #[test]
    fn separators_and_never_delete_must_name_known_kinds() {
        let mut g = Grammar::from_node_types("toy", TOY).unwrap();
        assert!(g.add_separator("block", ";").is_ok());
        assert!(g.add_separator("blok", ";").is_err());
        assert!(g.add_never_delete("nonesuch").is_err());
        let block = g.find_kind("block", true).unwrap();
        let semi = g.find_kind(";", false).unwrap();
        assert!(g.is_separator(block, semi));
    }

    #[test]
    fn replacements_must_name_known_kinds_and_fields_and_keep_their_order() {
        let mut g = Grammar::from_node_types("toy", TOY).unwrap();
        assert!(g.add_replacement("call", None, "0").is_ok());
        assert!(g.add_replacement("call", None, "1").is_ok());
        assert!(g.add_replacement("identifier", Some("label"), "x").is_ok());
        assert!(g.add_replacement("call", None, "0").is_err());
        assert!(g.add_replacement("call", None, " ").is_err());
        assert!(g.add_replacement("cal", None, "0").is_err());
        assert!(g.add_replacement(";", None, "0").is_err());
        assert!(
            g.add_replacement("identifier", Some("labell"), "x")
                .is_err()
        );
        assert!(g.add_replacement("call", Some("label"), "x").is_err());
        let call = g.find_kind("call", true).unwrap();
        let block = g.find_kind("block", true).unwrap();
        let identifier = g.find_kind("identifier", true).unwrap();
        let texts: Vec<&[u8]> = g.replacements(call).iter().map(|r| &r.text[..]).collect();
        assert_eq!(texts, [&b"0"[..], b"1"]);
        assert!(g.replacements(block).is_empty());
        let [label_only] = g.replacements(identifier) else {
            panic!("one replacement")
        };
        let label = g.slot_of(call, Some("label"), true);
        let function = g.slot_of(call, Some("function"), true);
        assert!(g.replacement_fits(label_only, label));
        assert!(!g.replacement_fits(label_only, function));
        assert!(!g.replacement_fits(label_only, None));
        assert!(g.replacement_fits(&g.replacements(call)[0], None));
    }
}

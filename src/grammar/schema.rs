//! The format of a language's data file, `grammars/<lang>.json`, as types.
//!
//! Why: the files were read by hand from untyped JSON, where a rule was a
//! positional array (`["declarator", "declaration", "declarator", ",",
//! ";"]`) and an empty string could stand for "the node's own ends". Here
//! every part has a name and a doc comment saying what it means and which
//! pass uses it, serde refuses a key the types lack (a typo never silently
//! disables an entry) and [`parse`] names the nearest known key, and the
//! reference in `grammars/README.md` is checked against these types (a
//! test below). `grammar/data.rs` turns a parsed file into grammar facts,
//! checking every kind and field it names against the grammar.

use std::collections::BTreeMap;
use std::fmt;

use anyhow::{Result, anyhow};
use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// Entries by node kind. A `BTreeMap`, so that rules are applied in the
/// order of their kinds' names, whatever the file's order.
pub(crate) type ByKind<T> = BTreeMap<String, T>;

/// A whole data file (`grammars/README.md` describes each key at length).
/// Every key but `description` is optional; an absent one says nothing.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct GrammarFile {
    /// Documentation for people: what the file is for and why each entry
    /// is there (JSON has no comments). Required; no pass reads it.
    pub description: String,
    /// Parent kinds to the anonymous tokens separating their list
    /// elements, deleted with an element by the tree's list deletion
    /// (`tree/mod.rs`); a parent listed here gets no derived separators
    /// (`grammar/derive.rs`). Also read by the token-window pass and the
    /// simplify pass's `sequences`.
    #[serde(default)]
    pub separators: ByKind<Vec<String>>,
    /// Parent kinds to anonymous tokens that, directly under such a parent
    /// and outside any field, the deletion passes may delete on their own
    /// (the tree's roles, `tree/mod.rs`).
    #[serde(default)]
    pub optional_tokens: ByKind<Vec<String>>,
    /// Named kinds whose nodes no pass deletes, whatever their slot says
    /// (the tree's roles).
    #[serde(default)]
    pub never_delete: Vec<String>,
    /// Node kinds, or `<kind> as <field>` for a node filling that field,
    /// to the texts the simplify pass may replace such a node by, in the
    /// order it tries them.
    #[serde(default)]
    pub replacements: BTreeMap<String, Vec<String>>,
    /// Whether the language's consumers accept text the grammar rejects
    /// (C's implicit `int`): the default pipeline then ends with a scan of
    /// single-token deletions under a lenient syntax filter (`pipeline.rs`,
    /// `syntax.rs`).
    #[serde(default)]
    pub consumers_accept_more: bool,
    /// Whether the root is a sequence of items that parse the same wherever
    /// they stand (C's translation unit): the syntax filter then checks a
    /// candidate on the items its edit touches (`syntax.rs`).
    #[serde(default)]
    pub top_level_items_parse_alone: bool,
    /// Whether a deletion that ends a line lets the next line's tokens
    /// join it after the space it leaves (Python's `x = y` then `f()` minus
    /// `y` is `x = f()`), instead of keeping the line break before them
    /// (bash's `fi esac` then `}` minus `esac` is `fi` then `}`): the
    /// rendering of the tree's tokens (`units.rs`).
    #[serde(default)]
    pub lines_join_after_deletions: bool,
    /// Words that start a top-level item and continue none: where a large
    /// input may be cut into pieces for parsing (`tree/parse/pieces.rs`)
    /// and a set's files into top-level items (`fileset.rs`).
    #[serde(default)]
    pub item_starts: Vec<String>,
    /// Words (with the parenthesized group after them, or before a word
    /// that stays) that the syntax filter reads as spaces: constructs a
    /// compiler takes where the tree-sitter grammar cannot place them (GNU
    /// C's `__attribute__ ((...))` after a C++ namespace's name):
    /// `syntax/blank.rs`.
    #[serde(default)]
    pub syntax_blanks: Vec<SyntaxBlank>,
    /// Headers of top-level items whose braces hold top-level items (C++'s
    /// `namespace`): cutting into pieces reads through their braces
    /// (`tree/parse/pieces.rs`).
    #[serde(default)]
    pub open_blocks: Vec<String>,
    /// List kinds whose elements parse the same wherever they stand, and
    /// the text that makes a stretch of them a document of its own: the
    /// syntax filter checks a candidate on that stretch alone (`syntax.rs`).
    #[serde(default)]
    pub lists_parse_alone: ByKind<ListParsesAlone>,
    /// Bracketed kinds whose children between the brackets are items that
    /// parse the same wherever they stand in such a list (C's compound
    /// statement), and the text that makes a stretch of them a document of
    /// its own: the syntax filter checks a candidate on the items its
    /// edits touch, parsed alone (`syntax/stretch.rs`).
    #[serde(default)]
    pub item_lists_parse_alone: ByKind<ItemListParsesAlone>,
    /// Named token kinds that name things: `--rename` (`policy/rename.rs`),
    /// identifier replacement (`policy/idreplace.rs`) and the name index
    /// (`tree/names.rs`) match names by their text across these kinds.
    #[serde(default)]
    pub identifiers: Vec<String>,
    /// Named token kinds that are a literal's inside, between its
    /// delimiters (JavaScript's `string_fragment` and `regex_pattern`);
    /// an anonymous token right under a node of such a kind is one too
    /// (Python's text around an escape). The `interiors` pass shortens
    /// their text (`policy/interiors.rs`); escapes, being tokens of their
    /// own, stay whole.
    #[serde(default)]
    pub literal_insides: Vec<String>,
    /// Anonymous tokens that come in pairs (brackets), each pair's opening
    /// token, then its closing one: the last scan never deletes one alone,
    /// the token-window pass keeps them balanced, the layout and the
    /// structural rewrites of the simplify pass take them as brackets.
    #[serde(default)]
    pub paired_tokens: Vec<String>,
    /// Token kinds (named, else anonymous) that a consumer supplies where
    /// they are missing (C89's implicit `int`): the last scan's lenient
    /// filter lets through a candidate that only deletes such tokens
    /// (`syntax.rs`), and the hoist pass moves a node without them.
    #[serde(default)]
    pub implied_tokens: Vec<String>,
    /// What a consumer supplies at the start of a top-level item that
    /// lacks it (C's `int`): the lenient filter also lets through a
    /// candidate whose error regions go once it is put back (`syntax.rs`).
    #[serde(default)]
    pub implied_text: Option<String>,
    /// Kinds whose nodes define an alias (C's `type_definition`): the
    /// simplify pass may write a use of the name as its target.
    #[serde(default)]
    pub aliases: ByKind<Alias>,
    /// Kinds whose nodes may become the statement of a value they hold
    /// (`int a = f();` → `f();`), proposed by the simplify pass.
    #[serde(default)]
    pub statement_values: ByKind<StatementValue>,
    /// Kinds whose nodes may move to the top level (a local declaration to
    /// file scope), proposed by auto's closing hoist pass (`policy/simplify.rs`).
    #[serde(default)]
    pub hoists: ByKind<Hoist>,
    /// Member-access kinds (C's `field_expression`) whose member may become
    /// a new top-level variable, proposed by the simplify pass.
    #[serde(default)]
    pub member_globals: ByKind<MemberGlobal>,
    /// Kinds whose nodes name something and hold a list whose elements go
    /// by position (a function's parameters, a call's arguments): the
    /// simplify pass may delete the `i`-th element of every such list
    /// naming the same thing at once.
    #[serde(default)]
    pub positional_lists: ByKind<PositionalList>,
    /// Parameter kinds whose nodes may become a top-level variable, as
    /// C-Reduce's param-to-global does, proposed by the simplify pass.
    #[serde(default)]
    pub parameter_globals: ByKind<ParameterGlobal>,
    /// Wrapper kinds that may give way to what their brackets hold (C++'s
    /// `namespace n { int a; }` → `int a;`), proposed by the simplify pass.
    #[serde(default)]
    pub unwraps: ByKind<Unwrap>,
    /// Kinds whose separated elements may run one after another instead
    /// (Bash's `a | b` → `a` and `b` on lines of their own), proposed by
    /// the simplify pass.
    #[serde(default)]
    pub sequences: ByKind<Sequence>,
    /// Call kinds whose callee may be a function written in place
    /// (JavaScript's `(function (x) { ... })(1)`): the simplify pass
    /// writes the function's body there instead, each parameter's uses
    /// reading its argument.
    #[serde(default)]
    pub immediate_calls: ByKind<ImmediateCall>,
    /// Directive kinds that include another file (C's `preproc_include`):
    /// include inlining when several files are reduced together
    /// (`multi/includes.rs`).
    #[serde(default)]
    pub includes: ByKind<Include>,
    /// How results are laid out for people (`tree/layout.rs`, the format
    /// pass); present, it opts the language in to `--format readable`.
    #[serde(default)]
    pub layout: Option<Layout>,
    /// The language's own formatters, in the order `--format native` tries
    /// them (`oracle/formatter.rs`, the format pass).
    #[serde(default)]
    pub formatters: Vec<Formatter>,
    /// What the passes by name need: the name index (`tree/names.rs`) and
    /// the bulk passes of `policy/` built on it.
    #[serde(default)]
    pub names: Option<Names>,
}

/// The text around a stretch of a list's elements that makes it a document
/// of its own (`lists_parse_alone`; JSON's `array`: `[`, `0`, `]`), for
/// the syntax filter (`syntax.rs`).
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct ListParsesAlone {
    /// The list's opening bracket, written before the stretch.
    pub open: String,
    /// A stand-in element, written (with a separator after it) before a
    /// stretch that starts after a separator, and likewise after one that
    /// ends before a separator.
    pub element: String,
    /// The list's closing bracket, written after the stretch.
    pub close: String,
}

/// A word the syntax filter reads as spaces (`syntax_blanks`), where it
/// stands alone (no identifier character on either side).
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct SyntaxBlank {
    /// The word.
    pub word: String,
    /// Whether the balanced parenthesized group right after the word (after
    /// blanks) goes with it: the word is blanked only where one follows.
    #[serde(default)]
    pub group: bool,
    /// A word that must follow it (after blanks) for the word to be
    /// blanked; it stays itself (C++'s `extern` before `template`).
    #[serde(default)]
    pub before: Option<String>,
}

/// The text around a stretch of a bracketed list's items that makes it a
/// document of its own (`item_lists_parse_alone`; C's `compound_statement`:
/// `void f() {`, `}`), for the syntax filter (`syntax/stretch.rs`).
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct ItemListParsesAlone {
    /// Written before the stretch: a document's text up to and with the
    /// list's opening bracket.
    pub open: String,
    /// Written after the stretch: the list's closing bracket and what ends
    /// the document.
    pub close: String,
}

/// How a node defines an alias (`aliases`), for the simplify pass's
/// rewrites of a use of the alias's name to its target's text.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Alias {
    /// The field holding the alias's name (one token), or a path of fields
    /// joined by `/` reaching the name inside the target (Rust's `use
    /// a::b::C;`: `argument/name`), in which case the alias is written out
    /// qualified at every use.
    pub name: String,
    /// The field holding what the alias stands for (C's `type`).
    pub target: String,
    /// Kinds of the definition's children that go with the target where
    /// the alias is written out (C's `attribute_specifier`).
    #[serde(default)]
    pub with: Vec<String>,
}

/// What a node may be cut down to (`statement_values`), proposed by the
/// simplify pass: the value at `value`, then `terminator` or the node's
/// own last token.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct StatementValue {
    /// Parent kinds under which the node may be cut down (C's
    /// `compound_statement`: not at file scope, where no statement goes).
    pub within: Vec<String>,
    /// The path from the node to the value: field names, outermost first;
    /// a `*` step goes to the named children outside any field.
    pub value: Vec<String>,
    /// The text written after the value; absent, the node's own last token
    /// ends the new statement.
    #[serde(default)]
    pub terminator: Option<String>,
    /// Fields of the node kept before the value, with `joiner` between
    /// them and it (Java's `K f() { return g(); }` → `K f = g();`); then
    /// only a node holding exactly one value at the path is cut down.
    #[serde(default)]
    pub keep: Vec<String>,
    /// The text between the kept fields and the value; given exactly when
    /// `keep` is.
    #[serde(default)]
    pub joiner: Option<String>,
}

/// Where a node may move to the top level from (`hoists`), for auto's
/// closing hoist pass.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Hoist {
    /// Parent kinds a node may leave for the top level (C's
    /// `compound_statement`: a declaration in a block).
    pub within: Vec<String>,
}

/// How a member access names its member and where members are declared
/// (`member_globals`), for the simplify pass.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct MemberGlobal {
    /// The access's field holding the member's name (one token; C's `field`).
    pub member: String,
    /// The kind of node declaring members (C's `field_declaration`), whose
    /// text the new variable is declared with.
    pub declaration: String,
    /// That kind's field holding each declarator (C's `declarator`); the
    /// member's other declarators are left out.
    pub declarator: String,
}

/// How a node names something and holds a list going by position
/// (`positional_lists`), for the simplify pass.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct PositionalList {
    /// The field holding the name (one token), or a path of fields down
    /// to it, `/` between steps and `*` for a named child outside any
    /// field (C++'s `template_declaration`: `*/name`); paths to try in
    /// turn are separated by `|` (Python's call: `function|function/attribute`,
    /// a function's name or a method's).
    pub name: String,
    /// The field holding the list (C's `parameters`, `arguments`).
    pub list: String,
    /// Where this kind is also a class's constructor: a node of it named
    /// `method` inside a class is named by the class's name, so that the
    /// calls creating the class (Python's `Point(1, 2)`) line up with its
    /// parameters.
    #[serde(default)]
    pub constructor: Option<Constructor>,
    /// Where a node of this kind right inside a class is a method whose
    /// first parameters no call passes (Python's `self`).
    #[serde(default)]
    pub method: Option<Method>,
}

/// A method's parameters that no call passes (`positional_lists.*.method`).
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Method {
    /// The kind of class (Python's `class_definition`): a node whose
    /// nearest enclosing class or positional-list node is of this kind is
    /// a method.
    pub class: String,
    /// How many of its first parameters no call passes.
    pub skip: usize,
}

/// A method that constructs its class (`positional_lists.*.constructor`).
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Constructor {
    /// The constructor's name (Python's `__init__`, JavaScript's
    /// `constructor`).
    pub method: String,
    /// The kind of class it constructs: its nearest ancestor of that kind
    /// (Python's `class_definition`).
    pub class: String,
    /// That kind's field holding the class's name (one token).
    pub class_name: String,
    /// How many of its first parameters no call passes (Python's `self`).
    #[serde(default)]
    pub skip: usize,
}

/// How a parameter becomes a top-level variable (`parameter_globals`), for
/// the simplify pass: deleted with the element at its position in every
/// list naming its function (see `positional_lists`), its declarator
/// joined to a top-level declaration before the function or declared anew.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct ParameterGlobal {
    /// The parameter's field holding its declarator (the name and what goes
    /// around it: `*b` in `struct s *b`).
    pub declarator: String,
    /// The kind of top-level node declaring variables (C's `declaration`),
    /// which the declarator may join.
    pub declaration: String,
    /// That kind's field holding each declarator.
    pub declaration_declarator: String,
    /// The text between two declarators of one declaration (`,`).
    pub separator: String,
    /// The text that ends a declaration (`;`), after a new one.
    pub terminator: String,
}

/// What a wrapper may give way to (`unwraps`), for the simplify pass: one
/// deletion of all its tokens but those between two brackets.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Unwrap {
    /// Which tokens are the brackets whose inside stays.
    pub brackets: Brackets,
}

/// The brackets of an unwrap: `{"field": "body"}` or `"own_ends"`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Brackets {
    /// The first and last tokens of the node filling this field of the
    /// wrapper (C++'s `namespace_definition`: `body`), which must be
    /// `paired_tokens`.
    Field(String),
    /// The wrapper's own first and last tokens, paired or not (Bash's
    /// `{ a; b; }` → `a; b;`, Rust's `use a::{B};` → `use a::B;`).
    OwnEnds,
}

/// A call of a function written in place (`immediate_calls`), for the
/// simplify pass.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct ImmediateCall {
    /// The call's field holding the callee, looked through wrappers of
    /// one child (parentheses) down to a function.
    pub callee: String,
    /// The call's field holding the arguments.
    pub arguments: String,
    /// Kinds of functions written in place (`function_expression`).
    pub functions: Vec<String>,
    /// The function's field holding its parameters (each must be one
    /// name).
    pub parameters: String,
    /// The function's field holding its body: a block between paired
    /// tokens gives its statements, where the call is the whole of a
    /// `statement`; anything else is an expression, put in parentheses.
    pub body: String,
    /// The kind of statement a call must be all of for a block body's
    /// statements to take its place (`expression_statement`).
    pub statement: String,
}

/// How separated elements run one after another instead (`sequences`), for
/// the simplify pass.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Sequence {
    /// The text each deleted separator gives way to, after the token before
    /// it (Bash's pipe: a line break).
    pub separator_becomes: String,
}

/// How a directive names the file it includes (`includes`), for include
/// inlining (`multi/includes.rs`).
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Include {
    /// The directive's field holding the path (C's `path`); the path is the
    /// text between that node's first and last token.
    pub path: String,
    /// The kind of path that names a file beside the includer (C's
    /// `string_literal`, the quoted `"util.h"`); other kinds are never
    /// touched (`<stdio.h>`).
    pub local_path: String,
}

/// The kinds and tokens that shape the layout made from the tree
/// (`layout`; `tree/layout.rs`, the format pass).
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Layout {
    /// Kinds whose first and last children are brackets around children
    /// going one per line, one step deeper (JSON's `array`); a node between
    /// `{` and `}` is such a block anyway.
    #[serde(default)]
    pub blocks: Vec<String>,
    /// Kinds whose nodes start a line wherever they are (Python's `decorator`).
    #[serde(default)]
    pub lines: Vec<String>,
    /// Kinds without brackets whose children go one per line at the
    /// indentation they are at (Go's `statement_list`).
    #[serde(default)]
    pub lists: Vec<String>,
    /// Kinds that are one lexical unit (strings, regular expressions, Rust's
    /// attributes): their tokens keep the input's spacing.
    #[serde(default)]
    pub atoms: Vec<String>,
    /// Kinds without brackets whose children go one per line one step
    /// deeper, after a line break (Python's `block`); when re-indenting,
    /// kinds whose inner lines go one step deeper.
    #[serde(default)]
    pub indented: Vec<String>,
    /// Kinds of an `indented` parent's children that start at the parent's
    /// depth when re-indenting (Bash's `else_clause`).
    #[serde(default)]
    pub clauses: Vec<String>,
    /// Parent kinds to tokens under them with a space on both sides
    /// (Rust's `->` of a return type).
    #[serde(default)]
    pub spaced: ByKind<Vec<String>>,
    /// Parent kinds to tokens under them with no space on either side
    /// (Python's `=` of a keyword argument).
    #[serde(default)]
    pub tight: ByKind<Vec<String>>,
    /// The spaces of one indentation step, 1 to 8; absent, 2.
    #[serde(default)]
    pub indent: Option<usize>,
    /// Whether every line keeps its text and only its indentation changes,
    /// for a language whose line breaks carry meaning (Bash).
    #[serde(default)]
    pub reindent: bool,
}

/// A formatter of the language (`formatters`), for `--format native`
/// (`oracle/formatter.rs`): it reads the text on stdin and prints it
/// formatted.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Formatter {
    /// The program, found on `PATH` (a formatter not installed is skipped).
    pub program: String,
    /// Its arguments.
    #[serde(default)]
    pub arguments: Vec<String>,
}

/// What the passes by name need (`names`): the name index of each parse
/// (`tree/names.rs`) and the bulk passes built on it (`bodies`, `unused`,
/// `uses`, `substitute`, `literals` in `policy/`).
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Names {
    /// Kinds whose nodes declare a name (where they may be deleted): the
    /// name index's declarations, which the passes by name delete.
    #[serde(default)]
    pub declarations: Vec<String>,
    /// Fields the name index follows from a declaration down to its name
    /// token, tried in this order at each step (else the only named child).
    #[serde(default)]
    pub name_fields: Vec<String>,
    /// Fields holding the value a declaration gives its name, met on the way
    /// to the name (C's `value` of an `init_declarator`): the `substitute`
    /// pass writes a value in place of the name's one use.
    #[serde(default)]
    pub value_fields: Vec<String>,
    /// Kinds that wrap a declaration and go with it when a pass by name
    /// deletes it (C++'s `template_declaration`, JavaScript's
    /// `export_statement`).
    #[serde(default)]
    pub wrappers: Vec<String>,
    /// Kinds whose children are statements or items: the `uses` pass deletes
    /// a mention with the child of such a node holding it.
    #[serde(default)]
    pub statement_lists: Vec<String>,
    /// Declaration kinds named after the last part of a path in a string,
    /// to the field holding the path (Go's `import_spec`: `path`), for the
    /// name index.
    #[serde(default)]
    pub path_names: ByKind<String>,
    /// Function kinds whose body the `bodies` pass may replace.
    #[serde(default)]
    pub bodies: ByKind<Body>,
    /// The literal a name's uses may become, where the use's slot takes
    /// its kind (the `literals` pass).
    #[serde(default)]
    pub literal: Option<Literal>,
}

/// A function body that may give way to a shorter one (`names.bodies`), for
/// the `bodies` pass.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Body {
    /// The function's field holding its body.
    pub field: String,
    /// What the body becomes: `;` where a declaration will do (C), else the
    /// emptiest body the language accepts (Go's `{ panic(0) }`); not blank.
    pub text: String,
    /// Kinds of the function's other children that go with the body (a C++
    /// constructor's member initializers).
    #[serde(default)]
    pub with: Vec<String>,
}

/// The literal of the language a name's uses may become (`names.literal`),
/// for the `literals` pass.
#[derive(Debug, Deserialize)]
#[serde(remote = "Self", deny_unknown_fields)]
pub(crate) struct Literal {
    /// Its text (`0`).
    pub text: String,
    /// Its kind (C's `number_literal`): a use is rewritten only where its
    /// slot takes that kind.
    pub kind: String,
}

/// Implements `Deserialize` for structs derived with `#[serde(remote =
/// "Self")]` (which makes the derived code an inherent `deserialize`) so
/// that they are read from JSON objects only: serde's derive would also
/// take an array of the fields in order, the positional shape this format
/// replaced, and an old file would load without a word.
macro_rules! from_objects_only {
    ($($ty:ident),* $(,)?) => {$(
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                /// Takes a JSON object only, handing it to the derived code.
                struct Object;
                impl<'de> Visitor<'de> for Object {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("an object of named fields")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<$ty, A::Error> {
                        $ty::deserialize(MapAccessDeserializer::new(map))
                    }
                }
                deserializer.deserialize_map(Object)
            }
        }
    )*};
}

from_objects_only!(
    GrammarFile,
    SyntaxBlank,
    ListParsesAlone,
    ItemListParsesAlone,
    Alias,
    StatementValue,
    Hoist,
    MemberGlobal,
    PositionalList,
    Constructor,
    Method,
    ParameterGlobal,
    Unwrap,
    Sequence,
    ImmediateCall,
    Include,
    Layout,
    Formatter,
    Names,
    Body,
    Literal,
);

/// Parses a data file, `file` naming it in messages. A key the types lack
/// is refused naming the nearest known key where one is near
/// (`grammars/c.json: unknown key "seperators"; did you mean
/// "separators"?`), else listing the known ones.
pub(crate) fn parse(file: &str, text: &str) -> Result<GrammarFile> {
    serde_json::from_str(text).map_err(|e| {
        let at = format!("line {}, column {}", e.line(), e.column());
        match unknown_name(&e.to_string()) {
            Some((what, name, known)) => match nearest(&name, &known) {
                Some(near) => {
                    anyhow!("{file}: unknown {what} \"{name}\"; did you mean \"{near}\"? ({at})")
                }
                None => anyhow!(
                    "{file}: unknown {what} \"{name}\" ({at}); known: {}",
                    known.join(", ")
                ),
            },
            None => anyhow!("{file}: {e}"),
        }
    })
}

/// From serde's message for an unknown key or value (``unknown field
/// `seperators`, expected one of `description`, `separators`, ...``,
/// ``unknown variant `own_end`, expected `field` or `own_ends` ``): what
/// is unknown ("key" or "value"), its text and the known ones.
fn unknown_name(message: &str) -> Option<(&'static str, String, Vec<String>)> {
    let what = if message.starts_with("unknown field `") {
        "key"
    } else if message.starts_with("unknown variant `") {
        "value"
    } else {
        return None;
    };
    // The names are the texts between pairs of backticks, the unknown one
    // first; serde_json's position follows the last.
    let mut quoted = message.split('`').skip(1).step_by(2).map(str::to_string);
    let name = quoted.next()?;
    Some((what, name, quoted.collect()))
}

/// The known name nearest `name` by edit distance, if it is near enough to
/// be a misspelling of it (at most a third of its letters, or two, differ).
fn nearest(name: &str, known: &[String]) -> Option<String> {
    let (distance, near) = known
        .iter()
        .map(|k| (strsim::levenshtein(name, k), k))
        .min()?;
    (distance <= (name.len() / 3).max(2)).then(|| near.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::{Error as _, value::Error};
    use std::collections::BTreeSet;
    use std::path::Path;

    /// A deserializer that only notes the field names a struct asks for
    /// (or the variant names of an enum), then fails.
    struct FieldNames<'a>(&'a mut Vec<&'static str>);

    impl<'de> Deserializer<'de> for FieldNames<'_> {
        type Error = Error;

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _name: &'static str,
            fields: &'static [&'static str],
            _visitor: V,
        ) -> Result<V::Value, Error> {
            self.0.extend(fields);
            Err(Error::custom("field names only"))
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _name: &'static str,
            variants: &'static [&'static str],
            _visitor: V,
        ) -> Result<V::Value, Error> {
            self.0.extend(variants);
            Err(Error::custom("variant names only"))
        }

        fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Error> {
            Err(Error::custom("not a struct"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map identifier ignored_any
        }
    }

    /// The field names `deserialize` (a derived deserializer) asks for.
    fn names<T>(deserialize: impl FnOnce(FieldNames<'_>) -> Result<T, Error>) -> BTreeSet<String> {
        let mut names = Vec::new();
        assert!(deserialize(FieldNames(&mut names)).is_err());
        names.into_iter().map(String::from).collect()
    }

    /// Every section of the README's reference of keys that documents
    /// fields, with the types' names for them: `""` for the top-level keys
    /// (`###` headings), else the key path of a `###` or `####` heading
    /// (whose `- `name`` bullets are the fields).
    fn documented_types() -> Vec<(&'static str, BTreeSet<String>)> {
        vec![
            ("", names(|d| GrammarFile::deserialize(d))),
            ("syntax_blanks", names(|d| SyntaxBlank::deserialize(d))),
            (
                "lists_parse_alone",
                names(|d| ListParsesAlone::deserialize(d)),
            ),
            (
                "item_lists_parse_alone",
                names(|d| ItemListParsesAlone::deserialize(d)),
            ),
            ("aliases", names(|d| Alias::deserialize(d))),
            (
                "statement_values",
                names(|d| StatementValue::deserialize(d)),
            ),
            ("hoists", names(|d| Hoist::deserialize(d))),
            ("member_globals", names(|d| MemberGlobal::deserialize(d))),
            (
                "positional_lists",
                names(|d| PositionalList::deserialize(d)),
            ),
            (
                "positional_lists.constructor",
                names(|d| Constructor::deserialize(d)),
            ),
            ("positional_lists.method", names(|d| Method::deserialize(d))),
            (
                "parameter_globals",
                names(|d| ParameterGlobal::deserialize(d)),
            ),
            ("unwraps", names(|d| Unwrap::deserialize(d))),
            ("unwraps.brackets", names(|d| Brackets::deserialize(d))),
            ("sequences", names(|d| Sequence::deserialize(d))),
            ("immediate_calls", names(|d| ImmediateCall::deserialize(d))),
            ("includes", names(|d| Include::deserialize(d))),
            ("layout", names(|d| Layout::deserialize(d))),
            ("formatters", names(|d| Formatter::deserialize(d))),
            ("names", names(|d| Names::deserialize(d))),
            ("names.bodies", names(|d| Body::deserialize(d))),
            ("names.literal", names(|d| Literal::deserialize(d))),
        ]
    }

    /// The README's reference: each heading's key path (`###` or `####`,
    /// the path between backticks) with the names of its bullets (lines
    /// starting ``- `name` ``), and the top-level keys (`###` headings).
    fn readme_sections(readme: &str) -> (BTreeMap<String, BTreeSet<String>>, BTreeSet<String>) {
        let reference = &readme[readme.find("\n## Keys\n").expect("a Keys section")..];
        let reference = &reference[..reference[1..]
            .find("\n## ")
            .map_or(reference.len(), |e| e + 1)];
        let quoted = |line: &str| line.split('`').nth(1).map(str::to_string);
        let mut sections: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut top = BTreeSet::new();
        let mut current = None;
        for line in reference.lines() {
            if let Some(heading) = line.strip_prefix("### ").or(line.strip_prefix("#### ")) {
                let path = quoted(heading).expect("a heading names a key between backticks");
                if line.starts_with("### ") {
                    top.insert(path.clone());
                }
                sections.entry(path.clone()).or_default();
                current = Some(path);
            } else if let Some(bullet) = line.strip_prefix("- `")
                && let Some(section) = &current
            {
                let name = bullet.split('`').next().unwrap().to_string();
                sections.get_mut(section).unwrap().insert(name);
            }
        }
        (sections, top)
    }

    #[test]
    fn the_readme_documents_every_key_of_the_types_and_no_other() {
        let readme = include_str!("../../grammars/README.md");
        let (mut sections, top) = readme_sections(readme);
        for (path, fields) in documented_types() {
            if path.is_empty() {
                assert_eq!(top, fields, "the README's ### headings against GrammarFile");
                continue;
            }
            let documented = sections.remove(path).unwrap_or_default();
            assert_eq!(documented, fields, "the README's fields of `{path}`");
        }
        // The other sections document a key with no fields of its own.
        for (path, bullets) in sections {
            assert!(
                bullets.is_empty(),
                "the README documents `{path}`: {bullets:?}"
            );
        }
    }

    #[test]
    fn every_grammar_file_parses_into_the_typed_format() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammars");
        let mut parsed = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let name = format!("grammars/{}", path.file_name().unwrap().to_string_lossy());
            let file = parse(&name, &text).unwrap_or_else(|e| panic!("{e:#}"));
            assert!(
                file.description.len() > 40,
                "{name}: a description says why"
            );
            parsed += 1;
        }
        assert!(
            parsed >= 3,
            "the built-in grammar files are in {}",
            dir.display()
        );
    }

    #[test]
    fn a_near_name_is_suggested_and_a_far_one_is_not() {
        let known = ["separators", "sequences", "optional_tokens"].map(String::from);
        assert_eq!(nearest("seperators", &known).as_deref(), Some("separators"));
        assert_eq!(nearest("sequence", &known).as_deref(), Some("sequences"));
        assert_eq!(nearest("colour", &known), None);
    }
}

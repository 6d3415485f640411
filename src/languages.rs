//! The registry of languages `reduce` parses: one entry each, read by
//! everything that depends on the language.
//!
//! An entry gives the language's name (for `--lang` and messages), its file
//! extensions, its tree-sitter grammar and that grammar's `NODE_TYPES`, its
//! data file `grammars/<lang>.json`, and how a large input is cut into
//! pieces for parsing. Adding a language is one entry in [`BUILT_IN`] plus
//! one data file. Code elsewhere asks a [`Language`] for these facts and
//! never asks which language it is. Inputs in no known language are reduced
//! as flat units; [`looks_binary`] tells whether to cut them into bytes or
//! into lines and tokens.

use std::path::Path;
use std::sync::OnceLock;

use anyhow::Result;

use crate::grammar::Grammar;

mod library;

/// How a large input is cut into pieces for parsing, so that tree-sitter
/// never holds the tree of more than a piece (see `tree/parse/pieces.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pieces {
    /// The root is a sequence of top-level items, ended where a new item
    /// must start (a `;` or `}` followed by a declaration keyword or a
    /// preprocessor line): C and languages lexed like it.
    TopLevelItems,
    /// Large bracketed containers are parsed in runs of their elements
    /// (`[` + elements + `]`): JSON.
    Containers,
    /// Parsed whole, whatever its size.
    Whole,
}

/// Where a language's tree-sitter grammar comes from.
enum Source {
    /// A grammar crate linked into `reduce`.
    BuiltIn(fn() -> tree_sitter::Language),
    /// A shared library loaded at run time (`--grammar`).
    Loaded(tree_sitter::Language),
}

/// A data file in the `grammars/` format.
#[derive(Clone, Copy)]
struct DataFile {
    /// Its path, as messages name it (`grammars/c.json`).
    path: &'static str,
    /// Its text.
    text: &'static str,
}

/// The data file `grammars/<file>` of a built-in language, embedded.
macro_rules! data_file {
    ($file:literal) => {
        DataFile {
            path: concat!("grammars/", $file),
            text: include_str!(concat!("../grammars/", $file)),
        }
    };
}

/// One language of the registry.
struct LanguageDef {
    /// The name `--lang` takes and messages use.
    pub name: &'static str,
    /// File extensions (without the dot) that select it.
    pub extensions: &'static [&'static str],
    /// Whether the extensions match in any letter case (`.JSON`); C's do
    /// not (`.C` is C++).
    pub extensions_any_case: bool,
    /// Interpreters whose `#!` line selects it when the extension says
    /// nothing (`#!/usr/bin/env python3`), without a version suffix.
    pub interpreters: &'static [&'static str],
    /// The tree-sitter grammar.
    ts_language: Source,
    /// The grammar crate's `node-types.json`.
    pub node_types: &'static str,
    /// `grammars/<name>.json`: what node-types cannot say (none for a
    /// grammar loaded without one: everything comes from node-types and
    /// what the tree shows, see `grammar/derive.rs`).
    pub data: Option<DataFile>,
    pub pieces: Pieces,
    /// The grammar facts, built on first use.
    grammar: OnceLock<Grammar>,
}

impl LanguageDef {
    /// An entry of [`BUILT_IN`]: a grammar crate with its data file, parsed
    /// whole (no cutting into pieces) and selected by no `#!` line.
    const fn built_in(
        name: &'static str,
        extensions: &'static [&'static str],
        ts_language: fn() -> tree_sitter::Language,
        node_types: &'static str,
        data: DataFile,
    ) -> Self {
        LanguageDef {
            name,
            extensions,
            extensions_any_case: false,
            interpreters: &[],
            ts_language: Source::BuiltIn(ts_language),
            node_types,
            data: Some(data),
            pieces: Pieces::Whole,
            grammar: OnceLock::new(),
        }
    }

    const fn interpreters(mut self, interpreters: &'static [&'static str]) -> Self {
        self.interpreters = interpreters;
        self
    }

    const fn pieces(mut self, pieces: Pieces) -> Self {
        self.pieces = pieces;
        self
    }

    const fn any_case(mut self) -> Self {
        self.extensions_any_case = true;
        self
    }
}

/// How many languages are built in: C, C++ and JSON, and those of the
/// cargo features chosen.
const BUILT_IN_COUNT: usize = 3
    + cfg!(feature = "rust") as usize
    + cfg!(feature = "python") as usize
    + cfg!(feature = "javascript") as usize
    + 2 * cfg!(feature = "typescript") as usize
    + cfg!(feature = "go") as usize
    + cfg!(feature = "java") as usize
    + cfg!(feature = "bash") as usize;

/// The languages built into `reduce` (those of C, C++ and JSON always,
/// the others when their cargo feature is on, as it is by default).
static BUILT_IN: [LanguageDef; BUILT_IN_COUNT] = [
    LanguageDef::built_in(
        "c",
        &["c", "h", "i"],
        || tree_sitter_c::LANGUAGE.into(),
        tree_sitter_c::NODE_TYPES,
        data_file!("c.json"),
    )
    .pieces(Pieces::TopLevelItems),
    LanguageDef::built_in(
        "cpp",
        // `.C` and `.H` are C++ where `.c` and `.h` are C.
        &[
            "cpp", "cc", "cxx", "c++", "C", "hpp", "hh", "hxx", "H", "ii", "ipp", "tcc",
        ],
        || tree_sitter_cpp::LANGUAGE.into(),
        tree_sitter_cpp::NODE_TYPES,
        data_file!("cpp.json"),
    )
    .pieces(Pieces::TopLevelItems),
    LanguageDef::built_in(
        "json",
        &["json"],
        || tree_sitter_json::LANGUAGE.into(),
        tree_sitter_json::NODE_TYPES,
        data_file!("json.json"),
    )
    .pieces(Pieces::Containers)
    .any_case(),
    #[cfg(feature = "rust")]
    LanguageDef::built_in(
        "rust",
        &["rs"],
        || tree_sitter_rust::LANGUAGE.into(),
        tree_sitter_rust::NODE_TYPES,
        data_file!("rust.json"),
    ),
    #[cfg(feature = "python")]
    LanguageDef::built_in(
        "python",
        &["py", "pyi", "pyw"],
        || tree_sitter_python::LANGUAGE.into(),
        tree_sitter_python::NODE_TYPES,
        data_file!("python.json"),
    )
    .interpreters(&["python", "pypy"]),
    #[cfg(feature = "javascript")]
    LanguageDef::built_in(
        "javascript",
        &["js", "mjs", "cjs", "jsx"],
        || tree_sitter_javascript::LANGUAGE.into(),
        tree_sitter_javascript::NODE_TYPES,
        data_file!("javascript.json"),
    )
    .interpreters(&["node", "nodejs"]),
    #[cfg(feature = "typescript")]
    LanguageDef::built_in(
        "typescript",
        &["ts", "mts", "cts"],
        || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        tree_sitter_typescript::TYPESCRIPT_NODE_TYPES,
        data_file!("typescript.json"),
    ),
    #[cfg(feature = "typescript")]
    LanguageDef::built_in(
        "tsx",
        &["tsx"],
        || tree_sitter_typescript::LANGUAGE_TSX.into(),
        tree_sitter_typescript::TSX_NODE_TYPES,
        data_file!("typescript.json"),
    ),
    #[cfg(feature = "go")]
    LanguageDef::built_in(
        "go",
        &["go"],
        || tree_sitter_go::LANGUAGE.into(),
        tree_sitter_go::NODE_TYPES,
        data_file!("go.json"),
    ),
    #[cfg(feature = "java")]
    LanguageDef::built_in(
        "java",
        &["java"],
        || tree_sitter_java::LANGUAGE.into(),
        tree_sitter_java::NODE_TYPES,
        data_file!("java.json"),
    ),
    #[cfg(feature = "bash")]
    LanguageDef::built_in(
        "bash",
        &["sh", "bash"],
        || tree_sitter_bash::LANGUAGE.into(),
        tree_sitter_bash::NODE_TYPES,
        data_file!("bash.json"),
    )
    .interpreters(&["bash", "sh", "dash"]),
];

/// A language of the registry: a cheap handle to its entry.
#[derive(Clone, Copy)]
pub struct Language(&'static LanguageDef);

impl PartialEq for Language {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Language {}

impl std::hash::Hash for Language {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state);
    }
}

impl std::fmt::Debug for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Language({})", self.0.name)
    }
}

impl Language {
    /// Every built-in language, in registry order.
    pub fn all() -> impl Iterator<Item = Language> {
        BUILT_IN.iter().map(Language)
    }

    /// The name used by `--lang` and in messages.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The language `--lang <name>` asks for.
    pub(crate) fn from_name(name: &str) -> Option<Language> {
        Language::all().find(|l| l.name().eq_ignore_ascii_case(name))
    }

    /// The language called `name`; panics if there is none (tests and
    /// benches name the languages they exercise).
    pub fn named(name: &str) -> Language {
        Language::from_name(name).unwrap_or_else(|| panic!("no language `{name}`"))
    }

    /// The language of a file, from its extension.
    pub(crate) fn from_path(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?;
        Language::all().find(|l| {
            l.0.extensions
                .iter()
                .any(|e| *e == ext || (l.0.extensions_any_case && e.eq_ignore_ascii_case(ext)))
        })
    }

    /// The language of an input: from its file's extension, else from the
    /// interpreter its `#!` line names (`#!/usr/bin/env python3`,
    /// `#!/bin/sh -e`), if a language of the registry has it.
    pub(crate) fn detect(path: &Path, head: &[u8]) -> Option<Language> {
        if let Some(lang) = Language::from_path(path) {
            return Some(lang);
        }
        let interpreter = shebang_interpreter(head)?;
        Language::all().find(|l| l.0.interpreters.contains(&interpreter))
    }

    /// A language whose grammar is the shared library `library` (as
    /// `tree-sitter build` makes it), with its `node-types.json` text and
    /// optionally a data file in the `grammars/` format (the path messages
    /// name it by, and its text). Its name is
    /// `name`, else the library's (`libtree-sitter-foo.so` is `foo`); the
    /// library must export `tree_sitter_<name>` of an ABI version this
    /// tree-sitter reads. The entry lives as long as the process.
    pub fn load(
        library: &Path,
        name: Option<&str>,
        node_types: String,
        data: Option<(String, String)>,
    ) -> Result<Language> {
        let name = match name {
            Some(name) => name.to_string(),
            None => library::name_of(library)?,
        };
        let ts_language = library::load(library, &name)?;
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        let def = LanguageDef {
            name: leak(name),
            extensions: &[],
            extensions_any_case: false,
            interpreters: &[],
            ts_language: Source::Loaded(ts_language),
            node_types: leak(node_types),
            data: data.map(|(path, text)| DataFile {
                path: leak(path),
                text: leak(text),
            }),
            pieces: Pieces::Whole,
            grammar: OnceLock::new(),
        };
        let lang = Language(Box::leak(Box::new(def)));
        let grammar = lang.load_grammar()?;
        let _ = lang.0.grammar.set(grammar);
        Ok(lang)
    }

    /// The tree-sitter language to parse with.
    pub(crate) fn ts_language(self) -> tree_sitter::Language {
        match &self.0.ts_language {
            Source::BuiltIn(make) => make(),
            Source::Loaded(language) => language.clone(),
        }
    }

    /// The grammar crate's `node-types.json`.
    pub(crate) fn node_types(self) -> &'static str {
        self.0.node_types
    }

    /// How a large input is cut into pieces for parsing.
    pub(crate) fn pieces(self) -> Pieces {
        self.0.pieces
    }

    /// Builds the grammar facts: node-types, then the data file, if any.
    fn load_grammar(self) -> Result<Grammar> {
        let mut grammar = Grammar::from_node_types(self.name(), self.node_types())?;
        if let Some(data) = self.0.data {
            grammar.apply_data(data.path, data.text)?;
        }
        Ok(grammar)
    }

    /// The grammar facts, built once per process.
    pub(crate) fn grammar(self) -> &'static Grammar {
        // The embedded data is checked by the tests, and a loaded
        // language's grammar is built when it is loaded, so failing here is
        // a bug.
        self.0.grammar.get_or_init(|| match self.load_grammar() {
            Ok(g) => g,
            Err(e) => panic!("built-in grammar data is invalid: {e:#}"),
        })
    }
}

/// The interpreter a `#!` line at the start of `head` names, without its
/// directory and version (`#!/usr/bin/env -S python3.12 -u` is `python`).
fn shebang_interpreter(head: &[u8]) -> Option<&str> {
    let line = head.strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_ascii_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|w| !w.starts_with('-'))?;
    }
    Some(program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.'))
}

/// The input's language as far as reduction is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Tree(Language),
    Text,
    Bytes,
}

impl Lang {
    /// The name used by `--lang` and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Tree(l) => l.name(),
            Lang::Text => "text",
            Lang::Bytes => "bytes",
        }
    }

    /// Every way to read an input, in `--lang`'s order: the grammars', then
    /// text and bytes.
    pub fn all() -> impl Iterator<Item = Lang> {
        Language::all()
            .map(Lang::Tree)
            .chain([Lang::Text, Lang::Bytes])
    }
}

/// Whether an input of no known language should be reduced byte by byte:
/// its first 8 KB hold a NUL byte or are not UTF-8.
pub(crate) fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8192)];
    if head.contains(&0) {
        return true;
    }
    match std::str::from_utf8(head) {
        Ok(_) => false,
        // A character cut by the 8 KB boundary is still text.
        Err(e) => e.error_len().is_some() || head.len() == bytes.len(),
    }
}

#[cfg(test)]
impl Language {
    /// `self` as a grammar loaded without a data file would be: node-types
    /// and what each tree shows only. The entry lives as long as the process.
    pub(crate) fn without_data(self) -> Language {
        let def = LanguageDef {
            ts_language: Source::Loaded(self.ts_language()),
            data: None,
            grammar: OnceLock::new(),
            ..*self.0
        };
        Language(Box::leak(Box::new(def)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::schema::{self, Brackets};

    #[test]
    fn every_node_kind_named_in_grammars_exists_in_its_grammar() {
        for lang in Language::all() {
            let grammar = lang
                .load_grammar()
                .unwrap_or_else(|e| panic!("{}: {e:#}", lang.name()));
            let bare = Grammar::from_node_types(lang.name(), lang.node_types()).unwrap();
            let file = lang.0.data.unwrap();
            let data = schema::parse(file.path, file.text).unwrap();
            // Each named kind and token must exist in the bare grammar.
            let kind_id = |kind: &str| {
                let k = bare.find_kind(kind, true);
                assert!(k.is_some(), "{}: no kind `{kind}`", lang.name());
                k.unwrap()
            };
            let token_id = |token: &str| {
                let k = bare.find_kind(token, false);
                assert!(k.is_some(), "{}: no token `{token}`", lang.name());
                k.unwrap()
            };
            let mut named = 0;
            for (parent, tokens) in &data.separators {
                for t in tokens {
                    assert!(grammar.is_separator(kind_id(parent), token_id(t)));
                    named += 1;
                }
            }
            for (parent, tokens) in &data.optional_tokens {
                for t in tokens {
                    assert!(grammar.is_optional_token(kind_id(parent), token_id(t)));
                }
            }
            for kind in &data.never_delete {
                assert!(grammar.never_deleted(kind_id(kind)));
            }
            // Pairs, opening token first.
            for (i, token) in data.paired_tokens.iter().enumerate() {
                let k = token_id(token);
                assert!(grammar.is_paired_token(k));
                assert_eq!(grammar.bracket(k), Some((i / 2, i % 2 == 0)));
            }
            for (kind, texts) in &data.lists_parse_alone {
                let context = grammar.list_context(kind_id(kind)).unwrap();
                assert_eq!(texts.open.as_bytes(), &context.open[..]);
                assert_eq!(texts.element.as_bytes(), &context.element[..]);
                assert_eq!(texts.close.as_bytes(), &context.close[..]);
            }
            for (kind, alias) in &data.aliases {
                let k = kind_id(kind);
                let (name, target) = grammar.alias_fields(k).unwrap();
                assert_eq!([name, target], [&alias.name, &alias.target]);
                for with in &alias.with {
                    assert!(grammar.alias_along(k).contains(&kind_id(with)));
                }
            }
            for (kind, rule) in &data.statement_values {
                let k = kind_id(kind);
                for parent in &rule.within {
                    let found = grammar.statement_value(k, kind_id(parent)).unwrap();
                    assert_eq!(found.path, rule.value);
                    assert_eq!(found.terminator, rule.terminator);
                    assert_eq!(found.joiner, rule.joiner);
                    assert_eq!(found.keep, rule.keep);
                }
            }
            for (kind, hoist) in &data.hoists {
                let k = kind_id(kind);
                for parent in &hoist.within {
                    assert!(grammar.hoists_from(k, kind_id(parent)));
                }
            }
            for (kind, rule) in &data.member_globals {
                let found = grammar.member_global(kind_id(kind)).unwrap();
                assert_eq!(found.member_field, rule.member);
                assert_eq!(found.declaration, kind_id(&rule.declaration));
                assert_eq!(found.declarator_field, rule.declarator);
            }
            for (kind, rule) in &data.positional_lists {
                let (name, list) = grammar.positional_list(kind_id(kind)).unwrap();
                assert_eq!([name, list], [&rule.name, &rule.list]);
            }
            for (kind, rule) in &data.parameter_globals {
                let found = grammar.parameter_global(kind_id(kind)).unwrap();
                assert_eq!(found.declarator_field, rule.declarator);
                assert_eq!(found.declaration, kind_id(&rule.declaration));
                assert_eq!(found.declaration_declarator, rule.declaration_declarator);
                assert_eq!(found.separator, rule.separator);
                assert_eq!(found.terminator, rule.terminator);
            }
            for (kind, unwrap) in &data.unwraps {
                let field = grammar.unwrap_field(kind_id(kind)).unwrap();
                match &unwrap.brackets {
                    Brackets::Field(f) => assert_eq!(field, f),
                    Brackets::OwnEnds => assert_eq!(field, ""),
                }
            }
            for (kind, sequence) in &data.sequences {
                let text = grammar.sequence_text(kind_id(kind));
                assert_eq!(text, Some(sequence.separator_becomes.as_str()));
            }
            for (kind, include) in &data.includes {
                let (field, local) = grammar.include(kind_id(kind)).unwrap();
                assert_eq!(field, include.path);
                assert_eq!(local, kind_id(&include.local_path));
            }
            if let Some(layout) = &data.layout {
                let facts = grammar.layout.as_ref().expect("layout facts");
                let lists = [
                    ("blocks", &layout.blocks, &facts.blocks),
                    ("lines", &layout.lines, &facts.lines),
                    ("lists", &layout.lists, &facts.lists),
                    ("atoms", &layout.atoms, &facts.atoms),
                    ("indented", &layout.indented, &facts.indented),
                    ("clauses", &layout.clauses, &facts.clauses),
                ];
                for (key, listed, loaded) in lists {
                    for kind in listed {
                        assert!(loaded.contains(&kind_id(kind)), "layout.{key}");
                    }
                }
                for (listed, loaded) in [
                    (&layout.spaced, &facts.spaced),
                    (&layout.tight, &facts.tight),
                ] {
                    for (parent, tokens) in listed {
                        for t in tokens {
                            assert!(loaded.contains(&(kind_id(parent), token_id(t))));
                        }
                    }
                }
            }
            for kind in &data.implied_tokens {
                let k = bare.find_kind(kind, true).or(bare.find_kind(kind, false));
                assert!(k.is_some(), "{}: no kind `{kind}`", lang.name());
                assert!(grammar.is_implied_token(k.unwrap()));
            }
            for kind in &data.identifiers {
                assert!(grammar.is_identifier(kind_id(kind)));
            }
            if let Some(names) = &data.names {
                for kind in &names.declarations {
                    assert!(grammar.names.declares(kind_id(kind)));
                }
                for kind in &names.wrappers {
                    assert!(grammar.names.wraps(kind_id(kind)));
                }
                for kind in &names.statement_lists {
                    assert!(grammar.names.holds_statements(kind_id(kind)));
                }
                for (kind, field) in &names.path_names {
                    assert_eq!(grammar.names.path_name(kind_id(kind)), Some(field.as_str()));
                }
                for (kind, rule) in &names.bodies {
                    let body = grammar.names.body(kind_id(kind)).unwrap();
                    assert_eq!(body.text.as_ref(), rule.text.as_bytes());
                    for with in &rule.with {
                        assert!(body.with.contains(&kind_id(with)));
                    }
                }
                if let Some(literal) = &names.literal {
                    let (text, kind) = grammar.names.literal.clone().unwrap();
                    assert_eq!(&text[..], literal.text.as_bytes());
                    assert_eq!(kind, kind_id(&literal.kind));
                }
            }
            for (key, texts) in &data.replacements {
                let (kind, field) = match key.split_once(" as ") {
                    Some((kind, field)) => (kind.trim(), Some(field.trim())),
                    None => (key.as_str(), None),
                };
                let loaded: Vec<&[u8]> = grammar
                    .replacements(kind_id(kind))
                    .iter()
                    .filter(|r| r.field.as_deref() == field)
                    .map(|r| &r.text[..])
                    .collect();
                let listed: Vec<&[u8]> = texts.iter().map(|t| t.as_bytes()).collect();
                assert_eq!(loaded, listed, "{}: replacements of `{key}`", lang.name());
                assert!(!listed.is_empty(), "{}: `{key}` lists none", lang.name());
            }
            assert!(
                !data.replacements.is_empty(),
                "{} has no replacements",
                lang.name()
            );
            assert!(named > 0, "{} names no separators", lang.name());
            assert!(data.description.len() > 40);
        }
    }

    #[test]
    fn the_language_comes_from_the_extension() {
        let c = Language::named("c");
        let cpp = Language::named("cpp");
        let json = Language::named("json");
        for (path, lang) in [
            ("a/b.c", Some(c)),
            ("x.h", Some(c)),
            ("pre.i", Some(c)),
            ("data.json", Some(json)),
            ("DATA.JSON", Some(json)),
            ("x.C", Some(cpp)),
            ("x.cpp", Some(cpp)),
            ("bug.ii", Some(cpp)),
            ("x.H", Some(cpp)),
            ("x.CPP", None),
            ("lib.rs", Language::from_name("rust")),
            ("m.py", Language::from_name("python")),
            ("a.mjs", Language::from_name("javascript")),
            ("a.ts", Language::from_name("typescript")),
            ("a.tsx", Language::from_name("tsx")),
            ("main.go", Language::from_name("go")),
            ("A.java", Language::from_name("java")),
            ("run.sh", Language::from_name("bash")),
            ("Makefile", None),
            ("notes.txt", None),
        ] {
            assert_eq!(Language::from_path(Path::new(path)), lang, "{path}");
        }
        assert_eq!(Language::from_name("C"), Some(c));
        assert_eq!(Language::from_name("json"), Some(json));
        assert_eq!(Language::from_name("text"), None);
    }

    #[test]
    fn a_shebang_line_names_the_language_when_the_extension_says_nothing() {
        let python = Language::from_name("python");
        let javascript = Language::from_name("javascript");
        let bash = Language::from_name("bash");
        for (path, head, lang) in [
            ("run", "#!/usr/bin/env python3\nprint(1)\n", python),
            ("run", "#!/usr/bin/python3.12 -u\n", python),
            ("run", "#!/usr/bin/env -S python3 -O\n", python),
            ("tool", "#!/usr/bin/env node\n", javascript),
            ("x", "#!/bin/sh -e\nexit 1\n", bash),
            ("x", "#! /bin/bash\n", bash),
            ("x", "#!/usr/bin/env ruby\n", None),
            ("x", "print(1)  # python\n", None),
            ("x", "", None),
            // The extension comes first.
            (
                "x.c",
                "#!/usr/bin/env python3\n",
                Some(Language::named("c")),
            ),
        ] {
            assert_eq!(
                Language::detect(Path::new(path), head.as_bytes()),
                lang,
                "{head}"
            );
        }
    }

    #[test]
    fn a_library_name_gives_the_language_name() {
        for (file, name) in [
            ("/x/libtree-sitter-json.so", Some("json")),
            ("tree-sitter-c-sharp.so", Some("c_sharp")),
            ("libfoo.so", Some("foo")),
            ("foo.dylib", Some("foo")),
            ("lib.so", None),
            ("..so", None),
        ] {
            assert_eq!(
                library::name_of(Path::new(file)).ok().as_deref(),
                name,
                "{file}"
            );
        }
    }

    #[test]
    fn names_and_extensions_are_unique_in_the_registry() {
        let mut names = std::collections::HashSet::new();
        let mut extensions = std::collections::HashSet::new();
        for lang in Language::all() {
            assert!(names.insert(lang.name()), "{} twice", lang.name());
            for ext in lang.0.extensions {
                assert!(extensions.insert(*ext), "{ext} twice");
                let path = format!("x.{ext}");
                assert_eq!(Language::from_path(Path::new(&path)), Some(lang), "{path}");
            }
        }
    }

    #[test]
    fn binary_means_nul_bytes_or_invalid_utf8_early_on() {
        assert!(!looks_binary(b""));
        assert!(!looks_binary("int main() { return 0; } // é\n".as_bytes()));
        assert!(looks_binary(b"ab\0cd"));
        assert!(looks_binary(b"ab\xffcd"));
        // A multi-byte character cut at 8 KB is not a sign of binary data.
        let mut text = vec![b'a'; 8191];
        text.extend_from_slice("é and more".as_bytes());
        assert!(!looks_binary(&text));
        // Bad bytes after the first 8 KB are not looked at.
        let mut late = vec![b'a'; 9000];
        late.push(0xff);
        assert!(!looks_binary(&late));
    }

    #[test]
    fn the_grammar_is_built_once_per_process() {
        let a: *const Grammar = Language::named("c").grammar();
        let b: *const Grammar = Language::named("c").grammar();
        assert_eq!(a, b);
        assert_ne!(a, Language::named("json").grammar() as *const Grammar);
    }
}

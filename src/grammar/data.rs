//! Applying a language's data file, `grammars/<lang>.json`, to its grammar
//! facts: what node-types cannot say (separators, optional tokens,
//! replacements, identifier kinds, ...). The file is parsed into the types
//! of `grammar/schema.rs` (the format, also in `grammars/README.md`); this
//! turns them into facts by kind id, and every kind and field a file names
//! must exist in the grammar.

use anyhow::{Context, Result, bail};

use super::schema::{self, Brackets, ByKind, GrammarFile, Layout};
use super::{Grammar, LayoutNames, SyntaxBlank, ValueShape};

impl Grammar {
    /// Applies a `grammars/*.json` file on top of the node-types facts;
    /// `file` names it in messages.
    pub(crate) fn apply_data(&mut self, file: &str, text: &str) -> Result<()> {
        let data = schema::parse(file, text)?;
        apply_grammar_data(self, &data).with_context(|| file.to_string())
    }
}

/// Applies a parsed data file.
fn apply_grammar_data(grammar: &mut Grammar, data: &GrammarFile) -> Result<()> {
    apply_token_lists(grammar, data)?;
    grammar.top_level_items_parse_alone = data.top_level_items_parse_alone;
    grammar.lines_join_after_deletions = data.lines_join_after_deletions;
    grammar.item_starts = words(&data.item_starts);
    grammar.open_blocks = words(&data.open_blocks);
    grammar.syntax_blanks = data.syntax_blanks.iter().map(syntax_blank).collect();
    apply_kind_rules(grammar, data)?;
    grammar.implied_text.clone_from(&data.implied_text);
    grammar.consumers_accept_more = data.consumers_accept_more;
    apply_kind_lists(grammar, data)?;
    if let Some(layout) = &data.layout {
        apply_layout(grammar, layout)?;
    }
    if let Some(names) = &data.names {
        grammar.apply_names(names)?;
    }
    apply_formatters(grammar, data)?;
    apply_replacements(grammar, data)
}

/// `layout`: kinds and tokens that shape the layout made from the tree,
/// opting in to it.
fn apply_layout<'a>(grammar: &mut Grammar, layout: &'a Layout) -> Result<()> {
    let rules = |map: &'a ByKind<Vec<String>>| {
        map.iter()
            .map(|(parent, tokens)| (parent.as_str(), strs(tokens)))
            .collect()
    };
    if layout.indent.is_some_and(|n| !(1..=8).contains(&n)) {
        bail!("`layout.indent` must be a number of spaces from 1 to 8");
    }
    let names = LayoutNames {
        blocks: strs(&layout.blocks),
        lines: strs(&layout.lines),
        lists: strs(&layout.lists),
        atoms: strs(&layout.atoms),
        indented: strs(&layout.indented),
        clauses: strs(&layout.clauses),
        spaced: rules(&layout.spaced),
        tight: rules(&layout.tight),
        indent: layout.indent,
        reindent: layout.reindent,
    };
    grammar.set_layout(&names)
}

/// `formatters`: each a program (not blank) and its arguments.
fn apply_formatters(grammar: &mut Grammar, data: &GrammarFile) -> Result<()> {
    for formatter in &data.formatters {
        if formatter.program.trim().is_empty() {
            bail!("a formatter's `program` must not be blank");
        }
        let argv = std::iter::once(&formatter.program)
            .chain(&formatter.arguments)
            .cloned()
            .collect();
        grammar.formatters.push(argv);
    }
    Ok(())
}

/// `separators` and `optional_tokens`: parent kinds to token lists.
fn apply_token_lists(grammar: &mut Grammar, data: &GrammarFile) -> Result<()> {
    type AddToken = fn(&mut Grammar, &str, &str) -> Result<()>;
    let token_lists: [(&ByKind<Vec<String>>, AddToken); 2] = [
        (&data.separators, Grammar::add_separator),
        (&data.optional_tokens, Grammar::add_optional_token),
    ];
    for (map, add) in token_lists {
        for (parent, tokens) in map {
            for token in tokens {
                add(grammar, parent, token)?;
            }
        }
    }
    Ok(())
}

/// The rules by kind: `lists_parse_alone`, `item_lists_parse_alone`,
/// `aliases`, `statement_values`, `hoists`, `member_globals`,
/// `positional_lists`, `parameter_globals`, `unwraps`, `sequences`,
/// `includes`.
fn apply_kind_rules(grammar: &mut Grammar, data: &GrammarFile) -> Result<()> {
    for (kind, list) in &data.lists_parse_alone {
        let texts = [&list.open, &list.element, &list.close].map(String::as_str);
        grammar.add_list_context(kind, texts)?;
    }
    for (kind, list) in &data.item_lists_parse_alone {
        grammar.add_item_list(kind, &list.open, &list.close)?;
    }
    for (kind, alias) in &data.aliases {
        grammar.add_alias(kind, &alias.name, &alias.target, &strs(&alias.with))?;
    }
    for (kind, rule) in &data.statement_values {
        let optional = ValueShape {
            terminator: rule.terminator.as_deref(),
            keep: strs(&rule.keep),
            joiner: rule.joiner.as_deref(),
        };
        grammar.add_statement_value(kind, &strs(&rule.within), &strs(&rule.value), optional)?;
    }
    for (kind, hoist) in &data.hoists {
        grammar.add_hoist(kind, &strs(&hoist.within))?;
    }
    for (kind, rule) in &data.member_globals {
        grammar.add_member_global(kind, &rule.member, &rule.declaration, &rule.declarator)?;
    }
    for (kind, rule) in &data.positional_lists {
        grammar.add_positional_list(kind, &rule.name, &rule.list)?;
        if let Some(c) = &rule.constructor {
            grammar.add_constructor(kind, &c.method, &c.class, &c.class_name, c.skip)?;
        }
        if let Some(m) = &rule.method {
            grammar.add_method(kind, &m.class, m.skip)?;
        }
    }
    for (kind, rule) in &data.parameter_globals {
        let parts = [
            &rule.declarator,
            &rule.declaration,
            &rule.declaration_declarator,
            &rule.separator,
            &rule.terminator,
        ];
        grammar.add_parameter_global(kind, parts.map(String::as_str))?;
    }
    for (kind, unwrap) in &data.unwraps {
        let field = match &unwrap.brackets {
            Brackets::Field(field) => Some(field.as_str()),
            Brackets::OwnEnds => None,
        };
        grammar.add_unwrap(kind, field)?;
    }
    for (kind, sequence) in &data.sequences {
        grammar.add_sequence(kind, &sequence.separator_becomes)?;
    }
    for (kind, call) in &data.immediate_calls {
        grammar.add_immediate_call(kind, call)?;
    }
    for (kind, include) in &data.includes {
        grammar.add_include(kind, &include.path, &include.local_path)?;
    }
    Ok(())
}

/// The lists of kinds: `identifiers`, `literal_insides`, `never_delete`,
/// `paired_tokens`, `implied_tokens`.
fn apply_kind_lists(grammar: &mut Grammar, data: &GrammarFile) -> Result<()> {
    type AddKind = fn(&mut Grammar, &str) -> Result<()>;
    let kind_lists: [(&[String], AddKind); 5] = [
        (&data.identifiers, Grammar::add_identifier),
        (&data.literal_insides, Grammar::add_literal_inside),
        (&data.never_delete, Grammar::add_never_delete),
        (&data.paired_tokens, Grammar::add_paired_token),
        (&data.implied_tokens, Grammar::add_implied_token),
    ];
    for (kinds, add) in kind_lists {
        for kind in kinds {
            add(grammar, kind)?;
        }
    }
    if !data.paired_tokens.len().is_multiple_of(2) {
        bail!("`paired_tokens` must list pairs: an opening token, then its closing one");
    }
    Ok(())
}

/// `replacements`: kinds (or `<kind> as <field>`) to lists of texts.
fn apply_replacements(grammar: &mut Grammar, data: &GrammarFile) -> Result<()> {
    for (key, texts) in &data.replacements {
        let (kind, field) = replacement_key(key);
        for text in texts {
            grammar.add_replacement(kind, field, text)?;
        }
    }
    Ok(())
}

/// A `replacements` key: `<kind>`, or `<kind> as <field>` for a node of
/// that kind filling a field of that name.
fn replacement_key(key: &str) -> (&str, Option<&str>) {
    match key.split_once(" as ") {
        Some((kind, field)) => (kind.trim(), Some(field.trim())),
        None => (key, None),
    }
}

/// A list of texts as `&str`s.
fn strs(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

/// A `syntax_blanks` entry, its texts as bytes.
fn syntax_blank(blank: &schema::SyntaxBlank) -> SyntaxBlank {
    SyntaxBlank {
        word: blank.word.as_bytes().to_vec(),
        group: blank.group,
        before: blank.before.as_ref().map(|w| w.as_bytes().to_vec()),
    }
}

/// A list of texts as bytes.
fn words(texts: &[String]) -> Vec<Vec<u8>> {
    texts.iter().map(|w| w.as_bytes().to_vec()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json() -> Grammar {
        Grammar::from_node_types("json", tree_sitter_json::NODE_TYPES).unwrap()
    }

    #[test]
    fn grammar_data_with_unknown_kinds_or_keys_is_rejected() {
        let mut g = json();
        let mut apply = |text: &str| g.apply_data("test.json", text);
        let bad_kind = r#"{"description": "x", "separators": {"arrray": [","]}}"#;
        assert!(apply(bad_kind).is_err());
        let bad_token = r#"{"description": "x", "separators": {"array": [";"]}}"#;
        assert!(apply(bad_token).is_err());
        let bad_optional = r#"{"description": "x", "optional_tokens": {"array": ["x"]}}"#;
        assert!(apply(bad_optional).is_err());
        let bad_key = r#"{"description": "x", "seperators": {}}"#;
        assert!(apply(bad_key).is_err());
        let no_description = r#"{"separators": {}}"#;
        assert!(apply(no_description).is_err());
        let replacements = r#"{"description": "x", "replacements": {"array": ["[]"]}}"#;
        assert!(apply(replacements).is_ok());
        let as_key = r#"{"description": "x", "replacements": {"string as key": ["\"\""]}}"#;
        assert!(apply(as_key).is_ok());
        let array = g.find_kind("array", true).unwrap();
        assert_eq!(&*g.replacements(array)[0].text, b"[]");
        let string = g.find_kind("string", true).unwrap();
        assert_eq!(g.replacements(string)[0].field.as_deref(), Some("key"));
        for bad in [
            r#"{"description": "x", "replacements": {"string as kye": ["0"]}}"#,
            r#"{"description": "x", "replacements": {"number as key": ["0"]}}"#,
            r#"{"description": "x", "replacements": {"arrray": ["[]"]}}"#,
            r#"{"description": "x", "replacements": {"number": "0"}}"#,
            r#"{"description": "x", "replacements": {"number": [0]}}"#,
            r#"{"description": "x", "replacements": {"number": [""]}}"#,
            r#"{"description": "x", "replacements": ["0"]}"#,
            r#"{"description": "x", "layout": {"indent": 9}}"#,
            r#"{"description": "x", "formatters": [{"program": " "}]}"#,
            r#"{"description": "x", "paired_tokens": ["["]}"#,
        ] {
            assert!(json().apply_data("test.json", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_misspelled_grammar_key_is_refused_naming_the_file_the_key_and_the_nearest_known_key() {
        let text = r#"{"description": "x", "seperators": {"array": [","]}}"#;
        let e = json().apply_data("grammars/json.json", text).unwrap_err();
        let message = format!("{e:#}");
        assert!(
            message.starts_with(
                r#"grammars/json.json: unknown key "seperators"; did you mean "separators"?"#
            ),
            "{message}"
        );
        // Inside an entry as well, with where it is.
        let text = "{\"description\": \"x\",\n \"layout\": {\"blcks\": [\"array\"]}}";
        let e = json().apply_data("grammars/json.json", text).unwrap_err();
        let message = format!("{e:#}");
        let expected =
            r#"grammars/json.json: unknown key "blcks"; did you mean "blocks"? (line 2, "#;
        assert!(message.starts_with(expected), "{message}");
        // A name far from every known one gets the list of them instead.
        let text = r#"{"description": "x", "colour": true}"#;
        let e = json().apply_data("grammars/json.json", text).unwrap_err();
        let message = format!("{e:#}");
        assert!(message.contains(r#"unknown key "colour""#), "{message}");
        assert!(
            message.contains("known: description, separators"),
            "{message}"
        );
    }

    #[test]
    fn a_rule_written_as_a_positional_array_is_refused() {
        // The shape of the files before their rules had named parts.
        let old = r#"{"description": "x", "lists_parse_alone": {"array": ["[", "0", "]"]}}"#;
        let e = json().apply_data("grammars/json.json", old).unwrap_err();
        assert!(format!("{e:#}").contains("expected an object"), "{e:#}");
        let new = r#"{"description": "x",
            "lists_parse_alone": {"array": {"open": "[", "element": "0", "close": "]"}}}"#;
        json().apply_data("grammars/json.json", new).unwrap();
    }

    #[test]
    fn an_unwrap_takes_a_field_or_the_wrappers_own_ends() {
        let mut g = json();
        let text = r#"{"description": "x", "unwraps": {
            "array": {"brackets": "own_ends"}, "pair": {"brackets": {"field": "value"}}}}"#;
        g.apply_data("test.json", text).unwrap();
        let array = g.find_kind("array", true).unwrap();
        let pair = g.find_kind("pair", true).unwrap();
        assert_eq!(g.unwrap_field(array), Some(""));
        assert_eq!(g.unwrap_field(pair), Some("value"));
        for bad in [
            r#"{"description": "x", "unwraps": {"array": {"brackets": "own_end"}}}"#,
            r#"{"description": "x", "unwraps": {"pair": {"brackets": {"field": "valu"}}}}"#,
            r#"{"description": "x", "unwraps": {"pair": {"brackets": ""}}}"#,
        ] {
            assert!(json().apply_data("test.json", bad).is_err(), "{bad}");
        }
        let text = r#"{"description": "x", "unwraps": {"array": {"brackets": "own_end"}}}"#;
        let e = json().apply_data("test.json", text).unwrap_err();
        assert!(
            format!("{e:#}").contains(r#"unknown value "own_end"; did you mean "own_ends"?"#),
            "{e:#}"
        );
    }
}

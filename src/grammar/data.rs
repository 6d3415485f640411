//! Applying a language's data file, `grammars/<lang>.json`, to its grammar
//! facts: what node-types cannot say (separators, optional tokens,
//! replacements, identifier kinds, ...). The format is in
//! `grammars/README.md`; every kind a file names must exist in the grammar.

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::{Grammar, LayoutNames, ValueShape};

impl Grammar {
    /// Applies a `grammars/*.json` file on top of the node-types facts.
    pub(crate) fn apply_data(&mut self, data: &str) -> Result<()> {
        apply_grammar_data(self, data)
    }
}

/// The entries of `key`, an object mapping kinds to lists of strings
/// (`shape` says which, for the error), as pairs; none if `key` is absent.
fn kinds_to_texts<'a>(
    object: &'a Object,
    key: &str,
    shape: &str,
) -> Result<Vec<(&'a str, Vec<&'a str>)>> {
    let Some(map) = object.get(key) else {
        return Ok(Vec::new());
    };
    let map = map
        .as_object()
        .with_context(|| format!("`{key}` must map kinds to {shape}"))?;
    Ok(map
        .iter()
        .map(|(kind, texts)| {
            let texts = texts
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            (kind.as_str(), texts)
        })
        .collect())
}

/// The keys a `grammars/*.json` file may have.
const KEYS: &[&str] = &[
    "description",
    "separators",
    "optional_tokens",
    "never_delete",
    "replacements",
    "consumers_accept_more",
    "top_level_items_parse_alone",
    "item_starts",
    "open_blocks",
    "lists_parse_alone",
    "identifiers",
    "paired_tokens",
    "implied_tokens",
    "implied_text",
    "aliases",
    "statement_values",
    "hoists",
    "member_globals",
    "positional_lists",
    "parameter_globals",
    "unwraps",
    "sequences",
    "includes",
    "layout",
    "names",
    "formatters",
];

type Object = serde_json::Map<String, Value>;

/// Applies a `grammars/*.json` file (format in `grammars/README.md`).
fn apply_grammar_data(grammar: &mut Grammar, data: &str) -> Result<()> {
    let value: Value = serde_json::from_str(data).context("not valid JSON")?;
    let Some(object) = value.as_object() else {
        bail!("the top level is not an object");
    };
    if let Some(key) = object.keys().find(|k| !KEYS.contains(&k.as_str())) {
        bail!("unknown key `{key}`");
    }
    if !object.get("description").is_some_and(Value::is_string) {
        bail!("`description` must be a string");
    }
    apply_token_lists(grammar, object)?;
    if let Some(flag) = object.get("top_level_items_parse_alone") {
        grammar.top_level_items_parse_alone = flag
            .as_bool()
            .context("`top_level_items_parse_alone` must be true or false")?;
    }
    grammar.item_starts = words_of(object, "item_starts")?;
    grammar.open_blocks = words_of(object, "open_blocks")?;
    apply_kind_rules(grammar, object)?;
    if let Some(text) = object.get("implied_text") {
        let text = text.as_str().context("`implied_text` must be a string")?;
        grammar.implied_text = Some(text.to_string());
    }
    if let Some(flag) = object.get("consumers_accept_more") {
        grammar.consumers_accept_more = flag
            .as_bool()
            .context("`consumers_accept_more` must be true or false")?;
    }
    apply_kind_lists(grammar, object)?;
    apply_layout(grammar, object)?;
    if let Some(rule) = object.get("names") {
        grammar.apply_names(rule)?;
    }
    apply_formatters(grammar, object)?;
    apply_replacements(grammar, object)
}

/// `layout`: kinds and tokens that shape the layout made from the tree
/// (`blocks`, `lines`, `lists`, `atoms`, `indented`, `clauses`: kinds;
/// `spaced`, `tight`: parent kinds to tokens; `indent`: a number;
/// `reindent`: true or false), opting in to it.
fn apply_layout(grammar: &mut Grammar, object: &Object) -> Result<()> {
    const LISTS: [&str; 6] = ["blocks", "lines", "lists", "atoms", "indented", "clauses"];
    const TOKENS: [&str; 2] = ["spaced", "tight"];
    let Some(rule) = object.get("layout") else {
        return Ok(());
    };
    let rule = rule
        .as_object()
        .context("`layout` must be an object (grammars/README.md)")?;
    fn strings<'v>(v: &'v Value, what: &str) -> Result<Vec<&'v str>> {
        v.as_array()
            .with_context(|| format!("`layout.{what}` must be a list of strings"))?
            .iter()
            .map(|s| {
                s.as_str()
                    .with_context(|| format!("`layout.{what}` must list strings"))
            })
            .collect()
    }
    let mut names = LayoutNames::default();
    for (key, value) in rule {
        match key.as_str() {
            "blocks" => names.blocks = strings(value, key)?,
            "lines" => names.lines = strings(value, key)?,
            "lists" => names.lists = strings(value, key)?,
            "atoms" => names.atoms = strings(value, key)?,
            "indented" => names.indented = strings(value, key)?,
            "clauses" => names.clauses = strings(value, key)?,
            "spaced" | "tight" => {
                let map = value
                    .as_object()
                    .with_context(|| format!("`layout.{key}` must map parent kinds to tokens"))?;
                let mut rules = Vec::new();
                for (parent, tokens) in map {
                    rules.push((parent.as_str(), strings(tokens, key)?));
                }
                if key == "spaced" {
                    names.spaced = rules;
                } else {
                    names.tight = rules;
                }
            }
            "indent" => {
                let n = value
                    .as_u64()
                    .filter(|n| (1..=8).contains(n))
                    .context("`layout.indent` must be a number of spaces from 1 to 8")?;
                names.indent = Some(n as usize);
            }
            "reindent" => {
                names.reindent = value
                    .as_bool()
                    .context("`layout.reindent` must be true or false")?;
            }
            other => bail!(
                "unknown key `layout.{other}` (known: {}, {}, indent, reindent)",
                LISTS.join(", "),
                TOKENS.join(", ")
            ),
        }
    }
    grammar.set_layout(&names)
}

/// `formatters`: a list of commands, each a non-empty list of strings
/// (the program, then its arguments).
fn apply_formatters(grammar: &mut Grammar, object: &Object) -> Result<()> {
    let Some(list) = object.get("formatters") else {
        return Ok(());
    };
    let shape = "`formatters` must be a list of commands, each a list of strings";
    for command in list.as_array().context(shape)? {
        let argv: Vec<String> = command
            .as_array()
            .context(shape)?
            .iter()
            .map(|a| a.as_str().map(str::to_string).context(shape))
            .collect::<Result<_>>()?;
        if argv.first().is_none_or(|p| p.trim().is_empty()) {
            bail!(shape);
        }
        grammar.formatters.push(argv);
    }
    Ok(())
}

/// `separators` and `optional_tokens`: parent kinds to token lists.
fn apply_token_lists(grammar: &mut Grammar, object: &Object) -> Result<()> {
    type AddToken = fn(&mut Grammar, &str, &str) -> Result<()>;
    let token_lists: [(&str, AddToken); 2] = [
        ("separators", Grammar::add_separator),
        ("optional_tokens", Grammar::add_optional_token),
    ];
    for (key, add) in token_lists {
        let Some(map) = object.get(key) else { continue };
        let map = map
            .as_object()
            .with_context(|| format!("`{key}` must map parent kinds to token lists"))?;
        for (parent, tokens) in map {
            let tokens = tokens
                .as_array()
                .with_context(|| format!("{key} of `{parent}` must be a list"))?;
            for token in tokens {
                let token = token
                    .as_str()
                    .with_context(|| format!("a token in {key} of `{parent}` is not a string"))?;
                add(grammar, parent, token)?;
            }
        }
    }
    Ok(())
}

/// The rules that map a kind to a few texts: `lists_parse_alone`,
/// `aliases`, `statement_values`, `hoists`, `member_globals`,
/// `positional_lists`, `parameter_globals`, `unwraps`, `sequences`,
/// `includes`.
fn apply_kind_rules(grammar: &mut Grammar, object: &Object) -> Result<()> {
    for (kind, texts) in kinds_to_texts(object, "lists_parse_alone", "[open, element, close]")? {
        let Ok(texts) = <[&str; 3]>::try_from(texts) else {
            bail!("lists_parse_alone of `{kind}` must be three texts: open, element, close");
        };
        grammar.add_list_context(kind, texts)?;
    }
    let shape = "[name field, target field, kinds that go along...]";
    for (kind, fields) in kinds_to_texts(object, "aliases", shape)? {
        let [name, target, ref along @ ..] = fields[..] else {
            bail!("aliases of `{kind}` must be {shape}");
        };
        grammar.add_alias(kind, name, target, along)?;
    }
    apply_statement_values(grammar, object)?;
    for (kind, parents) in kinds_to_texts(object, "hoists", "parent kinds")? {
        grammar.add_hoist(kind, &parents)?;
    }
    let shape = "[member field, declaration kind, declarator field]";
    for (kind, parts) in kinds_to_texts(object, "member_globals", shape)? {
        let [member, declaration, declarator] = parts[..] else {
            bail!("member_globals of `{kind}` must be {shape}");
        };
        grammar.add_member_global(kind, member, declaration, declarator)?;
    }
    let shape = "[name field, list field]";
    for (kind, fields) in kinds_to_texts(object, "positional_lists", shape)? {
        let [name, list] = fields[..] else {
            bail!("positional_lists of `{kind}` must be {shape}");
        };
        grammar.add_positional_list(kind, name, list)?;
    }
    let shape = "[declarator field, declaration kind, its declarator field, separator, terminator]";
    for (kind, parts) in kinds_to_texts(object, "parameter_globals", shape)? {
        let Ok(rule) = <[&str; 5]>::try_from(parts) else {
            bail!("parameter_globals of `{kind}` must be {shape}");
        };
        grammar.add_parameter_global(kind, rule)?;
    }
    for (kind, fields) in kinds_to_texts(object, "unwraps", "[field]")? {
        let [field] = fields[..] else {
            bail!("unwraps of `{kind}` must be [field]");
        };
        grammar.add_unwrap(kind, field)?;
    }
    for (kind, texts) in kinds_to_texts(object, "sequences", "[text]")? {
        let [text] = texts[..] else {
            bail!("sequences of `{kind}` must be [text]");
        };
        grammar.add_sequence(kind, text)?;
    }
    let shape = "[path field, local path kind]";
    for (kind, parts) in kinds_to_texts(object, "includes", shape)? {
        let [field, local] = parts[..] else {
            bail!("includes of `{kind}` must be {shape}");
        };
        grammar.add_include(kind, field, local)?;
    }
    Ok(())
}

/// `statement_values`: kinds to `{"within": [kinds], "value": [fields],
/// "terminator": text, "keep": [fields], "joiner": text}` (the last three
/// optional).
fn apply_statement_values(grammar: &mut Grammar, object: &Object) -> Result<()> {
    let Some(map) = object.get("statement_values") else {
        return Ok(());
    };
    let shape = "`statement_values` must map kinds to {\"within\": [kinds], \"value\": [fields], \"terminator\": text, \"keep\": [fields], \"joiner\": text}";
    for (kind, rule) in map.as_object().context(shape)? {
        let texts = |key: &str| -> Result<Vec<&str>> {
            match rule.get(key) {
                None if key == "keep" => Ok(Vec::new()),
                value => value
                    .and_then(Value::as_array)
                    .context(shape)?
                    .iter()
                    .map(|v| v.as_str().context(shape))
                    .collect(),
            }
        };
        let text = |key: &str| -> Result<Option<&str>> {
            rule.get(key).map(|t| t.as_str().context(shape)).transpose()
        };
        let optional = ValueShape {
            terminator: text("terminator")?,
            keep: texts("keep")?,
            joiner: text("joiner")?,
        };
        grammar.add_statement_value(kind, &texts("within")?, &texts("value")?, optional)?;
    }
    Ok(())
}

/// The lists of kinds: `identifiers`, `never_delete`, `paired_tokens`,
/// `implied_tokens`.
fn apply_kind_lists(grammar: &mut Grammar, object: &Object) -> Result<()> {
    type AddKind = fn(&mut Grammar, &str) -> Result<()>;
    let kind_lists: [(&str, AddKind); 4] = [
        ("identifiers", Grammar::add_identifier),
        ("never_delete", Grammar::add_never_delete),
        ("paired_tokens", Grammar::add_paired_token),
        ("implied_tokens", Grammar::add_implied_token),
    ];
    for (key, add) in kind_lists {
        let kinds = texts_of(object, key, "kind")?;
        for kind in &kinds {
            add(grammar, kind)?;
        }
        if key == "paired_tokens" && kinds.len() % 2 != 0 {
            bail!("`paired_tokens` must list pairs: an opening token, then its closing one");
        }
    }
    Ok(())
}

/// `replacements`: kinds (or `<kind> as <field>`) to lists of texts.
fn apply_replacements(grammar: &mut Grammar, object: &Object) -> Result<()> {
    let Some(map) = object.get("replacements") else {
        return Ok(());
    };
    let map = map
        .as_object()
        .context("`replacements` must map node kinds to lists of texts")?;
    for (key, texts) in map {
        let texts = texts
            .as_array()
            .with_context(|| format!("replacements of `{key}` must be a list"))?;
        let (kind, field) = replacement_key(key);
        for text in texts {
            let text = text
                .as_str()
                .with_context(|| format!("a replacement of `{key}` is not a string"))?;
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

/// The list of texts under `key` (none if it is absent); `what` names an
/// entry in messages ("kind", "text").
fn texts_of<'a>(object: &'a Object, key: &str, what: &str) -> Result<Vec<&'a str>> {
    let Some(list) = object.get(key) else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .with_context(|| format!("`{key}` must be a list of {what}s"))?;
    list.iter()
        .map(|v| {
            v.as_str()
                .with_context(|| format!("a `{key}` {what} is not a string"))
        })
        .collect()
}

/// The list of texts under `key`, as bytes (none if it is absent).
fn words_of(object: &Object, key: &str) -> Result<Vec<Vec<u8>>> {
    Ok(texts_of(object, key, "text")?
        .into_iter()
        .map(|w| w.as_bytes().to_vec())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_data_with_unknown_kinds_or_keys_is_rejected() {
        let mut g = Grammar::from_node_types("json", tree_sitter_json::NODE_TYPES).unwrap();
        let bad_kind = r#"{"description": "x", "separators": {"arrray": [","]}}"#;
        assert!(apply_grammar_data(&mut g, bad_kind).is_err());
        let bad_token = r#"{"description": "x", "separators": {"array": [";"]}}"#;
        assert!(apply_grammar_data(&mut g, bad_token).is_err());
        let bad_optional = r#"{"description": "x", "optional_tokens": {"array": ["x"]}}"#;
        assert!(apply_grammar_data(&mut g, bad_optional).is_err());
        let bad_key = r#"{"description": "x", "seperators": {}}"#;
        assert!(apply_grammar_data(&mut g, bad_key).is_err());
        let no_description = r#"{"separators": {}}"#;
        assert!(apply_grammar_data(&mut g, no_description).is_err());
        let replacements = r#"{"description": "x", "replacements": {"array": ["[]"]}}"#;
        assert!(apply_grammar_data(&mut g, replacements).is_ok());
        let array = g.find_kind("array", true).unwrap();
        assert_eq!(&*g.replacements(array)[0].text, b"[]");
        let as_key = r#"{"description": "x", "replacements": {"string as key": ["\"\""]}}"#;
        assert!(apply_grammar_data(&mut g, as_key).is_ok());
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
        ] {
            assert!(apply_grammar_data(&mut g, bad).is_err(), "{bad}");
        }
    }
}

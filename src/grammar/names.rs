//! What a grammar says about names (`names` in grammars/*.json): which
//! nodes declare one and where their name is, which wrappers go with a
//! declaration, which lists hold statements, and which function bodies
//! may give way to a declaration or an empty body.
//!
//! Why: the tree says what may be deleted syntactically; names say what
//! must go together. A declaration nothing mentions may go, and with it
//! what only it mentioned (`crate::tree::names` builds the index, the
//! bulk passes of `crate::policy` use it). node-types cannot tell a
//! declaration from a use, so this is data, checked against the grammar
//! when it is loaded.

use std::sync::Arc;

use anyhow::{Result, bail};
use rustc_hash::FxHashMap as HashMap;

use super::schema::{self, Names};
use super::{Grammar, KindId};

/// A function body that may give way to a shorter one (`bodies`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Body {
    /// The field of the function holding its body.
    pub field: String,
    /// What the body becomes: `;` where a declaration will do (C), else
    /// the emptiest body the language accepts.
    pub text: Arc<[u8]>,
    /// Kinds of the function's other children that go with the body (a
    /// C++ constructor's member initializers).
    pub with: Vec<KindId>,
}

/// The name facts of one grammar; empty when its data file says nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameFacts {
    /// Kinds whose nodes declare a name (sorted).
    declarations: Vec<KindId>,
    /// Fields followed from a declaration down to its name token, in the
    /// order tried at each step.
    pub name_fields: Vec<String>,
    /// Fields holding the value a declaration gives its name, on the way
    /// to the name (`value` of C's `init_declarator`).
    pub value_fields: Vec<String>,
    /// Kinds that wrap a declaration and go with it (C++'s
    /// `template_declaration`, a JavaScript `export_statement`; sorted).
    wrappers: Vec<KindId>,
    /// Kinds whose children are statements or items: a use of a name is
    /// deleted with the child of such a node that holds it (sorted).
    statement_lists: Vec<KindId>,
    /// Declarations whose name is the last part of a path in a string
    /// (Go's `import "net/http"` declares `http`): kind → the path's field.
    path_names: HashMap<KindId, String>,
    /// Functions whose bodies may give way to a shorter text.
    bodies: HashMap<KindId, Body>,
    /// A literal a name's uses may become, and its kind (`0`, C's
    /// `number_literal`): only where the use's slot takes that kind.
    pub literal: Option<(Arc<[u8]>, KindId)>,
}

impl NameFacts {
    pub(crate) fn declares(&self, kind: KindId) -> bool {
        self.declarations.binary_search(&kind).is_ok()
    }

    pub(crate) fn wraps(&self, kind: KindId) -> bool {
        self.wrappers.binary_search(&kind).is_ok()
    }

    pub(crate) fn holds_statements(&self, kind: KindId) -> bool {
        self.statement_lists.binary_search(&kind).is_ok()
    }

    /// The field holding the path a declaration of `kind` is named after.
    pub(crate) fn path_name(&self, kind: KindId) -> Option<&str> {
        self.path_names.get(&kind).map(String::as_str)
    }

    pub(crate) fn body(&self, kind: KindId) -> Option<&Body> {
        self.bodies.get(&kind)
    }

    /// Whether the grammar declares any names at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.declarations.is_empty()
    }

    /// Whether some function body may be shortened.
    pub(crate) fn has_bodies(&self) -> bool {
        !self.bodies.is_empty()
    }
}

impl Grammar {
    /// Applies the `names` entry of a data file (see grammars/README.md).
    pub(crate) fn apply_names(&mut self, rule: &Names) -> Result<()> {
        let kinds = |list: &[String]| -> Result<Vec<KindId>> {
            let mut kinds = list
                .iter()
                .map(|k| self.named_kind(k))
                .collect::<Result<Vec<_>>>()?;
            kinds.sort_unstable();
            kinds.dedup();
            Ok(kinds)
        };
        let mut facts = NameFacts {
            declarations: kinds(&rule.declarations)?,
            wrappers: kinds(&rule.wrappers)?,
            statement_lists: kinds(&rule.statement_lists)?,
            ..NameFacts::default()
        };
        for field in &rule.name_fields {
            self.check_fields("names.name_fields", &[field])?;
            facts.name_fields.push(field.clone());
        }
        for field in &rule.value_fields {
            self.check_fields("names.value_fields", &[field])?;
            facts.value_fields.push(field.clone());
        }
        for (kind, field) in &rule.path_names {
            let k = self.kind_with_fields(kind, &[field])?;
            facts.path_names.insert(k, field.clone());
        }
        if let Some(literal) = &rule.literal {
            let kind = self.named_kind(&literal.kind)?;
            facts.literal = Some((Arc::from(literal.text.as_bytes()), kind));
        }
        for (kind, body) in &rule.bodies {
            let (k, body) = self.body_rule(kind, body)?;
            facts.bodies.insert(k, body);
        }
        self.names = facts;
        Ok(())
    }

    /// One `bodies` entry, checked against the grammar.
    fn body_rule(&self, kind: &str, rule: &schema::Body) -> Result<(KindId, Body)> {
        if rule.text.trim().is_empty() {
            bail!("names.bodies of `{kind}`: the text must not be blank");
        }
        let k = self.kind_with_fields(kind, &[&rule.field])?;
        let with = rule
            .with
            .iter()
            .map(|w| self.named_kind(w))
            .collect::<Result<Vec<_>>>()?;
        let body = Body {
            field: rule.field.clone(),
            text: Arc::from(rule.text.as_bytes()),
            with,
        };
        Ok((k, body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c() -> Grammar {
        Grammar::from_node_types("c", tree_sitter_c::NODE_TYPES).unwrap()
    }

    /// Applies a `names` entry given as JSON to `g`.
    fn apply(g: &mut Grammar, names: serde_json::Value) -> Result<()> {
        g.apply_names(&serde_json::from_value(names)?)
    }

    #[test]
    fn name_facts_name_kinds_and_fields_the_grammar_has() {
        let mut g = c();
        let good = serde_json::json!({
            "declarations": ["function_definition", "declaration"],
            "name_fields": ["declarator"],
            "wrappers": [],
            "statement_lists": ["translation_unit", "compound_statement"],
            "bodies": {"function_definition": {"field": "body", "text": ";"}}
        });
        apply(&mut g, good).unwrap();
        let f = g.find_kind("function_definition", true).unwrap();
        assert!(g.names.declares(f));
        assert_eq!(&*g.names.body(f).unwrap().text, b";");
        let block = g.find_kind("compound_statement", true).unwrap();
        assert!(g.names.holds_statements(block) && !g.names.declares(block));
        for bad in [
            serde_json::json!({"declarations": ["function_definitoin"]}),
            serde_json::json!({"name_fields": ["declaratr"]}),
            serde_json::json!({"bodies": {"function_definition": {"field": "bdy", "text": ";"}}}),
            serde_json::json!({"bodies": {"function_definition": {"field": "body", "text": " "}}}),
            serde_json::json!({"literal": {"text": "0", "kind": "number_literl"}}),
            serde_json::json!({"literal": ["0", "number_literal"]}),
            serde_json::json!({"declaration": ["declaration"]}),
            serde_json::json!(["declaration"]),
        ] {
            assert!(apply(&mut c(), bad.clone()).is_err(), "{bad}");
        }
    }
}

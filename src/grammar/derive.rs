//! Grammar facts derived from what a parse tree shows, for every language:
//! what node-types cannot say and a data file need not (a grammar loaded
//! with `--grammar` may have no data file at all).
//!
//! node-types lists the named children of each kind and, for each slot,
//! whether it holds many children or may be empty, which already tells
//! which nodes may be deleted as a whole. It does not list the anonymous
//! tokens outside fields, so it cannot say which of them separate list
//! elements. A tree does: an anonymous token standing alone between two
//! named siblings that fill the same `multiple` slot (`,` in `f(a, b)`,
//! `|` in `a | b`, Go's `;` or newline between statements) separates that
//! slot's elements, and deleting an element must take one of them along.

use super::{Grammar, KindId};

impl Grammar {
    /// Adds the separators a tree shows: each `(parent, token)` is a
    /// parent kind and the kind of an anonymous token found alone between
    /// two of its children that fill the same `multiple` slot. A parent
    /// kind the data file gives separators keeps those alone, and tokens
    /// that may go on their own there (`optional_tokens`) or are brackets
    /// (`paired_tokens`) are never separators.
    pub(crate) fn derive_separators(&mut self, gaps: impl IntoIterator<Item = (KindId, KindId)>) {
        for (parent, token) in gaps {
            if self.separators_declared.contains(&parent)
                || self.is_named(token)
                || self.is_optional_token(parent, token)
                || self.is_paired_token(token)
            {
                continue;
            }
            let tokens = self.separators.entry(parent).or_default();
            if !tokens.contains(&token) {
                tokens.push(token);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOY: &str = r#"[
      {"type": "args", "named": true, "fields": {},
       "children": {"multiple": true, "required": false, "types": [{"type": "id", "named": true}]}},
      {"type": "id", "named": true},
      {"type": ",", "named": false},
      {"type": ";", "named": false},
      {"type": "(", "named": false}
    ]"#;

    #[test]
    fn a_token_between_elements_of_a_list_becomes_its_separator_unless_data_says_otherwise() {
        let mut g = Grammar::from_node_types("toy", TOY).unwrap();
        let [args, comma, semi, paren] = [("args", true), (",", false), (";", false), ("(", false)]
            .map(|(k, named)| g.find_kind(k, named).unwrap());
        g.add_paired_token("(").unwrap();
        g.derive_separators([(args, comma), (args, comma), (args, paren)]);
        assert!(g.is_separator(args, comma));
        assert!(!g.is_separator(args, paren), "a bracket is no separator");
        assert_eq!(g.separators[&args].len(), 1);
        let mut declared = Grammar::from_node_types("toy", TOY).unwrap();
        declared.add_separator("args", ";").unwrap();
        declared.derive_separators([(args, comma)]);
        assert!(declared.is_separator(args, semi));
        assert!(
            !declared.is_separator(args, comma),
            "the data file's list stands"
        );
    }
}

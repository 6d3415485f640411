//! Literal interiors: the characters inside strings, regular expressions
//! and template literals, cut down to those the oracle needs.
//!
//! Why: for the tree a literal's inside is one token, so a regular
//! expression of 90 characters of which a bug needs 8 stays whole, and a
//! long string keeps every byte. C-Vise's character passes get there; here
//! it is one pass over the tokens the grammar marks as a literal's inside
//! (`literal_insides` in `grammars/<lang>.json`: the text between the
//! delimiters, escapes being tokens of their own). The delimiters, flags
//! and escape tokens are never touched, and inside a token a backslash
//! and the character after it (and a UTF-8 character's bytes) stay
//! together: an *atom*.
//!
//! Insides that read the same are one *group*, rewritten together (a key
//! looked up in one place and defined in another must stay equal). For
//! each group, longest first, cheap steps first: the whole inside emptied,
//! then chunks of its atoms removed, halves first, then quarters, down to
//! single atoms (at most [`MAX_CHUNKS`] chunks a level, so a long text
//! ends at a coarser step). A chunk that goes leaves the next one in its
//! place, tried next. A group that [`BARE_LEVELS`] levels in a row cut
//! nothing from is taken as needed whole (a key the oracle looks up):
//! a 16-character key costs 15 tests instead of 31.
//!
//! Termination: every proposal makes the group's text strictly shorter.
//! Schedule: like `crate::policy::idreplace::IdReplace`, a success ends
//! the reduce loop's pass, the next pass resumes at the same group, chunk
//! size and position; the policy stops when the last group is done.

use std::sync::Arc;

use crate::configuration::{Configuration, Delta, Proposal};
use crate::policy::Policy;
use crate::tree::Tree;
use crate::units::{Units, would_fuse};

/// The most chunks one level of a group's text is cut into: a longer text
/// stops at chunks of `len / MAX_CHUNKS` atoms.
pub(crate) const MAX_CHUNKS: usize = 256;

/// After this many levels in a row that cut nothing from a group, the
/// group is left as it is.
pub(crate) const BARE_LEVELS: u8 = 3;

/// Shortens literal insides, group by group.
#[derive(Clone)]
pub(crate) struct Interiors {
    tree: Arc<Tree>,
    units: Arc<Units>,
    /// Groups of kept inside tokens reading the same text, longest first;
    /// `None` before the first pass.
    groups: Option<Arc<Vec<Vec<u32>>>>,
    /// The group being shortened.
    group: usize,
    /// Atoms a chunk holds (0: the whole inside is tried next).
    chunk: usize,
    /// The first atom of the next chunk.
    at: usize,
    /// Whether the current level cut something.
    cut: bool,
    /// Levels in a row that cut nothing from the group.
    bare: u8,
}

impl Interiors {
    pub(crate) fn new(tree: Arc<Tree>, units: Arc<Units>) -> Self {
        Interiors {
            tree,
            units,
            groups: None,
            group: 0,
            chunk: 0,
            at: 0,
            cut: false,
            bare: 0,
        }
    }

    /// Whether unit `u` is a literal's inside, outside an include
    /// directive (whose path names a file).
    fn is_inside(&self, u: u32) -> bool {
        let tree = &self.tree;
        let leaf = tree.leaf_of(u);
        let parent = tree.parent(leaf).map(|p| tree.kind(p));
        if !tree.grammar.is_literal_inside(tree.kind(leaf), parent) {
            return false;
        }
        let mut up = tree.parent(leaf);
        while let Some(n) = up {
            if tree.grammar.include(tree.kind(n)).is_some() {
                return false;
            }
            up = tree.parent(n);
        }
        true
    }

    /// The text unit `u` renders as in `config`, without the whitespace
    /// after it (which the rendering keeps).
    fn text<'a>(&'a self, config: &'a Configuration, u: u32) -> &'a [u8] {
        match config.rewrites.get(&u) {
            Some(text) => text,
            None => {
                let own = self.units.text(u);
                own.trim_ascii_end()
            }
        }
    }

    /// The kept insides of `config` grouped by text, longest first (ties
    /// in text order).
    fn groups_of(&self, config: &Configuration) -> Vec<Vec<u32>> {
        let mut by_text: std::collections::HashMap<&[u8], usize> = Default::default();
        let mut groups: Vec<(usize, Vec<u32>)> = Vec::new();
        for u in config.kept.iter().filter(|&u| self.is_inside(u)) {
            let text = self.text(config, u);
            if text.is_empty() {
                continue;
            }
            let at = *by_text.entry(text).or_insert_with(|| {
                groups.push((text.len(), Vec::new()));
                groups.len() - 1
            });
            groups[at].1.push(u);
        }
        groups.sort_by_key(|g| std::cmp::Reverse(g.0));
        groups.into_iter().map(|g| g.1).collect()
    }

    /// Whether `text`, in place of unit `u`'s, would fuse with the kept
    /// token before it where the current text does not (the rendering
    /// would then put a space inside the literal).
    fn fuses_before(&self, config: &Configuration, u: u32, text: &[u8]) -> bool {
        let Some(before) = u.checked_sub(1).filter(|&b| config.kept.contains(b)) else {
            return false;
        };
        let own = self.units.text(before);
        if own.last().is_some_and(u8::is_ascii_whitespace) {
            return false;
        }
        let Some(&last) = self.text(config, before).last() else {
            return false;
        };
        let first = |t: &[u8]| t.first().is_some_and(|&b| would_fuse(last, b));
        first(text) && !first(self.text(config, u))
    }

    /// The next proposal for the current group, advancing the cursor past
    /// it; `None` when the group is done.
    fn next_in_group(&mut self, config: &Configuration, members: &[u32]) -> Option<Proposal> {
        let live: Vec<u32> = members
            .iter()
            .copied()
            .filter(|&u| config.kept.contains(u))
            .collect();
        let first = *live.first()?;
        let text = self.text(config, first).to_vec();
        let atoms = atom_starts(&text);
        if self.chunk == 0 {
            self.chunk = (atoms.len() / 2).max(1);
            self.at = 0;
            (self.cut, self.bare) = (false, 0);
            if atoms.len() > 1 {
                return Some(rewrite(&live, Vec::new()));
            }
        }
        let floor = atoms.len().div_ceil(MAX_CHUNKS).max(1);
        while self.chunk >= floor {
            while self.at < atoms.len() {
                let (from, to) = (self.at, (self.at + self.chunk).min(atoms.len()));
                self.at = to;
                let end = atoms.get(to).copied().unwrap_or(text.len());
                let mut shorter = text[..atoms[from]].to_vec();
                shorter.extend_from_slice(&text[end..]);
                if live.iter().any(|&u| self.fuses_before(config, u, &shorter)) {
                    continue;
                }
                return Some(rewrite(&live, shorter));
            }
            self.bare = if self.cut { 0 } else { self.bare + 1 };
            if self.chunk == 1 || self.bare >= BARE_LEVELS {
                break;
            }
            self.chunk /= 2;
            (self.at, self.cut) = (0, false);
        }
        None
    }
}

/// `units` rewritten to `text`. An empty inside is a rewrite, not a
/// deletion: the rendering would part a deleted token's neighbours with a
/// space where they would fuse (`\x41` and the closing quote).
fn rewrite(units: &[u32], text: Vec<u8>) -> Proposal {
    let text: Arc<[u8]> = Arc::from(text);
    Proposal {
        delta: Delta::new(),
        rewrites: units.iter().map(|&u| (u, Arc::clone(&text))).collect(),
        layout: None,
    }
}

/// The byte offsets where the atoms of `text` start: a backslash with the
/// character after it is one atom, a UTF-8 character's bytes are one.
pub(crate) fn atom_starts(text: &[u8]) -> Vec<usize> {
    let mut starts = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        starts.push(i);
        let mut end = i + 1;
        if text[i] == b'\\' && end < text.len() {
            end += 1;
        }
        while end < text.len() && text[end] & 0xC0 == 0x80 {
            end += 1;
        }
        i = end;
    }
    starts
}

impl Policy for Interiors {
    fn name(&self) -> String {
        "interiors".into()
    }

    fn start_pass(&mut self, config: &Configuration) {
        if self.groups.is_none() {
            self.groups = Some(Arc::new(self.groups_of(config)));
            self.group = 0;
            self.chunk = 0;
        }
    }

    fn next_proposal(&mut self, config: &Configuration) -> Option<Proposal> {
        let groups = Arc::clone(self.groups.as_ref()?);
        while let Some(members) = groups.get(self.group) {
            if let Some(proposal) = self.next_in_group(config, members) {
                return Some(proposal);
            }
            self.group += 1;
            self.chunk = 0;
        }
        None
    }

    fn on_reduced(&mut self, reduced: Option<&Configuration>) -> bool {
        match reduced {
            // The chunk after the one that went is now at `at - chunk`;
            // a whole inside emptied leaves nothing to try.
            Some(_) => {
                self.at = self.at.saturating_sub(self.chunk);
                self.cut = true;
                true
            }
            None => {
                self.groups = None;
                false
            }
        }
    }

    fn clone_box(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::languages::Language;

    fn parsed(lang: &str, src: &str) -> (Arc<Tree>, Arc<Units>) {
        let (tree, units) = crate::tree::parse::parse(Language::named(lang), src.into()).unwrap();
        (Arc::new(tree), Arc::new(units))
    }

    /// Runs the policy to its end on `src` with `interesting` as the
    /// oracle, committing every interesting proposal; returns the text.
    fn reduce(lang: &str, src: &str, interesting: impl Fn(&str) -> bool) -> (String, usize) {
        let (tree, units) = parsed(lang, src);
        let mut policy = Interiors::new(tree, Arc::clone(&units));
        let mut config = Configuration::full(units.len());
        let mut tests = 0;
        loop {
            policy.start_pass(&config);
            let mut passed = None;
            while let Some(p) = policy.next_proposal(&config) {
                let Some(next) = config.apply(&p) else {
                    continue;
                };
                tests += 1;
                if interesting(&String::from_utf8(units.render(&next)).unwrap()) {
                    passed = Some(next);
                    break;
                }
            }
            let go_on = policy.on_reduced(passed.as_ref());
            if let Some(next) = passed {
                config = next;
            }
            if !go_on {
                return (String::from_utf8(units.render(&config)).unwrap(), tests);
            }
        }
    }

    #[test]
    fn a_regular_expression_keeps_only_the_characters_its_test_needs() {
        let src = "var r = /^(?:[a-z]+)\\d{2,4}-needle-(?:x|y|z)+$/g;\n";
        let (out, _) = reduce("javascript", src, |t| {
            t.contains("/g;") && t.contains("needle") && t.starts_with("var r = /")
        });
        assert_eq!(out, "var r = /needle/g;\n");
    }

    #[test]
    fn escapes_stay_whole_and_delimiters_stay() {
        // The escapes are tokens of their own, for the deletion passes.
        let (out, _) = reduce("python", "s = \"ab\\ncd\\x41ef\"\n", |t| {
            t.contains("\\x41")
        });
        assert_eq!(out, "s = \"\\n\\x41\"\n");
        let (out, _) = reduce("javascript", "s = `a${b}cd`;\n", |t| t.contains("${b}"));
        assert_eq!(out, "s = `${b}`;\n");
    }

    #[test]
    fn insides_that_read_the_same_shrink_together() {
        let src = "{\"alpha-beta\": {\"k\": 1}, \"x\": {\"alpha-beta\": 2}}\n";
        // Equal texts needed twice: one changed alone always fails.
        let (out, _) = reduce("json", src, |t| {
            let parts: Vec<&str> = t.split('"').collect();
            parts.len() > 3 && parts.iter().filter(|p| p.contains('-')).count() == 2 && {
                let keys: Vec<&&str> = parts.iter().filter(|p| p.contains('-')).collect();
                keys[0] == keys[1]
            }
        });
        assert_eq!(out, "{\"-\": {\"\": 1}, \"\": {\"-\": 2}}\n");
    }

    #[test]
    fn an_inside_needed_whole_is_left_after_three_levels_that_cut_nothing() {
        let (out, tests) = reduce("json", "{\"application/toml\": 1}\n", |t| {
            t.contains("application/toml")
        });
        assert_eq!(out, "{\"application/toml\": 1}\n");
        // Emptied, then halves, quarters and eighths: no single characters.
        assert_eq!(tests, 1 + 2 + 4 + 8);
    }

    #[test]
    fn atoms_keep_escapes_and_utf8_characters_whole() {
        assert_eq!(atom_starts(b"a\\nb"), vec![0, 1, 3]);
        assert_eq!(atom_starts("é\\".as_bytes()), vec![0, 2]);
        assert_eq!(atom_starts(b""), Vec::<usize>::new());
    }
}

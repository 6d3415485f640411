//! Declarations whose name nothing else mentions, deleted many at once,
//! each with what it alone mentioned.
//!
//! Why: a preprocessed C++ unit declares thousands of names its program
//! never uses; the tree policies delete them one list element at a time.
//! And in Go a function that alone used an import cannot go without it,
//! nor the import without the function: a seed here is the function's
//! declarations together with every declaration whose last mention it
//! deletes ([`Usage::closure`]), so both go in one candidate.
//!
//! A seed is one name with live declarations and no kept mention outside
//! them (`crate::tree::names`), in the order of its first declaration;
//! the bulk engine (`crate::policy::bulk`) tries them all at once, then
//! in halves, and recomputes the names after each success, so a deletion
//! that leaves more names unused is followed by theirs.

use std::sync::Arc;

use crate::configuration::{Configuration, Proposal};
use crate::policy::bulk::{EditSource, Seed, union};
use crate::tree::names::{NameIndex, Usage};
use crate::tree::{NodeId, Tree};

/// Unused declarations, in bulk.
pub(crate) struct Unused {
    tree: Arc<Tree>,
    index: Arc<NameIndex>,
}

impl Unused {
    pub(crate) fn new(tree: Arc<Tree>, index: Arc<NameIndex>) -> Self {
        Unused { tree, index }
    }
}

impl EditSource for Unused {
    type Pass = Usage;

    fn name(&self) -> &'static str {
        "unused"
    }

    fn seeds(&self, config: &Configuration) -> (Usage, Vec<Seed>) {
        let (tree, index) = (&*self.tree, &*self.index);
        let usage = Usage::new(index, tree, config);
        let mut seen = vec![false; index.spellings()];
        let mut seeds = Vec::new();
        for (d, declaration) in index.declarations().iter().enumerate() {
            let s = declaration.spelling;
            if seen[s as usize] || !usage.is_live(d as u32) || !usage.unused(s) {
                continue;
            }
            seen[s as usize] = true;
            let items: Vec<NodeId> = usage
                .live_items(index, s)
                .filter(|&n| tree.deletable(n))
                .collect();
            if items.is_empty() {
                continue;
            }
            seeds.push(Seed {
                proposal: Proposal::delete(tree.deletion_delta(&items, config)),
                key: u64::from(s),
            });
        }
        (usage, seeds)
    }

    fn combine(&self, usage: &Usage, config: &Configuration, seeds: &[Seed]) -> Proposal {
        let delta = union(seeds).delta;
        Proposal::delete(usage.closure(&self.index, &self.tree, config, &delta))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::interfaces::{Candidate, Quiet, Verdict};
    use crate::languages::Language;
    use crate::policy::Policy;
    use crate::policy::bulk::Bulk;

    /// The text `unused` leaves of `source` for an oracle that wants every
    /// one of `needed` in it, words joined by single spaces, and the tests.
    fn reduce(lang: &str, source: &str, needed: &[&str]) -> (String, u64) {
        let (tree, units) =
            crate::tree::parse::parse(Language::named(lang), source.as_bytes().to_vec()).unwrap();
        let tree = Arc::new(tree);
        let index = Arc::new(NameIndex::new(&tree, &units));
        let mut policy: Box<dyn Policy> = Box::new(Bulk::new(Unused::new(tree, index)));
        let oracle = |c: &Candidate<'_>| {
            let text = String::from_utf8_lossy(c.bytes);
            if needed.iter().all(|n| text.contains(n)) {
                Verdict::Interesting
            } else {
                Verdict::NotInteresting
            }
        };
        let mut engine = Engine::new(&units, &oracle);
        let full = Configuration::full(units.len());
        let (result, _) = engine.run(&mut policy, full, &mut Quiet);
        let text = String::from_utf8(units.render(&result)).unwrap();
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        (words, engine.tests_total())
    }

    #[test]
    fn unused_declarations_go_together_with_what_only_they_used() {
        // `helper` is used only by `unused_caller`, which nothing calls:
        // both go in one test; `kept` is called from main and stays.
        let source = "static int helper(int a) { return a; }\n\
                      int unused_caller(void) { return helper(2); }\n\
                      int kept(void) { return 1; }\n\
                      int main(void) { return kept(); }\n";
        let (text, tests) = reduce("c", source, &["main", "kept"]);
        assert_eq!(
            text,
            "int kept(void) { return 1; } int main(void) { return kept(); }"
        );
        // Everything (main too, which nothing mentions), then the halves:
        // the first, with the two unused functions, passes.
        assert_eq!(tests, 2);
    }

    #[test]
    fn a_go_import_goes_with_the_function_that_alone_used_it() {
        let source = "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n\
                      func unused() bool { return strings.HasPrefix(\"a\", \"b\") }\n\n\
                      func main() { fmt.Println(1) }\n";
        let (text, _) = reduce("go", source, &["func main", "fmt.Println", "\"fmt\""]);
        assert!(
            !text.contains("strings") && !text.contains("unused"),
            "{text}"
        );
    }
}

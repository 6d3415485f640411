//! The tutorial's tree examples, rebuilt with [`ToyBuilder`] and run through
//! the real reduce loop (cache off): the oracle-call counts and the results
//! must be exactly the tutorial's.
//!
//! Node ids mirror the tutorial's: explicit in the HDD and WDD chapters,
//! creation order (bottom-up) in the Perses and T-PDD chapters, so ranks,
//! list order and tie-breaks are the same.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::configuration::Configuration;
use crate::engine::Engine;
use crate::interfaces::{Candidate, Quiet, Verdict};
use crate::policy::hdd::{Hdd, HddOptions};
use crate::policy::perses::{PERSES_REPLACEMENT_DEPTH, Perses, PersesOptions, PersesSchedule};
use crate::policy::testing::XorShift;
use crate::policy::tpdd::{TPdd, TPddOptions};
use crate::policy::{Minimizer, MinimizerSettings, Policy};
use crate::tree::toy::{NESTED_IF_NODE_TYPES, ToyBuilder};
use crate::tree::{NodeId, Tree};
use crate::units::Units;

/// What a run ended with.
struct Outcome {
    /// The rendered result, whitespace collapsed.
    text: String,
    kept: Vec<u32>,
    calls: u32,
}

/// Runs `policy` from the full input with the cache off, counting oracle calls.
fn run(
    units: &Units,
    policy: Box<dyn Policy>,
    interesting: impl Fn(&Candidate<'_>) -> bool + Sync,
) -> Outcome {
    run_from(
        units,
        policy,
        Configuration::full(units.len()),
        1,
        interesting,
    )
}

/// Runs `policy` from `start` with `jobs` tests in flight and the cache off,
/// counting oracle calls.
fn run_from(
    units: &Units,
    policy: Box<dyn Policy>,
    start: Configuration,
    jobs: usize,
    interesting: impl Fn(&Candidate<'_>) -> bool + Sync,
) -> Outcome {
    run_with_cache(units, policy, start, jobs, false, interesting)
}

/// Runs `policy` from `start` with `jobs` tests in flight, the verdict
/// cache on or off, counting oracle calls.
fn run_with_cache(
    units: &Units,
    mut policy: Box<dyn Policy>,
    start: Configuration,
    jobs: usize,
    cache: bool,
    interesting: impl Fn(&Candidate<'_>) -> bool + Sync,
) -> Outcome {
    let calls = AtomicU32::new(0);
    let oracle = |c: &Candidate<'_>| {
        calls.fetch_add(1, Ordering::SeqCst);
        if interesting(c) {
            Verdict::Interesting
        } else {
            Verdict::NotInteresting
        }
    };
    let mut engine = Engine::new(units, &oracle)
        .with_cache(cache)
        .with_jobs(jobs);
    let (result, _) = engine.run(&mut policy, start, &mut Quiet);
    Outcome {
        text: collapse(&units.render(&result)),
        kept: result.kept.iter().collect(),
        calls: calls.load(Ordering::SeqCst),
    }
}

fn collapse(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The unit of the leaf the builder named `rank`.
fn unit_of(tree: &Tree, rank: u32) -> u32 {
    let node = (0..tree.len() as NodeId)
        .find(|&n| tree.rank(n) == rank)
        .expect("a node of that rank");
    assert!(tree.is_leaf(node));
    tree.tokens(node).start
}

fn hdd(tree: &Arc<Tree>, inner: Minimizer, options: HddOptions) -> Box<dyn Policy> {
    Box::new(Hdd::new(
        Arc::clone(tree),
        inner,
        MinimizerSettings::default(),
        options,
    ))
}

fn hdd_from(tree: &Arc<Tree>, inner: Minimizer, start_level: u32) -> Box<dyn Policy> {
    let options = HddOptions {
        start_level,
        ..HddOptions::default()
    };
    hdd(tree, inner, options)
}

fn perses(tree: &Arc<Tree>, inner: Minimizer) -> Box<dyn Policy> {
    Box::new(Perses::new(
        Arc::clone(tree),
        inner,
        MinimizerSettings::default(),
        PersesOptions::tutorial(),
    ))
}

/// Perses with the sweep schedule and the default per-node cap.
fn perses_sweep(tree: &Arc<Tree>, inner: Minimizer) -> Box<dyn Policy> {
    Box::new(Perses::new(
        Arc::clone(tree),
        inner,
        MinimizerSettings::default(),
        PersesOptions {
            schedule: PersesSchedule::Sweep,
            ..PersesOptions::tutorial()
        },
    ))
}

// ---------------------------------------------------------------------------
// The HDD and WDD chapters: generic trees, every non-root node deletable.

/// One buggy function among five noise functions; returns the crash() unit.
fn hdd_chapter_tree() -> (Arc<Tree>, Units, u32) {
    let mut b = ToyBuilder::generic();
    b.insert(0, "program", &[1, 2, 3, 4, 5, 6]);
    b.insert(1, "fn bar", &[7, 8, 9]);
    b.insert(7, "stmt b1", &[]);
    b.insert(8, "if guard", &[20, 21]);
    b.insert(20, "stmt g", &[]);
    b.insert(21, "crash()", &[]);
    b.insert(9, "stmt b2", &[]);
    for (f, s) in [(2, 10), (3, 12), (4, 14), (5, 16), (6, 18)] {
        b.insert(f, "fn", &[s, s + 1]);
        b.insert(s, "stmt", &[]);
        b.insert(s + 1, "stmt", &[]);
    }
    let (tree, units) = b.build(0);
    let crash = unit_of(&tree, 21);
    (Arc::new(tree), units, crash)
}

/// One heavy buggy function and six one-leaf noise functions.
fn wdd_chapter_tree() -> (Arc<Tree>, Units, u32) {
    let mut b = ToyBuilder::generic();
    b.insert(0, "program", &[1, 2, 3, 4, 5, 6, 7]);
    b.insert(1, "fn big", &[8, 20, 21, 22, 23]);
    b.insert(8, "block", &[9, 30, 31, 32]);
    b.insert(9, "if", &[40, 11]);
    b.insert(40, "guard", &[]);
    b.insert(11, "crash()", &[]);
    for s in [20, 21, 22, 23, 30, 31, 32] {
        b.insert(s, "stmt", &[]);
    }
    for f in 2..=7 {
        b.insert(f, &format!("fn n{f}"), &[]);
    }
    let (tree, units) = b.build(0);
    let crash = unit_of(&tree, 11);
    (Arc::new(tree), units, crash)
}

#[test]
fn hdd_with_ddmin_isolates_the_crash_of_the_hdd_chapter_in_11_calls() {
    let (tree, units, crash) = hdd_chapter_tree();
    let out = run(&units, hdd_from(&tree, Minimizer::DdMin, 1), |c| {
        c.keeps(crash)
    });
    assert_eq!(out.kept, vec![crash]);
    assert_eq!(out.text, "crash()");
    assert_eq!(out.calls, 11);
}

#[test]
fn hdd_with_probdd_isolates_the_crash_of_the_hdd_chapter_in_15_calls() {
    let (tree, units, crash) = hdd_chapter_tree();
    let out = run(&units, hdd_from(&tree, Minimizer::ProbDd, 1), |c| {
        c.keeps(crash)
    });
    assert_eq!(out.kept, vec![crash]);
    assert_eq!(out.calls, 15);
}

#[test]
fn hdd_with_ddmin_needs_13_calls_on_the_wdd_chapter_tree() {
    let (tree, units, crash) = wdd_chapter_tree();
    let out = run(&units, hdd_from(&tree, Minimizer::DdMin, 1), |c| {
        c.keeps(crash)
    });
    assert_eq!(out.kept, vec![crash]);
    assert_eq!(out.calls, 13);
}

#[test]
fn hdd_with_wdd_needs_8_calls_on_the_wdd_chapter_tree() {
    let (tree, units, crash) = wdd_chapter_tree();
    let out = run(&units, hdd_from(&tree, Minimizer::Wdd, 1), |c| {
        c.keeps(crash)
    });
    assert_eq!(out.kept, vec![crash]);
    assert_eq!(out.calls, 8);
}

#[test]
fn hdd_star_sweeps_again_only_while_a_sweep_removes_something() {
    // Plain HDD already reaches the crash alone: HDD* adds one sweep that
    // finds nothing, and each of its levels costs the failing tests of a
    // one-element list (ddmin over [crash()] at level 3 tries the empty set).
    let (tree, units, crash) = hdd_chapter_tree();
    let options = HddOptions {
        start_level: 1,
        fixpoint: true,
        any_node: false,
    };
    let out = run(&units, hdd(&tree, Minimizer::DdMin, options), |c| {
        c.keeps(crash)
    });
    assert_eq!(out.kept, vec![crash]);
    // 11 calls of the first sweep, then one failing test per level 1..=3.
    assert_eq!(out.calls, 11 + 3);
}

// ---------------------------------------------------------------------------
// The Perses and T-PDD chapters: `func`, `block`, `stmt_list`, ... built in
// the tutorial's creation order.

/// Mirrors the tutorial's builder: ids in creation order, bottom-up.
struct Nested {
    b: ToyBuilder,
}

impl Nested {
    fn new() -> Self {
        Nested {
            b: ToyBuilder::new(NESTED_IF_NODE_TYPES),
        }
    }

    /// `name ( ) ;`
    fn call(&mut self, name: &str) -> u32 {
        let n = self.b.named_leaf("identifier", name);
        let lp = self.b.tok("(");
        let rp = self.b.tok(")");
        let sc = self.b.tok(";");
        self.b.node(
            "call",
            &[(Some("function"), n), (None, lp), (None, rp), (None, sc)],
        )
    }

    fn list(&mut self, elems: &[u32]) -> u32 {
        let children: Vec<(Option<&str>, u32)> = elems.iter().map(|&e| (None, e)).collect();
        self.b.node("stmt_list", &children)
    }

    /// `{ list }`
    fn block(&mut self, list: u32) -> u32 {
        let lb = self.b.tok("{");
        let rb = self.b.tok("}");
        self.b
            .node("block", &[(None, lb), (Some("list"), list), (None, rb)])
    }

    /// `if ( cond ) body`
    fn if_stmt(&mut self, cond: &str, body: u32) -> u32 {
        let kw = self.b.tok("if");
        let lp = self.b.tok("(");
        let c = self.b.named_leaf("identifier", cond);
        let expr = self.b.node("expr", &[(Some("name"), c)]);
        let rp = self.b.tok(")");
        self.b.node(
            "if_stmt",
            &[
                (None, kw),
                (None, lp),
                (Some("condition"), expr),
                (None, rp),
                (Some("body"), body),
            ],
        )
    }

    /// `int main ( ) body`
    fn func(&mut self, body: u32) -> u32 {
        let t = self.b.tok("int");
        let m = self.b.tok("main");
        let lp = self.b.tok("(");
        let rp = self.b.tok(")");
        self.b.node(
            "func",
            &[
                (None, t),
                (None, m),
                (None, lp),
                (None, rp),
                (Some("body"), body),
            ],
        )
    }

    fn build(self, root: u32) -> (Arc<Tree>, Units) {
        let (tree, units) = self.b.build(root);
        (Arc::new(tree), units)
    }
}

/// The Perses chapter: crash() under three nested ifs, noise() at every
/// level. Returns the tree, its units and the crash identifier's unit.
fn nested_ifs() -> (Arc<Tree>, Units, u32) {
    let mut b = Nested::new();
    let crash = b.call("crash");
    let n0 = b.call("noise");
    let l3 = b.list(&[crash, n0]);
    let blk3 = b.block(l3);
    let if3 = b.if_stmt("c3", blk3);
    let n1 = b.call("noise");
    let l2 = b.list(&[if3, n1]);
    let blk2 = b.block(l2);
    let if2 = b.if_stmt("c2", blk2);
    let n2 = b.call("noise");
    let l1 = b.list(&[if2, n2]);
    let blk1 = b.block(l1);
    let if1 = b.if_stmt("c1", blk1);
    let n3 = b.call("noise");
    let n4 = b.call("noise");
    let l0 = b.list(&[if1, n3, n4]);
    let body = b.block(l0);
    let root = b.func(body);
    let (tree, units) = b.build(root);
    // The call's first child is its identifier, created just before it.
    let crash_unit = tree_unit_of_call(&tree, crash);
    (tree, units, crash_unit)
}

/// The T-PDD chapter: setup(), corrupt() and crash() scattered over three
/// levels, noise() beside each. Returns the units of the three identifiers.
fn scattered_bug() -> (Arc<Tree>, Units, [u32; 3]) {
    let mut b = Nested::new();
    let crash = b.call("crash");
    let n0 = b.call("noise");
    let l2 = b.list(&[crash, n0]);
    let blk2 = b.block(l2);
    let if2 = b.if_stmt("c2", blk2);
    let corrupt = b.call("corrupt");
    let n1 = b.call("noise");
    let l1 = b.list(&[corrupt, if2, n1]);
    let blk1 = b.block(l1);
    let if1 = b.if_stmt("c1", blk1);
    let setup = b.call("setup");
    let n2 = b.call("noise");
    let l0 = b.list(&[setup, if1, n2]);
    let body = b.block(l0);
    let root = b.func(body);
    let (tree, units) = b.build(root);
    let needed = [setup, corrupt, crash].map(|call| tree_unit_of_call(&tree, call));
    (tree, units, needed)
}

/// The unit of a call's identifier (the call's first token).
fn tree_unit_of_call(tree: &Tree, call_rank: u32) -> u32 {
    let node = (0..tree.len() as NodeId)
        .find(|&n| tree.rank(n) == call_rank)
        .expect("the call");
    tree.tokens(node).start
}

/// Whether `src` is a program of the toy grammar:
/// `func ::= int main ( ) block`, `block ::= { stmt* }`,
/// `stmt ::= if ( ident ) block | block | ident ( ) ;`.
fn parses(src: &str) -> bool {
    const RESERVED: [&str; 8] = ["int", "main", "if", "(", ")", "{", "}", ";"];
    let toks: Vec<&str> = src.split_whitespace().collect();
    // Each rule returns where it stopped, or None; alternatives backtrack
    // simply by starting again from the same position.
    let word = |i: usize, w: &str| (toks.get(i) == Some(&w)).then_some(i + 1);
    let ident = |i: usize| {
        toks.get(i)
            .filter(|t| !RESERVED.contains(*t))
            .map(|_| i + 1)
    };
    fn block(
        i: usize,
        word: &dyn Fn(usize, &str) -> Option<usize>,
        ident: &dyn Fn(usize) -> Option<usize>,
    ) -> Option<usize> {
        let mut at = word(i, "{")?;
        while let Some(next) = stmt(at, word, ident) {
            at = next;
        }
        word(at, "}")
    }
    fn stmt(
        i: usize,
        word: &dyn Fn(usize, &str) -> Option<usize>,
        ident: &dyn Fn(usize) -> Option<usize>,
    ) -> Option<usize> {
        let if_stmt = || {
            let at = word(i, "if")?;
            let at = word(at, "(")?;
            let at = ident(at)?;
            let at = word(at, ")")?;
            block(at, word, ident)
        };
        let call = || {
            let at = ident(i)?;
            let at = word(at, "(")?;
            let at = word(at, ")")?;
            word(at, ";")
        };
        if_stmt().or_else(|| block(i, word, ident)).or_else(call)
    }
    let func = || {
        let mut at = 0;
        for w in ["int", "main", "(", ")"] {
            at = word(at, w)?;
        }
        block(at, &word, &ident)
    };
    func() == Some(toks.len())
}

#[test]
fn the_toy_parser_accepts_the_grammar_and_nothing_else() {
    assert!(parses("int main ( ) { }"));
    assert!(parses("int main ( ) { if ( c ) { f ( ) ; { } } g ( ) ; }"));
    assert!(!parses("int main ( ) { crash ( ) }"));
    assert!(!parses("int main ( ) { if ( c ) }"));
    assert!(!parses("int main ( ) { } }"));
    assert!(!parses("int main ( ) { ( ) ; }"));
}

/// Interesting iff crash() survives and the program parses.
fn crash_oracle(crash: u32) -> impl Fn(&Candidate<'_>) -> bool + Sync {
    move |c| c.keeps(crash) && parses(&String::from_utf8_lossy(c.bytes))
}

/// Interesting iff setup(), corrupt() and crash() survive and the program parses.
fn scattered_oracle(needed: [u32; 3]) -> impl Fn(&Candidate<'_>) -> bool + Sync {
    move |c| needed.iter().all(|&u| c.keeps(u)) && parses(&String::from_utf8_lossy(c.bytes))
}

const NESTED_STUCK: &str = "int main ( ) { if ( c1 ) { if ( c2 ) { if ( c3 ) { crash ( ) ; } } } }";
const NESTED_FREED: &str = "int main ( ) { crash ( ) ; }";

#[test]
fn perses_frees_the_crash_from_the_nested_ifs_in_3_calls() {
    let (tree, units, crash) = nested_ifs();
    let out = run(&units, perses(&tree, Minimizer::DdMin), crash_oracle(crash));
    assert_eq!(out.text, NESTED_FREED);
    assert_eq!(out.calls, 3);
}

#[test]
fn hdd_from_level_0_is_stuck_inside_the_nested_ifs_after_9_calls() {
    let (tree, units, crash) = nested_ifs();
    let out = run(
        &units,
        hdd_from(&tree, Minimizer::DdMin, 0),
        crash_oracle(crash),
    );
    assert_eq!(out.text, NESTED_STUCK);
    assert_eq!(out.calls, 9);
}

#[test]
fn hdd_deleting_any_node_frees_the_crash_in_105_calls() {
    let (tree, units, crash) = nested_ifs();
    let options = HddOptions {
        start_level: 0,
        fixpoint: false,
        any_node: true,
    };
    let out = run(
        &units,
        hdd(&tree, Minimizer::DdMin, options),
        crash_oracle(crash),
    );
    assert_eq!(out.text, NESTED_FREED);
    assert_eq!(out.calls, 105);
}

const SCATTERED_BY_DELETION: &str =
    "int main ( ) { setup ( ) ; if ( c1 ) { corrupt ( ) ; if ( c2 ) { crash ( ) ; } } }";
const SCATTERED_BY_PERSES: &str = "int main ( ) { setup ( ) ; { corrupt ( ) ; crash ( ) ; } }";

#[test]
fn hdd_reduces_the_scattered_bug_in_12_calls() {
    let (tree, units, needed) = scattered_bug();
    let out = run(
        &units,
        hdd_from(&tree, Minimizer::DdMin, 0),
        scattered_oracle(needed),
    );
    assert_eq!(out.text, SCATTERED_BY_DELETION);
    assert_eq!(out.calls, 12);
}

#[test]
fn hdd_with_probdd_reduces_the_scattered_bug_in_13_calls() {
    let (tree, units, needed) = scattered_bug();
    let out = run(
        &units,
        hdd_from(&tree, Minimizer::ProbDd, 0),
        scattered_oracle(needed),
    );
    assert_eq!(out.text, SCATTERED_BY_DELETION);
    assert_eq!(out.calls, 13);
}

#[test]
fn perses_reduces_the_scattered_bug_in_64_calls() {
    let (tree, units, needed) = scattered_bug();
    let out = run(
        &units,
        perses(&tree, Minimizer::DdMin),
        scattered_oracle(needed),
    );
    assert_eq!(out.text, SCATTERED_BY_PERSES);
    assert_eq!(out.calls, 64);
}

#[test]
fn perses_with_probdd_reduces_the_scattered_bug_in_63_calls() {
    let (tree, units, needed) = scattered_bug();
    let out = run(
        &units,
        perses(&tree, Minimizer::ProbDd),
        scattered_oracle(needed),
    );
    assert_eq!(out.text, SCATTERED_BY_PERSES);
    assert_eq!(out.calls, 63);
}

#[test]
fn tpdd_reduces_the_scattered_bug_in_8_calls() {
    let (tree, units, needed) = scattered_bug();
    let policy = Box::new(TPdd::new(Arc::clone(&tree), TPddOptions::default()));
    let out = run(&units, policy, scattered_oracle(needed));
    assert_eq!(out.text, SCATTERED_BY_DELETION);
    assert_eq!(out.calls, 8);
}

#[test]
fn a_bounded_replacement_search_still_frees_a_crash_within_reach() {
    // With the search limited to 3 levels below a node, main's body cannot
    // reach the innermost block (9 levels down) in one step, but the chain
    // of shorter promotions still ends at the same program.
    let (tree, units, crash) = nested_ifs();
    let policy = Box::new(Perses::new(
        Arc::clone(&tree),
        Minimizer::DdMin,
        MinimizerSettings::default(),
        PersesOptions {
            max_replacement_depth: Some(3),
            ..PersesOptions::tutorial()
        },
    ));
    let out = run(&units, policy, crash_oracle(crash));
    assert_eq!(out.text, NESTED_FREED);
}

#[test]
fn tree_sizes_count_kept_tokens_like_size_and_replacement_checks_the_anchor_slot() {
    let (tree, units, needed) = scattered_bug();
    let config = Configuration::from_units(units.len(), (0..units.len()).filter(|u| u % 3 != 1));
    let sizes = tree.sizes(&config);
    for n in 0..tree.len() as NodeId {
        assert_eq!(sizes.get(n), tree.size(n, &config));
    }
    // A call may replace a statement of a list, never the condition of an if.
    let live = tree.liveness(&Configuration::full(units.len()));
    let call_of = |u: u32| tree.parent(tree.leaf_of(u)).unwrap();
    let (setup, crash) = (call_of(needed[0]), call_of(needed[2]));
    let if1 = (0..tree.len() as NodeId)
        .find(|&n| {
            tree.kind_name(n) == "if_stmt" && tree.is_within(crash, n) && !tree.is_within(setup, n)
        })
        .filter(|&n| tree.depth(n) == 3)
        .unwrap();
    assert!(tree.can_replace(if1, crash, &live));
    let expr = tree.children(if1).nth(2).unwrap();
    assert_eq!(tree.kind_name(expr), "expr");
    assert!(!tree.fits_slot_of(expr, crash));
}

// ---------------------------------------------------------------------------
// Perses' sweep schedule: one cursor over the nodes, largest first.

#[test]
fn the_library_default_is_the_binarys_sweep_and_the_tutorial_is_asked_for_by_name() {
    let binary = PersesOptions::default();
    assert_eq!(binary.schedule, PersesSchedule::Sweep);
    assert_eq!(binary.max_replacement_depth, Some(PERSES_REPLACEMENT_DEPTH));
    let tutorial = PersesOptions::tutorial();
    assert_eq!(tutorial.schedule, PersesSchedule::Tutorial);
    assert_eq!(tutorial.max_replacement_depth, None);
}

#[test]
fn the_sweep_schedule_frees_the_crash_from_the_nested_ifs_in_4_calls() {
    // Sweep 1 visits func (the root: no slot, not a list), then main's body,
    // whose smallest compatible descendant is the innermost block: call 1
    // promotes `{ crash ( ) ; noise ( ) ; }` and moves on. Every node of the
    // dead wrappers is skipped; the promoted block has no block below it,
    // its list [crash, noise] gets a fresh ddmin: keep-only [crash] passes
    // (call 2), then ddmin over [crash] deletes it and fails (call 3), and
    // the list is minimal. The calls have no replacement, so sweep 1 ends
    // having committed; sweep 2 finds nothing but pays ddmin's one failing
    // test on [crash] again (call 4), and the run is over.
    let (tree, units, crash) = nested_ifs();
    let out = run(
        &units,
        perses_sweep(&tree, Minimizer::DdMin),
        crash_oracle(crash),
    );
    assert_eq!(out.text, NESTED_FREED);
    assert_eq!(out.calls, 4);
}

#[test]
fn the_sweep_schedule_reduces_the_scattered_bug_at_least_as_far_as_the_tutorial() {
    let (tree, units, needed) = scattered_bug();
    for inner in [Minimizer::DdMin, Minimizer::ProbDd] {
        let tutorial = run(&units, perses(&tree, inner), scattered_oracle(needed));
        let sweep = run(&units, perses_sweep(&tree, inner), scattered_oracle(needed));
        assert!(parses(&sweep.text), "{}", sweep.text);
        for u in needed {
            assert!(sweep.kept.contains(&u), "{inner:?} lost unit {u}");
        }
        assert!(
            sweep.kept.len() <= tutorial.kept.len(),
            "{inner:?}: {}",
            sweep.text
        );
        assert!(
            sweep.calls < tutorial.calls,
            "{inner:?}: {} calls",
            sweep.calls
        );
    }
}

#[test]
fn a_sweep_after_one_that_committed_rechecks_the_lists_minimized_before_element_by_element() {
    // `int main ( ) { f0 ( ) ; … f7 ( ) ; h ( ) ; if ( c ) { g ( ) ; k ( ) ; } }`
    // where f0..f7 and k are needed, and h while g is there. Sweep 1
    // finds the outer list minimal (h is needed then) and deletes g from the
    // inner one; sweep 2 deletes h, then a third sweep finds nothing. With
    // Dr. DD, rechecking skips the outer list's blocks in sweeps 2 and 3
    // (a last sweep from scratch, mostly cache hits, confirms the fixpoint);
    // without, every sweep tries them again.
    let mut b = Nested::new();
    let fs: Vec<u32> = (0..8).map(|i| b.call(&format!("f{i}"))).collect();
    let h = b.call("h");
    let g = b.call("g");
    let k = b.call("k");
    let inner = b.list(&[g, k]);
    let block = b.block(inner);
    let if_stmt = b.if_stmt("c", block);
    let outer = b.list(&[fs.as_slice(), &[h, if_stmt]].concat());
    let body = b.block(outer);
    let root = b.func(body);
    let (tree, units) = b.build(root);
    let unit = |call| tree_unit_of_call(&tree, call);
    let needed: Vec<u32> = fs.iter().chain([&k]).map(|&call| unit(call)).collect();
    let (h, g) = (unit(h), unit(g));
    let oracle = |c: &Candidate<'_>| {
        needed.iter().all(|&u| c.keeps(u))
            && (c.keeps(h) || !c.keeps(g))
            && parses(&String::from_utf8_lossy(c.bytes))
    };
    let sweep_with =
        |recheck| sweep_run_with_cache(&tree, &units, Minimizer::DrDd, recheck, oracle);
    let (rechecking, scratch) = (sweep_with(true), sweep_with(false));
    let expected = "int main ( ) { f0 ( ) ; f1 ( ) ; f2 ( ) ; f3 ( ) ; f4 ( ) ; f5 ( ) ; \
                    f6 ( ) ; f7 ( ) ; k ( ) ; }";
    assert_eq!(scratch.text, expected);
    assert_eq!(rechecking.text, expected);
    assert!(
        rechecking.calls < scratch.calls,
        "{} calls rechecking, {} from scratch",
        rechecking.calls,
        scratch.calls
    );
}

#[test]
fn a_later_rounds_perses_tries_single_elements_only_and_stops_after_a_fruitless_sweep() {
    // `int main ( ) { f0 ( ) ; … f7 ( ) ; h ( ) ; }` as an earlier round
    // left it but for `h`, which a later round's other phases made
    // deletable. From scratch, Dr. DD tries blocks of the list first and
    // a fruitless sweep is followed by one more from scratch; a later
    // round's Perses takes the list as minimized: single calls, and the
    // first fruitless sweep ends it, with the same result.
    let mut b = Nested::new();
    let fs: Vec<u32> = (0..8).map(|i| b.call(&format!("f{i}"))).collect();
    let h = b.call("h");
    let list = b.list(&[fs.as_slice(), &[h]].concat());
    let body = b.block(list);
    let root = b.func(body);
    let (tree, units) = b.build(root);
    let needed: Vec<u32> = fs
        .iter()
        .map(|&call| tree_unit_of_call(&tree, call))
        .collect();
    let oracle = |c: &Candidate<'_>| {
        needed.iter().all(|&u| c.keeps(u)) && parses(&String::from_utf8_lossy(c.bytes))
    };
    let run_with = |lists_minimized_before| {
        let options = PersesOptions {
            schedule: PersesSchedule::Sweep,
            lists_minimized_before,
            ..PersesOptions::tutorial()
        };
        let policy = Perses::new(
            Arc::clone(&tree),
            Minimizer::DrDd,
            MinimizerSettings::default(),
            options,
        );
        let full = Configuration::full(units.len());
        run_with_cache(&units, Box::new(policy), full, 1, true, oracle)
    };
    let (later, scratch) = (run_with(true), run_with(false));
    let expected = "int main ( ) { f0 ( ) ; f1 ( ) ; f2 ( ) ; f3 ( ) ; f4 ( ) ; f5 ( ) ; \
                    f6 ( ) ; f7 ( ) ; }";
    assert_eq!(scratch.text, expected);
    assert_eq!(later.text, expected);
    // Single deletions of the nine calls, then of the eight left (the
    // function body and the whole list are not deletable).
    assert_eq!(later.calls, 9 + 8, "{} calls", later.calls);
    assert!(
        scratch.calls > later.calls,
        "{} calls from scratch",
        scratch.calls
    );
}

/// Perses (sweep schedule, rechecking minimized lists or not) from the
/// full input, with the verdict cache on as in real runs.
fn sweep_run_with_cache(
    tree: &Arc<Tree>,
    units: &Units,
    inner: Minimizer,
    recheck_minimized_lists: bool,
    interesting: impl Fn(&Candidate<'_>) -> bool + Sync,
) -> Outcome {
    let options = PersesOptions {
        schedule: PersesSchedule::Sweep,
        recheck_minimized_lists,
        ..PersesOptions::tutorial()
    };
    let policy = Perses::new(
        Arc::clone(tree),
        inner,
        MinimizerSettings::default(),
        options,
    );
    let full = Configuration::full(units.len());
    run_with_cache(units, Box::new(policy), full, 1, true, interesting)
}

/// A random program of the nested-if grammar: statement lists of one to
/// four statements, each a call (named `f0`, `f1`, ... in creation order),
/// an `if` or a bare block, nested at most `depth` levels. Returns the tree,
/// its units and every call's identifier unit with its name.
fn random_program(rng: &mut XorShift, depth: u32) -> (Arc<Tree>, Units, Vec<(u32, String)>) {
    fn stmts(
        b: &mut Nested,
        rng: &mut XorShift,
        depth: u32,
        calls: &mut Vec<(u32, String)>,
    ) -> Vec<u32> {
        let mut out = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let choice = if depth == 0 { 0 } else { rng.below(5) };
            let stmt = match choice {
                0..=2 => {
                    let name = format!("f{}", calls.len());
                    let call = b.call(&name);
                    calls.push((call, name));
                    call
                }
                3 => {
                    let inner = stmts(b, rng, depth - 1, calls);
                    let list = b.list(&inner);
                    let block = b.block(list);
                    b.if_stmt(&format!("c{}", rng.below(10)), block)
                }
                _ => {
                    let inner = stmts(b, rng, depth - 1, calls);
                    let list = b.list(&inner);
                    b.block(list)
                }
            };
            out.push(stmt);
        }
        out
    }
    let mut b = Nested::new();
    let mut calls = Vec::new();
    let body = stmts(&mut b, rng, depth, &mut calls);
    let list = b.list(&body);
    let block = b.block(list);
    let root = b.func(block);
    let (tree, units) = b.build(root);
    let calls = calls
        .into_iter()
        .map(|(call, name)| (tree_unit_of_call(&tree, call), name))
        .collect();
    (tree, units, calls)
}

#[test]
fn the_sweep_schedule_keeps_every_needed_call_parses_and_ends_at_a_fixpoint() {
    let mut rng = XorShift::new(0x5eed_0f5e_eb00);
    let mut calls_with_and_without_rechecks = (0, 0);
    for case in 0..40 {
        let (tree, units, calls) = random_program(&mut rng, 1 + case % 4);
        // A random non-empty set of needed calls; the rest is noise.
        let mut needed: Vec<&(u32, String)> = calls.iter().filter(|_| rng.below(3) == 0).collect();
        if needed.is_empty() {
            needed.push(&calls[rng.below(calls.len() as u64) as usize]);
        }
        let units_needed: Vec<u32> = needed.iter().map(|(u, _)| *u).collect();
        let oracle = |c: &Candidate<'_>| {
            units_needed.iter().all(|&u| c.keeps(u)) && parses(&String::from_utf8_lossy(c.bytes))
        };
        let inner = [Minimizer::DdMin, Minimizer::ProbDd, Minimizer::DrDd][case as usize % 3];
        let out = run(&units, perses_sweep(&tree, inner), oracle);
        let names: Vec<&str> = needed.iter().map(|(_, n)| n.as_str()).collect();
        let full_text = collapse(&units.render(&Configuration::full(units.len())));
        let what = format!(
            "case {case} ({inner:?}): {} needed {names:?} from {full_text}",
            out.text
        );
        assert!(parses(&out.text), "{what}");
        for (_, name) in &needed {
            assert!(
                out.text.contains(&format!("{name} ( ) ;")),
                "{what}: lost {name}"
            );
        }
        // No noise call survives a monotone oracle.
        let calls_left = out.text.matches("( ) ;").count();
        assert_eq!(calls_left, needed.len(), "{what}");
        // Run again from the result: a fixpoint, so nothing changes.
        let kept = Configuration::from_units(units.len(), out.kept.iter().copied());
        let again = run_from(&units, perses_sweep(&tree, inner), kept, 1, oracle);
        assert_eq!(again.kept, out.kept, "{what}: a second run changed it");
        // With the verdict cache, as runs use it: rechecking (Dr. DD's
        // single-element scans over lists minimized in an earlier sweep,
        // then one sweep from scratch to confirm, mostly cache hits) keeps
        // the needed calls as minimizing every list from scratch in every
        // sweep does, for fewer oracle calls.
        let sweep_with = |recheck| sweep_run_with_cache(&tree, &units, inner, recheck, oracle);
        let (rechecking, scratch) = (sweep_with(true), sweep_with(false));
        assert_eq!(rechecking.kept, out.kept, "{what}");
        assert_eq!(
            scratch.text.matches("( ) ;").count(),
            needed.len(),
            "{what}: {}",
            scratch.text
        );
        if inner == Minimizer::DrDd {
            calls_with_and_without_rechecks.0 += rechecking.calls;
            calls_with_and_without_rechecks.1 += scratch.calls;
        } else {
            assert_eq!(rechecking.calls, scratch.calls, "{what}");
        }
        // Speculation restores clones of the policy: -j 3 commits the same steps.
        if case < 10 {
            let full = Configuration::full(units.len());
            let parallel = run_from(&units, perses_sweep(&tree, inner), full, 3, oracle);
            assert_eq!(parallel.kept, out.kept, "{what}: -j 3 differs");
        }
    }
    let (with, without) = calls_with_and_without_rechecks;
    // Lists of at most four statements leave Dr. DD few blocks to skip.
    assert!(
        with <= without,
        "{with} calls with rechecks, {without} without"
    );
}

/// The HDD chapter's flat baseline: the same program as a raw token stream.
const FLAT_TOKENS: [&str; 58] = [
    "fn", "bar", "{", "b1", ";", "if", "guard", "{", "g", ";", "crash", "(", ")", ";", "}", "b2",
    ";", "}", "fn", "f2", "{", "s", ";", "s", ";", "}", "fn", "f3", "{", "s", ";", "s", ";", "}",
    "fn", "f4", "{", "s", ";", "s", ";", "}", "fn", "f5", "{", "s", ";", "s", ";", "}", "fn", "f6",
    "{", "s", ";", "s", ";", "}",
];

/// `program := fn_item*`, `fn_item := "fn" IDENT block`, `block := "{" stmt* "}"`,
/// `stmt := "if" IDENT block | IDENT "(" ")" ";" | IDENT ";"`.
fn flat_program_parses(toks: &[&str]) -> bool {
    fn ident(t: &[&str], p: &mut usize) -> bool {
        let ok = t
            .get(*p)
            .is_some_and(|s| !matches!(*s, "fn" | "if" | "{" | "}" | "(" | ")" | ";"));
        *p += ok as usize;
        ok
    }
    fn eat(t: &[&str], p: &mut usize, want: &str) -> bool {
        let ok = t.get(*p) == Some(&want);
        *p += ok as usize;
        ok
    }
    fn block(t: &[&str], p: &mut usize) -> bool {
        if !eat(t, p, "{") {
            return false;
        }
        while t.get(*p) != Some(&"}") {
            if *p >= t.len() || !stmt(t, p) {
                return false;
            }
        }
        eat(t, p, "}")
    }
    fn stmt(t: &[&str], p: &mut usize) -> bool {
        if eat(t, p, "if") {
            return ident(t, p) && block(t, p);
        }
        if !ident(t, p) {
            return false;
        }
        if eat(t, p, "(") && !eat(t, p, ")") {
            return false;
        }
        eat(t, p, ";")
    }
    let mut p = 0;
    while p < toks.len() {
        if !(eat(toks, &mut p, "fn") && ident(toks, &mut p) && block(toks, &mut p)) {
            return false;
        }
    }
    true
}

#[test]
fn the_flat_baseline_takes_253_calls_with_ddmin_and_80_with_probdd() {
    use crate::policy::flat::FlatPolicy;
    let units = Units::from_pieces(&FLAT_TOKENS);
    let crash = FLAT_TOKENS.iter().position(|&t| t == "crash").unwrap() as u32;
    for (minimizer, calls, parse_errors) in
        [(Minimizer::DdMin, 253, 249), (Minimizer::ProbDd, 80, 68)]
    {
        let errors = AtomicU32::new(0);
        let policy = Box::new(FlatPolicy::new(
            minimizer.build(&MinimizerSettings::default()),
            Arc::new(vec![1; FLAT_TOKENS.len()]),
        ));
        let outcome = run(&units, policy, |c| {
            let text = String::from_utf8_lossy(c.bytes).into_owned();
            let toks: Vec<&str> = text.split_whitespace().collect();
            if !flat_program_parses(&toks) {
                errors.fetch_add(1, Ordering::SeqCst);
                return false;
            }
            (crash..crash + 4).all(|u| c.keeps(u))
        });
        assert_eq!(outcome.calls, calls, "{minimizer:?}");
        assert_eq!(errors.load(Ordering::SeqCst), parse_errors, "{minimizer:?}");
        assert!((crash..crash + 4).all(|u| outcome.kept.contains(&u)));
    }
}

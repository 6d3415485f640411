//! Robustness of the reducer on arbitrary input, as a seeded property test.
//!
//! For random byte strings and mutated real snippets in every language (C
//! and JSON through tree-sitter, text as tokens and lines, binary as bytes):
//! rendering every unit gives the input back byte for byte, and one run of
//! every policy of the registry that works on the units through the real
//! reduce loop, capped at [`MAX_TESTS`] oracle
//! tests and judged by a random (but per-candidate deterministic) oracle,
//! finishes without panicking, keeps a subset of the units and, with three
//! jobs, commits exactly what it commits with one (when both runs end
//! within the budget).

use std::sync::Arc;

use crate::configuration::Configuration;
use crate::engine::{Engine, Limits, StopReason};
use crate::interfaces::{Candidate, Quiet, Strictness, SyntaxFilter, Verdict};
use crate::languages::Language;
use crate::policy::format::Style;
use crate::policy::hdd::HddOptions;
use crate::policy::perses::{PERSES_REPLACEMENT_DEPTH, PersesOptions};
use crate::policy::registry::{BuildContext, ENTRIES, Role, Tuning};
use crate::policy::tail::TailOptions;
use crate::policy::testing::XorShift;
use crate::policy::{Minimizer, Policy};
use crate::syntax::SyntaxCheck;
use crate::tree::Tree;
use crate::units::{UnitKind, Units};

/// Random inputs per language.
const INPUTS_PER_LANGUAGE: u64 = 100;
/// The oracle-test budget of one policy run.
const MAX_TESTS: u64 = 200;

const C_SNIPPETS: &[&str] = &[
    include_str!("../../fixtures/c-crash/crash.c"),
    "#include <stdio.h>\n#define F(x) ((x) * 2)\nstruct s { int a : 3; char *p; };\n\
     int main(int argc, char **argv) { for (int i = 0; i < argc; i++) printf(\"%d\\n\", F(i));\n\
     if (argc) { return 0; } else return -(-1); }\n",
    "typedef int t; enum e { A = 1, B, }; static int g[] = { 1, [4] = 3, };\n\
     void f(void) { switch (g[0]) { case 1: break; default: ; } }\n",
];

const CPP_SNIPPETS: &[&str] = &[
    include_str!("../../fixtures/cpp-template/registry.cpp"),
    "namespace n { template <typename T, int N = 2> struct v : base<T>, other { \
     v() : a(1), b{2} {} T a; int b; virtual ~v() = default; }; }\n\
     auto f = [x, &y](int z) -> int { return x + y + z; };\n",
    "using t = unsigned long; enum class e : int { a, b, }; \
     template <> int g<int>(int p) noexcept { try { throw 1; } catch (...) { return p; } }\n",
];

const JSON_SNIPPETS: &[&str] = &[
    "{\"a\": [1, 2.5e3, -3, true, false, null],\n \"b\": {\"c\": \"x\\ty\\u00e9\"}, \"d\": []}\n",
    "[{\"id\": 1, \"tags\": [\"a\", \"b\"]}, {\"id\": 2, \"nested\": {\"deep\": {\"trigger\": \"boom\"}}}]\n",
];

/// Each language added after C, C++ and JSON, with its fixture and a few
/// lines of what its grammar also has.
const OTHER_LANGUAGES: &[(&str, &[&str])] = &[
    (
        "python",
        &[
            include_str!("../../fixtures/python-except/inventory.py"),
            "import a, b\nfrom c import (d, e,)\nx = [1, 2][0:1]\n\
             def f(*a, k=1, **kw):\n    global g\n    with o as p, q: pass\n    return lambda y: y\n",
        ],
    ),
    (
        "javascript",
        &[
            include_str!("../../fixtures/javascript-typeerror/orders.js"),
            "import { a, b as c } from 'm';\nlet [x, , y] = [1, 2, 3], z = { p, q: 1, ...r };\n\
             export default function* g(a = 1, ...b) { yield a; }\n",
        ],
    ),
    (
        "typescript",
        &[include_str!("../../fixtures/typescript-shape/shapes.ts")],
    ),
    (
        "tsx",
        &[
            "const e = <div a={1} b=\"x\">{items.map((i: number) => <span key={i}>{i}</span>)}</div>;\n",
        ],
    ),
    (
        "rust",
        &[
            include_str!("../../fixtures/rust-mismatch/shapes.rs"),
            "use a::{b, c::d};\nfn f<T: Clone, U>(x: (T, U), [a, b]: [u8; 2]) -> Vec<T> where T: Copy { \
             let S { p, q, .. } = s; vec![x.0] }\n",
        ],
    ),
    (
        "go",
        &[
            "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc f(a, b int, c string) (int, error) {\n\
           \tx := []int{1, 2, 3}\n\tif a > b { return a, nil }; fmt.Println(x, c)\n\treturn 0, os.ErrClosed\n}\n",
        ],
    ),
    (
        "java",
        &[include_str!("../../fixtures/java-incompatible/Ledger.java")],
    ),
    (
        "bash",
        &[
            include_str!("../../fixtures/bash-unbound/deploy.sh"),
            "a=1 b=2\nif [ -n \"$a\" ] && [[ $b == 2 ]] || true; then ls | grep x |& wc -l; fi\n",
        ],
    ),
];

const TEXT_SNIPPETS: &[&str] = &[
    "line one\nline two has more words\n\n  indented line\ttab\nlast line without newline",
    "key = value\n[section]\nother = 1, 2, 3 ; comment\n",
];

/// What the inputs of one run are: a tree language, or flat units.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Tree(Language),
    Flat(UnitKind),
}

/// A random input: raw bytes, code-like characters, or a mutated snippet.
fn random_input(rng: &mut XorShift, i: u64, snippets: &[&str]) -> Vec<u8> {
    const ALPHABET: &[u8] = b"{}[]()<>,;:=+-*/\"'\\ \n\tabcxyz019#.";
    let len = rng.below(300) as usize;
    match i % 3 {
        0 => (0..len).map(|_| rng.next() as u8).collect(),
        1 => (0..len)
            .map(|_| ALPHABET[rng.below(ALPHABET.len() as u64) as usize])
            .collect(),
        _ => {
            let snippet = snippets[rng.below(snippets.len() as u64) as usize].as_bytes();
            mutate(rng, snippet)
        }
    }
}

/// A few random edits: deleting, duplicating or inserting a stretch, flipping a byte.
fn mutate(rng: &mut XorShift, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(5) {
        let len = out.len() as u64;
        let at = rng.below(len + 1) as usize;
        let span = (rng.below(40) as usize).min(out.len() - at);
        match rng.below(4) {
            0 => {
                out.drain(at..at + span);
            }
            1 => {
                let copy = out[at..at + span].to_vec();
                out.splice(at..at, copy);
            }
            2 => {
                let junk: Vec<u8> = (0..span.max(1))
                    .map(|_| b"{}()[];,\"'/*\n"[rng.below(13) as usize])
                    .collect();
                out.splice(at..at, junk);
            }
            _ => {
                if at < out.len() {
                    out[at] = rng.next() as u8;
                }
            }
        }
    }
    out
}

/// Interesting for about a third of the candidates, the same verdict for
/// the same bytes (so runs with more jobs must commit the same steps).
fn random_verdict(seed: u64, bytes: &[u8]) -> Verdict {
    if xxhash_rust::xxh3::xxh3_64_with_seed(bytes, seed).is_multiple_of(3) {
        Verdict::Interesting
    } else {
        Verdict::NotInteresting
    }
}

/// Every policy of the registry that works on these units (all of them
/// with a tree), with the list minimizer `inner`, and the tuning variants
/// the command line can ask for (HDD* on any node, the tutorial's Perses,
/// the compact layout); each with the syntax filter's strictness the
/// default pipeline runs it under.
fn every_policy(
    tree: Option<&Arc<Tree>>,
    units: &Units,
    inner: Minimizer,
) -> Vec<(Box<dyn Policy>, Strictness)> {
    let tunings = [
        Tuning::default(),
        Tuning {
            hdd: HddOptions {
                fixpoint: true,
                any_node: true,
                ..HddOptions::default()
            },
            perses: PersesOptions {
                max_replacement_depth: Some(PERSES_REPLACEMENT_DEPTH),
                ..PersesOptions::tutorial()
            },
            format: Style::Compact,
            // The tail search on texts of any size.
            tail: TailOptions { min_units: 0 },
            ..Tuning::default()
        },
    ];
    let mut out = Vec::new();
    for entry in ENTRIES.iter().filter(|e| e.builder.is_some()) {
        if entry.needs_tree && tree.is_none() {
            continue;
        }
        // The second tuning changes only these.
        let variants = match entry.name {
            "hdd" | "perses" | "format" | "tail" => &tunings[..],
            _ => &tunings[..1],
        };
        for tuning in variants {
            let mut cx = BuildContext::new(tree.cloned(), Arc::new(units.clone()));
            cx.inner = inner;
            cx.tuning = *tuning;
            let strictness = match entry.role {
                Role::LenientPass => Strictness::MissingTokensFree,
                _ => Strictness::Strict,
            };
            out.push((entry.policy(&cx), strictness));
        }
    }
    out
}

/// Runs `policy` over `units` with `jobs` tests at once; returns the result
/// and why the run ended.
fn run_once(
    units: &Units,
    (policy, strictness): &(Box<dyn Policy>, Strictness),
    seed: u64,
    jobs: usize,
    filter: Option<&dyn SyntaxFilter>,
) -> (Configuration, StopReason) {
    let oracle = |c: &Candidate<'_>| random_verdict(seed, c.bytes);
    let mut engine = Engine::new(units, &oracle)
        .with_jobs(jobs)
        .with_filter(filter)
        .with_limits(Limits {
            max_tests: Some(MAX_TESTS),
            ..Limits::default()
        });
    engine.set_filter(Some(*strictness));
    let mut policy = policy.clone_box();
    let (result, reason) = engine.run(&mut policy, Configuration::full(units.len()), &mut Quiet);
    assert!(engine.tests_total() <= MAX_TESTS);
    (result, reason)
}

/// Whether the runs on the `i`th input are repeated with three jobs.
fn compares_jobs(i: u64) -> bool {
    i % 7 < 2
}

/// The property for one input: exact rendering, and every policy runs.
fn check(kind: Kind, input: Vec<u8>, rng: &mut XorShift, i: u64) {
    let inner = Minimizer::ALL[(i % 5) as usize];
    let (units, policies, filter) = match kind {
        Kind::Tree(lang) => {
            let (tree, units) = crate::tree::parse::parse(lang, input.clone())
                .unwrap_or_else(|e| panic!("{lang:?} {input:?}: {e:#}"));
            assert_eq!(tree.unit_count(), units.len(), "{input:?}");
            // The filter re-parses every candidate: small inputs only. Where
            // -j 3 is compared with -j 1 on an input with parse errors, it
            // parses afresh: incremental re-parses may count those errors
            // by the path taken (see `SyntaxCheck`).
            let compared = compares_jobs(i) && tree.parse_errors > 0;
            let filter = (i.is_multiple_of(4) && input.len() < 1500).then(|| match compared {
                true => SyntaxCheck::afresh(lang, tree.parse_errors),
                false => SyntaxCheck::for_tree(lang, &tree),
            });
            let tree = Arc::new(tree);
            let policies = every_policy(Some(&tree), &units, inner);
            (units, policies, filter)
        }
        Kind::Flat(unit) => {
            let units = Units::flat(input.clone(), unit);
            let policies = every_policy(None, &units, inner);
            (units, policies, None)
        }
    };
    let full = Configuration::full(units.len());
    assert_eq!(units.render(&full), input, "{kind:?}: rendering lost bytes");
    let filter = filter.as_ref().map(|f| f as &dyn SyntaxFilter);
    for policy in &policies {
        let seed = rng.next();
        let (result, reason) = run_once(&units, policy, seed, 1, filter);
        assert!(result.len() <= units.len());
        assert!(result.kept.iter().all(|u| u < units.len()));
        let bytes = units.render(&result);
        if result.len() < units.len() {
            // Only committed candidates get here, and the oracle said yes to them.
            assert_eq!(
                random_verdict(seed, &bytes),
                Verdict::Interesting,
                "{}",
                policy.0.name()
            );
        }
        // Speculative tests count against the budget too, so only runs
        // that reached their end are comparable.
        if compares_jobs(i) && reason == StopReason::Finished {
            let (parallel, reason) = run_once(&units, policy, seed, 3, filter);
            if reason == StopReason::Finished {
                assert_eq!(
                    parallel,
                    result,
                    "{}: -j 3 differs from -j 1",
                    policy.0.name()
                );
            }
        }
    }
}

fn check_language(kind: Kind, snippets: &[&str], seed: u64) {
    check_some(kind, snippets, seed, INPUTS_PER_LANGUAGE);
}

/// [`check_language`] on `inputs` random inputs.
fn check_some(kind: Kind, snippets: &[&str], seed: u64, inputs: u64) {
    let mut rng = XorShift::new(seed);
    for i in 0..inputs {
        let input = random_input(&mut rng, i, snippets);
        check(kind, input, &mut rng, i);
    }
}

#[test]
fn c_inputs_parse_render_exactly_and_survive_every_policy() {
    check_language(Kind::Tree(Language::named("c")), C_SNIPPETS, 0xc0ffee);
}

#[test]
fn cpp_inputs_parse_render_exactly_and_survive_every_policy() {
    check_language(
        Kind::Tree(Language::named("cpp")),
        CPP_SNIPPETS,
        0x00c0_ffee_0c99,
    );
}

#[test]
fn json_inputs_parse_render_exactly_and_survive_every_policy() {
    check_language(Kind::Tree(Language::named("json")), JSON_SNIPPETS, 0x15_0e);
}

#[test]
fn inputs_in_every_other_built_in_language_parse_render_exactly_and_survive_every_policy() {
    for (i, (name, snippets)) in OTHER_LANGUAGES.iter().enumerate() {
        // Each is a cargo feature, on by default.
        let Some(lang) = Language::from_name(name) else {
            continue;
        };
        check_some(Kind::Tree(lang), snippets, 0x1a46 + i as u64, 12);
    }
}

#[test]
fn a_grammar_without_a_data_file_survives_every_policy() {
    // node-types and what each tree shows only, as `--grammar` without
    // `--grammar-data` gives.
    for (i, (name, snippets)) in OTHER_LANGUAGES.iter().enumerate().step_by(2) {
        let Some(lang) = Language::from_name(name) else {
            continue;
        };
        let bare = lang.without_data();
        check_some(Kind::Tree(bare), snippets, 0xba4e + i as u64, 10);
    }
    let json = Language::named("json").without_data();
    check_some(Kind::Tree(json), JSON_SNIPPETS, 0xba4e, 20);
}

#[test]
fn text_inputs_render_exactly_and_survive_every_policy_without_a_tree() {
    check_language(Kind::Flat(UnitKind::Token), TEXT_SNIPPETS, 0x7e57);
    check_language(Kind::Flat(UnitKind::Line), TEXT_SNIPPETS, 0x11e5);
}

#[test]
fn binary_inputs_render_exactly_and_survive_every_policy_without_a_tree() {
    check_language(Kind::Flat(UnitKind::Byte), TEXT_SNIPPETS, 0xb17e);
}

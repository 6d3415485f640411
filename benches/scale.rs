//! Scale benchmark: parse + first proposal, proposals per second and peak
//! memory of every policy of the registry on large synthetic C and JSON inputs, with a
//! cheap in-process oracle. Run with `cargo bench --bench scale`; the figures
//! go to docs/benchmarks.md. Not a test: nothing here asserts a time.
//!
//! `cargo bench --bench scale -- memory c` (or `json`) measures one input in
//! a process of its own, as the binary handles it: the default pipeline's
//! plan, then its first policy's first proposal, and prints the peak RSS.
//! `-- memory LANG FILE` does the same on a file in a language of the registry
//! (e.g. a preprocessed C++ translation unit).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use reduce::configuration::Configuration;
use reduce::engine::{Engine, Limits};
use reduce::interfaces::{Candidate, Quiet, SyntaxFilter, Verdict};
use reduce::languages::{Lang, Language};
use reduce::pipeline::{Plan, Strategy};
use reduce::policy::registry::{BuildContext, ENTRIES};
use reduce::policy::{Minimizer, Policy};
use reduce::syntax::SyntaxCheck;
use reduce::tree::Tree;
use reduce::tree::parse::parse;
use reduce::units::Units;

/// The system allocator, counting the bytes live now and at the peak, so the
/// memory mode can tell the parse's peak from the first proposal's.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1 << 20) as f64
}

/// A C file of roughly `tokens` tokens: many small functions.
fn big_c(tokens: usize) -> Vec<u8> {
    let mut s = String::from("int g0, g1, g2;\nstruct pair { int a; long b; };\n");
    let mut i = 0;
    while s.len() / 4 < tokens {
        s.push_str(&format!(
            "static int f{i}(int x, int y) {{\n  int t = x * {i} + y;\n  if (t > {i}) {{ g0 += t; }} else {{ g1 -= y; }}\n  for (int k = 0; k < 4; k++) t ^= k;\n  return t + g2;\n}}\n"
        ));
        i += 1;
    }
    s.into_bytes()
}

/// About `bytes` bytes of JSON: an array of small objects.
fn big_json(bytes: usize) -> Vec<u8> {
    let mut s = String::from("[\n");
    let mut i = 0;
    while s.len() < bytes {
        if i > 0 {
            s.push_str(",\n");
        }
        s.push_str(&format!(
            "  {{\"id\": {i}, \"name\": \"item{i}\", \"tags\": [\"a\", \"b\", {i}], \"on\": {}}}",
            i % 2 == 0
        ));
        i += 1;
    }
    s.push_str("\n]\n");
    s.into_bytes()
}

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

/// Every policy of the registry on `tree` with the binary's tuning, those
/// that take a list minimizer with ddmin and with probdd.
fn policies(tree: &Arc<Tree>, units: &Units) -> Vec<(String, Box<dyn Policy>)> {
    let mut out = Vec::new();
    for entry in ENTRIES.iter().filter(|e| e.builder.is_some()) {
        let inners: &[Minimizer] = if entry.takes_inner {
            &[Minimizer::DdMin, Minimizer::ProbDd]
        } else {
            &[Minimizer::DdMin]
        };
        for &inner in inners {
            let mut cx = BuildContext::new(Some(Arc::clone(tree)), Arc::new(units.clone()));
            cx.inner = inner;
            let policy = entry.policy(&cx);
            out.push((policy.name(), policy));
        }
    }
    out
}

fn bench(name: &str, lang: Language, source: Vec<u8>) {
    let bytes = source.len();
    let t0 = Instant::now();
    let (tree, units) = parse(lang, source).expect("parses");
    let parse_s = t0.elapsed().as_secs_f64();
    println!(
        "{name}: {bytes} bytes, {} tokens, {} nodes; parse+build {:.3}s; peak RSS so far {} KiB ({:.1}x input)",
        units.len(),
        tree.len(),
        parse_s,
        peak_rss_kib(),
        peak_rss_kib() as f64 * 1024.0 / bytes as f64
    );
    // The syntax filter: a fresh parse of a candidate against a check from
    // the current text (the items or list elements the edit touches parsed
    // alone, else an edit of the current text's tree). Two sets of 20 candidates
    // spread over the file: "whole items" deletes one top-level line or
    // function (what tree policies mostly propose; the result parses), "200
    // bytes" cuts 200 bytes anywhere (the result has parse errors, whose
    // recovery costs tree-sitter more).
    let source = units.render(&Configuration::full(units.len()));
    let item_starts: Vec<usize> = source
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] == b'\n' && matches!(w[1], b's' | b' '))
        .map(|(i, _)| i + 1)
        .collect();
    let cut = |at: usize, end: usize| {
        let mut c = source.clone();
        c.drain(at..end);
        c
    };
    let whole_items: Vec<Vec<u8>> = (1..=20)
        .map(|i| {
            let k = item_starts.len() * i / 22;
            cut(item_starts[k], item_starts[k + 1])
        })
        .collect();
    let cuts: Vec<Vec<u8>> = (1..=20)
        .map(|i| {
            let at = source.len() * i / 21;
            cut(at, at + 200)
        })
        .collect();
    for (edits, candidates) in [("whole items", &whole_items), ("200 bytes", &cuts)] {
        // As in a run on an input without parse errors.
        let fresh = SyntaxCheck::new(lang, 0);
        let from_current = SyntaxCheck::new(lang, 0);
        from_current.rebase(&source);
        let mut per = Vec::new();
        for check in [&fresh, &from_current] {
            let t = Instant::now();
            for c in candidates {
                check.accepts(c);
            }
            per.push(t.elapsed().as_secs_f64() * 1000.0 / candidates.len() as f64);
        }
        println!(
            "  syntax filter, {edits:11}: fresh parse {:.1} ms, from the current text {:.1} ms per candidate",
            per[0], per[1]
        );
    }
    let tree = Arc::new(tree);
    for (policy_name, mut policy) in policies(&tree, &units) {
        // First proposal.
        let full = Configuration::full(units.len());
        let t = Instant::now();
        let mut probe = policy.clone_box();
        probe.start_pass(&full);
        let first = probe.next_proposal(&full).is_some();
        let first_s = t.elapsed().as_secs_f64();
        // Proposals per second: an oracle that rejects everything, capped at 2,000 tests.
        let oracle = |_: &Candidate<'_>| Verdict::NotInteresting;
        let mut engine = Engine::new(&units, &oracle)
            .with_cache(false)
            .with_limits(Limits {
                max_tests: Some(2000),
                ..Limits::default()
            });
        let t = Instant::now();
        let _ = engine.run(&mut policy, full, &mut Quiet);
        let secs = t.elapsed().as_secs_f64();
        let tests = engine.tests_total();
        println!(
            "  {policy_name:20} first proposal {:.3}s ({}), {tests} proposals in {secs:.2}s = {:.0}/s (incl. rendering), peak RSS {} KiB",
            first_s,
            if first { "made" } else { "none" },
            tests as f64 / secs.max(1e-9),
            peak_rss_kib()
        );
    }
}

/// Parse + the default pipeline's first proposal on one input, then the
/// process's peak RSS against the input's size.
fn memory(lang: Language, source: Vec<u8>) {
    let bytes = source.len();
    let t = Instant::now();
    let plan = Plan::new(&Strategy::default(), Lang::Tree(lang), source).expect("parses");
    let plan_s = t.elapsed().as_secs_f64();
    let (parse_peak, after_parse) = (PEAK.load(Ordering::Relaxed), LIVE.load(Ordering::Relaxed));
    PEAK.store(after_parse, Ordering::Relaxed);
    let mut policy = plan.first_policy();
    let full = Configuration::full(plan.units().len());
    let t_pass = Instant::now();
    policy.start_pass(&full);
    let first = policy.next_proposal(&full).is_some();
    let pass_s = t_pass.elapsed().as_secs_f64();
    let secs = t.elapsed().as_secs_f64();
    let peak = peak_rss_kib();
    println!(
        "heap: peak {:.1} MiB while parsing, {:.1} MiB live after it, peak {:.1} MiB up to the first proposal",
        mib(parse_peak),
        mib(after_parse),
        mib(PEAK.load(Ordering::Relaxed))
    );
    println!(
        "{} {bytes} bytes, {} units: parse + first proposal ({}) {secs:.3} s, peak RSS {peak} KiB = {:.1}x the input",
        lang.name(),
        plan.units().len(),
        if first { "made" } else { "none" },
        peak as f64 * 1024.0 / bytes as f64
    );
    per_megabyte(bytes, plan_s, pass_s, plan.units());
}

/// Parse, pass-start and render costs per megabyte of input: the plan
/// (parse, tree, the filter's first count), the first policy's pass start
/// and first proposal, and rendering the whole input and every other
/// token of it (a candidate of many kept runs).
fn per_megabyte(bytes: usize, plan_s: f64, pass_s: f64, units: &Units) {
    let mb = bytes as f64 / 1e6;
    let full = Configuration::full(units.len());
    let mut every_other = full.clone();
    for u in (0..units.len()).step_by(2) {
        every_other.kept.remove(u);
    }
    let mut render_ms = [0.0; 2];
    for (i, config) in [&full, &every_other].into_iter().enumerate() {
        let t = Instant::now();
        let out = units.render(config);
        render_ms[i] = t.elapsed().as_secs_f64() * 1000.0;
        assert!(out.len() <= bytes + units.len() as usize);
    }
    println!(
        "per MB: plan {:.3} s, first pass start {:.3} s, render {:.1} ms whole, {:.1} ms every other token",
        plan_s / mb,
        pass_s / mb,
        render_ms[0] / mb,
        render_ms[1] / mb
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "memory") {
        match args.get(at + 1).map(String::as_str) {
            Some("c") => memory(Language::named("c"), big_c(200_000)),
            Some("json") => memory(Language::named("json"), big_json(1 << 20)),
            Some(lang) if args.len() > at + 2 => {
                let source = std::fs::read(&args[at + 2]).expect("a readable file");
                memory(Language::named(lang), source);
            }
            _ => eprintln!("usage: cargo bench --bench scale -- memory c|json|LANG FILE"),
        }
        return;
    }
    bench("C, ~200k tokens", Language::named("c"), big_c(200_000));
    bench("JSON, ~1 MB", Language::named("json"), big_json(1 << 20));
}

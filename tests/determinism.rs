//! `-j N` commits exactly what `-j 1` commits, for every policy of the
//! registry (issue 5).
//!
//! In-process oracles sleep a random few milliseconds so that tests finish
//! out of order, once with passing tests the slow ones (so that the loop also
//! proposes on the guess that a running test passes); the sequence of
//! committed results must not change.

use std::sync::Arc;
use std::time::Duration;

use reduce::configuration::Configuration;
use reduce::engine::Engine;
use reduce::interfaces::{Candidate, Observer, Strictness, SyntaxFilter, Verdict};
use reduce::languages::Language;
use reduce::policy::format::Style;
use reduce::policy::hdd::HddOptions;
use reduce::policy::perses::PersesOptions;
use reduce::policy::registry::{BuildContext, ENTRIES, Role, Tuning};
use reduce::policy::tail::TailOptions;
use reduce::policy::{Minimizer, Policy};
use reduce::syntax::SyntaxCheck;
use reduce::tree::Tree;
use reduce::tree::parse::parse;
use reduce::units::Units;

/// Records every committed result.
#[derive(Default)]
struct Steps(Vec<Vec<u8>>);

impl Observer for Steps {
    fn on_improved(&mut self, _config: &Configuration, bytes: &[u8]) {
        self.0.push(bytes.to_vec());
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A C program of `n` statements; the oracle needs the statements named in `needed`.
fn program(seed: u64, n: usize) -> (String, Vec<String>) {
    let mut rng = Rng(seed | 1);
    // A string, for the pass that cuts inside literals.
    let mut text = String::from("int g;\nchar *s = \"some text to cut\";\n");
    let mut names = Vec::new();
    for f in 0..3 {
        text.push_str(&format!("int f{f}(int a, int b) {{\n"));
        for i in 0..n {
            let name = format!("v{f}_{i}");
            match rng.next() % 3 {
                0 => text.push_str(&format!("  int {name} = a + {};\n", rng.next() % 100)),
                1 => text.push_str(&format!(
                    "  if (a > {}) {{ g = b; int {name} = 1; }}\n",
                    rng.next() % 9
                )),
                _ => text.push_str(&format!("  int {name} = f{}(b, {});\n", f, rng.next() % 7)),
            }
            names.push(name);
        }
        // A variable used once, for the passes that inline or replace it.
        text.push_str(&format!("  int t{f} = a * 2;\n  return t{f};\n}}\n"));
    }
    let needed = (0..3)
        .map(|_| names[(rng.next() as usize) % names.len()].clone())
        .collect();
    (text, needed)
}

/// How long the in-process oracle takes.
#[derive(Clone, Copy, Debug)]
enum Timing {
    /// 0-3 ms, whatever the verdict.
    Random,
    /// Failures 0-1 ms, passes 3-5 ms (like a compiler that rejects a broken
    /// candidate at once): the loop learns to guess that a long-running
    /// test passes and proposes ahead on that guess.
    PassesSlow,
    /// As `PassesSlow`, but one failure in four runs 20-25 ms, four times
    /// the longest pass (a compiler hanging toward the timeout): such a
    /// test is first guessed to pass, then to fail again.
    SomeFailuresHang,
}

/// The committed steps and the result, how many tests were started on the
/// guess that a running test would pass, and how many waves were tested.
fn run(
    units: &Units,
    (filter, strictness): (&dyn SyntaxFilter, Option<Strictness>),
    policy: Box<dyn Policy>,
    needed: &[String],
    (jobs, wave): (usize, usize),
    (seed, timing): (u64, Timing),
) -> (Vec<Vec<u8>>, u64, u64) {
    let oracle = |c: &Candidate<'_>| {
        // Vary the sleep with the candidate, so completion order is scrambled.
        let h = c
            .bytes
            .iter()
            .fold(seed, |h, &b| h.wrapping_mul(31).wrapping_add(b as u64));
        let text = String::from_utf8_lossy(c.bytes);
        let interesting = needed.iter().all(|n| text.contains(n.as_str()));
        let micros = match timing {
            Timing::Random => h % 3000,
            Timing::PassesSlow if interesting => 3000 + h % 2000,
            Timing::PassesSlow => h % 1000,
            Timing::SomeFailuresHang if interesting => 3000 + h % 2000,
            Timing::SomeFailuresHang if h % 4 == 0 => 20_000 + h % 5000,
            Timing::SomeFailuresHang => h % 1000,
        };
        std::thread::sleep(Duration::from_micros(micros));
        if interesting {
            Verdict::Interesting
        } else {
            Verdict::NotInteresting
        }
    };
    let mut engine = Engine::new(units, &oracle)
        .with_jobs(jobs)
        .with_wave(wave)
        .with_filter(Some(filter));
    engine.set_filter(strictness);
    let mut steps = Steps::default();
    let mut policy = policy;
    let (result, _) = engine.run(&mut policy, Configuration::full(units.len()), &mut steps);
    steps.0.push(units.render(&result));
    let guessed = engine.phases.iter().map(|p| p.guessed_pass).sum();
    let waves = engine.phases.iter().map(|p| p.waves).sum();
    (steps.0, guessed, waves)
}

/// The passes for binary input alone: a C program has no length-prefixed
/// records, and its bytes set to NUL do not parse; they are checked on
/// binary input below.
const BYTE_PASSES: [&str; 2] = ["records", "fill"];

/// Every policy of the registry but [`BYTE_PASSES`], each with a list
/// minimizer from `inners` if it takes one: built on `tree`, with HDD* and
/// the tutorial's Perses (a search 4 levels deep) besides the binary's
/// sweep.
fn policies(tree: &Arc<Tree>, units: &Units) -> Vec<(String, Box<dyn Policy>, Option<Strictness>)> {
    let inners = [Minimizer::DdMin, Minimizer::ProbDd, Minimizer::Cdd];
    let mut out = Vec::new();
    let built = ENTRIES
        .iter()
        .filter(|e| e.builder.is_some() && !BYTE_PASSES.contains(&e.name));
    for entry in built {
        let tunings = if entry.name == "perses" {
            let tutorial = PersesOptions {
                max_replacement_depth: Some(4),
                ..PersesOptions::tutorial()
            };
            vec![PersesOptions::default(), tutorial]
        } else {
            vec![PersesOptions::default()]
        };
        let inners: &[Minimizer] = if entry.takes_inner {
            &inners
        } else {
            &inners[..1]
        };
        for (&inner, perses) in inners
            .iter()
            .flat_map(|m| tunings.iter().map(move |t| (m, *t)))
        {
            let mut cx = BuildContext::new(Some(Arc::clone(tree)), Arc::new(units.clone()));
            cx.inner = inner;
            cx.tuning = Tuning {
                hdd: HddOptions {
                    fixpoint: true,
                    ..HddOptions::default()
                },
                perses,
                // The programs are tidy already: only compact changes them.
                format: Style::Compact,
                // The tail search on these small programs too.
                tail: TailOptions { min_units: 0 },
                ..Tuning::default()
            };
            // As the default pipeline runs them.
            let strictness = match entry.role {
                Role::LenientPass => Some(Strictness::MissingTokensFree),
                _ => Some(Strictness::Strict),
            };
            let policy = entry.policy(&cx);
            out.push((policy.name(), policy, strictness));
        }
    }
    out
}

/// Reduces the program of each `(seed, timing)` with every policy at
/// `(jobs, wave)` = `first`, then `second`, and asserts that both commit the
/// same steps; returns the second runs' guessed passes and waves, summed.
fn same_steps_for_every_policy(
    cases: &[(u64, Timing)],
    first: (usize, usize),
    second: (usize, usize),
) -> (u64, u64) {
    let (mut guessed, mut waves) = (0, 0);
    for &(seed, timing) in cases {
        let (text, needed) = program(seed, 6);
        let (tree, units) = parse(Language::named("c"), text.into_bytes()).unwrap();
        let filter = SyntaxCheck::new(Language::named("c"), tree.parse_errors);
        let tree = Arc::new(tree);
        for (name, policy, strictness) in policies(&tree, &units) {
            let oracle = (seed, timing);
            let filter = (&filter as &dyn SyntaxFilter, strictness);
            let (one, ..) = run(&units, filter, policy.clone(), &needed, first, oracle);
            let (other, g, w) = run(&units, filter, policy, &needed, second, oracle);
            assert!(one.len() > 1, "{name}: nothing was reduced");
            assert_eq!(
                one, other,
                "{name} (seed {seed}, {timing:?}): (-j, --wave) {second:?} committed other steps than {first:?}"
            );
            (guessed, waves) = (guessed + g, waves + w);
        }
    }
    (guessed, waves)
}

#[test]
fn four_jobs_commit_the_same_steps_as_one_for_every_policy() {
    let cases = [
        (3u64, Timing::Random),
        (11, Timing::PassesSlow),
        (5, Timing::SomeFailuresHang),
    ];
    let (guessed_passes, _) = same_steps_for_every_policy(&cases, (1, 1), (4, 1));
    assert!(
        guessed_passes > 0,
        "with slow passes, some tests must run on the guess that a running one passes"
    );
}

#[test]
fn a_wave_of_eight_commits_the_same_steps_at_one_job_as_at_eight_for_every_policy() {
    let cases = [(3u64, Timing::Random), (11, Timing::PassesSlow)];
    let (_, waves) = same_steps_for_every_policy(&cases, (1, 8), (8, 8));
    assert!(waves > 0, "with --wave 8 some rounds must be waves");
}

/// Every candidate may be tested (binary input has no syntax to keep).
struct AcceptAll;

impl SyntaxFilter for AcceptAll {
    fn accepts(&self, _bytes: &[u8]) -> bool {
        true
    }
}

#[test]
fn four_jobs_commit_the_same_steps_as_one_for_the_binary_passes() {
    // "HEAD", then records of a 2-byte big-endian length, a type byte and
    // data; the oracle needs the names in two of them.
    let mut bytes = b"HEAD".to_vec();
    for i in 0..12u8 {
        let data: Vec<u8> = match i {
            3 => b"v0_1 and more".to_vec(),
            8 => b"v2_5!".to_vec(),
            _ => (0..5 + i).map(|j| j.wrapping_mul(37) ^ i).collect(),
        };
        bytes.extend((data.len() as u16).to_be_bytes());
        bytes.push(b'T');
        bytes.extend(data);
    }
    let needed = vec!["v0_1".to_string(), "v2_5".to_string()];
    let units = Units::flat(bytes, reduce::units::UnitKind::Byte);
    for (seed, timing) in [(3u64, Timing::Random), (11, Timing::PassesSlow)] {
        for name in BYTE_PASSES {
            let entry = ENTRIES
                .iter()
                .find(|e| e.name == name)
                .expect("in the registry");
            let policy = entry.policy(&BuildContext::new(None, Arc::new(units.clone())));
            let oracle = (seed, timing);
            let filter = (&AcceptAll as &dyn SyntaxFilter, None);
            let (serial, ..) = run(&units, filter, policy.clone(), &needed, (1, 1), oracle);
            let (parallel, ..) = run(&units, filter, policy, &needed, (4, 1), oracle);
            assert!(serial.len() > 1, "{name}: nothing was reduced");
            assert_eq!(
                serial, parallel,
                "{name} (seed {seed}, {timing:?}): -j 4 differs"
            );
        }
    }
}

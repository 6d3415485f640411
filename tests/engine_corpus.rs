//! The safety net under the engine (issue 44): what every policy gives on a
//! corpus of random programs judged by random deterministic oracles, at
//! several `-j`/`--wave` settings, must stay what it was when the corpus
//! was recorded (`fixtures/engine-corpus/expected.txt`).
//!
//! Every run's result is compared (its hash and length), and at `-j 1`
//! without waves, where the order of tests is the policy's alone, so are
//! its oracle calls and commits. Calls at other settings depend on timing
//! (tests ahead that are cancelled), so they are recorded but not compared.
//!
//! To record the corpus again after a change meant to change results:
//! `REDUCE_BLESS=1 cargo test --test integration engine_corpus`, then read
//! the diff of the expected file.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use reduce::configuration::Configuration;
use reduce::engine::Engine;
use reduce::interfaces::{Candidate, Observer, Strictness, SyntaxFilter, Verdict};
use reduce::languages::Language;
use reduce::policy::Policy;
use reduce::policy::registry::{BuildContext, ENTRIES, Role, Tuning};
use reduce::policy::tail::TailOptions;
use reduce::policy::{Minimizer, format::Style};
use reduce::syntax::SyntaxCheck;
use reduce::tree::Tree;
use reduce::tree::parse::parse;
use reduce::units::Units;

const EXPECTED: &str = "fixtures/engine-corpus/expected.txt";

/// The settings every policy runs at: (jobs, wave).
const SETTINGS: [(usize, usize); 4] = [(1, 1), (3, 1), (1, 4), (4, 4)];

/// FNV-1a, seeded: a hash that does not change between Rust versions.
fn fnv(seed: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325 ^ seed, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A C program of a few functions, globals and structs, drawn from `seed`,
/// and the names an oracle drawn from the same seed needs.
fn program(seed: u64) -> (String, Vec<String>) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut text = String::new();
    let mut names = Vec::new();
    for s in 0..rng.below(3) {
        text.push_str(&format!("struct s{s} {{ int a; long b{s}; }};\n"));
    }
    text.push_str("int g;\n");
    for f in 0..2 + rng.below(3) {
        text.push_str(&format!("int f{f}(int a, int b) {{\n"));
        for i in 0..3 + rng.below(5) {
            let name = format!("v{f}_{i}");
            match rng.below(4) {
                0 => text.push_str(&format!("  int {name} = a + {};\n", rng.below(100))),
                1 => text.push_str(&format!(
                    "  if (a > {}) {{ g = b; int {name} = 1; }}\n",
                    rng.below(9)
                )),
                2 => text.push_str(&format!(
                    "  for (int i = 0; i < {}; i++) {{ int {name} = i * b; g += {name}; }}\n",
                    rng.below(5)
                )),
                _ => text.push_str(&format!("  int {name} = f{f}(b, {});\n", rng.below(7))),
            }
            names.push(name);
        }
        text.push_str(&format!("  int t{f} = a * 2;\n  return t{f};\n}}\n"));
    }
    let needed = (0..1 + rng.below(3))
        .map(|_| names[rng.below(names.len() as u64) as usize].clone())
        .collect();
    (text, needed)
}

/// A deterministic oracle: the candidate keeps every needed name, and a
/// hash of its bytes does not fall in the `1/noise` share it rejects
/// anyway (the original always passes), so that the oracle is not
/// monotone and the policies' paths branch.
struct Judge {
    needed: Vec<String>,
    seed: u64,
    noise: u64,
    original: Vec<u8>,
}

impl Judge {
    fn verdict(&self, bytes: &[u8]) -> Verdict {
        let text = String::from_utf8_lossy(bytes);
        let keeps = self.needed.iter().all(|n| text.contains(n.as_str()));
        let noisy = bytes != self.original && fnv(self.seed, bytes).is_multiple_of(self.noise);
        if keeps && !noisy {
            Verdict::Interesting
        } else {
            Verdict::NotInteresting
        }
    }
}

/// Counts the committed steps.
#[derive(Default)]
struct Commits(u64);

impl Observer for Commits {
    fn on_improved(&mut self, _config: &Configuration, _bytes: &[u8]) {
        self.0 += 1;
    }
}

/// What a run gave: result hash and length, commits, oracle calls.
fn outcome(
    units: &Units,
    filter: (&dyn SyntaxFilter, Option<Strictness>),
    policy: Box<dyn Policy>,
    upcoming: &[Box<dyn Policy>],
    judge: &Judge,
    (jobs, wave): (usize, usize),
) -> (u64, usize, u64, u64) {
    let oracle = |c: &Candidate<'_>| judge.verdict(c.bytes);
    let mut engine = Engine::new(units, &oracle)
        .with_jobs(jobs)
        .with_wave(wave)
        .with_filter(Some(filter.0));
    engine.set_filter(filter.1);
    let mut commits = Commits::default();
    let mut policy = policy;
    let mut next = upcoming.iter().map(|p| p.clone_box());
    let (result, _) = engine.run_then(
        &mut policy,
        Configuration::full(units.len()),
        &mut commits,
        &mut next,
    );
    let bytes = units.render(&result);
    let calls = engine.phases.iter().map(|p| p.tests).sum();
    (fnv(0, &bytes), bytes.len(), commits.0, calls)
}

/// Every policy of the registry that builds on a C tree, with the list
/// minimizers it may take, as the default pipeline filters them.
fn policies(tree: &Arc<Tree>, units: &Arc<Units>) -> Vec<(Box<dyn Policy>, Option<Strictness>)> {
    let mut out = Vec::new();
    for entry in ENTRIES.iter().filter(|e| e.builder.is_some()) {
        if ["records", "fill"].contains(&entry.name) {
            continue; // binary passes: nothing to do on C text
        }
        let inners: &[Minimizer] = if entry.takes_inner {
            &[Minimizer::DdMin, Minimizer::DrDd, Minimizer::ProbDd]
        } else {
            &[Minimizer::DdMin]
        };
        for &inner in inners {
            let mut cx = BuildContext::new(Some(Arc::clone(tree)), Arc::clone(units));
            cx.inner = inner;
            cx.tuning = Tuning {
                format: Style::Compact,
                // The tail search on these small programs too.
                tail: TailOptions { min_units: 0 },
                ..Tuning::default()
            };
            let strictness = match entry.role {
                Role::LenientPass => Some(Strictness::MissingTokensFree),
                _ => Some(Strictness::Strict),
            };
            out.push((entry.policy(&cx), strictness));
        }
    }
    out
}

/// The corpus's lines: one per program, oracle, policy and setting.
fn corpus() -> String {
    let mut out = String::new();
    for seed in 1..=4u64 {
        let (text, needed) = program(seed);
        let c = Language::named("c");
        let (tree, units) = parse(c, text.into_bytes()).unwrap();
        let filter = SyntaxCheck::new(c, tree.parse_errors);
        let (tree, shared) = (Arc::new(tree), Arc::new(units.clone()));
        let judge = Judge {
            needed,
            seed,
            noise: 5 + seed,
            original: units.source().to_vec(),
        };
        let all = policies(&tree, &shared);
        for (at, (policy, strictness)) in all.iter().enumerate() {
            // The next two policies run after it, for the tests ahead at a
            // phase's end.
            let upcoming: Vec<_> = all[at + 1..]
                .iter()
                .take(2)
                .map(|(p, _)| p.clone_box())
                .collect();
            for setting in SETTINGS {
                let filter = (&filter as &dyn SyntaxFilter, *strictness);
                let (hash, len, commits, calls) = outcome(
                    &units,
                    filter,
                    policy.clone_box(),
                    &upcoming,
                    &judge,
                    setting,
                );
                let (jobs, wave) = setting;
                writeln!(
                    out,
                    "{seed} #{at} {} j{jobs} w{wave}: result {hash:016x} {len} commits {commits} calls {calls}",
                    policy.name()
                )
                .unwrap();
            }
        }
    }
    out
}

/// The fields of a corpus line a run at that setting must reproduce.
fn compared(line: &str) -> String {
    let serial = line.contains(" j1 w1:");
    let words: Vec<&str> = line.split(' ').collect();
    let keep = if serial { words.len() } else { words.len() - 4 };
    words[..keep].join(" ")
}

#[test]
fn the_engine_gives_every_policy_the_results_recorded_on_the_corpus() {
    let got = corpus();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(EXPECTED);
    if std::env::var_os("REDUCE_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    let key = |l: &str| l.split(':').next().unwrap_or("").to_string();
    let want: BTreeMap<String, String> = expected.lines().map(|l| (key(l), compared(l))).collect();
    let mut differ = Vec::new();
    for line in got.lines() {
        match want.get(&key(line)) {
            Some(w) if *w == compared(line) => {}
            Some(w) => differ.push(format!("expected {w}\n     got {}", compared(line))),
            None => differ.push(format!("not recorded: {line}")),
        }
    }
    assert_eq!(
        got.lines().count(),
        want.len(),
        "the corpus has other runs than recorded"
    );
    assert!(
        differ.is_empty(),
        "{} of {} runs differ from {EXPECTED}:\n{}",
        differ.len(),
        want.len(),
        differ.join("\n")
    );
}

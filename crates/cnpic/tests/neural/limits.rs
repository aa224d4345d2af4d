//! Issue 47's limits on every engine: one nesting limit, met at the same
//! call by the network (cached and plain), the reference interpreter on
//! the combinatory form and on the programs as written, with
//! `--cross-check` saying both stopped there; and one memory limit that
//! stops every engine with E0708 before it is reached. Small limits keep
//! the runs short.

use cnpi::diagnostic::{Code, codes};
use cnpi::exec::Limits;
use cnpi::exec::compare::Run;
use cnpi::plan::{Engines, RunOptions};
use cnpi_neural::load::{Plan, Request, plan_source};

/// `SUM(m)` returns `m` by recursion with a result: input `k` nests
/// `k + 1` calls (`MAIN`, the entry, nests none).
const SUM_TO: &str = "env ram()
input k
var total = 0

def MAIN():
  total = SUM(k)

def SUM(m):
  if m == 0:
    return 0
  return SUM(m - 1) + 1
";

/// A plain call that recurses until its register reaches `k`: input `k`
/// nests `k` calls.
const DIVE: &str = "env ram(i = 0)
input k

def DIVE():
  if i < k:
    i = i + 1
    DIVE()
    i = i + 0
";

fn plan(text: &str, engines: Engines, cached: bool) -> Plan {
    let request = Request {
        cached,
        jit: super::jit(),
        ..Request::new(engines)
    };
    let mut report = |d: &[cnpi::diagnostic::Diagnostic], _: &cnpi::diagnostic::Sources| {
        assert!(
            d.iter()
                .all(|d| d.severity != cnpi::diagnostic::Severity::Error),
            "{d:?}"
        );
    };
    plan_source("limits.cnpi", text, &request, &mut |_, _| {}, &mut report).expect("plans")
}

fn run(plan: &Plan, k: usize, limits: Limits) -> Run {
    let state = plan.read_input(&format!("{{\"k\": {k}}}")).expect("reads");
    plan.run(state, RunOptions::limited(1 << 40, limits))
}

fn code(run: &Run) -> Option<Code> {
    run.as_ref().err().map(|e| e.code)
}

/// Every engine, and both cross-checks, on `text` with input `k`.
fn every_engine(text: &str, k: usize, limits: Limits) -> Vec<(&'static str, Run)> {
    let engines = [
        ("network", Engines::Network, true),
        ("plain network", Engines::Network, false),
        ("symbolic", Engines::Symbolic, true),
        ("cross-check", Engines::CrossCheck, true),
    ];
    (engines.into_iter())
        .map(|(name, engines, cached)| (name, run(&plan(text, engines, cached), k, limits)))
        .collect()
}

/// The nesting limit is met at the same call on every engine: the run
/// that nests exactly `limit` calls finishes everywhere, the one nesting
/// one more stops everywhere with E0704 naming the limit, and the
/// cross-check says both engines stopped there.
#[test]
fn the_nesting_limit_is_met_at_the_same_call_on_every_engine() {
    let limit = 40;
    let limits = Limits {
        max_depth: limit,
        ..Limits::default()
    };
    for (text, nested) in [(SUM_TO, 1), (DIVE, 0)] {
        // Input `k` nests `k + nested` calls.
        let k = limit - nested;
        for (name, ran) in every_engine(text, k, limits) {
            assert!(ran.is_ok(), "{name} at {limit} calls: {ran:?}\n{text}");
        }
        for (name, ran) in every_engine(text, k + 1, limits) {
            let error = ran.expect_err("one call too many");
            assert_eq!(error.code, codes::E0704, "{name}: {error:?}\n{text}");
            assert!(
                error.message.contains(&format!("more than {limit} calls")),
                "{name}: {}",
                error.message
            );
            if name == "cross-check" {
                assert!(
                    error
                        .notes
                        .iter()
                        .any(|n| n == "both engines stopped with E0704 here"),
                    "{:?}",
                    error.notes
                );
            }
        }
    }
}

/// Issue 47: `F(m) = F(m - 1) + 1` deep enough stops with E0708 on every
/// engine under a small memory limit (never an abort, never E1106), and
/// runs to its end with room.
#[test]
fn deep_recursion_stops_with_e0708_under_a_memory_limit_on_every_engine() {
    let small = Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    };
    for (name, ran) in every_engine(SUM_TO, 200_000, small) {
        assert_eq!(code(&ran), Some(codes::E0708), "{name}: {ran:?}");
    }
    for (name, ran) in every_engine(SUM_TO, 2_000, small) {
        assert!(ran.is_ok(), "{name}: {ran:?}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// For random small nesting limits and depths around them, every
    /// engine ends alike: all finish, or all stop with E0704. (On the
    /// network a converted program's own loop and dispatch are a few
    /// activations deep too, which the limit also bounds: limits below a
    /// dozen or so stop them before any call; the real one is 10^7.)
    #[test]
    fn every_engine_ends_alike_around_a_random_nesting_limit(
        limit in 16usize..40,
        k in 10usize..44,
        sum in proptest::bool::ANY,
    ) {
        let (text, nested) = if sum { (SUM_TO, k + 1) } else { (DIVE, k) };
        let limits = Limits { max_depth: limit, ..Limits::default() };
        for (name, ran) in every_engine(text, k, limits) {
            let expected = (nested > limit).then_some(codes::E0704);
            proptest::prop_assert_eq!(code(&ran), expected, "{} with k = {}: {:?}", name, k, ran);
        }
    }
}

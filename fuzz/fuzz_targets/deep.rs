//! Deep recursion under every limit: recursions of each kind a normal
//! program has (with a result, without, mutual, with a local array per
//! frame, with several results), as deep as the input says, under random
//! step, memory and nesting limits; each run ends at a limit with its
//! coded error, never a panic, an abort or a hang, and the program as
//! written and its combinatory form agree.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

const RECURSIONS: [&str; 5] = [
    // A result.
    "def MAIN():\n  total = F(k)\n\ndef F(m):\n  if m <= 0:\n    return 0\n  \
     return F(m - 1) + 1\n",
    // No result.
    "def MAIN():\n  F(k)\n\ndef F(m):\n  if m > 0:\n    total += 1\n    F(m - 1)\n",
    // Mutual, through a `for` and a `break`.
    "def MAIN():\n  total = EVEN(k)\n\ndef EVEN(m):\n  for i = 0 to m:\n    if i == 1:\n      \
     break\n  if m <= 0:\n    return 1\n  return ODD(m - 1)\n\ndef ODD(m):\n  if m <= 0:\n    \
     return 0\n  return EVEN(m - 1)\n",
    // A local array in every frame.
    "def MAIN():\n  total = F(k)\n\ndef F(m):\n  var L[m % 5 + 1] = m\n  if m <= 0:\n    \
     return L[0]\n  return F(m - 1) + L[0]\n",
    // Several results.
    "def MAIN():\n  total, other = F(k)\n\ndef F(m):\n  if m <= 0:\n    return 0, 1\n  \
     a, b = F(m - 1)\n  return b, a + b % 1000\n",
];

fn case(u: &mut Unstructured) -> Result<()> {
    let body = RECURSIONS[usize::from(u.arbitrary::<u8>()?) % RECURSIONS.len()];
    let text = format!("env ram()\ninput k\nvar total = 0\nvar other = 0\n\n{body}");
    let k: i64 = u.int_in_range(-3..=200_000)?;
    let max_depth = u.int_in_range(1..=300_000)?;
    if let Some(compiled) = cnpi_fuzz::compiled(&text) {
        cnpi_fuzz::run_every_way(&compiled, &format!("{{\"k\": {k}}}"), max_depth);
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = case(&mut Unstructured::new(data));
});

//! One line of `cnpic run --inputs`: any bytes, read as each environment's
//! input for programs that declare every kind of member (scalars, arrays,
//! matrices, graphs), then run. A line that is not UTF-8 is that line's
//! error (`--inputs` reads it so); no line panics.

#![no_main]

use libfuzzer_sys::fuzz_target;

/// Programs whose inputs take every shape a line can give.
const PROGRAMS: [&str; 4] = [
    "env ram()\ninput k\ninput A[n]\ninput M[r][c]\nvar total = 0\nvar B[n + k] = 1\n\n\
     def MAIN():\n  for i = 0 to n - 1:\n    total += A[i] * B[i]\n  total += len(M) + k\n",
    "env ram()\ninput s[n]\nvar best = 0\n\ndef MAIN():\n  for i = 0 to n - 1:\n    \
     best = max(best, s[i])\n",
    "env array(i = 0)\n\ndef WALK():\n  while A[i] != END:\n    MOVE(i, RIGHT)\n",
    "env graph(v = 0)\n\ndef VISIT():\n  while has_child(v):\n    NEXT_CHILD(v)\n",
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, line)) = data.split_first() else {
        return;
    };
    let text = PROGRAMS[usize::from(which) % PROGRAMS.len()];
    let compiled = cnpi_fuzz::compiled(text).expect("the fuzzed programs compile");
    let Ok(line) = std::str::from_utf8(line) else {
        return;
    };
    cnpi_fuzz::run_every_way(&compiled, line, 5_000);
});

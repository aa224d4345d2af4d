//! The large generated program the benchmarks share (the front end's and
//! the network's start-up).

/// A file of `count` definitions: chains of conditionals, loops and
/// sequences over four pointers, each referring to the previous ones.
pub fn generated(count: usize) -> String {
    let mut source = String::from("env array(P1 = 0, P2 = 1, P3 = LAST, P4 = 0)\n");
    source.push_str("def D0: MOVE(P1, RIGHT)\n");
    for i in 1..count {
        let prev = i - 1;
        let line = match i % 3 {
            0 => format!(
                "def D{i}: cond(A[P1] > A[P2] and P3 != END?; D{prev}, SWAP(P1, P2), NOP)\n"
            ),
            1 => format!("def D{i}:\n  linrec(A[P2 + 1] != END?; D{prev}, MOVE(P2, RIGHT), NOP)\n"),
            _ => format!("def D{i}: seq(; SET(P4, P1 * 2 - 1), D{prev}, MOVE(P3, LEFT))\n"),
        };
        source.push_str(&line);
    }
    source
}

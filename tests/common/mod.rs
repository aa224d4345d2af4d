//! Helpers shared by several integration tests.

/// Decimal addition of digit strings, by hand (no big-integer crate), as
/// the reference for the addition environment.
pub fn add_decimal(a: &str, b: &str) -> String {
    let (a, b): (Vec<u8>, Vec<u8>) = (a.bytes().rev().collect(), b.bytes().rev().collect());
    let mut digits = Vec::new();
    let mut carry = 0;
    for i in 0..a.len().max(b.len()) {
        let digit = |s: &[u8]| s.get(i).map_or(0, |c| c - b'0');
        let sum = digit(&a) + digit(&b) + carry;
        digits.push(b'0' + sum % 10);
        carry = sum / 10;
    }
    digits.push(b'0' + carry);
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
    }
    digits.reverse();
    String::from_utf8(digits).expect("ASCII digits")
}

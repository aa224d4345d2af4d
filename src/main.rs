//! `cnpic`: the command-line driver.
fn main() {}

//! The checker: parse tree to typed program.

//! The exact reference interpreter.

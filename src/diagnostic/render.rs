//! Rendering diagnostics with ariadne.

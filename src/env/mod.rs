//! The environments programs act on: `array`, `graph` and `addition`.
//!
//! Each environment parses and validates its JSON input, applies ACTs,
//! answers the observations of conditions (through `program::expr::World`)
//! and formats its final state as text or JSON.

/// Which environment a program runs in (the `env KIND(...)` line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EnvKind {
    Array,
    Graph,
    Addition,
}

impl EnvKind {
    pub const ALL: [EnvKind; 3] = [EnvKind::Array, EnvKind::Graph, EnvKind::Addition];

    /// The name written after `env`.
    pub fn name(self) -> &'static str {
        match self {
            EnvKind::Array => "array",
            EnvKind::Graph => "graph",
            EnvKind::Addition => "addition",
        }
    }

    pub fn from_name(name: &str) -> Option<EnvKind> {
        EnvKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

//! Program-memory files (`.cnpim`): a [`Memory`] as safetensors.

pub mod tensors;

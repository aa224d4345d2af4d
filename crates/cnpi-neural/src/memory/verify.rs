//! Does a memory hold what its stored sources compile to?
//!
//! A `.cnpim` keeps the source of every program it holds, and building is
//! deterministic: the same seed and the same sources, added in the same
//! order, give the same memory bit for bit. [`Memory::verify_sources`]
//! rebuilds the memory that way and names the first row, key, embedding or
//! detector that differs, or the program whose environment, registers,
//! declared data or entry differ from what its source declares. The
//! file's checksum catches accidental damage; this catches a memory whose
//! rows or programs were edited and the checksum made consistent again.

use super::{KEY_DIM, Memory};
use crate::detector::Cache;
use cnpi::diagnostic::{Diagnostic, codes};

impl Memory {
    /// Rebuilds the memory from its stored sources (detectors through
    /// `cache`) and compares; an E1102 error names the first difference.
    pub fn verify_sources(&self, name: &str, cache: &Cache) -> Result<(), Diagnostic> {
        let rebuilt = self.rebuild(cache)?;
        match self.first_difference(&rebuilt) {
            None => Ok(()),
            Some(what) => Err(Diagnostic::error(
                codes::E1102,
                format!("`{name}` disagrees with the sources it stores: {what}"),
            )
            .with_help("rebuild it from the source with `cnpic build FILE.cnpi -o FILE.cnpim`")),
        }
    }

    /// The memory the stored sources give, programs added in order.
    fn rebuild(&self, cache: &Cache) -> Result<Memory, Diagnostic> {
        let mut rebuilt = Memory::new(self.seed, cache)?;
        for unit in &self.units {
            let entry = self.rows.get(unit.entry).map(|row| row.name.as_str());
            let compilation = cnpi::compile::compile(&unit.name, &unit.source, entry);
            let program = compilation.program.ok_or_else(|| {
                Diagnostic::error(
                    codes::E1102,
                    format!(
                        "the source the memory stores for `{}` does not compile",
                        unit.name
                    ),
                )
            })?;
            rebuilt.add(&program, &unit.name, &unit.source, cache)?;
        }
        Ok(rebuilt)
    }

    /// What first differs between `self` and `other`, if anything.
    fn first_difference(&self, other: &Memory) -> Option<String> {
        for (mine, theirs) in self.units.iter().zip(&other.units) {
            let what = if mine.declared.env != theirs.declared.env {
                format!(
                    "its environment: `{}`, where its source declares `{}`",
                    mine.declared.env.name(),
                    theirs.declared.env.name()
                )
            } else if mine != theirs {
                "its registers, declared data or entry".to_string()
            } else {
                continue;
            };
            return Some(format!("program `{}` differs in {what}", mine.name));
        }
        if self.rows.len() != other.rows.len() {
            return Some(format!(
                "it has {} rows, its sources give {}",
                self.rows.len(),
                other.rows.len()
            ));
        }
        for (row, (mine, theirs)) in self.rows.iter().zip(&other.rows).enumerate() {
            let keys = row * KEY_DIM..(row + 1) * KEY_DIM;
            let what = if mine != theirs {
                "its name, kind or place"
            } else if self.m_key[keys.clone()] != other.m_key[keys] {
                "its key"
            } else if self.embedding(row) != other.embedding(row) {
                "its embedding"
            } else {
                continue;
            };
            return Some(format!("row {row} (`{}`) differs in {what}", mine.name));
        }
        if self.w_key != other.w_key || self.detectors.len() != other.detectors.len() {
            return Some("the detector memory differs".into());
        }
        let detectors = self.detectors.iter().zip(&other.detectors).enumerate();
        for (id, (mine, theirs)) in detectors {
            if mine.text != theirs.text || mine.detector.condition() != theirs.detector.condition()
            {
                return Some(format!("detector {id} (`{}`) differs", mine.text));
            }
        }
        None
    }
}

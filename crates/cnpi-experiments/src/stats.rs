//! Mean and spread over seeds, as the summaries report them.

use serde::Serialize;

/// Mean, sample standard deviation, minimum and maximum of some values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub n: usize,
    pub mean: f64,
    pub std: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Spread {
        let n = values.len();
        let mean = values.iter().sum::<f64>() / n.max(1) as f64;
        let var = if n > 1 {
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Spread {
            n,
            mean,
            std: var.sqrt(),
            min: values.iter().copied().fold(f64::INFINITY, f64::min),
            max: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

impl std::fmt::Display for Spread {
    /// `mean ± std` in percent, for fractions.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.1} ± {:.1}", self.mean * 100.0, self.std * 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_of_a_few_values() {
        let s = Spread::of(&[1.0, 0.5, 0.75]);
        assert_eq!((s.n, s.mean, s.min, s.max), (3, 0.75, 0.5, 1.0));
        assert!((s.std - 0.25).abs() < 1e-12);
        assert_eq!(s.to_string(), "75.0 ± 25.0");
    }
}

//! Match statistics: rates with Wilson score intervals.

/// The normal quantile of a two-sided 95% interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// `successes` out of `trials` with its Wilson 95% interval (`0 [0, 1]` for no trials). Wilson's
/// interval stays inside `[0, 1]` and is sound at rates near 0 or 1, where the normal
/// approximation is not (a 100-0 result is common between a strong agent and a random one).
pub fn wilson(successes: u64, trials: u64) -> Rate {
    if trials == 0 {
        return Rate { value: 0.0, low: 0.0, high: 1.0 };
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z_95 * Z_95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half_width = Z_95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Rate { value: p, low: (centre - half_width).max(0.0), high: (centre + half_width).min(1.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn wilson_matches_hand_worked_intervals() {
        // 5 of 10: centre 0.5, half-width 1.96/1.38415 * sqrt(0.025 + 0.0096) = 0.26339.
        let half = wilson(5, 10);
        assert!(close(half.low, 0.2366) && close(half.high, 0.7634), "{half:?}");
        // 0 of 10: [0, z²/n / (1 + z²/n)] = [0, 0.38415 / 1.38415].
        let none = wilson(0, 10);
        assert!(close(none.low, 0.0) && close(none.high, 0.2775), "{none:?}");
        // 95 of 100: centre 0.9334, half-width 0.0451, so [0.8882, 0.9785].
        let most = wilson(95, 100);
        assert!(close(most.value, 0.95) && close(most.low, 0.8882) && close(most.high, 0.9785), "{most:?}");
        assert_eq!(wilson(0, 0), Rate { value: 0.0, low: 0.0, high: 1.0 });
    }
}

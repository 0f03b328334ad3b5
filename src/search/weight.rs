//! [`Weight`]: the `f = g_weight * g + h_weight * h` of weighted IDA*, and the bounds it
//! proves.

/// How IDA* weighs the moves made against the estimate: `f = g_weight * g + h_weight * h`.
///
/// `Weight::ONE` is plain IDA*, optimal. With `h_weight > g_weight` (weighted IDA*) the
/// search dives towards the goal and may return a longer solution, but never longer than
/// `h_weight / g_weight` times the optimal length: along an optimal path every node has
/// `g + h <= C*` (h is admissible), so `f <= h_weight * C*`; the threshold therefore never
/// passes `h_weight * C*` without the search finding a solution, and a solution found under
/// threshold `T` has `g_weight * length <= T`. Integer weights keep that argument exact.
///
/// The same argument gives a lower bound after each iteration: the optimal length is at
/// least `ceil(next / h_weight)` (`next`: the smallest `f` over the threshold), rounded up to
/// the parity every solution shares. The next threshold is `h_weight` times that bound,
/// never beyond `h_weight * C*`, so the bound still holds; for plain IDA* this is the usual
/// `next`, while weighted thresholds climb by two moves at a time instead of by one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weight {
    /// The weight of the moves made.
    pub g: u32,
    /// The weight of the estimate; solutions are at most `h / g` times optimal.
    pub h: u32,
}

/// [`Weight::ONE`]: the optimal search.
impl Default for Weight {
    fn default() -> Self {
        Weight::ONE
    }
}

impl Weight {
    /// Plain IDA*: `f = g + h`, optimal solutions.
    pub const ONE: Weight = Weight { g: 1, h: 1 };

    /// The largest fraction `h/g <= w` with `g <= 1000`, in lowest terms: rounding down only
    /// tightens the promise. `None` unless `1 <= w <= 100`. A `w` written with at most three
    /// decimals is kept as it is (1.003 is 1003/1000, though `1.003 * 1000` is 1002.99...
    /// in floating point).
    pub fn from_factor(w: f64) -> Option<Weight> {
        if !(1.0..=100.0).contains(&w) {
            return None;
        }
        let g = 1000u32;
        // A product a hair below a whole number is that number: `w * 1000` is at most
        // 100,000, so floating point is off by far less than the 1e-6 added.
        let h = ((w * g as f64 + 1e-6).floor() as u32).max(g);
        let mut h = h;
        // Multiplying by 1000 or the nudge may round up; the factor must not exceed w.
        while h > g && h as f64 / g as f64 > w {
            h -= 1;
        }
        let d = gcd(g, h);
        Some(Weight { g: g / d, h: h / d })
    }

    /// The factor `h/g`: solutions are at most this many times the optimal length.
    pub fn factor(self) -> f64 {
        self.h as f64 / self.g as f64
    }

    /// Whether this is plain, optimal IDA*.
    pub fn is_one(self) -> bool {
        self.g == self.h
    }

    /// The fewest moves an optimal solution can have once a threshold is known not to be
    /// exceeded by some node of every optimal path: `ceil(threshold / h_weight)`.
    pub fn moves_at_least(self, threshold: u32) -> u32 {
        threshold.div_ceil(self.h)
    }

    /// The threshold after an iteration whose smallest `f` over the threshold was `next`,
    /// for a start whose solutions all have length of parity `parity` (see above).
    pub fn next_threshold(self, next: u32, parity: u32) -> u32 {
        let mut moves = self.moves_at_least(next);
        if moves % 2 != parity {
            moves += 1;
        }
        moves * self.h
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_factor_becomes_the_largest_fraction_not_above_it() {
        assert_eq!(Weight::from_factor(1.0), Some(Weight::ONE));
        assert_eq!(Weight::from_factor(1.5), Some(Weight { g: 2, h: 3 }));
        assert_eq!(Weight::from_factor(2.0), Some(Weight { g: 1, h: 2 }));
        let third = Weight::from_factor(4.0 / 3.0).unwrap();
        assert!(third.factor() <= 4.0 / 3.0 && third.g <= 1000);
        assert_eq!(Weight::from_factor(0.99), None);
        assert_eq!(Weight::from_factor(100.5), None);
        assert_eq!(Weight::from_factor(f64::NAN), None);
    }

    #[test]
    fn a_factor_of_three_decimals_is_kept_exactly() {
        // Each of these times 1000 is a hair below a whole number in floating point.
        for (w, h) in [
            (1.001, 1001),
            (1.003, 1003),
            (1.005, 1005),
            (1.007, 1007),
            (1.009, 1009),
            (2.675, 2675),
        ] {
            let weight = Weight::from_factor(w).unwrap();
            assert_eq!(weight.h * 1000 / weight.g, h, "{w}");
            assert_eq!(weight.h * 1000 % weight.g, 0, "{w}");
            assert!(weight.factor() <= w, "{w}");
        }
        // More decimals are still rounded down to a multiple of 1/1000.
        assert_eq!(
            Weight::from_factor(1.0034),
            Some(Weight { g: 1000, h: 1003 })
        );
        assert_eq!(Weight::from_factor(1.0009), Some(Weight::ONE));
        assert_eq!(
            Weight::from_factor(1.0029999),
            Some(Weight { g: 500, h: 501 })
        );
    }

    #[test]
    fn thresholds_keep_the_parity_of_every_solution() {
        assert_eq!(Weight::ONE.next_threshold(41, 1), 41);
        assert_eq!(Weight::ONE.next_threshold(41, 0), 42);
        let w = Weight { g: 2, h: 3 };
        // 100 / 3 rounds up to 34 moves, then to the odd 35: a threshold of 105.
        assert_eq!(w.moves_at_least(100), 34);
        assert_eq!(w.next_threshold(100, 1), 105);
        assert_eq!(w.next_threshold(100, 0), 102);
    }
}

//! Deterministic in-crate PRNGs, so sampled controls are byte-identical across platforms
//! and dependency versions.
//!
//! * [`SplitMix64`] (Steele, Lea & Flood 2014; Vigna's reference constants) seeds and
//!   derives streams.
//! * [`Xoshiro256StarStar`] (Blackman & Vigna 2018) draws numbers; [`Xoshiro256StarStar::below`]
//!   is unbiased (Lemire's multiply-and-reject).
//! * [`stream`]`(seed, k)` is the generator of control `k`: seeded by SplitMix64 from
//!   `mix(seed + mix(k + 1))`, so controls are independent and control `k` does not
//!   depend on how many controls are drawn.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (a bijection on `u64`).
pub fn mix64(mut value: u64) -> u64 {
    value = (value ^ (value >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    value = (value ^ (value >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    value ^ (value >> 31)
}

/// The first output of SplitMix64 seeded with `seed`: a well-mixed hash of `seed`, for
/// ordering items reproducibly (a sample in hash order).
pub fn splitmix64(seed: u64) -> u64 {
    mix64(seed.wrapping_add(GOLDEN))
}

/// SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// Creates a generator with the given state.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// Next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix64(self.state)
    }
}

/// xoshiro256** generator.
#[derive(Debug, Clone)]
pub struct Xoshiro256StarStar {
    s: [u64; 4],
}

impl Xoshiro256StarStar {
    /// Seeds the four state words from SplitMix64(`seed`), as recommended by the authors.
    pub fn seed_from_u64(seed: u64) -> Self {
        let mut sm = SplitMix64::new(seed);
        let mut s = [sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()];
        if s == [0; 4] {
            s[0] = GOLDEN; // the all-zero state is the only invalid one
        }
        Xoshiro256StarStar { s }
    }

    /// Next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform integer in `0..bound` (returns 0 for `bound == 0`).
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            return 0;
        }
        let mut m = self.next_u64() as u128 * bound as u128;
        if (m as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u64) < threshold {
                m = self.next_u64() as u128 * bound as u128;
            }
        }
        (m >> 64) as u64
    }
}

/// Independent generator number `index` derived from `seed`.
pub fn stream(seed: u64, index: u64) -> Xoshiro256StarStar {
    Xoshiro256StarStar::seed_from_u64(mix64(seed.wrapping_add(mix64(index.wrapping_add(1)))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_vector() {
        // Published test values for SplitMix64 with seed 1234567.
        let mut g = SplitMix64::new(1_234_567);
        let got: Vec<u64> = (0..5).map(|_| g.next_u64()).collect();
        assert_eq!(
            got,
            vec![
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821
            ]
        );
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut g = stream(42, 0);
        let mut hist = [0u32; 7];
        for _ in 0..70_000 {
            hist[g.below(7) as usize] += 1;
        }
        assert!(
            hist.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{hist:?}"
        );
        assert_eq!(g.below(0), 0);
        assert_eq!(g.below(1), 0);
    }

    #[test]
    fn streams_are_deterministic_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| stream(7, 3).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(stream(7, 3).next_u64(), stream(7, 4).next_u64());
        assert_ne!(stream(7, 3).next_u64(), stream(8, 3).next_u64());
    }
}

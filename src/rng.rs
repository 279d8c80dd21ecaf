//! Seeded randomness, shared by games and searches: every random choice in plylab comes from
//! a seed through these functions, so runs are reproducible.

/// The splitmix64 finaliser: a bijective mixer of 64-bit words (Steele, Lea and Flood,
/// "Fast splittable pseudorandom number generators", OOPSLA 2014). Used to derive seeds
/// and hash-like values from seeds and indices.
#[must_use]
pub const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Marsaglia's xorshift64* generator (Vigna 2016): small, fast, seeded, good enough to
/// shuffle moves.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator whose sequence is fixed by `seed` (any value, 0 included).
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self(mix(seed) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform integer in `0..n` (Lemire's multiply-shift; `n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_follow_the_seed_and_stay_in_range() {
        let (mut a, mut b, mut c) = (XorShift::new(7), XorShift::new(7), XorShift::new(8));
        let first: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        assert_eq!(first, (0..5).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert_ne!(first, (0..5).map(|_| c.next_u64()).collect::<Vec<_>>());
        let mut counts = [0u32; 6];
        for _ in 0..6000 {
            counts[a.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&n| (800..1200).contains(&n)),
            "{counts:?}"
        );
    }
}

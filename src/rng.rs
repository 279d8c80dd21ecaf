//! Seeded randomness, shared by games and searches: every random choice in plylab comes from
//! a seed through these functions, so runs are reproducible.

/// One output of splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): the state `z` advanced by the golden gamma, then
/// [`finalize`]d. So `mix(n * 0x9E37_79B9_7F4A_7C15)` is the `n`-th output of splitmix64
/// seeded with 0. Used to derive seeds and hash-like values from seeds and indices.
#[must_use]
pub const fn mix(z: u64) -> u64 {
    finalize(z.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

/// The splitmix64 finaliser (Stafford's "Mix13" variant of MurmurHash3's fmix64): a
/// bijection on 64-bit words, so distinct keys never collide, and every output bit depends
/// on every input bit, so a table may index by the high or the low bits of a hashed key.
#[must_use]
pub const fn finalize(mut z: u64) -> u64 {
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

    /// The first four outputs of splitmix64 seeded with 0, as Vigna's reference
    /// splitmix64.c (prng.di.unimi.it) gives them: they pin the finaliser's every shift and
    /// constant, on which the games' hashes rely.
    #[test]
    fn mix_gives_the_published_splitmix64_sequence() {
        const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
        let published = [
            0xE220_A839_7B1D_CDAF,
            0x6E78_9E6A_A1B9_65F4,
            0x06C4_5D18_8009_454F,
            0xF88B_B8A8_724C_81EC,
        ];
        for (n, &expected) in (0u64..).zip(&published) {
            let output = mix(n.wrapping_mul(GAMMA));
            assert_eq!(
                output, expected,
                "output {n}: {output:#018x}, published {expected:#018x}"
            );
            assert_eq!(
                finalize((n + 1).wrapping_mul(GAMMA)),
                expected,
                "finalize, output {n}"
            );
        }
    }

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

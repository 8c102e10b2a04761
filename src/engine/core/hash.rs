//! The hashing behind both searches' Zobrist keys: SplitMix64, a fast generator whose outputs are
//! well spread over all 64 bits.

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: scrambles `z` over all 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SplitMix64 value of `x`: a pseudo-random key for the number `x`.
pub fn splitmix(x: u64) -> u64 {
    mix(x.wrapping_add(GOLDEN_GAMMA))
}

/// The SplitMix64 sequence from a seed: each call gives the next key.
pub struct SplitMix(u64);

impl SplitMix {
    /// The sequence starting after `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next key.
    pub fn next_key(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        mix(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_the_function_of_successive_seeds() {
        let mut keys = SplitMix::new(7);
        assert_eq!(keys.next_key(), splitmix(7));
        assert_eq!(keys.next_key(), splitmix(7_u64.wrapping_add(GOLDEN_GAMMA)));
        // SplitMix64's published first output for seed 0.
        assert_eq!(splitmix(0), 0xE220_A839_7B1D_CDAF);
    }
}

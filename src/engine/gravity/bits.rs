//! The integer a gravity board is packed into: `u64` when every column and its sentinel fit in
//! 64 bits (7 × 6 Connect Four takes 49), `u128` up to 128 (10 × 10 takes 110).

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// The operations the solver needs from its bitboard integer. Shifts by the integer's width or
/// more give 0 (a line longer than the board runs off it) rather than panicking.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// Width in bits.
    const WIDTH: u32;
    /// No bit set.
    const ZERO: Self;
    /// The lowest bit set.
    const ONE: Self;
    /// `self << n`, 0 when `n` reaches the width.
    fn shl(self, n: u32) -> Self;
    /// `self >> n`, 0 when `n` reaches the width.
    fn shr(self, n: u32) -> Self;
    /// `self << n` for `n` below the width (the caller knows it is).
    fn shl_small(self, n: u32) -> Self;
    /// `self >> n` for `n` below the width (the caller knows it is).
    fn shr_small(self, n: u32) -> Self;
    /// Wrapping addition (the carry of a column's stones into its sentinel never leaves it).
    fn add(self, other: Self) -> Self;
    /// Wrapping subtraction.
    fn sub(self, other: Self) -> Self;
    /// Set bits.
    fn count_ones(self) -> u32;
    /// The value as a `u128`.
    fn to_u128(self) -> u128;
}

macro_rules! bits {
    ($t:ty) => {
        impl Bits for $t {
            const WIDTH: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn shl(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline(always)]
            fn shr(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
            #[inline(always)]
            fn shl_small(self, n: u32) -> Self {
                self << n
            }
            #[inline(always)]
            fn shr_small(self, n: u32) -> Self {
                self >> n
            }
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            #[inline(always)]
            fn sub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                u128::from(self)
            }
        }
    };
}

bits!(u64);
bits!(u128);

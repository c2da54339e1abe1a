//! Integer arithmetic with TLC's 32-bit range and its error cases.
//!
//! Checked with TLC 2.15 (tiny specs, `ASSUME PrintT(...)`):
//! - `2147483647 + 1`, `2^31`, `100000 * 100000`, `-(-2147483647 - 1)`,
//!   `(-2147483647 - 1) \div (-1)`: "Overflow when computing ..."; a literal above 2147483647 is
//!   refused ("TLC can't handle a number this big").
//! - `\div` rounds toward negative infinity and `%` takes a positive divisor and gives a result
//!   in `0..b-1`: `(-7) \div 2 = -4`, `(-7) % 2 = 1`, `7 \div (-2) = -4`, `(-7) \div (-2) = 3`,
//!   `(-8) % 2 = 0`; `7 % (-2)` and `5 % 0` are errors ("The second argument of % should be a
//!   positive number"), `5 \div 0` too ("The second argument of \div is 0").
//! - `^`: `2^0 = 1`, `(-2)^3 = -8`; `0^0` is undefined and `2^(-1)` an error.

use crate::error::{codes, VResult, ValueError};

fn overflow(what: String) -> ValueError {
    ValueError::new(codes::OVERFLOW, format!("Overflow when computing {}", what))
}

/// A literal as TLC accepts it (the parser keeps literals as i64).
pub fn literal(n: i64) -> VResult<i32> {
    i32::try_from(n).map_err(|_| ValueError::new(codes::OVERFLOW, format!("TLC can't handle a number this big: {}", n)))
}

pub fn add(a: i32, b: i32) -> VResult<i32> {
    a.checked_add(b).ok_or_else(|| overflow(format!("{}+{}", a, b)))
}
pub fn sub(a: i32, b: i32) -> VResult<i32> {
    a.checked_sub(b).ok_or_else(|| overflow(format!("{}-{}", a, b)))
}
pub fn mul(a: i32, b: i32) -> VResult<i32> {
    a.checked_mul(b).ok_or_else(|| overflow(format!("{}*{}", a, b)))
}
pub fn neg(a: i32) -> VResult<i32> {
    a.checked_neg().ok_or_else(|| overflow(format!("-{}", a)))
}
/// `a \div b`: floor division.
pub fn div(a: i32, b: i32) -> VResult<i32> {
    if b == 0 {
        return Err(ValueError::new(codes::ARITH, "The second argument of \\div is 0."));
    }
    let q = a.checked_div(b).ok_or_else(|| overflow(format!("{} \\div {}", a, b)))?;
    if (a % b != 0) && ((a < 0) != (b < 0)) { Ok(q - 1) } else { Ok(q) }
}
/// `a % b`: b must be positive; the result is in `0..b-1`.
pub fn modulo(a: i32, b: i32) -> VResult<i32> {
    if b <= 0 {
        return Err(ValueError::new(
            codes::ARITH,
            format!("The second argument of % should be a positive number, but instead it is: {}", b),
        ));
    }
    Ok(a.rem_euclid(b))
}
/// `a ^ b` with b ≥ 0 (`0^0` undefined).
pub fn pow(a: i32, b: i32) -> VResult<i32> {
    if b < 0 {
        return Err(ValueError::new(
            codes::ARITH,
            format!("The second argument of ^ should be a natural number, but instead it is: {}", b),
        ));
    }
    if a == 0 && b == 0 {
        return Err(ValueError::new(codes::ARITH, "0^0 is undefined."));
    }
    // Exact in i64 (an i64 overflow implies an i32 one), then range-checked.
    let r = match a {
        0 | 1 => a as i64,
        -1 => if b % 2 == 0 { 1 } else { -1 },
        _ => (a as i64).checked_pow(b as u32).unwrap_or(i64::MAX),
    };
    i32::try_from(r).map_err(|_| overflow(format!("{}^{}", a, b)))
}

//! GNU Backgammon Position IDs (the GNU Backgammon manual, "A technical description of the
//! Position ID"): the key is a bit string with, for each player, for points 1 to 24 and
//! then the bar, as many 1 bits as checkers followed by one 0 bit; the opponent of the
//! player on roll comes first, then the player on roll (as GNU Backgammon's `PositionKey`
//! walks `anBoard[0]` then `anBoard[1]`; tests/gnubg.rs checks it against gnubg itself). At
//! most 30 ones and 50 zeros: 80 bits, packed little-endian into 10 bytes, written as 14
//! characters of Base64 (RFC 4648 alphabet, no padding).

use crate::game::ParseError;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 14-character ID of the position whose player on roll has `mover`'s row and whose
/// opponent has `other`'s (rows as in [`super::Backgammon::row`]).
#[must_use]
pub fn encode(mover: &[u8; 26], other: &[u8; 26]) -> String {
    let mut key = [0u8; 10];
    let mut bit = 0usize;
    for row in [other, mover] {
        for &n in &row[1..=super::BAR] {
            for _ in 0..n {
                key[bit / 8] |= 1 << (bit % 8);
                bit += 1;
            }
            bit += 1;
        }
    }
    base64(&key)
}

/// The rows `[mover, other]` an ID describes (borne-off counts filled in to 15).
pub fn decode(id: &str) -> Result<[[u8; 26]; 2], ParseError> {
    let bytes = id.as_bytes();
    if bytes.len() != 14 {
        return Err(ParseError::new(format!(
            "`{id}` is not a Position ID: it has {} characters, not 14",
            bytes.len()
        )));
    }
    let mut bits = 0u128;
    for (i, &c) in bytes.iter().enumerate() {
        let v = ALPHABET.iter().position(|&a| a == c).ok_or_else(|| {
            ParseError::new(format!(
                "`{id}` is not a Position ID: `{}` is not Base64",
                c as char
            ))
        })?;
        // Base64 is big-endian within its 24-bit groups: character i holds bits
        // 6i..6i+6 of the byte stream, most significant first.
        bits |= (v as u128) << (122 - 6 * i);
    }
    let key: Vec<u8> = (0..10).map(|b| (bits >> (120 - 8 * b)) as u8).collect();
    let mut rows = [[0u8; 26]; 2];
    let mut bit = 0usize;
    let next = |bit: &mut usize| {
        let v = key
            .get(*bit / 8)
            .is_some_and(|byte| byte >> (*bit % 8) & 1 == 1);
        *bit += 1;
        v
    };
    for row in [1, 0] {
        for count in &mut rows[row][1..=super::BAR] {
            while next(&mut bit) {
                *count += 1;
                if bit > 80 || *count > super::CHECKERS {
                    return Err(ParseError::new(format!(
                        "`{id}` is not a Position ID: too many checkers"
                    )));
                }
            }
        }
    }
    for row in &mut rows {
        let on_board: u8 = row[1..].iter().sum();
        if on_board > super::CHECKERS {
            return Err(ParseError::new(format!(
                "`{id}` has {on_board} checkers for one player (at most 15)"
            )));
        }
        row[0] = super::CHECKERS - on_board;
    }
    if bit > 80 || key_has_trailing_ones(&key, bit) {
        return Err(ParseError::new(format!(
            "`{id}` is not a Position ID: bits set after the last player's bar"
        )));
    }
    // 84 bits carry 80: the last character's low 4 bits are padding, zero in every ID
    // GNU Backgammon writes. Set, they are most likely a mistyped last character.
    if bits >> 44 & 0xF != 0 {
        return Err(ParseError::new(format!(
            "`{id}` is not a Position ID: its last character sets padding bits (an ID ends in A, Q, g or w)"
        )));
    }
    Ok(rows)
}

fn key_has_trailing_ones(key: &[u8], from: usize) -> bool {
    (from..80).any(|b| key[b / 8] >> (b % 8) & 1 == 1)
}

fn base64(key: &[u8; 10]) -> String {
    let mut bits = 0u128;
    for &byte in key {
        bits = (bits << 8) | u128::from(byte);
    }
    // 80 bits -> 14 characters of 6 bits (84 bits, the last 4 zero).
    bits <<= 4;
    (0..14)
        .map(|i| ALPHABET[((bits >> (78 - 6 * i)) & 63) as usize] as char)
        .collect()
}

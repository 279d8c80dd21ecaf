//! Matches between players: games, openings, statistics.

pub mod engine;
pub mod pgn;

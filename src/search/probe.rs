//! Knowledge a search consults beside its own tree: exact values of positions from an
//! endgame database (`crate::knowledge::tablebase`), through one small trait, the way the
//! transposition table is consulted. The search names no database and no game: it holds an
//! `Option<&dyn Probe<G>>`, so without one the node pays a single predictable branch, and
//! with one an indirect call that is small beside the probe's own work.

use crate::game::{Game, Score, score};

/// An exact game-theoretic value for the side to move, with the distance to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    /// The side to move mates in this many plies (odd).
    Win(u32),
    /// The side to move is mated in this many plies (even; 0: mated now).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Exact {
    /// The search score of this value at a node `ply` plies below the root: the win-in-ply
    /// convention of [`crate::game::score`], so a database value and a mate the search finds
    /// itself compare exactly.
    #[must_use]
    pub fn score(self, ply: i32) -> Score {
        self.score_ending(ply, |end| end)
    }

    /// [`Self::score`], the ply where the game ends counted as `end_ply` counts it (a
    /// search's score grain, [`crate::search::SolveSwitches::score_grain`]).
    #[must_use]
    pub fn score_ending(self, ply: i32, end_ply: impl Fn(i32) -> i32) -> Score {
        match self {
            Self::Win(d) => score::win_in(end_ply(ply + d as i32)),
            Self::Loss(d) => score::loss_in(end_ply(ply + d as i32)),
            Self::Draw => 0,
        }
    }
}

/// Exact values of some positions of `G` (an endgame database).
pub trait Probe<G: Game>: Send + Sync {
    /// The value of `pos` if the database holds it.
    fn probe(&self, pos: &G) -> Option<Exact>;
}

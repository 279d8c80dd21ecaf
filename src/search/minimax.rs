//! Minimax in negamax form, without pruning: the reference. Every position to the horizon
//! is visited, so on a uniform tree of branching `b` a depth-`d` search scores exactly `b^d`
//! leaves (Shannon 1950; negamax form as in Knuth and Moore 1975).

use crate::game::{Evaluator, Game, Score, score};

use super::Searcher;
use super::config::ONE_PLY;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// The negamax value of `pos` searched `depth` (1/24 ply) deep, `ply` plies below the
    /// root. Minimax is the plain reference: no table, ordering, quiescence or extensions.
    pub(super) fn minimax(&mut self, pos: &G, depth: i32, ply: usize) -> Score {
        if self.enter(pos, ply) {
            return 0;
        }
        if let Some(value) = self.scored_without_children(pos, depth, ply) {
            return value;
        }
        let moves = self.take_moves(pos, ply);
        let mut best = -score::INFINITY;
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let value = -self.minimax(&child, depth - ONE_PLY, ply + 1);
            if self.aborted() {
                break;
            }
            if value > best {
                best = value;
                self.update_pv(ply, mv);
            }
        }
        self.put_moves(ply, moves);
        best
    }
}

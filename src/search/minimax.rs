//! Minimax in negamax form, without pruning: the reference. Every position to the horizon
//! is visited, so on a uniform tree of branching `b` a depth-`d` search scores exactly `b^d`
//! leaves (Shannon 1950; negamax form as in Knuth and Moore 1975).

use crate::game::{Evaluator, Game, Score, score};

use super::Searcher;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// The negamax value of `pos` searched `depth` plies deep, `ply` plies below the root.
    pub(super) fn minimax(&mut self, pos: &G, depth: u32, ply: usize) -> Score {
        if self.enter(ply) {
            return 0;
        }
        if let Some(value) = self.leaf_score(pos, depth, ply) {
            return value;
        }
        let moves = self.take_moves(pos, ply);
        let mut best = -score::INFINITY;
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let value = -self.minimax(&child, depth - 1, ply + 1);
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

//! Null-move pruning (seed 001): pass, search the reply R plies shallower with a null window
//! at beta; if even a free move for the opponent fails high, the node very likely does too.
//! Lossy: in zugzwang, where passing would be the best move, it prunes wrongly, which the
//! optional verification is meant to catch: the cutoff is taken only if a null-window
//! search of the node itself, R plies shallower and without the pass at this node, fails
//! high too. This is the verification search engines such as Stockfish use; the idea of
//! verifying is Tabibi and Netanyahu's ("Verified null-move pruning", ICGA Journal 25(3),
//! 2002), whose own method instead goes on searching the node one ply shallower and
//! re-searches at full depth when that finds a zugzwang.

use crate::game::{Evaluator, Game, Score, score};

use super::Searcher;
use super::config::ONE_PLY;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// The null-move verdict for a node: `Some(score)` if it may be cut off.
    pub(super) fn try_null_move(
        &mut self,
        pos: &G,
        depth: i32,
        beta: Score,
        ply: usize,
        after_null: bool,
    ) -> Option<Score> {
        let null = self.config.null_move?;
        // Never at the root, never twice in a row, never to prove a forced win or loss.
        if ply == 0 || after_null || depth < 2 * ONE_PLY || score::is_decisive(beta) {
            return None;
        }
        let passed = pos.null_move()?;
        let reduced = depth - ONE_PLY - null.reduction.plies(depth) * ONE_PLY;
        let value = -self.alphabeta(&passed, reduced, -beta, -beta + 1, ply + 1, true);
        if self.aborted() || value < beta {
            return None;
        }
        if null.verify {
            let shallower = depth - null.reduction.plies(depth) * ONE_PLY;
            let verified = self.alphabeta(pos, shallower, beta - 1, beta, ply, true);
            if self.aborted() || verified < beta {
                return None;
            }
        }
        // A pass proves no mate: report beta, not a decisive score found after the pass.
        Some(if score::is_decisive(value) {
            beta
        } else {
            value
        })
    }
}

//! The exact solver's node function: `Searcher::alphabeta` specialised to the
//! configurations that solve a game to its end with Pons's ladder ([`super::solve`]), as his
//! `negamax` is written for his solver alone.
//!
//! The general node function tests, at every node, switches that such a search never turns
//! on (quiescence, null move, extensions, endgame databases and solvers, the threads' busy
//! table, Young Brothers Wait's split points, the deferred second pass). When a search
//! leaves them all off and turns on anticipation and the score window
//! ([`Searcher::solves_lean`]), each node at least two plies from the horizon (where every
//! solver switch acts) is searched here instead: the same steps in the same order through
//! the same helpers, so that values, principal variations and every counter are those of
//! the general function (tests/solve.rs compares the two), without the tests of the
//! switches that are off. Nodes nearer the horizon, and the root, stay with the general
//! function.

use crate::game::{Evaluator, Game, Score, score};

use super::Searcher;
use super::alphabeta::Probe;
use super::config::ONE_PLY;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// Whether this search uses the exact solver's node function below the root: one
    /// thread, anticipation and the score window on, every switch that node function leaves
    /// out off, a game whose positions never repeat and whose mover cannot lose by its own
    /// move, and not [`Self::with_general_nodes`].
    #[must_use]
    pub fn solves_lean(&self) -> bool {
        let c = self.config;
        !self.general_nodes
            && c.solve.anticipate
            && c.solve.score_window
            && c.quiescence.is_none()
            && c.null_move.is_none()
            && c.extensions.check == 0
            && c.endgame_solver.is_none()
            && self.knowledge.is_none()
            && self.busy.is_none()
            && self.ybw.is_none()
            && !G::POSITIONS_REPEAT
            && !G::MOVER_CAN_LOSE
    }

    /// The value of `child`, a move's position searched `depth` deep with window
    /// `(alpha, beta)` at `ply` (the child's ply): by [`Self::solver_node`] where it applies.
    #[inline(always)]
    pub(super) fn search_child(
        &mut self,
        child: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        if self.lean && depth >= 2 * ONE_PLY {
            self.solver_node(child, depth, alpha, beta, ply)
        } else {
            self.alphabeta(child, depth, alpha, beta, ply, false)
        }
    }

    /// [`Self::alphabeta`] at a node below the root, at least two plies deep, of a search
    /// that [`Self::solves_lean`].
    fn solver_node(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
    ) -> Score {
        if self.enter(pos, ply) {
            return 0;
        }
        if let Some(value) = self.game_over_or_repeated(pos, ply) {
            return value;
        }
        if let Some(value) = self.immediate_win(pos, depth, ply, false) {
            return value;
        }
        if let Err(value) = self.anticipate(pos, depth, ply) {
            return value;
        }
        if let Some(value) = self.narrow_window(pos, ply, depth, true, &mut alpha, &mut beta) {
            return value;
        }
        let tt_move = match self.probe_window(pos, depth, &mut alpha, &mut beta, ply, true) {
            Probe::Cutoff(value) => return value,
            Probe::Search(mv) => mv,
        };
        let original_alpha = alpha;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let plies_left = (depth / ONE_PLY) as u32;
        self.ordering
            .order(self.eval, pos, &mut moves, tt_move, ply, plies_left);
        let children_probed = self.probes_children(ply, depth);
        if children_probed
            && let Some(value) = self.transposition_cutoff(pos, &moves, depth, beta, ply)
        {
            self.put_moves(ply, moves);
            return value;
        }
        let mut best = -score::INFINITY;
        let mut best_move = None;
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            if !children_probed {
                self.prefetch_entry(&child);
            }
            let value = self.search_move(&child, depth - ONE_PLY, alpha, beta, ply, i);
            if self.aborted() {
                break;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                }
            }
            if value >= beta {
                self.record_cutoff(pos, mv, i, ply, plies_left);
                break;
            }
        }
        self.put_moves(ply, moves);
        if !self.aborted() {
            self.store_table(pos, depth, ply, best, original_alpha, beta, best_move);
        }
        best
    }
}

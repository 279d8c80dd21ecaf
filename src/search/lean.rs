//! The lean node function: `Searcher::alphabeta` specialised to the searches that leave
//! its heavier switches off, as Pons's `negamax` is written for his solver alone.
//!
//! The general node function tests, at every node, switches that many searches never turn
//! on (null move, check extensions, endgame databases and solvers, the threads' busy table,
//! Young Brothers Wait's split points, the deferred second pass). When a search leaves them
//! all off ([`Searcher::lean_nodes`]: plain and ordered alpha-beta, Pons's ladder, lazy
//! SMP's threads; quiescence is the horizon's business), each node below the root and above
//! the horizon is searched here instead, and each node at the horizon of every search by
//! `Searcher::horizon_node`: the same steps in the same order through the same helpers, so
//! that values, principal variations and every counter are those of the general function
//! (tests/solve.rs compares the two on every game), without the tests of the switches that
//! are off and in smaller frames. The root stays with the general function (aspiration,
//! MTD, MultiPV and the reports act there).

use crate::game::{Evaluator, Game, Score, score};

use super::Searcher;
use super::alphabeta::Probe;
use super::config::ONE_PLY;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// Whether this search uses the lean node function below the root: every switch that
    /// node function leaves out is off, and not [`Self::with_general_nodes`].
    #[must_use]
    pub fn lean_nodes(&self) -> bool {
        let c = self.config;
        !self.general_nodes
            && c.null_move.is_none()
            && c.extensions.check == 0
            && c.endgame_solver.is_none()
            && self.knowledge.is_none()
            && self.busy.is_none()
            && self.ybw.is_none()
    }

    /// The value of `child`, a move's position searched `depth` deep with window
    /// `(alpha, beta)` at `ply` (the child's ply): at the horizon by [`Self::horizon_node`],
    /// above it by [`Self::lean_node`] where that applies.
    #[inline(always)]
    pub(super) fn search_child(
        &mut self,
        child: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        if depth <= 0 && !self.general_nodes {
            self.horizon_node(child, alpha, beta, ply)
        } else if self.lean {
            self.lean_node(child, depth, alpha, beta, ply)
        } else {
            self.alphabeta(child, depth, alpha, beta, ply, false)
        }
    }

    /// [`Self::alphabeta`] at a node below the root and above the horizon, in a search that
    /// has [`Self::lean_nodes`].
    fn lean_node(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
    ) -> Score {
        if let Some(value) = self.settled(pos, ply) {
            return value;
        }
        if let Some(value) = self.immediate_win(pos, depth, ply, false) {
            return value;
        }
        let anticipated = match self.anticipate(pos, depth, ply) {
            Ok(done) => done,
            Err(value) => return value,
        };
        if let Some(value) = self.narrow_window(pos, ply, depth, anticipated, &mut alpha, &mut beta)
        {
            return value;
        }
        let narrow = self.config.solve.score_window;
        let tt_move = match self.probe_window(pos, depth, &mut alpha, &mut beta, ply, narrow) {
            Probe::Cutoff(value) => return value,
            Probe::Search(mv) => mv,
        };
        let original_alpha = alpha;
        let mut moves = if anticipated {
            std::mem::take(&mut self.moves[ply])
        } else {
            self.take_moves(pos, ply)
        };
        let plies_left = (depth / ONE_PLY) as u32;
        self.ordering
            .order(self.eval, pos, &mut moves, tt_move, ply, plies_left);
        let children_probed = self.probes_children(ply, depth);
        if children_probed
            && let Some(value) = self.transposition_cutoff(pos, &mut moves, depth, beta, ply)
        {
            self.put_moves(ply, moves);
            return value;
        }
        let mut best = -score::INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            let mv = moves[i];
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
            if i == 0 {
                self.ordering.order_rest(&mut moves, ply);
            }
        }
        self.put_moves(ply, moves);
        if !self.aborted() {
            self.store_table(pos, depth, ply, best, original_alpha, beta, best_move);
        }
        best
    }
}

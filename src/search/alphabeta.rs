//! Fail-soft alpha-beta (Knuth and Moore 1975, "An analysis of alpha-beta pruning"), in
//! negamax form. The node function reads as the algorithm; each technique is a named helper
//! that does nothing when its switch is off.
//!
//! Fail-soft: a node returns the best score it saw even outside the window `(alpha, beta)`,
//! which gives tighter bounds to store in the table than clamping would.

use crate::game::{Evaluator, Game, Score, score};

use super::Searcher;
use super::tt::{Bound, Entry};

/// What the table says about a node before it is searched.
enum Probe {
    /// The stored score settles the node.
    Cutoff(Score),
    /// Search the node, trying this move first if the ordering wants it.
    Search(Option<u16>),
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// The fail-soft alpha-beta value of `pos` searched `depth` plies deep, `ply` plies below
    /// the root, with window `(alpha, beta)`.
    pub(super) fn alphabeta(
        &mut self,
        pos: &G,
        depth: u32,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        if self.enter(ply) {
            return 0;
        }
        if let Some(value) = self.leaf_score(pos, depth, ply) {
            return value;
        }
        let tt_move = match self.probe_table(pos, depth, alpha, beta, ply) {
            Probe::Cutoff(value) => return value,
            Probe::Search(mv) => mv,
        };
        let original_alpha = alpha;
        let mut moves = self.take_moves(pos, ply);
        self.ordering
            .order(self.eval, pos, &mut moves, tt_move, ply, depth);

        let mut best = -score::INFINITY;
        let mut best_move = None;
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            let value = -self.alphabeta(&child, depth - 1, -beta, -alpha, ply + 1);
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
                self.record_cutoff(pos, mv, i, ply, depth);
                break;
            }
        }
        self.put_moves(ply, moves);
        if !self.aborted() {
            self.store_table(pos, depth, ply, best, original_alpha, beta, best_move);
        }
        best
    }

    /// Looks the node up. The root is never cut off, so that it always has a move.
    fn probe_table(&mut self, pos: &G, depth: u32, alpha: Score, beta: Score, ply: usize) -> Probe {
        let Some(table) = self.table() else {
            return Probe::Search(None);
        };
        let found = table.probe(pos.hash(), ply as i32);
        self.stats.tt_probes += 1;
        let Some(entry) = found else {
            return Probe::Search(None);
        };
        self.stats.tt_hits += 1;
        if ply > 0
            && u32::from(entry.depth) >= depth
            && let Some(value) = entry.cutoff(alpha, beta)
        {
            return Probe::Cutoff(value);
        }
        Probe::Search(entry.move_code)
    }

    /// Remembers the node's result: an exact score inside the window, a lower bound after a
    /// cutoff, an upper bound when every move failed low.
    #[allow(clippy::too_many_arguments)]
    fn store_table(
        &mut self,
        pos: &G,
        depth: u32,
        ply: usize,
        best: Score,
        alpha: Score,
        beta: Score,
        best_move: Option<G::Move>,
    ) {
        let Some(table) = self.table() else { return };
        let bound = if best >= beta {
            Bound::Lower
        } else if best <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        let entry = Entry {
            score: best,
            // After a fail-low every move is only an upper bound: no move is known best.
            move_code: best_move
                .filter(|_| bound != Bound::Upper)
                .map(G::move_code),
            depth: depth.min(255) as u8,
            bound,
        };
        table.store(pos.hash(), ply as i32, entry);
    }

    /// Counts a beta cutoff by the `index`-th move searched and teaches the ordering.
    fn record_cutoff(&mut self, pos: &G, mv: G::Move, index: usize, ply: usize, depth: u32) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        self.ordering.record_cutoff(pos, mv, ply, depth);
    }
}

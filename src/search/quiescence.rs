//! Quiescence search (seed 001): past the horizon, only noisy moves (captures and promotions
//! in chess) are searched, and the side to move may "stand pat" on the static evaluation,
//! since it is not obliged to capture (where it is, in check or facing checkers' compulsory
//! captures, every legal move is searched instead: [`Game::may_stand_pat`]). The evaluation
//! is thus only taken in quiet positions, which removes most of the horizon effect.
//!
//! With [`Quiescence::tt`] the quiescence nodes use the transposition table too (Stockfish's
//! qsearch probes and stores at depth 0): in chess they are about nine nodes in ten, so
//! without it a thread of lazy SMP repeats every capture sequence another thread has
//! already resolved (results/quiescence_tt).

use crate::game::{Evaluator, Game, Score, Status, score};

use super::Searcher;
use super::alphabeta::Probe;
use super::config::Quiescence;

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// The quiescence value of `pos`, `qply` plies into quiescence (the node has already been
    /// counted by its caller).
    pub(super) fn quiesce(
        &mut self,
        pos: &G,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        qply: u32,
    ) -> Score {
        let q = self.config.quiescence.unwrap_or_default();
        // Where passing is no option (in check in chess, a capture pending in checkers), every
        // legal move is searched, with no stand pat.
        let forced = !pos.may_stand_pat();
        let stand_pat = if forced {
            -score::INFINITY
        } else {
            self.eval.evaluate(pos)
        };
        if stand_pat >= beta || q.max_depth.is_some_and(|m| qply >= m) && !forced {
            self.stats.leaf_nodes += 1;
            return stand_pat;
        }
        // The table is looked at only once standing pat has not settled the node: an
        // evaluation costs less than a probe.
        let uses_table = uses_table(q, qply);
        let tt_move = if uses_table {
            // Any entry will do: a quiescence entry holds this very value, a full-width one
            // a deeper search's.
            match self.probe_table(pos, 0, alpha, beta, ply) {
                Probe::Cutoff(value) => return value,
                Probe::Search(mv) => mv,
            }
        } else {
            None
        };
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let checks_too = q.checks && qply == 0;
        let mut moves = self.quiescence_moves(pos, ply, forced, checks_too);
        if moves.is_empty() {
            self.stats.leaf_nodes += 1;
            self.put_moves(ply, moves);
            return stand_pat;
        }
        self.ordering
            .order_noisy(self.eval, pos, &mut moves, tt_move, ply);
        let mut best = stand_pat;
        let mut best_move = None;
        for i in 0..moves.len() {
            if i == 1 {
                self.ordering.order_rest(&mut moves, ply);
            }
            let mv = moves[i];
            if !forced && self.futile(pos, mv, stand_pat, alpha) {
                continue;
            }
            let mut child = pos.clone();
            child.play(mv);
            if uses_table {
                self.prefetch_entry(&child);
            }
            let value = -self.quiesce_child(&child, -beta, -alpha, ply + 1, qply + 1);
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
                self.stats.beta_cutoffs += 1;
                self.stats.first_move_cutoffs += u64::from(i == 0);
                break;
            }
        }
        self.put_moves(ply, moves);
        if uses_table && !self.aborted() {
            self.store_table(pos, 0, ply, best, original_alpha, beta, best_move);
        }
        best
    }

    /// The moves a quiescence node searches: every legal move where it may not stand pat
    /// (every evasion in check), else the noisy moves and, with `checks_too`, the checking
    /// ones (the root's go through its move filters).
    fn quiescence_moves(
        &mut self,
        pos: &G,
        ply: usize,
        forced: bool,
        checks_too: bool,
    ) -> Vec<G::Move> {
        if !forced && !checks_too && ply > 0 {
            return self.take_noisy_moves(pos, ply);
        }
        let mut moves = self.take_moves(pos, ply);
        moves.retain(|&mv| {
            forced || self.eval.is_noisy(pos, mv) || checks_too && pos.gives_check(mv)
        });
        moves
    }

    /// Enters a quiescence child: counts it, settles finished games, recurses.
    fn quiesce_child(
        &mut self,
        pos: &G,
        alpha: Score,
        beta: Score,
        ply: usize,
        qply: u32,
    ) -> Score {
        if self.enter(pos, ply) {
            return 0;
        }
        self.stats.qnodes += 1;
        if let Status::Over(outcome) = pos.status() {
            self.stats.leaf_nodes += 1;
            // Counted in the search's score grain, as the full-width nodes count it.
            return score::of_outcome(outcome, self.end_ply(ply as i32));
        }
        self.quiesce(pos, alpha, beta, ply, qply)
    }

    /// Delta pruning (Beal 1990 in spirit; as described on the Chess Programming Wiki, "Delta
    /// Pruning"): a capture whose whole material gain plus a safety margin leaves the score
    /// below alpha is skipped. It bets that what follows a capture is worth no more than the
    /// margin beyond the material, a bet plainly lost where the move gives check (a mate
    /// may follow; with `quiescence_checks` the quiet checks gain no material at all) or
    /// where alpha is already a proven win (any capture may lead to a faster one), so those
    /// are never skipped, as Stockfish's quiescence futility spares checks. The sum is taken
    /// in 64 bits: a margin near `i32::MAX` must not wrap around and skip everything.
    fn futile(&self, pos: &G, mv: G::Move, stand_pat: Score, alpha: Score) -> bool {
        let Some(margin) = self.config.quiescence.and_then(|q| q.delta) else {
            return false;
        };
        !score::is_decisive(alpha)
            && self.eval.material_gain(pos, mv).is_some_and(|gain| {
                i64::from(stand_pat) + i64::from(gain) + i64::from(margin) < i64::from(alpha)
            })
            && !pos.gives_check(mv)
    }
}

/// Whether a quiescence node `qply` plies into quiescence looks its position up in the
/// table and stores its value there ([`Quiescence::tt`]): only where that value depends on
/// the position alone, so not under a depth limit (the plies left would matter) nor, with
/// checks, at the first quiescence ply (whose moves differ from the later plies').
fn uses_table(q: Quiescence, qply: u32) -> bool {
    q.tt && q.max_depth.is_none() && !(q.checks && qply == 0)
}

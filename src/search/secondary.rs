//! Secondary search (seed 003, "how do you avoid catastrophic losses due to
//! short-sightedness?"): "1. find best move looking to depth d; 2. look k steps beyond to
//! verify that it still looks good; 3. if it doesn't, repeat step 2 for the next best move."
//!
//! After iterative deepening reaches depth d, every root move is valued at depth d (a
//! full-window search of its position, d − 1 plies, mostly answered by the table the main
//! search filled), and the moves are tried best first: each is searched again d − 1 + k
//! plies deep, and it "still looks good" when that deeper value is no more than `margin`
//! below its depth-d value. The first move that passes is played, scored by its deeper
//! value; when none passes, the move with the best deeper value. A limit that interrupts
//! the verification leaves the depth-d answer.

use crate::game::{Evaluator, Game, Score, score};

use super::config::{MAX_DEPTH, ONE_PLY, Secondary};
use super::{Iteration, Searcher};

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// Verifies `last` (the depth-d iteration from `root`) as [`Secondary`] says and
    /// rewrites its move, score and variation with the verified choice; the counters spent
    /// are added to its own (`secondary_nodes` among them) and returned, and the time to
    /// its `elapsed`.
    pub(super) fn verify_root_move(
        &mut self,
        root: &G,
        last: &mut Iteration<G::Move>,
        secondary: Secondary,
    ) -> super::Stats {
        let started = std::time::Instant::now();
        let before = self.stats;
        self.stats = super::Stats::default();
        let chosen = self.secondary_choice(root, last.depth, secondary);
        let mut spent = self.stats;
        spent.secondary_nodes = spent.nodes;
        self.stats = before;
        if let Some((mv, value, switched)) = chosen {
            spent.secondary_switches = u64::from(switched);
            last.best_move = Some(mv);
            last.score = value;
            if switched {
                last.pv = vec![mv];
            }
        }
        last.stats += spent;
        last.elapsed += started.elapsed();
        spent
    }

    /// The verified move, its deeper value and whether it differs from the depth-d best;
    /// `None` when a limit interrupted the verification.
    fn secondary_choice(
        &mut self,
        root: &G,
        depth: u32,
        secondary: Secondary,
    ) -> Option<(G::Move, Score, bool)> {
        let first_best = *self.pv[0].first()?;
        let mut ranked = Vec::new();
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        for mv in moves {
            let value = self.child_value(root, mv, depth.saturating_sub(1))?;
            ranked.push((mv, value));
        }
        // Best first; the main search's move leads among equals.
        ranked.sort_by_key(|&(mv, value)| (-value, mv != first_best));
        let mut fallback: Option<(G::Move, Score)> = None;
        for (mv, shallow) in ranked {
            // Never past the deepest search (a vast `plies` wrapped to a shallow one).
            let deeper = depth.saturating_sub(1).saturating_add(secondary.plies);
            let deep = self.child_value(root, mv, deeper.min(MAX_DEPTH))?;
            if deep >= shallow.saturating_sub(secondary.margin) {
                return Some((mv, deep, mv != first_best));
            }
            if fallback.is_none_or(|(_, best)| deep > best) {
                fallback = Some((mv, deep));
            }
        }
        fallback.map(|(mv, deep)| (mv, deep, mv != first_best))
    }

    /// The exact value of root move `mv` searched `plies` beyond it (full window), for the
    /// side to move at the root; `None` if a limit stopped the search.
    fn child_value(&mut self, root: &G, mv: G::Move, plies: u32) -> Option<Score> {
        let mut child = root.clone();
        child.play(mv);
        self.ensure_buffers(plies as usize + 2);
        let inf = score::INFINITY;
        let value = -self.alphabeta(&child, plies as i32 * ONE_PLY, -inf, inf, 1, false);
        (!self.aborted()).then_some(value)
    }
}

//! Fail-soft alpha-beta (Knuth and Moore 1975, "An analysis of alpha-beta pruning"), in
//! negamax form. The node function reads as the algorithm; each technique is a named helper
//! that does nothing when its switch is off.
//!
//! Fail-soft: a node returns the best score it saw even outside the window `(alpha, beta)`,
//! which gives tighter bounds to store in the table than clamping would.
//!
//! Depth is in 1/24 ply ([`ONE_PLY`]); a node with `depth <= 0` is at the horizon.

use crate::game::{Evaluator, Game, Score, SolverNodes, score};

use super::Searcher;
use super::config::ONE_PLY;
use super::solve::reaches_end;
use super::tt::{Bound, Entry};

/// Nodes at least this deep (1/24 ply) defer busy moves and mark their children busy (a
/// child is marked when its own depth plus a ply reaches this: the same nodes, but that a
/// child's check extension can carry it over).
const DEFER_DEPTH: i32 = 3 * ONE_PLY;

/// The two passes over a node's moves: everything not deferred, then the deferred ones.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    First,
    Deferred,
}

/// The indices of deferred moves, as bits; moves past the 256th are never deferred (no game
/// here has that many).
#[derive(Default)]
struct Deferred([u64; 4]);

impl Deferred {
    /// Defers move `i`; false (nothing deferred) past the 256th move.
    fn insert(&mut self, i: usize) -> bool {
        let Some(word) = self.0.get_mut(i / 64) else {
            return false;
        };
        *word |= 1 << (i % 64);
        true
    }

    fn contains(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// What the table says about a node before it is searched.
pub(super) enum Probe {
    /// The stored score settles the node.
    Cutoff(Score),
    /// Search the node, trying this move first if the ordering wants it.
    Search(Option<u16>),
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// The fail-soft alpha-beta value of `pos` searched `depth` (1/24 ply) deep, `ply` plies
    /// below the root, with window `(alpha, beta)`. `after_null` is true right after a pass.
    pub(super) fn alphabeta(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        after_null: bool,
    ) -> Score {
        if let Some(value) = self.settled(pos, ply) {
            return value;
        }
        if depth <= 0 {
            return self.horizon(pos, alpha, beta, ply);
        }
        if let Some(value) = self.immediate_win(pos, depth, ply, after_null) {
            return value;
        }
        if let Some(value) = self.solve_near_end(pos, depth, alpha, beta, ply) {
            return value;
        }
        // Anticipation generates the moves now (into the ply's buffer): whether any is left
        // bounds the node's score.
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
        if let Some(value) = self.try_null_move(pos, depth, beta, ply, after_null) {
            return value;
        }
        let original_alpha = alpha;
        let mut moves = if anticipated {
            std::mem::take(&mut self.moves[ply])
        } else {
            self.take_moves(pos, ply)
        };
        let plies_left = (depth / ONE_PLY).max(0) as u32;
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
        // Moves into positions another thread is searching wait for a second pass.
        let mut deferred = Deferred::default();
        let mut searched = 0;
        'passes: for pass in [Pass::First, Pass::Deferred] {
            for i in 0..moves.len() {
                if pass == Pass::Deferred && !deferred.contains(i) {
                    continue;
                }
                let mv = moves[i];
                let mut child = pos.clone();
                child.play(mv);
                // After enhanced transposition cutoff the child's slot was just read.
                if !children_probed {
                    self.prefetch_entry(&child);
                }
                if pass == Pass::First
                    && self.defer_busy(&child, depth, searched)
                    && deferred.insert(i)
                {
                    continue;
                }
                if ply == 0
                    && let Some(report) = self.report
                {
                    let nodes = self.nodes_before + self.stats.nodes;
                    report.current_move(self.iteration_depth, mv, searched + 1, nodes);
                }
                let child_depth = depth - ONE_PLY + self.extension(&child);
                let value = self.search_marked(&child, child_depth, alpha, beta, ply, searched);
                searched += 1;
                if self.aborted() {
                    break 'passes;
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
                    self.record_cutoff(pos, mv, searched - 1, ply, plies_left);
                    break 'passes;
                }
                if i == 0 {
                    self.ordering.order_rest(&mut moves, ply);
                }
                // Young Brothers Wait: no cutoff, so the younger brothers may go to idle
                // threads ([`super::ybw`]; its searches never defer moves).
                if let Some(split) = self.young_brothers(
                    pos,
                    &moves[i + 1..],
                    searched,
                    depth,
                    (alpha, beta),
                    ply,
                    (best, best_move),
                ) {
                    (best, best_move) = split;
                    break 'passes;
                }
            }
            if deferred.is_empty() {
                break;
            }
        }
        self.put_moves(ply, moves);
        // A root searched with moves left out (the later lines of MultiPV) has no value of
        // its own to remember.
        if !self.aborted() && (ply > 0 || self.excluded_root.is_empty()) {
            self.store_table(pos, depth, ply, best, original_alpha, beta, best_move);
        }
        best
    }

    /// Whether to put off the move to `child`, the `searched`-th move tried at a node of
    /// `depth`: with other threads sharing a [`BusyTable`](super::busy::BusyTable), when one
    /// of them is searching `child` now. The first move is never deferred (as in ABDADA's
    /// "young brothers wait"), nor moves near the horizon, where the table is not worth a look.
    fn defer_busy(&self, child: &G, depth: i32, searched: usize) -> bool {
        searched > 0
            && depth >= DEFER_DEPTH
            && self.busy.is_some_and(|busy| busy.is_busy(child.hash()))
    }

    /// [`Self::search_move`], with `child` marked busy for the other threads meanwhile (not
    /// for the first move, which all threads search alike).
    fn search_marked(
        &mut self,
        child: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        index: usize,
    ) -> Score {
        let busy = self
            .busy
            .filter(|_| index > 0 && depth + ONE_PLY >= DEFER_DEPTH);
        let Some(busy) = busy else {
            return self.search_move(child, depth, alpha, beta, ply, index);
        };
        let hash = child.hash();
        busy.mark(hash);
        let value = self.search_move(child, depth, alpha, beta, ply, index);
        busy.clear(hash);
        value
    }

    /// The value of the `index`-th move's position for the side to move at the parent. With
    /// principal variation search, moves after the first are first searched with a null
    /// window around alpha and again with the full window only if they land inside it.
    #[inline(always)]
    pub(super) fn search_move(
        &mut self,
        child: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        index: usize,
    ) -> Score {
        if self.config.pvs && index > 0 && beta > alpha.saturating_add(1) {
            let probe = -self.search_child(child, depth, -alpha - 1, -alpha, ply + 1);
            if probe <= alpha || probe >= beta || self.aborted() {
                return probe;
            }
        }
        -self.search_child(child, depth, -beta, -alpha, ply + 1)
    }

    /// The first steps of every node: count it (0 once a limit stops the search), then the
    /// score of a finished game, a repetition, or (below the root) the endgame databases'.
    #[inline(always)]
    pub(super) fn settled(&mut self, pos: &G, ply: usize) -> Option<Score> {
        if self.enter(pos, ply) {
            return Some(0);
        }
        if let Some(value) = self.game_over_or_repeated(pos, ply) {
            return Some(value);
        }
        if ply > 0 {
            return self.probe_knowledge(pos, ply);
        }
        None
    }

    /// [`Self::alphabeta`] at a node at the horizon (`depth <= 0`), in a function of its
    /// own: most nodes of a search are there, and here they take the node function's few
    /// steps for them without paying for the frame of the whole node function.
    pub(super) fn horizon_node(&mut self, pos: &G, alpha: Score, beta: Score, ply: usize) -> Score {
        match self.settled(pos, ply) {
            Some(value) => value,
            None => self.horizon(pos, alpha, beta, ply),
        }
    }

    /// The score at the horizon: quiescence search if it is on, else the static evaluation.
    fn horizon(&mut self, pos: &G, alpha: Score, beta: Score, ply: usize) -> Score {
        if self.config.quiescence.is_some() {
            self.stats.qnodes += 1;
            return self.quiesce(pos, alpha, beta, ply, 0);
        }
        self.stats.leaf_nodes += 1;
        self.eval.evaluate(pos)
    }

    /// Extra depth (1/24 ply) for the move that led to `child`: the check extension when
    /// `child` is in check.
    pub(super) fn extension(&self, child: &G) -> i32 {
        let check = self.config.extensions.check;
        if check > 0 && child.in_check() {
            check
        } else {
            0
        }
    }

    /// The exact value from the game's dedicated endgame solver (`endgame_solver` switch),
    /// where the game has one for this position and the remaining depth reaches the end of
    /// the game (so the value is the one a full search would return). Never at the root,
    /// which must return a move. Its nodes are counted (this node once), as leaves below it.
    fn solve_near_end(
        &mut self,
        pos: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Option<Score> {
        let limit = self.config.endgame_solver?;
        if ply == 0 || !reaches_end(pos, depth) {
            return None;
        }
        // The solver checks the search's limits as the search does at its own nodes (a
        // solve of twenty empties can take a minute); a stopped solve's value is discarded
        // by the callers, which see the search aborted.
        let before = self.nodes_before + self.stats.nodes;
        let control = &mut self.control;
        let mut stop = |n: u64| control.as_mut().is_some_and(|c| c.should_stop(before + n));
        let mut nodes = SolverNodes::with_stop(&mut stop);
        let value = pos.solve_endgame(alpha, beta, limit, &mut nodes);
        let visited = nodes.count;
        self.stats.nodes += visited.saturating_sub(1);
        let value = value?;
        self.stats.leaf_nodes += 1;
        Some(value)
    }

    /// Looks the node up. The root is never cut off, so that it always has a move.
    pub(super) fn probe_table(
        &mut self,
        pos: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Probe {
        let (mut alpha, mut beta) = (alpha, beta);
        self.probe_window(pos, depth, &mut alpha, &mut beta, ply, false)
    }

    /// [`Self::probe_table`]; with `narrow`, a stored bound that does not settle the node
    /// still narrows its window (Pons's `negamax`, parts 7 and 12), and settles it if the
    /// window closes.
    #[inline(always)]
    pub(super) fn probe_window(
        &mut self,
        pos: &G,
        depth: i32,
        alpha: &mut Score,
        beta: &mut Score,
        ply: usize,
        narrow: bool,
    ) -> Probe {
        let tt_ply = self.table_ply(ply);
        let Some(table) = self.table() else {
            return Probe::Search(None);
        };
        let found = table.probe(table.key_of(pos), tt_ply);
        self.stats.tt_probes += 1;
        let Some(entry) = found else {
            return Probe::Search(None);
        };
        self.stats.tt_hits += 1;
        if ply > 0 && entry.depth >= depth && !self.past_no_progress_draw(pos, entry.score, ply) {
            if let Some(value) = entry.cutoff(*alpha, *beta) {
                return Probe::Cutoff(value);
            }
            let (lo, hi) = match entry.bound {
                Bound::Lower => (entry.score, score::INFINITY),
                Bound::Upper => (-score::INFINITY, entry.score),
                Bound::Exact => (entry.score, entry.score),
            };
            if narrow && let Some(value) = super::solve::clamp_window(lo, hi, alpha, beta) {
                return Probe::Cutoff(value);
            }
        }
        Probe::Search(entry.move_code)
    }

    /// Starts bringing `pos`'s table entry into the cache while the node's other work goes
    /// on (as Stockfish prefetches a child's entry as soon as the move is made).
    #[inline]
    pub(super) fn prefetch_entry(&self, pos: &G) {
        if let Some(table) = self.table() {
            table.prefetch(table.key_of(pos));
        }
    }

    /// Whether a node at `ply`, `depth` deep looks its children up before searching them:
    /// enhanced transposition cutoff ([`SearchConfig::etc`](super::SearchConfig::etc)) at a
    /// node at least two plies from the horizon, below the root (which must search).
    pub(super) fn probes_children(&self, ply: usize, depth: i32) -> bool {
        self.config.etc && ply > 0 && depth >= 2 * ONE_PLY && self.table().is_some()
    }

    /// Enhanced transposition cutoff, where [`Self::probes_children`]: the value of a move
    /// whose position the table already bounds at or above `beta`. Sorts `moves` whole
    /// first (their order decides which refutation is found).
    #[inline(always)]
    pub(super) fn transposition_cutoff(
        &mut self,
        pos: &G,
        moves: &mut [G::Move],
        depth: i32,
        beta: Score,
        ply: usize,
    ) -> Option<Score> {
        // The children are probed in the node's order, the first refutation ending it.
        self.ordering.order_rest(moves, ply);
        let tt_ply = self.table_ply(ply + 1);
        let (mut probes, mut hits, mut cutoff) = (0, 0, None);
        if let Some(table) = self.table() {
            for &mv in moves.iter() {
                let mut child = pos.clone();
                child.play(mv);
                probes += 1;
                let Some(entry) = table.probe(table.key_of(&child), tt_ply) else {
                    continue;
                };
                hits += 1;
                let child_depth = depth - ONE_PLY + self.extension(&child);
                let refutes = entry.bound != Bound::Lower && -entry.score >= beta;
                if refutes
                    && entry.depth >= child_depth
                    && !self.past_no_progress_draw(&child, entry.score, ply + 1)
                {
                    cutoff = Some(-entry.score);
                    break;
                }
            }
        }
        self.stats.tt_probes += probes;
        self.stats.tt_hits += hits;
        self.stats.beta_cutoffs += u64::from(cutoff.is_some());
        cutoff
    }

    /// Whether `value`, a decisive score read from the table for `pos` at `ply`, announces
    /// an end no nearer than the draw the rules give for want of progress
    /// ([`Game::plies_to_no_progress_draw`]): the table key leaves the counter out, so the
    /// entry may have been stored for the same board under a lower counter (an earlier move
    /// of the game, whose table a match keeps), where that win was real. Such a score is not
    /// used to settle the node, which is searched (Stockfish likewise distrusts a stored mate
    /// past its 50-move counter).
    fn past_no_progress_draw(&self, pos: &G, value: Score, ply: usize) -> bool {
        // With `tt_mate_adjust` off the stored distance is not the node's: trusted as read.
        // The game is asked only about a decisive score, the rare case.
        let Some(end) = score::plies_to_end(value).filter(|_| self.config.tt_mate_adjust) else {
            return false;
        };
        pos.plies_to_no_progress_draw()
            .is_some_and(|left| end - ply as i32 >= left as i32)
    }

    /// The ply used to re-base decisive scores in the table: the node's ply, or 0 (no
    /// re-basing) when `tt_mate_adjust` is off.
    fn table_ply(&self, ply: usize) -> i32 {
        if self.config.tt_mate_adjust {
            ply as i32
        } else {
            0
        }
    }

    /// The depth a result searched `depth` (1/24 ply) deep is stored with: whole plies,
    /// rounded down, unless [`SearchConfig::tt_fractional`](super::SearchConfig::tt_fractional).
    fn table_depth(&self, depth: i32) -> i32 {
        if self.config.tt_fractional {
            depth
        } else {
            depth.div_euclid(ONE_PLY) * ONE_PLY
        }
    }

    /// Remembers the node's result: an exact score inside the window, a lower bound after a
    /// cutoff, an upper bound when every move failed low.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn store_table(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        best: Score,
        alpha: Score,
        beta: Score,
        best_move: Option<G::Move>,
    ) {
        let tt_ply = self.table_ply(ply);
        let Some(table) = self.table() else { return };
        let mut bound = if best >= beta {
            Bound::Lower
        } else if best <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        if !self.config.solve.tt_lower_bounds {
            // Pons's table up to part 11: upper bounds only.
            if bound == Bound::Lower {
                return;
            }
            bound = Bound::Upper;
        }
        let entry = Entry {
            score: best,
            // After a fail-low every move is only an upper bound: no move is known best.
            move_code: best_move
                .filter(|_| bound != Bound::Upper)
                .map(G::move_code),
            depth: self.table_depth(depth),
            bound,
        };
        table.store(table.key_of(pos), tt_ply, entry);
    }

    /// Counts a beta cutoff by the `index`-th move searched and teaches the ordering.
    pub(super) fn record_cutoff(
        &mut self,
        pos: &G,
        mv: G::Move,
        index: usize,
        ply: usize,
        plies_left: u32,
    ) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        self.ordering.record_cutoff(pos, mv, ply, plies_left);
    }
}

#[cfg(test)]
mod tests {
    use super::{DEFER_DEPTH, Deferred};
    use crate::game::Game;
    use crate::games::random_tree::{Child, Model, RandomTree, TreeParams, TreeValue};
    use crate::search::busy::BusyTable;
    use crate::search::config::ONE_PLY;
    use crate::search::{SearchConfig, Searcher};

    /// `Deferred` is the set of the move indices below 256 put off (its definition above):
    /// checked against a plain list after each insertion, in a scattered order, of every
    /// index up to 300; an index past the 256th is refused and never contained.
    #[test]
    fn deferred_is_the_set_of_indices_below_256() {
        let mut set = Deferred::default();
        let mut model = Vec::new();
        assert!(set.is_empty(), "a new set is not empty");
        for step in 0..300 {
            // 97 is prime to 300: every index once, words and bits in no particular order.
            let i = step * 97 % 300;
            let inserted = set.insert(i);
            assert_eq!(inserted, i < 256, "insert({i}) answered {inserted}");
            if inserted {
                model.push(i);
            }
            for j in 0..300 {
                let (found, truth) = (set.contains(j), model.contains(&j));
                assert_eq!(found, truth, "contains({j}) after inserting {i}");
            }
            assert_eq!(
                set.is_empty(),
                model.is_empty(),
                "is_empty after inserting {i}"
            );
        }
    }

    /// `defer_busy` as its documentation states it: a move into a position another thread
    /// is searching waits, except the first move of a node and at nodes nearer the horizon
    /// than `DEFER_DEPTH`; a position nobody is in never waits, nor any in a search without
    /// a busy table.
    #[test]
    fn only_later_moves_deep_enough_into_busy_positions_are_deferred() {
        let params = TreeParams {
            b: 3,
            d: 4,
            seed: 5,
            model: Model::Iid,
        };
        let root = RandomTree::new(params).unwrap();
        let mut busy_child = root;
        busy_child.play(Child(1));
        let mut idle_child = root;
        idle_child.play(Child(2));
        let busy = BusyTable::new();
        busy.mark(busy_child.hash());
        let config = SearchConfig::default();
        let searcher = Searcher::new(&TreeValue, &config).with_busy(&busy);
        for depth in 0..6 * ONE_PLY {
            for searched in 0..3 {
                let wanted = searched > 0 && depth >= DEFER_DEPTH;
                let deferred = searcher.defer_busy(&busy_child, depth, searched);
                assert_eq!(
                    deferred, wanted,
                    "busy child, depth {depth}, move {searched}"
                );
                let deferred = searcher.defer_busy(&idle_child, depth, searched);
                assert!(
                    !deferred,
                    "idle child deferred, depth {depth}, move {searched}"
                );
            }
        }
        let alone = Searcher::new(&TreeValue, &config);
        assert!(
            !alone.defer_busy(&busy_child, 6 * ONE_PLY, 1),
            "a search without a busy table deferred a move"
        );
    }
}

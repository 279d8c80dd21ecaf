//! Searches over trees with chance nodes ([`Game::is_chance`]): expectiminimax, Ballard's
//! Star1 and Star2.
//!
//! - Expectiminimax (Michie 1966; shared/seeds/003): a player node takes its best child, a
//!   chance node the weighted mean of its outcomes. Every node to the horizon is visited: the
//!   reference the others must equal.
//! - Star1 (Ballard 1983, "The *-minimax search procedure for trees containing chance
//!   nodes", Artificial Intelligence 21; restated by Hauk, Buro and Schaeffer 2004,
//!   "Rediscovering *-Minimax Search", Computers and Games): fail-soft alpha-beta at player
//!   nodes; at a chance node, the outcomes not yet searched are assumed to lie anywhere in
//!   the evaluator's bounds `[L, U]` ([`Evaluator::bounds`]), which turns the node's window
//!   into a window for each outcome, and the node is cut off as soon as the outcomes
//!   searched so far decide that it fails high or low whatever the rest are worth.
//! - Star2 (the same sources): before Star1's pass, a probing phase searches only the first
//!   move of each outcome's player node. That move's value is a lower bound on the outcome
//!   (its player may have better), so a chance node can fail high on the probes alone, and
//!   the probed lower bounds replace `L` in Star1's windows afterwards.
//!
//! Exact values: weights are integers ([`crate::game::Weight`]) and a chance node's value is
//! defined as `floor(Σ wᵢ·vᵢ / Σ wᵢ)`, computed in 64-bit integers. The floor is monotone, so
//! every bound Star1 and Star2 derive on the weighted sum is a bound on this value, and all
//! three searches return exactly the same root value (tests/expecti.rs checks it on random
//! chance trees). The windows below are the integer forms of Ballard's:
//! the node fails high (`value >= β`) iff `S >= β·W`, and low (`value <= α`) iff
//! `S <= (α + 1)·W − 1`, where `S` is the weighted sum and `W` the sum of the weights.
//!
//! The transposition table (`tt_mb`) applies to all three: expectiminimax stores and uses
//! exact values only; Star1 and Star2 store fail-soft bounds as alpha-beta does (never a
//! Star2 probe's value, which bounds only the first move). tests/expecti.rs checks that
//! the table changes no value.
//!
//! Depth counts every level, chance levels included: from a player node, depth 1 scores
//! the positions after each move, depth 3 looks at every roll and reply.
//!
//! The positions after a chance outcome must have the chance node's side to move (the roll
//! belongs to the player who then moves), so outcomes' values need no negation.

use crate::game::{Evaluator, Game, Score, Weight, score};

use super::Searcher;
use super::alphabeta::Probe;
use super::config::{Algorithm, ONE_PLY};

/// Per-ply buffers of the chance searches, reused so that nothing is allocated per node.
pub(super) struct ChanceBuffers<G: Game> {
    /// The outcomes of the chance node at each ply.
    outcomes: Vec<Vec<(G::Move, Weight)>>,
    /// Star2: the lower bound on each outcome's value at each ply (probed, or `L`).
    lows: Vec<Vec<i64>>,
    /// The evaluator's bounds `(L, U)` for the current search.
    bounds: (i64, i64),
    /// Star2's probing phase is on.
    probing: bool,
}

impl<G: Game> Default for ChanceBuffers<G> {
    fn default() -> Self {
        Self {
            outcomes: Vec::new(),
            lows: Vec::new(),
            bounds: (-i64::from(score::INFINITY), i64::from(score::INFINITY)),
            probing: false,
        }
    }
}

impl<G: Game> ChanceBuffers<G> {
    fn ensure_plies(&mut self, plies: usize) {
        while self.outcomes.len() < plies {
            self.outcomes.push(Vec::new());
            self.lows.push(Vec::new());
        }
    }
}

/// `floor(n / d)` for `d > 0`.
fn floor_div(n: i64, d: i64) -> i64 {
    n.div_euclid(d)
}

/// `ceil(n / d)` for `d > 0`.
fn ceil_div(n: i64, d: i64) -> i64 {
    -(-n).div_euclid(d)
}

/// A window bound or value computed in 64 bits, brought back into the score range.
fn to_score(v: i64) -> Score {
    let inf = i64::from(score::INFINITY);
    v.clamp(-inf, inf) as Score
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// The root search of one iteration for the chance algorithms, `depth` in 1/24 ply.
    pub(super) fn chance_search(&mut self, root: &G, depth: i32) -> Score {
        let inf = score::INFINITY;
        // Without declared bounds, the widest values a search can return: nothing is pruned
        // at chance nodes, and Star1 and Star2 stay exact.
        let (lo, hi) = self.eval.bounds(root).unwrap_or((-inf + 1, inf - 1));
        self.chance.bounds = (i64::from(lo), i64::from(hi));
        self.chance.probing = self.config.algorithm == Algorithm::Star2;
        self.chance.ensure_plies(self.moves.len());
        match self.config.algorithm {
            Algorithm::Expectiminimax => self.expectiminimax(root, depth, 0),
            _ => self.star(root, depth, (-inf, inf), 0, false),
        }
    }

    /// Grows the chance buffers with the search's other per-ply buffers.
    fn chance_enter(&mut self, pos: &G, ply: usize) -> bool {
        let stop = self.enter(pos, ply);
        self.chance.ensure_plies(self.moves.len());
        stop
    }

    /// Fills the outcome buffer of `ply` with the outcomes of the chance node `pos` (taken
    /// out of `self` while the node searches) and counts the expansion.
    fn take_outcomes(&mut self, pos: &G, ply: usize) -> (Vec<(G::Move, Weight)>, i64) {
        let mut outcomes = std::mem::take(&mut self.chance.outcomes[ply]);
        outcomes.clear();
        pos.chance_outcomes(&mut outcomes);
        self.stats.expanded_nodes += 1;
        self.stats.generated_moves += outcomes.len() as u64;
        let total = outcomes
            .iter()
            .map(|&(_, w)| i64::from(w))
            .sum::<i64>()
            .max(1);
        (outcomes, total)
    }

    /// The position after `mv`, with the sign that turns its values into `pos`'s side's.
    fn child_of(pos: &G, mv: G::Move) -> (G, bool) {
        let mut child = pos.clone();
        child.play(mv);
        let flip = child.side_to_move() != pos.side_to_move();
        debug_assert!(
            !(pos.is_chance() && flip),
            "a chance outcome keeps the side to move"
        );
        (child, flip)
    }

    /// The expectiminimax value of `pos` searched `depth` (1/24 ply) deep.
    fn expectiminimax(&mut self, pos: &G, depth: i32, ply: usize) -> Score {
        if self.chance_enter(pos, ply) {
            return 0;
        }
        if let Some(value) = self.scored_without_children(pos, depth, ply) {
            return value;
        }
        let inf = score::INFINITY;
        // Only exact values are stored, so only they cut off (deeper ones too, as in
        // alpha-beta: a search to the end of the game stores the game's exact values).
        if let Probe::Cutoff(value) = self.probe_table(pos, depth, -inf, inf, ply) {
            return value;
        }
        let (value, best_move) = self.expectiminimax_children(pos, depth, ply);
        if !self.aborted() {
            self.store_table(pos, depth, ply, value, -inf, inf, best_move);
        }
        value
    }

    /// The expectiminimax value of an interior node from its children, and its best move.
    fn expectiminimax_children(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
    ) -> (Score, Option<G::Move>) {
        if pos.is_chance() {
            let (outcomes, total) = self.take_outcomes(pos, ply);
            let mut sum = 0i64;
            for &(outcome, weight) in &outcomes {
                let (child, _) = Self::child_of(pos, outcome);
                let value = self.expectiminimax(&child, depth - ONE_PLY, ply + 1);
                sum += i64::from(weight) * i64::from(value);
            }
            self.chance.outcomes[ply] = outcomes;
            return (to_score(floor_div(sum, total)), None);
        }
        let moves = self.take_moves(pos, ply);
        let (mut best, mut best_move) = (-score::INFINITY, None);
        for &mv in &moves {
            let (child, flip) = Self::child_of(pos, mv);
            let value = self.expectiminimax(&child, depth - ONE_PLY, ply + 1);
            let value = if flip { -value } else { value };
            if self.aborted() {
                break;
            }
            if value > best {
                (best, best_move) = (value, Some(mv));
                self.update_pv(ply, mv);
            }
        }
        self.put_moves(ply, moves);
        (best, best_move)
    }

    /// The Star1 (or, with probing on, Star2) value of `pos` with the fail-soft window
    /// `(alpha, beta)`. With `first_only` (Star2's probe of an outcome) a player node
    /// searches its first move only: a lower bound on its value, exact inside the window.
    fn star(
        &mut self,
        pos: &G,
        depth: i32,
        (alpha, beta): (Score, Score),
        ply: usize,
        first_only: bool,
    ) -> Score {
        if self.chance_enter(pos, ply) {
            return 0;
        }
        if let Some(value) = self.scored_without_children(pos, depth, ply) {
            return value;
        }
        // A stored bound settles a probe too: the node's value bounds its first move's.
        let tt_move = match self.probe_table(pos, depth, alpha, beta, ply) {
            Probe::Cutoff(value) => return value,
            Probe::Search(code) => code,
        };
        let (value, best_move) = if pos.is_chance() {
            (self.star_chance(pos, depth, alpha, beta, ply), None)
        } else {
            self.star_player(pos, depth, (alpha, beta), ply, (tt_move, first_only))
        };
        // A probe's value bounds only the first move: it is not the node's.
        if !first_only && !self.aborted() {
            self.store_table(pos, depth, ply, value, alpha, beta, best_move);
        }
        value
    }

    /// The value of `child` (reached from a node by a move or outcome) in the node's side's
    /// view, searched with the node-side window `(alpha, beta)`.
    fn star_child(
        &mut self,
        child: &G,
        flip: bool,
        depth: i32,
        (alpha, beta): (Score, Score),
        ply: usize,
    ) -> Score {
        if flip {
            -self.star(child, depth, (-beta, -alpha), ply, false)
        } else {
            self.star(child, depth, (alpha, beta), ply, false)
        }
    }

    /// Fail-soft alpha-beta at a player node, moves in the configured order (the table's
    /// move `tt_move` first where the ordering says so); with `first_only`, the first move
    /// only. Returns the value and the best move.
    fn star_player(
        &mut self,
        pos: &G,
        depth: i32,
        (mut alpha, beta): (Score, Score),
        ply: usize,
        (tt_move, first_only): (Option<u16>, bool),
    ) -> (Score, Option<G::Move>) {
        let mut moves = self.take_moves(pos, ply);
        let plies_left = (depth / ONE_PLY).max(0) as u32;
        self.ordering
            .order(self.eval, pos, &mut moves, tt_move, ply, plies_left);
        let (mut best, mut best_move) = (-score::INFINITY, None);
        for i in 0..moves.len() {
            let mv = moves[i];
            let (child, flip) = Self::child_of(pos, mv);
            let value = self.star_child(&child, flip, depth - ONE_PLY, (alpha, beta), ply + 1);
            if self.aborted() {
                break;
            }
            if value > best {
                (best, best_move) = (value, Some(mv));
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                }
            }
            if value >= beta {
                self.count_cutoff(pos, mv, i, ply, plies_left);
                break;
            }
            if first_only {
                break;
            }
            if i == 0 {
                self.ordering.order_rest(&mut moves, ply);
            }
        }
        self.put_moves(ply, moves);
        (best, best_move)
    }

    fn count_cutoff(&mut self, pos: &G, mv: G::Move, index: usize, ply: usize, plies_left: u32) {
        self.stats.beta_cutoffs += 1;
        if index == 0 {
            self.stats.first_move_cutoffs += 1;
        }
        self.ordering.record_cutoff(pos, mv, ply, plies_left);
    }

    /// Star1's pass over the outcomes of a chance node, after Star2's probes where probing
    /// is on. The invariants: `known` is the weighted sum of the outcomes searched so far;
    /// `low_rest` and `high_rest` bound the weighted sum of those after the current one.
    fn star_chance(&mut self, pos: &G, depth: i32, alpha: Score, beta: Score, ply: usize) -> Score {
        let (outcomes, total) = self.take_outcomes(pos, ply);
        let mut lows = std::mem::take(&mut self.chance.lows[ply]);
        let (lo, hi) = self.chance.bounds;
        lows.clear();
        lows.resize(outcomes.len(), lo);
        let (alpha64, beta64) = (i64::from(alpha), i64::from(beta));
        let mut result = None;
        // Probes of outcomes at the horizon would only score them twice.
        if self.chance.probing && depth > ONE_PLY {
            result = self.probe_outcomes(pos, depth, beta64, ply, (&outcomes, total), &mut lows);
        }
        if result.is_none() {
            let mut known = 0i64;
            let mut low_rest: i64 = outcomes
                .iter()
                .zip(&lows)
                .map(|(&(_, w), &l)| i64::from(w) * l)
                .sum();
            let mut high_rest = total * hi;
            for (&(outcome, weight), &low) in outcomes.iter().zip(&lows) {
                let w = i64::from(weight);
                low_rest -= w * low;
                high_rest -= w * hi;
                // The outcome's values at which the node fails low, and high.
                let fail_low = floor_div((alpha64 + 1) * total - 1 - known - high_rest, w);
                let fail_high = ceil_div(beta64 * total - known - low_rest, w);
                if fail_low >= hi {
                    result = Some(floor_div(known + w * hi + high_rest, total));
                    break;
                }
                if fail_high <= low {
                    result = Some(floor_div(known + w * low + low_rest, total));
                    break;
                }
                // Values outside [low, hi] cannot occur, so the window can shrink to them.
                let window = (
                    to_score(fail_low.max(low - 1)),
                    to_score(fail_high.min(hi + 1)),
                );
                let (child, _) = Self::child_of(pos, outcome);
                let value =
                    i64::from(self.star_child(&child, false, depth - ONE_PLY, window, ply + 1));
                if self.aborted() {
                    result = Some(0);
                    break;
                }
                if value <= fail_low {
                    result = Some(floor_div(known + w * value + high_rest, total));
                    break;
                }
                if value >= fail_high {
                    result = Some(floor_div(known + w * value + low_rest, total));
                    break;
                }
                known += w * value;
            }
            result = result.or(Some(floor_div(known, total)));
        }
        self.chance.outcomes[ply] = outcomes;
        self.chance.lows[ply] = lows;
        to_score(result.unwrap_or(0))
    }

    /// Star2's probing phase at a chance node: the first move of each outcome's player node
    /// gives a lower bound on the outcome (kept in `lows`); returns the node's fail-high
    /// value when the bounds alone reach `beta`.
    fn probe_outcomes(
        &mut self,
        pos: &G,
        depth: i32,
        beta: i64,
        ply: usize,
        (outcomes, total): (&[(G::Move, Weight)], i64),
        lows: &mut [i64],
    ) -> Option<i64> {
        let hi = self.chance.bounds.1;
        let mut low_sum: i64 = outcomes
            .iter()
            .zip(lows.iter())
            .map(|(&(_, w), &l)| i64::from(w) * l)
            .sum();
        for (i, &(outcome, weight)) in outcomes.iter().enumerate() {
            let w = i64::from(weight);
            let others = low_sum - w * lows[i];
            let fail_high = ceil_div(beta * total - others, w);
            let window = (to_score(lows[i] - 1), to_score(fail_high.min(hi + 1)));
            let (child, _) = Self::child_of(pos, outcome);
            let value = i64::from(self.star(&child, depth - ONE_PLY, window, ply + 1, true));
            if self.aborted() {
                return Some(0);
            }
            if value >= fail_high {
                return Some(floor_div(others + w * value, total));
            }
            if value > lows[i] {
                low_sum += w * (value - lows[i]);
                lows[i] = value;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Outcome, Status};
    use crate::games::chance_tree::{ChanceKind, ChanceTree, ChanceTreeParams, ChanceTreeValue};
    use crate::games::random_tree::Child;
    use crate::search::SearchConfig;

    fn tree(b: u32, d: u32, chance: ChanceKind, (lo, hi): (Score, Score), seed: u64) -> ChanceTree {
        ChanceTree::new(ChanceTreeParams {
            b,
            d,
            chance,
            lo,
            hi,
            seed,
        })
        .unwrap()
    }

    /// Expectiminimax written out from its definition (as tests/expecti.rs's reference):
    /// the value for the side to move, a chance node's value `floor(Σ w·v / Σ w)`.
    fn reference(node: &ChanceTree, depth: u32) -> Score {
        if let Status::Over(Outcome::Points(p)) = node.status() {
            return p;
        }
        if depth == 0 {
            return node.value();
        }
        if node.is_chance() {
            let mut outcomes: Vec<(Child, Weight)> = Vec::new();
            node.chance_outcomes(&mut outcomes);
            let total: i64 = outcomes.iter().map(|&(_, w)| i64::from(w)).sum();
            let mut sum = 0i64;
            for (c, w) in outcomes {
                let mut child = *node;
                child.play(c);
                sum += i64::from(w) * i64::from(reference(&child, depth - 1));
            }
            return sum.div_euclid(total) as Score;
        }
        let mut moves = Vec::new();
        node.generate_moves(&mut moves);
        let mut best = -score::INFINITY;
        for mv in moves {
            let mut child = *node;
            child.play(mv);
            let v = reference(&child, depth - 1);
            let same = child.side_to_move() == node.side_to_move();
            best = best.max(if same { v } else { -v });
        }
        best
    }

    /// Star1, or Star2, of `root` searched `depth` plies with the window `window`, set up
    /// as `chance_search` sets up the root's full window.
    fn star_in_window(
        root: &ChanceTree,
        algorithm: Algorithm,
        depth: u32,
        window: (Score, Score),
    ) -> Score {
        let config = SearchConfig {
            algorithm,
            ..SearchConfig::default()
        };
        let mut searcher = Searcher::new(&ChanceTreeValue, &config);
        searcher.ensure_buffers(depth as usize + 1);
        let (lo, hi) = ChanceTreeValue.bounds(root).unwrap();
        searcher.chance.bounds = (i64::from(lo), i64::from(hi));
        searcher.chance.probing = algorithm == Algorithm::Star2;
        searcher.chance.ensure_plies(searcher.moves.len());
        searcher.star(root, depth as i32 * ONE_PLY, window, 0, false)
    }

    /// Star1 and Star2 with any window keep alpha-beta's fail-soft contract (Ballard 1983;
    /// Hauk, Buro and Schaeffer 2004): a value at or below `alpha` is an upper bound on the
    /// node's value, one at or above `beta` a lower bound, one between them the value. The
    /// root searches only ever use the full window, where every value is exact, so the
    /// bounds that chance nodes return when they cut off, and the windows they give their
    /// outcomes, are checked only here: from player and chance roots, with windows around,
    /// above and below the value, on trees with wide, narrow and constant values (where
    /// the value is one of the bounds).
    #[test]
    fn star_values_keep_the_fail_soft_contract() {
        let shapes = [
            (2, 6, ChanceKind::Uniform(2)),
            (3, 5, ChanceKind::Uniform(3)),
            (2, 5, ChanceKind::Uniform(5)),
            (3, 5, ChanceKind::Dice),
        ];
        let mut checks = [0u32; 3];
        for (b, d, chance) in shapes {
            let ranges = [(-1000, 1000), (-3, 3), (0, 50), (-3, -3), (3, 3)];
            for (seed, range) in (1..).zip(ranges) {
                let player = tree(b, d, chance, range, seed);
                let mut at_chance = player;
                at_chance.play(Child(0));
                assert!(at_chance.is_chance());
                for (root, height) in [(player, d), (at_chance, d - 1)] {
                    for depth in 1..=height {
                        let truth = reference(&root, depth);
                        let steps = [-40, -7, -3, -2, -1, 0, 1, 2, 3, 7, 40];
                        for da in steps {
                            for width in [1, 2, 3, 10, 100] {
                                let alpha = truth + da;
                                let beta = alpha + width;
                                for algorithm in [Algorithm::Star1, Algorithm::Star2] {
                                    let v = star_in_window(&root, algorithm, depth, (alpha, beta));
                                    let at = format!(
                                        "{algorithm} ({alpha}, {beta}) {root} depth {depth}: \
                                         {v}, value {truth}"
                                    );
                                    if v <= alpha {
                                        assert!(truth <= v, "{at}");
                                        checks[0] += 1;
                                    } else if v >= beta {
                                        assert!(truth >= v, "{at}");
                                        checks[2] += 1;
                                    } else {
                                        assert_eq!(v, truth, "{at}");
                                        checks[1] += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checks.iter().all(|&n| n > 100), "{checks:?}");
    }
}

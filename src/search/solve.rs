//! The exact-solver switches of Pascal Pons's connect-four ladder ("Solving Connect 4: how
//! to build a perfect AI", blog.gamesolver.org, parts 3–12), each an independent switch of
//! the alpha-beta searcher and generic over [`Game`] through its solver hooks
//! ([`Game::winning_move`], [`Game::non_losing_moves`], [`Game::winning_spots_after`],
//! [`Game::MOVER_CAN_LOSE`]), so that they work on every game (tic-tac-toe through the
//! hooks' defaults) and connect four answers them with Pons's bitboard tricks.
//!
//! - `win_check` (part 3): a node whose side to move wins at once is scored without
//!   expanding it.
//! - `score_window` (part 4; mate-distance pruning in general form): the window is narrowed
//!   to the scores still possible from the node's ply (no win before the next move, or before
//!   the move after when the win check found none; no loss before the opponent's reply, or
//!   before the reply after that with anticipation), and by the bound the table holds (as
//!   Pons's `negamax` does with his table's bounds); in games scored in points within a
//!   bound ([`Game::MAX_POINTS`], othello's ±64 discs), to that bound, so that a node
//!   holding the best score possible is cut off; and in a search that reaches the end,
//!   below the final score the position alone allows ([`Game::final_score_ceiling`]:
//!   othello's stable discs, Edax's stability cutoff above its last-empties solver).
//! - `score_grain` (Pons's score convention): decisive scores count the end of the game in
//!   units of `g` plies of the whole game (`g = 2`: the winner's stones, as Pons counts), so
//!   wins a ply apart tie and cut off alike; 1 (the default) counts plies.
//! - `mtd` (part 8): the root value found by null-window searches that bisect the range of
//!   scores still possible, leaning toward 0 first (Pons's `solve`; Plaat et al.'s MTD family
//!   by bisection), instead of one search with the full window. Between bounds that are not
//!   decisive (othello's discs, evaluations), each test after the first is at the bound the
//!   last search returned, galloping while the searches fail the same way (MTD(f)); a
//!   deepening search tests the previous iteration's score first. Where the search reaches
//!   the end of a game whose final scores are multiples of a step
//!   ([`Game::FINAL_SCORE_STEP`], othello's even disc differences), the tests fall between
//!   two such scores and step without galloping.
//! - `anticipate` (part 9): only moves that neither lose at once nor hand the opponent an
//!   immediate win are generated; a node with none is scored as lost at the opponent's reply
//!   without expanding it (where [`Game::MOVER_CAN_LOSE`] is false). Implies the win check.
//! - `weak` (the weak solver): the root searched with the window (−1, 1), so only the
//!   sign of the result (win, draw, loss) is exact.
//! - `tt_compact` (part 11): the compact table ([`super::Table::compact`]): a prime number
//!   of 8-byte slots indexed by the game's exact key where it has one, partial keys, always
//!   replaced; twice the entries in the same memory, and Pons's locality.
//! - `tt_lower_bounds` (part 12): off, the table keeps upper bounds only, as Pons's did up to
//!   part 11 (exact results stored as upper bounds, fail-high results not at all); on (the
//!   default, plylab's table as it always was), lower bounds and exact values beside them.
//!
//! Every switch leaves the value of a search to the end of the game unchanged (tests/solve.rs
//! checks each against minimax and Pons's known scores); the win check, the window and
//! anticipation act only where at least one (two for anticipation) plies of depth remain, so
//! depth-limited searches keep their values too.

use crate::game::{Evaluator, Game, Score, score};

use super::Searcher;
use super::config::ONE_PLY;

/// The search's score of a decisive end `ply` plies below the root: with grain `g`, the end
/// is counted at the next multiple of `g` plies of the whole game (`root` plies were played
/// before the root), so that for `g = 2` the score counts the winner's stones, as Pons's does.
#[must_use]
pub fn end_ply(grain: u32, root: u32, ply: i32) -> i32 {
    if grain <= 1 {
        return ply;
    }
    let (g, root) = (grain as i32, root as i32);
    let game_ply = root + ply + g - 1;
    // Every node of a solver asks this (twice): a mask, not a division, for Pons's grain 2.
    let rounded = if grain.is_power_of_two() {
        game_ply & -g
    } else {
        game_ply / g * g
    };
    rounded - root
}

/// The next null window's test value in Pons's `solve`: the middle of `(lo, hi)`, moved
/// toward 0 (to half of the far bound) when the range spans it, since values near 0 are
/// the likeliest and the cheapest to refute.
fn probe_value(lo: Score, hi: Score) -> Score {
    let med = (i64::from(lo) + (i64::from(hi) - i64::from(lo)) / 2) as Score;
    if med <= 0 && lo / 2 < med {
        lo / 2
    } else if med >= 0 && hi / 2 > med {
        hi / 2
    } else {
        med
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// [`end_ply`] under this search's grain and root.
    #[inline]
    pub(super) fn end_ply(&self, ply: i32) -> i32 {
        end_ply(
            u32::from(self.config.solve.score_grain),
            self.root_plies,
            ply,
        )
    }

    /// Part 3: the score of a win with the next move, if the side to move has one and the
    /// search looks at least a ply deeper (so minimax would see it); the move becomes the
    /// node's principal variation. Not looked for where the move that led here was chosen
    /// by anticipation (not after a pass), which leaves the side to move no immediate win:
    /// Pons's `negamax` assumes as much.
    #[inline(always)]
    pub(super) fn immediate_win(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        after_null: bool,
    ) -> Option<Score> {
        if !self.config.solve.checks_wins() || depth < ONE_PLY {
            return None;
        }
        if ply > 0 && !after_null && self.anticipated[ply - 1] {
            return None;
        }
        let mv = pos.winning_move(&mut self.solve_scratch[0])?;
        self.stats.leaf_nodes += 1;
        self.pv[ply + 1].clear();
        self.update_pv(ply, mv);
        Some(score::win_in(self.end_ply(ply as i32 + 1)))
    }

    /// Part 9: fills the move buffer of `ply` with the moves that do not lose at once (the
    /// caller then takes it instead of generating). `Err` with the node's score when there
    /// are none and the game guarantees the side to move cannot lose by its own move: the
    /// opponent wins with its reply. Elsewhere, and at the root (which must return a move),
    /// a node without such moves keeps all its moves. `Ok(false)`: the switch is off here.
    #[inline(always)]
    pub(super) fn anticipate(&mut self, pos: &G, depth: i32, ply: usize) -> Result<bool, Score> {
        self.anticipated[ply] = false;
        if !self.config.solve.anticipate || depth < 2 * ONE_PLY {
            return Ok(false);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        let [scratch, inner] = &mut self.solve_scratch;
        pos.non_losing_moves(&mut moves, scratch, inner);
        if ply == 0 && !self.root_moves.is_empty() {
            moves.retain(|&m| self.root_moves.contains(&G::move_code(m)));
        }
        if moves.is_empty() {
            if ply > 0 && !G::MOVER_CAN_LOSE {
                self.moves[ply] = moves;
                self.stats.leaf_nodes += 1;
                return Err(score::loss_in(self.end_ply(ply as i32 + 2)));
            }
            pos.generate_moves(&mut moves);
            if ply == 0 && !self.root_moves.is_empty() {
                moves.retain(|&m| self.root_moves.contains(&G::move_code(m)));
            }
        } else {
            self.anticipated[ply] = true;
        }
        self.stats.expanded_nodes += 1;
        self.stats.generated_moves += moves.len() as u64;
        self.moves[ply] = moves;
        Ok(true)
    }

    /// The lowest and highest scores `pos`, a node at `ply` searched `depth` deep, can still
    /// have: `checked` when the win check found no immediate win, `anticipated` when every
    /// move left avoids an immediate loss. Where the game ends before the first possible win
    /// (loss), the bound is the non-decisive band, or 0 in a game of wins, losses and draws
    /// searched to its end (Pons's draw check).
    pub(super) fn possible_scores(
        &self,
        pos: &G,
        depth: i32,
        ply: usize,
        checked: bool,
        anticipated: bool,
    ) -> (Score, Score) {
        let ply = ply as i32;
        let first_win = if checked { 3 } else { 1 };
        let first_loss = match (G::MOVER_CAN_LOSE, anticipated) {
            (true, _) => 1,
            (false, false) => 2,
            (false, true) => 4,
        };
        let left = pos.remaining_plies().map_or(i32::MAX, |r| r as i32);
        let to_end =
            G::ONLY_WIN_LOSS_DRAW && i64::from(depth) >= i64::from(left) * i64::from(ONE_PLY);
        let band = if to_end { 0 } else { score::DECISIVE };
        let lo = if first_loss > left {
            -band
        } else {
            score::loss_in(self.end_ply(ply + first_loss))
        };
        let hi = if first_win > left {
            band
        } else {
            score::win_in(self.end_ply(ply + first_win))
        };
        match G::MAX_POINTS {
            Some(most) => (lo.max(-most), hi.min(most)),
            None => (lo, hi),
        }
    }

    /// Part 4: narrows `(alpha, beta)` to the scores still possible below the root, and
    /// returns the bound that settles the node when the window closes.
    pub(super) fn narrow_window(
        &self,
        pos: &G,
        ply: usize,
        depth: i32,
        anticipated: bool,
        alpha: &mut Score,
        beta: &mut Score,
    ) -> Option<Score> {
        if !self.config.solve.score_window || ply == 0 {
            return None;
        }
        let checked = self.config.solve.checks_wins() && depth >= ONE_PLY;
        let (lo, mut hi) = self.possible_scores(pos, depth, ply, checked, anticipated);
        if reaches_end(pos, depth)
            && let Some(ceiling) = pos.final_score_ceiling(*alpha)
        {
            hi = hi.min(ceiling);
        }
        clamp_window(lo, hi, alpha, beta)
    }

    /// The root's value by null-window searches (part 8): each search tells whether the
    /// value lies above a test value, and the range of possible values shrinks until it is
    /// one value. Test values are chosen as Pons chooses them, on the ladder of decisive
    /// scores ([`Ladder`]), so that each test asks for a win (or loss) within a distance,
    /// which the score window prunes hard, rather than whether the game is won at all. The
    /// principal variation is the last search that failed high; when none did (the value is
    /// the lowest possible), one more search finds a move.
    pub(super) fn mtd_search(&mut self, root: &G, depth: i32) -> Score {
        let (lo, hi) = if self.config.solve.weak {
            (-1, 1)
        } else {
            let checked = self.config.solve.checks_wins()
                && root.winning_move(&mut self.solve_scratch[0]).is_none();
            self.possible_scores(root, depth, 0, checked, false)
        };
        let ladder = Ladder {
            grain: self.config.solve.score_grain.max(1) as i32,
            reach: depth / ONE_PLY,
            step: if reaches_end(root, depth) && !self.config.solve.weak {
                G::FINAL_SCORE_STEP.max(1)
            } else {
                1
            },
        };
        // The principal variation of the last search that failed high (the searches after
        // it overwrite the root's line), in a buffer made before the clock started.
        let mut line = std::mem::take(&mut self.mtd_line);
        line.clear();
        let value = self.mtd_probes(root, depth, (lo, hi), &ladder, &mut line);
        self.mtd_line = line;
        value
    }

    /// [`Self::mtd_search`]'s null-window searches between the bounds `lo` and `hi`, keeping
    /// the principal variation of the last that failed high in `line`.
    fn mtd_probes(
        &mut self,
        root: &G,
        depth: i32,
        (mut lo, mut hi): (Score, Score),
        ladder: &Ladder,
        line: &mut Vec<G::Move>,
    ) -> Score {
        let mut trend: Option<Trend> = None;
        (lo, hi) = (ladder.ceil(lo), ladder.floor(hi));
        while lo < hi {
            let points = ladder.rung(lo) == 0 && ladder.rung(hi) == 0;
            let med = match (trend, self.previous_score) {
                (Some(trend), _) if points => trend.probe(lo, hi, ladder.step == 1),
                (None, Some(guess)) if !score::is_decisive(guess) && lo <= guess && guess < hi => {
                    guess
                }
                _ => ladder.probe(lo, hi),
            };
            let med = ladder.floor(med);
            let value = self.alphabeta(root, depth, med, med + 1, 0, false);
            if self.aborted() {
                return value;
            }
            let failed_low = value <= med;
            if failed_low {
                hi = ladder.floor(value.max(lo));
            } else {
                lo = ladder.ceil(value.min(hi));
                line.clone_from(&self.pv[0]);
            }
            trend = Some(Trend::after(
                trend,
                failed_low,
                if failed_low { hi } else { lo },
            ));
        }
        if line.is_empty() {
            let value = self.alphabeta(root, depth, lo - 1, lo, 0, false);
            if self.aborted() {
                return value;
            }
            line.clone_from(&self.pv[0]);
        }
        self.pv[0].clone_from(line);
        lo
    }
}

/// Between bounds that are not decisive (othello's discs, heuristic values), where the
/// test values go after the first: MTD(f) (Plaat, Schaeffer, Pijls and de Bruin 1996) tests
/// the bound the last search returned, since a fail-soft search's bound is often the value
/// itself, and an endgame's bisection wastes searches far from it (FFO 40-47: a third of
/// the nodes). Where values are fine-grained (centipawns, evaluations), each test moves
/// twice as far as the one before while the searches keep failing the same way
/// (galloping), so that they do not take a search per unit. Where the search reaches the end
/// of a game whose final scores are few (othello's 65 even disc differences,
/// [`Game::FINAL_SCORE_STEP`]), every test already moves a whole step and it does not
/// gallop: a test that overshoots the value fails low at a cost as high as the value's own
/// proof (FFO #48, +28: galloping tested +30 after +14, and that one search took half of a
/// solve's 1.32 billion nodes; one step at a time, 0.80 billion in all).
#[derive(Clone, Copy)]
struct Trend {
    /// Whether the last search failed low (the value is at most its result).
    failed_low: bool,
    /// The bound the first search failing this way returned.
    anchor: Score,
}

impl Trend {
    /// The trend after a search that failed low or high, leaving `bound` as the new upper
    /// or lower bound.
    fn after(last: Option<Self>, failed_low: bool, bound: Score) -> Self {
        match last {
            Some(trend) if trend.failed_low == failed_low => trend,
            _ => Self {
                failed_low,
                anchor: bound,
            },
        }
    }

    /// The next test value in `[lo, hi)`: the bound just found, moved on by as much as the
    /// bound has moved since the trend began if `gallop`.
    fn probe(self, lo: Score, hi: Score, gallop: bool) -> Score {
        let med = if self.failed_low {
            let moved = self.anchor.saturating_sub(hi).max(0);
            (hi - 1).saturating_sub(if gallop { moved } else { 0 })
        } else {
            let moved = lo.saturating_sub(self.anchor).max(0);
            lo.saturating_add(if gallop { moved } else { 0 })
        };
        med.clamp(lo, hi - 1)
    }
}

/// Decisive scores as Pons counts them: a win `p` plies from the root is rung
/// `ceil((reach + 1 - p) / grain)` (1 for the slowest win the search can see, more for
/// faster ones), a loss the same rung negated, every other score rung 0. With `reach` the
/// plies left in connect four and grain 2, the rungs are Pons's scores.
struct Ladder {
    grain: i32,
    reach: i32,
    /// The step between the values still possible among points ([`Game::FINAL_SCORE_STEP`]
    /// where the search reaches the end of the game, else 1).
    step: Score,
}

impl Ladder {
    /// `s` rounded down to a possible value, where it is a point (decisive scores stay).
    fn floor(&self, s: Score) -> Score {
        if self.rung(s) == 0 {
            s.div_euclid(self.step) * self.step
        } else {
            s
        }
    }

    /// `s` rounded up to a possible value, where it is a point.
    fn ceil(&self, s: Score) -> Score {
        if self.rung(s) == 0 {
            -(-s).div_euclid(self.step) * self.step
        } else {
            s
        }
    }

    fn rung(&self, s: Score) -> i32 {
        let Some(p) = score::plies_to_end(s) else {
            return 0;
        };
        let k = ((self.reach + 1 - p).max(1) + self.grain - 1) / self.grain;
        if s > 0 { k } else { -k }
    }

    /// The score at rung `k` (not 0): the fastest end that rung holds.
    fn score(&self, k: i32) -> Score {
        let p = (self.reach + 1 - k.abs() * self.grain).max(1);
        if k > 0 {
            score::win_in(p)
        } else {
            score::loss_in(p)
        }
    }

    /// The next test value in `[lo, hi)`: Pons's choice on the rungs of `lo` and `hi`, or
    /// between them when both are on rung 0 (heuristic values, draws, points).
    fn probe(&self, lo: Score, hi: Score) -> Score {
        let (a, b) = (self.rung(lo), self.rung(hi));
        let k = if a == b { 0 } else { probe_value(a, b) };
        let med = if k == 0 && lo < 0 && hi > 0 {
            0
        } else if k == 0 {
            let band = |s: Score| s.clamp(-score::DECISIVE, score::DECISIVE);
            probe_value(band(lo), band(hi))
        } else {
            self.score(k)
        };
        med.clamp(lo, hi - 1)
    }
}

/// Whether a search `depth` (1/24 ply) deep from `pos` reaches the end of the game on every
/// line, so that its values are final scores rather than evaluations.
pub(super) fn reaches_end<G: Game>(pos: &G, depth: i32) -> bool {
    pos.remaining_plies()
        .is_some_and(|r| i64::from(depth) >= i64::from(r) * i64::from(ONE_PLY))
}

/// Narrows `(alpha, beta)` to `[lo, hi]`; the bound that settles the node if it closes.
pub(super) fn clamp_window(
    lo: Score,
    hi: Score,
    alpha: &mut Score,
    beta: &mut Score,
) -> Option<Score> {
    if *alpha < lo {
        *alpha = lo;
        if *alpha >= *beta {
            return Some(*alpha);
        }
    }
    if *beta > hi {
        *beta = hi;
        if *alpha >= *beta {
            return Some(*beta);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grain_of_two_counts_the_winners_stones() {
        // Root after 10 plies: ends after 11 and 12 plies of the game score alike.
        assert_eq!(end_ply(2, 10, 1), 2);
        assert_eq!(end_ply(2, 10, 2), 2);
        assert_eq!(end_ply(2, 10, 3), 4);
        assert_eq!(end_ply(2, 9, 1), 1);
        assert_eq!(end_ply(1, 9, 5), 5);
        // Grains that are not powers of two round up to their multiples too.
        assert_eq!(end_ply(3, 10, 1), 2);
        assert_eq!(end_ply(3, 10, 3), 5);
        assert_eq!(end_ply(4, 10, 1), 2);
        assert_eq!(end_ply(4, 10, 3), 6);
    }

    #[test]
    fn probes_lean_toward_zero_as_pons_does() {
        // Pons's first test over [-18, 18] is at -9, then halfway toward the far bound.
        assert_eq!(probe_value(-18, 18), -9);
        assert_eq!(probe_value(-1, 1), 0);
        assert_eq!(probe_value(2, 18), 10);
        assert_eq!(probe_value(-1, 0), -1);
    }

    #[test]
    fn between_points_the_next_test_is_the_bound_found_then_gallops() {
        // A search failing low at 0 with 0: is the value at least 0 (above -1)?
        let low = Trend::after(None, true, 0);
        assert_eq!(low.probe(-6400, 0, true), -1);
        // It failed low again, at -200: the test moves on by as far as the bound has moved.
        let low = Trend::after(Some(low), true, -200);
        assert_eq!(low.probe(-6400, -200, true), -401);
        let low = Trend::after(Some(low), true, -600);
        assert_eq!(low.probe(-6400, -600, true), -1201);
        // Never outside the bounds still open.
        assert_eq!(low.probe(-700, -600, true), -700);
        // Failing high turns the trend: the next test is the new lower bound.
        let high = Trend::after(Some(low), false, -900);
        assert_eq!(high.probe(-900, -600, true), -900);
        let high = Trend::after(Some(high), false, -850);
        assert_eq!(high.probe(-850, -600, true), -800);
    }

    #[test]
    fn on_a_lattice_of_final_scores_tests_split_two_of_them_one_step_at_a_time() {
        let ladder = Ladder {
            grain: 1,
            reach: 20,
            step: 200,
        };
        // Bounds round inwards to possible scores, tests down to the lower of the two
        // scores they split: (2600, 2601) asks whether the value is 2800 or more.
        assert_eq!((ladder.ceil(-6399), ladder.floor(6399)), (-6200, 6200));
        assert_eq!((ladder.ceil(-200), ladder.floor(-200)), (-200, -200));
        assert_eq!((ladder.floor(2799), ladder.floor(-1)), (2600, -200));
        assert_eq!(ladder.ceil(2601), 2800);
        // Decisive scores are not points and stay as they are.
        assert_eq!(ladder.floor(score::win_in(5)), score::win_in(5));
        // Without galloping, the next test is the bound just found, however long the trend.
        let low = Trend::after(None, true, 0);
        let low = Trend::after(Some(low), true, -200);
        let low = Trend::after(Some(low), true, -400);
        assert_eq!(ladder.floor(low.probe(-6400, -400, false)), -600);
        let high = Trend::after(None, false, 200);
        let high = Trend::after(Some(high), false, 1400);
        assert_eq!(high.probe(1400, 6400, false), 1400);
        assert_eq!(high.probe(1400, 6400, true), 2600);
    }
}

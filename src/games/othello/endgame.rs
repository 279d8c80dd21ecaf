//! The dedicated solver of the last few empty squares, reached through
//! [`crate::game::Game::solve_endgame`] when a searcher turns on `endgame_solver = N`.
//!
//! Near the end a general node (move buffers, table probes, ordering keys) costs far more
//! than the tree below it is worth, so Othello programs hand the last few empties to a
//! small routine working on the two bitboards alone: Edax's `search_shallow` and
//! `search_solve_4` .. `search_solve_1` (src/endgame.c), after Buro's and Gunnar Andersson's
//! solvers. This one is that idea in its plainest form:
//!
//! - fail-soft negamax alpha-beta over the two bitboards, recursion on the stack, no table,
//!   no move list, nothing allocated;
//! - moves are found by trying the flips of each empty square (with few empties this is
//!   cheaper than computing the mobility set), in **parity order**: squares of quadrants
//!   holding an odd number of empties first (Edax's `QUADRANT_ID` parity; the rationale:
//!   in an odd region the side to move can hope to play last, Rose's "Othello: A Minute to
//!   Learn", chapter on parity), the parity kept as four bits of which each move flips one
//!   (Edax's `search->parity`);
//! - a node whose `alpha` is high enough for the number of empties (Edax's thresholds)
//!   counts the opponent's stable discs ([`stable_discs`]): the side to move can end at
//!   most 64 minus twice that many discs ahead, and where that is no more than `alpha` the
//!   node fails low at once (Edax's stability cutoff, `search_SC_NWS`);
//! - the last three empties have routines of their own (`solve_3` and `solve_2`, as Edax's
//!   of those names), which skip what cannot apply there (counting the empties, the
//!   stability cutoff, the dispatch on the number of empties): most of the solver's nodes
//!   are there, each worth a few instructions;
//! - the last empty square is scored directly from the number of discs it turns over,
//!   read from a table along each of its four lines ([`last_flip_count`]; Edax's
//!   `board_score_1` and `count_last_flip`), without computing the flips or making the
//!   move.
//!
//! Scores inside are whole discs (final difference, empties to the winner); the boundary
//! [`solve_scaled`] converts the caller's window from hundredths of a disc.

use super::bits::{
    NEIGHBOURS, final_score, flips, last_flip_count, odd_quadrants, quadrant_bit, quadrant_squares,
};
use super::stability::stable_discs;
use super::{DISC, Othello};
use crate::game::{Score, SolverNodes};

/// Larger than any disc difference.
const INF: i32 = 65;

/// The exact fail-soft value of `pos` in the caller's window `(alpha, beta)`, both in
/// hundredths of a disc (scores are then multiples of [`DISC`]). The window is widened to
/// whole discs outwards, which keeps the fail-soft guarantees: a value is a multiple of
/// `DISC`, so it is at most `alpha` exactly when it is at most `floor(alpha / DISC)` discs.
pub fn solve_scaled(
    pos: &Othello,
    alpha: Score,
    beta: Score,
    nodes: &mut SolverNodes<'_>,
) -> Score {
    let lo = alpha.div_euclid(DISC).clamp(-INF, INF);
    let hi = (-((-beta).div_euclid(DISC))).clamp(-INF, INF);
    solve(pos.player(), pos.opponent(), lo, hi, false, nodes) * DISC
}

/// The exact value in discs, fail-soft in `(alpha, beta)`, of the position with `player`
/// to move against `opponent`; `passed` when the opponent has just passed (so a second
/// pass ends the game). Every position visited with an empty square left counts one node:
/// each call, and each one-empty position reached from two empties; the full board after
/// the last move is scored, not visited (Edax's count, `COUNT_NODES 1` in its
/// src/stats.h).
pub fn solve(
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    passed: bool,
    nodes: &mut SolverNodes<'_>,
) -> i32 {
    let odd = odd_quadrants(!(player | opponent));
    solve_in(player, opponent, alpha, beta, passed, odd, nodes)
}

/// [`solve`], given the quadrants with an odd number of empty squares ([`odd_quadrants`]),
/// which each move updates by one bit instead of counting the quadrants again.
fn solve_in(
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    passed: bool,
    odd: usize,
    nodes: &mut SolverNodes<'_>,
) -> i32 {
    let empty = !(player | opponent);
    match empty.count_ones() {
        1 => {
            nodes.count += 1;
            last_square(player, opponent, empty.trailing_zeros())
        }
        2 => solve_2(player, opponent, alpha, beta, passed, nodes),
        3 => solve_3(player, opponent, alpha, beta, passed, odd, nodes),
        empties => solve_many(player, opponent, alpha, beta, passed, odd, empties, nodes),
    }
}

/// [`solve_in`] with four empty squares or more (or none): the stability cutoff, then the
/// moves in parity order.
#[allow(clippy::too_many_arguments)]
fn solve_many(
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    passed: bool,
    odd: usize,
    empties: u32,
    nodes: &mut SolverNodes<'_>,
) -> i32 {
    nodes.count += 1;
    // A search's limit reached: give up, the value discarded by the search.
    if nodes.should_stop() {
        return 0;
    }
    if let Some(bound) = stability_cutoff(player, opponent, alpha, empties) {
        return bound;
    }
    let best = best_in_parity_order(
        player,
        opponent,
        alpha,
        beta,
        odd,
        |next, mine, sq, alpha| {
            let odd = odd ^ quadrant_bit(sq);
            if empties == 4 {
                -solve_3(next, mine, -beta, -alpha, false, odd, nodes)
            } else {
                -solve_in(next, mine, -beta, -alpha, false, odd, nodes)
            }
        },
    );
    or_pass(best, player, opponent, passed, || {
        -solve_in(opponent, player, -beta, -alpha, true, odd, nodes)
    })
}

/// Three empty squares: the moves in parity order (never a stability cutoff: Edax's
/// threshold is out of reach there), each one's two-empty child solved by [`solve_2`].
fn solve_3(
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    passed: bool,
    odd: usize,
    nodes: &mut SolverNodes<'_>,
) -> i32 {
    nodes.count += 1;
    let best = best_in_parity_order(
        player,
        opponent,
        alpha,
        beta,
        odd,
        |next, mine, _, alpha| -solve_2(next, mine, -beta, -alpha, false, nodes),
    );
    or_pass(best, player, opponent, passed, || {
        -solve_3(opponent, player, -beta, -alpha, true, odd, nodes)
    })
}

/// Two empty squares, tried in square order (the parity order there: two empties
/// are both in odd quadrants or both in one even one), each move's last square scored by
/// [`last_square`] without playing it.
fn solve_2(
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    passed: bool,
    nodes: &mut SolverNodes<'_>,
) -> i32 {
    nodes.count += 1;
    let empty = !(player | opponent);
    let (x1, x2) = (empty.trailing_zeros(), 63 - empty.leading_zeros());
    let mut best = -INF;
    for (sq, last) in [(x1, x2), (x2, x1)] {
        let Some(flipped) = move_flips(sq, player, opponent) else {
            continue;
        };
        // The child, with one empty square, counted and scored here.
        nodes.count += 1;
        let value = -last_square(opponent ^ flipped, player | flipped | 1 << sq, last);
        if value >= beta {
            return value;
        }
        best = best.max(value);
    }
    or_pass(best, player, opponent, passed, || {
        -solve_2(opponent, player, -beta, -alpha, true, nodes)
    })
}

/// The fail-soft value of the best move of `player` in `(alpha, beta)`, its moves tried in
/// parity order (the empty squares of the `odd` quadrants first, then the others), each
/// valued by `child(next player, next opponent, square, alpha so far)`; `-INF` when it has
/// no move.
#[inline(always)]
fn best_in_parity_order(
    player: u64,
    opponent: u64,
    mut alpha: i32,
    beta: i32,
    odd: usize,
    mut child: impl FnMut(u64, u64, u32, i32) -> i32,
) -> i32 {
    let empty = !(player | opponent);
    let odd_squares = quadrant_squares(odd) & empty;
    let mut best = -INF;
    for region in [odd_squares, empty & !odd_squares] {
        let mut rest = region;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let Some(flipped) = move_flips(sq, player, opponent) else {
                continue;
            };
            let value = child(opponent ^ flipped, player | flipped | 1 << sq, sq, alpha);
            if value > best {
                best = value;
                if value >= beta {
                    return value;
                }
                alpha = alpha.max(value);
            }
        }
    }
    best
}

/// A node's value from its best move's (`best`), or where the side to move has none: the
/// final score if the opponent has just passed too, else the value after passing (`pass`).
#[inline(always)]
fn or_pass(best: i32, player: u64, opponent: u64, passed: bool, pass: impl FnOnce() -> i32) -> i32 {
    if best > -INF {
        best
    } else if passed {
        final_score(player, opponent)
    } else {
        pass()
    }
}

/// The discs `player` turns over by playing on `sq`, `None` when it cannot play there (no
/// opponent disc beside it: no need to look further, Edax's `NEIGHBOUR` test).
#[inline(always)]
fn move_flips(sq: u32, player: u64, opponent: u64) -> Option<u64> {
    if NEIGHBOURS[sq as usize] & opponent == 0 {
        return None;
    }
    Some(flips(sq, player, opponent)).filter(|&f| f != 0)
}

/// Edax's `NWS_STABILITY_THRESHOLD` (src/search.c): the least `alpha` at which a node with
/// that many empty squares looks for a stability cutoff (99: never, as Edax never looks with
/// 48 empties or more). Counting stable discs costs more than most nodes near the end; with
/// a low `alpha` the opponent's stable discs seldom bound the score under it.
const STABILITY_THRESHOLD: [i32; 61] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

/// The stability cutoff (Edax's `search_SC_NWS`): the opponent's stable discs stay theirs
/// to the end, so the side to move ends with at most `64 - 2 × stable` discs of difference;
/// where that is no more than `alpha`, it is the node's fail-soft value (a fail low).
#[inline]
fn stability_cutoff(player: u64, opponent: u64, alpha: i32, empties: u32) -> Option<i32> {
    stable_ceiling(player, opponent, alpha, empties).filter(|&bound| bound <= alpha)
}

/// `64 - 2 × stable`, the most discs of difference the side to move can end with, counted
/// where `alpha` reaches Edax's threshold for `empties` and the opponent holds discs enough
/// for the bound to reach `alpha`.
#[inline]
fn stable_ceiling(player: u64, opponent: u64, alpha: i32, empties: u32) -> Option<i32> {
    let threshold = STABILITY_THRESHOLD[(empties as usize).min(STABILITY_THRESHOLD.len() - 1)];
    // A cut needs at least (64 - alpha) / 2 stable discs: with fewer discs in all, the
    // opponent cannot have them, and they are not counted.
    if alpha < threshold || 2 * (opponent.count_ones() as i32) < 64 - alpha {
        return None;
    }
    Some(64 - 2 * stable_discs(opponent, player).count_ones() as i32)
}

/// [`Othello`]'s [`crate::game::Game::final_score_ceiling`]: the stability bound above the
/// dedicated solver, in hundredths of a disc, for `alpha` in the same units (whole discs
/// rounded down, as [`solve_scaled`] does).
pub fn stability_ceiling(pos: &Othello, alpha: Score) -> Option<Score> {
    let alpha = alpha.div_euclid(DISC).clamp(-INF, INF);
    let empties = pos.empties();
    stable_ceiling(pos.player(), pos.opponent(), alpha, empties).map(|discs| discs * DISC)
}

/// The final score for `player` with one empty square `sq` left: the side to move plays it
/// if it can, else the opponent does, else it stays empty (and goes to the winner). The
/// move is scored, not made, so no node is counted for the full board (as Edax counts).
fn last_square(player: u64, opponent: u64, sq: u32) -> i32 {
    let mine = player.count_ones() as i32;
    let flipped = last_flip_count(sq, player) as i32;
    if flipped != 0 {
        return 2 * (mine + flipped + 1) - 64;
    }
    let theirs = opponent.count_ones() as i32;
    let flipped = last_flip_count(sq, opponent) as i32;
    if flipped != 0 {
        return 64 - 2 * (theirs + flipped + 1);
    }
    final_score(player, opponent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation};

    /// White (`O`, not to move) holds the first two rows, 16 discs no filling can turn over;
    /// 20 empty squares.
    fn two_white_rows() -> Othello {
        let board = format!(
            "{}{}{}{}",
            "O".repeat(16),
            "X".repeat(24),
            "XXXX----",
            "-".repeat(16)
        );
        Othello::parse_position(&format!("{board} X")).expect("a valid board")
    }

    #[test]
    fn the_ceiling_is_counted_where_alpha_reaches_edax_threshold() {
        let pos = two_white_rows();
        assert_eq!(pos.empties(), 20);
        // At 20 empties Edax looks from alpha 40 discs: Black ends at most 64 - 2 × 16.
        assert_eq!(stability_ceiling(&pos, 40 * DISC), Some(32 * DISC));
        assert_eq!(pos.final_score_ceiling(45 * DISC), Some(32 * DISC));
        // Below the threshold (39.99 discs is 39 whole discs) nothing is counted.
        assert_eq!(stability_ceiling(&pos, 40 * DISC - 1), None);
        // The solver's cutoff is the ceiling where it does not exceed alpha.
        assert_eq!(
            stability_cutoff(pos.player(), pos.opponent(), 40, 20),
            Some(32)
        );
    }

    /// The stability cutoff where the bound equals alpha (Edax's `score <= alpha`): White's
    /// two full rows (16 discs no filling turns over) leave Black at most 64 - 2 × 16 = 32
    /// discs ahead. With 10 empties Edax looks from alpha 20, and White's 16 discs are just
    /// enough for a bound of 32; so at alpha 32 the root fails low at once, with 32 and one
    /// node, while at alpha 31 the bound is above alpha and the root is searched.
    #[test]
    fn a_stable_bound_equal_to_alpha_fails_low_at_once() {
        let board = format!("{}{}{}", "O".repeat(16), "X".repeat(38), "-".repeat(10));
        let pos = Othello::parse_position(&format!("{board} X")).expect("a valid board");
        let (black, white) = (pos.player(), pos.opponent());
        let mut nodes = SolverNodes::unlimited();
        let value = solve(black, white, 32, 40, false, &mut nodes);
        assert_eq!((value, nodes.count), (32, 1), "(value, nodes) at alpha 32");
        let mut nodes = SolverNodes::unlimited();
        let value = solve(black, white, 31, 40, false, &mut nodes);
        assert!(value <= 32, "{value} above the stable bound");
        assert!(
            nodes.count > 1,
            "{} node at alpha 31: the root not searched",
            nodes.count
        );
    }
}

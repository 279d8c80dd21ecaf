//! Backgammon evaluations: a pip-count race evaluation and Tesauro's pubeval. Both score
//! the position for the side to move in `(-POINT, POINT)`, inside the bounds of a finished
//! game (`±3·POINT`, or `±POINT` under win/loss scoring) that Star1 and Star2 prune with.
//! Both hint the search's move order by the evaluation of the position after each move.

use super::{BAR, Backgammon, BgMove, POINT, Scoring, pubeval_weights};
use crate::game::{Evaluator, Game, Player, Score};

/// `POINT * tanh(x)`, rounded: a monotone squash into `(-POINT, POINT)`.
pub(crate) fn squash(x: f64) -> Score {
    (f64::from(POINT - 1) * x.tanh()).round() as Score
}

pub(crate) fn bounds_of(root: &Backgammon) -> (Score, Score) {
    let most = match root.scoring() {
        Scoring::Gammons => 3 * POINT,
        Scoring::WinLoss => POINT,
    };
    (-most, most)
}

/// The value of the position after `mv` for the player who plays it.
pub(crate) fn after<E: Evaluator<Backgammon>>(eval: &E, pos: &Backgammon, mv: BgMove) -> i32 {
    let mut child = *pos;
    child.play(mv);
    let value = match child.status() {
        crate::game::Status::Over(crate::game::Outcome::Points(p)) => p,
        _ => eval.evaluate(&child),
    };
    // The child's side to move is the opponent: negate, and keep to the hint's range.
    -value / 64
}

/// The race evaluation: the side to move's lead in pips relative to the opponent's count,
/// counting 4 pips for being on roll (half an average roll of 8 1/6 pips), squashed into
/// `(-POINT, POINT)`: `POINT · tanh(8 · (opp + 4 − own) / opp)`. An 8% lead then scores
/// about 0.56 of a point (a win probability near 0.78). Once contact is over (a race) the
/// counts are Keith counts, pips plus the pips a bear-off wastes
/// ([`Backgammon::keith_count`]): by plain pips every play of a roll scored alike, and the
/// first generated, bearing off the fewest checkers, was played. (Used before the race
/// too, Keith counts made it bring builders home and leave its back checkers: it lost 2.17
/// points a game to pubeval over 400 games, against 2.06 by pips and 2.04 as now.) The
/// scale is a plain choice, not fitted: it knows nothing of contact, hits or gammons, a
/// baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct PipRace;

impl Evaluator<Backgammon> for PipRace {
    fn evaluate(&self, pos: &Backgammon) -> Score {
        let me = pos.side_to_move();
        let count = |p| {
            if pos.is_race() {
                pos.keith_count(p)
            } else {
                pos.pips(p)
            }
        };
        let own = f64::from(count(me));
        let opp = f64::from(count(me.other()));
        squash(8.0 * (opp + 4.0 - own) / opp.max(1.0))
    }

    fn order_hint(&self, pos: &Backgammon, mv: BgMove, _depth: u32) -> i32 {
        after(self, pos, mv)
    }

    fn bounds(&self, root: &Backgammon) -> Option<(Score, Score)> {
        Some(bounds_of(root))
    }
}

/// Tesauro's public evaluation function (pubeval.c, IBM Research, 1993; weights in
/// `pubeval_weights.rs`): a linear function of a raw encoding of the board after a move,
/// with separate weights for races and contact positions. It scores the position for the
/// player who just moved; plylab's value for the side to move is the negation, squashed:
/// `−POINT · tanh(pubeval / 8)`, which keeps pubeval's order of moves. The race weights are
/// chosen by the evaluated position (the original takes the position before the move).
#[derive(Clone, Copy, Debug, Default)]
pub struct Pubeval;

impl Evaluator<Backgammon> for Pubeval {
    fn evaluate(&self, pos: &Backgammon) -> Score {
        -squash(f64::from(pubeval_score(pos, pos.side_to_move().other())) / 8.0)
    }

    fn order_hint(&self, pos: &Backgammon, mv: BgMove, _depth: u32) -> i32 {
        after(self, pos, mv)
    }

    fn bounds(&self, root: &Backgammon) -> Option<(Score, Score)> {
        Some(bounds_of(root))
    }
}

/// pubeval's score of `pos` for `player` (Tesauro's "computer"), from the input vector of
/// pubeval.c's `setx`: for each of the player's points from 24 down to 1, five inputs (an
/// opposing blot; one own checker; two or more; exactly three; (n − 3)/2 beyond three),
/// then the opponent's checkers on the bar / 2 and the player's borne off / 15.
#[must_use]
pub fn pubeval_score(pos: &Backgammon, player: Player) -> f32 {
    pubeval_with(
        pos,
        player,
        &pubeval_weights::RACE,
        &pubeval_weights::CONTACT,
    )
}

/// [`pubeval_score`] with other weights of the same 122 inputs, `race` for races and
/// `contact` otherwise: the linear evaluation `crate::games::linear::backgammon` reads them
/// from a weights file, and with pubeval's own it is pubeval to the last bit (the same
/// arithmetic in the same order).
#[must_use]
pub fn pubeval_with(
    pos: &Backgammon,
    player: Player,
    race: &[f32; 122],
    contact: &[f32; 122],
) -> f32 {
    let mine = pos.row(player);
    let theirs = pos.row(player.other());
    let weights = if pos.is_race() { race } else { contact };
    let mut score = 0.0f32;
    for k in 0..24 {
        let point = 24 - k;
        let w = &weights[5 * k..5 * k + 5];
        let own = mine[point];
        if theirs[25 - point] == 1 {
            score += w[0];
        }
        if own == 1 {
            score += w[1];
        }
        if own >= 2 {
            score += w[2];
        }
        if own == 3 {
            score += w[3];
        }
        if own >= 4 {
            score += w[4] * f32::from(own - 3) / 2.0;
        }
    }
    score += weights[120] * f32::from(theirs[BAR]) / 2.0;
    score + weights[121] * f32::from(mine[0]) / 15.0
}

/// pubeval's 122 inputs for `player` (pubeval.c's `setx`), in the order of its weights:
/// [`pubeval_with`] is their dot product with the race or the contact weights (up to the
/// rounding of `f32` sums).
#[must_use]
pub fn pubeval_inputs(pos: &Backgammon, player: Player) -> [f32; 122] {
    let mine = pos.row(player);
    let theirs = pos.row(player.other());
    let mut x = [0.0f32; 122];
    for k in 0..24 {
        let point = 24 - k;
        let own = mine[point];
        x[5 * k] = f32::from(u8::from(theirs[25 - point] == 1));
        x[5 * k + 1] = f32::from(u8::from(own == 1));
        x[5 * k + 2] = f32::from(u8::from(own >= 2));
        x[5 * k + 3] = f32::from(u8::from(own == 3));
        if own >= 4 {
            x[5 * k + 4] = f32::from(own - 3) / 2.0;
        }
    }
    x[120] = f32::from(theirs[BAR]) / 2.0;
    x[121] = f32::from(mine[0]) / 15.0;
    x
}

//! Temporal-difference learning from self-play: TD(λ) (Sutton, "Learning to predict by the
//! methods of temporal differences", Machine Learning 3, 1988; as Tesauro's TD-Gammon used
//! it) and TDLeaf(λ) (J. Baxter, A. Tridgell and L. Weaver, "Learning to Play Chess Using
//! Temporal Differences", Machine Learning 40, 2000), which applies the same update to the
//! leaf of each searched position's principal variation instead of the position itself.
//!
//! For the positions `x_1 … x_N` of one game (seen by the first player), with predictions
//! `J_t = σ(w · x_t)` (the [`super::texel::sigmoid`] squashing, scale K) and the result `r`:
//!
//! ```text
//! d_t = J_{t+1} − J_t  (d_N = r − J_N),   Δw = α Σ_t ∇J_t Σ_{j ≥ t} λ^{j−t} d_j
//! ```
//!
//! A leaf where the game is over predicts its result exactly (no gradient). The update of a
//! batch of games (played in parallel with the same weights) is the mean of their `Δw`, added
//! in game order; the step is taken by Adam on `−Δw` (a per-weight step size, which the
//! features' very different ranges need; Baxter et al. tuned one rate by hand instead).

use super::LearnGame;
use super::selfplay::{PlayedGame, first_player_result};
use super::texel::sigmoid;
use crate::game::{Player, Status};

/// What one game contributes: the (negated) TD direction per weight, the summed squared
/// temporal differences and their number.
#[derive(Clone, Debug, PartialEq)]
pub struct GameUpdate {
    /// `−Δw / α` for this game, divided by its number of positions.
    pub gradient: Vec<f64>,
    /// Σ d_t².
    pub squared_error: f64,
    /// Number of temporal differences.
    pub count: usize,
}

/// The TD(λ) update of one game: `leaf` picks TDLeaf (principal-variation leaves) or plain
/// TD (the positions themselves). With `per_player`, each position's temporal difference is
/// taken to the next position with the same side to move (or the result), so that each
/// player's positions form a sequence of their own: for features that describe a position
/// from one side only, as pubeval's inputs describe it from the player who just moved
/// (an opponent's made points are not among them), consecutive positions of the two players
/// are predictions of different things, and each player's own are not.
#[must_use]
pub fn game_update<G: LearnGame>(
    game: &PlayedGame<G>,
    w: &[f64],
    k: f64,
    lambda: f64,
    leaf: bool,
    per_player: bool,
) -> GameUpdate {
    let n = w.len();
    let c = k * std::f64::consts::LN_10 / 400.0;
    let mut preds = Vec::with_capacity(game.positions.len());
    let mut grads: Vec<Vec<f64>> = Vec::with_capacity(game.positions.len());
    let mut x = vec![0.0; n];
    let states = if leaf { &game.leaves } else { &game.positions };
    for s in states {
        if let Status::Over(outcome) = s.status() {
            preds.push(first_player_result::<G>(outcome, s.side_to_move()));
            grads.push(vec![0.0; n]);
            continue;
        }
        s.gradient(&mut x);
        let sign = if s.side_to_move() == Player::First {
            1.0
        } else {
            -1.0
        };
        x.iter_mut().for_each(|v| *v *= sign);
        let q: f64 = w.iter().zip(&x).map(|(a, b)| a * b).sum();
        let j = sigmoid(k, q);
        preds.push(j);
        grads.push(x.iter().map(|v| j * (1.0 - j) * c * v).collect());
    }
    let t_max = preds.len();
    let mut update = GameUpdate {
        gradient: vec![0.0; n],
        squared_error: 0.0,
        count: t_max,
    };
    if t_max == 0 {
        return update;
    }
    // One sequence (index 0) or one per side to move (0 first player, 1 second): each
    // keeps its eligibility trace and the prediction that follows.
    let mut trace = [0.0; 2];
    let mut next: [Option<f64>; 2] = [None; 2];
    for t in (0..t_max).rev() {
        let seq = usize::from(per_player && states[t].side_to_move() == Player::Second);
        let d = next[seq].unwrap_or(game.result) - preds[t];
        next[seq] = Some(preds[t]);
        update.squared_error += d * d;
        trace[seq] = d + lambda * trace[seq];
        for (g, dj) in update.gradient.iter_mut().zip(&grads[t]) {
            *g -= dj * trace[seq];
        }
    }
    let len = t_max as f64;
    update.gradient.iter_mut().for_each(|g| *g /= len);
    update
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::connect4::Connect4;
    use crate::games::linear::connect4::WEIGHT_NAMES;
    use crate::learn::selfplay::{SelfPlay, play_game};

    #[test]
    fn td_update_points_towards_the_result() {
        // A decided game: the update, followed a little, brings the predictions of the
        // positions nearer the result (the summed squared TD error falls).
        let w0 = vec![1.0, 0.0, 0.0, 0.0, 0.0];
        let sp = SelfPlay {
            games: 1,
            depth: 2,
            random_plies: 6,
            max_plies: 42,
        };
        let eval = <Connect4 as LearnGame>::evaluator(&w0);
        let game = (0..20)
            .map(|i| play_game::<Connect4>(&eval, &sp, 5, i))
            .find(|g| g.result != 0.5)
            .expect("a decisive game");
        assert_eq!(w0.len(), WEIGHT_NAMES.len());
        let k = 20.0;
        for lambda in [0.0, 0.7, 1.0] {
            let u = game_update(&game, &w0, k, lambda, false, false);
            let w1: Vec<f64> = w0
                .iter()
                .zip(&u.gradient)
                .map(|(w, g)| w - 0.05 * g)
                .collect();
            let err = |w: &[f64]| {
                game.positions
                    .iter()
                    .map(|p| {
                        let mut x = vec![0.0; 5];
                        p.gradient(&mut x);
                        let s = if p.side_to_move() == Player::First {
                            1.0
                        } else {
                            -1.0
                        };
                        let q: f64 = w.iter().zip(&x).map(|(a, b)| a * b * s).sum();
                        (game.result - sigmoid(k, q)).powi(2)
                    })
                    .sum::<f64>()
            };
            if lambda == 1.0 {
                // TD(1) is the gradient of the squared error to the final result.
                assert!(err(&w1) < err(&w0), "lambda {lambda}");
            }
            assert!(u.count > 0);
        }
    }
}

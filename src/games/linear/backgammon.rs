//! The backgammon linear evaluation: Tesauro's pubeval inputs with learnable weights.
//!
//! pubeval (G. Tesauro, pubeval.c, IBM Research, 1993; `crate::games::backgammon::Pubeval`)
//! is itself a linear evaluation: 122 inputs of the board after a move (for each of the
//! mover's points from 24 down to 1: an opposing blot there, exactly one own checker, two
//! or more, exactly three, (n − 3)/2 beyond three; then the opponent's checkers on the bar
//! / 2 and the mover's checkers borne off / 15), weighed by one of two weight vectors,
//! one for races (no contact left) and one for contact positions. Here the two vectors are
//! the 244 weights of a weights file, named `race_<point>_<input>` and
//! `contact_<point>_<input>` (`opp_blot`, `one`, `made`, `three`, `extra`) and
//! `race_opp_bar`, `race_off`, `contact_opp_bar`, `contact_off`. With pubeval's published
//! weights (weights/backgammon-pubeval.toml) the evaluation is pubeval to the last bit
//! (tested); `plylab learn` fits others by TD(λ) from self-play, as Tesauro's TD-Gammon
//! learned (G. Tesauro, "Temporal difference learning and TD-Gammon", CACM 38(3), 1995).
//!
//! Like [`crate::games::backgammon::Pubeval`], the value of a position for the side to move
//! (the player to roll) is `−POINT · tanh(s / 8)` with `s` the score of the inputs of the
//! player who just moved, so learned weights keep pubeval's scale and sign.

use crate::game::{Evaluator, Game, Player, Score};
use crate::games::backgammon::{
    Backgammon, BgMove, PUBEVAL_CONTACT, PUBEVAL_RACE, after, bounds_of, pubeval_inputs,
    pubeval_with, squash,
};

/// Inputs per weight vector (pubeval's).
pub const INPUTS: usize = 122;
/// Number of weights: a race vector and a contact vector.
pub const WEIGHTS: usize = 2 * INPUTS;

/// Declares the weight names from the list of points, 24 down to 1 (pubeval's order).
macro_rules! names {
    ($($p:literal),*) => {
        /// Weight names, in order: the race vector, then the contact vector, each in
        /// pubeval's input order.
        pub const WEIGHT_NAMES: [&str; WEIGHTS] = [
            $(
                concat!("race_", $p, "_opp_blot"),
                concat!("race_", $p, "_one"),
                concat!("race_", $p, "_made"),
                concat!("race_", $p, "_three"),
                concat!("race_", $p, "_extra"),
            )*
            "race_opp_bar",
            "race_off",
            $(
                concat!("contact_", $p, "_opp_blot"),
                concat!("contact_", $p, "_one"),
                concat!("contact_", $p, "_made"),
                concat!("contact_", $p, "_three"),
                concat!("contact_", $p, "_extra"),
            )*
            "contact_opp_bar",
            "contact_off",
        ];
    };
}

names!(
    24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1
);

/// pubeval's published weights as one vector (race, then contact), exactly as `f64`.
#[must_use]
pub fn pubeval_weights() -> [f64; WEIGHTS] {
    let mut w = [0.0; WEIGHTS];
    for i in 0..INPUTS {
        w[i] = f64::from(PUBEVAL_RACE[i]);
        w[INPUTS + i] = f64::from(PUBEVAL_CONTACT[i]);
    }
    w
}

/// The linear evaluation with its race and contact weights (as `f32`, pubeval's
/// arithmetic).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BackgammonLinear {
    race: [f32; INPUTS],
    contact: [f32; INPUTS],
}

impl BackgammonLinear {
    /// The evaluator with `weights` in [`WEIGHT_NAMES`] order.
    ///
    /// # Panics
    /// If `weights` does not hold [`WEIGHTS`] values.
    #[must_use]
    pub fn from_weights(weights: &[f64]) -> Self {
        assert_eq!(weights.len(), WEIGHTS, "backgammon linear weights");
        let mut e = Self {
            race: [0.0; INPUTS],
            contact: [0.0; INPUTS],
        };
        for i in 0..INPUTS {
            e.race[i] = weights[i] as f32;
            e.contact[i] = weights[INPUTS + i] as f32;
        }
        e
    }

    /// The score `s` of `pos` for `player` (pubeval's, with these weights).
    #[must_use]
    pub fn score(&self, pos: &Backgammon, player: Player) -> f32 {
        pubeval_with(pos, player, &self.race, &self.contact)
    }
}

impl Evaluator<Backgammon> for BackgammonLinear {
    /// As [`crate::games::backgammon::Pubeval`]: `−POINT · tanh(s / 8)` for the side to move,
    /// `s` the score of the player who just moved.
    fn evaluate(&self, pos: &Backgammon) -> Score {
        -squash(f64::from(self.score(pos, pos.side_to_move().other())) / 8.0)
    }

    fn order_hint(&self, pos: &Backgammon, mv: BgMove, _depth: u32) -> i32 {
        after(self, pos, mv)
    }

    fn bounds(&self, root: &Backgammon) -> Option<(Score, Score)> {
        Some(bounds_of(root))
    }
}

/// `x` with `q = w · x` the value of `pos` for its side to move before squashing (`−s`):
/// the inputs of the player who just moved, negated, in the race or the contact half.
pub fn gradient(pos: &Backgammon, x: &mut [f64]) {
    x.iter_mut().for_each(|v| *v = 0.0);
    let inputs = pubeval_inputs(pos, pos.side_to_move().other());
    let offset = if pos.is_race() { 0 } else { INPUTS };
    for (v, &i) in x[offset..offset + INPUTS].iter_mut().zip(&inputs) {
        *v = -f64::from(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Status, Weight};
    use crate::games::backgammon::{Pubeval, pubeval_score};
    use crate::games::linear::{LinearKind, read_weights};
    use crate::rng::XorShift;

    /// Positions of random games: every chance node and player node on the way.
    fn random_positions(seed: u64, n: usize) -> Vec<Backgammon> {
        let mut rng = XorShift::new(seed);
        let mut pos = Backgammon::default();
        let (mut moves, mut rolls): (Vec<BgMove>, Vec<(BgMove, Weight)>) = (vec![], vec![]);
        let mut out = Vec::new();
        while out.len() < n {
            if pos.status() != Status::Ongoing {
                pos = Backgammon::default();
            }
            out.push(pos);
            if pos.is_chance() {
                rolls.clear();
                pos.chance_outcomes(&mut rolls);
                pos.play(rolls[rng.below(rolls.len() as u64) as usize].0);
            } else {
                moves.clear();
                pos.generate_moves(&mut moves);
                pos.play(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        out
    }

    #[test]
    fn names_are_pubeval_inputs() {
        assert_eq!(WEIGHT_NAMES[0], "race_24_opp_blot");
        assert_eq!(WEIGHT_NAMES[119], "race_1_extra");
        assert_eq!(WEIGHT_NAMES[121], "race_off");
        assert_eq!(WEIGHT_NAMES[122], "contact_24_opp_blot");
        assert_eq!(WEIGHT_NAMES[243], "contact_off");
        let mut sorted = WEIGHT_NAMES.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), WEIGHTS);
    }

    /// The committed file of pubeval's weights is pubeval: the same weights to the bit and
    /// the same evaluation on every position of random games; and the gradient is the
    /// evaluation's (`w · x = −s`).
    #[test]
    fn the_pubeval_weights_file_is_pubeval() {
        let file = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/weights/backgammon-pubeval.toml"
        );
        let w = read_weights(std::path::Path::new(file), Some(LinearKind::Backgammon))
            .expect("weights/backgammon-pubeval.toml");
        let linear = BackgammonLinear::from_weights(&w.values);
        assert_eq!(linear.race, PUBEVAL_RACE);
        assert_eq!(linear.contact, PUBEVAL_CONTACT);
        let mut x = vec![0.0; WEIGHTS];
        let (mut races, mut contacts) = (0, 0);
        for pos in random_positions(11, 6000) {
            assert_eq!(linear.evaluate(&pos), Pubeval.evaluate(&pos), "{pos}");
            let mover = pos.side_to_move().other();
            assert_eq!(linear.score(&pos, mover), pubeval_score(&pos, mover));
            gradient(&pos, &mut x);
            let q: f64 = w.values.iter().zip(&x).map(|(a, b)| a * b).sum();
            let s = f64::from(pubeval_score(&pos, mover));
            assert!((q + s).abs() < 1e-4 * (1.0 + s.abs()), "{pos}: {q} vs {s}");
            if pos.is_race() {
                races += 1;
            } else {
                contacts += 1;
            }
        }
        assert!(races > 100 && contacts > 100, "{races} races, {contacts}");
    }
}

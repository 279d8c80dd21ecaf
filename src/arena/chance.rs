//! Matches of games with chance (backgammon): seeded dice shared by the two games of a pair,
//! and points per game with a 95% interval.
//!
//! **Dice.** The arena, not a player, makes every chance move. The `k`-th chance node of a
//! game takes the `k`-th draw of a generator seeded by the match seed and the round (the
//! game pair's index, [`dice_seed`]); each draw picks an outcome by its weight
//! ([`Dice::roll`]: for backgammon, uniform over the 36 ordered rolls). Both games of a pair
//! therefore see the same sequence of rolls with the colours swapped: what one player rolled
//! in the first game, the other rolls in the second (duplicate dice, the usual way to take
//! the luck of the dice out of a comparison; Tesauro 1995 and the GNU Backgammon rollouts
//! use the same idea). Every pairing of the same round sees the same rolls too.
//!
//! **Points.** A backgammon game is worth 1, 2 or 3 points (a single game, a gammon, a
//! backgammon) to its winner, recorded in games.csv as the game's `reason`; a forfeit (an
//! engine that crashed, hung or moved illegally) counts 1 point. Per pairing, from the
//! first-named player's side: the mean points per game, and its 95% interval from the
//! spread of the pairs' net points (each pair is one observation, so the interval reflects
//! what the pairing removes: with the same dice both ways, luck cancels); without pairs,
//! from the games. `points.csv` holds these figures and `plylab plot` draws them.

use std::fmt::Write as _;
use std::path::Path;

use super::play::Winner;
use super::record::GameRow;
use super::spec::MatchPlan;
use crate::game::{Game, Weight};
use crate::lab::spec::{GameKind, SearcherSpec, SearcherVariant, Source, SpecError};
use crate::rng::{XorShift, mix};

/// The seed of the dice of round `round` of a match seeded `seed`.
#[must_use]
pub fn dice_seed(seed: u64, round: u32) -> u64 {
    mix(seed ^ mix(u64::from(round) ^ 0xD1CE_D1CE))
}

/// The dice of one game: a seeded generator drawn once per chance node.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: XorShift,
}

impl Dice {
    /// Dice seeded by [`dice_seed`].
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self {
            rng: XorShift::new(seed),
        }
    }

    /// An outcome of the chance node `pos`, drawn by the weights (one draw whatever the
    /// position, so that the `k`-th roll of two games is the same draw).
    ///
    /// # Panics
    /// If `pos` is not a chance node (it has no outcomes).
    pub fn roll<G: Game>(&mut self, pos: &G) -> G::Move {
        let mut outcomes: Vec<(G::Move, Weight)> = Vec::new();
        pos.chance_outcomes(&mut outcomes);
        let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
        let mut pick = self.rng.below(total.max(1));
        for &(mv, w) in &outcomes {
            if pick < u64::from(w) {
                return mv;
            }
            pick -= u64::from(w);
        }
        outcomes.last().expect("a chance node has outcomes").0
    }
}

/// The reason recorded for a backgammon game won by `points` points (1, 2 or 3).
#[must_use]
pub fn reason_of_points(points: u32) -> &'static str {
    match points {
        3 => "backgammon",
        2 => "gammon",
        _ => "single game",
    }
}

/// The points a game was worth to its winner, from its reason (1 for anything but a
/// gammon or a backgammon, forfeits included); 0 for a draw.
#[must_use]
pub fn points_of(row: &GameRow) -> u32 {
    match (row.winner, row.reason.as_str()) {
        (Winner::Draw, _) => 0,
        (_, "backgammon") => 3,
        (_, "gammon") => 2,
        _ => 1,
    }
}

/// Net points of a game for the player `name` (positive if it won).
fn net_points(row: &GameRow, name: &str) -> Option<f64> {
    let p = f64::from(points_of(row));
    let first = row.first == name;
    if !first && row.second != name {
        return None;
    }
    Some(match row.winner {
        Winner::Draw => 0.0,
        Winner::First if first => p,
        Winner::Second if !first => p,
        _ => -p,
    })
}

/// Points per game of one pairing, from the first-named player's side.
#[derive(Clone, Debug, PartialEq)]
pub struct PointsStanding {
    /// The player.
    pub player: String,
    /// The opponent.
    pub opponent: String,
    /// Games counted.
    pub games: usize,
    /// Complete pairs counted (0 without pairs).
    pub pairs: usize,
    /// Wins, draws and losses of the player.
    pub wdl: [usize; 3],
    /// The player's wins by 1, 2 and 3 points.
    pub won_by: [usize; 3],
    /// The opponent's wins by 1, 2 and 3 points.
    pub lost_by: [usize; 3],
    /// Mean net points per game.
    pub ppg: f64,
    /// Its 95% interval (normal approximation), where at least two units were observed.
    pub interval: Option<(f64, f64)>,
}

/// 95% two-sided normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// The standings of every pairing: points per game and its interval, per pair where games
/// were played in pairs (a pair counts once both its games are in), else per game.
#[must_use]
pub fn points_standings(plan: &MatchPlan, rows: &[GameRow]) -> Vec<PointsStanding> {
    (0..plan.pairings.len())
        .map(|i| {
            let (a, b) = plan.pairings[i];
            let (player, opponent) = (&plan.players[a].name, &plan.players[b].name);
            let games: Vec<&GameRow> = rows.iter().filter(|r| r.pairing == i).collect();
            let mut s = PointsStanding {
                player: player.clone(),
                opponent: opponent.clone(),
                games: games.len(),
                pairs: 0,
                wdl: [0; 3],
                won_by: [0; 3],
                lost_by: [0; 3],
                ppg: 0.0,
                interval: None,
            };
            let mut units = Vec::new();
            for r in &games {
                let net = net_points(r, player).unwrap_or(0.0);
                let p = points_of(r) as usize;
                match net.partial_cmp(&0.0) {
                    Some(std::cmp::Ordering::Greater) => {
                        s.wdl[0] += 1;
                        s.won_by[p - 1] += 1;
                    }
                    Some(std::cmp::Ordering::Less) => {
                        s.wdl[2] += 1;
                        s.lost_by[p - 1] += 1;
                    }
                    _ => s.wdl[1] += 1,
                }
                if !plan.pairs {
                    units.push(net);
                }
            }
            if plan.pairs {
                let mut rounds: Vec<u32> = games.iter().map(|r| r.round).collect();
                rounds.sort_unstable();
                rounds.dedup();
                for round in rounds {
                    let pair: Vec<f64> = games
                        .iter()
                        .filter(|r| r.round == round)
                        .filter_map(|r| net_points(r, player))
                        .collect();
                    if pair.len() == 2 {
                        // The pair's mean per game, so that the unit is points per game.
                        units.push((pair[0] + pair[1]) / 2.0);
                    }
                }
                s.pairs = units.len();
            }
            let n = units.len() as f64;
            if n > 0.0 {
                s.ppg = units.iter().sum::<f64>() / n;
            }
            if units.len() >= 2 {
                let var = units.iter().map(|u| (u - s.ppg).powi(2)).sum::<f64>() / (n - 1.0);
                let half = Z95 * (var / n).sqrt();
                s.interval = Some((s.ppg - half, s.ppg + half));
            }
            s
        })
        .collect()
}

/// The columns of points.csv.
pub const POINTS_COLUMNS: [&str; 16] = [
    "player",
    "opponent",
    "games",
    "pairs",
    "wins",
    "draws",
    "losses",
    "won_single",
    "won_gammon",
    "won_backgammon",
    "lost_single",
    "lost_gammon",
    "lost_backgammon",
    "points_per_game",
    "ppg_lower",
    "ppg_upper",
];

/// Writes `out/points.csv` and returns the markdown section for summary.md; nothing (an
/// empty string) for a game without chance.
///
/// # Errors
/// If points.csv cannot be written.
pub fn write_points(plan: &MatchPlan, out: &Path, rows: &[GameRow]) -> std::io::Result<String> {
    if !plan.game.has_chance() {
        return Ok(String::new());
    }
    let standings = points_standings(plan, rows);
    let path = out.join("points.csv");
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(POINTS_COLUMNS)
        .map_err(std::io::Error::other)?;
    let mut md = String::from(
        "## Points per game\n\nEach row from the first-named player's side: net points per game \
         (1 a single game, 2 a gammon, 3 a backgammon), 95% interval over the game pairs \
         (the same dice both ways). Dice are seeded by the match seed and the pair.\n\n\
         | player | opponent | games | W / L | won 1 / 2 / 3 | lost 1 / 2 / 3 | points per game, 95% |\n\
         |---|---|---:|---|---|---|---|\n",
    );
    for s in &standings {
        let (lo, hi) = s.interval.map_or((String::new(), String::new()), |(l, h)| {
            (format!("{l:.4}"), format!("{h:.4}"))
        });
        let mut fields = vec![
            s.player.clone(),
            s.opponent.clone(),
            s.games.to_string(),
            s.pairs.to_string(),
        ];
        fields.extend(
            s.wdl
                .iter()
                .chain(&s.won_by)
                .chain(&s.lost_by)
                .map(usize::to_string),
        );
        fields.extend([format!("{:.4}", s.ppg), lo, hi]);
        w.write_record(&fields).map_err(std::io::Error::other)?;
        let interval = s
            .interval
            .map_or_else(String::new, |(l, h)| format!(" [{l:+.3}, {h:+.3}]"));
        let by = |v: &[usize; 3]| format!("{} / {} / {}", v[0], v[1], v[2]);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} / {} | {} | {} | {:+.3}{interval} |",
            s.player,
            s.opponent,
            s.games,
            s.wdl[0],
            s.wdl[2],
            by(&s.won_by),
            by(&s.lost_by),
            s.ppg
        );
    }
    let csv = w.into_inner().map_err(std::io::Error::other)?;
    crate::output::replace_bytes(&path, &csv)?;
    md.push_str("\n![Points per game of each pairing with its 95% interval](points.svg)\n\n");
    Ok(md)
}

/// A plylab player of a game with chance must search chance nodes (expectiminimax, Star1,
/// Star2, or a Monte Carlo search, which samples them), and a player of a deterministic
/// game must not. (Which evaluations a player may name is `check_eval`'s: without `eval`,
/// a backgammon player evaluates with pubeval, as in experiments.)
///
/// # Errors
/// A [`SpecError`] at the searcher's label.
pub(crate) fn check_players(
    src: &Source,
    spec: &SearcherSpec,
    game: GameKind,
    variants: &[SearcherVariant],
) -> Result<(), SpecError> {
    for v in variants {
        let searches_chance = v.mcts.is_some() || v.config.algorithm.searches_chance();
        let only_chance = v.mcts.is_none() && v.config.algorithm.searches_chance();
        let why = if game.has_chance() && !searches_chance {
            format!(
                "{game} has chance nodes, which `{}` (algorithm {}) cannot search: use \
                 expectiminimax, star1, star2 or a Monte Carlo search",
                v.label,
                v.algorithm_name()
            )
        } else if !game.has_chance() && only_chance {
            format!(
                "`{}` (algorithm {}) searches games with chance nodes, and {game} has none",
                v.label,
                v.algorithm_name()
            )
        } else {
            continue;
        };
        return Err(src.at_key_of(&spec.label, "algorithm", why));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::backgammon::{Backgammon, BgMove};

    #[test]
    fn the_same_seed_rolls_the_same_dice_and_all_36_rolls_come_up_evenly() {
        let pos = Backgammon::default();
        let mut a = Dice::new(dice_seed(7, 3));
        let mut b = Dice::new(dice_seed(7, 3));
        let mut counts = std::collections::HashMap::new();
        for _ in 0..36_000 {
            let r = a.roll(&pos);
            assert_eq!(r, b.roll(&pos));
            *counts.entry(r).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 21);
        for (roll, n) in counts {
            let BgMove::Roll(x, y) = roll else {
                panic!("a roll")
            };
            let expected = if x == y { 1000.0 } else { 2000.0 };
            assert!(
                (f64::from(n) - expected).abs() < 5.0 * expected.sqrt(),
                "{roll}: {n}"
            );
        }
        let mut c = Dice::new(dice_seed(7, 4));
        let other: Vec<_> = (0..20).map(|_| c.roll(&pos)).collect();
        let mut a = Dice::new(dice_seed(7, 3));
        let same: Vec<_> = (0..20).map(|_| a.roll(&pos)).collect();
        assert_ne!(other, same, "another round rolls other dice");
    }
}

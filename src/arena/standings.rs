//! Standings: per pairing (from the first-named player's side) and per player (all its
//! games), with the statistics of [`crate::lab::elo`]: W/D/L, score, draw ratio, Elo with a
//! 95% interval from the trinomial (per game) and pentanomial (per game pair) models, LOS
//! (trinomial), and the SPRT's log-likelihood ratio and verdict per pairing (pentanomial
//! with pairs, else trinomial; fastchess's normalized model).

use std::collections::HashMap;

use super::record::GameRow;
use super::spec::MatchPlan;
use crate::lab::elo::{Model, Pentanomial, Sprt, Trinomial, Verdict};

/// The columns of standings.csv, in order.
pub const COLUMNS: [&str; 18] = [
    "kind",
    "player",
    "opponent",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "draw_ratio",
    "elo",
    "elo_lower",
    "elo_upper",
    "penta_elo",
    "penta_elo_lower",
    "penta_elo_upper",
    "los",
    "llr",
    "sprt",
];

/// The 95% confidence level of every interval.
const CONFIDENCE: f64 = 0.95;

/// Results of one player against one opponent, or against everyone.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// `pairing` or `player`.
    pub kind: &'static str,
    /// The player whose side the counts take.
    pub player: String,
    /// The opponent (empty for a player's row).
    pub opponent: String,
    /// Game counts.
    pub games: Trinomial,
    /// Complete game pairs.
    pub pairs: Pentanomial,
    /// The SPRT's log-likelihood ratio and verdict (pairings, with `[match.sprt]`).
    pub sprt: Option<(f64, Option<Verdict>)>,
}

impl Standing {
    /// The row's fields, in [`COLUMNS`] order (empty where a figure does not exist).
    #[must_use]
    pub fn fields(&self) -> Vec<String> {
        let t = &self.games;
        let opt = |x: Option<f64>, digits: usize| x.map_or_else(String::new, |v| fmt(v, digits));
        let tri = t.elo_interval(CONFIDENCE);
        let penta = (self.pairs.pairs() > 0).then_some(&self.pairs);
        let penta_ci = penta.and_then(|p| p.elo_interval(CONFIDENCE));
        let (llr, verdict) = match self.sprt {
            Some((llr, v)) => (fmt(llr, 3), verdict_text(v).to_owned()),
            None => (String::new(), String::new()),
        };
        vec![
            self.kind.to_owned(),
            self.player.clone(),
            self.opponent.clone(),
            t.games().to_string(),
            t.wins.to_string(),
            t.draws.to_string(),
            t.losses.to_string(),
            opt(t.score(), 4),
            opt(t.draw_ratio(), 4),
            opt(t.elo(), 1),
            opt(tri.map(|i| i.lower), 1),
            opt(tri.map(|i| i.upper), 1),
            opt(penta.and_then(Pentanomial::elo), 1),
            opt(penta_ci.map(|i| i.lower), 1),
            opt(penta_ci.map(|i| i.upper), 1),
            opt((t.games() > 0).then(|| t.los()), 4),
            llr,
            verdict,
        ]
    }
}

/// `digits` decimals, or an empty cell where the value is undefined: the Elo of a 100% or 0%
/// score, or an interval without variance to base it on, is infinite (the columns'
/// contract with `plot::arena`, which reads empty cells as "undefined").
fn fmt(x: f64, digits: usize) -> String {
    if x.is_finite() {
        // + 0.0 turns −0 into 0.
        format!("{:.digits$}", x + 0.0)
    } else {
        String::new()
    }
}

/// The `sprt` column's words.
#[must_use]
pub fn verdict_text(v: Option<Verdict>) -> &'static str {
    match v {
        Some(Verdict::AcceptH0) => "H0 accepted",
        Some(Verdict::AcceptH1) => "H1 accepted",
        None => "continue",
    }
}

/// Counts for `player` over `rows` (the games it played, against `opponent` if given).
fn tally<'a>(rows: impl Iterator<Item = &'a GameRow>, player: &str) -> (Trinomial, Pentanomial) {
    let mut t = Trinomial::default();
    // (pairing, round) -> scores of the pair's games so far.
    let mut pairs: HashMap<(usize, u32), Vec<f64>> = HashMap::new();
    for row in rows {
        let Some(s) = row.score_of(player) else {
            continue;
        };
        if s > 0.75 {
            t.wins += 1;
        } else if s < 0.25 {
            t.losses += 1;
        } else {
            t.draws += 1;
        }
        pairs.entry((row.pairing, row.round)).or_default().push(s);
    }
    (t, pentanomial(pairs.values().filter(|s| s.len() == 2)))
}

/// Pentanomial counts of complete pairs (two scores each).
fn pentanomial<'a>(pairs: impl Iterator<Item = &'a Vec<f64>>) -> Pentanomial {
    let mut p = Pentanomial::default();
    for scores in pairs {
        match ((scores[0] + scores[1]) * 2.0).round() as u32 {
            0 => p.ll += 1,
            1 => p.ld += 1,
            2 => p.dd_or_wl += 1,
            3 => p.wd += 1,
            _ => p.ww += 1,
        }
    }
    p
}

/// The SPRT's LLR and verdict for a pairing's counts: pentanomial when the match plays
/// pairs, trinomial otherwise; fastchess's normalized model.
#[must_use]
pub fn sprt_state(
    sprt: &Sprt,
    pairs_played: bool,
    t: &Trinomial,
    p: &Pentanomial,
) -> (f64, Option<Verdict>) {
    let llr = if pairs_played {
        sprt.llr_pentanomial(p, Model::Normalized)
    } else {
        sprt.llr_trinomial(t, Model::Normalized)
    };
    (llr, sprt.verdict(llr))
}

/// The standing of pairing `index` from `rows`.
#[must_use]
pub fn pairing_standing(plan: &MatchPlan, index: usize, rows: &[GameRow]) -> Standing {
    let (a, b) = plan.pairings[index];
    let player = &plan.players[a].name;
    let (games, pairs) = tally(rows.iter().filter(|r| r.pairing == index), player);
    Standing {
        kind: "pairing",
        player: player.clone(),
        opponent: plan.players[b].name.clone(),
        sprt: plan
            .sprt
            .map(|s| sprt_state(&s, plan.pairs, &games, &pairs)),
        games,
        pairs,
    }
}

/// Every pairing's standing, then every player's.
#[must_use]
pub fn standings(plan: &MatchPlan, rows: &[GameRow]) -> Vec<Standing> {
    let mut out: Vec<Standing> = (0..plan.pairings.len())
        .map(|i| pairing_standing(plan, i, rows))
        .collect();
    for p in &plan.players {
        let (games, pairs) = tally(rows.iter(), &p.name);
        out.push(Standing {
            kind: "player",
            player: p.name.clone(),
            opponent: String::new(),
            games,
            pairs,
            sprt: None,
        });
    }
    out
}

/// Writes standings.csv (whole or not at all).
pub fn write_csv(path: &std::path::Path, standings: &[Standing]) -> Result<(), csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS)?;
    for s in standings {
        w.write_record(s.fields())?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    crate::output::replace_bytes(path, &bytes)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each pair outcome lands in its own count, whichever game of the pair scored what.
    #[test]
    fn pairs_are_counted_by_their_total_score() {
        let mut pairs: Vec<Vec<f64>> = vec![vec![0.0, 0.0]];
        pairs.extend([[0.0, 0.5], [0.5, 0.0]].map(Vec::from));
        pairs.extend([[0.5, 0.5], [1.0, 0.0], [0.0, 1.0]].map(Vec::from));
        pairs.extend((0..4).map(|i| {
            if i % 2 == 0 {
                vec![1.0, 0.5]
            } else {
                vec![0.5, 1.0]
            }
        }));
        pairs.extend((0..5).map(|_| vec![1.0, 1.0]));
        let counts = pentanomial(pairs.iter());
        let expected = Pentanomial {
            ll: 1,
            ld: 2,
            dd_or_wl: 3,
            wd: 4,
            ww: 5,
        };
        assert_eq!(counts, expected);
    }
}

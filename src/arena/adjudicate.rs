//! cutechess-cli's game adjudication and fixed time per move, as the arena file gives them
//! (`[match]` keys `draw_adjudication`, `resign_adjudication`, `st`).
//!
//! The rules follow cutechess-cli's `GameAdjudicator` (projects/lib/src/gameadjudicator.cpp):
//! after every move the mover's score (its own view, in centipawns) is counted.
//!
//! - **Draw** (`-draw movenumber=N movecount=C score=S`): a run of consecutive plies whose
//!   scores are all within S of zero; the game is drawn once the run is at least 2C plies
//!   long and at least N full moves (2N plies, counted from the opening) have been played.
//! - **Resign** (`-resign movecount=C score=S twosided=B`): per side, a run of its own
//!   consecutive moves whose scores are all at most −S; the side loses once its run is C
//!   long. With `twosided`, the opponent's last C moves must also all have scored at least
//!   +S.
//!
//! The draw rule is looked at first, then the resign rule, as `addEval` does. A move without
//! a score (a book move, a player that reports none) ends the draw run and the mover's own
//! runs, as a move of depth 0 does in cutechess-cli; the opponent's runs go on. `movenumber`
//! is at least 1: cutechess-cli reads `-draw movenumber=0` as draw adjudication off, which
//! here is leaving `draw_adjudication` out.

use std::time::Duration;

use super::spec::{
    DrawAdjudication, DrawAdjudicationSpec, MatchSpec, PlayerKind, ResignAdjudication,
    ResignAdjudicationSpec, Rules, TimeControl,
};
use crate::lab::spec::{SearcherSpec, Source, SpecError};
use crate::search::Limits;

/// The verdict of an adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A draw (`draw_adjudication`).
    Draw,
    /// A win for side 0 (first) or 1 (second) (`resign_adjudication`).
    Win(usize),
}

/// The runs of scores a game's adjudication counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Adjudicator {
    draw: Option<DrawAdjudication>,
    resign: Option<ResignAdjudication>,
    /// Consecutive plies with a score within the draw score.
    drawish: u32,
    /// Per side: its consecutive moves scoring at most −score.
    losing: [u32; 2],
    /// Per side: its consecutive moves scoring at least +score.
    winning: [u32; 2],
}

impl Adjudicator {
    /// The adjudication of `rules`.
    #[must_use]
    pub fn new(rules: &Rules) -> Self {
        Self {
            draw: rules.draw,
            resign: rules.resign,
            ..Self::default()
        }
    }

    /// Counts the move `side` just played, with `score` (its own view; `None` when it
    /// reported none) and `plies` played since the opening (this move included).
    pub fn after_move(&mut self, side: usize, score: Option<i32>, plies: u32) -> Option<Verdict> {
        let Some(score) = score else {
            self.drawish = 0;
            self.losing[side] = 0;
            self.winning[side] = 0;
            return None;
        };
        let bump = |run: &mut u32, hit: bool| *run = if hit { *run + 1 } else { 0 };
        if let Some(d) = self.draw {
            bump(
                &mut self.drawish,
                score.unsigned_abs() <= d.score.unsigned_abs(),
            );
            if plies / 2 >= d.movenumber && self.drawish >= 2 * d.movecount {
                return Some(Verdict::Draw);
            }
        }
        if let Some(r) = self.resign {
            bump(&mut self.losing[side], score <= -r.score);
            bump(&mut self.winning[side], score >= r.score);
            let loser_done = self.losing[side] >= r.movecount;
            let winner_agrees = !r.twosided || self.winning[1 - side] >= r.movecount;
            if loser_done && winner_agrees {
                return Some(Verdict::Win(1 - side));
            }
        }
        None
    }
}

/// `draw_adjudication` and `resign_adjudication`, checked.
pub(crate) fn parse(
    src: &Source,
    m: &MatchSpec,
) -> Result<(Option<DrawAdjudication>, Option<ResignAdjudication>), SpecError> {
    let draw = match &m.draw_adjudication {
        None => None,
        Some(d) => Some(draw(src, d.get_ref())?),
    };
    let resign = match &m.resign_adjudication {
        None => None,
        Some(r) => Some(resign(src, r.get_ref())?),
    };
    Ok((draw, resign))
}

fn draw(src: &Source, d: &DrawAdjudicationSpec) -> Result<DrawAdjudication, SpecError> {
    if *d.movenumber.get_ref() == 0 {
        let why = "must be at least 1 (cutechess-cli reads `-draw movenumber=0` as no draw \
                   adjudication: leave `draw_adjudication` out for that)";
        return Err(src.at(&d.movenumber, "movenumber", why));
    }
    if *d.movecount.get_ref() == 0 {
        return Err(src.at(&d.movecount, "movecount", "must be at least 1"));
    }
    if *d.score.get_ref() < 0 {
        return Err(src.at(
            &d.score,
            "score",
            "must be at least 0 (centipawns from zero)",
        ));
    }
    Ok(DrawAdjudication {
        movenumber: *d.movenumber.get_ref(),
        movecount: *d.movecount.get_ref(),
        score: *d.score.get_ref(),
    })
}

fn resign(src: &Source, r: &ResignAdjudicationSpec) -> Result<ResignAdjudication, SpecError> {
    if *r.movecount.get_ref() == 0 {
        return Err(src.at(&r.movecount, "movecount", "must be at least 1"));
    }
    if *r.score.get_ref() <= 0 {
        return Err(src.at(
            &r.score,
            "score",
            "must be a positive score (centipawns below zero)",
        ));
    }
    Ok(ResignAdjudication {
        movecount: *r.movecount.get_ref(),
        score: *r.score.get_ref(),
        twosided: r.twosided,
    })
}

/// The longest `st` accepted, in seconds (a day).
const MAX_ST: f64 = 86_400.0;

/// The shortest `st` accepted, in seconds: a player's time is whole milliseconds, and a
/// shorter `st` would become `time_ms = 0`.
const MIN_ST: f64 = 0.001;

/// `st`: seconds per move, at least a millisecond and at most a day.
pub(crate) fn fixed_move_time(src: &Source, m: &MatchSpec) -> Result<Option<Duration>, SpecError> {
    let Some(st) = &m.st else {
        return Ok(None);
    };
    let s = *st.get_ref();
    if !(s.is_finite() && (MIN_ST..=MAX_ST).contains(&s)) {
        let why = format!(
            "{s} is not a time per move: seconds, at least {MIN_ST} (1 ms) and at most {MAX_ST}"
        );
        return Err(src.at(st, "st", why));
    }
    if m.tc.is_some() {
        let why = "`st` and `tc` are two ways of timing moves: give one";
        return Err(src.at(st, "st", why));
    }
    Ok(Some(Duration::from_secs_f64(s)))
}

/// A player's limits with the match's `st` as its time per move: refused for a player with
/// its own `time_ms` or `tc`, and for external othello and backgammon programs (which take
/// no limits).
pub(crate) fn with_fixed_time(
    src: &Source,
    spec: &SearcherSpec,
    kind: &PlayerKind,
    mut limits: Limits,
    tc: Option<TimeControl>,
    st: Option<Duration>,
) -> Result<Limits, SpecError> {
    let Some(st) = st else {
        return Ok(limits);
    };
    let label = spec.label.get_ref();
    let why = if matches!(kind, PlayerKind::External(_)) {
        Some(format!(
            "`{label}` is an external program whose strength is its own setting: `st` cannot time it"
        ))
    } else if tc.is_some() || limits.time.is_some() {
        Some(format!(
            "`{label}` has its own tc or time_ms, and the match gives every player `st`: drop one"
        ))
    } else {
        None
    };
    if let Some(why) = why {
        return Err(src.at(&spec.label, "st", why));
    }
    limits.time = Some(st);
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(draw: Option<DrawAdjudication>, resign: Option<ResignAdjudication>) -> Rules {
        Rules {
            draw,
            resign,
            ..Rules::default()
        }
    }

    #[test]
    fn draws_need_the_move_number_and_a_run_of_both_sides() {
        let d = DrawAdjudication {
            movenumber: 3,
            movecount: 2,
            score: 10,
        };
        let mut a = Adjudicator::new(&rules(Some(d), None));
        // Four drawish plies, but only 2 full moves played: not yet.
        for ply in 1..=4 {
            assert_eq!(a.after_move((ply as usize + 1) % 2, Some(5), ply), None);
        }
        // Ply 6 (move 3) with the run at 6 plies: a draw.
        assert_eq!(a.after_move(0, Some(-10), 5), None);
        assert_eq!(a.after_move(1, Some(0), 6), Some(Verdict::Draw));
        // A score beyond it, or a move without a score, restarts the run.
        let mut a = Adjudicator::new(&rules(Some(d), None));
        for ply in 7..=9 {
            assert_eq!(a.after_move(0, Some(3), ply), None);
        }
        assert_eq!(a.after_move(1, Some(11), 10), None);
        for ply in 11..=13 {
            assert_eq!(a.after_move(0, Some(3), ply), None);
        }
        assert_eq!(a.after_move(1, None, 14), None);
        for ply in 15..=17 {
            assert_eq!(a.after_move(0, Some(3), ply), None);
        }
        assert_eq!(a.after_move(1, Some(3), 18), Some(Verdict::Draw));
    }

    #[test]
    fn resignation_counts_the_losers_moves_and_twosided_the_winners() {
        let r = ResignAdjudication {
            movecount: 2,
            score: 500,
            twosided: false,
        };
        let mut a = Adjudicator::new(&rules(None, Some(r)));
        assert_eq!(a.after_move(0, Some(100), 1), None);
        assert_eq!(a.after_move(1, Some(-600), 2), None);
        assert_eq!(a.after_move(0, Some(100), 3), None);
        assert_eq!(a.after_move(1, Some(-500), 4), Some(Verdict::Win(0)));
        let two = ResignAdjudication {
            twosided: true,
            ..r
        };
        let mut a = Adjudicator::new(&rules(None, Some(two)));
        let plies = [
            (0, 100),
            (1, -600),
            (0, 100),
            (1, -600),
            (0, 700),
            (1, -600),
            (0, 800),
        ];
        for (ply, (side, s)) in plies.into_iter().enumerate() {
            assert_eq!(a.after_move(side, Some(s), ply as u32 + 1), None, "{ply}");
        }
        // The winner has now agreed twice in a row.
        assert_eq!(a.after_move(1, Some(-900), 8), Some(Verdict::Win(0)));
    }

    /// cutechess-cli's `addEval`: a move of depth 0 (here, without a score) clears the draw
    /// run and the mover's own resign runs only, so the other side's run goes on.
    #[test]
    fn a_move_without_a_score_ends_the_draw_run_and_the_movers_runs() {
        let r = ResignAdjudication {
            movecount: 2,
            score: 500,
            twosided: false,
        };
        let mut a = Adjudicator::new(&rules(None, Some(r)));
        assert_eq!(a.after_move(1, Some(-600), 2), None);
        // The first side's book move leaves the second side's losing run of one as it is.
        assert_eq!(a.after_move(0, None, 3), None);
        assert_eq!(a.after_move(1, Some(-600), 4), Some(Verdict::Win(0)));
        // The second side's own move without a score ends its run.
        let mut a = Adjudicator::new(&rules(None, Some(r)));
        assert_eq!(a.after_move(1, Some(-600), 2), None);
        assert_eq!(a.after_move(1, None, 4), None);
        assert_eq!(a.after_move(1, Some(-600), 6), None);
        assert_eq!(a.after_move(1, Some(-600), 8), Some(Verdict::Win(0)));
    }

    /// Where one ply meets both rules, the draw comes first, as in cutechess-cli's
    /// `addEval`: a score of -20 is within a draw score of 50 and at or below a resign
    /// score of -10.
    #[test]
    fn the_draw_rule_is_looked_at_before_the_resign_rule() {
        let d = DrawAdjudication {
            movenumber: 1,
            movecount: 1,
            score: 50,
        };
        let r = ResignAdjudication {
            movecount: 1,
            score: 10,
            twosided: false,
        };
        let mut a = Adjudicator::new(&rules(Some(d), Some(r)));
        assert_eq!(a.after_move(0, Some(0), 1), None);
        assert_eq!(a.after_move(1, Some(-20), 2), Some(Verdict::Draw));
        // Before the move number, only the resign rule can apply.
        let mut a = Adjudicator::new(&rules(
            Some(DrawAdjudication { movenumber: 2, ..d }),
            Some(r),
        ));
        assert_eq!(a.after_move(0, Some(0), 1), None);
        assert_eq!(a.after_move(1, Some(-20), 2), Some(Verdict::Win(0)));
    }
}

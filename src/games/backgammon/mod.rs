//! Backgammon: standard rules, cubeless, one game scored 1, 2 or 3 points (a win, a gammon,
//! a backgammon), or plain win/loss.
//!
//! Rules (as GNU Backgammon plays them): checkers on the bar enter first; a point held by
//! two or more opposing checkers is blocked; landing on a single opposing checker (a blot)
//! hits it to the bar; a player bears off once all fifteen checkers are in the home board,
//! from the point the die names, or from the highest occupied point with a larger die when
//! no checker stands higher; both dice must be played where possible, and where only one
//! can be played, the larger one if it can; doubles are played four times. A player who
//! cannot move passes. The game starts with the first player rolling (doubles allowed:
//! plylab plays single games from positions, not the opening-roll ritual).
//!
//! The turn is two nodes: a chance node (the roll to come: the 21 distinct rolls, doubles
//! weighted 1 and the others 2 over 36, [`Game::chance_outcomes`]) and a player node (the
//! roll is known; the moves are the distinct resulting positions, as GNU Backgammon lists
//! them). Both belong to the player on roll.
//!
//! Scores: a finished game is worth `POINT` per point to the winner (1, 2 or 3 points,
//! [`Scoring`]), so every value lies in `±3·POINT` ([`Evaluator::bounds`](crate::game::Evaluator::bounds)).
//!
//! Text: positions are GNU Backgammon Position IDs ([`position_id`]), relative to the
//! player on roll, optionally followed by the roll (`4HPwATDgc/ABMA 31`) and `winloss`;
//! moves in the usual notation (`24/18 13/11`, `bar/22*`, `6/off`, `13/7(2)`, `24/21/16`).

mod eval;
pub mod position_id;
mod pubeval_weights;

use std::cell::RefCell;
use std::fmt;

use crate::game::{Game, Notation, Outcome, ParseError, Player, Score, Status, Weight};
use crate::rng::mix;
pub use eval::{PipRace, Pubeval, pubeval_inputs, pubeval_score, pubeval_with};
pub(crate) use eval::{after, bounds_of, squash};
pub use pubeval_weights::{CONTACT as PUBEVAL_CONTACT, RACE as PUBEVAL_RACE};

/// Score units per point: a single game won is worth `POINT`, a backgammon `3 * POINT`.
/// Large, so that expectations over many rolls keep six significant digits.
pub const POINT: Score = 1_000_000;

/// Checkers per player.
pub const CHECKERS: u8 = 15;

/// Index of the bar in a player's row (`Backgammon::checkers`); index 0 is borne off.
pub const BAR: usize = 25;

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// 1 point for a win, 2 for a gammon (the loser has borne nothing off), 3 for a
    /// backgammon (a gammon with a loser's checker on the bar or in the winner's home board).
    #[default]
    Gammons,
    /// 1 point for every win.
    WinLoss,
}

/// One checker moved by one die: from a point (or the bar, 25) to a point (or off, 0),
/// numbered from the mover's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    /// 1-24, or 25 for the bar.
    pub from: u8,
    /// 1-24, or 0 for borne off.
    pub to: u8,
    /// Whether it hit an opposing blot.
    pub hit: bool,
}

/// A move: a roll of the dice (a chance outcome), or the checker steps of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BgMove {
    /// The dice, larger first.
    Roll(u8, u8),
    /// Up to four steps (none: the player cannot move and passes).
    Play {
        /// The steps in the order played; only the first `len` count.
        steps: [Step; 4],
        /// How many steps.
        len: u8,
    },
}

impl BgMove {
    /// The steps of a play (empty for a roll or a pass).
    #[must_use]
    pub fn steps(&self) -> &[Step] {
        match self {
            Self::Roll(..) => &[],
            Self::Play { steps, len } => &steps[..*len as usize],
        }
    }
}

impl fmt::Display for BgMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Roll(a, b) => write!(f, "{a}-{b}"),
            Self::Play { len: 0, .. } => f.write_str("pass"),
            Self::Play { .. } => {
                let mut steps = self.steps().to_vec();
                steps.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
                let text: Vec<String> = steps.iter().map(step_text).collect();
                f.write_str(&text.join(" "))
            }
        }
    }
}

/// The order of two boards' rows as bytes, compared eight at a time: the order of
/// `[[u8; 26]; 2]`'s own `Ord`, which sorted through a call to `memcmp` for every pair (a
/// fifth of a Star2 search's time).
fn rows_order(a: &[[u8; 26]; 2], b: &[[u8; 26]; 2]) -> std::cmp::Ordering {
    let (a, b) = (a.as_flattened(), b.as_flattened());
    let word = |bytes: &[u8], at: usize| {
        u64::from_be_bytes(bytes[at..at + 8].try_into().expect("eight bytes"))
    };
    let tail = |bytes: &[u8]| u32::from_be_bytes(bytes[48..52].try_into().expect("four bytes"));
    (0..48)
        .step_by(8)
        .map(|at| word(a, at).cmp(&word(b, at)))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| tail(a).cmp(&tail(b)))
}

fn step_text(s: &Step) -> String {
    let from = if usize::from(s.from) == BAR {
        "bar".to_owned()
    } else {
        s.from.to_string()
    };
    let to = if s.to == 0 {
        "off".to_owned()
    } else {
        s.to.to_string()
    };
    format!("{from}/{to}{}", if s.hit { "*" } else { "" })
}

/// A backgammon position: both players' checkers, the player on roll and, once rolled,
/// the dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Backgammon {
    /// `checkers[p][i]`: player `p`'s checkers borne off (`i = 0`), on its point `i`
    /// (1-24, numbered from `p`'s side: `p` moves from 24 towards 1), on the bar (25).
    checkers: [[u8; 26]; 2],
    turn: Player,
    dice: Option<(u8, u8)>,
    scoring: Scoring,
    plies: u32,
}

const fn index(p: Player) -> usize {
    match p {
        Player::First => 0,
        Player::Second => 1,
    }
}

/// The start position's points for each player: 2 on the 24, 5 on the 13, 3 on the 8, 5
/// on the 6.
const START: [(usize, u8); 4] = [(24, 2), (13, 5), (8, 3), (6, 5)];

/// The 21 distinct rolls with their weights over 36.
const ROLLS: [(u8, u8, Weight); 21] = {
    let mut out = [(0, 0, 0); 21];
    let (mut a, mut i) = (1, 0);
    while a <= 6 {
        let mut b = 1;
        while b <= a {
            out[i] = (a, b, if a == b { 1 } else { 2 });
            i += 1;
            b += 1;
        }
        a += 1;
    }
    out
};

impl Default for Backgammon {
    fn default() -> Self {
        let mut row = [0u8; 26];
        for (point, n) in START {
            row[point] = n;
        }
        Self {
            checkers: [row; 2],
            turn: Player::First,
            dice: None,
            scoring: Scoring::default(),
            plies: 0,
        }
    }
}

/// A play found by move generation: the rows after it, the play, and its first die.
type Candidate = ([[u8; 26]; 2], BgMove, u8);

thread_local! {
    /// Move generation's scratch: candidate plays with their resulting rows, reused so that
    /// generating moves allocates nothing once it has grown.
    static SCRATCH: RefCell<Vec<Candidate>> = const { RefCell::new(Vec::new()) };
}

impl Backgammon {
    /// A position from both players' rows (see [`Self::row`]), the player on roll, the dice
    /// (`None`: still to roll) and the scoring. Checks 15 checkers a side, a legal roll,
    /// and that no point is held by both players.
    pub fn from_rows(
        rows: [[u8; 26]; 2],
        turn: Player,
        dice: Option<(u8, u8)>,
        scoring: Scoring,
    ) -> Result<Self, ParseError> {
        for (p, row) in rows.iter().enumerate() {
            let total: u32 = row.iter().map(|&n| u32::from(n)).sum();
            if total != u32::from(CHECKERS) {
                return Err(ParseError::new(format!(
                    "player {} has {total} checkers, not 15",
                    p + 1
                )));
            }
        }
        if let Some(point) = (1..=24).find(|&i| rows[0][i] > 0 && rows[1][25 - i] > 0) {
            return Err(ParseError::new(format!(
                "both players have checkers on the same point ({point} of the first)"
            )));
        }
        if rows[0][0] == CHECKERS && rows[1][0] == CHECKERS {
            return Err(ParseError::new("both players have borne off every checker"));
        }
        if let Some((a, b)) = dice
            && !((1..=6).contains(&a) && (1..=6).contains(&b))
        {
            return Err(ParseError::new(format!("{a}{b} is not a roll of two dice")));
        }
        let dice = dice.map(|(a, b)| (a.max(b), a.min(b)));
        Ok(Self {
            checkers: rows,
            turn,
            dice,
            scoring,
            plies: 0,
        })
    }

    /// Player `p`'s row: borne off (0), points 1-24 from `p`'s side, bar (25).
    #[must_use]
    pub fn row(&self, p: Player) -> &[u8; 26] {
        &self.checkers[index(p)]
    }

    /// The dice to play, larger first; `None` while the roll is to come.
    #[must_use]
    pub fn dice(&self) -> Option<(u8, u8)> {
        self.dice
    }

    /// The scoring rule.
    #[must_use]
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The same position scored by `scoring`.
    #[must_use]
    pub fn with_scoring(mut self, scoring: Scoring) -> Self {
        self.scoring = scoring;
        self
    }

    /// The pips player `p` needs to bear every checker off.
    #[must_use]
    pub fn pips(&self, p: Player) -> u32 {
        self.row(p)
            .iter()
            .enumerate()
            .map(|(i, &n)| i as u32 * u32::from(n))
            .sum()
    }

    /// Tom Keith's adjusted pip count of player `p` (the Keith count, 2004): the pips, plus
    /// the pips a bear-off wastes on a crowded low point or loses to a gap: 2 for each
    /// checker past the first on the one-point, 1 for each past the first on the two-point
    /// and past the third on the three-point, and 1 for each of the four-, five- and
    /// six-points left empty.
    #[must_use]
    pub fn keith_count(&self, p: Player) -> u32 {
        let row = self.row(p);
        let beyond = |point: usize, allowed: u8| u32::from(row[point].saturating_sub(allowed));
        let gaps = (4..=6).filter(|&point| row[point] == 0).count() as u32;
        self.pips(p) + 2 * beyond(1, 1) + beyond(2, 1) + beyond(3, 3) + gaps
    }

    /// True when no checker of one player must still pass a checker of the other: a race.
    #[must_use]
    pub fn is_race(&self) -> bool {
        let rearmost = |row: &[u8; 26]| (0..=BAR).rev().find(|&i| row[i] > 0).unwrap_or(0);
        rearmost(&self.checkers[0]) + rearmost(&self.checkers[1]) < 25
    }

    /// The winner and the points won, once a player has borne off all fifteen.
    #[must_use]
    pub fn result(&self) -> Option<(Player, Score)> {
        let winner = [Player::First, Player::Second]
            .into_iter()
            .find(|&p| self.row(p)[0] == CHECKERS)?;
        let loser = self.row(winner.other());
        let points = if self.scoring == Scoring::WinLoss || loser[0] > 0 {
            1
        } else if loser[BAR] > 0 || loser[19..=24].iter().any(|&n| n > 0) {
            3
        } else {
            2
        };
        Some((winner, points))
    }

    /// Appends every legal play of `dice` for the player on roll: the distinct resulting
    /// positions, each once (a pass when nothing can be played).
    fn legal_plays(&self, (a, b): (u8, u8), out: &mut Vec<BgMove>) {
        let me = index(self.turn);
        SCRATCH.with_borrow_mut(|found| {
            found.clear();
            let mut search = PlaySearch {
                rows: self.checkers,
                me,
                steps: [Step::default(); 4],
                found,
                most: 0,
            };
            if a == b {
                search.extend(&[a; 4], 0, BAR as u8);
            } else {
                search.extend(&[a, b], 0, BAR as u8);
                search.extend(&[b, a], 0, BAR as u8);
            }
            let most = search.most;
            // Only one die playable: the larger if it can be (a is the larger).
            let larger_only = a != b && most == 1 && found.iter().any(|&(_, _, die)| die == a);
            found.retain(|&(_, m, die)| m.steps().len() == most && (!larger_only || die == a));
            found.sort_unstable_by(|x, y| rows_order(&x.0, &y.0));
            found.dedup_by(|x, y| x.0 == y.0);
            out.extend(found.iter().map(|&(_, m, _)| m));
        });
        if out.is_empty() {
            out.push(BgMove::Play {
                steps: [Step::default(); 4],
                len: 0,
            });
        }
    }

    /// Moves one checker of player `me` (no legality check; the caller has checked).
    fn apply_step(rows: &mut [[u8; 26]; 2], me: usize, s: Step) {
        rows[me][usize::from(s.from)] -= 1;
        rows[me][usize::from(s.to)] += 1;
        if s.hit {
            let theirs = 25 - usize::from(s.to);
            rows[1 - me][theirs] -= 1;
            rows[1 - me][BAR] += 1;
        }
    }
}

/// The depth-first search over step sequences behind [`Backgammon::legal_plays`].
struct PlaySearch<'a> {
    rows: [[u8; 26]; 2],
    me: usize,
    steps: [Step; 4],
    found: &'a mut Vec<Candidate>,
    /// The most dice any sequence found so far plays.
    most: usize,
}

impl PlaySearch<'_> {
    /// Plays `dice[k..]` in order from the current rows; with doubles, each step starts no
    /// higher than the one before (`ceiling`), which finds every resulting position once
    /// per order of equal dice instead of once per permutation.
    fn extend(&mut self, dice: &[u8], k: usize, ceiling: u8) {
        let doubles = dice.len() == 4;
        let mut moved = false;
        if k < dice.len() {
            let die = dice[k];
            let top = if doubles { ceiling } else { BAR as u8 };
            for from in (1..=top).rev() {
                let Some(step) = self.step(from, die) else {
                    continue;
                };
                moved = true;
                let saved = self.rows;
                Backgammon::apply_step(&mut self.rows, self.me, step);
                self.steps[k] = step;
                self.extend(dice, k + 1, from);
                self.rows = saved;
            }
        }
        if !moved && k > 0 {
            self.most = self.most.max(k);
            let mut steps = [Step::default(); 4];
            steps[..k].copy_from_slice(&self.steps[..k]);
            let play = BgMove::Play {
                steps,
                len: k as u8,
            };
            self.found.push((self.rows, play, dice[0]));
        }
    }

    /// The step of the checker on `from` by `die`, if legal now.
    fn step(&self, from: u8, die: u8) -> Option<Step> {
        let mine = &self.rows[self.me];
        let theirs = &self.rows[1 - self.me];
        let f = usize::from(from);
        if mine[f] == 0 || (mine[BAR] > 0 && f != BAR) {
            return None;
        }
        if from > die {
            let to = from - die;
            let blockers = theirs[25 - usize::from(to)];
            return (blockers < 2).then_some(Step {
                from,
                to,
                hit: blockers == 1,
            });
        }
        // Bearing off: everything home, and from exactly the die's point or, with a larger
        // die, from the highest occupied point.
        let all_home = mine[7..=BAR].iter().all(|&n| n == 0);
        let highest = mine[f + 1..=6].iter().all(|&n| n == 0);
        (all_home && (from == die || highest)).then_some(Step {
            from,
            to: 0,
            hit: false,
        })
    }
}

impl Game for Backgammon {
    type Move = BgMove;
    const NAME: &'static str = "backgammon";

    fn side_to_move(&self) -> Player {
        self.turn
    }

    fn generate_moves(&self, out: &mut Vec<BgMove>) {
        if let (Some(dice), None) = (self.dice, self.result()) {
            self.legal_plays(dice, out);
        }
    }

    fn play(&mut self, mv: BgMove) {
        self.plies += 1;
        match mv {
            BgMove::Roll(a, b) => self.dice = Some((a, b)),
            BgMove::Play { .. } => {
                let me = index(self.turn);
                for &s in mv.steps() {
                    Self::apply_step(&mut self.checkers, me, s);
                }
                self.dice = None;
                self.turn = self.turn.other();
            }
        }
    }

    fn status(&self) -> Status {
        match self.result() {
            None => Status::Ongoing,
            Some((winner, points)) => {
                let value = points * POINT;
                Status::Over(Outcome::Points(if winner == self.turn {
                    value
                } else {
                    -value
                }))
            }
        }
    }

    fn hash(&self) -> u64 {
        let mut h = mix(index(self.turn) as u64 + 1);
        for row in &self.checkers {
            for chunk in row.chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                h = mix(h ^ u64::from_le_bytes(word));
            }
        }
        let dice = self
            .dice
            .map_or(0, |(a, b)| u64::from(a) * 8 + u64::from(b));
        mix(h ^ (dice << 56) ^ ((self.scoring as u64) << 62))
    }

    fn plies_played(&self) -> u32 {
        self.plies
    }

    fn move_code(mv: BgMove) -> u16 {
        // Rolls exactly (below 0x8000); plays by a hash of their steps with the top bit set
        // (a code is only used after matching the freshly generated moves). Two plays of a
        // position can share a hash: see `Game::move_code`, ordering only.
        match mv {
            BgMove::Roll(a, b) => u16::from(a) * 8 + u16::from(b),
            BgMove::Play { .. } => {
                let h = mv.steps().iter().fold(0x9E37u64, |h, s| {
                    mix(h ^ (u64::from(s.from) << 8) ^ u64::from(s.to))
                });
                0x8000 | (h as u16 & 0x7FFF)
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<BgMove, ParseError> {
        notation::parse_move(self, text)
    }

    /// Linear in points: a score of `+POINT` (a single game won, or an evaluation worth
    /// it) is a sure win, `-POINT` a sure loss, `0` even, as under win/loss scoring the
    /// value is `(2p − 1) · POINT`; gammons count as wins. The Elo logistic, made for
    /// centipawns, read every evaluation as 0 or 1.
    fn win_probability(score: Score) -> f64 {
        ((f64::from(score) / f64::from(POINT) + 1.0) / 2.0).clamp(0.0, 1.0)
    }

    /// A roll is a word of its own (`5-4`); the steps between two rolls are one play
    /// (`24/20 20/15`, or `pass`).
    fn line_moves(line: &str) -> Vec<&str> {
        let mut moves = Vec::new();
        // The play being gathered: the byte range of its words in `line`.
        let mut play: Option<std::ops::Range<usize>> = None;
        for word in line.split_whitespace() {
            if notation::parse_roll(word).is_ok() && !word.contains('/') {
                moves.extend(play.take().map(|r| &line[r]));
                moves.push(word);
            } else {
                let start = word.as_ptr() as usize - line.as_ptr() as usize;
                let end = start + word.len();
                play = Some(play.map_or(start, |r| r.start)..end);
            }
        }
        moves.extend(play.map(|r| &line[r]));
        moves
    }

    fn is_chance(&self) -> bool {
        self.dice.is_none() && self.result().is_none()
    }

    fn chance_outcomes(&self, out: &mut Vec<(BgMove, Weight)>) {
        if self.is_chance() {
            out.extend(ROLLS.iter().map(|&(a, b, w)| (BgMove::Roll(a, b), w)));
        }
    }
}

impl Notation for Backgammon {
    /// `start`, or a GNU Backgammon Position ID (14 characters, [`position_id`]) optionally
    /// followed by the roll to play (`31`, `3-1` or `66`) and `winloss` for plain win/loss
    /// scoring; the player on roll is called First. Then, optionally, `;`-separated rolls
    /// and plays from there: `start 31; 8/5 6/5; 42; 24/20 13/11`.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let mut segments = text.split(';');
        let mut pos = Self::parse_board(segments.next().unwrap_or(""))?;
        for segment in segments {
            let mv = pos.parse_move(segment)?;
            pos.play(mv);
        }
        Ok(pos)
    }
}

impl Backgammon {
    /// The position part of [`Notation::parse_position`]: ID, roll, scoring.
    fn parse_board(text: &str) -> Result<Self, ParseError> {
        let mut words = text.split_whitespace();
        let first = words
            .next()
            .ok_or_else(|| ParseError::new("an empty position"))?;
        let mut pos = if first == "start" {
            Self::default()
        } else {
            let [mover, other] = position_id::decode(first)?;
            Self::from_rows([mover, other], Player::First, None, Scoring::Gammons)?
        };
        // Each setting once: a second roll or scoring is a mistake, not an override.
        let (mut scoring, mut roll) = (None, None);
        for word in words {
            let (seen, what) = match word {
                "winloss" | "gammons" => (&mut scoring, "scoring"),
                _ => (&mut roll, "roll"),
            };
            if let Some(first) = seen.replace(word) {
                return Err(ParseError::new(format!(
                    "a second {what} `{word}` after `{first}`"
                )));
            }
            match word {
                "winloss" => pos.scoring = Scoring::WinLoss,
                "gammons" => pos.scoring = Scoring::Gammons,
                _ => pos.dice = Some(notation::parse_roll(word)?),
            }
        }
        if pos.result().is_some() && pos.dice.is_some() {
            return Err(ParseError::new(
                "the game is over: there is no roll to play",
            ));
        }
        Ok(pos)
    }
}

impl fmt::Display for Backgammon {
    /// The Position ID, then the roll if one is to be played.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let me = index(self.turn);
        f.write_str(&position_id::encode(
            &self.checkers[me],
            &self.checkers[1 - me],
        ))?;
        if let Some((a, b)) = self.dice {
            write!(f, " {a}{b}")?;
        }
        if self.scoring == Scoring::WinLoss {
            f.write_str(" winloss")?;
        }
        Ok(())
    }
}

mod notation {
    //! Reading moves: `24/18 13/11`, `bar/22*`, `6/off`, chains `24/21/16`, repeats
    //! `13/7(2)`, `pass`; a roll `3-1` or `31` at a chance node.

    use super::{BAR, Backgammon, BgMove, Step};
    use crate::game::{Game, ParseError};

    /// Two dice: `31`, `3-1` or `3,1`.
    pub(super) fn parse_roll(text: &str) -> Result<(u8, u8), ParseError> {
        let digits: Vec<u8> = text
            .chars()
            .filter(|c| !matches!(c, '-' | ','))
            .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
            .collect();
        match digits[..] {
            [a, b] if (1..=6).contains(&a) && (1..=6).contains(&b) => Ok((a.max(b), a.min(b))),
            _ => Err(ParseError::new(format!(
                "`{text}` is not a roll of two dice"
            ))),
        }
    }

    fn point(text: &str, bar_or_off: &str, value: u8) -> Result<u8, ParseError> {
        if text.eq_ignore_ascii_case(bar_or_off) {
            return Ok(value);
        }
        match text.parse::<u8>() {
            Ok(p) if (1..=24).contains(&p) => Ok(p),
            _ => Err(ParseError::new(format!("`{text}` is not a point"))),
        }
    }

    /// A step a move's text names: from and to points, and whether the text marks a hit on
    /// the point reached (`13/8*`).
    type NamedStep = (u8, u8, bool);

    /// The steps a move's text names, in order. A repeat (`8/4*(2)`) marks its hit on the
    /// first step only: the second checker lands on the point the first took.
    fn steps(text: &str) -> Result<Vec<NamedStep>, ParseError> {
        let mut out = Vec::new();
        for token in text.split_whitespace() {
            let (body, times) = match token.split_once('(') {
                Some((body, rest)) => {
                    let n = rest
                        .strip_suffix(')')
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|n| (1..=4).contains(n))
                        .ok_or_else(|| ParseError::new(format!("bad repeat in `{token}`")))?;
                    (body, n)
                }
                None => (token, 1),
            };
            let points: Vec<&str> = body.split('/').collect();
            if points.len() < 2 {
                return Err(ParseError::new(format!("`{token}` is not from/to")));
            }
            if points[0].ends_with('*') {
                return Err(ParseError::new(format!(
                    "`{token}` marks a hit on the point a checker leaves: the mark `*` \
                     follows the point where the blot is hit"
                )));
            }
            let mut chain = Vec::new();
            for pair in points.windows(2) {
                let to = pair[1].strip_suffix('*');
                chain.push((
                    point(pair[0].trim_end_matches('*'), "bar", BAR as u8)?,
                    point(to.unwrap_or(pair[1]), "off", 0)?,
                    to.is_some(),
                ));
            }
            for repeat in 0..times {
                out.extend(
                    chain
                        .iter()
                        .map(|&(from, to, hit)| (from, to, hit && repeat == 0)),
                );
            }
        }
        Ok(out)
    }

    /// Refuses a hit mark (`13/8*`) on a point where the opponent has no blot before the
    /// move: the position decides what is hit, and a mark it contradicts is a misread
    /// position or move, not something to ignore.
    fn check_hit_marks(
        pos: &Backgammon,
        text: &str,
        named: &[NamedStep],
    ) -> Result<(), ParseError> {
        let opponent = &pos.checkers[1 - super::index(pos.turn)];
        for &(_, to, marked) in named {
            if marked && (to == 0 || opponent[25 - usize::from(to)] != 1) {
                let point = if to == 0 {
                    "off".to_owned()
                } else {
                    to.to_string()
                };
                return Err(ParseError::new(format!(
                    "`{text}` marks a hit on {point}, where the opponent has no blot"
                )));
            }
        }
        Ok(())
    }

    /// The legal move of `pos` that `text` names: the one whose resulting position equals
    /// the position after the named steps.
    pub(super) fn parse_move(pos: &Backgammon, text: &str) -> Result<BgMove, ParseError> {
        let text = text.trim();
        if pos.is_chance() {
            let (a, b) = parse_roll(text)?;
            return Ok(BgMove::Roll(a, b));
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return Err(ParseError::new("the game is over: there is no move"));
        }
        let named = if text.eq_ignore_ascii_case("pass") {
            Vec::new()
        } else {
            steps(text)?
        };
        check_hit_marks(pos, text, &named)?;
        let me = super::index(pos.turn);
        let mut target = pos.checkers;
        for &(from, to, _) in &named {
            let (f, t) = (usize::from(from), usize::from(to));
            if from <= to || target[me][f] == 0 {
                return Err(ParseError::new(format!(
                    "`{text}` is not a legal move here (no checker moves {from}/{to})"
                )));
            }
            let hit = to > 0 && target[1 - me][25 - t] == 1;
            Backgammon::apply_step(&mut target, me, Step { from, to, hit });
        }
        moves
            .into_iter()
            .find(|&m| {
                let mut after = pos.checkers;
                for &s in m.steps() {
                    Backgammon::apply_step(&mut after, me, s);
                }
                after == target
            })
            .ok_or_else(|| {
                let (a, b) = pos.dice.unwrap_or((0, 0));
                ParseError::new(format!("`{text}` is not a legal move with {a}{b} here"))
            })
    }
}

#[cfg(test)]
mod tests;

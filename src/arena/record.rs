//! games.csv: one row per finished game, appended and flushed as each game ends, read back
//! by `--resume` (a row counts only if it is whole and matches the schedule).

use super::play::{GameRecord, SideStats, Winner};
use super::spec::{GameSlot, MatchPlan};
use crate::game::{Game, Status};
use crate::lab::spec::{GameKind, GamePosition};

/// One row of games.csv.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The game's index in the schedule.
    pub game: usize,
    /// Its pairing's index.
    pub pairing: usize,
    /// The round of the pairing (the game pair's index with pairs).
    pub round: u32,
    /// 0 or 1: the game of the pair (1 swapped colours).
    pub leg: u32,
    /// The opening's label.
    pub opening: String,
    /// The first player (White).
    pub first: String,
    /// The second player (Black).
    pub second: String,
    /// Who won.
    pub winner: Winner,
    /// Why the game ended.
    pub reason: String,
    /// Plies played from the opening.
    pub plies: u32,
    /// First and second player's figures.
    pub sides: [SideStats; 2],
    /// The moves, space-separated, in the game's notation (UCI for chess).
    pub line: String,
    /// Per ply, space-separated, what the mover reported ([`super::play::annotation`]):
    /// `book` or `score/depth/seconds`; the PGN's move comments are made from it.
    pub annotations: String,
    /// The game's seed (last, so that a line torn in it does not match the schedule).
    pub seed: u64,
}

impl GameRow {
    /// The row of a game played in `slot`.
    #[must_use]
    pub fn new(plan: &MatchPlan, slot: &GameSlot, record: &GameRecord) -> Self {
        Self {
            game: slot.index,
            pairing: slot.pairing,
            round: slot.round,
            leg: slot.leg,
            opening: plan.openings[slot.opening].label.clone(),
            first: plan.players[slot.first].name.clone(),
            second: plan.players[slot.second].name.clone(),
            winner: record.winner,
            reason: record.reason.clone(),
            plies: record.moves.len() as u32,
            sides: record.sides,
            line: record.moves.join(" "),
            annotations: record.annotations.join(" "),
            seed: slot.seed,
        }
    }

    /// The game's score for player `name` (1, ½ or 0); `None` if it did not play.
    #[must_use]
    pub fn score_of(&self, name: &str) -> Option<f64> {
        let first = if self.first == name {
            true
        } else if self.second == name {
            false
        } else {
            return None;
        };
        Some(match (self.winner, first) {
            (Winner::Draw, _) => 0.5,
            (Winner::First, true) | (Winner::Second, false) => 1.0,
            _ => 0.0,
        })
    }

    /// The fields, in [`header`] order.
    #[must_use]
    pub fn fields(&self) -> Vec<String> {
        let mut out = vec![
            self.game.to_string(),
            self.pairing.to_string(),
            self.round.to_string(),
            self.leg.to_string(),
            self.opening.clone(),
            self.first.clone(),
            self.second.clone(),
            self.winner.result().to_owned(),
            self.reason.clone(),
            self.plies.to_string(),
        ];
        for s in &self.sides {
            out.extend([
                s.moves.to_string(),
                s.nodes.to_string(),
                format!("{:.3}", s.time_s),
                s.mean_depth()
                    .map_or_else(String::new, |d| format!("{d:.2}")),
                s.book_moves.to_string(),
            ]);
        }
        out.extend([
            self.line.clone(),
            self.annotations.clone(),
            self.seed.to_string(),
        ]);
        out
    }

    /// Reads a row written by [`Self::fields`] into a file of `layout`; `None` if any field
    /// is missing or unreadable.
    #[must_use]
    pub fn parse(record: &csv::StringRecord, layout: Layout) -> Option<Self> {
        if record.len() != layout.columns() {
            return None;
        }
        // Fields from `annotations` on sit one place earlier in a file without it.
        let f = |i: usize| {
            let at = if layout.annotations || i < ANNOTATIONS {
                i
            } else {
                i - 1
            };
            record.get(at).unwrap_or_default()
        };
        // Seconds and depths are finite and not negative: NaN or inf read as numbers went
        // into summary.md as `NaN` and halved a mean depth.
        let measure = |text: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
        };
        let side = |at: usize| -> Option<SideStats> {
            let depth: Option<f64> = match f(at + 3) {
                "" => None,
                d => Some(measure(d)?),
            };
            let moves: u32 = f(at).parse().ok()?;
            let book_moves: u32 = f(at + 4).parse().ok()?;
            // The mean is what is kept, over the moves that reported a depth: every searched
            // move (a book move reports none). As a sum over them it reads back exactly: the
            // sum is a whole number and the mean is off by at most 0.005 a move, so under 100
            // moves it rounds back to itself, and beyond, the mean recomputed rounds to the
            // mean written. (An engine that reports a depth for only some of its moves reads
            // back within 0.005 a move.)
            let searched = moves.saturating_sub(book_moves);
            let depth_moves = if depth.is_some() { searched } else { 0 };
            Some(SideStats {
                moves,
                nodes: f(at + 1).parse().ok()?,
                time_s: measure(f(at + 2))?,
                depth_sum: depth.map_or(0, |d| (d * f64::from(depth_moves)).round() as u64),
                depth_moves,
                book_moves,
            })
        };
        Some(Self {
            game: f(0).parse().ok()?,
            pairing: f(1).parse().ok()?,
            round: f(2).parse().ok()?,
            leg: f(3).parse().ok()?,
            opening: f(4).to_owned(),
            first: f(5).to_owned(),
            second: f(6).to_owned(),
            winner: Winner::parse(f(7))?,
            reason: f(8).to_owned(),
            plies: f(9).parse().ok()?,
            sides: [side(10)?, side(15)?],
            line: f(20).to_owned(),
            annotations: if layout.annotations {
                f(ANNOTATIONS).to_owned()
            } else {
                String::new()
            },
            seed: f(22).parse().ok()?,
        })
    }

    /// Whether this row is the game `slot` of `plan` (same index, players, opening and seed).
    #[must_use]
    pub fn matches(&self, plan: &MatchPlan, slot: &GameSlot) -> bool {
        self.game == slot.index
            && self.pairing == slot.pairing
            && self.first == plan.players[slot.first].name
            && self.second == plan.players[slot.second].name
            && self.opening == plan.openings[slot.opening].label
            && self.seed == slot.seed
    }

    /// Why this row cannot be the game `slot` of `plan`: another game of the schedule (`no
    /// game of the match`), or a line that cannot be it ([`Self::line_fault`]); `None` when
    /// it is that game.
    #[must_use]
    pub fn fault_as(&self, plan: &MatchPlan, slot: &GameSlot) -> Option<&'static str> {
        if !self.matches(plan, slot) {
            return Some("no game of the match");
        }
        self.line_fault(&plan.openings[slot.opening].position)
    }

    /// Why this row cannot be the game that its line plays from its opening `start`: a move
    /// that is not legal or follows the end, a `plies` that is not the line's length, or a
    /// result that the line's final position contradicts (a game that ended otherwise, by
    /// adjudication, a forfeit or repetition, may have any result). `None` when it can be.
    /// Chance trees are not replayed (their rolls are not written).
    #[must_use]
    pub fn line_fault(&self, start: &GamePosition) -> Option<&'static str> {
        match start {
            GamePosition::TicTacToe(p) => self.replay_fault(p),
            GamePosition::Connect4(p) => self.replay_fault(p),
            GamePosition::RandomTree(p) => self.replay_fault(p),
            GamePosition::Chess(p) => self.replay_fault(p),
            GamePosition::Checkers(p) => self.replay_fault(p),
            GamePosition::Othello(p) => self.replay_fault(p),
            GamePosition::Backgammon(p) => self.replay_fault(p),
            GamePosition::ChanceTree(_) => None,
        }
    }

    fn replay_fault<G: Game>(&self, start: &G) -> Option<&'static str> {
        let mut pos = start.clone();
        let mut plies = 0;
        for text in G::line_moves(&self.line) {
            if pos.status() != Status::Ongoing {
                return Some("a move after the end of the game");
            }
            let Ok(mv) = pos.parse_move(text) else {
                return Some("a move that is not legal");
            };
            pos.play(mv);
            plies += 1;
        }
        if plies != self.plies {
            return Some("`plies` is not its line's length");
        }
        match pos.status() {
            Status::Over(outcome)
                if Winner::by_rule(outcome, Winner::mover(&pos)) != self.winner =>
            {
                Some("a result its line contradicts")
            }
            _ => None,
        }
    }
}

/// Where `annotations` stands in [`COLUMNS`].
const ANNOTATIONS: usize = 21;

/// How a games.csv lays its columns out: [`COLUMNS`], or, in files written before the
/// `annotations` column was added (plylab of 2026-11-23 and earlier), the same without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    annotations: bool,
}

impl Layout {
    /// The layout this version writes.
    pub const CURRENT: Self = Self { annotations: true };

    /// The layout of a file with this header row.
    #[must_use]
    pub fn of(header: &csv::StringRecord) -> Self {
        Self {
            annotations: header.iter().any(|h| h == COLUMNS[ANNOTATIONS]),
        }
    }

    /// How many fields a row has.
    #[must_use]
    pub const fn columns(self) -> usize {
        if self.annotations {
            COLUMNS.len()
        } else {
            COLUMNS.len() - 1
        }
    }
}

/// The columns, with `{side}` standing for `white`/`black` in chess, `black`/`white` in
/// checkers and `first`/`second` in the other games.
pub const COLUMNS: [&str; 23] = [
    "game",
    "pairing",
    "round",
    "leg",
    "opening",
    "{first}",
    "{second}",
    "result",
    "reason",
    "plies",
    "{first}_moves",
    "{first}_nodes",
    "{first}_time_s",
    "{first}_mean_depth",
    "{first}_book_moves",
    "{second}_moves",
    "{second}_nodes",
    "{second}_time_s",
    "{second}_mean_depth",
    "{second}_book_moves",
    "line",
    "annotations",
    "seed",
];

/// A side's thinking time as games.csv stores it (to the millisecond, `{:.3}`), so that a
/// summary drawn from the rows in memory is the one `plylab plot` draws from the file.
#[must_use]
pub fn stored_time(time_s: f64) -> f64 {
    format!("{time_s:.3}").parse().unwrap_or(time_s)
}

/// The header of games.csv for `game`.
#[must_use]
pub fn header(game: GameKind) -> Vec<String> {
    let (first, second) = side_names(game);
    COLUMNS
        .iter()
        .map(|c| c.replace("{first}", first).replace("{second}", second))
        .collect()
}

/// `("white", "black")` in chess, `("black", "white")` in checkers (Black moves first),
/// `("first", "second")` elsewhere.
#[must_use]
pub fn side_names(game: GameKind) -> (&'static str, &'static str) {
    match game {
        GameKind::Chess => ("white", "black"),
        GameKind::Checkers => ("black", "white"),
        _ => ("first", "second"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::TicTacToe;

    /// A tic-tac-toe game of `line` from the empty board, with `result` and `plies`.
    fn row(line: &str, result: &str, plies: u32) -> GameRow {
        GameRow {
            game: 0,
            pairing: 0,
            round: 0,
            leg: 0,
            opening: "start".into(),
            first: "x".into(),
            second: "o".into(),
            winner: Winner::parse(result).unwrap(),
            reason: String::new(),
            plies,
            sides: [SideStats::default(); 2],
            line: line.into(),
            annotations: String::new(),
            seed: 0,
        }
    }

    #[test]
    fn a_side_with_book_moves_reads_back_its_mean_depth() {
        // 20 moves, the first from the book: the mean 7.47 is over the 19 searched (142/19);
        // taken over all 20 it was written back as 7.45 (resume and merge rewrote it).
        let mut game = row("1 2 3 4 5 6 7", "1-0", 7);
        for (depth_sum, searched, book_moves) in [(142, 19, 1), (1_237, 150, 50), (9, 1, 0)] {
            game.sides[0] = SideStats {
                moves: searched + book_moves,
                depth_sum,
                depth_moves: searched,
                book_moves,
                ..SideStats::default()
            };
            let written = csv::StringRecord::from(game.fields());
            let read = GameRow::parse(&written, Layout::CURRENT).unwrap();
            assert_eq!(read.sides[0].depth_moves, searched);
            // Exact under 100 searched moves; beyond, the mean written is what comes back.
            if searched < 100 {
                assert_eq!(read.sides[0].depth_sum, depth_sum);
            }
            assert_eq!(csv::StringRecord::from(read.fields()), written);
        }
    }

    #[test]
    fn a_row_whose_line_cannot_be_its_game_is_named() {
        let start = GamePosition::TicTacToe(TicTacToe::new());
        // 1 2 3 4 5 6 7: the first player completes 3-5-7.
        let fault = |line, result, plies| row(line, result, plies).line_fault(&start);
        assert_eq!(fault("1 2 3 4 5 6 7", "1-0", 7), None);
        let contradicted = Some("a result its line contradicts");
        assert_eq!(fault("1 2 3 4 5 6 7", "0-1", 7), contradicted);
        assert_eq!(fault("1 2 3 4 5 6 7", "1/2-1/2", 7), contradicted);
        assert_eq!(
            fault("1 2 3 4 5 6 7 8", "1-0", 8),
            Some("a move after the end of the game")
        );
        assert_eq!(fault("5 5", "1-0", 2), Some("a move that is not legal"));
        assert_eq!(
            fault("1 2 3", "1-0", 4),
            Some("`plies` is not its line's length")
        );
        // Ended before the rules ended it (adjudication, a forfeit): any result.
        assert_eq!(fault("1 2 3", "0-1", 3), None);
    }

    /// The module's parse doc: seconds and depths are finite and not negative. `inf`,
    /// `-inf`, `NaN` and a negative figure in either side's `time_s` or `mean_depth`
    /// (EXPERIMENTS.md's games.csv columns) leave the row unreadable, as a resumed or
    /// plotted match must (`0` and an empty depth still read).
    #[test]
    fn seconds_or_depths_that_are_not_finite_or_are_negative_do_not_read() {
        let mut game = row("1 2 3 4 5 6 7", "1-0", 7);
        game.sides = [SideStats {
            moves: 4,
            time_s: 1.5,
            depth_sum: 12,
            depth_moves: 4,
            ..SideStats::default()
        }; 2];
        let fields = game.fields();
        let at = |name: &str| COLUMNS.iter().position(|&c| c == name).unwrap();
        for column in [
            "{first}_time_s",
            "{first}_mean_depth",
            "{second}_time_s",
            "{second}_mean_depth",
        ] {
            let with = |text: &str| {
                let mut edited = fields.clone();
                edited[at(column)] = text.to_owned();
                GameRow::parse(&csv::StringRecord::from(edited), Layout::CURRENT)
            };
            for bad in ["inf", "-inf", "NaN", "-1", "-0.5"] {
                assert_eq!(with(bad), None, "{column} = {bad} read");
            }
            assert!(with("0").is_some(), "{column} = 0 did not read");
        }
        let mut no_depth = fields.clone();
        no_depth[at("{first}_mean_depth")] = String::new();
        let read = GameRow::parse(&csv::StringRecord::from(no_depth), Layout::CURRENT);
        assert_eq!(read.map(|r| r.sides[0].depth_moves), Some(0));
    }

    /// `stored_time`'s doc: a time as games.csv stores it, to the millisecond (`{:.3}`).
    /// By hand: 0.1236 s is 0.124, 2.0004 s is 2.000, 59.9996 s is 60.000; and a time
    /// written in a row reads back as that figure.
    #[test]
    fn a_stored_time_is_the_time_to_the_millisecond_as_the_row_reads_it_back() {
        for (seconds, stored) in [(0.1236, 0.124), (2.0004, 2.0), (59.9996, 60.0), (0.0, 0.0)] {
            assert_eq!(stored_time(seconds), stored, "{seconds} s");
            let mut game = row("1 2 3 4 5 6 7", "1-0", 7);
            game.sides[1].time_s = seconds;
            let written = csv::StringRecord::from(game.fields());
            let read = GameRow::parse(&written, Layout::CURRENT).unwrap();
            assert_eq!(read.sides[1].time_s, stored, "{seconds} s read back");
        }
    }

    /// EXPERIMENTS.md's games.csv columns: `white`, `black` and `white_`/`black_` figures
    /// in chess; `black`, `white` in checkers, where Black moves first; `first`, `second`
    /// in the other games.
    #[test]
    fn the_header_names_the_sides_as_each_game_does() {
        for (game, first, second) in [
            (GameKind::Chess, "white", "black"),
            (GameKind::Checkers, "black", "white"),
            (GameKind::Connect4, "first", "second"),
            (GameKind::Tictactoe, "first", "second"),
            (GameKind::Othello, "first", "second"),
        ] {
            let header = header(game);
            assert_eq!(header.len(), 23);
            assert_eq!(
                [&header[5][..], &header[6][..]],
                [first, second],
                "{game:?}"
            );
            assert_eq!(header[10], format!("{first}_moves"), "{game:?}");
            assert_eq!(header[18], format!("{second}_mean_depth"), "{game:?}");
            assert_eq!(header[21], "annotations");
            assert_eq!(header[22], "seed");
        }
    }
}

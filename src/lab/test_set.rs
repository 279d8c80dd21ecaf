//! Test sets: positions with known answers. Chess sets are EPD ([`super::epd`]); the
//! others have one position per line as `<position> <known score>` (Pascal Pons's
//! connect-four format), `#` comments and blank lines skipped. Read by experiment files
//! (`file = ...`) and by `plylab suite`.

use std::path::{Path, PathBuf};

use super::answer::Answer;
use super::spec::{GameKind, GamePosition, PositionEntry};
use crate::game::{Game, ParseError, Status, score};
use crate::games::chess::ChessMove;
use crate::games::connect4::pons_score_range;
use crate::games::othello::obf;

/// A test set that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TestSetError {
    /// The file is unreadable.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A line holds a bad position or score.
    #[error("{path}:{line}: bad position `{text}`: {reason}")]
    Position {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The line's text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// No positions at all.
    #[error("`{0}` holds no positions")]
    Empty(PathBuf),
    /// A game without a test-set format.
    #[error(
        "`{0}`: backgammon has no test-set format (a position's plays hold spaces, and no \
         known score is exact); list the positions in `positions` instead"
    )]
    NoFormat(PathBuf),
    /// An EPD file that cannot be read.
    #[error("{0}")]
    Epd(#[from] super::epd::EpdError),
}

/// Reads the first `take` positions (all if `None`) of the test set at `path`; the set is
/// named after the file.
pub fn read(
    kind: GameKind,
    path: &Path,
    take: Option<usize>,
) -> Result<Vec<PositionEntry>, TestSetError> {
    read_checked(kind, path, take, false).map(|loaded| loaded.entries)
}

/// A test set read with [`read_checked`].
#[derive(Debug)]
pub struct Loaded {
    /// The positions.
    pub entries: Vec<PositionEntry>,
    /// The malformed records left out (with `skip_invalid`), as the errors they would have
    /// been: file, line and cause.
    pub skipped: Vec<TestSetError>,
}

/// [`read`], and with `skip_invalid` malformed records are left out and counted in
/// [`Loaded::skipped`] instead of refusing the file (`plylab suite --skip-invalid`).
///
/// # Errors
/// An unreadable or empty file; without `skip_invalid`, the first malformed record.
pub fn read_checked(
    kind: GameKind,
    path: &Path,
    take: Option<usize>,
    skip_invalid: bool,
) -> Result<Loaded, TestSetError> {
    if kind == GameKind::Chess {
        return read_epd(path, take, skip_invalid);
    }
    if kind == GameKind::Othello {
        // Edax's .obf files also mark comment lines with `%`.
        return read_lines(path, take, skip_invalid, "#%", obf_entry);
    }
    if kind == GameKind::Backgammon {
        return Err(TestSetError::NoFormat(path.to_path_buf()));
    }
    // Whether the set's lines carry a known score, as its first position's does: a line that
    // lost its score would be searched and left out of the count of answers, unseen.
    let mut scored = None;
    read_lines(path, take, skip_invalid, "#", |line, set| {
        let entry = parse_line(kind, line, set).map_err(|e| e.to_string())?;
        let has_score = entry.answer.is_some();
        if *scored.get_or_insert(has_score) == has_score {
            return Ok(entry);
        }
        let (this, first) = if has_score {
            ("a known score", "none")
        } else {
            ("no known score", "one")
        };
        Err(format!(
            "{this}, while the set's first position has {first}: every line of a set gives \
             its score, or none does"
        ))
    })
}

/// A test set of one record a line, blank lines and comment lines (starting with one of
/// `comment_marks`) skipped: each line made into an entry by `entry(line, set name)`, at most
/// `take` of them; a line it refuses is reported with its number.
fn read_lines(
    path: &Path,
    take: Option<usize>,
    skip_invalid: bool,
    comment_marks: &str,
    mut entry: impl FnMut(&str, &str) -> Result<PositionEntry, String>,
) -> Result<Loaded, TestSetError> {
    let text = crate::input::read_text(path, crate::input::Cap::TEXT).map_err(|source| {
        TestSetError::Io {
            path: path.to_path_buf(),
            source,
        }
    })?;
    let set = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for (number, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with(|c| comment_marks.contains(c)) {
            continue;
        }
        // Leading blanks kept: in `<moves> <score>`, ` 1` is an empty move list.
        let line = raw.trim_end();
        if take.is_some_and(|t| out.len() >= t) {
            break;
        }
        let entry = entry(line, &set).map_err(|reason| TestSetError::Position {
            path: path.to_path_buf(),
            line: number + 1,
            text: line.to_owned(),
            reason,
        });
        match entry {
            Ok(entry) => out.push(entry),
            Err(e) if skip_invalid => skipped.push(e),
            Err(e) => return Err(e),
        }
    }
    if out.is_empty() {
        return Err(TestSetError::Empty(path.to_path_buf()));
    }
    Ok(Loaded {
        entries: out,
        skipped,
    })
}

/// An EPD test set: each record's FEN, with its `bm`, `am` and `ce +Mn` as the answer.
fn read_epd(path: &Path, take: Option<usize>, skip_invalid: bool) -> Result<Loaded, TestSetError> {
    let set = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let (records, skipped) = super::epd::read_checked(path, take, skip_invalid)?;
    if records.is_empty() {
        return Err(TestSetError::Empty(path.to_path_buf()));
    }
    let uci = |moves: &[ChessMove]| moves.iter().map(ToString::to_string).collect();
    let entries = records
        .into_iter()
        .map(|r| {
            let judged = !r.best.is_empty() || !r.avoid.is_empty() || r.mate_in.is_some();
            PositionEntry {
                label: r.fen.clone(),
                set: set.clone(),
                answer: judged.then(|| Answer::Moves {
                    best: uci(&r.best),
                    avoid: uci(&r.avoid),
                    mate_in: r.mate_in,
                }),
                position: GamePosition::Chess(r.position),
            }
        })
        .collect();
    Ok(Loaded {
        entries,
        skipped: skipped.into_iter().map(TestSetError::Epd).collect(),
    })
}

/// An othello `.obf` record: its position, judged by its best score and the moves that
/// reach it, or by its score alone when it lists no move (records with neither are searched
/// but not judged).
fn obf_entry(line: &str, set: &str) -> Result<PositionEntry, String> {
    let record = obf::parse_line(line).map_err(|e| e.to_string())?;
    let best: Vec<String> = record
        .best_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    let answer = record.score().map(|score| {
        if best.is_empty() {
            Answer::Score(score)
        } else {
            Answer::Exact { score, best }
        }
    });
    Ok(PositionEntry {
        label: record.board.clone(),
        set: set.to_owned(),
        answer,
        position: GamePosition::Othello(record.position),
    })
}

/// One line of a test set: a position, then optionally its known score. In the games whose
/// positions are move lists (connect four, tic-tac-toe) an empty list before the score
/// (` 1`, Pons's format for the empty board) is the start position.
pub fn parse_line(kind: GameKind, line: &str, set: &str) -> Result<PositionEntry, ParseError> {
    let line = line.trim_end();
    let (text, expected) = match line.rsplit_once(char::is_whitespace) {
        Some((pos, score)) => {
            let score = score
                .parse::<i32>()
                .map_err(|_| ParseError::new(format!("`{score}` is not a score")))?;
            (pos.trim(), Some(score))
        }
        None => (line, None),
    };
    let move_list = matches!(kind, GameKind::Connect4 | GameKind::Tictactoe);
    let text = if text.is_empty() && move_list {
        "start"
    } else {
        text
    };
    let position = GamePosition::parse(kind, text)?;
    if let Some(score) = expected {
        check_known_score(&position, score)?;
    }
    Ok(PositionEntry {
        label: text.to_owned(),
        set: set.to_owned(),
        position,
        answer: expected.map(Answer::Score),
    })
}

/// A known score the position can have in its set's convention: one outside it could only
/// be missed, every time, and would be counted as the search's failure.
fn check_known_score(position: &GamePosition, known: i32) -> Result<(), ParseError> {
    match position {
        GamePosition::Connect4(p) => {
            let range = pons_score_range(p);
            if range.contains(&known) {
                return Ok(());
            }
            Err(ParseError::new(format!(
                "{known} is not a possible score: Pons's scores, (43 - stones when the winner \
                 plays) / 2, lie in {}..={} for this position",
                range.start(),
                range.end()
            )))
        }
        GamePosition::TicTacToe(p) => {
            if let Status::Over(outcome) = p.status() {
                return finished_score(known, score::of_outcome(outcome, 0));
            }
            // The set's scores are the search's: a draw, or a win or loss at most the empty
            // squares away, the winner making the last move.
            let left = p
                .remaining_plies()
                .map_or(i32::MAX, |n| i32::try_from(n).unwrap_or(i32::MAX));
            let plies = score::plies_to_end(known);
            if known == 0 || plies.is_some_and(|d| d <= left && winner_moves_last(known, d)) {
                return Ok(());
            }
            Err(ParseError::new(format!(
                "{known} is not a possible score: tic-tac-toe's are 0 (a draw) or \
                 ±({} - plies to the end), at most {left} plies from here, a win (+) an odd \
                 number of plies away and a loss (-) an even one",
                score::WIN
            )))
        }
        GamePosition::Checkers(p) => {
            if p.status() != Status::Ongoing {
                // Over: no move for the side to move, a loss 0 plies away.
                return finished_score(known, 0);
            }
            let plies = known.unsigned_abs();
            let possible = known == 0
                || (plies < score::MAX_PLY.unsigned_abs()
                    && winner_moves_last(known, plies.cast_signed()));
            if possible {
                return Ok(());
            }
            Err(ParseError::new(format!(
                "{known} is not a possible score: checkers sets give signed plies to the end, \
                 a win (+) an odd number of plies away, a loss (-) an even one, 0 a draw"
            )))
        }
        _ => Ok(()),
    }
}

/// In these games the winner makes the last move: a win for the side to move (`known` > 0)
/// is an odd number of plies away, a loss an even one.
fn winner_moves_last(known: i32, plies: i32) -> bool {
    (plies % 2 == 1) == (known > 0)
}

/// A finished position has one score: `exact`, in the set's convention.
fn finished_score(known: i32, exact: i32) -> Result<(), ParseError> {
    if known == exact {
        return Ok(());
    }
    Err(ParseError::new(format!(
        "{known} is not a possible score: the game is over here, and its score is {exact}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(kind: GameKind, text: &str) -> Result<PositionEntry, ParseError> {
        parse_line(kind, text, "set")
    }

    #[test]
    fn impossible_known_scores_are_refused() {
        assert!(line(GameKind::Connect4, "4 18").is_ok());
        for bad in ["4 22", "4 100", "4 -19"] {
            let err = line(GameKind::Connect4, bad).unwrap_err().to_string();
            assert!(err.contains("not a possible score"), "{bad}: {err}");
        }
        assert!(line(GameKind::Tictactoe, "1234 0").is_ok());
        let win = format!("1234 {}", score::win_in(3));
        assert!(line(GameKind::Tictactoe, &win).is_ok());
        for bad in ["1234 5".to_owned(), format!("1234 {}", score::win_in(6))] {
            let err = line(GameKind::Tictactoe, &bad).unwrap_err().to_string();
            assert!(err.contains("not a possible score"), "{bad}: {err}");
        }
        // Finished: X has completed 3-5-7, so O to move has lost, 0 plies away; a full
        // board without a line is a draw.
        let lost = format!("1234567 {}", score::loss_in(0));
        assert!(line(GameKind::Tictactoe, &lost).is_ok());
        assert!(line(GameKind::Tictactoe, "519328467 0").is_ok());
        for bad in ["1234567 0", "1234567 1900000000", "519328467 -1899999998"] {
            let err = line(GameKind::Tictactoe, bad).unwrap_err().to_string();
            assert!(err.contains("the game is over here"), "{bad}: {err}");
        }
        // Not finished: a win is an odd number of plies away, a loss an even one (and a win
        // 0 plies away is no score at all).
        for bad in [score::win_in(0), score::win_in(2), score::loss_in(3)] {
            let err = line(GameKind::Tictactoe, &format!("1 {bad}"))
                .unwrap_err()
                .to_string();
            assert!(err.contains("not a possible score"), "{bad}: {err}");
        }
        assert!(line(GameKind::Tictactoe, &format!("1 {}", score::loss_in(2))).is_ok());
        // Black to move without a piece has lost: 0 in the set's signed plies.
        assert!(line(GameKind::Checkers, "B:W5:B 0").is_ok());
        let err = line(GameKind::Checkers, "B:W5:B 5")
            .unwrap_err()
            .to_string();
        assert!(err.contains("the game is over here"), "{err}");
        let checkers = "W:W31,K19:BK24,K27";
        for good in [0, 29, -42, 1, -2] {
            assert!(line(GameKind::Checkers, &format!("{checkers} {good}")).is_ok());
        }
        for bad in [28, -41, -1, 10_001] {
            let err = line(GameKind::Checkers, &format!("{checkers} {bad}"))
                .unwrap_err()
                .to_string();
            assert!(err.contains("not a possible score"), "{bad}: {err}");
        }
    }

    #[test]
    fn a_line_without_the_score_its_set_gives_is_refused() {
        let dir = crate::testing::TempDir::new("set");
        let read_text = |name: &str, text: &str| {
            let path = dir.path(name);
            std::fs::write(&path, text).unwrap();
            read_checked(GameKind::Connect4, &path, None, false).map(|l| l.entries.len())
        };
        assert_eq!(read_text("all", "4453 1\n44 0\n").unwrap(), 2);
        assert_eq!(read_text("none", "4453\n44\n").unwrap(), 2);
        // An empty move list before the score is the empty board (a first-player win on
        // the 41st stone: Pons's 1), not the position after the score read as a move.
        assert_eq!(read_text("empty", "4453 1\n 1\n").unwrap(), 2);
        let start = line(GameKind::Connect4, " 1").unwrap();
        assert_eq!(start.label, "start");
        assert!(matches!(start.answer, Some(Answer::Score(1))));
        for (name, text, line, why) in [
            ("lost", "4453 1\n# a comment\n4453\n", 3, "no known score"),
            ("gained", "4453\n44 0\n", 2, "a known score"),
        ] {
            let err = read_text(name, text).unwrap_err().to_string();
            assert!(err.contains(&format!("{name}:{line}:")), "{err}");
            assert!(err.contains(why), "{err}");
        }
    }

    /// A test set file of `text` in a fresh directory; the directory is removed with it.
    struct SetFile {
        path: std::path::PathBuf,
        _dir: crate::testing::TempDir,
    }

    impl SetFile {
        fn new(name: &str, text: &str) -> Self {
            let dir = crate::testing::TempDir::new(&format!("set-{name}"));
            let path = dir.path(name);
            std::fs::write(&path, text).unwrap();
            Self { path, _dir: dir }
        }
    }

    /// A checkers set's signed plies to the end must stay below score::MAX_PLY, "longer
    /// than any line a search can follow" (game.rs): a loss 10,000 plies away would be
    /// the score -(WIN - MAX_PLY) = -DECISIVE, which score::is_decisive does not count as a
    /// loss at all. 9,998 and 9,999 plies (even for a loss, odd for a win) are possible.
    #[test]
    fn a_checkers_result_max_ply_away_is_not_a_possible_score() {
        let checkers = "W:W31,K19:BK24,K27";
        assert!(!score::is_decisive(score::loss_in(score::MAX_PLY)));
        for good in [-9_998, 9_999] {
            let text = format!("{checkers} {good}");
            assert!(line(GameKind::Checkers, &text).is_ok(), "{text}");
        }
        let bad = format!("{checkers} {}", -score::MAX_PLY);
        let err = line(GameKind::Checkers, &bad).unwrap_err().to_string();
        assert!(err.contains("not a possible score"), "{bad}: {err}");
    }

    /// read_checked's documented contract: with `skip_invalid` a malformed record is left
    /// out and counted in `Loaded::skipped` with its file and line, the others kept;
    /// without it the same file is refused at that line. Line 2 is malformed by hand:
    /// `4444444` drops a seventh stone into column 4, which holds six.
    #[test]
    fn skip_invalid_leaves_a_malformed_line_out_and_counts_it() {
        let set = SetFile::new("skipping", "4453 1\n4444444 0\n44 0\n");
        let loaded = read_checked(GameKind::Connect4, &set.path, None, true).unwrap();
        let labels: Vec<&str> = loaded.entries.iter().map(|e| e.label.as_str()).collect();
        assert_eq!(labels, ["4453", "44"]);
        assert_eq!(loaded.skipped.len(), 1);
        let skipped = loaded.skipped[0].to_string();
        assert!(skipped.contains("skipping:2:"), "{skipped}");
        let err = read_checked(GameKind::Connect4, &set.path, None, false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("skipping:2:"), "{err}");
    }

    /// read_epd's answer, per the module docs ("each record's FEN, with its `bm`, `am` and
    /// `ce +Mn` as the answer") and Edwards's EPD operations (PGN standard, 16.2): a record
    /// with any one of `bm`, `am` or a mate is judged by it, a record with none of them
    /// (only an `id`) is searched but not judged. The mate is the fool's mate, 1. f3 e5
    /// 2. g4, where black's Qh4 mates at once; an EPD file of comments alone holds no
    /// positions.
    #[test]
    fn an_epd_record_is_judged_by_its_bm_am_or_mate() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        let fool = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq -";
        let text = format!(
            "# four records\n{start} bm e4; id \"best\";\n{start} am a3; id \"avoid\";\n\
             {fool} ce +M1; id \"mate\";\n{start} id \"unjudged\";\n"
        );
        let set = SetFile::new("judged.epd", &text);
        let entries = read(GameKind::Chess, &set.path, None).unwrap();
        let answers: Vec<Option<Answer>> = entries.iter().map(|e| e.answer.clone()).collect();
        let moves = |best: &[&str], avoid: &[&str], mate_in| {
            Some(Answer::Moves {
                best: best.iter().map(ToString::to_string).collect(),
                avoid: avoid.iter().map(ToString::to_string).collect(),
                mate_in,
            })
        };
        assert_eq!(
            answers,
            [
                moves(&["e2e4"], &[], None),
                moves(&[], &["a2a3"], None),
                moves(&[], &[], Some(1)),
                None,
            ]
        );
        assert!(entries.iter().all(|e| e.set == "judged.epd"));
        let empty = SetFile::new("empty.epd", "# nothing but a comment\n\n");
        let err = read(GameKind::Chess, &empty.path, None).unwrap_err();
        assert!(matches!(err, TestSetError::Empty(_)), "{err}");
    }

    /// An othello `.obf` record is judged by its best score and the moves reaching it, or
    /// by its score alone when it lists no move (obf_entry's doc; Edax's obf format).
    /// The record is the first of Edax's problem/fforum-1-19.obf (FFO #1): G8 gains +18,
    /// H1 +12, so G8 alone is best at +18.
    #[test]
    fn an_obf_record_is_judged_by_its_best_moves_or_its_bare_score() {
        let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        let text = format!("% FFO #1\n{board}; G8:+18; H1:+12;\n{board}; +18;\n{board};\n");
        let set = SetFile::new("ffo.obf", &text);
        let entries = read(GameKind::Othello, &set.path, None).unwrap();
        assert_eq!(entries.len(), 3);
        match &entries[0].answer {
            Some(Answer::Exact { score: 18, best }) => {
                assert_eq!(best.len(), 1, "{best:?}");
                assert!(best[0].eq_ignore_ascii_case("g8"), "{best:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(entries[1].answer, Some(Answer::Score(18))));
        assert!(entries[2].answer.is_none());
    }

    #[test]
    fn pons_sets_hold_possible_scores_only() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/data/connect4");
        for set in ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1"] {
            let entries = read(GameKind::Connect4, &dir.join(set), None).unwrap();
            assert_eq!(entries.len(), 1000, "{set}");
        }
    }
}

//! Chess games in PGN export format (Steven J. Edwards, "Portable Game Notation Specification
//! and Implementation Guide", 1994, section 8), for replay in any chess GUI or database.
//!
//! A game is written as:
//!
//! - the Seven Tag Roster in its fixed order (Event, Site, Date, Round, White, Black, Result;
//!   section 8.1.1), an empty value written as the standard "unknown" (`?`, or `????.??.??`
//!   for the date);
//! - then the other tags in ASCII order by name, as section 8.1.1 requires for export:
//!   `FEN` and `SetUp "1"` when the game does not start from the standard initial position
//!   (section 9.7), `PlyCount` (section 9.2.1), `Termination` when the game's reason is
//!   known and `TimeControl` when the game had one (section 9.6.1: `base+increment` in
//!   seconds, `moves/seconds` for a period of moves);
//! - an empty line, the movetext in SAN with move numbers (`N.` before White's moves, `N...`
//!   before a first move by Black, section 8.2.2.2), the result token last, lines of fewer
//!   than 80 characters with single spaces between tokens (section 8.2.1), and an empty line
//!   that separates it from the next game.
//!
//! **Termination.** Section 9.8.1 lists the standard values (`abandoned`, `adjudication`,
//! `death`, `emergency`, `normal`, `rules infraction`, `time forfeit`, `unterminated`), which
//! tools such as cutechess-cli write and filter on: the tag holds the one
//! [`standard_termination`] gives for the arena's reason, and the reason itself (checkmate,
//! threefold repetition, an adjudication rule) is a comment before the result token, as
//! cutechess-cli writes `{White mates} 1-0`.
//!
//! Tag values escape `\` as `\\` and `"` as `\"`; newlines, tabs and other control
//! characters, which section 7 forbids in strings, become spaces.

use std::io::{self, Write};

use crate::game::Game;
use crate::games::chess::{Chess, ChessMove, Color, START_FEN};

/// The four game termination markers (section 8.2.6), as the PGN reader knows them.
pub use crate::knowledge::book::RESULTS;

/// Export lines have fewer than 80 characters (section 8.2.1).
pub const MAX_LINE: usize = 79;

/// One game to export: the tags, the start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tournament or match (`Event`); `?` when empty.
    pub event: String,
    /// Where it was played (`Site`); `?` when empty.
    pub site: String,
    /// The start date as `YYYY.MM.DD`, `?` for unknown digits; `????.??.??` when empty.
    pub date: String,
    /// The round, e.g. `3` or `3.1` (`Round`); `?` when empty.
    pub round: String,
    /// The player with the white pieces; `?` when empty.
    pub white: String,
    /// The player with the black pieces; `?` when empty.
    pub black: String,
    /// One of [`RESULTS`]: `1-0`, `0-1`, `1/2-1/2` or `*` (unfinished).
    pub result: String,
    /// The position before the first move; its fullmove number numbers the moves.
    pub start: Chess,
    /// The moves played, each legal in the position it is played from.
    pub moves: Vec<ChessMove>,
    /// Why the game ended, as the arena says it (`checkmate`, `time forfeit`, `crash`...):
    /// the `Termination` tag gets its standard value ([`standard_termination`]) and the
    /// movetext a comment with it before the result (neither when empty).
    pub termination: String,
    /// The `TimeControl` tag value (section 9.6.1), none when empty.
    pub time_control: String,
    /// Per move, a comment written after it (section 8.2.5; as cutechess-cli writes
    /// `{+0.35/12 0.101s}`), none when empty or missing.
    pub comments: Vec<String>,
}

/// The standard `Termination` values (section 9.8.1).
pub const STANDARD_TERMINATIONS: [&str; 8] = [
    "abandoned",
    "adjudication",
    "death",
    "emergency",
    "normal",
    "rules infraction",
    "time forfeit",
    "unterminated",
];

/// The standard `Termination` value (section 9.8.1) for the arena's reason a game ended:
/// the game's own rules (checkmate, stalemate, repetition, the fifty-move rule,
/// insufficient material) are `normal`; `adjudication` and `max plies` (a draw the arena
/// declares) are `adjudication`; a flag fall is `time forfeit`; an illegal move is `rules
/// infraction`; an engine that crashed, hung or could not be driven `abandoned`.
#[must_use]
pub fn standard_termination(reason: &str) -> &'static str {
    match reason {
        "adjudication" | "max plies" | "draw adjudication" | "resign adjudication" => {
            "adjudication"
        }
        "time forfeit" => "time forfeit",
        "illegal move" => "rules infraction",
        "crash" | "hang" | "engine error" => "abandoned",
        "" => "unterminated",
        // The standard's own values stand; every other reason is one of the game's rules.
        _ => STANDARD_TERMINATIONS
            .iter()
            .find(|&&t| t == reason)
            .copied()
            .unwrap_or("normal"),
    }
}

/// Writes `game` in PGN export format, followed by the empty line that separates games.
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] if the result is not one of [`RESULTS`] or a move is not
/// legal where it is played (nothing is written then); otherwise any error of `out`.
pub fn write_game(out: &mut impl Write, game: &PgnGame) -> io::Result<()> {
    if !RESULTS.contains(&game.result.as_str()) {
        return Err(invalid(format!(
            "result `{}` is none of {}",
            game.result,
            RESULTS.join(", ")
        )));
    }
    let tokens = movetext(game)?;
    let mut text = String::new();
    for (name, value) in tags(game) {
        text.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    text.push('\n');
    for line in wrap(&tokens, MAX_LINE) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push('\n');
    out.write_all(text.as_bytes())
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// The tag pairs in export order: the Seven Tag Roster, then the others by name.
fn tags(game: &PgnGame) -> Vec<(&'static str, String)> {
    let known =
        |value: &str, unknown: &str| if value.is_empty() { unknown } else { value }.to_string();
    let mut tags = vec![
        ("Event", known(&game.event, "?")),
        ("Site", known(&game.site, "?")),
        ("Date", known(&game.date, "????.??.??")),
        ("Round", known(&game.round, "?")),
        ("White", known(&game.white, "?")),
        ("Black", known(&game.black, "?")),
        ("Result", game.result.clone()),
    ];
    let fen = game.start.to_fen();
    if fen != START_FEN {
        tags.push(("FEN", fen));
        tags.push(("SetUp", "1".into()));
    }
    tags.push(("PlyCount", game.moves.len().to_string()));
    if !game.termination.is_empty() {
        let standard = standard_termination(&game.termination);
        tags.push(("Termination", standard.to_owned()));
    }
    if !game.time_control.is_empty() {
        tags.push(("TimeControl", game.time_control.clone()));
    }
    // Section 8.1.1: the tags after the Seven Tag Roster in ASCII order of their names.
    tags[7..].sort_by_key(|&(name, _)| name);
    tags
}

/// A tag value with `\` and `"` escaped and control characters replaced by spaces
/// (section 8.1.1 and section 7 on strings).
#[must_use]
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The movetext tokens: move numbers, SAN moves, the result. Each move is checked for
/// legality before it is played.
fn movetext(game: &PgnGame) -> io::Result<Vec<String>> {
    let mut pos = game.start.clone();
    let mut number = u32::from(pos.board().fullmove_number().max(1));
    let mut tokens = Vec::with_capacity(game.moves.len() * 3 / 2 + 2);
    for (i, &mv) in game.moves.iter().enumerate() {
        if !pos.legal_moves().contains(&mv) {
            return Err(invalid(format!(
                "move {} ({mv}) is not legal in {}",
                i + 1,
                pos.to_fen()
            )));
        }
        let white = pos.color_to_move() == Color::White;
        // Section 8.2.2.2: `N...` before a Black move that opens the movetext or follows a
        // comment.
        let commented = i > 0 && game.comments.get(i - 1).is_some_and(|c| !c.is_empty());
        if white {
            tokens.push(format!("{number}."));
        } else if i == 0 || commented {
            tokens.push(format!("{number}..."));
        }
        tokens.push(pos.san(mv));
        if let Some(c) = game.comments.get(i).filter(|c| !c.is_empty()) {
            tokens.push(format!("{{{}}}", c.replace('}', ")")));
        }
        pos.play(mv);
        if !white {
            number += 1;
        }
    }
    if !game.termination.is_empty() {
        // A comment may not hold `}` (section 8.2.5).
        tokens.push(format!("{{{}}}", game.termination.replace('}', ")")));
    }
    tokens.push(game.result.clone());
    Ok(tokens)
}

/// Greedy line filling: as many tokens per line as fit in `width` characters, separated by
/// single spaces (section 8.2.1). A token longer than `width` gets a line of its own.
#[must_use]
pub fn wrap(tokens: &[String], width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn game(start: Chess, moves: &[&str], result: &str) -> PgnGame {
        let mut pos = start.clone();
        let moves = moves
            .iter()
            .map(|m| {
                let mv = pos.parse_uci(m).expect("legal test move");
                pos.play(mv);
                mv
            })
            .collect();
        PgnGame {
            event: "test".into(),
            site: "plylab".into(),
            date: "2025.01.02".into(),
            round: "1".into(),
            white: "alpha".into(),
            black: "beta".into(),
            result: result.into(),
            start,
            moves,
            termination: String::new(),
            time_control: String::new(),
            comments: Vec::new(),
        }
    }

    fn text(game: &PgnGame) -> String {
        let mut out = Vec::new();
        write_game(&mut out, game).expect("writes");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn fools_mate_from_the_start() {
        let mut g = game(Chess::startpos(), &["f2f3", "e7e5", "g2g4", "d8h4"], "0-1");
        g.termination = "checkmate".into();
        g.time_control = "60+1".into();
        let want = "[Event \"test\"]\n[Site \"plylab\"]\n[Date \"2025.01.02\"]\n\
                    [Round \"1\"]\n[White \"alpha\"]\n[Black \"beta\"]\n[Result \"0-1\"]\n\
                    [PlyCount \"4\"]\n[Termination \"normal\"]\n[TimeControl \"60+1\"]\n\n\
                    1. f3 e5 2. g4 Qh4# {checkmate} 0-1\n\n";
        assert_eq!(text(&g), want);
    }

    #[test]
    fn black_to_move_start_has_fen_tags_and_an_ellipsis() {
        let fen = "4k3/8/8/8/8/8/4P3/R3K3 b Q - 3 30";
        let start = Chess::parse_position(fen).unwrap();
        let g = game(start, &["e8d7", "e1c1", "d7e6", "e2e4"], "*");
        let t = text(&g);
        assert!(
            t.contains(&format!(
                "[Result \"*\"]\n[FEN \"{fen}\"]\n[PlyCount \"4\"]\n[SetUp \"1\"]\n\n"
            )),
            "{t}"
        );
        assert!(t.contains("\n30... Kd7 31. O-O-O+ Ke6 32. e4 *\n"), "{t}");
        assert!(!t.contains("Termination"));
    }

    #[test]
    fn empty_tags_are_unknown_and_values_are_escaped() {
        let mut g = game(Chess::startpos(), &[], "*");
        g.event = String::new();
        g.date = String::new();
        g.white = "Deep \"Blue\" \\ 2\nline".into();
        let t = text(&g);
        assert!(t.starts_with("[Event \"?\"]\n"), "{t}");
        assert!(t.contains("[Date \"????.??.??\"]\n"), "{t}");
        assert!(
            t.contains("[White \"Deep \\\"Blue\\\" \\\\ 2 line\"]\n"),
            "{t}"
        );
        assert!(t.ends_with("\n\n*\n\n"), "{t}");
    }

    #[test]
    fn long_games_wrap_under_80_columns() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let moves: Vec<&str> = shuffle.iter().copied().cycle().take(120).collect();
        let g = game(Chess::startpos(), &moves, "1/2-1/2");
        let t = text(&g);
        let movetext: Vec<&str> = t.split("\n\n").nth(1).expect("movetext").lines().collect();
        assert!(movetext.len() > 5);
        for pair in movetext.windows(2) {
            let next = pair[1].split(' ').next().unwrap();
            assert!(
                pair[0].len() + 1 + next.len() > MAX_LINE,
                "not filled: {pair:?}"
            );
        }
        for line in &movetext {
            assert!(line.len() < 80 && !line.starts_with(' ') && !line.ends_with(' '));
        }
        let joined = movetext.join(" ");
        assert!(
            joined.starts_with("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3"),
            "{joined}"
        );
        assert!(joined.ends_with("60. Ng1 Ng8 1/2-1/2"), "{joined}");
    }

    #[test]
    fn games_are_separated_by_an_empty_line() {
        let g = game(Chess::startpos(), &["e2e4"], "*");
        let mut out = Vec::new();
        write_game(&mut out, &g).unwrap();
        write_game(&mut out, &g).unwrap();
        let t = String::from_utf8(out).unwrap();
        assert_eq!(t.matches("\n\n[Event").count(), 1, "{t}");
    }

    #[test]
    fn bad_results_and_illegal_moves_are_refused() {
        let mut g = game(Chess::startpos(), &["e2e4"], "1-0");
        g.result = "white wins".into();
        let err = write_game(&mut Vec::new(), &g).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        g.result = "1-0".into();
        g.moves.push(g.moves[0]);
        let err = write_game(&mut Vec::new(), &g).unwrap_err();
        assert!(err.to_string().contains("move 2 (e2e4)"), "{err}");
    }
}

//! games.pgn: the chess games of games.csv in PGN, rebuilt from each row's opening and
//! moves (so that a resumed match writes every game, kept or new).

use std::path::Path;

use super::pgn::{PgnGame, write_game};
use super::record::GameRow;
use super::spec::MatchPlan;
use crate::game::{Game, Notation};
use crate::games::chess::Chess;

/// Writes every row of `rows` (chess games) to `path`.
pub fn write_pgn(plan: &MatchPlan, rows: &[GameRow], path: &Path) -> std::io::Result<()> {
    let date = crate::lab::machine::now_iso8601()[..10].replace('-', ".");
    crate::output::replace(path, |out| {
        for row in rows {
            write_game(out, &pgn_game(plan, row, &date)?)?;
        }
        Ok(())
    })
}

/// One row as a PGN game.
fn pgn_game(plan: &MatchPlan, row: &GameRow, date: &str) -> std::io::Result<PgnGame> {
    let bad = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let start = Chess::parse_position(&row.opening)
        .map_err(|e| bad(format!("game {}: opening `{}`: {e}", row.game, row.opening)))?;
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(row.plies as usize);
    for text in row.line.split_whitespace() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| bad(format!("game {}: move `{text}`: {e}", row.game)))?;
        pos.play(mv);
        moves.push(mv);
    }
    Ok(PgnGame {
        event: plan.name.clone(),
        site: "plylab arena".into(),
        date: date.to_owned(),
        round: format!("{}.{}", row.round + 1, row.leg + 1),
        white: row.first.clone(),
        black: row.second.clone(),
        result: row.winner.result().to_owned(),
        start,
        moves,
        termination: row.reason.clone(),
        time_control: time_control(plan, row),
        comments: row.annotations.split_whitespace().map(comment).collect(),
    })
}

/// A ply's PGN comment from its games.csv annotation ([`super::play::annotation`]), as
/// cutechess-cli writes them: `+0.35/12 0.101s` (score from the mover's view in pawns or
/// `+M5`/`-M5`, depth, seconds), `0.101s` without a score, `book` for a book move.
fn comment(annotation: &str) -> String {
    let mut fields = annotation.split('/');
    let (Some(score), Some(depth), Some(secs)) = (fields.next(), fields.next(), fields.next())
    else {
        return annotation.to_owned();
    };
    match (score, depth) {
        ("", _) => format!("{secs}s"),
        (s, "") => format!("{s} {secs}s"),
        (s, d) => format!("{s}/{d} {secs}s"),
    }
}

/// The `TimeControl` tag (PGN section 9.6.1, `seconds+increment`) of a game whose players
/// share a clock; empty otherwise (no clock, or one per player).
fn time_control(plan: &MatchPlan, row: &GameRow) -> String {
    let tc_of = |name: &str| plan.players.iter().find(|p| p.name == name).map(|p| p.tc);
    match (tc_of(&row.first), tc_of(&row.second)) {
        (Some(Some(a)), Some(Some(b))) if a == b => a.to_string(),
        _ => String::new(),
    }
}

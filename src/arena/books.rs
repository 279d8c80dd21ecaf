//! Chess opening books for `[match] openings = { file = ... }` besides EPD: PGN games
//! (cutechess-cli's and fastchess's `format=pgn`) and Polyglot `.bin` books.
//!
//! - A `.pgn` file: each game is an opening, the position after its first `plies` plies
//!   (all of them by default) from its start (the `FEN` tag or the initial position).
//! - A `.bin` file (Polyglot, the format of PolyGlot's `make-book`): one opening per round
//!   of the match, each a walk of `plies` plies (default 8) from the initial position, each
//!   ply a book move drawn in proportion to its weight with a seed from the experiment
//!   seed and the round (so that the same file and seed give the same openings); a walk
//!   stops early where the book has no move.
//!
//! Each opening is the FEN of the position reached: games start from it (PGN `FEN` and
//! `SetUp` tags), as from an EPD book.

use std::path::Path;

use toml::Spanned;

use super::spec::Opening;
use crate::game::Game;
use crate::games::chess::Chess;
use crate::knowledge::book::BookChoice;
use crate::knowledge::book::polyglot::PolyglotBook;
use crate::lab::spec::{GameKind, GamePosition, Source, SpecError};
use crate::rng::mix;

/// Plies walked in a Polyglot book when the file does not say.
pub const DEFAULT_POLYGLOT_PLIES: u32 = 8;

/// The openings of `file` when it is a PGN (`.pgn`) or Polyglot (`.bin`) book (`None` for
/// any other file, read as an EPD or position list), with where they come from.
pub(crate) fn openings(
    src: &Source,
    file: &Spanned<String>,
    plies: Option<&Spanned<u32>>,
    game: GameKind,
    base_dir: &Path,
    seed: u64,
    rounds: usize,
) -> Result<Option<(Vec<Opening>, String)>, SpecError> {
    let path = base_dir.join(file.get_ref());
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let kind = match extension.as_deref() {
        Some("pgn") => "PGN",
        Some("bin") => "Polyglot",
        _ => return Ok(None),
    };
    if game != GameKind::Chess {
        let why = format!("a {kind} book is for chess, not {game}");
        return Err(src.at(file, "file", why));
    }
    if let Some(p) = plies
        && *p.get_ref() == 0
    {
        return Err(src.at(p, "plies", "must be at least 1"));
    }
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let plies = plies.map(|p| *p.get_ref());
    let list = if kind == "PGN" {
        pgn(&path, plies)
    } else {
        polyglot(&path, plies.unwrap_or(DEFAULT_POLYGLOT_PLIES), seed, rounds)
    }
    .map_err(|why| src.at(file, "file", why))?;
    let depth = plies.map_or_else(String::new, |p| format!(", at most {p} plies"));
    let source = format!("{name} ({kind} book, {} openings{depth})", list.len());
    Ok(Some((list, source)))
}

/// An opening at `pos`.
fn opening(pos: &Chess) -> Result<Opening, String> {
    let label = pos.to_fen();
    let position = GamePosition::parse(GameKind::Chess, &label)
        .map_err(|e| format!("position `{label}`: {e}"))?;
    Ok(Opening { label, position })
}

/// The position after the first `plies` plies of each game of a PGN file.
fn pgn(path: &Path, plies: Option<u32>) -> Result<Vec<Opening>, String> {
    let games = crate::knowledge::book::read_pgn(path).map_err(|e| e.to_string())?;
    if games.is_empty() {
        return Err(format!("{}: no games", path.display()));
    }
    games
        .iter()
        .map(|g| {
            let mut pos = g.start.clone();
            let n = plies.map_or(g.moves.len(), |p| g.moves.len().min(p as usize));
            for &mv in &g.moves[..n] {
                pos.play(mv);
            }
            opening(&pos)
        })
        .collect()
}

/// `rounds` seeded weighted walks of at most `plies` plies in a Polyglot book.
fn polyglot(path: &Path, plies: u32, seed: u64, rounds: usize) -> Result<Vec<Opening>, String> {
    let book = PolyglotBook::load(path).map_err(|e| e.to_string())?;
    if book.moves(&Chess::startpos()).is_empty() {
        return Err(format!(
            "{}: the book has no move in the initial position",
            path.display()
        ));
    }
    (0..rounds)
        .map(|round| {
            let mut pos = Chess::startpos();
            for ply in 0..plies {
                let moves = book.moves(&pos);
                let draw = mix(seed ^ mix(round as u64 ^ 0x0B00_C000) ^ u64::from(ply));
                match BookChoice::Weighted.choose(&moves, draw) {
                    Some(mv) => pos.play(mv),
                    None => break,
                }
            }
            opening(&pos)
        })
        .collect()
}

//! The `plylab tablebase` commands: build a database with a progress display and print its
//! statistics, or probe one for a position.

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use super::tablebase::{AnyTable, BuildStats, Ending, TablebaseError, Tablebases, build, checkers};
use crate::game::{Game, Notation, ParseError};
use crate::games::checkers::Checkers;
use crate::games::chess::Chess;
use crate::games::connect4::Connect4;
use crate::interrupt;
use crate::search::probe::Exact;

/// Why a command failed, split as the exit codes are: bad input (2) or a failure (1).
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// A name, position or file the user gave is wrong (exit code 2).
    #[error("{0}")]
    BadInput(String),
    /// Something failed while working (exit code 1).
    #[error("{0}")]
    Failed(String),
    /// Ctrl-C or SIGTERM stopped the work; what was finished is written (exit code 130 or
    /// 143, [`crate::interrupt::exit_code`]).
    #[error("{0}")]
    Interrupted(String),
}

impl From<TablebaseError> for CommandError {
    fn from(e: TablebaseError) -> Self {
        match &e {
            TablebaseError::Io { source, .. } if !names_a_bad_file(source) => {
                Self::Failed(e.to_string())
            }
            _ => Self::BadInput(e.to_string()),
        }
    }
}

/// Makes the folder `out` is to be written in, as `experiment --out` makes its own, so that
/// `--out experiments/data/tablebase/KQK.plytb` works on a fresh clone, and checks that the
/// file can be written there: before the build, not after it.
fn create_parent(out: &Path) -> Result<(), CommandError> {
    if let Some(dir) = out.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            let why = if dir.is_file() {
                "a file is there, not a folder".to_owned()
            } else {
                e.to_string()
            };
            CommandError::BadInput(format!("cannot make the folder {}: {why}", dir.display()))
        })?;
    }
    crate::output::check_writable(out).map_err(|e| {
        CommandError::BadInput(format!(
            "cannot write {}: {e}: choose another --out",
            out.display()
        ))
    })
}

/// Refuses a database or book `--out` that is there, unless `force` (a book of hours of
/// searches, or one of another kind, is not replaced by a mistyped name), and always one that
/// is not a regular file (a directory, a device such as /dev/null, a pipe): the file is
/// written beside it and renamed over it, which would replace such a file rather than write
/// to it. Checked before the build, which can take minutes.
fn check_out_file(out: &Path, force: bool) -> Result<(), CommandError> {
    crate::output::check_regular(out).map_err(|e| {
        CommandError::BadInput(format!("{}: {e}: choose another --out", out.display()))
    })?;
    if out.exists() && !force {
        return Err(CommandError::BadInput(format!(
            "{} is there already: --force replaces it, --out FILE writes elsewhere",
            out.display()
        )));
    }
    Ok(())
}

/// Whether an I/O error is the fault of a path the user gave (a file or folder that is not
/// there, or a file that is not text where text was asked for): bad input, exit code 2, like
/// a malformed file; other I/O errors are failures.
fn names_a_bad_file(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{InvalidData, IsADirectory, NotADirectory, NotFound};
    matches!(
        e.kind(),
        NotFound | InvalidData | IsADirectory | NotADirectory
    )
}

/// `plylab tablebase build GAME ENDING [--out FILE]`: builds, saves (to `ENDING.plytb` by
/// default) and prints the statistics.
///
/// # Errors
/// An unknown game or ending, or a file already at `out` without `force` (bad input), or a
/// file that cannot be written.
pub fn build_tablebase(
    game: &str,
    ending: &str,
    out: Option<&Path>,
    force: bool,
) -> Result<(), CommandError> {
    if game == "checkers" {
        return build_checkers_tablebase(ending, out, force);
    }
    if game != "chess" {
        return Err(CommandError::BadInput(format!(
            "tablebase: game `{game}` has no endgame databases (`chess` and `checkers`)"
        )));
    }
    let ending: Ending = ending.parse()?;
    let path = out.map_or_else(
        || PathBuf::from(format!("{ending}.plytb")),
        Path::to_path_buf,
    );
    check_out_file(&path, force)?;
    create_parent(&path)?;
    let bar = spinner();
    let (table, stats) = build(ending, &mut |plies| {
        bar.set_message(format!("{ending}: wins up to {plies} plies found"));
        bar.tick();
    });
    bar.finish_and_clear();
    table.save(&path)?;
    crate::say!("{}", describe(ending, &stats, &path).trim_end());
    Ok(())
}

/// `plylab tablebase build checkers N`: every position of 1 to N pieces (N at most 4), to
/// `checkersN.plytb` by default.
fn build_checkers_tablebase(
    pieces: &str,
    out: Option<&Path>,
    force: bool,
) -> Result<(), CommandError> {
    let max = checkers::MAX_PIECES;
    let n: u32 = pieces
        .parse()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| {
            CommandError::BadInput(format!(
                "tablebase: checkers takes the number of pieces, 1 to {max}, not `{pieces}`"
            ))
        })?;
    let path = out.map_or_else(
        || PathBuf::from(format!("checkers{n}.plytb")),
        Path::to_path_buf,
    );
    check_out_file(&path, force)?;
    create_parent(&path)?;
    let bar = spinner();
    let (table, stats) = checkers::build_checkers(n, &mut |k, plies| {
        bar.set_message(format!("checkers, {k} pieces: level {plies} plies done"));
        bar.tick();
    })?;
    bar.finish_and_clear();
    table.save(&path)?;
    let mut text = format!(
        "checkers, 1 to {n} pieces -> {}\n\
         pieces  positions  wins  draws  losses  longest win (plies)   (Black to move; White's are their colour-reversed images)\n",
        path.display()
    );
    for k in 0..n as usize {
        let [w, d, l] = stats.outcomes[k];
        text.push_str(&format!(
            "{:>6}  {:>9}  {w}  {d}  {l}  {}\n",
            k + 1,
            stats.positions[k],
            stats.longest_win_plies[k]
        ));
    }
    text.push_str(&format!(
        "{} slots stored; build: {:.2} s, {:.1} MiB at peak\n",
        stats.slots,
        stats.seconds,
        stats.peak_bytes as f64 / (1024.0 * 1024.0)
    ));
    crate::say!("{}", text.trim_end());
    Ok(())
}

/// A spinner with the elapsed time and a message, for builds.
fn spinner() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} {spinner} {msg}") {
        bar.set_style(style);
    }
    bar
}

/// The statistics of a build, as printed.
#[must_use]
pub fn describe(ending: Ending, s: &BuildStats, path: &Path) -> String {
    let [w_win, w_draw] = s.white_to_move;
    let [b_loss, b_draw] = s.black_to_move;
    format!(
        "{ending} -> {}\n\
         positions: {} legal on the full board ({} stored, one per symmetry class)\n\
         strong side to move: {w_win} wins, {w_draw} draws\n\
         lone king to move:   {b_loss} losses, {b_draw} draws\n\
         longest win: {} plies (mate in {} moves)\n\
         build: {:.2} s, {:.1} MiB at peak\n",
        path.display(),
        s.positions,
        s.slots,
        s.longest_win_plies,
        s.longest_win_plies.div_ceil(2),
        s.seconds,
        s.peak_bytes as f64 / (1024.0 * 1024.0),
    )
}

/// `plylab tablebase probe FILE FEN`: the value of one position.
///
/// # Errors
/// A damaged file, an unreadable position or one the database does not hold (bad input),
/// or a file that cannot be read.
pub fn probe_tablebase(file: &Path, fen: &str) -> Result<(), CommandError> {
    let bad = |e: ParseError| CommandError::BadInput(format!("position `{fen}`: {e}"));
    let table = AnyTable::load(file)?;
    let chess = matches!(table, AnyTable::Chess(_));
    let (value, holds) = match table {
        AnyTable::Chess(table) => {
            let pos = Chess::parse_position(fen).map_err(bad)?;
            let holds = format!(
                "{} with either side strong and no castling rights",
                table.ending()
            );
            (Tablebases::new(vec![table]).probe_chess(&pos), holds)
        }
        AnyTable::Checkers(table) => {
            let pos = Checkers::parse_position(fen).map_err(bad)?;
            let holds = format!("checkers positions of 1 to {} pieces", table.max_pieces());
            (table.probe(&pos), holds)
        }
    };
    let text = match value {
        None => {
            return Err(CommandError::BadInput(format!(
                "position `{fen}` is not in {}: it holds {holds}",
                file.display()
            )));
        }
        Some(Exact::Draw) => "draw".to_string(),
        Some(Exact::Win(d)) if chess => format!("win, mate in {}", plies_and_moves(d)),
        Some(Exact::Win(d)) => format!("win in {}", count(d, "ply", "plies")),
        Some(Exact::Loss(0)) if chess => "loss, mated now".to_string(),
        Some(Exact::Loss(0)) => "loss now (no move to play)".to_string(),
        Some(Exact::Loss(d)) if chess => format!("loss, mated in {}", plies_and_moves(d)),
        Some(Exact::Loss(d)) => format!("loss in {}", count(d, "ply", "plies")),
    };
    crate::say!("{text}");
    Ok(())
}

/// `13 plies (7 moves)`: a chess mate's distance, and the side's own moves to it (a mate
/// in 13 plies is the winner's 7th move; mated in 16 plies, the loser's 8th).
fn plies_and_moves(plies: u32) -> String {
    let moves = plies.div_ceil(2);
    format!(
        "{} ({})",
        count(plies, "ply", "plies"),
        count(moves, "move", "moves")
    )
}

/// `1 ply`, `2 plies`.
fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl From<super::book::BookError> for CommandError {
    fn from(e: super::book::BookError) -> Self {
        match &e {
            super::book::BookError::Io { source, .. } if !names_a_bad_file(source) => {
                Self::Failed(e.to_string())
            }
            _ => Self::BadInput(e.to_string()),
        }
    }
}

/// `plylab book build chess --pgn FILE --out FILE [--max-ply N]`: a Polyglot book made
/// from PGN games as PolyGlot's `make-book` makes it.
///
/// # Errors
/// An unreadable PGN, `--max-ply 0`, games that give no entry (bad input: no empty book
/// is written) or a file already at `out` without `force`, or a file that cannot be
/// written.
pub fn build_chess_book(
    pgn: &Path,
    out: &Path,
    max_ply: usize,
    force: bool,
) -> Result<(), CommandError> {
    if max_ply == 0 {
        return Err(CommandError::BadInput(
            "book build: --max-ply 0 puts no move in the book (at least 1)".into(),
        ));
    }
    check_out_file(out, force)?;
    let games = super::book::read_pgn(pgn)?;
    let book = super::book::PolyglotBook::from_games(&games, max_ply);
    if book.entries().is_empty() {
        return Err(CommandError::BadInput(format!(
            "{}: no book entry from its {} games (a move enters with the points its side scored: \
             2 for a win, 1 for a draw, none for a loss or `*`); no book written",
            pgn.display(),
            games.len()
        )));
    }
    create_parent(out)?;
    book.save(out)?;
    crate::say!(
        "{} games -> {}: {} entries",
        games.len(),
        out.display(),
        book.entries().len()
    );
    Ok(())
}

/// The most positions `plylab book build connect4` expands: each is a search (2,000 took
/// 5.8 s at the default depth 8 on a 2-core machine, 2026-11-28), and the book is built
/// and read in memory whole (200,000 at depth 2: 24 s, 192 MiB).
pub const MAX_BOOK_POSITIONS: usize = 10_000_000;

/// A connect-four position as moves, refusing an empty one (which the game's own reader
/// takes for the start): a position left out by mistake (`--from ""`, an unset shell
/// variable) is more likely than one meant to be the start, which is written `start`.
fn connect4_position(text: &str) -> Result<Connect4, ParseError> {
    if text.trim().is_empty() {
        return Err(ParseError::new(
            "an empty position: write `start` for the start position",
        ));
    }
    Connect4::parse_position(text)
}

/// `plylab book build connect4 --positions N [--depth D] [--omega W] [--from POS]`: a book
/// built by drop-out expansion, each leaf valued by an ordered alpha-beta search to depth
/// `D` (0: to the end of the game) with the centre-first evaluation.
///
/// # Errors
/// An unreadable or finished start position, or `--positions` 0 or above
/// [`MAX_BOOK_POSITIONS`] (bad input: no empty book is written), a file already at `out`
/// without `force`, or a file that cannot be written.
pub fn build_connect4_book(
    from: &str,
    out: &Path,
    positions: usize,
    depth: u32,
    omega: i32,
    force: bool,
) -> Result<(), CommandError> {
    use crate::games::connect4::CentreFirst;
    let root = connect4_position(from)
        .map_err(|e| CommandError::BadInput(format!("--from `{from}`: {e}")))?;
    if root.status() != crate::game::Status::Ongoing {
        return Err(CommandError::BadInput(format!(
            "--from `{from}`: the game is over there, so no book can grow from it"
        )));
    }
    if positions == 0 {
        return Err(CommandError::BadInput(
            "book build: --positions 0 expands nothing (at least 1)".into(),
        ));
    }
    if positions > MAX_BOOK_POSITIONS {
        return Err(CommandError::BadInput(format!(
            "book build: --positions {positions} is more than {MAX_BOOK_POSITIONS} (each \
             position is a search, and the book is held in memory whole)"
        )));
    }
    check_out_file(out, force)?;
    let params = connect4_book_params(positions, depth, omega);
    create_parent(out)?;
    let started = std::time::Instant::now();
    let bar = crate::progress::Progress::new(true, positions, "positions expanded");
    // Ctrl-C ends the build after the position being expanded, and the book of those
    // expanded is written: a long build loses nothing finished.
    let mut expanded = 0;
    // Held until the book is written: a Ctrl-C while it is saved waits for the save.
    let _catching = interrupt::Catching::new(true);
    let book = super::book::doe::build_doe(&root, &CentreFirst, &params, &mut |n| {
        bar.set_done(n, "drop-out expansion");
        expanded = n;
        !interrupt::requested()
    });
    bar.finish();
    // Not expected once the start is ongoing and a position is expanded; never write one.
    if book.entries().is_empty() {
        return Err(CommandError::Failed(
            "book build: the book came out empty; no book written".into(),
        ));
    }
    let interrupted = expanded < positions && interrupt::requested();
    // An interrupted build does not replace a book already at `out` (most likely a whole
    // one, which the part would silently undo): the part goes beside it.
    let kept = interrupted && out.exists();
    let target = if kept {
        let mut partial = out.as_os_str().to_owned();
        partial.push(".partial");
        PathBuf::from(partial)
    } else {
        out.to_path_buf()
    };
    book.save(&target)?;
    crate::say!(
        "connect4 book -> {}: {} positions, {} moves (depth {depth}, omega {omega}), {:.1} s",
        target.display(),
        book.positions(),
        book.entries().len(),
        started.elapsed().as_secs_f64()
    );
    if interrupted {
        let left = if kept {
            format!(" ({} holds an earlier book, left as it was)", out.display())
        } else {
            String::new()
        };
        return Err(CommandError::Interrupted(format!(
            "interrupted: the book of the {expanded} positions expanded (of {positions}) is \
             written to {}{left}",
            target.display()
        )));
    }
    Ok(())
}

/// The drop-out expansion settings of `plylab book build connect4`: the search of
/// experiments/connect4.toml's strongest configuration (all ordering heuristics, a 16 MiB
/// table, iterative deepening) to `depth` plies (0: to the end of the game).
#[must_use]
pub fn connect4_book_params(
    positions: usize,
    depth: u32,
    omega: i32,
) -> super::book::doe::DoeParams {
    super::book::doe::DoeParams {
        positions,
        omega,
        config: crate::search::SearchConfig {
            tt_mb: 16,
            ordering: crate::search::Ordering::HEURISTICS,
            ..crate::search::SearchConfig::default()
        },
        limits: crate::search::Limits {
            depth: (depth > 0).then_some(depth),
            ..crate::search::Limits::default()
        },
    }
}

/// `plylab book probe FILE POSITION`: the book's moves in a position (FEN for a Polyglot
/// book, the game's notation for a search book), with their weights, or with their values
/// best first and the book moves marked.
///
/// # Errors
/// A damaged book or an unreadable position (bad input), or a file that cannot be read.
pub fn probe_book(file: &Path, fen: &str) -> Result<(), CommandError> {
    let bad = |e: ParseError| CommandError::BadInput(format!("position `{fen}`: {e}"));
    let book = match super::book::Book::load(file)? {
        super::book::Book::Polyglot(book) => book,
        super::book::Book::Search(book) => {
            if book.game() != "connect4" {
                let game = book.game();
                return Err(CommandError::BadInput(format!(
                    "{}: a book for `{game}`, which `book probe` does not read",
                    file.display()
                )));
            }
            let mut moves = book.scored_moves(&connect4_position(fen).map_err(bad)?);
            if moves.is_empty() {
                crate::say!("out of book");
            }
            // Best first (ties in the game's move order), the moves of the best value marked:
            // they are the book's moves, those play chooses among (`weighted_moves`).
            moves.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
            let best = moves.first().map(|&(_, value)| value);
            for (mv, value) in moves {
                let mark = if Some(value) == best {
                    "  book move"
                } else {
                    ""
                };
                crate::say!("{mv} {value}{mark}");
            }
            return Ok(());
        }
    };
    let pos = Chess::parse_position(fen).map_err(bad)?;
    let moves = book.moves(&pos);
    if moves.is_empty() {
        crate::say!("out of book");
    }
    // Play skips an entry whose move is not legal (as PolyGlot does: a key collision);
    // a probe says so, for such entries also mean a book made wrongly.
    let skipped = book.entries_for(super::book::polyglot::key(&pos)).len() - moves.len();
    if skipped > 0 {
        crate::tell!(
            "note: {skipped} of the book's entries for this position's key name a move that \
             is not legal here (a key collision, or a damaged book); play skips them"
        );
    }
    for (mv, weight) in moves {
        crate::say!("{mv} {weight}");
    }
    Ok(())
}

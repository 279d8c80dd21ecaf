//! Corners of the search that the broader suites do not pin down, each against a truth
//! worked out here:
//!
//! - a mate read from the transposition table is trusted only where it lands before the
//!   fifty-move draw (FIDE Laws 9.3 and 9.6.2; Stockfish's `is_draw` lets a mate on the
//!   hundredth ply stand): the table key leaves the halfmove clock out, so the same board
//!   under a higher clock may no longer hold the mate.

use plylab::game::{Neutral, Notation, Score, score};
use plylab::games::chess::Chess;
use plylab::search::{Algorithm, Limits, SearchConfig, Searcher, Table};

/// Black to move: Ka1 against Kc1 and Rh1. Black's one legal move is Ka2 (b1 and b2 are
/// the white king's), then 2. Rh3 Ka1 (a3 and b3 are the rook's, b1 and b2 still the
/// king's) 3. Ra3 mate: White mates on the fourth ply, and no sooner (after 1... Ka2 no
/// white move mates). Black has only its king: a capture takes White's rook and leaves no
/// mate, so every mating line is of king and rook moves without a capture, along which the
/// halfmove clock only grows. `clock` is the clock at the root.
fn boxed_king(clock: u32) -> Chess {
    Chess::parse_position(&format!("8/8/8/8/8/8/8/k1K4R b - - {clock} 1"))
        .expect("a legal position")
}

/// Alpha-beta with a table, one fixed-depth iteration, nothing else on.
fn table_config() -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        tt_mb: 1,
        iterative: false,
        ..SearchConfig::default()
    }
}

/// The root score of `pos` searched `depth` plies deep with `table`.
fn score_with(pos: &Chess, depth: u32, table: &Table) -> Score {
    let config = table_config();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = Searcher::new(&Neutral, &config)
        .with_table(table)
        .run(pos, &limits);
    result.score().expect("a completed iteration")
}

/// A table in which the position after 1... Ka2 holds White's mate in three plies, stored
/// by a search of the whole line from a root whose halfmove clock is 0.
fn table_with_the_mate() -> Table {
    let table = Table::new(1);
    let found = score_with(&boxed_king(0), 4, &table);
    assert_eq!(
        found,
        score::loss_in(4),
        "the filling search must see Black mated on the fourth ply"
    );
    table
}

/// With the root's clock at 95 the mate lands on ply 99 of the count: real, so the stored
/// mate is trusted, and a search too shallow to find it itself reports it. With the clock
/// at 97 the mate would come on ply 101, after the draw: the stored mate must not be read
/// back, and the shallow search finds what it sees itself (no decisive score in two
/// plies; the evaluation is 0 everywhere). Kills `past_no_progress_draw` returning
/// `false` (the stale mate read at 97) and `true` (the real one ignored at 95), and its
/// comparison and subtraction mutants (`<`, `+`, `/`).
#[test]
fn a_stored_mate_is_read_back_only_where_it_lands_before_the_fifty_move_draw() {
    // 1... Ka2 at ply 1 finds the table's mate at depth 3 where it has one ply left.
    let real = score_with(&boxed_king(95), 2, &table_with_the_mate());
    assert_eq!(
        real,
        score::loss_in(4),
        "clock 95: the stored mate lands on ply 99 and must be read back"
    );
    let stale = score_with(&boxed_king(97), 2, &table_with_the_mate());
    assert_eq!(
        stale, 0,
        "clock 97: the stored mate would land past ply 100 and must not be read back"
    );
    // The same shallow search with an empty table: the value the stale case must match.
    let fresh = score_with(&boxed_king(97), 2, &Table::new(1));
    assert_eq!(fresh, 0, "clock 97 without a table");
}

//! One game of a match played through `arena::play::play_game` and checked from outside:
//! a game between two alpha-beta players without tables is the searches a [`Searcher`] per
//! player makes over the recorded positions (the module doc: one searcher a player and
//! game, which gets the hashes of the positions played before each move), and ends as the
//! rules say; a book player's book moves are the book's own; Monte Carlo players' searches
//! draw their seeds from the game's seed; tic-tac-toe's and backgammon's endings are named
//! by the board and the points.

use std::path::Path;

use crate::common::TempDir;
use plylab::arena::play::{GameRecord, GameSetup, SideStats, Winner, play_game, rule_reason};
use plylab::arena::spec::{self, MatchPlan, PlayerKind};
use plylab::game::{Game, Notation, Outcome, Player as Side, Status};
use plylab::games::backgammon::{Backgammon, POINT};
use plylab::games::chess::{Chess, Material, Pst};
use plylab::games::tictactoe::TicTacToe;
use plylab::knowledge::book::{PolyglotBook, read_pgn};
use plylab::lab::spec::GamePosition;
use plylab::search::{Limits, SearchConfig, Searcher};

fn plan(text: &str) -> MatchPlan {
    spec::parse(Path::new("play.toml"), text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The first two players of `plan` play its first opening with the game seed `seed`.
fn game(plan: &MatchPlan, seed: u64) -> GameRecord {
    play_game(GameSetup {
        opening: &plan.openings[0],
        players: [&plan.players[0], &plan.players[1]],
        engines: [None, None],
        external: [None, None],
        dice: 0,
        rules: &plan.rules,
        seed,
    })
}

/// A plylab player's search configuration.
fn config(plan: &MatchPlan, i: usize) -> &SearchConfig {
    match &plan.players[i].kind {
        PlayerKind::Search(v) => &v.config,
        _ => panic!("player {i} is not a plylab search"),
    }
}

/// Chess between a material-only player (White) and a PeSTO one, both alpha-beta at depth
/// 3 without a table, for at most 14 plies: each recorded move is the move a searcher of
/// the player's own (one a game, told the earlier positions) finds there, each side's
/// moves, nodes and depths are those searches' sums, and the game ends as FIDE's rules
/// (mate, stalemate, threefold repetition) or `max_plies` say, for the right side.
#[test]
fn a_game_is_its_players_searches_move_by_move() {
    let text = "name = \"play\"\nseed = 5\n\n[match]\ngame = \"chess\"\ngames = 2\n\
                max_plies = 14\nopenings = { positions = \
                [\"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\"] }\n\n\
                [[searchers]]\nlabel = \"material\"\nalgorithm = \"alphabeta\"\n\
                eval = \"material\"\ntt_mb = 0\nlimits = { depth = 3 }\n\n\
                [[searchers]]\nlabel = \"pst\"\nalgorithm = \"alphabeta\"\ntt_mb = 0\n\
                limits = { depth = 3 }\n";
    let plan = plan(text);
    let record = game(&plan, 11);
    let GamePosition::Chess(start) = &plan.openings[0].position else {
        panic!("a chess opening");
    };
    let (white, black) = (config(&plan, 0), config(&plan, 1));
    let mut searchers = (Searcher::new(&Material, white), Searcher::new(&Pst, black));
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut pos: Chess = start.clone();
    let mut earlier = Vec::new();
    let mut keys = vec![pos.repetition_key()];
    let mut want = [SideStats::default(); 2];
    for (ply, played) in record.moves.iter().enumerate() {
        let side = usize::from(pos.side_to_move() == Side::Second);
        let result = if side == 0 {
            searchers.0.set_history(&earlier);
            searchers.0.run(&pos, &limits)
        } else {
            searchers.1.set_history(&earlier);
            searchers.1.run(&pos, &limits)
        };
        let last = result.last().expect("an iteration");
        let mv = last.best_move.expect("a move");
        assert_eq!(
            mv.to_string(),
            *played,
            "ply {ply}, side {side}: {record:?}"
        );
        let w = &mut want[side];
        w.moves += 1;
        w.nodes += result.total.nodes;
        w.depth_sum += u64::from(last.depth);
        w.depth_moves += 1;
        earlier.push(pos.hash());
        pos.play(mv);
        keys.push(pos.repetition_key());
    }
    for (side, (got, want)) in record.sides.into_iter().zip(want).enumerate() {
        let got = SideStats { time_s: 0.0, ..got };
        assert_eq!(got, want, "side {side}'s figures");
    }
    assert_eq!(record.annotations.len(), record.moves.len(), "one a ply");
    // The end: the rules first (the side to move is mated or stalemated), then the third
    // occurrence of the final position, then the ply limit.
    let mover = usize::from(pos.side_to_move() == Side::Second);
    let occurrences = keys.iter().filter(|&&k| k == pos.repetition_key()).count();
    let end = match pos.status() {
        Status::Over(Outcome::Loss) => ([Winner::Second, Winner::First][mover], "checkmate"),
        // Fourteen plies from this opening leave no fifty-move or bare-kings draw.
        Status::Over(_) => (Winner::Draw, "stalemate"),
        Status::Ongoing if occurrences >= 3 => (Winner::Draw, "threefold repetition"),
        Status::Ongoing => {
            assert_eq!(record.moves.len(), 14, "a game that goes on: {record:?}");
            (Winner::Draw, "max plies")
        }
    };
    assert_eq!((record.winner, record.reason.as_str()), end, "{record:?}");
}

/// Monte Carlo players' playouts are seeded from the game's seed (GameSetup::seed: each
/// player's searches derive theirs from it): UCT against UCT at 40 playouts a move on
/// connect four plays five different games for five game seeds, and the same game again for
/// the same seed.
#[test]
fn monte_carlo_games_follow_the_game_seed() {
    let text = "name = \"play\"\nseed = 5\n\n[match]\ngame = \"connect4\"\ngames = 2\n\
                max_plies = 12\n\n\
                [[searchers]]\nlabel = \"a\"\nalgorithm = \"uct\"\nlimits = { nodes = 40 }\n\n\
                [[searchers]]\nlabel = \"b\"\nalgorithm = \"uct\"\nlimits = { nodes = 40 }\n";
    let plan = plan(text);
    let lines: Vec<Vec<String>> = (1..=5).map(|seed| game(&plan, seed).moves).collect();
    for (i, a) in lines.iter().enumerate() {
        for (j, b) in lines.iter().enumerate().skip(i + 1) {
            assert_ne!(
                a,
                b,
                "game seeds {} and {} played the same game",
                i + 1,
                j + 1
            );
        }
    }
    assert_eq!(game(&plan, 3).moves, lines[2], "game seed 3 played twice");
}

/// A player with a Polyglot book (built here from tests/data/book/openings.pgn) plays from
/// the start a move the book holds for the position whenever it holds one, and searches
/// only out of book; its book moves are counted and annotated `book`, the book-less
/// opponent's never. The truth is the book's own entries, read back here.
#[test]
fn a_book_player_plays_the_books_moves_and_counts_them() {
    let tmp = TempDir::new("play-book");
    let games = read_pgn(Path::new("tests/data/book/openings.pgn")).expect("the games");
    let book = PolyglotBook::from_games(&games, 16);
    let file = tmp.path("b.bin");
    book.save(&file).expect("save the book");
    let text = format!(
        "name = \"play\"\nseed = 5\n\n[match]\ngame = \"chess\"\ngames = 2\nmax_plies = 12\n\
         openings = {{ positions = [\"startpos\"] }}\n\n\
         [[searchers]]\nlabel = \"book\"\nalgorithm = \"alphabeta\"\nbook = \"{}\"\n\
         limits = {{ depth = 2 }}\n\n\
         [[searchers]]\nlabel = \"plain\"\nalgorithm = \"alphabeta\"\nlimits = {{ depth = 2 }}\n",
        file.display()
    );
    let plan = plan(&text);
    let record = game(&plan, 7);
    let mut pos = Chess::startpos();
    let mut booked = [0u32; 2];
    for (ply, played) in record.moves.iter().enumerate() {
        let side = usize::from(pos.side_to_move() == Side::Second);
        let held: Vec<String> = book
            .moves(&pos)
            .iter()
            .map(|(m, _)| m.to_string())
            .collect();
        let noted = record.annotations[ply] == "book";
        if side == 0 && !held.is_empty() {
            assert!(
                held.contains(played),
                "ply {ply}: {played} is not in {held:?}"
            );
            assert!(noted, "ply {ply}: a book move not annotated: {record:?}");
            booked[0] += 1;
        } else {
            assert!(
                !noted,
                "ply {ply}: a searched move annotated `book`: {record:?}"
            );
        }
        pos.play(pos.parse_uci(played).expect("legal"));
    }
    assert!(
        booked[0] >= 1,
        "the book holds the start position: {record:?}"
    );
    let counted = record.sides.map(|s| s.book_moves);
    assert_eq!(counted, booked, "book moves counted per side: {record:?}");
}

/// A tic-tac-toe game the rules end is named by what its board shows: X's top row (squares
/// 1, 2, 3) after 1 4 2 5 3 is three in a row; 1 2 3 5 4 6 8 7 9 fills the board with no
/// line of either side (X holds 1 3 4 8 9, O 2 5 6 7), a full board.
#[test]
fn tic_tac_toe_endings_are_named_by_the_board() {
    let won = TicTacToe::parse_position("14253").expect("legal moves");
    assert_eq!(
        won.status(),
        Status::Over(Outcome::Loss),
        "O, to move, has lost"
    );
    assert_eq!(rule_reason(&won, Outcome::Loss), "three in a row");
    let full = TicTacToe::parse_position("123546879").expect("legal moves");
    assert_eq!(full.status(), Status::Over(Outcome::Draw), "nobody won");
    assert_eq!(rule_reason(&full, Outcome::Draw), "board full");
}

/// A backgammon game ends on points for the side to move, one `POINT` a point each way
/// (games::backgammon's scale), and is named by how many points it was worth (the names
/// of arena::chance's doc): one a single game, two a gammon, three a backgammon.
#[test]
fn backgammon_endings_are_named_by_their_points() {
    let pos = Backgammon::default();
    for (points, name) in [(1, "single game"), (2, "gammon"), (3, "backgammon")] {
        for sign in [-1, 1] {
            let outcome = Outcome::Points(sign * points * POINT);
            assert_eq!(rule_reason(&pos, outcome), name, "{outcome:?}");
        }
    }
}

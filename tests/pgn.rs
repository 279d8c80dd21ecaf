//! PGN export end to end: games played by seeded random legal moves from plylab positions
//! (the initial position, a FEN with Black to move, castling and promotion positions, a
//! checkmate) are written with `write_game` into one file, which python-chess then replays
//! (tests/uci/replay_pgn.py): every move legal, the movetext exactly python-chess's own
//! SAN export, results agreeing with mates on the board. Without python-chess the replay is
//! skipped locally and fails under CI, as in tests/uci.rs.

use crate::common::{TempDir, python_chess, python_script};
use plylab::arena::pgn::{PgnGame, write_game};
use plylab::game::{Game, Notation, Outcome, Player, Status};
use plylab::games::chess::{Chess, ChessMove};
use plylab::rng::XorShift;

/// Random games stop after this many plies (repetition draws are the search's business, so
/// a random game may otherwise wander for long).
const MAX_PLIES: usize = 300;

/// The moves given in UCI, played from `start`.
fn scripted(start: &Chess, uci: &[&str]) -> (Chess, Vec<ChessMove>) {
    let mut pos = start.clone();
    let moves = uci
        .iter()
        .map(|m| {
            let mv = pos.parse_uci(m).expect("scripted move is legal");
            pos.play(mv);
            mv
        })
        .collect();
    (pos, moves)
}

/// Appends seeded random legal moves until the game ends or reaches [`MAX_PLIES`]; returns
/// the final position.
fn random_moves(mut pos: Chess, moves: &mut Vec<ChessMove>, seed: u64) -> Chess {
    let mut rng = XorShift::new(seed);
    while moves.len() < MAX_PLIES && pos.status() == Status::Ongoing {
        let legal = pos.legal_moves();
        let mv = legal[rng.below(legal.len() as u64) as usize];
        pos.play(mv);
        moves.push(mv);
    }
    pos
}

/// The PGN result and termination of a final position.
fn result_of(end: &Chess) -> (&'static str, &'static str) {
    match end.status() {
        Status::Ongoing => ("*", "unterminated"),
        Status::Over(Outcome::Draw) if !end.has_moves() => ("1/2-1/2", "stalemate"),
        Status::Over(Outcome::Draw) if end.insufficient_material() => {
            ("1/2-1/2", "insufficient material")
        }
        Status::Over(Outcome::Draw) => ("1/2-1/2", "fifty-move rule"),
        Status::Over(_) if end.side_to_move() == Player::First => ("0-1", "checkmate"),
        Status::Over(_) => ("1-0", "checkmate"),
    }
}

/// A game from `fen` (or `startpos`): the scripted moves, then random ones from `seed`.
fn play(round: usize, fen: &str, uci: &[&str], seed: u64) -> PgnGame {
    let start = Chess::parse_position(fen).expect("test position");
    let (pos, mut moves) = scripted(&start, uci);
    let end = random_moves(pos, &mut moves, seed);
    let (result, termination) = result_of(&end);
    PgnGame {
        event: "plylab pgn test".into(),
        site: "tests/pgn.rs".into(),
        date: "2025.06.01".into(),
        round: round.to_string(),
        white: format!("random \"{seed}\""),
        black: "random \\ b".into(),
        result: result.into(),
        start,
        // Comments as cutechess-cli writes them, on most moves (every fifth, the fourth
        // among them, has none).
        comments: (0..moves.len())
            .map(|i| match i % 5 {
                0 => "book".to_owned(),
                1 => format!("+0.{i:02}/{} 0.101s", i % 30),
                2 => "-M3/9 0.020s".to_owned(),
                3 => String::new(),
                _ => format!("-{}.50/7 1.250s", i % 4),
            })
            .collect(),
        moves,
        termination: termination.into(),
        time_control: String::new(),
    }
}

/// (start, scripted moves) of every game; seeds follow the index.
const GAMES: [(&str, &[&str]); 8] = [
    ("startpos", &[]),
    ("startpos", &[]),
    ("startpos", &[]),
    // Black to move, counters from the FEN.
    (
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 17",
        &[],
    ),
    // Both sides castle, long and short.
    (
        "r3k2r/pppq1ppp/2n2n2/8/8/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
        &["e1c1", "e8g8"],
    ),
    // An under-promotion, then a promotion with check; Black to move first.
    (
        "8/1P5k/8/8/8/8/6p1/K7 b - - 0 40",
        &["g2g1q", "a1a2", "h7g8", "b7b8n"],
    ),
    // Promotions left to chance.
    ("4k3/PP6/8/8/8/8/6pp/4K3 w - - 0 1", &[]),
    // Fool's mate: the result must be Black's win.
    ("startpos", &["f2f3", "e7e5", "g2g4", "d8h4"]),
];

fn all_games() -> Vec<PgnGame> {
    GAMES
        .iter()
        .enumerate()
        .map(|(i, (fen, uci))| play(i + 1, fen, uci, 0x5eed + i as u64))
        .collect()
}

fn write_file(games: &[PgnGame], path: &std::path::Path) -> String {
    let mut out = Vec::new();
    for game in games {
        write_game(&mut out, game).expect("every game is valid");
    }
    std::fs::write(path, &out).expect("write the PGN file");
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn the_written_file_has_the_features_replay_checks() {
    let dir = TempDir::new("pgn-features");
    let text = write_file(&all_games(), &dir.path("games.pgn"));
    assert_eq!(text.matches("[Event ").count(), GAMES.len());
    // Line breaks are spaces in PGN (the move comments make the lines wrap elsewhere).
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for needle in [
        "40... g1=Q+",
        "Qh4# {checkmate} 0-1",
        "[SetUp \"1\"]",
        "[Termination \"normal\"]",
        "[PlyCount \"4\"]",
    ] {
        assert!(flat.contains(needle), "no `{needle}` in\n{text}");
    }
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let has = |f: &dyn Fn(&str) -> bool| tokens.iter().any(|t| f(t));
    assert!(has(&|t| t == "17..."), "a first move by Black");
    assert!(has(&|t| t.starts_with("b8=N")), "an under-promotion");
    assert!(has(&|t| t.starts_with("O-O-O")), "long castling");
    assert!(
        has(&|t| t.starts_with("O-O") && !t.starts_with("O-O-O")),
        "short castling"
    );
    assert!(text.lines().all(|l| l.len() < 80 || l.starts_with('[')));
}

/// Writes `games` into a scratch file and runs replay_pgn.py on it: (success, stdout,
/// stderr), or `None` when python-chess is missing (see [`python_chess`]).
fn replay(name: &str, games: &[PgnGame]) -> Option<(bool, String, String)> {
    if !python_chess("chess, chess.pgn", "tests/uci/replay_pgn.py") {
        return None;
    }
    let dir = TempDir::new(name);
    let path = dir.path("games.pgn");
    write_file(games, &path);
    Some(python_script("replay_pgn.py", &[&path]))
}

#[test]
fn python_chess_replays_every_game() {
    let Some((ok, stdout, stderr)) = replay("pgn-replay", &all_games()) else {
        return;
    };
    assert!(ok, "replay_pgn.py failed:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!("ok: {} games", GAMES.len())),
        "{stdout}"
    );
}

#[test]
fn replay_refuses_a_contradicted_mate() {
    let mut game = play(1, "startpos", &["f2f3", "e7e5", "g2g4", "d8h4"], 1);
    game.result = "1-0".into();
    let Some((ok, _, stderr)) = replay("pgn-contradiction", &[game]) else {
        return;
    };
    assert!(!ok);
    assert!(stderr.contains("White is checkmated"), "{stderr}");
}

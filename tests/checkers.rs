//! Checkers through the whole harness: notation round trips over seeded random games,
//! lazy SMP and Monte Carlo searches on checkers positions, a test set of decided endgames
//! and a small arena match run by `plylab experiment`. (Perft is in tests/checkers_perft.rs, value equality of every
//! alpha-beta configuration with minimax in tests/equivalence.rs.)

use crate::common::{TempDir, plylab};
use plylab::game::{Game, Notation, Outcome, Status, score};
use plylab::games::checkers::notation::{parse_fen, to_fen};
use plylab::games::checkers::{BLACK, Checkers, CheckersEval, WHITE};
use plylab::rng::XorShift;
use plylab::search::mcts::{MctsBudget, MctsConfig, root_parallel, uct};
use plylab::search::{
    Algorithm, Limits, Ordering, Quiescence, SearchConfig, Searcher, Table, search,
};

fn legal(pos: &Checkers) -> Vec<<Checkers as Game>::Move> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
}

#[test]
fn notation_round_trips_through_random_games_to_their_end() {
    let mut rng = XorShift::new(0xD1A6);
    let (mut wins, mut draws) = (0, 0);
    for _ in 0..300 {
        let mut pos = Checkers::new();
        while pos.status() == Status::Ongoing {
            let fen = to_fen(&pos);
            let back = parse_fen(&fen).expect("canonical FEN reads back");
            assert_eq!(to_fen(&back), fen);
            assert_eq!(
                (back.hash(), back.side_to_move()),
                (pos.hash(), pos.side_to_move())
            );
            let moves = legal(&pos);
            for &mv in &moves {
                let text = mv.to_string();
                assert_eq!(pos.parse_move(&text), Ok(mv), "{fen}: {text}");
                let path: Vec<String> = mv.path().iter().map(u8::to_string).collect();
                let sep = if mv.is_capture() { "x" } else { "-" };
                assert_eq!(pos.parse_move(&path.join(sep)), Ok(mv), "{fen}: full path");
            }
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        match pos.status() {
            Status::Over(Outcome::Loss) => wins += 1,
            Status::Over(Outcome::Draw) => draws += 1,
            other => panic!("{other:?}"),
        }
    }
    // Random games end both ways (captures whose end squares are ambiguous are rare in
    // random games; src/games/checkers/tests.rs checks them on a constructed position).
    assert!(wins > 0 && draws > 0, "{wins} won, {draws} drawn");
}

fn alphabeta(threads: usize) -> SearchConfig {
    SearchConfig {
        algorithm: if threads > 1 {
            Algorithm::LazySmp
        } else {
            Algorithm::Alphabeta
        },
        ordering: Ordering::HEURISTICS,
        tt_mb: 4,
        threads,
        ..SearchConfig::default()
    }
}

fn to_depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

#[test]
fn lazy_smp_runs_on_checkers_and_one_thread_is_alpha_beta() {
    let root = Checkers::parse_position(
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15",
    )
    .unwrap();
    let eval = CheckersEval::default();
    let one = search(
        &root,
        &eval,
        &SearchConfig {
            algorithm: Algorithm::LazySmp,
            ..alphabeta(1)
        },
        &to_depth(8),
    );
    let plain = search(&root, &eval, &alphabeta(1), &to_depth(8));
    let summary = |r: &plylab::search::SearchResult<_>| {
        r.iterations
            .iter()
            .map(|i| (i.depth, i.score, i.best_move, i.stats.nodes))
            .collect::<Vec<_>>()
    };
    assert_eq!(summary(&one), summary(&plain));
    let two = search(&root, &eval, &alphabeta(2), &to_depth(8));
    let last = two.last().expect("an iteration");
    assert_eq!(last.depth, 8);
    assert!(legal(&root).contains(&last.best_move.expect("a move")));
}

#[test]
fn every_search_finds_the_double_jump_that_wins() {
    // Black's man on 6 takes 10 and 19, White's last pieces; 7x14 would take only 10.
    let root = Checkers::parse_position("B:W10,19:B6,7").unwrap();
    let win = root.parse_move("6x24").unwrap();
    assert_eq!(legal(&root).len(), 2);
    let eval = CheckersEval::default();
    for threads in [1, 2] {
        let result = search(&root, &eval, &alphabeta(threads), &to_depth(4));
        let last = result.last().expect("an iteration");
        assert_eq!(last.best_move, Some(win), "{threads} threads");
        assert_eq!(last.score, score::win_in(1), "{threads} threads");
    }
    let config = MctsConfig {
        seed: 3,
        ..MctsConfig::default()
    };
    let budget = MctsBudget::iterations(500);
    assert_eq!(uct(&root, &eval, &config, &budget).best_move, Some(win));
    assert_eq!(
        root_parallel(&root, &eval, &config, &budget, 2).best_move,
        Some(win)
    );
}

#[test]
fn quiescence_makes_the_forced_capture_and_sees_the_shot() {
    // White gives a man away (23-18); Black's only move is then 14x23, after which 26x10
    // takes Black's last pieces. A side with a capture pending may not stand pat: at depth
    // 1 quiescence must follow the compulsory captures to the win, as depth 3 does without.
    let root = Checkers::parse_position("W:W22,23,26,30:B14,15").unwrap();
    let shot = root.parse_move("23-18").unwrap();
    let eval = CheckersEval::default();
    let plain = search(&root, &eval, &alphabeta(1), &to_depth(3));
    let quiet = SearchConfig {
        quiescence: Some(Quiescence::default()),
        ..alphabeta(1)
    };
    let quiescent = search(&root, &eval, &quiet, &to_depth(1));
    for (what, result) in [("depth 3", &plain), ("depth 1 + quiescence", &quiescent)] {
        let last = result.last().expect("an iteration");
        assert_eq!(last.best_move, Some(shot), "{what}");
        assert_eq!(last.score, score::win_in(3), "{what}");
    }
}

/// A table outlives a search in a match (one per player per game) and in UCI, and its key
/// leaves the 40-move counter out. Two kings against one win from a quiet start, but with
/// 72 quiet plies behind them the rule draws first: the second search must say so, not
/// read the first one's win back from the table.
#[test]
fn a_stored_win_past_the_forty_move_draw_is_not_read_back() {
    let eval = CheckersEval::default();
    let config = SearchConfig {
        tt_mb: 4,
        ordering: Ordering::HEURISTICS,
        ..SearchConfig::default()
    };
    let quiet = Checkers::parse_position("B:WK29:BK1,K2").unwrap();
    let late = quiet.with_quiet_plies(72);
    let limits = to_depth(24);
    let fresh = Searcher::new(&eval, &config).run(&late, &limits).score();
    assert_eq!(fresh, Some(0), "a draw by the 40-move rule");
    let table = Table::with_layout(4, false);
    let mut searcher = Searcher::new(&eval, &config).with_table(&table);
    let won = searcher.run(&quiet, &limits).score().expect("a score");
    assert!(won >= score::win_in(24), "{won}");
    assert_eq!(searcher.run(&late, &limits).score(), fresh);
}

#[test]
fn monte_carlo_plays_a_legal_move_from_the_start() {
    let root = Checkers::new();
    let config = MctsConfig {
        seed: 1,
        playout_cutoff: Some(20),
        ..MctsConfig::default()
    };
    let result = uct(
        &root,
        &CheckersEval::default(),
        &config,
        &MctsBudget::iterations(300),
    );
    assert!(legal(&root).contains(&result.best_move.expect("a move")));
    assert_eq!(result.playouts, 300);
    assert_eq!(root.side_to_move(), BLACK);
    assert_ne!(BLACK, WHITE);
}

/// Writes the experiment file `text` in `dir` and runs it into `dir/out`, which it returns;
/// the run must succeed.
fn experiment(dir: &TempDir, text: &str) -> std::path::PathBuf {
    let file = dir.path("experiment.toml");
    std::fs::write(&file, text).unwrap();
    let out = dir.path("out");
    let (code, stdout, stderr) = plylab(&[
        "experiment",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-plot",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    out
}

#[test]
fn an_arena_match_plays_checkers_to_the_end() {
    let dir = TempDir::new("checkers_arena");
    let text = r#"name = "checkers_match"
seed = 3

[match]
game = "checkers"
games = 2
openings = { random_plies = 4 }
concurrency = 1

[[searchers]]
label = "deep"
algorithm = "alphabeta"
tt_mb = 1
ordering = { hint = true, tt_move = true }
limits = { depth = 4 }

[[searchers]]
label = "shallow"
algorithm = "alphabeta"
tt_mb = 1
limits = { depth = 2 }
"#;
    let out = experiment(&dir, text);
    let mut reader = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    assert_eq!(&header[5], "black");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (opening_at, line_at) = (column("opening"), column("line"));
    for row in rows {
        let (opening, line) = (&row[opening_at], &row[line_at]);
        // Replay the game from its opening: every move legal, in PDN.
        let mut pos = Checkers::parse_position(opening).unwrap();
        for mv in line.split_whitespace() {
            let parsed = pos.parse_move(mv).unwrap_or_else(|e| panic!("{line}: {e}"));
            pos.play(parsed);
        }
        assert!(!row[8].is_empty());
    }
}

/// A checkers test set gives each position's signed distance in plies (+d: the side to move
/// wins in d), as the endgame database computed it (experiments/data/checkers/endgames4.txt).
/// Three of its wins and losses that ordered alpha-beta reaches under 400,000 nodes are
/// solved with exactly those distances; the same positions with the sign turned, a loss 2
/// plies sooner or a draw expected are not.
#[test]
fn a_checkers_set_is_solved_at_the_databases_distances() {
    let dir = TempDir::new("checkers_set");
    let known = "B:W26,K16:B27,K19 35\nB:WK4,11,K8:B7 -28\nW:W31,K19:BK24,K27 29\n";
    let wrong = "B:W26,K16:B27,K19 -34\nB:WK4,11,K8:B7 -26\nW:W31,K19:BK24,K27 0\n";
    std::fs::write(dir.path("known.txt"), known).unwrap();
    std::fs::write(dir.path("wrong.txt"), wrong).unwrap();
    let text = r#"name = "checkers_set"

[[games]]
game = "checkers"
file = "known.txt"

[[games]]
game = "checkers"
file = "wrong.txt"

[[searchers]]
label = "ck_plain"
algorithm = "alphabeta"
tt_mb = 16
ordering = { hint = true, tt_move = true, killers = true, history = true }
limits = { nodes = 400000 }
"#;
    let out = experiment(&dir, text);
    let mut reader = csv::Reader::from_path(out.join("searches.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (set, solved, total) = (column("set"), column("solved"), column("total_nodes"));
    let finals: Vec<(String, String)> = reader
        .records()
        .map(Result::unwrap)
        .filter(|row| !row[total].is_empty())
        .map(|row| (row[set].to_owned(), row[solved].to_owned()))
        .collect();
    let count = |name: &str, verdict: &str| {
        finals
            .iter()
            .filter(|(s, v)| s == name && v == verdict)
            .count()
    };
    assert_eq!(finals.len(), 6, "{finals:?}");
    assert_eq!(count("known.txt", "true"), 3, "{finals:?}");
    assert_eq!(count("wrong.txt", "false"), 3, "{finals:?}");
}

/// Asserts exit code 2, no panic, and that stderr holds every one of `expected`.
fn refused(args: &[&str], expected: &[&str]) {
    let (code, stdout, stderr) = plylab(args);
    let context = format!(
        "`plylab {}`\nstdout: {stdout}\nstderr: {stderr}",
        args.join(" ")
    );
    assert_eq!(code, 2, "{context}");
    assert!(!stderr.contains("panicked"), "{context}");
    for piece in expected {
        assert!(stderr.contains(piece), "missing `{piece}` in {context}");
    }
}

#[test]
fn malformed_pdn_positions_and_illegal_moves_exit_with_2_and_say_what_is_wrong() {
    let search = |position: &'static str| ["search", "checkers", position, "--depth", "2"];
    refused(
        &search("X:W21:B1"),
        &[
            "bad checkers position `X:W21:B1`",
            "side to move must be `B` or `W`",
        ],
    );
    refused(
        &search("B:W21"),
        &["expected `<B|W>:W<squares>:B<squares>`"],
    );
    refused(&search("B:W21:B33"), &["`33` is not a square 1-32"]);
    refused(&search("B:W21:B1,1"), &["square 1 is listed twice"]);
    refused(
        &search("B:W21:B21"),
        &["square 21 holds both a black and a white piece"],
    );
    refused(
        &search("B:W2:B1"),
        &["a white man on square 2 would have been crowned"],
    );
    refused(
        &["perft", "checkers", "start moves 11-15 22-18 9-13", "2"],
        &[
            "move 3 after `moves`",
            "`9-13` is not a legal move here (a capture is compulsory)",
            "legal: 15x22",
        ],
    );
    refused(
        &["perft", "checkers", "start moves 11-18", "1"],
        &["`11-18` is not a legal move here", "legal: 9-13 9-14"],
    );
    refused(
        &["perft", "checkers", "start moves 11-", "1"],
        &["`11-` is not a move: expected squares 1-32 joined by `-` or `x`"],
    );
    refused(
        &["perft", "checkers", "B:W9,10,17,18:B6 moves 6x22", "1"],
        &["`6x22` is ambiguous: give the full path, one of 6x13x22 6x15x22"],
    );
}

#[test]
fn a_checkers_experiment_with_a_bad_position_or_no_limit_is_refused_with_its_location() {
    let dir = TempDir::new("checkers_bad_experiment");
    let write = |name: &str, text: &str| {
        let file = dir.path(name);
        std::fs::write(&file, text).unwrap();
        file.to_str().unwrap().to_owned()
    };
    let searcher = "[[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\n";
    let bad_position = write(
        "bad_position.toml",
        &format!(
            "name = \"x\"\n\n[[games]]\ngame = \"checkers\"\npositions = [\"start\", \"B:W21:B0\"]\nlimits = {{ depth = 2 }}\n\n{searcher}"
        ),
    );
    refused(
        &["experiment", &bad_position, "--dry-run"],
        &[
            &format!("{bad_position}:5:"),
            "positions",
            "`0` is not a square 1-32",
        ],
    );
    let no_limit = write(
        "no_limit.toml",
        &format!(
            "name = \"x\"\n\n[[games]]\ngame = \"checkers\"\npositions = [\"start\"]\n\n{searcher}"
        ),
    );
    refused(
        &["experiment", &no_limit, "--dry-run"],
        &["checkers has no bound on its length"],
    );
}

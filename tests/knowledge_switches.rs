//! The knowledge switches of experiment files (`tablebase`, `book`, `secondary`) and
//! secondary search itself: it rejects a move that fails deeper, keeps the move within a
//! wide margin, and plays the best deeper value when no move still looks good.

use crate::common::{TempDir, plylab};
use plylab::game::Evaluator;
use plylab::game::Notation;
use plylab::games::chess::{Chess, Material, Pst};
use plylab::search::{Limits, SearchConfig, Secondary, search};

/// White's queen can take a pawn that another pawn guards: one ply deep (no quiescence) it
/// wins a pawn, three plies deep it loses the queen. Secondary search (k = 2) sees it.
const TRAP: &str = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1";

/// Secondary search two plies deeper with no margin: every move must still look as good.
const TWO_PLIES: Secondary = Secondary {
    plies: 2,
    margin: 0,
};

/// A search of `fen` one ply deep (with a table), verified by `secondary` if given.
fn depth_one(
    fen: &str,
    secondary: Option<Secondary>,
) -> plylab::search::SearchResult<plylab::games::chess::ChessMove> {
    let config = SearchConfig {
        tt_mb: 4,
        secondary,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    search(
        &Chess::parse_position(fen).expect("fen"),
        &Material,
        &config,
        &limits,
    )
}

#[test]
fn secondary_search_rejects_the_move_that_loses_the_queen_deeper() {
    let plain = depth_one(TRAP, None);
    assert_eq!(
        plain.best_move().map(|m| m.to_string()).as_deref(),
        Some("d1d5")
    );
    let verified = depth_one(TRAP, Some(TWO_PLIES));
    let last = verified.last().expect("an iteration");
    assert_ne!(
        last.best_move.map(|m| m.to_string()).as_deref(),
        Some("d1d5")
    );
    assert_eq!(last.stats.secondary_switches, 1);
    assert!(last.stats.secondary_nodes > 0);
    assert_eq!(
        verified.total.nodes,
        plain.total.nodes + last.stats.secondary_nodes
    );
    // The verified move keeps the material: its deeper value is not a queen down.
    assert!(last.score > -300, "{}", last.score);
}

#[test]
fn a_wide_margin_keeps_the_depth_d_move() {
    let plain = depth_one(TRAP, None);
    let verified = depth_one(
        TRAP,
        Some(Secondary {
            plies: 2,
            margin: 10_000,
        }),
    );
    assert_eq!(verified.best_move(), plain.best_move());
    assert_eq!(
        verified.last().expect("iteration").stats.secondary_switches,
        0
    );
}

/// White's queen is pinned to its king by the rook on b1, whose pawn on a2 also waits to
/// promote: one ply deep, taking the rook or the knight wins material, but two plies
/// further every move loses more than it seemed to. None still looks good, so secondary
/// search plays the move with the best deeper value (Qb6), not the depth-1 best (Qxb1).
const PINNED: &str = "1n6/1K6/8/8/1Q6/6k1/p7/1r6 w - - 0 1";

#[test]
fn when_no_move_still_looks_good_the_best_deeper_value_is_played() {
    use plylab::game::{Evaluator, Game};
    let root = Chess::parse_position(PINNED).expect("fen");
    let config = SearchConfig {
        tt_mb: 4,
        ..SearchConfig::default()
    };
    // A move's value for White: at once (the evaluation of its position, for the side to
    // move there), and two plies below it (the negated search of its position).
    let values = |mv| {
        let mut child = root.clone();
        child.play(mv);
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let deep = search(&child, &Material, &config, &limits)
            .score()
            .expect("a move");
        (-Material.evaluate(&child), -deep)
    };
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    let deeper: Vec<(String, i32)> = moves
        .iter()
        .map(|&mv| {
            let (shallow, deep) = values(mv);
            assert!(deep < shallow, "{mv}: {shallow} then {deep}");
            (mv.to_string(), deep)
        })
        .collect();
    let best = deeper.iter().max_by_key(|(_, deep)| *deep).unwrap();
    assert_eq!(best.0, "b4b6", "{deeper:?}");
    let plain = depth_one(PINNED, None);
    assert_eq!(
        plain.best_move().map(|m| m.to_string()).as_deref(),
        Some("b4b1")
    );
    let verified = depth_one(PINNED, Some(TWO_PLIES));
    let last = verified.last().expect("an iteration");
    assert_eq!(
        last.best_move.map(|m| m.to_string()).as_deref(),
        Some("b4b6")
    );
    assert_eq!(last.score, best.1);
    assert_eq!(last.stats.secondary_switches, 1);
}

fn experiment(tmp: &TempDir, searcher: &str, game: &str, position: &str) -> (i32, String) {
    let file = tmp.path("k.toml");
    let text = format!(
        "name = \"k\"\n\n[[games]]\ngame = \"{game}\"\npositions = [\"{position}\"]\nlimits = {{ depth = 2 }}\n\n[[searchers]]\nlabel = \"s\"\nalgorithm = \"alphabeta\"\n{searcher}\n"
    );
    std::fs::write(&file, text).expect("write");
    let (code, _, stderr) = plylab(&["experiment", file.to_str().expect("utf-8"), "--dry-run"]);
    (code, stderr)
}

#[test]
fn knowledge_keys_are_validated_with_their_location() {
    let tmp = TempDir::new("knowledge-keys");
    let cases = [
        (
            "tablebase = \"missing.plytb\"",
            "chess",
            "startpos",
            "tablebase",
            "missing.plytb",
        ),
        (
            "tablebase = \".\"",
            "chess",
            "startpos",
            "tablebase",
            "no *.plytb",
        ),
        (
            "secondary_margin = 5",
            "chess",
            "startpos",
            "secondary_margin",
            "needs `secondary`",
        ),
        (
            // Off in its one variant: as good as absent.
            "secondary = 0\nsecondary_margin = 5",
            "chess",
            "startpos",
            "secondary_margin",
            "needs `secondary`",
        ),
        (
            "secondary = 2\nsecondary_margin = -1",
            "chess",
            "startpos",
            "secondary_margin",
            "negative",
        ),
        ("book = \"b.bin\"", "chess", "startpos", "book", "arena"),
    ];
    for (searcher, game, position, key, why) in cases {
        let (code, stderr) = experiment(&tmp, searcher, game, position);
        assert_eq!(code, 2, "{searcher}: {stderr}");
        assert!(stderr.contains("k.toml:"), "{searcher}: {stderr}");
        assert!(
            stderr.contains(key) && stderr.contains(why),
            "{searcher}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // A real database on another game.
    let db = tmp.path("KQK.plytb");
    let (code, _, stderr) = plylab(&[
        "tablebase",
        "build",
        "chess",
        "KQK",
        "--out",
        db.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr) = experiment(&tmp, "tablebase = \"KQK.plytb\"", "connect4", "start");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("tablebase") && stderr.contains("for chess"),
        "{stderr}"
    );
    let (code, stderr) = experiment(&tmp, "tablebase = \"KQK.plytb\"", "chess", "startpos");
    assert_eq!(code, 0, "{stderr}");
    // The same database damaged (one byte flipped), then truncated: refused at its key.
    let bytes = std::fs::read(&db).expect("written");
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    for (damaged, why) in [(flipped, "checksum"), (bytes[..100].to_vec(), "truncated")] {
        std::fs::write(&db, damaged).expect("write");
        let (code, stderr) = experiment(&tmp, "tablebase = \"KQK.plytb\"", "chess", "startpos");
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("k.toml:")
                && stderr.contains("tablebase")
                && stderr.contains("KQK.plytb")
                && stderr.contains(why),
            "{why}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// An arena file with a book or a database where it cannot apply is refused at its key; a
/// book game is played with its book moves counted.
#[test]
fn arena_knowledge_keys() {
    let tmp = TempDir::new("knowledge-arena");
    let book = tmp.path("b.bin");
    let (code, _, stderr) = plylab(&[
        "book",
        "build",
        "chess",
        "--pgn",
        "tests/data/book/openings.pgn",
        "--out",
        book.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let db = tmp.path("KQK.plytb");
    let db_path = db.to_str().expect("utf-8");
    let (code, _, stderr) = plylab(&["tablebase", "build", "chess", "KQK", "--out", db_path]);
    assert_eq!(code, 0, "{stderr}");
    let run = |game: &str, extra: &str, dry: bool| {
        let (algorithm, extra) = extra
            .strip_prefix("minimax:")
            .map_or(("alphabeta", extra), |rest| ("minimax", rest));
        let file = tmp.path("a.toml");
        let text = format!(
            "name = \"a\"\nseed = 1\n\n[match]\ngame = \"{game}\"\ngames = 2\nconcurrency = 1\n\n[[searchers]]\nlabel = \"x\"\nalgorithm = \"{algorithm}\"\nlimits = {{ depth = 1 }}\n{extra}\n\n[[searchers]]\nlabel = \"y\"\nalgorithm = \"alphabeta\"\nlimits = {{ depth = 1 }}\n"
        );
        std::fs::write(&file, text).expect("write");
        let out = tmp.path("out");
        let mut args = vec!["experiment", file.to_str().expect("utf-8")];
        let out_text = out.to_str().expect("utf-8").to_owned();
        if dry {
            args.push("--dry-run");
        } else {
            args.extend(["--out", &out_text, "--no-plot"]);
        }
        let (code, _, stderr) = plylab(&args);
        (code, stderr, out)
    };
    let (code, stderr, _) = run("connect4", "book = \"b.bin\"", true);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("a.toml:") && stderr.contains("book"),
        "{stderr}"
    );
    // A connect-four book built by search plays connect four, and not chess.
    let c4 = tmp.path("c4.book");
    let c4_args = [
        "book",
        "build",
        "connect4",
        "--positions",
        "3",
        "--depth",
        "2",
        "--out",
    ];
    let (code, _, stderr) = plylab(&[&c4_args[..], &[c4.to_str().expect("utf-8")]].concat());
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr, _) = run("connect4", "book = \"c4.book\"", true);
    assert_eq!(code, 0, "{stderr}");
    let (code, stderr, _) = run("chess", "book = \"c4.book\"", true);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("built for connect4"), "{stderr}");
    let (code, stderr, _) = run("chess", "minimax:tablebase = \"KQK.plytb\"", true);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("alphabeta\" only"), "{stderr}");
    let (code, stderr, out) = run("chess", "book = \"b.bin\"", false);
    assert_eq!(code, 0, "{stderr}");
    let games = std::fs::read_to_string(out.join("games.csv")).expect("games.csv");
    let header: Vec<&str> = games.lines().next().expect("header").split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (white, white_book) = (column("white"), column("white_book_moves"));
    let (black, black_book) = (column("black"), column("black_book_moves"));
    let mut book_moves = 0;
    for line in games.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        for (player, count) in [(white, white_book), (black, black_book)] {
            let n: u32 = f[count].parse().expect("a count");
            if f[player] == "x" {
                book_moves += n;
            } else {
                assert_eq!(n, 0, "{line}");
            }
        }
    }
    // From the start position the book (best weight) plays 1. e4 as White.
    assert!(book_moves >= 1, "{games}");
}

/// The main search's move leads among moves of equal depth-d value (secondary.rs: "the
/// main search's move leads among equals"), so that where it still looks good it is kept:
/// from the start of a chess game every move is worth 0 one ply deep by material, and two
/// plies further still 0 or more (Black cannot capture on its first move), so every move
/// passes and the depth-1 move must be played, with no switch.
#[test]
fn among_equal_values_the_main_search_move_is_verified_first() {
    use plylab::game::{Evaluator, Game};
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let root = Chess::parse_position(START).expect("fen");
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    assert_eq!(moves.len(), 20);
    for &mv in &moves {
        let mut child = root.clone();
        child.play(mv);
        assert_eq!(Material.evaluate(&child), 0, "{mv}");
    }
    let plain = depth_one(START, None);
    let verified = depth_one(START, Some(TWO_PLIES));
    let last = verified.last().expect("an iteration");
    assert!(plain.best_move().is_some());
    assert_eq!(last.best_move, plain.best_move());
    assert_eq!(last.stats.secondary_switches, 0);
}

/// Negamax of `pos` to `depth` plies by `eval`, `ply` plies below the root, written out
/// from its definition (a finished game is scored by its outcome at its ply): the exact
/// value a full-window search of that depth returns.
fn negamax(pos: &Chess, eval: &impl Evaluator<Chess>, depth: u32, ply: i32) -> i32 {
    use plylab::game::{Game, Status, score};
    if let Status::Over(outcome) = pos.status() {
        return score::of_outcome(outcome, ply);
    }
    if depth == 0 {
        return eval.evaluate(pos);
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            -negamax(&child, eval, depth - 1, ply + 1)
        })
        .max()
        .expect("a move in a game not over")
}

/// Secondary search written out from its definition (secondary.rs, after seed 003) and
/// compared with the searcher's, move and score: every root move valued at depth d and
/// again k plies deeper (by [`negamax`] of its position), the moves tried best first (the
/// main search's move first among equals, then in generation order), the first whose
/// deeper value is at most `margin` below its depth-d value played with its deeper value,
/// and where none passes the best deeper value (the first tried among equals). By material
/// and by piece-square tables (whose best replies are seldom the first tried), one and two
/// plies deep, on positions where moves pass and where none does. The deeper values were
/// checked only through the moves they chose: searched with an empty window, (∞, ∞)
/// instead of (−∞, ∞), they passed every other test.
#[test]
fn secondary_search_plays_the_move_its_definition_chooses_with_its_deeper_value() {
    check_secondary_by_definition(&Material);
    check_secondary_by_definition(&Pst);
}

/// The check of
/// [`secondary_search_plays_the_move_its_definition_chooses_with_its_deeper_value`] by
/// `eval`.
fn check_secondary_by_definition(eval: &impl Evaluator<Chess>) {
    use plylab::game::Game;
    const CAPTURES: &str = "4k3/8/3p4/2p1n3/3P4/2N5/8/4K3 w - - 0 1";
    for fen in [TRAP, PINNED, CAPTURES] {
        let root = Chess::parse_position(fen).expect("fen");
        for (d, margin) in [(1, 0), (1, 50), (2, 0), (2, 150)] {
            let secondary = Secondary { plies: 2, margin };
            let run = |secondary| {
                let config = SearchConfig {
                    tt_mb: 4,
                    secondary,
                    ..SearchConfig::default()
                };
                let limits = Limits {
                    depth: Some(d),
                    ..Limits::default()
                };
                search(&root, eval, &config, &limits)
            };
            let main = run(None).best_move().expect("a move");
            let mut moves = Vec::new();
            root.generate_moves(&mut moves);
            // (move, depth-d value, value two plies deeper), best first.
            let mut ranked: Vec<_> = moves
                .iter()
                .map(|&mv| {
                    let mut child = root.clone();
                    child.play(mv);
                    let value = |plies| -negamax(&child, eval, plies, 1);
                    (mv, value(d - 1), value(d + 1))
                })
                .collect();
            ranked.sort_by_key(|&(mv, shallow, _)| (-shallow, mv != main));
            let passes = |r: &&(_, i32, i32)| r.2 >= r.1 - margin;
            let (mv, _, deep) = *ranked.iter().find(passes).unwrap_or_else(|| {
                let best = ranked.iter().map(|r| r.2).max().expect("a move");
                ranked.iter().find(|r| r.2 == best).expect("the best")
            });
            let verified = run(Some(secondary));
            let last = verified.last().expect("an iteration");
            let what = format!("{fen} depth {d} margin {margin}");
            assert_eq!(last.best_move, Some(mv), "{what}: {ranked:?}");
            assert_eq!(last.score, deep, "{what}");
        }
    }
}

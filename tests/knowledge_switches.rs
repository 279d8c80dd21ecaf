//! The knowledge switches of experiment files (`tablebase`, `book`, `secondary`) and
//! secondary search itself.

mod common;

use common::{TempDir, plylab};
use plylab::game::Notation;
use plylab::games::chess::{Chess, Material};
use plylab::search::{Limits, SearchConfig, Secondary, search};

/// White's queen can take a pawn that another pawn guards: one ply deep (no quiescence) it
/// wins a pawn, three plies deep it loses the queen. Secondary search (k = 2) sees it.
const TRAP: &str = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1";

fn depth_one(
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
        &Chess::parse_position(TRAP).expect("fen"),
        &Material,
        &config,
        &limits,
    )
}

#[test]
fn secondary_search_rejects_the_move_that_loses_the_queen_deeper() {
    let plain = depth_one(None);
    assert_eq!(
        plain.best_move().map(|m| m.to_string()).as_deref(),
        Some("d1d5")
    );
    let verified = depth_one(Some(Secondary {
        plies: 2,
        margin: 0,
    }));
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
    let plain = depth_one(None);
    let verified = depth_one(Some(Secondary {
        plies: 2,
        margin: 10_000,
    }));
    assert_eq!(verified.best_move(), plain.best_move());
    assert_eq!(
        verified.last().expect("iteration").stats.secondary_switches,
        0
    );
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
}

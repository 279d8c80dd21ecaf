//! Backgammon and the searches over chance on the command line: a search runs, and bad
//! input (a malformed Position ID, an illegal move, a chance search on a game without
//! chance or a deterministic search on a game with chance, in flags and in experiment
//! files) is refused with exit code 2 and a clear message, never a panic.

use crate::common::{TempDir, plylab};
use plylab::game::{Game, Notation};
use plylab::games::backgammon::Backgammon;

#[test]
fn star2_searches_a_backgammon_position() {
    let (code, out, err) = plylab(&[
        "search",
        "backgammon",
        "start 31",
        "--algorithm",
        "star2",
        "--depth",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("bestmove"), "{out}");
}

fn refused(args: &[&str], needle: &str) {
    let (code, _, err) = plylab(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn malformed_position_ids_and_illegal_moves_exit_2() {
    let search = |pos: &'static str| {
        [
            "search",
            "backgammon",
            pos,
            "--algorithm",
            "star1",
            "--depth",
            "1",
        ]
    };
    refused(&search("4HPwATDgc/ABM"), "not 14");
    refused(&search("4HPwATDgc/AB!A"), "not Base64");
    refused(&search("//////////////"), "too many checkers");
    refused(&search("start 71"), "not a roll");
    refused(
        &search("start 31; 24/16"),
        "`24/16` is not a legal move with 31",
    );
    refused(&search("start 31; 8/5 6/5; 42; bar/21"), "not a legal move");
}

#[test]
fn chance_searches_and_games_must_match_on_the_command_line() {
    refused(
        &[
            "search",
            "backgammon",
            "start 31",
            "--algorithm",
            "alphabeta",
            "--depth",
            "2",
        ],
        "has chance nodes",
    );
    refused(
        &[
            "search",
            "tictactoe",
            "start",
            "--algorithm",
            "star1",
            "--depth",
            "2",
        ],
        "tictactoe has none",
    );
}

#[test]
fn chance_searches_and_games_must_match_in_experiment_files() {
    let dir = TempDir::new("chance-mismatch");
    let cases = [
        (
            "[[games]]\ngame = \"backgammon\"\npositions = [\"start 31\"]\n\n[[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\n",
            "has chance nodes",
            5,
        ),
        (
            "[[games]]\ngame = \"connect4\"\n\n[[searchers]]\nlabel = \"s2\"\nalgorithm = \"star2\"\n",
            "connect4 has none",
            5,
        ),
        (
            "[[games]]\ngame = \"chance_tree\"\nb = 2\nd = 3\nchance = \"dice\"\n\n[[searchers]]\nlabel = \"mm\"\nalgorithm = \"minimax\"\n",
            "has chance nodes",
            5,
        ),
        (
            "[[games]]\ngame = \"backgammon\"\npositions = [\"4HPwATDgc/ABMA 99\"]\n\n[[searchers]]\nlabel = \"e\"\nalgorithm = \"expectiminimax\"\n",
            "not a roll",
            6,
        ),
    ];
    for (i, (body, needle, line)) in cases.iter().enumerate() {
        let file = dir.path(&format!("case{i}.toml"));
        std::fs::write(
            &file,
            format!("name = \"bad\"\n[limits]\ndepth = 2\n{body}"),
        )
        .unwrap();
        let (code, _, err) = plylab(&["experiment", "--dry-run", file.to_str().unwrap()]);
        assert_eq!(code, 2, "case {i}: {err}");
        assert!(err.contains(needle), "case {i}: {err}");
        // The error names the file and the line of the offending key (`game`, `positions`).
        assert!(
            err.contains(&format!("case{i}.toml:{line}")),
            "case {i}: {err}"
        );
    }
}

#[test]
fn uct_plays_backgammon_through_chance_nodes() {
    let (code, out, err) = plylab(&[
        "search",
        "backgammon",
        "start 31",
        "--algorithm",
        "star1",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let dir = TempDir::new("uct-backgammon");
    let file = dir.path("uct.toml");
    std::fs::write(
        &file,
        "name = \"uct_bg\"\n[[games]]\ngame = \"backgammon\"\npositions = [\"start 31\", \"start 64; 24/14; 52\"]\n[[searchers]]\nlabel = \"uct\"\nalgorithm = \"uct\"\nlimits = { nodes = 300 }\n",
    )
    .unwrap();
    let out_dir = dir.path("out");
    let (code, _, err) = plylab(&[
        "experiment",
        file.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--no-plot",
        "--jobs",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let csv = std::fs::read_to_string(out_dir.join("searches.csv")).unwrap();
    // Each job chose a legal move of its position (it parses back as one).
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let header = rows.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut checked = 0;
    for row in rows.records() {
        let row = row.unwrap();
        let pos = Backgammon::parse_position(&row[col("position")]).unwrap();
        let best = &row[col("best_move")];
        assert!(
            pos.parse_move(best).is_ok(),
            "{best} in {}",
            &row[col("position")]
        );
        checked += 1;
    }
    assert_eq!(checked, 2);
    assert!(out.contains("bestmove"));
}

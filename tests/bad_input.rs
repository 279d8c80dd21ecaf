//! Bad input to the command line: every malformed experiment file in
//! tests/data/bad_experiments/ is refused with exit code 2 and a located message
//! (`FILE:LINE:COL: key `KEY`: message`) before anything runs, and bad positions, test sets
//! and flags to the other subcommands are refused with exit code 2 and a clear message.
//! Nothing may panic.

use std::path::{Path, PathBuf};

use crate::common::{TempDir, plylab};

fn bad_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad_experiments")
}

/// A malformed experiment file and what the error must say about it.
struct Case {
    /// File name in tests/data/bad_experiments/.
    file: &'static str,
    /// The line of the offending key (for a missing key: line 1).
    line: usize,
    /// The key named in the message as `key `KEY``, where there is one.
    key: Option<&'static str>,
    /// A piece of the message.
    message: &'static str,
}

const fn case(file: &'static str, line: usize, key: &'static str, message: &'static str) -> Case {
    Case {
        file,
        line,
        key: Some(key),
        message,
    }
}

const CASES: &[Case] = &[
    case(
        "unknown_top_level_key.toml",
        3,
        "colour",
        "unknown field `colour`",
    ),
    case(
        "unknown_searcher_key.toml",
        10,
        "speed",
        "unknown field `speed`",
    ),
    // The key at fault is reported as the inline table's key; the message names `killer`.
    case(
        "unknown_ordering_key.toml",
        10,
        "ordering.killer",
        "unknown field `killer`",
    ),
    case(
        "unknown_limits_key.toml",
        6,
        "plies",
        "unknown field `plies`",
    ),
    case(
        "string_for_number.toml",
        10,
        "tt_mb",
        "invalid type: string",
    ),
    case(
        "number_for_bool.toml",
        10,
        "iterative",
        "expected a boolean",
    ),
    case(
        "number_for_bool_in_ordering.toml",
        12,
        "hint",
        "expected a boolean",
    ),
    case("negative_depth.toml", 5, "depth", "-3"),
    case("depth_zero.toml", 10, "depth", "must be at least 1"),
    case(
        "depth_too_deep.toml",
        12,
        "depth",
        "must be at most 5000 plies",
    ),
    case("nodes_zero.toml", 8, "nodes", "must be at least 1"),
    case("unknown_game.toml", 5, "game", "unknown variant `go`"),
    case(
        "unknown_algorithm.toml",
        9,
        "algorithm",
        "unknown variant `mtdf`",
    ),
    case(
        "unknown_oracle_order.toml",
        12,
        "oracle",
        "unknown variant `best`",
    ),
    case(
        "oracle_unknown_key.toml",
        12,
        "oracle",
        "unknown field `typo`, expected `best_first`",
    ),
    Case {
        ..case(
            "best_first_out_of_range.toml",
            12,
            "oracle",
            "1.5 is not in [0, 1]",
        )
    },
    case(
        "check_extension_too_large.toml",
        10,
        "check_extension",
        "24 is not in 0..=23",
    ),
    case(
        "quiescence_unknown_word.toml",
        10,
        "quiescence",
        "\"off\", \"unlimited\"",
    ),
    case(
        "null_move_reduction_too_large.toml",
        10,
        "null_move",
        "a reduction R of 1-6",
    ),
    case(
        "chess_without_limits.toml",
        5,
        "game",
        "chess has no bound on its length",
    ),
    case(
        "backgammon_without_limits.toml",
        5,
        "game",
        "backgammon has no bound on its length",
    ),
    case("chess_bad_fen.toml", 6, "positions", "bad chess position"),
    case(
        "threads_without_lazy_smp.toml",
        10,
        "threads",
        "needs algorithm = \"lazy_smp\"",
    ),
    case(
        "ybw_too_many_threads.toml",
        10,
        "threads",
        "more than ybw's 64 threads",
    ),
    case(
        "split_plies_without_ybw.toml",
        10,
        "split_plies",
        "is for algorithm = \"ybw\"",
    ),
    case(
        "split_plies_zero.toml",
        11,
        "split_plies",
        "0 is not in 1..=64",
    ),
    case(
        "helper_depths_without_lazy_smp.toml",
        10,
        "helper_depths",
        "is for algorithm = \"lazy_smp\"",
    ),
    case(
        "helper_depths_unknown.toml",
        11,
        "helper_depths",
        "unknown variant `sideways`, expected `alternate` or `same`",
    ),
    case(
        "main_depths_without_lazy_smp.toml",
        10,
        "main_depths",
        "is for algorithm = \"lazy_smp\"",
    ),
    case(
        "main_depths_unknown.toml",
        11,
        "main_depths",
        "unknown variant `odd`, expected `every` or `alternate`",
    ),
    case(
        "exploration_on_alphabeta.toml",
        10,
        "exploration",
        "is for Monte Carlo searches",
    ),
    case(
        "table_on_mcts.toml",
        10,
        "tt_mb",
        "is for the alpha-beta family",
    ),
    case("threads_on_uct.toml", 10, "threads", "\"root_parallel\""),
    case(
        "mcts_without_budget.toml",
        9,
        "limits",
        "needs a nodes (playouts) or time_ms limit",
    ),
    case(
        "negative_exploration.toml",
        10,
        "exploration",
        "-0.5 is not a number from 0 to 1e6",
    ),
    case(
        "hold_depth_on_root_parallel.toml",
        10,
        "hold_depth",
        "is for algorithm = \"tree_parallel\"",
    ),
    case(
        "hold_playouts_zero.toml",
        11,
        "hold_playouts",
        "expected at least 1 playout",
    ),
    case(
        "expand_visits_zero.toml",
        10,
        "expand_visits",
        "expected at least 1 playout",
    ),
    case(
        "expand_visits_on_flat.toml",
        10,
        "expand_visits",
        "grows no tree to expand",
    ),
    case(
        "label_too_long.toml",
        8,
        "label",
        "67 characters: a label has at most 64",
    ),
    case(
        "tree_mb_zero.toml",
        10,
        "tree_mb",
        "expected at least 1 MiB",
    ),
    case(
        "tree_mb_on_flat.toml",
        10,
        "tree_mb",
        "grows no tree to cap",
    ),
    case(
        "tree_mb_on_alphabeta.toml",
        10,
        "tree_mb",
        "is for Monte Carlo searches",
    ),
    case("connect4_full_column.toml", 8, "positions", "`4444444`"),
    case("connect4_bad_column.toml", 6, "positions", "`9`"),
    case("othello_bad_board.toml", 6, "positions", "63 squares"),
    case("tictactoe_bad_position.toml", 6, "positions", "`55`"),
    case(
        "random_tree_missing_b.toml",
        5,
        "b",
        "random_tree needs `b`",
    ),
    case("random_tree_too_large.toml", 6, "d", "b=10, d=12"),
    case("connect4_with_tree_key.toml", 7, "b", "random trees only"),
    case("zero_trees.toml", 8, "trees", "must be at least 1"),
    case("empty_searchers.toml", 3, "searchers", "empty"),
    case("empty_games.toml", 3, "games", "empty"),
    Case {
        key: None,
        ..case("missing_searchers.toml", 1, "", "missing field `searchers`")
    },
    case(
        "duplicate_label.toml",
        12,
        "label",
        "`ab` labels two searchers",
    ),
    case("missing_test_set_file.toml", 6, "file", "no_such_test_set"),
    case(
        "mcts_at_chance_root.toml",
        6,
        "game",
        "position `start` for `mc`: a Monte Carlo search chooses a player's move",
    ),
    case(
        "reference_value_zero.toml",
        17,
        "value",
        "0: expected a positive number",
    ),
    case(
        "test_set_bad_line.toml",
        6,
        "file",
        "bad_test_set.txt:4: bad position `4444444 0`",
    ),
    case("take_without_file.toml", 7, "take", "`take` needs a `file`"),
    case(
        "play_out_not_chess.toml",
        8,
        "play_out",
        "needs game = \"chess\" and a `file`",
    ),
    case(
        "play_out_without_file.toml",
        8,
        "play_out",
        "needs game = \"chess\" and a `file`",
    ),
    case("empty_sweep.toml", 10, "tt_mb", "empty list"),
    case(
        "zero_repetitions.toml",
        3,
        "repetitions",
        "must be at least 1",
    ),
    case("name_with_slash.toml", 2, "name", "letters, digits"),
    case("toml_syntax_error.toml", 7, "searchers", "expected `]]`"),
    case(
        "arena_unknown_match_key.toml",
        7,
        "rounds",
        "unknown field `rounds`",
    ),
    case("arena_odd_games.toml", 6, "games", "3 is odd"),
    case(
        "arena_zero_engine_timeout.toml",
        7,
        "engine_timeout_ms",
        "must be at least 1",
    ),
    case(
        "arena_random_tree.toml",
        5,
        "game",
        "a match needs a game to play",
    ),
    case(
        "arena_one_player.toml",
        9,
        "searchers",
        "at least two players",
    ),
    case("arena_bad_tc.toml", 7, "tc", "not a time control"),
    case(
        "arena_periodic_tc_zero_moves.toml",
        7,
        "tc",
        "not a time control",
    ),
    case("arena_st_with_tc.toml", 8, "st", "give one"),
    case("arena_st_not_positive.toml", 7, "st", "not a time per move"),
    case("arena_st_and_time_ms.toml", 15, "st", "drop one"),
    case(
        "arena_draw_adjudication_zero_movecount.toml",
        7,
        "movecount",
        "at least 1",
    ),
    case(
        "arena_draw_adjudication_zero_movenumber.toml",
        7,
        "movenumber",
        "leave `draw_adjudication` out",
    ),
    case(
        "arena_resign_adjudication_zero_score.toml",
        7,
        "score",
        "positive score",
    ),
    case(
        "arena_resign_adjudication_unknown_key.toml",
        7,
        "resign_adjudication.two_sided",
        "unknown field `two_sided`",
    ),
    case(
        "arena_plies_without_book.toml",
        7,
        "plies",
        "is for a `file` of openings",
    ),
    case(
        "arena_polyglot_for_connect4.toml",
        7,
        "file",
        "a Polyglot book is for chess",
    ),
    case(
        "arena_missing_polyglot_book.toml",
        7,
        "file",
        "no_such_book.bin",
    ),
    case("arena_tc_and_time_ms.toml", 17, "limits", "drop time_ms"),
    case(
        "arena_engine_not_chess.toml",
        16,
        "engine",
        "backgammon (gnubg) only",
    ),
    case(
        "arena_engine_with_algorithm.toml",
        17,
        "engine",
        "has no `algorithm`",
    ),
    case(
        "arena_engine_unknown_key.toml",
        16,
        "engine",
        "unknown field `command`",
    ),
    case(
        "arena_opening_listed_twice.toml",
        7,
        "positions",
        "`4453` is listed twice",
    ),
    case(
        "arena_two_opening_sources.toml",
        7,
        "openings",
        "exactly one of file, random_plies or positions",
    ),
    case(
        "arena_sprt_bounds.toml",
        8,
        "sprt",
        "needs elo0 < elo1, both from -200 to 200 normalized Elo",
    ),
    case(
        "arena_sprt_infinite.toml",
        8,
        "sprt",
        "needs elo0 < elo1, both from -200 to 200 normalized Elo",
    ),
    case(
        "arena_sprt_vast.toml",
        8,
        "sprt",
        "elo1 = 500, alpha = 0.05, beta = 0.05: needs elo0 < elo1, both from -200 to 200",
    ),
    case(
        "arena_mcts_without_budget.toml",
        17,
        "limits",
        "needs nodes (playouts)",
    ),
    case("arena_missing_book.toml", 7, "file", "no_such_book"),
    case(
        "arena_zero_concurrency.toml",
        7,
        "concurrency",
        "must be in 1..=256",
    ),
    case(
        "arena_engine_without_limit.toml",
        15,
        "limits",
        "needs a limit per move",
    ),
    // Its first move would never end: chess, checkers and backgammon need a limit, as in
    // experiment files.
    case(
        "arena_alphabeta_without_limit.toml",
        14,
        "limits",
        "`b` needs a limit per move: depth, nodes, time_ms or tc (chess has no bound",
    ),
    case(
        "arena_chance_search_without_limit.toml",
        14,
        "limits",
        "`b` needs a limit per move: depth, nodes, time_ms or tc (backgammon has no bound",
    ),
    case(
        "arena_xboard_node_limit.toml",
        17,
        "limits",
        "speaks xboard, which has no node limit",
    ),
    case(
        "arena_xboard_fractional_time.toml",
        15,
        "limits",
        "speaks xboard, whose `st` counts whole seconds",
    ),
    case(
        "arena_adjudicate_zero_plies.toml",
        7,
        "plies",
        "must be at least 1",
    ),
    case(
        "engine_outside_arena.toml",
        10,
        "engine",
        "is for arena files",
    ),
    // Values beyond their type reach the user at their key, not as an unknown `match`.
    case("arena_games_out_of_range.toml", 6, "games", "out of range"),
    case(
        "arena_engine_timeout_out_of_range.toml",
        7,
        "engine_timeout_ms",
        "out of range",
    ),
    case("arena_st_overflow.toml", 7, "st", "out of range"),
    case(
        "arena_st_below_a_millisecond.toml",
        7,
        "st",
        "at least 0.001 (1 ms)",
    ),
    case(
        "arena_finished_opening.toml",
        7,
        "positions",
        "`1212121` is a finished game",
    ),
    case(
        "arena_finished_book_opening.toml",
        7,
        "file",
        "opening `1212121` is a finished game",
    ),
    case(
        "duplicate_sweep_value.toml",
        10,
        "tt_mb",
        "`1` is listed twice",
    ),
    // The ranges of the `search` flags.
    case(
        "endgame_solver_too_large.toml",
        10,
        "endgame_solver",
        "99999 is not in 1..=20",
    ),
    case(
        "negative_delta_margin.toml",
        12,
        "delta_margin",
        "cannot be negative",
    ),
    case(
        "eval_not_of_the_game.toml",
        12,
        "eval",
        "`pubeval`, which is not an evaluation of connect4",
    ),
    case(
        "arena_eval_not_of_the_game.toml",
        16,
        "eval",
        "`material`, which is not an evaluation of checkers",
    ),
    case(
        "chance_tree_too_many_trees.toml",
        10,
        "trees",
        "999999999 jobs (chance × b × d × trees chance trees, before searchers)",
    ),
    case(
        "key_after_multibyte_comment.toml",
        11,
        "pvs",
        "`pvs` does nothing in algorithm = \"minimax\"",
    ),
    case("chance_tree_too_deep.toml", 7, "d", "d must be at most 40"),
    case("chance_tree_empty_range.toml", 9, "lo", "need lo <= hi"),
    case(
        "arena_sprt_unknown_key.toml",
        8,
        "sprt.alfa",
        "unknown field `alfa`",
    ),
    case(
        "chance_tree_too_many_outcomes.toml",
        8,
        "chance",
        "4294967295 outcomes: at most 4096",
    ),
    case(
        "flat_monte_carlo_exploration.toml",
        9,
        "exploration",
        "`flat_monte_carlo` spreads its playouts evenly: it has no exploration term",
    ),
    case(
        "chance_tree_outcomes_past_u32.toml",
        8,
        "chance",
        "99999999999 outcomes: at most 4096",
    ),
    case(
        "secondary_too_deep.toml",
        12,
        "secondary",
        "at most 5000 plies",
    ),
    case(
        "technique_idle_in_game.toml",
        13,
        "null_move",
        "searcher `null` turns on `null_move`, and connect4 has no null move",
    ),
    case("name_too_long.toml", 2, "name", "at most 100 characters"),
    case(
        "minimax_with_null_move.toml",
        13,
        "null_move",
        "`null_move` does nothing in algorithm = \"minimax\"",
    ),
    case(
        "position_listed_twice.toml",
        6,
        "game",
        "position `44` is searched twice by `ab` with the same limits and seed (jobs 0 and 2)",
    ),
    case(
        "null_verify_without_null_move.toml",
        13,
        "null_verify",
        "`null_verify` tunes `null_move`, which searcher `verified` does not turn on",
    ),
    case(
        "delta_margin_without_quiescence.toml",
        15,
        "delta_margin",
        "`delta_margin` tunes `quiescence`, which searcher `delta` does not turn on",
    ),
    case(
        "table_key_without_table.toml",
        13,
        "tt_move",
        "`tt_move` changes how the transposition table is used, and searcher `tt` has none (tt_mb = 0)",
    ),
    case(
        "threats_idle_in_game.toml",
        12,
        "threats",
        "searcher `threats` turns on `threats`, and chess has no winning spots to count",
    ),
    case(
        "arena_technique_idle_in_game.toml",
        17,
        "quiescence_checks",
        "searcher `b` turns it on, and checkers has no checks",
    ),
    case(
        "test_set_impossible_score.toml",
        6,
        "file",
        "impossible_score.txt:3: bad position `4 22`: 22 is not a possible score",
    ),
    case("take_zero.toml", 7, "take", "must be at least 1"),
    case(
        "backgammon_test_set.toml",
        6,
        "file",
        "backgammon has no test-set format",
    ),
    case(
        "label_with_bar.toml",
        8,
        "label",
        "'|' is not allowed in a label",
    ),
    case(
        "label_with_newline.toml",
        8,
        "label",
        "'\\n' is not allowed in a label",
    ),
    case(
        "connect4_empty_position.toml",
        6,
        "positions",
        "an empty position: write `start`",
    ),
];

/// Runs `experiment FILE --dry-run` and `experiment FILE --out DIR` on one case and returns
/// what is wrong, if anything.
fn check(case: &Case, tmp: &Path) -> Result<(), String> {
    let path = bad_dir().join(case.file);
    let path_text = path.to_str().expect("UTF-8 path");
    let out = tmp.join(case.file.trim_end_matches(".toml"));
    let runs = [
        vec!["experiment", path_text, "--dry-run"],
        vec![
            "experiment",
            path_text,
            "--out",
            out.to_str().expect("UTF-8 path"),
            "--jobs",
            "1",
        ],
    ];
    for args in &runs {
        let (code, stdout, stderr) = plylab(args);
        let fail = |what: &str| {
            Err(format!(
                "{}: `plylab {}`: {what}\nstdout: {stdout}\nstderr: {stderr}",
                case.file,
                args.join(" ")
            ))
        };
        if stderr.contains("panicked") {
            return fail("panicked");
        }
        if code != 2 {
            return fail(&format!("exit code {code}, expected 2"));
        }
        let located = format!("{path_text}:{}:", case.line);
        if !stderr.contains(&located) {
            return fail(&format!("stderr does not contain `{located}`"));
        }
        if let Some(key) = case.key
            && !stderr.contains(&format!("key `{key}`"))
        {
            return fail(&format!("stderr does not name key `{key}`"));
        }
        if !stderr.contains(case.message) {
            return fail(&format!("stderr does not contain `{}`", case.message));
        }
        if out.exists() {
            return fail("a results directory was created");
        }
    }
    Ok(())
}

fn check_all(cases: impl Iterator<Item = &'static Case>, test: &str) {
    let tmp = TempDir::new(test);
    let failures: Vec<String> = cases.filter_map(|c| check(c, tmp.dir()).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn malformed_experiment_files_are_refused_with_their_location() {
    check_all(CASES.iter(), "located");
}

#[test]
fn every_bad_experiment_file_is_in_the_table_and_says_what_is_wrong() {
    let mut listed: Vec<&str> = CASES.iter().map(|c| c.file).collect();
    listed.sort_unstable();
    let mut on_disk: Vec<String> = std::fs::read_dir(bad_dir())
        .expect("tests/data/bad_experiments")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    on_disk.sort_unstable();
    assert_eq!(listed, on_disk);
    assert!(CASES.len() >= 20);
    for c in CASES {
        let text = std::fs::read_to_string(bad_dir().join(c.file)).expect("fixture");
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("# "),
            "{}: no `#` comment on line 1",
            c.file
        );
    }
}

#[test]
fn a_missing_experiment_file_is_bad_input() {
    let tmp = TempDir::new("missing");
    let path = tmp.dir().join("no_such_experiment.toml");
    let path = path.to_str().expect("UTF-8 path");
    for dry in [true, false] {
        let mut args = vec!["experiment", path];
        if dry {
            args.push("--dry-run");
        }
        let (code, _, stderr) = plylab(&args);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(path), "{stderr}");
        assert!(stderr.contains("cannot read"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
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
fn bad_positions_are_refused() {
    refused(
        &["search", "connect4", "8"],
        &["bad connect4 position `8`", "not a column 1-7"],
    );
    refused(
        &["search", "connect4", "4444444"],
        &["`4444444`", "column 4 is full"],
    );
    refused(
        &["search", "tictactoe", "55"],
        &["bad tictactoe position `55`", "played twice"],
    );
    refused(
        &["search", "random_tree", "b=3"],
        &["bad random_tree position `b=3`", "`d=`"],
    );
    refused(&["search", "random_tree", "b=40,d=40"], &["b^d <= 2^30"]);
    refused(
        &["search", "random_tree", "b=4,d=8,b=5"],
        &["`b` is given twice (`b=4` and `b=5`)"],
    );
    refused(
        &["search", "random_tree", "b=2,d=3,path=0..1"],
        &["step 2 is empty"],
    );
    refused(
        &["search", "chance_tree", "b=2,d=3,chance=2,path=.1"],
        &["step 1 is empty"],
    );
    refused(&["search", "connect4", ""], &["an empty position"]);
    // A tree has no `start`: the message names the tree instead.
    refused(
        &["perft", "random_tree", "", "2"],
        &["an empty position: name the tree (`b=4,d=8,seed=1`)"],
    );
    refused(
        &["perft", "connect4", "x", "3"],
        &["bad connect4 position `x`"],
    );
}

#[test]
fn a_test_set_with_a_bad_line_is_refused_with_its_location() {
    let file = bad_dir().join("bad_test_set.txt");
    let file = file.to_str().expect("UTF-8 path");
    refused(
        &["suite", "connect4", file],
        &[&format!("{file}:4:"), "`4444444 0`", "column 4 is full"],
    );
    refused(
        &["suite", "connect4", "no/such/test_set"],
        &["no/such/test_set"],
    );
    let impossible = bad_dir().join("impossible_score.txt");
    let impossible = impossible.to_str().expect("UTF-8 path");
    refused(
        &["suite", "connect4", impossible],
        &[&format!("{impossible}:3:"), "22 is not a possible score"],
    );
    refused(
        &[
            "suite",
            "connect4",
            "experiments/data/connect4/Test_L3_R1",
            "--take",
            "0",
        ],
        &["--take"],
    );
    let obf = bad_dir().join("bad_test_set.obf");
    let obf = obf.to_str().expect("UTF-8 path");
    refused(
        &["suite", "othello", obf],
        &[&format!("{obf}:3:"), "`A1:+18`", "not a legal move"],
    );
}

#[test]
fn bad_flags_are_refused() {
    refused(
        &["search", "connect4", "start", "--frobnicate"],
        &["--frobnicate"],
    );
    refused(&["experiment", "x.toml", "--frobnicate"], &["--frobnicate"]);
    refused(
        &["search", "connect4", "start", "--depth", "0"],
        &["--depth"],
    );
    refused(
        &["search", "connect4", "start", "--nodes", "0"],
        &["--nodes"],
    );
    refused(
        &[
            "search",
            "chess",
            "start",
            "--delta-margin=-5",
            "--depth",
            "1",
        ],
        &["--delta-margin"],
    );
    refused(
        &[
            "search",
            "connect4",
            "start",
            "--depth",
            "3",
            "--playout-cutoff",
            "4",
        ],
        &["--playout-cutoff is for --algorithm uct"],
    );
    // A negative constant is read as the flag's value (not as an unknown flag `-1`) and
    // refused by the range check; a vast one overflowed every child's bound to infinity (one
    // child took the playouts).
    for c in ["-1", "1e308"] {
        refused(
            &[
                "search",
                "connect4",
                "start",
                "--algorithm",
                "uct",
                "--nodes",
                "100",
                "--exploration",
                c,
            ],
            &[&format!("--exploration {c} is not a number from 0 to 1e6")],
        );
    }
    // Flat Monte Carlo has no exploration term: a constant given it would change nothing.
    refused(
        &[
            "search",
            "connect4",
            "44",
            "--algorithm",
            "flat",
            "--nodes",
            "100",
            "--exploration",
            "3",
        ],
        &["--exploration is for the tree searches"],
    );
    refused(
        &[
            "suite",
            "connect4",
            "experiments/data/connect4/Test_L3_R1",
            "--jobs",
            "0",
        ],
        &["--jobs"],
    );
    let experiment = bad_dir().join("unknown_game.toml");
    refused(
        &[
            "experiment",
            experiment.to_str().expect("UTF-8"),
            "--jobs",
            "0",
        ],
        &["--jobs"],
    );
    refused(&["search", "go", "start"], &["go"]);
    refused(
        &["search", "tictactoe", "start", "--algorithm", "mtdf"],
        &["mtdf"],
    );
    refused(&["perft", "connect4", "start", "three"], &["three"]);
    refused(
        &[
            "suite",
            "connect4",
            "experiments/data/connect4/Test_L3_R1",
            "--take",
            "1",
            "--csv",
            "experiments",
        ],
        &["--csv experiments: a directory"],
    );
    refused(
        &[
            "search",
            "backgammon",
            "start",
            "--algorithm",
            "uct",
            "--nodes",
            "100",
        ],
        &["chance moves next here", "`start 31`"],
    );
    // Deeper than a search can score (score::MAX_PLY / 2): refused before any buffer is
    // sized by the depth (perft and search once allocated one per ply, then aborted).
    refused(
        &["perft", "tictactoe", "start", "4294967295"],
        &["4294967295 is not in 0..=5000"],
    );
    refused(
        &[
            "search",
            "tictactoe",
            "start",
            "--depth",
            "5001",
            "--no-iterative",
        ],
        &["5001 is not in 1..=5000"],
    );
    refused(&["frobnicate"], &["frobnicate"]);
    refused(
        &[
            "search",
            "connect4",
            "start",
            "--algorithm",
            "ybw",
            "--threads",
            "65",
            "--depth",
            "3",
        ],
        &["--threads 65", "at most 64 threads"],
    );
    refused(
        &["book", "build", "chess", "--out", "never-written.bin"],
        &["book build chess: --pgn FILE is needed"],
    );
    refused(
        &["book", "build", "othello", "--out", "never-written.bin"],
        &["game `othello` has no book builder"],
    );
    // A negative cost of a ply is read as a number (not as a flag) and refused.
    refused(
        &[
            "book",
            "build",
            "connect4",
            "--omega",
            "-5",
            "--out",
            "never-written.bin",
        ],
        &["-5 is not in 0.."],
    );
    // So is any negative number given to a numeric flag.
    refused(
        &["search", "chess", "startpos", "--depth", "-1"],
        &["invalid value '-1' for '--depth <N>'"],
    );
    // The other game's flags are refused, not ignored.
    refused(
        &[
            "book",
            "build",
            "chess",
            "--pgn",
            "games.pgn",
            "--omega",
            "8",
            "--out",
            "never-written.bin",
        ],
        &["book build chess: --omega is for `book build connect4`"],
    );
    refused(
        &[
            "book",
            "build",
            "connect4",
            "--max-ply",
            "12",
            "--out",
            "never-written.bin",
        ],
        &["book build connect4: --max-ply is for `book build chess`"],
    );
}

#[test]
fn an_impossible_table_size_is_bad_input() {
    refused(
        &[
            "search",
            "tictactoe",
            "start",
            "--tt-mb",
            "100000000",
            "--depth",
            "1",
        ],
        &["--tt-mb"],
    );
}

#[test]
fn plot_refuses_a_damaged_run_json() {
    let dir = TempDir::new("plot-damaged-run-json");
    let csv = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/plot/searches.csv");
    std::fs::copy(&csv, dir.path("searches.csv")).expect("copy");
    let out = dir.path("searches.csv");
    let out = out.to_str().expect("UTF-8");
    for damaged in ["{", "[1, 2]", ""] {
        std::fs::write(dir.path("run.json"), damaged).expect("write");
        refused(
            &["plot", out, "--format", "svg"],
            &["run.json: not the JSON object"],
        );
    }
    // Keys of another type than plylab writes are named (read as absent, they dropped the
    // cores from every footer without a word).
    for (damaged, key) in [
        (r#"{"cores": "two"}"#, "`cores`"),
        (r#"{"git_commit": 7, "jobs": -1}"#, "`git_commit`, `jobs`"),
        (r#"{"references": [{"searcher": "x"}]}"#, "`references`"),
    ] {
        std::fs::write(dir.path("run.json"), damaged).expect("write");
        refused(
            &["plot", out, "--format", "svg"],
            &[&format!("run.json: the type of {key} is not what")],
        );
    }
    // Without one, the charts are drawn (their footer says the run is unknown).
    std::fs::remove_file(dir.path("run.json")).expect("remove");
    let (code, _, stderr) = plylab(&["plot", out, "--format", "svg"]);
    assert_eq!(code, 0, "{stderr}");
}

/// An output that is the input being read is refused before it is touched: a suite's
/// `--csv` over its test set, a book over its PGN (both were overwritten).
#[test]
fn an_output_over_its_own_input_is_refused() {
    let dir = TempDir::new("output-over-input");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let set = dir.path("set.txt");
    std::fs::copy(root.join("experiments/data/connect4/Test_L3_R1"), &set).expect("copy");
    let pgn = dir.path("games.pgn");
    std::fs::copy(root.join("tests/data/book/openings.pgn"), &pgn).expect("copy");
    let before = (
        std::fs::read(&set).expect("set"),
        std::fs::read(&pgn).expect("pgn"),
    );
    let (set, pgn) = (set.to_str().expect("UTF-8"), pgn.to_str().expect("UTF-8"));
    // The same file under another spelling is found too.
    let pgn_again = dir.path(".").join("games.pgn");
    let pgn_again = pgn_again.to_str().expect("UTF-8");
    refused(
        &["suite", "connect4", set, "--take", "1", "--csv", set],
        &["the test set being read"],
    );
    refused(
        &["book", "build", "chess", "--pgn", pgn, "--out", pgn_again],
        &["is the PGN being read"],
    );
    let after = (
        std::fs::read(set).expect("set"),
        std::fs::read(pgn).expect("pgn"),
    );
    assert!(after == before, "an input was written over");
}

/// Tables that fit one at a time but not as many at once as searches run at once are
/// refused before anything is allocated, in a suite, in an experiment and in a match (a
/// game's two players), by the run and by `--dry-run` (two 15 GB tables on `--jobs 2` woke
/// the out-of-memory killer; two 700 MiB players aborted under `ulimit -v`). Sized from this
/// machine's MemAvailable.
#[test]
fn tables_that_do_not_fit_side_by_side_are_refused() {
    let Some(available) = plylab::memory::available_mb() else {
        println!("skipped: no /proc/meminfo to size the tables from");
        return;
    };
    let mb = available * 6 / 10;
    if mb > 65_536 || mb == 0 {
        println!("skipped: {available} MiB available: 60% of it is no table size (1-65536)");
        return;
    }
    let mb = mb.to_string();
    let set = "experiments/data/connect4/Test_L3_R1";
    refused(
        &[
            "suite", "connect4", set, "--take", "2", "--tt-mb", &mb, "--jobs", "2",
        ],
        &["the transposition tables of the 2 searches run at once need"],
    );
    let dir = TempDir::new("tables-side-by-side");
    let file = dir.path("tables.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"tables\"\n[[games]]\ngame = \"connect4\"\npositions = [\"4444\", \"4453\"]\n\
             [[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\ntt_mb = {mb}\n\
             limits = {{ depth = 2 }}\n"
        ),
    )
    .expect("write");
    let file = file.to_str().expect("UTF-8");
    let out = dir.path("out");
    let out = out.to_str().expect("UTF-8");
    refused(
        &["experiment", file, "--jobs", "2", "--out", out],
        &["need", "lower --jobs"],
    );
    refused(
        &["experiment", file, "--jobs", "2", "--dry-run"],
        &["need", "lower --jobs"],
    );
    let player = |label: &str| {
        format!(
            "[[searchers]]\nlabel = \"{label}\"\nalgorithm = \"alphabeta\"\ntt_mb = {mb}\nlimits = {{ depth = 1 }}\n"
        )
    };
    let arena = dir.path("arena.toml");
    std::fs::write(
        &arena,
        format!(
            "name = \"arena\"\n[match]\ngame = \"tictactoe\"\ngames = 2\nconcurrency = 1\n{}{}",
            player("a"),
            player("b")
        ),
    )
    .expect("write");
    let arena = arena.to_str().expect("UTF-8");
    let together = ["the transposition tables of the 2 searches run at once need"];
    refused(&["experiment", arena, "--dry-run"], &together);
    refused(&["experiment", arena, "--out", out], &together);
    assert!(!Path::new(out).exists(), "a refused run made its directory");
}

/// Writes `dir/NAME.toml`, a chess match of plylab's `a` against player `b`, the external
/// engine `engine` (an inline table's contents), on line 11.
fn match_against_engine(dir: &TempDir, name: &str, engine: &str) -> PathBuf {
    let file = dir.path(&format!("{name}.toml"));
    std::fs::write(
        &file,
        format!(
            "name = \"{name}\"\n[match]\ngame = \"chess\"\ngames = 2\n\
             [[searchers]]\nlabel = \"a\"\nalgorithm = \"alphabeta\"\nlimits = {{ depth = 1 }}\n\
             [[searchers]]\nlabel = \"b\"\nengine = {{ {engine} }}\nlimits = {{ depth = 1 }}\n"
        ),
    )
    .expect("write");
    file
}

/// An engine option the engine does not declare (a misspelling) is the file's fault: refused
/// with exit code 2, naming the player and the engine's options, before any game.
#[test]
fn an_engine_option_the_engine_lacks_is_refused() {
    let dir = TempDir::new("engine-option");
    let engine = format!(
        "cmd = \"{}\", args = [\"uci\"], options = {{ Treads = 1 }}",
        env!("CARGO_BIN_EXE_plylab")
    );
    let file = match_against_engine(&dir, "option", &engine);
    let out = dir.path("out");
    refused(
        &[
            "experiment",
            file.to_str().expect("UTF-8"),
            "--out",
            out.to_str().expect("UTF-8"),
        ],
        &["player `b`", "declares no option `Treads`", "Threads"],
    );
}

/// A match refused for a misspelt engine option writes nothing into its `--out` (it had
/// written run.json, and the corrected file's run was refused: the directory "already holds
/// results"): the same command runs once the option is corrected, without `--force`.
#[test]
fn a_match_refused_for_an_engine_option_runs_once_the_option_is_corrected() {
    let dir = TempDir::new("engine-option-again");
    let engine = |option: &str| {
        format!(
            "cmd = \"{}\", args = [\"uci\"], options = {{ {option} = 1 }}",
            env!("CARGO_BIN_EXE_plylab")
        )
    };
    let out = dir.path("out");
    let out = out.to_str().expect("UTF-8");
    let misspelt = match_against_engine(&dir, "option", &engine("Treads"));
    let args = [
        "experiment",
        misspelt.to_str().expect("UTF-8"),
        "--out",
        out,
    ];
    refused(&args, &["declares no option `Treads`"]);
    assert!(
        !Path::new(out).exists(),
        "the refused match wrote into its --out"
    );
    let corrected = match_against_engine(&dir, "option", &engine("Threads"));
    let args = [
        "experiment",
        corrected.to_str().expect("UTF-8"),
        "--out",
        out,
    ];
    let (code, stdout, stderr) = plylab(&[&args[..], &["--no-plot"]].concat());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(Path::new(out).join("run.json").is_file(), "{stdout}");
}

/// An external player whose program cannot be found, or is a file that cannot be run, is
/// refused before the match, and by `--dry-run`: played, its every game would be a crash
/// (exit 1 at the end). Both ways of naming a program: a path, and a name looked up on the
/// PATH.
#[test]
fn an_engine_that_is_not_installed_is_refused() {
    let dir = TempDir::new("engine-not-installed");
    let not_executable = dir.path("engine.txt");
    std::fs::write(&not_executable, "not a program").expect("write");
    let not_executable = not_executable.to_str().expect("UTF-8");
    for (cmd, why) in [
        ("/nonexistent/plylab-engine", "not found (no such file)"),
        (
            "plylab-no-such-engine",
            "not found (in no directory on the PATH",
        ),
        (not_executable, "cannot be run (not executable)"),
    ] {
        let file = match_against_engine(&dir, "missing", &format!("cmd = \"{cmd}\""));
        let file = file.to_str().expect("UTF-8");
        let out = dir.path("out");
        let out = out.to_str().expect("UTF-8");
        for extra in [&["--dry-run"][..], &[]] {
            let args = [&["experiment", file, "--out", out][..], extra].concat();
            refused(
                &args,
                &[
                    "missing.toml:11:10: key `engine`: player `b`: program",
                    &format!("`{cmd}` {why}"),
                ],
            );
        }
        assert!(!Path::new(out).exists(), "{cmd}: the match started");
    }
}

/// A tuning key beside a swept technique is accepted: the variants that turn the technique
/// on use it, the others leave it unused (the refusal above is for a technique never on).
#[test]
fn a_tuning_key_beside_a_swept_technique_is_accepted() {
    let text = "name = \"tuned\"\n[[games]]\ngame = \"chess\"\npositions = [\"startpos\"]\n\
                limits = { depth = 2 }\n[[searchers]]\nlabel = \"q\"\nalgorithm = \"alphabeta\"\n\
                quiescence = [\"off\", 4]\ndelta_margin = 200\nnull_move = [\"off\", 2]\n\
                null_verify = true\n";
    let plan = plylab::lab::spec::parse(Path::new("tuned.toml"), text).expect("accepted");
    let configs: Vec<_> = plan.jobs.iter().map(|j| &j.searcher.config).collect();
    assert_eq!(configs.len(), 4);
    let tuned = configs
        .iter()
        .filter(|c| c.quiescence.as_ref().is_some_and(|q| q.delta == Some(200)))
        .count();
    let verified = configs
        .iter()
        .filter(|c| c.null_move.as_ref().is_some_and(|n| n.verify))
        .count();
    assert_eq!((tuned, verified), (2, 2));
}

/// A database is written beside its file and renamed over it: an `--out` that is not a
/// regular file (a directory here; a device or a pipe alike) is refused before the build
/// rather than replaced, and a symbolic link is written through, not replaced.
#[test]
fn a_database_out_that_is_not_a_regular_file_is_refused() {
    let dir = TempDir::new("tablebase-out");
    let folder = dir.path("folder");
    std::fs::create_dir(&folder).expect("mkdir");
    let folder = folder.to_str().expect("UTF-8");
    refused(
        &["tablebase", "build", "chess", "KQK", "--out", folder],
        &["folder: not a regular file"],
    );
    let target = dir.path("target.plytb");
    std::fs::write(&target, "").expect("write");
    let link = dir.path("link.plytb");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let link_text = link.to_str().expect("UTF-8");
    let args = ["tablebase", "build", "chess", "KQK", "--out", link_text];
    let (code, _, stderr) = plylab(&[&args[..], &["--force"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(link.is_symlink(), "the link was replaced");
    assert!(
        std::fs::metadata(&target).expect("target").len() > 0,
        "not written through"
    );
}

/// A database or book already at `--out` is replaced only with `--force`: without it the
/// build is refused before it starts (exit code 2) and the file stays as it was.
#[test]
fn a_database_or_book_already_there_is_replaced_only_with_force() {
    let dir = TempDir::new("out-there");
    let table = dir.path("KQK.plytb");
    let book = dir.path("c4.book");
    let (table_text, book_text) = (
        table.to_str().expect("UTF-8"),
        book.to_str().expect("UTF-8"),
    );
    let builds = [
        vec!["tablebase", "build", "chess", "KQK", "--out", table_text],
        vec![
            "book",
            "build",
            "connect4",
            "--positions",
            "3",
            "--out",
            book_text,
        ],
    ];
    for (args, file) in builds.iter().zip([&table, &book]) {
        std::fs::write(file, "an earlier file").expect("write");
        let (code, _, stderr) = plylab(args);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&format!("{} is there already: --force", file.display())),
            "{stderr}"
        );
        assert_eq!(std::fs::read(file).expect("read"), b"an earlier file");
        let (code, _, stderr) = plylab(&[&args[..], &["--force"]].concat());
        assert_eq!(code, 0, "{stderr}");
        assert_ne!(std::fs::read(file).expect("read"), b"an earlier file");
    }
}

/// A book is written beside its file and renamed over it as a database is, and so is the
/// suite's CSV once the suite is done: an `--out` or `--csv` that is a pipe (or a device,
/// /dev/null, which root's suite once replaced by a file), directly or through a symbolic
/// link, is refused before the work, and stays what it was.
#[test]
fn an_out_or_csv_that_is_not_a_regular_file_is_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = TempDir::new("book-out");
    let fifo = dir.path("fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    let fifo_text = fifo.to_str().expect("UTF-8");
    let pgn = root.join("tests/data/book/openings.pgn");
    let pgn = pgn.to_str().expect("UTF-8");
    refused(
        &["book", "build", "chess", "--pgn", pgn, "--out", fifo_text],
        &["fifo: not a regular file"],
    );
    refused(
        &[
            "book",
            "build",
            "connect4",
            "--positions",
            "3",
            "--out",
            fifo_text,
        ],
        &["fifo: not a regular file"],
    );
    let link = dir.path("link.csv");
    std::os::unix::fs::symlink(&fifo, &link).expect("symlink");
    let set = root.join("experiments/data/connect4/Test_L3_R1");
    for csv in [fifo_text, link.to_str().expect("UTF-8")] {
        refused(
            &[
                "suite",
                "connect4",
                set.to_str().expect("UTF-8"),
                "--csv",
                csv,
            ],
            &[&format!(
                "cannot write the --csv file {csv}: not a regular file"
            )],
        );
    }
    assert!(link.is_symlink(), "the link was replaced");
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::symlink_metadata(&fifo).expect("fifo").file_type();
    assert!(kind.is_fifo(), "the pipe was replaced");
}

/// A table that fits the machine but not the process's address-space limit (`ulimit -v`)
/// is refused (exit 2) rather than aborting the process when its allocation fails.
#[test]
fn a_table_past_the_address_space_limit_is_refused() {
    let script = format!(
        "ulimit -v 4000000 && exec {} search connect4 start --depth 2 --tt-mb 6000",
        env!("CARGO_BIN_EXE_plylab")
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a 6000 MiB table is more than the memory available"),
        "{stderr}"
    );
}

/// A Monte Carlo tree that would outgrow the process's address space (`ulimit -v`) stops
/// growing, and its search ends with its move and a note, instead of aborting when an
/// allocation fails (as it did: `memory allocation of 2684354560 bytes failed`, exit 134).
#[test]
fn a_tree_past_the_address_space_limit_stops_the_search() {
    for algorithm in ["uct", "tree_parallel --threads 2"] {
        let script = format!(
            "ulimit -v 500000 && exec {} search connect4 start --algorithm {algorithm} \
             --nodes 1000000000",
            env!("CARGO_BIN_EXE_plylab")
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .output()
            .expect("sh runs");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(0), "{algorithm}: {stderr}");
        assert!(stdout.contains("bestmove "), "{algorithm}: {stdout}");
        let note = "could grow no further in the memory the machine can spare";
        assert!(stderr.contains(note), "{algorithm}: {stderr}");
    }
}

//! Issue 11 through the command line: impossible positions (class 1), unbounded plans and
//! tables (class 2), silent acceptance (class 3) and messages in the user's words (class 5)
//! are refused with exit code 2 and a located message, never a panic. The files are in
//! tests/data/hardening/.

use std::path::PathBuf;

use crate::common::plylab;

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/hardening");
    path.join(name).to_str().expect("UTF-8 path").to_owned()
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

/// An experiment file refused by `--dry-run` at `line`, naming `key`, saying `message`.
fn bad_file(name: &str, line: usize, key: &str, message: &str) {
    let file = data(name);
    let location = format!("{file}:{line}:");
    let key = format!("key `{key}`");
    let mut expected = vec![location.as_str(), message];
    if !key.ends_with("``") {
        expected.push(&key);
    }
    refused(&["experiment", &file, "--dry-run"], &expected);
}

const ADJACENT_KINGS: &str = "8/8/8/8/8/3kK3/8/8 w - - 0 1";

#[test]
fn impossible_chess_positions_are_refused_by_every_command() {
    let why = "the kings stand next to each other";
    refused(&["perft", "chess", ADJACENT_KINGS, "2"], &[why]);
    refused(&["search", "chess", ADJACENT_KINGS, "--depth", "2"], &[why]);
    // The side to move could take the king with a rook.
    refused(
        &[
            "search",
            "chess",
            "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1",
            "--depth",
            "2",
        ],
        &["Black is to move but White is in check"],
    );
    refused(
        &["perft", "chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "1"],
        &["fullmove number 0"],
    );
    refused(
        &["perft", "chess", "8/8/8/8/4P3/8/8/K2k3R b - e3 0 1", "1"],
        &["no legal last move"],
    );
    bad_file("adjacent_kings.toml", 6, "positions", why);
    bad_file("arena_adjacent_kings.toml", 7, "positions", why);
}

#[test]
fn an_epd_move_that_takes_a_king_is_refused_with_its_line() {
    let file = data("king_capture.epd");
    refused(
        &["suite", "chess", &file, "--depth", "1"],
        &[&format!("{file}:2"), "White is in check"],
    );
}

#[test]
fn silent_acceptance_is_an_error() {
    bad_file(
        "limits_positional.toml",
        3,
        "limits",
        "a list where a table is expected",
    );
    bad_file(
        "reference_unknown_searcher.toml",
        13,
        "searcher",
        "no searcher",
    );
    bad_file(
        "reference_unknown_metric.toml",
        14,
        "metric",
        "did you mean `nodes`?",
    );
    bad_file(
        "label_collides_with_variant.toml",
        13,
        "label",
        "`ab[tt_mb=0]` is also the name of a sweep variant of `ab`",
    );
}

#[test]
fn messages_speak_the_users_language() {
    bad_file(
        "datetime_for_number.toml",
        10,
        "tt_mb",
        "invalid type: a date-time, expected a whole number ≥ 0",
    );
    bad_file("typo_key.toml", 10, "limit", "did you mean `limits`?");
    bad_file(
        "typo_value.toml",
        9,
        "algorithm",
        "did you mean `alphabeta`?",
    );
    let file = data("bad_utf8.toml");
    refused(
        &["experiment", &file, "--dry-run"],
        &[&format!("{file}:2:6:"), "not UTF-8", "byte offset 23"],
    );
}

#[test]
fn unbounded_plans_are_refused_before_they_are_made() {
    bad_file("huge_repetitions.toml", 6, "game", "4000000000 jobs");
    bad_file("huge_sweep.toml", 8, "label", "more than 10000 variants");
    bad_file("huge_limit_sweep.toml", 6, "game", "too many jobs to count");
    bad_file(
        "huge_trees.toml",
        8,
        "trees",
        "more than the 250000 a plan may hold",
    );
    bad_file("huge_branching.toml", 6, "b", "b must be at most 4096");
    bad_file("arena_huge_games.toml", 6, "games", "more than the 1000000");
    bad_file(
        "endless_test_set.toml",
        6,
        "file",
        "larger than the 256 MiB",
    );
    refused(
        &["search", "random_tree", "b=5000,d=1,model=incremental"],
        &["b must be at most 4096"],
    );
}

/// Tables larger than the memory available (skipped, with a note, on a machine with more
/// than 64 GiB available).
#[test]
fn tables_beyond_the_memory_available_are_refused() {
    let available = plylab::memory::available_mb();
    if available.is_none_or(|mb| mb >= 65_536) {
        eprintln!("skipped: MemAvailable is {available:?} MiB, 65536 MiB would fit");
        return;
    }
    bad_file(
        "table_beyond_memory.toml",
        10,
        "tt_mb",
        "more than the memory available",
    );
    refused(
        &["search", "tictactoe", "start", "--tt-mb", "65536"],
        &["--tt-mb", "more than the memory available"],
    );
}

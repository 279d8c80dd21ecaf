//! The integration tests, one module per file of tests/, built as one test binary: the
//! library's generic searches are compiled and linked once for all of them, not once per
//! file (on the 2-core CI machine, dozens of separate binaries spent minutes compiling the
//! same monomorphized searches again). `cargo test --release --test integration -- arena::`
//! runs one file's tests. tests/no_alloc.rs stays a binary of its own: its counting global
//! allocator must not count the other tests' allocations. A file added to tests/ must be
//! named below (or as a `[[test]]` in Cargo.toml): `every_test_file_is_built` fails
//! otherwise, since Cargo.toml's `autotests = false` no longer finds files by itself.

mod common;

mod architecture;
mod arena;
mod arena_chance;
mod arena_play;
mod arena_rules;
mod backgammon_cli;
mod bad_files;
mod bad_input;
mod book;
mod checkers;
mod checkers_perft;
mod checkers_tablebase;
mod chess_notation;
mod chess_perft;
mod chess_search;
mod cli;
mod committed_results;
mod connect4_book;
mod documented_keys;
mod elo;
mod engine;
mod equivalence;
mod expecti;
mod fuzz_smoke;
mod gauntlet;
mod gnubg;
mod gtp;
mod hardening;
mod knowledge_switches;
mod known_values;
mod learn;
mod learn_definitions;
mod learn_games;
mod limits;
mod mate_distance;
mod mcts;
mod othello;
mod parallel_experiments;
mod pearl;
mod pgn;
mod plot_arena;
mod plot_chance;
mod plot_charts;
mod plot_errors;
mod plot_files;
mod plot_sets;
mod plot_summary;
mod runsafety;
mod search_corners;
mod search_definitions;
mod shard;
mod smp;
mod solve;
mod suite_stream;
mod table_threads;
mod tablebase;
mod techniques;
mod test_sets;
mod uci;
mod xboard;
mod ybw;

/// Every `.rs` file in tests/ is a module above or a test target of its own in Cargo.toml:
/// with `autotests = false` a file named nowhere would silently never run.
#[test]
fn every_test_file_is_built() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &str| std::fs::read_to_string(root.join(path)).expect(path);
    let (main, manifest) = (read("tests/main.rs"), read("Cargo.toml"));
    let mut unbuilt = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).expect("tests/") {
        let name = entry.expect("an entry of tests/").file_name();
        let name = name.to_string_lossy();
        let Some(module) = name.strip_suffix(".rs") else {
            continue;
        };
        let named_here = main.lines().any(|line| line == format!("mod {module};"));
        let own_target = manifest.contains(&format!("path = \"tests/{name}\""));
        if !named_here && !own_target {
            unbuilt.push(name.into_owned());
        }
    }
    assert!(
        unbuilt.is_empty(),
        "tests/ files built by no test target: {unbuilt:?}"
    );
}

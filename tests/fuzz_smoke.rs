//! The short fuzz run of CI (issue 11): every fuzz target of `plylab::fuzzing` on its
//! committed seeds and regression inputs (fuzz/seeds/TARGET/, crashes found by the long runs
//! included) and on seeded mutations of them, without a nightly compiler. A panic fails the
//! test with the target and the input. fuzz/README.md describes the long cargo-fuzz runs.

use std::path::PathBuf;
use std::time::Instant;

use plylab::fuzzing::{TARGETS, mutations};

/// Mutations per seed file: a few thousand inputs per target, within seconds in release.
fn mutations_per_seed(target: &str) -> usize {
    match target {
        // Each input starts an engine and its search threads.
        "uci" => 40,
        "experiment" | "plan" => 60,
        _ => 400,
    }
}

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).expect("a seed file"))
        })
        .collect()
}

#[test]
fn every_target_survives_its_seeds_and_their_mutations() {
    for &(target, run) in TARGETS {
        let start = Instant::now();
        let mut inputs = 0;
        for (index, (name, seed)) in seeds(target).into_iter().enumerate() {
            run(&seed);
            let count = mutations_per_seed(target);
            for (i, input) in mutations(&seed, count, index as u64)
                .into_iter()
                .enumerate()
            {
                let outcome = std::panic::catch_unwind(|| run(&input));
                assert!(
                    outcome.is_ok(),
                    "target `{target}` panicked on mutation {i} of seed `{name}`: {:?}",
                    String::from_utf8_lossy(&input)
                );
            }
            inputs += 1 + count;
        }
        eprintln!("{target}: {inputs} inputs in {:?}", start.elapsed());
        assert!(inputs >= 200, "{target}: only {inputs} inputs");
    }
}

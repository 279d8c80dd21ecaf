//! Monte Carlo and parallel searches inside experiment files: the rows they write
//! (playouts, tree nodes, the judged move), root-parallel runs that repeat exactly, and the
//! parallel columns (speedup, overhead and nodes/s scaling against the one-thread twin job;
//! cores, alone, oversubscribed).

use std::path::Path;

use crate::common::TempDir;
use plylab::lab::machine::cores;
use plylab::lab::record::{Row, SearcherRow, read_searchers, round4};
use plylab::lab::runner::{self, RunOptions};
use plylab::lab::spec;
use plylab::search::SearchConfig;
use plylab::search::mcts::MctsConfig;

/// A row of searches.csv with the columns its searcher's row of searchers.csv holds once.
#[derive(Clone, Debug, PartialEq)]
struct Full {
    row: Row,
    algorithm: String,
    params: String,
    threads: u32,
    cores: u32,
    alone: bool,
    oversubscribed: bool,
}

impl std::ops::Deref for Full {
    type Target = Row;
    fn deref(&self) -> &Row {
        &self.row
    }
}

/// Runs the experiment `text` into a fresh directory and returns its rows.
fn run(tmp: &TempDir, name: &str, text: &str, jobs: usize) -> Vec<Full> {
    let file = tmp.path(&format!("{name}.toml"));
    std::fs::write(&file, text).unwrap();
    let plan = spec::load(&file).unwrap();
    let options = RunOptions {
        jobs: Some(jobs),
        out: Some(tmp.path(name)),
        ..RunOptions::default()
    };
    let report = runner::run(&plan, &options).unwrap();
    let searchers: Vec<SearcherRow> = read_searchers(&report.out.join("searchers.csv")).unwrap();
    read_rows(&report.out.join("searches.csv"))
        .into_iter()
        .map(|row| {
            let s = searchers
                .iter()
                .find(|s| s.searcher == row.searcher)
                .expect("every searcher in searchers.csv");
            Full {
                algorithm: s.algorithm.clone(),
                params: s.params.clone(),
                threads: s.threads,
                cores: s.cores,
                alone: s.alone,
                oversubscribed: s.oversubscribed,
                row,
            }
        })
        .collect()
}

fn read_rows(path: &Path) -> Vec<Row> {
    csv::Reader::from_path(path)
        .unwrap()
        .deserialize()
        .map(|r| r.unwrap())
        .collect()
}

const MONTE_CARLO: &str = r#"
name = "mc"
seed = 5

[[games]]
game = "tictactoe"
positions = ["start", "5"]

[[games]]
game = "connect4"
file = "l3.txt"

[[searchers]]
label = "uct"
algorithm = "uct"
exploration = [0.7, 1.4]
limits = { nodes = 3000 }

[[searchers]]
label = "flat"
algorithm = "flat_monte_carlo"
playout_cutoff = 6
limits = { nodes = 700 }

[[searchers]]
label = "root"
algorithm = "root_parallel"
threads = [1, 2]
limits = { nodes = 3001 }
"#;

/// Three end-game positions of Pons's Test_L3_R1 with their scores.
const L3: &str = "2252576253462244111563365343671351441 -1\n\
                  7422341735647741166133573473242566 1\n\
                  23163416124767223154467471272416755633 0\n";

/// The columns that measure time or how the run shared the machine.
fn untimed(row: &Full) -> Row {
    Row {
        elapsed_s: 0.0,
        total_s: None,
        nps: None,
        playouts_per_s: None,
        nps_scaling: None,
        ..row.row.clone()
    }
}

#[test]
fn monte_carlo_jobs_write_one_judged_row_each_and_repeat_exactly() {
    let tmp = TempDir::new("mc");
    std::fs::write(tmp.path("l3.txt"), L3).unwrap();
    let rows = run(&tmp, "first", MONTE_CARLO, 2);
    // 5 positions × (2 uct + 1 flat + 2 root) searchers, one row each.
    assert_eq!(rows.len(), 25);
    for row in &rows {
        assert_eq!(row.iterations, 1);
        assert_eq!(row.depth, 0);
        assert!(!row.best_move.is_empty(), "{row:?}");
        assert!((-1000..=1000).contains(&row.score), "{row:?}");
        let budget = match row.algorithm.as_str() {
            "uct" => 3000,
            "flat_monte_carlo" => 700,
            "root_parallel" => 3001,
            other => panic!("unexpected algorithm {other}"),
        };
        // An iteration budget is spent exactly, whatever the thread count.
        assert_eq!(row.playouts, Some(budget), "{row:?}");
        assert_eq!(row.total_nodes, Some(row.nodes));
        assert_eq!(row.solved.is_some(), row.set == "l3.txt", "{row:?}");
        assert!(row.params.starts_with("exploration="), "{}", row.params);
    }
    let flat = rows.iter().find(|r| r.algorithm == "flat_monte_carlo");
    assert!(flat.unwrap().params.contains("playout_cutoff=6"));
    // These end games are easy: 3000 playouts find a move that keeps the outcome.
    let uct_right = rows
        .iter()
        .filter(|r| r.algorithm == "uct" && r.solved == Some(true))
        .count();
    assert_eq!(uct_right, 6, "{rows:#?}");
    // Root-parallel with the same seeds and threads merges the same statistics: a second run
    // (with another worker count) writes the same rows but for the clock.
    let again = run(&tmp, "second", MONTE_CARLO, 1);
    let strip = |rows: &[Full]| rows.iter().map(untimed).collect::<Vec<_>>();
    assert_eq!(strip(&rows), strip(&again));
}

/// A chess EPD set as (record, best moves, avoided moves), the moves in UCI.
const EPD: [(&str, &[&str], &[&str]); 6] = [
    // Only h3 and h4 are legal: both best, so every choice is right.
    (
        "k7/8/8/8/8/8/5q1P/7K w - - bm h3 h4;",
        &["h2h3", "h2h4"],
        &[],
    ),
    // The only legal move is to be avoided: every choice is wrong.
    ("k7/8/8/8/8/8/6q1/7K w - - am Kxg2;", &[], &["h1g2"]),
    (
        "k7/8/8/8/8/2q5/7P/7K w - - bm Kg2; am h4;",
        &["h1g2"],
        &["h2h4"],
    ),
    (
        "7k/5Q2/6K1/8/8/8/8/8 w - - bm Qf8# Qe8# Qh7# Qg7#;",
        &["f7f8", "f7e8", "f7h7", "f7g7"],
        &[],
    ),
    (
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+;",
        &["d6d1"],
        &[],
    ),
    // A mate distance alone names no move: Monte Carlo is not judged.
    (
        "1B1Q1R2/8/qNrn3p/2p1rp2/Rn3k1K/8/5P2/bbN4B w - - dm 2;",
        &[],
        &[],
    ),
];

/// Two othello records (fforum 1 and 2) with the moves of the best final disc difference.
const OBF: [(&str, &str); 2] = [
    (
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;",
        "g8",
    ),
    (
        "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6; G7:-8; A7:-12; H7:-14; B7:-14; H2:-24;",
        "a4",
    ),
];

/// A Monte Carlo search's move on a chess EPD set is right when it is one of the `bm` moves
/// and none of the `am` moves, and on an othello record when it reaches the best disc
/// difference; a record with only a mate distance leaves it unjudged.
#[test]
fn monte_carlo_moves_are_judged_by_the_sets_moves() {
    let tmp = TempDir::new("mc-moves");
    let epd: String = EPD.iter().map(|(line, ..)| format!("{line}\n")).collect();
    std::fs::write(tmp.path("set.epd"), epd).unwrap();
    let obf: String = OBF.iter().map(|(line, _)| format!("{line}\n")).collect();
    std::fs::write(tmp.path("set.obf"), obf).unwrap();
    let text = r#"
name = "mc-moves"
seed = 2

[[games]]
game = "chess"
file = "set.epd"

[[games]]
game = "othello"
file = "set.obf"

[[searchers]]
label = "uct"
algorithm = "uct"
limits = { nodes = 2000 }
"#;
    let rows = run(&tmp, "mc-moves", text, 2);
    assert_eq!(rows.len(), EPD.len() + OBF.len());
    let mut judged = Vec::new();
    for row in &rows {
        let mv = row.best_move.as_str();
        let expected = if let Some((_, best, avoid)) = EPD
            .iter()
            .find(|(line, ..)| line.starts_with(&row.position))
        {
            (!best.is_empty() || !avoid.is_empty())
                .then(|| (best.is_empty() || best.contains(&mv)) && !avoid.contains(&mv))
        } else {
            let (_, best) = OBF
                .iter()
                .find(|(line, _)| line.starts_with(&row.position[..64]))
                .unwrap_or_else(|| panic!("{row:?}"));
            Some(mv.eq_ignore_ascii_case(best))
        };
        assert_eq!(row.solved, expected, "{row:?}");
        judged.push(row.solved);
    }
    // The first two records are right and wrong whatever the search plays.
    assert!(judged.contains(&Some(true)) && judged.contains(&Some(false)));
    assert!(judged.contains(&None));
}

#[test]
fn two_thread_jobs_are_compared_with_their_one_thread_twins() {
    let tmp = TempDir::new("scaling");
    let text = r#"
name = "scaling"

[[games]]
game = "connect4"
positions = ["start", "44"]
limits = { depth = 12 }

[[searchers]]
label = "smp"
algorithm = "lazy_smp"
threads = [1, 2]
tt_mb = 4
ordering = { hint = true, tt_move = true, killers = true, history = true }
exclusive = true

[[searchers]]
label = "root"
algorithm = "root_parallel"
threads = [1, 2]
exclusive = true
limits = { time_ms = 50 }
"#;
    let rows = run(&tmp, "scaling", text, 2);
    let cores = cores() as u32;
    for row in &rows {
        assert_eq!(row.cores, cores);
        assert!(row.alone, "exclusive jobs run alone");
        assert_eq!(row.oversubscribed, row.threads > cores);
    }
    let finals: Vec<&Full> = rows.iter().filter(|r| r.total_nodes.is_some()).collect();
    // One final row per job: 2 positions × 2 searchers × 2 thread counts.
    assert_eq!(finals.len(), 8);
    for row in &finals {
        if row.threads != 2 {
            continue;
        }
        // The ratios against the one-thread twin's own figures (same searcher, position).
        let twin = finals
            .iter()
            .find(|t| t.threads == 1 && t.algorithm == row.algorithm && t.position == row.position)
            .expect("a one-thread twin");
        if row.algorithm == "lazy_smp" {
            let (t1, tn) = (twin.time_to_depth_s.unwrap(), row.time_to_depth_s.unwrap());
            let (n1, nn) = (
                twin.total_nodes.unwrap() as f64,
                row.total_nodes.unwrap() as f64,
            );
            assert_eq!(row.speedup, Some(round4(t1 / tn)), "{row:?}");
            assert_eq!(row.overhead, Some(round4(nn / n1)), "{row:?}");
        } else {
            let (p1, pn) = (twin.playouts_per_s.unwrap(), row.playouts_per_s.unwrap());
            // playouts_per_s is written rounded, the ratio is of the unrounded rates.
            let scaling = row.nps_scaling.unwrap();
            assert!((scaling - pn / p1).abs() <= 1e-3 * scaling, "{row:?}");
        }
    }
    for row in finals {
        let compared = row.threads == 2;
        assert_eq!(row.nps_scaling.is_some(), compared, "{row:?}");
        if row.algorithm == "lazy_smp" {
            assert_eq!(row.depth, 12);
            assert_eq!(row.speedup.is_some(), compared);
            assert_eq!(row.overhead.is_some(), compared);
            assert!(row.time_to_depth_s.unwrap() > 0.0);
            if let (Some(s), Some(o), Some(n)) = (row.speedup, row.overhead, row.nps_scaling) {
                // nodes/s scaling = speedup × overhead, up to the four-decimal rounding.
                assert!((s * o - n).abs() <= 1e-3 * n.max(1.0), "{row:?}");
            }
        } else {
            assert_eq!(row.speedup, None);
            assert!(row.playouts.unwrap() > 0);
        }
    }
    // Only the last row of each lazy SMP job carries the totals.
    let smp_rows = rows.iter().filter(|r| r.algorithm == "lazy_smp").count();
    assert!(smp_rows > 4);
}

#[test]
fn more_threads_than_cores_are_marked_oversubscribed() {
    let tmp = TempDir::new("oversubscribed");
    let many = cores() + 1;
    let text = format!(
        r#"
name = "over"

[[games]]
game = "tictactoe"
positions = ["5"]
limits = {{ depth = 4 }}

[[searchers]]
label = "smp"
algorithm = "lazy_smp"
threads = [1, {many}]

[[searchers]]
label = "alone"
algorithm = "alphabeta"
exclusive = true
"#
    );
    let rows = run(&tmp, "over", &text, 1);
    for row in &rows {
        assert_eq!(
            row.oversubscribed,
            row.threads as usize > cores(),
            "{row:?}"
        );
        assert!(row.alone, "a pool of one worker runs every job alone");
    }
    assert!(rows.iter().any(|r| r.oversubscribed));
    // On a shared pool any job may run beside the widest one (more threads than cores):
    // every shared job is marked.
    let shared = run(&tmp, "shared", &text, cores().max(2));
    for row in shared.iter().filter(|r| r.searcher.starts_with("smp")) {
        assert!(!row.alone);
        assert!(row.oversubscribed, "{row:?}");
    }
}

#[test]
fn a_quick_plan_links_each_job_to_its_own_twin() {
    let text = r#"
name = "twins"

[[games]]
game = "connect4"
positions = ["start", "4", "44"]
limits = { depth = 6 }

[[games]]
game = "tictactoe"
positions = ["5", "1"]
limits = { depth = 4 }

[[searchers]]
label = "smp"
algorithm = "lazy_smp"
threads = [1, 2]
"#;
    let parse = || spec::parse(Path::new("twins.toml"), text).unwrap();
    for plan in [parse().quick(), parse()] {
        let mut linked = 0;
        for job in &plan.jobs {
            let Some(twin) = job.baseline else {
                assert_eq!(job.searcher.config.threads, 1);
                continue;
            };
            let twin = &plan.jobs[twin];
            assert_eq!(twin.searcher.config.threads, 1);
            assert_eq!(twin.position.label, job.position.label);
            assert_eq!(twin.game_index, job.game_index);
            assert_eq!(twin.limits, job.limits);
            linked += 1;
        }
        assert!(linked >= 4, "{linked}");
    }
}

/// Sweeps of settings one thread never uses make one one-thread job per position, the twin
/// of every job with more threads, whatever its setting.
#[test]
fn a_sweep_only_threads_use_runs_one_thread_once() {
    let text = r#"
name = "thread_only"

[[games]]
game = "connect4"
positions = ["start", "4"]
limits = { depth = 6 }

[[searchers]]
label = "smp"
algorithm = "lazy_smp"
threads = [1, 2]
main_depths = ["every", "alternate"]
helper_depths = ["alternate", "same"]

[[searchers]]
label = "ybw"
algorithm = "ybw"
threads = [1, 2]
split_plies = [2, 4]

[[searchers]]
label = "tree"
algorithm = "tree_parallel"
threads = [1, 2]
hold_depth = [0, 4]
hold_playouts = [64, 512]
limits = { nodes = 1000 }
"#;
    let plan = spec::parse(Path::new("thread_only.toml"), text).unwrap();
    for (label, several) in [("smp", 4), ("ybw", 2), ("tree", 4)] {
        let jobs: Vec<_> = plan
            .jobs
            .iter()
            .filter(|j| j.searcher.label == label)
            .collect();
        let one: Vec<_> = jobs
            .iter()
            .filter(|j| j.searcher.config.threads == 1)
            .collect();
        assert_eq!(one.len(), 2, "{label}: one one-thread job per position");
        assert_eq!(jobs.len(), 2 + 2 * several, "{label}");
        for job in one {
            assert_eq!(job.searcher.swept, "threads=1", "{label}");
            let (config, mcts) = (&job.searcher.config, &job.searcher.mcts_config);
            let (default, mcts_default) = (SearchConfig::default(), MctsConfig::default());
            assert_eq!(config.main_depths, default.main_depths, "{label}");
            assert_eq!(config.helper_depths, default.helper_depths, "{label}");
            assert_eq!(config.split_plies, default.split_plies, "{label}");
            assert_eq!(mcts.hold_depth, mcts_default.hold_depth, "{label}");
            assert_eq!(mcts.hold_playouts, mcts_default.hold_playouts, "{label}");
        }
        for job in jobs.iter().filter(|j| j.searcher.config.threads == 2) {
            let twin = &plan.jobs[job.baseline.expect("a twin")];
            assert_eq!(twin.searcher.config.threads, 1);
            assert_eq!(twin.position.label, job.position.label);
        }
    }
}

#[test]
fn both_tree_parallel_searches_run_from_an_experiment_file() {
    let tmp = TempDir::new("tree");
    let text = r#"
name = "tree"
seed = 9

[[games]]
game = "connect4"
positions = ["121212", "12121"]

[[searchers]]
label = "lockfree"
algorithm = "tree_parallel"
threads = [1, 2]
limits = { nodes = 2001 }

[[searchers]]
label = "held"
algorithm = "tree_parallel"
threads = 2
hold_depth = [3, 40]
limits = { nodes = 2001 }

[[searchers]]
label = "threshold"
algorithm = "tree_parallel"
threads = 2
expand_visits = 8
limits = { nodes = 2001 }

[[searchers]]
label = "locked"
algorithm = "tree_parallel_locked"
threads = 2
limits = { nodes = 2001 }
"#;
    let rows = run(&tmp, "tree", text, 1);
    // 2 positions × 6 searcher variants, one row each.
    assert_eq!(rows.len(), 12);
    for row in &rows {
        assert!(
            ["tree_parallel", "tree_parallel_locked"].contains(&row.algorithm.as_str()),
            "{row:?}"
        );
        // The shared iteration budget is spent exactly, and all find the only good move
        // (the win in one, and the block of it).
        assert_eq!(row.playouts, Some(2001), "{row:?}");
        assert_eq!(row.best_move, "1", "{row:?}");
        // Holding back is named where it is not the default (nothing held back).
        let held = row.searcher.starts_with("held");
        assert_eq!(row.params.contains("hold_playouts=512"), held, "{row:?}");
        let threshold = row.searcher.starts_with("threshold");
        assert_eq!(
            row.params.ends_with("expand_visits=8"),
            threshold,
            "{row:?}"
        );
    }
    assert!(
        rows.iter()
            .any(|r| r.params.ends_with("hold_depth=40 hold_playouts=512"))
    );
    assert_eq!(rows.iter().filter(|r| r.threads == 2).count(), 10);
}

#[test]
fn ybw_sweeps_its_split_depth_and_compares_each_with_its_one_thread_twin() {
    let tmp = TempDir::new("split");
    let text = r#"
name = "split"

[[games]]
game = "connect4"
positions = ["44"]
limits = { depth = 10 }

[[searchers]]
label = "ybw"
algorithm = "ybw"
threads = [1, 2]
split_plies = [2, 4]
tt_mb = 4
ordering = { hint = true }
"#;
    let rows = run(&tmp, "split", text, 1);
    let finals: Vec<&Full> = rows.iter().filter(|r| r.total_nodes.is_some()).collect();
    // One final row per job: one thread once (the split depth is the helpers'), 2 threads
    // at each split depth, all at the serial value.
    assert_eq!(finals.len(), 3);
    for row in &finals {
        assert_eq!(row.score, finals[0].score, "{row:?}");
        // The default depth (4) is not written in the parameters; 2 is.
        let split_2 = row.searcher.contains("split_plies=2");
        assert_eq!(row.params.contains("split_plies=2"), split_2, "{row:?}");
        assert_eq!(row.speedup.is_some(), row.threads == 2, "{row:?}");
    }
    let split_2 = finals
        .iter()
        .filter(|r| r.searcher.contains("split_plies=2"));
    assert_eq!(split_2.count(), 1);
}

/// Lazy SMP on one and four threads on two connect-four positions to `depth`, swept over
/// `sweep` (a key = [two values] line), into a fresh directory: all the rows.
fn lazy_smp_sweep(name: &str, depth: u32, sweep: &str) -> Vec<Full> {
    let tmp = TempDir::new(name);
    let text = format!(
        r#"
name = "{name}"

[[games]]
game = "connect4"
positions = ["44", "4453"]
limits = {{ depth = {depth} }}

[[searchers]]
label = "smp"
algorithm = "lazy_smp"
threads = [1, 4]
{sweep}
tt_mb = 4
ordering = {{ hint = true, tt_move = true }}
"#
    );
    run(&tmp, name, &text, 1)
}

/// The final rows of [`lazy_smp_sweep`]: 2 positions × (one thread once, the setting being
/// the helpers', and 4 threads × 2 settings), each at its position's serial value.
fn finals_at_the_serial_values(rows: &[Full]) -> Vec<&Full> {
    let finals: Vec<&Full> = rows.iter().filter(|r| r.total_nodes.is_some()).collect();
    assert_eq!(finals.len(), 6);
    for row in &finals {
        let serial = finals
            .iter()
            .find(|r| r.position == row.position && r.threads == 1)
            .expect("a one-thread row");
        assert_eq!(row.score, serial.score, "{row:?}");
    }
    finals
}

#[test]
fn a_lazy_smp_main_thread_at_alternate_depths_ends_at_the_limit_with_the_serial_value() {
    let rows = lazy_smp_sweep("main_depths", 11, r#"main_depths = ["every", "alternate"]"#);
    for row in finals_at_the_serial_values(&rows) {
        assert_eq!(row.depth, 11, "{row:?}");
        let alternate = row.searcher.contains("main_depths=alternate");
        assert_eq!(
            row.params.contains("main_depths=alternate"),
            alternate,
            "{row:?}"
        );
    }
    // With helpers the main thread's iterations are odd depths up to the limit (1, 3, ...,
    // 11, or fewer when a helper finished 11 first and its final iteration ended the
    // search); alone it searches every depth (the one-thread job is the default's).
    let depths = |alternate: bool, threads: u32| -> Vec<u32> {
        rows.iter()
            .filter(|r| {
                r.position == "44"
                    && r.threads == threads
                    && r.searcher.contains("main_depths=alternate") == alternate
            })
            .map(|r| r.depth)
            .collect()
    };
    assert_eq!(depths(false, 1), (1..=11).collect::<Vec<_>>());
    assert!(depths(true, 1).is_empty());
    let main = depths(true, 4);
    assert!(main.iter().all(|d| d % 2 == 1), "{main:?}");
    assert!(main.is_sorted() && main.last() == Some(&11), "{main:?}");
}

#[test]
fn lazy_smp_sweeps_its_helper_depths_at_the_serial_value() {
    let rows = lazy_smp_sweep("helpers", 12, r#"helper_depths = ["alternate", "same"]"#);
    let finals = finals_at_the_serial_values(&rows);
    for row in &finals {
        // The default (alternate) is not written in the parameters; same is.
        let same = row.searcher.contains("helper_depths=same");
        assert_eq!(row.params.contains("helper_depths=same"), same, "{row:?}");
        assert_eq!(row.speedup.is_some(), row.threads == 4, "{row:?}");
    }
    assert_eq!(
        finals
            .iter()
            .filter(|r| r.searcher.contains("helper_depths=same"))
            .count(),
        2
    );
}

//! summary.md of the fixture matches the committed snapshot; its sections' figures on the
//! fixture changed by hand and on small hand-made searches.csv files.
//!
//! After an intended change, refresh the snapshot with
//! `UPDATE_SNAPSHOTS=1 cargo test --test integration -- plot_summary::` and review the diff.

use std::path::Path;

use crate::common::TempDir;

use plylab::plot::charts::all_charts;
use plylab::plot::{Dataset, Format, summary};

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/plot")
        .join(name)
}

#[test]
fn summary_matches_snapshot() {
    let data = Dataset::load(&fixture("searches.csv")).unwrap();
    let text = summary::render(&data, &all_charts(&data), Some(Format::Png));
    let snapshot = fixture("summary.md");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&snapshot, &text).unwrap();
    }
    let want = std::fs::read_to_string(&snapshot).unwrap();
    assert!(
        text == want,
        "summary.md differs from {}; got:\n{text}",
        snapshot.display()
    );
}

#[test]
fn summary_flags_an_ordered_search_off_the_minimal_tree() {
    let mut data = Dataset::load(&fixture("searches.csv")).unwrap();
    let row = data
        .rows
        .iter_mut()
        .find(|r| r.searcher == "alphabeta-ordered" && r.depth == 5)
        .unwrap();
    row.leaf_nodes += 1.0;
    let text = summary::render(&data, &[], None);
    assert!(
        text.contains("| 5 | 32 | 14.5 | 16.5 | 11.5 | 11 | 32 | **no** (1 of 2) |"),
        "{text}"
    );
    assert!(text.contains("and depth: **no** (15 of 16)."), "{text}");
    assert!(!text.contains("!["), "no image links without a format");
}

#[test]
fn the_minimal_tree_is_checked_for_each_perfectly_ordered_searcher_whatever_its_label() {
    let mut data = Dataset::load(&fixture("searches.csv")).unwrap();
    for row in data.rows.iter_mut() {
        if row.searcher == "alphabeta-ordered" {
            row.searcher = "oracle".into();
        }
        if row.searcher == "alphabeta" {
            row.perfect_order = true;
        }
    }
    data.searchers = ["minimax", "alphabeta", "alphabeta-random", "oracle"]
        .map(String::from)
        .to_vec();
    let text = summary::render(&data, &[], None);
    assert!(
        text.contains("| `alphabeta` = minimal on every tree | `oracle` = minimal on every tree |"),
        "{text}"
    );
    assert!(text.contains("`oracle` examines exactly the minimal number of leaves on every tree and depth: yes (16 of 16)."), "{text}");
    assert!(text.contains("`alphabeta` examines exactly the minimal number of leaves on every tree and depth: **no**"), "{text}");
    // Without a perfectly ordered searcher there is nothing to check, and no column.
    for row in data.rows.iter_mut() {
        row.perfect_order = false;
    }
    let text = summary::render(&data, &[], None);
    assert!(
        text.contains("### Leaf nodes against the Knuth–Moore minimal tree"),
        "{text}"
    );
    assert!(!text.contains("minimal on every tree"), "{text}");
    assert!(!text.contains("examines exactly"), "{text}");
}

#[test]
fn summary_without_run_json_says_so() {
    let csv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("plot_summary_norun/searches.csv");
    std::fs::create_dir_all(csv.parent().unwrap()).unwrap();
    std::fs::copy(fixture("searches.csv"), &csv).unwrap();
    let data = Dataset::load(&csv).unwrap();
    let text = summary::render(&data, &[], Some(Format::Svg));
    assert!(
        text.contains("- Machine: machine unknown: no readable run.json\n"),
        "{text}"
    );
}

/// nodes/s of the key figures is all nodes over all seconds: an iteration timed at a
/// nanosecond (a lazy SMP iteration answered from the table) has a rate of 10^11 that a
/// mean of per-row rates would report as the searcher's speed.
#[test]
fn key_figure_nodes_per_second_is_not_swamped_by_one_instant_iteration() {
    let mut data = Dataset::load(&fixture("searches.csv")).unwrap();
    let mut deepest = data
        .rows
        .iter_mut()
        .filter(|r| r.searcher == "minimax" && r.depth == 8 && r.position.starts_with("b=2 "));
    let slow = deepest.next().unwrap();
    slow.elapsed_s = Some(1.0);
    slow.nodes = 1000.0;
    let instant = deepest.next().unwrap();
    instant.elapsed_s = Some(1e-9);
    instant.nodes = 100.0;
    instant.nps = Some(1e11);
    let text = summary::render(&data, &all_charts(&data), Some(Format::Png));
    let row = text
        .lines()
        .find(|l| l.starts_with("| minimax | 8 | 2 | 550 "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(row.ends_with("| 1100 |"), "{row}");
}

/// The columns of the small searches.csv files some tests write.
const SMALL_HEADER: &str = "game,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
     first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,elapsed_s,nps";

/// The dataset of a searches.csv of `header` (SMALL_HEADER and any extra columns) and
/// `rows`, without run.json.
fn small(name: &str, header: &str, rows: &[String]) -> Dataset {
    let scratch = TempDir::new(&format!("plot-summary-{name}"));
    let csv = scratch.path("searches.csv");
    std::fs::write(&csv, format!("{header}\n{}\n", rows.join("\n"))).unwrap();
    Dataset::load(&csv).unwrap()
}

/// The cells of `searcher`'s row in the first key-figures table of `text`.
fn key_row(text: &str, searcher: &str) -> Vec<String> {
    let start = format!("| {searcher} | ");
    let line = text
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no key figures of {searcher} in\n{text}"));
    line.split('|').map(|c| c.trim().to_owned()).collect()
}

/// run.json's description and notes stand under the header, in that order, the notes
/// without the blank lines around them.
#[test]
fn description_and_notes_follow_the_header() {
    let mut data = Dataset::load(&fixture("searches.csv")).unwrap();
    data.run.description = Some("Move ordering on random trees.".into());
    data.run.notes = Some("\n\nRead the EBF table first.\n\n".into());
    let text = summary::render(&data, &[], None);
    let want = "does not dominate.\n\nMove ordering on random trees.\n\n\
                Read the EBF table first.\n\n## Random trees, b = 2";
    assert!(text.contains(want), "{text}");
}

/// Where the number of searches behind the per-depth means changes (positions whose
/// search ends early), the group's section says so, from how many to how many and where.
#[test]
fn a_shrinking_set_of_positions_is_named_in_the_summary() {
    let mut rows = Vec::new();
    for (position, deepest) in [("p1", 3), ("p2", 2), ("p3", 2)] {
        for depth in 1..=deepest {
            let n = 7u32.pow(depth);
            rows.push(format!(
                "connect4,{position},ab,1,0,{depth},{n},{n},0.9,,,7,,0.001,1000"
            ));
        }
    }
    let text = summary::render(&small("set_change", SMALL_HEADER, &rows), &[], None);
    assert!(
        text.contains("the number of searches behind them changes (3 → 1 at depth 3)"),
        "{text}"
    );
}

/// A game whose rows give no legal-move count has no "Mean legal moves" line (nor a NaN
/// in its place).
#[test]
fn a_game_without_branching_has_no_legal_moves_line() {
    let rows = vec!["connect4,p1,ab,1,0,1,7,7,0.9,,,,,0.001,1000".to_owned()];
    let text = summary::render(&small("no_branching", SMALL_HEADER, &rows), &[], None);
    assert!(!text.contains("Mean legal moves"), "{text}");
    assert!(!text.contains("NaN"), "{text}");
}

/// The key figures' median is the middle run's nodes, not the mean: 10, 20 and 90 nodes
/// have a median of 20 and a mean of 40.
#[test]
fn key_figures_median_is_the_middle_value() {
    let rows: Vec<String> = [(1, 10), (2, 20), (3, 90)]
        .iter()
        .map(|(p, n)| format!("connect4,p{p},ab,1,0,2,{n},{n},0.9,,,7,,0.001,1000"))
        .collect();
    let text = summary::render(&small("median", SMALL_HEADER, &rows), &[], None);
    let row = key_row(&text, "ab");
    assert_eq!((row[3].as_str(), row[6].as_str()), ("3", "20"), "{row:?}");
    assert!(row[4].starts_with("40 ["), "{row:?}");
}

/// nodes/s counts only the runs with a time: 100 nodes in 0.5 s beside 900 untimed nodes
/// is 200 nodes/s; with no time at all the cell is a dash, not NaN.
#[test]
fn key_figure_nodes_per_second_counts_only_timed_runs() {
    let rows = vec![
        "connect4,p1,ab,1,0,1,100,100,0.9,,,7,,0.5,200".to_owned(),
        "connect4,p2,ab,1,0,1,900,900,0.9,,,7,,,".to_owned(),
    ];
    let text = summary::render(&small("nps_timed", SMALL_HEADER, &rows), &[], None);
    assert_eq!(key_row(&text, "ab")[11], "200");
    let untimed: Vec<String> = rows.iter().map(|r| r.replace(",0.5,200", ",,")).collect();
    let text = summary::render(&small("nps_untimed", SMALL_HEADER, &untimed), &[], None);
    assert_eq!(key_row(&text, "ab")[11], "–", "{text}");
}

/// The note on what `nodes` means with several threads is for alpha-beta's parallel
/// searches; Monte Carlo rows on several threads (whose section is the parallel one's) do
/// not get it, and neither do one-thread searches.
#[test]
fn the_threads_note_is_for_parallel_alpha_beta_only() {
    const NOTE: &str = "With more than one thread, `nodes` is what the search reports";
    let header = format!("{SMALL_HEADER},threads,playouts");
    let text_of = |name: &str, threads: u32, playouts: &str| {
        let row = format!("connect4,p1,ab,1,0,1,7,7,0.9,,,7,,0.001,1000,{threads},{playouts}");
        summary::render(&small(name, &header, &[row]), &[], None)
    };
    assert!(text_of("threads_ab", 2, "").contains(NOTE));
    assert!(!text_of("threads_mcts", 2, "500").contains(NOTE));
    assert!(!text_of("threads_one", 1, "").contains(NOTE));
}

/// A random-tree row (b = 2) of `searcher` on tree `tree` at `depth`, with its `ebf`.
fn random_row(searcher: &str, tree: u32, depth: u32, ebf: &str) -> String {
    let n = 2u32.pow(depth);
    format!(
        "random_tree,b=2 d=3 iid tree={tree},{searcher},1,0,{depth},{n},{n},0.5,{ebf},,2,,0.001,1000"
    )
}

/// The EBF table's D is the deepest depth any tree reached, and its EBF is over the trees
/// that reached it (√ of the last two `ebf`s, or the last alone where the iteration
/// before has none); a searcher stopping below depth 8 gets the note that its EBF is far
/// from the asymptote.
#[test]
fn ebf_against_theory_is_at_the_deepest_depth_over_the_trees_reaching_it() {
    let rows = vec![
        random_row("ab", 1, 1, ""),
        random_row("ab", 1, 2, "2"),
        random_row("ab", 1, 3, "8"),
        random_row("ab", 2, 1, ""),
        random_row("ab", 2, 2, "1.5"),
        random_row("cd", 1, 1, ""),
        random_row("cd", 1, 2, "1.5"),
    ];
    let text = summary::render(&small("ebf_deepest", SMALL_HEADER, &rows), &[], None);
    assert!(text.contains("| ab | 3 | 1 | 4.000 |"), "{text}");
    assert!(text.contains("| cd | 2 | 1 | 1.500 |"), "{text}");
    assert!(
        text.contains("Some searchers stop below depth 8: their EBF is far from the asymptote."),
        "{text}"
    );
}

/// The fixture's b = 2 group, its `minimal leaves` column and verdicts at depth `depth`:
/// the line of the Knuth–Moore table.
fn knuth_moore_line(data: &Dataset, depth: u32) -> String {
    let text = summary::render(data, &[], None);
    let start = format!("| {depth} | ");
    text.lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("{text}"))
        .to_owned()
}

/// The minimal-leaves column is the CSV's `minimal_leaves` where given, else Knuth and
/// Moore's b^⌈d/2⌉ + b^⌊d/2⌋ − 1 from the tree's b.
#[test]
fn minimal_leaves_come_from_the_csv_else_from_the_formula() {
    let mut data = Dataset::load(&fixture("searches.csv")).unwrap();
    for row in data.rows.iter_mut() {
        row.minimal_leaves = None;
    }
    assert_eq!(
        knuth_moore_line(&data, 5),
        "| 5 | 32 | 14.5 | 16.5 | 11 | 11 | 32 | yes (2 of 2) |"
    );
    for row in data.rows.iter_mut().filter(|r| r.depth == 5) {
        row.minimal_leaves = Some(12.0);
    }
    assert_eq!(
        knuth_moore_line(&data, 5),
        "| 5 | 32 | 14.5 | 16.5 | 11 | 12 | 32 | **no** (0 of 2) |"
    );
}

/// A perfectly ordered search that examined fewer leaves than the minimal tree (only a
/// wrong count can) is not "minimal on every tree" either.
#[test]
fn fewer_leaves_than_the_minimal_tree_are_flagged_too() {
    let mut data = Dataset::load(&fixture("searches.csv")).unwrap();
    let row = data
        .rows
        .iter_mut()
        .find(|r| r.searcher == "alphabeta-ordered" && r.depth == 5)
        .unwrap();
    row.leaf_nodes -= 1.0;
    assert_eq!(
        knuth_moore_line(&data, 5),
        "| 5 | 32 | 14.5 | 16.5 | 10.5 | 11 | 32 | **no** (1 of 2) |"
    );
}

/// A depth the perfectly ordered searcher did not reach reads "no rows", not a vacuous
/// "yes (0 of 0)".
#[test]
fn a_depth_without_the_ordered_searchers_rows_says_no_rows() {
    let mut data = Dataset::load(&fixture("searches.csv")).unwrap();
    data.rows
        .retain(|r| !(r.searcher == "alphabeta-ordered" && r.depth == 8));
    assert_eq!(
        knuth_moore_line(&data, 8),
        "| 8 | 256 | 61 | 70.5 | – | 31 | 256 | no rows |"
    );
}

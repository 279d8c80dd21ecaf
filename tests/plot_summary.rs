//! summary.md of the fixture matches the committed snapshot.
//!
//! After an intended change, refresh the snapshot with
//! `UPDATE_SNAPSHOTS=1 cargo test --test plot_summary` and review the diff.

use std::path::Path;

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

//! Games with chance: the savings of Star1/Star2 against expectiminimax (savings.csv, the
//! savings chart and summary.md's section, EXPERIMENTS.md "Outputs") and the points per
//! game of a backgammon match (points.csv, refused where damaged).

use std::path::PathBuf;

use crate::common::TempDir;

use plylab::plot::chance::{Saving, points_charts, savings, savings_chart};
use plylab::plot::{Dataset, Format, write_all};

/// Writes `text` to the file `name` in `dir` and returns its path.
fn file(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The text of the file `name` in `dir`.
fn read(dir: &TempDir, name: &str) -> String {
    std::fs::read_to_string(dir.path(name)).unwrap()
}

/// The columns the savings read.
const SAVINGS_HEADER: &str = "game,position,seed,repetition,searcher,algorithm,depth,nodes\n";

/// The savings of a searches.csv holding SAVINGS_HEADER and `rows`.
fn savings_of(name: &str, rows: &str) -> Vec<Saving> {
    let scratch = TempDir::new(&format!("plot-chance-{name}"));
    savings(&file(
        &scratch,
        "searches.csv",
        &format!("{SAVINGS_HEADER}{rows}"),
    ))
    .unwrap()
}

/// An instance is a position, seed and repetition: two seeds (or two repetitions) of one
/// position are two instances, each set against expectiminimax's nodes on itself.
#[test]
fn savings_tell_instances_apart_by_seed_and_repetition() {
    for (a, b) in [("1,0", "2,0"), ("1,0", "1,1")] {
        let rows = format!(
            "g,p,{a},emm,expectiminimax,2,100\ng,p,{a},s2,star2,2,40\n\
             g,p,{b},emm,expectiminimax,2,300\ng,p,{b},s2,star2,2,60\n"
        );
        let s = savings_of("instances", &rows);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!((s[1].instances, s[1].nodes), (2, 100.0), "{s:?}");
        assert_eq!(s[1].reference_nodes, 400.0, "{s:?}");
        assert!((s[1].saving() - 0.75).abs() < 1e-12);
    }
}

/// A depth that is no whole number of plies (or is beyond any search's) and a node count
/// that is no whole number from 0 are a damaged file, named at its line and column, not a
/// depth or count rounded to one.
#[test]
fn a_depth_or_node_count_that_is_no_count_is_refused() {
    let scratch = TempDir::new("plot-chance-damaged");
    let most = plylab::search::MAX_DEPTH;
    for (depth, nodes, column) in [
        ("2.5", "100", "depth"),
        ("-1", "100", "depth"),
        (&*(most + 1).to_string(), "100", "depth"),
        ("2", "10.5", "nodes"),
        ("2", "-3", "nodes"),
    ] {
        let rows = format!("g,p,1,0,emm,expectiminimax,2,100\ng,p,1,0,s2,star2,{depth},{nodes}\n");
        let csv = file(&scratch, "searches.csv", &format!("{SAVINGS_HEADER}{rows}"));
        let err = savings(&csv).unwrap_err().to_string();
        assert!(
            err.contains(&format!("searches.csv line 3 column `{column}`")),
            "{depth} {nodes}: {err}"
        );
    }
}

/// Savings come by game in file order, then by depth, then by searcher in file order
/// (not alphabetically).
#[test]
fn savings_are_ordered_by_game_in_file_order_then_depth_then_searcher() {
    let rows = "zeta,p,1,0,s2,star2,2,40\n\
                zeta,p,1,0,emm,expectiminimax,2,100\n\
                zeta,p,1,0,s2,star2,1,5\n\
                zeta,p,1,0,emm,expectiminimax,1,10\n\
                alpha,p,1,0,s2,star2,1,6\n\
                alpha,p,1,0,emm,expectiminimax,1,10\n";
    let order: Vec<(String, u32, String)> = savings_of("order", rows)
        .into_iter()
        .map(|s| (s.game, s.depth, s.searcher))
        .collect();
    let want = [
        ("zeta", 1, "s2"),
        ("zeta", 1, "emm"),
        ("zeta", 2, "s2"),
        ("zeta", 2, "emm"),
        ("alpha", 1, "s2"),
        ("alpha", 1, "emm"),
    ]
    .map(|(g, d, s)| (g.to_owned(), d, s.to_owned()));
    assert_eq!(order, want);
}

/// A backgammon searches.csv with an expectiminimax and a Star2 searcher at depths 1
/// and 2: Star2 saves 40% and 75%.
const CHANCE_SEARCHES: &str = "\
game,position,searcher,algorithm,seed,repetition,depth,nodes,leaf_nodes,\
first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,elapsed_s,nps
backgammon,p1,emm,expectiminimax,1,0,1,10,8,,,,20,,0.001,1000
backgammon,p1,s2,star2,1,0,1,6,5,,,,20,,0.001,1000
backgammon,p1,emm,expectiminimax,1,0,2,200,150,,,,20,,0.001,1000
backgammon,p1,s2,star2,1,0,2,50,40,,,,20,,0.001,1000
";

/// The savings of CHANCE_SEARCHES.
fn chance_savings(name: &str) -> Vec<Saving> {
    let scratch = TempDir::new(&format!("plot-chance-{name}"));
    savings(&file(&scratch, "searches.csv", CHANCE_SEARCHES)).unwrap()
}

/// `write_all` (what `plylab plot` runs) writes savings.csv, one row per game, depth and
/// searcher with the saving to four decimals, and the savings chart in each format.
#[test]
fn an_experiment_with_expectiminimax_gets_savings_csv_and_charts() {
    let scratch = TempDir::new("plot-chance-files");
    let data = Dataset::load(&file(&scratch, "searches.csv", CHANCE_SEARCHES)).unwrap();
    let report = write_all(&data, scratch.dir(), &[Format::Svg, Format::Png]).unwrap();
    for name in [
        "savings.csv",
        "savings_backgammon.svg",
        "savings_backgammon.png",
    ] {
        assert!(report.files.contains(&scratch.dir().join(name)), "{name}");
    }
    assert_eq!(
        read(&scratch, "savings.csv"),
        "game,depth,searcher,algorithm,instances,nodes,expectiminimax_nodes,savings\n\
         backgammon,1,emm,expectiminimax,1,10,10,0.0000\n\
         backgammon,1,s2,star2,1,6,10,0.4000\n\
         backgammon,2,emm,expectiminimax,1,200,200,0.0000\n\
         backgammon,2,s2,star2,1,50,200,0.7500\n"
    );
}

/// summary.md ends with the savings section: per game a table of the searchers other
/// than expectiminimax, the saving in percent, and a link to the chart in the first
/// format.
#[test]
fn summary_ends_with_the_savings_against_expectiminimax() {
    let scratch = TempDir::new("plot-chance-summary");
    let data = Dataset::load(&file(&scratch, "searches.csv", CHANCE_SEARCHES)).unwrap();
    write_all(&data, scratch.dir(), &[Format::Svg, Format::Png]).unwrap();
    let summary = read(&scratch, "summary.md");
    assert!(summary.starts_with("# Experiment"), "{summary}");
    let section = summary
        .split("\n## Savings against expectiminimax\n")
        .nth(1)
        .unwrap_or_else(|| panic!("{summary}"));
    assert!(
        section.ends_with(
            "### backgammon\n\n\
             | depth | searcher | algorithm | instances | nodes | expectiminimax | saving |\n\
             |---:|---|---|---:|---:|---:|---:|\n\
             | 1 | s2 | star2 | 1 | 6 | 10 | 40.0% |\n\
             | 2 | s2 | star2 | 1 | 50 | 200 | 75.0% |\n\
             \n![savings against expectiminimax, backgammon](savings_backgammon.svg)\n\n"
        ),
        "{section}"
    );
}

/// Without an expectiminimax searcher there are no savings: no savings.csv, no chart, no
/// section.
#[test]
fn an_experiment_without_expectiminimax_gets_no_savings() {
    let scratch = TempDir::new("plot-chance-none");
    let csv = CHANCE_SEARCHES.replace("expectiminimax", "minimax");
    let data = Dataset::load(&file(&scratch, "searches.csv", &csv)).unwrap();
    let report = write_all(&data, scratch.dir(), &[Format::Svg]).unwrap();
    assert!(!scratch.dir().join("savings.csv").exists(), "{report:?}");
    assert!(!scratch.dir().join("savings_backgammon.svg").exists());
    assert!(!read(&scratch, "summary.md").contains("Savings against"));
}

/// The savings chart: one line per searcher other than expectiminimax, its saving in
/// percent per depth, then the 0% line and Ballard's 25% and 50% across the depths.
#[test]
fn the_savings_chart_has_a_line_per_searcher_and_ballards_references() {
    let all = chance_savings("chart");
    let rows: Vec<&Saving> = all.iter().collect();
    let chart = savings_chart("exp", "backgammon", &rows);
    assert_eq!(chart.stem, "savings_backgammon");
    let labels: Vec<&str> = chart.series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "s2",
            "0 = no saving",
            "Ballard 1983: Star1, 25%",
            "Ballard 1983: Star2, 50%"
        ]
    );
    let points = |i: usize| -> Vec<(f64, f64)> {
        let round = |y: f64| (y * 1e9).round() / 1e9;
        chart.series[i]
            .points
            .iter()
            .map(|p| (p.x, round(p.y)))
            .collect()
    };
    assert_eq!(points(0), [(1.0, 40.0), (2.0, 75.0)]);
    for (i, y) in [(1, 0.0), (2, 25.0), (3, 50.0)] {
        assert_eq!(points(i), [(1.0, y), (2.0, y)], "{}", labels[i]);
    }
}

/// points.csv's header as the arena writes it (the columns the chart reads).
const POINTS_HEADER: &str = "player,opponent,points_per_game,ppg_lower,ppg_upper\n";

/// points_charts on a directory holding POINTS_HEADER and `rows` as points.csv.
fn points_result(name: &str, rows: &str) -> Result<usize, String> {
    let scratch = TempDir::new(&format!("plot-chance-{name}"));
    file(&scratch, "points.csv", &format!("{POINTS_HEADER}{rows}"));
    points_charts(scratch.dir(), &[Format::Svg])
        .map(|files| files.len())
        .map_err(|e| e.to_string())
}

/// An interval end on its estimate holds it (a pairing that always scored the same).
#[test]
fn a_points_interval_end_on_its_estimate_is_kept() {
    assert_eq!(points_result("points_equal", "a,b,1.0,1.0,1.0\n"), Ok(1));
}

/// A pairing without points per game is a damaged file, named at its line and column,
/// not a pairing at 0.
#[test]
fn a_pairing_without_points_per_game_is_refused() {
    let err = points_result("points_empty", "a,b,1.0,0.5,1.5\na,c,,,\n").unwrap_err();
    assert!(
        err.contains("points.csv line 3 column `points_per_game`"),
        "{err}"
    );
}

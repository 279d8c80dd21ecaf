//! Test-set charts: one solve-rate chart and one cost chart per test set, one point per
//! searcher, drawn from a small CSV with `set` and `solved` columns.

use std::path::{Path, PathBuf};

use plylab::plot::{Format, plot_csv};

const HEADER: &str = "experiment,game,set,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,elapsed_s,nps,solved";

/// A fresh, empty scratch directory `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `lines` (the header first) as DIR/searches.csv; returns its path.
fn write_searches(dir: &Path, lines: &[String]) -> PathBuf {
    let csv = dir.join("searches.csv");
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    csv
}

/// The summary.md text of the searches.csv at `csv`.
fn summary_of(csv: &Path) -> String {
    let data = plylab::plot::Dataset::load(csv).unwrap();
    plylab::plot::summary::render(&data, &[], None)
}

/// The table line of `text` that starts with `prefix`, and its cells trimmed.
fn table_row<'a>(text: &'a str, prefix: &str) -> (&'a str, Vec<&'a str>) {
    let line = text
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("{text}"));
    (line, line.split('|').map(str::trim).collect())
}

/// A row: the last (and only) iteration of a job on `position` of `set`.
fn row(set: &str, position: &str, searcher: &str, nodes: u32, solved: bool) -> String {
    format!("x,chess,{set},{position},{searcher},1,0,4,{nodes},{nodes},,,,30,,0.01,1000,{solved}")
}

#[test]
fn each_test_set_gets_a_solve_rate_and_a_cost_chart() {
    let dir = scratch("plot_sets");
    let mut lines = vec![HEADER.to_owned()];
    for (searcher, solved) in [("plain", [true, false]), ("quiescence", [true, true])] {
        for (i, s) in solved.iter().enumerate() {
            lines.push(row(
                "wac.epd",
                &format!("p{i}"),
                searcher,
                1000 * (i as u32 + 1),
                *s,
            ));
            lines.push(row("bk.epd", &format!("q{i}"), searcher, 500, *s));
        }
    }
    let csv = write_searches(&dir, &lines);
    let report = plot_csv(&csv, &dir, &[Format::Svg]).unwrap();
    let names: Vec<String> = report
        .files
        .iter()
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for stem in [
        "solved_wac_epd",
        "cost_wac_epd",
        "solved_bk_epd",
        "cost_bk_epd",
    ] {
        assert!(
            names.contains(&format!("{stem}.svg")),
            "{stem} in {names:?}"
        );
    }
    let svg = std::fs::read_to_string(dir.join("solved_wac_epd.svg")).unwrap();
    assert!(
        svg.contains(">\nplain\n<") && svg.contains(">\nquiescence\n<"),
        "legend entries"
    );
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        summary.contains("| wac.epd | plain | 2 | 1/2 |"),
        "{summary}"
    );
    assert!(
        summary.contains("| wac.epd | quiescence | 2 | 2/2 |"),
        "{summary}"
    );
    assert!(summary.contains("(solved_wac_epd.svg)"), "{summary}");
}

/// A position searched more than once (repetitions) counts once in the test-set table and
/// the paired tests: nodes are the means over its searches, and it counts as the share of
/// them answered exactly. Three positions repeated four times had been twelve positions,
/// with a Wilson interval as narrow as twelve independent ones give.
#[test]
fn repetitions_of_a_position_count_once() {
    let dir = scratch("plot_sets_repetitions");
    let mut lines = vec![HEADER.to_owned()];
    for repetition in 0..4 {
        for (i, position) in ["p0", "p1", "p2"].into_iter().enumerate() {
            let with = |searcher: &str, nodes: u32, solved: bool| {
                format!(
                    "x,chess,wac.epd,{position},{searcher},{repetition},{repetition},4,{nodes},\
                     {nodes},,,,30,,0.01,1000,{solved}"
                )
            };
            // Deterministic: the same search four times, p0 answered.
            lines.push(with("fixed", 1000 * (i as u32 + 1), i == 0));
            // Threads: p1 answered in half its searches, twice the nodes on average.
            lines.push(with(
                "threads",
                2000 * (i as u32 + 1) + 100 * repetition,
                i == 0 || (i == 1 && repetition % 2 == 0),
            ));
        }
    }
    let csv = write_searches(&dir, &lines);
    plot_csv(&csv, &dir, &[Format::Svg]).unwrap();
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    // Wilson's 95% interval of 1 in 3: 6.1–79.2%.
    assert!(
        summary.contains("| wac.epd | fixed | 3 | 1/3 | 6.1–79.2% | "),
        "{summary}"
    );
    assert!(
        summary.contains("| wac.epd | threads | 3 | 1.50/3 | "),
        "{summary}"
    );
    // Paired on the three positions: each one's mean over its searches.
    assert!(
        summary.contains("| wac.epd | threads | fixed | 3 | "),
        "{summary}"
    );
    // By hand: fixed costs 1000, 2000 and 3000 nodes at every repetition; threads
    // 2000(i+1) + 100r for r = 0..3, a mean of 2000(i+1) + 150: 2150, 4150 and 6150. The
    // medians over the positions are 2000 and 4150 (the sums, four times those, would be
    // 8000 and 16600).
    let cells = |searcher: &str| table_row(&summary, &format!("| wac.epd | {searcher} | 3 | ")).1;
    assert_eq!(cells("fixed")[7], "2000", "median nodes of fixed");
    assert_eq!(cells("threads")[7], "4150", "median nodes of threads");
    // Each position's ratio is of its own two means: 2150/1000 = 2.15, 4150/2000 = 2.075,
    // 6150/3000 = 2.05. Median 2.075; geometric mean (2.15 * 2.075 * 2.05)^(1/3) = 2.0912;
    // threads needed more on all three, and the exact two-sided sign test of 0 fewer in 3
    // is 2 * (1/2)^3 = 0.25. A ratio against another position's mean would change them all.
    let (_, paired) = table_row(&summary, "| wac.epd | threads | fixed | 3 | ");
    assert!(paired[5].starts_with("2.091 ["), "{paired:?}");
    assert_eq!(paired[6..9], ["2.075", "0 / 3", "0.250"], "{paired:?}");
}

/// The solve-rate point carries its Wilson interval as the bar, and the cost point is the
/// geometric mean of the nodes per position with its interval, as the table's first nodes
/// column: one costly position does not lift it to the arithmetic mean.
#[test]
fn set_chart_points_are_wilson_rates_and_geometric_means() {
    let dir = scratch("plot_sets_bars");
    let mut lines = vec![HEADER.to_owned()];
    for (i, nodes) in [100, 100, 100, 1_000_000].iter().enumerate() {
        lines.push(row("wac.epd", &format!("p{i}"), "ab", *nodes, i < 3));
    }
    let csv = write_searches(&dir, &lines);
    let data = plylab::plot::Dataset::load(&csv).unwrap();
    let charts = plylab::plot::sets::set_charts(&data);
    let point = |stem: &str| charts.iter().find(|c| c.stem == stem).unwrap().series[0].points[0];
    let solved = point("solved_wac_epd");
    assert_eq!(solved.y, 75.0);
    let (lo, hi) = solved.spread.unwrap();
    // R: prop.test(3, 4, correct = FALSE)$conf.int = 0.3006 0.9544
    assert!(
        (lo - 30.06).abs() < 0.01 && (hi - 95.44).abs() < 0.01,
        "{lo} {hi}"
    );
    let cost = point("cost_wac_epd");
    assert!(
        (cost.y - 1000.0).abs() < 1e-6,
        "geometric mean of 100, 100, 100, 10^6"
    );
    let (lo, hi) = cost.spread.unwrap();
    assert!(lo < cost.y && cost.y < hi);
}

/// Searchers run on different numbers of a set's positions say how many in the legend.
#[test]
fn uneven_position_counts_are_named_in_the_legend() {
    let dir = scratch("plot_sets_uneven");
    let mut lines = vec![HEADER.to_owned()];
    for i in 0..3 {
        lines.push(row("wac.epd", &format!("p{i}"), "all", 100, true));
    }
    lines.push(row("wac.epd", "p0", "first", 100, true));
    let csv = write_searches(&dir, &lines);
    let data = plylab::plot::Dataset::load(&csv).unwrap();
    let charts = plylab::plot::sets::set_charts(&data);
    let labels: Vec<&str> = charts[0].series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["all (3 positions)", "first (1 position)"]);
}

#[test]
fn a_mate_played_out_counts_the_work_of_every_search() {
    // The first search's last row holds its whole work (an interrupted iteration's 50 nodes
    // included); the two later searches of the play-out (steps 1 and 2) hold only their
    // completed iterations, which the total must add (it had counted the first search
    // alone, less than the work to the final iteration).
    let dir = scratch("plot_sets_played_out");
    let csv = dir.join("searches.csv");
    let header = "job,step,game,set,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
                  first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,elapsed_s,nps,\
                  solved,total_nodes,total_s";
    let rows = [
        "0,0,chess,m.epd,p,s,1,0,1,100,50,,,,30,,0.1,1000,,,",
        "0,0,chess,m.epd,p,s,1,0,2,200,100,,,,30,,0.2,1000,,350,0.5",
        "0,1,chess,m.epd,p,s,1,0,2,80,40,,,,30,,0.1,800,,,",
        "0,2,chess,m.epd,p,s,1,0,1,20,10,,,,30,,0.05,400,true,,",
    ];
    std::fs::write(&csv, format!("{header}\n{}\n", rows.join("\n"))).unwrap();
    let text = summary_of(&csv);
    let (line, cells) = table_row(&text, "| m.epd | s |");
    // set, searcher, positions, exact, interval, geometric mean, median, mean, to the final
    // completed iteration, time per position.
    assert_eq!(cells[6].split(' ').next(), Some("450"), "{line}");
    assert_eq!(cells[9], "400", "{line}");
    assert!(cells[10].starts_with("0.650000"), "{line}");
}

/// The test-set table's nodes and time columns of a skewed set, computed by hand (module
/// doc and EXPERIMENTS.md "Statistics": geometric mean with the t interval of the logs, a
/// mean's t interval with a lower end below 0 shown as 0, time the mean per position).
#[test]
fn a_skewed_sets_mean_interval_stops_at_zero() {
    let dir = scratch("plot_sets_skewed");
    let mut lines = vec![HEADER.to_owned()];
    for (i, nodes) in [100, 100, 10_000].iter().enumerate() {
        lines.push(row("wac.epd", &format!("p{i}"), "ab", *nodes, true));
    }
    let csv = write_searches(&dir, &lines);
    let text = summary_of(&csv);
    let (line, cells) = table_row(&text, "| wac.epd | ab | 3 | 3/3 |");
    // t quantile: R qt(0.975, 2) = 4.302653.
    let t = 4.302_652_729_749_464_f64;
    // Mean 3400; deviations -3300, -3300, 6600, so s^2 = 65.34e6 / 2 and s / sqrt(3) =
    // 3300: 3400 -/+ 14198.75 = [-10798.75, 17598.75], its lower end shown as 0.
    assert_eq!(cells[8], "3400 [0–17599]", "{line}");
    // Logs: ln 100 twice and ln 10^4 = 2 ln 100; geometric mean (10^8)^(1/3) = 464.16, and
    // the interval exp(mean of logs -/+ t s / sqrt 3) written out here.
    let logs = [100f64.ln(), 100f64.ln(), 10_000f64.ln()];
    let m = logs.iter().sum::<f64>() / 3.0;
    let s = (logs.iter().map(|l| (l - m).powi(2)).sum::<f64>() / 2.0).sqrt();
    let (lo, hi) = (
        (m - t * s / 3f64.sqrt()).exp(),
        (m + t * s / 3f64.sqrt()).exp(),
    );
    assert_eq!(cells[6], format!("464 [{lo:.0}–{hi:.0}]"), "{line}");
    // Each job is one iteration of 0.01 s and the CSV has no `total_s`: 0.01 s a position.
    assert!(cells[10].starts_with("0.010000 "), "{line}");
}

/// A position one searcher solved without a node (0 total nodes) has no node ratio: the
/// paired comparison leaves it out ("on the positions both searched", with a ratio whose
/// log is finite) and compares the rest.
#[test]
fn paired_comparisons_leave_out_positions_without_nodes() {
    let dir = scratch("plot_sets_zero_nodes");
    let mut lines = vec![HEADER.to_owned()];
    // p0: base 0 nodes; p1: other 0 nodes; p2 and p3: other needs half the base's nodes.
    for (i, (base, other)) in [(0, 50), (100, 0), (100, 50), (200, 100)]
        .iter()
        .enumerate()
    {
        lines.push(row("wac.epd", &format!("p{i}"), "base", *base, true));
        lines.push(row("wac.epd", &format!("p{i}"), "other", *other, true));
    }
    let csv = write_searches(&dir, &lines);
    let text = summary_of(&csv);
    let (line, cells) = table_row(&text, "| wac.epd | other | base |");
    // Two positions, both ratios 0.5, both fewer; sign test 2 * (1/2)^2 = 0.5.
    assert_eq!(cells[4], "2", "{line}");
    assert!(cells[5].starts_with("0.500"), "{line}");
    assert_eq!(cells[6..9], ["0.500", "2 / 0", "0.500"], "{line}");
}

/// The sign-test p-values print as the module says (`fmt_p`): three decimals, scientific
/// notation below 0.001, "< 1e-6" below that. A searcher needing fewer nodes on all n
/// positions has the exact two-sided p = 2 (1/2)^n: 0.001953 (n = 10), 9.77e-4 (n = 11),
/// 9.54e-7 (n = 21).
#[test]
fn sign_test_p_values_print_in_three_ranges() {
    let dir = scratch("plot_sets_p_values");
    let mut lines = vec![HEADER.to_owned()];
    for n in [10, 11, 21] {
        for i in 0..n {
            lines.push(row(
                &format!("s{n}.epd"),
                &format!("p{i}"),
                "base",
                100,
                true,
            ));
            lines.push(row(
                &format!("s{n}.epd"),
                &format!("p{i}"),
                "half",
                50,
                true,
            ));
        }
    }
    let csv = write_searches(&dir, &lines);
    let text = summary_of(&csv);
    for (n, p) in [(10, "0.002"), (11, "9.8e-4"), (21, "< 1e-6")] {
        let (line, cells) = table_row(&text, &format!("| s{n}.epd | half | base | {n} |"));
        assert_eq!(cells[7..9], [format!("{n} / 0").as_str(), p], "{line}");
    }
}

/// Each point of a test-set chart stands at its searcher's number in the legend, counted
/// from 1 as the x label says ("searcher (numbered as in the legend)"), and in its
/// searcher's colour slot: the searcher's place in the whole experiment (chart.rs,
/// `Series::slot`), so that a searcher keeps its colour on every chart.
#[test]
fn set_chart_points_stand_at_their_legend_numbers_in_their_searchers_colours() {
    let dir = scratch("plot_sets_places");
    let mut lines = vec![HEADER.to_owned()];
    // `other` comes first in the experiment but never runs on wac.epd: there `plain` is the
    // first point (x = 1) in the experiment's second slot (1), `quiescence` the second
    // point (x = 2) in its third slot (2).
    lines.push(row("bk.epd", "q0", "other", 100, true));
    for searcher in ["plain", "quiescence"] {
        lines.push(row("wac.epd", "p0", searcher, 100, true));
    }
    let csv = write_searches(&dir, &lines);
    let data = plylab::plot::Dataset::load(&csv).unwrap();
    assert_eq!(data.searchers, ["other", "plain", "quiescence"]);
    let charts = plylab::plot::sets::set_charts(&data);
    for stem in ["solved_wac_epd", "cost_wac_epd"] {
        let chart = charts.iter().find(|c| c.stem == stem).unwrap();
        let placed: Vec<(&str, f64, usize)> = chart
            .series
            .iter()
            .map(|s| (s.label.as_str(), s.points[0].x, s.slot))
            .collect();
        assert_eq!(
            placed,
            [("plain", 1.0, 1), ("quiescence", 2.0, 2)],
            "{stem}"
        );
    }
}

/// A set without a verdict on any position (an empty `solved` column) has no share
/// answered exactly to draw: its table says 0/0 and "–", and it gets the cost chart alone,
/// not a solve-rate chart with a point at 0%.
#[test]
fn a_set_without_verdicts_gets_no_solve_rate_chart() {
    let dir = scratch("plot_sets_unjudged");
    let mut lines = vec![HEADER.to_owned()];
    for i in 0..2 {
        lines.push(format!(
            "x,chess,wac.epd,p{i},ab,1,0,4,100,100,,,,30,,0.01,1000,"
        ));
    }
    let csv = write_searches(&dir, &lines);
    let data = plylab::plot::Dataset::load(&csv).unwrap();
    let charts = plylab::plot::sets::set_charts(&data);
    let stems: Vec<&str> = charts.iter().map(|c| c.stem.as_str()).collect();
    assert_eq!(stems, ["cost_wac_epd"]);
    let text = plylab::plot::summary::render(&data, &[], None);
    assert!(text.contains("| wac.epd | ab | 2 | 0/0 | – | "), "{text}");
}

/// The "Published figures" table sets each `nodes` figure beside the mean total nodes per
/// position of that searcher on that set (data.rs, `Reference::metric`) and their ratio,
/// and says "not run" where the searcher never ran on the set. Means by hand: b on wac.epd
/// (300 + 500) / 2 = 400, against 200 published: 2.000.
#[test]
fn published_figures_sit_beside_the_mean_nodes_of_their_own_set_and_searcher() {
    let dir = scratch("plot_sets_references");
    let mut lines = vec![HEADER.to_owned()];
    for (set, position, searcher, nodes) in [
        ("wac.epd", "p0", "a", 100),
        ("wac.epd", "p1", "a", 200),
        ("wac.epd", "p0", "b", 300),
        ("wac.epd", "p1", "b", 500),
        ("bk.epd", "q0", "b", 7000),
    ] {
        lines.push(row(set, position, searcher, nodes, true));
    }
    let csv = write_searches(&dir, &lines);
    let mut data = plylab::plot::Dataset::load(&csv).unwrap();
    let reference = |set: &str, searcher: &str, value: f64| plylab::plot::data::Reference {
        searcher: searcher.into(),
        set: set.into(),
        metric: "nodes".into(),
        value,
        source: "Test (1999)".into(),
    };
    data.run.references = vec![
        reference("wac.epd", "b", 200.0),
        reference("bk.epd", "a", 10.0),
    ];
    let text = plylab::plot::summary::render(&data, &[], None);
    assert!(
        text.contains("| wac.epd | b | nodes | 400.0 (2) | 200 | 2.000 | Test (1999) |\n"),
        "{text}"
    );
    assert!(
        text.contains("| bk.epd | a | nodes | not run | 10 | – | Test (1999) |\n"),
        "{text}"
    );
}

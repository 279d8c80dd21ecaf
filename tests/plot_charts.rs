//! Each chart builder, fed the fixture CSV, writes an SVG whose series and legend entries
//! can be counted in the SVG text.

use std::path::{Path, PathBuf};

use plylab::plot::chart::{Chart, SeriesKind};
use plylab::plot::charts::{cutoff_chart, ebf_chart, nodes_chart};
use plylab::plot::model::Group;
use plylab::plot::render::{LEGEND_MORE_X, LEGEND_TEXT_X, write_chart};
use plylab::plot::{Dataset, Format, footer, minimal_leaves};

fn dataset() -> Dataset {
    let csv = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/plot/searches.csv");
    Dataset::load(&csv).unwrap()
}

/// The columns of the small searches.csv files some tests write.
const SMALL_HEADER: &str = "game,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
     first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,max_ply,elapsed_s,nps\n";

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The SVG facts the tests look at.
struct Svg {
    /// Every `<polyline>`: (point count, stroke width, stroke colour, opacity: "1" where
    /// the element leaves it to SVG's default).
    polylines: Vec<(usize, String, String, String)>,
    /// (x attribute, content) of every `<text>`.
    texts: Vec<(String, String)>,
}

impl Svg {
    fn parse(text: &str) -> Self {
        let polylines = text
            .split("<polyline")
            .skip(1)
            .map(|p| {
                let head = p.split_once('>').map_or(p, |(h, _)| h);
                (
                    attr(p, "points").split_whitespace().count(),
                    attr(head, "stroke-width").to_string(),
                    attr(head, "stroke").to_string(),
                    Some(attr(head, "opacity"))
                        .filter(|o| !o.is_empty())
                        .unwrap_or("1")
                        .to_string(),
                )
            })
            .collect();
        let texts = text
            .split("<text")
            .skip(1)
            .map(|t| {
                let body = t.split_once('>').unwrap().1;
                let content = body.split("</text>").next().unwrap().trim();
                (attr(t, "x").to_string(), unescape(content))
            })
            .collect();
        Self { polylines, texts }
    }

    /// Data lines: measured series are solid polylines (width 3) through three or more
    /// points (axis ticks, legend samples and whiskers have two); reference series are drawn
    /// dashed (width 2, opaque; whiskers are translucent), one dash a polyline, so each
    /// counts once by its colour.
    fn data_lines(&self) -> usize {
        let measured = self
            .polylines
            .iter()
            .filter(|(n, width, _, _)| *n >= 3 && width == "3")
            .count();
        let references: std::collections::HashSet<&str> = self
            .polylines
            .iter()
            .filter(|(_, width, _, opacity)| width == "2" && opacity == "1")
            .map(|(_, _, colour, _)| colour.as_str())
            .collect();
        measured + references.len()
    }

    /// Legend labels, top to bottom: a wrapped label's lines joined by spaces.
    fn legend(&self) -> Vec<String> {
        let (first, more) = (LEGEND_TEXT_X.to_string(), LEGEND_MORE_X.to_string());
        let mut labels: Vec<String> = Vec::new();
        for (x, text) in &self.texts {
            if *x == first {
                labels.push(text.clone());
            } else if *x == more
                && let Some(label) = labels.last_mut()
            {
                label.push(' ');
                label.push_str(text);
            }
        }
        labels
    }

    fn has_text(&self, s: &str) -> bool {
        self.texts.iter().any(|(_, c)| c == s)
    }
}

/// The value of attribute `name` in `element`, empty when it has none.
fn attr<'a>(element: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    element.find(&key).map_or("", |i| {
        element[i + key.len()..].split('"').next().unwrap_or("")
    })
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Renders `chart` to an SVG of its own: tests run in parallel and may draw the same chart,
/// so each rendering gets a fresh directory.
fn render(data: &Dataset, chart: &Chart) -> Svg {
    static RENDERINGS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RENDERINGS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = scratch(&format!("plot_charts_{}_{n}", chart.stem)).join("chart.svg");
    write_chart(chart, &footer(data), &path, Format::Svg).unwrap();
    Svg::parse(&std::fs::read_to_string(&path).unwrap())
}

fn group<'a>(data: &'a Dataset, stem: &str) -> Group<'a> {
    data.groups()
        .into_iter()
        .find(|g| g.stem() == stem)
        .unwrap()
}

/// Checks counts, legend order, title, axis labels and footer of a rendered chart.
fn check(data: &Dataset, chart: &Chart, legend: &[&str]) {
    let svg = render(data, chart);
    assert_eq!(svg.legend(), legend, "{}", chart.stem);
    assert_eq!(svg.data_lines(), legend.len(), "{}", chart.stem);
    assert!(chart.title.starts_with("ordering: "), "{}", chart.title);
    for text in [&chart.title, &chart.x_label, &chart.y_label] {
        assert!(svg.has_text(text), "{} lacks `{text}`", chart.stem);
    }
    assert!(
        svg.has_text(&footer(data)),
        "{} lacks the footer",
        chart.stem
    );
}

const SEARCHERS: [&str; 4] = [
    "minimax",
    "alphabeta",
    "alphabeta-random",
    "alphabeta-ordered",
];

#[test]
fn random_tree_nodes_chart_has_searchers_and_three_references() {
    let data = dataset();
    let chart = nodes_chart(&data, &group(&data, "random_b4")).unwrap();
    let mut legend = SEARCHERS.to_vec();
    legend.extend(["b^d (all leaves)", "b^(d/2)", "Knuth–Moore minimal leaves"]);
    check(&data, &chart, &legend);
    assert!(chart.y_label.contains("leaf nodes") && chart.y_label.contains("log scale"));
}

#[test]
fn random_tree_ebf_chart_marks_b_pearl_and_sqrt_b() {
    let data = dataset();
    let chart = ebf_chart(&data, &group(&data, "random_b2")).unwrap();
    let mut legend = SEARCHERS.to_vec();
    legend.extend(["b = 2", "Pearl R(b) = 1.618", "√b = 1.414"]);
    check(&data, &chart, &legend);
    assert!(chart.y_label.contains("nodes(d) / nodes(d-1)"));
}

#[test]
fn cutoff_chart_leaves_out_minimax() {
    let data = dataset();
    let chart = cutoff_chart(&data, &group(&data, "random_b4")).unwrap();
    check(&data, &chart, &SEARCHERS[1..]);
}

#[test]
fn game_charts_use_mean_legal_moves() {
    let data = dataset();
    let ttt = group(&data, "tictactoe");
    let searchers = ["minimax", "alphabeta", "alphabeta-ordered"];
    let nodes = nodes_chart(&data, &ttt).unwrap();
    let mut legend = searchers.to_vec();
    legend.extend(["B^d, B = 7 moves", "B^(d/2)"]);
    check(&data, &nodes, &legend);
    let ebf = ebf_chart(&data, &ttt).unwrap();
    let mut legend = searchers.to_vec();
    legend.extend(["B = 7 (mean moves)", "√B = 2.646"]);
    check(&data, &ebf, &legend);
    let cutoff = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    check(&data, &cutoff, &searchers[1..]);
}

#[test]
fn ordered_searcher_lies_on_the_knuth_moore_curve() {
    let data = dataset();
    let chart = nodes_chart(&data, &group(&data, "random_b4")).unwrap();
    let series = |label: &str| chart.series.iter().find(|s| s.label == label).unwrap();
    let ordered = series("alphabeta-ordered");
    let km = series("Knuth–Moore minimal leaves");
    assert_eq!(km.kind, SeriesKind::Reference);
    assert_eq!(ordered.points.len(), 8);
    for (o, k) in ordered.points.iter().zip(&km.points) {
        assert_eq!((o.x, o.y), (k.x, k.y));
        assert_eq!(k.y, minimal_leaves(4.0, k.x as u32));
    }
}

#[test]
fn every_group_gets_three_charts() {
    let data = dataset();
    let stems: Vec<String> = plylab::plot::charts::all_charts(&data)
        .into_iter()
        .map(|c| c.stem)
        .collect();
    assert_eq!(stems.len(), 12);
    assert_eq!(
        stems[..3],
        ["nodes_random_b2", "ebf_random_b2", "cutoff_random_b2"]
    );
}

#[test]
fn a_searcher_keeps_its_colour_slot_across_charts() {
    let data = dataset();
    let g = group(&data, "random_b4");
    let slot = |c: &Chart, label: &str| c.series.iter().find(|s| s.label == label).unwrap().slot;
    let nodes = nodes_chart(&data, &g).unwrap();
    let cutoff = cutoff_chart(&data, &g).unwrap();
    for label in ["alphabeta", "alphabeta-random", "alphabeta-ordered"] {
        assert_eq!(slot(&nodes, label), slot(&cutoff, label), "{label}");
    }
}

#[test]
fn overlong_legend_labels_are_wrapped_whole_where_there_is_room() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    // Two labels that differ only in their middle word, as a sweep's over two keys do: both
    // are shown whole, on two lines or more, so they stay told apart.
    let labels = [
        "strong[quiescence_tt=false tt_fractional=false threads=16]",
        "strong[quiescence_tt=true tt_fractional=false threads=16]",
    ];
    for (series, label) in chart.series.iter_mut().zip(labels) {
        series.label = label.into();
    }
    let svg = render(&data, &chart);
    assert_eq!(&svg.legend()[..2], labels);
    assert!(
        svg.texts
            .iter()
            .any(|(x, _)| *x == LEGEND_MORE_X.to_string()),
        "no label was wrapped"
    );
}

#[test]
fn legend_labels_without_room_to_wrap_are_cut_in_the_middle_not_spilled() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    // Forty series of one long word each: no room for a second line, so each is cut in the
    // middle and keeps both ends.
    let template = chart.series[0].clone();
    chart.series = (0..40)
        .map(|i| {
            let mut s = template.clone();
            s.label = format!("alphabeta_with_a_very_long_description_of_its_options[threads={i}]");
            s.slot = i;
            s
        })
        .collect();
    let svg = render(&data, &chart);
    let legend = svg.legend();
    assert_eq!(legend.len(), 40, "{legend:?}");
    for (i, label) in legend.iter().enumerate() {
        assert!(
            label.starts_with("alphabeta")
                && label.contains('…')
                && label.ends_with(&format!("[threads={i}]")),
            "{legend:?}"
        );
    }
}

/// Issue 19, point 6: where positions drop out of the per-depth means (a game's searches
/// ending before the deeper iterations), the depth axis and the summary say so.
#[test]
fn a_shrinking_set_of_positions_is_named_on_the_depth_axis() {
    let dir = scratch("plot_set_changes");
    let mut csv = String::from(SMALL_HEADER);
    // Three positions reach depth 2; one of them goes on to depth 3.
    for (position, deepest) in [("p1", 3), ("p2", 2), ("p3", 2)] {
        for depth in 1..=deepest {
            csv.push_str(&format!(
                "connect4,{position},ab,1,0,{depth},{n},{n},0.9,,,7,,{depth},0.001,1000\n",
                n = 7u32.pow(depth)
            ));
        }
    }
    let path = dir.join("searches.csv");
    std::fs::write(&path, csv).unwrap();
    let data = Dataset::load(&path).unwrap();
    let groups = data.groups();
    assert_eq!(groups[0].set_changes(), vec![(3, 3, 1)]);
    let chart = nodes_chart(&data, &groups[0]).unwrap();
    assert!(
        chart
            .x_label
            .ends_with("positions per depth change at 3: 3→1"),
        "{}",
        chart.x_label
    );
    let constant = dataset();
    for group in constant.groups().iter().filter(|g| g.is_random_tree()) {
        assert!(group.set_changes().is_empty(), "{}", group.label());
    }
}

/// The palette's eight colours come round again from the ninth series on: its markers are
/// squares, so that two series in one colour are still told apart.
#[test]
fn series_past_the_palette_get_another_marker_shape() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    let count = |chart: &Chart| {
        let path =
            scratch(&format!("plot_charts_markers_{}", chart.series[0].slot)).join("chart.svg");
        write_chart(chart, &footer(&data), &path, Format::Svg).unwrap();
        std::fs::read_to_string(&path)
            .unwrap()
            .matches("<rect")
            .count()
    };
    chart.series.truncate(1);
    let plain = count(&chart);
    chart.series[0].slot = 8;
    let points = chart.series[0].points.len();
    // One square per point and one in the legend.
    assert_eq!(count(&chart), plain + points + 1);
}

/// Random trees of the two models are grouped apart, each with its own charts and Pearl
/// line: the i.i.d. model's group keeps its name, the incremental one's says its model.
#[test]
fn random_trees_of_the_two_models_are_grouped_apart() {
    let dir = scratch("plot_tree_models");
    let mut csv = String::from(SMALL_HEADER);
    for (model, n) in [("iid", 16), ("incremental", 12)] {
        csv.push_str(&format!(
            "random_tree,b=4 d=2 seed=1 model={model},ab,1,0,2,{n},{n},0.9,,,4,7,2,0.001,1000\n"
        ));
    }
    let path = dir.join("searches.csv");
    std::fs::write(&path, csv).unwrap();
    let data = Dataset::load(&path).unwrap();
    let groups = data.groups();
    let named: Vec<(String, String, usize)> = groups
        .iter()
        .map(|g| (g.stem(), g.label(), g.rows.len()))
        .collect();
    assert_eq!(
        named,
        [
            ("random_b4".into(), "random trees, b = 4".into(), 1),
            (
                "random_b4_incremental".into(),
                "random trees, b = 4, incremental model".into(),
                1
            ),
        ]
    );
    assert!((groups[1].rows[0].nodes - 12.0).abs() < 1e-9);
}

//! Each chart builder, fed the fixture CSV, writes an SVG whose series and legend entries
//! can be counted in the SVG text.

use std::path::Path;

use crate::common::TempDir;
use plylab::plot::chart::{Chart, Point, Series, SeriesKind, YScale};
use plylab::plot::charts::{cutoff_chart, ebf_chart, nodes_chart};
use plylab::plot::model::Group;
use plylab::plot::render::{FOOTER_HEIGHT, GRID, LEGEND_MORE_X, LEGEND_TEXT_X, SIZE, write_chart};
use plylab::plot::{Dataset, Format, footer, minimal_leaves};

fn dataset() -> Dataset {
    let csv = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/plot/searches.csv");
    Dataset::load(&csv).unwrap()
}

/// The columns of the small searches.csv files some tests write.
const SMALL_HEADER: &str = "game,position,searcher,seed,repetition,depth,nodes,leaf_nodes,\
     first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,max_ply,elapsed_s,nps\n";

/// The SVG facts the tests look at.
struct Svg {
    /// Every `<polyline>`: (point count, stroke width, stroke colour, opacity: "1" where
    /// the element leaves it to SVG's default).
    polylines: Vec<(usize, String, String, String)>,
    /// (x attribute, content) of every `<text>`.
    texts: Vec<(String, String)>,
    /// The opening tag of every `<text>`, in the order of `texts`.
    text_tags: Vec<String>,
    /// The whole SVG.
    raw: String,
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
        let text_tags = text
            .split("<text")
            .skip(1)
            .map(|t| t.split_once('>').unwrap().0.to_string())
            .collect();
        Self {
            polylines,
            texts,
            text_tags,
            raw: text.to_string(),
        }
    }

    /// (y, font size) of every legend text (first and later lines of its labels), top to
    /// bottom.
    fn legend_rows(&self) -> Vec<(i32, f64)> {
        let xs = [LEGEND_TEXT_X.to_string(), LEGEND_MORE_X.to_string()];
        self.texts
            .iter()
            .zip(&self.text_tags)
            .filter(|((x, _), _)| xs.contains(x))
            .map(|(_, tag)| (attr(tag, "y").parse().unwrap(), font_size(tag)))
            .collect()
    }

    /// The opening tag of the `<text>` whose content is `s`.
    fn tag_of(&self, s: &str) -> &str {
        let i = self.texts.iter().position(|(_, c)| c == s).unwrap();
        &self.text_tags[i]
    }

    /// The points of every `<polyline>` of stroke width `width` and opacity `opacity`
    /// (`"1"` where the element leaves it to SVG's default).
    fn lines(&self, width: &str, opacity: &str) -> Vec<Vec<(i32, i32)>> {
        self.raw
            .split("<polyline")
            .skip(1)
            .map(|p| p.split_once("/>").map_or(p, |(h, _)| h))
            .filter(|p| attr(p, "stroke-width") == width)
            .filter(|p| {
                Some(attr(p, "opacity"))
                    .filter(|o| !o.is_empty())
                    .unwrap_or("1")
                    == opacity
            })
            .map(|p| {
                attr(p, "points")
                    .split_whitespace()
                    .map(|xy| {
                        let (x, y) = xy.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
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

    /// The opening tag of the first y tick label (the tick labels set right-aligned against
    /// the y axis, `text-anchor="end"`).
    fn y_tick(&self) -> &str {
        self.text_tags
            .iter()
            .find(|t| attr(t, "text-anchor") == "end")
            .expect("a y tick label")
    }

    /// (top, bottom) pixel y of the plot area: where its grid lines (in `GRID`) end.
    fn plot_edges(&self) -> (i32, i32) {
        let grid = format!("#{:02X}{:02X}{:02X}", GRID.0, GRID.1, GRID.2);
        let ys: Vec<i32> = self
            .raw
            .split("<line")
            .skip(1)
            .filter(|l| attr(l, "stroke") == grid)
            .flat_map(|l| {
                [
                    attr(l, "y1").parse().unwrap(),
                    attr(l, "y2").parse().unwrap(),
                ]
            })
            .collect();
        (
            *ys.iter().min().expect("grid lines"),
            *ys.iter().max().unwrap(),
        )
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

/// The font-size attribute of a `<text>` tag.
fn font_size(tag: &str) -> f64 {
    attr(tag, "font-size").parse().unwrap()
}

/// Replaces `chart`'s series with `count` copies of its first, labelled by `label` and
/// given slots 0, 1, ... (so colours and markers by position).
fn series_labelled(chart: &mut Chart, count: usize, label: impl Fn(usize) -> String) {
    let template = chart.series[0].clone();
    chart.series = (0..count)
        .map(|i| Series {
            label: label(i),
            slot: i,
            ..template.clone()
        })
        .collect();
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
    render_with_footer(chart, &footer(data))
}

/// Renders `chart` with `footer` to an SVG of its own (as [`render`]).
fn render_with_footer(chart: &Chart, footer: &str) -> Svg {
    static RENDERINGS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RENDERINGS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = TempDir::new(&format!("plot_charts_{}_{n}", chart.stem));
    let path = dir.path("chart.svg");
    write_chart(chart, footer, &path, Format::Svg).unwrap();
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
    // Compact SVG: no attribute that says what SVG's defaults already say.
    assert!(!svg.raw.contains(" opacity=\"1\""), "{}", chart.stem);
    assert!(
        !svg.raw.contains(" stroke=\"none\" stroke-width=\"1\""),
        "{}",
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
    series_labelled(&mut chart, 40, |i| {
        format!("alphabeta_with_a_very_long_description_of_its_options[threads={i}]")
    });
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
    let dir = TempDir::new("plot_set_changes");
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
    let path = dir.path("searches.csv");
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

/// The palette's eight colours come round again from the ninth series on, each round
/// with another marker shape, so that two series in one colour are still told apart:
/// circles, then squares, triangles and diamonds (one per point and one in the legend).
#[test]
fn series_past_the_palette_get_another_marker_shape() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    chart.series.truncate(1);
    let points = chart.series[0].points.len();
    // (circles, squares, triangles, diamonds) of `chart`'s SVG.
    let shapes = |chart: &Chart| {
        let svg = render(&data, chart).raw;
        let polygons = |corners: usize| {
            svg.split("<polygon")
                .skip(1)
                .filter(|p| attr(p, "points").split_whitespace().count() == corners)
                .count()
        };
        (
            svg.matches("<circle").count(),
            svg.matches("<rect").count(),
            polygons(3),
            polygons(4),
        )
    };
    let plain = shapes(&chart);
    let markers = points + 1;
    for (slot, want) in [
        (0, (markers, 0, 0, 0)),
        (8, (0, markers, 0, 0)),
        (16, (0, 0, markers, 0)),
        (24, (0, 0, 0, markers)),
    ] {
        chart.series[0].slot = slot;
        let (c, r, t, d) = shapes(&chart);
        let got = (c + markers - plain.0, r - plain.1, t - plain.2, d - plain.3);
        assert_eq!(got, want, "slot {slot}");
    }
}

/// Random trees of the two models are grouped apart, each with its own charts and Pearl
/// line: the i.i.d. model's group keeps its name, the incremental one's says its model.
#[test]
fn random_trees_of_the_two_models_are_grouped_apart() {
    let dir = TempDir::new("plot_tree_models");
    let mut csv = String::from(SMALL_HEADER);
    for (model, n) in [("iid", 16), ("incremental", 12)] {
        csv.push_str(&format!(
            "random_tree,b=4 d=2 seed=1 model={model},ab,1,0,2,{n},{n},0.9,,,4,7,2,0.001,1000\n"
        ));
    }
    let path = dir.path("searches.csv");
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

/// The font size of the axes' tick labels (that of the first y tick label): legend labels
/// are set in it (18 px) where they fit on one line each (draw_legend's docs).
fn tick_font(svg: &Svg) -> f64 {
    font_size(svg.y_tick())
}

/// A title too wide for the image at 28 px is set smaller, down to 14 px (half the size),
/// and whole: one a little wider than the image (about 1300 px at 28 px) as well as one
/// far wider.
#[test]
fn a_title_too_wide_for_the_image_is_set_smaller_and_whole() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    let short = font_size(render(&data, &chart).tag_of(&chart.title));
    for words in [8, 30] {
        chart.title = format!("ordering: {} wide", ["wide title"; 30][..words].join(" "));
        let svg = render(&data, &chart);
        let size = font_size(svg.tag_of(&chart.title));
        assert!(
            size < short && size >= short / 2.0,
            "{words} words: {size} of {short}"
        );
    }
}

/// `YScale::Log`'s docs: non-positive values are not drawn: a series with a zero gets no
/// marker there (one circle per other point, and one in the legend).
#[test]
fn non_positive_values_are_not_drawn_on_a_log_axis() {
    let data = dataset();
    let mut chart = nodes_chart(&data, &group(&data, "random_b4")).unwrap();
    assert_eq!(chart.y_scale, YScale::Log);
    chart.series.truncate(1);
    assert_eq!(chart.series[0].slot, 0, "circles");
    let points = chart.series[0].points.len();
    chart.series[0].points[1].y = 0.0;
    let svg = render(&data, &chart);
    assert_eq!(svg.raw.matches("<circle").count(), points - 1 + 1);
}

/// Whiskers: an interval without an end on one side runs to the axis's edge on that side
/// (above every finite end, below every finite start), and points that no line may join
/// (`SeriesKind::Points`) get markers and whiskers but no line.
#[test]
fn whiskers_without_an_end_run_to_the_axis_edge() {
    let data = dataset();
    let point = |x, y, spread| Point {
        x,
        y,
        spread: Some(spread),
    };
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    chart.y_scale = YScale::Linear { range: None };
    chart.series = vec![Series {
        label: "pairings".into(),
        kind: SeriesKind::Points,
        slot: 0,
        points: vec![
            point(1.0, 10.0, (5.0, f64::INFINITY)),
            point(2.0, 20.0, (f64::NEG_INFINITY, 30.0)),
        ],
    }];
    let svg = render(&data, &chart);
    let whiskers = svg.lines("2", "0.6");
    assert_eq!(whiskers.len(), 2, "{whiskers:?}");
    // Pixel y grows downwards.
    let top = |w: &Vec<(i32, i32)>| w.iter().map(|p| p.1).min().unwrap();
    let bottom = |w: &Vec<(i32, i32)>| w.iter().map(|p| p.1).max().unwrap();
    let (open_top, open_bottom) = (&whiskers[0], &whiskers[1]);
    assert!(top(open_top) < top(open_bottom), "{whiskers:?}");
    assert!(bottom(open_bottom) > bottom(open_top), "{whiskers:?}");
    let (plot_top, plot_bottom) = svg.plot_edges();
    assert_eq!(top(open_top), plot_top, "{whiskers:?}");
    assert_eq!(bottom(open_bottom), plot_bottom, "{whiskers:?}");
    assert!(svg.lines("3", "1").is_empty(), "points joined by a line");
}

/// A label that needs three lines at 18 px keeps 18 px (labels are wrapped into at most
/// three lines before the font shrinks); its lines stand one under another, 20 px apart,
/// and the next label one 30 px row further down.
#[test]
fn a_label_of_three_lines_keeps_the_full_size_font() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    let plain = render(&data, &chart);
    let rows = plain.legend_rows();
    assert!(rows.len() >= 2);
    assert!(
        rows.iter().all(|&(_, f)| f == tick_font(&plain)),
        "{rows:?}"
    );
    assert_eq!(rows[1].0 - rows[0].0, 30, "{rows:?}");
    let label = "ab threads=16 quiesce=true tt=false null=true lmr=true asp=false";
    chart.series[0].label = label.into();
    let svg = render(&data, &chart);
    assert_eq!(svg.legend()[0], label);
    let rows = svg.legend_rows();
    assert!(
        rows.iter().all(|&(_, f)| f == tick_font(&plain)),
        "{rows:?}"
    );
    let ys: Vec<i32> = rows.iter().map(|r| r.0 - rows[0].0).collect();
    assert_eq!(ys[..4], [0, 20, 40, 70], "{rows:?}");
}

/// Many series: the legend's rows close up and their text shrinks so that every series
/// fits the column, above the footer's 36 px strip at the bottom of the image.
#[test]
fn many_legend_rows_close_up_to_fit_above_the_footer() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    let full = tick_font(&render(&data, &chart));
    series_labelled(&mut chart, 40, |i| format!("searcher {i}"));
    let rows = render(&data, &chart).legend_rows();
    assert_eq!(rows.len(), 40);
    let bottom = (SIZE.1 - FOOTER_HEIGHT) as i32;
    for (k, &(y, font)) in rows.iter().enumerate() {
        assert!(y > 0 && y < bottom, "row {k} at {y}: {rows:?}");
        assert!(font < full, "row {k} in {font}, not below {full}");
    }
    // Twelve labels of three lines each at 18 px would not fit: they too are set to fit,
    // in a smaller font, whole (two lines each).
    chart.series.truncate(12);
    for s in &mut chart.series {
        s.label = format!("{} threads=16 quiesce=true tt=false null=true", s.label);
    }
    let svg = render(&data, &chart);
    let labels: Vec<&str> = chart.series.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(svg.legend(), labels);
    let rows = svg.legend_rows();
    assert_eq!(rows.len(), 24, "{rows:?}");
    for (k, &(y, font)) in rows.iter().enumerate() {
        assert!(y > 0 && y < bottom, "line {k} at {y}: {rows:?}");
        assert!(font < full, "line {k} in {font}, not below {full}");
    }
}

/// Measured series take the eight colours of their palette by their slots, one each.
#[test]
fn eight_measured_series_get_eight_colours() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    series_labelled(&mut chart, 8, |i| format!("searcher {i}"));
    let svg = render(&data, &chart);
    let colours: std::collections::HashSet<&str> = svg
        .polylines
        .iter()
        .filter(|(n, width, _, _)| *n >= 3 && width == "3")
        .map(|(_, _, colour, _)| colour.as_str())
        .collect();
    assert_eq!(colours.len(), 8, "{colours:?}");
}

/// Reference lines share one dash while their palette's colours last; a reference whose
/// slot brings a colour round again gets another dash: slots 0 and 1 are dashed alike in
/// the legend, slot 4 (slot 0's colour) otherwise.
#[test]
fn references_in_a_colour_come_round_again_get_another_dash() {
    let data = dataset();
    let mut chart = nodes_chart(&data, &group(&data, "random_b4")).unwrap();
    chart.series.retain(|s| s.kind == SeriesKind::Reference);
    assert_eq!(chart.series.len(), 3);
    for (s, slot) in chart.series.iter_mut().zip([0, 1, 4]) {
        s.slot = slot;
    }
    let svg = render(&data, &chart);
    let rows = svg.legend_rows();
    // The lengths of the dashes of the legend sample at row `k`'s height.
    let dashes = |k: usize| -> Vec<i32> {
        svg.lines("2", "1")
            .iter()
            .filter(|l| l.iter().all(|p| p.1 == rows[k].0))
            .map(|l| l.iter().map(|p| p.0).max().unwrap() - l.iter().map(|p| p.0).min().unwrap())
            .collect()
    };
    assert!(dashes(0).len() > 1, "{:?}", dashes(0));
    assert_eq!(dashes(0), dashes(1));
    assert_ne!(dashes(0), dashes(2));
}

/// References are drawn thinner than measured lines (2 px against 3), unmarked, dashed
/// in the legend too, in the reference palette (no measured series' colour) and last, on
/// top of the data; the x axis of a log chart is labelled with plain depths.
#[test]
fn references_are_thin_unmarked_dashed_and_on_top_in_their_own_colours() {
    let data = dataset();
    let chart = nodes_chart(&data, &group(&data, "random_b4")).unwrap();
    let svg = render(&data, &chart);
    let colour_of = |i: usize| svg.polylines[i].2.clone();
    let measured: Vec<usize> = (0..svg.polylines.len())
        .filter(|&i| svg.polylines[i].0 >= 3 && svg.polylines[i].1 == "3")
        .collect();
    let references: Vec<usize> = (0..svg.polylines.len())
        .filter(|&i| svg.polylines[i].1 == "2" && svg.polylines[i].3 == "1")
        .collect();
    let measured_colours: std::collections::HashSet<String> =
        measured.iter().map(|&i| colour_of(i)).collect();
    let reference_colours: std::collections::HashSet<String> =
        references.iter().map(|&i| colour_of(i)).collect();
    assert_eq!(measured_colours.len(), 4, "{measured_colours:?}");
    assert_eq!(reference_colours.len(), 3, "{reference_colours:?}");
    assert!(measured_colours.is_disjoint(&reference_colours));
    assert!(
        measured.iter().max() < references.iter().min(),
        "data drawn over references"
    );
    let markers: usize = chart
        .series
        .iter()
        .filter(|s| s.kind == SeriesKind::Measured)
        .map(|s| s.points.len() + 1)
        .sum();
    assert_eq!(svg.raw.matches("<circle").count(), markers);
    // A reference's legend sample: dashes at its label's height.
    let rows = svg.legend_rows();
    for (k, series) in chart.series.iter().enumerate() {
        if series.kind == SeriesKind::Reference {
            let y = rows[k].0;
            let dashes = svg
                .lines("2", "1")
                .iter()
                .filter(|l| l.iter().all(|p| p.1 == y))
                .count();
            assert!(dashes > 1, "{}: {dashes} dashes", series.label);
        }
    }
    for depth in ["5", "6", "7"] {
        assert!(svg.has_text(depth), "no x tick {depth}");
    }
}

/// A reference line beyond the data's log axis is cut at the plot's edges (where its grid
/// lines end), never drawn above or below them.
#[test]
fn reference_lines_are_cut_at_the_plot_edges() {
    let data = dataset();
    let mut chart = nodes_chart(&data, &group(&data, "random_b4")).unwrap();
    let reference = chart
        .series
        .iter_mut()
        .find(|s| s.kind == SeriesKind::Reference)
        .unwrap();
    reference.points[0].y = 1e-6;
    reference.points.last_mut().unwrap().y = 1e30;
    let svg = render(&data, &chart);
    let (top, bottom) = svg.plot_edges();
    let points: Vec<(i32, i32)> = svg.lines("2", "1").concat();
    assert!(!points.is_empty());
    for p in points {
        assert!(p.1 >= top && p.1 <= bottom, "{p:?} outside {top}..{bottom}");
    }
}

/// An overlong footer (the machine summary reads from the left) keeps its start and is
/// cut at its end with an ellipsis.
#[test]
fn an_overlong_footer_is_cut_at_its_end() {
    let data = dataset();
    let chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    let long = format!("machine: {}END", "x86_64 core, ".repeat(40));
    let svg = render_with_footer(&chart, &long);
    let shown = svg
        .texts
        .iter()
        .map(|(_, t)| t)
        .find(|t| t.starts_with("machine: x86_64 core,"))
        .expect("the footer");
    assert!(shown.ends_with('…') && shown.len() < long.len(), "{shown}");
}

/// A label with a word too wide for a legend line is not wrapped (no line may spill out
/// of the legend): it is cut in the middle on one line, keeping both its ends.
#[test]
fn a_label_with_a_word_too_wide_for_a_line_is_cut_in_the_middle() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    chart.series[0].label = format!("short {} end", "w".repeat(60));
    let svg = render(&data, &chart);
    let shown = &svg.legend()[0];
    assert!(
        shown.starts_with("short w") && shown.contains('…') && shown.ends_with("w end"),
        "{shown}"
    );
}

/// Long y tick labels (20000000) get room beside the axis description: the plot moves
/// right, and the tick labels (right-aligned against the axis) with it.
#[test]
fn long_y_tick_labels_get_room() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    let tick_x = |top: f64, chart: &mut Chart| -> i32 {
        chart.y_scale = YScale::Linear {
            range: Some((0.0, top)),
        };
        attr(render(&data, chart).y_tick(), "x").parse().unwrap()
    };
    let short = tick_x(10.0, &mut chart);
    let long = tick_x(20_000_000.0, &mut chart);
    assert!(long > short, "ticks at {long} and {short}");
}

/// A legend label's later lines start further in (`LEGEND_MORE_X`), so they hold less than
/// its first line and still end inside the image: "mmmmmmm mmmmmmmm" (about 230 px at
/// 18 px) would fit a first line but not a later one, so after a first word it takes two
/// lines; a first word followed by one that wide alone cannot be wrapped at 18 px, and
/// the label is set smaller, on one line.
#[test]
fn later_legend_lines_are_indented_and_hold_less() {
    let data = dataset();
    let mut chart = cutoff_chart(&data, &group(&data, "connect4")).unwrap();
    let full = tick_font(&render(&data, &chart));
    let label = "mmmmmmmmmmmm mmmmmmm mmmmmmmm";
    chart.series[0].label = label.into();
    let svg = render(&data, &chart);
    assert_eq!(svg.legend()[0], label);
    let rows = svg.legend_rows();
    assert_eq!(rows[0].1, full);
    assert_eq!(rows[1].0 - rows[0].0, 20, "{rows:?}");
    assert_eq!(rows[2].0 - rows[1].0, 20, "three lines: {rows:?}");
    let label = "x mmmmmmmmmmmmmmm";
    chart.series[0].label = label.into();
    let svg = render(&data, &chart);
    assert_eq!(svg.legend()[0], label);
    let rows = svg.legend_rows();
    assert!(rows[0].1 < full, "{rows:?}");
    assert_eq!(rows[1].0 - rows[0].0, 30, "one line: {rows:?}");
}

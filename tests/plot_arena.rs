//! The Elo chart of a match: `plot_dir` on a directory holding the arena's standings.csv
//! (with or without searches.csv) writes elo.png and elo.svg, pairings without an Elo are
//! named in the footer, and a malformed standings.csv is an error naming the file and line.
//! An arena of a game with chance also gets points.png and points.svg from its points.csv,
//! whose damaged rows are refused in the same way.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use plylab::plot::arena::{Standing, StandingKind, elo_chart, read_standings};
use plylab::plot::chance::points_charts;
use plylab::plot::{Format, PlotError, elo_charts, plot_csv, plot_dir};

const HEADER: &str = "kind,player,opponent,games,wins,draws,losses,score,draw_ratio,elo,\
                      elo_lower,elo_upper,penta_elo,penta_elo_lower,penta_elo_upper,los,llr,sprt";

/// Two pairings with trinomial and pentanomial Elo, one at a 100% score (no Elo), and the
/// player rows the arena also writes.
const STANDINGS: &str = "\
pairing,alpha,beta,100,40,30,30,0.55,0.3,34.9,-20.1,90.2,34.9,-10.5,80.3,0.89,0.5,
pairing,alpha,gamma,40,40,0,0,1,0,,,,,,,1,,
pairing,beta,gamma,100,20,40,40,0.4,0.4,-70.4,-130.8,-10.2,,,,0.01,,
player,alpha,,140,80,30,30,0.68,0.21,130.5,70.1,200.9,,,,,,
player,beta,,200,50,70,80,0.43,0.35,-48.9,-90.2,-8.1,,,,,,
";

/// A fresh scratch directory under cargo's per-test temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A directory with `standings.csv` = header + `rows` and a run.json.
fn arena_dir(name: &str, rows: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::write(dir.join("standings.csv"), format!("{HEADER}\n{rows}")).unwrap();
    let run = r#"{"experiment": "gauntlet", "cpu_model": "Test CPU", "cores": 4}"#;
    std::fs::write(dir.join("run.json"), run).unwrap();
    dir
}

#[test]
fn standings_alone_give_the_elo_chart() {
    let dir = arena_dir("plot_arena_alone", STANDINGS);
    let report = plot_dir(&dir, &Format::ALL).unwrap();
    assert_eq!(report.files, vec![dir.join("elo.svg"), dir.join("elo.png")]);
    let png = std::fs::read(dir.join("elo.png")).unwrap();
    assert!(png.len() > 1000 && &png[1..4] == b"PNG");
    let svg = std::fs::read_to_string(dir.join("elo.svg")).unwrap();
    assert!(svg.len() > 1000);
    for text in [
        "alpha vs beta",
        "beta vs gamma",
        "gauntlet: Elo difference per pairing",
        "no Elo (undefined",
        "alpha vs gamma",
        "Test CPU",
    ] {
        assert!(svg.contains(text), "no `{text}` in elo.svg");
    }
    assert!(
        !svg.contains("alpha vs </text>"),
        "player rows are not pairings"
    );
}

#[test]
fn elo_charts_draws_nothing_without_standings() {
    let dir = scratch("plot_arena_none");
    assert!(elo_charts(&dir, &Format::ALL).unwrap().is_empty());
}

#[test]
fn plot_csv_on_standings_draws_into_another_dir() {
    let dir = arena_dir("plot_arena_csv", STANDINGS);
    let out = dir.join("charts");
    let report = plot_csv(&dir.join("standings.csv"), &out, &[Format::Svg]).unwrap();
    assert_eq!(report.files, vec![out.join("elo.svg")]);
}

#[test]
fn an_experiment_dir_with_standings_gets_both() {
    let dir = arena_dir("plot_arena_both", STANDINGS);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/plot/searches.csv");
    std::fs::copy(fixture, dir.join("searches.csv")).unwrap();
    let report = plot_dir(&dir, &[Format::Png]).unwrap();
    let names: Vec<String> = report
        .files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(names.contains(&"summary.md".to_string()), "{names:?}");
    assert_eq!(names.last().map(String::as_str), Some("elo.png"));
    assert!(names.len() > 3);
}

/// Plots `rows` as standings and returns the error and the files left in the directory.
fn plot_err(name: &str, rows: &str) -> (PlotError, usize) {
    let dir = arena_dir(name, rows);
    let err = plot_dir(&dir, &Format::ALL).unwrap_err();
    (err, std::fs::read_dir(&dir).unwrap().count())
}

#[test]
fn a_bad_number_names_file_line_and_column() {
    let rows = STANDINGS.replacen("-70.4", "minus seventy", 1);
    let (err, files) = plot_err("plot_arena_bad_number", &rows);
    assert!(
        matches!(&err, PlotError::BadNumber { line: 4, column, .. } if column == "elo"),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains("standings.csv line 4 column `elo`"), "{msg}");
    assert_eq!(files, 2, "nothing but standings.csv and run.json");
}

#[test]
fn a_short_row_names_file_and_line() {
    let rows = STANDINGS.replacen("pairing,alpha,gamma,40,40,0,0,1,0,", "pairing,alpha", 1);
    let (err, _) = plot_err("plot_arena_short_row", &rows);
    let msg = err.to_string();
    assert!(matches!(err, PlotError::Csv { .. }), "{err:?}");
    assert!(
        msg.contains("standings.csv") && msg.contains("line: 3"),
        "{msg}"
    );
}

#[test]
fn an_unknown_kind_is_refused() {
    let rows = STANDINGS.replacen("player,beta", "team,beta", 1);
    let (err, _) = plot_err("plot_arena_kind", &rows);
    let msg = err.to_string();
    assert!(
        msg.contains("`team` in ") && msg.contains("standings.csv line 6 column `kind`"),
        "{msg}"
    );
}

/// An interval that does not hold its estimate is a damaged file: it was drawn as an error
/// bar beside its point.
#[test]
fn an_interval_that_misses_its_elo_is_refused() {
    let rows = STANDINGS.replacen("34.9,-20.1,90.2", "34.9,50.1,90.2", 1);
    let (err, _) = plot_err("plot_arena_interval", &rows);
    let msg = err.to_string();
    assert!(
        msg.contains("standings.csv line 2 column `elo_lower`")
            && msg.contains("at most `elo`, 34.9"),
        "{msg}"
    );
}

#[test]
fn a_missing_column_is_named() {
    let dir = scratch("plot_arena_column");
    std::fs::write(dir.join("standings.csv"), "kind,player,opponent,elo\n").unwrap();
    let err = plot_dir(&dir, &[Format::Svg]).unwrap_err();
    assert!(
        matches!(&err, PlotError::MissingColumn { column, .. } if column == "elo_lower"),
        "{err:?}"
    );
}

/// points.csv of an arena of a game with chance (backgammon): the net points per game of
/// each pairing with its 95% interval, as the arena writes it.
const POINTS: &str = "\
player,opponent,games,pairs,wins,draws,losses,won_single,won_gammon,won_backgammon,lost_single,\
lost_gammon,lost_backgammon,points_per_game,ppg_lower,ppg_upper
pubeval,gnubg,1000,500,281,0,719,213,66,2,464,229,26,-0.6490,-0.7286,-0.5694
pubeval,race,1000,500,985,0,15,91,794,100,15,0,0,1.9640,1.9274,2.0006
race,gnubg,2,1,0,0,2,0,0,0,2,0,0,-1.0000,,
";

/// A directory with points.csv = `points`, standings.csv and a run.json.
fn points_dir(name: &str, points: &str) -> PathBuf {
    let dir = arena_dir(name, STANDINGS);
    std::fs::write(dir.join("points.csv"), points).unwrap();
    dir
}

#[test]
fn points_per_game_are_drawn_per_pairing() {
    let dir = points_dir("plot_arena_points", POINTS);
    let report = plot_dir(&dir, &Format::ALL).unwrap();
    for name in ["points.svg", "points.png", "elo.svg"] {
        assert!(report.files.contains(&dir.join(name)), "{name}: {report:?}");
    }
    let png = std::fs::read(dir.join("points.png")).unwrap();
    assert!(png.len() > 1000 && &png[1..4] == b"PNG");
    let svg = std::fs::read_to_string(dir.join("points.svg")).unwrap();
    for text in [
        "gauntlet: points per game per pairing, 95% intervals",
        "pubeval vs gnubg",
        "pubeval vs race",
        // A pairing without an interval (too few pairs) is drawn as its point.
        "race vs gnubg",
        "0 = even",
        "net points per game, player minus opponent",
        "data: points.csv",
        "Test CPU",
    ] {
        assert!(svg.contains(text), "no `{text}` in points.svg");
    }
    // Without points.csv (a game without chance) there is no points chart.
    std::fs::remove_file(dir.join("points.csv")).unwrap();
    assert!(points_charts(&dir, &Format::ALL).unwrap().is_empty());
}

#[test]
fn a_points_interval_that_misses_its_estimate_is_refused() {
    for (from, to, message) in [
        (
            "-0.6490,-0.7286",
            "-0.6490,-0.6000",
            "points.csv line 2 column `ppg_lower`",
        ),
        (
            "1.9640,1.9274,2.0006",
            "1.9640,1.9274,1.9000",
            "points.csv line 3 column `ppg_upper`",
        ),
        (
            "-1.0000,,",
            "minus one,,",
            "points.csv line 4 column `points_per_game`",
        ),
    ] {
        assert!(POINTS.contains(from), "{from}");
        let dir = points_dir("plot_arena_points_bad", &POINTS.replacen(from, to, 1));
        let err = points_charts(&dir, &[Format::Svg]).unwrap_err().to_string();
        assert!(err.contains(message), "{err}");
        assert!(!dir.join("points.svg").exists(), "{err}");
    }
}

/// A copy of the committed connect-four match (results/arena_connect4: `alphabeta`, `mcts`
/// and `flat_mc`, two games at once) with `mcts` on 4 threads, only the games whose pairing
/// `keep` accepts, and run.json's `facts` replaced; returns the summary.md that
/// `plylab plot` (`redraw`) writes from it.
fn redrawn_summary(name: &str, keep: fn(&str) -> bool, facts: serde_json::Value) -> String {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/arena_connect4");
    let dir = scratch(name);
    let mut games = String::new();
    plylab::compressed::open(&committed.join("games.csv"))
        .unwrap()
        .read_to_string(&mut games)
        .unwrap();
    let mut lines = games.lines();
    let mut kept = format!("{}\n", lines.next().unwrap());
    for line in lines.filter(|l| keep(l.split(',').nth(1).unwrap())) {
        kept.push_str(line);
        kept.push('\n');
    }
    std::fs::write(dir.join("games.csv"), kept).unwrap();
    let json = std::fs::read_to_string(committed.join("run.json")).unwrap();
    let mut run: serde_json::Value = serde_json::from_str(&json).unwrap();
    let text = run["text"].as_str().unwrap().to_owned();
    assert_eq!(text.matches("threads = 1").count(), 1, "{text}");
    run["text"] = text.replace("threads = 1", "threads = 4").into();
    for (key, value) in facts.as_object().unwrap() {
        run[key] = value.clone();
    }
    std::fs::write(dir.join("run.json"), run.to_string()).unwrap();
    plylab::arena::redraw::redraw(&dir).unwrap();
    std::fs::read_to_string(dir.join("summary.md")).unwrap()
}

/// The machine section of [`redrawn_summary`] with every game kept.
fn machine_section(name: &str, facts: serde_json::Value) -> String {
    let summary = redrawn_summary(name, |_| true, facts);
    summary.split("## Machine").nth(1).unwrap().to_owned()
}

/// summary.md calls timings oversubscribed exactly when the busy threads, games at once
/// times the most threads of a player (2 × 4 here), outnumber the cores; for a merged run,
/// when some shard's games times 4 outnumber that shard's cores, whatever the merged total.
/// It gives the match's CPU share, CPU / (wall-clock × the cores its games could use),
/// only where the wall-clock time is known. The committed matches all run as many threads
/// as cores, unmerged, so none of this was checked: `busy < cores` or `jobs / threads` for
/// a shard's busy threads passed every test.
#[test]
fn machine_section_flags_oversubscription_and_gives_the_cpu_share() {
    use serde_json::json;
    const FLAG: &str = "more than the cores: timings are oversubscribed";
    let m = machine_section("summary_8_of_16", json!({ "cores": 16, "jobs": 2 }));
    let busy = "(16 cores), 2 games at once, at most 4 search thread(s) per player: \
                8 busy thread(s).";
    assert!(m.contains(busy) && !m.contains(FLAG), "{m}");
    let m = machine_section("summary_8_of_8", json!({ "cores": 8, "jobs": 2 }));
    assert!(!m.contains(FLAG), "{m}");
    let m = machine_section("summary_8_of_4", json!({ "cores": 4, "jobs": 2 }));
    assert!(m.contains(FLAG), "{m}");
    let shard = |cores: usize| {
        json!({ "shard": "1/2", "dir": "s", "job_count": 300, "cpu_model": "CPU",
                "cores": cores, "jobs": 1, "date": "2026-01-01", "elapsed_s": 30.0 })
    };
    // Shards of one game on 4 threads: 4 and 8 cores hold them, 2 cores do not.
    let fits = json!({ "cores": 4, "jobs": 2, "merged_from": [shard(4), shard(8)] });
    let m = machine_section("summary_shards_fit", fits);
    assert!(
        m.contains("2 games at once in 2 shards") && !m.contains(FLAG),
        "{m}"
    );
    let over = json!({ "cores": 64, "jobs": 2, "merged_from": [shard(8), shard(2)] });
    assert!(machine_section("summary_shard_over", over).contains(FLAG));
    // 100 + 20 s of CPU in 60 s on the 2 cores that 2 games at once could use: 100%.
    let cpu = json!({ "cores": 16, "jobs": 2, "elapsed_s": 60.0, "cpu_s": [100.0, 20.0] });
    let m = machine_section("summary_cpu", cpu);
    let share = "The match used 120 s of CPU time (100.0 s in plylab, 20.0 s in external \
                 engines): 100% of the 2 core(s) its games could use";
    assert!(m.contains(share), "{m}");
    let no_clock = json!({ "cores": 16, "jobs": 2, "elapsed_s": null, "cpu_s": [100.0, 20.0] });
    let m = machine_section("summary_cpu_no_clock", no_clock);
    assert!(!m.contains("of CPU time"), "{m}");
}

/// A match stopped before some pairings played (here only `alphabeta` vs `mcts` has games)
/// still has a row for every pairing and player: the empty pairings' score, draws, Elo and
/// likelihood of superiority are dashes (not the ½ of no decisive game), and `flat_mc`,
/// which made no move, spent 0 nodes and 0 ms per move, with no mean depth. Nothing reads
/// NaN, as a mean over no moves would.
#[test]
fn pairings_without_games_show_dashes_not_nan() {
    let summary = redrawn_summary("summary_one_pairing", |p| p == "0", serde_json::json!({}));
    assert!(!summary.contains("NaN"), "{summary}");
    for empty in [
        "| alphabeta | flat_mc | 0 | 0 / 0 / 0 | — | — | — | — | — | — |",
        "| mcts | flat_mc | 0 | 0 / 0 / 0 | — | — | — | — | — | — |",
        "| flat_mc | 0 | 0 | 0.0 | — |",
    ] {
        assert!(summary.contains(empty), "no `{empty}` in\n{summary}");
    }
}

/// The standings read from a directory holding header + `rows`.
fn standings_of(name: &str, rows: &str) -> Vec<Standing> {
    let dir = arena_dir(name, rows);
    let standings = read_standings(&dir.join("standings.csv")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    standings
}

/// Pairing and player rows keep their kind: only pairings are drawn.
#[test]
fn player_rows_are_read_as_players() {
    use StandingKind::{Pairing, Player};
    let kinds: Vec<StandingKind> = standings_of("plot_arena_kinds", STANDINGS)
        .iter()
        .map(|s| s.kind)
        .collect();
    assert_eq!(kinds, [Pairing, Pairing, Pairing, Player, Player]);
}

/// An interval end on its estimate holds it: a degenerate interval is read, not refused.
#[test]
fn an_interval_end_equal_to_its_elo_is_kept() {
    let rows = STANDINGS.replacen("34.9,-20.1,90.2", "34.9,34.9,34.9", 1);
    let first = &standings_of("plot_arena_degenerate", &rows)[0];
    let tri = first.trinomial.unwrap();
    assert_eq!((tri.elo, tri.interval), (34.9, Some((34.9, 34.9))));
}

/// An upper end below its estimate is a damaged file, as a lower end above it is.
#[test]
fn an_upper_end_below_its_elo_is_refused() {
    let rows = STANDINGS.replacen("-70.4,-130.8,-10.2", "-70.4,-130.8,-80.2", 1);
    let dir = arena_dir("plot_arena_upper", &rows);
    let msg = plot_dir(&dir, &[Format::Svg]).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        msg.contains("standings.csv line 4 column `elo_upper`")
            && msg.contains("at least `elo`, -70.4"),
        "{msg}"
    );
}

/// One empty interval end beside a defined one is an interval without a bound on that
/// side (infinite), and the chart's x label explains the bar to the edge; both ends empty
/// is no interval, and no such explanation.
#[test]
fn an_interval_with_one_empty_end_is_unbounded_on_that_side() {
    let rows = STANDINGS.replacen("-70.4,-130.8,-10.2", "-70.4,,-10.2", 1);
    let standings = standings_of("plot_arena_one_sided", &rows);
    let beta = standings[2].trinomial.unwrap();
    assert_eq!(beta.interval, Some((f64::NEG_INFINITY, -10.2)));
    let (chart, _) = elo_chart("m", &standings);
    assert!(
        chart
            .x_label
            .contains("a bar to the edge: no bound that side")
    );
    let rows = STANDINGS.replacen("-70.4,-130.8,-10.2", "-70.4,,", 1);
    let standings = standings_of("plot_arena_no_interval", &rows);
    assert_eq!(standings[2].trinomial.unwrap().interval, None);
    let (chart, _) = elo_chart("m", &standings);
    assert!(!chart.x_label.contains("edge"), "{}", chart.x_label);
}

/// The zero line runs half a place beyond the first and the last drawn pairing, and over
/// one place when no pairing could be drawn.
#[test]
fn the_zero_line_spans_the_pairings_and_half_a_place_more() {
    let ends = |rows: &str, name: &str| {
        let (chart, _) = elo_chart("m", &standings_of(name, rows));
        let zero = chart.series.last().unwrap();
        assert!(zero.points.iter().all(|p| p.y == 0.0));
        zero.points.iter().map(|p| p.x).collect::<Vec<_>>()
    };
    assert_eq!(ends(STANDINGS, "plot_arena_zero"), [0.5, 2.5]);
    let undefined = "pairing,alpha,gamma,40,40,0,0,1,0,,,,,,,1,,\n";
    assert_eq!(ends(undefined, "plot_arena_zero_none"), [0.5, 1.5]);
}

/// The footer names every pairing without an Elo, separated by commas.
#[test]
fn the_footer_lists_every_pairing_without_an_elo() {
    let rows = format!("{STANDINGS}pairing,beta,delta,10,0,0,10,0,0,,,,,,,0,,\n");
    let dir = arena_dir("plot_arena_two_undefined", &rows);
    plot_dir(&dir, &[Format::Svg]).unwrap();
    let svg = std::fs::read_to_string(dir.join("elo.svg")).unwrap();
    assert!(svg.contains("alpha vs gamma, beta vs delta"), "{svg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without run.json the chart is titled after the match's directory.
#[test]
fn without_run_json_the_chart_is_named_after_its_directory() {
    let dir = arena_dir("plot_arena_unnamed", STANDINGS);
    std::fs::remove_file(dir.join("run.json")).unwrap();
    plot_dir(&dir, &[Format::Svg]).unwrap();
    let svg = std::fs::read_to_string(dir.join("elo.svg")).unwrap();
    assert!(
        svg.contains("plot_arena_unnamed: Elo difference per pairing"),
        "{svg}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A format asked for twice is drawn once.
#[test]
fn a_format_given_twice_gives_one_chart() {
    let dir = arena_dir("plot_arena_twice", STANDINGS);
    let out = dir.join("charts");
    let report = plot_csv(
        &dir.join("standings.csv"),
        &out,
        &[Format::Svg, Format::Svg],
    )
    .unwrap();
    assert_eq!(report.files, vec![out.join("elo.svg")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

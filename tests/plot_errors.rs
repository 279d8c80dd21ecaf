//! Bad input gives a clear error naming the file and the problem, never a panic or an
//! empty picture.

use std::path::{Path, PathBuf};

use plylab::plot::{Format, PlotError, plot_csv, plot_dir};

fn fixture_text() -> String {
    let csv = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/plot/searches.csv");
    std::fs::read_to_string(csv).unwrap()
}

/// Writes `text` as `searches.csv` in a fresh directory and returns the directory.
fn dir_with(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("searches.csv"), text).unwrap();
    dir
}

/// Plots `text` and returns the error and the number of files left in the directory.
fn plot_err(name: &str, text: &str) -> (PlotError, usize) {
    let dir = dir_with(name, text);
    let err = plot_dir(&dir, &Format::ALL).unwrap_err();
    (err, std::fs::read_dir(&dir).unwrap().count())
}

/// The fixture with column `column` removed from every line.
fn without_column(column: &str) -> String {
    let text = fixture_text();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let index = header.iter().position(|h| *h == column).unwrap();
    text.lines()
        .map(|line| {
            let mut cells: Vec<&str> = line.split(',').collect();
            cells.remove(index);
            cells.join(",") + "\n"
        })
        .collect()
}

#[test]
fn missing_column_is_named() {
    let (err, files) = plot_err("plot_err_missing", &without_column("leaf_nodes"));
    assert!(matches!(&err, PlotError::MissingColumn { column, .. } if column == "leaf_nodes"));
    let msg = err.to_string();
    assert!(msg.starts_with("missing column `leaf_nodes` in "), "{msg}");
    assert!(msg.contains("searches.csv"), "{msg}");
    assert_eq!(files, 1, "nothing but the CSV may be written");
}

#[test]
fn header_only_has_no_rows() {
    let header = fixture_text().lines().next().unwrap().to_string() + "\n";
    let (err, files) = plot_err("plot_err_norows", &header);
    assert!(matches!(err, PlotError::NoRows { .. }));
    assert!(
        err.to_string().ends_with("searches.csv has no rows"),
        "{err}"
    );
    assert_eq!(files, 1);
}

#[test]
fn empty_file_reports_the_first_missing_column() {
    let (err, _) = plot_err("plot_err_empty", "");
    assert!(matches!(&err, PlotError::MissingColumn { column, .. } if column == "game"));
}

#[test]
fn unreadable_number_gives_line_and_column() {
    let text = fixture_text();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Line 4 of the file: the third data row. Column `nodes` is the 13th.
    let mut cells: Vec<&str> = lines[3].split(',').collect();
    cells[12] = "12x";
    lines[3] = cells.join(",");
    let (err, _) = plot_err("plot_err_number", &(lines.join("\n") + "\n"));
    let msg = err.to_string();
    assert!(
        matches!(&err, PlotError::BadNumber { line: 4, column, value, .. }
            if column == "nodes" && value == "12x"),
        "{msg}"
    );
    assert!(msg.contains("searches.csv line 4 column `nodes`"), "{msg}");
}

/// The first data row is line 2: csv's own record positions said line 1 for the first row
/// of a real searches.csv (tests/data/plot/nan_first_row.csv: its header and two rows, a
/// NaN in the first row's `nodes`), so every error named the line above.
#[test]
fn an_unreadable_first_row_is_line_two() {
    let text = include_str!("data/plot/nan_first_row.csv");
    let (err, _) = plot_err("plot_err_first_row", text);
    assert!(
        matches!(&err, PlotError::BadNumber { line: 2, column, .. } if column == "nodes"),
        "{err}"
    );
}

#[test]
fn empty_required_number_is_unreadable() {
    let text = fixture_text();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let col = lines[0].split(',').position(|h| h == "leaf_nodes").unwrap();
    let mut cells: Vec<&str> = lines[1].split(',').collect();
    cells[col] = "";
    lines[1] = cells.join(",");
    let (err, _) = plot_err("plot_err_blank", &(lines.join("\n") + "\n"));
    assert!(
        matches!(&err, PlotError::BadNumber { line: 2, column, value, .. }
            if column == "leaf_nodes" && value.is_empty()),
        "{err}"
    );
}

/// A negative count, time or ratio, a fractional count or thread count, a rate above 1, a
/// depth no search reaches, a seed that is not one, an unknown game or an empty searcher is
/// a damaged file: it was drawn without complaint (a negative `nodes` even on a log axis).
#[test]
fn impossible_measurements_are_bad_values() {
    let text = fixture_text();
    let header: Vec<String> = text
        .lines()
        .next()
        .unwrap()
        .split(',')
        .map(String::from)
        .collect();
    for (column, value, expected) in [
        ("nodes", "-5", "a number at least 0"),
        ("leaf_nodes", "-1", "a number at least 0"),
        ("ebf", "-2.5", "a number at least 0"),
        ("elapsed_s", "-0.001", "a number at least 0"),
        ("threads", "0", "a whole number from 1"),
        ("threads", "1.5", "a whole number from 1"),
        ("depth", "4294967295", "a depth of 0 to 5000 plies"),
        ("nodes", "564.5", "a whole number at least 0"),
        ("nodes", "1e23", "a whole number at least 0"),
        ("first_move_cutoff_rate", "2.5", "a rate from 0 to 1"),
        ("seed", "notaseed", "a whole number at least 0"),
        ("repetition", "-1", "a whole number at least 0"),
        ("searcher", "", "a searcher's label"),
        ("game", "chezz", &plylab::games::NAMES.join(", ")),
    ] {
        let col = header.iter().position(|h| h == column).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut cells: Vec<&str> = lines[2].split(',').collect();
        cells[col] = value;
        lines[2] = cells.join(",");
        let (err, files) = plot_err("plot_err_negative", &(lines.join("\n") + "\n"));
        assert!(
            matches!(&err, PlotError::BadValue { line: 3, column: c, value: v, expected: e, .. }
                if c == column && v == value && e == expected),
            "{column} {value}: {err}"
        );
        assert_eq!(files, 1, "nothing but the CSV may be written");
    }
}

/// Where searchers.csv describes the run's searchers, a row of another searcher is from
/// another run: its parallel ratios and thread count would quietly be left out.
#[test]
fn a_searcher_missing_from_searchers_csv_is_named() {
    let dir = dir_with("plot_err_searchers", &fixture_text());
    std::fs::write(dir.join("searchers.csv"), "searcher,threads\nnobody,1\n").unwrap();
    let err = plot_dir(&dir, &Format::ALL).unwrap_err();
    assert!(matches!(err, PlotError::Inconsistent { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("is not in") && msg.contains("searchers.csv beside it"),
        "{msg}"
    );
}

#[test]
fn ragged_row_is_a_csv_error() {
    let text = fixture_text() + "ordering,random_tree\n";
    let (err, _) = plot_err("plot_err_ragged", &text);
    assert!(matches!(err, PlotError::Csv { .. }), "{err}");
    assert!(err.to_string().contains("searches.csv"));
}

#[test]
fn extra_and_reordered_columns_are_fine() {
    let text = fixture_text();
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let mut cells: Vec<&str> = line.split(',').collect();
        cells.reverse();
        let extra = if i == 0 { "future_column" } else { "whatever" };
        out.push_str(&format!("{extra},{}\n", cells.join(",")));
    }
    let dir = dir_with("plot_ok_reordered", &out);
    let report = plot_csv(&dir.join("searches.csv"), &dir, &[Format::Svg]).unwrap();
    assert_eq!(report.files.len(), 13);
}

#[test]
fn missing_csv_is_an_io_error_naming_it() {
    let err = plot_csv(
        Path::new("/nonexistent/plylab/searches.csv"),
        Path::new("/tmp"),
        &[],
    )
    .unwrap_err();
    assert!(matches!(err, PlotError::Io { .. }));
    assert!(
        err.to_string().contains("/nonexistent/plylab/searches.csv"),
        "{err}"
    );
}

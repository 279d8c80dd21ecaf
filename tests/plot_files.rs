//! End-to-end: `plot_dir` and `plot_csv` on the committed fixture write every expected file.

use std::path::{Path, PathBuf};

use plylab::plot::{Format, PlotError, plot_csv, plot_dir};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/plot")
}

/// A fresh scratch directory under cargo's per-test temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn names(files: &[PathBuf]) -> Vec<String> {
    let mut n: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

#[test]
fn plot_dir_writes_all_charts_and_summary() {
    let dir = scratch("plot_dir_all");
    for f in ["searches.csv", "run.json"] {
        std::fs::copy(fixture().join(f), dir.join(f)).unwrap();
    }
    let report = plot_dir(&dir, &Format::ALL).unwrap();
    let mut want = Vec::new();
    for group in ["random_b2", "random_b4", "tictactoe", "connect4"] {
        for chart in ["nodes", "ebf", "cutoff"] {
            for ext in ["png", "svg"] {
                want.push(format!("{chart}_{group}.{ext}"));
            }
        }
    }
    want.push("summary.md".into());
    want.sort();
    assert_eq!(names(&report.files), want);
    for f in &report.files {
        let len = std::fs::metadata(f).unwrap().len();
        assert!(len > 1000, "{} is only {len} bytes", f.display());
    }
    let png = std::fs::read(dir.join("nodes_random_b4.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}

#[test]
fn plot_csv_writes_into_another_dir_and_tolerates_missing_run_json() {
    let out = scratch("plot_csv_svg");
    let src = scratch("plot_csv_src");
    std::fs::copy(fixture().join("searches.csv"), src.join("searches.csv")).unwrap();
    let report = plot_csv(
        &src.join("searches.csv"),
        &out.join("charts"),
        &[Format::Svg],
    )
    .unwrap();
    assert_eq!(report.files.len(), 13);
    assert!(
        report
            .files
            .iter()
            .all(|f| f.starts_with(out.join("charts")))
    );
    let svg = std::fs::read_to_string(out.join("charts/ebf_random_b2.svg")).unwrap();
    assert!(svg.contains("machine unknown: no readable run.json"));
    let summary = std::fs::read_to_string(out.join("charts/summary.md")).unwrap();
    assert!(summary.contains("(nodes_random_b2.svg)"));
}

#[test]
fn missing_directory_names_the_file() {
    let dir = scratch("plot_dir_empty");
    let err = plot_dir(&dir, &[Format::Png]).unwrap_err();
    assert!(matches!(err, PlotError::Io { .. }));
    assert!(err.to_string().contains("searches.csv"), "{err}");
}

/// Charts in both formats are written whole, through a temporary file renamed over the old
/// chart, never rewritten in place: a second name (hard link) of an old chart still reads
/// the old bytes afterwards, and a temporary file a killed writer left (`<chart>.<pid>.tmp`
/// of a process that is gone) is removed.
#[cfg(unix)]
#[test]
fn charts_replace_the_old_ones_whole() {
    let dir = scratch("plot_dir_replace");
    for f in ["searches.csv", "run.json"] {
        std::fs::copy(fixture().join(f), dir.join(f)).unwrap();
    }
    let keep = scratch("plot_dir_replace_links");
    for ext in ["png", "svg"] {
        let chart = dir.join(format!("nodes_random_b4.{ext}"));
        std::fs::write(&chart, "old").unwrap();
        std::fs::hard_link(&chart, keep.join(format!("old.{ext}"))).unwrap();
        // A process id no process has (above Linux's largest, 2^22).
        std::fs::write(
            dir.join(format!("nodes_random_b4.{ext}.999999999.tmp")),
            "torn",
        )
        .unwrap();
    }
    plot_dir(&dir, &Format::ALL).unwrap();
    for ext in ["png", "svg"] {
        let old = std::fs::read(keep.join(format!("old.{ext}"))).unwrap();
        assert!(old == b"old", "the {ext} chart was rewritten in place");
        let new = std::fs::metadata(dir.join(format!("nodes_random_b4.{ext}"))).unwrap();
        assert!(
            new.len() > 1000,
            "the new {ext} chart is {} bytes",
            new.len()
        );
        let orphan = dir.join(format!("nodes_random_b4.{ext}.999999999.tmp"));
        assert!(!orphan.exists(), "{} is left", orphan.display());
    }
}

//! The rows of one experiment, split into the groups that get their own charts and tables.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::data::{RunInfo, SearchRow, read_searches};
use super::error::PlotError;
use super::stats::Stats;

/// The x-axis label shared by the per-depth charts.
pub const DEPTH_LABEL: &str = "iteration depth (plies)";

/// The game name of synthetic random trees in `searches.csv`.
pub const RANDOM_TREE: &str = "random_tree";

/// Everything read for one experiment: the CSV rows and the run metadata.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The CSV file the rows came from.
    pub source: PathBuf,
    /// The experiment name (from the CSV, else run.json, else the directory name).
    pub experiment: String,
    /// All rows, in file order.
    pub rows: Vec<SearchRow>,
    /// Searcher labels in order of first appearance (the order of the experiment file).
    pub searchers: Vec<String>,
    /// Machine and provenance facts.
    pub run: RunInfo,
}

impl Dataset {
    /// Reads `csv` and the `run.json` beside it.
    ///
    /// # Errors
    /// Any error of [`read_searches`].
    pub fn load(csv: &Path) -> Result<Self, PlotError> {
        let rows = read_searches(csv)?;
        let dir = csv.parent().unwrap_or_else(|| Path::new("."));
        let run = RunInfo::read(&dir.join("run.json"));
        Ok(Self::from_rows(csv, rows, run))
    }

    /// Builds a dataset from rows already read.
    #[must_use]
    pub fn from_rows(source: &Path, rows: Vec<SearchRow>, run: RunInfo) -> Self {
        let mut searchers: Vec<String> = Vec::new();
        for row in &rows {
            if !searchers.contains(&row.searcher) {
                searchers.push(row.searcher.clone());
            }
        }
        let experiment = rows
            .iter()
            .map(|r| r.experiment.as_str())
            .find(|e| !e.is_empty())
            .map(str::to_string)
            .or_else(|| run.experiment.clone())
            .unwrap_or_else(|| dir_name(source));
        Self {
            source: source.to_path_buf(),
            experiment,
            rows,
            searchers,
            run,
        }
    }

    /// The chart groups: random trees by branching factor (ascending), then each game in
    /// order of first appearance.
    #[must_use]
    pub fn groups(&self) -> Vec<Group<'_>> {
        let mut random: BTreeMap<(u64, bool), Group<'_>> = BTreeMap::new();
        let mut games: Vec<Group<'_>> = Vec::new();
        // Monte Carlo rows have no depths: their section is `parallel`'s. A row at depth 0
        // is a search that completed no iteration: counted by the test-set sections, but
        // with no depth to be drawn at.
        for row in self
            .rows
            .iter()
            .filter(|r| r.playouts.is_none() && r.depth > 0)
        {
            match (row.game == RANDOM_TREE, row.branching) {
                (true, Some(b)) => {
                    let incremental = is_incremental_tree(&row.position);
                    random
                        .entry((b.to_bits(), incremental))
                        .or_insert_with(|| self.group(GroupKind::RandomTree { b, incremental }))
                        .rows
                        .push(row);
                }
                _ => match games.iter_mut().find(|g| g.is_game(&row.game)) {
                    Some(g) => g.rows.push(row),
                    None => {
                        let mut g = self.group(GroupKind::Game {
                            name: row.game.clone(),
                        });
                        g.rows.push(row);
                        games.push(g);
                    }
                },
            }
        }
        let mut groups: Vec<Group<'_>> = random.into_values().collect();
        // By b, the i.i.d. model before the incremental one (the sort is stable).
        groups.sort_by(|a, b| a.branching().total_cmp(&b.branching()));
        groups.extend(games);
        groups
    }

    fn group(&self, kind: GroupKind) -> Group<'_> {
        Group {
            kind,
            rows: Vec::new(),
            searchers: &self.searchers,
        }
    }
}

/// Whether a random tree's position text (`b=4 d=8 seed=1 model=incremental`) is of the
/// incremental model; i.i.d. is the default.
fn is_incremental_tree(position: &str) -> bool {
    position
        .split([' ', ','])
        .any(|word| word == "model=incremental")
}

fn dir_name(path: &Path) -> String {
    path.parent()
        .and_then(Path::file_name)
        .map_or_else(|| "experiment".into(), |n| n.to_string_lossy().into_owned())
}

/// What a group of rows is.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupKind {
    /// Uniform random trees of branching factor `b`.
    RandomTree {
        /// The branching factor.
        b: f64,
        /// Trees of the incremental model (values summed along the path) rather than i.i.d.
        /// leaves: apart, since the two grow different trees, and Pearl's asymptotic
        /// branching factor is the i.i.d. model's.
        incremental: bool,
    },
    /// The positions of one game.
    Game {
        /// The game name.
        name: String,
    },
}

/// Rows that share one set of charts: one random-tree branching factor, or one game.
#[derive(Clone, Debug)]
pub struct Group<'a> {
    /// What the rows are.
    pub kind: GroupKind,
    /// The rows, in file order.
    pub rows: Vec<&'a SearchRow>,
    searchers: &'a [String],
}

impl Group<'_> {
    fn is_game(&self, game: &str) -> bool {
        matches!(&self.kind, GroupKind::Game { name } if name == game)
    }

    /// The file-name stem of the group's charts: `random_b4`, `tictactoe`.
    #[must_use]
    pub fn stem(&self) -> String {
        match &self.kind {
            GroupKind::RandomTree { b, incremental } => format!(
                "random_b{}{}",
                fmt_plain(*b),
                if *incremental { "_incremental" } else { "" }
            ),
            GroupKind::Game { name } => name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect(),
        }
    }

    /// A human label: `random trees, b = 4`, `tictactoe`.
    #[must_use]
    pub fn label(&self) -> String {
        match &self.kind {
            GroupKind::RandomTree { b, incremental } => format!(
                "random trees, b = {}{}",
                fmt_plain(*b),
                if *incremental {
                    ", incremental model"
                } else {
                    ""
                }
            ),
            GroupKind::Game { name } => name.clone(),
        }
    }

    /// `b` for random trees; the mean of the `branching` column (mean legal moves) for games,
    /// or NaN if that column is empty throughout.
    #[must_use]
    pub fn branching(&self) -> f64 {
        match &self.kind {
            GroupKind::RandomTree { b, .. } => *b,
            GroupKind::Game { .. } => {
                let values: Vec<f64> = self.rows.iter().filter_map(|r| r.branching).collect();
                Stats::of(&values).map_or(f64::NAN, |s| s.mean)
            }
        }
    }

    /// Whether the group holds random trees.
    #[must_use]
    pub fn is_random_tree(&self) -> bool {
        matches!(self.kind, GroupKind::RandomTree { .. })
    }

    /// Searchers present in the group, in experiment order.
    #[must_use]
    pub fn searchers(&self) -> Vec<&str> {
        self.searchers
            .iter()
            .filter(|s| self.rows.iter().any(|r| &r.searcher == *s))
            .map(String::as_str)
            .collect()
    }

    /// The distinct depths of the group, ascending.
    #[must_use]
    pub fn depths(&self) -> Vec<u32> {
        let mut d: Vec<u32> = self.rows.iter().map(|r| r.depth).collect();
        d.sort_unstable();
        d.dedup();
        d
    }

    /// The rows of one searcher.
    pub fn rows_of<'s>(&'s self, searcher: &'s str) -> impl Iterator<Item = &'s SearchRow> {
        self.rows
            .iter()
            .copied()
            .filter(move |r| r.searcher == searcher)
    }

    /// Where the positions behind the per-depth means change: `(depth, before, after)` for
    /// each depth whose count of rows differs from the previous depth's, counting at each
    /// depth the searcher with the most rows there. A mean over depths is over the same
    /// positions only where this is empty: in a game, positions whose search ends (a proven
    /// result, a budget spent) before a depth drop out of the means from there on, which
    /// can make a curve dip where only the set changed (issue 19, point 6).
    #[must_use]
    pub fn set_changes(&self) -> Vec<(u32, usize, usize)> {
        let mut counts: BTreeMap<u32, BTreeMap<&str, usize>> = BTreeMap::new();
        for row in &self.rows {
            *counts
                .entry(row.depth)
                .or_default()
                .entry(row.searcher.as_str())
                .or_default() += 1;
        }
        let widest: Vec<(u32, usize)> = counts
            .into_iter()
            .map(|(d, by)| (d, by.into_values().max().unwrap_or(0)))
            .collect();
        widest
            .windows(2)
            .filter(|w| w[0].1 != w[1].1)
            .map(|w| (w[1].0, w[0].1, w[1].1))
            .collect()
    }

    /// The depth axis's label: [`DEPTH_LABEL`], and where the
    /// positions behind the means change ([`Self::set_changes`]), that too.
    #[must_use]
    pub fn depth_label(&self) -> String {
        let changes = self.set_changes();
        if changes.is_empty() {
            return DEPTH_LABEL.to_owned();
        }
        let shown: Vec<String> = changes
            .iter()
            .take(4)
            .map(|(d, a, b)| format!("{d}: {a}→{b}"))
            .collect();
        let more = if changes.len() > 4 { ", …" } else { "" };
        format!(
            "{}; positions per depth change at {}{more}",
            DEPTH_LABEL,
            shown.join(", ")
        )
    }

    /// Statistics of `value` over the rows of `searcher`, per depth (ascending); depths where
    /// `value` is empty on every row are left out.
    pub fn per_depth(
        &self,
        searcher: &str,
        value: impl Fn(&SearchRow) -> Option<f64>,
    ) -> Vec<(u32, Stats)> {
        self.values_per_depth(searcher, value)
            .into_iter()
            .filter_map(|(d, v)| Stats::of(&v).map(|s| (d, s)))
            .collect()
    }

    /// The values of `searcher`'s rows by depth, in row order.
    #[must_use]
    pub fn values_per_depth(
        &self,
        searcher: &str,
        value: impl Fn(&SearchRow) -> Option<f64>,
    ) -> BTreeMap<u32, Vec<f64>> {
        let mut by_depth: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
        for row in self.rows_of(searcher) {
            if let Some(v) = value(row) {
                by_depth.entry(row.depth).or_default().push(v);
            }
        }
        by_depth
    }
}

/// Formats a number without trailing zeros: `4`, `2.5`, `0.333`.
#[must_use]
pub fn fmt_plain(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of `game` at `depth` for `searcher`, on `position`.
    fn row(game: &str, position: &str, searcher: &str, depth: u32) -> SearchRow {
        SearchRow {
            game: game.into(),
            position: position.into(),
            searcher: searcher.into(),
            depth,
            ..SearchRow::default()
        }
    }

    fn dataset(rows: Vec<SearchRow>) -> Dataset {
        Dataset::from_rows(
            Path::new("runs/mine/searches.csv"),
            rows,
            RunInfo::default(),
        )
    }

    /// `fmt_plain`'s own examples: `4`, `2.5`, `0.333` (a third, to three places).
    #[test]
    fn plain_numbers_drop_their_trailing_zeros() {
        assert_eq!(fmt_plain(4.0), "4");
        assert_eq!(fmt_plain(2.5), "2.5");
        assert_eq!(fmt_plain(1.0 / 3.0), "0.333");
        assert_eq!(fmt_plain(-0.25), "-0.25");
    }

    /// The experiment's name comes "from the CSV, else run.json, else the directory name"
    /// (`Dataset::experiment`), and the searchers are in order of first appearance.
    #[test]
    fn the_experiment_is_named_by_the_csv_then_run_json_then_the_directory() {
        let named = |csv: &str, run: Option<&str>| {
            let rows = ["b", "a", "b"]
                .into_iter()
                .map(|s| SearchRow {
                    experiment: csv.into(),
                    ..row("connect4", "start", s, 1)
                })
                .collect();
            let run = RunInfo {
                experiment: run.map(str::to_string),
                ..RunInfo::default()
            };
            Dataset::from_rows(Path::new("runs/mine/searches.csv"), rows, run)
        };
        let data = named("ordering", Some("other"));
        assert_eq!(data.experiment, "ordering");
        assert_eq!(data.searchers, ["b", "a"]);
        assert_eq!(named("", Some("other")).experiment, "other");
        assert_eq!(named("", None).experiment, "mine");
    }

    /// Rows with no depth to be drawn at belong to no group (`Dataset::groups`): a Monte
    /// Carlo row (it has playouts) and a search that completed no iteration (depth 0).
    /// Groups are random trees by b ascending, the i.i.d. model before the incremental
    /// one, then the games in order of first appearance; a game's branching is the mean
    /// of its `branching` column: (7 + 5) / 2 = 6.
    #[test]
    fn groups_hold_the_drawable_rows_in_their_documented_order() {
        let mc = SearchRow {
            playouts: Some(1000.0),
            ..row("tictactoe", "start", "mc", 3)
        };
        let rows = vec![
            SearchRow {
                branching: Some(7.0),
                ..row("tictactoe", "start", "ab", 1)
            },
            row("tictactoe", "start", "ab", 0),
            mc,
            SearchRow {
                branching: Some(8.0),
                ..row(RANDOM_TREE, "b=8 d=2 seed=1", "ab", 2)
            },
            row("connect4", "start", "ab", 1),
            SearchRow {
                branching: Some(2.0),
                ..row(RANDOM_TREE, "b=2 d=2 seed=1 model=incremental", "ab", 2)
            },
            SearchRow {
                branching: Some(2.0),
                ..row(RANDOM_TREE, "b=2 d=2 seed=1", "ab", 2)
            },
            SearchRow {
                branching: Some(5.0),
                ..row("tictactoe", "other", "ab", 2)
            },
        ];
        let data = dataset(rows);
        let groups = data.groups();
        let stems: Vec<String> = groups.iter().map(Group::stem).collect();
        assert_eq!(
            stems,
            [
                "random_b2",
                "random_b2_incremental",
                "random_b8",
                "tictactoe",
                "connect4"
            ]
        );
        let tictactoe = &groups[3];
        assert_eq!(tictactoe.depths(), [1, 2]);
        assert_eq!(tictactoe.searchers(), ["ab"]);
        assert!((tictactoe.branching() - 6.0).abs() < 1e-12);
        assert!(groups[4].branching().is_nan());
    }

    /// The depth label names where the positions per depth change (`depth_label`), and
    /// says `…` exactly when it leaves one out: every change named, or an ellipsis. With
    /// n positions at depth 1 and one fewer at each depth after, the changes are
    /// (d, n - d + 2, n - d + 1) for d = 2..=n.
    #[test]
    fn the_depth_label_names_the_set_changes_or_says_it_left_some_out() {
        for n in 2..=7u32 {
            let mut rows = Vec::new();
            for p in 1..=n {
                // Position p reaches depth n - p + 1: n of them at depth 1, one at depth n.
                for depth in 1..=n - p + 1 {
                    rows.push(row("connect4", &format!("p{p}"), "ab", depth));
                }
            }
            let data = dataset(rows);
            let group = &data.groups()[0];
            let want: Vec<(u32, usize, usize)> = (2..=n)
                .map(|d| (d, (n - d + 2) as usize, (n - d + 1) as usize))
                .collect();
            assert_eq!(group.set_changes(), want);
            let label = group.depth_label();
            assert!(label.starts_with(DEPTH_LABEL), "{label}");
            let named = want
                .iter()
                .filter(|(d, a, b)| label.contains(&format!("{d}: {a}→{b}")))
                .count();
            assert!(named > 0, "{label}");
            assert_eq!(label.ends_with(", …"), named < want.len(), "{label}");
        }
    }
}

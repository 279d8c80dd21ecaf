//! summary.md: the key figures of an experiment as markdown tables, with links to the charts.
//!
//! The text depends only on the CSV rows, run.json and the chart list, so it is
//! deterministic and can be snapshot-tested.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Format;
use super::chart::Chart;
use super::data::SearchRow;
use super::format::{
    cell, chart_links, dash, fmt_count, fmt_integer, fmt_percent, fmt_ratio, fmt_seconds, mean,
};
use super::model::{Dataset, Group, fmt_plain};
use super::stats::{Stats, integral, minimal_leaves, pearl_r};

/// Depth from which EBF measurements are taken as near-asymptotic.
pub const DEEP: u32 = 8;

/// The whole summary.md text. Images are linked in `format` (none if `None`).
#[must_use]
pub fn render(data: &Dataset, charts: &[Chart], format: Option<Format>) -> String {
    let mut out = header(data);
    out.push_str(&super::sets::sections(data, charts, format));
    out.push_str(&super::parallel::sections(data, charts, format));
    for group in data.groups() {
        out.push_str(&group_section(&group, charts, format));
    }
    out
}

fn header(data: &Dataset) -> String {
    let searchers: Vec<String> = data.searchers.iter().map(|s| format!("`{s}`")).collect();
    let file = data
        .source
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let command = data.run.command.as_ref().map_or_else(String::new, |c| {
        format!(
            "- Regenerate: `{c}`{}\n",
            super::data::merged_note(data.run.shards)
        )
    });
    format!(
        "# Experiment `{}`\n\n\
         - Machine: {}\n\
         - Data: `{file}`, {} rows\n\
         {command}\
         - Searchers: {}\n\n\
         Figures are means over positions, trees, seeds and repetitions; in brackets the \
         mean's 95% Student t interval over the same, a lower end below 0 shown as 0 (see \
         EXPERIMENTS.md, \"Statistics\"). \
         Node counts also as geometric means and medians, which a few costly positions do \
         not dominate; `ebf`, a ratio, as a geometric mean; nodes/s as all nodes over all \
         seconds, which an iteration of a few microseconds does not dominate.\n{}",
        data.experiment,
        data.run.footer(),
        data.rows.len(),
        searchers.join(", "),
        description_and_notes(data),
    )
}

/// The experiment's description and notes from run.json, if any.
fn description_and_notes(data: &Dataset) -> String {
    let mut out = String::new();
    if let Some(d) = &data.run.description {
        out.push_str(&format!("\n{d}\n"));
    }
    if let Some(n) = &data.run.notes {
        out.push_str(&format!("\n{}\n", n.trim()));
    }
    out
}

fn group_section(group: &Group<'_>, charts: &[Chart], format: Option<Format>) -> String {
    let mut out = format!("\n## {}\n\n", capitalised(&group.label()));
    out.push_str(&image_links(group, charts, format));
    out.push_str(&set_change_line(group));
    if !group.is_random_tree() {
        out.push_str(&branching_line(group));
    }
    out.push_str(&key_figures(group));
    if group.is_random_tree() {
        out.push_str(&ebf_table(group));
        out.push_str(&knuth_moore_table(group));
    }
    out
}

/// Says where the positions behind the per-depth means change ([`Group::set_changes`]),
/// so that a dip in a curve is not read as an effect of depth.
fn set_change_line(group: &Group<'_>) -> String {
    let changes = group.set_changes();
    if changes.is_empty() {
        return String::new();
    }
    let list: Vec<String> = changes
        .iter()
        .map(|(d, a, b)| format!("{a} → {b} at depth {d}"))
        .collect();
    format!(
        "The means per depth are not over one set of positions: the number of searches \
         behind them changes ({}), as searches end (a proven result, a spent budget) before \
         the deeper iterations; a step in a curve there may be the set changing, not the \
         depth.\n\n",
        list.join(", ")
    )
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

fn image_links(group: &Group<'_>, charts: &[Chart], format: Option<Format>) -> String {
    let Some(format) = format else {
        return String::new();
    };
    let mut out = chart_links(charts.iter().filter(|c| c.group == group.stem()), format);
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

fn branching_line(group: &Group<'_>) -> String {
    let b = group.branching();
    if b.is_finite() {
        format!(
            "Mean legal moves B = {}, √B = {}: a full-width search grows like B^d, \
             a perfectly ordered alpha-beta like B^(d/2).\n\n",
            fmt_ratio(b),
            fmt_ratio(b.sqrt())
        )
    } else {
        String::new()
    }
}

/// Per searcher, at its deepest depth: nodes, leaves, EBF, cutoff rate, time and speed.
fn key_figures(group: &Group<'_>) -> String {
    let mut out = String::from(
        "### Key figures at the deepest depth\n\n\
         | searcher | depth | runs | nodes | nodes: geometric mean [95%] | median | leaf nodes | `ebf` | first-move cutoffs | time (s) | nodes/s |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for searcher in group.searchers() {
        let Some(depth) = group.rows_of(searcher).map(|r| r.depth).max() else {
            continue;
        };
        let rows: Vec<&SearchRow> = group
            .rows_of(searcher)
            .filter(|r| r.depth == depth)
            .collect();
        let stat = |f: fn(&SearchRow) -> Option<f64>| {
            Stats::of(&rows.iter().filter_map(|r| f(r)).collect::<Vec<_>>())
        };
        let nodes: Vec<f64> = rows.iter().map(|r| r.nodes).collect();
        let _ = writeln!(
            out,
            "| {searcher} | {depth} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            rows.len(),
            cell(stat(|r| Some(r.nodes)), fmt_count),
            super::sets::geometric(&nodes, fmt_integer),
            super::stats::median(&nodes).map_or_else(dash, fmt_count),
            cell(stat(|r| Some(r.leaf_nodes)), fmt_count),
            super::sets::geometric(
                &rows.iter().filter_map(|r| r.ebf).collect::<Vec<_>>(),
                fmt_ratio
            ),
            mean(stat(|r| r.first_move_cutoff_rate), fmt_percent),
            mean(stat(|r| r.elapsed_s), fmt_seconds),
            nodes_per_second(&rows).map_or_else(dash, fmt_integer),
        );
    }
    if group
        .rows
        .iter()
        .any(|r| r.threads > 1 && r.playouts.is_none())
    {
        out.push_str(
            "\nWith more than one thread, `nodes` is what the search reports: lazy SMP's main \
             thread or the helper it adopted the final iteration from (every thread's nodes are in `total_nodes` and the overhead of the parallel \
             table), Young Brothers Wait's every thread.\n",
        );
    }
    out
}

/// The nodes of `rows` over their seconds, where both are known.
fn nodes_per_second(rows: &[&SearchRow]) -> Option<f64> {
    let timed: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| Some((r.nodes, r.elapsed_s?)))
        .collect();
    let seconds: f64 = timed.iter().map(|(_, s)| s).sum();
    (seconds > 0.0).then(|| timed.iter().map(|(n, _)| n).sum::<f64>() / seconds)
}

/// Measured EBF per searcher beside R(b), √b and b.
fn ebf_table(group: &Group<'_>) -> String {
    let b = group.branching();
    let r = pearl_r(b);
    let mut out = String::from(
        "\n### Effective branching factor against theory\n\n\
         EBF here is the geometric mean of `ebf` = nodes(d)/nodes(d−1) over the two deepest \
         iterations D−1 and D, that is √(nodes(D)/nodes(D−2)), which cancels the odd–even \
         effect; mean over trees, its 95% t interval in brackets.\n\n\
         | searcher | D | trees | EBF | R(b) | √b | b | EBF / R(b) |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut shallow = false;
    for searcher in group.searchers() {
        let Some((depth, stats)) = deepest_ebf(group, searcher) else {
            continue;
        };
        shallow |= depth < DEEP;
        let _ = writeln!(
            out,
            "| {searcher} | {depth} | {} | {} | {} | {} | {} | {} |",
            stats.n,
            cell(Some(stats), fmt_ratio),
            r.map_or_else(dash, fmt_ratio),
            fmt_ratio(b.sqrt()),
            fmt_plain(b),
            r.map_or_else(dash, |r| fmt_ratio(stats.mean / r)),
        );
    }
    if shallow {
        let _ = writeln!(
            out,
            "\nSome searchers stop below depth {DEEP}: their EBF is far from the asymptote."
        );
    }
    out
}

/// The deepest depth with an `ebf` value for `searcher`, and the two-iteration EBF over trees.
fn deepest_ebf(group: &Group<'_>, searcher: &str) -> Option<(u32, Stats)> {
    let mut runs: BTreeMap<_, BTreeMap<u32, f64>> = BTreeMap::new();
    for row in group.rows_of(searcher) {
        if let Some(e) = row.ebf {
            runs.entry(row.instance()).or_default().insert(row.depth, e);
        }
    }
    let depth = runs
        .values()
        .filter_map(|m| m.keys().max())
        .max()
        .copied()?;
    let values: Vec<f64> = runs
        .values()
        .filter_map(|m| {
            let last = *m.get(&depth)?;
            Some(
                m.get(&(depth - 1))
                    .map_or(last, |prev| (last * prev).sqrt()),
            )
        })
        .collect();
    Stats::of(&values).map(|s| (depth, s))
}

/// Mean leaf nodes per searcher and depth beside the minimal tree and the full tree, and
/// for each perfectly ordered searcher whether it examined exactly the minimal tree.
fn knuth_moore_table(group: &Group<'_>) -> String {
    let b = group.branching();
    let searchers = group.searchers();
    let perfect: Vec<&str> = searchers
        .iter()
        .copied()
        .filter(|s| group.rows_of(s).any(|r| r.perfect_order))
        .collect();
    let mut out =
        String::from("\n### Leaf nodes against the Knuth–Moore minimal tree\n\n| depth |");
    for s in &searchers {
        let _ = write!(out, " {s} |");
    }
    out.push_str(" minimal leaves | b^d |");
    for s in &perfect {
        let _ = write!(out, " `{s}` = minimal on every tree |");
    }
    let _ = writeln!(
        out,
        "\n|---:|{}---:|---:|{}",
        "---:|".repeat(searchers.len()),
        "---|".repeat(perfect.len())
    );
    let mut all = vec![(0, 0); perfect.len()];
    for depth in group.depths() {
        let mut line = format!("| {depth} |");
        for s in &searchers {
            let leaves: Vec<f64> = group
                .rows_of(s)
                .filter(|r| r.depth == depth)
                .map(|r| r.leaf_nodes)
                .collect();
            let _ = write!(line, " {} |", mean(Stats::of(&leaves), fmt_count));
        }
        let _ = write!(
            line,
            " {} | {} |",
            minimal_at(group, depth).map_or_else(dash, fmt_count),
            fmt_count(b.powi(depth as i32)),
        );
        for (s, total) in perfect.iter().zip(&mut all) {
            let (equal, rows) = minimal_matches(group, s, depth);
            *total = (total.0 + equal, total.1 + rows);
            let _ = write!(line, " {} |", verdict(equal, rows));
        }
        let _ = writeln!(out, "{line}");
    }
    for (s, (equal, rows)) in perfect.iter().zip(all) {
        let _ = writeln!(
            out,
            "\n`{s}` examines exactly the minimal number of leaves on every tree and depth: {}.",
            verdict(equal, rows)
        );
    }
    out
}

/// Minimal leaves at `depth`: the CSV's value if given, else the Knuth–Moore formula.
fn minimal_at(group: &Group<'_>, depth: u32) -> Option<f64> {
    group
        .rows
        .iter()
        .find(|r| r.depth == depth && r.minimal_leaves.is_some())
        .and_then(|r| r.minimal_leaves)
        .or_else(|| integral(group.branching()).map(|b| minimal_leaves(f64::from(b), depth)))
}

/// (rows where `searcher`'s leaves equal the minimal count, its rows) at `depth`.
fn minimal_matches(group: &Group<'_>, searcher: &str, depth: u32) -> (usize, usize) {
    let rows: Vec<&SearchRow> = group
        .rows_of(searcher)
        .filter(|r| r.depth == depth)
        .collect();
    let minimal = |r: &SearchRow| {
        r.minimal_leaves
            .or_else(|| integral(group.branching()).map(|b| minimal_leaves(f64::from(b), depth)))
    };
    let equal = rows
        .iter()
        .filter(|r| minimal(r) == Some(r.leaf_nodes))
        .count();
    (equal, rows.len())
}

fn verdict(equal: usize, total: usize) -> String {
    match (equal, total) {
        (_, 0) => "no rows".into(),
        (e, t) if e == t => format!("yes ({t} of {t})"),
        (e, t) => format!("**no** ({e} of {t})"),
    }
}

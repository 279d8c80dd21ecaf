//! summary.md of a match: results per pairing with both Elo models and the SPRT, the
//! standings, how games ended, what each player spent, the settings, how to read it, the
//! file's notes and the machine.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::record::{GameRow, side_names, stored_time};
use super::spec::MatchPlan;
use super::standings::{Standing, verdict_text};
use crate::lab::elo::Interval;
use crate::lab::machine::RunInfo;

/// Writes `out/summary.md`. Its machine section comes from the run's run.json, `info`: the
/// run that played writes run.json first and its summary from it, and a summary written again
/// (`plylab plot`, `plylab merge`) takes the same facts, so it describes the machine that
/// played, not the one writing.
pub fn write(
    plan: &MatchPlan,
    out: &Path,
    rows: &[GameRow],
    standings: &[Standing],
    info: &RunInfo,
) -> std::io::Result<()> {
    let mut md = format!("# {}\n\n", plan.name);
    if !plan.description.is_empty() {
        let _ = writeln!(md, "{}\n", plan.description);
    }
    pairings(&mut md, plan, standings);
    let _ = writeln!(
        md,
        "![Elo of each pairing with its 95% intervals, per game and per game pair]({}.svg)\n",
        crate::plot::arena::ELO_STEM
    );
    md.push_str(&super::chance::write_points(plan, out, rows)?);
    players(&mut md, standings);
    endings(&mut md, rows);
    spending(&mut md, plan, rows);
    settings(&mut md, plan, info.jobs);
    md.push_str(HOW_TO_READ);
    if !plan.notes.trim().is_empty() {
        let _ = writeln!(md, "\n## Notes\n\n{}", plan.notes.trim());
    }
    machine(&mut md, plan, info);
    if !info.file.is_empty() {
        let command =
            crate::plot::data::regeneration_command(&info.file, out, info.jobs, info.quick);
        let merged = crate::plot::data::merged_note(info.merged_from.len());
        let _ = writeln!(md, "\nRegenerate: `{command}`{merged}");
    }
    crate::output::replace_bytes(&out.join("summary.md"), md.as_bytes())
}

/// `+12.3 [−4.0, +28.9]`, or `—` when there is nothing to show.
fn elo_text(elo: Option<f64>, ci: Option<Interval>) -> String {
    match (elo, ci) {
        (Some(e), Some(ci)) => format!("{:+.1} [{:+.1}, {:+.1}]", e + 0.0, ci.lower, ci.upper),
        (Some(e), None) => format!("{:+.1}", e + 0.0),
        _ => "—".into(),
    }
}

fn pairings(md: &mut String, plan: &MatchPlan, standings: &[Standing]) {
    md.push_str("## Pairings\n\nEach row from the first-named player's side.\n\n");
    md.push_str("| player | opponent | games | W / D / L | score | draws | Elo, 95% (games) | Elo, 95% (pairs) | LOS | SPRT |\n");
    md.push_str("|---|---|---:|---|---:|---:|---|---|---:|---|\n");
    for s in standings.iter().filter(|s| s.kind == "pairing") {
        let t = &s.games;
        let penta = (s.pairs.pairs() > 0).then_some(&s.pairs);
        let sprt = s.sprt.map_or("—".into(), |(llr, v)| {
            format!("LLR {llr:.2}: {}", verdict_text(v))
        });
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} / {} / {} | {} | {} | {} | {} | {} | {} |",
            s.player,
            s.opponent,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.score().map_or("—".into(), |x| format!("{x:.3}")),
            t.draw_ratio()
                .map_or("—".into(), |x| format!("{:.0}%", 100.0 * x)),
            elo_text(t.elo(), t.elo_interval(0.95)),
            elo_text(
                penta.and_then(|p| p.elo()),
                penta.and_then(|p| p.elo_interval(0.95))
            ),
            if t.games() > 0 {
                format!("{:.1}%", 100.0 * t.los())
            } else {
                "—".into()
            },
            sprt
        );
    }
    if let Some(sprt) = plan.sprt {
        let _ = writeln!(
            md,
            "\nSPRT: H0 Elo = {}, H1 Elo = {}, α = {}, β = {}; bounds [{:.2}, {:.2}], normalized Elo model, {} counts.",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.lower_bound(),
            sprt.upper_bound(),
            if plan.pairs {
                "pentanomial (game pair)"
            } else {
                "trinomial (game)"
            }
        );
    }
    md.push('\n');
}

fn players(md: &mut String, standings: &[Standing]) {
    md.push_str("## Standings\n\nEvery player over all its games.\n\n");
    md.push_str(
        "| player | games | W / D / L | score | Elo, 95% (games) |\n|---|---:|---|---:|---|\n",
    );
    let mut rows: Vec<&Standing> = standings.iter().filter(|s| s.kind == "player").collect();
    rows.sort_by(|a, b| {
        b.games
            .score()
            .partial_cmp(&a.games.score())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    for s in rows {
        let t = &s.games;
        let _ = writeln!(
            md,
            "| {} | {} | {} / {} / {} | {} | {} |",
            s.player,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.score().map_or("—".into(), |x| format!("{x:.3}")),
            elo_text(t.elo(), t.elo_interval(0.95)),
        );
    }
    md.push('\n');
}

fn endings(md: &mut String, rows: &[GameRow]) {
    let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for r in rows {
        *counts
            .entry((r.reason.as_str(), r.winner.result()))
            .or_default() += 1;
    }
    md.push_str("## How the games ended\n\n| reason | result | games |\n|---|---|---:|\n");
    for ((reason, result), n) in counts {
        let _ = writeln!(md, "| {reason} | {result} | {n} |");
    }
    let plies: u64 = rows.iter().map(|r| u64::from(r.plies)).sum();
    if !rows.is_empty() {
        let _ = writeln!(
            md,
            "\nMean length: {:.1} plies.\n",
            plies as f64 / rows.len() as f64
        );
    }
}

/// Per player: moves, mean nodes, time and depth per move, over every game it played.
fn spending(md: &mut String, plan: &MatchPlan, rows: &[GameRow]) {
    md.push_str("## What each player spent\n\n| player | moves | nodes / move | ms / move | mean depth |\n|---|---:|---:|---:|---:|\n");
    for p in &plan.players {
        let (mut moves, mut nodes, mut time, mut depth_sum, mut depth_moves) =
            (0u64, 0u64, 0.0, 0u64, 0u64);
        for r in rows {
            for (i, name) in [&r.first, &r.second].into_iter().enumerate() {
                if *name == p.name {
                    let s = &r.sides[i];
                    moves += u64::from(s.moves);
                    nodes += s.nodes;
                    time += stored_time(s.time_s);
                    depth_sum += s.depth_sum;
                    depth_moves += u64::from(s.depth_moves);
                }
            }
        }
        let per = |x: f64| if moves > 0 { x / moves as f64 } else { 0.0 };
        let depth = if depth_moves > 0 {
            format!("{:.1}", depth_sum as f64 / depth_moves as f64)
        } else {
            "—".into()
        };
        let _ = writeln!(
            md,
            "| {} | {moves} | {:.0} | {:.1} | {depth} |",
            p.name,
            per(nodes as f64),
            per(1000.0 * time)
        );
    }
    md.push_str("\nNodes of Monte Carlo players are playouts.\n\n");
}

fn settings(md: &mut String, plan: &MatchPlan, concurrency: usize) {
    let (first, second) = side_names(plan.game);
    let r = &plan.rules;
    let _ = writeln!(md, "## Settings\n");
    let _ = writeln!(
        md,
        "- game: {}; format: {}; {} games per pairing{}",
        plan.game,
        plan.format,
        plan.games_per_pairing,
        if plan.pairs {
            format!(", in pairs (each opening twice, {first} and {second} swapped)")
        } else {
            ", colours alternating".into()
        }
    );
    let _ = writeln!(md, "- openings: {}", plan.opening_source);
    let _ = writeln!(
        md,
        "- maximum length: {}",
        r.max_plies
            .map_or("none (the game's rules end it)".into(), |m| format!(
                "{m} plies, then a draw"
            ))
    );
    let _ = writeln!(
        md,
        "- adjudication: {}",
        r.adjudicate.map_or("none".into(), |a| format!(
            "a win when {} consecutive plies' searches report a score of at least ±{} for the \
             same side",
            a.plies, a.score
        ))
    );
    if let Some(d) = &r.draw {
        let _ = writeln!(
            md,
            "- draw adjudication: a draw once {} full moves are played and the last {} plies' \
             movers all reported scores within ±{} of zero",
            d.movenumber,
            2 * d.movecount,
            d.score
        );
    }
    if let Some(d) = &r.resign {
        let _ = writeln!(
            md,
            "- resign adjudication: a loss for the side whose last {} moves all reported {} or \
             below{}",
            d.movecount,
            -d.score,
            if d.twosided {
                format!(
                    ", and the opponent's last {} moves {} or above",
                    d.movecount, d.score
                )
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(md, "- games at once: {concurrency}; seed {}", plan.seed);
    md.push_str("\n| player | configuration |\n|---|---|\n");
    for p in &plan.players {
        let _ = writeln!(md, "| {} | {} |", p.name, p.describe());
    }
    md.push('\n');
}

const HOW_TO_READ: &str = "## How to read this

- **Score** is (W + D/2)/N for the row's player; **Elo** is −400·log10(1/score − 1).
- **Elo, 95% (games)**: the trinomial model, score ± 1.96·σ/√N with σ² the per-game variance
  of the outcomes, each end mapped to Elo (fastchess `EloWDL`, OpenBench `stats.py`).
- **Elo, 95% (pairs)**: the pentanomial model over complete game pairs (each opening played
  twice with colours swapped), scores 0, ¼, ½, ¾, 1 per pair (fastchess `EloPentanomial`).
  Pairs cancel most of an opening's bias, so this interval is the honest one when openings
  are unbalanced; it is usually narrower than the per-game one.
- **LOS**, likelihood of superiority: ½·(1 + erf((W − L)/√(2(W + L)))), the probability that
  the row's player is the stronger, from decisive games only.
- **SPRT**: the log-likelihood ratio of H1 (Elo = elo1) to H0 (Elo = elo0) in the
  normalized-Elo model (Van den Bergh; fastchess's default, OpenBench's pentanomial SPRT);
  the pairing stopped when it left [ln(β/(1−α)), ln((1−β)/α)]. Games already under way when
  it stopped were dropped, so that the verdict falls at the same game on any concurrency.
- Intervals of ±∞ mean a score of 0 or 1: no finite Elo fits.

";

/// The machine section; the CPU-time sentence only where run.json recorded it (`cpu_s`).
fn machine(md: &mut String, plan: &MatchPlan, info: &RunInfo) {
    let (elapsed_s, concurrency) = (info.elapsed_s.unwrap_or(0.0), info.jobs);
    let cores = info.cores.max(1);
    let threads = plan
        .players
        .iter()
        .map(super::spec::Player::threads)
        .max()
        .unwrap_or(1);
    let busy = concurrency * threads;
    // A merged run's workers are its shards' together: each shard is judged on its own cores.
    let oversubscribed = if info.merged_from.is_empty() {
        busy > cores
    } else {
        info.merged_from
            .iter()
            .any(|shard| shard.jobs * threads > shard.cores.max(1))
    };
    let shards = match info.merged_from.len() {
        0 => String::new(),
        n => format!(" in {n} shards"),
    };
    let _ = writeln!(
        md,
        "\n## Machine\n\n{} ({cores} cores), {concurrency} games at once{shards}, at most {threads} search thread(s) per player: {busy} busy thread(s){}. {:.1} s of wall-clock time. Commit {}, {}.",
        info.cpu_model,
        if oversubscribed {
            " — more than the cores: timings are oversubscribed"
        } else {
            ""
        },
        elapsed_s,
        info.git_commit,
        info.date
    );
    if let Some((own, engines)) = info.cpu_s.filter(|_| elapsed_s > 0.0) {
        let cpu = own + engines;
        let share = cpu / (elapsed_s * concurrency.min(cores) as f64);
        let _ = writeln!(
            md,
            "\nThe match used {cpu:.0} s of CPU time ({own:.1} s in plylab, {engines:.1} s in external engines): {:.0}% of the {} core(s) its games could use (less than 100% when other processes shared the machine, or when searches end early).",
            100.0 * share,
            concurrency.min(cores)
        );
    }
}

//! Sharding: which jobs (or games) of a validated plan one machine of many runs.
//!
//! A shard `I/N` is a pure function of the plan and `N`: every job gets an integer cost
//! estimate ([`job_cost`]), and the jobs are dealt out by greedy longest-processing-time
//! scheduling (Graham 1969, "Bounds on multiprocessing timing anomalies"): the costliest
//! job first, each to the shard with the least cost so far, ties to the lower job id and
//! the lower shard. Costs are integers and the order is total, so the same file and seed
//! give the same jobs in the same shard on any machine. Arena games are dealt out the same
//! way in units of a pairing's round, so that the two games of a pair stay together.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::arena::spec::{MatchPlan, PlayerKind};
use crate::game::{Evaluator, Game, Score};
use crate::lab::runner::{GameTask, with_game};
use crate::lab::settings::EvalChoice;
use crate::lab::spec::{GamePosition, Job, Plan, SearcherVariant};
use crate::search::{Algorithm, Limits};

/// Nodes per second assumed where a time limit bounds a search (one thread).
pub const NODES_PER_SECOND: u64 = 1_000_000;

/// Plies assumed where neither a depth limit nor the game bounds a search.
pub const UNBOUNDED_DEPTH: u32 = 64;

/// One part `index`/`count` (1-based) of a job list split `count` ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which part, from 1.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

/// A shard written wrongly on the command line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad shard `{text}`: {why} (write I/N with 1 <= I <= N, e.g. 3/64)")]
pub struct ShardError {
    /// What was written.
    pub text: String,
    /// What is wrong with it.
    pub why: &'static str,
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Self, ShardError> {
        let bad = |why| ShardError {
            text: text.to_owned(),
            why,
        };
        let (i, n) = text.split_once('/').ok_or_else(|| bad("no `/`"))?;
        let number = |s: &str| s.trim().parse::<usize>().map_err(|_| bad("not a number"));
        let (index, count) = (number(i)?, number(n)?);
        if count == 0 {
            return Err(bad("N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(bad("I must be between 1 and N"));
        }
        Ok(Self { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What run.json records of a shard's run: enough for `plylab merge` to check coverage and
/// to link parallel jobs with their one-thread twins in other shards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// Which part, from 1.
    pub index: usize,
    /// How many parts.
    pub count: usize,
    /// Whether the plan was the reduced `--quick` one.
    pub quick: bool,
    /// The ids of the jobs (or arena games) this shard holds, ascending.
    pub jobs: Vec<usize>,
    /// `[job, its one-thread twin]` for the jobs here that have one (see `Job::baseline`).
    pub baselines: Vec<[usize; 2]>,
}

impl ShardRecord {
    /// The record of `shard` of an experiment plan.
    #[must_use]
    pub fn of_plan(plan: &Plan, shard: Shard, quick: bool) -> Self {
        let jobs = plan_shard(plan, shard);
        let baselines = jobs
            .iter()
            .filter_map(|&id| Some([id, plan.jobs[id].baseline?]))
            .collect();
        Self {
            index: shard.index,
            count: shard.count,
            quick,
            jobs,
            baselines,
        }
    }

    /// The record of `shard` of a match.
    #[must_use]
    pub fn of_match(plan: &MatchPlan, shard: Shard, quick: bool) -> Self {
        Self {
            index: shard.index,
            count: shard.count,
            quick,
            jobs: match_shard(plan, shard),
            baselines: Vec::new(),
        }
    }

    /// The shard, without its job list.
    #[must_use]
    pub fn shard(&self) -> Shard {
        Shard {
            index: self.index,
            count: self.count,
        }
    }

    /// Whether job (or game) `id` is in this shard.
    #[must_use]
    pub fn holds(&self, id: usize) -> bool {
        self.jobs.binary_search(&id).is_ok()
    }
}

/// Greedy longest-processing-time assignment of items with `costs` to `count` bins: the
/// 0-based bin of each item. Items are taken costliest first (ties: lower index first), each
/// into the bin with the least total so far (ties: lower bin).
#[must_use]
pub fn partition(costs: &[u64], count: usize) -> Vec<usize> {
    // Bins past the number of items are never chosen (an unused lower bin always has the
    // least load), so they are not made: `--shard 1/99999999999` asked for 1.6 TB of bins.
    let count = count.clamp(1, costs.len().max(1));
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&i| (Reverse(costs[i]), i));
    // The least-loaded bin (lowest index among equals) on top: O(log N) per item.
    let mut bins: BinaryHeap<Reverse<(u64, usize)>> = (0..count).map(|b| Reverse((0, b))).collect();
    let mut bin_of = vec![0; costs.len()];
    for i in order {
        let Reverse((load, bin)) = bins.pop().expect("at least one bin");
        bin_of[i] = bin;
        bins.push(Reverse((load.saturating_add(costs[i]), bin)));
    }
    bin_of
}

/// The ids of the jobs of `plan` in `shard`, ascending.
#[must_use]
pub fn plan_shard(plan: &Plan, shard: Shard) -> Vec<usize> {
    let costs: Vec<u64> = plan.jobs.iter().map(job_cost).collect();
    members(&partition(&costs, shard.count), shard)
        .map(|i| plan.jobs[i].id)
        .collect()
}

/// An upper estimate of the wall-clock seconds `jobs` of a plan take on `threads` threads
/// (`--dry-run`), from their budgets: a job's time limit, or else its node (playout) limit
/// at [`NODES_PER_SECOND`] a thread, times the searches a played-out mate makes; shared
/// among the threads. `None` when a job is bounded only by depth or by the end of the game:
/// no honest figure follows from limits alone then (b^(d/2)-style counts are off by orders
/// of magnitude on a solver).
#[must_use]
pub fn budget_seconds<'a>(jobs: impl IntoIterator<Item = &'a Job>, threads: usize) -> Option<f64> {
    let mut total = 0.0;
    for job in jobs {
        let searches = match (&job.play_out, &job.position.answer) {
            (
                true,
                Some(crate::lab::answer::Answer::Moves {
                    mate_in: Some(n), ..
                }),
            ) => f64::from(2 * n + 1),
            _ => 1.0,
        };
        let threads = job.searcher.config.threads.max(1) as f64;
        total += searches * budget(&job.limits, threads)?;
    }
    Some(total / threads.max(1) as f64)
}

/// A search's budget in wall seconds: its time limit, or its node limit at
/// [`NODES_PER_SECOND`] on each of `threads`.
fn budget(limits: &Limits, threads: f64) -> Option<f64> {
    limits.time.map(|t| t.as_secs_f64()).or_else(|| {
        limits
            .nodes
            .map(|n| n as f64 / NODES_PER_SECOND as f64 / threads)
    })
}

/// An upper estimate of the wall-clock seconds `games` (indices into the schedule) of a
/// match take, `concurrency` at once (`--dry-run`): every game played to the match's
/// `max_plies` (or the plies the first opening leaves), each move at its player's budget
/// (time per move, a fortieth of a clock's base plus its increment, or nodes at
/// [`NODES_PER_SECOND`]; an external engine's time or clock). `None` when a player is
/// bounded only by depth, or the games by nothing.
#[must_use]
pub fn match_budget_seconds(plan: &MatchPlan, games: &[usize], concurrency: usize) -> Option<f64> {
    let shape = plan
        .openings
        .first()
        .map_or(RootShape::UNKNOWN, |o| RootShape::of(&o.position));
    let plies = match (plan.rules.max_plies, shape.plies_left) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    let per_move: Vec<f64> = plan
        .players
        .iter()
        .map(|player| {
            let clock = player.tc.as_ref().map(|tc| tc.base / 40 + tc.increment);
            let limits = Limits {
                time: player.limits.time.or(clock),
                ..player.limits
            };
            budget(&limits, 1.0)
        })
        .collect::<Option<_>>()?;
    let schedule = plan.schedule();
    let total: f64 = games
        .iter()
        .filter_map(|&g| schedule.get(g))
        .map(|slot| {
            let (a, b) = plan.pairings[slot.pairing];
            f64::from(plies) / 2.0 * (per_move[a] + per_move[b])
        })
        .sum();
    Some(total / concurrency.max(1) as f64)
}

/// An estimate in seconds as a person reads it: `about 40 s`, `about 12 min`, `about 3.5 h`.
#[must_use]
pub fn rough_duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("about {:.0} s", seconds.max(1.0))
    } else if seconds < 5400.0 {
        format!("about {:.0} min", seconds / 60.0)
    } else {
        format!("about {:.1} h", seconds / 3600.0)
    }
}

/// The indices of the items whose bin is `shard`'s.
fn members(bins: &[usize], shard: Shard) -> impl Iterator<Item = usize> + '_ {
    (0..bins.len()).filter(move |&i| bins[i] == shard.index - 1)
}

/// The game indices of `plan`'s schedule in `shard`, ascending. The unit dealt out is a
/// pairing's round (both games of a pair, or one game without pairs).
#[must_use]
pub fn match_shard(plan: &MatchPlan, shard: Shard) -> Vec<usize> {
    let schedule = plan.schedule();
    let mut units: Vec<(usize, u32)> = schedule.iter().map(|s| (s.pairing, s.round)).collect();
    units.dedup();
    let costs: Vec<u64> = units
        .iter()
        .map(|&(pairing, _)| pairing_game_cost(plan, pairing).saturating_mul(plan.legs().into()))
        .collect();
    let bins = partition(&costs, shard.count);
    let chosen: Vec<(usize, u32)> = members(&bins, shard).map(|u| units[u]).collect();
    schedule
        .iter()
        .filter(|s| chosen.contains(&(s.pairing, s.round)))
        .map(|s| s.index)
        .collect()
}

/// The estimated cost of one game of `pairing`: a move of each player, from the first
/// opening (games of a match are alike in length; only the players' effort differs).
fn pairing_game_cost(plan: &MatchPlan, pairing: usize) -> u64 {
    let (a, b) = plan.pairings[pairing];
    let shape = plan
        .openings
        .first()
        .map_or(RootShape::UNKNOWN, |o| RootShape::of(&o.position));
    [a, b]
        .iter()
        .map(|&p| {
            let player = &plan.players[p];
            // A clock's share per move: a fortieth of the base, plus the increment.
            let clock = player.tc.as_ref().map(|tc| tc.base / 40 + tc.increment);
            let limits = Limits {
                time: player.limits.time.or(clock),
                ..player.limits
            };
            match &player.kind {
                PlayerKind::Search(v) => search_cost(v, &limits, shape),
                PlayerKind::Engine(_) | PlayerKind::External(_) => {
                    limits_cost(&limits, Effort::Ordered, 1, shape)
                }
            }
        })
        .fold(0u64, u64::saturating_add)
}

/// The estimated cost of `job`, in nodes (core-time, not wall time): the least of what its
/// depth, nodes and time limits allow. A depth `d` (or the plies left in the game) gives
/// `b^d` nodes for minimax, `b^ceil(3d/4)` for alpha-beta in an uninformed order (Pearl's
/// asymptotic branching factor for random order, about `b^0.75`) and `2 b^ceil(d/2)` with
/// an ordering heuristic or an oracle (Knuth and Moore's minimal tree), `b` the root's legal
/// moves; a time limit gives [`NODES_PER_SECOND`] per second. Several threads multiply the
/// depth and time estimates (each thread of lazy SMP searches about the whole tree), not a
/// node budget. A Monte Carlo job costs its playouts times the plies left (a playout's
/// length). A played-out mate in `n` costs `2n + 1` searches.
#[must_use]
pub fn job_cost(job: &Job) -> u64 {
    let shape = RootShape::of(&job.position.position);
    let base = search_cost(&job.searcher, &job.limits, shape);
    let searches = match (&job.play_out, &job.position.answer) {
        (
            true,
            Some(crate::lab::answer::Answer::Moves {
                mate_in: Some(n), ..
            }),
        ) => 2 * n + 1,
        _ => 1,
    };
    base.saturating_mul(searches.into())
}

/// A searcher's estimated cost under `limits` from a root of `shape`.
fn search_cost(searcher: &SearcherVariant, limits: &Limits, shape: RootShape) -> u64 {
    let threads = searcher.config.threads.max(1) as u64;
    if searcher.mcts.is_some() {
        let playouts = limits
            .nodes
            .or_else(|| limits.time.map(|t| seconds_to_nodes(t) * threads))
            .unwrap_or(NODES_PER_SECOND);
        return playouts.saturating_mul(shape.plies_left().into());
    }
    limits_cost(limits, Effort::of(searcher), threads, shape)
}

/// How much of the tree a searcher visits.
#[derive(Clone, Copy)]
enum Effort {
    /// Minimax: the full tree.
    Full,
    /// Alpha-beta in an uninformed order.
    Random,
    /// Alpha-beta with ordering heuristics or an oracle.
    Ordered,
}

impl Effort {
    fn of(searcher: &SearcherVariant) -> Self {
        let c = &searcher.config;
        let o = &c.ordering;
        if c.algorithm == Algorithm::Minimax {
            Self::Full
        } else if o.hint || o.tt_move || o.killers || o.history || searcher.oracle.is_some() {
            Self::Ordered
        } else {
            Self::Random
        }
    }

    /// Estimated nodes to depth `d` with `b` moves per position.
    fn nodes(self, b: u64, d: u32) -> u64 {
        match self {
            Self::Full => b.saturating_pow(d),
            Self::Random => b.saturating_pow((3 * d).div_ceil(4)),
            Self::Ordered => b.saturating_pow(d.div_ceil(2)).saturating_mul(2),
        }
    }
}

/// The least of what the depth, nodes and time limits allow (see [`job_cost`]).
fn limits_cost(limits: &Limits, effort: Effort, threads: u64, shape: RootShape) -> u64 {
    let depth = limits.depth.unwrap_or_else(|| shape.plies_left());
    let by_depth = effort.nodes(shape.moves, depth).saturating_mul(threads);
    let by_nodes = limits.nodes.unwrap_or(u64::MAX);
    let by_time = limits
        .time
        .map_or(u64::MAX, |t| seconds_to_nodes(t).saturating_mul(threads));
    by_depth.min(by_nodes).min(by_time).max(1)
}

fn seconds_to_nodes(t: std::time::Duration) -> u64 {
    (t.as_millis() as u64).saturating_mul(NODES_PER_SECOND / 1000)
}

/// The root's legal moves and the plies the game may still last.
#[derive(Clone, Copy, Debug)]
struct RootShape {
    moves: u64,
    plies_left: Option<u32>,
}

impl RootShape {
    /// Where no position is known: chess-like.
    const UNKNOWN: Self = Self {
        moves: 30,
        plies_left: None,
    };

    fn of(position: &GamePosition) -> Self {
        with_game(position, EvalChoice::default(), ShapeTask)
    }

    fn plies_left(self) -> u32 {
        self.plies_left
            .unwrap_or(UNBOUNDED_DEPTH)
            .min(UNBOUNDED_DEPTH)
    }
}

/// Measures a root's [`RootShape`] on the concrete game.
struct ShapeTask;

impl GameTask for ShapeTask {
    type Output = RootShape;
    fn run<G: Game, E: Evaluator<G>>(self, root: &G, _: &E, _: &dyn Fn(Score) -> i32) -> RootShape {
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        RootShape {
            moves: (moves.len() as u64).max(1),
            plies_left: root.remaining_plies(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_print() {
        let s: Shard = "3/64".parse().expect("valid");
        assert_eq!(
            s,
            Shard {
                index: 3,
                count: 64
            }
        );
        assert_eq!(s.to_string(), "3/64");
        for bad in ["0/4", "5/4", "1/0", "x", "1/", "/4", "a/b", "-1/4", "1/4/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad} accepted");
        }
    }

    /// Graham's (1969) tight example for LPT on m = 4 machines: times 7, 7, 6, 6, 5, 5, 4,
    /// 4, 4 give LPT a makespan of 15 = 4m − 1, where the optimum is 12 = 3m.
    #[test]
    fn lpt_meets_grahams_worst_case() {
        let costs = [7, 7, 6, 6, 5, 5, 4, 4, 4];
        let bins = partition(&costs, 4);
        let mut loads = [0u64; 4];
        for (i, &b) in bins.iter().enumerate() {
            loads[b] += costs[i];
        }
        assert_eq!(loads.iter().max(), Some(&15));
        assert_eq!(loads.iter().sum::<u64>(), 48);
        assert_eq!(bins, [0, 1, 2, 3, 2, 3, 0, 1, 0]);
    }

    #[test]
    fn more_bins_than_items_leaves_bins_empty() {
        assert_eq!(partition(&[5, 1], 4), [0, 1]);
        assert!(partition(&[], 3).is_empty());
        // Bins past the items are not made: a vast count deals as the item count does.
        assert_eq!(
            partition(&[0, 3, 0, 2], usize::MAX),
            partition(&[0, 3, 0, 2], 4)
        );
        assert_eq!(partition(&[0, 0], 1 << 40), [0, 0]);
    }
}

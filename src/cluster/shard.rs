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

use crate::arena::spec::{MatchPlan, PlayerKind};
use crate::game::{Evaluator, Game, Score};
use crate::lab::runner::{GameTask, with_game};
use crate::lab::settings::EvalChoice;
use crate::lab::shards::{Shard, ShardRecord};
use crate::lab::spec::{GamePosition, Job, Plan, SearcherVariant};
use crate::search::{Algorithm, Limits};

/// Nodes per second assumed where a time limit bounds a search (one thread).
pub const NODES_PER_SECOND: u64 = 1_000_000;

/// Plies assumed where neither a depth limit nor the game bounds a search.
pub const UNBOUNDED_DEPTH: u32 = 64;

/// A shard's record is defined with run.json's other records ([`crate::lab::shards`]); it is
/// made here, where the jobs are dealt out.
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

/// `--dry-run`'s estimate of the wall-clock time of a plan's jobs (or a match's games) from
/// their limits alone. An upper bound (setting up each job or game aside) where every
/// search is bounded by a time limit or a clock and nothing follows it ([`Self::is_bound`]);
/// otherwise a guess.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Seconds.
    pub seconds: f64,
    /// The jobs (games) bounded only by a node (playout) count, whose time is taken at
    /// [`NODES_PER_SECOND`] a thread: a search may fall far short of that rate.
    pub by_nodes: usize,
    /// The Monte Carlo jobs whose move is judged against a known score after the search, by
    /// a solve of up to [`crate::lab::runner::JUDGE_NODES`] that no limit of the job bounds:
    /// `seconds` leaves that time out (seconds a move far from the end of the game).
    pub judged: usize,
}

impl Estimate {
    /// Whether `seconds` is an upper bound: no job bounded only by nodes, none judged.
    #[must_use]
    pub const fn is_bound(&self) -> bool {
        self.by_nodes == 0 && self.judged == 0
    }
}

/// An estimate of the wall-clock seconds `jobs` of a plan take on `threads` workers
/// (`--dry-run`), from their budgets: a job's time limit, or else its node (playout) limit
/// at [`NODES_PER_SECOND`] a thread, times the searches a played-out mate makes. The runner
/// runs the shared jobs on the pool, a worker never idle while one waits, so they take at
/// most their time spread over the workers plus the longest one (Graham 1969); then the
/// `exclusive` jobs one at a time, so theirs add up. `None` when a job is bounded only
/// by depth or by the end of the game: no honest figure follows from limits alone then
/// (b^(d/2)-style counts are off by orders of magnitude on a solver).
#[must_use]
pub fn budget_seconds<'a>(
    jobs: impl IntoIterator<Item = &'a Job>,
    threads: usize,
) -> Option<Estimate> {
    let mut shared = Vec::new();
    let mut alone = 0.0;
    let (mut by_nodes, mut judged) = (0, 0);
    for job in jobs {
        let (seconds, bound) = job_seconds(job)?;
        by_nodes += usize::from(!bound);
        judged += usize::from(is_judged(job));
        if job.searcher.exclusive {
            alone += seconds;
        } else {
            shared.push(seconds);
        }
    }
    Some(Estimate {
        seconds: makespan(&shared, threads) + alone,
        by_nodes,
        judged,
    })
}

/// The wall seconds `job`'s searches may take, and whether a time limit bounds them: its
/// budget ([`Budget::of`]) times the searches a played-out mate makes.
fn job_seconds(job: &Job) -> Option<(f64, bool)> {
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
    let budget = Budget::of(&job.limits, threads)?;
    Some((searches * budget.seconds, budget.bound))
}

/// Whether `job`'s move is judged by a solve after its search: a Monte Carlo move against a
/// known score (`runner::keeps_known_value`).
fn is_judged(job: &Job) -> bool {
    job.searcher.mcts.is_some()
        && matches!(
            job.position.answer,
            Some(crate::lab::answer::Answer::Score(_))
        )
}

/// An upper bound on the wall time of items taking `seconds` each, run `workers` at a time
/// with a worker never idle while an item waits (Graham 1969): at most the work shared out
/// evenly, plus the longest item running while the others' workers have nothing left,
/// `sum / m + (1 − 1/m) · max`. No more workers than items count (the runner starts no
/// more), and the bound only grows with fewer.
fn makespan(seconds: &[f64], workers: usize) -> f64 {
    let m = workers.clamp(1, seconds.len().max(1)) as f64;
    let sum: f64 = seconds.iter().sum();
    let longest = seconds.iter().copied().fold(0.0, f64::max);
    sum / m + (1.0 - 1.0 / m) * longest
}

/// A search's budget in wall seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Budget {
    seconds: f64,
    /// Whether a time limit bounds it (else a node count at an assumed rate).
    bound: bool,
}

impl Budget {
    /// `limits`' budget: its time limit (which bounds the search whatever its node limit),
    /// or its node limit at [`NODES_PER_SECOND`] on each of `threads`; `None` with neither.
    fn of(limits: &Limits, threads: f64) -> Option<Self> {
        if let Some(t) = limits.time {
            return Some(Self {
                seconds: t.as_secs_f64(),
                bound: true,
            });
        }
        limits.nodes.map(|n| Self {
            seconds: n as f64 / NODES_PER_SECOND as f64 / threads,
            bound: false,
        })
    }
}

/// An estimate of the wall-clock seconds `games` (indices into the schedule) of a match
/// take, `concurrency` at once (`--dry-run`): every game played to the match's `max_plies`
/// (or the plies the first opening leaves), each player's moves at its budget: its time
/// per move, or the whole of a clock (its base, and its increment at every move), both
/// bounds; or nodes at [`NODES_PER_SECOND`], a guess. Games are taken by the workers as
/// they come free, so they take at most their time spread over the workers plus the longest
/// game (Graham 1969). `None` when a player is bounded only
/// by depth (an external engine without a time or clock too), or the games by nothing.
#[must_use]
pub fn match_budget_seconds(
    plan: &MatchPlan,
    games: &[usize],
    concurrency: usize,
) -> Option<Estimate> {
    let shape = plan
        .openings
        .first()
        .map_or(RootShape::UNKNOWN, |o| RootShape::of(&o.position));
    let plies = match (plan.rules.max_plies, shape.plies_left) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    // Each player moves at most every other ply.
    let moves = f64::from(plies.div_ceil(2));
    let per_game: Vec<Budget> = plan
        .players
        .iter()
        .map(|player| player_game_budget(player, moves))
        .collect::<Option<_>>()?;
    let schedule = plan.schedule();
    let mut by_nodes = 0;
    let seconds: Vec<f64> = games
        .iter()
        .filter_map(|&g| schedule.get(g))
        .map(|slot| {
            let (a, b) = plan.pairings[slot.pairing];
            by_nodes += usize::from(!(per_game[a].bound && per_game[b].bound));
            per_game[a].seconds + per_game[b].seconds
        })
        .collect();
    Some(Estimate {
        seconds: makespan(&seconds, concurrency),
        by_nodes,
        judged: 0,
    })
}

/// What one player may spend in a game of `moves` moves of its own: its time per move each
/// time, or its whole clock (the base of every period and every increment: a clock may be
/// spent on few moves), else its node budget each time.
fn player_game_budget(player: &crate::arena::spec::Player, moves: f64) -> Option<Budget> {
    if let Some(t) = player.limits.time {
        return Some(Budget {
            seconds: moves * t.as_secs_f64(),
            bound: true,
        });
    }
    if let Some(tc) = &player.tc {
        // The base comes again at the start of every period of `tc.moves` moves.
        let periods = tc
            .moves
            .map_or(1.0, |m| (moves / f64::from(m.max(1))).ceil());
        return Some(Budget {
            seconds: periods * tc.base.as_secs_f64() + moves * tc.increment.as_secs_f64(),
            bound: true,
        });
    }
    Budget::of(&player.limits, 1.0).map(|b| Budget {
        seconds: moves * b.seconds,
        ..b
    })
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
/// length), at least 1. A played-out mate in `n` costs `2n + 1` searches.
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
        // At least 1, as every job: at a finished position (no plies left) a cost of 0 put
        // all such jobs in one shard and left others empty, a split `--shard` refuses.
        return playouts.saturating_mul(shape.plies_left().into()).max(1);
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

    /// The plan of a tic-tac-toe experiment: `repetitions` jobs of one searcher with
    /// `searcher` added to its keys (its limits among them).
    fn tictactoe_plan(repetitions: u32, searcher: &str) -> Plan {
        let text = format!(
            "name = \"e\"\nrepetitions = {repetitions}\n[[games]]\ngame = \"tictactoe\"\n\
             positions = [\"start\"]\n[[searchers]]\nlabel = \"s\"\n\
             algorithm = \"alphabeta\"\n{searcher}\n"
        );
        crate::lab::spec::parse(std::path::Path::new("experiments/e.toml"), &text)
            .expect("a valid plan")
    }

    fn estimate(plan: &Plan, threads: usize) -> Estimate {
        budget_seconds(&plan.jobs, threads).expect("an estimate")
    }

    /// Graham's bound: the work spread over the workers plus what the longest item leaves
    /// the others idle; no more workers than items.
    #[test]
    fn makespan_is_grahams_bound() {
        assert_eq!(makespan(&[], 4), 0.0);
        assert_eq!(makespan(&[3.0], 4), 3.0);
        assert_eq!(makespan(&[1.0, 1.0, 1.0, 1.0], 2), 2.5);
        assert_eq!(makespan(&[4.0, 1.0, 1.0], 2), 3.0 + 2.0);
        assert_eq!(makespan(&[2.0, 2.0], 8), 3.0);
        assert_eq!(makespan(&[2.0, 2.0], 0), 4.0);
    }

    /// Exclusive jobs run one at a time after the others: their time limits add up, however
    /// many threads; the same jobs shared are spread over the pool. Both bounds.
    #[test]
    fn exclusive_jobs_add_up_and_shared_ones_are_spread() {
        let alone = tictactoe_plan(6, "exclusive = true\nlimits = { time_ms = 1000 }");
        assert_eq!(alone.jobs.len(), 6);
        for threads in [1, 2, 16] {
            let e = estimate(&alone, threads);
            assert!((e.seconds - 6.0).abs() < 1e-9, "{threads}: {e:?}");
            assert!(e.is_bound());
        }
        let shared = tictactoe_plan(6, "limits = { time_ms = 1000 }");
        let e = estimate(&shared, 2);
        assert!((e.seconds - 3.5).abs() < 1e-9, "{e:?}");
        assert!(e.is_bound());
        assert!((estimate(&shared, 1).seconds - 6.0).abs() < 1e-9);
    }

    /// A time limit bounds a job whatever its node limit (`--quick` adds one to every job).
    #[test]
    fn a_time_limit_bounds_its_jobs() {
        let plan = tictactoe_plan(
            4,
            "exclusive = true\nlimits = { time_ms = 500, nodes = 1000000000 }",
        );
        let e = estimate(&plan, 2);
        assert!((e.seconds - 2.0).abs() < 1e-9, "{e:?}");
        assert!(e.is_bound());
        let quick = estimate(&plan.quick(), 2);
        assert!((quick.seconds - 2.0).abs() < 1e-9, "{quick:?}");
        assert!(quick.is_bound());
    }

    /// Jobs bounded only by nodes (or playouts) have no bound: a guess at
    /// [`NODES_PER_SECOND`] a thread, exclusive ones added up all the same.
    #[test]
    fn nodes_only_jobs_are_a_guess() {
        let shared = tictactoe_plan(4, "limits = { nodes = 2000000 }");
        let e = estimate(&shared, 2);
        assert!((e.seconds - (4.0 + 1.0)).abs() < 1e-9, "{e:?}");
        assert!(!e.is_bound());
        let alone = tictactoe_plan(4, "exclusive = true\nlimits = { nodes = 2000000 }");
        let e = estimate(&alone, 2);
        assert!((e.seconds - 8.0).abs() < 1e-9, "{e:?}");
        assert!(!e.is_bound());
        // One job without a time limit makes the whole estimate a guess.
        let mut mixed = tictactoe_plan(2, "exclusive = true\nlimits = { time_ms = 1000 }");
        mixed.jobs.extend(shared.jobs);
        let e = estimate(&mixed, 2);
        assert!((e.seconds - 2.0 - 5.0).abs() < 1e-9, "{e:?}");
        assert_eq!((e.by_nodes, e.judged), (4, 0));
        assert!(!e.is_bound());
        // Depth alone: no estimate.
        assert_eq!(budget_seconds(&tictactoe_plan(1, "").jobs, 2), None);
    }

    /// A Monte Carlo move judged against a known score is solved after its timed search, so
    /// its time limit does not bound the job.
    #[test]
    fn a_judged_monte_carlo_job_has_no_bound() {
        let text = "name = \"e\"\n[[games]]\ngame = \"connect4\"\n\
                    file = \"data/connect4/Test_L2_R1\"\ntake = 2\n[[searchers]]\n\
                    label = \"uct\"\nalgorithm = \"uct\"\nexclusive = true\n\
                    limits = { time_ms = 5 }\n";
        let plan = crate::lab::spec::parse(std::path::Path::new("experiments/e.toml"), text)
            .expect("a valid plan");
        let e = estimate(&plan, 2);
        assert!((e.seconds - 0.010).abs() < 1e-9, "{e:?}");
        assert_eq!((e.by_nodes, e.judged), (0, 2));
        assert!(!e.is_bound());
    }

    /// Only a Monte Carlo move is judged by a solve after its search (`Estimate::judged`):
    /// an alpha-beta job on the same test set of known scores is bounded by its time limit.
    #[test]
    fn only_monte_carlo_moves_are_judged() {
        let text = "name = \"e\"\n[[games]]\ngame = \"connect4\"\n\
                    file = \"data/connect4/Test_L2_R1\"\ntake = 2\n[[searchers]]\n\
                    label = \"ab\"\nalgorithm = \"alphabeta\"\nexclusive = true\n\
                    limits = { time_ms = 5 }\n";
        let plan = crate::lab::spec::parse(std::path::Path::new("experiments/e.toml"), text)
            .expect("a valid plan");
        let e = estimate(&plan, 2);
        assert!((e.seconds - 0.010).abs() < 1e-9, "{e:?}");
        assert_eq!((e.by_nodes, e.judged), (0, 0));
        assert!(e.is_bound());
    }

    /// The examples of `rough_duration`'s doc comment: seconds, minutes, hours.
    #[test]
    fn rough_durations_read_as_the_doc_says() {
        assert_eq!(rough_duration(40.0), "about 40 s");
        assert_eq!(rough_duration(12.0 * 60.0), "about 12 min");
        assert_eq!(rough_duration(3.5 * 3600.0), "about 3.5 h");
    }

    /// `rough_duration` at its boundaries: seconds below 90, minutes below 5400 s (90 min),
    /// hours from there; never "about 0 s".
    #[test]
    fn rough_durations_change_unit_at_90_seconds_and_90_minutes() {
        assert_eq!(rough_duration(89.0), "about 89 s");
        assert_eq!(rough_duration(90.0), "about 2 min");
        assert_eq!(rough_duration(5399.0), "about 90 min");
        assert_eq!(rough_duration(5400.0), "about 1.5 h");
        assert_eq!(rough_duration(0.2), "about 1 s");
    }

    /// The cost of the one tic-tac-toe job (9 moves at the root, 9 plies left) of a
    /// searcher with `keys`.
    fn tictactoe_cost(keys: &str) -> u64 {
        let plan = tictactoe_plan(1, keys);
        job_cost(&plan.jobs[0])
    }

    /// An odd depth rounds up (`job_cost`'s doc): uninformed alpha-beta to depth 3 is
    /// `9^ceil(9/4) = 9^3`, ordered alpha-beta `2 * 9^ceil(3/2) = 2 * 81`.
    #[test]
    fn odd_depths_round_the_exponent_up() {
        assert_eq!(tictactoe_cost("limits = { depth = 3 }"), 729);
        let ordered = "limits = { depth = 3 }\nordering = { hint = true }";
        assert_eq!(tictactoe_cost(ordered), 162);
    }

    /// Each ordering heuristic, and an oracle alone, makes alpha-beta's tree the minimal
    /// one (`job_cost`'s doc: "with an ordering heuristic or an oracle").
    #[test]
    fn every_ordering_heuristic_and_an_oracle_count_as_ordered() {
        for keys in [
            "tt_mb = 1\nordering = { tt_move = true }",
            "ordering = { killers = true }",
            "ordering = { history = true }",
            "oracle = \"perfect\"",
        ] {
            let cost = tictactoe_cost(&format!("{keys}\nlimits = {{ depth = 4 }}"));
            assert_eq!(cost, 2 * 81, "{keys}");
        }
    }

    /// Without a depth limit the plies left in the game bound the depth: minimax on
    /// tic-tac-toe from the start is `9^9`, not the 64 plies assumed for an unbounded game.
    #[test]
    fn without_a_depth_limit_the_plies_left_bound_the_tree() {
        let plan = crate::lab::spec::parse(
            std::path::Path::new("experiments/e.toml"),
            "name = \"e\"\n[[games]]\ngame = \"tictactoe\"\npositions = [\"start\"]\n\
             [[searchers]]\nlabel = \"m\"\nalgorithm = \"minimax\"\n\
             limits = { nodes = 1000000000000 }\n",
        )
        .expect("a valid plan");
        assert_eq!(job_cost(&plan.jobs[0]), 387_420_489);
    }

    /// A match estimate counts each player's moves as half the plies rounded up: in 9
    /// plies the first player moves 5 times, and so the estimate takes 5 of each.
    #[test]
    fn an_odd_number_of_plies_gives_each_player_the_larger_half() {
        let text = "name = \"m\"\n[match]\ngame = \"connect4\"\ngames = 2\nmax_plies = 9\n\
                    concurrency = 1\n[[searchers]]\nlabel = \"a\"\nalgorithm = \"alphabeta\"\n\
                    limits = { time_ms = 20 }\n[[searchers]]\nlabel = \"b\"\n\
                    algorithm = \"alphabeta\"\nlimits = { time_ms = 10 }\n";
        let plan =
            crate::arena::spec::parse(std::path::Path::new("m.toml"), text).expect("a valid match");
        let e = match_budget_seconds(&plan, &[0], 1).expect("an estimate");
        assert!((e.seconds - 5.0 * 0.030).abs() < 1e-9, "{e:?}");
        assert!(e.is_bound());
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

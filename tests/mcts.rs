//! Monte Carlo tree search: UCT plays tic-tac-toe soundly, finds a connect-four win in one,
//! and the parallel forms agree with it where they should (shared/seeds/003; Kocsis and
//! Szepesvári 2006; Chaslot, Winands and van den Herik 2008; Enzenberger and Müller 2009).

use std::fmt::Debug;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

use plylab::game::{
    Evaluator, Game, Neutral, Notation, Outcome, Player, Score, Status, elo_win_probability,
};
use plylab::games::backgammon::{Backgammon, Pubeval};
use plylab::games::chance_tree::{ChanceKind, ChanceTree, ChanceTreeParams, ChanceTreeValue};
use plylab::games::chess::Chess;
use plylab::games::connect4::{CentreFirst, Connect4};
use plylab::games::tictactoe::TicTacToe;
use plylab::rng::XorShift;
use plylab::search::mcts::{
    MctsBudget, MctsConfig, MctsResult, flat_monte_carlo, root_parallel, tree_parallel,
    tree_parallel_locked, uct,
};
use plylab::search::{Limits, SearchConfig, search};

fn config(seed: u64) -> MctsConfig {
    MctsConfig {
        seed,
        ..MctsConfig::default()
    }
}

fn legal<G: Game>(pos: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
}

/// Plays a game of tic-tac-toe; `uct_plays` says who UCT is. Returns the outcome for UCT.
fn play_game(
    uct_plays: Player,
    seed: u64,
    mut other: impl FnMut(&TicTacToe) -> <TicTacToe as Game>::Move,
) -> Outcome {
    let mut pos = TicTacToe::new();
    loop {
        if let Status::Over(outcome) = pos.status() {
            return if pos.side_to_move() == uct_plays {
                outcome
            } else {
                match outcome {
                    Outcome::Win => Outcome::Loss,
                    Outcome::Loss => Outcome::Win,
                    other => other,
                }
            };
        }
        let mv = if pos.side_to_move() == uct_plays {
            let cfg = config(seed ^ u64::from(pos.plies_played()));
            uct(&pos, &Neutral, &cfg, &MctsBudget::iterations(3000))
                .best_move
                .unwrap()
        } else {
            other(&pos)
        };
        pos.play(mv);
    }
}

fn colour(game: u64) -> Player {
    if game.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    }
}

#[test]
fn uct_never_loses_to_a_random_player_at_tictactoe() {
    let mut wins = 0;
    for game in 0..100u64 {
        let mut rng = XorShift::new(1000 + game);
        let outcome = play_game(colour(game), game, |pos| {
            let moves = legal(pos);
            moves[rng.below(moves.len() as u64) as usize]
        });
        assert_ne!(outcome, Outcome::Loss, "game {game}");
        wins += u32::from(outcome == Outcome::Win);
    }
    // Random play blunders often: UCT should convert most games.
    assert!(wins >= 70, "only {wins} wins in 100");
}

#[test]
fn uct_draws_against_perfect_play_with_both_colours() {
    let perfect = |pos: &TicTacToe| {
        search(pos, &Neutral, &SearchConfig::default(), &Limits::default())
            .best_move()
            .unwrap()
    };
    for seed in 0..4 {
        for game in 0..2 {
            let outcome = play_game(colour(game), seed, perfect);
            assert_eq!(
                outcome,
                Outcome::Draw,
                "seed {seed}, UCT as {:?}",
                colour(game)
            );
        }
    }
}

#[test]
fn root_parallel_is_deterministic_and_one_thread_equals_uct() {
    let root = Connect4::parse_position("4453").unwrap();
    let cfg = config(42);
    let budget = MctsBudget::iterations(4001);
    let a = root_parallel(&root, &Neutral, &cfg, &budget, 2);
    let b = root_parallel(&root, &Neutral, &cfg, &budget, 2);
    assert_eq!(a.root_visits, b.root_visits);
    assert_eq!(
        (a.best_move, a.playouts, a.tree_nodes),
        (b.best_move, b.playouts, b.tree_nodes)
    );
    assert_eq!(a.playouts, 4001);
    assert_eq!(a.root_visits.iter().map(|e| e.1).sum::<u64>(), 4001);

    let one = root_parallel(&root, &Neutral, &cfg, &budget, 1);
    let single = uct(&root, &Neutral, &cfg, &budget);
    assert_eq!(one.root_visits, single.root_visits);
    assert_eq!(
        (one.best_move, one.playouts, one.tree_nodes),
        (single.best_move, single.playouts, single.tree_nodes)
    );
    // Two threads are two different trees, not the single tree split.
    assert_ne!(a.root_visits, single.root_visits);
}

#[test]
fn uct_finds_the_connect_four_win_in_one() {
    // First player has three stones in column 1 and is to move.
    let root = Connect4::parse_position("121212").unwrap();
    let win = root.parse_move("1").unwrap();
    for seed in 0..3 {
        let result = uct(
            &root,
            &Neutral,
            &config(seed),
            &MctsBudget::iterations(2000),
        );
        assert_eq!(result.best_move, Some(win), "seed {seed}");
        let (_, _, mean) = result.root_visits.iter().find(|e| e.0 == win).unwrap();
        assert!(*mean > 0.99, "mean of the winning move {mean}");
    }
}

#[test]
fn uct_with_a_playout_cutoff_also_finds_the_win() {
    let root = Connect4::parse_position("121212").unwrap();
    let cfg = MctsConfig {
        playout_cutoff: Some(4),
        ..config(5)
    };
    let result = uct(&root, &CentreFirst, &cfg, &MctsBudget::iterations(2000));
    assert_eq!(result.best_move, Some(root.parse_move("1").unwrap()));
    assert!((elo_win_probability(0) - 0.5).abs() < 1e-12);
    assert!((elo_win_probability(400) - 10.0 / 11.0).abs() < 1e-12);
}

#[test]
fn uct_counts_playouts_and_tree_nodes() {
    let root = TicTacToe::new();
    let result = uct(&root, &Neutral, &config(3), &MctsBudget::iterations(500));
    assert_eq!(result.playouts, 500);
    // One node added per iteration (unless it reaches a finished game), plus the root.
    assert!(
        result.tree_nodes <= 501 && result.tree_nodes > 400,
        "{}",
        result.tree_nodes
    );
    assert_eq!(result.root_visits.len(), 9);
    assert_eq!(result.root_visits.iter().map(|e| e.1).sum::<u64>(), 500);
    let most = result.root_visits.iter().max_by_key(|e| e.1).unwrap();
    assert_eq!(result.best_move, Some(most.0));
}

#[test]
fn flat_monte_carlo_returns_a_legal_move_round_robin() {
    let root = Connect4::parse_position("44").unwrap();
    let result = flat_monte_carlo(&root, &Neutral, &config(9), &MctsBudget::iterations(700));
    assert!(legal(&root).contains(&result.best_move.unwrap()));
    assert_eq!(result.playouts, 700);
    assert!(result.root_visits.iter().all(|e| e.1 == 100));
    let best = result.root_visits.iter().map(|e| e.2).fold(0.0, f64::max);
    let chosen = result
        .root_visits
        .iter()
        .find(|e| Some(e.0) == result.best_move);
    assert_eq!(chosen.unwrap().2, best);
}

#[test]
fn tree_parallel_returns_a_legal_move_with_two_threads() {
    let root = Connect4::parse_position("4453").unwrap();
    let result = tree_parallel(
        &root,
        &Neutral,
        &config(1),
        &MctsBudget::iterations(3000),
        2,
    );
    assert!(legal(&root).contains(&result.best_move.unwrap()));
    assert_eq!(result.playouts, 3000);
    assert_eq!(result.root_visits.iter().map(|e| e.1).sum::<u64>(), 3000);

    let win_root = Connect4::parse_position("121212").unwrap();
    let win = tree_parallel(
        &win_root,
        &Neutral,
        &config(2),
        &MctsBudget::iterations(2000),
        2,
    );
    assert_eq!(win.best_move, Some(win_root.parse_move("1").unwrap()));
}

#[test]
fn tree_parallel_locked_returns_a_legal_move_with_two_threads() {
    let root = Connect4::parse_position("4453").unwrap();
    let budget = MctsBudget::iterations(3000);
    let result = tree_parallel_locked(&root, &Neutral, &config(1), &budget, 2);
    assert!(legal(&root).contains(&result.best_move.unwrap()));
    assert_eq!(result.playouts, 3000);
    assert_eq!(result.root_visits.iter().map(|e| e.1).sum::<u64>(), 3000);
}

/// The result with its elapsed time zeroed, so that two results compare on everything else.
fn outcome<M: Copy>(r: &MctsResult<M>) -> MctsResult<M> {
    MctsResult {
        elapsed: Duration::ZERO,
        ..r.clone()
    }
}

/// Tree parallelism on one thread, lock-free or locked, is UCT with the same seed, bit for
/// bit (the locked tree's own virtual loss once counted in the parent's N).
fn one_thread_equals_uct<G: Game>(root: &G, eval: &impl Evaluator<G>, cfg: &MctsConfig, n: u64) {
    let budget = MctsBudget::iterations(n);
    let single = uct(root, eval, cfg, &budget);
    let one = tree_parallel(root, eval, cfg, &budget, 1);
    assert_eq!(outcome(&one), outcome(&single));
    let locked = tree_parallel_locked(root, eval, cfg, &budget, 1);
    assert_eq!(outcome(&locked), outcome(&single), "locked");
    assert_eq!(
        outcome(&one),
        outcome(&tree_parallel(root, eval, cfg, &budget, 1))
    );
}

#[test]
fn tree_parallel_on_one_thread_is_uct() {
    one_thread_equals_uct(
        &Connect4::parse_position("4453").unwrap(),
        &Neutral,
        &config(42),
        4001,
    );
    one_thread_equals_uct(&TicTacToe::new(), &Neutral, &config(3), 2000);
    let cutoff = MctsConfig {
        playout_cutoff: Some(6),
        ..config(8)
    };
    one_thread_equals_uct(&Connect4::new(), &CentreFirst, &cutoff, 3000);
    // One thread holds nothing back, whatever hold_depth says: the evaluator's rewards
    // (not multiples of 1/2) summed in another order would differ in their last bits.
    let held = MctsConfig {
        hold_depth: 2,
        hold_playouts: 50,
        ..cutoff
    };
    one_thread_equals_uct(&Connect4::new(), &CentreFirst, &held, 3000);
    // Chance nodes: outcomes drawn by weight, rewards from Outcome::Points.
    let chance = ChanceTree::new(ChanceTreeParams {
        b: 4,
        d: 7,
        chance: ChanceKind::Dice,
        lo: -400,
        hi: 400,
        seed: 11,
    })
    .unwrap();
    one_thread_equals_uct(&chance, &ChanceTreeValue, &config(5), 3000);
    // An expansion threshold: the same leaves gather the same playouts before expanding.
    let threshold = MctsConfig {
        expand_visits: 8,
        ..config(6)
    };
    one_thread_equals_uct(
        &Connect4::parse_position("44").unwrap(),
        &Neutral,
        &threshold,
        5000,
    );
    one_thread_equals_uct(&chance, &ChanceTreeValue, &threshold, 3000);
}

#[test]
fn an_expansion_threshold_shrinks_the_tree_and_still_finds_the_win() {
    let root = Connect4::parse_position("44").unwrap();
    let budget = MctsBudget::iterations(20_000);
    let nodes = |expand_visits| {
        let cfg = MctsConfig {
            expand_visits,
            ..config(12)
        };
        uct(&root, &Neutral, &cfg, &budget).tree_nodes
    };
    let (one, eight) = (nodes(1), nodes(8));
    // Each node gathers 8 playouts before it adds a child, where UCT adds one per playout.
    assert!(one > 19_000, "{one}");
    assert!(
        eight * 3 < one,
        "expand_visits 8: {eight} nodes against {one}"
    );
    let win_root = Connect4::parse_position("121212").unwrap();
    let cfg = MctsConfig {
        expand_visits: 16,
        ..config(2)
    };
    let win = uct(&win_root, &Neutral, &cfg, &MctsBudget::iterations(3000));
    assert_eq!(win.best_move, Some(win_root.parse_move("1").unwrap()));
    for threads in [2, 3] {
        let r = tree_parallel(
            &win_root,
            &Neutral,
            &cfg,
            &MctsBudget::iterations(3000),
            threads,
        );
        assert_eq!(r.best_move, Some(win_root.parse_move("1").unwrap()));
        assert_eq!(r.root_visits.iter().map(|e| e.1).sum::<u64>(), 3000);
    }
}

#[test]
fn lock_free_tree_parallel_plays_backgammon_through_the_dice() {
    // A decision (3-1 rolled) whose subtree alternates moves and 21-outcome dice nodes.
    let root = Backgammon::parse_position("start 31").unwrap();
    let cfg = MctsConfig {
        playout_cutoff: Some(8),
        ..config(4)
    };
    one_thread_equals_uct(&root, &Pubeval, &cfg, 300);
    let budget = MctsBudget::iterations(600);
    let r = tree_parallel(&root, &Pubeval, &cfg, &budget, 3);
    assert!(legal(&root).contains(&r.best_move.unwrap()));
    assert_eq!(r.playouts, 600);
    assert_eq!(r.root_visits.iter().map(|e| e.1).sum::<u64>(), 600);
}

#[test]
fn lock_free_tree_parallel_finds_wins_and_blocks_on_several_threads() {
    // (position, the only good move): win in one, and the block of the opponent's win in one.
    let tictactoe = [("1425", "3"), ("152", "3")];
    let connect4 = [("121212", "1"), ("12121", "1")];
    for threads in [2, 4] {
        for seed in 0..2 {
            let budget = MctsBudget::iterations(4000);
            for (moves, best) in tictactoe {
                let root = TicTacToe::parse_position(moves).unwrap();
                let r = tree_parallel(&root, &Neutral, &config(seed), &budget, threads);
                let expected = root.parse_move(best).unwrap();
                assert_eq!(r.best_move, Some(expected), "{moves} {threads} threads");
                assert_eq!(r.playouts, 4000);
                assert_eq!(r.root_visits.iter().map(|e| e.1).sum::<u64>(), 4000);
            }
            for (moves, best) in connect4 {
                let root = Connect4::parse_position(moves).unwrap();
                let r = tree_parallel(&root, &Neutral, &config(seed), &budget, threads);
                let expected = root.parse_move(best).unwrap();
                assert_eq!(r.best_move, Some(expected), "{moves} {threads} threads");
                assert_eq!(r.root_visits.iter().map(|e| e.1).sum::<u64>(), 4000);
            }
        }
    }
}

#[test]
fn stop_flag_and_time_budget_end_the_search() {
    let root = Connect4::new();
    let stop = AtomicBool::new(true);
    let stopped = MctsBudget::iterations(u64::MAX).with_stop(&stop);
    assert_eq!(uct(&root, &Neutral, &config(0), &stopped).playouts, 0);
    assert_eq!(uct(&root, &Neutral, &config(0), &stopped).best_move, None);
    assert_eq!(
        tree_parallel(&root, &Neutral, &config(0), &stopped, 2).playouts,
        0
    );
    assert_eq!(
        tree_parallel_locked(&root, &Neutral, &config(0), &stopped, 2).playouts,
        0
    );
    let timed = MctsBudget::time(Duration::from_millis(30));
    let result = tree_parallel(&root, &Neutral, &config(0), &timed, 2);
    assert!(result.playouts > 0 && result.elapsed < Duration::from_secs(5));

    let timed = MctsBudget::time(Duration::from_millis(30));
    let result = root_parallel(&root, &Neutral, &config(0), &timed, 2);
    assert!(result.playouts > 0);
    assert!(
        result.elapsed < Duration::from_secs(5),
        "{:?}",
        result.elapsed
    );
}

#[test]
fn a_budget_spent_before_the_first_playout_still_gives_a_move() {
    // No time at all: every thread still makes its first playouts, as starting 16 threads
    // can take a whole millisecond budget (they had returned no move).
    let root = Connect4::new();
    let none = MctsBudget::time(Duration::ZERO);
    let results = [
        uct(&root, &Neutral, &config(0), &none),
        flat_monte_carlo(&root, &Neutral, &config(0), &none),
        root_parallel(&root, &Neutral, &config(0), &none, 16),
        tree_parallel(&root, &Neutral, &config(0), &none, 16),
        tree_parallel_locked(&root, &Neutral, &config(0), &none, 16),
    ];
    for result in results {
        assert!(
            result.playouts > 0 && result.best_move.is_some(),
            "{result:?}"
        );
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let root = TicTacToe::parse_position("14253").unwrap();
    assert!(matches!(root.status(), Status::Over(_)));
    let result = uct(&root, &Neutral, &config(0), &MctsBudget::iterations(100));
    assert_eq!((result.best_move, result.playouts), (None, 0));
    // Drawn by the fifty-move rule, though its moves are still listed
    // (Game::generate_moves): over all the same, and searched no further.
    let fifty = Chess::parse_position("8/8/8/4k3/8/8/8/R3K3 w - - 100 80").unwrap();
    assert!(matches!(fifty.status(), Status::Over(Outcome::Draw)));
    assert!(!legal(&fifty).is_empty());
    let result = uct(&fifty, &Neutral, &config(0), &MctsBudget::iterations(100));
    assert_eq!((result.best_move, result.playouts), (None, 0));
    assert!(result.root_visits.is_empty());
}

/// A tree capped by `tree_mb` stops growing at the cap: every tree search then ends before
/// its budget, says so, and still answers with a legal move from the playouts it made (one
/// thread reproducibly); a cap the tree never reaches changes nothing.
#[test]
fn a_tree_stops_growing_at_its_memory_cap() {
    let root = Connect4::parse_position("44").unwrap();
    let capped = MctsConfig {
        tree_mb: Some(1),
        ..config(4)
    };
    let budget = MctsBudget::iterations(1_000_000);
    let searches = [
        ("uct", uct(&root, &Neutral, &capped, &budget)),
        (
            "root_parallel",
            root_parallel(&root, &Neutral, &capped, &budget, 2),
        ),
        (
            "tree_parallel",
            tree_parallel(&root, &Neutral, &capped, &budget, 2),
        ),
        (
            "tree_parallel_locked",
            tree_parallel_locked(&root, &Neutral, &capped, &budget, 2),
        ),
    ];
    for (name, r) in &searches {
        assert!(r.memory_full, "{name}");
        // A node takes at least 24 bytes (its visits and reward sum alone).
        assert!(
            r.tree_nodes * 24 <= 1 << 20,
            "{name}: {} nodes",
            r.tree_nodes
        );
        assert!(
            (1000..100_000).contains(&r.playouts),
            "{name}: {}",
            r.playouts
        );
        let visits: u64 = r.root_visits.iter().map(|&(_, n, _)| n).sum();
        assert_eq!(visits, r.playouts, "{name}: every playout is counted");
        assert!(
            legal(&root).contains(&r.best_move.expect("a move")),
            "{name}"
        );
        let note = r.memory_note(&capped).expect("a note");
        assert!(note.contains("within tree_mb = 1 MiB"), "{name}: {note}");
    }
    assert_eq!(
        outcome(&searches[0].1),
        outcome(&uct(&root, &Neutral, &capped, &budget))
    );
    // No room at all (a library caller's 0; files and flags refuse it): no tree, no panic.
    let none = MctsConfig {
        tree_mb: Some(0),
        ..config(4)
    };
    let r = uct(&root, &Neutral, &none, &budget);
    assert!(
        r.memory_full && r.playouts == 1 && r.best_move.is_none(),
        "{r:?}"
    );
    let roomy = MctsConfig {
        tree_mb: Some(64),
        ..config(4)
    };
    let small = MctsBudget::iterations(5000);
    for search in [
        uct,
        |r: &Connect4, e: &Neutral, c: &MctsConfig, b: &MctsBudget<'_>| {
            tree_parallel(r, e, c, b, 1)
        },
    ] {
        let free = search(&root, &Neutral, &config(4), &small);
        let within = search(&root, &Neutral, &roomy, &small);
        assert!(!within.memory_full && within.memory_note(&roomy).is_none());
        assert_eq!(outcome(&within), outcome(&free));
    }
}

/// A backgammon playout cut short is rewarded by its evaluation read in points: graded
/// rewards, not the Elo logistic's 0 or 1 of a score in millions (every play of `start 31`
/// then had a mean of 1.000, and UCT played the first generated).
#[test]
fn a_backgammon_playout_cut_short_is_rewarded_by_its_points() {
    use plylab::games::backgammon::POINT;
    for (score, p) in [(POINT, 1.0), (-POINT, 0.0), (0, 0.5), (POINT / 2, 0.75)] {
        assert!(
            (Backgammon::win_probability(score) - p).abs() < 1e-12,
            "{score}"
        );
    }
    assert_eq!(
        Backgammon::win_probability(3 * POINT),
        1.0,
        "a backgammon is a win"
    );
    let root = Backgammon::parse_position("start 31").unwrap();
    let cfg = MctsConfig {
        playout_cutoff: Some(0),
        ..config(4)
    };
    let r = uct(&root, &Pubeval, &cfg, &MctsBudget::iterations(2000));
    let means: Vec<f64> = r.root_visits.iter().map(|e| e.2).collect();
    assert_eq!(means.len(), legal(&root).len());
    assert!(
        means.iter().all(|&m| m > 0.01 && m < 0.99),
        "saturated rewards: {means:?}"
    );
    let (lo, hi) = means
        .iter()
        .fold((1.0f64, 0.0f64), |(lo, hi), &m| (lo.min(m), hi.max(m)));
    assert!(hi - lo > 0.01, "every play valued alike: {means:?}");
}

/// An evaluator that panics at its `at`-th call, as a bug in a game or an evaluator would.
struct PanicsAt {
    calls: AtomicU64,
    at: u64,
}

impl Evaluator<Connect4> for PanicsAt {
    fn evaluate(&self, _: &Connect4) -> Score {
        assert!(
            self.calls.fetch_add(1, Relaxed) + 1 != self.at,
            "an evaluator's bug"
        );
        0
    }
}

/// A thread that panics stops the other threads of its search, which then passes the panic
/// on: they do not run on to the end of their budget (here a stop flag nobody raises, as
/// UCI's `go infinite` before the GUI's `stop`, and a long time as the test's safety net).
#[test]
fn a_panicking_thread_stops_the_others() {
    type Parallel = fn(
        &Connect4,
        &PanicsAt,
        &MctsConfig,
        &MctsBudget<'_>,
        usize,
    ) -> MctsResult<<Connect4 as Game>::Move>;
    let searches: [(&str, Parallel); 3] = [
        ("root_parallel", root_parallel),
        ("tree_parallel_locked", tree_parallel_locked),
        ("tree_parallel", tree_parallel),
    ];
    let cutoff = MctsConfig {
        playout_cutoff: Some(0),
        ..config(4)
    };
    for (name, search) in searches {
        let eval = PanicsAt {
            calls: AtomicU64::new(0),
            at: 500,
        };
        let stop = AtomicBool::new(false);
        let budget = MctsBudget {
            iterations: None,
            time: Some(Duration::from_secs(40)),
            stop: Some(&stop),
        };
        let start = Instant::now();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            search(&Connect4::new(), &eval, &cutoff, &budget, 2)
        }));
        assert!(outcome.is_err(), "{name}: the panic is passed on");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{name}: the other thread ran on for {:?} after the panic",
            start.elapsed()
        );
    }
}

/// Every random choice follows the seed: UCT's expansion order and playouts change with it
/// (one search per seed would otherwise repeat the same tree), and root parallelism's
/// threads are seeded apart (`mix(seed ^ i)`), so that with an odd seed its second thread
/// does not grow the first one's tree again (with `seed | i` the merged root counts were
/// each thread's doubled).
#[test]
fn the_seed_drives_uct_and_root_parallel_threads_differ() {
    let root = Connect4::parse_position("44").unwrap();
    let visits = |r: &MctsResult<_>| r.root_visits.iter().map(|e| e.1).collect::<Vec<_>>();
    let budget = MctsBudget::iterations(500);
    let runs: Vec<Vec<u64>> = (0..4)
        .map(|seed| visits(&uct(&root, &Neutral, &config(seed), &budget)))
        .collect();
    assert!(runs.iter().any(|v| *v != runs[0]), "{runs:?}");
    for seed in [1, 3, 5] {
        let both = root_parallel(
            &root,
            &Neutral,
            &config(seed),
            &MctsBudget::iterations(1000),
            2,
        );
        let first = uct(&root, &Neutral, &config(seed), &budget);
        let doubled: Vec<u64> = visits(&first).iter().map(|n| 2 * n).collect();
        assert_ne!(
            visits(&both),
            doubled,
            "seed {seed}: the two threads grew one tree"
        );
    }
}

/// UCT adds the children of a node in a seeded random order, not the move generator's
/// (seed 003's "create and add ... new child"): over 100 seeds the single child a
/// one-playout search adds at the connect-four start is each of the 7 columns at least once
/// (left unshuffled it was always the first generated).
#[test]
fn expansion_order_is_shuffled_by_the_seed() {
    let root = Connect4::new();
    let mut seen = std::collections::HashSet::new();
    for seed in 0..100 {
        let r = uct(&root, &Neutral, &config(seed), &MctsBudget::iterations(1));
        let visited: Vec<_> = r.root_visits.iter().filter(|e| e.1 > 0).collect();
        assert_eq!(visited.len(), 1, "seed {seed}");
        seen.insert(visited[0].0);
    }
    assert_eq!(seen.len(), 7, "first children added: {seen:?}");
}

/// Flat Monte Carlo values each root move by its playouts, for the side to move at the
/// root: the connect-four win in one ends every playout at once with a win, so its mean is
/// exactly 1, no other move's can be (the opponent may block), and it is chosen; the tree
/// is the root and its 7 moves.
#[test]
fn flat_monte_carlo_finds_the_win_in_one_with_mean_one() {
    let root = Connect4::parse_position("121212").unwrap();
    let win = root.parse_move("1").unwrap();
    let r = flat_monte_carlo(&root, &Neutral, &config(3), &MctsBudget::iterations(700));
    assert_eq!(r.best_move, Some(win));
    for &(mv, n, mean) in &r.root_visits {
        assert_eq!(n, 100);
        if mv == win {
            assert_eq!(mean, 1.0);
        } else {
            assert!(mean < 1.0, "{mv:?}: {mean}");
        }
    }
    assert_eq!(r.tree_nodes, 8);
}

/// A time budget is spent: the search stops only once its time is up (the clock is read
/// every 32 playouts), so with no other limit it lasts at least that long, one thread or
/// several.
#[test]
fn a_time_budget_alone_lasts_its_time() {
    let root = Connect4::new();
    let time = Duration::from_millis(150);
    let budget = MctsBudget::time(time);
    let results = [
        uct(&root, &Neutral, &config(0), &budget),
        root_parallel(&root, &Neutral, &config(0), &budget, 2),
        tree_parallel(&root, &Neutral, &config(0), &budget, 2),
        tree_parallel_locked(&root, &Neutral, &config(0), &budget, 2),
    ];
    for r in results {
        assert!(
            r.elapsed >= time,
            "{:?} after {} playouts",
            r.elapsed,
            r.playouts
        );
        assert!(r.playouts > 32, "{}", r.playouts);
    }
}

/// Scores every position 100 for its side to move (win probability 1 / (1 + 10^(-1/4))).
struct Constant;

impl<G: Game> Evaluator<G> for Constant {
    fn evaluate(&self, _: &G) -> Score {
        100
    }
}

/// A playout cut short after `playout_cutoff` plies, chance plies included, is scored there
/// by the evaluator for the side to move after exactly that many plies. A root with `m`
/// moves gets one playout from each in its first `m` iterations, and no game here ends
/// within the cut; with a constant evaluation each root move's mean is then p = 1 / (1 +
/// 10^(-100/400)) where the root's side is to move at the cut and 1 - p where its opponent
/// is. Connect four alternates sides every ply (p after an odd number of plies below the
/// root move); below a chance tree's root move come a chance ply (the opponent to move
/// after it), the opponent's ply, and a chance ply with the root's side to move after it. A
/// playout cut at another ply, or played to the end (0, 0.5 or 1), gives another mean.
#[test]
fn a_playout_is_scored_at_its_cutoff() {
    let p = 1.0 / (1.0 + 10f64.powf(-0.25));
    fn check<M: Copy + Debug>(r: &MctsResult<M>, moves: usize, cut: u32, expected: f64) {
        assert_eq!(r.root_visits.len(), moves);
        for &(mv, n, mean) in &r.root_visits {
            assert_eq!(n, 1, "cutoff {cut}, {mv:?}");
            assert!(
                (mean - expected).abs() < 1e-12,
                "cutoff {cut}, {mv:?}: {mean}"
            );
        }
    }
    let cut = |cutoff| MctsConfig {
        playout_cutoff: Some(cutoff),
        ..config(1)
    };
    for (cutoff, expected) in [(0, 1.0 - p), (1, p), (2, 1.0 - p), (3, p)] {
        let r = uct(
            &Connect4::new(),
            &Constant,
            &cut(cutoff),
            &MctsBudget::iterations(7),
        );
        check(&r, 7, cutoff, expected);
    }
    let chance = ChanceTree::new(ChanceTreeParams {
        b: 3,
        d: 8,
        chance: ChanceKind::Dice,
        lo: -400,
        hi: 400,
        seed: 11,
    })
    .unwrap();
    for (cutoff, expected) in [(0, 1.0 - p), (1, 1.0 - p), (2, p), (3, p)] {
        let r = uct(&chance, &Constant, &cut(cutoff), &MctsBudget::iterations(3));
        check(&r, 3, cutoff, expected);
    }
}

/// Root parallelism's trees share `tree_mb` (each thread's tree gets an equal part): two
/// trees stop at about as many nodes together as one tree filling the cap alone, not twice
/// as many.
#[test]
fn root_parallel_trees_share_the_memory_cap() {
    let root = Connect4::parse_position("44").unwrap();
    let capped = MctsConfig {
        tree_mb: Some(1),
        ..config(4)
    };
    let budget = MctsBudget::iterations(1_000_000);
    let one = uct(&root, &Neutral, &capped, &budget);
    let two = root_parallel(&root, &Neutral, &capped, &budget, 2);
    assert!(one.memory_full && two.memory_full);
    assert!(
        4 * two.tree_nodes < 5 * one.tree_nodes,
        "two trees {} nodes, one tree {}",
        two.tree_nodes,
        one.tree_nodes
    );
}

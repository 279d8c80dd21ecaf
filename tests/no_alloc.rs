//! "No allocation per node": a counting allocator shows that a warmed-up searcher allocates a
//! fixed handful of times per search (one principal variation per iteration), however many
//! nodes it visits.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use plylab::game::Notation;
use plylab::games::connect4::{CentreFirst, Connect4};
use plylab::games::othello::{Othello, OthelloEval};
use plylab::games::random_tree::{RandomTree, TreeValue};
use plylab::search::{Algorithm, Limits, Ordering, SearchConfig, Searcher, Table};

struct Counting;

thread_local! {
    /// Allocations made by this thread: the tests of this file run in parallel, and each
    /// counts only its own search's.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_allocation() {
    // `try_with`: an allocation while the thread's locals are torn down is not counted.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: forwards to the system allocator unchanged, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_allocation();
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Every ordering switch on; the table, if any, is given with `with_table`.
fn ordered(tt_mb: usize) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ordering: Ordering {
            hint: true,
            tt_move: true,
            killers: true,
            history: true,
            shuffle: true,
            ..Ordering::default()
        },
        tt_mb,
        iterative: true,
        seed: 3,
        ..SearchConfig::default()
    }
}

/// Allocations of the second run of `searcher` (the first grows the buffers; `table` is
/// cleared in between so the second run searches as much), and its nodes.
fn second_run<G: plylab::game::Game, E: plylab::game::Evaluator<G>>(
    searcher: &mut Searcher<'_, G, E>,
    table: &Table,
    root: &G,
    limits: &Limits,
) -> (u64, u64) {
    searcher.run(root, limits);
    table.clear();
    let before = allocations();
    let result = searcher.run(root, limits);
    (allocations() - before, result.total.nodes)
}

#[test]
fn searches_allocate_per_iteration_not_per_node() {
    let table = Table::new(4);
    let config = ordered(0);
    let root = Connect4::parse_position("start").unwrap();
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(&CentreFirst, &config).with_table(&table);
    let (allocations, nodes) = second_run(&mut searcher, &table, &root, &limits);
    assert!(nodes > 10_000, "{nodes} nodes");
    assert!(
        allocations <= 4 * 10,
        "{allocations} allocations for {nodes} nodes"
    );

    let minimax = SearchConfig {
        algorithm: Algorithm::Minimax,
        ..ordered(0)
    };
    let tree = RandomTree::parse_position("b=6 d=7 seed=2").unwrap();
    let mut searcher = Searcher::new(&TreeValue, &minimax);
    let (allocations, nodes) = second_run(&mut searcher, &table, &tree, &Limits::default());
    assert!(nodes > 300_000, "{nodes} nodes");
    assert!(
        allocations <= 4 * 7,
        "{allocations} allocations for {nodes} nodes"
    );

    // An othello endgame solve (FFO #1, 14 empties) with every endgame switch: fastest-first
    // (or refined mobility) plays each move to weigh the replies, and the last-empties
    // solver runs on the stack.
    for refined_mobility in [false, true] {
        let endgame = SearchConfig {
            iterative: false,
            pvs: true,
            endgame_solver: Some(6),
            ordering: Ordering {
                tt_move: true,
                fastest_first: true,
                refined_mobility,
                parity: true,
                ..Ordering::default()
            },
            ..ordered(1)
        };
        let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        let root = Othello::parse_position(ffo1).unwrap();
        let eval = OthelloEval::STANDARD;
        let mut searcher = Searcher::new(&eval, &endgame).with_table(&table);
        let (allocations, nodes) = second_run(&mut searcher, &table, &root, &Limits::default());
        assert!(nodes > 20_000, "{nodes} nodes");
        assert!(
            allocations <= 4,
            "{allocations} allocations for {nodes} nodes (refined mobility {refined_mobility})"
        );
    }
}

#[test]
fn checkers_searches_allocate_per_iteration_not_per_node() {
    use plylab::games::checkers::{Checkers, CheckersEval};
    let table = Table::new(4);
    // The table in quiescence on: its probes and stores allocate nothing either.
    let config = SearchConfig {
        quiescence: Some(plylab::search::Quiescence {
            tt: true,
            ..plylab::search::Quiescence::default()
        }),
        ..ordered(0)
    };
    let root = Checkers::parse_position("start moves 11-15 23-19 8-11 22-17").unwrap();
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let eval = CheckersEval::default();
    let mut searcher = Searcher::new(&eval, &config).with_table(&table);
    let (allocations, nodes) = second_run(&mut searcher, &table, &root, &limits);
    assert!(nodes > 10_000, "{nodes} nodes");
    assert!(
        allocations <= 4 * 10,
        "{allocations} allocations for {nodes} nodes"
    );
}

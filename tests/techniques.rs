//! The value-preserving techniques added for chess, principal variation search and
//! aspiration windows, alone and together with the table and every ordering switch, return
//! plain minimax's value at every depth on random trees and connect-four positions. On games
//! without noisy moves, quiescence search stands pat at once and changes no value either.

use plylab::game::{Evaluator, Game, Notation};
use plylab::games::connect4::{CentreFirst, Connect4};
use plylab::games::random_tree::{Model, RandomTree, TreeParams, TreeValue};
use plylab::rng::XorShift;
use plylab::search::{Algorithm, Limits, Ordering, Quiescence, SearchConfig, search};

/// The configurations under test: PVS, aspiration windows of several widths, both, with and
/// without the table and the ordering switches, and quiescence.
fn configs() -> Vec<SearchConfig> {
    let all = Ordering::HEURISTICS;
    let mut out = Vec::new();
    for (pvs, aspiration) in [
        (true, None),
        (false, Some(1)),
        (false, Some(50)),
        (true, Some(7)),
        (true, Some(10_000)),
    ] {
        for (ordering, tt_mb) in [(Ordering::default(), 0), (all, 1)] {
            out.push(SearchConfig {
                pvs,
                aspiration,
                ordering,
                tt_mb,
                ..SearchConfig::default()
            });
        }
    }
    out.push(SearchConfig {
        quiescence: Some(Quiescence::default()),
        ordering: all,
        ..SearchConfig::default()
    });
    out
}

/// Scores per completed depth.
fn scores<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    config: &SearchConfig,
    depth: u32,
) -> Vec<(u32, i32)> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    search(pos, eval, config, &limits)
        .iterations
        .iter()
        .map(|i| (i.depth, i.score))
        .collect()
}

fn check<G: Game, E: Evaluator<G>>(pos: &G, eval: &E, depth: u32, what: &str) {
    let minimax = SearchConfig {
        algorithm: Algorithm::Minimax,
        ..SearchConfig::default()
    };
    let reference = scores(pos, eval, &minimax, depth);
    for (i, config) in configs().iter().enumerate() {
        assert_eq!(
            scores(pos, eval, config, depth),
            reference,
            "{what}, config {i}: {config:?}"
        );
    }
}

#[test]
fn pvs_and_aspiration_preserve_values_on_random_trees() {
    for seed in 0..300u64 {
        let b = 2 + (seed % 5) as u32;
        let d = 2 + (seed % 6) as u32;
        let model = if seed % 2 == 0 {
            Model::Iid
        } else {
            Model::Incremental
        };
        let root = RandomTree::new(TreeParams { b, d, seed, model }).unwrap();
        check(
            &root,
            &TreeValue,
            d,
            &format!("tree b={b} d={d} seed={seed} {model}"),
        );
    }
}

#[test]
fn pvs_and_aspiration_preserve_values_on_connect_four() {
    let mut rng = XorShift::new(11);
    let mut moves = Vec::new();
    for n in 0..300 {
        let mut pos = Connect4::parse_position("start").unwrap();
        for _ in 0..rng.below(25) {
            moves.clear();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        check(&pos, &CentreFirst, 5, &format!("connect4 position {n}"));
    }
}

/// An aspiration window as wide as the decisive scores is the full window: the same nodes
/// as none (`guess + width` once overflowed into a window that failed at once).
#[test]
fn the_widest_aspiration_window_is_the_full_window() {
    let pos = Connect4::parse_position("4453").expect("a position");
    let nodes = |aspiration| {
        let config = SearchConfig {
            aspiration,
            ordering: Ordering::HEURISTICS,
            tt_mb: 1,
            ..SearchConfig::default()
        };
        let limits = Limits {
            depth: Some(9),
            ..Limits::default()
        };
        search(&pos, &CentreFirst, &config, &limits).total.nodes
    };
    assert_eq!(nodes(Some(i32::MAX)), nodes(None));
}

//! The solver switches of Pons's connect-four ladder (src/search/solve.rs), each checked to
//! leave values unchanged: on connect four against Pons's known scores (his test sets) and
//! against minimax at a depth limit; on tic-tac-toe against minimax everywhere; `mtd` on
//! chess and othello evaluations against plain alpha-beta at each depth. The weak
//! solver's sign is checked against the known scores. The lean node function these
//! searches use (src/search/lean.rs) is compared with the general one, on the ladder and on
//! every game.

use plylab::game::{Game, Neutral, Notation, Score};
use plylab::games::chess::{Chess, Pst};
use plylab::games::connect4::{CentreFirst, Connect4, pons_score};
use plylab::games::othello::{Othello, OthelloEval};
use plylab::games::tictactoe::TicTacToe;
use plylab::search::{
    Algorithm, Limits, Ordering, Quiescence, SearchConfig, Searcher, SolveSwitches, search,
};

/// Each switch alone, then the ladder's combinations, then all of them (Pons's step 12).
fn variants() -> Vec<(&'static str, SolveSwitches, Ordering, bool)> {
    let off = SolveSwitches::default();
    let hint = Ordering {
        hint: true,
        ..Ordering::default()
    };
    let threats = Ordering {
        threats: true,
        ..hint
    };
    let all = SolveSwitches {
        win_check: true,
        score_window: true,
        score_grain: 2,
        mtd: true,
        anticipate: true,
        ..off
    };
    vec![
        ("none", off, hint, false),
        (
            "win_check",
            SolveSwitches {
                win_check: true,
                ..off
            },
            hint,
            false,
        ),
        (
            "score_window",
            SolveSwitches {
                score_window: true,
                ..off
            },
            hint,
            false,
        ),
        (
            "grain",
            SolveSwitches {
                score_grain: 2,
                ..off
            },
            hint,
            false,
        ),
        ("mtd", SolveSwitches { mtd: true, ..off }, hint, false),
        (
            "anticipate",
            SolveSwitches {
                anticipate: true,
                ..off
            },
            hint,
            false,
        ),
        ("threats", off, threats, false),
        ("etc", off, hint, true),
        (
            "upper_only",
            SolveSwitches {
                tt_lower_bounds: false,
                ..off
            },
            hint,
            false,
        ),
        (
            "window+win",
            SolveSwitches {
                win_check: true,
                score_window: true,
                ..off
            },
            hint,
            false,
        ),
        (
            "mtd+window",
            SolveSwitches {
                score_window: true,
                mtd: true,
                ..off
            },
            hint,
            false,
        ),
        (
            "step 9",
            SolveSwitches {
                tt_lower_bounds: false,
                ..all
            },
            hint,
            false,
        ),
        ("step 12", all, threats, false),
        (
            "compact",
            SolveSwitches {
                tt_compact: true,
                ..off
            },
            hint,
            false,
        ),
        (
            "step 11",
            SolveSwitches {
                tt_lower_bounds: false,
                tt_compact: true,
                ..all
            },
            threats,
            false,
        ),
        (
            "step 12 + compact + etc",
            SolveSwitches {
                tt_compact: true,
                ..all
            },
            threats,
            true,
        ),
    ]
}

fn config(solve: SolveSwitches, ordering: Ordering, etc: bool, tt_mb: usize) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ordering,
        tt_mb,
        etc,
        iterative: false,
        solve,
        ..SearchConfig::default()
    }
}

/// The first `n` positions of a Pons test set with their known scores.
fn pons_set(name: &str, n: usize) -> Vec<(Connect4, i32)> {
    let path = format!("experiments/data/connect4/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .take(n)
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("`moves score`");
            (
                Connect4::parse_position(moves).unwrap(),
                score.parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_switch_solves_pons_positions_exactly() {
    let mut positions = pons_set("Test_L3_R1", 40);
    positions.extend(pons_set("Test_L2_R1", 6));
    for (name, solve, ordering, etc) in variants() {
        for (pos, known) in &positions {
            let result = search(
                pos,
                &CentreFirst,
                &config(solve, ordering, etc, 1),
                &Limits::default(),
            );
            let last = result.last().unwrap();
            assert_eq!(
                pons_score(pos, last.score),
                Some(*known),
                "{name} on {}",
                pos.to_ascii()
            );
            // The move returned keeps the value: the child's solved score is its negation.
            let mut child = *pos;
            child.play(last.best_move.expect("a move"));
            let reply = search(
                &child,
                &CentreFirst,
                &config(solve, ordering, etc, 1),
                &Limits::default(),
            );
            let child_score = child
                .status()
                .eq(&plylab::game::Status::Ongoing)
                .then(|| pons_score(&child, reply.last().unwrap().score).unwrap());
            if let Some(s) = child_score {
                assert_eq!(-s, *known, "{name}: best move of {}", pos.to_ascii());
            }
        }
    }
}

#[test]
fn the_weak_solver_finds_the_sign() {
    let mut positions = pons_set("Test_L3_R1", 60);
    positions.extend(pons_set("Test_L2_R1", 6));
    for (name, solve, ordering, etc) in variants() {
        let weak = SolveSwitches {
            weak: true,
            ..solve
        };
        for (pos, known) in &positions {
            let result = search(
                pos,
                &CentreFirst,
                &config(weak, ordering, etc, 1),
                &Limits::default(),
            );
            let score = result.last().unwrap().score;
            assert_eq!(
                score.signum(),
                known.signum(),
                "weak {name} on {}",
                pos.to_ascii()
            );
        }
    }
}

#[test]
fn switches_keep_depth_limited_values_on_connect_four() {
    // Heuristic values at the horizon (line counts): the switches must not change them.
    let positions = pons_set("Test_L2_R1", 8);
    for depth in [1, 2, 3, 5] {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        for (pos, _) in &positions {
            let minimax = SearchConfig {
                algorithm: Algorithm::Minimax,
                iterative: false,
                ..SearchConfig::default()
            };
            let expected = search(pos, &CentreFirst, &minimax, &limits).score();
            for (name, solve, ordering, etc) in variants() {
                if solve.score_grain != 1 {
                    continue; // a grain changes decisive values by design
                }
                // Deepening too: its table then holds shallower entries from the earlier
                // iterations, which must not settle a deeper node (one search to a fixed
                // depth stores each connect-four position at one depth only).
                for iterative in [false, true] {
                    let config = SearchConfig {
                        iterative,
                        ..config(solve, ordering, etc, 1)
                    };
                    let got = search(pos, &CentreFirst, &config, &limits).score();
                    assert_eq!(
                        got,
                        expected,
                        "{name} at depth {depth} (iterative: {iterative}) on {}",
                        pos.to_ascii()
                    );
                }
            }
        }
    }
}

#[test]
fn mtd_keeps_the_values_of_fine_grained_evaluations() {
    // Between bounds that are not decisive, MTD tests the bound the last null-window search
    // returned, galloping, and a deepening search tests the previous iteration's score
    // first: chess centipawns with quiescence and othello's evaluation (hundredths of a
    // disc) must keep plain alpha-beta's score at every depth, with the table and without.
    fn check<G: Game, E: plylab::game::Evaluator<G>>(
        what: &str,
        pos: &G,
        eval: &E,
        depth: u32,
        quiescence: Option<Quiescence>,
    ) {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        for tt_mb in [0, 1] {
            let plain = SearchConfig {
                algorithm: Algorithm::Alphabeta,
                tt_mb,
                quiescence,
                ..SearchConfig::default()
            };
            let mtd = SearchConfig {
                solve: SolveSwitches {
                    mtd: true,
                    ..SolveSwitches::default()
                },
                pvs: true,
                ordering: Ordering {
                    tt_move: tt_mb > 0,
                    ..Ordering::HEURISTICS
                },
                ..plain
            };
            let scores = |config: &SearchConfig| -> Vec<Score> {
                let result = search(pos, eval, config, &limits);
                result.iterations.iter().map(|i| i.score).collect()
            };
            let expected = scores(&plain);
            assert_eq!(expected.len(), depth as usize);
            assert_eq!(scores(&mtd), expected, "tt {tt_mb} on {what}");
        }
    }
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1b1kb1r/pp3ppp/2n1pn2/q1pp4/3P1B2/2P1PN2/PP1N1PPP/R2QKB1R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let pos = Chess::parse_position(fen).unwrap();
        check(fen, &pos, &Pst, 4, Some(Quiescence::default()));
    }
    let mut othello = Othello::new();
    for text in ["f5", "d6", "c3", "d3", "c4", "f4"] {
        let mv = othello.parse_move(text).unwrap();
        othello.play(mv);
        check(text, &othello, &OthelloEval::STANDARD, 5, None);
    }
}

#[test]
fn switches_equal_minimax_on_tictactoe() {
    // The last two are finished: the side to move has lost, and a full board's draw (MTD
    // once scored the loss two plies away, from the bounds of a position with a move).
    let roots = [
        "start",
        "5",
        "15",
        "159",
        "1234",
        "5137",
        "1245",
        "14253",
        "123457698",
    ];
    for text in roots {
        let pos = TicTacToe::parse_position(text).unwrap();
        for (name, solve, ordering, etc) in variants() {
            // Minimax with the same grain is the reference (the grain changes decisive values).
            let minimax = SearchConfig {
                algorithm: Algorithm::Minimax,
                iterative: false,
                solve: SolveSwitches {
                    score_grain: solve.score_grain,
                    ..SolveSwitches::default()
                },
                ..SearchConfig::default()
            };
            let expected = search(&pos, &Neutral, &minimax, &Limits::default()).score();
            for tt_mb in [0, 1] {
                let got = search(
                    &pos,
                    &Neutral,
                    &config(solve, ordering, etc, tt_mb),
                    &Limits::default(),
                );
                assert_eq!(got.score(), expected, "{name} (tt {tt_mb}) on {text}");
                let ongoing = pos.status() == plylab::game::Status::Ongoing;
                assert_eq!(got.best_move().is_some(), ongoing, "{name} on {text}");
            }
        }
    }
}

/// Whether the lean node function (src/search/lean.rs) applies to `config` and, either way,
/// gives the general function's iterations (scores, principal variations, every counter).
fn lean_matches_general<G: Game, E: plylab::game::Evaluator<G>>(
    pos: &G,
    eval: &E,
    config: &SearchConfig,
    limits: &Limits,
    what: &str,
) -> bool {
    let lean = Searcher::new(eval, config);
    let applies = lean.lean_nodes();
    let general = Searcher::new(eval, config).with_general_nodes();
    assert!(!general.lean_nodes(), "{what}");
    let strip = |r: plylab::search::SearchResult<G::Move>| {
        r.iterations
            .into_iter()
            .map(|i| (i.depth, i.score, i.best_move, i.pv, i.stats))
            .collect::<Vec<_>>()
    };
    let (mut lean, mut general) = (lean, general);
    assert_eq!(
        strip(lean.run(pos, limits)),
        strip(general.run(pos, limits)),
        "{what}"
    );
    applies
}

/// The lean node function against the general one on Pons's ladder: the same iterations
/// for every variant, strong and weak, solved and depth-limited, with and without iterative
/// deepening and PVS, on connect four and tic-tac-toe; every variant searches lean.
#[test]
fn the_lean_node_function_solves_as_the_general_one() {
    let mut positions = pons_set("Test_L3_R1", 20);
    positions.extend(pons_set("Test_L2_R1", 4));
    let mut applied = 0;
    for (name, solve, ordering, etc) in variants() {
        for weak in [false, true] {
            for (iterative, pvs) in [(false, false), (true, true)] {
                let mut config = config(SolveSwitches { weak, ..solve }, ordering, etc, 1);
                config.iterative = iterative;
                config.pvs = pvs;
                for depth in [None, Some(4)] {
                    let limits = Limits {
                        depth,
                        ..Limits::default()
                    };
                    for (pos, _) in &positions {
                        let what = format!(
                            "{name} weak {weak} iterative {iterative} depth {depth:?} on {}",
                            pos.to_ascii()
                        );
                        applied += usize::from(lean_matches_general(
                            pos,
                            &CentreFirst,
                            &config,
                            &limits,
                            &what,
                        ));
                    }
                    for text in ["start", "5", "159"] {
                        let pos = TicTacToe::parse_position(text).unwrap();
                        let what = format!("{name} weak {weak} on tic-tac-toe {text}");
                        applied += usize::from(lean_matches_general(
                            &pos, &Neutral, &config, &limits, &what,
                        ));
                    }
                }
            }
        }
    }
    assert_eq!(applied, variants().len() * 2 * 2 * 2 * (24 + 3));
}

/// The lean node function against the general one beyond the solver: plain and ordered
/// alpha-beta, with and without the table, PVS, aspiration windows and enhanced
/// transposition cutoff, on random trees (both value models), chess (whose positions
/// repeat) without quiescence, othello (passes) and checkers; with quiescence the general
/// function searches every node.
#[test]
fn the_lean_node_function_searches_as_the_general_one_on_every_game() {
    use plylab::games::checkers::{Checkers, CheckersEval};
    use plylab::games::chess::{Chess, Pst};
    use plylab::games::othello::{Othello, OthelloEval};
    use plylab::games::random_tree::{RandomTree, TreeValue};
    let ordered = Ordering {
        hint: true,
        tt_move: true,
        killers: true,
        history: true,
        ..Ordering::default()
    };
    let configs = [
        ("plain", Ordering::default(), 0, false, None, false),
        ("ordered", ordered, 1, false, None, false),
        ("ordered pvs etc", ordered, 1, true, None, true),
        ("ordered pvs aspiration", ordered, 1, true, Some(50), false),
    ];
    let mut checked = 0;
    for (name, ordering, tt_mb, pvs, aspiration, etc) in configs {
        let config = SearchConfig {
            ordering,
            tt_mb,
            pvs,
            aspiration,
            etc,
            ..SearchConfig::default()
        };
        let at = |depth| Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        for tree in ["b=5,d=7,seed=3", "b=4,d=8,seed=9,model=incremental"] {
            let pos = RandomTree::parse_position(tree).unwrap();
            let what = format!("{name} on {tree}");
            assert!(
                lean_matches_general(&pos, &TreeValue, &config, &at(7), &what),
                "{what}"
            );
            checked += 1;
        }
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/8/8/3k4/8/8/3K4/3R4 w - - 0 1",
        ] {
            let pos = Chess::parse_position(fen).unwrap();
            let what = format!("{name} on {fen}");
            assert!(
                lean_matches_general(&pos, &Pst, &config, &at(4), &what),
                "{what}"
            );
            checked += 1;
        }
        let othello = Othello::parse_position("start").unwrap();
        let what = format!("{name} on othello");
        assert!(lean_matches_general(
            &othello,
            &OthelloEval::STANDARD,
            &config,
            &at(5),
            &what
        ));
        let checkers = Checkers::parse_position("start").unwrap();
        let what = format!("{name} on checkers");
        assert!(lean_matches_general(
            &checkers,
            &CheckersEval::default(),
            &config,
            &at(7),
            &what
        ));
        checked += 2;
    }
    assert_eq!(checked, 4 * 6);
    // Quiescence acts at the horizon only (horizon_node): the lean function serves it too;
    // null move does not.
    let kiwipete = Chess::parse_position(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    )
    .unwrap();
    let quiescence = SearchConfig {
        ordering: ordered,
        tt_mb: 1,
        quiescence: Some(plylab::search::Quiescence::default()),
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    assert!(lean_matches_general(
        &kiwipete,
        &Pst,
        &quiescence,
        &limits,
        "quiescence"
    ));
    let null_move = SearchConfig {
        null_move: Some(plylab::search::NullMove {
            reduction: plylab::search::Reduction::Adaptive,
            verify: false,
        }),
        ..quiescence
    };
    assert!(!lean_matches_general(
        &kiwipete,
        &Pst,
        &null_move,
        &limits,
        "null move"
    ));
}

/// A search restricted to some root moves (UCI's `searchmoves`,
/// [`Searcher::with_root_moves`]) with anticipation, alone and with the whole ladder: it
/// plays one of those moves, and its value is the best of theirs, each found by plain
/// alpha-beta (no solver switch) restricted to that move alone. Anticipation filters the
/// moves of the root by the restriction, and of no other node.
#[test]
fn anticipation_keeps_to_the_root_moves_given() {
    let plain = config(SolveSwitches::default(), Ordering::default(), false, 1);
    let solve = |config: &SearchConfig, pos: &Connect4, codes: &[u16]| {
        let result = Searcher::new(&CentreFirst, config)
            .with_root_moves(codes)
            .run(pos, &Limits::default());
        let last = result.last().expect("an iteration").clone();
        let code = Connect4::move_code(last.best_move.expect("a move"));
        assert!(codes.contains(&code), "{code} not in {codes:?}");
        pons_score(pos, last.score).expect("a solved score")
    };
    let anticipating: Vec<_> = variants()
        .into_iter()
        .filter(|(_, solve, _, _)| solve.anticipate)
        .collect();
    assert_eq!(anticipating.len(), 5);
    for (pos, _) in pons_set("Test_L3_R1", 12) {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let codes: Vec<u16> = moves.into_iter().map(Connect4::move_code).collect();
        let values: Vec<i32> = codes.iter().map(|&c| solve(&plain, &pos, &[c])).collect();
        let first_last = [codes[0], codes[codes.len() - 1]];
        for (name, switches, ordering, etc) in &anticipating {
            let config = config(*switches, *ordering, *etc, 1);
            for (i, &c) in codes.iter().enumerate() {
                let got = solve(&config, &pos, &[c]);
                assert_eq!(got, values[i], "{name}: column {c} of {}", pos.to_ascii());
            }
            let best = values[0].max(values[values.len() - 1]);
            let got = solve(&config, &pos, &first_last);
            assert_eq!(
                got,
                best,
                "{name}: columns {first_last:?} of {}",
                pos.to_ascii()
            );
        }
    }
}

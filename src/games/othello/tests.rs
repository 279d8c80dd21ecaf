use super::*;
use crate::game::{Evaluator, Neutral};
use crate::rng::XorShift;

/// Bik's table (tests/data/othello/perft_startpos.txt, from shared/data): leaves at depths
/// 1-11, a forced pass counting one ply and a game over before full depth one leaf.
const BIK: [u64; 11] = [
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
];

fn pos(text: &str) -> Othello {
    Othello::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of(p: &Othello) -> Vec<OthelloMove> {
    let mut out = Vec::new();
    p.generate_moves(&mut out);
    out
}

/// Bik's split of depths 11-13: leaves of games that ended before full depth.
const BIK_ENDED_EARLIER: [(u32, u64); 3] = [(11, 228), (12, 584), (13, 6_968)];

#[test]
fn perft_equals_biks_table_to_depth_11() {
    let start = Othello::new();
    let mut ended = Vec::new();
    for (depth, &leaves) in (1..=11).zip(BIK.iter()) {
        let (exact, with_early) = start.perft(depth);
        assert_eq!(with_early, leaves, "depth {depth}");
        ended.push((depth + 1, with_early - exact));
    }
    // Bik's split counts the first pass after a finished game as one more ply (two passes
    // end the game), so his "ended earlier" leaves at depth d are the games over within
    // d - 1 plies: those of the last two depths here.
    assert_eq!(ended[9..], BIK_ENDED_EARLIER[..2]);
    assert!(ended[..9].iter().all(|&(_, n)| n == 0));
    // The generic move-sequence count over the Game trait agrees before any game can end.
    assert_eq!(crate::lab::perft::perft(&start, 8), BIK[7]);
}

#[test]
#[ignore = "about a minute in release: Bik's depths 12 and 13"]
fn perft_equals_biks_table_at_depths_12_and_13() {
    let start = Othello::new();
    assert_eq!(start.perft(12).1, 1_939_886_636);
    let (exact, total) = start.perft(13);
    assert_eq!(total, 18_429_641_748);
    assert_eq!(
        start.perft(12).1 - start.perft(12).0,
        BIK_ENDED_EARLIER[2].1
    );
    assert!(exact < total);
}

#[test]
fn the_start_position_and_its_moves() {
    let start = Othello::new();
    assert_eq!(
        start.to_board_string(),
        format!(
            "{}OX{}XO{} X",
            "-".repeat(27),
            "-".repeat(6),
            "-".repeat(27)
        )
    );
    let written: Vec<String> = moves_of(&start).iter().map(ToString::to_string).collect();
    assert_eq!(written, ["d3", "c4", "f5", "e6"]);
    let mut after = start;
    after.play(start.parse_move("F5").unwrap());
    assert_eq!(after.side_to_move(), Player::Second);
    // f5 flips e5: black has d5, e4, e5, f5.
    let (black, white) = after.black_white();
    assert_eq!(black.count_ones(), 4);
    assert_eq!(white, 1 << 27);
    assert_eq!(after.plies_played(), 1);
    assert_eq!(start.status(), Status::Ongoing);
    assert_eq!(start.remaining_plies(), Some(120));
}

#[test]
fn positions_round_trip_and_bad_ones_are_refused() {
    let mut rng = XorShift::new(7);
    for _ in 0..200 {
        let mut p = Othello::new();
        while p.status() == Status::Ongoing {
            let moves = moves_of(&p);
            let mv = moves[rng.below(moves.len() as u64) as usize];
            assert_eq!(p.parse_move(&mv.to_string()), Ok(mv));
            assert_eq!(OthelloMove::parse(&mv.to_string().to_uppercase()), Ok(mv));
            p.play(mv);
            let back = pos(&p.to_board_string());
            assert_eq!(back.to_board_string(), p.to_board_string());
            // The board string has no passes: read back, the plies are the discs added,
            // and the hash, which keys the plies too, is the same exactly when they are.
            let same_plies = back.plies_played() == p.plies_played();
            assert_eq!(
                back.hash() == p.hash(),
                same_plies,
                "{}",
                p.to_board_string()
            );
        }
    }
    let board = "-".repeat(27) + "OX" + &"-".repeat(6) + "XO" + &"-".repeat(27);
    assert_eq!(pos(&format!("{board} X")), Othello::new());
    assert_eq!(pos(&format!("{board}X")).hash(), Othello::new().hash());
    assert_eq!(
        pos(&(board.replace('-', ".").replace('X', "*") + " x")),
        Othello::new()
    );
    for (bad, why) in [
        (board.clone(), "side to move"),
        (format!("{board} Z"), "not a side"),
        (format!("{board} X X"), "unexpected"),
        (format!("{} X", &board[1..]), "63 squares"),
        (format!("{}Q X", &board[1..]), "square 63 (`Q`)"),
        (String::new(), "0 squares"),
    ] {
        let err = Othello::parse_position(&bad).unwrap_err();
        assert!(err.0.contains(why), "{bad}: {err}");
    }
    let start = Othello::new();
    for bad in ["a9", "i1", "pas", "d4", "e3", "pass", ""] {
        assert!(start.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_pass_is_a_move_and_two_passes_end_the_game() {
    // Black everywhere but b1 (white), c1 and h8 (empty). White to move has no disc move
    // (every line from c1 or h8 runs over black discs to the edge); black can take c1,
    // flipping b1. So white must pass.
    let mut board = ['X'; 64];
    board[1] = 'O';
    board[2] = '-';
    board[63] = '-';
    let text: String = board.iter().collect();
    let p = pos(&format!("{text} O"));
    assert_eq!(p.move_set(), 0);
    assert_eq!(moves_of(&p), [OthelloMove::PASS]);
    assert_eq!(p.status(), Status::Ongoing);
    assert!(p.parse_move("PS").is_ok() && p.parse_move("pass").is_ok());
    let mut q = p;
    q.play(OthelloMove::PASS);
    assert_eq!(moves_of(&q), [OthelloMove(2)]);
    q.play(OthelloMove(2));
    // Black holds 63 discs, h8 is empty and nobody can move: over, -64 for white to move
    // (63 discs and the empty square to black).
    assert_eq!(moves_of(&q), []);
    assert_eq!(q.status(), Status::Over(Outcome::Points(-64 * DISC)));
    assert_eq!(q.final_discs(), -64);
}

#[test]
fn transpositions_share_a_hash_and_different_positions_do_not() {
    use std::collections::HashMap;
    // Every position within 5 plies: equal boards and sides if and only if equal hashes.
    let mut by_board = HashMap::new();
    let mut by_hash = HashMap::new();
    let mut frontier = vec![Othello::new()];
    let mut transpositions = 0;
    for _ in 0..5 {
        let mut next = Vec::new();
        for p in frontier {
            for mv in moves_of(&p) {
                let mut child = p;
                child.play(mv);
                let key = (child.black_white(), child.black_to_move());
                if let Some(&h) = by_board.get(&key) {
                    assert_eq!(h, child.hash());
                    transpositions += 1;
                    continue;
                }
                by_board.insert(key, child.hash());
                assert!(by_hash.insert(child.hash(), key).is_none());
                next.push(child);
            }
        }
        frontier = next;
    }
    assert!(transpositions > 0);
    let board = &Othello::new().to_board_string()[..64];
    assert_ne!(
        pos(&format!("{board} X")).hash(),
        pos(&format!("{board} O")).hash()
    );
}

/// Plain negamax over the Game trait to the end: the truth for the dedicated solver.
fn negamax(p: &Othello) -> i32 {
    if let Status::Over(o) = p.status() {
        return crate::game::score::of_outcome(o, 0) / DISC;
    }
    moves_of(p)
        .into_iter()
        .map(|mv| {
            let mut child = *p;
            child.play(mv);
            -negamax(&child)
        })
        .max()
        .expect("an ongoing position has a move")
}

/// Random games from the start, stopped with `empties` empty squares left (or at the end).
fn random_positions(seed: u64, count: usize, empties: u32) -> Vec<Othello> {
    let mut rng = XorShift::new(seed);
    (0..count)
        .map(|_| {
            let mut p = Othello::new();
            while p.empties() > empties && p.status() == Status::Ongoing {
                let moves = moves_of(&p);
                p.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            p
        })
        .collect()
}

#[test]
fn the_last_empties_solver_agrees_with_negamax_in_every_window() {
    // From 7 empties the solver passes through each of its routines (and its passes);
    // started with 1 to 4 it enters each of them first.
    let starts = (1..=4).flat_map(|empties| random_positions(u64::from(empties), 40, empties));
    for p in random_positions(11, 120, 7).into_iter().chain(starts) {
        let truth = negamax(&p);
        let mut nodes = SolverNodes::unlimited();
        assert_eq!(
            endgame::solve(p.player(), p.opponent(), -65, 65, false, &mut nodes),
            truth
        );
        for (a, b) in [
            (truth - 1, truth + 1),
            (truth, truth + 1),
            (truth - 1, truth),
            (-3, 4),
        ] {
            let v = endgame::solve(p.player(), p.opponent(), a, b, false, &mut nodes);
            if v <= a {
                assert!(
                    truth <= v,
                    "{}: {v} in ({a}, {b}), truth {truth}",
                    p.to_board_string()
                );
            } else if v >= b {
                assert!(
                    truth >= v,
                    "{}: {v} in ({a}, {b}), truth {truth}",
                    p.to_board_string()
                );
            } else {
                assert_eq!(v, truth, "{}", p.to_board_string());
            }
        }
        // Through the Game hook, in hundredths of a disc, with a window off the disc grid.
        let s = p.solve_endgame(truth * DISC - 50, truth * DISC + 50, 7, &mut nodes);
        assert_eq!(s, Some(truth * DISC));
        assert_eq!(p.solve_endgame(0, 1, p.empties() - 1, &mut nodes), None);
        assert!(nodes.count > 0);
    }
}

#[test]
fn the_evaluation_is_bounded_and_hints_prefer_corners() {
    for p in random_positions(3, 50, 20) {
        let v = OthelloEval::STANDARD.evaluate(&p);
        assert!(v.abs() <= 64 * DISC);
        assert_eq!(Evaluator::<Othello>::evaluate(&Neutral, &p), 0);
    }
    let hint = |m: &str| {
        OthelloEval::STANDARD.order_hint(&Othello::new(), OthelloMove::parse(m).unwrap(), 1)
    };
    assert!(hint("a1") > hint("c3") && hint("c3") > hint("b2"));
}

#[test]
fn fforum_records_are_read_with_their_best_moves() {
    let text = include_str!("../../../experiments/data/othello/fforum-1-19.obf");
    let records: Vec<obf::ObfRecord> = text.lines().map(|l| obf::parse_line(l).unwrap()).collect();
    assert_eq!(records.len(), 19);
    assert_eq!(records[0].score(), Some(18));
    assert_eq!(records[0].best_moves(), [OthelloMove::parse("g8").unwrap()]);
    // FFO #2 and #4 have two best moves? #4: H8:+0 and A5:+0.
    assert_eq!(records[3].best_moves().len(), 2);
    for r in &records {
        // Every legal move is listed.
        assert_eq!(r.moves.len(), moves_of(&r.position).len(), "{}", r.board);
        assert_eq!(
            r.position.empties(),
            64 - (r.board[..64].matches(['X', 'O']).count() as u32)
        );
    }
    for bad in [
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8+18;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; A1:+18;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:x;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+99;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:2; G8:2;",
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- ; G8:2;",
        // Odd: a final difference with the empties given to the winner is even.
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+17;",
    ] {
        assert!(obf::parse_line(bad).is_err(), "{bad}");
    }
    let good = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
    assert!(obf::parse_line(good).is_ok());
}

#[test]
fn a_board_with_multi_byte_characters_is_refused_not_split_inside_one() {
    // 63 squares, a three-byte character, and `X` glued on: 65 characters, 67 bytes. Found
    // by the othello fuzz target (fuzz/seeds/othello/crash-board-split-inside-a-character).
    let text = format!("{}€X", "-".repeat(63));
    assert!(Othello::parse_position(&text).is_err());
    // The glued side still reads as the separate one.
    let board = "-".repeat(27) + "OX" + &"-".repeat(6) + "XO" + &"-".repeat(27);
    let glued = Othello::parse_position(&format!("{board}X"));
    assert!(glued.is_ok(), "{glued:?}");
    assert_eq!(
        glued.ok(),
        Othello::parse_position(&format!("{board} X")).ok()
    );
}

#[test]
fn a_board_with_an_empty_centre_square_is_refused() {
    let start = "-".repeat(27) + "OX" + &"-".repeat(6) + "XO" + &"-".repeat(27);
    assert!(Othello::parse_position(&format!("{start} X")).is_ok());
    for (square, name) in [(27, "d4"), (28, "e4"), (35, "d5"), (36, "e5")] {
        let mut board: Vec<char> = start.chars().collect();
        board[square] = '-';
        let text: String = board.into_iter().collect();
        let err = Othello::parse_position(&format!("{text} X"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("centre square {name} is empty")),
            "{err}"
        );
    }
}

/// Edax's `NWS_STABILITY_THRESHOLD` (src/search.c) up to 10 empty squares: the least alpha
/// at which its solver looks for a stability cutoff (99: never).
const EDAX_STABILITY_THRESHOLD: [i32; 11] = [99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20];

/// The final disc difference for `p` against `o`, the empty squares to the winner.
fn final_difference(p: u64, o: u64) -> i32 {
    let diff = p.count_ones() as i32 - o.count_ones() as i32;
    let empty = 64 - (p | o).count_ones() as i32;
    diff + diff.signum() * empty
}

/// The last-empties solver as the module doc of `endgame` describes it, written out
/// plainly, for its value and its node count: fail-soft negamax alpha-beta; one node per
/// position visited with an empty square left (a pass visits the position again, the full
/// board is scored, not visited); the last empty square played by whoever can (side to
/// move first); from four empties, where alpha reaches Edax's threshold, a fail low at
/// `64 - 2 × the opponent's stable discs` when that is at most alpha; the moves in parity
/// order, the squares of 4x4 quadrants holding an odd number of empties first, each group
/// in square order. `cuts` counts the stability cutoffs taken. Moves come from
/// `bits::flips` (checked by perft) and stable discs from `stability::stable_discs`
/// (checked against their own definition in its tests): the solver's shortcuts to them
/// (the neighbour test, the last-flip count, the incremental parity) are not used here.
fn reference_solve(
    p: u64,
    o: u64,
    window: (i32, i32),
    passed: bool,
    nodes: &mut u64,
    cuts: &mut u32,
) -> i32 {
    let (mut alpha, beta) = window;
    let empty = !(p | o);
    let empties = empty.count_ones();
    *nodes += 1;
    if empties == 1 {
        let sq = empty.trailing_zeros();
        let (mine, theirs) = (bits::flips(sq, p, o), bits::flips(sq, o, p));
        return if mine != 0 {
            final_difference(p | mine | 1 << sq, o & !mine)
        } else if theirs != 0 {
            final_difference(p & !theirs, o | theirs | 1 << sq)
        } else {
            final_difference(p, o)
        };
    }
    if empties >= 4 && alpha >= EDAX_STABILITY_THRESHOLD[empties as usize] {
        let bound = 64 - 2 * stability::stable_discs(o, p).count_ones() as i32;
        if bound <= alpha {
            *cuts += 1;
            return bound;
        }
    }
    // The empties of each quadrant: files a-d or e-h, rows 1-4 or 5-8.
    let quadrant = |sq: u32| (sq % 8 / 4 + sq / 32 * 2) as usize;
    let squares: Vec<u32> = (0..64).filter(|&sq| empty >> sq & 1 == 1).collect();
    let mut in_quadrant = [0; 4];
    for &sq in &squares {
        in_quadrant[quadrant(sq)] += 1;
    }
    let (odd, even): (Vec<u32>, Vec<u32>) = squares
        .into_iter()
        .partition(|&sq| in_quadrant[quadrant(sq)] % 2 == 1);
    let mut best = None;
    for sq in odd.into_iter().chain(even) {
        let flipped = bits::flips(sq, p, o);
        if flipped == 0 {
            continue;
        }
        let (next, mine) = (o & !flipped, p | flipped | 1 << sq);
        let value = -reference_solve(next, mine, (-beta, -alpha), false, nodes, cuts);
        if best.is_none_or(|b| value > b) {
            best = Some(value);
            if value >= beta {
                return value;
            }
            alpha = alpha.max(value);
        }
    }
    match best {
        Some(value) => value,
        None if passed => final_difference(p, o),
        None => -reference_solve(o, p, (-beta, -alpha), true, nodes, cuts),
    }
}

/// The solver's values and node counts equal those of its definition
/// ([`reference_solve`]) in many windows, from 1 to 10 empties, its routines entered at
/// each count and the stability cutoff taken (its thresholds reached in high windows); and
/// the reference's values equal plain negamax up to 7 empties. Through
/// `Game::solve_endgame` the count is the reference's in the window rounded out to whole
/// discs. The counts pin what values cannot: the parity order, the node count of each
/// routine, the last square scored without a node, the cutoff taken where it applies.
#[test]
fn the_solver_counts_the_nodes_of_its_definition_in_its_order() {
    let mut positions: Vec<Othello> = (1..=10)
        .flat_map(|empties| random_positions(100 + u64::from(empties), 30, empties))
        .collect();
    // Boards where the opponent holds exactly the squares around an empty one.
    positions.extend(ringed_positions(7, 64));
    let (mut cuts, mut passes_seen) = (0, 0);
    for p in &positions {
        let (player, opponent) = (p.player(), p.opponent());
        let full = reference_solve(player, opponent, (-65, 65), false, &mut 0, &mut 0);
        if p.empties() <= 7 {
            assert_eq!(
                full,
                negamax(p),
                "reference against negamax: {}",
                p.to_board_string()
            );
        }
        passes_seen += u32::from(p.move_set() == 0);
        for window in [
            (-65, 65),
            (full - 1, full + 1),
            (full, full + 1),
            (full - 1, full),
            (-3, 4),
            (10, 30),
            (20, 21),
            (40, 64),
        ] {
            let (mut want_nodes, mut c) = (0, 0);
            let want = reference_solve(player, opponent, window, false, &mut want_nodes, &mut c);
            cuts += c;
            let mut nodes = SolverNodes::unlimited();
            let got = endgame::solve(player, opponent, window.0, window.1, false, &mut nodes);
            let what = format!("{} in {window:?}", p.to_board_string());
            assert_eq!(
                (got, nodes.count),
                (want, want_nodes),
                "(value, nodes) of {what}"
            );
            // The same window a quarter disc wider each way, in hundredths of a disc.
            let mut nodes = SolverNodes::unlimited();
            let (a, b) = (window.0 * DISC - 25, window.1 * DISC + 25);
            let (mut wide_nodes, mut c) = (0, 0);
            let wide = ((window.0 - 1).max(-65), (window.1 + 1).min(65));
            let want = reference_solve(player, opponent, wide, false, &mut wide_nodes, &mut c);
            let got = p.solve_endgame(a, b, 10, &mut nodes);
            assert_eq!(
                (got, nodes.count),
                (Some(want * DISC), wide_nodes),
                "(value, nodes) through the Game hook, {what} widened"
            );
        }
    }
    // The checks reach the stability cutoff and the passes.
    assert!(
        cuts > 100 && passes_seen > 0,
        "{cuts} cutoffs, {passes_seen} passes"
    );
}

/// `count` boards with `empties` empty squares, player to move, on which the opponent holds
/// exactly the squares around one empty square (3, 5 or 8 discs, the square taken in turn
/// from a1 on) and the player every other square but the rest of the empties (seeded). A
/// move there turns over the ring's discs lined up with a player disc beyond: a solver that
/// took "the opponent's discs are exactly its neighbours" for "no opponent disc beside it"
/// would miss it.
fn ringed_positions(empties: u32, count: usize) -> Vec<Othello> {
    let mut rng = XorShift::new(u64::from(empties));
    (0..count)
        .map(|i| {
            let (file, rank) = (i as i32 % 8, i as i32 / 8 % 8);
            let mut ring = 0u64;
            for (f, r) in (-1..=1).flat_map(|df| (-1..=1).map(move |dr| (file + df, rank + dr))) {
                if (0..8).contains(&f) && (0..8).contains(&r) && (f, r) != (file, rank) {
                    ring |= 1 << (8 * r + f);
                }
            }
            let mut empty = 1u64 << (8 * rank + file);
            while empty.count_ones() < empties {
                empty |= (1 << rng.below(64)) & !ring;
            }
            Othello::from_discs(!ring & !empty, ring, true, 0)
        })
        .collect()
}

/// One square of [`ArrayBoard`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Black,
    White,
}

/// The eight directions as (row step, column step).
const LINES: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The rules on a plain 8x8 array, square by square, written from the module doc and
/// using nothing of the bitboards: a disc goes on an empty square that brackets a line of
/// opponent discs in one of eight directions, and those discs turn; a side without such a
/// square passes if the other side has one; when neither has one the game is over.
#[derive(Clone)]
struct ArrayBoard {
    /// Row by row from a1: index `8 * row + column`, as the board strings.
    cells: [Cell; 64],
    black_to_move: bool,
    plies: u32,
}

impl ArrayBoard {
    /// d4 and e5 white, e4 and d5 black, black to move.
    fn start() -> Self {
        let mut cells = [Cell::Empty; 64];
        cells[3 * 8 + 3] = Cell::White;
        cells[4 * 8 + 4] = Cell::White;
        cells[3 * 8 + 4] = Cell::Black;
        cells[4 * 8 + 3] = Cell::Black;
        Self {
            cells,
            black_to_move: true,
            plies: 0,
        }
    }

    /// The square at (row, column), `None` off the board.
    fn at(&self, r: i32, c: i32) -> Option<Cell> {
        ((0..8).contains(&r) && (0..8).contains(&c)).then(|| self.cells[(8 * r + c) as usize])
    }

    /// The side to move's colour and the other's.
    fn sides(&self) -> (Cell, Cell) {
        if self.black_to_move {
            (Cell::Black, Cell::White)
        } else {
            (Cell::White, Cell::Black)
        }
    }

    /// The squares `me` turns over by playing on `sq`: none if it is taken or brackets
    /// nothing.
    fn turned(&self, sq: usize, me: Cell, them: Cell) -> Vec<usize> {
        let mut out = Vec::new();
        if self.cells[sq] != Cell::Empty {
            return out;
        }
        let (r0, c0) = ((sq / 8) as i32, (sq % 8) as i32);
        for (dr, dc) in LINES {
            let (mut r, mut c, mut run) = (r0 + dr, c0 + dc, Vec::new());
            while self.at(r, c) == Some(them) {
                run.push((8 * r + c) as usize);
                (r, c) = (r + dr, c + dc);
            }
            if self.at(r, c) == Some(me) {
                out.extend(run);
            }
        }
        out
    }

    /// The squares `me` may play on, in square order.
    fn squares(&self, me: Cell, them: Cell) -> Vec<usize> {
        (0..64)
            .filter(|&sq| !self.turned(sq, me, them).is_empty())
            .collect()
    }

    /// The moves: the squares, else a pass (`None`) if the other side has a square, else
    /// none (the game is over).
    fn moves(&self) -> Vec<Option<usize>> {
        let (me, them) = self.sides();
        let mine = self.squares(me, them);
        if !mine.is_empty() {
            mine.into_iter().map(Some).collect()
        } else if self.squares(them, me).is_empty() {
            Vec::new()
        } else {
            vec![None]
        }
    }

    fn play(&mut self, mv: Option<usize>) {
        let (me, them) = self.sides();
        if let Some(sq) = mv {
            for t in self.turned(sq, me, them) {
                self.cells[t] = me;
            }
            self.cells[sq] = me;
        }
        self.black_to_move = !self.black_to_move;
        self.plies += 1;
    }

    fn count(&self, cell: Cell) -> i32 {
        self.cells.iter().filter(|&&c| c == cell).count() as i32
    }

    /// The side to move's disc difference with the empty squares added to the winner's
    /// discs (a draw: 0).
    fn difference(&self) -> i32 {
        let (me, them) = self.sides();
        let (mine, theirs) = (self.count(me), self.count(them));
        let empty = self.count(Cell::Empty);
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => mine + empty - theirs,
            std::cmp::Ordering::Less => mine - theirs - empty,
            std::cmp::Ordering::Equal => 0,
        }
    }

    fn bits(&self, cell: Cell) -> u64 {
        (0..64)
            .filter(|&i| self.cells[i] == cell)
            .fold(0, |b, i| b | 1 << i)
    }

    fn board_string(&self) -> String {
        let mut s: String = self
            .cells
            .iter()
            .map(|c| match c {
                Cell::Black => 'X',
                Cell::White => 'O',
                Cell::Empty => '-',
            })
            .collect();
        s.push_str(if self.black_to_move { " X" } else { " O" });
        s
    }

    /// Edax's fast move evaluation as `Game::refined_mobility`'s doc defines it, counted
    /// on the array from the side to move: its squares (a corner twice) times 1024, less
    /// 64 per disc of the player who just moved that is a corner or beside a corner of its
    /// own along the edge, plus one per empty square (a corner twice) next to one of that
    /// player's discs with a square of the board beyond the disc on the same line.
    fn refined_mobility(&self) -> i64 {
        let (me, mover) = self.sides();
        let corner = |r: i32, c: i32| (r == 0 || r == 7) && (c == 0 || c == 7);
        let weight = |sq: usize| 1 + i64::from(corner((sq / 8) as i32, (sq % 8) as i32));
        let mobility: i64 = self.squares(me, mover).into_iter().map(weight).sum();
        let (mut stable, mut potential) = (0, 0);
        for sq in 0..64 {
            let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
            let edge = r == 0 || r == 7 || c == 0 || c == 7;
            let own_corner_beside = [(0, 1), (0, -1), (1, 0), (-1, 0)]
                .iter()
                .any(|&(dr, dc)| corner(r + dr, c + dc) && self.at(r + dr, c + dc) == Some(mover));
            if self.cells[sq] == mover && (corner(r, c) || edge && own_corner_beside) {
                stable += 1;
            }
            let against = LINES.iter().any(|&(dr, dc)| {
                self.at(r + dr, c + dc) == Some(mover) && self.at(r + 2 * dr, c + 2 * dc).is_some()
            });
            if self.cells[sq] == Cell::Empty && against {
                potential += weight(sq);
            }
        }
        mobility * 1024 - stable * 64 + potential
    }

    /// 1 if `sq`'s 4x4 quadrant (files a-d or e-h, rows 1-4 or 5-8) holds an odd number of
    /// empty squares, else 0.
    fn odd_quadrant(&self, sq: usize) -> i32 {
        let quadrant = |s: usize| (s % 8 / 4, s / 32);
        let empties = (0..64)
            .filter(|&s| quadrant(s) == quadrant(sq) && self.cells[s] == Cell::Empty)
            .count();
        (empties % 2) as i32
    }
}

/// `Othello` against [`ArrayBoard`] at every position of 400 seeded random games: board
/// string, side, plies (passes included), discs, moves in square order with the pass
/// only when the other side can move, legality of every square and `pass` as text, status
/// and final difference (empties to the winner, a draw 0), remaining plies (twice the
/// empties, never fewer than the game has left), refined mobility and region parity as
/// their docs define them. The truth is the array's square-by-square rules.
#[test]
fn every_position_of_random_games_agrees_with_an_array_board() {
    let mut rng = XorShift::new(2024);
    let names: Vec<String> = (0..64)
        .map(|sq| format!("{}{}", char::from(b'a' + sq % 8), sq / 8 + 1))
        .chain(["pass".to_owned()])
        .collect();
    let (mut passes, mut draws, mut early_ends) = (0, 0, 0);
    for game in 0..400 {
        let (mut p, mut a) = (Othello::new(), ArrayBoard::start());
        let mut seen = Vec::new();
        loop {
            let what = format!("game {game}, {}", a.board_string());
            assert_eq!(p.to_board_string(), a.board_string(), "board, {what}");
            assert_eq!(p.black_to_move(), a.black_to_move, "side, {what}");
            let side = [Player::Second, Player::First][usize::from(a.black_to_move)];
            assert_eq!(p.side_to_move(), side, "side, {what}");
            assert_eq!(p.plies_played(), a.plies, "plies, {what}");
            let (black, white) = (a.bits(Cell::Black), a.bits(Cell::White));
            assert_eq!(p.black_white(), (black, white), "discs, {what}");
            let (me, them) = if a.black_to_move {
                (black, white)
            } else {
                (white, black)
            };
            assert_eq!(
                (p.player(), p.opponent()),
                (me, them),
                "sides' discs, {what}"
            );
            assert_eq!(p.empties(), a.count(Cell::Empty) as u32, "empties, {what}");
            assert_eq!(p.empty(), a.bits(Cell::Empty), "empty squares, {what}");
            let want = a.moves();
            let want_moves: Vec<OthelloMove> = want
                .iter()
                .map(|m| m.map_or(OthelloMove::PASS, |sq| OthelloMove(sq as u8)))
                .collect();
            assert_eq!(moves_of(&p), want_moves, "moves, {what}");
            let squares = want.iter().flatten().fold(0u64, |b, &sq| b | 1 << sq);
            assert_eq!(p.move_set(), squares, "move set, {what}");
            let scratch = &mut Vec::new();
            assert_eq!(
                p.move_count(scratch),
                squares.count_ones() as usize,
                "{what}"
            );
            for (i, name) in names.iter().enumerate() {
                let legal = want.contains(&(i < 64).then_some(i));
                assert_eq!(p.parse_move(name).is_ok(), legal, "`{name}` legal? {what}");
            }
            assert_eq!(p.final_discs(), a.difference(), "final difference, {what}");
            assert_eq!(
                p.remaining_plies(),
                Some(2 * p.empties()),
                "plies left, {what}"
            );
            let refined = (p.refined_mobility(scratch), a.refined_mobility());
            assert_eq!(refined.0, refined.1, "refined mobility, {what}");
            for &mv in &want_moves {
                let parity = mv.index().map_or(0, |sq| a.odd_quadrant(usize::from(sq)));
                assert_eq!(p.region_parity(mv), parity, "parity of {mv}, {what}");
            }
            seen.push((p.plies_played(), p.empties()));
            if want.is_empty() {
                let d = a.difference();
                let over = if d == 0 {
                    Outcome::Draw
                } else {
                    Outcome::Points(d * DISC)
                };
                assert_eq!(p.status(), Status::Over(over), "{what}");
                draws += u32::from(d == 0);
                early_ends += u32::from(a.count(Cell::Empty) > 0);
                break;
            }
            assert_eq!(p.status(), Status::Ongoing, "{what}");
            let mv = want[rng.below(want.len() as u64) as usize];
            passes += u32::from(mv.is_none());
            p.play(mv.map_or(OthelloMove::PASS, |sq| OthelloMove(sq as u8)));
            a.play(mv);
        }
        // Twice the empties bounds the plies left at every position of the game.
        for (plies, empties) in seen {
            assert!(
                a.plies - plies <= 2 * empties,
                "game {game}: too few plies left"
            );
        }
    }
    // The games met passes, draws and games over before the board was full.
    assert!(
        passes > 0 && draws > 0 && early_ends > 0,
        "{passes} passes, {draws} draws, {early_ends} games over with empties"
    );
}

/// `othello_discs` gives a root score in whole discs exactly when it is a multiple of
/// `DISC` within ±64 discs (its doc): every score from -70 to +70 discs in quarter-disc
/// steps, with the grid and the bound tested here by integer arithmetic of their own.
#[test]
fn root_scores_read_as_discs_only_on_the_disc_grid_within_64() {
    for s in (-70 * DISC..=70 * DISC).step_by(25) {
        let on_grid = s.rem_euclid(100) == 0;
        let want = (on_grid && s.abs() <= 6400).then(|| s.div_euclid(100));
        assert_eq!(othello_discs(s), want, "score {s}");
    }
    // Off the grid by one hundredth at the bounds.
    for s in [-6401, -6399, -1, 1, 6399, 6401] {
        assert_eq!(othello_discs(s), None, "score {s}");
    }
}

/// Squares 0-63 are moves, 64 and up are not, and only the pass has no square
/// (`OthelloMove`'s docs); the names run a1..h1, a2..h8 in square order.
#[test]
fn squares_and_their_indices_cover_the_board_and_nothing_else() {
    for i in 0..=255u8 {
        let mv = OthelloMove::square(i);
        assert_eq!(mv.is_some(), i < 64, "square {i}");
        if let Some(mv) = mv {
            assert_eq!(mv.index(), Some(i), "index of square {i}");
            let name = format!("{}{}", char::from(b'a' + i % 8), i / 8 + 1);
            assert_eq!(mv.to_string(), name, "name of square {i}");
        }
    }
    assert_eq!(OthelloMove::PASS.index(), None);
    assert_eq!(OthelloMove::PASS.to_string(), "pass");
}

/// `Game::move_code` is unique among the legal moves of any position (its doc): the 64
/// squares and the pass, every move Othello has, get 65 different codes.
#[test]
fn every_move_has_a_code_of_its_own() {
    let all = (0..64).map(OthelloMove).chain([OthelloMove::PASS]);
    let codes: std::collections::HashSet<u16> = all.map(Othello::move_code).collect();
    assert_eq!(codes.len(), 65, "distinct codes among the 65 moves");
}

/// A board read from text counts as plies the discs added to the start's four (a board
/// string has no passes), so along a seeded random game it reads back with the plies
/// played for as long as no pass has been played, and with fewer by the passes after.
#[test]
fn a_board_read_from_text_counts_the_discs_added_as_plies() {
    let mut rng = XorShift::new(99);
    for _ in 0..50 {
        let (mut p, mut passes) = (Othello::new(), 0);
        while p.status() == Status::Ongoing {
            let moves = moves_of(&p);
            let mv = moves[rng.below(moves.len() as u64) as usize];
            passes += u32::from(mv == OthelloMove::PASS);
            p.play(mv);
            let read = pos(&p.to_board_string());
            let added = 64 - p.empties() - 4;
            let board = p.to_board_string();
            assert_eq!(read.plies_played(), added, "plies read back from {board}");
            assert_eq!(
                read.plies_played() + passes,
                p.plies_played(),
                "passes {passes}"
            );
        }
    }
}

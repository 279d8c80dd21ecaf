//! Checkers endgame databases by retrograde analysis: the position counts of Schaeffer et
//! al., "Checkers Is Solved" (Science 317, 2007, table 1), entries against plylab's own
//! alpha-beta search on random positions, probing inside the search, and the command line.

use crate::common::{TempDir, plylab};
use plylab::game::{Game, Player, score};
use plylab::games::checkers::{BLACK, Checkers, CheckersEval, WHITE};
use plylab::knowledge::tablebase::Tablebases;
use plylab::knowledge::tablebase::checkers::{
    CheckersTable, MAX_PIECES, build_checkers, count_positions,
};
use plylab::rng::XorShift;
use plylab::search::probe::{Exact, Probe};
use plylab::search::{Limits, SearchConfig, Searcher, search};
use std::collections::HashMap;

fn built(pieces: u32) -> CheckersTable {
    build_checkers(pieces, &mut |_, _| {})
        .expect("1 to 4 pieces")
        .0
}

/// Table 1 of Schaeffer et al. (2007): positions by number of pieces. They count each
/// placement of men and kings once (one side to move), either side possibly without a
/// piece, men never on the row where they would be crowned.
const SCHAEFFER: [u64; 4] = [120, 6_972, 261_224, 7_092_774];

#[test]
fn position_counts_are_schaeffer_2007_table_1() {
    // The build's own statistics, to 3 pieces (the 4-piece build is the experiment's).
    let (_, stats) = build_checkers(3, &mut |_, _| {}).expect("builds");
    assert_eq!(stats.positions, SCHAEFFER[..3]);
    for (k, outcome) in stats.outcomes.iter().enumerate() {
        assert_eq!(outcome.iter().sum::<u64>(), SCHAEFFER[k]);
    }
    // The 4-piece count by the table's own enumeration, without the build.
    assert_eq!(MAX_PIECES, 4);
    assert_eq!(count_positions(4), SCHAEFFER[3]);
}

/// One piece: the side to move wins at once with a move (the other side has none left to
/// move), and loses at once without a piece.
#[test]
fn single_pieces_by_hand() {
    let table = built(2);
    let value = |fen: &str| {
        table.probe(&plylab::games::checkers::notation::parse_position(fen).expect("fen"))
    };
    assert_eq!(value("B:W:BK1"), Some(Exact::Win(1)));
    assert_eq!(value("W:W:BK1"), Some(Exact::Loss(0)));
    assert_eq!(value("W:W18:B"), Some(Exact::Win(1)));
    // Two kings: a draw.
    assert_eq!(value("B:WK18:BK1"), Some(Exact::Draw));
    // Three pieces: more than the table holds.
    assert_eq!(value("B:WK18:BK1,K2"), None);
}

fn alphabeta() -> SearchConfig {
    SearchConfig {
        tt_mb: 4,
        ..SearchConfig::default()
    }
}

/// Random positions of `pieces` pieces with their table values (seeded), Black or White to
/// move: `count` of any value and `count` decided within `horizon` plies.
fn sample(
    table: &CheckersTable,
    pieces: u32,
    seed: u64,
    count: usize,
    horizon: u32,
) -> Vec<(Checkers, Exact)> {
    let mut rng = XorShift::new(seed);
    let (mut any, mut short) = (Vec::new(), Vec::new());
    while any.len() < count || short.len() < count {
        let (pos, value) = table.sample(pieces, &mut rng);
        let decided = matches!(value, Exact::Win(d) | Exact::Loss(d) if d <= horizon);
        if decided && short.len() < count {
            short.push((pos, value));
        } else if any.len() < count {
            any.push((pos, value));
        }
    }
    any.extend(short);
    any
}

/// Each sampled entry agrees with plylab's alpha-beta search (no database): a win or loss
/// within `horizon` plies is found at exactly that distance, and nothing decisive is found
/// within the horizon for a longer one or a draw.
fn agrees_with_search(pieces: u32, seed: u64, count: usize, horizon: u32) {
    let table = built(pieces);
    let config = alphabeta();
    let eval = CheckersEval::default();
    for (pos, value) in sample(&table, pieces, seed, count, horizon) {
        let short = matches!(value, Exact::Win(d) | Exact::Loss(d) if d <= horizon);
        let depth = match value {
            Exact::Win(d) | Exact::Loss(d) if short => d.max(1),
            _ => horizon,
        };
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let found = search(&pos, &eval, &config, &limits).score();
        let Some(found) = found else {
            // No move: the table says lost now.
            assert_eq!(value, Exact::Loss(0), "{pos:?}");
            continue;
        };
        if short {
            assert_eq!(found, value.score(0), "{pos:?}: table {value:?}");
        } else {
            assert!(
                !score::is_decisive(found),
                "{pos:?}: table {value:?}, search {found} at depth {depth}"
            );
        }
    }
}

#[test]
fn two_piece_entries_agree_with_alphabeta() {
    agrees_with_search(2, 11, 60, 9);
}

#[test]
fn three_piece_entries_agree_with_alphabeta() {
    agrees_with_search(3, 12, 60, 9);
}

/// With the database, a one-ply search knows the exact distance of a long win (beyond any
/// horizon the search reaches alone), and the probes are counted.
#[test]
fn probing_search_scores_long_wins_exactly() {
    let tables = Tablebases::checkers(built(3));
    let probe: &dyn Probe<Checkers> = &tables;
    let config = alphabeta();
    let eval = CheckersEval::default();
    let mut rng = XorShift::new(13);
    let table = built(3);
    let mut checked = 0;
    while checked < 30 {
        let (pos, value) = table.sample(3, &mut rng);
        if !matches!(value, Exact::Win(d) | Exact::Loss(d) if d > 20) {
            continue;
        }
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let result = Searcher::new(&eval, &config)
            .with_knowledge(Some(probe))
            .run(&pos, &limits);
        assert_eq!(result.score(), Some(value.score(0)), "{pos:?}");
        assert!(result.total.tb_hits > 0);
        assert_eq!(tables.probe(&pos), Some(value));
        checked += 1;
    }
}

/// Given several checkers databases, the largest answers, whichever order they come in: a
/// 3-piece position is probed beside a 2-piece table (as the docs of `Tablebases` say).
#[test]
fn the_largest_of_several_checkers_databases_answers() {
    let tmp = TempDir::new("checkers-largest");
    let (two, three) = (tmp.path("checkers2.plytb"), tmp.path("checkers3.plytb"));
    built(2).save(&two).expect("saved");
    built(3).save(&three).expect("saved");
    let pos = plylab::games::checkers::notation::parse_position("B:WK18:BK1,K2").expect("fen");
    for (first, second) in [(&two, &three), (&three, &two)] {
        let tables = Tablebases::load(&[first.clone(), second.clone()]).expect("loads");
        assert_eq!(tables.names(), ["CHK3"]);
        assert!(tables.probe_checkers(&pos).is_some());
    }
}

#[test]
fn build_probe_and_damaged_files_on_the_command_line() {
    let tmp = TempDir::new("checkers-tablebase");
    let file = tmp.path("checkers2.plytb");
    let path = file.to_str().expect("utf-8");
    let (code, stdout, stderr) = plylab(&["tablebase", "build", "checkers", "2", "--out", path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("6972"), "{stdout}");
    let (code, stdout, _) = plylab(&["tablebase", "probe", path, "B:W:BK1"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.trim(), "win in 1 ply");
    // Three pieces are not in a table of up to two: refused, naming what it holds.
    let (code, _, stderr) = plylab(&["tablebase", "probe", path, "B:W5,6:BK1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("1 to 2 pieces"), "{stderr}");

    let bytes = std::fs::read(&file).expect("written");
    let mut flipped = bytes.clone();
    flipped[500] ^= 4;
    std::fs::write(&file, &flipped).expect("write");
    let (code, _, stderr) = plylab(&["tablebase", "probe", path, "B:W:BK1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("checksum") && stderr.contains(path),
        "{stderr}"
    );
    std::fs::write(&file, &bytes[..bytes.len() - 1]).expect("write");
    let (code, _, stderr) = plylab(&["tablebase", "probe", path, "B:W:BK1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("truncated"), "{stderr}");

    for bad in ["5", "0", "KRK"] {
        let (code, _, stderr) = plylab(&["tablebase", "build", "checkers", bad]);
        assert_eq!(code, 2, "{bad}: {stderr}");
        assert!(stderr.contains("1 to 4"), "{stderr}");
    }
}

/// The value one ply up from the values of the moves' results, by the definition: a win in
/// `d + 1` through the fastest move to a loss in `d`, else a draw if a move draws, else a
/// loss in `d + 1` through the slowest move to a win in `d`; lost in 0 without a move.
fn backed_up(children: impl Iterator<Item = Exact>) -> Exact {
    let (mut fastest_win, mut drawn, mut slowest_loss) = (None::<u32>, false, None::<u32>);
    for child in children {
        match child {
            Exact::Loss(d) => fastest_win = Some(fastest_win.map_or(d + 1, |w| w.min(d + 1))),
            Exact::Draw => drawn = true,
            Exact::Win(d) => slowest_loss = slowest_loss.max(Some(d + 1)),
        }
    }
    match (fastest_win, drawn, slowest_loss) {
        (Some(d), _, _) => Exact::Win(d),
        (None, true, _) => Exact::Draw,
        (None, false, d) => Exact::Loss(d.unwrap_or(0)),
    }
}

/// The library refuses 0 and more than [`MAX_PIECES`] pieces, and builds 4: its counts are
/// Schaeffer's (the other test counts 4 pieces without a build), and random entries, many
/// with a capture (4 pieces give the side to move a choice of winning captures), are the
/// values their moves' entries give one ply up. No test built 4 pieces before: the
/// experiment's database is built once and reused.
#[test]
fn four_pieces_build_and_their_entries_back_up_one_ply() {
    for bad in [0, MAX_PIECES + 1] {
        assert!(build_checkers(bad, &mut |_, _| {}).is_err(), "{bad}");
    }
    let (table, stats) = build_checkers(4, &mut |_, _| {}).expect("4 pieces build");
    assert_eq!(stats.positions, SCHAEFFER);
    let mut rng = XorShift::new(14);
    let mut moves = Vec::new();
    let mut captures = 0;
    for _ in 0..20_000 {
        let (pos, value) = table.sample(4, &mut rng);
        moves.clear();
        pos.generate_moves(&mut moves);
        captures += usize::from(moves.iter().any(|m| m.is_capture()));
        let children = moves.iter().map(|&mv| {
            let mut after = pos;
            after.play(mv);
            table.probe(&after).expect("fewer pieces or as many")
        });
        assert_eq!(value, backed_up(children), "{pos:?}");
    }
    assert!(captures > 1000, "{captures} positions with a capture");
}

/// Every position of 1 to `max` pieces, Black or White to move: each set of squares, each
/// piece a man or a king of either colour (placements the game refuses, men on their
/// crowning row, are left out).
fn every_position(max: u32) -> Vec<Checkers> {
    // The sets of 1 to `max` of the 32 squares, each grown from a smaller one by a square
    // above its highest.
    let mut sets: Vec<u32> = (0..32).map(|s| 1 << s).collect();
    let mut last = sets.clone();
    for _ in 1..max {
        last = last
            .iter()
            .flat_map(|&set| (32 - set.leading_zeros()..32).map(move |s| set | 1 << s))
            .collect();
        sets.extend(&last);
    }
    let mut out = Vec::new();
    for set in sets {
        let squares: Vec<u32> = (0..32).filter(|s| set >> s & 1 == 1).collect();
        for kinds in 0..4u32.pow(set.count_ones()) {
            // Two bits a piece: colour (0 Black, 1 White), then crowned.
            let (mut black, mut white, mut kings) = (0, 0, 0);
            for (i, &s) in squares.iter().enumerate() {
                let kind = kinds >> (2 * i) & 3;
                if kind & 1 == 0 {
                    black |= 1 << s;
                } else {
                    white |= 1 << s;
                }
                if kind & 2 != 0 {
                    kings |= 1 << s;
                }
            }
            for side in [BLACK, WHITE] {
                out.extend(Checkers::from_pieces(black, white, kings, side).ok());
            }
        }
    }
    out
}

/// `C(n, k)`.
fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

/// The build's slot count and peak memory are what its statistics say they count. Slots:
/// for each material (black men, black kings, white men, white kings) the placements of
/// each kind on its squares, kinds independent (28 squares for men, 32 for kings). Peak:
/// the values and the counters (a byte per slot each) and the longest level list (4 bytes
/// per position), a level being the Black-to-move positions of one piece count decided at
/// one distance. No test looked at either figure.
#[test]
fn slots_and_peak_bytes_are_what_the_statistics_say() {
    let (table, stats) = build_checkers(3, &mut |_, _| {}).expect("builds");
    let mut slots = 0;
    for n in 1..=3 {
        for bm in 0..=n {
            for bk in 0..=n - bm {
                for wm in 0..=n - bm - bk {
                    let wk = n - bm - bk - wm;
                    let men = binomial(28, bm) * binomial(28, wm);
                    slots += men * binomial(32, bk) * binomial(32, wk);
                }
            }
        }
    }
    assert_eq!(stats.slots as u64, slots);
    let mut levels = HashMap::new();
    for pos in every_position(3)
        .iter()
        .filter(|p| p.side_to_move() == BLACK)
    {
        if let Some(Exact::Win(d) | Exact::Loss(d)) = table.probe(pos) {
            let pieces = (pos.pieces(BLACK) | pos.pieces(WHITE)).count_ones();
            *levels.entry((pieces, d)).or_insert(0) += 1;
        }
    }
    let longest = levels.values().max().expect("decided positions");
    assert_eq!(stats.peak_bytes as u64, 2 * slots + 4 * longest);
}

/// A position without its move counters: the pieces and the side to move.
fn key(pos: &Checkers) -> (u32, u32, u32, Player) {
    let kings = pos.kings(BLACK) | pos.kings(WHITE);
    (
        pos.pieces(BLACK),
        pos.pieces(WHITE),
        kings,
        pos.side_to_move(),
    )
}

/// The value of every position of 1 to `max` pieces by the definition of a distance to
/// the win, level by level over the whole game graph (no retrograde un-moves, no index):
/// lost in 0 without a move; won in `k` (odd) with a move to a position lost in `k - 1`;
/// lost in `k` (even) when every move leads to a won position, the longest at `k - 1`;
/// drawn when no level decides it. The 40-move rule is ignored, as in the table.
fn values_by_definition(max: u32) -> Vec<(Checkers, Exact)> {
    let positions = every_position(max);
    let at: HashMap<_, usize> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (key(p), i))
        .collect();
    let mut moves = Vec::new();
    let children: Vec<Vec<usize>> = positions
        .iter()
        .map(|pos| {
            moves.clear();
            pos.generate_moves(&mut moves);
            let child = |&mv| {
                let mut after = *pos;
                after.play(mv);
                at[&key(&after)]
            };
            moves.iter().map(child).collect()
        })
        .collect();
    let mut value: Vec<Option<Exact>> = children
        .iter()
        .map(|c| c.is_empty().then_some(Exact::Loss(0)))
        .collect();
    let mut empty_levels = 0;
    let mut k = 1;
    while empty_levels < 2 {
        let mut decided = 0;
        for i in 0..positions.len() {
            if value[i].is_some() {
                continue;
            }
            let mut child = children[i].iter().map(|&c| value[c]);
            let now = if k % 2 == 1 {
                child.any(|v| v == Some(Exact::Loss(k - 1)))
            } else {
                child.all(|v| matches!(v, Some(Exact::Win(_))))
            };
            if now {
                let won = k % 2 == 1;
                value[i] = Some(if won { Exact::Win(k) } else { Exact::Loss(k) });
                decided += 1;
            }
        }
        empty_levels = if decided == 0 { empty_levels + 1 } else { 0 };
        k += 1;
    }
    let values = value.into_iter().map(|v| v.unwrap_or(Exact::Draw));
    positions.into_iter().zip(values).collect()
}

/// Every position of up to three pieces, either side to move, has in the table the value
/// its definition gives over the whole game graph (captures, crowning and the loser's
/// longest resistance included): the samples checked against alpha-beta miss most
/// positions, and only the position counts were checked in full.
#[test]
fn every_entry_of_three_pieces_is_its_value_by_definition() {
    let table = built(3);
    let all = values_by_definition(3);
    // Schaeffer's counts, each placement once per side to move.
    assert_eq!(all.len() as u64, 2 * SCHAEFFER[..3].iter().sum::<u64>());
    for (pos, value) in &all {
        assert_eq!(table.probe(pos), Some(*value), "{pos:?}");
    }
}

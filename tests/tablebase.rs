//! Endgame databases by retrograde analysis: the published figures, entries against plylab's
//! own alpha-beta search, probing inside the search, and damaged files.

use std::path::Path;

use crate::common::{self, TempDir, plylab};
use plylab::game::{Game, Notation, Status, score};
use plylab::games::chess::{Chess, Material};
use plylab::knowledge::tablebase::{Ending, Tablebase, Tablebases, build};
use plylab::rng::XorShift;
use plylab::search::probe::{Exact, Probe};
use plylab::search::{Limits, Ordering, SearchConfig, Searcher, search};

fn built(ending: Ending) -> (Tablebase, plylab::knowledge::tablebase::BuildStats) {
    build(ending, &mut |_| {})
}

/// Longest wins with the strong side to move, in moves (mate in N): KQK 10, KRK 16
/// (standard results since Ströhlein 1970 and Thompson 1986; see e.g. the DTM maxima in
/// Haworth's endgame statistics), KBNK 33.
#[test]
fn longest_wins_are_the_published_ones() {
    for (ending, moves) in [(Ending::Kqk, 10), (Ending::Krk, 16), (Ending::Kbnk, 33)] {
        let (_, stats) = built(ending);
        assert_eq!(stats.longest_win_plies, 2 * moves - 1, "{ending}");
    }
}

/// KPK counts as given by Steven J. Edwards (1996), quoted in Marcel van Kervinck's pfkpk
/// generator (github.com/kervinck/pfkpk, kpk.c, `kpkSelfCheck`): legal positions on the full
/// board (pawn on any file, ranks 2-7; kings apart; the side not to move not in check; no
/// symmetry folded), per side to move, and the non-draws among them.
#[test]
fn kpk_counts_are_edwards_1996() {
    let (_, stats) = built(Ending::Kpk);
    let [w_win, w_draw] = stats.white_to_move;
    let [b_loss, b_draw] = stats.black_to_move;
    assert_eq!(w_win + w_draw, 163_328);
    assert_eq!(b_loss + b_draw, 168_024);
    assert_eq!(w_win, 124_960);
    assert_eq!(b_loss, 97_604);
}

/// KQK's statistics against a count written out here: every placement of the two kings and
/// the queen on distinct squares, kings apart, Black not in check with White to move (the
/// queen's lines stop at the white king; White cannot be in check), is a legal position.
/// `positions` counts them (and so do the outcomes of each side to move together); `slots`
/// counts their classes under the eight symmetries of the board, both sides to move (the
/// table holds one slot per class). No test counted them before: each was free to drift.
#[test]
fn kqk_slots_are_the_symmetry_classes_of_its_legal_positions() {
    let (_, stats) = built(Ending::Kqk);
    let file = |s: i32| s % 8;
    let rank = |s: i32| s / 8;
    let adjacent = |a: i32, b: i32| (file(a) - file(b)).abs().max((rank(a) - rank(b)).abs()) == 1;
    let queen_attacks = |q: i32, target: i32, blocker: i32| {
        // Along each of the eight lines from the queen, to the edge or the blocker.
        let lines = (-1..=1).flat_map(|df| (-1..=1).map(move |dr| (df, dr)));
        lines.filter(|&d| d != (0, 0)).any(|(df, dr)| {
            let (mut f, mut r) = (file(q) + df, rank(q) + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = r * 8 + f;
                if s == target {
                    return true;
                }
                if s == blocker {
                    return false;
                }
                f += df;
                r += dr;
            }
            false
        })
    };
    // The eight symmetries: mirror files, mirror ranks, swap files and ranks.
    let image = |s: i32, t: i32| {
        let (mut f, mut r) = (file(s), rank(s));
        if t & 1 != 0 {
            f = 7 - f;
        }
        if t & 2 != 0 {
            r = 7 - r;
        }
        if t & 4 != 0 {
            (f, r) = (r, f);
        }
        r * 8 + f
    };
    // Positions with White to move, with Black to move.
    let mut positions = [0u64; 2];
    let mut classes = std::collections::HashSet::new();
    for white_to_move in [true, false] {
        for (wk, bk, q) in (0..64 * 64 * 64).map(|i| (i / 4096, i / 64 % 64, i % 64)) {
            if wk == bk || wk == q || bk == q || adjacent(wk, bk) {
                continue;
            }
            if white_to_move && queen_attacks(q, bk, wk) {
                continue;
            }
            positions[usize::from(!white_to_move)] += 1;
            let class = (0..8)
                .map(|t| (image(wk, t), image(bk, t), image(q, t)))
                .min()
                .expect("eight images");
            classes.insert((class, white_to_move));
        }
    }
    assert_eq!(stats.white_to_move.iter().sum::<u64>(), positions[0]);
    assert_eq!(stats.black_to_move.iter().sum::<u64>(), positions[1]);
    assert_eq!(stats.positions, positions[0] + positions[1]);
    assert_eq!(stats.slots, classes.len() as u64);
}

/// The build's peak memory is what its statistics say it counts: the table (a byte per
/// slot, both sides to move), the counters (a byte per Black-to-move slot) and the largest
/// set of level lists held at once, 4 bytes per slot. A round of the build holds the Black
/// losses it starts from (`d` plies), the wins it finds (`d + 1`) and the losses they lead
/// to (`d + 2`); each list is as long as the table has slots at that distance (KPK's wins
/// by promotion included). No test looked at the figure.
#[test]
fn peak_bytes_count_the_table_counters_and_largest_level_lists() {
    for ending in [Ending::Kqk, Ending::Kpk] {
        let (table, stats) = built(ending);
        let per_side = ending.entries_per_side();
        // Slots per distance in plies, read back from the finished table.
        let mut at = vec![0usize; 256];
        for index in 0..2 * per_side {
            let pos = ending.decode(index);
            if !ending.is_legal_slot(&pos, index) {
                continue;
            }
            match table.value(&pos).expect("legal slot") {
                Exact::Win(d) | Exact::Loss(d) => at[d as usize] += 1,
                Exact::Draw => {}
            }
        }
        let rounds = (0..253).step_by(2).map(|d| at[d] + at[d + 1] + at[d + 2]);
        let lists = 4 * rounds.max().expect("rounds");
        assert_eq!(
            stats.peak_bytes,
            2 * per_side + per_side + lists,
            "{ending}"
        );
    }
}

fn alphabeta() -> SearchConfig {
    SearchConfig {
        tt_mb: 8,
        ordering: Ordering {
            hint: true,
            tt_move: true,
            killers: true,
            history: false,
            ..Ordering::default()
        },
        ..SearchConfig::default()
    }
}

/// Whether `value` is decided within `horizon` plies.
fn short(value: Exact, horizon: u32) -> bool {
    matches!(value, Exact::Win(d) | Exact::Loss(d) if d <= horizon)
}

/// Random legal positions of `ending` (seeded), as FEN with the table's value: `count` of
/// any kind and `count` decided within `horizon` plies (rare in KPK, so drawn on purpose).
fn sample(table: &Tablebase, seed: u64, count: usize, horizon: u32) -> Vec<(String, Exact)> {
    let ending = table.ending();
    let slots = 2 * ending.entries_per_side();
    let mut rng = XorShift::new(seed);
    let (mut any, mut mates) = (Vec::new(), Vec::new());
    while any.len() < count || mates.len() < count {
        let index = rng.below(slots as u64) as usize;
        let pos = ending.decode(index);
        if !ending.is_legal_slot(&pos, index) {
            continue;
        }
        let value = table.value(&pos).expect("legal slot");
        let entry = (ending.fen(&pos), value);
        if short(value, horizon) && mates.len() < count {
            mates.push(entry);
        } else if any.len() < count {
            any.push(entry);
        }
    }
    any.extend(mates);
    any
}

/// Every sampled entry agrees with plylab's alpha-beta search (no database): a win or loss
/// within `horizon` plies is found at exactly that distance, and nothing shorter is found
/// for a longer one or a draw.
fn agrees_with_search(ending: Ending, seed: u64, count: usize, horizon: u32) {
    let (table, _) = built(ending);
    let config = alphabeta();
    for (fen, value) in sample(&table, seed, count, horizon) {
        let pos = Chess::parse_position(&fen).expect("valid FEN");
        let depth = match value {
            Exact::Win(d) | Exact::Loss(d) if d <= horizon => d.max(1),
            _ => horizon,
        };
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let found = search(&pos, &Material, &config, &limits)
            .score()
            .expect("a move");
        match value {
            Exact::Win(d) | Exact::Loss(d) if d <= horizon => {
                assert_eq!(found, value.score(0), "{fen}: table {value:?}");
            }
            _ => assert!(
                !score::is_decisive(found),
                "{fen}: table {value:?}, search {found} at depth {depth}"
            ),
        }
    }
}

#[test]
fn kqk_entries_agree_with_alphabeta() {
    agrees_with_search(Ending::Kqk, 1, 100, 5);
}

#[test]
fn krk_entries_agree_with_alphabeta() {
    agrees_with_search(Ending::Krk, 2, 100, 5);
}

#[test]
fn kpk_entries_agree_with_alphabeta() {
    agrees_with_search(Ending::Kpk, 3, 100, 7);
}

/// Mated and stalemated positions, by hand: the table says lost in 0 and drawn.
#[test]
fn mate_and_stalemate_by_hand() {
    let tables = Tablebases::new(vec![built(Ending::Kqk).0]);
    let value = |fen: &str| tables.probe_chess(&Chess::parse_position(fen).expect("fen"));
    assert_eq!(
        value("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"),
        Some(Exact::Loss(0))
    );
    assert_eq!(value("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), Some(Exact::Draw));
    // The queen hangs to the lone king: a draw.
    assert_eq!(value("k7/1Q6/8/8/8/8/8/7K b - - 0 1"), Some(Exact::Draw));
    // Black strong, mirrored: mate in 1 for Black to move (Qb2#).
    assert_eq!(value("8/8/8/8/8/1k6/7q/K7 b - - 0 1"), Some(Exact::Win(1)));
    // Other material: not in this database.
    assert_eq!(value("k7/8/8/8/8/8/8/KR6 w - - 0 1"), None);
}

/// Castling is not in the tables: a position that keeps a castling right is not probed,
/// whichever right it is, and the same position without it is (a KRK win).
#[test]
fn a_castling_right_keeps_a_position_out_of_the_table() {
    let table = built(Ending::Krk).0;
    let value = |fen: &str| table.probe_board(Chess::parse_position(fen).expect("fen").board());
    assert!(matches!(
        value("4k3/8/4K3/8/8/8/8/7R w - - 0 1"),
        Some(Exact::Win(_))
    ));
    for fen in [
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
    ] {
        assert_eq!(value(fen), None, "{fen}");
    }
    assert!(value("4k3/8/8/8/8/8/8/4K2R w - - 0 1").is_some());
}

/// Four men (KBNK) are probed through `Tablebases` as three are: Black mated by hand in the
/// corner (Be5 checks along the long diagonal, Ne7 takes g8, Kg6 takes g7 and h7).
#[test]
fn a_kbnk_position_is_probed() {
    let tables = Tablebases::new(vec![built(Ending::Kbnk).0]);
    let mated = Chess::parse_position("7k/4N3/6K1/4B3/8/8/8/8 b - - 0 1").expect("fen");
    assert_eq!(tables.probe_chess(&mated), Some(Exact::Loss(0)));
}

/// With the database, a search two plies deep mates by the shortest way in KRK: played out
/// against the table's best defence, mate comes in exactly the table's distance.
#[test]
fn probing_search_mates_in_the_table_distance() {
    let tables = Tablebases::new(vec![built(Ending::Krk).0]);
    let probe: &dyn Probe<Chess> = &tables;
    let start = "8/8/8/8/3k4/8/8/R3K3 w - - 0 1";
    let mut pos = Chess::parse_position(start).expect("fen");
    let Some(Exact::Win(plies)) = tables.probe_chess(&pos) else {
        panic!("{start} should be won");
    };
    let config = alphabeta();
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    for ply in 0..plies {
        assert_eq!(pos.status(), Status::Ongoing, "ply {ply}");
        let result = Searcher::new(&Material, &config)
            .with_knowledge(Some(probe))
            .run(&pos, &limits);
        let expected = tables.probe_chess(&pos).expect("in the table").score(0);
        assert_eq!(
            result.score(),
            Some(expected),
            "ply {ply}: {}",
            pos.to_fen()
        );
        assert!(result.total.tb_hits > 0);
        pos.play(result.best_move().expect("a move"));
    }
    assert_eq!(pos.status(), Status::Over(plylab::game::Outcome::Loss));
}

#[test]
fn a_damaged_or_truncated_file_is_refused_with_exit_code_2() {
    let tmp = TempDir::new("tablebase");
    let file = tmp.path("KQK.plytb");
    let path = file.to_str().expect("utf-8");
    let (code, stdout, stderr) = plylab(&["tablebase", "build", "chess", "KQK", "--out", path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("mate in 10 moves"), "{stdout}");
    let fen = "k7/8/1K6/8/8/8/7Q/8 w - - 0 1";
    let (code, stdout, _) = plylab(&["tablebase", "probe", path, fen]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("win"), "{stdout}");
    // Other material (a rook, not a queen) is not in KQK: refused, naming what it holds.
    let (code, _, stderr) = plylab(&["tablebase", "probe", path, "k7/8/1K6/8/8/8/7R/8 w - - 0 1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("not in") && stderr.contains("KQK with either side strong"),
        "{stderr}"
    );

    let bytes = std::fs::read(&file).expect("written");
    let mut flipped = bytes.clone();
    flipped[1000] ^= 1;
    std::fs::write(&file, &flipped).expect("write");
    let (code, _, stderr) = plylab(&["tablebase", "probe", path, fen]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("checksum") && stderr.contains(path),
        "{stderr}"
    );

    std::fs::write(&file, &bytes[..bytes.len() / 2]).expect("write");
    let (code, _, stderr) = plylab(&["tablebase", "probe", path, fen]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("truncated"), "{stderr}");

    let (code, _, stderr) = plylab(&["tablebase", "build", "chess", "KXK"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!stderr.contains("panicked"));
}

/// `plylab tablebase build GAME ENDING` into `tmp`, as `ENDING.plytb`; its path as text.
fn built_file(tmp: &TempDir, game: &str, ending: &str) -> String {
    let out = tmp.path(&format!("{ending}.plytb"));
    let out = out.to_str().expect("utf-8");
    let (code, _, stderr) = plylab(&["tablebase", "build", game, ending, "--out", out]);
    assert_eq!(code, 0, "{stderr}");
    out.to_owned()
}

/// The checksum covers the header: KQK relabelled KRK (the same size) is refused, as are a
/// damaged entry count (said as such) and a version 1 file (to be rebuilt).
#[test]
fn a_damaged_header_is_refused_for_what_it_is() {
    let tmp = TempDir::new("tablebase-header");
    let path = built_file(&tmp, "chess", "KQK");
    let (path, file) = (path.as_str(), Path::new(&path));
    let bytes = std::fs::read(file).expect("written");
    assert_eq!(&bytes[10..13], b"KQK");
    let fen = "k7/8/1K6/8/8/8/7R/8 w - - 0 1";
    let damaged = |at: usize, byte: u8| {
        let mut b = bytes.clone();
        b[at] = byte;
        std::fs::write(file, b).expect("write");
        let (code, _, stderr) = plylab(&["tablebase", "probe", path, fen]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(path) && !stderr.contains("panicked"),
            "{stderr}"
        );
        stderr
    };
    assert!(damaged(11, b'R').contains("checksum"));
    let count = damaged(17, bytes[17] ^ 1);
    assert!(
        count.contains("entries per side") && !count.contains("needs"),
        "{count}"
    );
    assert!(damaged(8, 1).contains("rebuild"));
}

/// A file without the header's magic, or too short to hold the header, is refused as not a
/// database (before any field past its end is read): cut to 5 bytes, cut to 20 (the magic
/// whole), or with its first byte changed (the checksum's complaint would hide the cause).
/// Cut to the header alone (32 bytes), it is a truncated database.
#[test]
fn a_file_without_a_whole_header_is_refused_as_not_a_database() {
    let tmp = TempDir::new("tablebase-magic");
    let file = tmp.path("KQK.plytb");
    built(Ending::Kqk).0.save(&file).expect("saved");
    let bytes = std::fs::read(&file).expect("written");
    let mut renamed = bytes.clone();
    renamed[0] = b'Q';
    for damaged in [&bytes[..5], &bytes[..20], &renamed] {
        std::fs::write(&file, damaged).expect("write");
        let err = Tablebase::load(&file).expect_err("not a database");
        let text = err.to_string();
        assert!(text.contains("not a plylab endgame database"), "{text}");
    }
    // The header whole and no values: a truncated database, said as such.
    std::fs::write(&file, &bytes[..32]).expect("write");
    let err = Tablebase::load(&file).expect_err("truncated");
    assert!(err.to_string().contains("truncated"), "{err}");
}

/// A database for the other game is refused at its key: checkers on a chess searcher, chess
/// on a checkers one.
#[test]
fn a_database_for_the_other_game_is_refused_in_an_experiment() {
    let tmp = TempDir::new("tablebase-game");
    built_file(&tmp, "chess", "KQK");
    built_file(&tmp, "checkers", "2");
    for (game, position, db, other) in [
        ("chess", "startpos", "2.plytb", "checkers"),
        ("checkers", "start", "KQK.plytb", "chess"),
    ] {
        let file = tmp.path("e.toml");
        let text = format!(
            "name = \"e\"\n\n[[games]]\ngame = \"{game}\"\npositions = [\"{position}\"]\n\
             limits = {{ depth = 2 }}\n\n[[searchers]]\nlabel = \"s\"\n\
             algorithm = \"alphabeta\"\ntablebase = \"{db}\"\n"
        );
        std::fs::write(&file, text).expect("write");
        let e = file.to_str().expect("utf-8");
        let (code, _, stderr) = plylab(&["experiment", e, "--dry-run"]);
        assert_eq!(code, 2, "{game}: {stderr}");
        assert!(
            stderr.contains("e.toml:11:") && stderr.contains("key `tablebase`"),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("for {other}, not {game}")),
            "{stderr}"
        );
    }
}

/// A file past the databases' size cap is refused before it is read (`/dev/zero` likewise,
/// after the cap).
#[test]
fn a_database_past_the_size_cap_is_refused() {
    let tmp = TempDir::new("tablebase-cap");
    let path = common::past_cap(&tmp, "big.plytb", plylab::input::Cap::DATABASE);
    let path = path.as_str();
    let (code, _, stderr) = plylab(&["tablebase", "probe", path, "8/8/8/8/8/8/8/K1k5 w - - 0 1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(path) && stderr.contains("64 MiB"),
        "{stderr}"
    );
}

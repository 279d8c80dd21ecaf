//! Perft through the chess adapter and the generic `plylab::lab::perft::perft`, against
//! the published counts of experiments/data/chess/perft.epd (`FEN; D1 n; D2 n; ...`) and
//! the start position's (shared/data/README.md: 20; 400; 8,902; 197,281; 4,865,609).
//!
//! Published perft counts every legal sequence, whatever the fifty-move rule or the
//! material says, so the positions run with the rule draws off
//! (`Chess::with_rule_draws(false)`); checkmate and stalemate still end a line.

use std::time::Instant;

use plylab::game::Notation;
use plylab::games::chess::Chess;
use plylab::lab::perft::perft;

const PERFT_EPD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/experiments/data/chess/perft.epd"
);

/// One line of perft.epd: the position and its (depth, count) pairs.
struct Entry {
    line: usize,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    let text = std::fs::read_to_string(PERFT_EPD).expect("perft.epd");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut parts = line.split(';');
        let fen = parts.next().expect("a FEN").trim().to_owned();
        if fen.is_empty() {
            continue;
        }
        let counts = parts
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (d, n) = p.split_once(' ').expect("`Dn count`");
                let depth = d.trim_start_matches('D').parse().expect("depth");
                (depth, n.trim().parse().expect("count"))
            })
            .collect();
        out.push(Entry {
            line: i + 1,
            fen,
            counts,
        });
    }
    out
}

fn check(limit_low: u64, limit_high: u64) -> usize {
    let mut checked = 0;
    for e in entries() {
        let pos = Chess::parse_position(&e.fen)
            .unwrap_or_else(|err| panic!("line {}: {err}", e.line))
            .with_rule_draws(false);
        for &(depth, expected) in &e.counts {
            if expected > limit_low && expected <= limit_high {
                assert_eq!(
                    perft(&pos, depth),
                    expected,
                    "perft.epd line {} depth {depth}: {}",
                    e.line,
                    e.fen
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn perft_epd_has_174_positions() {
    let all = entries();
    assert_eq!(all.len(), 174);
    assert!(all.iter().all(|e| !e.counts.is_empty()));
}

#[test]
fn perft_epd_counts_up_to_a_million() {
    let checked = check(0, 1_000_000);
    assert!(checked > 500, "only {checked} counts checked");
}

#[test]
#[ignore = "minutes in a debug build, seconds in release: run with --release --ignored"]
fn perft_epd_counts_up_to_10_to_the_8() {
    check(1_000_000, 100_000_000);
}

#[test]
fn start_position() {
    let start = Chess::parse_position("startpos").unwrap();
    assert_eq!(
        [1, 2, 3, 4].map(|d| perft(&start, d)),
        [20, 400, 8_902, 197_281]
    );
}

#[test]
#[ignore = "4.9 million leaves: run in release with --ignored"]
fn start_position_depth_5_and_speed() {
    let start = Chess::startpos();
    let t = Instant::now();
    let n = perft(&start, 5);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(n, 4_865_609);
    println!(
        "perft(5) from the start: {n} leaves in {secs:.3} s, {:.1} M leaves/s",
        n as f64 / secs / 1e6
    );
    let t = Instant::now();
    let n = perft(&start, 6);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(n, 119_060_324);
    println!(
        "perft(6) from the start: {n} leaves in {secs:.3} s, {:.1} M leaves/s",
        n as f64 / secs / 1e6
    );
}

/// The rule draws matter: with them on, a line that reaches a dead position ends there, so
/// perft would differ from the published count (why perft runs with them off). perft.epd
/// line 34: after a7-a8 the black king captures the new piece, leaving K v K.
#[test]
fn rule_draws_would_cut_perft_lines() {
    let with = Chess::parse_position("8/P1k5/K7/8/8/8/8/8 w - - 0 1").unwrap();
    let without = with.clone().with_rule_draws(false);
    assert_eq!(perft(&without, 2), 27);
    assert_eq!(perft(&with, 2), 16);
}

//! GNU Backgammon as an oracle for the rules: on seeded random positions and rolls,
//! plylab's legal moves (as the set of resulting positions) must equal the moves gnubg's
//! `hint` lists, and the board gnubg decodes from plylab's Position ID must be plylab's.
//! Skipped, with the reason printed, where gnubg is not installed (CI installs it:
//! `apt-get install gnubg`, .ci/run).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use crate::common::TempDir;

use plylab::game::{Game, Player};
use plylab::games::backgammon::{BAR, Backgammon, POINT, PipRace, Scoring};
use plylab::rng::XorShift;
use plylab::search::{Algorithm, Limits, SearchConfig, search};

/// Positions checked (with their rolls).
const POSITIONS: usize = 2000;
/// gnubg processes run side by side (CI has two cores).
const PROCESSES: usize = 2;

fn gnubg() -> Option<PathBuf> {
    ["/usr/games/gnubg", "/usr/bin/gnubg"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

type Rows = ([u8; 26], [u8; 26]);

/// Player nodes (rolled dice) met in seeded random games from the start.
fn random_positions(n: usize) -> Vec<Backgammon> {
    let mut rng = XorShift::new(2026);
    let (mut out, mut moves, mut rolls) = (Vec::new(), Vec::new(), Vec::new());
    let mut pos = Backgammon::default();
    while out.len() < n {
        if pos.result().is_some() {
            pos = Backgammon::default();
        } else if pos.is_chance() {
            rolls.clear();
            pos.chance_outcomes(&mut rolls);
            // Uniform over the 36 ordered rolls, as dice fall.
            let mut pick = rng.below(36) as u32;
            let roll = rolls
                .iter()
                .find(|&&(_, w)| {
                    let hit = pick < w;
                    pick = pick.saturating_sub(w);
                    hit
                })
                .expect("the weights sum to 36")
                .0;
            pos.play(roll);
        } else {
            out.push(pos);
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    out
}

/// The rows of (player on roll, opponent) after plylab plays each legal move.
fn plylab_results(pos: &Backgammon) -> BTreeSet<Rows> {
    let mover = pos.side_to_move();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let mut after = *pos;
            after.play(m);
            (*after.row(mover), *after.row(mover.other()))
        })
        .collect()
}

/// The rows after a move written by gnubg (`24/21/16*`, `bar/22*`, `13/7(2)`, `6/off`),
/// applied literally: a checker landing on a single opposing checker sends it to the bar.
fn apply_gnubg_move(pos: &Backgammon, text: &str) -> Result<Rows, String> {
    let mover = pos.side_to_move();
    let (mut mine, mut theirs) = (*pos.row(mover), *pos.row(mover.other()));
    let point = |t: &str| -> Result<usize, String> {
        match t.trim_end_matches('*') {
            "bar" => Ok(BAR),
            "off" => Ok(0),
            n => n.parse().map_err(|_| format!("`{t}` in `{text}`")),
        }
    };
    for token in text.split_whitespace() {
        let (body, times) = match token.split_once('(') {
            Some((b, n)) => (
                b,
                n.trim_end_matches(')')
                    .parse::<usize>()
                    .map_err(|e| e.to_string())?,
            ),
            None => (token, 1),
        };
        let points = body.split('/').map(point).collect::<Result<Vec<_>, _>>()?;
        for _ in 0..times {
            for pair in points.windows(2) {
                let (from, to) = (pair[0], pair[1]);
                if mine[from] == 0 {
                    return Err(format!("no checker on {from} for `{text}`"));
                }
                mine[from] -= 1;
                mine[to] += 1;
                if to > 0 && theirs[25 - to] == 1 {
                    theirs[25 - to] = 0;
                    theirs[BAR] += 1;
                }
            }
        }
    }
    Ok((mine, theirs))
}

/// gnubg's answer line for each position (tests/gnubg/legal_moves.py), from `PROCESSES`
/// gnubg processes each given a contiguous share of the positions.
fn ask_gnubg(gnubg: &PathBuf, positions: &[Backgammon]) -> String {
    run_script(gnubg, "legal_moves.py", positions, |p| {
        let (a, b) = p.dice().expect("a player node");
        let id = p.to_string();
        format!("{} {a} {b}", id.split_whitespace().next().unwrap())
    })
}

/// Runs tests/gnubg/`script` in `PROCESSES` gnubg processes, each given a contiguous share
/// of `positions` as lines written by `line`, and returns their output in order.
fn run_script(
    gnubg: &PathBuf,
    script: &str,
    positions: &[Backgammon],
    line: impl Fn(&Backgammon) -> String,
) -> String {
    // One directory per script: the two tests run side by side in one process.
    let dir = TempDir::new(&format!("gnubg-{}", script.trim_end_matches(".py")));
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/gnubg")
        .join(script);
    let share = positions.len().div_ceil(PROCESSES);
    let children: Vec<_> = positions
        .chunks(share)
        .enumerate()
        .map(|(i, chunk)| {
            let (input, output) = (
                dir.path(&format!("in{i}.txt")),
                dir.path(&format!("out{i}.txt")),
            );
            let lines: String = chunk.iter().map(|p| line(p) + "\n").collect();
            std::fs::write(&input, lines).unwrap();
            let child = Command::new(gnubg)
                .args(["-t", "-q", "-p"])
                .arg(&script)
                .env("PLYLAB_IN", &input)
                .env("PLYLAB_OUT", &output)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("gnubg starts");
            (child, output)
        })
        .collect();
    let mut answers = String::new();
    for (mut child, output) in children {
        let status = child.wait().expect("gnubg runs");
        assert!(status.success(), "gnubg exited with {status}");
        answers.push_str(&std::fs::read_to_string(&output).unwrap());
    }
    answers
}

#[test]
fn legal_moves_and_position_ids_equal_gnubgs() {
    let Some(gnubg) = gnubg() else {
        eprintln!(
            "SKIPPED legal_moves_and_position_ids_equal_gnubgs: gnubg is not installed (apt-get install gnubg)"
        );
        return;
    };
    let positions = random_positions(POSITIONS);
    let answers = ask_gnubg(&gnubg, &positions);
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(answers.len(), positions.len(), "one answer per position");
    let mut differences = Vec::new();
    let mut moves_checked = 0;
    for (pos, answer) in positions.iter().zip(&answers) {
        let mut parts = answer.split('|');
        let board: Vec<u8> = parts
            .next()
            .unwrap()
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        let mover = pos.side_to_move();
        // gnubg's board: the opponent's 25 numbers (points 1-24, bar), then the mover's.
        let ours: Vec<u8> = [pos.row(mover.other()), pos.row(mover)]
            .iter()
            .flat_map(|row| row[1..].iter().copied())
            .collect();
        if board != ours {
            differences.push(format!("{pos}: gnubg decodes the ID as {board:?}"));
            continue;
        }
        let gnubg_results: Result<BTreeSet<Rows>, String> = parts
            .filter(|m| !m.is_empty())
            .map(|m| apply_gnubg_move(pos, m))
            .collect();
        let mut expected = match gnubg_results {
            Ok(set) => set,
            Err(e) => {
                differences.push(format!("{pos}: {e}"));
                continue;
            }
        };
        if expected.is_empty() {
            // gnubg lists no move when none is legal: plylab passes.
            expected.insert((*pos.row(mover), *pos.row(mover.other())));
        }
        let found = plylab_results(pos);
        moves_checked += found.len();
        if found != expected {
            differences.push(format!(
                "{pos}: plylab has {} plays, gnubg {} ({} only in plylab)",
                found.len(),
                expected.len(),
                found.difference(&expected).count()
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} positions differ:\n{}",
        differences.len(),
        positions.len(),
        differences[..differences.len().min(10)].join("\n")
    );
    eprintln!(
        "{} positions and {moves_checked} resulting positions equal gnubg's",
        positions.len()
    );
    assert_eq!(Player::First.other(), Player::Second);
}

/// Bearoff positions checked against gnubg's exact two-sided bearoff database.
const BEAROFFS: usize = 500;

/// Random bearoff positions: each side 1 to 3 checkers on its points 1-6, the first
/// player on roll, scored win/loss.
fn random_bearoffs(n: usize) -> Vec<Backgammon> {
    let mut rng = XorShift::new(1983);
    (0..n)
        .map(|_| {
            let mut rows = [[0u8; 26]; 2];
            for row in &mut rows {
                let checkers = 1 + rng.below(3) as u8;
                for _ in 0..checkers {
                    row[1 + rng.below(6) as usize] += 1;
                }
                row[0] = 15 - checkers;
            }
            Backgammon::from_rows(rows, Player::First, None, Scoring::WinLoss).unwrap()
        })
        .collect()
}

/// The probability that the player on roll wins, by expectiminimax solved to the end of
/// the game with a transposition table. Every die played bears a checker off or brings
/// one closer, so each player is done within ceil(pips / 2) turns (two dice a turn): a
/// search that deep reaches the end of every line and never evaluates.
fn solve(pos: &Backgammon) -> f64 {
    let turns = |p: Player| pos.pips(p).div_ceil(2);
    let depth = 2 * (turns(Player::First) + turns(Player::Second)) + 2;
    let config = SearchConfig {
        algorithm: Algorithm::Expectiminimax,
        tt_mb: 4,
        iterative: false,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let value = search(pos, &PipRace, &config, &limits)
        .score()
        .expect("a value");
    // A win is worth +POINT, a loss -POINT: value = (2p - 1) * POINT.
    (f64::from(value) / f64::from(POINT) + 1.0) / 2.0
}

#[test]
fn solved_bearoffs_equal_gnubgs_exact_database() {
    let Some(gnubg) = gnubg() else {
        eprintln!(
            "SKIPPED solved_bearoffs_equal_gnubgs_exact_database: gnubg is not installed (apt-get install gnubg)"
        );
        return;
    };
    let positions = random_bearoffs(BEAROFFS);
    let answers = run_script(&gnubg, "bearoff.py", &positions, |p| {
        [p.row(Player::Second), p.row(Player::First)]
            .iter()
            .flat_map(|row| row[1..].iter().map(u8::to_string))
            .collect::<Vec<_>>()
            .join(" ")
    });
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(answers.len(), positions.len(), "one answer per position");
    let mut worst: f64 = 0.0;
    for (pos, answer) in positions.iter().zip(&answers) {
        let (class, p) = answer.split_once(' ').expect("class and probability");
        // gnubg's class 4 is CLASS_BEAROFF2: the exact two-sided database answers.
        assert_eq!(
            class, "4",
            "{pos}: gnubg does not read its bearoff database here"
        );
        let theirs: f64 = p.parse().unwrap();
        let ours = solve(pos);
        worst = worst.max((ours - theirs).abs());
        // The database stores probabilities in 16 bits, built with single-precision
        // arithmetic: equal to within two of its units (2/65535 = 3.1e-5).
        assert!(
            (ours - theirs).abs() <= 2.0 / 65535.0,
            "{pos}: plylab {ours:.7}, gnubg {theirs:.7}"
        );
    }
    eprintln!("{BEAROFFS} bearoff positions: largest difference from gnubg's database {worst:.2e}");
}

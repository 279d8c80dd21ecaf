//! The arena's rules checked against their definitions, without playing a game: draw and
//! resign adjudication against cutechess-cli's rules as `arena::adjudicate` states them
//! (written out here over seeded score sequences), the `[match]` keys that set them and
//! `st`, the dice seeds of distinct rounds, and points per game with its 95% interval
//! worked out by hand on tiny samples.

use std::path::Path;
use std::time::Duration;

use crate::common::TempDir;

use plylab::arena::adjudicate::{Adjudicator, Verdict};
use plylab::arena::chance::{
    Dice, PointsStanding, dice_seed, points_of, points_standings, reason_of_points, write_points,
};
use plylab::arena::play::{SideStats, Winner};
use plylab::arena::record::GameRow;
use plylab::arena::spec::{self, DrawAdjudication, MatchPlan, ResignAdjudication, Rules};
use plylab::games::backgammon::Backgammon;

/// A searcher entry of depth 2 with `algorithm`.
fn searcher(label: &str, algorithm: &str) -> String {
    format!(
        "[[searchers]]\nlabel = \"{label}\"\nalgorithm = \"{algorithm}\"\nlimits = {{ depth = 2 }}\n"
    )
}

/// An arena file of `game` with the extra `[match]` keys `settings` and `searchers`.
fn arena(game: &str, settings: &str, searchers: &[String]) -> String {
    format!(
        "name = \"rules\"\nseed = 3\n\n[match]\ngame = \"{game}\"\n{settings}\n\n{}",
        searchers.join("\n")
    )
}

fn parse(text: &str) -> MatchPlan {
    spec::parse(Path::new("rules.toml"), text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

// ---------------------------------------------------------------------------------------
// Adjudication

/// The verdict after the last move of `moves` ((side, score) per ply from the opening),
/// from the module's rules read literally over the whole history: no running counters.
fn reference(
    moves: &[(usize, Option<i32>)],
    draw: Option<DrawAdjudication>,
    resign: Option<ResignAdjudication>,
) -> Option<Verdict> {
    let &(side, _) = moves.last()?;
    // The draw rule first, as cutechess-cli's addEval looks at it: the latest plies of
    // either side all within the draw score; a move without a score ends the run.
    if let Some(d) = draw {
        let plies = moves.len() as u32;
        let drawish = moves
            .iter()
            .rev()
            .take_while(|(_, s)| s.is_some_and(|v| v.abs() <= d.score))
            .count() as u32;
        if plies / 2 >= d.movenumber && drawish >= 2 * d.movecount {
            return Some(Verdict::Draw);
        }
    }
    // `who`'s own latest moves that all satisfy `hit`, back to its first miss or its first
    // move without a score; the other side's moves, scored or not, are passed over.
    let run = |who: usize, hit: &dyn Fn(i32) -> bool| {
        moves
            .iter()
            .rev()
            .filter(|&&(s, _)| s == who)
            .take_while(|(_, score)| score.is_some_and(hit))
            .count() as u32
    };
    if let Some(r) = resign {
        let losing = run(side, &|v| v <= -r.score);
        let winning = run(1 - side, &|v| v >= r.score);
        if losing >= r.movecount && (!r.twosided || winning >= r.movecount) {
            return Some(Verdict::Win(1 - side));
        }
    }
    None
}

/// A small xorshift generator, so that the sequences do not depend on plylab's.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Adjudicator::after_move, ply by ply over 3,000 seeded score sequences per setting
/// (scores on and either side of every threshold, runs of drawn, losing and winning
/// scores, moves without a score, either side first), agrees with the rules of the
/// module doc written out in `reference` (cutechess-cli's GameAdjudicator); and every
/// verdict comes up, so that the agreement is not vacuous. Each sequence stops at its
/// first verdict, where the game would end.
#[test]
fn adjudication_follows_the_rules_over_seeded_score_sequences() {
    let draws = [
        DrawAdjudication {
            movenumber: 1,
            movecount: 1,
            score: 0,
        },
        DrawAdjudication {
            movenumber: 5,
            movecount: 2,
            score: 10,
        },
        DrawAdjudication {
            movenumber: 12,
            movecount: 3,
            score: 10,
        },
    ];
    let resigns = [
        ResignAdjudication {
            movecount: 1,
            score: 1,
            twosided: false,
        },
        ResignAdjudication {
            movecount: 2,
            score: 500,
            twosided: false,
        },
        ResignAdjudication {
            movecount: 3,
            score: 500,
            twosided: true,
        },
    ];
    let mut settings: Vec<(Option<DrawAdjudication>, Option<ResignAdjudication>)> = Vec::new();
    for d in draws {
        settings.push((Some(d), None));
    }
    for r in resigns {
        settings.push((None, Some(r)));
        // With the first resign rule (score 1) and the second draw rule (score 10), a
        // score of -1 to -10 meets both rules on one ply: the draw rule must come first.
        settings.push((Some(draws[0]), Some(r)));
        settings.push((Some(draws[1]), Some(r)));
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut seen = [0_usize; 3];
    for (draw, resign) in settings {
        let rules = Rules {
            draw,
            resign,
            ..Rules::default()
        };
        let s = resign.map_or(500, |r| r.score);
        let d = draw.map_or(10, |d| d.score);
        let near = [0, d, -d, d + 1, -d - 1, d / 2];
        let losing = [-s, -s - 1, -s + 1, -2 * s];
        let winning = [s, s + 1, s - 1, 2 * s];
        for _ in 0..3_000 {
            // Each sequence leans one way: drawn, side 0 losing, side 1 losing, or mixed.
            let lean = rng.below(4);
            let first = rng.below(2) as usize;
            let mut a = Adjudicator::new(&rules);
            let mut moves: Vec<(usize, Option<i32>)> = Vec::new();
            for ply in 0..40_usize {
                let side = (first + ply) % 2;
                let (roll, any) = (rng.below(20), rng.below(3) as usize);
                let palette: &[i32] = match (lean, roll) {
                    (_, 0) => &[],
                    (_, 1..=3) | (3, _) => [&near[..], &losing, &winning][any],
                    (0, _) => &near,
                    (l, _) if side == l as usize - 1 => &losing,
                    _ => &winning,
                };
                let score = (!palette.is_empty())
                    .then(|| palette[rng.below(palette.len() as u64) as usize]);
                moves.push((side, score));
                let got = a.after_move(side, score, moves.len() as u32);
                let want = reference(&moves, draw, resign);
                assert_eq!(
                    got, want,
                    "draw {draw:?} resign {resign:?}: after the moves (side, score) {moves:?}"
                );
                // The game ends at its first verdict.
                match want {
                    Some(Verdict::Draw) => seen[0] += 1,
                    Some(Verdict::Win(w)) => seen[1 + w] += 1,
                    None => continue,
                }
                break;
            }
        }
    }
    assert!(
        seen.iter().all(|&n| n > 100),
        "draws, wins of side 0 and of side 1 should all come up: {seen:?}"
    );
}

/// The `[match]` keys reach the rules as written: `draw_adjudication` with score 0 (the
/// least the doc allows) and `resign_adjudication` with score 1 (the least positive
/// score) are accepted with their values, and a negative draw score is refused.
#[test]
fn adjudication_keys_reach_the_rules_and_their_bounds_hold() {
    let players = [searcher("a", "alphabeta"), searcher("b", "alphabeta")];
    let text = arena(
        "connect4",
        "games = 2\ndraw_adjudication = { movenumber = 7, movecount = 4, score = 0 }\n\
         resign_adjudication = { movecount = 3, score = 1, twosided = true }",
        &players,
    );
    let rules = parse(&text).rules;
    assert_eq!(
        rules.draw,
        Some(DrawAdjudication {
            movenumber: 7,
            movecount: 4,
            score: 0
        }),
        "draw_adjudication as the file gives it"
    );
    assert_eq!(
        rules.resign,
        Some(ResignAdjudication {
            movecount: 3,
            score: 1,
            twosided: true
        }),
        "resign_adjudication as the file gives it"
    );
    let text = arena(
        "connect4",
        "games = 2\ndraw_adjudication = { movenumber = 1, movecount = 1, score = 25 }",
        &players,
    );
    let rules = parse(&text).rules;
    assert_eq!(
        rules.draw.map(|d| d.score),
        Some(25),
        "a positive draw score"
    );
    assert_eq!(rules.resign, None, "no resign_adjudication given");
    let text = arena(
        "connect4",
        "games = 2\ndraw_adjudication = { movenumber = 1, movecount = 1, score = -1 }",
        &players,
    );
    let err = spec::parse(Path::new("rules.toml"), &text).expect_err("a negative draw score");
    assert!(
        err.to_string().contains("score"),
        "the error names the key: {err}"
    );
}

/// `st` (seconds per move) becomes every player's time per move and the match's, with
/// each player's own depth kept; the bounds the doc gives (1 ms and a day) are accepted.
#[test]
fn st_times_every_player_and_keeps_their_limits() {
    let players = [searcher("a", "alphabeta"), searcher("b", "alphabeta")];
    for (st, want) in [
        ("0.25", Duration::from_millis(250)),
        ("0.001", Duration::from_millis(1)),
        ("86400.0", Duration::from_secs(86_400)),
    ] {
        let plan = parse(&arena("chess", &format!("games = 2\nst = {st}"), &players));
        assert_eq!(plan.rules.st, Some(want), "the match's st for st = {st}");
        for p in &plan.players {
            assert_eq!(p.limits.time, Some(want), "{}'s time for st = {st}", p.name);
            assert_eq!(
                p.limits.depth,
                Some(2),
                "{}'s own depth for st = {st}",
                p.name
            );
        }
    }
    let plan = parse(&arena("chess", "games = 2", &players));
    assert_eq!(plan.rules.st, None, "no st given");
    assert!(
        plan.players.iter().all(|p| p.limits.time.is_none()),
        "no time without st"
    );
}

// ---------------------------------------------------------------------------------------
// Dice

/// The first 16 rolls of the dice of `seed` and `round`.
fn rolls(seed: u64, round: u32) -> Vec<String> {
    let pos = Backgammon::default();
    let mut dice = Dice::new(dice_seed(seed, round));
    (0..16).map(|_| dice.roll(&pos).to_string()).collect()
}

/// Distinct rounds (game pairs) of a match roll distinct dice, and so do distinct match
/// seeds: the duplicate-dice design of the module doc shares dice within a round only.
/// (16 rolls of 36 each coincide by chance with odds about 36^-16.)
#[test]
fn distinct_rounds_and_seeds_roll_distinct_dice() {
    for seed in [0, 1, 5, 0xD1CE_D1CE, u64::MAX] {
        let mut seen = std::collections::HashMap::new();
        for round in 0..64 {
            if let Some(other) = seen.insert(rolls(seed, round), round) {
                panic!("seed {seed}: rounds {other} and {round} roll the same dice");
            }
        }
    }
    let firsts: std::collections::HashSet<_> = [0, 1, 2, 5, u64::MAX]
        .into_iter()
        .map(|s| rolls(s, 0))
        .collect();
    assert_eq!(
        firsts.len(),
        5,
        "five seeds should roll five sets of dice in round 0"
    );
}

// ---------------------------------------------------------------------------------------
// Points

/// The 97.5% quantile of the standard normal distribution (any statistics table: 1.96).
const Z975: f64 = 1.959_963_984_540_054;

/// A game of `pairing` and `round` (`leg` 1: colours swapped) between `first` and
/// `second`, won by `winner` for `reason`.
fn row(
    pairing: usize,
    round: u32,
    leg: u32,
    (first, second): (&str, &str),
    winner: Winner,
    reason: &str,
) -> GameRow {
    GameRow {
        game: 0,
        pairing,
        round,
        leg,
        opening: "start".into(),
        first: first.into(),
        second: second.into(),
        winner,
        reason: reason.into(),
        plies: 30,
        sides: [SideStats::default(); 2],
        line: String::new(),
        annotations: String::new(),
        seed: 0,
    }
}

fn backgammon_plan(settings: &str) -> MatchPlan {
    let players = ["a", "b", "c"].map(|l| searcher(l, "expectiminimax"));
    parse(&arena(
        "backgammon",
        &format!("format = \"gauntlet\"\n{settings}"),
        &players,
    ))
}

fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < 1e-12, "{what}: got {got}, want {want}");
}

/// The reasons the module doc names for 1, 2 and 3 points, and points_of reading them
/// back (a draw is worth nothing, any other reason, a forfeit's, 1 point).
#[test]
fn points_and_reasons_are_the_doc_names() {
    for (points, reason) in [(1, "single game"), (2, "gammon"), (3, "backgammon")] {
        assert_eq!(
            reason_of_points(points),
            reason,
            "the reason of {points} points"
        );
        let won = row(0, 0, 0, ("a", "b"), Winner::Second, reason);
        assert_eq!(points_of(&won), points, "the points of a {reason}");
        let drawn = row(0, 0, 0, ("a", "b"), Winner::Draw, reason);
        assert_eq!(points_of(&drawn), 0, "a draw recorded as {reason}");
    }
    let forfeit = row(0, 0, 0, ("a", "b"), Winner::First, "forfeit: crashed");
    assert_eq!(points_of(&forfeit), 1, "a forfeit");
}

/// Points per game with pairs, from `a`'s side against `b`: each complete pair is one
/// unit, the mean of its two games' net points; the interval is the mean ± z·s/√n with
/// s² the units' sample variance. By hand: units 1/2, −1, 3/2 (a half pair does not
/// count); mean 1/3; s² = (1/36 + 64/36 + 49/36)/2 = 19/12, so s/√n = √19/6. Wins,
/// draws and losses and the wins by 1, 2, 3 points count every game, half pair too.
#[test]
fn paired_points_per_game_and_interval_by_hand() {
    let plan = backgammon_plan("games = 8");
    let (ab, ba) = (("a", "b"), ("b", "a"));
    let rows = [
        row(0, 0, 0, ab, Winner::First, "gammon"),        // a +2
        row(0, 0, 1, ba, Winner::First, "single game"),   // a −1
        row(0, 1, 0, ab, Winner::Second, "backgammon"),   // a −3
        row(0, 1, 1, ba, Winner::Second, "single game"),  // a +1
        row(0, 2, 0, ab, Winner::Draw, "max plies"),      // 0
        row(0, 2, 1, ba, Winner::Second, "backgammon"),   // a +3
        row(0, 3, 0, ab, Winner::First, "forfeit: hung"), // a +1, its pair unfinished
        // The other pairing (a against c): one pair, both won by a's opponent.
        row(1, 0, 0, ("a", "c"), Winner::Second, "single game"),
        row(1, 0, 1, ("c", "a"), Winner::First, "gammon"),
    ];
    let table = points_standings(&plan, &rows);
    assert_eq!(table.len(), 2, "two pairings");
    let s = &table[0];
    assert_eq!((s.player.as_str(), s.opponent.as_str()), ("a", "b"));
    assert_eq!((s.games, s.pairs), (7, 3), "games and complete pairs");
    assert_eq!(s.wdl, [4, 1, 2], "a's wins, draws, losses");
    assert_eq!(s.won_by, [2, 1, 1], "a's wins by 1, 2, 3 points");
    assert_eq!(s.lost_by, [1, 0, 1], "a's losses by 1, 2, 3 points");
    close(s.ppg, 1.0 / 3.0, "points per game");
    let half = Z975 * 19_f64.sqrt() / 6.0;
    let (lo, hi) = s.interval.expect("three pairs give an interval");
    close(lo, 1.0 / 3.0 - half, "lower bound");
    close(hi, 1.0 / 3.0 + half, "upper bound");
    // One pair: −(1 + 2)/2 per game, and no interval from a single unit.
    let t = &table[1];
    assert_eq!((t.games, t.pairs, t.wdl), (2, 1, [0, 0, 2]), "a against c");
    assert_eq!(t.lost_by, [1, 1, 0], "a's losses to c by 1, 2, 3 points");
    close(t.ppg, -1.5, "a against c, points per game");
    assert_eq!(t.interval, None, "no interval from one pair");
}

/// Without pairs each game is a unit: net points +2, −1, +3 from `a`'s side; mean 4/3,
/// s² = (4/9 + 49/9 + 25/9)/2 = 13/3, s/√n = √13/3. A pairing with no games has 0
/// points per game and no interval.
#[test]
fn unpaired_points_per_game_and_interval_by_hand() {
    let plan = backgammon_plan("games = 3\npairs = false");
    assert!(!plan.pairs, "pairs = false");
    let rows = [
        row(0, 0, 0, ("a", "b"), Winner::First, "gammon"),
        row(0, 1, 0, ("b", "a"), Winner::First, "single game"),
        row(0, 2, 0, ("a", "b"), Winner::First, "backgammon"),
    ];
    let table = points_standings(&plan, &rows);
    let s = &table[0];
    assert_eq!((s.games, s.pairs, s.wdl), (3, 0, [2, 0, 1]), "a against b");
    assert_eq!(
        (s.won_by, s.lost_by),
        ([0, 1, 1], [1, 0, 0]),
        "by 1, 2, 3 points"
    );
    close(s.ppg, 4.0 / 3.0, "points per game");
    let half = Z975 * 13_f64.sqrt() / 3.0;
    let (lo, hi) = s.interval.expect("three games give an interval");
    close(lo, 4.0 / 3.0 - half, "lower bound");
    close(hi, 4.0 / 3.0 + half, "upper bound");
    let empty = PointsStanding {
        player: "a".into(),
        opponent: "c".into(),
        games: 0,
        pairs: 0,
        wdl: [0; 3],
        won_by: [0; 3],
        lost_by: [0; 3],
        ppg: 0.0,
        interval: None,
    };
    assert_eq!(table[1], empty, "a pairing without games");
}

/// A game without chance writes no points.csv and no summary section (the module doc:
/// "nothing (an empty string) for a game without chance").
#[test]
fn no_points_for_a_game_without_chance() {
    let players = [searcher("a", "alphabeta"), searcher("b", "alphabeta")];
    let plan = parse(&arena("connect4", "games = 2", &players));
    let dir = TempDir::new("arena-rules-no-points");
    let md = write_points(&plan, dir.dir(), &[]).expect("nothing to write");
    let wrote = dir.path("points.csv").exists();
    assert_eq!(md, "", "no summary section for connect4");
    assert!(!wrote, "no points.csv for connect4");
}

/// A Monte Carlo player (which samples chance nodes) may play backgammon, as the doc of
/// check_players says, though its algorithm key names no chance search.
#[test]
fn a_monte_carlo_player_may_play_backgammon() {
    let mc = "[[searchers]]\nlabel = \"mc\"\nalgorithm = \"root_parallel\"\nthreads = 1\n\
              limits = { time_ms = 10 }\n";
    let text = arena(
        "backgammon",
        "games = 2",
        &[searcher("e", "expectiminimax"), mc.to_owned()],
    );
    let plan = parse(&text);
    assert_eq!(plan.players.len(), 2, "both players accepted");
}

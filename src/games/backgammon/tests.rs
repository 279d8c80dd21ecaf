use super::*;
use crate::game::Evaluator;

fn pos(text: &str) -> Backgammon {
    Backgammon::parse_position(text).unwrap()
}

/// Plays a random roll at a chance node, else a random play of the roll: one step of a
/// seeded random game.
fn play_at_random(p: &mut Backgammon, rng: &mut crate::rng::XorShift) {
    if p.is_chance() {
        let mut rolls = Vec::new();
        p.chance_outcomes(&mut rolls);
        p.play(rolls[rng.below(rolls.len() as u64) as usize].0);
    } else {
        let mut plays = Vec::new();
        p.generate_moves(&mut plays);
        p.play(plays[rng.below(plays.len() as u64) as usize]);
    }
}

fn moves(p: &Backgammon) -> Vec<String> {
    let mut out = Vec::new();
    p.generate_moves(&mut out);
    out.iter().map(ToString::to_string).collect()
}

#[test]
fn start_position_has_the_documented_id_and_rolls() {
    // The GNU Backgammon manual's Position ID of the start position.
    let start = Backgammon::default();
    assert_eq!(start.to_string(), "4HPwATDgc/ABMA");
    assert_eq!(pos("4HPwATDgc/ABMA"), start);
    assert!(start.is_chance());
    let mut rolls = Vec::new();
    start.chance_outcomes(&mut rolls);
    assert_eq!(rolls.len(), 21);
    assert_eq!(rolls.iter().map(|&(_, w)| w).sum::<u32>(), 36);
    assert_eq!(start.pips(Player::First), 167);
}

#[test]
fn opening_31_has_sixteen_plays_as_gnubg_lists() {
    // gnubg 1.07's `hint` lists 16 distinct plays for 31 from the start.
    let p = pos("start 31");
    let list = moves(&p);
    assert_eq!(list.len(), 16, "{list:?}");
    assert!(list.contains(&"8/5 6/5".to_owned()));
    let mv = p.parse_move("8/5 6/5").unwrap();
    let mut after = p;
    after.play(mv);
    assert_eq!(after.side_to_move(), Player::Second);
    assert!(after.is_chance());
}

#[test]
fn bar_entry_hits_and_blocks() {
    // First on roll with a checker on the bar; Second holds First's 24-19 points except 22
    // (Second's 3) with one blot on it.
    let mut rows = [[0u8; 26]; 2];
    rows[0][BAR] = 1;
    rows[0][6] = 14;
    for p in [1, 2, 4, 5, 6] {
        rows[1][p] = 2;
    }
    rows[1][3] = 1;
    rows[1][0] = 4;
    let p = Backgammon::from_rows(rows, Player::First, Some((6, 3)), Scoring::Gammons).unwrap();
    // Only the 3 enters (on the 22, hitting); the 6 cannot bear off from the 6 with a
    // checker outside the home board, so it moves on from the 22.
    assert_eq!(moves(&p), ["bar/22* 22/16"]);
}

#[test]
fn bearing_off_uses_the_larger_die_and_the_highest_point() {
    // Checkers on the 2 and 1 only: a 6-5 bears both off.
    let mut rows = [[0u8; 26]; 2];
    rows[0][2] = 1;
    rows[0][1] = 1;
    rows[0][0] = 13;
    rows[1][20] = 15;
    let p = Backgammon::from_rows(rows, Player::First, Some((6, 5)), Scoring::Gammons).unwrap();
    assert_eq!(moves(&p), ["2/off 1/off"]);
    let mut after = p;
    after.play(p.parse_move("2/off 1/off").unwrap());
    // Second never bore off and has all 15 in First's home board (its 20): a backgammon.
    assert_eq!(after.result(), Some((Player::First, 3)));
    assert_eq!(after.status(), Status::Over(Outcome::Points(-3 * POINT)));
    assert_eq!(
        after.with_scoring(Scoring::WinLoss).result(),
        Some((Player::First, 1))
    );
}

#[test]
fn only_the_larger_die_when_one_can_be_played() {
    // First's lone back checker on 24 with 6-5 to play; Second blocks First's 18 and 13
    // so that only one die can be played: 24/19 uses the 5, 24/18 is blocked. Then 19/13
    // is blocked, so exactly one die moves, and it must be the larger playable one.
    let mut rows = [[0u8; 26]; 2];
    rows[0][24] = 1;
    rows[0][0] = 14;
    rows[1][25 - 18] = 2;
    rows[1][25 - 13] = 2;
    rows[1][25 - 14] = 2;
    rows[1][0] = 9;
    let p = Backgammon::from_rows(rows, Player::First, Some((6, 5)), Scoring::Gammons).unwrap();
    assert_eq!(moves(&p), ["24/19"]);
    // Blocking 19 instead of 18 leaves only the 6: 24/18 and then 18/13 is blocked.
    rows[1][25 - 18] = 0;
    rows[1][25 - 19] = 2;
    let p = Backgammon::from_rows(rows, Player::First, Some((6, 5)), Scoring::Gammons).unwrap();
    assert_eq!(moves(&p), ["24/18"]);
}

#[test]
fn no_legal_move_is_a_pass() {
    let mut rows = [[0u8; 26]; 2];
    rows[0][BAR] = 2;
    rows[0][0] = 13;
    for n in &mut rows[1][1..=6] {
        *n = 2;
    }
    rows[1][0] = 3;
    let p = Backgammon::from_rows(rows, Player::First, Some((4, 2)), Scoring::Gammons).unwrap();
    assert_eq!(moves(&p), ["pass"]);
    let mut after = p;
    after.play(p.parse_move("pass").unwrap());
    assert_eq!(after.side_to_move(), Player::Second);
}

#[test]
fn doubles_play_four_times_and_notation_reads_repeats_and_chains() {
    let p = pos("start 66");
    let m = p.parse_move("24/18(2) 13/7(2)").unwrap();
    let mut a = p;
    a.play(m);
    assert_eq!(a.row(Player::First)[18], 2);
    assert_eq!(a.row(Player::First)[7], 2);
    let p = pos("start 33");
    assert!(p.parse_move("24/21/18 13/10(2)").is_ok());
}

#[test]
fn bad_positions_and_moves_are_refused() {
    for bad in [
        "",
        "4HPwATDgc/ABM",
        "4HPwATDgc/AB!A",
        "start 71",
        "//////////////",
    ] {
        assert!(Backgammon::parse_position(bad).is_err(), "{bad}");
    }
    // Each setting once; no padding bits in the ID (`B` for the start's last `A`).
    for (bad, why) in [
        ("4HPwATDgc/ABMB", "its last character sets padding bits"),
        ("start 31 52", "a second roll `52` after `31`"),
        ("start 31 31", "a second roll `31` after `31`"),
        (
            "start winloss 31 gammons",
            "a second scoring `gammons` after `winloss`",
        ),
    ] {
        let err = Backgammon::parse_position(bad).unwrap_err().to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
    assert_eq!(pos("start winloss 31"), pos("start 31 winloss"));
    let p = pos("start 31");
    for bad in [
        "24/16", "8/5", "25/22", "bar/22", "6/off", "x/y", "13/10(9)",
    ] {
        assert!(p.parse_move(bad).is_err(), "{bad}");
    }
    // A hit mark the position contradicts: no blot on 5 at the start, none `off`, and a
    // mark on the point a checker leaves.
    for (bad, why) in [
        ("8/5* 6/5", "marks a hit on 5"),
        ("8/5 6/5*", "marks a hit on 5"),
        ("8*/5 6/5", "the point a checker leaves"),
    ] {
        let err = p.parse_move(bad).unwrap_err().to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
}

#[test]
fn hit_marks_are_optional_where_a_blot_is_hit() {
    // Entering from the bar hits the blot on the 22 (as in the test above): with the mark,
    // without it, and in a repeat that marks the first of two checkers only.
    let mut rows = [[0u8; 26]; 2];
    rows[0][25] = 2;
    rows[0][6] = 13;
    rows[1][3] = 1;
    rows[1][6] = 14;
    let p = Backgammon::from_rows(rows, Player::First, Some((3, 3)), Scoring::Gammons).unwrap();
    let marked = p.parse_move("bar/22*(2) 6/3(2)").unwrap();
    assert_eq!(p.parse_move("bar/22(2) 6/3(2)"), Ok(marked));
    assert_eq!(marked.to_string(), "bar/22* bar/22 6/3 6/3");
    assert_eq!(p.parse_move(&marked.to_string()), Ok(marked));
}

#[test]
fn position_ids_round_trip_through_random_games() {
    let mut rng = crate::rng::XorShift::new(7);
    let mut p = Backgammon::default();
    let mut buf = Vec::new();
    let mut rolls = Vec::new();
    for _ in 0..2000 {
        if p.result().is_some() {
            p = Backgammon::default();
        }
        if p.is_chance() {
            rolls.clear();
            p.chance_outcomes(&mut rolls);
            p.play(rolls[rng.below(21) as usize].0);
        } else {
            let text = p.to_string();
            assert_eq!(
                pos(&text).row(Player::First),
                p.row(p.side_to_move()),
                "{text}"
            );
            buf.clear();
            p.generate_moves(&mut buf);
            for m in &buf {
                assert_eq!(p.parse_move(&m.to_string()), Ok(*m), "{text}: {m}");
            }
            p.play(buf[rng.below(buf.len() as u64) as usize]);
        }
    }
}

#[test]
fn evaluations_prefer_the_side_ahead_and_stay_in_bounds() {
    let mut rows = [[0u8; 26]; 2];
    rows[0][1] = 15;
    rows[1][6] = 15;
    let ahead = Backgammon::from_rows(rows, Player::First, None, Scoring::Gammons).unwrap();
    assert!(PipRace.evaluate(&ahead) > POINT / 2);
    let start = Backgammon::default();
    let (lo, hi) = Pubeval.bounds(&start).unwrap();
    assert_eq!((lo, hi), (-3 * POINT, 3 * POINT));
    assert!((lo..=hi).contains(&Pubeval.evaluate(&start)));
}

/// A recorded line splits into its rolls and plays, a play's steps kept together.
#[test]
fn a_line_splits_into_rolls_and_whole_plays() {
    let line = "5-4 24/20 20/15  6-4 pass 3-3 13/10* 8/5 7/4 7/4 66 bar/19";
    assert_eq!(
        Backgammon::line_moves(line),
        [
            "5-4",
            "24/20 20/15",
            "6-4",
            "pass",
            "3-3",
            "13/10* 8/5 7/4 7/4",
            "66",
            "bar/19"
        ]
    );
    assert!(Backgammon::line_moves(" ").is_empty());
}

/// The Keith count adds the pips a bear-off wastes to the pip count; the race evaluation
/// built on it bears off where the plain pip count scored every play of the roll alike and
/// played the first generated, `6/3 6/2`, taking none off.
#[test]
fn the_keith_count_charges_wastage_and_the_race_bears_off() {
    let mut rows = [[0u8; 26]; 2];
    // 3 on the one-point, 2 on the two, 5 on the three, none on the four, 5 on the five,
    // none on the six: 47 pips.
    (rows[0][1], rows[0][2], rows[0][3], rows[0][5]) = (3, 2, 5, 5);
    rows[1][6] = 15;
    let pos = Backgammon::from_rows(rows, Player::First, None, Scoring::Gammons).unwrap();
    assert_eq!(pos.pips(Player::First), 47);
    // + 2·2 (one-point) + 1 (two-point) + 2 (three-point) + 2 (four and six empty).
    assert_eq!(pos.keith_count(Player::First), 56);
    assert_eq!(pos.keith_count(Player::Second), 90 + 2);

    let bear_off = self::pos("+L4PAADb7g4AAA 43");
    let mut plays = Vec::new();
    bear_off.generate_moves(&mut plays);
    let value = |mv: BgMove| eval::after(&PipRace, &bear_off, mv);
    let best = plays.iter().map(|&mv| value(mv)).max().unwrap();
    let chosen: Vec<String> = plays
        .iter()
        .filter(|&&mv| value(mv) == best)
        .map(ToString::to_string)
        .collect();
    assert!(chosen.iter().all(|p| p.contains("off")), "{chosen:?}");
    let pips_after = |text: &str| {
        let mut p = bear_off;
        p.play(bear_off.parse_move(text).unwrap());
        p.pips(Player::First) + p.pips(Player::Second)
    };
    assert_eq!(pips_after("6/3 6/2"), pips_after("4/off 3/off"));
}

/// The eight-bytes-at-a-time order of boards is the arrays' own order.
#[test]
fn rows_order_is_the_arrays_order() {
    let mut rng = crate::rng::XorShift::new(5);
    let mut board = || {
        let mut rows = [[0u8; 26]; 2];
        for row in &mut rows {
            for n in row.iter_mut() {
                // Mostly equal, so that long common prefixes are compared too.
                *n = if rng.below(8) == 0 {
                    rng.below(4) as u8
                } else {
                    0
                };
            }
        }
        rows
    };
    for _ in 0..20_000 {
        let (a, b) = (board(), board());
        assert_eq!(rows_order(&a, &b), a.cmp(&b), "{a:?} {b:?}");
        assert_eq!(rows_order(&a, &a), std::cmp::Ordering::Equal);
    }
}

/// Rows seen from one player: `[mine, theirs]`, each numbered from its owner's side.
type Rows = [[u8; 26]; 2];

/// One checker of `rows[0]` moved from `from` by `die`, by the rules as the module docs
/// state them, written apart from the generator: checkers on the bar enter first; a point
/// held by two or more opposing checkers is blocked; a lone opposing checker is hit to its
/// bar; bearing off needs all fifteen home, and a die larger than the point bears off only
/// from the highest occupied point.
fn step_by_the_rules(rows: &Rows, from: usize, die: usize) -> Option<Rows> {
    let [mine, theirs] = rows;
    if mine[from] == 0 || (mine[BAR] > 0 && from != BAR) {
        return None;
    }
    let mut next = *rows;
    next[0][from] -= 1;
    if from > die {
        let to = from - die;
        // Their point numbers run the other way: my point `to` is their `25 - to`.
        let theirs_there = 25 - to;
        match theirs[theirs_there] {
            0 => {}
            1 => {
                next[1][theirs_there] = 0;
                next[1][BAR] += 1;
            }
            _ => return None,
        }
        next[0][to] += 1;
    } else {
        let home = (7..=BAR).all(|p| mine[p] == 0);
        let highest = (1..=6).rev().find(|&p| mine[p] > 0);
        if !home || (from != die && highest != Some(from)) {
            return None;
        }
        next[0][0] += 1;
    }
    Some(next)
}

/// Every position `rows[0]` can reach with the roll `(a, b)`, `a >= b`, by the rules of
/// the module docs: the dice in either order (four times for doubles), as many dice as can
/// be played, and where only one of two can be played the larger if it can; the position
/// unchanged when nothing can be played (a pass). Positions are collected die by die as
/// sets, so each appears once however many orders reach it.
fn plays_by_the_rules(rows: &Rows, (a, b): (u8, u8)) -> std::collections::BTreeSet<Rows> {
    use std::collections::BTreeSet;
    let orders: Vec<Vec<usize>> = if a == b {
        vec![vec![usize::from(a); 4]]
    } else {
        vec![
            vec![usize::from(a), usize::from(b)],
            vec![usize::from(b), usize::from(a)],
        ]
    };
    // reached[k]: positions after exactly k dice; first[d]: after the single die d first.
    let mut reached: Vec<BTreeSet<Rows>> = vec![BTreeSet::new(); 5];
    let mut first: Vec<BTreeSet<Rows>> = vec![BTreeSet::new(); 7];
    for order in &orders {
        let mut level = BTreeSet::from([*rows]);
        for (k, &die) in order.iter().enumerate() {
            let next: BTreeSet<Rows> = level
                .iter()
                .flat_map(|r| (1..=BAR).filter_map(move |from| step_by_the_rules(r, from, die)))
                .collect();
            if k == 0 {
                first[die].extend(next.iter().copied());
            }
            reached[k + 1].extend(next.iter().copied());
            level = next;
        }
    }
    let most = (0..=4).rev().find(|&k| !reached[k].is_empty()).unwrap_or(0);
    match most {
        0 => BTreeSet::from([*rows]),
        1 if a != b && !first[usize::from(a)].is_empty() => first[usize::from(a)].clone(),
        1 if a != b => first[usize::from(b)].clone(),
        _ => reached[most].clone(),
    }
}

/// `pos`'s plays (dice rolled) agree with [`plays_by_the_rules`]: the same resulting
/// positions, and no two plays leading to the same one.
fn check_plays_by_the_rules(pos: &Backgammon) {
    let me = index(pos.side_to_move());
    let view = |rows: &Rows| [rows[me], rows[1 - me]];
    let mut plays = Vec::new();
    pos.generate_moves(&mut plays);
    let reached: Vec<Rows> = plays
        .iter()
        .map(|&mv| {
            let mut after = *pos;
            after.play(mv);
            view(&after.checkers)
        })
        .collect();
    let got: std::collections::BTreeSet<Rows> = reached.iter().copied().collect();
    let names: Vec<String> = plays.iter().map(ToString::to_string).collect();
    assert_eq!(
        got.len(),
        plays.len(),
        "{pos}: two plays reach one position: {names:?}"
    );
    let want = plays_by_the_rules(&view(&pos.checkers), pos.dice().expect("rolled"));
    assert!(
        got == want,
        "{pos}: {} plays generated, {} by the rules; generated only: {:?}; rules only: {:?}",
        got.len(),
        want.len(),
        got.difference(&want).collect::<Vec<_>>(),
        want.difference(&got).collect::<Vec<_>>()
    );
}

/// Move generation against a brute-force generator written from the rules
/// ([`plays_by_the_rules`]): at every player node of seeded random games, and with all 21
/// rolls on seeded random placements weighted towards the cases with special rules
/// (checkers on the bar, bearing off, a crowded board of blocks and blots).
#[test]
fn plays_equal_a_brute_force_generator_written_from_the_rules() {
    let mut rng = crate::rng::XorShift::new(2026);
    let mut p = Backgammon::default();
    for _ in 0..4000 {
        if p.result().is_some() {
            p = Backgammon::default();
        }
        if !p.is_chance() {
            check_plays_by_the_rules(&p);
        }
        play_at_random(&mut p, &mut rng);
    }
    let mut placed = 0;
    while placed < 600 {
        // Each side's checkers go off, on the bar or on a few points of a range: its home
        // board (bearing off), or the whole board.
        let mut rows = [[0u8; 26]; 2];
        for row in &mut rows {
            let highest = if rng.below(2) == 0 { 6 } else { 24 };
            let points: Vec<usize> = (0..4).map(|_| 1 + rng.below(highest) as usize).collect();
            for _ in 0..CHECKERS {
                let at = match rng.below(16) {
                    0 => 0,
                    1 => BAR,
                    r => points[r as usize % 4],
                };
                row[at] += 1;
            }
        }
        let shared = (1..=24).any(|i| rows[0][i] > 0 && rows[1][25 - i] > 0);
        if shared || rows[0][0] == CHECKERS || rows[1][0] == CHECKERS {
            continue;
        }
        placed += 1;
        for &(a, b, _) in &ROLLS {
            let pos = Backgammon::from_rows(rows, Player::First, Some((a, b)), Scoring::Gammons)
                .expect("a valid placement");
            check_plays_by_the_rules(&pos);
        }
    }
}

/// Points won (the rules of the module docs): 1 if the loser has borne off a checker, else
/// 2 (a gammon), or 3 (a backgammon) if the loser still has a checker on the bar or in the
/// winner's home board (the loser's points 19 to 24); 1 for every win under win/loss.
/// The status gives them to the winner, negative for the loser to move.
#[test]
fn results_score_singles_gammons_and_backgammons() {
    // Second has borne off all fifteen; First, on roll, keeps 15 checkers placed by `at`.
    let ended = |at: &[(usize, u8)], scoring| {
        let mut rows = [[0u8; 26]; 2];
        rows[1][0] = CHECKERS;
        for &(point, n) in at {
            rows[0][point] += n;
        }
        Backgammon::from_rows(rows, Player::First, None, scoring).expect("valid")
    };
    for (at, points, why) in [
        (&[(0, 1), (6, 14)][..], 1, "one borne off"),
        (&[(6, 15)][..], 2, "none off, none in the winner's home"),
        (
            &[(6, 14), (18, 1)][..],
            2,
            "the 18 is outside the winner's home board",
        ),
        (&[(6, 14), (19, 1)][..], 3, "the 19 is the winner's 6-point"),
        (&[(6, 14), (24, 1)][..], 3, "the 24 is the winner's 1-point"),
        (&[(6, 14), (BAR, 1)][..], 3, "a checker on the bar"),
        (
            &[(0, 1), (BAR, 14)][..],
            1,
            "borne off one, whatever is left behind",
        ),
    ] {
        let pos = ended(at, Scoring::Gammons);
        assert_eq!(pos.result(), Some((Player::Second, points)), "{why}");
        assert_eq!(
            pos.status(),
            Status::Over(Outcome::Points(-points * POINT)),
            "{why}: First, to move, lost"
        );
        let plain = ended(at, Scoring::WinLoss);
        assert_eq!(plain.result(), Some((Player::Second, 1)), "{why}, win/loss");
        assert_eq!(
            plain.status(),
            Status::Over(Outcome::Points(-POINT)),
            "{why}"
        );
    }
    // No one has borne off all fifteen: no result.
    assert_eq!(Backgammon::default().result(), None);
    assert_eq!(Backgammon::default().status(), Status::Ongoing);
}

/// The Keith count (Tom Keith, 2004) worked by hand where each wastage term differs from
/// its neighbours: 5 on the one-point, 4 on the two, 6 on the three, the four- to
/// six-points empty: 31 pips + 2·4 + 3 + 3 + 3 = 48.
#[test]
fn the_keith_count_of_a_crowded_home_board() {
    let mut rows = [[0u8; 26]; 2];
    (rows[0][1], rows[0][2], rows[0][3]) = (5, 4, 6);
    rows[1][6] = 15;
    let pos = Backgammon::from_rows(rows, Player::First, None, Scoring::Gammons).unwrap();
    assert_eq!(pos.pips(Player::First), 5 + 2 * 4 + 3 * 6);
    assert_eq!(pos.keith_count(Player::First), 31 + 2 * 4 + 3 + 3 + 3);
}

/// PipRace by the formula of its documentation, `POINT · tanh(8 · (opp + 4 − own) / opp)`
/// with pip counts under contact and Keith counts in a race (all worked by hand below),
/// to within one unit of rounding, and strictly inside `±POINT` however far one side leads.
#[test]
fn pip_race_follows_its_formula() {
    let by_formula = |own: f64, opp: f64| f64::from(POINT) * (8.0 * (opp + 4.0 - own) / opp).tanh();
    let check = |pos: &Backgammon, own: u32, opp: u32, why: &str| {
        let want = by_formula(f64::from(own), f64::from(opp));
        let got = PipRace.evaluate(pos);
        // Two units: the rounding, and a scale one unit below POINT, which keeps the values
        // strictly inside ±POINT (a finished game's single win) where tanh rounds to 1.
        assert!(
            (f64::from(got) - want).abs() <= 2.0,
            "{why}: {got}, formula {want:.2}"
        );
        assert!(got.abs() < POINT, "{why}: {got} is not inside ±POINT");
    };
    // Contact: 167 pips each at the start, and 163 against 167 after 8/5 6/5.
    check(&Backgammon::default(), 167, 167, "the start");
    check(
        &pos("start 31; 8/5 6/5"),
        167,
        163,
        "Second after 31 played 8/5 6/5",
    );
    // A race: First 3, 2, 5, 0, 5, 0 on its one- to six-points (47 pips, Keith 56 as
    // worked in the test above); Second 15 on its six-point (90 pips, Keith 92).
    let mut rows = [[0u8; 26]; 2];
    (rows[0][1], rows[0][2], rows[0][3], rows[0][5]) = (3, 2, 5, 5);
    rows[1][6] = 15;
    let race = Backgammon::from_rows(rows, Player::First, None, Scoring::Gammons).unwrap();
    assert!(race.is_race());
    check(&race, 56, 92, "First in the race");
    // The most lopsided race: one checker on First's one-point (Keith 1 + 3 gaps) against
    // fifteen on Second's 23-point (345 pips + 3 gaps).
    let mut rows = [[0u8; 26]; 2];
    (rows[0][1], rows[0][0]) = (1, 14);
    rows[1][23] = 15;
    let far = Backgammon::from_rows(rows, Player::First, None, Scoring::Gammons).unwrap();
    assert!(far.is_race());
    check(&far, 4, 348, "First far ahead");
    let far = Backgammon::from_rows(rows, Player::Second, None, Scoring::Gammons).unwrap();
    check(&far, 348, 4, "Second far behind");
}

/// The bounds the chance searches prune with are a finished game's values (module docs):
/// `±3·POINT` under gammon scoring, `±POINT` under win/loss, for both evaluators.
#[test]
fn evaluation_bounds_are_a_finished_games_values() {
    for (text, most) in [("start", 3 * POINT), ("start winloss", POINT)] {
        let p = pos(text);
        assert_eq!(PipRace.bounds(&p), Some((-most, most)), "PipRace at {text}");
        assert_eq!(Pubeval.bounds(&p), Some((-most, most)), "Pubeval at {text}");
    }
}

/// Hints order plays by the value of the position after them for the player who plays it
/// (eval.rs's module docs), a finished game's points where the play ends the game: the
/// same for both evaluators there, three times as high for a backgammon as for a single
/// win, and elsewhere in the order of the negated evaluations of the opponent's turn.
#[test]
fn hints_follow_the_value_after_the_play() {
    // First bears off its last two checkers with 6-5 (the bear-off test above); Second has
    // fifteen checkers in First's home board (a backgammon), or has borne one off (a
    // single game).
    let last_two = |second: &[(usize, u8)]| {
        let mut rows = [[0u8; 26]; 2];
        (rows[0][2], rows[0][1], rows[0][0]) = (1, 1, 13);
        for &(point, n) in second {
            rows[1][point] = n;
        }
        let p = Backgammon::from_rows(rows, Player::First, Some((6, 5)), Scoring::Gammons);
        let p = p.expect("valid");
        (p, p.parse_move("2/off 1/off").expect("the only play"))
    };
    let (triple, win3) = last_two(&[(20, 15)]);
    let (single, win1) = last_two(&[(0, 1), (20, 14)]);
    let hint3 = PipRace.order_hint(&triple, win3, 1);
    let hint1 = PipRace.order_hint(&single, win1, 1);
    assert_eq!(
        Pubeval.order_hint(&triple, win3, 1),
        hint3,
        "a backgammon, by points"
    );
    assert_eq!(
        Pubeval.order_hint(&single, win1, 1),
        hint1,
        "a single win, by points"
    );
    assert!(
        hint1 > 0 && hint3 == 3 * hint1,
        "3 points hint {hint3}, 1 point {hint1}"
    );
    // The sixteen plays of 31 from the start: hints in the order of the values after them.
    let p = pos("start 31");
    let mut plays = Vec::new();
    p.generate_moves(&mut plays);
    let after = |mv| {
        let mut q = p;
        q.play(mv);
        q
    };
    for (a, b) in plays
        .iter()
        .flat_map(|&a| plays.iter().map(move |&b| (a, b)))
    {
        let by_hint = PipRace
            .order_hint(&p, a, 1)
            .cmp(&PipRace.order_hint(&p, b, 1));
        let by_value = (-PipRace.evaluate(&after(a))).cmp(&-PipRace.evaluate(&after(b)));
        assert!(
            by_hint == by_value || by_hint.is_eq(),
            "PipRace: {a} against {b}"
        );
        let by_hint = Pubeval
            .order_hint(&p, a, 1)
            .cmp(&Pubeval.order_hint(&p, b, 1));
        let by_value = (-Pubeval.evaluate(&after(a))).cmp(&-Pubeval.evaluate(&after(b)));
        assert!(
            by_hint == by_value || by_hint.is_eq(),
            "Pubeval: {a} against {b}"
        );
    }
    let hints: std::collections::BTreeSet<i32> = plays
        .iter()
        .map(|&mv| Pubeval.order_hint(&p, mv, 1))
        .collect();
    assert!(
        hints.len() > 1,
        "Pubeval hints every play of 31 alike: {hints:?}"
    );
}

/// The hash tells apart what a transposition table must not confuse (`Game::hash`: the
/// position including the side to move): the same checkers with the other player on roll,
/// each of the 21 rolls, no roll yet, and the other scoring rule.
#[test]
fn hashes_tell_apart_turn_rolls_and_scoring() {
    let start = Backgammon::default();
    let mut hashes = vec![start.hash(), start.with_scoring(Scoring::WinLoss).hash()];
    let second = Backgammon::from_rows(start.checkers, Player::Second, None, Scoring::Gammons);
    hashes.push(second.expect("the start rows").hash());
    for &(a, b, _) in &ROLLS {
        let mut rolled = start;
        rolled.play(BgMove::Roll(a, b));
        hashes.push(rolled.hash());
    }
    let distinct: std::collections::BTreeSet<u64> = hashes.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        hashes.len(),
        "equal hashes among {hashes:x?}"
    );
    // The positions of seeded random games: distinct positions, distinct 64-bit hashes
    // (a collision among a few thousand would have odds near 2^-40).
    let mut rng = crate::rng::XorShift::new(17);
    let mut seen = std::collections::HashMap::new();
    let mut p = Backgammon::default();
    for _ in 0..3000 {
        if p.result().is_some() {
            p = Backgammon::default();
        }
        let key = (p.checkers, p.turn, p.dice);
        if let Some(other) = seen.insert(p.hash(), key) {
            assert_eq!(other, key, "two positions share the hash {:x}", p.hash());
        }
        play_at_random(&mut p, &mut rng);
    }
}

/// Move codes (`Game::move_code`): a roll's is exact, the 21 rolls have 21 codes below the
/// top bit that marks a play's hashed code.
#[test]
fn move_codes_keep_rolls_exact_and_plays_apart() {
    let codes: std::collections::BTreeSet<u16> = ROLLS
        .iter()
        .map(|&(a, b, _)| Backgammon::move_code(BgMove::Roll(a, b)))
        .collect();
    assert_eq!(codes.len(), 21, "{codes:?}");
    assert!(codes.iter().all(|&c| c < 0x8000), "{codes:?}");
    // Plays are hashed to 15 bits under the top bit (`Game::move_code`): a collision among
    // the 16 plays of 31 is possible, but not codes that tell few of them apart.
    let p = pos("start 31");
    let mut plays = Vec::new();
    p.generate_moves(&mut plays);
    let codes: std::collections::BTreeSet<u16> =
        plays.iter().map(|&mv| Backgammon::move_code(mv)).collect();
    assert!(codes.iter().all(|&c| c >= 0x8000), "{codes:x?}");
    assert!(
        codes.len() >= 12,
        "16 plays, {} codes: {codes:x?}",
        codes.len()
    );
}

/// `win_probability` is linear in points as documented: `−POINT` a sure loss, `0` even,
/// `+POINT` a sure win, half a point ahead three chances in four, gammons clamped to 1.
#[test]
fn win_probability_is_linear_in_points() {
    for (score, p) in [
        (-POINT, 0.0),
        (-POINT / 2, 0.25),
        (0, 0.5),
        (POINT / 2, 0.75),
        (POINT, 1.0),
        (3 * POINT, 1.0),
        (-3 * POINT, 0.0),
    ] {
        let got = Backgammon::win_probability(score);
        assert!((got - p).abs() < 1e-12, "{score}: {got}, not {p}");
    }
}

/// A position's text reads back as the same position (module docs: the Position ID, the
/// roll, `winloss`): the roll larger die first whichever order it was written in, the
/// scoring kept, on every node of a seeded random game under both scorings.
#[test]
fn position_text_reads_back_with_its_roll_and_scoring() {
    assert_eq!(pos("start 13").to_string(), "4HPwATDgc/ABMA 31");
    assert_eq!(
        pos("start 1-3 winloss").to_string(),
        "4HPwATDgc/ABMA 31 winloss"
    );
    assert_eq!(pos("start 13").dice(), Some((3, 1)));
    let mut rng = crate::rng::XorShift::new(11);
    for scoring in [Scoring::Gammons, Scoring::WinLoss] {
        let mut p = Backgammon::default().with_scoring(scoring);
        for _ in 0..400 {
            if p.result().is_some() {
                break;
            }
            let text = p.to_string();
            let back = pos(&text);
            assert_eq!(back.row(Player::First), p.row(p.side_to_move()), "{text}");
            assert_eq!(
                back.row(Player::Second),
                p.row(p.side_to_move().other()),
                "{text}"
            );
            assert_eq!((back.dice(), back.scoring()), (p.dice(), scoring), "{text}");
            play_at_random(&mut p, &mut rng);
        }
    }
}

/// `from_rows` checks what its documentation lists: 15 checkers a side, no point held by
/// both, not both sides borne off, dice from 1 to 6 (the larger kept first).
#[test]
fn from_rows_checks_checkers_points_and_dice() {
    let start = Backgammon::default().checkers;
    let make = |rows, dice| Backgammon::from_rows(rows, Player::First, dice, Scoring::Gammons);
    assert!(make(start, None).is_ok());
    assert_eq!(
        make(start, Some((1, 3))).map(|p| p.dice()),
        Ok(Some((3, 1)))
    );
    for dice in [(7, 1), (1, 7), (0, 3), (3, 0)] {
        assert!(make(start, Some(dice)).is_err(), "{dice:?} is no roll");
    }
    let mut short = start;
    short[0][6] -= 1;
    assert!(make(short, None).is_err(), "14 checkers");
    // First's 1-point is Second's 24, where Second has two checkers.
    let mut shared = start;
    (shared[0][6], shared[0][1]) = (4, 1);
    assert!(make(shared, None).is_err(), "a point held by both");
    let mut off = [[0u8; 26]; 2];
    (off[0][0], off[1][0]) = (CHECKERS, CHECKERS);
    assert!(make(off, None).is_err(), "both borne off");
    (off[0][0], off[0][6]) = (CHECKERS - 1, 1);
    assert!(
        make(off, None).is_ok(),
        "one side borne off: a finished game"
    );
}

/// The start position's row, as the rules give it: 2 on the 24, 5 on the 13, 3 on the 8,
/// 5 on the 6.
const START_ROW: [u8; 26] = {
    let mut row = [0; 26];
    (row[24], row[13], row[8], row[6]) = (2, 5, 3, 5);
    row
};

/// The Position ID as the GNU Backgammon manual describes it, written out: for the
/// opponent, then the player on roll, points 1 to 24 and the bar, a 1 bit per checker and
/// a 0 bit after each point; zeros up to 80 bits; bytes filled from their lowest bit;
/// Base64 (RFC 4648) in groups of three bytes, the two `=` of padding dropped.
fn id_by_the_manual(mover: &[u8; 26], other: &[u8; 26]) -> String {
    let mut bits = Vec::new();
    for row in [other, mover] {
        for &n in &row[1..=BAR] {
            bits.extend(std::iter::repeat_n(true, usize::from(n)));
            bits.push(false);
        }
    }
    bits.resize(80, false);
    id_of_bits(&bits)
}

/// Base64 of 80 bits, each byte filled from its lowest bit (the manual's layout).
fn id_of_bits(bits: &[bool]) -> String {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes: Vec<u32> = bits
        .chunks(8)
        .map(|b| (0..8).filter(|&i| b[i]).map(|i| 1 << i).sum())
        .collect();
    let mut text = String::new();
    for group in bytes.chunks(3) {
        let word = (0..3).fold(0, |w, i| (w << 8) | group.get(i).copied().unwrap_or(0));
        for k in 0..=group.len() {
            text.push(char::from(B64[(word >> (18 - 6 * k) & 63) as usize]));
        }
    }
    text
}

/// Position IDs are the manual's bit layout ([`id_by_the_manual`]) on every node of
/// seeded random games and on fifteen checkers stacked on one point, and they read back;
/// an ID with a bit set after the last player's bar is refused.
#[test]
fn position_ids_are_the_manuals_bit_layout() {
    assert_eq!(id_by_the_manual(&START_ROW, &START_ROW), "4HPwATDgc/ABMA");
    let mut rng = crate::rng::XorShift::new(13);
    let mut p = Backgammon::default();
    let mut stacked = [[0u8; 26]; 2];
    (stacked[0][6], stacked[1][1]) = (CHECKERS, CHECKERS);
    let mut rows_seen = vec![stacked];
    for _ in 0..600 {
        if p.result().is_some() {
            p = Backgammon::default();
        }
        rows_seen.push([*p.row(p.side_to_move()), *p.row(p.side_to_move().other())]);
        play_at_random(&mut p, &mut rng);
    }
    for [mover, other] in rows_seen {
        let id = id_by_the_manual(&mover, &other);
        assert_eq!(
            position_id::encode(&mover, &other),
            id,
            "{mover:?} {other:?}"
        );
        assert_eq!(position_id::decode(&id), Ok([mover, other]), "{id}");
    }
    // The start less one checker borne off by the player on roll takes 79 bits; the 80th
    // set is a checker after the last bar.
    let mut mover = START_ROW;
    (mover[6], mover[0]) = (4, 1);
    let mut bits: Vec<bool> = Vec::new();
    for row in [&START_ROW, &mover] {
        for &n in &row[1..=BAR] {
            bits.extend(std::iter::repeat_n(true, usize::from(n)));
            bits.push(false);
        }
    }
    assert_eq!(bits.len(), 79);
    bits.push(true);
    let id = id_of_bits(&bits);
    assert!(
        position_id::decode(&id).is_err(),
        "{id} has a bit after the last bar"
    );
}

/// A hit mark on `off` is refused (the notation marks a blot hit on the point reached),
/// even with a lone opposing checker on the bar, where the opponent's row has a 1.
#[test]
fn a_hit_mark_on_off_is_refused() {
    let mut rows = [[0u8; 26]; 2];
    (rows[0][2], rows[0][1], rows[0][0]) = (1, 1, 13);
    (rows[1][BAR], rows[1][20]) = (1, 14);
    let p = Backgammon::from_rows(rows, Player::First, Some((6, 5)), Scoring::Gammons).unwrap();
    assert!(p.parse_move("2/off 1/off").is_ok());
    let err = p.parse_move("2/off* 1/off").map(|m| m.to_string());
    assert!(err.is_err(), "a hit on off was read as {err:?}");
}

/// A move's text names forward steps with repeats of 1 to 4 (the notation of the module
/// docs): a step backwards or in place, or a repeat of 0, is refused even where the rest
/// of the text, with it left out, is the legal play `8/5 6/5`.
#[test]
fn steps_go_forward_and_repeats_count_one_to_four() {
    let p = pos("start 31");
    assert!(p.parse_move("8/5 6/5").is_ok());
    for bad in [
        "6/5 5/6 8/5 6/5",
        "6/6 8/5 6/5",
        "13/13 8/5 6/5",
        "24/20(0) 8/5 6/5",
    ] {
        let got = p.parse_move(bad).map(|m| m.to_string());
        assert!(got.is_err(), "`{bad}` was read as {got:?}");
    }
}

//! Learning's arithmetic against its definitions, each written out here: Texel's error and
//! its gradient (Österlund 2014, as EXPERIMENTS.md and `learn::texel` give it), Adam's
//! steps (Kingma and Ba 2015, Algorithm 1), Sutton's TD(λ) sum on a hand-built game
//! (Sutton 1988, as EXPERIMENTS.md gives it with the division by N), the first player's
//! result of a finished game, self-play's record of a game, and whole `learn` runs (one
//! Texel run's epochs, one TD batch) recomputed from the same games by these definitions.

use std::fs;
use std::path::Path;

use crate::common::TempDir;
use plylab::game::{Evaluator, Game, Notation, Outcome, Player, Status};
use plylab::games::backgammon::{Backgammon, POINT};
use plylab::games::checkers::Checkers;
use plylab::games::chess::Chess;
use plylab::games::connect4::Connect4;
use plylab::games::linear::MAX_WEIGHT;
use plylab::games::othello::Othello;
use plylab::learn::selfplay::{PlayedGame, SelfPlay, first_player_result, play_game};
use plylab::learn::texel::{self, Adam, Dataset};
use plylab::learn::{LearnGame, LearnOptions, LearnReport, td};
use plylab::rng::XorShift;

/// Texel's squashing function as the Chess Programming Wiki writes it:
/// σ(q) = 1 / (1 + 10^(−K q / 400)).
fn sigma(k: f64, q: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * q / 400.0))
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Texel's error E(w) = 1/N Σ (r_i − σ(w · x_i))², summed here one row at a time.
fn texel_error(rows: &[(Vec<f64>, f64)], w: &[f64], k: f64) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|(x, r)| (r - sigma(k, dot(w, x))).powi(2))
        .sum();
    sum / rows.len() as f64
}

/// ∂E/∂w_j by the chain rule, dσ/dq = σ (1 − σ) K ln 10 / 400:
/// −2/N Σ (r − σ) σ (1 − σ) (K ln 10 / 400) x_j.
fn texel_gradient(rows: &[(Vec<f64>, f64)], w: &[f64], k: f64) -> Vec<f64> {
    let c = k * std::f64::consts::LN_10 / 400.0;
    let mut g = vec![0.0; w.len()];
    for (x, r) in rows {
        let s = sigma(k, dot(w, x));
        for (gj, xj) in g.iter_mut().zip(x) {
            *gj += -2.0 * (r - s) * s * (1.0 - s) * c * xj;
        }
    }
    g.iter().map(|v| v / rows.len() as f64).collect()
}

/// Adam as Kingma and Ba's Algorithm 1 states it (β1 = 0.9, β2 = 0.999, and the ε of 1e−12
/// that `texel::Adam` documents), with the weights learning leaves alone (`frozen`) and
/// the bound every weights file keeps (|w| ≤ `MAX_WEIGHT`).
struct ReferenceAdam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl ReferenceAdam {
    fn new(n: usize) -> Self {
        Self {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    fn step(&mut self, w: &mut [f64], g: &[f64], rate: f64, frozen: &[usize]) {
        self.t += 1;
        for j in 0..w.len() {
            self.m[j] = 0.9 * self.m[j] + 0.1 * g[j];
            self.v[j] = 0.999 * self.v[j] + 0.001 * g[j] * g[j];
            if frozen.contains(&j) {
                continue;
            }
            let m_hat = self.m[j] / (1.0 - 0.9f64.powi(self.t));
            let v_hat = self.v[j] / (1.0 - 0.999f64.powi(self.t));
            w[j] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
            w[j] = w[j].clamp(-MAX_WEIGHT, MAX_WEIGHT);
        }
    }
}

/// Whether `a` and `b` agree within `tol`, relative to the larger of their magnitudes
/// and 1.
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

/// Texel's squashing function at points worked out by hand: ½ at 0, 10/11 where
/// K q = 400 (10^−1 in the denominator), 1/11 where K q = −400, and σ(q) + σ(−q) = 1.
#[test]
fn sigmoid_is_texels_base_ten_logistic() {
    let cases = [
        (1.0, 0.0, 0.5),
        (3.7, 0.0, 0.5),
        (1.0, 400.0, 10.0 / 11.0),
        (2.0, 200.0, 10.0 / 11.0),
        (0.5, -800.0, 1.0 / 11.0),
        (1.0, 800.0, 100.0 / 101.0),
    ];
    for (k, q, want) in cases {
        let got = texel::sigmoid(k, q);
        assert!(
            (got - want).abs() < 1e-15,
            "sigmoid({k}, {q}) = {got}, not {want}"
        );
    }
    for q in [-731.0, -5.5, 12.0, 260.0] {
        let sum = texel::sigmoid(1.3, q) + texel::sigmoid(1.3, -q);
        assert!((sum - 1.0).abs() < 1e-15, "σ({q}) + σ(−{q}) = {sum}");
    }
}

/// Rows of 3 features in −10..=10 with results 0, ½ and 1, seeded: more than two chunks
/// of `texel::CHUNK`, so that the chunk sums are added too.
fn rows(count: usize, seed: u64) -> Vec<(Vec<f64>, f64)> {
    let mut rng = XorShift::new(seed);
    (0..count)
        .map(|_| {
            let x: Vec<f64> = (0..3).map(|_| rng.below(21) as f64 - 10.0).collect();
            let r = [0.0, 0.5, 1.0][rng.below(3) as usize];
            (x, r)
        })
        .collect()
}

fn dataset(rows: &[(Vec<f64>, f64)]) -> Dataset {
    let mut d = Dataset::new(rows[0].0.len());
    for (x, r) in rows {
        d.push(x, *r);
    }
    d
}

/// `loss_and_gradient` returns E(w) as defined (the mean over every row of every chunk)
/// and a gradient that agrees with central differences of that definition (not of the
/// code's own loss); without the gradient asked, the same loss and an empty vector.
#[test]
fn texel_loss_and_gradient_are_the_defined_error_and_its_slope() {
    let rows = rows(2 * texel::CHUNK + 77, 4);
    let d = dataset(&rows);
    assert_eq!(d.len(), rows.len(), "every pushed row counts");
    assert!(!d.is_empty());
    assert_eq!(d.width, 3);
    for (w, k) in [([30.0, -12.0, 55.0], 1.3), ([-4.0, 9.5, 0.25], 0.4)] {
        let want = texel_error(&rows, &w, k);
        let (loss, g) = texel::loss_and_gradient(&d, &w, k, true);
        assert!(close(loss, want, 1e-12), "E(w) = {loss}, defined {want}");
        let (plain, none) = texel::loss_and_gradient(&d, &w, k, false);
        assert_eq!(
            (plain, none.len()),
            (loss, 0),
            "the loss without the gradient"
        );
        let scale = g.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        for j in 0..3 {
            let h = 1e-4;
            let (mut up, mut down) = (w, w);
            up[j] += h;
            down[j] -= h;
            let numeric = (texel_error(&rows, &up, k) - texel_error(&rows, &down, k)) / (2.0 * h);
            assert!(
                (g[j] - numeric).abs() <= 1e-6 * scale,
                "∂E/∂w_{j} at {w:?}, K {k}: {} by the code, {numeric} by central differences",
                g[j]
            );
        }
    }
    let empty = Dataset::new(2);
    assert!(empty.is_empty(), "a new set holds no rows");
    assert_eq!(empty.len(), 0, "a new set holds no rows");
}

/// `loss_and_gradient`'s sum runs in the order `learn::texel` documents, so that a learning
/// file gives the same weights byte for byte on any machine: rows in chunks of
/// `texel::CHUNK`, each chunk summed row by row, the chunk sums added in chunk order; the
/// loss is that sum over N, bit for bit, on one thread or several.
#[test]
fn texel_loss_is_summed_by_chunks_in_order_bit_for_bit() {
    let rows = rows(3 * texel::CHUNK + 5, 6);
    let d = dataset(&rows);
    let (w, k) = ([7.0, -3.5, 12.0], 0.9);
    let mut total = 0.0;
    for chunk in rows.chunks(texel::CHUNK) {
        let mut sum = 0.0;
        for (x, r) in chunk {
            let err = r - texel::sigmoid(k, dot(&w, x));
            sum += err * err;
        }
        total += sum;
    }
    let want = total / rows.len() as f64;
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (loss, _) = pool.install(|| texel::loss_and_gradient(&d, &w, k, false));
        assert_eq!(
            loss.to_bits(),
            want.to_bits(),
            "{threads} threads: {loss} {want}"
        );
    }
}

/// `fit_k` finds the K that minimises E: labels drawn from σ at K = 0.7 give back 0.7,
/// and on labels that fit no K exactly the fitted K still does at least as well as K
/// 1% either side (the definition of a minimum, checked with the error written out).
#[test]
fn fit_k_finds_the_k_of_least_error() {
    let mut exact = Dataset::new(1);
    for q in -150..=150 {
        let x = f64::from(q) * 5.0;
        exact.push(&[x], sigma(0.7, x));
    }
    let k = texel::fit_k(&exact, &[1.0]);
    assert!((k - 0.7).abs() < 1e-4, "fitted K {k}, labels drawn at 0.7");
    // Results drawn as wins with probability σ(1.5 q) and losses otherwise: no K fits
    // them exactly, and the error has its minimum well inside the searched range.
    let w = [6.0, -2.5, 1.0];
    let mut rng = XorShift::new(9);
    let rows: Vec<(Vec<f64>, f64)> = rows(600, 9)
        .into_iter()
        .map(|(x, _)| {
            let p = sigma(1.5, dot(&w, &x));
            let r = if (rng.below(1 << 20) as f64) < p * f64::from(1 << 20) {
                1.0
            } else {
                0.0
            };
            (x, r)
        })
        .collect();
    let d = dataset(&rows);
    let k = texel::fit_k(&d, &w);
    assert!(
        (1e-3..=1e3).contains(&k),
        "K {k} outside the searched range"
    );
    let at = texel_error(&rows, &w, k);
    for other in [k * 1.01, k / 1.01] {
        let e = texel_error(&rows, &w, other);
        assert!(
            at <= e,
            "E at the fitted K {k} is {at}, more than {e} at {other}"
        );
    }
}

/// `fit_k` searches `log10 K` over [−3, 3], as `learn::texel` documents: labels drawn from σ
/// at K = 500 and at K = 0.002, near either end of that range, give those K back.
#[test]
fn fit_k_searches_from_a_thousandth_to_a_thousand() {
    for (k, scale) in [(500.0, 0.01), (0.002, 1000.0)] {
        let mut d = Dataset::new(1);
        for q in -150..=150 {
            let x = f64::from(q) * scale;
            d.push(&[x], sigma(k, x));
        }
        let fitted = texel::fit_k(&d, &[1.0]);
        assert!(
            (fitted / k - 1.0).abs() < 1e-3,
            "fitted K {fitted}, labels drawn at {k}"
        );
    }
}

/// `Adam::step` follows Kingma and Ba's Algorithm 1 step for step (moments, bias
/// correction, the step itself), leaves a frozen weight where it is, and keeps weights
/// within ±`MAX_WEIGHT`; gradients of changing size and sign, so that the bias
/// corrections and the ratio of the moments matter.
#[test]
fn adam_steps_follow_kingma_and_ba() {
    let gradients = [
        [0.8, -3.0, 0.02, 5.0, -1.0],
        [-0.1, -2.0, 0.05, 4.0, 2.5],
        [0.4, 6.0, -0.01, -7.0, 0.5],
        [2.0, -0.5, 0.03, 1.0, -3.0],
    ];
    let frozen = [3];
    let rate = 0.7;
    let mut w = [1.0, -2.0, 50.0, 7.0, MAX_WEIGHT - 0.5];
    let mut want = w;
    // The last weight starts half a step below the bound, its first gradient negative: the
    // step up would cross it.
    let mut adam = Adam::new(5, rate);
    let mut reference = ReferenceAdam::new(5);
    for (t, g) in gradients.iter().enumerate() {
        adam.step(&mut w, g, &frozen);
        reference.step(&mut want, g, rate, &frozen);
        assert_eq!(adam.t, t as u32 + 1, "steps counted");
        for j in 0..5 {
            assert!(
                close(w[j], want[j], 1e-12),
                "step {}: weight {j} is {}, Algorithm 1 gives {}",
                t + 1,
                w[j],
                want[j]
            );
            assert!(
                close(adam.m[j], reference.m[j], 1e-12) && close(adam.v[j], reference.v[j], 1e-12),
                "step {}: moments of weight {j} ({}, {}), Algorithm 1 gives ({}, {})",
                t + 1,
                adam.m[j],
                adam.v[j],
                reference.m[j],
                reference.v[j]
            );
        }
        assert_eq!(w[3], 7.0, "the frozen weight moved at step {}", t + 1);
        if t == 0 {
            assert_eq!(w[4], MAX_WEIGHT, "a weight is kept within the bound");
        }
    }
    // And from the other side.
    let mut low = [-MAX_WEIGHT + 0.5];
    Adam::new(1, 3.0).step(&mut low, &[1.0], &[]);
    assert_eq!(
        low[0], -MAX_WEIGHT,
        "a weight is kept within the bound below"
    );
}

/// The positions of a connect-four line (columns 1-7) before each of its moves, and the
/// position at its end.
fn line_positions(line: &str) -> (Vec<Connect4>, Connect4) {
    let all: Vec<Connect4> = (0..=line.len())
        .map(|i| Connect4::parse_position(&line[..i]).expect("a legal line"))
        .collect();
    let (before, end) = all.split_at(line.len());
    (before.to_vec(), end[0])
}

/// The result for the first player of a finished connect-four position, by the rules:
/// the side to move has lost (the other side just made four) or the board is full.
fn connect4_first_player_result(end: &Connect4) -> f64 {
    match end.status() {
        Status::Over(Outcome::Loss) if end.side_to_move() == Player::First => 0.0,
        Status::Over(Outcome::Loss) => 1.0,
        Status::Over(Outcome::Draw) => 0.5,
        other => panic!("not a finished game: {other:?}"),
    }
}

/// TD(λ)'s direction for one game by its definition (EXPERIMENTS.md; td.rs): predictions
/// J_t = σ(w · x_t) of the first player's result (features of the side to move, negated
/// for the second player), a finished state predicting its result with no gradient,
/// d_t = J_{t+1} − J_t and the last d the result minus the last J; the game's
/// −Δw/α = −(1/N) Σ_t ∇J_t Σ_{j ≥ t} λ^{j−t} d_j. With `per_player` each side's states
/// are a sequence of their own (t + 1 the same side's next state, j − t counted in its
/// states). Returns that vector, Σ d_t² and N.
fn td_reference(
    states: &[Connect4],
    result: f64,
    w: &[f64],
    k: f64,
    lambda: f64,
    per_player: bool,
) -> (Vec<f64>, f64, usize) {
    let n = states.len();
    let mut preds = Vec::new();
    let mut slopes = Vec::new();
    for s in states {
        if s.status() != Status::Ongoing {
            preds.push(connect4_first_player_result(s));
            slopes.push(vec![0.0; w.len()]);
            continue;
        }
        let mut x = vec![0.0; w.len()];
        s.gradient(&mut x);
        if s.side_to_move() == Player::Second {
            x.iter_mut().for_each(|v| *v = -*v);
        }
        let j = sigma(k, dot(w, &x));
        let c = j * (1.0 - j) * k * std::f64::consts::LN_10 / 400.0;
        preds.push(j);
        slopes.push(x.iter().map(|v| c * v).collect::<Vec<f64>>());
    }
    // The sequences: all states, or each side's own.
    let sequences: Vec<Vec<usize>> = if per_player {
        [Player::First, Player::Second]
            .iter()
            .map(|p| (0..n).filter(|&t| states[t].side_to_move() == *p).collect())
            .collect()
    } else {
        vec![(0..n).collect()]
    };
    let mut direction = vec![0.0; w.len()];
    let mut squared = 0.0;
    for seq in &sequences {
        let d: Vec<f64> = (0..seq.len())
            .map(|i| seq.get(i + 1).map_or(result, |&u| preds[u]) - preds[seq[i]])
            .collect();
        squared += d.iter().map(|v| v * v).sum::<f64>();
        for i in 0..seq.len() {
            let eligibility: f64 = (i..seq.len())
                .map(|j| lambda.powi((j - i) as i32) * d[j])
                .sum();
            for (a, s) in direction.iter_mut().zip(&slopes[seq[i]]) {
                *a -= s * eligibility / n as f64;
            }
        }
    }
    (direction, squared, n)
}

/// `td::game_update` is Sutton's sum on a hand-built connect-four game (the first player
/// wins with four in the bottom row): plain TD on the positions, TDLeaf on
/// leaves one move on (the last the finished board), each for λ 0, 0.6 and 1, with all
/// states one sequence and with each player's their own.
#[test]
fn td_update_is_suttons_sum_on_a_hand_built_game() {
    // The first player makes three in the bottom row and then four with column 3; the
    // second player's stones sit above them.
    let (positions, end) = line_positions("124455663");
    assert_eq!(connect4_first_player_result(&end), 1.0, "the line is a win");
    let mut leaves: Vec<Connect4> = positions[1..].to_vec();
    leaves.push(end);
    let game = PlayedGame {
        positions: positions.clone(),
        leaves: leaves.clone(),
        result: 1.0,
        moves: Vec::new(),
    };
    let w = [0.8, 12.0, -5.0, 20.0, 3.0];
    let k = 9.0;
    for leaf in [false, true] {
        let states = if leaf { &leaves } else { &positions };
        for per_player in [false, true] {
            for lambda in [0.0, 0.6, 1.0] {
                let u = td::game_update(&game, &w, k, lambda, leaf, per_player);
                let (want, squared, count) = td_reference(states, 1.0, &w, k, lambda, per_player);
                let what = format!("leaf {leaf}, per_player {per_player}, λ {lambda}");
                assert_eq!(u.count, count, "{what}: number of differences");
                assert!(
                    close(u.squared_error, squared, 1e-12),
                    "{what}: Σ d² {} by the code, {squared} by the definition",
                    u.squared_error
                );
                let scale = want.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                assert!(scale > 0.0, "{what}: a game that teaches nothing");
                for (j, (got, want)) in u.gradient.iter().zip(&want).enumerate() {
                    assert!(
                        (got - want).abs() <= 1e-12 * scale,
                        "{what}: weight {j}: {got} by the code, {want} by Sutton's sum"
                    );
                }
            }
        }
    }
}

/// The first player's result of a finished game from the side to move's outcome: a win,
/// a loss and a draw are 1, 0 and ½ for the mover and the complement for the other side;
/// Othello's disc difference counts by its sign; backgammon's points map to ½ + points/6
/// (EXPERIMENTS.md: a single game ⅔, a gammon ⅚, a backgammon 1).
#[test]
fn first_player_results_follow_the_outcome_for_the_mover() {
    let cases: [(Outcome, f64); 3] = [
        (Outcome::Win, 1.0),
        (Outcome::Loss, 0.0),
        (Outcome::Draw, 0.5),
    ];
    for (outcome, mover) in cases {
        for (who, want) in [(Player::First, mover), (Player::Second, 1.0 - mover)] {
            let got = first_player_result::<Connect4>(outcome, who);
            assert_eq!(got, want, "{outcome:?} for {who:?} to move");
        }
    }
    for (discs, mover) in [(12, 1.0), (-3, 0.0), (0, 0.5)] {
        let got = first_player_result::<Othello>(Outcome::Points(discs), Player::Second);
        assert_eq!(
            got,
            1.0 - mover,
            "Othello, {discs} discs for the second player to move"
        );
        assert_eq!(Othello::outcome_value(Outcome::Points(discs)), mover);
    }
    for (points, mover) in [
        (1, 4.0 / 6.0),
        (2, 5.0 / 6.0),
        (3, 1.0),
        (-1, 2.0 / 6.0),
        (-3, 0.0),
    ] {
        let outcome = Outcome::Points(points * POINT);
        let got = Backgammon::outcome_value(outcome);
        assert!(
            (got - mover).abs() < 1e-15,
            "backgammon {points} points: {got}, not {mover}"
        );
        let got = first_player_result::<Backgammon>(outcome, Player::Second);
        assert!(
            (got - (1.0 - mover)).abs() < 1e-15,
            "backgammon {points} for the second"
        );
    }
    for (outcome, want) in [
        (Outcome::Win, 1.0),
        (Outcome::Loss, 0.0),
        (Outcome::Draw, 0.5),
    ] {
        assert_eq!(
            Backgammon::outcome_value(outcome),
            want,
            "backgammon {outcome:?}"
        );
    }
}

/// A self-play game of connect four (no dice, no adjudication, no repetition) records, as
/// play_game documents, every position after the random opening where a searched move was
/// played, each beside the leaf of its principal variation (at depth 1 the position after
/// the move played), all its moves, and the result its last position gives by the rules.
#[test]
fn self_play_records_its_searched_positions_leaves_and_result() {
    let w = Connect4::hand_set();
    let eval = Connect4::evaluator(w);
    let sp = SelfPlay {
        games: 6,
        depth: 1,
        random_plies: 3,
        max_plies: 42,
    };
    for index in 0..6 {
        let game = play_game::<Connect4>(&eval, &sp, 21, index);
        let line = game.moves.join("");
        let (before, end) = line_positions(&line);
        let random = sp.random_plies as usize;
        assert_eq!(
            game.positions.len(),
            before.len() - random,
            "game {index} ({line}): one position per searched move"
        );
        for (i, (p, leaf)) in game.positions.iter().zip(&game.leaves).enumerate() {
            assert_eq!(
                p.hash(),
                before[random + i].hash(),
                "game {index}: position {i}"
            );
            let after = before.get(random + i + 1).unwrap_or(&end);
            assert_eq!(
                leaf.hash(),
                after.hash(),
                "game {index}: leaf {i}, the move played"
            );
        }
        let want = if end.status() == Status::Ongoing {
            0.5
        } else {
            connect4_first_player_result(&end)
        };
        assert_eq!(game.result, want, "game {index} ({line}): the result");
    }
}

/// How a self-play game of `G` ended, checked against the rules play_game documents
/// (EXPERIMENTS.md, `[self_play]`): the game goes on while no position has occurred a
/// third time, and stops at a third occurrence as a draw; a game that stops with the
/// position still open, not by repetition and before `max_plies`, was adjudicated, and its
/// winner is the side the evaluation favours at the end. Counts (by rule or plies,
/// repetition, adjudication).
fn endings<G: LearnGame>(sp: &SelfPlay, seed: u64, games: usize) -> [usize; 3] {
    let eval = G::evaluator(G::hand_set());
    let mut counts = [0; 3];
    for index in 0..games {
        let game = play_game::<G>(&eval, sp, seed, index);
        let mut pos = G::start();
        let mut keys = vec![pos.repetition_key()];
        let occurrences =
            |keys: &[u64]| keys.iter().filter(|&k| k == &keys[keys.len() - 1]).count();
        for text in &game.moves {
            assert!(
                occurrences(&keys) < 3,
                "game {index}: a third occurrence before `{text}`, and the game went on"
            );
            let mv = pos.parse_move(text).expect("a legal move");
            pos.play(mv);
            keys.push(pos.repetition_key());
        }
        let plies = game.moves.len() as u32;
        if pos.status() != Status::Ongoing || plies == sp.max_plies {
            counts[0] += 1;
        } else if occurrences(&keys) == 3 {
            counts[1] += 1;
            assert_eq!(game.result, 0.5, "game {index}: a draw by repetition");
        } else {
            counts[2] += 1;
            let mover = eval.evaluate(&pos);
            let first = if pos.side_to_move() == Player::First {
                mover
            } else {
                -mover
            };
            let want = if first > 0 { 1.0 } else { 0.0 };
            assert!(first != 0, "game {index}: adjudicated at a level position");
            assert_eq!(
                game.result, want,
                "game {index}: adjudicated, the evaluation {first} for the first player"
            );
        }
    }
    counts
}

/// Chess and checkers self-play at depth 1: games end by the rules, by a third
/// occurrence of a position (a draw), or by adjudication for the side ahead (chess beyond
/// 1000, checkers beyond 300: three men), and the seeds chosen give each way at least once.
/// Which games the seed gives depends on the search: where a change to it leaves one way
/// unmet, another seed that meets both keeps the test's point.
#[test]
fn self_play_ends_at_a_third_occurrence_or_by_adjudication() {
    let sp = SelfPlay {
        games: 16,
        depth: 1,
        random_plies: 4,
        max_plies: 200,
    };
    let chess = endings::<Chess>(&sp, 1, 16);
    let checkers = endings::<Checkers>(&sp, 1, 16);
    for (game, [_, repeated, adjudicated]) in [("chess", chess), ("checkers", checkers)] {
        assert!(
            repeated > 0 && adjudicated > 0,
            "{game}: {repeated} by repetition, {adjudicated} adjudicated (if the search \
             changed these games, choose a seed that meets both)"
        );
    }
}

/// `[self_play]`'s defaults as EXPERIMENTS.md gives them: 8 random plies, 200 plies at
/// most.
#[test]
fn self_play_defaults_are_eight_random_plies_of_at_most_two_hundred() {
    let sp: SelfPlay = toml::from_str("games = 3\ndepth = 2\n").expect("a [self_play] table");
    assert_eq!((sp.random_plies, sp.max_plies), (8, 200), "{sp:?}");
}

/// `plylab learn` on `spec` into `dir`'s `out` and `w`, with no bar and no charts.
fn learn(dir: &TempDir, spec: &str, stop_after: Option<u32>) -> Result<LearnReport, String> {
    let file = dir.path("learn.toml");
    fs::write(&file, spec).unwrap();
    let options = LearnOptions {
        out: Some(dir.path("out")),
        weights_dir: dir.path("w"),
        progress: false,
        charts: false,
        stop_after,
        ..LearnOptions::default()
    };
    plylab::learn::run(&file, &options).map_err(|e| e.to_string())
}

/// curve.csv's rows as numbers (an empty cell as NaN).
fn curve(out: &Path) -> Vec<Vec<f64>> {
    let text = fs::read_to_string(out.join("curve.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            l.split(',')
                .map(|c| c.parse().unwrap_or(f64::NAN))
                .collect()
        })
        .collect()
}

/// The quiet positions of `games`, each labelled with its game's result for its side to
/// move (EXPERIMENTS.md: "`q` the static evaluation for the side to move, `r` its game's
/// result"), with the features of the side to move.
fn labelled(games: &[PlayedGame<Connect4>]) -> Vec<(Vec<f64>, f64)> {
    let mut rows = Vec::new();
    for g in games {
        for p in &g.positions {
            if p.status() != Status::Ongoing || !p.is_quiet() {
                continue;
            }
            let mut x = vec![0.0; 5];
            p.gradient(&mut x);
            let r = if p.side_to_move() == Player::First {
                g.result
            } else {
                1.0 - g.result
            };
            rows.push((x, r));
        }
    }
    rows
}

/// Game `index` of the connect-four self-play that TEXEL_C4 and TD_C4 set (`games` games
/// at depth 1, 2 random plies, at most 42 plies), played by the weights `w` from `seed`.
fn c4_game(w: &[f64], games: usize, seed: u64, index: usize) -> PlayedGame<Connect4> {
    let sp = SelfPlay {
        games,
        depth: 1,
        random_plies: 2,
        max_plies: 42,
    };
    play_game::<Connect4>(&Connect4::evaluator(w), &sp, seed, index)
}

const TEXEL_C4: &str = r#"
name = "texel-c4"
game = "connect4"
method = "texel"
seed = 5
threads = 2
freeze = ["tempo"]
[self_play]
games = 5
depth = 1
random_plies = 2
max_plies = 42
[texel]
epochs = 3
learning_rate = 0.5
k = 20.0
validation = 0.0
checkpoint_every = 1
"#;

/// A Texel run of three epochs is three Adam steps (Algorithm 1) along the gradient of
/// Texel's error over the quiet positions of its self-play games labelled by their
/// results, the frozen weight left alone; its curve holds that error before each step
/// and after the last. Stopped after one epoch and run again, it resumes from the games
/// and the state it kept and ends with the same weights.
#[test]
fn a_texel_run_is_adam_on_texels_error_over_its_games() {
    let dir = TempDir::new("learn-def-texel");
    let report = learn(&dir, TEXEL_C4, None).expect("the run ends");
    let start = Connect4::hand_set().to_vec();
    let games: Vec<PlayedGame<Connect4>> = (0..5).map(|i| c4_game(&start, 5, 5, i)).collect();
    let rows = labelled(&games);
    assert!(rows.len() > 10, "{} quiet positions", rows.len());
    let k = 20.0;
    let mut w = start.clone();
    let mut adam = ReferenceAdam::new(5);
    let mut errors = vec![texel_error(&rows, &w, k)];
    for _ in 0..3 {
        let g = texel_gradient(&rows, &w, k);
        adam.step(&mut w, &g, 0.5, &[4]);
        errors.push(texel_error(&rows, &w, k));
    }
    let got = &report.weights.values;
    for j in 0..5 {
        assert!(
            close(got[j], w[j], 1e-9),
            "weight {j}: {} learned, {} by three steps of Algorithm 1",
            got[j],
            w[j]
        );
    }
    assert_eq!(got[4], start[4], "the frozen weight moved");
    let points = curve(&dir.path("out"));
    assert_eq!(points.len(), 4, "epochs 0 to 3: {points:?}");
    for (e, (p, want)) in points.iter().zip(&errors).enumerate() {
        assert_eq!(p[0], e as f64, "epoch of row {e}");
        // curve.csv keeps six decimals.
        assert!(
            (p[1] - want).abs() <= 6e-7,
            "training loss at epoch {e}: {} in curve.csv, {want} by the definition",
            p[1]
        );
        assert!(p[2].is_nan(), "no validation loss with validation = 0");
    }

    // Stopped after the first epoch and resumed: the games come back from the checkpoint.
    let again = TempDir::new("learn-def-texel-resumed");
    let stopped = learn(&again, TEXEL_C4, Some(1));
    assert!(
        stopped
            .as_ref()
            .is_err_and(|e| e.contains("stopped after 1")),
        "{:?}",
        stopped.map(|r| r.weights.values)
    );
    let resumed = learn(&again, TEXEL_C4, None).expect("the resumed run ends");
    assert_eq!(
        resumed.weights.values, report.weights.values,
        "resumed from its stored games and state, the run learns the same weights"
    );
}

/// With no `k`, a Texel run fits K to its starting weights: Texel's error over its
/// positions (all of them, validation = 0) is no lower 1% either side of the K it reports
/// (four decimals, in the weights file's facts).
#[test]
fn a_texel_run_fits_k_to_its_starting_weights() {
    let dir = TempDir::new("learn-def-texel-k");
    let spec = TEXEL_C4
        .replace("k = 20.0\n", "")
        .replace("epochs = 3", "epochs = 1");
    learn(&dir, &spec, None).expect("the run ends");
    let weights = fs::read_to_string(dir.path("w/texel-c4.toml")).unwrap();
    let k: f64 = weights
        .split("K = ")
        .nth(1)
        .and_then(|s| s.split(';').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no K in the facts: {weights}"));
    let start = Connect4::hand_set();
    let games: Vec<PlayedGame<Connect4>> = (0..5).map(|i| c4_game(start, 5, 5, i)).collect();
    let rows = labelled(&games);
    let at = texel_error(&rows, start, k);
    for other in [k * 1.01, k / 1.01] {
        let e = texel_error(&rows, start, other);
        assert!(
            at <= e,
            "E at the reported K {k} is {at}, more than {e} at K {other}"
        );
    }
}

/// A Texel run holds out about the share of games `validation` asks (EXPERIMENTS.md:
/// "share of games held out"): with 0.2 of 40 games, some positions are held out and
/// fewer than are trained on (a binomial share of 0.2 of 40 reaching half: p < 1e−4).
#[test]
fn a_texel_run_holds_out_its_validation_share() {
    let dir = TempDir::new("learn-def-texel-split");
    let spec = TEXEL_C4
        .replace("games = 5", "games = 40")
        .replace("validation = 0.0", "validation = 0.2")
        .replace("epochs = 3", "epochs = 1");
    learn(&dir, &spec, None).expect("the run ends");
    let weights = fs::read_to_string(dir.path("w/texel-c4.toml")).unwrap();
    let count = |after: &str| -> usize {
        let head = weights.split(after).next().unwrap_or("");
        let n = head.rsplit(' ').find(|w| !w.is_empty()).unwrap_or("");
        n.parse()
            .unwrap_or_else(|_| panic!("no count before `{after}`: {weights}"))
    };
    let (train, held) = (count(" quiet training positions"), count(" held out;"));
    assert!(
        held > 0 && held < train,
        "{held} positions held out, {train} trained on, for a share of 0.2"
    );
}

const TD_C4: &str = r#"
name = "td-c4"
game = "connect4"
method = "td"
seed = 11
threads = 2
freeze = ["tempo"]
[self_play]
games = 3
depth = 1
random_plies = 2
max_plies = 42
[td]
lambda = 0.5
learning_rate = 0.25
k = 20.0
batch = 3
"#;

/// A TD run of one batch takes one Adam step along the mean of its games' TD directions
/// (each Sutton's sum, `td_reference`), the frozen weight left alone; its curve's point
/// is at 3 games with the mean squared temporal difference of the batch; its facts count
/// the decisive games and the held-out games (a tenth of the games, at least 8).
#[test]
fn a_td_batch_is_one_adam_step_on_the_mean_of_its_games() {
    let dir = TempDir::new("learn-def-td");
    let report = learn(&dir, TD_C4, None).expect("the run ends");
    let start = Connect4::hand_set().to_vec();
    let games: Vec<PlayedGame<Connect4>> = (0..3).map(|i| c4_game(&start, 3, 11, i)).collect();
    let mut mean = vec![0.0; 5];
    let (mut squared, mut count) = (0.0, 0);
    for g in &games {
        let (direction, sq, n) = td_reference(&g.positions, g.result, &start, 20.0, 0.5, false);
        for (m, d) in mean.iter_mut().zip(direction) {
            *m += d / games.len() as f64;
        }
        squared += sq;
        count += n;
    }
    let mut w = start.clone();
    ReferenceAdam::new(5).step(&mut w, &mean, 0.25, &[4]);
    let got = &report.weights.values;
    for j in 0..5 {
        assert!(
            close(got[j], w[j], 1e-9),
            "weight {j}: {} learned, {} by one step along the mean direction",
            got[j],
            w[j]
        );
    }
    let points = curve(&dir.path("out"));
    assert_eq!(points.len(), 1, "{points:?}");
    assert_eq!(points[0][0], 3.0, "the point is at the games played");
    let want = squared / count as f64;
    assert!(
        (points[0][1] - want).abs() <= 6e-7,
        "mean squared TD error {} in curve.csv, {want} by the definition",
        points[0][1]
    );
    let decisive = games.iter().filter(|g| g.result != 0.5).count();
    let weights = fs::read_to_string(dir.path("w/td-c4.toml")).unwrap();
    assert!(
        weights.contains(&format!("batches of 3, {decisive} of them decisive")),
        "{decisive} decisive games: {weights}"
    );
    assert!(
        weights.contains("positions of 8 games"),
        "8 held-out games: {weights}"
    );
}

/// A TD run whose games do not fill its last batch (3 games in batches of 2): the first
/// batch is games 0 and 1, the second game 2 alone, played with the weights after the
/// first step (taken from a run of the first batch alone, so that it is the game the run
/// played), and the second Adam step (Algorithm 1, with the first step's moments) goes
/// along that game's direction; the curve's points are at 2 and 3 games.
#[test]
fn a_td_run_with_a_short_last_batch_plays_each_game_once() {
    let first = TempDir::new("learn-def-td-first");
    let one = TD_C4
        .replace("games = 3", "games = 2")
        .replace("batch = 3", "batch = 2");
    let w1 = learn(&first, &one, None)
        .expect("the run ends")
        .weights
        .values;
    let dir = TempDir::new("learn-def-td-short");
    let spec = TD_C4.replace("batch = 3", "batch = 2");
    let w2 = learn(&dir, &spec, None)
        .expect("the run ends")
        .weights
        .values;
    let start = Connect4::hand_set().to_vec();
    let mut adam = ReferenceAdam::new(5);
    let mut mean = vec![0.0; 5];
    for i in 0..2 {
        let g = c4_game(&start, 3, 11, i);
        let (direction, _, _) = td_reference(&g.positions, g.result, &start, 20.0, 0.5, false);
        for (m, d) in mean.iter_mut().zip(direction) {
            *m += d / 2.0;
        }
    }
    let mut want = start.clone();
    adam.step(&mut want, &mean, 0.25, &[4]);
    for j in 0..5 {
        assert!(
            close(w1[j], want[j], 1e-9),
            "after batch 1, weight {j}: {w1:?}, {want:?}"
        );
    }
    let last = c4_game(&w1, 3, 11, 2);
    let (direction, _, _) = td_reference(&last.positions, last.result, &w1, 20.0, 0.5, false);
    let mut want = w1.clone();
    adam.step(&mut want, &direction, 0.25, &[4]);
    for j in 0..5 {
        assert!(
            close(w2[j], want[j], 1e-9),
            "after batch 2 (game 2 alone), weight {j}: {} learned, {} by Algorithm 1",
            w2[j],
            want[j]
        );
    }
    let x: Vec<f64> = curve(&dir.path("out")).iter().map(|p| p[0]).collect();
    assert_eq!(x, [2.0, 3.0], "the curve's points at the games played");
}

/// A minimal Texel file and a minimal TD file of connect four, every optional key left out.
const BARE_TEXEL: &str = "name = \"bare\"\ngame = \"connect4\"\nmethod = \"texel\"\n[self_play]\ngames = 3\ndepth = 1\n[texel]\nepochs = 1\nlearning_rate = 1.0\n";
const BARE_TD: &str = "name = \"bare\"\ngame = \"connect4\"\nmethod = \"td\"\n[self_play]\ngames = 3\ndepth = 1\n[td]\nlambda = 0.5\nlearning_rate = 1.0\nk = 1.0\n";

/// `read_spec` on `text`, written to `dir`'s learn.toml: the spec or the error's message.
fn read(dir: &TempDir, text: &str) -> Result<plylab::learn::LearnSpec, String> {
    let file = dir.path("learn.toml");
    fs::write(&file, text).unwrap();
    plylab::learn::read_spec(&file)
        .map(|(spec, _)| spec)
        .map_err(|e| e.to_string())
}

/// The defaults EXPERIMENTS.md's table of learning-file keys gives: seed 0, 2 threads,
/// nothing frozen; `[texel]` `validation` 0.1 and `checkpoint_every` 25; `[td]` `batch` 8
/// and `per_player` false.
#[test]
fn learning_files_are_read_with_the_documented_defaults() {
    let dir = TempDir::new("learn-def-defaults");
    let texel = read(&dir, BARE_TEXEL).expect("a bare Texel file");
    assert_eq!((texel.seed, texel.threads), (0, 2), "{texel:?}");
    assert!(
        texel.freeze.is_empty() && texel.start.is_none(),
        "{texel:?}"
    );
    let t = texel.texel.expect("[texel]");
    assert_eq!(
        (t.validation, t.checkpoint_every, t.k),
        (0.1, 25, None),
        "{t:?}"
    );
    let td = read(&dir, BARE_TD).expect("a bare TD file");
    let t = td.td.expect("[td]");
    assert_eq!((t.batch, t.per_player), (8, false), "{t:?}");
}

/// Every limit EXPERIMENTS.md gives a key is inclusive: a name of 100 characters, 1 and 64
/// threads, 100,000 games, depth 12, 2,000 plies (1,999 of them random), 100,000 epochs, a
/// validation share of 0 and 0.5, λ of 0 and 1 are all accepted.
#[test]
fn learning_file_limits_are_accepted_at_their_edges() {
    let dir = TempDir::new("learn-def-edges");
    let texel_edges = [
        ("name = \"bare\"", format!("name = \"{}\"", "n".repeat(100))),
        ("method", "threads = 1\nmethod".to_owned()),
        ("method", "threads = 64\nmethod".to_owned()),
        ("games = 3", "games = 100000".to_owned()),
        ("depth = 1", "depth = 12".to_owned()),
        (
            "depth = 1",
            "depth = 1\nmax_plies = 2000\nrandom_plies = 1999".to_owned(),
        ),
        ("epochs = 1", "epochs = 100000".to_owned()),
        ("epochs = 1", "epochs = 1\nvalidation = 0.0".to_owned()),
        ("epochs = 1", "epochs = 1\nvalidation = 0.5".to_owned()),
        ("epochs = 1", "epochs = 1\ncheckpoint_every = 1".to_owned()),
    ];
    for (from, to) in &texel_edges {
        let text = BARE_TEXEL.replacen(from, to, 1);
        assert_ne!(text, BARE_TEXEL);
        assert!(read(&dir, &text).is_ok(), "{to}: {:?}", read(&dir, &text));
    }
    for lambda in ["0.0", "1.0"] {
        let text = BARE_TD.replace("lambda = 0.5", &format!("lambda = {lambda}"));
        assert!(
            read(&dir, &text).is_ok(),
            "λ {lambda}: {:?}",
            read(&dir, &text)
        );
    }
}

/// Values just beyond what EXPERIMENTS.md allows are refused at their key with what is
/// allowed: a name with a character other than letters, digits, `-` and `_`; 0 and 65
/// threads; 100,001 games; depth 13; 2,001 plies; 100,001 epochs; a learning rate or K of
/// 0 (not positive); a validation share over 0.5; `checkpoint_every` 0; λ over 1; a batch of
/// 0; and a Texel file with neither self-play nor arena games (no positions).
#[test]
fn learning_file_values_beyond_their_limits_are_refused_at_their_key() {
    let dir = TempDir::new("learn-def-beyond");
    let texel_cases = [
        (
            "name = \"bare\"",
            "name = \"bare.v2\"",
            "key `name`: letters, digits",
        ),
        ("method", "threads = 0\nmethod", "key `threads`: 1 to 64"),
        ("method", "threads = 65\nmethod", "key `threads`: 1 to 64"),
        (
            "games = 3",
            "games = 100001",
            "key `self_play.games`: 1 to 100000",
        ),
        (
            "depth = 1",
            "depth = 13",
            "key `self_play.depth`: 1 to 12 plies",
        ),
        (
            "depth = 1",
            "depth = 1\nmax_plies = 2001",
            "key `self_play.max_plies`: 1 to 2000",
        ),
        (
            "epochs = 1",
            "epochs = 100001",
            "key `texel.epochs`: 1 to 100000",
        ),
        (
            "learning_rate = 1.0",
            "learning_rate = 0.0",
            "key `texel.learning_rate`: a positive number",
        ),
        (
            "learning_rate = 1.0",
            "learning_rate = 1.0\nk = 0.0",
            "key `texel.k`: a positive number",
        ),
        (
            "epochs = 1",
            "epochs = 1\nvalidation = 0.51",
            "key `texel.validation`: a share from 0 to 0.5",
        ),
        (
            "epochs = 1",
            "epochs = 1\ncheckpoint_every = 0",
            "key `texel.checkpoint_every`: at least 1",
        ),
        (
            "[self_play]\ngames = 3\ndepth = 1\n",
            "",
            "key `method`: texel needs positions",
        ),
    ];
    let td_cases = [
        (
            "lambda = 0.5",
            "lambda = 1.01",
            "key `td.lambda`: from 0 to 1",
        ),
        (
            "learning_rate = 1.0",
            "learning_rate = 0.0",
            "key `td.learning_rate`: a positive number",
        ),
        ("k = 1.0", "k = 0.0", "key `td.k`: a positive number"),
        (
            "k = 1.0",
            "k = 1.0\nbatch = 0",
            "key `td.batch`: at least 1",
        ),
    ];
    let cases = texel_cases
        .iter()
        .map(|c| (BARE_TEXEL, c))
        .chain(td_cases.iter().map(|c| (BARE_TD, c)));
    for (bare, (from, to, why)) in cases {
        let text = bare.replacen(from, to, 1);
        assert_ne!(text, bare);
        let err = read(&dir, &text).expect_err(to);
        assert!(err.contains(why), "{to}: {err}");
    }
}

/// Without `--force` a run is refused when the results directory holds the summary.md of
/// a finished run of the same name, even with its weights written elsewhere (EXPERIMENTS.md:
/// "the weights file or `summary.md` of a finished run").
#[test]
fn a_finished_runs_summary_is_not_replaced_without_force() {
    let dir = TempDir::new("learn-def-summary");
    learn(&dir, TD_C4, None).expect("the run ends");
    assert!(dir.path("out/summary.md").exists());
    let file = dir.path("learn.toml");
    let options = LearnOptions {
        out: Some(dir.path("out")),
        weights_dir: dir.path("other-w"),
        progress: false,
        charts: false,
        ..LearnOptions::default()
    };
    let err = plylab::learn::run(&file, &options)
        .map(|r| r.weights.values)
        .expect_err("a finished run's results replaced");
    assert!(
        err.to_string()
            .contains("summary.md holds a finished run of `td-c4`: --force replaces it"),
        "{err}"
    );
    let forced = LearnOptions {
        force: true,
        ..options
    };
    assert!(plylab::learn::run(&file, &forced).is_ok());
}

/// A TD run stopped after its last batch leaves a checkpoint of every batch done (EXPERIMENTS.md
/// refuses only "more epochs done than the file has"): run again, it resumes and ends with
/// the weights of a run that went straight through. That checkpoint damaged, with a K that
/// is not positive or a negative second moment of Adam (a mean of squares), is refused,
/// naming `--restart`, rather than trusted.
#[test]
fn a_checkpoint_of_every_batch_resumes_and_a_damaged_one_is_refused() {
    let straight = TempDir::new("learn-def-td-straight");
    let whole = learn(&straight, TD_C4, None).expect("the run ends");
    let dir = TempDir::new("learn-def-td-last");
    let stopped = learn(&dir, TD_C4, Some(1)).map(|r| r.weights.values);
    assert!(
        stopped
            .as_ref()
            .is_err_and(|e| e.contains("stopped after 1")),
        "{stopped:?}"
    );
    let state = dir.path("out/checkpoint/state.json");
    let kept = fs::read_to_string(&state).unwrap();
    let json: serde_json::Value = serde_json::from_str(&kept).unwrap();
    let damages = [
        ("k", (-20.0f64).to_bits(), "K = -20, not a positive number"),
        ("adam_v", (-1.0f64).to_bits(), "a negative second moment"),
    ];
    for (key, bits, why) in damages {
        let mut damaged = json.clone();
        match &mut damaged[key] {
            serde_json::Value::Array(v) => v[0] = bits.into(),
            v => *v = bits.into(),
        }
        fs::write(&state, damaged.to_string()).unwrap();
        let err = learn(&dir, TD_C4, None).map(|r| r.weights.values);
        assert!(
            err.as_ref()
                .is_err_and(|e| e.contains(why) && e.contains("--restart")),
            "{key}: {err:?}"
        );
    }
    fs::write(&state, kept).unwrap();
    let resumed = learn(&dir, TD_C4, None).expect("the resumed run ends");
    assert_eq!(resumed.weights.values, whole.weights.values);
}

/// A Texel run stopped after an epoch and run again continues its curve where it stopped:
/// curve.csv is the one of the run that went straight through, one row per epoch from 0.
#[test]
fn a_resumed_texel_run_continues_its_curve() {
    let straight = TempDir::new("learn-def-texel-curve");
    learn(&straight, TEXEL_C4, None).expect("the run ends");
    let dir = TempDir::new("learn-def-texel-curve-resumed");
    assert!(learn(&dir, TEXEL_C4, Some(2)).is_err(), "stopped after 2");
    learn(&dir, TEXEL_C4, None).expect("the resumed run ends");
    let read = |d: &TempDir| fs::read_to_string(d.path("out/curve.csv")).unwrap();
    assert_eq!(read(&dir), read(&straight));
}

/// A Texel run whose checkpoint holds games stored under other settings (the header names
/// another settings hash: a run interrupted while playing, its file edited since) does not
/// learn from them: it plays its own games again and learns what a fresh run learns.
#[test]
fn stored_games_of_other_settings_are_played_again() {
    let fresh = TempDir::new("learn-def-texel-fresh");
    let want = learn(&fresh, TEXEL_C4, None).expect("the run ends");
    let dir = TempDir::new("learn-def-texel-other-games");
    fs::create_dir_all(dir.path("out/checkpoint")).unwrap();
    // A decided game of connect four: the first player's four in column 4.
    let other = "# 0123456789abcdef\n1 4 5 4 5 4 5 4\n1 4 5 4 5 4 5 4\n";
    fs::write(dir.path("out/checkpoint/games.txt"), other).unwrap();
    let got = learn(&dir, TEXEL_C4, None).expect("the run ends");
    assert_eq!(got.weights.values, want.weights.values);
}

/// A games file listed twice under two spellings of its path is refused as one listed
/// twice (EXPERIMENTS.md: "a file listed twice is refused"; its games would count twice).
#[test]
fn a_games_file_listed_twice_under_another_spelling_is_refused() {
    let dir = TempDir::new("learn-def-games-twice");
    let games = dir.path("games.csv");
    fs::write(&games, "opening,result,line\nstart,1-0,4 5 4 5 4 5 4\n").unwrap();
    let other = dir.dir().join(".").join("games.csv");
    let spec = format!(
        "games = [{:?}, {:?}]\n{TEXEL_C4}",
        games.display().to_string(),
        other.display().to_string()
    );
    let err = learn(&dir, &spec, None).map(|r| r.weights.values);
    assert!(
        err.as_ref().is_err_and(|e| e.contains("is listed twice")),
        "{err:?}"
    );
}

/// A TD run's held-out yardstick (EXPERIMENTS.md: "a fixed set of other self-play games of
/// the starting weights (a tenth of the games, 8 to 64)"): 100 games hold out 10, and they
/// are not the run's own games (the first ten, played by the same starting weights in the
/// one batch, would give the same positions and loss). Its facts count the decisive games,
/// won by either player.
#[test]
fn a_td_runs_yardstick_is_a_tenth_of_its_games_and_none_of_them() {
    let dir = TempDir::new("learn-def-td-held");
    let spec = TD_C4
        .replace("games = 3", "games = 100")
        .replace("batch = 3", "batch = 100");
    learn(&dir, &spec, None).expect("the run ends");
    let weights = fs::read_to_string(dir.path("w/td-c4.toml")).unwrap();
    let facts = weights
        .split("held out: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no held-out facts: {weights}"));
    let count: usize = facts.split(' ').next().unwrap().parse().unwrap();
    assert!(facts.contains(" quiet positions of 10 games"), "{facts}");
    let start = Connect4::hand_set().to_vec();
    let games: Vec<PlayedGame<Connect4>> = (0..100).map(|i| c4_game(&start, 100, 11, i)).collect();
    let own = labelled(&games[..10]);
    let own_loss = format!(
        "loss {:.6} before learning",
        texel_error(&own, &start, 20.0)
    );
    assert!(
        count != own.len() || !facts.contains(&own_loss),
        "the yardstick is the run's first ten games: {facts}"
    );
    let decisive = games.iter().filter(|g| g.result != 0.5).count();
    assert!(
        games.iter().any(|g| g.result == 0.0) && games.iter().any(|g| g.result == 1.0),
        "both players win some of the games"
    );
    assert!(
        weights.contains(&format!("batches of 100, {decisive} of them decisive")),
        "{decisive} decisive games: {weights}"
    );
}

/// Self-play's searches and adjudication as EXPERIMENTS.md gives them (`[self_play]`):
/// alpha-beta with hints, killers and history; chess and checkers with quiescence of 8
/// plies; a chess game adjudicated beyond 1000, a checkers game beyond 300 (three men),
/// and no other game adjudicated.
#[test]
fn self_play_searches_and_adjudicates_as_documented() {
    for (game, config, at) in [
        ("chess", Chess::search_config(), Chess::adjudicate_at()),
        (
            "checkers",
            Checkers::search_config(),
            Checkers::adjudicate_at(),
        ),
    ] {
        let q = config.quiescence.as_ref().map(|q| q.max_depth);
        assert_eq!(q, Some(Some(8)), "{game}: {config:?}");
        assert_eq!(at, Some(if game == "chess" { 1000 } else { 300 }), "{game}");
    }
    for (game, config) in [
        ("chess", Chess::search_config()),
        ("checkers", Checkers::search_config()),
        ("connect4", Connect4::search_config()),
        ("othello", Othello::search_config()),
    ] {
        let o = &config.ordering;
        assert!(o.hint && o.killers && o.history, "{game}: {config:?}");
    }
    for at in [
        Connect4::adjudicate_at(),
        Othello::adjudicate_at(),
        Backgammon::adjudicate_at(),
    ] {
        assert_eq!(at, None);
    }
}

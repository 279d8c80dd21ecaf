//! Self-play games for learning: the current evaluation searching a fixed depth against
//! itself from seeded random openings (Samuel's checkers program and Tesauro's TD-Gammon both
//! learned from games against a copy of themselves), and the games the arena writes
//! (`games.csv`: opening FEN, result, moves) read back as labelled positions.

use std::path::Path;

use super::{LearnError, LearnGame};
use crate::arena::chance::Dice;
use crate::game::{Game, Outcome, Player, Score, Status};
use crate::rng::{XorShift, mix};
use crate::search::{Limits, Searcher};

/// How self-play games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SelfPlay {
    /// Number of games.
    pub games: usize,
    /// Search depth per move, in plies.
    pub depth: u32,
    /// Uniformly random moves at the start of each game (seeded), so that games differ.
    #[serde(default = "default_random_plies")]
    pub random_plies: u32,
    /// A game still going after this many plies is a draw.
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
}

const fn default_random_plies() -> u32 {
    8
}

const fn default_max_plies() -> u32 {
    200
}

/// One played game: the positions after the random opening (with the leaf of each one's
/// principal variation, for TDLeaf), the moves as text, and the result for the first player
/// (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Debug)]
pub struct PlayedGame<G: Game> {
    /// Positions where a searched move was played, in order.
    pub positions: Vec<G>,
    /// The leaf of the principal variation searched from each position.
    pub leaves: Vec<G>,
    /// The result for the first player.
    pub result: f64,
    /// All moves as text, random opening included.
    pub moves: Vec<String>,
}

/// The result for the first player of a game that ended in `outcome` for `to_move`
/// ([`LearnGame::outcome_value`]).
pub fn first_player_result<G: LearnGame>(outcome: Outcome, to_move: Player) -> f64 {
    let for_mover = G::outcome_value(outcome);
    if to_move == Player::First {
        for_mover
    } else {
        1.0 - for_mover
    }
}

/// Plays game number `index` of a run seeded `seed` with `eval` on both sides.
///
/// In a game of chance the dice are seeded by `seed` and `index` too (drawn as the arena
/// draws them, [`Dice`]); each recorded position is then the one after the searched move,
/// before the next roll: the states Tesauro's TD(λ) learns on, whose evaluation does not
/// depend on dice already rolled. A roll is not a ply of `random_plies`.
///
/// A game ends when the game says so, on a third occurrence of a position (not in a game
/// of chance, which has no draw: backgammon positions recur when both sides dance on the
/// bar, and the game goes on, as in the arena), after `max_plies` (a draw), or by
/// adjudication: four consecutive searched moves whose scores all give the same side more
/// than [`LearnGame::adjudicate_at`].
pub fn play_game<G: LearnGame>(
    eval: &G::Eval,
    sp: &SelfPlay,
    seed: u64,
    index: usize,
) -> PlayedGame<G> {
    let mut rng = XorShift::new(mix(seed ^ mix(index as u64)));
    let config = G::search_config();
    let limits = Limits {
        depth: Some(sp.depth),
        ..Limits::default()
    };
    let mut pos = G::start();
    // The history the searches see, and the keys the repetition rule compares.
    let mut hashes = vec![pos.hash()];
    let mut repetition_keys = vec![pos.repetition_key()];
    let mut buf = Vec::new();
    let mut game = PlayedGame {
        positions: Vec::new(),
        leaves: Vec::new(),
        result: 0.5,
        moves: Vec::new(),
    };
    let mut streak: (i32, u32) = (0, 0);
    let mut searcher = Searcher::new(eval, &config);
    let mut dice = Dice::new(mix(seed ^ mix(index as u64) ^ 0xD1CE));
    let mut chosen = 0;
    let mut chance = false;
    for _ in 0..sp.max_plies {
        if let Status::Over(outcome) = pos.status() {
            game.result = first_player_result::<G>(outcome, pos.side_to_move());
            return game;
        }
        let key = pos.repetition_key();
        if !chance && repetition_keys.iter().filter(|&&k| k == key).count() >= 3 {
            return game;
        }
        if pos.is_chance() {
            chance = true;
            let roll = dice.roll(&pos);
            game.moves.push(roll.to_string());
            pos.play(roll);
            hashes.push(pos.hash());
            repetition_keys.push(pos.repetition_key());
            continue;
        }
        chosen += 1;
        let mv = if chosen <= sp.random_plies {
            buf.clear();
            pos.generate_moves(&mut buf);
            buf[rng.below(buf.len() as u64) as usize]
        } else {
            searcher.set_history(&hashes[..hashes.len() - 1]);
            let result = searcher.run(&pos, &limits);
            let Some(last) = result.last() else {
                return game;
            };
            let Some(best) = last.best_move else {
                return game;
            };
            let mut leaf = pos.clone();
            for &m in &last.pv {
                if leaf.status() != Status::Ongoing {
                    break;
                }
                leaf.play(m);
            }
            let mut after = pos.clone();
            after.play(best);
            if let Some(state) = recorded_state(&pos, after, chance) {
                game.positions.push(state);
                game.leaves.push(leaf);
            }
            if let Some(limit) = G::adjudicate_at()
                && let Some(winner) = adjudicate(&mut streak, last.score, pos.side_to_move(), limit)
            {
                game.result = if winner == Player::First { 1.0 } else { 0.0 };
                game.moves.push(best.to_string());
                return game;
            }
            best
        };
        game.moves.push(mv.to_string());
        pos.play(mv);
        hashes.push(pos.hash());
        repetition_keys.push(pos.repetition_key());
    }
    game
}

/// The state a game records for the searched move from `before` to `after`. In a game of
/// chance (`chance`: a roll has been played), the position after the move, before the next
/// roll (Tesauro's states), and none when the move ended the game: the result is then the
/// last target, once (the position before the winning move, which had been recorded in its
/// place, repeats the board of the state before it, a temporal difference of 0 that
/// scaled the outcome's credit to every earlier state by another λ). Otherwise the
/// position searched, beside the leaf of its principal variation.
pub(crate) fn recorded_state<G: Game>(before: &G, after: G, chance: bool) -> Option<G> {
    if !chance {
        Some(before.clone())
    } else if after.is_chance() {
        Some(after)
    } else {
        None
    }
}

/// Updates the adjudication streak with a search score `score` for `mover`; the winner
/// once four consecutive scores exceed `limit` for the same side.
fn adjudicate(
    streak: &mut (i32, u32),
    score: Score,
    mover: Player,
    limit: Score,
) -> Option<Player> {
    let first_view = if mover == Player::First {
        score
    } else {
        -score
    };
    let side = if first_view > limit {
        1
    } else if first_view < -limit {
        -1
    } else {
        0
    };
    if side != 0 && side == streak.0 {
        streak.1 += 1;
    } else {
        *streak = (side, u32::from(side != 0));
    }
    (streak.1 >= 4).then_some(if side > 0 {
        Player::First
    } else {
        Player::Second
    })
}

/// Games from an arena's `games.csv` (columns `opening`, `result`, `line`; or its
/// compressed form beside it, `games.csv.gz`, as results/ keeps it): each game's positions
/// after its opening, with the result for the first player (`1-0`, `0-1`, `1/2-1/2`). Rows
/// with another result (unfinished, forfeits) are skipped.
///
/// # Errors
/// [`LearnError::BadInput`] naming the file and row for an unreadable file, a missing
/// column, a position or move that does not parse, a move after the end of the game, or a
/// result that the line's final position contradicts (`1-0` for a game the line draws).
pub fn read_arena_games<G: LearnGame>(path: &Path) -> Result<Vec<PlayedGame<G>>, LearnError> {
    let file = path.display();
    let bad = |msg: String| LearnError::BadInput(format!("{file}: {msg}"));
    let file = crate::compressed::open(path).map_err(|e| bad(e.to_string()))?;
    let mut reader = csv::Reader::from_reader(file);
    let headers = reader.headers().map_err(|e| bad(e.to_string()))?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| bad(format!("no `{name}` column (is this an arena games.csv?)")))
    };
    let (opening, result_column, line) = (col("opening")?, col("result")?, col("line")?);
    let mut games = Vec::new();
    for (row, record) in reader.records().enumerate() {
        let record = record.map_err(|e| bad(e.to_string()))?;
        let at = |msg: String| bad(format!("row {}: {msg}", row + 2));
        let result = match record.get(result_column).unwrap_or("") {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            // An unfinished game teaches no result.
            "*" => continue,
            other => {
                return Err(at(format!(
                    "result `{other}`: expected 1-0, 0-1, 1/2-1/2 or *"
                )));
            }
        };
        let text = record.get(opening).unwrap_or("");
        let mut pos = G::parse_position(text).map_err(|e| at(format!("opening `{text}`: {e}")))?;
        let mut game = PlayedGame {
            positions: Vec::new(),
            leaves: Vec::new(),
            result,
            moves: Vec::new(),
        };
        let mut chance = false;
        for text in G::line_moves(record.get(line).unwrap_or("")) {
            if pos.status() != Status::Ongoing {
                return Err(at(format!("move `{text}` after the end of the game")));
            }
            let mv = pos
                .parse_move(text)
                .map_err(|e| at(format!("move `{text}`: {e}")))?;
            let before = pos.clone();
            game.moves.push(text.to_string());
            pos.play(mv);
            // The states self-play records: none for a roll of the dice.
            chance |= before.is_chance();
            if !before.is_chance()
                && let Some(state) = recorded_state(&before, pos.clone(), chance)
            {
                game.positions.push(state.clone());
                game.leaves.push(state);
            }
        }
        if let Status::Over(outcome) = pos.status() {
            // The winner as written; the value as self-play would label it (a backgammon
            // gammon, written `1-0`, is worth ⅚: [`LearnGame::outcome_value`]).
            let by_rule = first_player_result::<G>(outcome, pos.side_to_move());
            if by_rule.partial_cmp(&0.5) != result.partial_cmp(&0.5) {
                let written = record.get(result_column).unwrap_or("");
                return Err(at(format!(
                    "result `{written}`, but the line ends the game otherwise"
                )));
            }
            game.result = by_rule;
        }
        games.push(game);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::{SelfPlay, adjudicate, play_game, read_arena_games};
    use crate::game::{Game, Player, Score};
    use crate::games::backgammon::Backgammon;
    use crate::games::checkers::Checkers;
    use crate::games::connect4::Connect4;
    use crate::learn::LearnGame;

    /// Adjudication as play_game documents it: a winner once four consecutive searched
    /// moves' scores all give the same side more than the limit (strictly), each score
    /// the mover's and so negated for the second player. The reference keeps every score
    /// from the first player's side and looks at the last four; sequences of seeded
    /// scores at, just inside and just beyond ±limit, movers alternating and not.
    #[test]
    fn adjudication_needs_four_scores_in_a_row_beyond_the_limit() {
        let limit: Score = 300;
        let values = [
            -2 * limit,
            -limit - 1,
            -limit,
            -limit + 1,
            0,
            limit - 1,
            limit,
            limit + 1,
            900,
        ];
        let mut rng = crate::rng::XorShift::new(17);
        let mut winners = [0usize; 2];
        for run in 0..3000 {
            // Most runs lean to one side, so that streaks of four happen often.
            let lean = rng.below(3);
            let mut streak = (0, 0);
            let mut seen: Vec<Score> = Vec::new();
            for ply in 0..12 {
                let first_view = match (lean, rng.below(4)) {
                    (0, 0..=2) => values[6 + rng.below(3) as usize],
                    (1, 0..=2) => values[rng.below(3) as usize],
                    _ => values[rng.below(values.len() as u64) as usize],
                };
                let mover = if run % 2 == 0 || rng.below(2) == 0 {
                    [Player::First, Player::Second][ply % 2]
                } else {
                    Player::First
                };
                let score = if mover == Player::First {
                    first_view
                } else {
                    -first_view
                };
                seen.push(first_view);
                let last = &seen[seen.len().saturating_sub(4)..];
                let want = if last.len() < 4 {
                    None
                } else if last.iter().all(|&s| s > limit) {
                    Some(Player::First)
                } else if last.iter().all(|&s| s < -limit) {
                    Some(Player::Second)
                } else {
                    None
                };
                let got = adjudicate(&mut streak, score, mover, limit);
                assert_eq!(
                    got, want,
                    "run {run}, first player's view of the scores {seen:?}"
                );
                if let Some(w) = got {
                    winners[usize::from(w == Player::Second)] += 1;
                }
            }
        }
        assert!(
            winners[0] > 100 && winners[1] > 100,
            "adjudications: {winners:?}"
        );
    }

    /// Backgammon self-play as the committed runs start it: pubeval at 1 ply, no random
    /// plies, games played to their end.
    const PUBEVAL_SELF_PLAY: SelfPlay = SelfPlay {
        games: 200,
        depth: 1,
        random_plies: 0,
        max_plies: 2000,
    };

    /// The hashes of a game's recorded positions, in order.
    fn position_hashes<G: Game>(game: &super::PlayedGame<G>) -> Vec<u64> {
        game.positions.iter().map(Game::hash).collect()
    }

    /// `game` as self-play stores it (`result move move …`), replayed after `random` plies.
    fn stored_and_replayed<G: LearnGame>(
        game: &super::PlayedGame<G>,
        random: usize,
    ) -> super::PlayedGame<G> {
        let line = format!("{} {}", game.result, game.moves.join(" "));
        crate::learn::replay::<G>(&line, random).unwrap_or_else(|| panic!("{line} replays"))
    }

    /// Backgammon self-play (pubeval at 1 ply, as the committed runs start): no game is
    /// drawn, not even by a position's third occurrence (both sides dancing on the bar made
    /// games 82 and 143 of seed 18 draws), and every recorded state is a position before a
    /// roll, the winning move's end leaving none (the position before it, recorded in its
    /// place, repeated the board of the state before).
    #[test]
    fn backgammon_self_play_has_no_draws_and_records_only_states_before_a_roll() {
        let eval = Backgammon::evaluator(Backgammon::hand_set());
        for index in [82, 143, 0, 1] {
            let game = play_game::<Backgammon>(&eval, &PUBEVAL_SELF_PLAY, 18, index);
            assert_ne!(game.result, 0.5, "game {index}: {:?}", game.moves);
            assert!(!game.positions.is_empty());
            assert!(game.positions.iter().all(Game::is_chance), "game {index}");
            assert_eq!(game.positions.len(), game.leaves.len());
        }
    }

    /// A backgammon game as the arena writes it (rolls and plays of several words in one
    /// line, a gammon written `1-0`) reads back as the game self-play recorded: the same
    /// states before a roll and the same value; and a stored self-play game replays whole.
    #[test]
    fn backgammon_games_read_back_as_self_play_recorded_them() {
        let sp = PUBEVAL_SELF_PLAY;
        let eval = Backgammon::evaluator(Backgammon::hand_set());
        let dir = crate::testing::TempDir::new("bg-games");
        let path = dir.path("games.csv");
        for index in 0..4 {
            let game = play_game::<Backgammon>(&eval, &sp, 18, index);
            let line = game.moves.join(" ");
            assert!(line.contains("/") && line.contains(' '), "{line}");
            let written = if game.result > 0.5 { "1-0" } else { "0-1" };
            std::fs::write(
                &path,
                format!("opening,result,line\nstart,{written},{line}\n"),
            )
            .unwrap();
            let read = read_arena_games::<Backgammon>(&path).unwrap();
            let replayed = stored_and_replayed(&game, sp.random_plies as usize);
            for again in [&read[0], &replayed] {
                assert_eq!(again.moves, game.moves);
                assert_eq!(again.result, game.result);
                assert_eq!(
                    position_hashes(again),
                    position_hashes(&game),
                    "game {index}"
                );
            }
        }
    }

    /// A stored game replays to the states self-play recorded after its random opening,
    /// whose plies count chosen moves only: in backgammon the rolls between them are not
    /// among them (counted, a resumed Texel run learned from other positions than a run
    /// that went straight through).
    #[test]
    fn a_stored_game_replays_the_states_recorded_after_its_random_opening() {
        let sp = SelfPlay {
            random_plies: 3,
            ..PUBEVAL_SELF_PLAY
        };
        let eval = Backgammon::evaluator(Backgammon::hand_set());
        for index in 0..4 {
            let game = play_game::<Backgammon>(&eval, &sp, 18, index);
            let replayed = stored_and_replayed(&game, sp.random_plies as usize);
            assert_eq!(
                position_hashes(&replayed),
                position_hashes(&game),
                "game {index}"
            );
        }
    }

    /// A stored game no run could have written is not replayed (EXPERIMENTS.md: "a
    /// result other than 0, ½ or 1, or one its final position contradicts"): the games
    /// from there on are played again. The same line with its true result replays.
    #[test]
    fn a_stored_game_no_run_could_have_written_is_not_replayed() {
        // 4 5 4 5 4 5 4: the first player wins with a vertical four in column 4.
        let win = "4 5 4 5 4 5 4";
        for line in [
            // Unfinished: no run writes a result outside 0-1.
            "2 4 5".to_owned(),
            "-1 4 5".to_owned(),
            // Unfinished games end drawn (0.5) or adjudicated (0 or 1): nothing between.
            "0.7 4 5".to_owned(),
            format!("2 {win}"),
            format!("-1 {win}"),
            format!("0 {win}"),
            format!("0.5 {win}"),
        ] {
            let replayed = crate::learn::replay::<Connect4>(&line, 2);
            assert!(replayed.is_none(), "{line}: {replayed:?}");
        }
        let replayed = crate::learn::replay::<Connect4>(&format!("1 {win}"), 2);
        assert_eq!(replayed.map(|g| g.moves.len()), Some(7));
    }

    /// Self-play games of different numbers differ for any seed (EXPERIMENTS.md: the dice
    /// "seeded by the seed and the game's index"): backgammon games with no random plies,
    /// whose only randomness is the dice, are not the same game.
    #[test]
    fn backgammon_games_of_different_numbers_roll_different_dice() {
        let sp = SelfPlay {
            max_plies: 12,
            ..PUBEVAL_SELF_PLAY
        };
        let eval = Backgammon::evaluator(Backgammon::hand_set());
        for seed in [0, 1, 18, u64::MAX] {
            let games: Vec<Vec<String>> = (0..3)
                .map(|i| play_game::<Backgammon>(&eval, &sp, seed, i).moves)
                .collect();
            for i in 0..3 {
                for j in i + 1..3 {
                    assert_ne!(games[i], games[j], "seed {seed}: games {i} and {j}");
                }
            }
        }
    }

    /// A game ended by adjudication keeps the searched move that ended it among its moves
    /// ("all moves as text"): stored and replayed, it gives the positions self-play
    /// recorded, the last one included (checkers at depth 1, seed 1, where some games are
    /// adjudicated).
    #[test]
    fn an_adjudicated_game_keeps_its_last_move_and_replays_whole() {
        let sp = SelfPlay {
            games: 16,
            depth: 1,
            random_plies: 4,
            max_plies: 200,
        };
        let eval = Checkers::evaluator(Checkers::hand_set());
        let mut adjudicated = 0;
        for index in 0..16 {
            let game = play_game::<Checkers>(&eval, &sp, 1, index);
            let replayed = stored_and_replayed(&game, 4);
            assert_eq!(
                position_hashes(&replayed),
                position_hashes(&game),
                "game {index}: {:?}",
                game.moves
            );
            let end = replayed.positions.last().expect("a searched position");
            let mut pos = *end;
            pos.play(pos.parse_move(game.moves.last().unwrap()).unwrap());
            if game.result != 0.5 && pos.status() == crate::game::Status::Ongoing {
                adjudicated += 1;
            }
        }
        assert!(adjudicated > 0, "no game of seed 1 was adjudicated");
    }

    #[test]
    fn arena_games_are_read_plain_or_compressed() {
        let dir = crate::testing::TempDir::new("arena-games");
        let text = "opening,result,line\nstart,1-0,4 4 3\n43,1/2-1/2,5\nstart,*,4\n";
        let plain = dir.path("games.csv");
        std::fs::write(&plain, text).unwrap();
        let from_plain = read_arena_games::<Connect4>(&plain).unwrap();
        // The compressed form alone, named as the plain file: as results/ keeps it.
        let gz = std::fs::File::create(dir.path("games.csv.gz")).unwrap();
        let mut gz = flate2::write::GzEncoder::new(gz, flate2::Compression::best());
        std::io::Write::write_all(&mut gz, text.as_bytes()).unwrap();
        gz.finish().unwrap();
        std::fs::remove_file(&plain).unwrap();
        let from_gz = read_arena_games::<Connect4>(&plain).unwrap();
        for games in [&from_plain, &from_gz] {
            // The unfinished game (`*`) labels nothing.
            let shape: Vec<_> = games.iter().map(|g| (g.moves.len(), g.result)).collect();
            assert_eq!(shape, [(3, 1.0), (1, 0.5)]);
        }
    }

    /// A move after the end of the game, or a result the line's end contradicts, is a
    /// damaged row: it was read (the extra moves dropped, the wrong result learned from).
    #[test]
    fn rows_past_the_end_or_against_it_are_refused() {
        let dir = crate::testing::TempDir::new("arena-ends");
        let path = dir.path("games.csv");
        // 4 5 4 5 4 5 4: the first player wins with a vertical four in column 4.
        for (row, why) in [
            (
                "start,1-0,4 5 4 5 4 5 4 3",
                "row 2: move `3` after the end of the game",
            ),
            (
                "start,0-1,4 5 4 5 4 5 4",
                "row 2: result `0-1`, but the line ends",
            ),
            (
                "start,1/2-1/2,4 5 4 5 4 5 4",
                "row 2: result `1/2-1/2`, but the line ends",
            ),
        ] {
            std::fs::write(&path, format!("opening,result,line\n{row}\n")).unwrap();
            let err = read_arena_games::<Connect4>(&path).unwrap_err().to_string();
            assert!(err.contains(why), "{row}: {err}");
        }
        std::fs::write(&path, "opening,result,line\nstart,1-0,4 5 4 5 4 5 4\n").unwrap();
        assert_eq!(read_arena_games::<Connect4>(&path).unwrap().len(), 1);
    }
}

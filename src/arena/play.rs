//! One game between two players, from an opening to its end.
//!
//! Each player keeps its state for the whole game: an alpha-beta player one [`Searcher`]
//! (its table, killers and history; a fresh one each game), a lazy SMP player its table, an
//! external engine its process (`ucinewgame` first). Before each move a plylab search gets
//! the hashes of the positions played since the opening, so that it sees repetitions.
//!
//! Endings, checked in this order before each move: the game's own rules ([`Game::status`]:
//! for chess mate, stalemate, the fifty-move rule and insufficient material), threefold
//! repetition (the same position hash for the third time since the opening; games whose
//! positions never repeat never trigger it), adjudication, and `max_plies` (a draw). After
//! a move: a player over its clock or over the match's fixed time per move (`st`), beyond the
//! match's time margin ([`Rules::time_margin`], the same for every player), loses on time;
//! draw and resign adjudication ([`super::adjudicate`]) count the move's score. An engine
//! that crashes, hangs, breaks the protocol or plays an illegal move forfeits the game.

use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::chance::{Dice, reason_of_points};
use super::engine::{Clock, EngineError, EngineScore, Go};
use super::external::ExternalEngine;
// A chess engine of either protocol (UCI or xboard) has `UciEngine`'s methods.
use super::spec::{Adjudication, Opening, Player, PlayerKind, Rules};
use super::xboard::ChessEngine as UciEngine;
use crate::game::{Evaluator, Game, Outcome, Player as Side, Score, Status, score};
use crate::games::chess::Chess;
use crate::lab::runner::{PairTask, with_game_pair};
use crate::lab::settings::EvalChoice;
use crate::rng::mix;
use crate::search::mcts::{MctsAlgorithm, MctsBudget, MctsConfig};
use crate::search::smp::{Shared, lazy_smp_observed};
use crate::search::tt::with_kept_tables;
use crate::search::ybw::ybw_observed;
use crate::search::{Algorithm, Limits, SearchConfig, SearchResult, Searcher, Table};

/// How far past its clock a player may go before it loses on time, unless the arena file
/// sets `timemargin`: the arena's wall clock includes the last node-count check of a
/// search, pipe latency and thread scheduling on a busy machine. Every player gets the same
/// margin (cutechess-cli's `timemargin`, fastchess's `timemargin`).
pub const TIME_MARGIN: Duration = Duration::from_millis(25);

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The player who moved first (White).
    First,
    /// The other player.
    Second,
    /// Nobody.
    Draw,
}

impl Winner {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub fn result(self) -> &'static str {
        match self {
            Self::First => "1-0",
            Self::Second => "0-1",
            Self::Draw => "1/2-1/2",
        }
    }

    /// Reads a PGN result.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "1-0" => Some(Self::First),
            "0-1" => Some(Self::Second),
            "1/2-1/2" => Some(Self::Draw),
            _ => None,
        }
    }

    /// The win of side `side` (0 first, 1 second).
    fn of(side: usize) -> Self {
        if side == 0 { Self::First } else { Self::Second }
    }

    /// Who won a game that the rules ended with `outcome` for the side to move, `mover`
    /// (0 first, 1 second).
    #[must_use]
    pub fn by_rule(outcome: Outcome, mover: usize) -> Self {
        match outcome {
            Outcome::Win => Self::of(mover),
            Outcome::Loss => Self::of(1 - mover),
            Outcome::Draw => Self::Draw,
            Outcome::Points(p) if p > 0 => Self::of(mover),
            Outcome::Points(p) if p < 0 => Self::of(1 - mover),
            Outcome::Points(_) => Self::Draw,
        }
    }

    /// The side to move in `pos`: 0 first, 1 second.
    #[must_use]
    pub fn mover<G: Game>(pos: &G) -> usize {
        match pos.side_to_move() {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

/// What one side spent over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideStats {
    /// Moves played.
    pub moves: u32,
    /// Nodes searched (playouts for Monte Carlo players; what an engine reported).
    pub nodes: u64,
    /// Seconds of the side's moves, by the arena's clock.
    pub time_s: f64,
    /// Sum of the depths of moves that reported one.
    pub depth_sum: u64,
    /// Moves that reported a depth.
    pub depth_moves: u32,
    /// Moves played from the player's opening book (`book`), without searching.
    pub book_moves: u32,
}

impl SideStats {
    /// Mean depth of the moves that reported one.
    #[must_use]
    pub fn mean_depth(&self) -> Option<f64> {
        (self.depth_moves > 0).then(|| self.depth_sum as f64 / f64::from(self.depth_moves))
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Who won.
    pub winner: Winner,
    /// Why the game ended: `checkmate`, `four in a row`, `max plies`, `crash`, ...
    pub reason: String,
    /// The moves in the game's notation (UCI for chess).
    pub moves: Vec<String>,
    /// First and second player's figures.
    pub sides: [SideStats; 2],
    /// The side whose engine died (crashed or hung) during the game: it must be restarted.
    pub dead_engine: Option<usize>,
    /// For a forfeit: what the player did (the engine's error, the illegal move).
    pub detail: Option<String>,
    /// Per ply, what the mover reported ([`annotation`]): `book`, or
    /// `score/depth/seconds` with empty fields for what it did not report.
    pub annotations: Vec<String>,
}

/// A ply's annotation as games.csv keeps it: `book` for a book move, else the score in
/// cutechess-cli's notation ([`score_text`]), the depth and the seconds the move took,
/// separated by `/` (a field left empty when the player reported none).
#[must_use]
pub fn annotation(
    book: bool,
    score: Option<Score>,
    depth: Option<u32>,
    elapsed: Duration,
) -> String {
    if book {
        return "book".to_owned();
    }
    format!(
        "{}/{}/{:.3}",
        score.map(score_text).unwrap_or_default(),
        depth.map(|d| d.to_string()).unwrap_or_default(),
        elapsed.as_secs_f64()
    )
}

/// A score from the mover's view as cutechess-cli writes it in PGN comments: pawns with a
/// sign and two decimals (`+0.35`, `-1.20`), or moves to mate (`+M5` when the mover mates,
/// `-M5` when it is mated).
#[must_use]
pub fn score_text(s: Score) -> String {
    match score::mate_in_moves(s) {
        Some(m) if m > 0 => format!("+M{m}"),
        Some(m) => format!("-M{}", -m),
        None => format!("{:+.2}", f64::from(s) / 100.0),
    }
}

/// Everything a game needs.
pub struct GameSetup<'a> {
    /// Where it starts.
    pub opening: &'a Opening,
    /// First and second player.
    pub players: [&'a Player; 2],
    /// Their engine processes (for engine players).
    pub engines: [Option<&'a mut UciEngine>; 2],
    /// Their GTP or gnubg processes (for external players of othello and backgammon).
    pub external: [Option<&'a mut ExternalEngine>; 2],
    /// The seed of the dice ([`super::chance::dice_seed`]): the same for both games of a pair.
    pub dice: u64,
    /// Endings besides the rules.
    pub rules: &'a Rules,
    /// The game's seed; each player's searches derive theirs from it.
    pub seed: u64,
}

/// Plays one game.
#[must_use]
pub fn play_game(setup: GameSetup<'_>) -> GameRecord {
    let [a, b] = [0, 1].map(|i| eval_choice(setup.players[i], setup.seed));
    with_game_pair(&setup.opening.position, a, b, PlayTask(setup))
}

fn eval_choice(player: &Player, seed: u64) -> EvalChoice {
    match &player.kind {
        PlayerKind::Search(v) => v.eval_choice(seed),
        PlayerKind::Engine(_) | PlayerKind::External(_) => EvalChoice::default(),
    }
}

struct PlayTask<'a>(GameSetup<'a>);

impl PairTask for PlayTask<'_> {
    type Output = GameRecord;
    fn run<G: Game, A: Evaluator<G>, B: Evaluator<G>>(
        self,
        root: &G,
        a: &A,
        b: &B,
        _: &dyn Fn(Score) -> i32,
    ) -> GameRecord {
        let GameSetup {
            opening,
            players,
            engines: [engine_a, engine_b],
            external: [external_a, external_b],
            rules,
            seed,
            dice,
        } = self.0;
        let configs = [0, 1].map(|i| search_config(players[i], mix(seed ^ i as u64)));
        // Each game starts from an empty table: a kept one, cleared, rather than a fresh
        // 16 MiB one per player and game (which cost more than a shallow game's searches).
        let layouts = [0, 1].map(|i| table_layout(players[i], &configs[i]));
        let fen = chess_fen(&opening.position);
        with_kept_tables(layouts, |[table_a, table_b]| {
            let mut first = Mover::new(players[0], a, &configs[0], table_a, engine_a, fen.clone());
            let mut second = Mover::new(players[1], b, &configs[1], table_b, engine_b, fen);
            first.set_external(external_a);
            second.set_external(external_b);
            play(first, second, root, players, rules, seed, Dice::new(dice))
        })
    }
}

/// The table a player's search makes, `(megabytes, compact)`: alpha-beta's own (lazy SMP
/// and YBW make theirs per game, Monte Carlo and engines have none).
fn table_layout(player: &Player, config: &SearchConfig) -> Option<(usize, bool)> {
    let searches = matches!(&player.kind, PlayerKind::Search(v) if v.mcts.is_none());
    (searches && config.algorithm == Algorithm::Alphabeta && config.tt_mb > 0)
        .then_some((config.tt_mb, config.solve.tt_compact))
}

/// Plays one game of `players` from `root` (the opening's position), `first` moving for
/// the first of them.
fn play<G: Game, A: Evaluator<G>, B: Evaluator<G>>(
    mut first: Mover<'_, G, A>,
    mut second: Mover<'_, G, B>,
    root: &G,
    players: [&Player; 2],
    rules: &Rules,
    seed: u64,
    mut dice: Dice,
) -> GameRecord {
    let mut game = GameState::new(root.clone(), players, rules);
    if let Err(fault) = first.new_game(rules, root) {
        return game.forfeit(0, &fault);
    }
    if let Err(fault) = second.new_game(rules, root) {
        return game.forfeit(1, &fault);
    }
    loop {
        if let Some(end) = game.ending() {
            return game.finish(end);
        }
        if game.pos.is_chance() {
            // The dice, not a player, make chance moves (super::chance).
            let roll = dice.roll(&game.pos);
            game.roll(roll);
            continue;
        }
        let side = game.side();
        let view = game.view(side);
        let started = Instant::now();
        let booked = book_move(players[side], &game.pos, seed, view.ply);
        let reply = match booked {
            Some(mv) => Ok(Reply {
                mv,
                score: None,
                depth: None,
                nodes: 0,
                thought: None,
            }),
            None if side == 0 => first.choose(&game.pos, &view),
            None => second.choose(&game.pos, &view),
        };
        let elapsed = match &reply {
            Ok(Reply {
                thought: Some(t), ..
            }) => *t,
            _ => started.elapsed(),
        };
        game.sides[side].book_moves += u32::from(booked.is_some());
        match reply {
            Ok(reply) => {
                let note = annotation(booked.is_some(), reply.score, reply.depth, elapsed);
                game.annotations.push(note);
                if let Some(end) = game.apply(side, reply, elapsed) {
                    return game.finish(end);
                }
            }
            Err(fault) => return game.forfeit(side, &fault),
        }
    }
}

/// The move `player`'s opening book plays in `pos` (none without a book, or out of book):
/// the book's choice rule, its weighted draw seeded by the game's seed and the ply.
fn book_move<G: Game>(player: &Player, pos: &G, seed: u64, ply: u32) -> Option<G::Move> {
    let PlayerKind::Search(v) = &player.kind else {
        return None;
    };
    let book = v.knowledge.book_for::<G>()?;
    book.pick(pos, v.knowledge.book_choice, seed, ply)
}

/// The opening's FEN, for engines (chess only).
fn chess_fen(position: &crate::lab::spec::GamePosition) -> Option<String> {
    match position {
        crate::lab::spec::GamePosition::Chess(c) => Some(c.to_fen()),
        _ => None,
    }
}

/// The player's search configuration with its seed for this game.
fn search_config(player: &Player, seed: u64) -> SearchConfig {
    match &player.kind {
        PlayerKind::Search(v) => SearchConfig {
            seed,
            ..v.config.clone()
        },
        PlayerKind::Engine(_) | PlayerKind::External(_) => SearchConfig::default(),
    }
}

/// What a mover sees besides the position.
struct View<'a> {
    /// Hashes of the positions before the current one, since the opening.
    history: &'a [u64],
    /// Moves played since the opening.
    moves: &'a [String],
    /// Plies played since the opening.
    ply: u32,
    /// Both clocks (time left) and both increments, when the mover plays on a clock.
    clocks: Option<([Duration; 2], [Duration; 2])>,
    /// The mover's period of a repeating time control: moves, base time and moves to go.
    period: Option<super::engine::Period>,
    /// The mover's side.
    side: usize,
}

/// A move and what its search reported.
struct Reply<M> {
    mv: M,
    /// For the side that moved, in the evaluator's units (engines: centipawns).
    score: Option<Score>,
    depth: Option<u32>,
    nodes: u64,
    /// An engine's thinking time, from `go` to its move: what its clock is charged, as
    /// cutechess charges it, rather than the whole exchange (an xboard engine is set up
    /// again, the game replayed and pinged, before each `go`). `None`: the time around
    /// the whole choice.
    thought: Option<Duration>,
}

/// Why a player forfeits.
#[derive(Debug)]
enum Fault {
    /// An engine error, with the reason recorded for it.
    Engine(&'static str, EngineError),
    /// A move that is not legal here.
    Illegal(String),
}

impl Fault {
    fn reason(&self) -> &'static str {
        match self {
            Self::Engine(reason, _) => reason,
            Self::Illegal(_) => "illegal move",
        }
    }

    fn detail(&self) -> String {
        match self {
            Self::Engine(_, e) => e.to_string(),
            Self::Illegal(mv) => format!("`{mv}` is not a legal move"),
        }
    }

    fn kills_engine(&self) -> bool {
        matches!(
            self,
            Self::Engine(_, EngineError::Crashed { .. } | EngineError::Hung { .. })
        )
    }
}

/// The reason recorded when an engine fails.
fn engine_fault(e: EngineError) -> Fault {
    let reason = match &e {
        EngineError::Crashed { .. } | EngineError::Spawn { .. } => "crash",
        EngineError::Hung { .. } => "hang",
        EngineError::Protocol { .. } | EngineError::NoMove => "illegal move",
        EngineError::BadRequest { .. } => "engine error",
    };
    Fault::Engine(reason, e)
}

/// A player during one game, with its state.
enum Mover<'a, G: Game, E: Evaluator<G>> {
    /// Alpha-beta or minimax: one searcher for the game.
    Search(Box<Searcher<'a, G, E>>, Limits),
    /// Lazy SMP or Young Brothers Wait: its table for the game.
    Smp {
        eval: &'a E,
        config: &'a SearchConfig,
        table: Table,
        limits: Limits,
    },
    /// A Monte Carlo search.
    Mcts {
        eval: &'a E,
        algorithm: MctsAlgorithm,
        config: MctsConfig,
        threads: usize,
        limits: Limits,
    },
    /// An external engine.
    Engine {
        engine: Option<&'a mut UciEngine>,
        fen: Option<String>,
        limits: Limits,
        timeout: Duration,
    },
    /// A GTP engine (othello) or gnubg (backgammon).
    External {
        engine: Option<&'a mut ExternalEngine>,
        timeout: Duration,
    },
}

impl<'a, G: Game, E: Evaluator<G>> Mover<'a, G, E> {
    fn new(
        player: &'a Player,
        eval: &'a E,
        config: &'a SearchConfig,
        table: Option<&'a Table>,
        engine: Option<&'a mut UciEngine>,
        fen: Option<String>,
    ) -> Self {
        let limits = player.limits;
        match &player.kind {
            PlayerKind::External(_) => Self::External {
                engine: None,
                timeout: Duration::ZERO,
            },
            PlayerKind::Engine(_) => Self::Engine {
                engine,
                fen,
                limits,
                timeout: Duration::ZERO,
            },
            PlayerKind::Search(v) => match v.mcts {
                Some(algorithm) => Self::Mcts {
                    eval,
                    algorithm,
                    config: MctsConfig {
                        seed: config.seed,
                        ..v.mcts_config
                    },
                    threads: config.threads,
                    limits,
                },
                None if matches!(config.algorithm, Algorithm::LazySmp | Algorithm::Ybw) => {
                    Self::Smp {
                        eval,
                        config,
                        table: Table::with_layout(config.tt_mb.max(1), config.solve.tt_compact),
                        limits,
                    }
                }
                None => {
                    let searcher =
                        Searcher::new(eval, config).with_knowledge(v.knowledge.probe_for());
                    let searcher = match table {
                        Some(table) => searcher.with_table(table),
                        None => searcher,
                    };
                    Self::Search(Box::new(searcher), limits)
                }
            },
        }
    }

    /// Gives an external player its process.
    fn set_external(&mut self, process: Option<&'a mut ExternalEngine>) {
        if let Self::External { engine, .. } = self {
            *engine = process;
        }
    }

    /// `ucinewgame` for an engine; a new game from `root` for an external player; nothing
    /// for plylab's players (their state is new).
    fn new_game(&mut self, rules: &Rules, root: &G) -> Result<(), Fault> {
        if let Self::External { engine, timeout } = self {
            *timeout = rules.engine_timeout;
            let engine = engine.as_deref_mut().ok_or_else(no_engine)?;
            engine
                .new_game(root, rules.engine_timeout)
                .map_err(engine_fault)?;
        }
        if let Self::Engine {
            engine, timeout, ..
        } = self
        {
            *timeout = rules.engine_timeout;
            let engine = engine.as_deref_mut().ok_or_else(no_engine)?;
            engine
                .new_game(rules.engine_timeout)
                .map_err(engine_fault)?;
        }
        Ok(())
    }

    /// This player's move in `pos`.
    fn choose(&mut self, pos: &G, view: &View<'_>) -> Result<Reply<G::Move>, Fault> {
        match self {
            Self::Search(searcher, limits) => {
                searcher.set_history(view.history);
                Ok(search_reply(
                    pos,
                    &searcher.run(pos, &clocked(*limits, view)),
                ))
            }
            Self::Smp {
                eval,
                config,
                table,
                limits,
            } => {
                let stop = AtomicBool::new(false);
                let shared = Shared {
                    table,
                    stop: &stop,
                    history: view.history,
                };
                let limits = clocked(*limits, view);
                let threads = config.threads;
                let result = if config.algorithm == Algorithm::Ybw {
                    ybw_observed(pos, *eval, config, &limits, threads, &shared, |_| {})
                } else {
                    lazy_smp_observed(pos, *eval, config, &limits, threads, &shared, |_| {})
                };
                Ok(search_reply(pos, &result))
            }
            Self::Mcts {
                eval,
                algorithm,
                config,
                threads,
                limits,
            } => {
                let limits = clocked(*limits, view);
                let budget = MctsBudget {
                    iterations: limits.nodes,
                    time: limits.time,
                    stop: None,
                };
                let config = MctsConfig {
                    seed: mix(config.seed ^ u64::from(view.ply)),
                    ..*config
                };
                let result = algorithm.run(pos, *eval, &config, &budget, *threads);
                Ok(Reply {
                    mv: result.best_move.unwrap_or_else(|| first_move(pos)),
                    score: None,
                    depth: None,
                    nodes: result.playouts,
                    thought: None,
                })
            }
            Self::Engine {
                engine,
                fen,
                limits,
                timeout,
            } => {
                let engine = engine.as_deref_mut().ok_or_else(no_engine)?;
                engine_move(engine, pos, fen.as_deref(), *limits, *timeout, view)
            }
            Self::External { engine, timeout } => {
                let engine = engine.as_deref_mut().ok_or_else(no_engine)?;
                let text = engine
                    .choose(pos, view.moves, *timeout)
                    .map_err(engine_fault)?
                    .ok_or_else(|| {
                        let e = EngineError::Protocol {
                            message: "the engine resigned".into(),
                        };
                        Fault::Engine("resign", e)
                    })?;
                let mv = pos.parse_move(&text).map_err(|_| Fault::Illegal(text))?;
                Ok(Reply {
                    mv,
                    score: None,
                    depth: None,
                    nodes: 0,
                    thought: None,
                })
            }
        }
    }
}

/// The reply of an alpha-beta family search: its deepest iteration's move, score and depth.
fn search_reply<G: Game>(pos: &G, result: &SearchResult<G::Move>) -> Reply<G::Move> {
    let last = result.last();
    Reply {
        mv: result.best_move().unwrap_or_else(|| first_move(pos)),
        score: last.map(|i| i.score),
        depth: last.map(|i| i.depth),
        nodes: result.total.nodes,
        thought: None,
    }
}

fn no_engine() -> Fault {
    engine_fault(EngineError::Crashed {
        reason: "the engine could not be started".into(),
    })
}

/// Asks an engine for its move and checks that it is legal.
fn engine_move<G: Game>(
    engine: &mut UciEngine,
    pos: &G,
    fen: Option<&str>,
    limits: Limits,
    extra: Duration,
    view: &View<'_>,
) -> Result<Reply<G::Move>, Fault> {
    let mut go = Go {
        depth: limits.depth,
        nodes: limits.nodes,
        movetime: limits.time,
        clock: None,
    };
    let mut allowed = limits.time.unwrap_or(Duration::ZERO);
    if let Some((left, inc)) = view.clocks {
        go.clock = Some(Clock {
            wtime: left[0],
            btime: left[1],
            winc: inc[0],
            binc: inc[1],
            period: view.period,
        });
        allowed = left[view.side] + inc[view.side];
    }
    let reply = engine
        .go(fen, view.moves, &go, allowed + extra)
        .map_err(engine_fault)?;
    let mv = pos
        .parse_move(&reply.best_move)
        .map_err(|_| Fault::Illegal(reply.best_move.clone()))?;
    Ok(Reply {
        mv,
        score: reply.score.map(engine_score),
        depth: reply.depth,
        nodes: reply.nodes.unwrap_or(0),
        thought: Some(reply.elapsed),
    })
}

/// An engine's score on plylab's scale: centipawns as they are, mate in N moves as a win
/// or loss that many plies away.
fn engine_score(s: EngineScore) -> Score {
    match s {
        EngineScore::Cp(cp) => cp.clamp(-score::DECISIVE + 1, score::DECISIVE - 1),
        // An absurd distance (beyond any search) is clamped, never overflowed; a mated one
        // to 4999 moves, the farthest whose score is still decisive.
        EngineScore::Mate(n) if n > 0 => score::win_in(2 * n.min(score::MAX_PLY / 2) - 1),
        EngineScore::Mate(n) => score::loss_in(-2 * n.max(1 - score::MAX_PLY / 2)),
    }
}

/// The limits of one move: the player's, with its clock's budget
/// ([`crate::search::time_budget`]: time left / 30 + 0.8 × increment, at most half the time
/// left, minus the move overhead) when it has one.
fn clocked(mut limits: Limits, view: &View<'_>) -> Limits {
    if let Some((left, inc)) = view.clocks {
        let to_go = view.period.map(|p| p.to_go);
        let (hard, _) = crate::search::time_budget(left[view.side], inc[view.side], to_go);
        limits.time = Some(limits.time.map_or(hard, |t| t.min(hard)));
    }
    limits
}

/// The first legal move, for a search that stopped before completing an iteration (as
/// `plylab uci` answers).
fn first_move<G: Game>(pos: &G) -> G::Move {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves[0]
}

/// A game in progress.
struct GameState<'a, G: Game> {
    pos: G,
    /// Hashes of every position since the opening, the current one last: the history the
    /// searchers see.
    hashes: Vec<u64>,
    /// The same positions' [`Game::repetition_key`]s, which the rule of threefold repetition
    /// compares.
    repetition_keys: Vec<u64>,
    moves: Vec<String>,
    sides: [SideStats; 2],
    /// Time left per side and increments, when the players have clocks.
    clocks: Option<([Duration; 2], [Duration; 2])>,
    /// Which sides play on a clock (a side without one plays by its limits alone).
    timed: [bool; 2],
    /// Each side's moves per period and base time, for a repeating time control.
    periods: [Option<(u32, Duration)>; 2],
    /// What the adjudication counts.
    adjudicator: super::adjudicate::Adjudicator,
    /// An adjudication reached after the last move.
    adjudged: Option<End>,
    /// Per ply, the mover's annotation.
    annotations: Vec<String>,
    rules: &'a Rules,
    /// The sign (for the first player) and length of the current run of decisive scores.
    streak: (i32, u32),
    dead_engine: Option<usize>,
    detail: Option<String>,
    /// Whether the game has had a chance move.
    chance: bool,
}

/// How a game ends: the winner and the reason.
type End = (Winner, &'static str);

impl<'a, G: Game> GameState<'a, G> {
    fn new(pos: G, players: [&Player; 2], rules: &'a Rules) -> Self {
        let clocks = match (players[0].tc, players[1].tc) {
            (None, None) => None,
            (a, b) => {
                let far = Duration::from_secs(1 << 30);
                let left = [a, b].map(|t| t.map_or(far, |t| t.base));
                let inc = [a, b].map(|t| t.map_or(Duration::ZERO, |t| t.increment));
                Some((left, inc))
            }
        };
        let timed = players.map(|p| p.tc.is_some());
        let periods = players.map(|p| p.tc.and_then(|t| Some((t.moves?, t.base))));
        Self {
            hashes: vec![pos.hash()],
            repetition_keys: vec![pos.repetition_key()],
            pos,
            moves: Vec::new(),
            sides: [SideStats::default(); 2],
            clocks,
            timed,
            periods,
            adjudicator: super::adjudicate::Adjudicator::new(rules),
            adjudged: None,
            annotations: Vec::new(),
            rules,
            streak: (0, 0),
            dead_engine: None,
            detail: None,
            chance: false,
        }
    }

    /// Plays a chance move (a roll of the dice), which belongs to neither player's figures.
    fn roll(&mut self, roll: G::Move) {
        self.chance = true;
        self.annotations.push(String::new());
        self.moves.push(roll.to_string());
        self.pos.play(roll);
        self.record_position();
    }

    /// Records the position just reached in the game's history.
    fn record_position(&mut self) {
        self.hashes.push(self.pos.hash());
        self.repetition_keys.push(self.pos.repetition_key());
    }

    /// 0 when the first player (White) is to move, else 1.
    fn side(&self) -> usize {
        Winner::mover(&self.pos)
    }

    fn view(&self, side: usize) -> View<'_> {
        View {
            history: &self.hashes[..self.hashes.len() - 1],
            moves: &self.moves,
            ply: self.moves.len() as u32,
            clocks: self.clocks.filter(|_| self.timed[side]),
            period: self.periods[side].map(|(moves, base)| super::engine::Period {
                moves,
                base,
                to_go: moves - self.sides[side].moves % moves,
            }),
            side,
        }
    }

    /// The end of the game before the next move, if it has come.
    fn ending(&self) -> Option<End> {
        if let Status::Over(outcome) = self.pos.status() {
            let winner = Winner::by_rule(outcome, self.side());
            return Some((winner, rule_reason(&self.pos, outcome)));
        }
        let keys = &self.repetition_keys;
        let current = keys[keys.len() - 1];
        // A game of chance has no draw by repetition (backgammon positions can recur, and
        // the game goes on).
        if !self.chance && keys.iter().filter(|&&k| k == current).count() >= 3 {
            return Some((Winner::Draw, "threefold repetition"));
        }
        if let Some(end) = self.adjudged {
            return Some(end);
        }
        if let Some(a) = self.rules.adjudicate
            && self.streak.1 >= a.plies
        {
            let winner = if self.streak.0 > 0 { 0 } else { 1 };
            return Some((Winner::of(winner), "adjudication"));
        }
        let played = self.moves.len() as u32;
        self.rules
            .max_plies
            .filter(|&m| played >= m)
            .map(|_| (Winner::Draw, "max plies"))
    }

    /// Plays `reply` for `side`, which took `elapsed`; a loss on time ends the game.
    fn apply(&mut self, side: usize, reply: Reply<G::Move>, elapsed: Duration) -> Option<End> {
        let stats = &mut self.sides[side];
        stats.moves += 1;
        stats.nodes += reply.nodes;
        stats.time_s += elapsed.as_secs_f64();
        if let Some(d) = reply.depth {
            stats.depth_sum += u64::from(d);
            stats.depth_moves += 1;
        }
        let margin = self.rules.time_margin;
        if let Some(st) = self.rules.st
            && elapsed > st + margin
        {
            return Some((Winner::of(1 - side), "time forfeit"));
        }
        if let Some((left, inc)) = &mut self.clocks {
            if elapsed > left[side] + margin {
                return Some((Winner::of(1 - side), "time forfeit"));
            }
            left[side] = left[side].saturating_sub(elapsed) + inc[side];
            // A repeating control: the side's next period starts with its base time again.
            if let Some((moves, base)) = self.periods[side]
                && stats.moves.is_multiple_of(moves)
            {
                left[side] += base;
            }
        }
        let plies = self.moves.len() as u32 + 1;
        self.adjudged = match self.adjudicator.after_move(side, reply.score, plies) {
            Some(super::adjudicate::Verdict::Draw) => Some((Winner::Draw, "draw adjudication")),
            Some(super::adjudicate::Verdict::Win(w)) => {
                Some((Winner::of(w), "resign adjudication"))
            }
            None => None,
        };
        if let Some(a) = self.rules.adjudicate {
            let white_view = reply.score.map(|s| if side == 0 { s } else { -s });
            self.streak = next_streak(self.streak, white_view, a);
        }
        self.moves.push(reply.mv.to_string());
        self.pos.play(reply.mv);
        self.record_position();
        None
    }

    fn forfeit(mut self, side: usize, fault: &Fault) -> GameRecord {
        if fault.kills_engine() {
            self.dead_engine = Some(side);
        }
        self.detail = Some(fault.detail());
        self.finish((Winner::of(1 - side), fault.reason()))
    }

    fn finish(mut self, (winner, reason): End) -> GameRecord {
        // A move that lost on time was annotated but not played.
        self.annotations.truncate(self.moves.len());
        GameRecord {
            winner,
            reason: reason.to_owned(),
            moves: self.moves,
            sides: self.sides,
            dead_engine: self.dead_engine,
            detail: self.detail,
            annotations: self.annotations,
        }
    }
}

/// The run of plies whose scores (for the first player) are all at least `a.score` in
/// absolute value (the bound included, as cutechess-cli's `-resign score`) on the same
/// side, after one more score (`None`: a player that reports none, which ends the run).
fn next_streak(
    (sign, count): (i32, u32),
    white_view: Option<Score>,
    a: Adjudication,
) -> (i32, u32) {
    match white_view {
        Some(s) if s.unsigned_abs() >= a.score.unsigned_abs() => {
            let now = s.signum();
            if now == sign {
                (sign, count + 1)
            } else {
                (now, 1)
            }
        }
        _ => (0, 0),
    }
}

/// The name of a rule ending: chess's by what the board shows, the others' by the game.
#[must_use]
pub fn rule_reason<G: Game>(pos: &G, outcome: Outcome) -> &'static str {
    if let Some(chess) = (pos as &dyn Any).downcast_ref::<Chess>() {
        return chess.end_reason().unwrap_or("rules");
    }
    match (G::NAME, outcome) {
        ("connect4", Outcome::Loss) => "four in a row",
        ("tictactoe", Outcome::Loss) => "three in a row",
        ("checkers", Outcome::Loss) => "no legal move",
        ("checkers", Outcome::Draw) => "no capture or man move in 80 plies",
        ("othello", _) => "neither side can move",
        ("backgammon", Outcome::Points(p)) => {
            let points = p.unsigned_abs() / crate::games::backgammon::POINT.unsigned_abs();
            reason_of_points(points)
        }
        (_, Outcome::Draw) => "board full",
        _ => "rules",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::spec::{DrawAdjudication, ResignAdjudication, TimeControl};

    #[test]
    fn streaks_count_agreeing_decisive_plies() {
        let a = Adjudication {
            score: 500,
            plies: 3,
        };
        let mut s = (0, 0);
        for v in [600, -700, 800, 900, 550] {
            s = next_streak(s, Some(v), a);
        }
        assert_eq!(s, (1, 3));
        assert_eq!(next_streak(s, Some(100), a), (0, 0));
        assert_eq!(next_streak(s, None, a), (0, 0));
    }

    /// Plays `moves` from `start`, the game going on before each; returns the game.
    fn played<'a>(start: Chess, moves: &[&str], rules: &'a Rules) -> GameState<'a, Chess> {
        let player = Player {
            name: "p".into(),
            kind: PlayerKind::Engine(super::super::engine::EngineSpec::default()),
            limits: Limits::default(),
            tc: None,
            engine_entry: None,
        };
        let mut game = GameState::new(start, [&player, &player], rules);
        for (ply, text) in moves.iter().enumerate() {
            assert_eq!(game.ending(), None, "ply {ply}");
            let mv = game.pos.parse_move(text).expect("legal");
            let reply = Reply {
                mv,
                score: None,
                depth: None,
                nodes: 0,
                thought: None,
            };
            assert_eq!(game.apply(game.side(), reply, Duration::ZERO), None);
        }
        game
    }

    #[test]
    fn the_third_occurrence_of_a_position_is_a_draw_by_repetition() {
        let rules = Rules::default();
        let knights = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let game = played(Chess::startpos(), &knights.repeat(2), &rules);
        assert_eq!(game.ending(), Some((Winner::Draw, "threefold repetition")));
    }

    /// After 1. e4 no black pawn can take en passant, so the position after it is the one
    /// the knights' shuffles come back to (FIDE Laws 9.2.3): its third occurrence draws,
    /// though cozy-chess's hash keeps the en-passant file (arena_nullmove's game 94 played
    /// 66 plies past such a draw).
    #[test]
    fn a_double_step_that_allows_no_capture_repeats_as_the_same_position() {
        let rules = Rules::default();
        let mut moves = vec!["e2e4"];
        moves.extend(["g8f6", "g1f3", "f6g8", "f3g1"].repeat(2));
        let game = played(Chess::startpos(), &moves, &rules);
        assert_eq!(game.ending(), Some((Winner::Draw, "threefold repetition")));
        // Where a pawn could take en passant, the first position differs from the others.
        let start =
            <Chess as crate::game::Notation>::parse_position("4k3/8/8/8/3p4/8/4P3/4K2N w - - 0 1")
                .expect("FEN");
        let mut moves = vec!["e2e4"];
        moves.extend(["e8d8", "h1g3", "d8e8", "g3h1"].repeat(2));
        let game = played(start, &moves, &rules);
        assert_eq!(game.ending(), None);
    }

    #[test]
    fn engine_mates_are_decisive_scores() {
        assert_eq!(engine_score(EngineScore::Mate(1)), score::win_in(1));
        assert_eq!(engine_score(EngineScore::Mate(-2)), score::loss_in(4));
        assert_eq!(engine_score(EngineScore::Cp(35)), 35);
    }

    /// Milliseconds.
    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// An engine player on the clock `tc` (none: on its limits alone).
    fn player(tc: Option<TimeControl>) -> Player {
        Player {
            name: "p".into(),
            kind: PlayerKind::Engine(super::super::engine::EngineSpec::default()),
            limits: Limits::default(),
            tc,
            engine_entry: None,
        }
    }

    /// Twelve legal plies from the start that repeat no position: 1. Nf3 Nf6 2. Nc3 Nc6
    /// 3. e4 e5 4. d4 d6 5. Bc4 Bg4 6. O-O Be7.
    const LINE: [&str; 12] = [
        "g1f3", "g8f6", "b1c3", "b8c6", "e2e4", "e7e5", "d2d4", "d7d6", "f1c4", "c8g4", "e1g1",
        "f8e7",
    ];

    /// Plays the next move of [`LINE`] for the side to move, reporting `score` (for the
    /// mover), `depth` and `nodes`, in `elapsed`; returns [`GameState::apply`]'s answer.
    fn step(
        game: &mut GameState<'_, Chess>,
        score: Option<Score>,
        depth: Option<u32>,
        nodes: u64,
        elapsed: Duration,
    ) -> Option<End> {
        let text = LINE[game.moves.len()];
        let mv = game.pos.parse_move(text).expect("legal");
        let reply = Reply {
            mv,
            score,
            depth,
            nodes,
            thought: None,
        };
        game.apply(game.side(), reply, elapsed)
    }

    /// A repeating control (2 moves in 1 s, plus 0.1 s a move) kept by hand: each move
    /// takes its time off the mover's clock (down to zero within the margin) and adds the
    /// increment, every second move of a side starts its next period with the base time
    /// again (the module doc, cutechess-cli's `2/1+0.1`), and before each move the mover
    /// sees both clocks and the moves left in its period, counted here move by move.
    #[test]
    fn clocks_charge_each_move_and_restart_each_period() {
        let tc = TimeControl {
            base: ms(1000),
            increment: ms(100),
            moves: Some(2),
        };
        let p = player(Some(tc));
        let rules = Rules {
            time_margin: ms(25),
            ..Rules::default()
        };
        let mut game = GameState::new(Chess::startpos(), [&p, &p], &rules);
        // Plies 4, 8, 10 and 11 take more than the mover has left, within the margin.
        let spent = [300, 450, 700, 80, 1210, 1000, 5, 700, 1200, 30, 110, 1260];
        let mut left = [ms(1000); 2];
        let mut in_period = [0u32; 2];
        for (ply, t) in spent.into_iter().enumerate() {
            let side = ply % 2;
            let view = game.view(side);
            assert_eq!(
                view.clocks,
                Some((left, [ms(100); 2])),
                "clocks before ply {ply}"
            );
            let to_go = view.period.map(|p| p.to_go);
            assert_eq!(
                to_go,
                Some(2 - in_period[side]),
                "moves to go before ply {ply}"
            );
            assert_eq!(
                step(&mut game, None, None, 0, ms(t)),
                None,
                "ply {ply} stands"
            );
            left[side] = left[side].saturating_sub(ms(t)) + ms(100);
            in_period[side] += 1;
            if in_period[side] == 2 {
                in_period[side] = 0;
                left[side] += ms(1000);
            }
        }
        assert_eq!(game.clocks, Some((left, [ms(100); 2])), "clocks at the end");
    }

    /// A move that takes the time left plus the margin exactly stands; one nanosecond more
    /// loses on time (the module doc: "beyond the match's time margin"), for either side,
    /// and is not played; the same for the fixed time per move (`st`) of players without a
    /// clock.
    #[test]
    fn a_move_beyond_the_clock_or_st_and_the_margin_loses_on_time() {
        let margin = ms(25);
        let on_clock = player(Some(TimeControl {
            base: ms(1000),
            increment: Duration::ZERO,
            moves: None,
        }));
        let clock_rules = Rules {
            time_margin: margin,
            ..Rules::default()
        };
        let free = player(None);
        let st_rules = Rules {
            time_margin: margin,
            st: Some(ms(200)),
            ..Rules::default()
        };
        let cases = [
            (&on_clock, &clock_rules, ms(1000)),
            (&free, &st_rules, ms(200)),
        ];
        for (p, rules, allowed) in cases {
            for side in 0..2 {
                let winner = [Winner::Second, Winner::First][side];
                for (extra, end) in [
                    (Duration::ZERO, None),
                    (Duration::from_nanos(1), Some((winner, "time forfeit"))),
                ] {
                    let mut game = GameState::new(Chess::startpos(), [p, p], rules);
                    if side == 1 {
                        assert_eq!(step(&mut game, None, None, 0, Duration::ZERO), None);
                    }
                    let took = allowed + margin + extra;
                    let got = step(&mut game, None, None, 0, took);
                    assert_eq!(got, end, "side {side} moving in {took:?} of {allowed:?}");
                    let played = side + usize::from(end.is_none());
                    assert_eq!(game.moves.len(), played, "moves kept after {took:?}");
                }
            }
        }
    }

    /// `adjudicate = { score = 500, plies = 2 }` gives the game to the side that two
    /// consecutive plies' scores favour, each score read from its mover's side (module
    /// doc; the bound itself counts, as cutechess-cli's `-resign score`), and never after
    /// one ply, nor while the two plies favour different sides.
    #[test]
    fn adjudication_gives_the_game_to_the_side_the_scores_favour() {
        let p = player(None);
        let rules = Rules {
            adjudicate: Some(Adjudication {
                score: 500,
                plies: 2,
            }),
            ..Rules::default()
        };
        // White's score and Black's, each for the mover, and the end after both.
        let cases = [
            ((600, -500), Some((Winner::First, "adjudication"))),
            ((-500, 900), Some((Winner::Second, "adjudication"))),
            ((-700, -800), None),
            ((800, 600), None),
            ((600, -499), None),
        ];
        for ((white, black), end) in cases {
            let mut game = GameState::new(Chess::startpos(), [&p, &p], &rules);
            assert_eq!(step(&mut game, Some(white), None, 0, Duration::ZERO), None);
            assert_eq!(game.ending(), None, "one ply scored {white}");
            assert_eq!(step(&mut game, Some(black), None, 0, Duration::ZERO), None);
            assert_eq!(game.ending(), end, "plies scored {white} then {black}");
        }
    }

    /// Draw adjudication counts the plies played since the opening: with `movenumber = 2`
    /// (two full moves, four plies), `movecount = 1` and every score 0, the game goes on
    /// after three plies and is drawn after the fourth (arena::adjudicate's doc). Resign
    /// adjudication with `movecount = 1` gives the game to the opponent of the first side
    /// to report -500 or worse.
    #[test]
    fn draw_and_resign_adjudication_end_the_game_after_the_right_ply() {
        let p = player(None);
        let rules = Rules {
            draw: Some(DrawAdjudication {
                movenumber: 2,
                movecount: 1,
                score: 10,
            }),
            ..Rules::default()
        };
        let mut game = GameState::new(Chess::startpos(), [&p, &p], &rules);
        for ply in 0..4 {
            assert_eq!(game.ending(), None, "before ply {ply}");
            assert_eq!(step(&mut game, Some(0), None, 0, Duration::ZERO), None);
        }
        assert_eq!(game.ending(), Some((Winner::Draw, "draw adjudication")));
        let rules = Rules {
            resign: Some(ResignAdjudication {
                movecount: 1,
                score: 500,
                twosided: false,
            }),
            ..Rules::default()
        };
        for (loser, winner) in [(0, Winner::Second), (1, Winner::First)] {
            let mut game = GameState::new(Chess::startpos(), [&p, &p], &rules);
            for ply in 0..=loser {
                let score = if ply == loser { -500 } else { -499 };
                assert_eq!(game.ending(), None, "before ply {ply}");
                assert_eq!(step(&mut game, Some(score), None, 0, Duration::ZERO), None);
            }
            let end = Some((winner, "resign adjudication"));
            assert_eq!(game.ending(), end, "side {loser} reported -500");
        }
    }

    /// Each side's figures add up its own moves' reports (SideStats' fields): moves,
    /// nodes, seconds, and the depth of the moves that reported one, summed here per side
    /// over a scripted game.
    #[test]
    fn each_side_adds_up_its_own_moves() {
        let p = player(None);
        let rules = Rules::default();
        let mut game = GameState::new(Chess::startpos(), [&p, &p], &rules);
        // (nodes, depth, milliseconds) per ply.
        let plies = [
            (120, Some(3), 15),
            (7, None, 2),
            (900, Some(5), 40),
            (33, Some(2), 9),
            (0, None, 0),
            (451, Some(4), 25),
            (10, Some(1), 1),
        ];
        let mut want = [SideStats::default(); 2];
        for (ply, (nodes, depth, t)) in plies.into_iter().enumerate() {
            assert_eq!(step(&mut game, None, depth, nodes, ms(t)), None);
            let w = &mut want[ply % 2];
            w.moves += 1;
            w.nodes += nodes;
            w.time_s += t as f64 / 1000.0;
            if let Some(d) = depth {
                w.depth_sum += u64::from(d);
                w.depth_moves += 1;
            }
        }
        for (side, (got, want)) in game.sides.into_iter().zip(want).enumerate() {
            assert!(
                (got.time_s - want.time_s).abs() < 1e-9,
                "{side}: {got:?} {want:?}"
            );
            let got = SideStats { time_s: 0.0, ..got };
            let want = SideStats {
                time_s: 0.0,
                ..want
            };
            assert_eq!(got, want, "side {side}'s figures");
        }
    }

    /// A game over on points goes to the side they favour: positive for the side to move
    /// is its win, negative the opponent's, zero a draw; a win or a loss likewise for the
    /// side to move ([`Outcome`]: "seen by the side to move").
    #[test]
    fn rule_outcomes_go_to_the_side_they_favour() {
        let win = [Winner::First, Winner::Second];
        for mover in 0..2 {
            let other = 1 - mover;
            assert_eq!(Winner::by_rule(Outcome::Win, mover), win[mover]);
            assert_eq!(Winner::by_rule(Outcome::Loss, mover), win[other]);
            assert_eq!(Winner::by_rule(Outcome::Draw, mover), Winner::Draw);
            for p in [1, 2, 3, 576] {
                let by_rule = |p| Winner::by_rule(Outcome::Points(p), mover);
                assert_eq!(by_rule(p), win[mover], "{p} points for mover {mover}");
                assert_eq!(by_rule(-p), win[other], "-{p} points for mover {mover}");
            }
            let zero = Winner::by_rule(Outcome::Points(0), mover);
            assert_eq!(zero, Winner::Draw, "no points for mover {mover}");
        }
    }

    /// An engine's centipawns are never read as a forced result, however large: they stay
    /// strictly inside ±DECISIVE, where every evaluation lies (game::score), and are kept
    /// as they are inside it. A mate in N moves is a win in 2N - 1 plies, a mated in N a
    /// loss in 2N (UCI counts moves); one too far for any search is still decisive.
    #[test]
    fn engine_scores_keep_centipawns_apart_from_mates() {
        for cp in [
            i32::MIN,
            -score::DECISIVE - 7,
            -score::DECISIVE,
            score::DECISIVE,
            i32::MAX,
        ] {
            let s = engine_score(EngineScore::Cp(cp));
            assert!(s.abs() < score::DECISIVE, "{cp} cp read as {s}");
            assert_eq!(s.signum(), cp.signum(), "{cp} cp read as {s}");
        }
        for cp in [-score::DECISIVE + 1, -35, 0, 35, score::DECISIVE - 1] {
            assert_eq!(engine_score(EngineScore::Cp(cp)), cp, "{cp} cp");
        }
        for n in 1..=40 {
            assert_eq!(engine_score(EngineScore::Mate(n)), score::win_in(2 * n - 1));
            assert_eq!(engine_score(EngineScore::Mate(-n)), score::loss_in(2 * n));
        }
        for n in [score::MAX_PLY, i32::MAX] {
            let (win, loss) = (EngineScore::Mate(n), EngineScore::Mate(-n));
            let (won, lost) = (engine_score(win), engine_score(loss));
            assert!(
                score::is_decisive(won) && won > 0,
                "mate in {n} read as {won}"
            );
            assert!(
                score::is_decisive(lost) && lost < 0,
                "mated in {n} read as {lost}"
            );
        }
    }

    /// cutechess-cli's notation in PGN comments (the doc of `score_text`): `+M5` when the
    /// mover mates in five moves (nine plies), `-M5` when it is mated in five (ten
    /// plies), pawns with a sign and two decimals otherwise.
    #[test]
    fn scores_are_written_as_cutechess_writes_them() {
        assert_eq!(score_text(score::win_in(9)), "+M5");
        assert_eq!(score_text(score::win_in(1)), "+M1");
        assert_eq!(score_text(score::loss_in(10)), "-M5");
        assert_eq!(score_text(35), "+0.35");
        assert_eq!(score_text(-120), "-1.20");
    }

    /// A ply's annotation as games.csv keeps it (the doc of `annotation`): `book` for a
    /// book move whatever it reported, else score (cutechess-cli's notation), depth and
    /// seconds to the millisecond, separated by `/`, a field left empty when not reported.
    #[test]
    fn annotations_hold_score_depth_and_seconds() {
        let t = Duration::from_micros(1_500_400);
        assert_eq!(annotation(true, Some(35), Some(7), t), "book");
        assert_eq!(annotation(false, Some(35), Some(7), t), "+0.35/7/1.500");
        assert_eq!(annotation(false, Some(-120), None, ms(250)), "-1.20//0.250");
        assert_eq!(annotation(false, None, Some(12), ms(3)), "/12/0.003");
        assert_eq!(
            annotation(false, Some(score::win_in(3)), Some(9), ms(40)),
            "+M2/9/0.040"
        );
    }
}

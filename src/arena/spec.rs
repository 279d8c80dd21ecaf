//! Arena files: an experiment file with a `[match]` table. The same top-level keys as an
//! experiment (`name`, `description`, `notes`, `seed`, `[limits]`, `[[searchers]]` with every
//! key and sweep; each variant is a player, its limits are per move), plus `[match]`: the
//! game, the format, games per pairing, openings, endings, concurrency, time control and an
//! optional SPRT. Everything is checked before a game is played; errors are located
//! [`SpecError`]s (file:line:column, key). EXPERIMENTS.md documents every key.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::engine::EngineSpec;
use crate::game::{Game, Status};
use crate::games::checkers::{Checkers, notation::to_fen};
use crate::games::chess::Chess;
use crate::games::connect4::Connect4;
use crate::games::othello::Othello;
use crate::games::tictactoe::TicTacToe;
use crate::lab::elo::{MAX_SPRT_ELO, Sprt};
use crate::lab::spec::{
    GameKind, GamePosition, LimitsSpec, SearcherSpec, SearcherVariant, Source, SpecError,
    check_eval, check_labels, check_limits, check_name, database_mismatch, document,
    limit_variants, read_file, required_algorithm, variants_of,
};
use crate::rng::{XorShift, mix};
use crate::search::Limits;

/// An arena file, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaFile {
    /// Names the output directory, `runs/<name>/` unless `--out` says otherwise.
    pub name: Spanned<String>,
    /// One line saying what the match asks.
    #[serde(default)]
    pub description: String,
    /// Markdown copied into summary.md.
    #[serde(default)]
    pub notes: String,
    /// Seed of every random choice (openings, games). Default 0.
    #[serde(default)]
    pub seed: u64,
    /// Per-move limits of every player, overridden per searcher.
    #[serde(default)]
    pub limits: LimitsSpec,
    /// The players: labelled search configurations or external engines.
    pub searchers: Spanned<Vec<SearcherSpec>>,
    /// The match settings.
    #[serde(rename = "match")]
    pub settings: Spanned<MatchSpec>,
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// The first player against each of the others.
    Gauntlet,
    /// Every player against every other.
    #[default]
    RoundRobin,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Gauntlet => "gauntlet",
            Self::RoundRobin => "round robin",
        })
    }
}

/// The order in which a book's openings are used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningOrder {
    /// From the first line on.
    #[default]
    Sequential,
    /// A seeded shuffle of the whole book.
    Random,
}

/// The `[match]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSpec {
    /// `tictactoe`, `connect4`, `chess`, `checkers`, `othello` or `backgammon`.
    pub game: Spanned<GameKind>,
    /// `gauntlet` or `round_robin` (default).
    #[serde(default)]
    pub format: Format,
    /// Games per pairing.
    pub games: Spanned<u32>,
    /// Play each opening twice, colours swapped (default true).
    pub pairs: Option<bool>,
    /// Where the games start.
    pub openings: Option<Spanned<OpeningsSpec>>,
    /// A game still going after this many plies is a draw.
    pub max_plies: Option<Spanned<u32>>,
    /// Adjudicate a win when the searches agree on a decisive score.
    pub adjudicate: Option<Spanned<AdjudicateSpec>>,
    /// Games played at once (default: the number of cores).
    pub concurrency: Option<Spanned<usize>>,
    /// Time control of every player, `"seconds+increment"`, `"m:ss+increment"` or
    /// `"moves/time+increment"` (a repeating control, as cutechess-cli's `tc`).
    pub tc: Option<Spanned<String>>,
    /// A fixed time per move in seconds for every player (cutechess-cli's `st`): a move
    /// over it (beyond `timemargin`) loses on time.
    pub st: Option<Spanned<f64>>,
    /// Milliseconds a player may exceed its clock (or `st`) before it loses on time, the
    /// same for every player (cutechess-cli's `timemargin`; default 25).
    pub timemargin: Option<Spanned<u64>>,
    /// Draw adjudication with cutechess-cli's parameters (`-draw`).
    pub draw_adjudication: Option<Spanned<DrawAdjudicationSpec>>,
    /// Resign adjudication with cutechess-cli's parameters (`-resign`).
    pub resign_adjudication: Option<Spanned<ResignAdjudicationSpec>>,
    /// Write each game's engine traffic and stderr to `logs/` (default false; a game in
    /// which an engine crashed or hung is logged anyway).
    pub engine_log: Option<bool>,
    /// Extra milliseconds an external engine may take beyond its move's time before it is
    /// declared hung (default 5000).
    pub engine_timeout_ms: Option<Spanned<u64>>,
    /// Stop a pairing early by a sequential probability ratio test.
    pub sprt: Option<Spanned<SprtSpec>>,
}

/// `openings = { file = "...", order = "..." }`, `{ random_plies = N }` or
/// `{ positions = [...] }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsSpec {
    /// A book: EPD for chess, a position a line for the other games.
    pub file: Option<Spanned<String>>,
    /// The book's order: `sequential` (default) or `random`.
    pub order: Option<Spanned<OpeningOrder>>,
    /// Openings of N seeded random legal plies from the start.
    pub random_plies: Option<Spanned<u32>>,
    /// For a PGN book, the most plies of each game kept (default all); for a Polyglot
    /// `.bin` book, the plies walked from the start (default 8).
    pub plies: Option<Spanned<u32>>,
    /// An explicit list of positions.
    pub positions: Option<Spanned<Vec<Spanned<String>>>>,
}

/// `adjudicate = { score = S, plies = N }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjudicateSpec {
    /// The score (evaluator units) beyond which a position counts as won.
    pub score: Spanned<i32>,
    /// Consecutive plies whose searches must all report it.
    pub plies: Spanned<u32>,
}

/// `draw_adjudication = { movenumber = N, movecount = C, score = S }`: a draw once at
/// least N full moves are played and the last 2C moves all reported scores within S
/// centipawns of zero (cutechess-cli's `-draw`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawAdjudicationSpec {
    /// Full moves played before a draw can be adjudicated (at least 1).
    pub movenumber: Spanned<u32>,
    /// Consecutive moves of each side within the score.
    pub movecount: Spanned<u32>,
    /// The largest absolute score (centipawns) that counts as drawn.
    pub score: Spanned<i32>,
}

/// `resign_adjudication = { movecount = C, score = S, twosided = B }`: a loss for the side
/// whose last C moves all reported scores of at least S centipawns below zero; with
/// `twosided` the opponent's last C moves must also have reported at least S above zero
/// (cutechess-cli's `-resign`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignAdjudicationSpec {
    /// Consecutive moves of the losing side.
    pub movecount: Spanned<u32>,
    /// The threshold (centipawns, positive).
    pub score: Spanned<i32>,
    /// Both sides must agree (default false).
    #[serde(default)]
    pub twosided: bool,
}

/// `[match.sprt]`: H0 elo = `elo0` against H1 elo = `elo1`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtSpec {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate (default 0.05).
    #[serde(default = "five_percent")]
    pub alpha: f64,
    /// False-negative rate (default 0.05).
    #[serde(default = "five_percent")]
    pub beta: f64,
}

fn five_percent() -> f64 {
    0.05
}

/// A clock: `base` for the game (or for each period of `moves` moves), plus `increment`
/// after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time at the start of the game, and added again at the start of each new period.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves per period (cutechess-cli's `40/60`): after each `moves` moves of a side, its
    /// clock gets `base` again; `None` for one period (the whole game).
    pub moves: Option<u32>,
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // PGN section 9.6.1: `moves/seconds` for a period, `seconds+increment` otherwise;
        // both together as cutechess-cli writes them (`40/60+0.5`).
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if self.moves.is_none() || !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// What a player is.
#[derive(Clone, Debug)]
// A match has a handful of players, built once: boxing the larger variant would buy nothing
// (the search variant grew past clippy's threshold when `eval` learned `linear:<file>`).
#[allow(clippy::large_enum_variant)]
pub enum PlayerKind {
    /// A plylab search configuration.
    Search(SearcherVariant),
    /// An external UCI engine.
    Engine(EngineSpec),
    /// An external program for othello (GTP) or backgammon (gnubg).
    External(super::external::ExternalSpec),
}

impl PlayerKind {
    /// The external program it runs; `None` for a plylab search.
    #[must_use]
    pub fn program(&self) -> Option<&str> {
        match self {
            Self::Search(_) => None,
            Self::Engine(e) => Some(&e.cmd),
            Self::External(e) => Some(e.program()),
        }
    }
}

/// A player of the match.
#[derive(Clone, Debug)]
pub struct Player {
    /// Its name in the output: the label, with swept values in brackets.
    pub name: String,
    /// The search or the engine.
    pub kind: PlayerKind,
    /// Limits per move.
    pub limits: Limits,
    /// Its clock, if it plays under a time control.
    pub tc: Option<TimeControl>,
    /// Where the file gives its `engine` entry (the message left empty), for errors found
    /// after loading, such as a program that is not installed; `None` for a plylab search.
    pub engine_entry: Option<SpecError>,
}

impl Player {
    /// The configuration in one line, for summary.md and `--dry-run`.
    #[must_use]
    pub fn describe(&self) -> String {
        let what = match &self.kind {
            PlayerKind::Search(v) => format!("{} {}", v.algorithm_name(), v.params()),
            PlayerKind::Engine(e) => format!("engine `{}` {}", e.cmd, e.args.join(" ")),
            PlayerKind::External(e) => e.describe(),
        };
        let mut limits = self.limits.assignments();
        if let Some(tc) = self.tc {
            limits.push(format!("tc={tc}"));
        }
        format!("{} ({})", what.trim(), limits.join(" "))
    }

    /// Search threads the player uses (1 for an engine, whose own threads are its options').
    #[must_use]
    pub fn threads(&self) -> usize {
        match &self.kind {
            PlayerKind::Search(v) => v.config.threads,
            PlayerKind::Engine(_) | PlayerKind::External(_) => 1,
        }
    }
}

/// A position a game starts from.
#[derive(Clone, Debug)]
pub struct Opening {
    /// As written (chess: a FEN; connect four and tic-tac-toe: the moves played).
    pub label: String,
    /// The position.
    pub position: GamePosition,
}

/// Adjudication of a win: `plies` consecutive plies whose searches all report a score
/// beyond ±`score` for the same side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// The threshold, in evaluator units.
    pub score: i32,
    /// Consecutive plies.
    pub plies: u32,
}

/// Draw adjudication (cutechess-cli's `-draw`): see [`DrawAdjudicationSpec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    /// Full moves played before it applies.
    pub movenumber: u32,
    /// Consecutive moves of each side (2 × this many plies).
    pub movecount: u32,
    /// The largest absolute score, in centipawns (evaluator units).
    pub score: i32,
}

/// Resign adjudication (cutechess-cli's `-resign`): see [`ResignAdjudicationSpec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignAdjudication {
    /// Consecutive moves of the losing side.
    pub movecount: u32,
    /// The threshold, positive, in centipawns (evaluator units).
    pub score: i32,
    /// The winner's scores must agree.
    pub twosided: bool,
}

/// How games end besides the game's own rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// A draw after this many plies from the opening.
    pub max_plies: Option<u32>,
    /// Adjudication of wins.
    pub adjudicate: Option<Adjudication>,
    /// Extra time an engine gets beyond its move's time before it counts as hung.
    pub engine_timeout: Duration,
    /// How far any player may go past its clock (or `st`) before it loses on time.
    pub time_margin: Duration,
    /// A fixed time per move for every player (`st`), enforced with `time_margin`.
    pub st: Option<Duration>,
    /// Draw adjudication.
    pub draw: Option<DrawAdjudication>,
    /// Resign adjudication.
    pub resign: Option<ResignAdjudication>,
    /// Log every game's engine traffic (not only the games in which an engine died).
    pub engine_log: bool,
}

/// A validated match: everything needed to play it.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    /// The experiment's name.
    pub name: String,
    /// The file it was read from.
    pub file: PathBuf,
    /// The file's text, recorded in run.json.
    pub text: String,
    /// The experiment seed.
    pub seed: u64,
    /// Notes for summary.md.
    pub notes: String,
    /// The description.
    pub description: String,
    /// The game.
    pub game: GameKind,
    /// The players, in file order.
    pub players: Vec<Player>,
    /// Who plays whom.
    pub format: Format,
    /// Pairs of player indices; the first of each is the one whose side standings report.
    pub pairings: Vec<(usize, usize)>,
    /// Games per pairing.
    pub games_per_pairing: u32,
    /// Each opening twice with colours swapped.
    pub pairs: bool,
    /// Openings in the order rounds use them (a round takes the next; they cycle).
    pub openings: Vec<Opening>,
    /// Where the openings come from, for summary.md.
    pub opening_source: String,
    /// Endings besides the game's rules.
    pub rules: Rules,
    /// Games played at once.
    pub concurrency: usize,
    /// The early-stop test, if any.
    pub sprt: Option<Sprt>,
    /// The files its players read, with their fingerprints
    /// ([`crate::lab::spec::input_fingerprints`]).
    pub inputs: std::collections::BTreeMap<String, String>,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSlot {
    /// Index in the whole match (rounds interleave the pairings).
    pub index: usize,
    /// Index into [`MatchPlan::pairings`].
    pub pairing: usize,
    /// Round of the pairing: the game pair (with `pairs`) or the game.
    pub round: u32,
    /// 0 or 1: which game of the pair (the second swaps colours).
    pub leg: u32,
    /// Index into [`MatchPlan::openings`].
    pub opening: usize,
    /// The player who moves first (White).
    pub first: usize,
    /// The other player.
    pub second: usize,
    /// The game's seed, from the experiment seed and the game index.
    pub seed: u64,
}

impl MatchPlan {
    /// Games in a round of one pairing: 2 with pairs, else 1.
    #[must_use]
    pub fn legs(&self) -> u32 {
        if self.pairs { 2 } else { 1 }
    }

    /// Every game, round by round, each round visiting every pairing (so that pairings
    /// progress together and an SPRT can stop one while the others go on).
    #[must_use]
    pub fn schedule(&self) -> Vec<GameSlot> {
        let rounds = self.games_per_pairing / self.legs();
        let mut out = Vec::new();
        for round in 0..rounds {
            for (pairing, &(a, b)) in self.pairings.iter().enumerate() {
                for leg in 0..self.legs() {
                    // Without pairs, colours alternate from one game to the next.
                    let swapped = (leg + if self.pairs { 0 } else { round }) % 2 == 1;
                    let (first, second) = if swapped { (b, a) } else { (a, b) };
                    let index = out.len();
                    out.push(GameSlot {
                        index,
                        pairing,
                        round,
                        leg,
                        opening: round as usize % self.openings.len(),
                        first,
                        second,
                        seed: mix(self.seed ^ mix(index as u64)),
                    });
                }
            }
        }
        out
    }

    /// Refuses a match whose external player names a program that is neither an executable
    /// file (a path) nor one on the `PATH`: its every game would be recorded as a crash.
    /// `plylab experiment` calls it before a match and before `--dry-run`'s plan; [`load`]
    /// does not, so that its checks of everything else do not depend on what this machine
    /// has installed.
    ///
    /// # Errors
    /// The file, the player and the program.
    pub fn check_programs(&self) -> Result<(), String> {
        let missing = self.players.iter().find_map(|p| {
            let program = p.kind.program()?;
            super::process::program_fault(program).map(|fault| (p, program, fault))
        });
        missing.map_or(Ok(()), |(player, program, fault)| {
            let why = format!("player `{}`: program `{program}` {fault}", player.name);
            Err(match &player.engine_entry {
                Some(at) => SpecError {
                    message: why,
                    ..at.clone()
                }
                .to_string(),
                None => format!("{}: {why}", self.file.display()),
            })
        })
    }

    /// A reduced match to check a file end to end: one round per pairing (a game pair), at
    /// most [`crate::lab::spec::QUICK_NODES`] nodes per move. Its figures are not the
    /// match's.
    #[must_use]
    pub fn quick(mut self) -> Self {
        self.games_per_pairing = self.legs();
        for p in &mut self.players {
            let cap = crate::lab::spec::QUICK_NODES;
            p.limits.nodes = Some(p.limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        self
    }
}

/// True if `text` is an arena file: a TOML document with a `match` key at the top.
/// Values are left unconverted, so that a value out of range (an integer above i64,
/// `1e400`) is reported by the arena parser at its key rather than making the file look
/// like an experiment file.
#[must_use]
pub fn is_arena(text: &str) -> bool {
    toml::de::DeTable::parse(text).is_ok_and(|t| t.get_ref().keys().any(|k| k.get_ref() == "match"))
}

/// Reads and validates an arena file.
pub fn load(file: &Path) -> Result<MatchPlan, SpecError> {
    parse(file, &read_file(file)?)
}

/// Validates an arena file given as text; `file` locates errors and relative paths.
pub fn parse(file: &Path, text: &str) -> Result<MatchPlan, SpecError> {
    let src = Source { file, text };
    let doc: ArenaFile = document(&src)?;
    check_name(&src, &doc.name)?;
    check_limits(&src, &doc.limits)?;
    let m = doc.settings.get_ref();
    let game = check_game(&src, m)?;
    let match_tc = m.tc.as_ref().map(|t| time_control(&src, t)).transpose()?;
    let st = super::adjudicate::fixed_move_time(&src, m)?;
    let players = players(&src, &doc, game, match_tc, st)?;
    let pairs = m.pairs.unwrap_or(true);
    check_games(&src, m, pairs)?;
    check_match_size(&src, m, players.len())?;
    let base_dir = file.parent().unwrap_or(Path::new("."));
    let (openings, opening_source) = openings(&src, m, game, base_dir, doc.seed)?;
    check_book_unfinished(&src, m, &openings)?;
    let format = m.format;
    let concurrency = match &m.concurrency {
        Some(c) if !(1..=256).contains(c.get_ref()) => {
            return Err(src.at(c, "concurrency", "must be in 1..=256"));
        }
        Some(c) => *c.get_ref(),
        None => crate::lab::machine::cores(),
    };
    Ok(MatchPlan {
        pairings: pairings(format, players.len()),
        name: doc.name.get_ref().clone(),
        file: file.to_path_buf(),
        text: text.to_owned(),
        seed: doc.seed,
        notes: doc.notes.clone(),
        description: doc.description.clone(),
        game,
        format,
        games_per_pairing: *m.games.get_ref(),
        pairs,
        openings,
        opening_source,
        rules: rules(&src, m)?,
        concurrency,
        sprt: m.sprt.as_ref().map(|s| sprt(&src, s)).transpose()?,
        inputs: crate::lab::spec::input_fingerprints(players.iter().filter_map(
            |p| match &p.kind {
                PlayerKind::Search(v) => Some(v),
                _ => None,
            },
        ))
        .map_err(|e| e.in_file(file))?,
        players,
    })
}

/// The game: one that can be played out (not random trees).
fn check_game(src: &Source, m: &MatchSpec) -> Result<GameKind, SpecError> {
    let game = *m.game.get_ref();
    if matches!(game, GameKind::RandomTree | GameKind::ChanceTree) {
        let why = "a match needs a game to play: tictactoe, connect4, chess, checkers, othello or backgammon";
        return Err(src.at(&m.game, "game", why));
    }
    Ok(game)
}

/// `games` is at least 1, and even with pairs.
fn check_games(src: &Source, m: &MatchSpec, pairs: bool) -> Result<(), SpecError> {
    let games = *m.games.get_ref();
    if games == 0 {
        return Err(src.at(&m.games, "games", "must be at least 1"));
    }
    if pairs && games % 2 == 1 {
        let why = format!(
            "{games} is odd: with pairs = true each opening is played twice (colours swapped)"
        );
        return Err(src.at(&m.games, "games", why));
    }
    Ok(())
}

/// The most games a match may schedule: counted before the schedule (and the
/// `random_plies` openings, one a round) is made, so that a huge `games` or a round robin
/// of thousands of players is refused at once.
pub const MAX_MATCH_GAMES: u64 = 1_000_000;

/// `games` per pairing times the pairings is at most [`MAX_MATCH_GAMES`].
fn check_match_size(src: &Source, m: &MatchSpec, players: usize) -> Result<(), SpecError> {
    let n = players as u64;
    let pairings = match m.format {
        Format::Gauntlet => n.saturating_sub(1),
        Format::RoundRobin => n.saturating_mul(n.saturating_sub(1)) / 2,
    };
    let total = pairings.saturating_mul(u64::from(*m.games.get_ref()));
    if total > MAX_MATCH_GAMES {
        let why = format!(
            "{total} games ({players} players, {pairings} pairings × {} games): more than \
             the {MAX_MATCH_GAMES} a match may schedule",
            m.games.get_ref()
        );
        return Err(src.at(&m.games, "games", why));
    }
    Ok(())
}

/// Who plays whom: player indices.
fn pairings(format: Format, players: usize) -> Vec<(usize, usize)> {
    match format {
        Format::Gauntlet => (1..players).map(|b| (0, b)).collect(),
        Format::RoundRobin => (0..players)
            .flat_map(|a| (a + 1..players).map(move |b| (a, b)))
            .collect(),
    }
}

/// `"S+I"` or `"S"`, seconds (decimals allowed): the base time and increment.
fn time_control(src: &Source, tc: &Spanned<String>) -> Result<TimeControl, SpecError> {
    let text = tc.get_ref().trim();
    // cutechess-cli's repeating control: `moves/time+increment`.
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => (Some(m.trim().parse::<u32>().ok().filter(|&m| m > 0)), rest),
        None => (None, text),
    };
    let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
    // Seconds, or minutes and seconds as cutechess-cli writes them (`1:00`, `2:30.5`).
    let seconds = |s: &str| {
        let (minutes, secs) = s.trim().split_once(':').unwrap_or(("0", s.trim()));
        let minutes = minutes.parse::<u32>().ok()?;
        secs.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0 && *x < 1e6)
            .filter(|x| *x < 60.0 || minutes == 0)
            .map(|x| Duration::from_secs_f64(x + 60.0 * f64::from(minutes)))
    };
    match (seconds(base), seconds(inc), moves) {
        (Some(base), Some(increment), None) if !base.is_zero() => Ok(TimeControl {
            base,
            increment,
            moves: None,
        }),
        (Some(base), Some(increment), Some(Some(moves))) if !base.is_zero() => Ok(TimeControl {
            base,
            increment,
            moves: Some(moves),
        }),
        _ => Err(src.at(
            tc,
            "tc",
            format!(
                "`{text}` is not a time control: [moves/] seconds or minutes:seconds \
                 [+ increment], such as \"10+0.1\", \"1:00+1\" or \"40/60+0.5\""
            ),
        )),
    }
}

/// Every variant of every searcher (and every limits sweep), in file order.
fn players(
    src: &Source,
    doc: &ArenaFile,
    game: GameKind,
    match_tc: Option<TimeControl>,
    st: Option<Duration>,
) -> Result<Vec<Player>, SpecError> {
    let specs = doc.searchers.get_ref();
    check_labels(src, specs)?;
    let mut out = Vec::new();
    for spec in specs {
        let tc = match &spec.tc {
            Some(t) => Some(time_control(src, t)?),
            None => match_tc,
        };
        let kinds = player_kinds(src, spec, game)?;
        let no_game_limits = LimitsSpec::default();
        for kind in kinds {
            for (limits, swept) in limit_variants([&spec.limits, &no_game_limits, &doc.limits]) {
                let limits = super::adjudicate::with_fixed_time(src, spec, &kind, limits, tc, st)?;
                let kind = kind.clone();
                out.push(player(src, spec, game, kind, limits, &swept, tc)?);
            }
        }
    }
    if out.len() < 2 {
        let why = format!(
            "a match needs at least two players; the searchers make {}",
            out.len()
        );
        return Err(src.at(&doc.searchers, "searchers", why));
    }
    Ok(out)
}

/// Why a variant's book cannot play `game`: a Polyglot book is for chess, a search book
/// for the game it was built for.
fn book_mismatch(v: &SearcherVariant, game: GameKind) -> Option<String> {
    use crate::knowledge::book::Book;
    match v.knowledge.book.as_ref().map(|(_, b)| b.as_ref())? {
        Book::Polyglot(_) if game != GameKind::Chess => {
            Some(format!("a Polyglot book is for chess, not {game}"))
        }
        Book::Search(b) if b.game() != game.to_string() => {
            Some(format!("the book was built for {}, not {game}", b.game()))
        }
        _ => None,
    }
}

/// The searcher's variants, or its engine.
fn player_kinds(
    src: &Source,
    spec: &SearcherSpec,
    game: GameKind,
) -> Result<Vec<PlayerKind>, SpecError> {
    let Some(engine) = &spec.engine else {
        // Books: Polyglot for chess, built by search for connect four; databases: chess and
        // checkers.
        let knowledge = [
            ("book", &spec.book, [GameKind::Chess, GameKind::Connect4]),
            (
                "tablebase",
                &spec.tablebase,
                [GameKind::Chess, GameKind::Checkers],
            ),
        ];
        for (key, file, games) in knowledge {
            if let Some(file) = file
                && !games.contains(&game)
            {
                let why = format!("`{key}` is for {} and {}", games[0], games[1]);
                return Err(src.at(file, key, why));
            }
        }
        let algorithm = required_algorithm(src, spec)?;
        let variants = variants_of(src, spec, algorithm)?;
        check_eval(src, spec, game)?;
        if let Some((key, why)) = variants
            .iter()
            .filter(|v| v.mcts.is_none())
            .find_map(|v| game.idle_technique(&v.config))
        {
            let why = format!(
                "searcher `{}` turns it on, and {why}: leave it off for this game",
                spec.label.get_ref()
            );
            return Err(src.at_key_of(&spec.label, key, why));
        }
        if let Some(file) = &spec.book
            && let Some(why) = variants.iter().find_map(|v| book_mismatch(v, game))
        {
            return Err(src.at(file, "book", why));
        }
        let not_probing = |v: &SearcherVariant| {
            v.mcts.is_some() || v.config.algorithm != crate::search::Algorithm::Alphabeta
        };
        if let Some(tb) = &spec.tablebase
            && variants.iter().any(not_probing)
        {
            let why = "endgame databases are consulted by algorithm = \"alphabeta\" only";
            return Err(src.at(tb, "tablebase", why));
        }
        if let Some(tb) = &spec.tablebase
            && let Some(why) = variants.iter().find_map(|v| database_mismatch(v, game))
        {
            return Err(src.at(tb, "tablebase", why));
        }
        super::chance::check_players(src, spec, game, &variants)?;
        return Ok(variants.into_iter().map(PlayerKind::Search).collect());
    };
    if spec.algorithm.is_some() {
        let why = "an engine player has no `algorithm` (its search is the engine's)";
        return Err(src.at(engine, "engine", why));
    }
    if game != GameKind::Chess {
        let external = super::external::ExternalSpec::parse(src, engine, game)?;
        return Ok(vec![PlayerKind::External(external)]);
    }
    let parsed: EngineSpec = engine.get_ref().clone().try_into().map_err(|e| {
        src.at(
            engine,
            "engine",
            format!(
                "bad engine entry: {} (expected {{ cmd = \"...\", args = [...], options = {{ ... }} }})",
                e.to_string().trim()
            ),
        )
    })?;
    if parsed.cmd.trim().is_empty() {
        return Err(src.at(engine, "engine", "`cmd` is empty"));
    }
    Ok(vec![PlayerKind::Engine(parsed)])
}

/// One player, its limits checked against what it is and the game it plays.
fn player(
    src: &Source,
    spec: &SearcherSpec,
    game: GameKind,
    kind: PlayerKind,
    limits: Limits,
    swept: &[String],
    tc: Option<TimeControl>,
) -> Result<Player, SpecError> {
    let at_limits = |why: String| src.at_key_of(&spec.label, "limits", why);
    let label = spec.label.get_ref();
    if tc.is_some() && limits.time.is_some() {
        let why = format!(
            "`{label}` plays under a time control (tc), which gives each move its time: drop time_ms"
        );
        return Err(at_limits(why));
    }
    let timed = tc.is_some() || limits.time.is_some();
    let name = match &kind {
        PlayerKind::Search(v) => {
            if v.mcts.is_some() && !timed && limits.nodes.is_none() {
                return Err(at_limits(format!(
                    "the Monte Carlo player `{label}` needs nodes (playouts), time_ms or tc per move"
                )));
            }
            let mut v = v.clone();
            v.add_swept(swept);
            v.name()
        }
        PlayerKind::Engine(_) | PlayerKind::External(_) if swept.is_empty() => label.clone(),
        PlayerKind::Engine(_) | PlayerKind::External(_) => format!("{label}[{}]", swept.join(" ")),
    };
    let engine_entry = spec.engine.as_ref().map(|e| src.at(e, "engine", ""));
    if let PlayerKind::External(_) = kind {
        // Its strength is its own setting (arguments, plies); a clock or a per-move limit
        // would be silently ignored.
        let l = &spec.limits;
        if tc.is_some() || l.depth.is_some() || l.nodes.is_some() || l.time_ms.is_some() {
            let why = format!(
                "`{label}` is an external program whose strength is its own setting: it takes no limits or tc"
            );
            return Err(at_limits(why));
        }
        return Ok(Player {
            name,
            kind,
            limits: Limits::default(),
            tc: None,
            engine_entry,
        });
    }
    if let PlayerKind::Engine(e) = &kind
        && e.protocol == super::engine::Protocol::Xboard
        && limits.nodes.is_some()
    {
        let why =
            format!("`{label}` speaks xboard, which has no node limit: use depth, time_ms or tc");
        return Err(at_limits(why));
    }
    if let PlayerKind::Engine(e) = &kind
        && e.protocol == super::engine::Protocol::Xboard
        && limits.time.is_some_and(|t| t.subsec_nanos() != 0)
    {
        // Told `st` rounded up, the engine would think longer than the arena allows, and
        // lose every game on time.
        let why = format!(
            "`{label}` speaks xboard, whose `st` counts whole seconds: give its time per move \
             (time_ms, or the match's st) in whole seconds, or play it under tc"
        );
        return Err(at_limits(why));
    }
    if !timed && let Some(why) = unlimited(label, game, &kind, &limits) {
        return Err(at_limits(why));
    }
    Ok(Player {
        name,
        kind,
        limits,
        tc,
        engine_entry,
    })
}

/// Why a player without a clock cannot play under `limits`, if it cannot: it has no
/// limit per move, and it is no alpha-beta-family search (which searches to the end of the
/// game) or the game's length is unbounded, so that its first move would never end (the
/// rule of experiment files, [`GameKind::search_never_ends`]).
fn unlimited(label: &str, game: GameKind, kind: &PlayerKind, limits: &Limits) -> Option<String> {
    let needs = "needs a limit per move: depth, nodes, time_ms or tc";
    let alpha_beta = matches!(kind, PlayerKind::Search(v) if v.mcts.is_none());
    if *limits != Limits::default() {
        None
    } else if !alpha_beta {
        Some(format!("`{label}` {needs}"))
    } else if game.search_never_ends(limits) {
        Some(format!(
            "`{label}` {needs} ({game} has no bound on its length: a search without one never ends)"
        ))
    } else {
        None
    }
}

/// `max_plies`, `adjudicate` and `engine_timeout_ms`.
fn rules(src: &Source, m: &MatchSpec) -> Result<Rules, SpecError> {
    let max_plies = match &m.max_plies {
        Some(p) if *p.get_ref() == 0 => return Err(src.at(p, "max_plies", "must be at least 1")),
        Some(p) => Some(*p.get_ref()),
        None => match m.game.get_ref() {
            GameKind::Chess => Some(DEFAULT_CHESS_MAX_PLIES),
            GameKind::Backgammon => Some(DEFAULT_BACKGAMMON_MAX_PLIES),
            _ => None,
        },
    };
    let adjudicate = match &m.adjudicate {
        None => None,
        Some(a) => Some(adjudication(src, a.get_ref())?),
    };
    if let Some(t) = &m.engine_timeout_ms
        && *t.get_ref() == 0
    {
        return Err(src.at(t, "engine_timeout_ms", "must be at least 1"));
    }
    let (draw, resign) = super::adjudicate::parse(src, m)?;
    Ok(Rules {
        max_plies,
        adjudicate,
        engine_timeout: Duration::from_millis(
            m.engine_timeout_ms.as_ref().map_or(5000, |t| *t.get_ref()),
        ),
        time_margin: m.timemargin.as_ref().map_or(super::play::TIME_MARGIN, |t| {
            Duration::from_millis(*t.get_ref())
        }),
        st: super::adjudicate::fixed_move_time(src, m)?,
        draw,
        resign,
        engine_log: m.engine_log.unwrap_or(false),
    })
}

/// A chess game still going after this many plies is drawn, unless the file says otherwise.
pub const DEFAULT_CHESS_MAX_PLIES: u32 = 400;

/// The same for backgammon, whose games have no bound either: two weak players can hit each
/// other for hundreds of thousands of plies (a roll and a play are a ply each, about 220
/// in a game between good players).
pub const DEFAULT_BACKGAMMON_MAX_PLIES: u32 = 2000;

fn adjudication(src: &Source, a: &AdjudicateSpec) -> Result<Adjudication, SpecError> {
    if *a.score.get_ref() <= 0 {
        return Err(src.at(&a.score, "score", "must be a positive score"));
    }
    if *a.plies.get_ref() == 0 {
        return Err(src.at(&a.plies, "plies", "must be at least 1"));
    }
    Ok(Adjudication {
        score: *a.score.get_ref(),
        plies: *a.plies.get_ref(),
    })
}

fn sprt(src: &Source, s: &Spanned<SprtSpec>) -> Result<Sprt, SpecError> {
    let v = s.get_ref();
    Sprt::new(v.elo0, v.elo1, v.alpha, v.beta).ok_or_else(|| {
        src.at(
            s,
            "sprt",
            format!(
                "elo0 = {}, elo1 = {}, alpha = {}, beta = {}: needs elo0 < elo1, both from -{MAX_SPRT_ELO} to {MAX_SPRT_ELO} normalized Elo, 0 < alpha, beta < 1 and alpha + beta < 1",
                v.elo0, v.elo1, v.alpha, v.beta
            ),
        )
    })
}

/// The openings, in the order rounds use them, and where they come from.
fn openings(
    src: &Source,
    m: &MatchSpec,
    game: GameKind,
    base_dir: &Path,
    seed: u64,
) -> Result<(Vec<Opening>, String), SpecError> {
    let start = || Opening {
        label: "start".into(),
        position: GamePosition::parse(game, "start").expect("every game has a start position"),
    };
    let Some(spec) = &m.openings else {
        return Ok((vec![start()], "the start position".into()));
    };
    let o = spec.get_ref();
    let given = [
        o.file.is_some(),
        o.random_plies.is_some(),
        o.positions.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() != 1 {
        let why = "give exactly one of file, random_plies or positions";
        return Err(src.at(spec, "openings", why));
    }
    if let (Some(order), None) = (&o.order, &o.file) {
        return Err(src.at(order, "order", "`order` is for a `file` of openings"));
    }
    if let (Some(plies), None) = (&o.plies, &o.file) {
        let why = "`plies` is for a `file` of openings (a PGN or Polyglot book)";
        return Err(src.at(plies, "plies", why));
    }
    if let Some(file) = &o.file {
        let rounds = (*m.games.get_ref()).max(1) as usize;
        if let Some(found) =
            super::books::openings(src, file, o.plies.as_ref(), game, base_dir, seed, rounds)?
        {
            let (mut list, source) = found;
            if o.order
                .as_ref()
                .is_some_and(|o| *o.get_ref() == OpeningOrder::Random)
            {
                shuffle(&mut list, mix(seed ^ 0x0BE2_11A6));
            }
            return Ok((list, source));
        }
        if let Some(plies) = &o.plies {
            let why = "`plies` is for a PGN (.pgn) or Polyglot (.bin) book";
            return Err(src.at(plies, "plies", why));
        }
        return book(src, file, o.order.as_ref(), game, base_dir, seed);
    }
    if let Some(list) = &o.positions {
        return listed(src, list, game);
    }
    let plies = o.random_plies.as_ref().expect("one of the three is given");
    let rounds = (*m.games.get_ref()).max(1) as usize;
    let list = (0..rounds)
        .map(|r| random_opening(game, *plies.get_ref(), mix(seed ^ mix(r as u64 ^ 0xB00C))))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            src.at(
                plies,
                "random_plies",
                "no such opening: the game ends before that many plies",
            )
        })?;
    Ok((
        list,
        format!("{} seeded random plies from the start", plies.get_ref()),
    ))
}

/// A book file (EPD for chess), in file order or a seeded shuffle.
fn book(
    src: &Source,
    file: &Spanned<String>,
    order: Option<&Spanned<OpeningOrder>>,
    game: GameKind,
    base_dir: &Path,
    seed: u64,
) -> Result<(Vec<Opening>, String), SpecError> {
    let path = base_dir.join(file.get_ref());
    let entries = crate::lab::test_set::read(game, &path, None)
        .map_err(|e| src.at(file, "file", e.to_string()))?;
    let mut list: Vec<Opening> = entries
        .into_iter()
        .map(|e| Opening {
            label: e.label,
            position: e.position,
        })
        .collect();
    let order = order.map_or(OpeningOrder::Sequential, |o| *o.get_ref());
    if order == OpeningOrder::Random {
        shuffle(&mut list, mix(seed ^ 0x0BE2_11A6));
    }
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let order = match order {
        OpeningOrder::Sequential => "in file order",
        OpeningOrder::Random => "in seeded random order",
    };
    let source = format!("{name} ({} openings, {order})", list.len());
    Ok((list, source))
}

/// No opening from a `file` is a finished game: its games would be scored without a move
/// played. (Listed positions are checked one by one where they are read, random openings
/// are drawn again.)
fn check_book_unfinished(src: &Source, m: &MatchSpec, list: &[Opening]) -> Result<(), SpecError> {
    let file = m.openings.as_ref().and_then(|o| o.get_ref().file.as_ref());
    let (Some(file), Some(done)) = (file, list.iter().find(|o| o.position.is_over())) else {
        return Ok(());
    };
    let why = format!(
        "opening `{}` is a finished game: an opening must leave a move to play",
        done.label
    );
    Err(src.at(file, "file", why))
}

/// Fisher–Yates with a seeded generator.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = XorShift::new(seed);
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// `positions = [...]`, each parsed.
fn listed(
    src: &Source,
    list: &Spanned<Vec<Spanned<String>>>,
    game: GameKind,
) -> Result<(Vec<Opening>, String), SpecError> {
    if list.get_ref().is_empty() {
        return Err(src.at(list, "positions", "the list of positions is empty"));
    }
    let mut out = Vec::new();
    for text in list.get_ref() {
        let t = text.get_ref().trim();
        let position = GamePosition::parse(game, t)
            .map_err(|e| src.at(text, "positions", format!("bad {game} position `{t}`: {e}")))?;
        if position.is_over() {
            let why = format!("`{t}` is a finished game: an opening must leave a move to play");
            return Err(src.at(text, "positions", why));
        }
        if out.iter().any(|o: &Opening| o.label == t) {
            let why = format!(
                "`{t}` is listed twice: the rounds cycle through the openings, so `games` \
                 already plays each more than once"
            );
            return Err(src.at(text, "positions", why));
        }
        out.push(Opening {
            label: t.to_owned(),
            position,
        });
    }
    let n = out.len();
    Ok((out, format!("{n} listed positions")))
}

/// An opening of `plies` uniformly random legal plies from the start, chosen with `seed`;
/// lines that end the game are drawn again (up to 1000 tries). `None` if none was found.
pub fn random_opening(game: GameKind, plies: u32, seed: u64) -> Option<Opening> {
    let mut rng = XorShift::new(seed);
    (0..1000)
        .find_map(|_| match game {
            GameKind::Chess => {
                random_line(&Chess::startpos(), plies, &mut rng).map(|(p, _)| p.to_fen())
            }
            GameKind::Connect4 => {
                random_line(&Connect4::default(), plies, &mut rng).map(|(_, m)| m)
            }
            GameKind::Tictactoe => {
                random_line(&TicTacToe::default(), plies, &mut rng).map(|(_, m)| m)
            }
            GameKind::Checkers => {
                random_line(&Checkers::new(), plies, &mut rng).map(|(p, _)| to_fen(&p))
            }
            GameKind::Othello => {
                random_line(&Othello::new(), plies, &mut rng).map(|(p, _)| p.to_board_string())
            }
            GameKind::RandomTree | GameKind::ChanceTree | GameKind::Backgammon => None,
        })
        .and_then(|label| {
            let label = if label.is_empty() {
                "start".to_owned()
            } else {
                label
            };
            let position = GamePosition::parse(game, &label).ok()?;
            Some(Opening { label, position })
        })
}

/// Plays `plies` random legal moves from `start`; the position reached and the moves
/// written one after the other (the move notation of connect four and tic-tac-toe is their
/// position notation). `None` if the game ended on the way or at the end.
fn random_line<G: Game>(start: &G, plies: u32, rng: &mut XorShift) -> Option<(G, String)> {
    let mut pos = start.clone();
    let mut line = String::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        pos.generate_moves(&mut moves);
        if pos.status() != Status::Ongoing || moves.is_empty() {
            return None;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        line.push_str(&mv.to_string());
        pos.play(mv);
    }
    (pos.status() == Status::Ongoing).then_some((pos, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_seconds_and_increments() {
        let text = "tc = \"10+0.1\"";
        let src = Source {
            file: Path::new("x.toml"),
            text,
        };
        let tc = Spanned::new(6..13, "10+0.1".to_owned());
        let parsed = time_control(&src, &tc).expect("valid");
        assert_eq!(parsed.base, Duration::from_secs(10));
        assert_eq!(parsed.increment, Duration::from_millis(100));
        let bad = Spanned::new(6..13, "ten".to_owned());
        assert!(time_control(&src, &bad).is_err());
        // cutechess-cli's minutes:seconds.
        let mmss = |t: &str| time_control(&src, &Spanned::new(6..13, t.to_owned()));
        let parsed = mmss("1:00+1").expect("valid");
        assert_eq!(
            (parsed.base, parsed.increment),
            (Duration::from_secs(60), Duration::from_secs(1))
        );
        assert_eq!(
            mmss("2:30.5").expect("valid").base,
            Duration::from_millis(150_500)
        );
        for bad in ["1:60", "x:10", "1:-1", "-1:00"] {
            assert!(mmss(bad).is_err(), "{bad}");
        }
        // cutechess-cli's repeating control, and how the PGN tag writes each kind.
        let periodic = mmss("40/1:00+0.5").expect("valid");
        assert_eq!(periodic.moves, Some(40));
        assert_eq!(periodic.base, Duration::from_secs(60));
        assert_eq!(periodic.to_string(), "40/60+0.5");
        assert_eq!(mmss("40/60").expect("valid").to_string(), "40/60");
        assert_eq!(mmss("1:00+1").expect("valid").to_string(), "60+1");
        for bad in ["0/60", "x/60", "40/", "/60", "40/0"] {
            assert!(mmss(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn games_without_a_bound_on_their_length_get_a_default_one() {
        let plan = |game: &str| {
            let text = format!(
                "name = \"m\"\n[match]\ngame = \"{game}\"\ngames = 2\n\n\
                 [[searchers]]\nlabel = \"a\"\nalgorithm = \"uct\"\nlimits = {{ nodes = 9 }}\n\n\
                 [[searchers]]\nlabel = \"b\"\nalgorithm = \"uct\"\nlimits = {{ nodes = 9 }}\n"
            );
            parse(Path::new("m.toml"), &text).expect("a valid match")
        };
        assert_eq!(plan("chess").rules.max_plies, Some(DEFAULT_CHESS_MAX_PLIES));
        assert_eq!(
            plan("backgammon").rules.max_plies,
            Some(DEFAULT_BACKGAMMON_MAX_PLIES)
        );
        assert_eq!(plan("connect4").rules.max_plies, None, "its rules end it");
    }

    #[test]
    fn random_openings_are_seeded_and_playable() {
        let a = random_opening(GameKind::Connect4, 4, 7).expect("an opening");
        let b = random_opening(GameKind::Connect4, 4, 7).expect("an opening");
        assert_eq!(a.label, b.label);
        assert_eq!(a.label.len(), 4);
        let chess = random_opening(GameKind::Chess, 6, 1).expect("an opening");
        assert!(chess.label.contains('/'));
    }

    #[test]
    fn round_robins_pair_everyone_once_and_gauntlets_the_first() {
        assert_eq!(
            pairings(Format::RoundRobin, 3),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(pairings(Format::Gauntlet, 3), vec![(0, 1), (0, 2)]);
    }
}

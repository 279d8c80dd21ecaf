//! `plylab learn`: the weights of a linear evaluation ([`crate::games::linear`]) learned from
//! self-play, by regression on labelled positions ([`texel`]) or by temporal differences
//! ([`td`]: TD(λ) and TDLeaf(λ)). Seed 003 asks to "pick or learn good weights", after
//! Samuel's checkers player and Tesauro's TD-Gammon, which learned from games against a copy
//! of themselves.
//!
//! A learning file (`experiments/learn_chess.toml`) names the game, the method, the seed and
//! the self-play; the run writes `weights/<name>.toml` and, in `results/<name>/`, the
//! learning curve (`curve.csv`, `curve.png`/`.svg`), `summary.md` and `run.json`. Everything
//! random comes from the seed and every parallel sum is added in a fixed order, so the same
//! file gives the same weights byte for byte on any number of threads. A run interrupted
//! leaves `results/<name>/checkpoint/`; the next run of the same file resumes from it
//! (self-play games already played, the epoch or batch reached) and removes it when done.
//! Ctrl-C (with the progress bar shown) lets the running batch of games or the running
//! epoch finish, writes the checkpoint, and ends with exit code 130 and the command that
//! resumes.

pub mod selfplay;
pub mod td;
pub mod texel;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use crate::game::{Evaluator, Game, Notation, Outcome, Score, Status};
use crate::games::backgammon::Backgammon;
use crate::games::checkers::Checkers;
use crate::games::chess::Chess;
use crate::games::connect4::Connect4;
use crate::games::linear::{self, LinearKind, Weights};
use crate::games::othello::Othello;
use crate::interrupt;
use crate::progress::Progress;
use crate::rng::mix;
use crate::search::{Ordering, Quiescence, SearchConfig};
use selfplay::{PlayedGame, SelfPlay, play_game, read_arena_games};
use texel::{Adam, Dataset};

/// A failed learning run: bad input (exit code 2) or a failure while running (exit code 1).
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// The learning file, a weights file or a games file is wrong.
    #[error("{0}")]
    BadInput(String),
    /// Writing results failed.
    #[error("{0}")]
    Failed(String),
    /// Stopped by Ctrl-C or SIGTERM (exit code 130 or 143) after writing the checkpoint.
    #[error("{0}")]
    Interrupted(String),
}

/// A game whose linear evaluation can be learned: the features as the gradient of the
/// evaluation with respect to its weights (the evaluation is linear, so `eval = w · x`),
/// the evaluator built from weights, which positions are quiet enough to label, and the
/// search that plays self-play games.
pub trait LearnGame: Game + Notation {
    /// The evaluator built from weights.
    type Eval: Evaluator<Self> + Send + Sync;
    /// Which weights file the game reads.
    const KIND: LinearKind;
    /// `x` with `evaluate ≈ w · x` for the side to move (exact before integer rounding).
    fn gradient(&self, x: &mut [f64]);
    /// The evaluator with `weights`.
    fn evaluator(weights: &[f64]) -> Self::Eval;
    /// Texel's method labels quiet positions only.
    fn is_quiet(&self) -> bool;
    /// The hand-set evaluation as weights: where learning starts by default.
    fn hand_set() -> &'static [f64];
    /// The search of self-play games and of TDLeaf's principal variations.
    fn search_config() -> SearchConfig;
    /// The start position of self-play games.
    fn start() -> Self;
    /// Self-play games are adjudicated beyond this score, if given.
    fn adjudicate_at() -> Option<Score>;
    /// The learning target of a finished game for the player to move in it, from 0 (lost) to
    /// 1 (won): by default 1, ½ and 0 for a win, a draw and a loss, and for games scored in
    /// points ([`Outcome::Points`], Othello's disc difference) the sign of the points.
    fn outcome_value(outcome: Outcome) -> f64 {
        match outcome {
            Outcome::Win => 1.0,
            Outcome::Loss => 0.0,
            Outcome::Draw => 0.5,
            Outcome::Points(p) => 0.5 + 0.5 * f64::from(p.signum()),
        }
    }
}

/// Move ordering shared by the self-play searches: hints, killers, history.
fn self_play_ordering() -> Ordering {
    Ordering {
        hint: true,
        killers: true,
        history: true,
        ..Ordering::default()
    }
}

/// Self-play alpha-beta with [`self_play_ordering`] and quiescence to 8 plies (the game's
/// noisy moves: chess's captures and promotions, checkers' captures).
fn quiescent_self_play() -> SearchConfig {
    SearchConfig {
        ordering: self_play_ordering(),
        quiescence: Some(Quiescence {
            max_depth: Some(8),
            ..Quiescence::default()
        }),
        ..SearchConfig::default()
    }
}

impl LearnGame for Chess {
    type Eval = linear::chess::ChessLinear;
    const KIND: LinearKind = LinearKind::Chess;

    fn gradient(&self, x: &mut [f64]) {
        linear::chess::gradient(self.board(), x);
    }

    fn evaluator(weights: &[f64]) -> Self::Eval {
        linear::chess::ChessLinear::from_weights(weights)
    }

    fn is_quiet(&self) -> bool {
        linear::chess::is_quiet(self.board())
    }

    fn hand_set() -> &'static [f64] {
        &linear::chess::MATERIAL_WEIGHTS
    }

    /// Alpha-beta with quiescence (8 plies), so that a fixed depth does not blunder pieces
    /// at the horizon.
    fn search_config() -> SearchConfig {
        quiescent_self_play()
    }

    fn start() -> Self {
        Self::startpos()
    }

    fn adjudicate_at() -> Option<Score> {
        Some(1000)
    }
}

impl LearnGame for Connect4 {
    type Eval = linear::connect4::Connect4Linear;
    const KIND: LinearKind = LinearKind::Connect4;

    fn gradient(&self, x: &mut [f64]) {
        linear::connect4::gradient(self, x);
    }

    fn evaluator(weights: &[f64]) -> Self::Eval {
        linear::connect4::Connect4Linear::from_weights(weights)
    }

    fn is_quiet(&self) -> bool {
        linear::connect4::is_quiet(self)
    }

    fn hand_set() -> &'static [f64] {
        &linear::connect4::CENTRE_FIRST_WEIGHTS
    }

    fn search_config() -> SearchConfig {
        SearchConfig {
            ordering: self_play_ordering(),
            ..SearchConfig::default()
        }
    }

    fn start() -> Self {
        Self::new()
    }

    fn adjudicate_at() -> Option<Score> {
        None
    }
}

impl LearnGame for Checkers {
    type Eval = linear::checkers::CheckersLinear;
    const KIND: LinearKind = LinearKind::Checkers;

    fn gradient(&self, x: &mut [f64]) {
        linear::checkers::gradient(self, x);
    }

    fn evaluator(weights: &[f64]) -> Self::Eval {
        linear::checkers::CheckersLinear::from_weights(weights)
    }

    /// No capture pending (captures are compulsory, so a position with one is a
    /// forced exchange under way).
    fn is_quiet(&self) -> bool {
        !self.has_capture()
    }

    fn hand_set() -> &'static [f64] {
        &linear::checkers::HAND_SET_WEIGHTS
    }

    /// Alpha-beta with capture quiescence (8 plies), so that a fixed depth does not stop
    /// in the middle of an exchange.
    fn search_config() -> SearchConfig {
        quiescent_self_play()
    }

    fn start() -> Self {
        Self::new()
    }

    /// Three men ahead for four searched moves in a row.
    fn adjudicate_at() -> Option<Score> {
        Some(300)
    }
}

impl LearnGame for Othello {
    type Eval = linear::othello::OthelloLinear;
    const KIND: LinearKind = LinearKind::Othello;

    fn gradient(&self, x: &mut [f64]) {
        linear::othello::gradient(self, x);
    }

    fn evaluator(weights: &[f64]) -> Self::Eval {
        linear::othello::OthelloLinear::from_weights(weights)
    }

    fn is_quiet(&self) -> bool {
        true
    }

    fn hand_set() -> &'static [f64] {
        &linear::othello::HAND_SET_WEIGHTS
    }

    fn search_config() -> SearchConfig {
        SearchConfig {
            ordering: self_play_ordering(),
            ..SearchConfig::default()
        }
    }

    fn start() -> Self {
        Self::new()
    }

    fn adjudicate_at() -> Option<Score> {
        None
    }
}

/// pubeval's weights as one vector, for [`LearnGame::hand_set`].
static PUBEVAL: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();

impl LearnGame for Backgammon {
    type Eval = linear::backgammon::BackgammonLinear;
    const KIND: LinearKind = LinearKind::Backgammon;

    fn gradient(&self, x: &mut [f64]) {
        linear::backgammon::gradient(self, x);
    }

    fn evaluator(weights: &[f64]) -> Self::Eval {
        linear::backgammon::BackgammonLinear::from_weights(weights)
    }

    fn is_quiet(&self) -> bool {
        true
    }

    /// Tesauro's pubeval.
    fn hand_set() -> &'static [f64] {
        PUBEVAL.get_or_init(|| linear::backgammon::pubeval_weights().to_vec())
    }

    /// Expectiminimax: at depth 1 the move whose resulting position evaluates best, as
    /// pubeval and TD-Gammon choose theirs.
    fn search_config() -> SearchConfig {
        SearchConfig {
            algorithm: crate::search::Algorithm::Expectiminimax,
            ..SearchConfig::default()
        }
    }

    fn start() -> Self {
        Self::default()
    }

    fn adjudicate_at() -> Option<Score> {
        None
    }

    /// The points won or lost mapped onto 0-1: `½ + points / 6` (a single game ⅔, a gammon
    /// ⅚, a backgammon 1), so that the prediction orders positions by expected points, the
    /// arena's measure (Tesauro's TD-Gammon predicted gammons with outputs of their own; one
    /// linear output predicts the expectation).
    fn outcome_value(outcome: Outcome) -> f64 {
        match outcome {
            Outcome::Points(p) => {
                let points = f64::from(p) / f64::from(crate::games::backgammon::POINT);
                (0.5 + points / 6.0).clamp(0.0, 1.0)
            }
            Outcome::Win => 1.0,
            Outcome::Loss => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// The learning method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Regression on labelled quiet positions ([`texel`]).
    Texel,
    /// TD(λ) on the positions of self-play games ([`td`]).
    Td,
    /// TDLeaf(λ): TD(λ) on the leaves of the principal variations ([`td`]).
    Tdleaf,
}

/// `[texel]`: the regression's settings.
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TexelSettings {
    /// Full passes over the positions.
    pub epochs: u32,
    /// Adam's step size, in weight units (centipawns in chess).
    pub learning_rate: f64,
    /// The scale K of the squashing function; absent: fitted to the starting weights.
    pub k: Option<f64>,
    /// Share of the games whose positions are held out to measure the validation loss.
    #[serde(default = "default_validation")]
    pub validation: f64,
    /// A checkpoint every this many epochs.
    #[serde(default = "default_checkpoint_epochs")]
    pub checkpoint_every: u32,
}

const fn default_validation() -> f64 {
    0.1
}

const fn default_checkpoint_epochs() -> u32 {
    25
}

/// `[td]`: the temporal-difference settings (the games are `[self_play]`'s).
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TdSettings {
    /// λ, the decay of the eligibility of earlier positions (0-1).
    pub lambda: f64,
    /// Adam's step size, in weight units.
    pub learning_rate: f64,
    /// The scale K of the squashing function.
    pub k: f64,
    /// Games played (in parallel) with the same weights before one update.
    #[serde(default = "default_batch")]
    pub batch: usize,
    /// Temporal differences between a player's own successive positions instead of all
    /// successive positions ([`td::game_update`]): for one-sided features (backgammon's
    /// pubeval inputs).
    #[serde(default)]
    pub per_player: bool,
}

const fn default_batch() -> usize {
    8
}

/// A learning file.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnSpec {
    /// Names `weights/<name>.toml` and `results/<name>/`.
    pub name: String,
    /// One line on what the run is for.
    #[serde(default)]
    pub description: String,
    /// `chess`, `connect4`, `checkers`, `othello` or `backgammon`.
    pub game: String,
    /// `texel`, `td` or `tdleaf`.
    pub method: Method,
    /// Seed of every random choice.
    #[serde(default)]
    pub seed: u64,
    /// Worker threads (self-play games and loss sums run in parallel).
    #[serde(default = "default_threads")]
    pub threads: usize,
    /// Starting weights file; absent: the game's hand-set evaluation as weights.
    pub start: Option<String>,
    /// Weights that learning leaves at their starting value (anchors of the scale).
    #[serde(default)]
    pub freeze: Vec<String>,
    /// Self-play games: Texel's positions, or TD's games.
    pub self_play: Option<SelfPlay>,
    /// Texel: arena `games.csv` files whose games label positions too.
    #[serde(default)]
    pub games: Vec<String>,
    /// Texel settings.
    pub texel: Option<TexelSettings>,
    /// TD settings.
    pub td: Option<TdSettings>,
}

const fn default_threads() -> usize {
    2
}

/// Where a run writes, and whether it may resume.
#[derive(Clone, Debug)]
pub struct LearnOptions {
    /// Results directory; default `results/<name>`.
    pub out: Option<PathBuf>,
    /// Weights directory; default `weights`.
    pub weights_dir: PathBuf,
    /// Ignore (and remove) a checkpoint instead of resuming from it.
    pub restart: bool,
    /// Replace the weights file and results of a finished run (refused without it).
    pub force: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// Draw the learning-curve charts.
    pub charts: bool,
    /// Stop after this many epochs (Texel) or batches (TD), leaving the checkpoint as an
    /// interrupted run would (for testing resumption); the run then fails.
    pub stop_after: Option<u32>,
}

impl Default for LearnOptions {
    fn default() -> Self {
        Self {
            out: None,
            weights_dir: PathBuf::from("weights"),
            restart: false,
            force: false,
            progress: true,
            charts: true,
            stop_after: None,
        }
    }
}

/// Refuses, without `--force`, a run that would replace the weights file or results of a
/// finished run of the same name (the committed ones, by default: arenas and searches read
/// them). With a checkpoint to resume from, the run is that one's continuation.
fn refuse_to_replace(
    name: &str,
    options: &LearnOptions,
    out: &Path,
    checkpoint_dir: &Path,
) -> Result<(), LearnError> {
    if options.force || checkpoint_dir.exists() {
        return Ok(());
    }
    let weights = options.weights_dir.join(format!("{name}.toml"));
    let summary = out.join("summary.md");
    match [&weights, &summary].into_iter().find(|p| p.exists()) {
        Some(finished) => Err(LearnError::BadInput(format!(
            "{} holds a finished run of `{name}`: --force replaces it (or choose another \
             --out and --weights-dir)",
            finished.display()
        ))),
        None => Ok(()),
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct LearnReport {
    /// The weights file written.
    pub weights_path: PathBuf,
    /// The learned weights.
    pub weights: Weights,
    /// The results directory.
    pub out: PathBuf,
    /// First and last loss (Texel: validation loss if any, else training loss; TD: mean
    /// held-out loss after the first and the last batch).
    pub first_loss: f64,
    /// See `first_loss`.
    pub last_loss: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The 1-based line where `key = ` starts in `text` (for messages on values): a dotted
/// key (`self_play.games`) in its `[table]`, a plain one before the first table; failing
/// that (an inline table), the first line setting the key's last part anywhere, then the
/// header of a table named `key`; 0 if none.
fn line_of_key(text: &str, key: &str) -> usize {
    let (table, leaf) = key.rsplit_once('.').unwrap_or(("", key));
    let sets_leaf = |l: &str| {
        l.trim_start()
            .strip_prefix(leaf)
            .is_some_and(|r| r.trim_start().starts_with('='))
    };
    let mut section = "";
    let in_table = text.lines().position(|l| {
        let t = l.trim();
        if t.starts_with('[') {
            section = t.trim_matches(|c| c == '[' || c == ']').trim();
            return false;
        }
        section == table && sets_leaf(l)
    });
    let header = || {
        text.lines()
            .position(|l| l.trim().trim_matches(['[', ']']).trim() == key)
    };
    in_table
        .or_else(|| text.lines().position(sets_leaf))
        .or_else(header)
        .map_or(0, |i| i + 1)
}

/// A bad value in the learning file `file` (text `text`): the error names the file, the
/// key's line and the key.
fn key_error(file: &Path, text: &str, key: &str, msg: &str) -> LearnError {
    LearnError::BadInput(format!(
        "{}:{}: key `{key}`: {msg}",
        file.display(),
        line_of_key(text, key)
    ))
}

/// The key whose line holds byte `offset` of `text`, as `table.key` inside a table (the
/// table's own name on its header line): what a parse error points at. `None` elsewhere.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next().unwrap_or("").trim();
    let table = |l: &str| {
        let name = l
            .strip_prefix('[')?
            .split(']')
            .next()?
            .trim_matches(['[', ' ']);
        (!name.is_empty()).then(|| name.to_owned())
    };
    if line.starts_with('[') {
        return table(line);
    }
    let key = line
        .split('=')
        .next()
        .filter(|_| line.contains('='))?
        .trim();
    let key = key.trim_matches('"');
    if key.is_empty() {
        return None;
    }
    let inside = text[..start].lines().rev().find_map(|l| {
        let l = l.trim();
        l.starts_with('[').then(|| table(l)).flatten()
    });
    Some(inside.map_or_else(|| key.to_owned(), |t| format!("{t}.{key}")))
}

/// Whether `text` is a learning file (a top-level `method`, which experiment and arena files
/// do not have), so that `plylab experiment` can point at `plylab learn` instead of failing
/// on the first key it does not know.
#[must_use]
pub fn is_learning(text: &str) -> bool {
    toml::from_str::<toml::Table>(text).is_ok_and(|t| t.contains_key("method"))
}

/// Reads and checks a learning file.
///
/// # Errors
/// [`LearnError::BadInput`] naming the file, line and key.
pub fn read_spec(path: &Path) -> Result<(LearnSpec, String), LearnError> {
    let file = path.display().to_string();
    let text = crate::input::read_text(path, crate::input::Cap::TEXT)
        .map_err(|e| LearnError::BadInput(format!("cannot read {file}: {e}")))?;
    let spec: LearnSpec = toml::from_str(&text).map_err(|e| {
        let start = e.span().map_or(0, |s| s.start.min(text.len()));
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        let key = key_at(&text, start).map_or(String::new(), |k| format!(" key `{k}`:"));
        LearnError::BadInput(format!("{file}:{line}:{column}:{key} {}", e.message()))
    })?;
    let bad = |key: &str, msg: &str| key_error(path, &text, key, msg);
    if spec.name.len() > crate::lab::spec::MAX_NAME_LEN {
        let most = crate::lab::spec::MAX_NAME_LEN;
        return Err(bad("name", &format!("at most {most} characters")));
    }
    if spec.name.is_empty()
        || !spec
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(bad("name", "letters, digits, `-` and `_` only"));
    }
    let Some(kind) = LinearKind::from_name(&spec.game) else {
        return Err(bad(
            "game",
            "expected chess, connect4, checkers, othello or backgammon",
        ));
    };
    if !(1..=64).contains(&spec.threads) {
        return Err(bad("threads", "1 to 64"));
    }
    for (i, f) in spec.freeze.iter().enumerate() {
        if !kind.names().contains(&f.as_str()) {
            return Err(bad("freeze", &format!("`{f}` is not a {kind} weight")));
        }
        if spec.freeze[..i].contains(f) {
            return Err(bad("freeze", &format!("`{f}` is listed twice")));
        }
    }
    if let Some(sp) = &spec.self_play {
        if sp.games == 0 || sp.games > 100_000 {
            return Err(bad("self_play.games", "1 to 100000"));
        }
        if !(1..=12).contains(&sp.depth) {
            return Err(bad("self_play.depth", "1 to 12 plies"));
        }
        if sp.max_plies == 0 || sp.max_plies > 2000 {
            return Err(bad("self_play.max_plies", "1 to 2000"));
        }
        if sp.random_plies >= sp.max_plies {
            return Err(bad(
                "self_play.random_plies",
                "fewer than max_plies (the games would have no searched move)",
            ));
        }
    }
    let rate_ok = |r: f64| r.is_finite() && r > 0.0;
    match spec.method {
        Method::Texel => {
            let Some(t) = &spec.texel else {
                return Err(bad("method", "texel needs a [texel] table"));
            };
            if spec.self_play.is_none() && spec.games.is_empty() {
                return Err(bad(
                    "method",
                    "texel needs positions: [self_play] or games = [arena games.csv files]",
                ));
            }
            if t.epochs == 0 || t.epochs > 100_000 {
                return Err(bad("texel.epochs", "1 to 100000"));
            }
            if !rate_ok(t.learning_rate) {
                return Err(bad("texel.learning_rate", "a positive number"));
            }
            if t.k.is_some_and(|k| !rate_ok(k)) {
                return Err(bad("texel.k", "a positive number"));
            }
            if !(0.0..=0.5).contains(&t.validation) {
                return Err(bad("texel.validation", "a share from 0 to 0.5"));
            }
            if t.checkpoint_every == 0 {
                return Err(bad("texel.checkpoint_every", "at least 1"));
            }
            if spec.td.is_some() {
                return Err(bad("td", "[td] is for methods td and tdleaf, not texel"));
            }
        }
        Method::Td | Method::Tdleaf => {
            let Some(t) = &spec.td else {
                return Err(bad("method", "td and tdleaf need a [td] table"));
            };
            if spec.self_play.is_none() {
                return Err(bad("method", "td and tdleaf learn from [self_play] games"));
            }
            if !(0.0..=1.0).contains(&t.lambda) {
                return Err(bad("td.lambda", "from 0 to 1"));
            }
            if !rate_ok(t.learning_rate) {
                return Err(bad("td.learning_rate", "a positive number"));
            }
            if !rate_ok(t.k) {
                return Err(bad("td.k", "a positive number"));
            }
            if t.batch == 0 {
                return Err(bad("td.batch", "at least 1"));
            }
            if spec.texel.is_some() {
                return Err(bad(
                    "texel",
                    "[texel] is for method texel, not td or tdleaf",
                ));
            }
            if !spec.games.is_empty() {
                return Err(bad(
                    "games",
                    "td and tdleaf learn from their own [self_play] games, not arena games",
                ));
            }
        }
    }
    Ok((spec, text))
}

/// Runs the learning file `path`.
///
/// # Errors
/// [`LearnError::BadInput`] for a bad learning, weights or games file;
/// [`LearnError::Failed`] when results cannot be written;
/// [`LearnError::Interrupted`] after Ctrl-C, the checkpoint written.
pub fn run(path: &Path, options: &LearnOptions) -> Result<LearnReport, LearnError> {
    let (spec, text) = read_spec(path)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(spec.threads)
        .build()
        .map_err(|e| LearnError::Failed(e.to_string()))?;
    // As in experiments, Ctrl-C is caught only in an interactive run (the progress bar).
    let _catching = interrupt::Catching::new(options.progress);
    pool.install(|| match spec.game.as_str() {
        "chess" => Run::<Chess>::new(&spec, &text, path, options)?.go(),
        "checkers" => Run::<Checkers>::new(&spec, &text, path, options)?.go(),
        "othello" => Run::<Othello>::new(&spec, &text, path, options)?.go(),
        "backgammon" => Run::<Backgammon>::new(&spec, &text, path, options)?.go(),
        _ => Run::<Connect4>::new(&spec, &text, path, options)?.go(),
    })
}

/// Why a run ends before its last epoch or batch, its checkpoint written.
#[derive(Clone, Copy, Debug)]
enum Stop {
    /// `--stop-after` (for testing resumption): exit code 1.
    AsAsked,
    /// Ctrl-C or SIGTERM: exit code 130 or 143.
    Interrupted,
}

/// One curve point: x (epoch or games) and one or two losses (Texel: training and
/// validation loss; TD: squared temporal difference and the held-out loss).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct CurvePoint {
    x: f64,
    train: f64,
    validation: Option<f64>,
}

/// The state a checkpoint holds, with floats as their bit patterns (exact round trip).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Checkpoint {
    /// FNV-1a of the learning file's settings and the contents of the files it reads
    /// ([`Run::settings_hash`]): a checkpoint of other ones is refused.
    spec_hash: u64,
    /// Epochs (Texel) or batches (TD) done.
    done: u32,
    weights: Vec<u64>,
    adam_m: Vec<u64>,
    adam_v: Vec<u64>,
    adam_t: u32,
    k: u64,
    curve: Vec<CurvePoint>,
    /// TD: decisive games among those played so far.
    #[serde(default)]
    decisive: usize,
}

impl Checkpoint {
    /// What a run of `n` weights and `total` epochs or batches could not have written.
    fn check(&self, n: usize, total: u32) -> Result<(), String> {
        let lengths = [
            ("weights", self.weights.len()),
            ("adam_m", self.adam_m.len()),
            ("adam_v", self.adam_v.len()),
        ];
        if let Some((name, len)) = lengths.iter().find(|(_, len)| *len != n) {
            return Err(format!(
                "{len} values in `{name}`; the evaluation has {n} weights"
            ));
        }
        if self.done > total {
            let done = self.done;
            return Err(format!("{done} done of the file's {total}"));
        }
        let finite = |v: &[u64]| floats(v).iter().all(|x| x.is_finite());
        if !(finite(&self.weights) && finite(&self.adam_m) && finite(&self.adam_v)) {
            return Err("a value that is not a finite number".to_owned());
        }
        // Adam's second moments are means of squares.
        if floats(&self.adam_v).iter().any(|&v| v < 0.0) {
            return Err("a negative second moment in `adam_v`".to_owned());
        }
        let k = f64::from_bits(self.k);
        if !(k.is_finite() && k > 0.0) {
            return Err(format!("K = {k}, not a positive number"));
        }
        let point_finite = |p: &CurvePoint| {
            p.x.is_finite() && p.train.is_finite() && p.validation.is_none_or(f64::is_finite)
        };
        if !self.curve.iter().all(point_finite) {
            return Err("a curve point that is not a finite number".to_owned());
        }
        Ok(())
    }
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn floats(v: &[u64]) -> Vec<f64> {
    v.iter().map(|&x| f64::from_bits(x)).collect()
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> LearnError + '_ {
    move |e| LearnError::Failed(format!("{}: {e}", path.display()))
}

struct Run<'a, G: LearnGame> {
    spec: &'a LearnSpec,
    text: &'a str,
    /// The learning file, as named on the command line (summary.md names it).
    file: &'a Path,
    options: &'a LearnOptions,
    out: PathBuf,
    checkpoint_dir: PathBuf,
    start: Vec<f64>,
    frozen: Vec<usize>,
    started: Instant,
    /// [`Self::settings_hash`], computed once: it reads the files the settings name.
    spec_hash: u64,
    /// Wall-clock seconds of the earlier sessions this run continues (0 for a new run).
    earlier_s: f64,
    _game: std::marker::PhantomData<G>,
}

impl<'a, G: LearnGame> Run<'a, G> {
    fn new(
        spec: &'a LearnSpec,
        text: &'a str,
        file: &'a Path,
        options: &'a LearnOptions,
    ) -> Result<Self, LearnError> {
        let out = options
            .out
            .clone()
            .unwrap_or_else(|| Path::new("results").join(&spec.name));
        let start = match &spec.start {
            Some(weights) => {
                linear::read_weights(Path::new(weights), Some(G::KIND))
                    .map_err(|e| key_error(file, text, "start", &e.0))?
                    .values
            }
            None => G::hand_set().to_vec(),
        };
        let names = G::KIND.names();
        let frozen = spec
            .freeze
            .iter()
            .filter_map(|f| names.iter().position(|n| n == f))
            .collect();
        let checkpoint_dir = out.join("checkpoint");
        if options.restart && checkpoint_dir.exists() {
            fs::remove_dir_all(&checkpoint_dir).map_err(io_err(&checkpoint_dir))?;
        }
        refuse_to_replace(&spec.name, options, &out, &checkpoint_dir)?;
        // Both directories made before any game is played: one that cannot be made is a bad
        // --out or --weights-dir, to be told now rather than after hours of learning.
        for (dir, flag) in [
            (&checkpoint_dir, "--out"),
            (&options.weights_dir, "--weights-dir"),
        ] {
            fs::create_dir_all(dir).map_err(|e| {
                LearnError::BadInput(format!(
                    "cannot create the directory {}: {e} (choose another {flag})",
                    dir.display()
                ))
            })?;
            let file = dir.join(format!("{}.toml", spec.name));
            crate::output::check_writable(&file).map_err(|e| {
                LearnError::BadInput(format!(
                    "cannot write {}: {e} (choose another {flag})",
                    file.display()
                ))
            })?;
        }
        let mut run = Self {
            spec,
            text,
            file,
            options,
            out,
            checkpoint_dir,
            start,
            frozen,
            started: Instant::now(),
            spec_hash: 0,
            earlier_s: 0.0,
            _game: std::marker::PhantomData,
        };
        run.spec_hash = run.settings_hash();
        run.earlier_s = run.recorded_seconds();
        Ok(run)
    }

    /// The file in the checkpoint directory that records the wall-clock time spent so far.
    fn seconds_path(&self) -> PathBuf {
        self.checkpoint_dir.join("seconds.txt")
    }

    /// The seconds the earlier sessions of this run spent, as [`Self::record_seconds`] left
    /// them: 0 when none were recorded, or recorded for other settings.
    fn recorded_seconds(&self) -> f64 {
        let text = crate::input::read_text(&self.seconds_path(), crate::input::Cap::TEXT)
            .unwrap_or_default();
        match text.split_whitespace().collect::<Vec<_>>()[..] {
            [hash, seconds] if hash == format!("{:016x}", self.spec_hash) => seconds
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .unwrap_or(0.0),
            _ => 0.0,
        }
    }

    /// Wall-clock seconds of the whole run: the earlier sessions' and this one's.
    fn seconds_so_far(&self) -> f64 {
        self.earlier_s + self.started.elapsed().as_secs_f64()
    }

    /// Records [`Self::seconds_so_far`] beside the finished work it belongs to (a checkpoint,
    /// a batch of games), so that a resumed run reports the time of all its sessions, as a
    /// resumed experiment does.
    fn record_seconds(&self) -> Result<(), LearnError> {
        let path = self.seconds_path();
        let text = format!("{:016x} {:.3}\n", self.spec_hash, self.seconds_so_far());
        crate::output::replace_bytes(&path, text.as_bytes()).map_err(io_err(&path))
    }

    /// Progress over `len` items called `unit`, of which `done` were finished before this
    /// run: a bar on a terminal, plain `progress:` lines elsewhere.
    fn progress(&self, len: usize, unit: &'static str, done: usize) -> Progress {
        let progress = Progress::new(self.options.progress, len, unit);
        progress.resume_at(done);
        progress
    }

    /// A bad value at `key` of the learning file.
    fn bad_key(&self, key: &str, msg: &str) -> LearnError {
        key_error(self.file, self.text, key, msg)
    }

    /// The checkpoint of an interrupted run of this file with `total` epochs or batches, if
    /// there is one. One of other settings (or of other contents of the files they name) is
    /// refused, naming `--restart`, and so is a damaged one, rather than trusted (a weight
    /// too few, a NaN) or quietly thrown away with its finished work.
    fn load_checkpoint(&self, total: u32) -> Result<Option<Checkpoint>, LearnError> {
        let state = self.checkpoint_dir.join("state.json");
        if !state.exists() {
            return Ok(None);
        }
        let damaged = |why: String| {
            LearnError::BadInput(format!(
                "{}: a damaged checkpoint ({why}); run with --restart to begin afresh",
                state.display()
            ))
        };
        let text = crate::input::read_text(&state, crate::input::Cap::TEXT)
            .map_err(|e| damaged(e.to_string()))?;
        let c: Checkpoint = serde_json::from_str(&text).map_err(|e| damaged(e.to_string()))?;
        if c.spec_hash != self.spec_hash {
            return Err(LearnError::BadInput(format!(
                "{}: the checkpoint ({} of {total} done) of other settings in {} or other \
                 contents of a file it reads; restore them to resume, or run with --restart \
                 to begin afresh (the checkpoint is then thrown away)",
                state.display(),
                c.done,
                self.file.display()
            )));
        }
        c.check(self.start.len(), total).map_err(damaged)?;
        Ok(Some(c))
    }

    /// The checkpoint's [`Checkpoint::spec_hash`]: the learning file's settings with the
    /// contents of the files it names (`start`, `games`), so that a checkpoint made from
    /// other settings, starting weights or games is not continued. The settings as read, not
    /// the text, and without the description or the threads: an edited comment or
    /// description changes nothing that is learned, nor does the number of threads (the
    /// weights are the same byte for byte on any number).
    fn settings_hash(&self) -> u64 {
        let settings = LearnSpec {
            description: String::new(),
            threads: 1,
            ..self.spec.clone()
        };
        let mut text = format!("{settings:?}");
        for file in self.spec.start.iter().chain(&self.spec.games) {
            // An arena's games.csv may be kept compressed beside its name.
            let print = crate::input::fingerprint(Path::new(file))
                .or_else(|_| crate::input::fingerprint(Path::new(&format!("{file}.gz"))))
                .unwrap_or_default();
            text.push_str(&format!("\n{file} {print}"));
        }
        crate::input::fnv1a(text.as_bytes())
    }

    /// The state after `done` epochs or batches, as a checkpoint of this file.
    fn checkpoint(
        &self,
        done: u32,
        w: &[f64],
        adam: &Adam,
        k: f64,
        curve: &[CurvePoint],
        decisive: usize,
    ) -> Checkpoint {
        Checkpoint {
            spec_hash: self.spec_hash,
            done,
            weights: bits(w),
            adam_m: bits(&adam.m),
            adam_v: bits(&adam.v),
            adam_t: adam.t,
            k: k.to_bits(),
            curve: curve.to_vec(),
            decisive,
        }
    }

    /// Whether the run stops after `done` of `total` epochs or batches: `--stop-after`, or
    /// Ctrl-C (not after the last: the run is then as good as finished).
    fn stop_at(&self, done: u32, total: u32) -> Option<Stop> {
        if self.options.stop_after == Some(done) {
            Some(Stop::AsAsked)
        } else if done < total && interrupt::requested() {
            Some(Stop::Interrupted)
        } else {
            None
        }
    }

    /// Writes checkpoint `c` (atomically: a temporary file renamed); with `stop`, then ends
    /// the run, saying how far it got of `total` `unit` (epochs or batches).
    fn save_checkpoint(
        &self,
        c: &Checkpoint,
        stop: Option<Stop>,
        total: u32,
        unit: &str,
    ) -> Result<(), LearnError> {
        let done = c.done;
        let path = self.checkpoint_dir.join("state.json");
        let json = serde_json::to_string(c).map_err(|e| LearnError::Failed(e.to_string()))?;
        crate::output::replace_bytes(&path, json.as_bytes()).map_err(io_err(&path))?;
        self.record_seconds()?;
        let dir = self.checkpoint_dir.display();
        match stop {
            None => Ok(()),
            Some(Stop::AsAsked) => Err(LearnError::Failed(format!(
                "stopped after {done} as asked; the checkpoint is in {dir}"
            ))),
            Some(Stop::Interrupted) => Err(LearnError::Interrupted(format!(
                "interrupted: {done} of {total} {unit} done, the checkpoint in {dir}"
            ))),
        }
    }

    /// The self-play games for Texel: those already in the checkpoint, then the rest,
    /// appended to it in batches as they finish (game `i` depends only on the seed and `i`).
    /// The stored games are kept when the file's settings are the same
    /// ([`Self::settings_hash`]: an edited comment, description or thread count keeps them,
    /// as it keeps the checkpoint).
    fn texel_games(&self, sp: &SelfPlay) -> Result<Vec<PlayedGame<G>>, LearnError> {
        let path = self.checkpoint_dir.join("games.txt");
        // Unreadable (or past the cap), the games are played again and the file rewritten.
        let stored = crate::input::read_text(&path, crate::input::Cap::RESULTS).unwrap_or_default();
        let header = format!("# {:016x}", self.spec_hash);
        let stored = if stored.lines().next() == Some(header.as_str()) {
            stored
        } else {
            String::new()
        };
        let mut games: Vec<PlayedGame<G>> = stored
            .lines()
            .skip(1)
            .map_while(|l| replay::<G>(l, sp.random_plies as usize))
            .collect();
        let mut file_text = format!("# {:016x}\n", self.spec_hash);
        for g in &games {
            let _ = writeln!(file_text, "{} {}", g.result, g.moves.join(" "));
        }
        let eval = G::evaluator(&self.start);
        let bar = self.progress(sp.games, "self-play games", games.len());
        let step = 4 * self.spec.threads;
        while games.len() < sp.games {
            let from = games.len();
            let to = (from + step).min(sp.games);
            let batch: Vec<PlayedGame<G>> = (from..to)
                .into_par_iter()
                .map(|i| play_game::<G>(&eval, sp, self.spec.seed, i))
                .collect();
            for g in &batch {
                let _ = writeln!(file_text, "{} {}", g.result, g.moves.join(" "));
            }
            // Whole: a game cut short by a kill while writing would replay as a shorter one.
            crate::output::replace_bytes(&path, file_text.as_bytes()).map_err(io_err(&path))?;
            self.record_seconds()?;
            games.extend(batch);
            bar.set_done(games.len(), "a batch of games played");
            if games.len() < sp.games && interrupt::requested() {
                return Err(LearnError::Interrupted(format!(
                    "interrupted: {} of {} self-play games played, kept in {}",
                    games.len(),
                    sp.games,
                    path.display()
                )));
            }
        }
        bar.finish();
        Ok(games)
    }

    /// Refuses a games file listed twice (by the same or another name): its games would
    /// count twice.
    fn check_games_listed_once(&self) -> Result<(), LearnError> {
        let games = &self.spec.games;
        for (i, file) in games.iter().enumerate() {
            let same =
                |f: &&String| *f == file || crate::input::same_file(Path::new(f), Path::new(file));
            if let Some(first) = games[..i].iter().find(same) {
                let why =
                    format!("`{file}` is listed twice (`{first}`): its games would count twice");
                return Err(self.bad_key("games", &why));
            }
        }
        Ok(())
    }

    fn texel(&self, t: &TexelSettings) -> Result<(Vec<f64>, Vec<CurvePoint>, String), LearnError> {
        self.check_games_listed_once()?;
        let mut games = match &self.spec.self_play {
            Some(sp) => self.texel_games(sp)?,
            None => Vec::new(),
        };
        for file in &self.spec.games {
            let read = read_arena_games::<G>(Path::new(file));
            games.extend(read.map_err(|e| self.bad_key("games", &e.to_string()))?);
        }
        let n = self.start.len();
        let (mut train, mut validation) = (Dataset::new(n), Dataset::new(n));
        let mut x = vec![0.0; n];
        let held_out = (t.validation * 1000.0).round() as u64;
        for (i, g) in games.iter().enumerate() {
            let set = if mix(self.spec.seed ^ mix(i as u64 + 1)) % 1000 < held_out {
                &mut validation
            } else {
                &mut train
            };
            label(g, set, &mut x);
        }
        if train.is_empty() {
            return Err(LearnError::BadInput(format!(
                "{}: no quiet positions to learn from: play more or longer games",
                self.file.display()
            )));
        }
        if t.validation > 0.0 && validation.is_empty() {
            // Each game is held out with that chance: among a few, none may be.
            crate::tell!(
                "note: validation = {} held out none of the {} games (each is held out with \
                 that chance): the curve and the losses reported are training losses",
                t.validation,
                games.len()
            );
        }
        let resumed = self.load_checkpoint(t.epochs)?;
        let (mut w, mut adam, k, mut curve, done) = match resumed {
            Some(c) => (
                floats(&c.weights),
                Adam {
                    rate: t.learning_rate,
                    m: floats(&c.adam_m),
                    v: floats(&c.adam_v),
                    t: c.adam_t,
                },
                f64::from_bits(c.k),
                c.curve,
                c.done,
            ),
            None => {
                let k = t.k.unwrap_or_else(|| texel::fit_k(&train, &self.start));
                (
                    self.start.clone(),
                    Adam::new(n, t.learning_rate),
                    k,
                    Vec::new(),
                    0,
                )
            }
        };
        let measure = |w: &[f64], curve: &mut Vec<CurvePoint>, epoch: u32| {
            let (l, _) = texel::loss_and_gradient(&train, w, k, false);
            let v = (!validation.is_empty())
                .then(|| texel::loss_and_gradient(&validation, w, k, false).0);
            curve.push(CurvePoint {
                x: f64::from(epoch),
                train: l,
                validation: v,
            });
        };
        if curve.is_empty() {
            measure(&w, &mut curve, 0);
        }
        let bar = self.progress(t.epochs as usize, "epochs", done as usize);
        for epoch in done + 1..=t.epochs {
            let (_, g) = texel::loss_and_gradient(&train, &w, k, true);
            adam.step(&mut w, &g, &self.frozen);
            measure(&w, &mut curve, epoch);
            bar.set_done(
                epoch as usize,
                &format!("training loss {:.6}", curve[curve.len() - 1].train),
            );
            let stop = self.stop_at(epoch, t.epochs);
            if (epoch % t.checkpoint_every == 0 && epoch < t.epochs) || stop.is_some() {
                let c = self.checkpoint(epoch, &w, &adam, k, &curve, 0);
                self.save_checkpoint(&c, stop, t.epochs, "epochs")?;
            }
        }
        bar.finish();
        let facts = format!(
            "{} games, {} quiet training positions, {} held out; K = {k:.4}; {} epochs of Adam (step {})",
            games.len(),
            train.len(),
            validation.len(),
            t.epochs,
            t.learning_rate
        );
        Ok((w, curve, facts))
    }

    fn td(
        &self,
        t: &TdSettings,
        sp: &SelfPlay,
    ) -> Result<(Vec<f64>, Vec<CurvePoint>, String), LearnError> {
        let n = self.start.len();
        let leaf = self.spec.method == Method::Tdleaf;
        let batches = sp.games.div_ceil(t.batch);
        let total = u32::try_from(batches).unwrap_or(u32::MAX);
        let (mut w, mut adam, mut curve, done, mut decisive) = match self.load_checkpoint(total)? {
            Some(c) => (
                floats(&c.weights),
                Adam {
                    rate: t.learning_rate,
                    m: floats(&c.adam_m),
                    v: floats(&c.adam_v),
                    t: c.adam_t,
                },
                c.curve,
                c.done as usize,
                c.decisive,
            ),
            None => (
                self.start.clone(),
                Adam::new(n, t.learning_rate),
                Vec::new(),
                0,
                0,
            ),
        };
        // A fixed yardstick: the quiet positions of self-play games of the starting weights
        // (other games than the learning ones), labelled with their results, scored by
        // Texel's error with the current weights after every batch.
        let held_games = (sp.games / 10).clamp(8, 64);
        let start_eval = G::evaluator(&self.start);
        let held: Vec<PlayedGame<G>> = (0..held_games)
            .into_par_iter()
            .map(|i| play_game::<G>(&start_eval, sp, self.spec.seed, HELD_OUT_BASE + i))
            .collect();
        let mut held_out = Dataset::new(n);
        let mut x = vec![0.0; n];
        for g in &held {
            label(g, &mut held_out, &mut x);
        }
        if held_out.is_empty() {
            return Err(self.bad_key(
                "self_play.random_plies",
                "the self-play games end before a quiet searched position: nothing to learn",
            ));
        }
        let held_loss = |w: &[f64]| texel::loss_and_gradient(&held_out, w, t.k, false).0;
        let start_loss = held_loss(&self.start);
        let bar = self.progress(sp.games, "self-play games", (done * t.batch).min(sp.games));
        for b in done..batches {
            let eval = G::evaluator(&w);
            let range = b * t.batch..((b + 1) * t.batch).min(sp.games);
            let games: Vec<PlayedGame<G>> = range
                .into_par_iter()
                .map(|i| play_game::<G>(&eval, sp, self.spec.seed, i))
                .collect();
            let updates: Vec<td::GameUpdate> = games
                .par_iter()
                .map(|g| td::game_update(g, &w, t.k, t.lambda, leaf, t.per_player))
                .collect();
            let mut grad = vec![0.0; n];
            let (mut sq, mut count) = (0.0, 0usize);
            for u in &updates {
                for (a, b) in grad.iter_mut().zip(&u.gradient) {
                    *a += b / updates.len() as f64;
                }
                sq += u.squared_error;
                count += u.count;
            }
            decisive += games.iter().filter(|g| g.result != 0.5).count();
            adam.step(&mut w, &grad, &self.frozen);
            curve.push(CurvePoint {
                x: ((b + 1) * t.batch).min(sp.games) as f64,
                train: sq / count.max(1) as f64,
                validation: Some(held_loss(&w)),
            });
            let held = curve[curve.len() - 1].validation.unwrap_or(f64::NAN);
            bar.set_done(
                ((b + 1) * t.batch).min(sp.games),
                &format!("held-out loss {held:.6}"),
            );
            let done = (b + 1) as u32;
            let stop = self.stop_at(done, total);
            if b + 1 < batches || stop.is_some() {
                let c = self.checkpoint(done, &w, &adam, t.k, &curve, decisive);
                self.save_checkpoint(&c, stop, total, "batches")?;
            }
        }
        bar.finish();
        let facts = format!(
            "{} self-play games at depth {} in batches of {}, {decisive} of them decisive; λ = {}{}, K = {}, Adam step {}; held out: {} quiet positions of {held_games} games of the starting weights, loss {start_loss:.6} before learning",
            sp.games,
            sp.depth,
            t.batch,
            t.lambda,
            if t.per_player {
                " (each player's positions a sequence of their own)"
            } else {
                ""
            },
            t.k,
            t.learning_rate,
            held_out.len()
        );
        Ok((w, curve, facts))
    }

    fn go(self) -> Result<LearnReport, LearnError> {
        let (w, curve, facts) = match (self.spec.method, &self.spec.texel, &self.spec.td) {
            (Method::Texel, Some(t), _) => self.texel(t)?,
            (_, _, Some(t)) => {
                let sp = self
                    .spec
                    .self_play
                    .as_ref()
                    .ok_or_else(|| LearnError::BadInput("td needs [self_play]".into()))?;
                self.td(t, sp)?
            }
            _ => return Err(LearnError::BadInput("method settings missing".into())),
        };
        if let Some(i) = w.iter().position(|x| !x.is_finite()) {
            // Written, they could not be read back (TOML has no NaN weights here).
            let table = if self.spec.method == Method::Texel {
                "texel"
            } else {
                "td"
            };
            return Err(LearnError::BadInput(format!(
                "{}: the learning diverged (weight `{}` is {}): lower {table}.learning_rate \
                 or {table}.k; no weights written",
                self.file.display(),
                G::KIND.names().get(i).copied().unwrap_or("?"),
                w[i],
            )));
        }
        let seconds = self.seconds_so_far();
        let weights = Weights {
            kind: G::KIND,
            values: w,
        };
        fs::create_dir_all(&self.options.weights_dir).map_err(io_err(&self.options.weights_dir))?;
        let weights_path = self
            .options
            .weights_dir
            .join(format!("{}.toml", self.spec.name));
        let method = match self.spec.method {
            Method::Texel => "texel",
            Method::Td => "td",
            Method::Tdleaf => "tdleaf",
        };
        let header = format!(
            "{} linear evaluation weights learned by `plylab learn` ({method}).\n{}",
            G::KIND,
            self.spec.description
        );
        let learned = [
            ("method", method.to_string()),
            ("seed", self.spec.seed.to_string()),
            ("data", facts.clone()),
        ];
        crate::output::replace_bytes(
            &weights_path,
            linear::format_weights(&weights, &header, &learned).as_bytes(),
        )
        .map_err(io_err(&weights_path))?;
        let report = output::write_results(&self, &weights, &curve, &facts, seconds)?;
        fs::remove_dir_all(&self.checkpoint_dir).map_err(io_err(&self.checkpoint_dir))?;
        Ok(LearnReport {
            weights_path,
            weights,
            out: self.out.clone(),
            first_loss: report.0,
            last_loss: report.1,
            seconds,
        })
    }
}

/// Adds the quiet positions of `game` to `set`, each labelled with the game's result for
/// its side to move (`x` is scratch space of the set's width).
fn label<G: LearnGame>(game: &PlayedGame<G>, set: &mut Dataset, x: &mut [f64]) {
    for p in &game.positions {
        if p.status() != Status::Ongoing || !p.is_quiet() {
            continue;
        }
        p.gradient(x);
        let first = p.side_to_move() == crate::game::Player::First;
        set.push(
            x,
            if first {
                game.result
            } else {
                1.0 - game.result
            },
        );
    }
}

/// Index of the first held-out game of a TD run: far from the indices of its learning games,
/// so that the two never share a game.
const HELD_OUT_BASE: usize = 1 << 40;

/// A stored self-play game (`result move move …`) replayed from the start position; its
/// positions are those after the `random` opening plies (rolls of the dice not counted),
/// as when it was played. `None` for a line no self-play game could have written (a result
/// other than 0, ½ or 1, one the final position contradicts, a move that does not parse or
/// follows the end): the games from there on are played again.
fn replay<G: LearnGame>(line: &str, random: usize) -> Option<PlayedGame<G>> {
    let line = line.trim_start();
    let (result, line) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let result: f64 = result.parse().ok()?;
    // 0, ½ or 1; in backgammon ½ ± points/6: the final position checks it below.
    if !(0.0..=1.0).contains(&result) {
        return None;
    }
    let mut pos = G::start();
    let mut game = PlayedGame {
        positions: Vec::new(),
        leaves: Vec::new(),
        result,
        moves: Vec::new(),
    };
    let mut chance = false;
    let mut chosen = 0;
    for w in G::line_moves(line) {
        if pos.status() != Status::Ongoing {
            return None;
        }
        let mv = pos.parse_move(w).ok()?;
        let before = pos.clone();
        game.moves.push(w.to_string());
        pos.play(mv);
        // As `selfplay::play_game` records them: no state for a roll of the dice, and no
        // roll counted among the random plies.
        chance |= before.is_chance();
        if !before.is_chance() {
            chosen += 1;
        }
        if chosen > random
            && !before.is_chance()
            && let Some(state) = selfplay::recorded_state(&before, pos.clone(), chance)
        {
            game.positions.push(state.clone());
            game.leaves.push(state);
        }
    }
    match pos.status() {
        Status::Over(outcome) => {
            if selfplay::first_player_result::<G>(outcome, pos.side_to_move()) != result {
                return None;
            }
        }
        // Unfinished (a draw after `max_plies` or by repetition, or adjudicated): 0, ½ or 1
        // only, whatever the game.
        Status::Ongoing => {
            if ![0.0, 0.5, 1.0].contains(&result) {
                return None;
            }
        }
    }
    Some(game)
}

mod output;

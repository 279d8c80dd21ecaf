//! External programs as players of the games that UCI does not cover: a GTP engine for
//! othello ([`super::gtp`]: grhino's `gtp-rhino`) and GNU Backgammon for backgammon
//! ([`super::gnubg`]). An arena file names them with the same `engine` key as a UCI engine
//! for chess; the game decides what the table means:
//!
//! - othello: `engine = { cmd = "/usr/games/gtp-rhino", args = ["--level=2"] }` ([`GtpSpec`]);
//! - backgammon: `engine = { plies = 0 }`, optionally with `cmd` ([`GnubgSpec`]).
//!
//! Their strength is their own setting (the program's arguments, gnubg's plies): they take
//! no per-move `depth`, `nodes` or `time_ms`.

use std::any::Any;
use std::time::Duration;

use super::engine::EngineError;
use super::gnubg::{GnubgEngine, GnubgSpec, MAX_PLIES};
use super::gtp::{GtpEngine, GtpMove, GtpSpec};
use super::spec::Opening;
use crate::game::Game;
use crate::games::backgammon::Backgammon;
use crate::games::othello::Othello;
use crate::lab::spec::{GameKind, GamePosition, Source, SpecError};

/// An external player of a game other than chess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExternalSpec {
    /// An othello engine speaking GTP.
    Gtp(GtpSpec),
    /// GNU Backgammon at a number of plies.
    Gnubg(GnubgSpec),
}

impl ExternalSpec {
    /// The `engine` table of an arena file for `game` (not chess, whose engines are UCI's).
    ///
    /// # Errors
    /// A located [`SpecError`] for a game without external players, or a table that is not
    /// the game's.
    pub(crate) fn parse(
        src: &Source,
        engine: &toml::Spanned<toml::Value>,
        game: GameKind,
    ) -> Result<Self, SpecError> {
        let bad = |e: toml::de::Error, expected: &str| {
            let why = format!(
                "bad {game} engine entry: {} (expected {expected})",
                e.to_string().trim()
            );
            src.at(engine, "engine", why)
        };
        let value = engine.get_ref().clone();
        match game {
            GameKind::Othello => {
                let spec: GtpSpec = value
                    .try_into()
                    .map_err(|e| bad(e, "a GTP engine: { cmd = \"...\", args = [...] }"))?;
                if spec.cmd.trim().is_empty() {
                    return Err(src.at(engine, "engine", "`cmd` is empty"));
                }
                Ok(Self::Gtp(spec))
            }
            GameKind::Backgammon => {
                let spec: GnubgSpec = value
                    .try_into()
                    .map_err(|e| bad(e, "GNU Backgammon: { plies = N, cmd = \"gnubg\" }"))?;
                if spec.plies > MAX_PLIES {
                    let why = format!("gnubg plays at 0 to {MAX_PLIES} plies, not {}", spec.plies);
                    return Err(src.at(engine, "engine", why));
                }
                if spec.cmd.trim().is_empty() {
                    return Err(src.at(engine, "engine", "`cmd` is empty"));
                }
                Ok(Self::Gnubg(spec))
            }
            _ => Err(src.at(
                engine,
                "engine",
                "external engines play chess (UCI), othello (GTP) and backgammon (gnubg) only",
            )),
        }
    }

    /// The configuration in one line, for summary.md.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::Gtp(s) => format!("GTP engine `{}` {}", s.cmd, s.args.join(" ")),
            Self::Gnubg(s) => format!("GNU Backgammon `{}` at {} plies", s.cmd, s.plies),
        }
    }

    /// The program it runs.
    #[must_use]
    pub fn program(&self) -> &str {
        match self {
            Self::Gtp(s) => &s.cmd,
            Self::Gnubg(s) => &s.cmd,
        }
    }
}

/// A running external player.
#[derive(Debug)]
pub enum ExternalEngine {
    /// A GTP engine, with the moves of the game it has been told so far.
    Gtp(GtpEngine, usize),
    /// gnubg.
    Gnubg(GnubgEngine),
}

impl ExternalEngine {
    /// Starts the program of `spec`.
    ///
    /// # Errors
    /// As the client's `start`.
    pub fn start(spec: &ExternalSpec, timeout: Duration) -> Result<Self, EngineError> {
        Ok(match spec {
            ExternalSpec::Gtp(s) => Self::Gtp(GtpEngine::start(&s.cmd, &s.args, timeout)?, 0),
            ExternalSpec::Gnubg(s) => Self::Gnubg(GnubgEngine::start(s, timeout)?),
        })
    }

    /// The traffic logged since the last call ([`super::engine::UciEngine::take_log`]).
    #[must_use]
    pub fn take_log(&self) -> Vec<String> {
        match self {
            Self::Gtp(e, _) => e.take_log(),
            Self::Gnubg(e) => e.take_log(),
        }
    }

    /// The program's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        match self {
            Self::Gtp(e, _) => e.pid(),
            Self::Gnubg(e) => e.pid(),
        }
    }

    /// Checks that the engine can start the games of `openings`: a GTP engine must be able
    /// to be set to each one other than the start (checked before any game, so that a match
    /// it cannot play is refused rather than forfeited game by game).
    ///
    /// # Errors
    /// As [`GtpEngine::check_setup_board`].
    pub fn check_openings(
        &mut self,
        openings: &[Opening],
        timeout: Duration,
    ) -> Result<(), EngineError> {
        let Self::Gtp(engine, _) = self else {
            return Ok(());
        };
        let start = Othello::new().hash();
        let elsewhere = openings
            .iter()
            .any(|o| matches!(&o.position, GamePosition::Othello(p) if p.hash() != start));
        if elsewhere {
            engine.check_setup_board(timeout)?;
        }
        Ok(())
    }

    /// Prepares a game from `opening`: a GTP engine clears its board, then is set to the
    /// opening unless it is the start; gnubg is told each position with each move.
    ///
    /// # Errors
    /// As the client's commands.
    pub fn new_game<G: Game>(&mut self, opening: &G, timeout: Duration) -> Result<(), EngineError> {
        let Self::Gtp(engine, told) = self else {
            return Ok(());
        };
        *told = 0;
        engine.new_game(timeout)?;
        let othello = (opening as &dyn Any)
            .downcast_ref::<Othello>()
            .ok_or_else(|| EngineError::BadRequest {
                message: format!("a GTP engine plays othello, not {}", G::NAME),
            })?;
        if othello.hash() != Othello::new().hash() {
            let text = othello.to_board_string();
            engine.setup_board(&text[..64], othello.side_to_move(), timeout)?;
        }
        Ok(())
    }

    /// The engine's move in `pos`, as text, after `moves` since the opening; `None` when
    /// it resigns.
    ///
    /// # Errors
    /// As the client's commands; [`EngineError::NoMove`] when gnubg sees no legal move.
    pub fn choose<G: Game>(
        &mut self,
        pos: &G,
        moves: &[String],
        timeout: Duration,
    ) -> Result<Option<String>, EngineError> {
        match self {
            Self::Gtp(engine, told) => {
                // Moves alternate (a pass is a move), so the side of each one told is known
                // from the side to move now.
                let mover = pos.side_to_move();
                for (i, mv) in moves.iter().enumerate().skip(*told) {
                    let back = moves.len() - i;
                    let side = if back % 2 == 1 { mover.other() } else { mover };
                    engine.play(side, mv, timeout)?;
                }
                *told = moves.len() + 1;
                Ok(match engine.genmove(mover, timeout)? {
                    GtpMove::Vertex(v) => Some(v),
                    GtpMove::Pass => Some("pass".to_owned()),
                    GtpMove::Resign => None,
                })
            }
            Self::Gnubg(engine) => {
                let bg = (pos as &dyn Any)
                    .downcast_ref::<Backgammon>()
                    .ok_or_else(|| EngineError::BadRequest {
                        message: format!("gnubg plays backgammon, not {}", G::NAME),
                    })?;
                let roll = bg.dice().ok_or_else(|| EngineError::BadRequest {
                    message: "gnubg is asked for a move before the dice are rolled".into(),
                })?;
                // A forced move (a single play, or no play: a pass) is played without asking,
                // as gnubg itself does; its `hint` lists nothing when the roll cannot be used.
                let mut legal = Vec::new();
                bg.generate_moves(&mut legal);
                if let [only] = legal[..] {
                    return Ok(Some(only.to_string()));
                }
                let text = bg.to_string();
                let id = text.split_whitespace().next().unwrap_or_default();
                engine
                    .best_move(id, roll, timeout)?
                    .map(Some)
                    .ok_or(EngineError::NoMove)
            }
        }
    }
}

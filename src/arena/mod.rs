//! Matches between players: games, openings, statistics.
//!
//! - [`spec`]: arena files (an experiment file with a `[match]` table) to a validated
//!   [`spec::MatchPlan`];
//! - [`play`]: one game between two players, from an opening to its end;
//! - [`run`]: the match on a thread pool, SPRT early stop, resume;
//! - [`record`]: the games.csv row; [`standings`]: standings.csv and the statistics;
//! - [`summary`]: summary.md; [`redraw`]: standings.csv and summary.md again from games.csv
//!   (`plylab plot`); [`export`] and [`pgn`]: games.pgn;
//! - [`engine`]: external UCI engines as players; [`gtp`]: the GTP client for othello
//!   engines (grhino's `gtp-rhino`); [`gnubg`]: GNU Backgammon as a player; [`external`]:
//!   the GTP and gnubg players of othello and backgammon; all run their engine through
//!   `process`;
//! - [`xboard`]: external xboard/CECP chess engines (Fairy-Max), and `ChessEngine`,
//!   either protocol as the arena plays it;
//! - [`adjudicate`]: cutechess-cli's draw and resign adjudication and `st`; [`books`]: PGN
//!   and Polyglot opening books;
//! - [`chance`]: seeded dice shared by a game pair, and points per game (backgammon).

pub mod adjudicate;
pub mod books;
pub mod chance;
pub mod engine;
pub mod export;
pub mod external;
pub mod gnubg;
pub mod gtp;
pub mod pgn;
pub mod play;
mod process;
pub mod record;
pub mod redraw;
pub mod run;
pub mod spec;
pub mod standings;
pub mod summary;
pub mod xboard;

pub use run::describe;

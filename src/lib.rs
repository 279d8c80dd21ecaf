//! plylab: a research harness for adversarial game-tree search.
//!
//! - [`arena`]: matches between players: games, openings, statistics;
//! - [`cluster`]: experiments split into shards, merged back, submitted to Slurm;
//! - [`game`]: the contract between games and searches;
//! - [`games`]: tic-tac-toe, connect four, synthetic random trees and chess;
//! - [`search`]: minimax, alpha-beta with switchable techniques, iterative deepening, the
//!   transposition table and the node counters;
//! - [`knowledge`]: endgame databases by retrograde analysis, probed beside the search;
//! - [`lab`]: experiment files, the job runner, CSV records, test suites;
//! - [`plot`]: charts and summary.md, drawn from the CSV alone;
//! - [`rng`]: seeded randomness;
//! - [`uci`]: the UCI engine front for chess configurations.
//!
//! ARCHITECTURE.md at the repository root draws the picture and states the dependency rules.

pub mod arena;
pub mod cluster;
pub mod compressed;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod games;
pub mod knowledge;
pub mod lab;
pub mod learn;
pub mod plot;
pub mod rng;
pub mod search;
pub mod uci;

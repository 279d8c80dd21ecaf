//! plylab: a research harness for adversarial game-tree search.
//!
//! - [`arena`]: matches between players: games, openings, statistics;
//! - [`cluster`]: experiments split into shards, merged back, submitted to Slurm;
//! - [`game`]: the contract between games and searches;
//! - [`games`]: tic-tac-toe, connect four, chess, checkers, othello, backgammon, and
//!   synthetic random trees with or without chance layers;
//! - [`search`]: minimax, alpha-beta with switchable techniques, iterative deepening, the
//!   transposition table and the node counters; lazy SMP and Young Brothers Wait;
//!   expectiminimax, Star1 and Star2 over chance nodes; Monte Carlo tree search, one thread,
//!   root-parallel and tree-parallel;
//! - [`knowledge`]: endgame databases by retrograde analysis, probed beside the search, and
//!   opening books;
//! - [`lab`]: experiment files, the job runner, CSV records, test suites;
//! - [`learn`]: linear evaluations learned from self-play (Texel regression, TD(λ), TDLeaf(λ));
//! - [`compressed`]: result tables read plain or gzip-compressed;
//! - [`input`]: files from outside read within a size cap;
//! - [`interrupt`]: Ctrl-C during a run, asking the work under way to finish;
//! - [`memory`]: the memory the machine can still give, checked before tables and trees grow;
//! - [`output`]: files written whole or not at all, and report lines on stdout;
//! - [`plot`]: charts and summary.md, drawn from the CSV alone;
//! - [`progress`]: the progress of a long run, as a bar or plain lines, and what Ctrl-C does to it;
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
pub mod input;
pub mod interrupt;
pub mod knowledge;
pub mod lab;
pub mod learn;
pub mod memory;
pub mod output;
pub mod plot;
pub mod progress;
pub mod rng;
pub mod search;
#[cfg(test)]
mod testing;
pub mod uci;

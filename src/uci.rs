//! A UCI engine front for chess: `plylab uci` speaks the Universal Chess Interface
//! (Stefan Meyer-Kahlen and Rudolf Huber, 2000;
//! <https://www.shredderchess.com/chess-features/uci-universal-chess-interface.html>) on
//! standard input and output, searching with any [`SearcherVariant`], so that a configuration
//! of an experiment can play games under a GUI, cutechess-cli or fastchess.
//!
//! [`Engine`] is a small state machine: one method per command, the position and the table
//! kept between commands, and the search on its own thread so that `stop` and `isready` are
//! answered while it runs. Supported commands: `uci`, `isready`, `ucinewgame` (clears the
//! table), `position startpos|fen FEN [moves ...]`, `go` with `searchmoves`, `depth`,
//! `nodes`, `mate`, `movetime`, `wtime`/`btime`/`winc`/`binc`/`movestogo` and `infinite`
//! (a bare `go` is infinite), `go ponder` and `ponderhit`, `stop`, `quit`, `setoption name
//! Hash|Threads|MultiPV value N`, `Clear Hash`, `Ponder` and `UCI_Chess960`, the knowledge
//! options `TablebaseFiles`, `BookFile` and `OwnBook` ([`crate::knowledge::uci_options`]:
//! with a book move, `go` answers it at once with `info string book move ...`; with
//! databases, `info` lines carry `tbhits`), and `debug` (ignored). Words before the first
//! command a line holds are skipped, as the protocol asks (`joho isready` is `isready`). Bad
//! input (a line with no command, an unknown option, a bad number, a line over
//! [`MAX_LINE_BYTES`]) is answered with `info string <reason>`.
//!
//! Several `Threads` search with lazy SMP over the engine's table, or with Young Brothers
//! Wait where the `--config` searcher's algorithm is `ybw` (at most 64 threads); an `info
//! string` at each such `go` names which. MultiPV N reports the N best root lines per
//! iteration (`info ... multipv k ...`), each a search of the same depth without the root
//! moves of the lines before it; with several `Threads` it searches on one. `go ponder`
//! searches without a clock and holds `bestmove` back until `ponderhit` (the clock then
//! starts) or `stop`; `bestmove` names the expected reply (`ponder`) when the principal
//! variation has one. `UCI_Chess960` reads FENs as Chess960's (Shredder-FEN or X-FEN) and
//! writes and reads castling as king takes rook.
//! `info` lines carry `hashfull` (with a table), `lowerbound`/`upperbound` lines follow failed
//! aspiration windows, and `currmove` lines start after `CURRMOVE_AFTER`. Repetitions: a
//! position repeated inside the search tree is a draw, one played before the root only when
//! it occurs a third time ([`crate::search::Searcher`]), so a root seen once before is
//! searched as usual.
//!
//! Every `go` is answered with `bestmove` (Meyer-Kahlen and Huber: the engine must always
//! answer a search with it): an unknown or malformed `go` argument is reported with
//! `info string` and left out, a zero `depth`, `nodes`, `mate` or `movetime` answers at
//! once after one ply, `searchmoves` restricts the root to the legal moves it lists (with
//! several `Threads`, on one thread), and a position without a legal move answers
//! `bestmove (none)`, as Stockfish writes it. A `position` that is refused (a bad FEN, an
//! impossible position, an illegal move) is reported with `info string`, and every `go`
//! until the next valid `position` answers `info string` and `bestmove (none)`: searching
//! the previous position instead would play a move of another game.
//!
//! Time: with a clock (`wtime`/`btime`) the search gets [`time_budget`]. After each
//! completed iteration an `info depth D seldepth S score cp X|mate N nodes N nps N time MS
//! pv ...` line is written (nodes and time count from the start of the `go`); `mate N` is in
//! moves, positive when the engine mates. The answer is `bestmove <uci>`: the deepest
//! completed iteration's move, the first legal (allowed) move if no iteration completed,
//! and `(none)` when the position has no legal move (checkmate or stalemate).

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::game::{Evaluator, Game, Notation, Score, score};
use crate::games::chess::{Chess, ChessMove, Color, Material, Pst, Shannon};
use crate::knowledge::tablebase::Tablebases;
use crate::knowledge::uci_options::{UciKnowledge, as_probe};
use crate::lab::settings::EvalSetting;
use crate::lab::spec::{self, GameKind, SearcherVariant};
use crate::search::smp::{Shared, lazy_smp_observed};
use crate::search::ybw::ybw_observed;
use crate::search::{
    Algorithm, Iteration, Limits, RootReport, SearchConfig, Searcher, Table, time_budget,
};

/// The commands [`Engine::handle`] knows.
const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "setoption",
    "debug",
    "quit",
];

/// The largest `Hash` the engine accepts, in MiB (as experiment files' `tt_mb`); a size
/// larger than the memory available is refused with `info string` and the old table kept.
pub const MAX_HASH_MB: usize = 65_536;
/// The most search threads `setoption name Threads` accepts (lazy SMP).
const MAX_THREADS: usize = crate::search::config::MAX_SEARCH_THREADS;
/// The most lines `setoption name MultiPV` accepts (Stockfish's limit too).
const MAX_MULTIPV: usize = 500;
/// `info currmove` lines start this long after `go`, so that short searches (and the
/// GUI's log) are not flooded with them (Stockfish waits 3 s).
const CURRMOVE_AFTER: Duration = Duration::from_millis(1000);

/// The longest command line read: far above any real one (`position startpos moves` of
/// a 1,000-move game is about 5 KB), so that endless input without a newline (a pipe
/// from `/dev/zero`) is skipped in bounded memory instead of filling it.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What [`read_command`] found.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    /// A whole line, in the buffer.
    Line,
    /// A line over [`MAX_LINE_BYTES`], skipped to its end.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line of `input` into `bytes` (cleared first), at most [`MAX_LINE_BYTES`] of
/// it; the rest of a longer line is read and dropped chunk by chunk.
fn read_command(input: &mut impl BufRead, bytes: &mut Vec<u8>) -> io::Result<Command> {
    bytes.clear();
    let limit = MAX_LINE_BYTES as u64 + 1;
    if io::Read::take(&mut *input, limit).read_until(b'\n', bytes)? == 0 {
        return Ok(Command::End);
    }
    if bytes.len() <= MAX_LINE_BYTES || bytes.ends_with(b"\n") {
        return Ok(Command::Line);
    }
    bytes.clear();
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(Command::TooLong);
        }
        if let Some(end) = chunk.iter().position(|&b| b == b'\n') {
            input.consume(end + 1);
            return Ok(Command::TooLong);
        }
        let all = chunk.len();
        input.consume(all);
    }
}

/// The searcher labelled `label` in the experiment file `file` (its first variant if the
/// file sweeps it), or in the arena file `file` (with a `[match]` table: there a searcher
/// may name an opening `book`). Its limits in the file are not used: the GUI's `go` sets
/// them.
///
/// # Errors
/// The file does not load, no job (no plylab player) of it uses a searcher with that
/// label, or that searcher searches another game than chess there.
pub fn searcher_from_file(file: &Path, label: &str) -> Result<SearcherVariant, String> {
    let text = crate::input::read_text(file, crate::input::Cap::TEXT);
    if text.is_ok_and(|text| crate::arena::spec::is_arena(&text)) {
        return player_from_arena(file, label);
    }
    let plan = spec::load(file).map_err(|e| e.to_string())?;
    let labelled = || plan.jobs.iter().filter(|j| j.searcher.label == label);
    let chess = |j: &&spec::Job| j.position.position.kind() == GameKind::Chess;
    if let Some(job) = labelled().find(chess) {
        return Ok(job.searcher.clone());
    }
    if let Some(job) = labelled().next() {
        return Err(not_chess(file, label, job.position.position.kind()));
    }
    let mut labels: Vec<&str> = plan
        .jobs
        .iter()
        .map(|j| j.searcher.label.as_str())
        .collect();
    labels.dedup();
    labels.sort_unstable();
    labels.dedup();
    Err(format!(
        "{}: no searcher labelled `{label}` (labels: {})",
        file.display(),
        labels.join(", ")
    ))
}

/// The plylab player labelled `label` in the arena file `file`.
fn player_from_arena(file: &Path, label: &str) -> Result<SearcherVariant, String> {
    use crate::arena::spec::PlayerKind;
    let plan = crate::arena::spec::load(file).map_err(|e| e.to_string())?;
    let searchers = || {
        plan.players.iter().filter_map(|p| match &p.kind {
            PlayerKind::Search(v) => Some(v),
            _ => None,
        })
    };
    if let Some(v) = searchers().find(|v| v.label == label) {
        if plan.game != GameKind::Chess {
            return Err(not_chess(file, label, plan.game));
        }
        return Ok(v.clone());
    }
    let mut labels: Vec<&str> = searchers().map(|v| v.label.as_str()).collect();
    labels.sort_unstable();
    labels.dedup();
    Err(format!(
        "{}: no plylab player labelled `{label}` (labels: {})",
        file.display(),
        labels.join(", ")
    ))
}

/// Why the searcher `label` of `file`, which searches `game` only, cannot play chess: it was
/// configured (and validated) for that game's evaluation and techniques.
fn not_chess(file: &Path, label: &str, game: GameKind) -> String {
    format!(
        "{}: searcher `{label}` searches {game} there, not chess, and uci plays chess",
        file.display()
    )
}

/// Runs the engine on standard input and output until `quit` or the end of the input.
///
/// # Errors
/// Reading standard input fails.
pub fn run_stdio(searcher: &SearcherVariant, caps: Limits) -> io::Result<()> {
    let engine = Engine::new(searcher, caps, io::stdout());
    engine.run(io::stdin().lock())
}

/// What the command loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Stop reading: `quit`.
    Quit,
}

/// The engine's output, shared by the command loop and the search thread: whole lines,
/// each flushed at once (a line-buffered stdout may not flush into a pipe).
#[derive(Clone)]
struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    fn line(&self, text: &str) {
        let mut w = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // A closed output (the GUI is gone) is noticed as the end of the input.
        let _ = writeln!(w, "{text}").and_then(|()| w.flush());
    }

    /// An `info string` line. Control characters (a NUL or an escape from the GUI's input,
    /// echoed in an error) are written escaped: raw, they would hide in the message or
    /// break the line.
    fn info_string(&self, text: &str) {
        let shown: String = text
            .chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect();
        self.line(&format!("info string {shown}"));
    }
}

/// A search running on its own thread.
struct Running {
    /// Set by `stop` (and by the search itself when its soft time is up).
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it writes `bestmove`.
    done: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    /// A `go ponder` search: its clock, started by `ponderhit`.
    ponder: Option<PonderClock>,
}

/// The time limits a `go ponder` holds back until `ponderhit`: pondering searches without
/// a clock; `ponderhit` starts it (Meyer-Kahlen and Huber: the engine "should continue
/// searching but switch from pondering to normal search"), so the hard and soft budgets
/// count from the `ponderhit`.
struct PonderClock {
    /// True while pondering; the search thread holds `bestmove` back meanwhile.
    pondering: Arc<AtomicBool>,
    /// The search's soft deadline, shared with its thread.
    soft_at: Arc<Mutex<Option<Instant>>>,
    hard: Option<Duration>,
    soft: Option<Duration>,
}

/// The UCI engine: configuration, options, position, table, and the running search.
pub struct Engine {
    variant: SearcherVariant,
    /// Limits from the command line that cap every `go`.
    caps: Limits,
    /// The table (None when the configuration searches without one).
    table: Option<Arc<Table>>,
    hash_mb: usize,
    threads: usize,
    /// `MultiPV`: the lines each iteration reports.
    multipv: usize,
    /// `UCI_Chess960`: castling as king takes rook, in positions and moves.
    chess960: bool,
    position: Chess,
    /// Hashes of the positions before [`Self::position`], oldest first (repetitions).
    history: Vec<u64>,
    /// Why the last `position` was refused; `go` is refused until a valid one arrives.
    refused_position: Option<String>,
    search: Option<Running>,
    out: Output,
    /// `TablebaseFiles`, `BookFile` and `OwnBook`.
    knowledge: UciKnowledge,
}

impl Engine {
    /// An engine searching with `searcher`, each search capped by `caps` (the `--depth`,
    /// `--nodes` and `--time-ms` flags), writing to `out`. The table is allocated with the
    /// configuration's `tt_mb` (clamped to 1..=[`MAX_HASH_MB`]); a configuration with
    /// `tt_mb = 0` or minimax searches without one, whatever `Hash` says.
    pub fn new(searcher: &SearcherVariant, caps: Limits, out: impl Write + Send + 'static) -> Self {
        let mut variant = searcher.clone();
        let hash_mb = variant.config.tt_mb.clamp(1, MAX_HASH_MB);
        let table = uses_table(&variant.config).then(|| {
            variant.config.tt_mb = hash_mb;
            Arc::new(Table::with_layout(hash_mb, variant.config.solve.tt_compact))
        });
        Self {
            variant,
            caps,
            table,
            hash_mb,
            threads: 1,
            multipv: 1,
            chess960: false,
            position: Chess::startpos(),
            history: Vec::new(),
            refused_position: None,
            search: None,
            out: Output(Arc::new(Mutex::new(Box::new(out)))),
            knowledge: UciKnowledge::from_config(&searcher.knowledge),
        }
    }

    /// Reads commands from `input` until `quit` or its end (which acts as `quit`).
    ///
    /// # Errors
    /// Reading `input` fails.
    pub fn run(mut self, mut input: impl BufRead) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(256);
        loop {
            match read_command(&mut input, &mut bytes)? {
                Command::End => {
                    self.quit();
                    return Ok(());
                }
                Command::TooLong => self
                    .out
                    .info_string(&format!("line longer than {MAX_LINE_BYTES} bytes ignored")),
                Command::Line => {
                    if self.handle(&String::from_utf8_lossy(&bytes)) == Flow::Quit {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        // The protocol: a token the engine does not know is skipped and the rest of the line
        // read ("joho debug on" switches debug on).
        let Some(at) = words.iter().position(|w| COMMANDS.contains(w)) else {
            if let Some(first) = words.first() {
                self.out.info_string(&format!("unknown command `{first}`"));
            }
            return Flow::Continue;
        };
        let (command, args) = (words[at], &words[at + 1..]);
        match command {
            "uci" => self.uci(),
            "isready" => self.out.line("readyok"),
            "ucinewgame" => self.new_game(),
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            "ponderhit" => self.ponderhit(),
            "setoption" => self.set_option(args),
            "debug" => {}
            "quit" => {
                self.quit();
                return Flow::Quit;
            }
            _ => {}
        }
        Flow::Continue
    }

    /// `uci`: identification, options, `uciok`.
    fn uci(&self) {
        let v = &self.variant;
        self.out.line(&format!(
            "id name plylab {} [{}] algorithm={} {} eval={}",
            env!("CARGO_PKG_VERSION"),
            v.label,
            v.config.algorithm,
            v.params().replace(&format!(" eval={}", v.eval), ""),
            v.eval
        ));
        self.out.line("id author the plylab authors");
        self.out.line(&format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
            self.hash_mb
        ));
        self.out.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        self.out.line(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        // Declared so that GUIs send `go ponder`; the engine ponders whatever it says.
        self.out.line("option name Ponder type check default false");
        self.out.line("option name Clear Hash type button");
        self.out
            .line("option name UCI_Chess960 type check default false");
        for option in self.knowledge.declarations() {
            self.out.line(&option);
        }
        self.out.line("uciok");
    }

    /// True while a search runs; joins a search that has finished.
    fn searching(&mut self) -> bool {
        if self.search.as_ref().is_some_and(|r| r.done.load(Relaxed)) {
            self.join();
        }
        self.search.is_some()
    }

    /// Waits for the search thread (if any) to end.
    fn join(&mut self) {
        if let Some(running) = self.search.take()
            && running.handle.join().is_err()
        {
            self.out.info_string("the search thread panicked");
        }
    }

    /// `stop`: ends the search, which answers with `bestmove`.
    fn stop(&mut self) {
        if let Some(running) = &self.search {
            running.stop.store(true, Relaxed);
        }
        self.join();
    }

    /// `ponderhit`: the opponent played the move pondered on; the search goes on as a normal
    /// one, its clock starting now.
    fn ponderhit(&mut self) {
        let Some(clock) = self
            .search
            .as_mut()
            .filter(|r| !r.done.load(Relaxed))
            .and_then(|r| r.ponder.take())
        else {
            return self.out.info_string("ponderhit ignored: not pondering");
        };
        let now = Instant::now();
        if let Some(soft) = clock.soft {
            *clock
                .soft_at
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(now + soft);
        }
        if let (Some(hard), Some(running)) = (clock.hard, &self.search) {
            // The search's own deadline was fixed when it started: a timer stops it instead.
            let stop = Arc::clone(&running.stop);
            let timer = std::thread::Builder::new()
                .name("uci-ponderhit".into())
                .spawn(move || {
                    std::thread::sleep(hard);
                    stop.store(true, Relaxed);
                });
            if let Err(e) = timer {
                self.out
                    .info_string(&format!("cannot start the clock after ponderhit: {e}"));
            }
        }
        clock.pondering.store(false, Relaxed);
    }

    /// `quit`: stops a running search and waits for it.
    fn quit(&mut self) {
        self.stop();
    }

    /// Refuses `what` while a search runs (the protocol sends it only to an idle engine).
    fn busy(&mut self, what: &str) -> bool {
        let busy = self.searching();
        if busy {
            self.out
                .info_string(&format!("{what} ignored while searching: send stop first"));
        }
        busy
    }

    /// `ucinewgame`: forgets the table.
    fn new_game(&mut self) {
        if self.busy("ucinewgame") {
            return;
        }
        if let Some(t) = &self.table {
            t.clear();
        }
    }

    /// `position startpos|fen FEN [moves m1 m2 ...]`: replaces the position if the whole
    /// command is valid; otherwise `go` is refused until a valid `position` arrives.
    fn set_position(&mut self, args: &[&str]) {
        match parse_position(args, self.chess960) {
            Ok((position, history)) => {
                self.position = position;
                self.history = history;
                self.refused_position = None;
            }
            Err(reason) => {
                self.out.info_string(&format!(
                    "{reason}; position refused: `go` answers `bestmove (none)` until a valid \
                     `position`"
                ));
                self.refused_position = Some(reason);
            }
        }
    }

    /// `setoption name NAME [value VALUE]`.
    fn set_option(&mut self, args: &[&str]) {
        if self.busy("setoption") {
            return;
        }
        let (name, value) = match parse_setoption(args) {
            Ok(nv) => nv,
            Err(reason) => return self.out.info_string(&reason),
        };
        if let Some(answer) = self.knowledge.set(&name.to_ascii_lowercase(), &value) {
            return match answer {
                Ok(note) => self.out.info_string(&note),
                Err(reason) => self
                    .out
                    .info_string(&format!("{reason}; the previous setting is kept")),
            };
        }
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => self.set_hash(mb),
                _ => self.out.info_string(&format!(
                    "Hash must be a whole number of MiB from 1 to {MAX_HASH_MB}, not `{value}`"
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.threads = n,
                _ => self.out.info_string(&format!(
                    "Threads must be a whole number from 1 to {MAX_THREADS}, not `{value}`"
                )),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_MULTIPV).contains(&n) => self.multipv = n,
                _ => self.out.info_string(&format!(
                    "MultiPV must be a whole number from 1 to {MAX_MULTIPV}, not `{value}`"
                )),
            },
            "ponder" | "uci_chess960" => match value.to_ascii_lowercase().as_str() {
                // `Ponder` only tells the engine that the GUI may send `go ponder`.
                "true" | "false" if name.eq_ignore_ascii_case("ponder") => {}
                on @ ("true" | "false") => self.chess960 = on == "true",
                _ => self
                    .out
                    .info_string(&format!("{name} is `true` or `false`, not `{value}`")),
            },
            "clear hash" => {
                if let Some(t) = &self.table {
                    t.clear();
                }
            }
            _ => self.out.info_string(&format!("unknown option `{name}`")),
        }
    }

    /// Reallocates the table with `mb` MiB, if the memory allows; otherwise keeps the old
    /// table and says why.
    fn set_hash(&mut self, mb: usize) {
        if self.table.is_none() {
            self.hash_mb = mb;
            self.out.info_string(&format!(
                "Hash {mb} noted, but this configuration ({}, tt_mb = {}) searches without a table",
                self.variant.config.algorithm, self.variant.config.tt_mb
            ));
            return;
        }
        let old = self.hash_mb;
        // The old table is freed before the new one is allocated, so it counts as available.
        let reclaimable = crate::memory::available_mb().map(|m| m + old as u64);
        if let Some(available) = reclaimable.filter(|&a| mb as u64 > a) {
            return self.out.info_string(&format!(
                "Hash {mb} is more than the memory available ({available} MiB); keeping the \
                 {old} MiB table"
            ));
        }
        self.table = None;
        let compact = self.variant.config.solve.tt_compact;
        match Table::try_with_layout(mb, compact) {
            Ok(table) => {
                self.table = Some(Arc::new(table));
                self.hash_mb = mb;
                self.variant.config.tt_mb = mb;
            }
            Err(e) => {
                self.out.info_string(&format!(
                    "cannot allocate a {mb} MiB table ({e}); keeping a {old} MiB table"
                ));
                self.table = Some(Arc::new(Table::with_layout(old, compact)));
            }
        }
    }

    /// `go ...`: starts a search on its own thread.
    fn go(&mut self, args: &[&str]) {
        if self.busy("go") {
            return;
        }
        let (go, notes) = Go::parse(args);
        for note in &notes {
            self.out.info_string(note);
        }
        if let Some(reason) = &self.refused_position {
            self.out.info_string(&format!(
                "not searching: the last `position` was refused ({reason})"
            ));
            self.out.line("bestmove (none)");
            return;
        }
        let root_moves = self.root_moves(&go.searchmoves);
        if !go.infinite && !go.ponder && self.play_book_move(&root_moves) {
            return;
        }
        let (mut limits, mut soft) = go.limits(self.position.color_to_move(), self.caps);
        // Pondering runs without a clock; `ponderhit` starts it.
        let ponder = go.ponder.then(|| PonderClock {
            pondering: Arc::new(AtomicBool::new(true)),
            soft_at: Arc::new(Mutex::new(None)),
            hard: limits.time.take(),
            soft: soft.take(),
        });
        let start = Instant::now();
        let soft_at = ponder.as_ref().map_or_else(
            || Arc::new(Mutex::new(soft.map(|s| start + s))),
            |p| Arc::clone(&p.soft_at),
        );
        let tablebases = self.knowledge.probe();
        if tablebases.is_some() && self.threads > 1 && self.table.is_some() {
            self.out.info_string(
                "TablebaseFiles: searching on one thread (lazy SMP does not probe the databases)",
            );
        }
        let single = !root_moves.is_empty() || self.multipv > 1 || tablebases.is_some();
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let job = SearchJob {
            root: self.position.clone(),
            history: self.history.clone(),
            config: SearchConfig {
                threads: if single { 1 } else { self.threads },
                ..self.variant.config.clone()
            },
            root_moves,
            table: self.table.clone(),
            tablebases,
            limits,
            start,
            soft_at,
            pondering: ponder.as_ref().map(|p| Arc::clone(&p.pondering)),
            multipv: self.multipv,
            chess960: self.chess960,
            infinite: go.infinite,
            stop: Arc::clone(&stop),
            done: Arc::clone(&done),
            out: self.out.clone(),
        };
        let eval = self.variant.eval;
        let spawned = std::thread::Builder::new()
            .name("uci-search".into())
            .spawn(move || job.run(eval));
        match spawned {
            Ok(handle) => {
                self.search = Some(Running {
                    stop,
                    done,
                    handle,
                    ponder,
                });
            }
            Err(e) => {
                self.out
                    .info_string(&format!("cannot start the search thread: {e}"));
                let first = self.position.legal_moves().first().map(ToString::to_string);
                self.out.line(&format!(
                    "bestmove {}",
                    first.as_deref().unwrap_or("(none)")
                ));
            }
        }
    }

    /// `OwnBook`: answers `go` with the book's move when the position is in the book (among
    /// the `searchmoves` codes, when given); true when it did.
    fn play_book_move(&self, root_moves: &[u16]) -> bool {
        let allowed =
            |m: ChessMove| root_moves.is_empty() || root_moves.contains(&Chess::move_code(m));
        let Some(book) = self.knowledge.book_move(&self.position, allowed) else {
            return false;
        };
        let text = move_text(book.mv, self.chess960);
        self.out.info_string(&format!(
            "book move {text} (weight {} of {})",
            book.weight, book.total
        ));
        self.out.line(&format!("bestmove {text}"));
        true
    }

    /// The move codes of `go searchmoves`: the legal ones (others are reported and left
    /// out); empty when none is given or none is legal (then every move is searched).
    fn root_moves(&self, texts: &[String]) -> Vec<u16> {
        let mut codes = Vec::new();
        for text in texts {
            match parse_move(&self.position, text, self.chess960) {
                Ok(mv) => codes.push(Chess::move_code(mv)),
                Err(e) => self
                    .out
                    .info_string(&format!("searchmoves: `{text}` left out: {e}")),
            }
        }
        if codes.is_empty() && !texts.is_empty() {
            self.out
                .info_string("searchmoves lists no legal move: searching every move");
        }
        let parallel = if self.variant.config.algorithm == Algorithm::Ybw {
            "Young Brothers Wait"
        } else {
            "lazy SMP"
        };
        if self.multipv > 1 && self.threads > 1 && self.table.is_some() {
            self.out.info_string(&format!(
                "MultiPV: searching on one thread ({parallel} finds one line)"
            ));
        } else if !codes.is_empty() && self.threads > 1 && self.table.is_some() {
            self.out.info_string(&format!(
                "searchmoves: searching on one thread ({parallel} searches every move)"
            ));
        }
        codes
    }
}

/// Whether `config` searches with a table.
fn uses_table(config: &SearchConfig) -> bool {
    config.algorithm.is_alphabeta() && config.tt_mb > 0
}

/// A move in UCI text: with `chess960`, castling only as king takes own rook (`e1h1`, the
/// `UCI_Chess960` convention), otherwise as [`Chess::parse_uci`] reads it.
fn parse_move(position: &Chess, text: &str, chess960: bool) -> Result<ChessMove, String> {
    if !chess960 {
        return position.parse_uci(text).map_err(|e| e.to_string());
    }
    position
        .legal_moves()
        .into_iter()
        .find(|m| m.raw().to_string() == text)
        .ok_or_else(|| {
            format!("`{text}` is not a legal move here (UCI_Chess960: castling as king takes rook)")
        })
}

/// A move in UCI text: castling as king takes own rook with `chess960`.
fn move_text(mv: ChessMove, chess960: bool) -> String {
    if chess960 {
        mv.raw().to_string()
    } else {
        mv.to_string()
    }
}

/// Reads the arguments of `position` into the position and the hashes of the positions
/// before it (a FEN and moves as Chess960's if `chess960`).
fn parse_position(args: &[&str], chess960: bool) -> Result<(Chess, Vec<u64>), String> {
    let moves_at = args.iter().position(|&w| w == "moves");
    let (setup, moves) = args.split_at(moves_at.unwrap_or(args.len()));
    let mut position = match setup {
        ["startpos"] => Chess::startpos(),
        ["fen", fen @ ..] if !fen.is_empty() => if chess960 {
            Chess::parse_chess960(&fen.join(" "))
        } else {
            Chess::parse_position(&fen.join(" "))
        }
        .map_err(|e| format!("bad FEN `{}`: {e}", fen.join(" ")))?,
        _ => {
            return Err(format!(
                "expected `position startpos|fen FEN [moves ...]`, got `position {}`",
                args.join(" ")
            ));
        }
    };
    let moves = moves.get(1..).unwrap_or_default();
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = parse_move(&position, text, chess960)
            .map_err(|e| format!("move {} of {}: {e}", i + 1, moves.len()))?;
        history.push(position.hash());
        position.play(mv);
    }
    Ok((position, history))
}

/// Reads `name NAME [value VALUE]` (names and values may hold spaces).
fn parse_setoption(args: &[&str]) -> Result<(String, String), String> {
    let usage = || "expected `setoption name NAME [value VALUE]`".to_string();
    let ["name", rest @ ..] = args else {
        return Err(usage());
    };
    let value_at = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let (name, value) = rest.split_at(value_at.unwrap_or(rest.len()));
    if name.is_empty() {
        return Err(usage());
    }
    Ok((name.join(" "), value.get(1..).unwrap_or_default().join(" ")))
}

/// The arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Go {
    depth: Option<u32>,
    nodes: Option<u64>,
    mate: Option<u32>,
    movetime: Option<u64>,
    wtime: Option<i64>,
    btime: Option<i64>,
    winc: Option<i64>,
    binc: Option<i64>,
    movestogo: Option<u32>,
    infinite: bool,
    /// `ponder`: search without a clock until `ponderhit` or `stop`.
    ponder: bool,
    /// `searchmoves`: the moves as written.
    searchmoves: Vec<String>,
    /// A zero `depth`, `nodes`, `mate` or `movetime`: answer at once (one ply).
    at_once: bool,
}

/// The words that start an argument of `go` (UCI 2000/2006); `searchmoves` takes the
/// moves up to the next of them.
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

impl Go {
    /// Reads `go`'s arguments; a bare `go` (or one with only `ponder` or `searchmoves`)
    /// searches until `stop`. Never fails: what cannot be read is left out and described in
    /// the notes, which the engine writes as `info string` lines.
    fn parse(args: &[&str]) -> (Self, Vec<String>) {
        let mut go = Self::default();
        let mut notes = Vec::new();
        let mut words = args.iter().copied().peekable();
        while let Some(key) = words.next() {
            let value = if matches!(key, "infinite" | "ponder" | "searchmoves") {
                None
            } else if GO_KEYWORDS.contains(&key) {
                match words.next_if(|w| !GO_KEYWORDS.contains(w)) {
                    Some(v) => Some(v),
                    None => {
                        notes.push(format!("`go {key}` needs a number; left out"));
                        continue;
                    }
                }
            } else {
                notes.push(format!("unknown `go` argument `{key}`; left out"));
                continue;
            };
            if let Err(why) = go.set(key, value, &mut words) {
                notes.push(why);
            }
        }
        let limited = go.depth.is_some()
            || go.nodes.is_some()
            || go.mate.is_some()
            || go.movetime.is_some()
            || go.wtime.is_some()
            || go.btime.is_some()
            || go.at_once;
        // A `go` whose limits were all unreadable answers at once rather than searching
        // until a `stop` the GUI will never send.
        go.at_once |= !limited && !go.infinite && !notes.is_empty();
        go.infinite |= !limited && !go.at_once;
        (go, notes)
    }

    /// Sets one argument; `words` supplies the moves of `searchmoves`.
    fn set<'a>(
        &mut self,
        key: &str,
        value: Option<&str>,
        words: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
    ) -> Result<(), String> {
        fn number<T: std::str::FromStr>(key: &str, text: Option<&str>) -> Result<T, String> {
            let text = text.unwrap_or_default();
            text.parse().map_err(|_| {
                format!("`go {key} {text}`: `{text}` is not a valid number here; left out")
            })
        }
        // A clock may run below zero (an overstepped move), an increment cannot.
        fn increment(key: &str, ms: i64) -> Result<i64, String> {
            if ms < 0 {
                return Err(format!(
                    "`go {key} {ms}`: an increment is not negative; left out"
                ));
            }
            Ok(ms)
        }
        match key {
            "depth" => self.depth = self.nonzero(number(key, value)?),
            "nodes" => self.nodes = self.nonzero(number(key, value)?),
            "mate" => self.mate = self.nonzero(number(key, value)?),
            "movetime" => self.movetime = self.nonzero(number(key, value)?),
            "wtime" => self.wtime = Some(number(key, value)?),
            "btime" => self.btime = Some(number(key, value)?),
            "winc" => self.winc = Some(increment(key, number(key, value)?)?),
            "binc" => self.binc = Some(increment(key, number(key, value)?)?),
            "movestogo" => self.movestogo = Some(number(key, value)?),
            "infinite" => self.infinite = true,
            "ponder" => self.ponder = true,
            "searchmoves" => {
                while let Some(mv) = words.next_if(|w| !GO_KEYWORDS.contains(w)) {
                    self.searchmoves.push(mv.to_owned());
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `Some(n)` for a positive limit; a zero limit asks for an answer at once.
    fn nonzero<T: Default + PartialEq>(&mut self, n: T) -> Option<T> {
        if n == T::default() {
            self.at_once = true;
            None
        } else {
            Some(n)
        }
    }

    /// The search limits for `side` to move, each capped by `caps`, and the soft time
    /// after which no new iteration starts (clock searches only).
    fn limits(&self, side: Color, caps: Limits) -> (Limits, Option<Duration>) {
        let millis = |ms: i64| Duration::from_millis(ms.max(0).unsigned_abs());
        let (time, inc) = match side {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        // A clock for the opponent alone leaves the side to move none: as in Stockfish, it
        // then has no time (the least search, 1 ms) rather than all the time there is.
        let time = time.or_else(|| (self.wtime.is_some() || self.btime.is_some()).then_some(0));
        let clock = time.map(|t| time_budget(millis(t), millis(inc.unwrap_or(0)), self.movestogo));
        let mut limits = Limits {
            depth: min_some(self.depth, self.mate.map(|m| m.saturating_mul(2) - 1)),
            nodes: self.nodes,
            time: min_some(self.movetime.map(Duration::from_millis), clock.map(|c| c.0)),
        };
        if self.at_once {
            limits = Limits {
                depth: Some(1),
                ..Limits::default()
            };
        } else if self.infinite {
            limits = Limits::default();
        }
        limits.depth = min_some(limits.depth, caps.depth);
        limits.nodes = min_some(limits.nodes, caps.nodes);
        limits.time = min_some(limits.time, caps.time);
        let soft = if self.infinite || self.at_once {
            None
        } else {
            clock.map(|c| c.1)
        };
        (limits, soft)
    }
}

/// The smaller of two optional limits (either alone if the other is absent).
fn min_some<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Everything a search thread needs, owned.
struct SearchJob {
    root: Chess,
    history: Vec<u64>,
    config: SearchConfig,
    table: Option<Arc<Table>>,
    /// `TablebaseFiles`: the databases the search probes.
    tablebases: Option<Arc<Tablebases>>,
    limits: Limits,
    /// When `go` arrived: `nodes` and `time` in `info` count from it.
    start: Instant,
    /// No new iteration starts after this (clock searches; set by `ponderhit` when pondering).
    soft_at: Arc<Mutex<Option<Instant>>>,
    /// `go ponder`: true until `ponderhit`; `bestmove` waits for it (or for `stop`).
    pondering: Option<Arc<AtomicBool>>,
    multipv: usize,
    chess960: bool,
    infinite: bool,
    /// `searchmoves` as move codes; empty: every move.
    root_moves: Vec<u16>,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
    out: Output,
}

impl SearchJob {
    /// Searches with the chess evaluator `eval` and writes `bestmove` (even if the search
    /// panicked: then the first legal move, so that a GUI is never left waiting).
    fn run(self, eval: EvalSetting) {
        let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match eval {
            EvalSetting::Material => self.search(&Material),
            EvalSetting::Shannon => self.search(&Shannon),
            // Backgammon's evaluations are not chess's: the default stands in.
            EvalSetting::Pst | EvalSetting::Pubeval | EvalSetting::Race => self.search(&Pst),
            EvalSetting::Linear(id) => match &id.get().chess {
                Some(linear) => self.search(linear),
                None => self.search(&Pst),
            },
        }));
        let (best, reply) = searched.unwrap_or_else(|_| {
            self.out
                .info_string("the search panicked; playing the first legal move");
            (self.first_allowed(), None)
        });
        let pondering = || self.pondering.as_ref().is_some_and(|p| p.load(Relaxed));
        // `go infinite` answers only after `stop`, and `go ponder` after `ponderhit` or
        // `stop`, even when the search ended by itself.
        while (self.infinite || pondering()) && !self.stop.load(Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.done.store(true, Relaxed);
        let text = |m: ChessMove| move_text(m, self.chess960);
        let line = match (best, reply) {
            (None, _) => "bestmove (none)".to_string(),
            (Some(best), None) => format!("bestmove {}", text(best)),
            (Some(best), Some(reply)) => format!("bestmove {} ponder {}", text(best), text(reply)),
        };
        self.out.line(&line);
    }

    /// Searches, writing info lines per completed iteration; the move to play (`None`
    /// when the root has no legal move) and the reply expected to it (the second move of the
    /// principal variation, for `bestmove ... ponder`).
    fn search<E: Evaluator<Chess>>(&self, eval: &E) -> (Option<ChessMove>, Option<ChessMove>) {
        let first_legal = self.first_allowed();
        let Some(first_legal) = first_legal else {
            let why = if self.root.in_check() {
                "checkmate"
            } else {
                "stalemate"
            };
            self.out.info_string(&format!("no legal move here ({why})"));
            return (None, None);
        };
        let start = self.start;
        let mut nodes = 0;
        let mut line = String::with_capacity(256);
        let info = Info {
            chess960: self.chess960,
            table: self.table.as_deref(),
            start,
            tb_hits: self.tablebases.as_ref().map(|_| AtomicU64::new(0)),
        };
        let on_iteration = |it: &Iteration<ChessMove>| {
            nodes += it.stats.nodes;
            if let Some(hits) = &info.tb_hits {
                hits.fetch_add(it.stats.tb_hits, Relaxed);
            }
            info.iteration(&mut line, it, nodes);
            self.out.line(&line);
            for (k, extra) in it.lines.iter().enumerate() {
                let ranked = Iteration {
                    score: extra.score,
                    pv: extra.pv.clone(),
                    best_move: extra.pv.first().copied(),
                    lines: Vec::new(),
                    ..it.clone()
                };
                info.line(&mut line, &ranked, k + 2, nodes);
                self.out.line(&line);
            }
            let soft_at = *self
                .soft_at
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if soft_at.is_some_and(|t| Instant::now() >= t) {
                self.stop.store(true, Relaxed);
            }
        };
        let report = Reporter {
            info: &info,
            out: &self.out,
        };
        let result = match &self.table {
            // Several threads over the engine's table: Young Brothers Wait where the
            // configuration asks for it (`--config` with algorithm = "ybw"), else lazy SMP
            // (info lines count the main thread's nodes).
            Some(table) if self.config.threads > 1 => {
                let shared = Shared {
                    table,
                    stop: &self.stop,
                    history: &self.history,
                };
                let threads = self.config.threads;
                if self.config.algorithm == Algorithm::Ybw {
                    let threads = threads.min(crate::search::ybw::MAX_THREADS);
                    self.out
                        .info_string(&format!("Young Brothers Wait on {threads} threads"));
                    ybw_observed(
                        &self.root,
                        eval,
                        &self.config,
                        &self.limits,
                        threads,
                        &shared,
                        on_iteration,
                    )
                } else {
                    self.out
                        .info_string(&format!("lazy SMP on {threads} threads"));
                    let config = SearchConfig {
                        algorithm: Algorithm::LazySmp,
                        ..self.config.clone()
                    };
                    lazy_smp_observed(
                        &self.root,
                        eval,
                        &config,
                        &self.limits,
                        threads,
                        &shared,
                        on_iteration,
                    )
                }
            }
            _ => {
                let mut searcher = Searcher::new(eval, &self.config)
                    .with_stop(&self.stop)
                    .with_history(&self.history)
                    .with_root_moves(&self.root_moves)
                    .with_multipv(self.multipv)
                    .with_report(&report)
                    .with_knowledge(as_probe(self.tablebases.as_deref()));
                if let Some(table) = &self.table {
                    searcher = searcher.with_table(table);
                }
                searcher.run_observed(&self.root, &self.limits, on_iteration)
            }
        };
        let best = result.best_move().unwrap_or(first_legal);
        let reply = result
            .iterations
            .last()
            .filter(|it| it.best_move == Some(best))
            .and_then(|it| it.pv.get(1).copied());
        (Some(best), reply)
    }

    /// The first legal move that `searchmoves` allows (any, without `searchmoves`).
    fn first_allowed(&self) -> Option<ChessMove> {
        let allowed = |m: &ChessMove| {
            self.root_moves.is_empty() || self.root_moves.contains(&Chess::move_code(*m))
        };
        self.root.legal_moves().into_iter().find(allowed)
    }
}

/// What every `info` line of one search shares.
struct Info<'a> {
    chess960: bool,
    /// The engine's table, for `hashfull`.
    table: Option<&'a Table>,
    /// When `go` arrived.
    start: Instant,
    /// With endgame databases: the probes that found the position, from the start of the
    /// search (` tbhits N`).
    tb_hits: Option<AtomicU64>,
}

impl Info<'_> {
    /// Writes the `info` line of a completed iteration into `line` (`multipv 1` when more
    /// lines follow); `nodes` counts from the start of the search.
    fn iteration(&self, line: &mut String, it: &Iteration<ChessMove>, nodes: u64) {
        let rank = if it.lines.is_empty() { 0 } else { 1 };
        self.line(line, it, rank, nodes);
    }

    /// Writes the `info` line of `it` as line `rank` of a MultiPV search (0: not one).
    fn line(&self, line: &mut String, it: &Iteration<ChessMove>, rank: usize, nodes: u64) {
        use std::fmt::Write as _;
        line.clear();
        let _ = write!(
            line,
            "info depth {} seldepth {}",
            it.depth, it.stats.max_ply
        );
        if rank > 0 {
            let _ = write!(line, " multipv {rank}");
        }
        self.score(line, it.score, None);
        self.counters(line, nodes);
        self.pv(line, &it.pv);
    }

    /// ` score cp X|mate N [lowerbound|upperbound]`.
    fn score(&self, line: &mut String, s: Score, lower: Option<bool>) {
        use std::fmt::Write as _;
        let _ = match score::mate_in_moves(s) {
            Some(m) => write!(line, " score mate {m}"),
            None => write!(line, " score cp {s}"),
        };
        match lower {
            Some(true) => line.push_str(" lowerbound"),
            Some(false) => line.push_str(" upperbound"),
            None => {}
        }
    }

    /// ` nodes N nps N time MS [hashfull N]`, counted from the start of the search.
    fn counters(&self, line: &mut String, nodes: u64) {
        use std::fmt::Write as _;
        let elapsed = self.start.elapsed();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
        let _ = write!(
            line,
            " nodes {nodes} nps {nps} time {}",
            elapsed.as_millis()
        );
        if let Some(table) = self.table {
            let _ = write!(line, " hashfull {}", table.hashfull());
        }
        if let Some(hits) = &self.tb_hits {
            let _ = write!(line, " tbhits {}", hits.load(Relaxed));
        }
    }

    /// ` pv m1 m2 ...` (nothing for an empty line).
    fn pv(&self, line: &mut String, pv: &[ChessMove]) {
        use std::fmt::Write as _;
        if !pv.is_empty() {
            line.push_str(" pv");
            for &mv in pv {
                let _ = write!(line, " {}", move_text(mv, self.chess960));
            }
        }
    }
}

/// Writes the root events of a search as `info` lines: `currmove` (after
/// [`CURRMOVE_AFTER`]) and the bounds of failed aspiration windows.
struct Reporter<'a> {
    info: &'a Info<'a>,
    out: &'a Output,
}

impl RootReport<ChessMove> for Reporter<'_> {
    fn current_move(&self, depth: u32, mv: ChessMove, number: usize, _nodes: u64) {
        if self.info.start.elapsed() >= CURRMOVE_AFTER {
            self.out.line(&format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                move_text(mv, self.info.chess960)
            ));
        }
    }

    fn bound(&self, depth: u32, score: Score, lower: bool, pv: &[ChessMove], nodes: u64) {
        let mut line = format!("info depth {depth}");
        self.info.score(&mut line, score, Some(lower));
        self.info.counters(&mut line, nodes);
        self.info.pv(&mut line, pv);
        self.out.line(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_keeps_the_configurations_layout_through_hash() {
        for compact in [false, true] {
            let mut config = SearchConfig {
                tt_mb: 4,
                ..SearchConfig::default()
            };
            config.solve.tt_compact = compact;
            let variant = SearcherVariant::new("t", config);
            let mut engine = Engine::new(&variant, Limits::default(), io::sink());
            let is_compact = |e: &Engine| e.table.as_ref().map(|t| t.is_compact());
            assert_eq!(is_compact(&engine), Some(compact));
            engine.set_hash(2);
            assert_eq!(engine.hash_mb, 2);
            assert_eq!(is_compact(&engine), Some(compact), "after Hash");
        }
    }

    #[test]
    fn an_endless_line_is_skipped_in_bounded_memory() {
        let mut text = vec![0u8; 3 * MAX_LINE_BYTES];
        text.extend_from_slice(b"\nisready\nno newline at the end");
        let mut input = io::BufReader::with_capacity(4096, &text[..]);
        let mut bytes = Vec::new();
        assert_eq!(
            read_command(&mut input, &mut bytes).unwrap(),
            Command::TooLong
        );
        assert!(bytes.capacity() <= 2 * MAX_LINE_BYTES + 2);
        assert_eq!(read_command(&mut input, &mut bytes).unwrap(), Command::Line);
        assert_eq!(bytes, b"isready\n");
        assert_eq!(read_command(&mut input, &mut bytes).unwrap(), Command::Line);
        assert_eq!(bytes, b"no newline at the end");
        assert_eq!(read_command(&mut input, &mut bytes).unwrap(), Command::End);
        // A line of exactly the limit (newline not counted) is still a command.
        let mut text = vec![b' '; MAX_LINE_BYTES];
        text.push(b'\n');
        let mut input = &text[..];
        assert_eq!(read_command(&mut input, &mut bytes).unwrap(), Command::Line);
        assert_eq!(read_command(&mut input, &mut bytes).unwrap(), Command::End);
    }

    /// What an engine writes, shared with the test that reads it.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The protocol's "joho debug on": an unknown token is skipped and the rest read.
    #[test]
    fn an_unknown_word_is_skipped_and_the_rest_of_the_line_read() {
        let variant = SearcherVariant::new("t", SearchConfig::default());
        let out = Captured::default();
        let mut engine = Engine::new(&variant, Limits::default(), out.clone());
        for line in ["joho isready", "joho", "", "x y isready now"] {
            assert_eq!(engine.handle(line), Flow::Continue);
        }
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text, "readyok\ninfo string unknown command `joho`\nreadyok\n",
            "{text}"
        );
    }

    #[test]
    fn go_arguments() {
        let parse = |args: &[&str]| Go::parse(args).0;
        let go = parse(&["wtime", "1000", "btime", "-5", "winc", "10"]);
        assert!(!go.infinite);
        assert_eq!(go.btime, Some(-5));
        let (limits, soft) = go.limits(Color::Black, Limits::default());
        assert_eq!(limits.time, Some(Duration::from_millis(1)));
        assert!(soft.is_some());
        // The opponent's clock alone: the side to move has no time, not all there is.
        for args in [&["btime", "100", "binc", "0"][..], &["wtime", "60000"]] {
            let side = if args[0] == "btime" {
                Color::White
            } else {
                Color::Black
            };
            let (limits, _) = parse(args).limits(side, Limits::default());
            assert_eq!(limits.time, Some(Duration::from_millis(1)), "{args:?}");
        }
        assert!(parse(&[]).infinite);
        // Unreadable arguments are left out with a note; the rest still counts.
        for bad in [
            &["depth", "x"][..],
            &["depth"],
            &["sideways"],
            &["depth", "-1"],
            &["winc", "-5000"],
        ] {
            // Nothing else limits the search: it answers at once rather than forever.
            let (go, notes) = Go::parse(bad);
            assert!(
                go.at_once && !go.infinite && notes.len() == 1,
                "{bad:?}: {notes:?}"
            );
        }
        let (go, notes) = Go::parse(&["depth", "movetime", "50"]);
        assert_eq!((go.depth, go.movetime, notes.len()), (None, Some(50), 1));
        // A zero limit answers at once, after one ply.
        for zero in ["depth", "movetime", "nodes", "mate"] {
            let go = parse(&[zero, "0"]);
            assert!(go.at_once && !go.infinite, "{zero}");
            let (limits, _) = go.limits(Color::White, Limits::default());
            assert_eq!((limits.depth, limits.time), (Some(1), None));
        }
        let go = parse(&["searchmoves", "e2e4", "d2d4", "depth", "3"]);
        assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(go.depth, Some(3));
        let go = parse(&["depth", "9", "mate", "2"]);
        let caps = Limits {
            nodes: Some(100),
            ..Limits::default()
        };
        let (limits, soft) = go.limits(Color::White, caps);
        assert_eq!(
            (limits.depth, limits.nodes, soft),
            (Some(3), Some(100), None)
        );
    }

    #[test]
    fn positions_and_options() {
        let (pos, history) =
            parse_position(&["startpos", "moves", "g1f3", "g8f6", "f3g1"], false).unwrap();
        assert_eq!(history.len(), 3);
        assert_eq!(history[0], Chess::startpos().hash());
        assert_ne!(pos.hash(), Chess::startpos().hash());
        assert!(parse_position(&["startpos", "moves", "e2e5"], false).is_err());
        assert!(parse_position(&["fen", "8/8/8", "w", "-", "-"], false).is_err());
        assert!(parse_position(&["sideways"], false).is_err());
        // Chess960: Shredder-FEN and X-FEN name the same rights; castling is king takes rook.
        let shredder = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
        let x_fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
        let (a, _) = parse_position(&["fen", shredder, "moves", "b1a1"], true).unwrap();
        let (b, _) = parse_position(&["fen", x_fen, "moves", "b1a1"], true).unwrap();
        assert_eq!(a, b);
        let (step, _) = parse_position(&["fen", x_fen, "moves", "b1c1"], true).unwrap();
        assert_ne!(a, step, "b1c1 is the king's step, not the castle");
        assert!(parse_position(&["fen", shredder], false).is_err());
        let no_rook = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/1K5R w A - 0 1";
        assert!(parse_position(&["fen", no_rook], true).is_err());
        assert_eq!(
            parse_setoption(&["name", "Clear", "Hash", "value", "1", "2"]).unwrap(),
            ("Clear Hash".into(), "1 2".into())
        );
        assert!(parse_setoption(&["value", "1"]).is_err());
    }
}

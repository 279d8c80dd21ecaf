//! Fuzz targets as plain functions: each takes arbitrary bytes and must return without a
//! panic, an abort or a hang, whatever the bytes are (issue 11).
//!
//! The cargo-fuzz crate in `fuzz/` wraps each one in a libFuzzer target, and
//! tests/fuzz_smoke.rs replays the committed seeds and regression inputs (`fuzz/seeds/`) plus
//! a few thousand seeded mutations of them under a normal `cargo test`, so that CI runs a
//! short fuzz without a nightly compiler. fuzz/README.md says how to run the long fuzz.
//!
//! A target does more than parse: what parses is used as the program would use it (a
//! position's moves played and written back, a short search, a plan walked as `--dry-run`
//! walks it), because a panic on a parsed input is the bug class the fuzz looks for.
//! Invariants that must hold are asserted, so that a violation is a crash the fuzzer keeps.

use std::path::Path;
use std::time::Duration;

use crate::game::{Game, Notation};
use crate::games::chess::{Chess, Pst};
use crate::games::connect4::{CentreFirst, Connect4};
use crate::games::random_tree::RandomTree;
use crate::games::tictactoe::TicTacToe;
use crate::lab::spec::{GameKind, SearcherVariant};
use crate::rng::XorShift;
use crate::search::{Limits, Quiescence, SearchConfig, Searcher};

/// A fuzz target: arbitrary bytes in, nothing out, never a panic.
pub type Target = fn(&[u8]);

/// Every target by name (the names of `fuzz/fuzz_targets/*.rs` and `fuzz/seeds/*`).
pub const TARGETS: &[(&str, Target)] = &[
    ("fen", fen),
    ("epd", epd),
    ("chess_moves", chess_moves),
    ("connect4", connect4),
    ("tictactoe", tictactoe),
    ("random_tree", random_tree),
    ("test_set_line", test_set_line),
    ("experiment", experiment),
    ("plan", plan),
    ("uci", uci),
    ("othello", othello),
    ("checkers", checkers),
    ("backgammon", backgammon),
];

/// The input as text, as the program reads it (invalid UTF-8 replaced).
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// A small search: alpha-beta with a table, quiescence and PVS, at most 300 nodes.
fn small_search<G: Game, E: crate::game::Evaluator<G>>(pos: &G, eval: &E) {
    let config = SearchConfig {
        tt_mb: 1,
        quiescence: Some(Quiescence {
            max_depth: None,
            checks: true,
            delta: None,
            tt: true,
        }),
        pvs: true,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(3),
        nodes: Some(300),
        time: None,
    };
    let result = Searcher::new(eval, &config).run(pos, &limits);
    if let Some(best) = result.best_move() {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert!(
            moves.contains(&best),
            "the search chose a move that is not legal"
        );
    }
}

/// A chess position read as a FEN (or `startpos`): every legal move is played, written in
/// SAN and read back, and the child written as FEN and read back (a valid position's
/// children are valid); then a small search.
pub fn fen(data: &[u8]) {
    let Ok(pos) = Chess::parse_position(&text(data)) else {
        return;
    };
    let _ = pos.status();
    for mv in pos.legal_moves() {
        let san = pos.san(mv);
        assert_eq!(
            pos.parse_san(&san).ok(),
            Some(mv),
            "SAN `{san}` does not read back"
        );
        let mut child = pos.clone();
        child.play(mv);
        let fen = child.to_fen();
        let again = Chess::parse_position(&fen);
        assert!(again.is_ok(), "the child FEN `{fen}` is refused: {again:?}");
    }
    small_search(&pos, &Pst);
}

/// An EPD record: FEN plus operations, `bm`/`am` resolved against the position.
pub fn epd(data: &[u8]) {
    let _ = crate::lab::epd::parse_line(&text(data), 1);
}

/// Positions a move-text target is read on: the start, a promotion and castling position,
/// and an en-passant position.
const MOVE_POSITIONS: [&str; 4] = [
    "startpos",
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
];

/// Chess move text (the first byte picks the position): read as UCI, SAN and long
/// algebraic; a move that reads is legal and is written back to itself in SAN.
pub fn chess_moves(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let pos = Chess::parse_position(MOVE_POSITIONS[usize::from(which) % MOVE_POSITIONS.len()])
        .expect("a fixed valid position");
    let text = text(rest);
    let legal = pos.legal_moves();
    for mv in [
        pos.parse_uci(&text),
        pos.parse_san(&text),
        pos.parse_long_algebraic(&text),
        pos.parse_move(&text),
    ]
    .into_iter()
    .flatten()
    {
        assert!(legal.contains(&mv), "`{text}` read as an illegal move");
        assert_eq!(pos.parse_san(&pos.san(mv)).ok(), Some(mv));
    }
}

/// A connect four position in Pons's notation (columns 1-7), then a small search.
pub fn connect4(data: &[u8]) {
    if let Ok(pos) = Connect4::parse_position(&text(data)) {
        let _ = pos.status();
        small_search(&pos, &CentreFirst);
    }
}

/// A tic-tac-toe position (cells 1-9), then a small search.
pub fn tictactoe(data: &[u8]) {
    if let Ok(pos) = TicTacToe::parse_position(&text(data)) {
        let _ = pos.status();
        small_search(&pos, &crate::game::Neutral);
    }
}

/// An othello position (64-character board and side, or `start`) or an `.obf` line: every
/// legal move is written and read back, every child's board string reads back to the same
/// position; then a small search.
pub fn othello(data: &[u8]) {
    use crate::games::othello::{Othello, OthelloEval, OthelloMove};
    let text = text(data);
    let _ = crate::games::othello::obf::parse_line(&text);
    let Ok(pos) = Othello::parse_position(&text) else {
        return;
    };
    let _ = pos.status();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for &mv in &moves {
        let written = mv.to_string();
        assert_eq!(OthelloMove::parse(&written).ok(), Some(mv), "`{written}`");
        let mut child = pos;
        child.play(mv);
        let board = child.to_board_string();
        let again = Othello::parse_position(&board);
        assert!(
            again.is_ok(),
            "the child board `{board}` is refused: {again:?}"
        );
    }
    small_search(&pos, &OthelloEval::STANDARD);
}

/// A checkers position (PDN FEN, optionally followed by moves): every legal move is written
/// in PDN and read back, every child's FEN reads back to the same position; then a small
/// search.
pub fn checkers(data: &[u8]) {
    use crate::games::checkers::notation::{parse_move, to_fen};
    use crate::games::checkers::{Checkers, CheckersEval};
    let Ok(pos) = Checkers::parse_position(&text(data)) else {
        return;
    };
    let _ = pos.status();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for &mv in &moves {
        let written = mv.to_string();
        assert_eq!(parse_move(&pos, &written).ok(), Some(mv), "`{written}`");
        let mut child = pos;
        child.play(mv);
        let fen = to_fen(&child);
        let again = Checkers::parse_position(&fen);
        assert!(again.is_ok(), "the child FEN `{fen}` is refused: {again:?}");
    }
    small_search(&pos, &CheckersEval::default());
}

/// A backgammon position (`start` or a Position ID, a roll, `;`-separated plays): the
/// position and each position a move or roll leads to are written (Position ID and roll)
/// and read back to the same board.
pub fn backgammon(data: &[u8]) {
    use crate::games::backgammon::Backgammon;
    let Ok(pos) = Backgammon::parse_position(&text(data)) else {
        return;
    };
    let _ = pos.status();
    let mut next = Vec::new();
    if pos.is_chance() {
        let mut outcomes = Vec::new();
        pos.chance_outcomes(&mut outcomes);
        next.extend(outcomes.into_iter().map(|(roll, _)| roll));
    } else {
        pos.generate_moves(&mut next);
    }
    for child in std::iter::once(pos).chain(next.into_iter().map(|mv| {
        let mut child = pos;
        child.play(mv);
        child
    })) {
        let written = child.to_string();
        let again = Backgammon::parse_position(&written);
        assert!(again.is_ok(), "`{written}` is refused: {again:?}");
        // A Position ID is written from the side to move's point of view.
        let again = again.expect("read back");
        let sides = |p: &Backgammon| {
            let me = p.side_to_move();
            (*p.row(me), *p.row(me.other()))
        };
        assert_eq!(sides(&again), sides(&child), "`{written}`");
    }
}

/// A random tree's parameters and path (`b=.. d=.. seed=.. model=.. path=..`), then its
/// root's moves and a small search.
pub fn random_tree(data: &[u8]) {
    if let Ok(pos) = RandomTree::parse_position(&text(data)) {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        small_search(&pos, &crate::games::random_tree::TreeValue);
    }
}

/// One line of a test-set file, for each game (the first byte picks the game).
pub fn test_set_line(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let kinds = [
        GameKind::Tictactoe,
        GameKind::Connect4,
        GameKind::RandomTree,
        GameKind::Chess,
    ];
    let kind = kinds[usize::from(which) % kinds.len()];
    let _ = crate::lab::test_set::parse_line(kind, &text(rest), "fuzz");
}

/// Where experiment texts are said to live: test sets and books are looked up beside it,
/// in the repository's own data.
const EXPERIMENT_PATH: &str = "experiments/fuzz.toml";

/// An experiment or arena file, validated into a plan as `plylab experiment --dry-run`
/// does, and the plan walked (names, parameters, schedule). Texts naming files under
/// /dev, /proc or /sys are skipped: reading a device such as /dev/stdin may block, which
/// would be a property of the machine, not of plylab.
pub fn experiment(data: &[u8]) {
    let text = text(data);
    if ["/dev", "/proc", "/sys"].iter().any(|d| text.contains(d)) {
        return;
    }
    validate_text(&text);
}

/// Parses `text` as an experiment file and, with a `[match]` table, as an arena file.
fn validate_text(text: &str) {
    let path = Path::new(EXPERIMENT_PATH);
    if let Ok(plan) = crate::lab::spec::parse(path, text) {
        for job in &plan.jobs {
            let _ = (job.searcher.name(), job.searcher.params());
            let _ = job.searcher.config_for(&job.position.position);
        }
    }
    if let Ok(plan) = crate::arena::spec::parse(path, text) {
        let _ = plan.schedule();
    }
}

/// A structured fuzzer for experiment plans: the bytes choose, key by key, an experiment
/// or arena file from the grammar of EXPERIMENTS.md (values both valid and not, numbers
/// at the edges of their types, sweeps, references, labels that collide), which is then
/// validated and walked as [`experiment`] does.
pub fn plan(data: &[u8]) {
    validate_text(&plan_text(data));
}

/// The experiment text that [`plan`] builds from `data`.
#[must_use]
pub fn plan_text(data: &[u8]) -> String {
    let mut g = Choices { data, at: 0 };
    let mut out = String::from("name = \"fuzz\"\n");
    if g.flip() {
        out += &format!("seed = {}\n", g.number());
    }
    if g.flip() {
        out += &format!("repetitions = {}\n", g.count());
    }
    if g.flip() {
        out += &format!("limits = {}\n", g.limits());
    }
    let arena = g.flip();
    if arena {
        out += &g.match_table();
    }
    for _ in 0..g.below(3) + usize::from(!arena) {
        out += &g.game();
    }
    for i in 0..=g.below(4) {
        out += &g.searcher(i);
    }
    if g.flip() {
        out += &format!(
            "[[references]]\nset = {}\nsearcher = {}\nmetric = {}\nvalue = 1.5\nsource = \"s\"\n",
            g.pick(&["\"Test_L3_R1\"", "\"start\"", "\"x\""]),
            g.pick(&["\"s0\"", "\"s1\"", "\"s0[tt_mb=0]\"", "\"zz\""]),
            g.pick(&["\"nodes\"", "\"node\"", "1"]),
        );
    }
    out
}

/// Reads choices from the fuzzer's bytes (zeros once they run out).
struct Choices<'a> {
    data: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn flip(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }

    fn pick<'s>(&mut self, options: &[&'s str]) -> &'s str {
        options[self.below(options.len())]
    }

    /// A TOML number at the edges of the types the files use, or any byte.
    fn number(&mut self) -> String {
        const EDGES: [&str; 14] = [
            "0",
            "1",
            "2",
            "3",
            "24",
            "256",
            "4096",
            "65536",
            "4294967295",
            "4294967296",
            "9223372036854775807",
            "-1",
            "-9223372036854775808",
            "1.5",
        ];
        if self.flip() {
            EDGES[self.below(EDGES.len())].to_owned()
        } else {
            self.byte().to_string()
        }
    }

    /// A count (`repetitions`, `trees`, `take`, `games`): small, or past the caps and the
    /// types. Counts
    /// that are valid but large make plans of up to 250,000 jobs that take a tenth of a
    /// second each to make, and would slow the fuzz a thousandfold for no new path.
    fn count(&mut self) -> String {
        const COUNTS: [&str; 8] = ["0", "1", "2", "3", "7", "4294967296", "-1", "1.5"];
        if self.flip() {
            COUNTS[self.below(COUNTS.len())].to_owned()
        } else {
            (self.byte() % 8).to_string()
        }
    }

    /// A number or a sweep of numbers.
    fn sweep(&mut self) -> String {
        if self.flip() {
            return self.number();
        }
        let items: Vec<String> = (0..self.below(4)).map(|_| self.number()).collect();
        format!("[{}]", items.join(", "))
    }

    fn limits(&mut self) -> String {
        let mut parts = Vec::new();
        for key in ["depth", "nodes", "time_ms"] {
            if self.flip() {
                parts.push(format!("{key} = {}", self.sweep()));
            }
        }
        if self.below(8) == 0 {
            return format!("[{}]", self.number());
        }
        format!("{{ {} }}", parts.join(", "))
    }

    fn game(&mut self) -> String {
        const POSITIONS: [&str; 8] = [
            "\"start\"",
            "\"4444\"",
            "\"44444444\"",
            "\"1 5 9\"",
            "\"startpos\"",
            "\"8/8/8/8/8/3kK3/8/8 w - - 0 1\"",
            "\"4k3/Q7/3K4/8/8/8/8/8 w - - 0 1\"",
            "\"\"",
        ];
        let kind = self.pick(&[
            "\"tictactoe\"",
            "\"connect4\"",
            "\"random_tree\"",
            "\"chess\"",
            "\"go\"",
        ]);
        let mut out = format!("[[games]]\ngame = {kind}\n");
        match self.below(5) {
            0 => out += &format!("positions = [{}]\n", self.pick(&POSITIONS)),
            1 => {
                let file = self.pick(&[
                    "\"data/connect4/Test_L3_R1\"",
                    "\"data/chess/mate_in_1.epd\"",
                    "\"missing\"",
                ]);
                out += &format!("file = {file}\n");
                // Mostly a few positions: a whole file times the sweeps makes slow plans.
                if self.below(8) > 0 {
                    out += &format!("take = {}\n", self.count());
                }
            }
            2 => {
                out += &format!("b = {}\nd = {}\n", self.sweep(), self.sweep());
                if self.flip() {
                    out += &format!("trees = {}\n", self.count());
                }
                if self.flip() {
                    out += "model = \"incremental\"\n";
                }
            }
            _ => {}
        }
        if self.flip() {
            out += &format!("limits = {}\n", self.limits());
        }
        if self.flip() {
            out += &format!("searchers = [{}]\n", self.pick(&["\"s0\"", "\"s9\"", ""]));
        }
        out
    }

    fn searcher(&mut self, index: usize) -> String {
        let label = if self.below(6) == 0 {
            "s0[tt_mb=0]".to_owned()
        } else {
            format!("s{index}")
        };
        let algorithm = self.pick(&[
            "\"alphabeta\"",
            "\"minimax\"",
            "\"lazy_smp\"",
            "\"ybw\"",
            "\"uct\"",
            "\"root_parallel\"",
            "\"tree_parallel\"",
            "[\"alphabeta\", \"uct\"]",
            "\"alphabet\"",
        ]);
        let mut out = format!("[[searchers]]\nlabel = \"{label}\"\nalgorithm = {algorithm}\n");
        const KEYS: [&str; 26] = [
            "tt_mb",
            "threads",
            "helper_depths",
            "main_depths",
            "aspiration",
            "check_extension",
            "delta_margin",
            "exploration",
            "playout_cutoff",
            "hold_depth",
            "hold_playouts",
            "expand_visits",
            "tree_mb",
            "quiescence",
            "null_move",
            "pvs",
            "etc",
            "win_check",
            "score_window",
            "score_grain",
            "mtd",
            "anticipate",
            "weak",
            "tt_compact",
            "tt_lower_bounds",
            "endgame_solver",
        ];
        for _ in 0..self.below(4) {
            let key = self.pick(&KEYS);
            let value = match key {
                "quiescence" => self
                    .pick(&["\"unlimited\"", "\"off\"", "4", "\"x\""])
                    .into(),
                "null_move" => self.pick(&["\"adaptive\"", "2", "9", "\"off\""]).into(),
                "helper_depths" => self
                    .pick(&["\"same\"", "[\"alternate\", \"same\"]", "\"x\"", "1"])
                    .into(),
                "main_depths" => self
                    .pick(&["\"alternate\"", "[\"every\", \"alternate\"]", "\"x\"", "1"])
                    .into(),
                "pvs" | "etc" | "win_check" | "score_window" | "mtd" | "anticipate" | "weak"
                | "tt_compact" | "tt_lower_bounds" => {
                    self.pick(&["true", "[true, false]", "1"]).into()
                }
                _ => self.sweep(),
            };
            out += &format!("{key} = {value}\n");
        }
        if self.flip() {
            out += "ordering = { hint = true, killers = [true, false] }\n";
        }
        if self.flip() {
            out += &format!("limits = {}\n", self.limits());
        }
        out
    }

    fn match_table(&mut self) -> String {
        let game = self.pick(&["\"connect4\"", "\"tictactoe\"", "\"chess\""]);
        let mut out = format!("[match]\ngame = {game}\ngames = {}\n", self.count());
        if self.flip() {
            out += "format = \"round_robin\"\n";
        }
        match self.below(4) {
            0 => out += &format!("openings = {{ random_plies = {} }}\n", self.number()),
            1 => out += "openings = { positions = [\"4444\", \"start\"] }\n",
            2 => out += "openings = [\"start\"]\n",
            _ => {}
        }
        if self.flip() {
            out += &format!("max_plies = {}\n", self.number());
        }
        if self.flip() {
            out += &format!("concurrency = {}\n", self.number());
        }
        out
    }
}

/// UCI command lines to `plylab uci` (alpha-beta with a 1 MiB table, each search capped
/// at depth 3, 500 nodes and 20 ms), its output discarded; the input's end acts as
/// `quit`. `Hash` above 64 MiB and `Threads` above 4 are left out: honoured, they would
/// allocate gigabytes or hundreds of threads per input, which is what they are for.
pub fn uci(data: &[u8]) {
    let text = text(data);
    let lines: String = text
        .lines()
        .take(64)
        .filter(|line| !excessive_option(line))
        .flat_map(|line| [line, "\n"])
        .collect();
    let searcher = SearcherVariant::new(
        "fuzz",
        SearchConfig {
            tt_mb: 1,
            ..SearchConfig::default()
        },
    );
    let caps = Limits {
        depth: Some(3),
        nodes: Some(500),
        time: Some(Duration::from_millis(20)),
    };
    let engine = crate::uci::Engine::new(&searcher, caps, std::io::sink());
    engine
        .run(std::io::Cursor::new(lines.into_bytes()))
        .expect("reading from memory cannot fail");
}

/// A `setoption` of `Hash` above 64 (MiB) or `Threads` above 4.
fn excessive_option(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    if !lower.contains("setoption") {
        return false;
    }
    let number = lower
        .rsplit(|c: char| !c.is_ascii_digit())
        .find(|w| !w.is_empty())
        .map_or(0, |w| w.parse::<u64>().unwrap_or(u64::MAX));
    (lower.contains("hash") && number > 64) || (lower.contains("thread") && number > 4)
}

/// `count` seeded mutations of `seed` for a smoke fuzz: byte flips, insertions of bytes
/// and of chunks of the input itself, deletions, and truncations (libFuzzer's basic
/// mutations, without its coverage feedback).
#[must_use]
pub fn mutations(seed: &[u8], count: usize, rng_seed: u64) -> Vec<Vec<u8>> {
    let mut rng = XorShift::new(rng_seed);
    (0..count)
        .map(|_| {
            let mut data = seed.to_vec();
            for _ in 0..=rng.below(4) {
                mutate(&mut data, &mut rng);
            }
            data
        })
        .collect()
}

fn mutate(data: &mut Vec<u8>, rng: &mut XorShift) {
    const INTERESTING: &[u8] = b" \n\t0123456789-=[]{}\"/,.abcdefghkqrnbpKQRNBP\xff\x00";
    let len = data.len() as u64;
    let at = rng.below(len + 1) as usize;
    match rng.below(6) {
        0 if at < data.len() => data[at] ^= 1 << rng.below(8),
        1 => data.insert(
            at,
            INTERESTING[rng.below(INTERESTING.len() as u64) as usize],
        ),
        2 if at < data.len() => {
            data.remove(at);
        }
        3 if !data.is_empty() => {
            let from = rng.below(len) as usize;
            let to = (from + 1 + rng.below(8) as usize).min(data.len());
            let chunk = data[from..to].to_vec();
            data.splice(at..at, chunk);
        }
        4 => data.truncate(at),
        _ => data.insert(at, rng.next_u64() as u8),
    }
}

//! The arena as an engine author uses cutechess-cli (issue 15, "Done when"): one gauntlet of
//! plylab's alpha-beta against Stockfish (UCI, Debian `stockfish`) and Fairy-Max (xboard,
//! Debian `fairymax`), once from a PGN opening book on a repeating `moves/time+inc` control
//! and once from a Polyglot `.bin` book on an `m:ss+inc` control, with cutechess-cli's draw
//! and resign adjudication; games.pgn (per-move `{score/depth time}` comments, standard
//! Termination, TimeControl) replayed by python-chess and checked by `pgn-extract` without
//! a word. Skipped, with the reason printed, where an engine is not installed (.ci/run
//! installs them). Then, with plylab's players and the fake UCI engine only: `st` and
//! `timemargin` (a slow engine loses on time), draw and resign adjudication ending games
//! with Termination "adjudication", and the per-game engine logs (kept for a crash, or
//! every game with `engine_log`).

use std::path::{Path, PathBuf};

use crate::common::{
    self, TempDir, pgn_extract_reads_cleanly, plylab, python_chess, python_script,
};

const STOCKFISH: &str = "/usr/games/stockfish";
const FAIRYMAX: &str = "/usr/games/fairymax";
const BOOK_PGN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/book/openings.pgn");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci/fake_engine.py");

/// Whether both engines are installed; prints why the test is skipped when not.
fn engines_present() -> bool {
    for program in [STOCKFISH, FAIRYMAX] {
        if !Path::new(program).exists() {
            let package = program.rsplit('/').next().unwrap_or(program);
            eprintln!("SKIPPED: {program} is absent (apt-get install {package})");
            return false;
        }
    }
    true
}

/// The gauntlet's arena file: plylab's alpha-beta first, then Stockfish at its weakest
/// skill and Fairy-Max, with the `[match]` keys given.
fn gauntlet(name: &str, settings: &str) -> String {
    format!(
        concat!(
            "name = \"{name}\"\nseed = 5\n\n[match]\ngame = \"chess\"\nformat = \"gauntlet\"\n",
            "games = 2\nconcurrency = 2\nmax_plies = 24\n",
            "draw_adjudication = {{ movenumber = 12, movecount = 4, score = 5 }}\n",
            "resign_adjudication = {{ movecount = 3, score = 900, twosided = true }}\n",
            "{settings}\n\n",
            "[[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\ntt_mb = 1\n",
            "ordering = {{ hint = true, tt_move = true, killers = true, history = true }}\n\n",
            "[[searchers]]\nlabel = \"stockfish\"\n",
            "engine = {{ cmd = \"{sf}\", options = {{ \"Skill Level\" = 0, Hash = 4, Threads = 1 }} }}\n\n",
            "[[searchers]]\nlabel = \"fairymax\"\n",
            "engine = {{ cmd = \"{fm}\", protocol = \"xboard\" }}\n"
        ),
        name = name,
        settings = settings,
        sf = STOCKFISH,
        fm = FAIRYMAX
    )
}

/// Runs `text` (written as DIR/NAME.toml) into DIR/NAME; the output directory.
fn run(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let file = dir.path(&format!("{name}.toml"));
    std::fs::write(&file, text).expect("write the arena file");
    let out = dir.path(name);
    let (code, stdout, stderr) = plylab(&[
        "experiment",
        file.to_str().expect("UTF-8"),
        "--out",
        out.to_str().expect("UTF-8"),
        "--no-plot",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    out
}

/// games.csv as maps from column to value.
fn rows(out: &Path) -> Vec<std::collections::HashMap<String, String>> {
    common::games_csv(out)
}

/// The checks every gauntlet's output passes: 4 games, none lost by a crash, a hang or an
/// illegal move; every game from a book position (FEN and SetUp tags), with the
/// TimeControl `tc`, a standard Termination, and a cutechess-style comment on the engines'
/// moves; python-chess replays the file and `pgn-extract` has nothing to say.
fn check_gauntlet(out: &Path, tc: &str) {
    let games = rows(out);
    assert_eq!(games.len(), 4, "two games against each engine");
    for g in &games {
        let reason = g["reason"].as_str();
        assert!(
            !["crash", "hang", "illegal move", "engine error"].contains(&reason),
            "{g:?}"
        );
        assert_ne!(
            g["opening"],
            plylab::games::chess::START_FEN,
            "a book opening"
        );
        let notes: Vec<&str> = g["annotations"].split_whitespace().collect();
        assert_eq!(
            notes.len().to_string(),
            g["plies"],
            "one annotation a ply: {g:?}"
        );
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("games.pgn");
    assert_eq!(pgn.matches("[SetUp \"1\"]").count(), 4, "{pgn}");
    assert_eq!(
        pgn.matches(&format!("[TimeControl \"{tc}\"]")).count(),
        4,
        "{pgn}"
    );
    let standard = ["normal", "adjudication", "time forfeit"];
    for line in pgn.lines().filter(|l| l.starts_with("[Termination ")) {
        assert!(
            standard.iter().any(|t| line.contains(&format!("\"{t}\""))),
            "{line}"
        );
    }
    // `{+0.35/12 0.101s}`: a signed score in pawns (or mate), a depth, seconds.
    let comment = regex_like_comments(&pgn);
    assert!(
        comment >= 8,
        "cutechess-style comments: {comment} in\n{pgn}"
    );
    pgn_extract_reads_cleanly(&out.join("games.pgn"));
    // The engines' CPU time counts in summary.md (they are reaped before it is written).
    let summary = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    let engines_cpu: f64 = summary
        .split(" s in external engines")
        .next()
        .and_then(|before| before.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no engine CPU time in\n{summary}"));
    assert!(engines_cpu > 0.0, "{summary}");
    if python_chess("chess, chess.pgn", "tests/uci/replay_pgn.py") {
        let (ok, stdout, stderr) = python_script("replay_pgn.py", &[out.join("games.pgn")]);
        assert!(ok, "replay_pgn.py failed:\n{stdout}\n{stderr}");
        assert!(stdout.contains("ok: 4 games"), "{stdout}");
    }
}

/// How many comments of the form `{+P.PP/D S.SSSs}` or `{-MN/D S.SSSs}` `pgn` holds.
fn regex_like_comments(pgn: &str) -> usize {
    pgn.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(c, _)| c))
        .filter(|c| {
            let Some((score, rest)) = c.split_once('/') else {
                return false;
            };
            let Some((depth, secs)) = rest.split_once(' ') else {
                return false;
            };
            let sign = score.starts_with('+') || score.starts_with('-');
            let number = score[1..].parse::<f64>().is_ok()
                || score[1..]
                    .strip_prefix('M')
                    .is_some_and(|m| m.parse::<u32>().is_ok());
            sign && number
                && depth.parse::<u32>().is_ok()
                && secs
                    .strip_suffix('s')
                    .is_some_and(|s| s.parse::<f64>().is_ok())
        })
        .count()
}

#[test]
fn a_gauntlet_from_a_pgn_book_on_a_repeating_control() {
    if !engines_present() {
        return;
    }
    let dir = TempDir::new("gauntlet-pgn");
    // 10 moves per period: a 24-ply game crosses the period boundary once per side.
    let settings = format!("tc = \"10/2+0.05\"\nopenings = {{ file = \"{BOOK_PGN}\", plies = 6 }}");
    let out = run(&dir, "pgn", &gauntlet("pgn", &settings));
    check_gauntlet(&out, "10/2+0.05");
    // The openings are the PGN games' positions after 6 plies, in file order.
    let games = rows(&out);
    assert_eq!(
        games[0]["opening"], "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"
    );
}

#[test]
fn a_gauntlet_from_a_polyglot_book_on_a_minutes_seconds_control() {
    if !engines_present() {
        return;
    }
    let dir = TempDir::new("gauntlet-polyglot");
    let book = dir.path("book.bin");
    let (code, stdout, stderr) = plylab(&[
        "book",
        "build",
        "chess",
        "--pgn",
        BOOK_PGN,
        "--max-ply",
        "8",
        "--out",
        book.to_str().expect("UTF-8"),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let settings = format!(
        "tc = \"0:03+0.05\"\nopenings = {{ file = \"{}\", plies = 8 }}",
        book.display()
    );
    let out = run(&dir, "bin", &gauntlet("bin", &settings));
    check_gauntlet(&out, "3+0.05");
    // Eight book plies from the start: White to move at move 5.
    for g in rows(&out) {
        let fields: Vec<&str> = g["opening"].split_whitespace().collect();
        assert_eq!((fields[1], fields[5]), ("w", "5"), "{:?}", g["opening"]);
    }
}

/// An arena file of the fake UCI engine in `mode` against plylab's alpha-beta.
fn with_fake(name: &str, settings: &str, mode: &str, ab_limits: &str) -> String {
    format!(
        concat!(
            "name = \"{name}\"\nseed = 2\n\n[match]\ngame = \"chess\"\ngames = 2\n{settings}\n\n",
            "[[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\ntt_mb = 1\n{ab_limits}\n\n",
            "[[searchers]]\nlabel = \"fake\"\n",
            "engine = {{ cmd = \"python3\", args = [\"{fake}\", \"{mode}\"] }}\n"
        ),
        name = name,
        settings = settings,
        ab_limits = ab_limits,
        fake = FAKE,
        mode = mode
    )
}

#[test]
fn a_move_over_st_and_the_time_margin_loses_on_time() {
    let dir = TempDir::new("arena-st");
    // The slow engine thinks 400 ms: over st = 0.1 s and a 100 ms margin.
    let text = with_fake(
        "st",
        "st = 0.1\ntimemargin = 100\nopenings = { positions = [\"startpos\"] }",
        "slow",
        "",
    );
    let out = run(&dir, "st", &text);
    let games = rows(&out);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["reason"], "time forfeit", "{g:?}");
        let ab_won = (g["white"] == "ab") == (g["result"] == "1-0");
        assert!(ab_won, "{g:?}");
    }
    // A margin wider than the engine's thinking spares it.
    let text = with_fake(
        "st",
        "st = 0.1\ntimemargin = 2000\nmax_plies = 2\nopenings = { positions = [\"startpos\"] }",
        "slow",
        "",
    );
    let dir = TempDir::new("arena-st-margin");
    let out = run(&dir, "st", &text);
    for g in rows(&out) {
        assert_eq!(g["reason"], "max plies", "{g:?}");
    }
}

/// An arena file of two alpha-beta players at fixed depths, with the `[match]` keys given.
fn two_searchers(name: &str, settings: &str, depths: [u32; 2]) -> String {
    let ab = |label: &str, depth: u32| {
        format!(
            "[[searchers]]\nlabel = \"{label}\"\nalgorithm = \"alphabeta\"\ntt_mb = 1\nlimits = {{ depth = {depth} }}\n"
        )
    };
    format!(
        "name = \"{name}\"\nseed = 4\n\n[match]\ngame = \"chess\"\ngames = 2\n{settings}\n\n{}\n{}",
        ab("a", depths[0]),
        ab("b", depths[1])
    )
}

#[test]
fn draw_and_resign_adjudication_end_games_as_cutechess_does() {
    let dir = TempDir::new("arena-adjudication");
    // Every score is within 10 000 of zero: a draw as soon as move 2 is complete and 2
    // moves of each side have been counted (ply 4).
    let text = two_searchers(
        "draw",
        "draw_adjudication = { movenumber = 2, movecount = 2, score = 10000 }",
        [2, 2],
    );
    let out = run(&dir, "draw", &text);
    for g in rows(&out) {
        assert_eq!(g["reason"], "draw adjudication", "{g:?}");
        assert_eq!(g["result"], "1/2-1/2");
        assert_eq!(g["plies"], "4", "{g:?}");
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("games.pgn");
    assert_eq!(pgn.matches("[Termination \"adjudication\"]").count(), 2);
    let summary = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    assert!(
        summary.contains(
            "- draw adjudication: a draw once 2 full moves are played and the last 4 plies' \
             movers all reported scores within ±10000 of zero\n"
        ),
        "{summary}"
    );
    // A queen up from the start (Black has none): the side without it resigns once its
    // own score has been below -500 for 2 moves; twosided, once White agreed twice too.
    let fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let settings = format!(
        "openings = {{ positions = [\"{fen}\"] }}\nresign_adjudication = {{ movecount = 2, score = 500, twosided = true }}"
    );
    let out = run(&dir, "resign", &two_searchers("resign", &settings, [3, 3]));
    for g in rows(&out) {
        assert_eq!(g["reason"], "resign adjudication", "{g:?}");
        assert_eq!(g["result"], "1-0", "White, a queen up, wins: {g:?}");
        assert_eq!(g["plies"], "4", "{g:?}");
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("games.pgn");
    assert_eq!(pgn.matches("[Termination \"adjudication\"]").count(), 2);
    let summary = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    assert!(
        summary.contains(
            "- resign adjudication: a loss for the side whose last 2 moves all reported -500 or \
             below, and the opponent's last 2 moves 500 or above\n"
        ),
        "{summary}"
    );
    pgn_extract_reads_cleanly(&out.join("games.pgn"));
}

#[test]
fn engine_logs_are_kept_for_crashes_and_on_request() {
    let dir = TempDir::new("arena-logs");
    // The engine writes a line to its standard error, then crashes on every `go`.
    let engine = |label: &str, mode: &str| {
        format!(
            "[[searchers]]\nlabel = \"{label}\"\nengine = {{ cmd = \"sh\", args = [\"-c\", \"echo to-stderr >&2; exec python3 {FAKE} {mode}\"] }}\nlimits = {{ depth = 1 }}\n"
        )
    };
    let ab = "[[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\ntt_mb = 1\nlimits = { depth = 1 }\n";
    let text = format!(
        "name = \"logs\"\n\n[match]\ngame = \"chess\"\ngames = 2\nconcurrency = 1\n\n{ab}\n{}",
        engine("crasher", "crash")
    );
    let out = run(&dir, "crash", &text);
    for game in 0..2 {
        let log = std::fs::read_to_string(out.join(format!("logs/game-{game}.log")))
            .expect("a crash is logged without engine_log");
        for needle in [
            "## crasher",
            "> uci",
            "< uciok",
            "! to-stderr",
            "> go depth 1",
        ] {
            assert!(log.contains(needle), "no `{needle}` in\n{log}");
        }
        assert!(log.contains("# `"), "the cause of death: {log}");
    }
    // Without a crash nothing is logged unless asked; with `engine_log` every game is.
    let text = format!(
        "name = \"logs\"\n\n[match]\ngame = \"chess\"\ngames = 2\nconcurrency = 1\nmax_plies = 1\n\n{ab}\n{}",
        engine("fake", "ok")
    );
    let out = run(&dir, "quiet", &text);
    assert!(!out.join("logs").exists(), "no log unless asked");
    let text = text.replace("max_plies = 1", "max_plies = 1\nengine_log = true");
    let out = run(&dir, "logged", &text);
    for game in 0..2 {
        let log = std::fs::read_to_string(out.join(format!("logs/game-{game}.log")))
            .expect("engine_log = true logs every game");
        assert!(log.contains("> ucinewgame"), "{log}");
    }
    let summary = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    assert!(summary.contains("s in external engines"), "{summary}");
}

//! The GTP client against a real othello engine: grhino's `gtp-rhino` (Debian package
//! `grhino`, installed by .ci/run) plays a whole game against plylab's alpha-beta through
//! [`GtpEngine`]: every move it generates must be legal in plylab's rules, every plylab move
//! and pass must be accepted, and the game must reach its end. Skipped, with the reason
//! printed, where gtp-rhino is not installed.

use std::path::Path;
use std::time::Duration;

use plylab::arena::gtp::{GtpEngine, GtpMove};
use plylab::game::{Game, Player, Status};
use plylab::games::othello::{Othello, OthelloEval};
use plylab::search::{Limits, Ordering, SearchConfig, search};

const GTP_RHINO: &str = "/usr/games/gtp-rhino";
const TIMEOUT: Duration = Duration::from_secs(20);

/// Games played after the first four, at most, until one has a forced pass.
const MORE_GAMES: usize = 40;

/// The path of gtp-rhino, or `None` (with the reason printed) when it is not installed.
fn gtp_rhino() -> Option<&'static str> {
    if Path::new(GTP_RHINO).exists() {
        Some(GTP_RHINO)
    } else {
        eprintln!("SKIPPED: {GTP_RHINO} is absent (apt-get install grhino)");
        None
    }
}

/// Plays one game: plylab (alpha-beta, depth 3, the endgame switches) as `plylab_plays`,
/// gtp-rhino at level 1 with randomness `rand` (0-10) as the other side. Returns the final
/// position and the number of passes played.
fn play_game(cmd: &str, plylab_plays: Player, rand: u32) -> (Othello, u32) {
    let args = ["--level=1".to_owned(), format!("--rand={rand}")];
    let mut engine = GtpEngine::start(cmd, &args, TIMEOUT).expect("gtp-rhino starts");
    assert!(
        engine.name().to_lowercase().contains("rhino"),
        "{}",
        engine.name()
    );
    engine.new_game(TIMEOUT).expect("a new game");
    let config = SearchConfig {
        tt_mb: 1,
        pvs: true,
        endgame_solver: Some(6),
        ordering: Ordering {
            tt_move: true,
            fastest_first: true,
            parity: true,
            ..Ordering::default()
        },
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut pos = Othello::new();
    let mut passes = 0;
    while pos.status() == Status::Ongoing {
        let side = pos.side_to_move();
        let mv = if side == plylab_plays {
            let mv = search(&pos, &OthelloEval::STANDARD, &config, &limits)
                .best_move()
                .expect("an ongoing position has a move");
            engine
                .play(side, &mv.to_string(), TIMEOUT)
                .unwrap_or_else(|e| panic!("{} refused {mv}: {e}", pos.to_board_string()));
            mv
        } else {
            let text = match engine.genmove(side, TIMEOUT).expect("a move") {
                GtpMove::Vertex(v) => v,
                GtpMove::Pass => "pass".to_owned(),
                GtpMove::Resign => panic!("gtp-rhino resigned"),
            };
            pos.parse_move(&text)
                .unwrap_or_else(|e| panic!("{}: gtp-rhino's {text}: {e}", pos.to_board_string()))
        };
        if mv.index().is_none() {
            passes += 1;
        }
        pos.play(mv);
    }
    engine.quit();
    (pos, passes)
}

#[test]
fn a_game_against_gtp_rhino_is_played_to_the_end() {
    let Some(cmd) = gtp_rhino() else {
        return;
    };
    // Both colours at randomness 0 and 6, then more games at randomness 10 until a forced
    // pass has been played (plylab's, which gtp-rhino refuses and skips by itself, or its
    // own, answered `PASS`): gtp-rhino's randomness is its own, unseeded, so how many games
    // it takes varies from run to run.
    let mut passes = 0;
    let schedule = [0, 6]
        .into_iter()
        .flat_map(|rand| [(rand, Player::First), (rand, Player::Second)])
        .chain((0..MORE_GAMES).map(|i| {
            (
                10,
                if i % 2 == 0 {
                    Player::First
                } else {
                    Player::Second
                },
            )
        }));
    for (played, (rand, side)) in schedule.enumerate() {
        if played >= 4 && passes > 0 {
            break;
        }
        let (end, p) = play_game(cmd, side, rand);
        assert_ne!(end.status(), Status::Ongoing);
        assert!(end.empties() < 60);
        passes += p;
    }
    assert!(
        passes > 0,
        "no pass was played in {} games: the pass handling went untested",
        4 + MORE_GAMES
    );
}

#[test]
fn a_missing_or_silent_engine_is_an_error_not_a_hang() {
    assert!(GtpEngine::start("/no/such/gtp-engine", &[], TIMEOUT).is_err());
    // `cat` echoes `protocol_version` back: no `=` line ever comes, so the deadline ends it.
    let started = std::time::Instant::now();
    let err = GtpEngine::start("cat", &[], Duration::from_millis(300)).unwrap_err();
    assert!(err.to_string().contains("hung"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

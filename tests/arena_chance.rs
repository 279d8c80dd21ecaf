//! The arena with games of chance and external programs of games other than chess:
//! backgammon matches with seeded dice shared by both games of a pair, points per game,
//! resume; GNU Backgammon (`gnubg`) and grhino's `gtp-rhino` as players (skipped, with the
//! reason printed, where they are not installed); and the errors of files that pair a game
//! with a player that cannot play it.

use std::path::{Path, PathBuf};

use crate::common::{self, TempDir, plylab};

const GNUBG: [&str; 2] = ["/usr/games/gnubg", "/usr/bin/gnubg"];
const GTP_RHINO: &str = "/usr/games/gtp-rhino";

/// A backgammon arena of `players` (TOML searcher entries), `games` per pairing.
fn backgammon(name: &str, games: u32, players: &str) -> String {
    format!(
        "name = \"{name}\"\nseed = 5\n\n[match]\ngame = \"backgammon\"\nformat = \"gauntlet\"\ngames = {games}\nconcurrency = 2\n\n{players}"
    )
}

const PUBEVAL: &str = "[[searchers]]\nlabel = \"pubeval\"\nalgorithm = \"expectiminimax\"\neval = \"pubeval\"\nlimits = { depth = 1 }\n";
const RACE: &str = "[[searchers]]\nlabel = \"race\"\nalgorithm = \"star2\"\neval = \"race\"\nlimits = { depth = 1 }\n";

fn write(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let file = dir.path(&format!("{name}.toml"));
    std::fs::write(&file, text).expect("write the arena file");
    file
}

/// Runs the arena file `text`; returns the exit code, stdout + stderr, and the output dir.
fn run(dir: &TempDir, name: &str, text: &str, extra: &[&str]) -> (i32, String, PathBuf) {
    let file = write(dir, name, text);
    let out = dir.path(name);
    let mut args = vec![
        "experiment",
        file.to_str().expect("UTF-8"),
        "--out",
        out.to_str().expect("UTF-8"),
        "--no-plot",
    ];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = plylab(&args);
    (code, format!("{stdout}\n{stderr}"), out)
}

/// games.csv as maps from column to value.
fn games(out: &Path) -> Vec<std::collections::HashMap<String, String>> {
    common::games_csv(out)
}

/// The rolls of a game's line (`5-4`, `6-6`), in order.
fn rolls(line: &str) -> Vec<&str> {
    line.split_whitespace()
        .filter(|t| t.len() == 3 && t.as_bytes()[1] == b'-' && t.as_bytes()[0].is_ascii_digit())
        .collect()
}

#[test]
fn backgammon_pairs_share_their_dice_and_score_points_and_resume() {
    let dir = TempDir::new("arena-chance-pairs");
    let text = backgammon("bg", 6, &format!("{PUBEVAL}\n{RACE}"));
    let (code, log, out) = run(&dir, "bg", &text, &[]);
    assert_eq!(code, 0, "{log}");
    let rows = games(&out);
    assert_eq!(rows.len(), 6);
    for pair in rows.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!(a["round"], b["round"]);
        assert_eq!(
            (a["first"].as_str(), a["second"].as_str()),
            (b["second"].as_str(), b["first"].as_str())
        );
        let (ra, rb) = (rolls(&a["line"]), rolls(&b["line"]));
        let n = ra.len().min(rb.len());
        assert!(n > 10, "{}", a["line"]);
        assert_eq!(ra[..n], rb[..n], "both games of a pair roll the same dice");
        for g in pair {
            assert!(
                ["single game", "gammon", "backgammon"].contains(&g["reason"].as_str()),
                "{}",
                g["reason"]
            );
        }
    }
    assert_ne!(
        rolls(&rows[0]["line"])[..10],
        rolls(&rows[2]["line"])[..10],
        "pairs differ"
    );
    // points.csv: net points per game from pubeval's side, as the games add up.
    let mut r = csv::Reader::from_path(out.join("points.csv")).expect("points.csv");
    let rec = r.records().next().unwrap().unwrap();
    let ppg: f64 = rec[13].parse().unwrap();
    let points = |g: &std::collections::HashMap<String, String>| -> f64 {
        let p = match g["reason"].as_str() {
            "backgammon" => 3.0,
            "gammon" => 2.0,
            _ => 1.0,
        };
        let pubeval_first = g["first"] == "pubeval";
        if (g["result"] == "1-0") == pubeval_first {
            p
        } else {
            -p
        }
    };
    let expected = rows.iter().map(points).sum::<f64>() / 6.0;
    assert!((ppg - expected).abs() < 1e-3, "{ppg} vs {expected}");
    assert_eq!(&rec[3], "3", "three pairs");
    // Deterministic (fixed depth, seeded dice): a torn games.csv resumes to the same games.
    let csv_text = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let torn: String = csv_text.lines().take(3).collect::<Vec<_>>().join("\n");
    std::fs::write(out.join("games.csv"), torn + "\n2,0,1,0,sta").unwrap();
    let (code, log, _) = run(&dir, "bg", &text, &["--resume"]);
    assert_eq!(code, 0, "{log}");
    assert!(log.contains("2 kept"), "{log}");
    let again = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        outcomes(&again) == outcomes(&csv_text),
        "the resumed games differ"
    );
}

/// Each game's index, result, reason and moves (not its timings).
fn outcomes(csv_text: &str) -> Vec<String> {
    csv::Reader::from_reader(csv_text.as_bytes())
        .records()
        .map(|r| {
            let r = r.unwrap();
            format!("{} {} {} {}", &r[0], &r[7], &r[8], &r[20])
        })
        .collect()
}

/// A backgammon player without `eval` plays with pubeval, as in experiments (it was once
/// refused, blamed on an evaluation `pst` the file never named); one naming a chess
/// evaluation is refused at its `eval`.
#[test]
fn a_backgammon_player_evaluates_with_pubeval_by_default() {
    let dir = TempDir::new("arena-chance-default-eval");
    let lines = |name: &str, pubeval: &str| {
        let (code, log, out) = run(
            &dir,
            name,
            &backgammon(name, 4, &format!("{pubeval}{RACE}")),
            &[],
        );
        assert_eq!(code, 0, "{log}");
        games(&out)
            .into_iter()
            .map(|g| g["line"].clone())
            .collect::<Vec<_>>()
    };
    let named = lines("named", PUBEVAL);
    assert_eq!(named.len(), 4);
    assert_eq!(
        lines("default", &PUBEVAL.replace("eval = \"pubeval\"\n", "")),
        named
    );
    let pst = backgammon(
        "pst",
        2,
        &format!(
            "{}{RACE}",
            PUBEVAL.replace("pubeval\"\nlimits", "pst\"\nlimits")
        ),
    );
    let (code, log, _) = run(&dir, "pst", &pst, &[]);
    assert_eq!(code, 2, "{log}");
    assert!(log.contains("pst.toml:13:8: key `eval`"), "{log}");
}

#[test]
fn players_that_cannot_play_the_game_are_refused() {
    let dir = TempDir::new("arena-chance-errors");
    let alphabeta =
        "[[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\nlimits = { depth = 2 }\n";
    let cases = [
        (
            backgammon("a", 2, &format!("{PUBEVAL}\n{alphabeta}")),
            "backgammon has chance nodes",
        ),
        (
            backgammon("b", 2, &format!("{PUBEVAL}\n[[searchers]]\nlabel = \"g\"\nengine = {{ plies = 9 }}\n")),
            "0 to 4 plies",
        ),
        (
            backgammon("c", 2, &format!("{PUBEVAL}\n[[searchers]]\nlabel = \"g\"\nengine = {{ plies = 0 }}\nlimits = {{ depth = 2 }}\n")),
            "takes no limits",
        ),
        (
            backgammon("d", 2, &format!("{PUBEVAL}\n[[searchers]]\nlabel = \"g\"\nengine = {{ cmd = \"x\", args = [] }}\n")),
            "bad backgammon engine entry",
        ),
        (
            "name = \"e\"\n[match]\ngame = \"connect4\"\ngames = 2\n[[searchers]]\nlabel = \"emm\"\nalgorithm = \"expectiminimax\"\nlimits = { depth = 2 }\n[[searchers]]\nlabel = \"x\"\nalgorithm = \"alphabeta\"\nlimits = { depth = 2 }\n".to_owned(),
            "connect4 has none",
        ),
        (
            "name = \"f\"\n[match]\ngame = \"connect4\"\ngames = 2\n[[searchers]]\nlabel = \"e\"\nengine = { cmd = \"x\" }\n[[searchers]]\nlabel = \"x\"\nalgorithm = \"alphabeta\"\nlimits = { depth = 2 }\n".to_owned(),
            "othello (GTP) and backgammon (gnubg) only",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let (code, log, _) = run(&dir, &format!("case{i}"), text, &[]);
        assert_eq!(code, 2, "case {i}: {log}");
        assert!(
            log.contains(expected),
            "case {i}: expected `{expected}` in {log}"
        );
    }
}

#[test]
fn gnubg_plays_whole_games_at_zero_ply() {
    let Some(gnubg) = GNUBG.iter().find(|p| Path::new(p).exists()) else {
        eprintln!(
            "SKIPPED gnubg_plays_whole_games_at_zero_ply: gnubg is not installed (apt-get install gnubg)"
        );
        return;
    };
    let dir = TempDir::new("arena-chance-gnubg");
    let gnubg_player =
        format!("[[searchers]]\nlabel = \"gnubg\"\nengine = {{ cmd = \"{gnubg}\", plies = 0 }}\n");
    let text = backgammon("gn", 4, &format!("{PUBEVAL}\n{gnubg_player}"));
    let (code, log, out) = run(&dir, "gn", &text, &[]);
    assert_eq!(code, 0, "{log}");
    let rows = games(&out);
    assert_eq!(rows.len(), 4);
    for g in &rows {
        assert!(
            ["single game", "gammon", "backgammon"].contains(&g["reason"].as_str()),
            "a forfeit: {g:?}"
        );
        let gnubg_side = if g["first"] == "gnubg" {
            "first"
        } else {
            "second"
        };
        assert!(g[&format!("{gnubg_side}_moves")].parse::<u32>().unwrap() > 5);
    }
    // gnubg plays without noise: the same dice give the same games.
    let first = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let (code, log, _) = run(&dir, "gn", &text, &["--force"]);
    assert_eq!(code, 0, "{log}");
    let again = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(outcomes(&first) == outcomes(&again), "gnubg's games differ");
}

/// A GTP engine that knows no command but the handshake: it cannot be set to an opening.
const BARE_GTP: &str = r#"
import sys
for line in sys.stdin:
    word = (line.split() or [''])[0]
    answer = {'protocol_version': '2', 'name': 'bare'}.get(word, 'false')
    sys.stdout.write('= ' + answer + '\n\n')
    sys.stdout.flush()
    if word == 'quit':
        break
"#;

#[test]
fn a_gtp_engine_that_cannot_be_set_to_the_openings_is_refused_before_any_game() {
    // Every game had been forfeited as an illegal move, and the run had ended with exit
    // code 0.
    let dir = TempDir::new("arena-chance-bare-gtp");
    let text = format!(
        "name = \"bare\"\nseed = 3\n[match]\ngame = \"othello\"\ngames = 2\nopenings = {{ random_plies = 4 }}\n\n\
         [[searchers]]\nlabel = \"bare\"\nengine = {{ cmd = \"python3\", args = [\"-c\", {BARE_GTP:?}] }}\n\n\
         [[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\ntt_mb = 1\nlimits = {{ depth = 1 }}\n"
    );
    let (code, log, out) = run(&dir, "bare", &text, &[]);
    assert_eq!(code, 2, "{log}");
    assert!(
        log.contains("cannot be set to a position other than the start"),
        "{log}"
    );
    assert!(!out.exists(), "refused before anything is written");
}

#[test]
fn gtp_rhino_plays_othello_from_random_openings() {
    if !Path::new(GTP_RHINO).exists() {
        eprintln!(
            "SKIPPED gtp_rhino_plays_othello_from_random_openings: {GTP_RHINO} is absent (apt-get install grhino)"
        );
        return;
    }
    let dir = TempDir::new("arena-chance-gtp");
    let text = format!(
        "name = \"gtp\"\nseed = 3\n[match]\ngame = \"othello\"\nformat = \"gauntlet\"\ngames = 4\nopenings = {{ random_plies = 8 }}\nconcurrency = 2\n\n\
         [[searchers]]\nlabel = \"rhino\"\nengine = {{ cmd = \"{GTP_RHINO}\", args = [\"--level=1\"] }}\n\n\
         [[searchers]]\nlabel = \"ab\"\nalgorithm = \"alphabeta\"\ntt_mb = 1\nlimits = {{ depth = 2 }}\n"
    );
    let (code, log, out) = run(&dir, "gtp", &text, &[]);
    assert_eq!(code, 0, "{log}");
    let rows = games(&out);
    assert_eq!(rows.len(), 4);
    for g in &rows {
        // Every move of gtp-rhino was legal in plylab's rules from the opening it was set
        // to (an illegal one, or a refused setup, would be a forfeit).
        assert_eq!(g["reason"], "neither side can move", "{g:?}");
        assert_ne!(g["opening"], "start");
    }
}

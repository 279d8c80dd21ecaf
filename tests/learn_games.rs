//! Linear evaluations of checkers, Othello and backgammon (issue 18's games after chess and
//! connect four): their weights files are checked on load (exit code 2 naming the file and
//! line), a tiny seeded learning run of each gives the same weights byte for byte on one
//! thread or two, and learned weights play in arena files, backgammon's against pubeval with
//! the arena's dice.

use std::fs;
use std::path::Path;

use crate::common::{TempDir, plylab};
use plylab::games::linear::{LinearKind, Weights, backgammon, checkers, format_weights, othello};

/// A game's starting weights as a weights file, with `edit` applied to its lines.
fn weights_file(kind: LinearKind, values: &[f64], edit: impl Fn(&mut Vec<String>)) -> String {
    let w = Weights {
        kind,
        values: values.to_vec(),
    };
    let mut lines: Vec<String> = format_weights(&w, "test weights", &[])
        .lines()
        .map(String::from)
        .collect();
    edit(&mut lines);
    lines.join("\n") + "\n"
}

fn replace(lines: &mut [String], prefix: &str, with: &str) {
    for l in lines.iter_mut().filter(|l| l.starts_with(prefix)) {
        *l = with.to_string();
    }
}

/// `plylab learn FILE --quiet --no-plot --out OUT --weights-dir WEIGHTS`: (exit code,
/// stdout and stderr).
fn learn(file: &Path, out: &Path, weights: &Path) -> (i32, String) {
    let (code, stdout, err) = plylab(&[
        "learn",
        file.to_str().unwrap(),
        "--quiet",
        "--no-plot",
        "--out",
        out.to_str().unwrap(),
        "--weights-dir",
        weights.to_str().unwrap(),
    ]);
    (code, stdout + &err)
}

/// A tiny TD learning file of `game` (`THREADS` and `START` to fill in).
fn tiny(game: &str, method: &str, sp: &str, td: &str) -> String {
    format!(
        "name = \"tiny\"\ngame = \"{game}\"\nmethod = \"{method}\"\nseed = 5\nthreads = THREADS\nSTART\n[self_play]\n{sp}\n[td]\n{td}\n"
    )
}

fn tiny_files() -> [(LinearKind, String); 3] {
    [
        (
            LinearKind::Checkers,
            tiny(
                "checkers",
                "tdleaf",
                "games = 8\ndepth = 2\nrandom_plies = 4\nmax_plies = 60",
                "lambda = 0.7\nlearning_rate = 1.0\nk = 0.4\nbatch = 4",
            ),
        ),
        (
            LinearKind::Othello,
            tiny(
                "othello",
                "tdleaf",
                "games = 8\ndepth = 1\nrandom_plies = 6\nmax_plies = 130",
                "lambda = 0.7\nlearning_rate = 2.0\nk = 0.4\nbatch = 4",
            ),
        ),
        (
            LinearKind::Backgammon,
            tiny(
                "backgammon",
                "td",
                "games = 16\ndepth = 1\nrandom_plies = 0\nmax_plies = 2000",
                "lambda = 0.7\nlearning_rate = 0.01\nk = 43.43\nbatch = 8\nper_player = true",
            ),
        ),
    ]
}

fn hand_set(kind: LinearKind) -> Vec<f64> {
    match kind {
        LinearKind::Checkers => checkers::HAND_SET_WEIGHTS.to_vec(),
        LinearKind::Othello => othello::HAND_SET_WEIGHTS.to_vec(),
        _ => backgammon::pubeval_weights().to_vec(),
    }
}

#[test]
fn bad_weights_files_of_the_new_games_exit_2_with_file_and_line() {
    let dir = TempDir::new("learn-games-bad");
    let files = tiny_files();
    for (kind, spec) in &files {
        let values = hand_set(*kind);
        let names = kind.names();
        let n = names.len();
        let (first, last) = (names[0], names[n - 1]);
        let cases = [
            (
                "missing",
                weights_file(*kind, &values, |l| l.retain(|x| !x.starts_with(last))),
                format!("missing: `{last}`"),
            ),
            (
                "count",
                weights_file(*kind, &values, |l| {
                    replace(l, "features", &format!("features = {}", n + 1));
                }),
                format!("{kind} has {n} features, the file declares {}", n + 1),
            ),
            (
                "nan",
                weights_file(*kind, &values, |l| {
                    replace(l, &format!("{first} ="), &format!("{first} = nan"));
                }),
                "NaN".to_string(),
            ),
            (
                "unknown",
                weights_file(*kind, &values, |l| {
                    replace(l, &format!("{last} ="), &format!("{last}x = 1.0"));
                }),
                format!("`{last}x` is not a {kind} feature"),
            ),
        ];
        for (case, text, message) in &cases {
            let weights = dir.path(&format!("{kind}-{case}.toml"));
            fs::write(&weights, text).unwrap();
            let w = weights.display().to_string();
            let learn_file = dir.path("learn.toml");
            let spec = spec
                .replace("THREADS", "1")
                .replace("START", &format!("start = {w:?}"));
            fs::write(&learn_file, spec).unwrap();
            let (code, err) = learn(&learn_file, &dir.path("out"), &dir.path("w"));
            assert_eq!(code, 2, "{kind} {case}: {err}");
            assert!(err.contains(&format!("{w}:")), "{kind} {case}: {err}");
            assert!(err.contains(message.as_str()), "{kind} {case}: {err}");
        }
    }
    // Othello weights in a backgammon arena, and checkers weights in an Othello experiment.
    let arena = dir.path("arena.toml");
    fs::write(
        &arena,
        "name = \"x\"\n[match]\ngame = \"backgammon\"\ngames = 2\n[[searchers]]\nlabel = \"a\"\nalgorithm = \"expectiminimax\"\neval = \"linear:weights/othello-tdleaf.toml\"\nlimits = { depth = 1 }\n[[searchers]]\nlabel = \"b\"\nalgorithm = \"expectiminimax\"\nlimits = { depth = 1 }\n",
    )
    .unwrap();
    let (code, _, err) = plylab(&["experiment", arena.to_str().unwrap(), "--dry-run"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("linear:weights/othello-tdleaf.toml"), "{err}");
    let exp = dir.path("exp.toml");
    fs::write(
        &exp,
        "name = \"x\"\n[limits]\ndepth = 1\n[[games]]\ngame = \"othello\"\npositions = [\"start\"]\n[[searchers]]\nlabel = \"s\"\nalgorithm = \"alphabeta\"\neval = \"linear:weights/checkers-tdleaf.toml\"\n",
    )
    .unwrap();
    let (code, _, err) = plylab(&["experiment", exp.to_str().unwrap(), "--dry-run"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not an evaluation of othello"), "{err}");
}

#[test]
fn tiny_runs_of_each_new_game_are_reproducible() {
    let dir = TempDir::new("learn-games-repro");
    for (kind, spec) in tiny_files() {
        let mut outputs = Vec::new();
        for (i, threads) in ["1", "2"].iter().enumerate() {
            let file = dir.path(&format!("{kind}.toml"));
            fs::write(&file, spec.replace("THREADS", threads).replace("START", "")).unwrap();
            let (out, weights) = (
                dir.path(&format!("{kind}-out{i}")),
                dir.path(&format!("{kind}-w{i}")),
            );
            let (code, text) = learn(&file, &out, &weights);
            assert_eq!(code, 0, "{kind}: {text}");
            let curve = fs::read_to_string(out.join("curve.csv")).unwrap();
            assert!(curve.lines().count() >= 3, "{kind}: {curve}");
            outputs.push(fs::read(weights.join("tiny.toml")).unwrap());
        }
        assert_eq!(outputs[0], outputs[1], "{kind}: one thread and two differ");
        let learned =
            plylab::games::linear::read_weights(&dir.path(&format!("{kind}-w0/tiny.toml")), None)
                .unwrap();
        assert_eq!(learned.kind, kind);
        assert_ne!(learned.values, hand_set(kind), "{kind}: the weights moved");
    }

    // The learned backgammon weights against pubeval's file in a tiny arena with the
    // arena's dice: it runs, and pubeval's file plays pubeval's moves (every game of
    // `pubeval` against its own weights file is the mirror of its pair).
    let w = dir.path("backgammon-w0/tiny.toml").display().to_string();
    let arena = dir.path("arena.toml");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/weights/backgammon-pubeval.toml"
    );
    fs::write(
        &arena,
        format!(
            "name = \"x\"\nseed = 3\n[match]\ngame = \"backgammon\"\nformat = \"gauntlet\"\ngames = 8\n[[searchers]]\nlabel = \"pubeval\"\nalgorithm = \"expectiminimax\"\neval = \"pubeval\"\nlimits = {{ depth = 1 }}\n[[searchers]]\nlabel = \"file\"\nalgorithm = \"expectiminimax\"\neval = \"linear:{file}\"\nlimits = {{ depth = 1 }}\n[[searchers]]\nlabel = \"learned\"\nalgorithm = \"expectiminimax\"\neval = \"linear:{w}\"\nlimits = {{ depth = 1 }}\n"
        ),
    )
    .unwrap();
    let out = dir.path("arena-out");
    let (code, _, err) = plylab(&[
        "experiment",
        arena.to_str().unwrap(),
        "--no-plot",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let points = fs::read_to_string(out.join("points.csv")).unwrap();
    let row = points
        .lines()
        .find(|l| l.starts_with("pubeval,file,"))
        .unwrap_or_else(|| panic!("{points}"));
    // Same moves with the same dice both ways: each pair nets zero.
    let ppg: f64 = row.split(',').nth(13).unwrap().parse().unwrap();
    assert_eq!(ppg, 0.0, "{points}");
    assert!(points.contains("pubeval,learned,"), "{points}");
}

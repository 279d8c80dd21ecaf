//! `plylab learn` and linear evaluations end to end: bad weights files are refused with exit
//! code 2 and a located message (in learning files and in experiment files), a tiny
//! learning run gives the same weights byte for byte on one thread or two and when run
//! again, its learning curve is drawn (Texel's and TDLeaf's), its outputs (curve.csv,
//! summary.md, run.json) hold what EXPERIMENTS.md says, and experiment files search with
//! learned weights.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{self, TempDir, plylab};
use plylab::games::linear::{LinearKind, Weights, chess, format_weights};

/// The chess material weights as a file, with `edit` applied to its lines.
fn chess_weights(edit: impl Fn(&mut Vec<String>)) -> String {
    let w = Weights {
        kind: LinearKind::Chess,
        values: chess::MATERIAL_WEIGHTS.to_vec(),
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

/// `plylab learn FILE --quiet --no-plot --out OUT --weights-dir WEIGHTS` plus `extra`:
/// (exit code, stdout and stderr).
fn learn(file: &Path, out: &Path, weights: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "learn",
        file.to_str().unwrap(),
        "--quiet",
        "--no-plot",
        "--out",
        out.to_str().unwrap(),
        "--weights-dir",
        weights.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, stdout, err) = plylab(&args);
    (code, stdout + &err)
}

const TINY_TEXEL: &str = r#"
name = "tiny"
game = "chess"
method = "texel"
seed = 7
threads = THREADS
[self_play]
games = 6
depth = 1
random_plies = 6
max_plies = 80
[texel]
epochs = 30
learning_rate = 2.0
checkpoint_every = 10
"#;

#[test]
fn bad_weights_files_exit_2_with_file_and_line() {
    let dir = TempDir::new("learn-bad-weights");
    let cases: [(&str, String, &str); 5] = [
        (
            // Written as read, not as 309 digits.
            "huge.toml",
            chess_weights(|l| replace(l, "rook_mg", "rook_mg = 1e308")),
            "`rook_mg` = 1e308: weights must be finite numbers of magnitude at most 100000",
        ),
        (
            "missing.toml",
            chess_weights(|l| l.retain(|x| !x.starts_with("king_shield_mg"))),
            "missing: `king_shield_mg`",
        ),
        (
            "count.toml",
            chess_weights(|l| replace(l, "features", "features = 65")),
            "chess has 64 features, the file declares 65",
        ),
        (
            "nan.toml",
            chess_weights(|l| replace(l, "rook_mg", "rook_mg = nan")),
            "NaN",
        ),
        (
            "unknown.toml",
            chess_weights(|l| replace(l, "tempo_eg", "tempo_egg = 1.0")),
            "`tempo_egg` is not a chess feature",
        ),
    ];
    for (name, text, message) in &cases {
        let weights = dir.path(name);
        fs::write(&weights, text).unwrap();
        let w = weights.display().to_string();
        // As the starting weights of a learning file.
        let learn_file = dir.path("learn.toml");
        let spec = format!("start = {w:?}\n") + &TINY_TEXEL.replace("THREADS", "1");
        fs::write(&learn_file, spec).unwrap();
        let (code, err) = learn(&learn_file, &dir.path("out"), &dir.path("w"), &[]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains(&format!("{w}:")), "{name}: {err}");
        assert!(err.contains(message), "{name}: {err}");
        assert!(err.contains("learn.toml:1: key `start`"), "{name}: {err}");
        // As an experiment file's evaluation: refused while validating, before anything runs.
        let exp = dir.path("exp.toml");
        fs::write(
            &exp,
            format!(
                "name = \"x\"\n[limits]\ndepth = 1\n[[games]]\ngame = \"chess\"\npositions = [\"startpos\"]\n[[searchers]]\nlabel = \"s\"\nalgorithm = \"alphabeta\"\neval = \"linear:{w}\"\n"
            ),
        )
        .unwrap();
        let (code, _, err) = plylab(&["experiment", exp.to_str().unwrap(), "--dry-run"]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains(message) && err.contains("exp.toml:"),
            "{name}: {err}"
        );
    }
    // Weights of the wrong game.
    let exp = dir.path("c4.toml");
    fs::write(
        &exp,
        "name = \"x\"\n[limits]\ndepth = 1\n[[games]]\ngame = \"connect4\"\npositions = [\"start\"]\n[[searchers]]\nlabel = \"s\"\nalgorithm = \"alphabeta\"\neval = \"linear:weights/chess-texel.toml\"\n",
    )
    .unwrap();
    let (code, _, err) = plylab(&["experiment", exp.to_str().unwrap(), "--dry-run"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not an evaluation of connect4"), "{err}");
}

#[test]
fn learning_file_mistakes_are_named_at_their_key() {
    let dir = TempDir::new("learn-bad-keys");
    let games = dir.path("games.csv");
    fs::write(
        &games,
        "opening,result,line\nstartpos,1-0,e2e4\nstartpos,*,d2d4\nstartpos,2-0,e2e4\n",
    )
    .unwrap();
    let g = games.display().to_string();
    let texel = TINY_TEXEL.replace("THREADS", "1");
    let td = "name = \"tiny\"\ngame = \"connect4\"\nmethod = \"td\"\nseed = 1\n[self_play]\ngames = 4\ndepth = 2\nrandom_plies = 60\nmax_plies = 100\n[td]\nlambda = 0.7\nlearning_rate = 1.0\nk = 0.4\nbatch = 2\n";
    let cases: [(&str, String, &str); 13] = [
        (
            "long name",
            texel.replace(
                "name = \"tiny\"",
                &format!("name = \"{}\"", "n".repeat(101)),
            ),
            "learn.toml:2: key `name`: at most 100 characters",
        ),
        (
            // Each method's table belongs to it alone: the other's would be ignored.
            "td table in a texel file",
            format!("{texel}[td]\nlambda = 0.7\nlearning_rate = 1.0\nk = 0.4\nbatch = 2\n"),
            "learn.toml:16: key `td`: [td] is for methods td and tdleaf",
        ),
        (
            "texel table in a td file",
            format!("{td}[texel]\nepochs = 3\nlearning_rate = 1.0\n"),
            "learn.toml:15: key `texel`: [texel] is for method texel",
        ),
        (
            "arena games in a td file",
            format!("games = [{g:?}]\n{td}"),
            "learn.toml:1: key `games`: td and tdleaf learn from their own [self_play] games",
        ),
        (
            "missing start",
            format!("start = \"{}\"\n{texel}", dir.path("none.toml").display()),
            "learn.toml:1: key `start`: ",
        ),
        (
            // The top-level `games` on line 1, not [self_play]'s `games`.
            "bad result",
            format!("games = [{g:?}]\n{texel}"),
            "learn.toml:1: key `games`: ",
        ),
        (
            // Listed twice, its games would count twice.
            "games twice",
            format!("games = [{g:?}, {g:?}]\n{texel}"),
            "is listed twice (`",
        ),
        (
            // Once accepted: the same weight held twice says nothing more.
            "freeze twice",
            format!("freeze = [\"pawn_mg\", \"pawn_mg\"]\n{texel}"),
            "learn.toml:1: key `freeze`: `pawn_mg` is listed twice",
        ),
        (
            "random plies",
            texel.replace("random_plies = 6", "random_plies = 80"),
            "learn.toml:10: key `self_play.random_plies`: fewer than max_plies",
        ),
        (
            // The parser's own errors name the line, column and key too.
            "unknown method",
            texel.replace("method = \"texel\"", "method = \"sgd\""),
            "learn.toml:4:10: key `method`: unknown variant `sgd`",
        ),
        (
            "wrong type in a table",
            texel.replace("epochs = 30", "epochs = \"30\""),
            "learn.toml:13:10: key `texel.epochs`: invalid type",
        ),
        (
            "missing field of a table",
            texel.replace("learning_rate = 2.0\n", ""),
            "key `texel`: missing field `learning_rate`",
        ),
        (
            // Connect four ends within 42 plies: every game is random moves only.
            "games too short",
            td.to_string(),
            "learn.toml:8: key `self_play.random_plies`: the self-play games end",
        ),
    ];
    for (name, text, message) in &cases {
        let file = dir.path("learn.toml");
        fs::write(&file, text).unwrap();
        let (code, err) = learn(&file, &dir.path("out"), &dir.path("w"), &[]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains(message), "{name}: {err}");
    }
    // A scale K so large that every squashed value saturates: the weights go NaN, and
    // none are written (a NaN weights file could not be read back).
    let diverging = td
        .replace("random_plies = 60", "random_plies = 2")
        .replace("max_plies = 100", "max_plies = 42")
        .replace("k = 0.4", "k = 1e308");
    fs::write(dir.path("learn.toml"), diverging).unwrap();
    let (code, err) = learn(
        &dir.path("learn.toml"),
        &dir.path("out"),
        &dir.path("w"),
        &[],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the learning diverged"), "{err}");
    assert!(!dir.path("w").join("tiny.toml").exists(), "{err}");
    fs::write(dir.path("learn.toml"), format!("games = [{g:?}]\n{texel}")).unwrap();
    let (_, err) = learn(
        &dir.path("learn.toml"),
        &dir.path("out"),
        &dir.path("w"),
        &[],
    );
    assert!(err.contains("row 4: result `2-0`"), "{err}");
}

/// A results or weights directory that cannot be made (here: under a file) is refused with
/// exit 2 before any game is played, not found out when the weights are written.
#[test]
fn an_output_directory_that_cannot_be_made_is_refused_first() {
    let dir = TempDir::new("learn-out");
    let learn_file = dir.path("tiny.toml");
    fs::write(&learn_file, TINY_TEXEL.replace("THREADS", "1")).unwrap();
    let under_file = learn_file.join("sub");
    for (out, weights, flag) in [
        (under_file.clone(), dir.path("w"), "--out"),
        (dir.path("out"), under_file.clone(), "--weights-dir"),
    ] {
        let (code, text) = learn(&learn_file, &out, &weights, &[]);
        assert_eq!(code, 2, "{text}");
        assert!(text.contains("cannot create the directory"), "{text}");
        assert!(text.contains(&format!("choose another {flag}")), "{text}");
        assert!(!dir.path("out").join("curve.csv").exists(), "it learned");
    }
}

#[test]
fn tiny_runs_are_reproducible_and_learned_weights_search() {
    let dir = TempDir::new("learn-repro");
    let mut outputs = Vec::new();
    for (i, threads) in ["1", "2", "2"].iter().enumerate() {
        let learn_file = dir.path("tiny.toml");
        fs::write(&learn_file, TINY_TEXEL.replace("THREADS", threads)).unwrap();
        let (out, weights) = (dir.path(&format!("out{i}")), dir.path(&format!("w{i}")));
        let (code, text) = learn(&learn_file, &out, &weights, &[]);
        assert_eq!(code, 0, "{text}");
        // Six games, each held out with chance 0.1: here none is, and the run says so.
        assert!(
            text.contains("validation = 0.1 held out none of the 6 games"),
            "{text}"
        );
        assert!(
            !out.join("checkpoint").exists(),
            "the checkpoint is removed when done"
        );
        let curve = fs::read_to_string(out.join("curve.csv")).unwrap();
        assert_eq!(curve.lines().count(), 32, "{curve}");
        // Epoch 0 and the last: the training loss falls.
        let train = |line: &str| line.split(',').nth(1).unwrap().parse::<f64>().unwrap();
        let lines: Vec<&str> = curve.lines().collect();
        assert!(train(lines[31]) < train(lines[1]), "{curve}");
        outputs.push(fs::read(weights.join("tiny.toml")).unwrap());
    }
    assert_eq!(
        outputs[0], outputs[1],
        "one thread and two give the same weights"
    );
    assert_eq!(
        outputs[1], outputs[2],
        "the same run again gives the same weights"
    );

    // A finished run is not replaced without --force: arenas read its weights file.
    let (out, weights) = (dir.path("out2"), dir.path("w2"));
    let (code, text) = learn(&dir.path("tiny.toml"), &out, &weights, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("tiny.toml holds a finished run of `tiny`: --force replaces it"),
        "{text}"
    );
    assert_eq!(fs::read(weights.join("tiny.toml")).unwrap(), outputs[2]);
    let (code, text) = learn(&dir.path("tiny.toml"), &out, &weights, &["--force"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(fs::read(weights.join("tiny.toml")).unwrap(), outputs[2]);
    let learned =
        plylab::games::linear::read_weights(&dir.path("w0/tiny.toml"), Some(LinearKind::Chess))
            .unwrap();
    assert_ne!(
        learned.values,
        chess::MATERIAL_WEIGHTS.to_vec(),
        "the weights moved"
    );

    // The learned weights in an experiment file: a depth-2 search of the start position.
    let w = dir.path("w0/tiny.toml").display().to_string();
    let exp = dir.path("exp.toml");
    fs::write(
        &exp,
        format!(
            "name = \"x\"\n[limits]\ndepth = 2\n[[games]]\ngame = \"chess\"\npositions = [\"startpos\"]\n[[searchers]]\nlabel = \"s\"\nalgorithm = \"alphabeta\"\neval = \"linear:{w}\"\n"
        ),
    )
    .unwrap();
    let out = dir.path("exp-out");
    let (code, _, err) = plylab(&[
        "experiment",
        exp.to_str().unwrap(),
        "--no-plot",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // The searcher's parameters are stored once, in searchers.csv.
    let searchers = fs::read_to_string(out.join("searchers.csv")).unwrap();
    assert!(searchers.contains("linear:"), "{searchers}");
    let csv = fs::read_to_string(out.join("searches.csv")).unwrap();
    assert!(csv.lines().count() > 1, "{csv}");
}

/// TDLeaf(λ) on connect four: 64 self-play games in 8 batches.
const TD_C4: &str = r#"
name = "c4"
game = "connect4"
method = "tdleaf"
seed = 3
threads = 2
[self_play]
games = 64
depth = 3
random_plies = 4
max_plies = 42
[td]
lambda = 0.7
learning_rate = 0.05
k = 20.0
batch = 8
"#;

#[test]
fn td_leaf_resumes_from_its_checkpoint_to_the_same_weights() {
    let dir = TempDir::new("learn-td");
    let file = dir.path("c4.toml");
    fs::write(&file, TD_C4).unwrap();
    let run = |out: &str| -> Vec<u8> {
        let (code, text) = learn(&file, &dir.path(out), &dir.path("w"), &[]);
        assert_eq!(code, 0, "{text}");
        fs::read(dir.path("w/c4.toml")).unwrap()
    };
    let whole = run("a");
    // Interrupted after 3 of its 8 batches, then run again: it resumes from the checkpoint
    // and ends with the same weights, and the same curve, as the run that went straight
    // through.
    let out_b = dir.path("b");
    let (code, err) = learn(&file, &out_b, &dir.path("wb"), &["--stop-after", "3"]);
    assert_eq!(code, 1, "{err}");
    assert!(out_b.join("checkpoint/state.json").exists(), "{err}");
    assert!(!dir.path("wb/c4.toml").exists());
    // A damaged checkpoint is refused, naming --restart, not trusted or quietly dropped.
    let state = out_b.join("checkpoint/state.json");
    let kept = fs::read_to_string(&state).unwrap();
    for (from, to, why) in [
        (
            "\"done\":3,",
            "\"done\":999999,",
            "999999 done of the file's 8",
        ),
        ("{", "", "a damaged checkpoint"),
    ] {
        assert!(kept.contains(from), "{kept}");
        fs::write(&state, kept.replacen(from, to, 1)).unwrap();
        let (code, err) = learn(&file, &out_b, &dir.path("wb"), &[]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(why) && err.contains("--restart"), "{err}");
    }
    fs::write(&state, kept).unwrap();
    let resumed = run("b");
    assert_eq!(whole, resumed);
    assert_eq!(
        fs::read_to_string(dir.path("a/curve.csv")).unwrap(),
        fs::read_to_string(dir.path("b/curve.csv")).unwrap()
    );
    // A checkpoint made from other starting weights (the file named by `start`, edited
    // since) is not continued, nor thrown away: the run is refused, naming --restart. An
    // edited comment or description is no other setting: the run resumes.
    let start = dir.path("start.toml");
    let weights = fs::read_to_string("weights/connect4-tdleaf.toml").unwrap();
    fs::write(&start, &weights).unwrap();
    let line = format!("threads = 2\nstart = \"{}\"\n", start.display());
    fs::write(&file, TD_C4.replace("threads = 2\n", &line)).unwrap();
    let out_c = dir.path("c");
    let (code, err) = learn(&file, &out_c, &dir.path("wc"), &["--stop-after", "3"]);
    assert_eq!(code, 1, "{err}");
    let edited = fs::read_to_string(&file).unwrap();
    let described = edited.replacen("name = \"c4\"\n", "name = \"c4\"\ndescription = \"x\"\n", 1);
    assert_ne!(described, edited);
    fs::write(&file, format!("# a comment\n{described}")).unwrap();
    let (code, err) = learn(&file, &out_c, &dir.path("wc"), &["--stop-after", "4"]);
    assert_eq!(code, 1, "resumed from batch 3, not refused: {err}");
    assert!(err.contains("stopped after 4 as asked"), "{err}");
    fs::write(&start, weights.replace("tempo = 3.99", "tempo = 1.00")).unwrap();
    let (code, err) = learn(&file, &out_c, &dir.path("wc"), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("(4 of 8 done) of other settings") && err.contains("--restart"),
        "{err}"
    );
    let (code, err) = learn(&file, &out_c, &dir.path("wc"), &["--restart"]);
    assert_eq!(code, 0, "{err}");
}

/// A Texel run stopped after its self-play keeps its games through an edited comment,
/// description or number of threads (what is learned is the same, so the games are), and
/// the time it reports adds up every session's, as a resumed experiment's does.
#[test]
fn texel_keeps_its_games_and_its_time_across_sessions() {
    let dir = TempDir::new("learn-texel-sessions");
    let file = dir.path("tiny.toml");
    let spec = TINY_TEXEL.replace("THREADS", "1");
    fs::write(&file, &spec).unwrap();
    let (out, weights) = (dir.path("out"), dir.path("w"));
    let (code, err) = learn(&file, &out, &weights, &["--stop-after", "10"]);
    assert_eq!(code, 1, "{err}");
    let games = fs::read(out.join("checkpoint/games.txt")).unwrap();
    let seconds =
        |text: String| -> f64 { text.split_whitespace().nth(1).unwrap().parse().unwrap() };
    let first = seconds(fs::read_to_string(out.join("checkpoint/seconds.txt")).unwrap());
    assert!(first > 0.0);
    let described = spec.replacen(
        "name = \"tiny\"\n",
        "name = \"tiny\"\ndescription = \"x\"\n",
        1,
    );
    assert_ne!(described, spec);
    let described = described.replacen("threads = 1", "threads = 2", 1);
    fs::write(&file, format!("# a comment\n{described}")).unwrap();
    let (code, err) = learn(&file, &out, &weights, &["--stop-after", "20"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("stopped after 20 as asked"), "{err}");
    assert_eq!(fs::read(out.join("checkpoint/games.txt")).unwrap(), games);
    let second = seconds(fs::read_to_string(out.join("checkpoint/seconds.txt")).unwrap());
    assert!(second > first, "{first} then {second}");
    let (code, err) = learn(&file, &out, &weights, &[]);
    assert_eq!(code, 0, "{err}");
    let run: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let total = run["elapsed_s"].as_f64().unwrap();
    // run.json keeps a tenth of a second.
    assert!(total >= second - 0.05, "{total} < {second}");
}

/// Ctrl-C in a learning run: the running batch finishes, the checkpoint is written, the
/// exit code is 130 with the command that resumes, and that command ends with the weights
/// of a run that went straight through.
#[cfg(unix)]
#[test]
fn ctrl_c_writes_the_checkpoint_and_the_run_resumes() {
    let dir = TempDir::new("learn-ctrl-c");
    let spec = "name = \"c4\"\ngame = \"connect4\"\nmethod = \"tdleaf\"\nseed = 3\nthreads = 2\n\
                [self_play]\ngames = 4000\ndepth = 3\nrandom_plies = 4\nmax_plies = 42\n\
                [td]\nlambda = 0.7\nlearning_rate = 0.05\nk = 20.0\nbatch = 8\n";
    let file = dir.path("c4.toml");
    fs::write(&file, spec).unwrap();
    let out = dir.path("out");
    let weights = dir.path("w");
    // Not --quiet: Ctrl-C is caught in an interactive run, as in experiments.
    let state = out.join("checkpoint/state.json");
    let [file_arg, out_arg, weights_arg] = [&file, &out, &weights].map(|p| p.to_str().unwrap());
    let args = [
        "learn",
        file_arg,
        "--no-plot",
        "--out",
        out_arg,
        "--weights-dir",
        weights_arg,
    ];
    let (code, stderr) = common::interrupted_when(&args, || state.exists());
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains(" of 500 batches done, the checkpoint in "),
        "{stderr}"
    );
    assert!(stderr.contains("Resume with:"), "{stderr}");
    assert!(state.exists(), "{stderr}");
    assert!(!weights.join("c4.toml").exists(), "{stderr}");
    let (code, err) = learn(&file, &out, &weights, &[]);
    assert_eq!(code, 0, "{err}");
    let (code, err) = learn(&file, &dir.path("whole"), &dir.path("w2"), &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        fs::read(weights.join("c4.toml")).unwrap(),
        fs::read(dir.path("w2/c4.toml")).unwrap()
    );
}

/// Without `--no-plot` a learning run draws its curve, curve.svg and curve.png, and its
/// summary shows it: Texel's training and validation loss by epoch on a linear scale
/// (decimal ticks), TDLeaf's squared TD error and held-out loss by self-play games on a log
/// scale (ticks at powers of ten: `1e-2`).
#[test]
fn a_learning_run_draws_its_curve() {
    let dir = TempDir::new("learn-curve");
    let texel = TINY_TEXEL
        .replace("THREADS", "1")
        .replace("games = 6", "games = 12")
        .replace(
            "checkpoint_every = 10",
            "checkpoint_every = 10\nvalidation = 0.5",
        );
    let cases = [
        (
            "tiny",
            texel.as_str(),
            [
                "tiny: learning curve",
                "epoch",
                "training loss",
                "validation loss",
            ],
            false,
        ),
        (
            "c4",
            TD_C4,
            [
                "c4: learning curve",
                "self-play games",
                "mean squared TD error",
                "held-out loss (fixed positions)",
            ],
            true,
        ),
    ];
    let weights = dir.path("w");
    for (name, spec, texts, log) in cases {
        let file = dir.path(&format!("{name}.toml"));
        fs::write(&file, spec).unwrap();
        let out = dir.path(name);
        let args = [
            "learn",
            file.to_str().unwrap(),
            "--quiet",
            "--out",
            out.to_str().unwrap(),
            "--weights-dir",
            weights.to_str().unwrap(),
        ];
        let (code, stdout, err) = plylab(&args);
        assert_eq!(code, 0, "{stdout}{err}");
        let png = fs::read(out.join("curve.png")).unwrap();
        assert!(png.len() > 1000 && &png[1..4] == b"PNG", "{name}");
        let svg = fs::read_to_string(out.join("curve.svg")).unwrap();
        for text in texts {
            assert!(svg.contains(text), "{name}: no `{text}` in curve.svg");
        }
        assert_eq!(svg.contains("\n1e-"), log, "{name}: a log scale's ticks");
        let summary = fs::read_to_string(out.join("summary.md")).unwrap();
        assert!(
            summary.contains("![learning curve](curve.svg)"),
            "{summary}"
        );
    }
}

/// Texel on connect four: 40 self-play games at depth 1, three epochs, `validation` the
/// share of games held out.
fn c4_texel(validation: f64) -> String {
    format!(
        "name = \"c4-texel\"\ngame = \"connect4\"\nmethod = \"texel\"\nseed = 5\nthreads = 2\n\
         [self_play]\ngames = 40\ndepth = 1\nrandom_plies = 2\nmax_plies = 42\n\
         [texel]\nepochs = 3\nlearning_rate = 0.5\nk = 20.0\nvalidation = {validation}\n"
    )
}

/// TD(λ) on connect four with a description: one batch of three games at depth 1.
const C4_TD: &str = "name = \"c4-td\"\ndescription = \"one line\"\ngame = \"connect4\"\n\
                     method = \"td\"\nseed = 11\nthreads = 2\n[self_play]\ngames = 3\ndepth = 1\n\
                     random_plies = 2\nmax_plies = 42\n[td]\nlambda = 0.5\nlearning_rate = 0.25\n\
                     k = 20.0\nbatch = 3\n";

/// Runs `spec`, written to `dir`'s `TAG.toml`, with `--no-plot` into `dir`'s `TAG` (results)
/// and `TAG-w` (weights); returns the file and the results directory.
fn learned(dir: &TempDir, tag: &str, spec: &str) -> (PathBuf, PathBuf) {
    let file = dir.path(&format!("{tag}.toml"));
    fs::write(&file, spec).unwrap();
    let out = dir.path(tag);
    let (code, text) = learn(&file, &out, &dir.path(&format!("{tag}-w")), &[]);
    assert_eq!(code, 0, "{tag}: {text}");
    (file, out)
}

/// As [`learned`], with the charts drawn: curve.svg's text.
fn charted(dir: &TempDir, tag: &str, spec: &str) -> String {
    let file = dir.path(&format!("{tag}.toml"));
    fs::write(&file, spec).unwrap();
    let (out, weights) = (dir.path(tag), dir.path(&format!("{tag}-w")));
    let [file, out_arg, weights] = [&file, &out, &weights].map(|p| p.to_str().unwrap());
    let args = [
        "learn",
        file,
        "--quiet",
        "--out",
        out_arg,
        "--weights-dir",
        weights,
    ];
    let (code, stdout, err) = plylab(&args);
    assert_eq!(code, 0, "{tag}: {stdout}{err}");
    assert!(out.join("curve.png").is_file(), "{tag}: no curve.png");
    fs::read_to_string(out.join("curve.svg")).unwrap()
}

/// curve.csv's rows as cells, header first.
fn curve_cells(out: &Path) -> Vec<Vec<String>> {
    let text = fs::read_to_string(out.join("curve.csv")).unwrap();
    let row = |l: &str| l.split(',').map(String::from).collect();
    text.lines().map(row).collect()
}

/// Whether `cell` is a finite number written with exactly six decimals.
fn six_decimals(cell: &str) -> bool {
    cell.parse::<f64>().is_ok_and(f64::is_finite)
        && cell.split_once('.').is_some_and(|(_, d)| d.len() == 6)
}

/// curve.csv as EXPERIMENTS.md ("Outputs") names its columns: Texel's `epoch,train_loss,
/// validation_loss` has a row for every epoch from 0, losses with six decimals, and an empty
/// validation cell where no game is held out; TD's `games,td_error,held_out_loss` has a row
/// per batch at the games played, both losses with six decimals.
#[test]
fn curve_csv_has_a_row_per_epoch_or_batch_with_six_decimal_losses() {
    let dir = TempDir::new("learn-curve-csv");
    let texel = "epoch,train_loss,validation_loss";
    let cases = [
        (
            "none",
            c4_texel(0.0),
            texel,
            &["0", "1", "2", "3"][..],
            false,
        ),
        (
            "held",
            c4_texel(0.2),
            texel,
            &["0", "1", "2", "3"][..],
            true,
        ),
        (
            "td",
            C4_TD.to_owned(),
            "games,td_error,held_out_loss",
            &["3"][..],
            true,
        ),
    ];
    for (tag, spec, header, xs, measured) in cases {
        let (_, out) = learned(&dir, tag, &spec);
        let cells = curve_cells(&out);
        assert_eq!(cells[0].join(","), header, "{tag}");
        let x: Vec<&str> = cells[1..].iter().map(|r| r[0].as_str()).collect();
        assert_eq!(x, xs, "{tag}: {cells:?}");
        for row in &cells[1..] {
            assert_eq!(row.len(), 3, "{tag}: {row:?}");
            assert!(six_decimals(&row[1]), "{tag}: {row:?}");
            let third = if measured {
                six_decimals(&row[2])
            } else {
                row[2].is_empty()
            };
            assert!(third, "{tag}: {row:?}");
        }
    }
}

/// summary.md states the run (EXPERIMENTS.md, "Outputs"): its name and description, the
/// command that regenerates it from the file as named, the method, the data, seed and
/// threads, the headline loss from curve.csv's first row to its last (Texel: validation where
/// games are held out, else training; TD: held out), where the weights went, and every weight
/// from start to learned with the kind's decimals; without charts it links none.
#[test]
fn summary_md_states_the_run_its_losses_and_every_weight() {
    use plylab::learn::LearnGame;
    let dir = TempDir::new("learn-summary");
    let texel_method = "Texel regression (logistic error against game results)";
    let cases = [
        (
            "none",
            c4_texel(0.0),
            "",
            texel_method,
            "40 games, ",
            "training loss",
            1,
        ),
        (
            "held",
            c4_texel(0.2),
            "",
            texel_method,
            "40 games, ",
            "validation loss",
            2,
        ),
        (
            "td",
            C4_TD.to_owned(),
            "one line\n\n",
            "TD(λ) from self-play",
            "3 self-play games",
            "held-out loss",
            2,
        ),
    ];
    for (tag, spec, description, method, data, what, column) in cases {
        let (file, out) = learned(&dir, tag, &spec);
        let summary = fs::read_to_string(out.join("summary.md")).unwrap();
        let name = if tag == "td" { "c4-td" } else { "c4-texel" };
        let head = format!(
            "# {name}\n\n{description}- regenerate: `plylab learn {} --force`",
            file.display()
        );
        assert!(summary.starts_with(&head), "{tag}: {summary}");
        for line in [
            format!("- method: {method}\n"),
            format!("- data: {data}"),
            "- seed ".to_owned() + if tag == "td" { "11" } else { "5" } + ", 2 threads\n",
            format!(
                "- weights: `{}`\n",
                dir.path(&format!("{tag}-w/{name}.toml")).display()
            ),
        ] {
            assert!(summary.contains(&line), "{tag}: no `{line}` in {summary}");
        }
        let cells = curve_cells(&out);
        let (first, last) = (&cells[1][column], &cells[cells.len() - 1][column]);
        let headline = summary
            .lines()
            .find(|l| l.starts_with(&format!("- {what}")));
        assert!(
            headline.is_some_and(|l| l.ends_with(&format!(": {first} → {last}"))),
            "{tag}: {what} {first} → {last}: {summary}"
        );
        assert!(!summary.contains("![learning curve]"), "{tag}: {summary}");
        assert!(!out.join("curve.svg").exists() && !out.join("curve.png").exists());
        let learned = plylab::games::linear::read_weights(
            &dir.path(&format!("{tag}-w/{name}.toml")),
            Some(LinearKind::Connect4),
        )
        .unwrap();
        let rows: Vec<String> = LinearKind::Connect4
            .names()
            .iter()
            .zip(plylab::games::connect4::Connect4::hand_set())
            .zip(&learned.values)
            .map(|((n, s), l)| format!("| {n} | {s:.2} | {l:.2} |"))
            .collect();
        let table = summary.split("|---|---:|---:|\n").nth(1).unwrap_or("");
        assert_eq!(table.lines().collect::<Vec<_>>(), rows, "{tag}: {summary}");
    }
}

/// run.json records the run (EXPERIMENTS.md, "Outputs"): `learn` the name, the learning
/// file's `text` as read, its `seed` and `threads`, the machine facts, and `elapsed_s` to a
/// tenth of a second; the file ends with a newline.
#[test]
fn run_json_records_the_file_the_machine_and_the_time_to_a_tenth() {
    let dir = TempDir::new("learn-run-json");
    let spec = c4_texel(0.0);
    let (_, out) = learned(&dir, "run", &spec);
    let text = fs::read_to_string(out.join("run.json")).unwrap();
    assert!(text.ends_with("}\n"), "{text}");
    let run: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(run["learn"], "c4-texel", "{text}");
    assert_eq!(run["text"], spec.as_str(), "{text}");
    assert_eq!(
        (run["seed"].as_u64(), run["threads"].as_u64()),
        (Some(5), Some(2))
    );
    for key in ["git_commit", "crate_version", "cpu_model", "cores", "date"] {
        assert!(run.get(key).is_some(), "no `{key}`: {text}");
    }
    let elapsed = run["elapsed_s"].as_f64().unwrap();
    assert_eq!((elapsed * 10.0).round() / 10.0, elapsed, "{text}");
}

/// The charts draw a series' points as markers, at most 600 of them (output.rs): a curve of
/// 1002 points (epochs 0 to 1001) is drawn from every other point and the last, 502 markers,
/// where one of 4 points is drawn whole; with no game held out there is no validation series.
#[test]
fn a_long_curve_is_drawn_from_every_other_point_and_the_last() {
    let dir = TempDir::new("learn-long-curve");
    let markers = |svg: &str| svg.matches("<circle").count();
    let short = charted(&dir, "short", &c4_texel(0.0));
    let long = charted(
        &dir,
        "long",
        &c4_texel(0.0).replace("epochs = 3", "epochs = 1001"),
    );
    for svg in [&short, &long] {
        assert!(svg.contains("training loss"), "{svg}");
        assert!(!svg.contains("validation loss"), "{svg}");
    }
    // The legend's markers are those beyond the short curve's 4 points.
    let legend = markers(&short) - 4;
    assert_eq!(markers(&long) - legend, 502);
}

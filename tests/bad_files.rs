//! Input files past their size cap (`/dev/zero`, or a huge file) refused by every reader with
//! the file and the cap, exit code 2, instead of filling the memory. The files here are
//! sparse, one byte past the cap, so they cost no disk and are refused before being read;
//! the cap on a read that does not know its size (`/dev/zero`, a `.gz`) is tested beside
//! `plylab::input` and `plylab::compressed`.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{TempDir, past_cap, plylab};
use plylab::input::Cap;

fn assert_refused(args: &[&str], file: &str, cap: &str) {
    let (code, _, stderr) = plylab(args);
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert!(
        stderr.contains(file) && stderr.contains(cap),
        "{args:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn text_files_past_the_cap_are_refused() {
    let tmp = TempDir::new("bad-files-text");
    let big = past_cap(&tmp, "big.toml", Cap::TEXT);
    assert_refused(&["experiment", &big, "--dry-run"], &big, "256 MiB");
    assert_refused(&["learn", &big], &big, "256 MiB");
}

/// A learning file's games that never end (`/dev/zero`): refused at the cap, not read
/// forever by the fingerprint the learning checkpoint keeps of its inputs.
#[cfg(unix)]
#[test]
fn endless_games_are_refused_by_learn() {
    let tmp = TempDir::new("bad-files-learn-games");
    let file = tmp.path("z.toml");
    let text = "name = \"z\"\ngame = \"chess\"\nmethod = \"texel\"\nseed = 7\n\
                games = [\"/dev/zero\"]\n[texel]\nepochs = 3\nlearning_rate = 1.0\n";
    std::fs::write(&file, text).expect("write");
    let out = tmp.path("out");
    let weights = tmp.path("weights");
    let args = [
        "learn",
        file.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
        "--weights-dir",
        weights.to_str().expect("utf-8"),
        "--quiet",
    ];
    assert_refused(&args, "/dev/zero", "1024 MiB");
}

#[test]
fn a_result_table_past_the_cap_is_refused_by_plot() {
    let tmp = TempDir::new("bad-files-csv");
    let big = past_cap(&tmp, "searches.csv", Cap::RESULTS);
    assert_refused(&["plot", &big], &big, "1024 MiB");
}

/// The files an experiment's searcher names: refused at their key with the file and line.
#[test]
fn a_searchers_files_past_the_cap_are_refused_at_their_key() {
    let tmp = TempDir::new("bad-files-keys");
    past_cap(&tmp, "big.plytb", Cap::DATABASE);
    // Weights are found from the working directory, databases from the experiment file.
    let weights = past_cap(&tmp, "big_weights.toml", Cap::TEXT);
    for (key, cap) in [
        ("tablebase = \"big.plytb\"".to_owned(), "64 MiB"),
        (format!("eval = \"linear:{weights}\""), "256 MiB"),
    ] {
        let file = tmp.path("e.toml");
        let text = format!(
            "name = \"e\"\n\n[[games]]\ngame = \"chess\"\npositions = [\"startpos\"]\n\
             limits = {{ depth = 2 }}\n\n[[searchers]]\nlabel = \"s\"\n\
             algorithm = \"alphabeta\"\n{key}\n"
        );
        std::fs::write(&file, text).expect("write");
        let e = file.to_str().expect("utf-8");
        assert_refused(&["experiment", e, "--dry-run"], "e.toml:11:", cap);
    }
}

/// `plylab uci` reports a book or database past its cap and keeps answering.
#[test]
fn uci_options_past_the_cap_are_reported() {
    let tmp = TempDir::new("bad-files-uci");
    let book = past_cap(&tmp, "big.bin", Cap::BOOK);
    let tb = past_cap(&tmp, "big.plytb", Cap::DATABASE);
    let mut child = Command::new(env!("CARGO_BIN_EXE_plylab"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("plylab uci runs");
    let commands = format!(
        "uci\nsetoption name BookFile value {book}\nsetoption name TablebaseFiles value {tb}\n\
         isready\nquit\n"
    );
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(commands.as_bytes()).expect("send");
    drop(stdin);
    let out = child.wait_with_output().expect("uci ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for (name, cap) in [("BookFile", "256 MiB"), ("TablebaseFiles", "64 MiB")] {
        let said = format!("info string {name}: ");
        let line = stdout.lines().find(|l| l.starts_with(&said));
        assert!(line.is_some_and(|l| l.contains(cap)), "{name}: {stdout}");
    }
    assert!(stdout.contains("readyok"), "{stdout}");
}

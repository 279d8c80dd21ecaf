//! Connect-four opening books built by search with drop-out expansion: every book move's
//! value is the solver's, files round-trip and damaged ones are refused, and the command
//! line builds and probes them.

use crate::common::{self, TempDir, plylab};
use plylab::game::{Game, Notation, score};
use plylab::games::connect4::{CentreFirst, Connect4};
use plylab::knowledge::book::doe::build_doe;
use plylab::knowledge::book::{Book, BookChoice, SearchBook};
use plylab::knowledge::commands::connect4_book_params;
use plylab::search::{Limits, SearchConfig, search};

/// The exact value of `pos` for its side to move (plylab's solver: alpha-beta to the end).
fn solve(pos: &Connect4) -> i32 {
    let config = SearchConfig {
        tt_mb: 4,
        ordering: plylab::search::Ordering::HEURISTICS,
        ..SearchConfig::default()
    };
    search(pos, &CentreFirst, &config, &Limits::default())
        .score()
        .expect("a move")
}

/// A book from a position of Pons's test set L3 (34 stones), its leaves solved (depth 0):
/// at every book position reached by book moves, each move's value equals the solver's
/// value of the position after it (seen from before it, one ply further), and the book's
/// best move has the solver's value of the position.
#[test]
fn book_move_values_are_the_solvers() {
    let root = Connect4::parse_position("7422341735647741166133573473242566").expect("valid");
    let book = build_doe(
        &root,
        &CentreFirst,
        &connect4_book_params(12, 0, 4),
        &mut |_| true,
    );
    assert!(book.positions() >= 10, "{}", book.positions());
    let mut frontier = vec![root];
    let mut checked = 0;
    while let Some(pos) = frontier.pop() {
        let moves = book.scored_moves(&pos);
        if moves.is_empty() {
            continue;
        }
        let best = moves.iter().map(|&(_, v)| v).max().expect("moves");
        assert_eq!(best, solve(&pos), "{}", pos.to_ascii());
        for (mv, value) in moves {
            let mut child = pos;
            child.play(mv);
            let exact = if child.status() == plylab::game::Status::Ongoing {
                -score::from_table(solve(&child), 1)
            } else {
                // The move ends the game: a win now for the mover, or a draw.
                let finished =
                    child.status() != plylab::game::Status::Over(plylab::game::Outcome::Draw);
                if finished { score::win_in(1) } else { 0 }
            };
            assert_eq!(value, exact, "{} then {mv}", pos.to_ascii());
            checked += 1;
            frontier.push(child);
        }
        let chosen = BookChoice::Best.choose(&book.weighted_moves(&pos), 1);
        let chosen_value = book
            .scored_moves(&pos)
            .into_iter()
            .find(|&(m, _)| Some(m) == chosen)
            .map(|(_, v)| v);
        assert_eq!(chosen_value, Some(best));
    }
    assert!(checked >= 30, "{checked}");
}

/// The command line: build, probe, and damaged files refused with exit code 2.
#[test]
fn build_probe_and_damaged_books_on_the_command_line() {
    let tmp = TempDir::new("connect4-book");
    let file = tmp.path("c4.book");
    let path = file.to_str().expect("utf-8");
    let args = [
        "book",
        "build",
        "connect4",
        "--positions",
        "5",
        "--depth",
        "4",
        "--out",
        path,
    ];
    let (code, stdout, stderr) = plylab(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("5 positions"), "{stdout}");
    let (code, stdout, _) = plylab(&["book", "probe", path, "start"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().count(), 7, "{stdout}");
    // Best first, and exactly the moves of the best value marked as the book's moves.
    let values: Vec<i32> = stdout
        .lines()
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .expect("a value")
                .parse()
                .expect("a number")
        })
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{stdout}");
    for (line, value) in stdout.lines().zip(&values) {
        assert_eq!(
            line.ends_with("  book move"),
            *value == values[0],
            "{stdout}"
        );
    }
    // An empty position is a mistake (the start is written `start`), not the start.
    let (code, _, stderr) = plylab(&["book", "probe", path, " "]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("an empty position"), "{stderr}");
    let empty_from = ["book", "build", "connect4", "--from", "", "--out", path];
    let (code, _, stderr) = plylab(&empty_from);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--from ``: an empty position"), "{stderr}");
    let read = SearchBook::load(&file).expect("reads back");
    assert!(matches!(Book::load(&file), Ok(Book::Search(ref b)) if *b == read));

    let bytes = std::fs::read(&file).expect("written");
    let mut flipped = bytes.clone();
    flipped[60] ^= 1;
    std::fs::write(&file, &flipped).expect("write");
    let (code, _, stderr) = plylab(&["book", "probe", path, "start"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("checksum") && stderr.contains(path),
        "{stderr}"
    );
    // The header is checksummed too: a relabelled game (byte 10 starts its name) is
    // damage, not another game's book.
    let mut relabelled = bytes.clone();
    relabelled[10] = b'C';
    std::fs::write(&file, &relabelled).expect("write");
    let (code, _, stderr) = plylab(&["book", "probe", path, "start"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("checksum"), "{stderr}");
    // A version-1 book (its checksum covered the entries only) is to be rebuilt.
    let mut old = bytes.clone();
    old[8] = 1;
    std::fs::write(&file, &old).expect("write");
    let (code, _, stderr) = plylab(&["book", "probe", path, "start"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("format version 1") && stderr.contains("rebuild"),
        "{stderr}"
    );
    std::fs::write(&file, &bytes[..bytes.len() - 3]).expect("write");
    let (code, _, stderr) = plylab(&["book", "probe", path, "start"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("truncated"), "{stderr}");
    let (code, _, stderr) = plylab(&["book", "build", "connect4", "--from", "48", "--out", path]);
    assert_eq!(code, 2, "{stderr}");
}

/// Ctrl-C ends a long build after the position being expanded: the book of the positions
/// expanded so far is written and reads back, and the exit code is 130. A book already at
/// `--out` is left as it was, the part written beside it.
#[cfg(unix)]
#[test]
fn an_interrupted_build_writes_the_book_so_far() {
    let tmp = TempDir::new("connect4-book-interrupted");
    let file = tmp.path("c4.book");
    let path = file.to_str().expect("utf-8");
    let args = ["book", "build", "connect4", "--positions", "1000000"];
    let args = [&args[..], &["--depth", "12", "--out", path]].concat();
    // Long enough for the handler to be in place and the first positions expanded.
    let begun = std::time::Instant::now();
    let (code, stderr) = common::interrupted_when(&args, || begun.elapsed().as_secs() >= 3);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted: the book of the") && stderr.contains(path),
        "{stderr}"
    );
    let (code, stdout, stderr) = plylab(&["book", "probe", path, "start"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 7, "{stdout}");
    let earlier = std::fs::read(&file).expect("the book");
    let args = [&args[..], &["--force"]].concat();
    let begun = std::time::Instant::now();
    let (code, stderr) = common::interrupted_when(&args, || begun.elapsed().as_secs() >= 2);
    assert_eq!(code, Some(130), "{stderr}");
    assert_eq!(std::fs::read(&file).expect("the book"), earlier);
    let partial = format!("{path}.partial");
    assert!(
        stderr.contains(&format!(
            "written to {partial} ({path} holds an earlier book"
        )),
        "{stderr}"
    );
    let (code, _, stderr) = plylab(&["book", "probe", &partial, "start"]);
    assert_eq!(code, 0, "{stderr}");
}

/// A book of no positions (a budget of none: nothing expanded) is the file's header alone,
/// 40 bytes by the format in the module doc of `knowledge::book::doe` (magic 8, version 2,
/// game name 14, entry count 8, checksum 8), and it reads back as itself: `load` reads
/// what `save` writes.
#[test]
fn a_book_of_no_positions_is_its_header_alone_and_reads_back() {
    let book = build_doe(
        &Connect4::default(),
        &CentreFirst,
        &connect4_book_params(0, 1, 4),
        &mut |_| true,
    );
    assert!(book.entries().is_empty(), "{:?}", book.entries());
    assert_eq!(book.positions(), 0);
    let tmp = TempDir::new("connect4-book-empty");
    let file = tmp.path("empty.book");
    book.save(&file).expect("written");
    assert_eq!(
        std::fs::read(&file).expect("read").len(),
        8 + 2 + 14 + 8 + 8
    );
    let read = SearchBook::load(&file).expect("a header-only book reads back");
    assert_eq!(read, book);
    assert_eq!(read.game(), "connect4");
}

/// A file that begins as a search book (its magic and version) but stops before the
/// 40-byte header ends is refused as not a book, never read past its end: the header's
/// length is that of the format in the module doc of `knowledge::book::doe`.
#[test]
fn a_file_shorter_than_a_book_header_is_refused() {
    let tmp = TempDir::new("connect4-book-short");
    let file = tmp.path("short.book");
    for len in [8, 10, 24, 32, 39] {
        let mut bytes = b"PLYLABBK".to_vec();
        bytes.extend_from_slice(&2u16.to_le_bytes());
        bytes.resize(len, 0);
        std::fs::write(&file, &bytes).expect("write");
        let refused = SearchBook::load(&file).expect_err("too short to be a book");
        assert!(
            refused.to_string().contains("bad header"),
            "{len}: {refused}"
        );
    }
}

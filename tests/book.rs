//! Opening books: Polyglot keys against the format's published values, and books made and
//! read by Debian's `polyglot` (PolyGlot 2.0.4) against plylab's (skipped, with the reason
//! printed, where the program is absent; .ci/run installs it).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{self, TempDir, plylab};
use plylab::game::Game;
use plylab::games::chess::Chess;
use plylab::knowledge::book::{BookChoice, PolyglotBook, polyglot, read_pgn};

const PGN: &str = "tests/data/book/openings.pgn";

/// The keys listed in the Polyglot format's description (Van den Bergh, "PolyGlot opening
/// book format", hgm.nubati.net/book_format.html), after each move sequence from the start.
#[test]
fn keys_are_the_published_ones() {
    let cases: [(&str, u64); 9] = [
        ("", 0x463b_9618_1691_fc9c),
        ("e2e4", 0x823c_9b50_fd11_4196),
        ("e2e4 d7d5", 0x0756_b944_61c5_0fb0),
        ("e2e4 d7d5 e4e5", 0x662f_afb9_65db_29d4),
        ("e2e4 d7d5 e4e5 f7f5", 0x22a4_8b5a_8e47_ff78),
        ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a_607c_a3f2_42c1),
        ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fd_d303_c946_bdd9),
        ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c81_23ea_7b06_7637),
        ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f_9b82_9b27_9560),
    ];
    for (line, expected) in cases {
        let mut pos = Chess::startpos();
        for mv in line.split_whitespace() {
            let mv = pos.parse_move(mv).expect("legal");
            pos.play(mv);
        }
        assert_eq!(polyglot::key(&pos), expected, "after `{line}`");
    }
}

#[test]
fn the_choice_rules() {
    let moves = [("a", 1u16), ("b", 5), ("c", 5), ("d", 0)];
    assert_eq!(BookChoice::Best.choose(&moves, 0), Some("b"));
    let mut counts = [0; 4];
    for seed in 0..2000 {
        let m = BookChoice::Weighted.choose(&moves, seed).expect("a move");
        counts[usize::from(m.as_bytes()[0] - b'a')] += 1;
    }
    assert_eq!(counts[3], 0);
    assert!((100..260).contains(&counts[0]), "{counts:?}");
    assert!(counts[1] > 800 && counts[2] > 800, "{counts:?}");
    assert_eq!(BookChoice::Best.choose::<&str>(&[], 0), None);
}

/// Debian's PolyGlot, or `None` with the reason printed.
fn polyglot_program() -> Option<PathBuf> {
    let found = ["/usr/games/polyglot", "/usr/bin/polyglot"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists());
    if found.is_none() {
        eprintln!("SKIPPED: `polyglot` is not installed (apt-get install polyglot; .ci/run does)");
    }
    found
}

fn run(program: &Path, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .expect("polyglot runs");
    assert!(out.status.success(), "polyglot {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn make_book(program: &Path, out: &Path) {
    run(
        program,
        &[
            "make-book",
            "-pgn",
            PGN,
            "-bin",
            out.to_str().expect("utf-8"),
            "-min-game",
            "1",
        ],
    );
}

/// `polyglot dump-book` of `book` for `color`, as text.
fn dump(program: &Path, book: &Path, color: &str, tmp: &TempDir) -> String {
    let out = tmp.path(&format!("dump-{color}.txt"));
    let (b, o) = (book.to_str().expect("utf-8"), out.to_str().expect("utf-8"));
    run(
        program,
        &["dump-book", "-bin", b, "-color", color, "-out", o],
    );
    std::fs::read_to_string(&out)
        .expect("dump written")
        .lines()
        .skip(1) // names the file
        .collect::<Vec<_>>()
        .join("\n")
}

/// plylab makes the same book from the PGN as `polyglot make-book`, byte for byte.
#[test]
fn plylab_makes_polyglots_book_byte_for_byte() {
    let Some(program) = polyglot_program() else {
        return;
    };
    let tmp = TempDir::new("book-make");
    let theirs = tmp.path("polyglot.bin");
    make_book(&program, &theirs);
    let ours = PolyglotBook::from_games(&read_pgn(Path::new(PGN)).expect("pgn"), 1024);
    let mine = tmp.path("plylab.bin");
    ours.save(&mine).expect("written");
    assert_eq!(
        std::fs::read(&mine).expect("read"),
        std::fs::read(&theirs).expect("read")
    );
}

/// PolyGlot halves a position's counts when one of its moves has been played `COUNT_MAX`
/// times, and counts an unfinished game (`*`) as a draw: 20,000 won games through 1. e4 e5
/// 2. Nf3 leave e4 and Nf3 the weight 2 × 8,192 + 2 × 3,616 = 23,616 (e5, lost every time,
/// none), while 1. d4 d5 2. c4 `*` and 1. c4 c5 2. Nc3 ½-½ keep their weight of 1 in their
/// own positions. The same book as `polyglot make-book`'s, byte for byte, where it is
/// installed.
#[test]
fn a_move_played_past_count_max_halves_its_own_position_alone() {
    let tmp = TempDir::new("book-halve");
    let pgn = tmp.path("many.pgn");
    // With Result tags: PolyGlot reads a game's result from its tag alone.
    let game = |result: &str, moves: &str| format!("[Result \"{result}\"]\n\n{moves} {result}\n\n");
    let mut text = game("1-0", "1. e4 e5 2. Nf3").repeat(20_000);
    text.push_str(&game("*", "1. d4 d5 2. c4"));
    text.push_str(&game("1/2-1/2", "1. c4 c5 2. Nc3"));
    std::fs::write(&pgn, text).expect("write the games");
    let book = PolyglotBook::from_games(&read_pgn(&pgn).expect("pgn"), 1024);
    let weights = |moves: &[&str]| {
        let mut pos = Chess::startpos();
        for mv in moves {
            pos.play(pos.parse_uci(mv).expect("legal"));
        }
        let mut found: Vec<(String, u16)> = book
            .moves(&pos)
            .into_iter()
            .map(|(m, w)| (m.to_string(), w))
            .collect();
        found.sort();
        found
    };
    let w = |m: &str, weight: u16| (m.to_owned(), weight);
    assert_eq!(
        weights(&[]),
        [w("c2c4", 1), w("d2d4", 1), w("e2e4", 23_616)]
    );
    assert_eq!(weights(&["e2e4"]), []);
    assert_eq!(weights(&["e2e4", "e7e5"]), [w("g1f3", 23_616)]);
    assert_eq!(weights(&["d2d4", "d7d5"]), [w("c2c4", 1)]);
    assert_eq!(weights(&["c2c4", "c7c5"]), [w("b1c3", 1)]);
    let Some(program) = polyglot_program() else {
        return;
    };
    let theirs = tmp.path("polyglot.bin");
    let (from, to) = (
        pgn.to_str().expect("utf-8"),
        theirs.to_str().expect("utf-8"),
    );
    run(
        &program,
        &["make-book", "-pgn", from, "-bin", to, "-min-game", "1"],
    );
    let mine = tmp.path("plylab.bin");
    book.save(&mine).expect("written");
    assert_eq!(
        std::fs::read(&mine).expect("read"),
        std::fs::read(&theirs).expect("read")
    );
}

/// plylab reads polyglot's book with the moves and weights polyglot's own `dump-book`
/// shows: every move of every dumped line is a book move there, with the share of the
/// position's weight that polyglot prints as a percentage.
#[test]
fn plylab_reads_polyglots_book_as_polyglot_does() {
    let Some(program) = polyglot_program() else {
        return;
    };
    let tmp = TempDir::new("book-read");
    let theirs = tmp.path("polyglot.bin");
    make_book(&program, &theirs);
    let book = PolyglotBook::load(&theirs).expect("a book");
    let mut checked = 0;
    for color in ["white", "black"] {
        for line in dump(&program, &theirs, color, &tmp).lines() {
            let Some((_, moves)) = line.split_once(": ") else {
                continue;
            };
            let mut pos = Chess::startpos();
            for token in moves.split_whitespace() {
                if token.ends_with('.') {
                    continue;
                }
                let (san, share) = match token.split_once('{') {
                    Some((san, rest)) => (san, Some(rest.trim_end_matches("%}"))),
                    None => (token, None),
                };
                let mv = pos.parse_san(san).expect("legal SAN");
                if let Some(share) = share {
                    let moves = book.moves(&pos);
                    let total: u32 = moves.iter().map(|&(_, w)| u32::from(w)).sum();
                    let weight = moves.iter().find(|&&(m, _)| m == mv).expect("in book").1;
                    let percent = (u32::from(weight) * 100 + total / 2) / total;
                    assert_eq!(percent.to_string(), share, "{line}");
                    checked += 1;
                }
                pos.play(mv);
            }
        }
    }
    assert!(checked > 10, "{checked}");
}

/// A book written by plylab is read by polyglot: `dump-book` and `info-book` print the same
/// as for polyglot's own book.
#[test]
fn polyglot_reads_plylabs_book() {
    let Some(program) = polyglot_program() else {
        return;
    };
    let tmp = TempDir::new("book-write");
    let theirs = tmp.path("polyglot.bin");
    make_book(&program, &theirs);
    let mine = tmp.path("plylab.bin");
    let (code, _, stderr) = plylab(&[
        "book",
        "build",
        "chess",
        "--pgn",
        PGN,
        "--out",
        mine.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    for color in ["white", "black"] {
        let ours = dump(&program, &mine, color, &tmp);
        assert!(ours.lines().count() >= 2, "{ours}");
        assert_eq!(ours, dump(&program, &theirs, color, &tmp));
    }
    let info = |b: &Path| {
        let text = run(&program, &["info-book", "-bin", b.to_str().expect("utf-8")]);
        text.lines()
            .filter(|l| l.contains(':'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(info(&mine), info(&theirs));
}

#[test]
fn a_damaged_book_is_refused_with_exit_code_2() {
    let tmp = TempDir::new("book-bad");
    let book = tmp.path("b.bin");
    let path = book.to_str().expect("utf-8");
    let (code, _, stderr) = plylab(&["book", "build", "chess", "--pgn", PGN, "--out", path]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, _) = plylab(&["book", "probe", path, "startpos"]);
    assert_eq!((code, stdout.trim()), (0, "e2e4 7"));
    let bytes = std::fs::read(&book).expect("read");
    std::fs::write(&book, &bytes[..bytes.len() - 5]).expect("write");
    let (code, _, stderr) = plylab(&["book", "probe", path, "startpos"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("truncated") && stderr.contains(path),
        "{stderr}"
    );
    let mut swapped = bytes[16..32].to_vec();
    swapped.extend_from_slice(&bytes[..16]);
    swapped.extend_from_slice(&bytes[32..]);
    std::fs::write(&book, &swapped).expect("write");
    let (code, _, stderr) = plylab(&["book", "probe", path, "startpos"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("out of key order"), "{stderr}");
    // Empty (a wrong path or a failed copy), and an entry whose move field names no move
    // (promotion piece 7): both refused, not probed as "out of book".
    let mut no_move = bytes.clone();
    no_move[8] |= 0x70;
    for (damaged, why) in [(Vec::new(), "empty"), (no_move, "entry 1 holds no move")] {
        std::fs::write(&book, &damaged).expect("write");
        let (code, _, stderr) = plylab(&["book", "probe", path, "startpos"]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(why), "{stderr}");
    }
    let pgn = tmp.path("bad.pgn");
    std::fs::write(&pgn, "[Event \"x\"]\n\n1. e4 e5 2. Ke3 1-0\n").expect("write");
    let (code, _, stderr) = plylab(&[
        "book",
        "build",
        "chess",
        "--pgn",
        pgn.to_str().expect("utf-8"),
        "--out",
        path,
        "--force",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(":3:") && stderr.contains("Ke3"), "{stderr}");
}

/// An entry whose move is not legal in its position (a key collision, or a book made wrongly)
/// is skipped, as PolyGlot skips it, and `book probe` says so on stderr.
#[test]
fn a_probe_names_the_entries_it_skips() {
    let tmp = TempDir::new("book-skipped");
    let path = tmp.path("collision.bin");
    let start = Chess::startpos();
    let e2e4 = polyglot::encode_move(start.parse_move("e2e4").expect("legal"));
    // a1a8: the rook cannot move through its own pawn.
    let a1a8 = 56;
    let entry = |mv, weight| polyglot::Entry {
        key: polyglot::key(&start),
        mv,
        weight,
        learn: 0,
    };
    PolyglotBook::new(vec![entry(e2e4, 3), entry(a1a8, 9)])
        .save(&path)
        .expect("save");
    let (code, stdout, stderr) =
        plylab(&["book", "probe", path.to_str().expect("utf-8"), "startpos"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.trim(), "e2e4 3");
    assert!(stderr.contains("note: 1 of the book's entries"), "{stderr}");
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let (code, stdout, stderr) =
        plylab(&["book", "probe", path.to_str().expect("utf-8"), after_e4]);
    assert_eq!((code, stdout.trim()), (0, "out of book"), "{stderr}");
    assert!(!stderr.contains("note"), "{stderr}");
}

#[test]
fn a_missing_book_or_a_pgn_that_is_not_text_is_bad_input() {
    let tmp = TempDir::new("book-missing");
    let missing = tmp.path("no_such_book.bin");
    let missing = missing.to_str().expect("utf-8");
    let (code, _, stderr) = plylab(&["book", "probe", missing, "startpos"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no_such_book.bin"), "{stderr}");
    let (code, _, stderr) = plylab(&["tablebase", "probe", missing, "B:W:BK1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no_such_book.bin"), "{stderr}");
    let binary = tmp.path("games.pgn");
    std::fs::write(&binary, b"[Event \"x\"]\n\n1. e4 \xff e5 1-0\n").expect("write");
    let out = tmp.path("b.bin");
    let (code, _, stderr) = plylab(&[
        "book",
        "build",
        "chess",
        "--pgn",
        binary.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("games.pgn") && stderr.contains("UTF-8"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 3, column 7"),
        "where it breaks: {stderr}"
    );
    // A file named `.gz` that is not gzip (or is cut short) is damaged input too.
    let fake = tmp.path("games.pgn.gz");
    std::fs::write(&fake, "[Event \"x\"]\n\n1. e4 e5 1-0\n").expect("write");
    let (code, _, stderr) = plylab(&[
        "book",
        "build",
        "chess",
        "--pgn",
        fake.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("games.pgn.gz is not a whole gzip file"),
        "{stderr}"
    );
}

#[test]
fn a_pgn_kept_compressed_beside_its_name_is_read_as_the_plain_file() {
    let tmp = TempDir::new("book-gz");
    let text = std::fs::read(PGN).expect("pgn");
    let named = tmp.path("games.pgn");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(tmp.path("games.pgn.gz")).expect("create"),
        flate2::Compression::best(),
    );
    std::io::Write::write_all(&mut gz, &text).expect("write");
    gz.finish().expect("finish");
    assert!(!named.exists());
    let plain = read_pgn(Path::new(PGN)).expect("pgn");
    let compressed = read_pgn(&named).expect("compressed pgn");
    assert!(!plain.is_empty());
    assert_eq!(format!("{compressed:?}"), format!("{plain:?}"));
}

/// A comment or variation never closed is an error at the line it opens (it would swallow
/// every later game); a game without a result ends at the next tag section, with its
/// Result tag's result; `(` and `;`
/// inside a `{}` comment are text.
#[test]
fn pgn_comments_variations_and_missing_results() {
    let tmp = TempDir::new("book-pgn");
    let pgn = tmp.path("g.pgn");
    let read = |text: &str| {
        std::fs::write(&pgn, text).expect("write");
        read_pgn(&pgn)
    };
    let later = "\n[Event \"b\"]\n\n1. d4 d5 1-0\n";
    for (open, what) in [("{ unclosed", "`{` comment"), ("(1. d4", "`(` variation")] {
        let err = read(&format!("[Event \"a\"]\n\n1. e4 {open}\n1-0\n{later}")).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("g.pgn:3:"), "{message}");
        assert!(
            message.contains(what) && message.contains("never closed"),
            "{message}"
        );
    }
    let games = read(&format!("[Event \"a\"]\n\n1. e4 e5 2. Nf3\n{later}")).expect("pgn");
    let summary: Vec<(usize, &str)> = games
        .iter()
        .map(|g| (g.moves.len(), g.result.as_str()))
        .collect();
    assert_eq!(summary, [(3, "*"), (2, "1-0")]);
    // Such a game takes its Result tag's result: a won game weighs as won, not unfinished.
    let tagged = format!("[Result \"0-1\"]\n\n1. e4 e5 2. Nf3\n{later}[Result \"1-0\"]\n\n1. c4");
    let results: Vec<String> = read(&tagged)
        .expect("pgn")
        .into_iter()
        .map(|g| g.result)
        .collect();
    assert_eq!(results, ["0-1", "1-0", "1-0"]);
    let games = read("1. e4 {a ( b; c} e5 ; x {\n2. Nf3 Nc6").expect("pgn");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves.len(), 4);
    // Escape lines (`%` in the first column) are skipped, and castling may be written with
    // zeros; a Result tag that agrees with the movetext is fine.
    let games = read(
        "% from another program\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. 0-0 0-0 5.0-0-0 1-0\n",
    );
    let message = games.unwrap_err().to_string();
    assert!(
        message.contains("move `O-O-O`"),
        "white has castled already: {message}"
    );
    let games = read(
        "% from another program\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. 0-0 0-0 1-0\n",
    )
    .expect("pgn");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves.len(), 8);
    assert_eq!(games[0].result, "1-0");
    // The en-passant mark apart from its capture, as older PGN writes it.
    let games = read("1. e4 Nf6 2. e5 d5 3. exd6 e.p. exd6 *\n").expect("pgn");
    assert_eq!(games[0].moves.len(), 6);
    // A second result after a game's ends no game (it was read as an empty one), while
    // games one after the other, with or without tags, are read.
    let message = read("1. e4 e5 1-0 0-1\n").unwrap_err().to_string();
    assert!(message.contains("`0-1` ends no game"), "{message}");
    let games = read("1. e4 e5 1-0\n1. d4 d5 0-1\n[Event \"x\"]\n\n*\n").expect("pgn");
    let results: Vec<String> = games.into_iter().map(|g| g.result).collect();
    assert_eq!(results, ["1-0", "0-1", "*"]);
}

/// Movetext the PGN standard (Edwards 1994) says to skip is skipped: a `{...}` comment runs
/// to its `}` across lines, a line in it that starts with `[` included (section 8.2.5:
/// tags only come before the movetext); a variation `(...)` is closed by its `)`, nested or
/// not, and play resumes after it (section 8.2.5, recursive annotation variations); NAGs
/// `$1` are annotations, not moves (section 8.2.4); a move number may be followed by zero
/// periods, `1e4` (section 8.2.2.1); a `Variant` tag of `Standard` is plain chess. An
/// unclosed variation is reported at the line of the outermost `(`.
#[test]
fn pgn_comments_and_variations_end_where_they_close() {
    let tmp = TempDir::new("book-skip");
    let pgn = tmp.path("s.pgn");
    let read = |text: &str| {
        std::fs::write(&pgn, text).expect("write");
        read_pgn(&pgn)
    };
    for (text, moves) in [
        (
            "1. e4 {a comment\n[Event \"not a tag\"] still it}\ne5 *\n",
            2,
        ),
        ("1. e4 (1. d4\n[x] d5) e5 *\n", 2),
        ("1. e4 (1. d4 d5) e5 2. Nf3 *\n", 3),
        ("1. e4 (1. d4 (1. c4 c5) d5) (1. Nf3) e5 2. Nf3 *\n", 3),
        ("1. e4 $1 e5 $14 2. Nf3 $2 *\n", 3),
        ("1e4 e5 2Nf3 *\n", 3),
        ("[Variant \"Standard\"]\n\n1. e4 e5 *\n", 2),
    ] {
        let games = read(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let counts: Vec<usize> = games.iter().map(|g| g.moves.len()).collect();
        assert_eq!(counts, [moves], "{text:?}");
    }
    let message = read("[Event \"a\"]\n\n1. e4 (1. d4\n(1. c4\n*\n")
        .unwrap_err()
        .to_string();
    assert!(message.contains("s.pgn:3: a `(` variation"), "{message}");
}

/// Tag pairs are read by the standard's grammar (a `FEN` tag spaced otherwise is still the
/// game's start; escaped quotes stay inside the value), and a malformed one, or a `)` that
/// closes no variation, is an error at its line rather than skipped.
#[test]
fn pgn_tags_are_read_whole_and_malformed_ones_refused() {
    let tmp = TempDir::new("book-tags");
    let pgn = tmp.path("t.pgn");
    let read = |text: &str| {
        std::fs::write(&pgn, text).expect("write");
        read_pgn(&pgn)
    };
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let games = read(&format!(
        "[Event \"say \\\"hi\\\"\"] [Site \"C:\\games\"]\n[FEN  \"{fen}\" ]\n\n1. e4 Kd7 *\n"
    ))
    .expect("pgn");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].start.to_fen(), fen, "the FEN tag was not honoured");
    assert_eq!(games[0].moves.len(), 2);
    for (text, why) in [
        (
            "[Event \"a\"]\n[Site \"b\"\n\n1. e4 *\n",
            "t.pgn:2: malformed tag pair",
        ),
        ("[Event \"a\"]\n[Site \"b]\n\n1. e4 *\n", "never closed"),
        ("[Event a]\n\n1. e4 *\n", "no quoted value"),
        (
            "[Event \"a\"]\n\n1. e4 e5 )\n2. Nf3 *\n",
            "t.pgn:3: a `)` closes no variation",
        ),
        (
            "[Result \"0-1\"]\n\n1. e4 e5 1-0\n",
            "t.pgn:3: the movetext ends `1-0`, its Result tag says `0-1`",
        ),
        (
            "[Variant \"Chess960\"]\n\n1. e4 *\n",
            "t.pgn:1: a `Chess960` game: only standard chess is read",
        ),
        (
            "[Result \"?\"]\n\n1. e4 *\n",
            "t.pgn:1: Result tag `?`: not 1-0",
        ),
        // Not a result: named whole, not as the `-0` left after a move number.
        ("[Event \"a\"]\n\n1. e4 e5 2-0\n", "move `2-0`"),
    ] {
        let message = read(text).unwrap_err().to_string();
        assert!(message.contains(why), "{text:?}: {message}");
    }
}

/// No empty book is written: from no games, `--max-ply 0`, `--positions 0` or a finished
/// start, each refused with exit code 2; nor is a book of more positions than the cap begun
/// (each position a search: it would run for days).
#[test]
fn an_empty_book_is_refused() {
    let tmp = TempDir::new("book-empty");
    let out = tmp.path("b.bin");
    let out = out.to_str().expect("utf-8");
    let empty = tmp.path("empty.pgn");
    std::fs::write(&empty, "").expect("write");
    let empty = empty.to_str().expect("utf-8");
    let cases: [(&[&str], &str); 5] = [
        (&["chess", "--pgn", empty], "no book entry"),
        (&["chess", "--pgn", PGN, "--max-ply", "0"], "--max-ply 0"),
        (&["connect4", "--positions", "0"], "--positions 0"),
        (
            &["connect4", "--positions", "10000001"],
            "--positions 10000001 is more than 10000000",
        ),
        (&["connect4", "--from", "1212121"], "over"),
    ];
    for (args, why) in cases {
        let mut all = vec!["book", "build"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--out", out]);
        let (code, _, stderr) = plylab(&all);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
        assert!(!Path::new(out).exists(), "{args:?} wrote a book");
    }
}

/// A book or PGN past the size cap is refused, naming the file and the cap.
#[test]
fn a_book_or_pgn_past_the_size_cap_is_refused() {
    let tmp = TempDir::new("book-cap");
    let big = common::past_cap(&tmp, "big.bin", plylab::input::Cap::BOOK);
    let big = big.as_str();
    let out = tmp.path("b.bin");
    let out = out.to_str().expect("utf-8");
    for args in [
        vec!["book", "probe", big, "startpos"],
        vec!["book", "build", "chess", "--pgn", big, "--out", out],
    ] {
        let (code, _, stderr) = plylab(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains(big) && stderr.contains("256 MiB"),
            "{stderr}"
        );
    }
}

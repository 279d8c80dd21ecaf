//! Opening books: moves known before the game starts, played at the root instead of
//! searching (seeds 003/004: "build a database of opening moves"). For chess, Polyglot .bin
//! books ([`polyglot`]), read and written, and made from PGN games as PolyGlot's `make-book`
//! makes them ([`read_pgn`]).
//!
//! Choice rule ([`BookChoice`]): `best` plays the move of highest weight (the first in the
//! file among equals); `weighted` draws a move with probability proportional to its weight
//! from a generator seeded by the game's seed and the ply, so a match is reproducible.

pub mod doe;
mod keys;
pub mod polyglot;

use std::any::Any;
use std::path::{Path, PathBuf};

use crate::game::{Game, Notation, Player};
use crate::games::chess::{Chess, ChessMove};
use crate::rng::{XorShift, mix};

pub use doe::SearchBook;
pub use polyglot::PolyglotBook;

/// Why a book could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not a book, or is damaged.
    #[error("{}: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A PGN file has a move or result that cannot be read.
    #[error("{}:{line}: {reason}", path.display())]
    Pgn {
        /// The file.
        path: PathBuf,
        /// The line (1-based).
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

impl BookError {
    fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Reads `path` and parses its bytes with `parse`, whose complaint becomes a
/// [`BookError::Corrupt`] naming the file.
fn load_with<T>(path: &Path, parse: fn(&[u8]) -> Result<T, String>) -> Result<T, BookError> {
    let bytes =
        crate::input::read(path, crate::input::Cap::BOOK).map_err(|e| BookError::io(path, e))?;
    parse(&bytes).map_err(|reason| BookError::Corrupt {
        path: path.to_path_buf(),
        reason,
    })
}

/// How a move is chosen among a position's book moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BookChoice {
    /// The move of highest weight (the first in the book among equals).
    #[default]
    Best,
    /// A move drawn with probability proportional to its weight (seeded).
    Weighted,
}

impl BookChoice {
    /// The move chosen among `moves` (with weights) by this rule; `seed` drives `weighted`.
    /// `None` when there are no moves, or all weigh 0.
    #[must_use]
    pub fn choose<M: Copy>(self, moves: &[(M, u16)], seed: u64) -> Option<M> {
        let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        match self {
            Self::Best => moves
                .iter()
                .fold(None, |best: Option<(M, u16)>, &(m, w)| match best {
                    Some((_, bw)) if bw >= w => best,
                    _ => Some((m, w)),
                })
                .map(|(m, _)| m),
            Self::Weighted => {
                let mut draw = XorShift::new(seed).below(total);
                moves.iter().find_map(|&(m, w)| {
                    if draw < u64::from(w) {
                        Some(m)
                    } else {
                        draw -= u64::from(w);
                        None
                    }
                })
            }
        }
    }
}

/// An opening book for games of type `G`: the moves it knows in a position, with weights.
pub trait OpeningBook<G: Game>: Send + Sync {
    /// The book moves of `pos` (empty when out of book).
    fn moves(&self, pos: &G) -> Vec<(G::Move, u16)>;

    /// The move this book plays in `pos` under `choice`, `seed` and `ply` for the weighted
    /// draw; `None` out of book.
    fn pick(&self, pos: &G, choice: BookChoice, seed: u64, ply: u32) -> Option<G::Move> {
        choice.choose(&self.moves(pos), mix(seed ^ u64::from(ply)))
    }
}

/// A Polyglot book answers for chess positions only (a type test the compiler settles).
impl<G: Game> OpeningBook<G> for PolyglotBook {
    fn moves(&self, pos: &G) -> Vec<(G::Move, u16)> {
        let Some(chess) = (pos as &dyn Any).downcast_ref::<Chess>() else {
            return Vec::new();
        };
        PolyglotBook::moves(self, chess)
            .into_iter()
            .filter_map(|(m, w)| Some(((&m as &dyn Any).downcast_ref::<G::Move>()?.to_owned(), w)))
            .collect()
    }
}

/// A book file of either kind: Polyglot (chess) or built by search ([`doe`]).
#[derive(Debug)]
pub enum Book {
    /// A Polyglot .bin book.
    Polyglot(PolyglotBook),
    /// A book built by drop-out expansion.
    Search(SearchBook),
}

impl Book {
    /// Reads a book: a search book when the file starts with [`doe::MAGIC`], a Polyglot
    /// book otherwise.
    ///
    /// # Errors
    /// When the file cannot be read, or is damaged.
    pub fn load(path: &Path) -> Result<Self, BookError> {
        let mut magic = [0u8; 8];
        let is_search = std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
            .is_ok()
            && &magic == doe::MAGIC;
        if is_search {
            SearchBook::load(path).map(Self::Search)
        } else {
            PolyglotBook::load(path).map(Self::Polyglot)
        }
    }
}

impl<G: Game> OpeningBook<G> for Book {
    fn moves(&self, pos: &G) -> Vec<(G::Move, u16)> {
        match self {
            Self::Polyglot(book) => OpeningBook::<G>::moves(book, pos),
            Self::Search(book) => book.weighted_moves(pos),
        }
    }
}

/// A game read from PGN: its start, moves and result.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The start position (the `FEN` tag, or the initial position).
    pub start: Chess,
    /// The moves played.
    pub moves: Vec<ChessMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl PgnGame {
    /// PolyGlot's score of the game for `player`: 2 for a win, 0 for a loss, 1 otherwise
    /// (a draw, or `*`, which `make-book` counts as one).
    #[must_use]
    pub fn points_for(&self, player: Player) -> u32 {
        match (self.result.as_str(), player) {
            ("1-0", Player::First) | ("0-1", Player::Second) => 2,
            ("1-0", Player::Second) | ("0-1", Player::First) => 0,
            _ => 1,
        }
    }
}

/// Reads the games of a PGN file (Edwards 1994): tag pairs (`FEN` honoured), then SAN
/// movetext with move numbers, comments `{...}`, `;` comments, variations `(...)` and NAGs
/// skipped, ended by the result. A game without a result ends where the next tag section
/// (or the file) begins, with the result `*`. Where `path` is missing but `path.gz` exists,
/// that is read (results/ keeps its PGN files compressed, as its CSV files:
/// [`crate::compressed`]), within [`crate::input::Cap::TEXT`].
///
/// # Errors
/// When the file cannot be read or is too large, a move is illegal or unreadable, a tag
/// pair is malformed, a comment or variation is never closed, or a `)` closes none (with
/// its line).
pub fn read_pgn(path: &Path) -> Result<Vec<PgnGame>, BookError> {
    let mut bytes = Vec::new();
    crate::compressed::open_within(path, crate::input::Cap::TEXT)
        .and_then(|mut file| std::io::Read::read_to_end(&mut file, &mut bytes))
        .map_err(|e| BookError::io(path, e))?;
    // Where the text breaks, by line and column (PGN is 7-bit ASCII by its standard).
    let text = crate::input::utf8(bytes).map_err(|e| {
        BookError::io(
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
        )
    })?;
    let mut reader = PgnReader::new(path);
    for (n, line) in text.lines().enumerate() {
        reader.line(n, line.trim())?;
    }
    reader.finish()
}

/// The state of [`read_pgn`] between lines.
struct PgnReader<'a> {
    path: &'a Path,
    games: Vec<PgnGame>,
    game: Option<PgnGame>,
    /// The line (0-based) where the open `{` comment began.
    comment: Option<usize>,
    /// Open variations, and the line where the outermost began.
    variations: usize,
    variation_line: usize,
    /// The current game's `Result` tag, checked against its movetext's result.
    result_tag: Option<String>,
    /// Whether a result has ended a game and nothing (no tag, no move) has come since: a
    /// second result there ends no game.
    after_result: bool,
}

impl<'a> PgnReader<'a> {
    const fn new(path: &'a Path) -> Self {
        Self {
            path,
            games: Vec::new(),
            game: None,
            comment: None,
            variations: 0,
            variation_line: 0,
            result_tag: None,
            after_result: false,
        }
    }

    fn err(&self, line: usize, reason: String) -> BookError {
        BookError::Pgn {
            path: self.path.to_path_buf(),
            line: line + 1,
            reason,
        }
    }

    /// Reads line `n` (0-based), trimmed.
    fn line(&mut self, n: usize, line: &str) -> Result<(), BookError> {
        if self.comment.is_none() && line.starts_with('%') {
            // An escape line (the standard's section 6): data for other programs, ignored.
            return Ok(());
        }
        if self.comment.is_none() && self.variations == 0 && line.starts_with('[') {
            return self.tag(n, line);
        }
        for token in tokens(line) {
            // `;` comments out the rest of the line, except inside a `{...}` comment.
            let (token, rest_is_comment) = match token.split_once(';') {
                Some((before, _)) if self.comment.is_none() => (before, true),
                _ => (token, false),
            };
            if !token.is_empty() {
                self.token(n, token)?;
            }
            if rest_is_comment {
                break;
            }
        }
        Ok(())
    }

    /// A line of tag pairs: the first of a game's tags ends the game before it, if that one
    /// had moves and no result (so that it is not merged into this one).
    fn tag(&mut self, n: usize, line: &str) -> Result<(), BookError> {
        self.close_unterminated();
        self.after_result = false;
        let mut rest = line;
        while !rest.is_empty() {
            let (name, value, after) = tag_pair(rest).map_err(|why| self.err(n, why))?;
            match name {
                "FEN" => {
                    let start = Chess::parse_position(&value)
                        .map_err(|e| self.err(n, format!("FEN tag: {e}")))?;
                    self.game.get_or_insert_with(new_game).start = start;
                }
                // Chess960 and the other variants have rules of their own (castling, more).
                "Variant" if !["standard", "chess"].contains(&value.to_lowercase().as_str()) => {
                    let why = format!("a `{value}` game: only standard chess is read");
                    return Err(self.err(n, why));
                }
                "Result" if !is_result(&value) => {
                    let why = format!("Result tag `{value}`: not 1-0, 0-1, 1/2-1/2 or *");
                    return Err(self.err(n, why));
                }
                "Result" => self.result_tag = Some(value),
                _ => {}
            }
            rest = after.trim_start();
        }
        Ok(())
    }

    fn token(&mut self, n: usize, token: &str) -> Result<(), BookError> {
        if self.comment.is_some() {
            if token == "}" {
                self.comment = None;
            }
            return Ok(());
        }
        match token {
            "{" => self.comment = Some(n),
            "(" => {
                if self.variations == 0 {
                    self.variation_line = n;
                }
                self.variations += 1;
            }
            ")" if self.variations == 0 => {
                return Err(self.err(n, "a `)` closes no variation".to_owned()));
            }
            ")" => self.variations -= 1,
            _ if self.variations > 0 => {}
            t if is_result(t) => {
                if self.after_result && self.game.is_none() {
                    let why = format!(
                        "`{token}` ends no game: a second result after the last game's (each \
                         game's movetext ends with one)"
                    );
                    return Err(self.err(n, why));
                }
                if let Some(tag) = self.result_tag.take().filter(|tag| tag != token) {
                    let why = format!("the movetext ends `{token}`, its Result tag says `{tag}`");
                    return Err(self.err(n, why));
                }
                let mut done = self.game.take().unwrap_or_else(new_game);
                token.clone_into(&mut done.result);
                self.games.push(done);
                self.after_result = true;
            }
            t if t.starts_with('$')
                || t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) => {}
            // `exd6 e.p.`: the en-passant mark apart from its capture, as older PGN writes it.
            "e.p." => {}
            t => self.san(n, t)?,
        }
        Ok(())
    }

    /// A move of the current game, in SAN (a move number glued to it is dropped; castling
    /// written with zeros, `0-0`, is read as `O-O`, as most PGN readers do).
    fn san(&mut self, n: usize, token: &str) -> Result<(), BookError> {
        let g = self.game.get_or_insert_with(new_game);
        let mut pos = g.start.clone();
        g.moves.iter().for_each(|&m| pos.play(m));
        let body = token.rsplit_once('.').map_or(token, |(_, after)| after);
        let unnumbered = body.trim_start_matches(|c: char| c.is_ascii_digit());
        let zeros = body.starts_with("0-0").then(|| body.replace('0', "O"));
        let san = match &zeros {
            Some(castling) => castling.as_str(),
            None if unnumbered.starts_with(|c: char| c.is_ascii_alphabetic()) => unnumbered,
            None => body,
        };
        let mv = pos.parse_san(san);
        let mv = mv.map_err(|e| self.err(n, format!("move `{san}`: {e}")))?;
        self.game.get_or_insert_with(new_game).moves.push(mv);
        Ok(())
    }

    /// The games read, the last one kept without a result if it has moves; an error if a
    /// comment or variation is still open (it would swallow every game after it).
    fn finish(mut self) -> Result<Vec<PgnGame>, BookError> {
        if let Some(line) = self.comment {
            let why = "a `{` comment opened here is never closed".to_owned();
            return Err(self.err(line, why));
        }
        if self.variations > 0 {
            let why = "a `(` variation opened here is never closed".to_owned();
            return Err(self.err(self.variation_line, why));
        }
        self.close_unterminated();
        Ok(self.games)
    }

    /// Keeps the game being read if it has moves but its movetext no termination marker
    /// (section 8.2.6 asks for one; many files lack it), with its `Result` tag's result: the
    /// tag is required (section 8.1.1), and without it a won game would weigh as unfinished.
    fn close_unterminated(&mut self) {
        if let Some(mut game) = self.game.take_if(|g| !g.moves.is_empty()) {
            if let Some(tag) = self.result_tag.take() {
                game.result = tag;
            }
            self.games.push(game);
        }
    }
}

/// The first tag pair of `text` (`[Name "value"]`, PGN standard section 8.1: a name of
/// letters, digits and `_` (and python-chess's `+#=:-`), a string with `\"` and `\\`
/// escapes), and the text after it.
/// Anything else is refused: a tag misread would silently drop a `FEN` (the game would be
/// read from the start position) or swallow the movetext after it.
fn tag_pair(text: &str) -> Result<(&str, String, &str), String> {
    let malformed = |why: &str| {
        let shown: String = text.chars().take(40).collect();
        format!("malformed tag pair `{shown}`: {why} (PGN writes `[Name \"value\"]`)")
    };
    let body = text
        .strip_prefix('[')
        .ok_or_else(|| malformed("no `[`"))?
        .trim_start();
    let name_len = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || "_+#=:-".contains(c)))
        .unwrap_or(body.len());
    let (name, after_name) = body.split_at(name_len);
    if name.is_empty() {
        return Err(malformed("no tag name"));
    }
    let quoted = after_name
        .trim_start()
        .strip_prefix('"')
        .ok_or_else(|| malformed("no quoted value after the name"))?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    loop {
        match chars.next() {
            // `\"` and `\\` are escapes; any other `\` is kept as written (a Windows path
            // in a Site tag), as python-chess reads it.
            Some('\\') => match chars.clone().next() {
                Some(c @ ('"' | '\\')) => {
                    chars.next();
                    value.push(c);
                }
                _ => value.push('\\'),
            },
            Some('"') => break,
            Some(c) => value.push(c),
            None => return Err(malformed("the value's `\"` is never closed")),
        }
    }
    let after = chars
        .as_str()
        .trim_start()
        .strip_prefix(']')
        .ok_or_else(|| malformed("not closed by `]`"))?;
    Ok((name, value, after))
}

/// The four game termination markers (PGN standard section 8.2.6), which are also the
/// values of the `Result` tag; `arena::pgn` writes them.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Whether `text` is one of [`RESULTS`].
fn is_result(text: &str) -> bool {
    RESULTS.contains(&text)
}

fn new_game() -> PgnGame {
    PgnGame {
        start: Chess::startpos(),
        moves: Vec::new(),
        result: "*".to_owned(),
    }
}

/// The movetext's tokens, with braces and parentheses as tokens of their own.
fn tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split_inclusive(['{', '}', '(', ')'])
        .flat_map(|piece| {
            let (body, mark) = match piece.char_indices().last() {
                Some((i, c)) if "{}()".contains(c) => (&piece[..i], Some(&piece[i..])),
                _ => (piece, None),
            };
            body.split_whitespace().chain(mark)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;

    /// A book that offers the same weighted moves in every position.
    struct Fixed(Vec<(ChessMove, u16)>);

    impl OpeningBook<Chess> for Fixed {
        fn moves(&self, _: &Chess) -> Vec<(ChessMove, u16)> {
            self.0.clone()
        }
    }

    /// `weighted` draws from a generator seeded by the game's seed and the ply (the
    /// module's documentation): whatever the seed, even 0 or all ones, the ply changes the
    /// draw, so one game does not repeat its first choice at every ply. Twenty moves of
    /// equal weight, 64 plies: the same move every time has probability 20^-63 for a fair
    /// draw.
    #[test]
    fn the_weighted_draw_depends_on_the_ply_for_every_seed() {
        let start = Chess::startpos();
        let book = Fixed(start.legal_moves().into_iter().map(|m| (m, 1)).collect());
        for seed in [0, u64::MAX, 0x5555_5555_5555_5555, 2026] {
            let picks: std::collections::HashSet<ChessMove> = (0..64)
                .map(|ply| book.pick(&start, BookChoice::Weighted, seed, ply))
                .map(|m| m.expect("a book move"))
                .collect();
            assert!(
                picks.len() > 1,
                "seed {seed:#x}: the same move at every ply"
            );
            let again = book.pick(&start, BookChoice::Weighted, seed, 7);
            assert_eq!(again, book.pick(&start, BookChoice::Weighted, seed, 7));
        }
    }

    /// A Polyglot book, alone or as a [`Book`], offers its chess moves through
    /// [`OpeningBook`] as [`PolyglotBook::moves`] lists them, and nothing for another game
    /// (the impl's documentation: it answers for chess positions only).
    #[test]
    fn a_polyglot_book_answers_for_chess_alone() {
        let start = Chess::startpos();
        let entry = |uci: &str, weight| polyglot::Entry {
            key: polyglot::key(&start),
            mv: polyglot::encode_move(start.parse_move(uci).expect("legal")),
            weight,
            learn: 0,
        };
        let book = PolyglotBook::new(vec![entry("d2d4", 2), entry("e2e4", 3)]);
        let expected = vec![
            (start.parse_move("e2e4").expect("legal"), 3),
            (start.parse_move("d2d4").expect("legal"), 2),
        ];
        assert_eq!(PolyglotBook::moves(&book, &start), expected);
        assert_eq!(OpeningBook::<Chess>::moves(&book, &start), expected);
        let book = Book::Polyglot(book);
        assert_eq!(OpeningBook::<Chess>::moves(&book, &start), expected);
        assert!(OpeningBook::<Connect4>::moves(&book, &Connect4::new()).is_empty());
    }
}

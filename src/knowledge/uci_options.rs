//! The knowledge options of `plylab uci` ([`crate::uci`]): endgame databases and an opening
//! book in plylab's own formats, declared in the `uci` answer and set with `setoption`.
//!
//! - `TablebaseFiles` (string): `.plytb` files written by `plylab tablebase build chess`,
//!   or directories holding them, separated by `;`. The search probes them at every node
//!   below the root ([`crate::search::probe`]) and `info` lines carry `tbhits`. `<empty>` (or
//!   an empty value) removes them.
//! - `BookFile` (string): a Polyglot `.bin` book (written by `plylab book build chess` or
//!   by PolyGlot's `make-book`). `<empty>` removes it.
//! - `OwnBook` (check): play the book's move, without searching, when the position is in
//!   the book (the UCI protocol's name for "the engine plays from its own book"); `go
//!   infinite` and `go ponder` search as usual, since their answer waits for `stop`. The move
//!   is chosen by the configuration's `book_choice` (`best` unless the experiment file says
//!   `weighted`; the weighted draw is seeded by the position's Polyglot key, so the same
//!   position gets the same move).
//!
//! A searcher taken from an experiment file (`plylab uci --config FILE --searcher NAME`)
//! starts with its `tablebase` and `book` (and `OwnBook` true when it names a book); a file
//! that cannot be read or is damaged is refused there, with exit code 2. A file named by
//! `setoption` that cannot be read or is damaged is reported with `info string` naming it
//! and the reason, and what was loaded before is kept: an engine must not die under a GUI.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::games::chess::{Chess, ChessMove};
use crate::search::probe::Probe;

use super::Knowledge;
use super::book::{Book, BookChoice, OpeningBook, polyglot};
use super::tablebase::{Tablebases, files_at};

/// UCI's spelling of an empty string option.
const EMPTY: &str = "<empty>";

/// The databases and book a UCI engine consults, with the option values that named them.
#[derive(Clone, Debug, Default)]
pub struct UciKnowledge {
    /// `TablebaseFiles`: its value and the databases read from it.
    tablebases: Option<(String, Arc<Tablebases>)>,
    /// `BookFile`: its value and the book read from it.
    book: Option<(String, Arc<Book>)>,
    /// `OwnBook`.
    own_book: bool,
    /// How a book move is chosen (the configuration's `book_choice`).
    choice: BookChoice,
}

/// A book move the engine plays instead of searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: ChessMove,
    /// Its weight in the book.
    pub weight: u16,
    /// The weights of the position's (allowed) book moves together.
    pub total: u32,
}

impl UciKnowledge {
    /// The knowledge a configuration starts with: its `tablebase` and `book` (`OwnBook` on
    /// when it names a book), and its `book_choice`.
    #[must_use]
    pub fn from_config(knowledge: &Knowledge) -> Self {
        let name = |path: &Path| path.display().to_string();
        Self {
            tablebases: knowledge
                .tablebase
                .as_ref()
                .map(|(path, tables)| (name(path), Arc::clone(tables))),
            book: knowledge
                .book
                .as_ref()
                .map(|(path, book)| (name(path), Arc::clone(book))),
            own_book: knowledge.book.is_some(),
            choice: knowledge.book_choice,
        }
    }

    /// The `option` lines of the `uci` answer.
    #[must_use]
    pub fn declarations(&self) -> [String; 3] {
        let value = |v: Option<&String>| v.map_or(EMPTY, String::as_str).to_owned();
        [
            format!(
                "option name TablebaseFiles type string default {}",
                value(self.tablebases.as_ref().map(|(v, _)| v))
            ),
            format!(
                "option name BookFile type string default {}",
                value(self.book.as_ref().map(|(v, _)| v))
            ),
            format!("option name OwnBook type check default {}", self.own_book),
        ]
    }

    /// Handles `setoption` for the options named here (`name` in lower case): `None` when
    /// the option is not one of them, otherwise what to tell the GUI (`info string`), `Err`
    /// when the value was refused and the old setting kept.
    pub fn set(&mut self, name: &str, value: &str) -> Option<Result<String, String>> {
        let cleared = value.is_empty() || value == EMPTY;
        Some(match name {
            "tablebasefiles" if cleared => {
                self.tablebases = None;
                Ok("TablebaseFiles: no endgame databases".into())
            }
            "tablebasefiles" => load_tablebases(value).map(|tables| {
                let names = tables.names().join(", ");
                self.tablebases = Some((value.to_owned(), Arc::new(tables)));
                format!("TablebaseFiles: {names}")
            }),
            "bookfile" if cleared => {
                self.book = None;
                Ok("BookFile: no book".into())
            }
            "bookfile" => load_book(value).map(|(book, entries)| {
                self.book = Some((value.to_owned(), Arc::new(book)));
                let note = if self.own_book {
                    ""
                } else {
                    " (OwnBook is false: set it to true to play from it)"
                };
                format!("BookFile: {value}, {entries} entries{note}")
            }),
            "ownbook" => match value.to_ascii_lowercase().as_str() {
                on @ ("true" | "false") => {
                    self.own_book = on == "true";
                    Ok(format!("OwnBook: {on}"))
                }
                _ => Err(format!("OwnBook is `true` or `false`, not `{value}`")),
            },
            _ => return None,
        })
    }

    /// The databases as the search's probe (none when `TablebaseFiles` is empty).
    #[must_use]
    pub fn probe(&self) -> Option<Arc<Tablebases>> {
        self.tablebases.as_ref().map(|(_, t)| Arc::clone(t))
    }

    /// The book move to play in `pos` instead of searching, among those `allowed` admits
    /// (`go searchmoves`): `None` when `OwnBook` is false, there is no book, or the position
    /// is out of book.
    #[must_use]
    pub fn book_move(&self, pos: &Chess, allowed: impl Fn(ChessMove) -> bool) -> Option<BookMove> {
        if !self.own_book {
            return None;
        }
        let (_, book) = self.book.as_ref()?;
        let moves: Vec<(ChessMove, u16)> = OpeningBook::<Chess>::moves(book.as_ref(), pos)
            .into_iter()
            .filter(|&(m, _)| allowed(m))
            .collect();
        let mv = self.choice.choose(&moves, polyglot::key(pos))?;
        let weight = moves.iter().find(|&&(m, _)| m == mv).map_or(0, |&(_, w)| w);
        let total = moves.iter().map(|&(_, w)| u32::from(w)).sum();
        Some(BookMove { mv, weight, total })
    }
}

/// Reads every database `value` names (files or directories, separated by `;`); they must
/// hold at least one chess ending.
fn load_tablebases(value: &str) -> Result<Tablebases, String> {
    let mut files: Vec<PathBuf> = Vec::new();
    for part in value.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        files.extend(files_at(Path::new(part)).map_err(|e| format!("TablebaseFiles: {e}"))?);
    }
    let tables = Tablebases::load(&files).map_err(|e| format!("TablebaseFiles: {e}"))?;
    if tables.endings().next().is_none() {
        return Err(format!(
            "TablebaseFiles: `{value}` holds no chess database (plylab tablebase build chess ENDING)"
        ));
    }
    Ok(tables)
}

/// Reads the Polyglot book at `value`, with its number of entries.
fn load_book(value: &str) -> Result<(Book, usize), String> {
    match Book::load(Path::new(value)).map_err(|e| format!("BookFile: {e}"))? {
        Book::Polyglot(book) => {
            let entries = book.entries().len();
            Ok((Book::Polyglot(book), entries))
        }
        Book::Search(_) => Err(format!(
            "BookFile: {value} is a connect-four book built by search, not a Polyglot chess book"
        )),
    }
}

/// The probe a chess search consults, if any.
#[must_use]
pub fn as_probe(tables: Option<&Tablebases>) -> Option<&dyn Probe<Chess>> {
    tables.map(|t| t as &dyn Probe<Chess>)
}

//! Knowledge beside search (seeds 003 and 004: "build a database of opening moves, end
//! games"): endgame databases by retrograde analysis ([`tablebase`]) and opening books
//! ([`book`]). A search consults the databases through [`crate::search::probe::Probe`] and
//! never names them; books are played by the player before it searches.

pub mod book;
pub mod commands;
pub mod tablebase;
pub mod uci_options;

use std::path::PathBuf;
use std::sync::Arc;

use crate::game::Game;
use crate::search::probe::Probe;
use book::{Book, BookChoice, OpeningBook};
use tablebase::Tablebases;

/// The knowledge a searcher consults beside its search, as an experiment file names it.
#[derive(Clone, Debug, Default)]
pub struct Knowledge {
    /// `tablebase = "path"`: the file, and the databases read from it.
    pub tablebase: Option<(PathBuf, Arc<Tablebases>)>,
    /// `book = "path"`: the file, and the opening book read from it (played before
    /// searching, by arena players).
    pub book: Option<(PathBuf, Arc<Book>)>,
    /// `book_choice`: how a book move is chosen.
    pub book_choice: BookChoice,
}

impl Knowledge {
    /// The endgame databases as a search's probe for `G` (they answer for chess and
    /// checkers).
    #[must_use]
    pub fn probe_for<G: Game>(&self) -> Option<&dyn Probe<G>> {
        self.tablebase
            .as_ref()
            .map(|(_, tables)| tables.as_ref() as &dyn Probe<G>)
    }

    /// The opening book as a player's book for `G` (a Polyglot book answers for chess, a
    /// search book for its own game).
    #[must_use]
    pub fn book_for<G: Game>(&self) -> Option<&dyn OpeningBook<G>> {
        self.book
            .as_ref()
            .map(|(_, book)| book.as_ref() as &dyn OpeningBook<G>)
    }

    /// What is switched on, for the `params` column (empty when nothing is).
    #[must_use]
    pub fn label(&self) -> String {
        let mut parts = Vec::new();
        if let Some((_, tables)) = &self.tablebase {
            parts.push(format!(" tablebase={}", tables.names().join("+")));
        }
        if let Some((path, _)) = &self.book {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            let choice = match self.book_choice {
                BookChoice::Best => "best",
                BookChoice::Weighted => "weighted",
            };
            parts.push(format!(" book={name} book_choice={choice}"));
        }
        parts.concat()
    }
}

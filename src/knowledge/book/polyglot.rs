//! Polyglot opening books (.bin), the format of Fabien Letouzey's PolyGlot, as documented by
//! Michel Van den Bergh ("PolyGlot opening book format", 2007): 16-byte entries, big-endian,
//! sorted by key: the position's Zobrist key (u64, from the format's 781 published random
//! numbers, `super::keys`), the move (u16), its weight (u16) and a learning field (u32).
//!
//! Moves: bits 0-2 destination file, 3-5 destination rank, 6-8 origin file, 9-11 origin
//! rank, 12-14 promotion (0 none, 1 knight, 2 bishop, 3 rook, 4 queen); castling is written
//! as the king taking its own rook (`e1h1`), as cozy-chess encodes it.

use std::collections::BTreeMap;
use std::path::Path;

use cozy_chess::{Board, Color, File, Piece, Rank, Square};

use super::keys::RANDOM64;
use super::{BookError, PgnGame};
use crate::game::Game;
use crate::games::chess::{Chess, ChessMove};

/// The games through one move of a position at which PolyGlot's `make-book` halves the
/// counts of that position's moves (its `COUNT_MAX`, book_make.cpp): a weight, twice the
/// wins plus the draws, then stays within 16 bits.
pub const COUNT_MAX: u32 = 16_384;

/// One book entry as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// The position's Polyglot key.
    pub key: u64,
    /// The move, encoded as in the module's documentation.
    pub mv: u16,
    /// Its weight (relative frequency or score).
    pub weight: u16,
    /// The learning field (unused here; kept as read).
    pub learn: u32,
}

/// A Polyglot book: its entries, sorted by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolyglotBook {
    entries: Vec<Entry>,
}

/// Polyglot's Zobrist key of a chess position.
#[must_use]
pub fn key(pos: &Chess) -> u64 {
    let board = pos.board();
    let mut key = 0u64;
    for sq in board.occupied() {
        let (Some(piece), Some(color)) = (board.piece_on(sq), board.color_on(sq)) else {
            continue;
        };
        let kind = 2 * piece as usize + usize::from(color == Color::White);
        key ^= RANDOM64[64 * kind + sq as usize];
    }
    for (i, (color, long)) in [
        (Color::White, false),
        (Color::White, true),
        (Color::Black, false),
        (Color::Black, true),
    ]
    .into_iter()
    .enumerate()
    {
        let rights = board.castle_rights(color);
        if if long { rights.long } else { rights.short }.is_some() {
            key ^= RANDOM64[768 + i];
        }
    }
    if let Some(file) = en_passant_file(board) {
        key ^= RANDOM64[772 + file as usize];
    }
    if board.side_to_move() == Color::White {
        key ^= RANDOM64[780];
    }
    key
}

/// The en passant file as Polyglot counts it: only when a pawn of the side to move stands
/// beside the pawn that just made a double step.
fn en_passant_file(board: &Board) -> Option<File> {
    let file = board.en_passant()?;
    let us = board.side_to_move();
    let rank = if us == Color::White {
        Rank::Fifth
    } else {
        Rank::Fourth
    };
    let ours = board.colored_pieces(us, Piece::Pawn);
    let beside = [file as i32 - 1, file as i32 + 1]
        .into_iter()
        .filter(|f| (0..8).contains(f))
        .any(|f| ours.has(Square::new(File::index(f as usize), rank)));
    beside.then_some(file)
}

/// A move in Polyglot's encoding.
#[must_use]
pub fn encode_move(mv: ChessMove) -> u16 {
    let raw = mv.raw();
    let promotion = match raw.promotion {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(_) => 4,
    };
    let sq = |s: Square| (s.rank() as u16) << 3 | s.file() as u16;
    sq(raw.to) | sq(raw.from) << 6 | promotion << 12
}

impl PolyglotBook {
    /// A book of `entries` (sorted here).
    #[must_use]
    pub fn new(mut entries: Vec<Entry>) -> Self {
        entries.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(b.weight.cmp(&a.weight))
                .then(a.mv.cmp(&b.mv))
        });
        Self { entries }
    }

    /// Every entry, sorted by key.
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries of `key`.
    #[must_use]
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = self.entries.partition_point(|e| e.key <= key);
        &self.entries[start..end]
    }

    /// The book's legal moves in `pos` with their weights, in the file's order (entries
    /// whose move is not legal here, a key collision, are skipped).
    #[must_use]
    pub fn moves(&self, pos: &Chess) -> Vec<(ChessMove, u16)> {
        let entries = self.entries_for(key(pos));
        if entries.is_empty() {
            return Vec::new();
        }
        let legal = pos.legal_moves();
        entries
            .iter()
            .filter_map(|e| {
                let mv = legal.iter().find(|&&m| encode_move(m) == e.mv)?;
                Some((*mv, e.weight))
            })
            .collect()
    }

    /// A book made from games as PolyGlot's `make-book` makes it (`-min-game 1`: every
    /// move played is kept; its default is 3): every position of the first `max_ply` plies
    /// with the move played, weighted by the side to move's score over the games through it
    /// (2 per win, 1 per draw or unfinished game), moves of weight 0 left out. Counted game
    /// by game in the file's order, as PolyGlot's `book_insert` counts: when a move has been
    /// played [`COUNT_MAX`] times, the counts and scores of every move of its position are
    /// halved, rounding up, so that the weights fit 16 bits and the other positions keep
    /// theirs.
    #[must_use]
    pub fn from_games(games: &[PgnGame], max_ply: usize) -> Self {
        // (games through the move, score, order of first appearance), by (position, move).
        let mut counts: BTreeMap<(u64, u16), (u32, u32, usize)> = BTreeMap::new();
        for game in games {
            let mut pos = game.start.clone();
            for &mv in game.moves.iter().take(max_ply) {
                let key = key(&pos);
                let seen = counts.len();
                let (n, sum, _) = counts.entry((key, encode_move(mv))).or_insert((0, 0, seen));
                *n += 1;
                *sum += game.points_for(pos.side_to_move());
                if *n >= COUNT_MAX {
                    for (n, sum, _) in counts.range_mut((key, 0)..=(key, u16::MAX)).map(|(_, c)| c)
                    {
                        *n = n.div_ceil(2);
                        *sum = sum.div_ceil(2);
                    }
                }
                pos.play(mv);
            }
        }
        let mut kept: Vec<(Entry, usize)> = counts
            .into_iter()
            .filter(|&(_, (_, sum, _))| sum > 0)
            .map(|((key, mv), (_, sum, seen))| {
                // At most 2 × COUNT_MAX.
                let weight = sum as u16;
                (
                    Entry {
                        key,
                        mv,
                        weight,
                        learn: 0,
                    },
                    seen,
                )
            })
            .collect();
        // Equal weights in the order their moves were first played, as PolyGlot's sort of
        // its entries (glibc's stable qsort) leaves them.
        kept.sort_by(|(a, a_seen), (b, b_seen)| {
            a.key
                .cmp(&b.key)
                .then(b.weight.cmp(&a.weight))
                .then(a_seen.cmp(b_seen))
        });
        Self {
            entries: kept.into_iter().map(|(e, _)| e).collect(),
        }
    }

    /// Reads a .bin book.
    ///
    /// # Errors
    /// When the file cannot be read, is empty, its length is not a whole number of entries,
    /// its keys are out of order, or an entry's move names no move.
    pub fn load(path: &Path) -> Result<Self, BookError> {
        super::load_with(path, Self::from_bytes)
    }

    fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        if !bytes.len().is_multiple_of(16) {
            return Err(format!(
                "truncated: {} bytes is not a whole number of 16-byte Polyglot entries",
                bytes.len()
            ));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(16)
            .map(|c| Entry {
                key: u64::from_be_bytes(c[..8].try_into().expect("8 bytes")),
                mv: u16::from_be_bytes([c[8], c[9]]),
                weight: u16::from_be_bytes([c[10], c[11]]),
                learn: u32::from_be_bytes(c[12..].try_into().expect("4 bytes")),
            })
            .collect();
        if entries.is_empty() {
            // `book build` never writes one: an empty file is a wrong path or a failed copy.
            return Err("empty: a Polyglot book holds at least one 16-byte entry".to_owned());
        }
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(format!(
                "entry {} is out of key order: not a Polyglot book, or damaged",
                i + 1
            ));
        }
        // A move names two different squares and a promotion piece 0-4 (none, knight,
        // bishop, rook, queen): text or other data read as entries seldom does.
        let bad_move = |e: &Entry| e.mv >> 12 & 7 > 4 || e.mv & 0x3f == e.mv >> 6 & 0x3f;
        if let Some(i) = entries.iter().position(bad_move) {
            return Err(format!(
                "entry {} holds no move (move field {:#06x}): not a Polyglot book, or damaged",
                i + 1,
                entries[i].mv
            ));
        }
        Ok(Self { entries })
    }

    /// Writes the book as a .bin file.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        let mut bytes = Vec::with_capacity(16 * self.entries.len());
        for e in &self.entries {
            bytes.extend_from_slice(&e.key.to_be_bytes());
            bytes.extend_from_slice(&e.mv.to_be_bytes());
            bytes.extend_from_slice(&e.weight.to_be_bytes());
            bytes.extend_from_slice(&e.learn.to_be_bytes());
        }
        crate::output::replace_bytes(path, &bytes).map_err(|e| BookError::io(path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    fn position(fen: &str) -> Chess {
        Chess::parse_position(fen).expect("legal FEN")
    }

    /// The en passant file enters the key only when a pawn of the side to move stands
    /// beside the pawn that just made its double step, on either side of it (Van den
    /// Bergh's format document: "if the opponent has performed a double pawn push and there
    /// is now a pawn next to it belonging to the player to move"); otherwise the key is
    /// that of the same position with no en passant square.
    #[test]
    fn the_en_passant_file_counts_with_a_capturer_on_either_side() {
        // White to move after ...d7d5: a white pawn on c5 (the file left of d), on e5 (the
        // file right of it), or on neither side (h5); black to move after e2e4: a black
        // pawn on d4 (left), on f4 (right), or on a4.
        for (board, ep, counts) in [
            ("4k3/8/8/2Pp4/8/8/8/4K3 w", "d6", true),
            ("4k3/8/8/3pP3/8/8/8/4K3 w", "d6", true),
            ("4k3/8/8/3p3P/8/8/8/4K3 w", "d6", false),
            ("4k3/8/8/8/3pP3/8/8/4K3 b", "e3", true),
            ("4k3/8/8/8/4Pp2/8/8/4K3 b", "e3", true),
            ("4k3/8/8/8/p3P3/8/8/4K3 b", "e3", false),
        ] {
            let with = key(&position(&format!("{board} - {ep} 0 2")));
            let without = key(&position(&format!("{board} - - 0 2")));
            assert_eq!(with != without, counts, "{board} {ep}");
        }
    }

    /// Promotions in the move's bits 12-14 (1 knight, 2 bishop, 3 rook, 4 queen), by the
    /// module's documentation. By hand, e7e8: to e8 = rank 7 << 3 | file 4 = 60, from e7 =
    /// (6 << 3 | 4) << 6 = 3,328, so 3,388 plus 4,096 per promotion step.
    #[test]
    fn a_promotion_is_written_in_bits_12_to_14() {
        let pos = position("7k/4P3/8/8/8/8/8/K7 w - - 0 1");
        for (uci, expected) in [
            ("e7e8n", 3_388 + 4_096),
            ("e7e8b", 3_388 + 2 * 4_096),
            ("e7e8r", 3_388 + 3 * 4_096),
            ("e7e8q", 3_388 + 4 * 4_096),
        ] {
            let mv = pos.parse_move(uci).expect("legal");
            assert_eq!(encode_move(mv), expected, "{uci}");
        }
    }

    /// One 16-byte entry (big-endian key, move, weight, learn) as the format lays it out.
    fn entry_bytes(mv: u16) -> Vec<u8> {
        let mut bytes = 0x463b_9618_1691_fc9c_u64.to_be_bytes().to_vec();
        bytes.extend_from_slice(&mv.to_be_bytes());
        bytes.extend_from_slice(&[0, 1, 0, 0, 0, 0]);
        bytes
    }

    /// A move field names a move when its squares differ and its promotion is 0-4 (the
    /// module's documentation): a queen promotion (4), a move to h8 (square 63) or to a1
    /// (square 0) and a1h8 are read; a move from a square to itself, or promotion 5, is
    /// not. Fields by hand: square = rank × 8 + file, move = to | from << 6 | promotion <<
    /// 12.
    #[test]
    fn a_move_field_is_read_only_when_it_names_a_move() {
        let (a1, h8, e4, e7, e8) = (0u16, 63u16, 28u16, 52u16, 60u16);
        let field = |from: u16, to: u16, promotion: u16| to | from << 6 | promotion << 12;
        for (mv, what) in [
            (field(e7, e8, 4), "e7e8 queen"),
            (field(e4, h8, 0), "e4h8"),
            (field(h8, a1, 0), "h8a1"),
            (field(a1, h8, 0), "a1h8"),
        ] {
            assert!(
                PolyglotBook::from_bytes(&entry_bytes(mv)).is_ok(),
                "{what} refused"
            );
        }
        for (mv, what) in [
            (field(e4, e4, 0), "e4e4"),
            (field(a1, a1, 0), "a1a1"),
            (field(h8, h8, 0), "h8h8"),
            (field(e7, e8, 5), "promotion 5"),
        ] {
            let err = PolyglotBook::from_bytes(&entry_bytes(mv)).expect_err(what);
            assert!(err.contains("entry 1 holds no move"), "{what}: {err}");
        }
    }
}

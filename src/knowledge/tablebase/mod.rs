//! Endgame databases by retrograde analysis. Chess: KQK, KRK, KPK and KBNK, each position
//! with its distance to mate in plies, both sides to move ([`retro`] builds them, [`board`]
//! indexes them). Checkers: every position of 1 to 4 pieces ([`checkers`]). Both are
//! stored compactly with a checksum (the format below) and probed by a search through
//! [`Probe`] ([`Tablebases`] answers for both games).
//!
//! Values: one byte per legal position of one symmetry class (the white king in the
//! a1-d1-d4 triangle without pawns, on files a-d with a pawn). 0 is a draw, 255 an
//! illegal or redundant slot, otherwise the distance to mate in plies plus one; an odd
//! distance is a win for the side to move, an even one a loss (0: mated). Distances are
//! plies, as in plylab's win-in-ply scores ([`crate::game::score`]); the fifty-move rule is
//! ignored, as in every DTM database (the longest win here, KBNK's 65 plies, is within it).
//!
//! File layout (little-endian): `PLYLABTB`, format version (u16, 2), the ending's name (6
//! bytes, zero-padded), entries per side to move (u64), the FNV-1a 64 checksum of the
//! header's first 24 bytes and the values (u64), then the values, White to move first.
//! Version 1 files (their checksum covered the values only) are refused: rebuild them.

pub mod board;
pub mod checkers;
pub mod retro;

use std::any::Any;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use cozy_chess::{Board, Color, Piece};

use crate::game::Game;
use crate::games::checkers::Checkers;
use crate::games::chess::Chess;
use crate::input::{fnv1a, fnv1a_from};
use crate::search::probe::{Exact, Probe};
use board::{Extra, MAX_EXTRA, TbPos};
use checkers::CheckersTable;

pub use retro::{BuildStats, build};

/// The value of an illegal or redundant slot.
pub(crate) const ILLEGAL: u8 = u8::MAX;

/// The byte of a distance to mate.
pub(crate) fn encode(plies: u32) -> u8 {
    u8::try_from(plies + 1)
        .ok()
        .filter(|&b| b != ILLEGAL)
        .expect("distances here are far below 254 plies")
}

const MAGIC: &[u8; 8] = b"PLYLABTB";
/// 2: the checksum covers the header too (version 1's covered the values only).
const VERSION: u16 = 2;
const HEADER_LEN: usize = 32;
/// Where the header's entries per side to move (u64) and checksum (u64) are.
const ENTRIES_AT: usize = 16;
const CHECKSUM_AT: usize = 24;

/// A chess ending the databases cover: the strong side's king and pieces against a lone
/// king (the strong side may be either colour when probing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// King and queen against king.
    Kqk,
    /// King and rook against king.
    Krk,
    /// King and pawn against king (promotions look up KQK and KRK).
    Kpk,
    /// King, bishop and knight against king.
    Kbnk,
}

impl Ending {
    /// Every ending, smallest first.
    pub const ALL: [Self; 4] = [Self::Kqk, Self::Krk, Self::Kpk, Self::Kbnk];

    /// The name as written on the command line and in files (`KQK`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Kqk => "KQK",
            Self::Krk => "KRK",
            Self::Kpk => "KPK",
            Self::Kbnk => "KBNK",
        }
    }

    /// The strong side's pieces beside its king, in index order.
    #[must_use]
    pub const fn pieces(self) -> &'static [Extra] {
        match self {
            Self::Kqk => &[Extra::Queen],
            Self::Krk => &[Extra::Rook],
            Self::Kpk => &[Extra::Pawn],
            Self::Kbnk => &[Extra::Bishop, Extra::Knight],
        }
    }

    /// Whether a pawn is among the pieces (halves the symmetries).
    #[must_use]
    pub const fn has_pawn(self) -> bool {
        matches!(self, Self::Kpk)
    }

    /// The endings a promotion leads into, by promoted piece (under-promotion to a bishop or
    /// knight leaves a dead draw, so only the queen and the rook matter).
    #[must_use]
    pub const fn promotion_endings(self) -> &'static [(Extra, Self)] {
        match self {
            Self::Kpk => &[(Extra::Queen, Self::Kqk), (Extra::Rook, Self::Krk)],
            _ => &[],
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Ending {
    type Err = TablebaseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| TablebaseError::UnknownEnding(s.to_string()))
    }
}

/// Why a database could not be built, read or written.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// An ending this module does not build.
    #[error("unknown ending `{0}` (known: KQK, KRK, KPK, KBNK)")]
    UnknownEnding(String),
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not a database, or is damaged.
    #[error("{}: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// An endgame database: one ending's values.
#[derive(Clone, PartialEq, Eq)]
pub struct Tablebase {
    ending: Ending,
    values: Vec<u8>,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tablebase({}, {} slots)", self.ending, self.values.len())
    }
}

impl Tablebase {
    /// The ending.
    #[must_use]
    pub const fn ending(&self) -> Ending {
        self.ending
    }

    /// The value of the position drawn by `pos` (White strong), `None` for an illegal one.
    #[must_use]
    pub fn value(&self, pos: &TbPos) -> Option<Exact> {
        decode(self.values[self.ending.index(pos)])
    }

    /// The plies to mate for Black to move after White's pawn `pawn` of `pos` promotes to
    /// `piece` on `to`, if this (the promoted ending's) table says Black is lost there.
    pub(crate) fn loss_after_promotion(
        &self,
        pos: &TbPos,
        pawn: usize,
        to: u8,
        piece: Extra,
    ) -> Option<u32> {
        if self.ending.pieces().get(pawn) != Some(&piece) {
            return None;
        }
        let mut after = *pos;
        after.extra[pawn] = to;
        after.white_to_move = false;
        match self.value(&after)? {
            Exact::Loss(d) => Some(d),
            _ => None,
        }
    }

    /// The value of a chess position of this ending (either colour strong), `None` when
    /// the material differs or castling rights remain (castling is not in the table).
    #[must_use]
    pub fn probe_board(&self, board: &Board) -> Option<Exact> {
        let pos = self.drawn(board)?;
        self.value(&pos)
    }

    /// `board` as this table draws it: the strong side as White (ranks mirrored when Black
    /// is strong).
    fn drawn(&self, board: &Board) -> Option<TbPos> {
        let pieces = self.ending.pieces();
        if board.occupied().len() as usize != pieces.len() + 2 {
            return None;
        }
        let strong = [Color::White, Color::Black]
            .into_iter()
            .find(|&c| board.colors(c).len() as usize == pieces.len() + 1)?;
        let no_castling = [Color::White, Color::Black].into_iter().all(|c| {
            let rights = board.castle_rights(c);
            rights.short.is_none() && rights.long.is_none()
        });
        if !no_castling {
            return None;
        }
        let flip = if strong == Color::White { 0 } else { 56 };
        let square_of = |piece: Piece, color: Color| {
            let set = board.colored_pieces(color, piece);
            (set.len() == 1).then(|| set.next_square().map(|s| s as u8 ^ flip))?
        };
        let mut extra = [0u8; MAX_EXTRA];
        for (slot, &p) in extra.iter_mut().zip(pieces) {
            *slot = square_of(piece_of(p), strong)?;
        }
        Some(TbPos {
            wk: square_of(Piece::King, strong)?,
            bk: square_of(Piece::King, !strong)?,
            extra,
            white_to_move: board.side_to_move() == strong,
        })
    }

    /// Writes the database to `path`.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), TablebaseError> {
        let entries = self.ending.entries_per_side() as u64;
        write_file(path, self.ending.name(), entries, &self.values)
    }

    /// Reads a database written by [`Self::save`], checking its header, length and checksum.
    ///
    /// # Errors
    /// When the file cannot be read, is not a database, or is truncated or damaged.
    pub fn load(path: &Path) -> Result<Self, TablebaseError> {
        match AnyTable::load(path)? {
            AnyTable::Chess(table) => Ok(table),
            AnyTable::Checkers(table) => Err(TablebaseError::Corrupt {
                path: path.to_path_buf(),
                reason: format!("{} is a checkers database, not a chess one", table.name()),
            }),
        }
    }
}

/// A database of either game, as read from a file.
#[derive(Debug)]
pub enum AnyTable {
    /// A chess ending.
    Chess(Tablebase),
    /// Checkers positions of 1 to N pieces.
    Checkers(CheckersTable),
}

impl AnyTable {
    /// Reads a database written by [`Tablebase::save`] or [`CheckersTable::save`], checking
    /// its header, length and checksum.
    ///
    /// # Errors
    /// When the file cannot be read, is not a database, or is truncated or damaged.
    pub fn load(path: &Path) -> Result<Self, TablebaseError> {
        let bytes = crate::input::read(path, crate::input::Cap::DATABASE).map_err(|source| {
            TablebaseError::Io {
                path: path.to_path_buf(),
                source,
            }
        })?;
        Self::from_bytes(&bytes).map_err(|reason| TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason,
        })
    }

    fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let (name, kind) = read_header(bytes)?;
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let entries = kind.entries_per_side();
        if word(ENTRIES_AT) != entries as u64 {
            return Err(format!(
                "the header gives {} entries per side to move where {name} has {entries}: \
                 the header is damaged",
                word(ENTRIES_AT)
            ));
        }
        let expected = entries * kind.sides();
        let values = &bytes[HEADER_LEN..];
        if values.len() != expected {
            return Err(format!(
                "truncated or padded: {} value bytes, {name} needs {expected}",
                values.len()
            ));
        }
        if checksum(&bytes[..CHECKSUM_AT], values) != word(CHECKSUM_AT) {
            return Err("checksum mismatch: the file is damaged".into());
        }
        let values = values.to_vec();
        Ok(match kind {
            Kind::Checkers(pieces) => Self::Checkers(CheckersTable::from_values(pieces, values)),
            Kind::Chess(ending) => Self::Chess(Tablebase { ending, values }),
        })
    }
}

/// What a database file holds, by the name in its header.
#[derive(Clone, Copy)]
enum Kind {
    Chess(Ending),
    Checkers(u32),
}

impl Kind {
    /// The kind named `name` (`KQK`, `CHK4`).
    fn named(name: &str) -> Result<Self, String> {
        let Some(pieces) = name.strip_prefix("CHK") else {
            return name
                .parse()
                .map(Self::Chess)
                .map_err(|e: TablebaseError| e.to_string());
        };
        pieces
            .parse::<u32>()
            .ok()
            .filter(|p| (1..=checkers::MAX_PIECES).contains(p))
            .map(Self::Checkers)
            .ok_or_else(|| format!("unknown checkers database `{name}`"))
    }

    fn entries_per_side(self) -> usize {
        match self {
            Self::Checkers(pieces) => CheckersTable::slots(pieces),
            Self::Chess(ending) => ending.entries_per_side(),
        }
    }

    /// Chess tables store both sides to move; checkers tables one (see [`checkers`]).
    const fn sides(self) -> usize {
        match self {
            Self::Checkers(_) => 1,
            Self::Chess(_) => 2,
        }
    }
}

/// The name and kind in a file's header, after its magic and version are checked.
fn read_header(bytes: &[u8]) -> Result<(String, Kind), String> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err("not a plylab endgame database (bad header)".into());
    }
    match u16::from_le_bytes([bytes[8], bytes[9]]) {
        VERSION => {}
        1 => {
            return Err(format!(
                "format version 1, written before the checksum covered the header (version \
                 {VERSION}): rebuild it with `plylab tablebase build`"
            ));
        }
        version => return Err(format!("format version {version}, expected {VERSION}")),
    }
    let name = String::from_utf8_lossy(&bytes[10..16])
        .trim_end_matches('\0')
        .to_string();
    let kind = Kind::named(&name)?;
    Ok((name, kind))
}

/// The file's checksum: FNV-1a over the header up to the checksum field (magic, version,
/// name, entries), then the values. The header is covered because KQK and KRK have the
/// same size: a name relabelled by one byte would otherwise read as the other ending.
fn checksum(header: &[u8], values: &[u8]) -> u64 {
    fnv1a_from(fnv1a(header), values)
}

/// Writes a database file: the header (`name`, `entries` per side to move, the checksum),
/// then `values`.
fn write_file(path: &Path, name: &str, entries: u64, values: &[u8]) -> Result<(), TablebaseError> {
    let mut bytes = Vec::with_capacity(HEADER_LEN + values.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    let mut field = [0u8; 6];
    field[..name.len()].copy_from_slice(name.as_bytes());
    bytes.extend_from_slice(&field);
    bytes.extend_from_slice(&entries.to_le_bytes());
    let sum = checksum(&bytes, values);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes.extend_from_slice(values);
    // Whole or not at all: an interrupted build, or two builds of one file at once, never
    // leave half of a database there.
    crate::output::replace_bytes(path, &bytes).map_err(|source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    })
}

impl CheckersTable {
    /// Writes the database to `path` (the chess tables' format, named `CHK<N>`).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), TablebaseError> {
        write_file(
            path,
            &self.name(),
            self.values().len() as u64,
            self.values(),
        )
    }
}

/// The value of a table byte.
fn decode(byte: u8) -> Option<Exact> {
    match byte {
        ILLEGAL => None,
        0 => Some(Exact::Draw),
        b => {
            let plies = u32::from(b - 1);
            Some(if plies % 2 == 1 {
                Exact::Win(plies)
            } else {
                Exact::Loss(plies)
            })
        }
    }
}

const fn piece_of(p: Extra) -> Piece {
    match p {
        Extra::Queen => Piece::Queen,
        Extra::Rook => Piece::Rook,
        Extra::Bishop => Piece::Bishop,
        Extra::Knight => Piece::Knight,
        Extra::Pawn => Piece::Pawn,
    }
}

/// The database files `path` names: the file itself, or a directory's `*.plytb` files in
/// name order.
///
/// # Errors
/// When `path` does not exist, or is a directory without databases.
pub fn files_at(path: &Path) -> Result<Vec<PathBuf>, TablebaseError> {
    let io = |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    };
    if !path.is_dir() {
        std::fs::metadata(path).map_err(io)?;
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(io)?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "plytb"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason: "no *.plytb databases in this directory".into(),
        });
    }
    Ok(files)
}

/// Several databases probed as one: the first whose ending matches the position answers.
#[derive(Debug, Default)]
pub struct Tablebases {
    tables: Vec<Tablebase>,
    /// The checkers database, if one was given (the largest, when several were).
    checkers: Option<CheckersTable>,
}

impl Tablebases {
    /// The given databases.
    #[must_use]
    pub const fn new(tables: Vec<Tablebase>) -> Self {
        Self {
            tables,
            checkers: None,
        }
    }

    /// A checkers database alone.
    #[must_use]
    pub const fn checkers(table: CheckersTable) -> Self {
        Self {
            tables: Vec::new(),
            checkers: Some(table),
        }
    }

    /// Reads every database in `paths`.
    ///
    /// # Errors
    /// The first file that cannot be read or is damaged.
    pub fn load(paths: &[PathBuf]) -> Result<Self, TablebaseError> {
        let mut all = Self::default();
        for path in paths {
            match AnyTable::load(path)? {
                AnyTable::Chess(table) => all.tables.push(table),
                AnyTable::Checkers(table) => {
                    if all
                        .checkers
                        .as_ref()
                        .is_none_or(|c| c.max_pieces() < table.max_pieces())
                    {
                        all.checkers = Some(table);
                    }
                }
            }
        }
        Ok(all)
    }

    /// The endings held.
    pub fn endings(&self) -> impl Iterator<Item = Ending> + '_ {
        self.tables.iter().map(Tablebase::ending)
    }

    /// The names of the databases held (`KQK`, `CHK4`).
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        let chess = self.endings().map(|e| e.to_string());
        chess
            .chain(self.checkers.as_ref().map(CheckersTable::name))
            .collect()
    }

    /// Whether a chess database is held (one for another game answers nothing).
    #[must_use]
    pub fn has_chess(&self) -> bool {
        !self.tables.is_empty()
    }

    /// Whether a checkers database is held.
    #[must_use]
    pub const fn has_checkers(&self) -> bool {
        self.checkers.is_some()
    }

    /// The value of a checkers position, if the checkers database holds it.
    #[must_use]
    pub fn probe_checkers(&self, pos: &Checkers) -> Option<Exact> {
        self.checkers.as_ref()?.probe(pos)
    }

    /// The value of a chess position, if one of the databases holds it.
    #[must_use]
    pub fn probe_chess(&self, pos: &Chess) -> Option<Exact> {
        let board = pos.board();
        // Every ending here has 3 or 4 men: most positions a search meets are rejected here.
        if board.occupied().len() > 4 {
            return None;
        }
        self.tables.iter().find_map(|t| t.probe_board(board))
    }
}

/// The databases answer for chess and checkers positions; for other games they hold nothing
/// (the test is a type comparison the compiler settles per game).
impl<G: Game> Probe<G> for Tablebases {
    fn probe(&self, pos: &G) -> Option<Exact> {
        let any = pos as &dyn Any;
        if let Some(chess) = any.downcast_ref::<Chess>() {
            return self.probe_chess(chess);
        }
        self.probe_checkers(any.downcast_ref::<Checkers>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_database_fits_the_size_cap() {
        let chess = Ending::ALL.map(|e| e.entries_per_side() * 2);
        let checkers = (1..=checkers::MAX_PIECES).map(CheckersTable::slots);
        let largest = chess.into_iter().chain(checkers).max().unwrap_or(0);
        let cap = crate::input::Cap::DATABASE.bytes;
        assert!((HEADER_LEN + largest) as u64 <= cap / 4, "{largest} bytes");
    }
}

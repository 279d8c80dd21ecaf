//! The positions of one small chess ending as the retrograde analysis sees them: the strong
//! side's king and pieces (always White here), the lone black king, the side to move; their
//! index in the table under the board's symmetries; moves forward (the lone king's, and
//! promotions) and backward (un-moves) for the retrograde passes.
//!
//! Attack sets come from cozy-chess's move tables; the board is a few squares, so nothing
//! here needs a full `Board`.

use cozy_chess::{
    BitBoard, Color, Square, get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks,
    get_rook_moves,
};

use super::Ending;

/// A white piece other than the king that an ending may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extra {
    /// A queen.
    Queen,
    /// A rook.
    Rook,
    /// A bishop.
    Bishop,
    /// A knight.
    Knight,
    /// A pawn (White's, moving up the board).
    Pawn,
}

/// The most pieces beside the two kings.
pub const MAX_EXTRA: usize = 2;

/// A position of an ending: squares 0..64 (a1 = 0, h8 = 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbPos {
    /// White's king.
    pub wk: u8,
    /// Black's king.
    pub bk: u8,
    /// White's other pieces, in the ending's order; only the first `n` are used.
    pub extra: [u8; 2],
    /// White to move.
    pub white_to_move: bool,
}

const fn bit(sq: u8) -> u64 {
    1u64 << sq
}

fn square(sq: u8) -> Square {
    Square::index(sq as usize)
}

fn squares(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let sq = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(sq)
    })
}

/// The squares a white `piece` on `sq` attacks with `blockers` occupied.
fn attacks(piece: Extra, sq: u8, blockers: u64) -> u64 {
    let s = square(sq);
    let b = BitBoard(blockers);
    let set = match piece {
        Extra::Queen => get_rook_moves(s, b) | get_bishop_moves(s, b),
        Extra::Rook => get_rook_moves(s, b),
        Extra::Bishop => get_bishop_moves(s, b),
        Extra::Knight => get_knight_moves(s),
        Extra::Pawn => get_pawn_attacks(s, Color::White),
    };
    set.0
}

fn king_moves(sq: u8) -> u64 {
    get_king_moves(square(sq)).0
}

/// The eight symmetries of the board as square maps: bit 0 mirrors files (a <-> h), bit 1
/// mirrors ranks (1 <-> 8), bit 2 swaps files and ranks (the a1-h8 diagonal). Endings with
/// pawns use only the file mirror (pawns move up the board).
const fn transform(sq: u8, t: u8) -> u8 {
    let mut s = sq;
    if t & 1 != 0 {
        s ^= 7;
    }
    if t & 2 != 0 {
        s ^= 56;
    }
    if t & 4 != 0 {
        s = ((s & 7) << 3) | (s >> 3);
    }
    s
}

/// The white king's slot in the index: the a1-d1-d4 triangle (10 squares) without pawns,
/// files a-d (32 squares) with a pawn; `u8::MAX` elsewhere.
const fn king_slots(pawns: bool) -> [u8; 64] {
    let mut slots = [u8::MAX; 64];
    let mut next = 0;
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let inside = if pawns {
            file < 4
        } else {
            file < 4 && rank <= file
        };
        if inside {
            slots[sq] = next;
            next += 1;
        }
        sq += 1;
    }
    slots
}

const PAWNLESS_SLOTS: [u8; 64] = king_slots(false);
const PAWN_SLOTS: [u8; 64] = king_slots(true);

impl Ending {
    fn slots(self) -> &'static [u8; 64] {
        if self.has_pawn() {
            &PAWN_SLOTS
        } else {
            &PAWNLESS_SLOTS
        }
    }

    /// Squares of the white king in the index (10 or 32).
    const fn king_slot_count(self) -> usize {
        if self.has_pawn() { 32 } else { 10 }
    }

    /// Table entries per side to move: king slots x 64 for the black king x 64 per piece.
    #[must_use]
    pub const fn entries_per_side(self) -> usize {
        self.king_slot_count() * 64usize.pow(1 + self.pieces().len() as u32)
    }

    /// The number of symmetries the index folds: 2 with a pawn, 8 without.
    const fn symmetry_count(self) -> u8 {
        if self.has_pawn() { 2 } else { 8 }
    }

    /// The index of `pos` drawn as it stands (the white king must be in its slot region),
    /// without the side to move.
    fn raw_index(self, pos: &TbPos) -> Option<usize> {
        let slot = self.slots()[pos.wk as usize];
        if slot == u8::MAX {
            return None;
        }
        let mut index = usize::from(slot) * 64 + usize::from(pos.bk);
        for &sq in &pos.extra[..self.pieces().len()] {
            index = index * 64 + usize::from(sq);
        }
        Some(index)
    }

    /// `pos` under symmetry `t`.
    fn transformed(self, pos: &TbPos, t: u8) -> TbPos {
        let mut out = *pos;
        out.wk = transform(pos.wk, t);
        out.bk = transform(pos.bk, t);
        for (o, &s) in out
            .extra
            .iter_mut()
            .zip(&pos.extra)
            .take(self.pieces().len())
        {
            *o = transform(s, t);
        }
        out
    }

    /// The table slot of `pos`: the smallest index among its symmetric images whose white
    /// king lies in the slot region, so that every symmetry class has exactly one slot (the
    /// counting scheme of the retrograde analysis relies on it), plus the side to move.
    #[must_use]
    pub fn index(self, pos: &TbPos) -> usize {
        let best = (0..self.symmetry_count())
            .filter_map(|t| self.raw_index(&self.transformed(pos, t)))
            .min()
            .expect("one symmetry puts the white king in its region");
        best + usize::from(!pos.white_to_move) * self.entries_per_side()
    }

    /// The position of slot `index` (as drawn, not necessarily legal or canonical).
    #[must_use]
    pub fn decode(self, index: usize) -> TbPos {
        let per_side = self.entries_per_side();
        let white_to_move = index < per_side;
        let mut rest = index % per_side;
        let n = self.pieces().len();
        let mut extra = [0u8; MAX_EXTRA];
        for i in (0..n).rev() {
            extra[i] = (rest % 64) as u8;
            rest /= 64;
        }
        let bk = (rest % 64) as u8;
        let slot = (rest / 64) as u8;
        let wk = self
            .slots()
            .iter()
            .position(|&s| s == slot)
            .expect("slot in range") as u8;
        TbPos {
            wk,
            bk,
            extra,
            white_to_move,
        }
    }

    /// How many distinct boards `pos` stands for under the folded symmetries (1, 2, 4 or 8):
    /// the weight that turns slot counts into counts of positions on the full board.
    #[must_use]
    pub fn orbit_size(self, pos: &TbPos) -> u64 {
        let mut images = [None; 8];
        let mut distinct = 0;
        for t in 0..self.symmetry_count() {
            let image = Some(self.transformed(pos, t));
            if !images[..usize::from(t)].contains(&image) {
                distinct += 1;
            }
            images[usize::from(t)] = image;
        }
        distinct
    }

    fn occupied(self, pos: &TbPos) -> u64 {
        let extras = pos.extra[..self.pieces().len()].iter();
        extras.fold(bit(pos.wk) | bit(pos.bk), |acc, &s| acc | bit(s))
    }

    /// Every square White attacks with `blockers` occupied (the king's included).
    fn white_attacks(self, pos: &TbPos, blockers: u64) -> u64 {
        let pieces = self.pieces().iter().zip(&pos.extra);
        pieces.fold(king_moves(pos.wk), |acc, (&p, &s)| {
            acc | attacks(p, s, blockers)
        })
    }

    /// Whether `pos` can occur in a game with its side to move: distinct squares, kings
    /// apart, no pawn on the first or last rank, the side not to move not in check; and
    /// whether it is the one slot of its symmetry class.
    #[must_use]
    pub fn is_legal_slot(self, pos: &TbPos, index: usize) -> bool {
        let n = self.pieces().len();
        let all = [pos.wk, pos.bk, pos.extra[0], pos.extra[1]];
        let distinct = (0..n + 2).all(|i| (0..i).all(|j| all[i] != all[j]));
        let kings_apart = king_moves(pos.wk) & bit(pos.bk) == 0;
        let pawn_ranks_ok = self
            .pieces()
            .iter()
            .zip(&pos.extra)
            .all(|(&p, &s)| p != Extra::Pawn || (8..56).contains(&s));
        distinct
            && kings_apart
            && pawn_ranks_ok
            && !(pos.white_to_move && self.black_in_check(pos))
            && self.index(pos) == index
    }

    /// Whether the black king is attacked.
    #[must_use]
    pub fn black_in_check(self, pos: &TbPos) -> bool {
        self.white_attacks(pos, self.occupied(pos)) & bit(pos.bk) != 0
    }

    /// Black's legal king moves in `pos` (Black to move): the destinations, and whether one
    /// of them captures a white piece (which leaves a drawn ending, a king against a king
    /// and at most a minor piece).
    #[must_use]
    pub fn black_moves(self, pos: &TbPos) -> (u64, bool) {
        let occupied = self.occupied(pos);
        let guarded = self.white_attacks(pos, occupied & !bit(pos.bk));
        let targets = king_moves(pos.bk) & !guarded & !bit(pos.wk);
        let captures = targets & occupied != 0;
        (targets, captures)
    }

    /// The position after Black's king goes to `to` (White to move).
    #[must_use]
    pub fn after_black_move(self, pos: &TbPos, to: u8) -> TbPos {
        TbPos {
            bk: to,
            white_to_move: true,
            ..*pos
        }
    }

    /// The positions, Black to move, from which a black king move leads to `pos` (White
    /// to move). Legality is the caller's check (the slot's state).
    pub fn black_unmoves(self, pos: &TbPos) -> impl Iterator<Item = TbPos> {
        let empty = !self.occupied(pos);
        let pos = *pos;
        squares(king_moves(pos.bk) & empty).map(move |from| TbPos {
            bk: from,
            white_to_move: false,
            ..pos
        })
    }

    /// The positions, White to move, from which a white move (not a capture, not a
    /// promotion) leads to `pos` (Black to move).
    pub fn white_unmoves(self, pos: &TbPos, out: &mut Vec<TbPos>) {
        out.clear();
        let occupied = self.occupied(pos);
        let empty = !occupied;
        let unmoved = |wk, extra| TbPos {
            wk,
            extra,
            white_to_move: true,
            bk: pos.bk,
        };
        for from in squares(king_moves(pos.wk) & empty) {
            out.push(unmoved(from, pos.extra));
        }
        for (i, &piece) in self.pieces().iter().enumerate() {
            let sq = pos.extra[i];
            let origins = match piece {
                Extra::Pawn => pawn_origins(sq, occupied),
                _ => attacks(piece, sq, occupied) & empty,
            };
            for from in squares(origins) {
                let mut extra = pos.extra;
                extra[i] = from;
                out.push(unmoved(pos.wk, extra));
            }
        }
    }

    /// White's promotions in `pos` (White to move): the square the pawn reaches and the
    /// pawn's index, for each pawn on the seventh rank with the square ahead empty.
    pub fn promotions(self, pos: &TbPos) -> impl Iterator<Item = (usize, u8)> {
        let occupied = self.occupied(pos);
        let pos = *pos;
        self.pieces()
            .iter()
            .enumerate()
            .filter(move |&(i, &p)| {
                p == Extra::Pawn && pos.extra[i] >= 48 && occupied & bit(pos.extra[i] + 8) == 0
            })
            .map(move |(i, _)| (i, pos.extra[i] + 8))
    }
}

/// The squares a white pawn on `sq` can have come from by a push: one rank down (not from
/// the first rank), or two from the second rank over an empty square.
fn pawn_origins(sq: u8, occupied: u64) -> u64 {
    let mut origins = 0;
    if sq >= 16 && occupied & bit(sq - 8) == 0 {
        origins |= bit(sq - 8);
        if (24..32).contains(&sq) && occupied & bit(sq - 16) == 0 {
            origins |= bit(sq - 16);
        }
    }
    origins
}

impl Ending {
    /// `pos` in FEN (White strong; no castling, no en passant, clocks 0 and 1).
    #[must_use]
    pub fn fen(self, pos: &TbPos) -> String {
        let mut board = [None; 64];
        board[usize::from(pos.wk)] = Some('K');
        board[usize::from(pos.bk)] = Some('k');
        for (&piece, &sq) in self.pieces().iter().zip(&pos.extra) {
            board[usize::from(sq)] = Some(match piece {
                Extra::Queen => 'Q',
                Extra::Rook => 'R',
                Extra::Bishop => 'B',
                Extra::Knight => 'N',
                Extra::Pawn => 'P',
            });
        }
        let ranks: Vec<String> = (0..8)
            .rev()
            .map(|rank| {
                let mut row = String::new();
                let mut empty = 0;
                for file in 0..8 {
                    match board[rank * 8 + file] {
                        Some(c) => {
                            if empty > 0 {
                                row.push_str(&empty.to_string());
                                empty = 0;
                            }
                            row.push(c);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                row
            })
            .collect();
        let side = if pos.white_to_move { 'w' } else { 'b' };
        format!("{} {side} - - 0 1", ranks.join("/"))
    }
}

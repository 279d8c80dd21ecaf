//! Move ordering: independent switches that decide which move alpha-beta tries first.
//!
//! Alpha-beta's savings depend only on order: with the best move first everywhere it visits
//! Knuth and Moore's minimal tree, in the worst order the whole minimax tree. Each switch
//! gives a key to every move; moves are searched by decreasing key, ties in generation
//! order (or in a seeded random order when `shuffle` is on).

use crate::game::{Evaluator, Game, Player, REFINED_UNIT};
use crate::rng::XorShift;

/// The ordering switches. All off: moves in the game's generation order.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize,
)]
#[serde(deny_unknown_fields, default)]
pub struct Ordering {
    /// The evaluator's static hint ([`Evaluator::order_hint`]): MVV-LVA in chess, centre
    /// first in connect four, the oracle on random trees.
    pub hint: bool,
    /// The move the transposition table remembers as best or refuting for this position
    /// first (Greenblatt, Eastlake and Crocker 1967; Slate and Atkin 1977).
    pub tt_move: bool,
    /// Two moves per ply that recently caused a beta cutoff at the same ply, tried early
    /// (Akl and Newborn 1977, "the principal continuation and the killer heuristic").
    pub killers: bool,
    /// Moves that caused cutoffs anywhere earlier, weighted by depth², tried early
    /// (Schaeffer 1989, "The history heuristic and alpha-beta search enhancements").
    pub history: bool,
    /// Shuffle the moves with the search's seed before the other keys apply: alone it gives
    /// the random order of Pearl's analysis; with other switches it breaks their ties at random.
    pub shuffle: bool,
    /// Fastest-first: moves leaving the opponent the fewest replies first (the mobility
    /// ordering of Othello endgame solvers: Edax's `search_solve` sorts by the opponent's
    /// mobility after the move, src/endgame.c; the idea is the "fastest-first" of Korf's
    /// and Buro's endgame work, which prunes best where replies are few). Any game: replies
    /// are counted by [`Game::move_count`].
    pub fastest_first: bool,
    /// Refined mobility: fastest-first with the game's finer measure of what a move leaves
    /// the opponent ([`Game::refined_mobility`]) in place of the plain count of replies
    /// (with `fastest_first` on or off: this replaces it).
    /// Othello's is Edax's fast endgame move evaluation (src/move.c,
    /// `movelist_evaluate_fast`): a corner reply counts twice, and among moves leaving equal
    /// replies, those that give the mover more stable discs at the corners, then those
    /// leaving the opponent fewer empty squares next to the mover's discs (its potential
    /// mobility), come first; mobility, potential mobility and stability are the features of
    /// Rosenbloom's IAGO (1982, "A world-championship-level Othello program"). Othello only.
    pub refined_mobility: bool,
    /// Parity: moves into a region with an odd number of empty cells first, a tie-break
    /// below fastest-first and refined mobility's finer terms ([`Game::region_parity`];
    /// Othello's quadrant parity, as in Edax's shallow endgame search, where it sits below
    /// them too). Changes nothing in games without regions.
    pub parity: bool,
    /// Threats: moves creating the most cells where the mover would complete a winning line
    /// first ([`Game::winning_spots_after`]; Pons, "Solving Connect 4", part 10), above
    /// the hint, which breaks their ties. Changes nothing in games without the notion.
    pub threats: bool,
}

impl Ordering {
    /// Every heuristic switch (hint, table move, killers, history), no shuffle: the usual
    /// "ordered" configuration.
    pub const HEURISTICS: Self = Self {
        hint: true,
        tt_move: true,
        killers: true,
        history: true,
        shuffle: false,
        fastest_first: false,
        refined_mobility: false,
        parity: false,
        threats: false,
    };

    /// True if any switch is on.
    #[must_use]
    pub fn any(&self) -> bool {
        self.hint
            || self.tt_move
            || self.killers
            || self.history
            || self.shuffle
            || self.fastest_first
            || self.refined_mobility
            || self.parity
            || self.threats
    }

    /// A compact label such as `hint+tt_move+killers`, or `none`.
    #[must_use]
    pub fn label(&self) -> String {
        let names = [
            (self.hint, "hint"),
            (self.tt_move, "tt_move"),
            (self.killers, "killers"),
            (self.history, "history"),
            (self.shuffle, "shuffle"),
            (self.fastest_first, "fastest_first"),
            (self.refined_mobility, "refined_mobility"),
            (self.parity, "parity"),
            (self.threats, "threats"),
        ];
        let on: Vec<&str> = names.iter().filter(|(b, _)| *b).map(|(_, n)| *n).collect();
        if on.is_empty() {
            "none".into()
        } else {
            on.join("+")
        }
    }
}

const TT_MOVE_KEY: i64 = 3 << 60;
const KILLER_KEY: i64 = 2 << 60;
const HINT_SHIFT: u32 = 24;
/// Fastest-first keys (minus the opponent's replies) sit above hints and history.
const FASTEST_FIRST_SHIFT: u32 = 44;
/// Refined mobility's keys: one reply is [`REFINED_UNIT`] units, so a reply weighs as much as
/// in fastest-first's keys and the finer terms sit between one reply and parity.
const REFINED_SHIFT: u32 = FASTEST_FIRST_SHIFT - REFINED_UNIT.trailing_zeros();
/// A move into an odd region gains less than one unit of refined mobility (and less than
/// one reply), and more than any othello hint (square values of at most ±100, under 2^31).
const PARITY_SHIFT: u32 = 33;
/// Threat counts sit above hints and history, below fastest-first.
const THREATS_SHIFT: u32 = 34;
const HISTORY_CAP: i32 = 1 << 22;
const HISTORY_SIDES: usize = 2;
const HISTORY_CODES: usize = 1 << 16;

/// The state the switches keep during a search: killers per ply, the history table, the
/// shuffle's generator and per-ply key buffers (reused, never reallocated per node).
pub(crate) struct OrderingState<G: Game> {
    switches: Ordering,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    rng: XorShift,
    /// Per ply: the keys of the list last ordered there, in step with its moves, while the
    /// moves after its first wait for [`Self::order_rest`]; empty when none wait.
    keys: Vec<Vec<i64>>,
    /// Keys, generation indices and moves of a long list, per ply.
    keyed: Vec<Vec<(i64, u32, G::Move)>>,
    /// A move buffer for [`Game::move_count`]'s default (fastest-first), reused.
    scratch: Vec<G::Move>,
}

impl<G: Game> OrderingState<G> {
    pub(crate) fn new(switches: &Ordering, seed: u64) -> Self {
        Self {
            switches: *switches,
            killers: Vec::new(),
            history: if switches.history {
                vec![0; HISTORY_SIDES * HISTORY_CODES]
            } else {
                Vec::new()
            },
            rng: XorShift::new(seed),
            keys: Vec::new(),
            keyed: Vec::new(),
            scratch: Vec::new(),
        }
    }

    pub(crate) fn ensure_plies(&mut self, plies: usize) {
        while self.killers.len() < plies {
            self.killers.push([None; 2]);
            // Grown only by lists longer than that (backgammon's).
            self.keys.push(Vec::with_capacity(MEDIUM_LIST));
            self.keyed.push(Vec::new());
        }
    }

    /// Brings the best of `moves` (the legal moves of `pos` at `ply`) to the front; the
    /// others keep their order until [`Self::order_rest`] sorts them, which a node calls
    /// before it looks past its first move. Most nodes that cut off do so with their first
    /// move, and there the sort of the rest is saved (the lazy "pick the next best" of
    /// engines' move pickers, for the first move alone): chess from the start to depth 9
    /// with quiescence takes 0.92 of the time it took with the whole list sorted here
    /// (othello 0.94, checkers 1.00; medians of 12 to 24 paired runs). Every key is
    /// computed here, before any child is searched, so the order is the one a full sort
    /// here would give: what the first move's subtree teaches the history table does not
    /// reorder its siblings.
    #[inline(always)]
    pub(crate) fn order<E: Evaluator<G>>(
        &mut self,
        eval: &E,
        pos: &G,
        moves: &mut [G::Move],
        tt_move: Option<u16>,
        ply: usize,
        depth: u32,
    ) {
        // Even with every switch off: quiescence orders its lists at the same plies, and
        // one whose first move cut off left its rest waiting.
        self.keys[ply].clear();
        // Inline: a search without ordering pays a store and a test per node, not a call.
        if self.switches.any() {
            self.order_first(eval, pos, moves, tt_move, ply, depth);
        }
    }

    /// Sorts the moves after the first of the list [`Self::order`] (or
    /// [`Self::order_noisy`]) last ordered at `ply`, so that the whole list is sorted by
    /// decreasing key, ties as they came. Nothing to do where that order had no keys or was
    /// already complete.
    #[inline(always)]
    pub(crate) fn order_rest(&mut self, moves: &mut [G::Move], ply: usize) {
        if !self.keys[ply].is_empty() {
            self.sort_rest(moves, ply);
        }
    }

    /// [`Self::order`] where some ordering switch is on.
    fn order_first<E: Evaluator<G>>(
        &mut self,
        eval: &E,
        pos: &G,
        moves: &mut [G::Move],
        tt_move: Option<u16>,
        ply: usize,
        depth: u32,
    ) {
        if moves.len() < 2 {
            return;
        }
        if self.switches.shuffle {
            self.shuffle(moves);
        }
        let side = history_side(pos.side_to_move());
        let mut keys = std::mem::take(&mut self.keys[ply]);
        for &mv in moves.iter() {
            keys.push(
                self.key(eval, pos, mv, tt_move, ply, depth, side) + self.endgame_key(pos, mv),
            );
        }
        self.keys[ply] = keys;
        if moves.len() > MEDIUM_LIST {
            self.sort_long(moves, ply);
        } else {
            self.best_first(moves, ply);
        }
    }

    /// Quiescence's order, which no switch turns off (it is part of the technique): the
    /// table move `tt_move` first, then by decreasing [`Evaluator::order_hint`] (MVV-LVA in
    /// chess), ties in generation order; the best first now, the rest on
    /// [`Self::order_rest`], as [`Self::order`].
    pub(crate) fn order_noisy<E: Evaluator<G>>(
        &mut self,
        eval: &E,
        pos: &G,
        moves: &mut [G::Move],
        tt_move: Option<u16>,
        ply: usize,
    ) {
        let keys = &mut self.keys[ply];
        keys.clear();
        if moves.len() < 2 {
            return;
        }
        keys.extend(moves.iter().map(|&mv| {
            if tt_move == Some(G::move_code(mv)) {
                i64::MAX
            } else {
                i64::from(eval.order_hint(pos, mv, 0))
            }
        }));
        self.best_first(moves, ply);
    }

    /// Moves the first of `moves` with the highest key (`ply`'s keys, in step) to the front
    /// with the others' order kept, and leaves the rest waiting for [`Self::order_rest`].
    fn best_first(&mut self, moves: &mut [G::Move], ply: usize) {
        let keys = &mut self.keys[ply];
        let best = (1..keys.len()).fold(0, |best, i| if keys[i] > keys[best] { i } else { best });
        keys[..=best].rotate_right(1);
        moves[..=best].rotate_right(1);
        if moves.len() <= 2 {
            // A rest of one move is in order.
            keys.clear();
        }
    }

    /// [`Self::order_rest`] where the rest waits.
    fn sort_rest(&mut self, moves: &mut [G::Move], ply: usize) {
        let keys = &mut self.keys[ply];
        debug_assert_eq!(keys.len(), moves.len(), "the list `order` keyed");
        // A chess middlegame's 30 to 50 moves: most keys are equal (quiet moves without
        // history), which insertion sort passes over; sorting (key, index, move) tuples
        // cost a tenth of a chess search. The same order: best first, ties as generated.
        insertion_sort_best_first(&mut keys[1..], &mut moves[1..]);
        keys.clear();
    }

    /// Sorts a list longer than [`MEDIUM_LIST`] (backgammon's hundreds of plays, all keyed
    /// apart by the hint, where insertion sort's quadratic worst case would bite) whole, at
    /// once, as a sort of (key, index, move) tuples.
    fn sort_long(&mut self, moves: &mut [G::Move], ply: usize) {
        let (keys, keyed) = (&mut self.keys[ply], &mut self.keyed[ply]);
        keyed.clear();
        keyed.extend(
            (keys.iter().zip(moves.iter()).enumerate()).map(|(i, (&key, &mv))| (key, i as u32, mv)),
        );
        keyed.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (slot, &(_, _, mv)) in moves.iter_mut().zip(keyed.iter()) {
            *slot = mv;
        }
        keys.clear();
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn key<E: Evaluator<G>>(
        &self,
        eval: &E,
        pos: &G,
        mv: G::Move,
        tt_move: Option<u16>,
        ply: usize,
        depth: u32,
        side: usize,
    ) -> i64 {
        let s = &self.switches;
        if s.tt_move && tt_move == Some(G::move_code(mv)) {
            return TT_MOVE_KEY;
        }
        if s.killers {
            let [first, second] = self.killers[ply];
            if first == Some(mv) {
                return KILLER_KEY;
            }
            if second == Some(mv) {
                return KILLER_KEY - 1;
            }
        }
        let mut key = 0;
        if s.hint {
            key += i64::from(eval.order_hint(pos, mv, depth)) << HINT_SHIFT;
        }
        if s.history {
            key += i64::from(self.history[history_index::<G>(side, mv)]);
        }
        key
    }

    /// The fastest-first (or refined mobility), parity and threat keys of `mv` (0 when those
    /// switches are off).
    #[inline]
    fn endgame_key(&mut self, pos: &G, mv: G::Move) -> i64 {
        let mut key = 0;
        if self.switches.refined_mobility || self.switches.fastest_first {
            let mut child = pos.clone();
            child.play(mv);
            key -= if self.switches.refined_mobility {
                child.refined_mobility(&mut self.scratch) << REFINED_SHIFT
            } else {
                (child.move_count(&mut self.scratch) as i64) << FASTEST_FIRST_SHIFT
            };
        }
        if self.switches.parity {
            key += i64::from(pos.region_parity(mv)) << PARITY_SHIFT;
        }
        if self.switches.threats {
            key += i64::from(pos.winning_spots_after(mv).min(255)) << THREATS_SHIFT;
        }
        key
    }

    /// Remembers that `mv` refuted the node at `ply` searched `depth` plies deep.
    pub(crate) fn record_cutoff(&mut self, pos: &G, mv: G::Move, ply: usize, depth: u32) {
        if self.switches.killers {
            let slots = &mut self.killers[ply];
            if slots[0] != Some(mv) {
                slots[1] = slots[0];
                slots[0] = Some(mv);
            }
        }
        if self.switches.history {
            let i = history_index::<G>(history_side(pos.side_to_move()), mv);
            let bonus = (depth * depth).min(HISTORY_CAP as u32) as i32;
            self.history[i] += bonus;
            if self.history[i] >= HISTORY_CAP {
                self.history.iter_mut().for_each(|h| *h /= 2);
            }
        }
    }

    /// Fisher-Yates with the search's seeded generator.
    fn shuffle(&mut self, moves: &mut [G::Move]) {
        for i in (1..moves.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            moves.swap(i, j);
        }
    }
}

/// Move lists up to this long are ordered by [`insertion_sort_best_first`] with their keys
/// in a per-ply buffer; longer ones by a sort of tuples ([`OrderingState::sort_long`]).
const MEDIUM_LIST: usize = 64;

/// Sorts `moves` by decreasing `keys` (the two in step); ties keep their order, as the
/// longer lists' sort keeps generation order. Insertion sort: few moves, often nearly in order.
fn insertion_sort_best_first<M: Copy>(keys: &mut [i64], moves: &mut [M]) {
    for i in 1..keys.len() {
        let (key, mv) = (keys[i], moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < key {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = key;
        moves[j] = mv;
    }
}

fn history_side(p: Player) -> usize {
    match p {
        Player::First => 0,
        Player::Second => 1,
    }
}

fn history_index<G: Game>(side: usize, mv: G::Move) -> usize {
    side * HISTORY_CODES + usize::from(G::move_code(mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::connect4::{CentreFirst, Connect4};

    /// The columns of the empty connect-four board ordered by `state` with the table move
    /// `tt_move` (a column), at ply 0 with 5 plies left.
    fn ordered_columns(state: &mut OrderingState<Connect4>, tt_move: Option<u16>) -> Vec<u16> {
        let pos = Connect4::new();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        state.order(&CentreFirst, &pos, &mut moves, tt_move, 0, 5);
        state.order_rest(&mut moves, 0);
        moves.into_iter().map(Connect4::move_code).collect()
    }

    /// The ordering state of `switches` for connect four, with room for `plies` plies.
    fn connect4_state(switches: &Ordering, plies: usize) -> OrderingState<Connect4> {
        let mut state = OrderingState::<Connect4>::new(switches, 1);
        state.ensure_plies(plies);
        state
    }

    /// The empty board's move for column `c`.
    fn column(c: u16) -> <Connect4 as Game>::Move {
        let mut moves = Vec::new();
        Connect4::new().generate_moves(&mut moves);
        moves[usize::from(c)]
    }

    #[test]
    fn the_table_move_comes_first_then_killers_then_the_hint() {
        // The switches' promised order (Ordering's documentation and the keys above): the
        // table move, then the killers of the ply (the latest cutoff first), then the rest
        // by hint (centre first, ties left first: 3, 2, 4, 1, 5, 0, 6), worked by hand.
        let switches = Ordering {
            hint: true,
            tt_move: true,
            killers: true,
            ..Ordering::default()
        };
        let mut state = connect4_state(&switches, 4);
        assert_eq!(ordered_columns(&mut state, None), [3, 2, 4, 1, 5, 0, 6]);
        let pos = Connect4::new();
        state.record_cutoff(&pos, column(0), 0, 5);
        state.record_cutoff(&pos, column(6), 0, 5);
        assert_eq!(ordered_columns(&mut state, None), [6, 0, 3, 2, 4, 1, 5]);
        assert_eq!(ordered_columns(&mut state, Some(5)), [5, 6, 0, 3, 2, 4, 1]);
        // A repeated cutoff by the first killer leaves both slots as they are.
        state.record_cutoff(&pos, column(6), 0, 5);
        assert_eq!(ordered_columns(&mut state, None), [6, 0, 3, 2, 4, 1, 5]);
        // Killers are kept per ply: ply 1 has none.
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        state.order(&CentreFirst, &pos, &mut moves, None, 1, 5);
        state.order_rest(&mut moves, 1);
        let codes: Vec<u16> = moves.into_iter().map(Connect4::move_code).collect();
        assert_eq!(codes, [3, 2, 4, 1, 5, 0, 6]);
    }

    #[test]
    fn the_moves_after_the_first_wait_for_order_rest() {
        let switches = Ordering {
            hint: true,
            ..Ordering::default()
        };
        let mut state = connect4_state(&switches, 2);
        let (pos, mut moves) = (Connect4::new(), Vec::new());
        pos.generate_moves(&mut moves);
        let codes = |moves: &[_]| {
            moves
                .iter()
                .map(|&mv| Connect4::move_code(mv))
                .collect::<Vec<_>>()
        };
        state.order(&CentreFirst, &pos, &mut moves, None, 1, 5);
        assert_eq!(
            codes(&moves),
            [3, 0, 1, 2, 4, 5, 6],
            "the best first, the others as generated"
        );
        // Another node's list at another ply leaves this one's waiting keys alone.
        let mut other = moves.clone();
        state.order(&CentreFirst, &pos, &mut other, None, 0, 5);
        state.order_rest(&mut other, 0);
        state.order_rest(&mut moves, 1);
        assert_eq!(codes(&moves), [3, 2, 4, 1, 5, 0, 6]);
    }

    #[test]
    fn a_list_left_unordered_never_gets_another_lists_waiting_order() {
        // No switch on: `order` leaves lists as generated, but quiescence orders its own at
        // the same plies (an earlier iteration's horizon), and one whose first move cut off
        // leaves its rest waiting.
        let mut state = connect4_state(&Ordering::default(), 2);
        let (pos, mut noisy) = (Connect4::new(), Vec::new());
        pos.generate_moves(&mut noisy);
        state.order_noisy(&CentreFirst, &pos, &mut noisy, None, 1);
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let generated = moves.clone();
        state.order(&CentreFirst, &pos, &mut moves, None, 1, 5);
        state.order_rest(&mut moves, 1);
        assert_eq!(moves, generated);
    }

    #[test]
    fn two_moves_are_ordered_too() {
        // The table move first in a list of two (the fewest that have an order).
        let switches = Ordering {
            tt_move: true,
            ..Ordering::default()
        };
        let mut state = connect4_state(&switches, 1);
        let mut moves = [column(0), column(1)];
        state.order(&CentreFirst, &Connect4::new(), &mut moves, Some(1), 0, 5);
        assert_eq!(moves.map(Connect4::move_code), [1, 0]);
    }

    #[test]
    fn history_weighs_each_cutoff_by_the_depth_squared() {
        // Schaeffer's weight: a cutoff 3 plies deep (9) outweighs two 2 plies deep (4 + 4),
        // which outweigh none; equal keys keep generation order.
        let switches = Ordering {
            history: true,
            ..Ordering::default()
        };
        let mut state = connect4_state(&switches, 1);
        let pos = Connect4::new();
        state.record_cutoff(&pos, column(4), 0, 3);
        state.record_cutoff(&pos, column(2), 0, 2);
        state.record_cutoff(&pos, column(2), 0, 2);
        assert_eq!(ordered_columns(&mut state, None), [4, 2, 0, 1, 3, 5, 6]);
    }

    /// `label` as its documentation has it: the switches that are on, joined by `+` in the
    /// order `Ordering` declares them (`hint+tt_move+killers`), or `none`.
    #[test]
    fn the_label_names_the_switches_that_are_on() {
        assert_eq!(Ordering::default().label(), "none");
        let heuristics = Ordering::HEURISTICS.label();
        assert_eq!(heuristics, "hint+tt_move+killers+history");
        let endgame = Ordering {
            fastest_first: true,
            parity: true,
            ..Ordering::default()
        };
        assert_eq!(endgame.label(), "fastest_first+parity");
    }

    /// The history counts stay bounded: a cutoff that brings one to the cap (`HISTORY_CAP`,
    /// 2^22: a cutoff 2,048 plies deep, as 2,048² = 2^22) halves every count, rounding
    /// down, so that they keep their order. The halved values are worked out by hand.
    #[test]
    fn history_is_halved_when_a_count_reaches_the_cap() {
        let switches = Ordering {
            history: true,
            ..Ordering::default()
        };
        let mut state = connect4_state(&switches, 1);
        let pos = Connect4::new();
        state.record_cutoff(&pos, column(2), 0, 3);
        state.record_cutoff(&pos, column(4), 0, 2048);
        let side = history_side(pos.side_to_move());
        let count = |c| state.history[history_index::<Connect4>(side, column(c))];
        assert_eq!(
            (count(4), count(2)),
            (1 << 21, 9 / 2),
            "(column 4, column 2)"
        );
        assert_eq!(ordered_columns(&mut state, None), [4, 2, 0, 1, 3, 5, 6]);
    }

    /// The orders the switches' documentation defines, written out as a key tuple compared
    /// lexicographically (the most significant switch first), ties in the order the moves
    /// arrive: the table move first; then the killers of the ply; then fastest-first's
    /// fewest replies (or refined mobility's smallest measure), the most threats, a move
    /// into an odd region, the highest hint and the most history, in that order of weight;
    /// with `shuffle`, a seeded Fisher-Yates shuffle first. Killers and history are kept as
    /// their documentation says: two per ply, the latest cutoff first, a move already
    /// first left there; depth² per cutoff, per side to move and move code.
    struct Reference<G: Game> {
        switches: Ordering,
        killers: Vec<[Option<G::Move>; 2]>,
        history: std::collections::HashMap<(bool, u16), i64>,
        rng: XorShift,
    }

    impl<G: Game> Reference<G> {
        fn new(switches: Ordering, seed: u64, plies: usize) -> Self {
            Self {
                switches,
                killers: vec![[None; 2]; plies],
                history: std::collections::HashMap::new(),
                rng: XorShift::new(seed),
            }
        }

        fn record_cutoff(&mut self, pos: &G, mv: G::Move, ply: usize, depth: u32) {
            if self.switches.killers && self.killers[ply][0] != Some(mv) {
                self.killers[ply] = [Some(mv), self.killers[ply][0]];
            }
            if self.switches.history {
                let key = (pos.side_to_move() == Player::First, G::move_code(mv));
                *self.history.entry(key).or_default() += i64::from(depth * depth);
            }
        }

        fn order<E: Evaluator<G>>(
            &mut self,
            eval: &E,
            pos: &G,
            moves: &[G::Move],
            tt_move: Option<u16>,
            ply: usize,
            depth: u32,
        ) -> Vec<G::Move> {
            let s = self.switches;
            let mut out = moves.to_vec();
            if s.shuffle && out.len() >= 2 {
                for i in (1..out.len()).rev() {
                    let j = self.rng.below(i as u64 + 1) as usize;
                    out.swap(i, j);
                }
            }
            let mut scratch = Vec::new();
            let mut keyed: Vec<_> = out
                .iter()
                .map(|&mv| {
                    let mut child = pos.clone();
                    child.play(mv);
                    let killer = s
                        .killers
                        .then(|| self.killers[ply].iter().position(|&k| k == Some(mv)));
                    let killer = killer.flatten();
                    let fewest = if s.refined_mobility {
                        -child.refined_mobility(&mut scratch)
                    } else if s.fastest_first {
                        -(child.move_count(&mut scratch) as i64)
                    } else {
                        0
                    };
                    let plain = killer.is_none();
                    let key = (
                        s.tt_move && tt_move == Some(G::move_code(mv)),
                        killer.is_some(),
                        fewest,
                        if s.threats {
                            pos.winning_spots_after(mv).min(255)
                        } else {
                            0
                        },
                        if s.parity { pos.region_parity(mv) } else { 0 },
                        // The first killer before the second.
                        killer.map_or(0, |k| 2 - k),
                        if s.hint && plain {
                            eval.order_hint(pos, mv, depth)
                        } else {
                            0
                        },
                        if s.history && plain {
                            let side = pos.side_to_move() == Player::First;
                            self.history.get(&(side, G::move_code(mv))).copied()
                        } else {
                            None
                        }
                        .unwrap_or(0),
                    );
                    (key, mv)
                })
                .collect();
            // A stable sort: ties keep their order.
            keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
            keyed.into_iter().map(|(_, mv)| mv).collect()
        }
    }

    /// Positions of `game` reached by seeded random play-outs of 0 to `plies` plies.
    fn random_positions<G: Game>(start: &G, plies: u64, count: usize, seed: u64) -> Vec<G> {
        let mut rng = XorShift::new(seed);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        while out.len() < count {
            let mut pos = start.clone();
            for _ in 0..rng.below(plies + 1) {
                moves.clear();
                pos.generate_moves(&mut moves);
                if moves.is_empty() || pos.status() != crate::game::Status::Ongoing {
                    break;
                }
                pos.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            moves.clear();
            pos.generate_moves(&mut moves);
            if moves.len() >= 2 {
                out.push(pos);
            }
        }
        out
    }

    /// Runs `switches` on `positions` as a search would: at each position, cutoffs by some
    /// of its moves at a random ply and depth, then the order of its moves at a random ply
    /// with a random table move (or none), checked against [`Reference`].
    fn check_orders<G: Game, E: Evaluator<G>>(
        eval: &E,
        positions: &[G],
        switches: Ordering,
        seed: u64,
    ) -> usize {
        const PLIES: usize = 4;
        let mut state = OrderingState::<G>::new(&switches, seed);
        state.ensure_plies(PLIES);
        let mut reference = Reference::<G>::new(switches, seed, PLIES);
        let mut rng = XorShift::new(seed ^ 0x5eed);
        let mut lengths = 0;
        for (i, pos) in positions.iter().enumerate() {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            for _ in 0..rng.below(4) {
                let mv = moves[rng.below(moves.len() as u64) as usize];
                let (ply, depth) = (rng.below(PLIES as u64) as usize, 1 + rng.below(8) as u32);
                state.record_cutoff(pos, mv, ply, depth);
                reference.record_cutoff(pos, mv, ply, depth);
            }
            let tt_move = (rng.below(2) == 0)
                .then(|| G::move_code(moves[rng.below(moves.len() as u64) as usize]));
            let (ply, depth) = (rng.below(PLIES as u64) as usize, rng.below(10) as u32);
            let expected = reference.order(eval, pos, &moves, tt_move, ply, depth);
            let what = || {
                format!(
                    "position {i} with {} at ply {ply}, table move {tt_move:?}",
                    switches.label()
                )
            };
            state.order(eval, pos, &mut moves, tt_move, ply, depth);
            assert_eq!(moves[0], expected[0], "the first move, {}", what());
            state.order_rest(&mut moves, ply);
            assert_eq!(moves, expected, "{}", what());
            lengths = lengths.max(moves.len());
        }
        lengths
    }

    /// Every switch, alone and with the others that combine with it, orders moves as its
    /// documentation defines ([`Reference`]) on connect four (7 moves at most: the short
    /// lists' sort), othello (the endgame switches) and chess (medium lists, 17 to 64
    /// moves, and one long list: Petrović's 1964 position with 218 legal moves, the most
    /// known).
    #[test]
    fn every_switch_orders_moves_as_documented() {
        use crate::games::chess::{Chess, Pst};
        use crate::games::othello::{Othello, OthelloEval};
        let on = |names: &[&str]| {
            let mut o = Ordering::default();
            for name in names {
                match *name {
                    "hint" => o.hint = true,
                    "tt_move" => o.tt_move = true,
                    "killers" => o.killers = true,
                    "history" => o.history = true,
                    "shuffle" => o.shuffle = true,
                    "fastest_first" => o.fastest_first = true,
                    "refined_mobility" => o.refined_mobility = true,
                    "parity" => o.parity = true,
                    "threats" => o.threats = true,
                    _ => unreachable!(),
                }
            }
            o
        };
        let heuristics = [
            on(&["hint"]),
            on(&["tt_move"]),
            on(&["killers"]),
            on(&["history"]),
            on(&["shuffle"]),
            on(&["hint", "history"]),
            on(&["hint", "tt_move", "killers", "history"]),
            on(&["shuffle", "hint", "tt_move", "killers", "history"]),
        ];
        let connect4 = random_positions(&Connect4::new(), 20, 60, 1);
        for (i, &switches) in heuristics.iter().enumerate() {
            check_orders(&CentreFirst, &connect4, switches, i as u64);
        }
        for (i, switches) in [on(&["threats"]), on(&["threats", "hint", "history"])]
            .into_iter()
            .enumerate()
        {
            check_orders(&CentreFirst, &connect4, switches, 10 + i as u64);
        }
        let othello = random_positions(&Othello::new(), 56, 60, 2);
        let endgame = [
            on(&["fastest_first"]),
            on(&["refined_mobility"]),
            on(&["parity"]),
            on(&["fastest_first", "parity"]),
            on(&["refined_mobility", "parity"]),
            on(&["fastest_first", "refined_mobility", "parity", "hint"]),
            on(&["fastest_first", "history"]),
        ];
        for (i, &switches) in endgame.iter().chain(&heuristics).enumerate() {
            check_orders(&OthelloEval::STANDARD, &othello, switches, 20 + i as u64);
        }
        let mut chess = random_positions(&Chess::startpos(), 30, 40, 3);
        chess.push(
            Chess::parse_position("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1")
                .expect("the 218-move position"),
        );
        let mut longest = 0;
        for (i, &switches) in heuristics.iter().chain(&endgame[..1]).enumerate() {
            longest = longest.max(check_orders(&Pst, &chess, switches, 40 + i as u64));
        }
        assert_eq!(longest, 218, "the long list was ordered");
    }

    #[test]
    fn short_lists_sort_as_long_ones_do() {
        // The insertion sort of short lists must order moves exactly as the general sort:
        // by decreasing key, ties in their original order.
        let mut rng = XorShift::new(7);
        for len in 0..=MEDIUM_LIST {
            for _ in 0..50 {
                // Few distinct keys, so that ties are common.
                let mut keys: Vec<i64> = (0..len).map(|_| rng.below(4) as i64 - 2).collect();
                let mut moves: Vec<usize> = (0..len).collect();
                let mut expected: Vec<(i64, usize)> =
                    keys.iter().copied().zip(moves.iter().copied()).collect();
                expected.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                insertion_sort_best_first(&mut keys, &mut moves);
                let sorted: Vec<(i64, usize)> = keys.into_iter().zip(moves).collect();
                assert_eq!(sorted, expected, "{len} moves");
            }
        }
    }
}

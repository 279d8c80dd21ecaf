//! Opening books built by search with drop-out expansion (Lincke, "Strategies for the
//! automatic construction of opening books", Computers and Games 2000, LNCS 2063, 2001),
//! for any game; plylab builds them for connect four (`plylab book build connect4`).
//!
//! The book is a tree grown from a start position. Each leaf holds the value of a
//! depth-limited alpha-beta search from it (or the exact result of a finished game, or of a
//! search that reaches the end); interior values are the negamax of their children's, with
//! a win or loss one ply further away at each step up (the win-in-ply convention of
//! [`crate::game::score`]). Drop-out expansion chooses the leaf to expand next by its
//! priority
//!
//! ```text
//!     priority(leaf) = sum over the moves m on its path of (omega + drop(m)),
//!     drop(m) = value of the best move at m's position - value of m  (>= 0)
//! ```
//!
//! and expands the leaf of lowest priority (ties: the leaf made first): a line's priority
//! grows with its length (`omega` per ply) and with how much worse than the best its moves
//! are, so the book goes deep along the best lines and keeps some breadth where moves are
//! nearly as good. This is Lincke's expansion rule with one priority for both sides (his
//! paper also gives the variant where the book's own side only plays best moves); `omega`
//! trades depth for breadth. Expansion stops after a chosen number of expanded positions.
//!
//! Book positions are keyed by [`Game::hash`]: the same position reached by two paths is
//! one entry (the first expanded). Every move of an expanded position is stored with its
//! backed-up value, so the file also answers "how good is each move"; the book moves
//! ([`crate::knowledge::book::OpeningBook::moves`]) are the moves of the best value
//! (weight 1; the others weigh 0): `best` plays the first of them in the evaluator's
//! move-ordering order ([`Evaluator::order_hint`], highest first, then generation order;
//! connect four: the most central column), `weighted` draws one uniformly (seeded).
//!
//! File (little-endian): `PLYLABBK`, format version (u16), the game's name (14 bytes,
//! zero-padded), the number of entries (u64), the FNV-1a 64 checksum of the header before
//! it and of the entries (u64), then the entries sorted by key, 14 bytes each: key (u64),
//! move code ([`Game::move_code`], u16), and the value of the position for its side to
//! move if that move is played (i32, plylab's score).

use std::path::Path;

use crate::game::{Evaluator, Game, Score, Status, score};
use crate::search::tt::with_kept_tables;
use crate::search::{Algorithm, Limits, SearchConfig, Searcher, search};

use super::BookError;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"PLYLABBK";
/// 2: the checksum covers the header too, so that the game's name cannot be relabelled
/// unnoticed (version 1's covered the entries only; refused: rebuild the book).
const VERSION: u16 = 2;
/// Where the checksum field starts: the header before it is checksummed with the entries.
const CHECKSUM_AT: usize = 32;
const HEADER_LEN: usize = 40;
const ENTRY_LEN: usize = 14;
const NAME_LEN: usize = 14;

/// One book move: the position's key, the move's code and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// [`Game::hash`] of the position.
    pub key: u64,
    /// [`Game::move_code`] of the move.
    pub code: u16,
    /// The value of the position (for its side to move) when this move is played.
    pub value: Score,
}

/// An opening book built by search: every move of each book position with its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchBook {
    game: String,
    entries: Vec<Entry>,
}

/// How a drop-out expansion build runs.
#[derive(Clone, Debug)]
pub struct DoeParams {
    /// Positions to expand (the book's size in positions).
    pub positions: usize,
    /// The priority of a ply, in evaluation units: larger makes the book broader.
    pub omega: Score,
    /// The search that values each leaf (its depth is in `limits`).
    pub config: SearchConfig,
    /// Limits of each leaf's search.
    pub limits: Limits,
}

/// A node of the book tree under construction.
struct Node<G: Game> {
    pos: G,
    /// The node above (`None` for the root).
    parent: Option<usize>,
    children: Vec<(G::Move, usize)>,
    /// Negamax value for the side to move (a leaf: its search's).
    value: Score,
    /// The leaf to expand next within this subtree: its priority less this node's, and its
    /// index (the lowest pair); `None` when every leaf below is finished.
    next: Option<(i64, usize)>,
}

/// The value of a child (its side to move) seen from its parent: negated, and a win or
/// loss one ply further away.
const fn backed(child: Score) -> Score {
    -score::from_table(child, 1)
}

/// The value of `pos` for its side to move by `params`' search, and whether the game is
/// over there. Alpha-beta searches with this thread's kept table, cleared before each leaf
/// ([`with_kept_tables`]): a fresh 16 MiB table per leaf cost more than a shallow search,
/// and glibc did not reuse the freed tables (each pinned by a small allocation made in it),
/// so memory grew by gigabytes. A cleared table gives the same values as a fresh one.
fn leaf_value<G: Game, E: Evaluator<G>>(pos: &G, eval: &E, params: &DoeParams) -> (Score, bool) {
    if let Status::Over(outcome) = pos.status() {
        return (score::of_outcome(outcome, 0), true);
    }
    let (config, limits) = (&params.config, &params.limits);
    let layout = (config.tt_mb > 0 && config.algorithm == Algorithm::Alphabeta)
        .then_some((config.tt_mb, config.solve.tt_compact));
    let found = with_kept_tables([layout], |[table]| match table {
        Some(table) => Searcher::new(eval, config)
            .with_table(table)
            .run(pos, limits),
        None => search(pos, eval, config, limits),
    });
    (found.score().unwrap_or(0), false)
}

/// Builds a book from `root` by drop-out expansion; `progress` is told the positions
/// expanded so far, and answers whether to go on (a build stopped early is the book of the
/// positions expanded until then).
///
/// Each node keeps the best leaf of its subtree (its `next`), so an expansion updates
/// only the path from the expanded leaf to the root: a book of n positions costs n times
/// its depth, not n times its size.
pub fn build_doe<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    params: &DoeParams,
    progress: &mut dyn FnMut(usize) -> bool,
) -> SearchBook {
    let mut nodes = vec![leaf(root.clone(), None, 0, eval, params)];
    let mut moves = Vec::new();
    let mut expanded = 0;
    while expanded < params.positions {
        let Some((_, leaf_index)) = nodes[0].next else {
            break;
        };
        moves.clear();
        nodes[leaf_index].pos.generate_moves(&mut moves);
        // The evaluator's move-ordering hint first (stable): the order in which equally
        // valued book moves are listed, so `best` plays the one the evaluator prefers.
        let pos = nodes[leaf_index].pos.clone();
        moves.sort_by_key(|&mv| std::cmp::Reverse(eval.order_hint(&pos, mv, 0)));
        for &mv in &moves {
            let mut child = pos.clone();
            child.play(mv);
            let index = nodes.len();
            nodes.push(leaf(child, Some(leaf_index), index, eval, params));
            nodes[leaf_index].children.push((mv, index));
        }
        let mut on_path = Some(leaf_index);
        while let Some(i) = on_path {
            update(&mut nodes, i, params.omega);
            on_path = nodes[i].parent;
        }
        expanded += 1;
        if !progress(expanded) {
            break;
        }
    }
    let mut entries = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for node in &nodes {
        if node.children.is_empty() || !seen.insert(node.pos.hash()) {
            continue;
        }
        for &(mv, c) in &node.children {
            entries.push(Entry {
                key: node.pos.hash(),
                code: G::move_code(mv),
                value: backed(nodes[c].value),
            });
        }
    }
    // Stable: each position's moves stay in the order they were expanded in.
    entries.sort_by_key(|e| e.key);
    SearchBook {
        game: G::NAME.to_owned(),
        entries,
    }
}

/// A new leaf `index` of the book tree below `parent`, valued by `params`' search.
fn leaf<G: Game, E: Evaluator<G>>(
    pos: G,
    parent: Option<usize>,
    index: usize,
    eval: &E,
    params: &DoeParams,
) -> Node<G> {
    let (value, finished) = leaf_value(&pos, eval, params);
    Node {
        pos,
        parent,
        children: Vec::new(),
        value,
        next: (!finished).then_some((0, index)),
    }
}

/// Recomputes interior node `i`'s value (the negamax of its children's) and its best leaf:
/// a leaf's priority is the sum over the moves on its path of `omega` plus the move's drop
/// (the best move's value less its own), ties going to the leaf made first (Lincke 2001).
fn update<G: Game>(nodes: &mut [Node<G>], i: usize, omega: Score) {
    let node = &nodes[i];
    let Some(value) = node
        .children
        .iter()
        .map(|&(_, c)| backed(nodes[c].value))
        .max()
    else {
        return;
    };
    let next = node
        .children
        .iter()
        .filter_map(|&(_, c)| {
            let (below, leaf) = nodes[c].next?;
            let drop = i64::from(value) - i64::from(backed(nodes[c].value));
            Some((i64::from(omega) + drop + below, leaf))
        })
        .min();
    nodes[i].value = value;
    nodes[i].next = next;
}

impl SearchBook {
    /// The game the book is for ([`Game::NAME`]).
    #[must_use]
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The entries, sorted by key.
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The number of positions in the book.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.entries
            .windows(2)
            .filter(|w| w[0].key != w[1].key)
            .count()
            + usize::from(!self.entries.is_empty())
    }

    /// Every legal move of `pos` the book knows, with its value (empty out of book, or
    /// for another game).
    pub fn scored_moves<G: Game>(&self, pos: &G) -> Vec<(G::Move, Score)> {
        if self.game != G::NAME {
            return Vec::new();
        }
        let key = pos.hash();
        let start = self.entries.partition_point(|e| e.key < key);
        let known = self.entries[start..].iter().take_while(|e| e.key == key);
        let mut legal = Vec::new();
        pos.generate_moves(&mut legal);
        known
            .filter_map(|e| {
                let mv = legal.iter().find(|&&m| G::move_code(m) == e.code)?;
                Some((*mv, e.value))
            })
            .collect()
    }

    /// The book moves of `pos`: each known move, weight 1 for those of the best value and
    /// 0 for the others.
    pub fn weighted_moves<G: Game>(&self, pos: &G) -> Vec<(G::Move, u16)> {
        let scored = self.scored_moves(pos);
        let best = scored.iter().map(|&(_, v)| v).max();
        scored
            .into_iter()
            .map(|(m, v)| (m, u16::from(Some(v) == best)))
            .collect()
    }

    /// Writes the book to `path`.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        let mut body = Vec::with_capacity(self.entries.len() * ENTRY_LEN);
        for e in &self.entries {
            body.extend_from_slice(&e.key.to_le_bytes());
            body.extend_from_slice(&e.code.to_le_bytes());
            body.extend_from_slice(&e.value.to_le_bytes());
        }
        let mut bytes = Vec::with_capacity(HEADER_LEN + body.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        let mut name = [0u8; NAME_LEN];
        let len = self.game.len().min(NAME_LEN);
        name[..len].copy_from_slice(&self.game.as_bytes()[..len]);
        bytes.extend_from_slice(&name);
        bytes.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&checksum(&bytes, &body).to_le_bytes());
        bytes.extend_from_slice(&body);
        crate::output::replace_bytes(path, &bytes).map_err(|e| BookError::io(path, e))
    }

    /// Reads a book written by [`Self::save`], checking its header, length, checksum and
    /// order.
    ///
    /// # Errors
    /// When the file cannot be read, or is not such a book, or is truncated or damaged.
    pub fn load(path: &Path) -> Result<Self, BookError> {
        super::load_with(path, Self::from_bytes)
    }

    fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return Err("not a plylab search book (bad header)".into());
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version == 1 {
            return Err(format!(
                "format version 1, written before the checksum covered the header (version \
                 {VERSION}): rebuild it with `plylab book build`"
            ));
        }
        if version != VERSION {
            return Err(format!("format version {version}, expected {VERSION}"));
        }
        let game = String::from_utf8_lossy(&bytes[10..10 + NAME_LEN])
            .trim_end_matches('\0')
            .to_owned();
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let count = word(24);
        let body = &bytes[HEADER_LEN..];
        if u64::try_from(body.len()).ok() != count.checked_mul(ENTRY_LEN as u64) {
            return Err(format!(
                "truncated or padded: {} entry bytes for {count} entries of {ENTRY_LEN}",
                body.len()
            ));
        }
        if checksum(&bytes[..CHECKSUM_AT], body) != word(CHECKSUM_AT) {
            return Err("checksum mismatch: the file is damaged".into());
        }
        let entries: Vec<Entry> = body
            .chunks_exact(ENTRY_LEN)
            .map(|c| Entry {
                key: u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
                code: u16::from_le_bytes([c[8], c[9]]),
                value: i32::from_le_bytes(c[10..14].try_into().expect("4 bytes")),
            })
            .collect();
        if entries.windows(2).any(|w| w[0].key > w[1].key) {
            return Err("entries not sorted by key".into());
        }
        Ok(Self { game, entries })
    }
}

/// The file's checksum: FNV-1a over the header before the checksum field (magic, version,
/// game, entry count), then the entries.
fn checksum(header: &[u8], body: &[u8]) -> u64 {
    use crate::input::{fnv1a, fnv1a_from};
    fnv1a_from(fnv1a(header), body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::{CentreFirst, Connect4};
    use crate::games::tictactoe::TicTacToe;

    /// A node of [`expand_by_definition`]: position, children, value, finished.
    type PlainNode<G> = (G, Vec<(<G as Game>::Move, usize)>, Score, bool);

    /// Drop-out expansion as Lincke states it, recomputing every value and priority before
    /// each expansion: the oracle for [`build_doe`]'s incremental updates. The book's entries
    /// in expansion order (the tree's nodes with children, first occurrences).
    fn expand_by_definition<G: Game, E: Evaluator<G>>(
        root: &G,
        eval: &E,
        params: &DoeParams,
    ) -> Vec<Entry> {
        let value_of = |pos: &G| match pos.status() {
            Status::Over(outcome) => (score::of_outcome(outcome, 0), true),
            Status::Ongoing => {
                let found = search(pos, eval, &params.config, &params.limits).score();
                (found.unwrap_or(0), false)
            }
        };
        let mut nodes: Vec<PlainNode<G>> = Vec::new();
        let (value, finished) = value_of(root);
        nodes.push((root.clone(), Vec::new(), value, finished));
        for _ in 0..params.positions {
            let mut priority = vec![i64::MAX; nodes.len()];
            priority[0] = 0;
            for i in 0..nodes.len() {
                for &(_, c) in &nodes[i].1 {
                    let drop = i64::from(nodes[i].2) - i64::from(backed(nodes[c].2));
                    priority[c] = priority[i] + i64::from(params.omega) + drop;
                }
            }
            let Some(leaf) = (0..nodes.len())
                .filter(|&i| nodes[i].1.is_empty() && !nodes[i].3)
                .min_by_key(|&i| (priority[i], i))
            else {
                break;
            };
            let mut moves = Vec::new();
            let pos = nodes[leaf].0.clone();
            pos.generate_moves(&mut moves);
            moves.sort_by_key(|&mv| std::cmp::Reverse(eval.order_hint(&pos, mv, 0)));
            for mv in moves {
                let mut child = pos.clone();
                child.play(mv);
                let (value, finished) = value_of(&child);
                nodes.push((child, Vec::new(), value, finished));
                let index = nodes.len() - 1;
                nodes[leaf].1.push((mv, index));
            }
            for i in (0..nodes.len()).rev() {
                if let Some(v) = nodes[i].1.iter().map(|&(_, c)| backed(nodes[c].2)).max() {
                    nodes[i].2 = v;
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        let mut entries = Vec::new();
        for (pos, children, _, _) in &nodes {
            if children.is_empty() || !seen.insert(pos.hash()) {
                continue;
            }
            entries.extend(children.iter().map(|&(mv, c)| Entry {
                key: pos.hash(),
                code: G::move_code(mv),
                value: backed(nodes[c].2),
            }));
        }
        entries.sort_by_key(|e| e.key);
        entries
    }

    fn params(positions: usize, depth: u32, omega: Score, tt_mb: usize) -> DoeParams {
        DoeParams {
            positions,
            omega,
            config: SearchConfig {
                tt_mb,
                ordering: crate::search::Ordering::HEURISTICS,
                ..SearchConfig::default()
            },
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        }
    }

    /// The incremental build (one cleared table, path updates) makes the book that the
    /// definition makes: the same positions, moves and values, for broad and deep `omega`,
    /// with and without a table, on a game that ends inside the book (tic-tac-toe).
    #[test]
    fn incremental_build_matches_the_definition() {
        for (positions, depth, omega, tt_mb) in [(300, 2, 1, 1), (200, 3, 4, 0), (150, 4, 30, 1)] {
            let p = params(positions, depth, omega, tt_mb);
            let root = Connect4::default();
            let book = build_doe(&root, &CentreFirst, &p, &mut |_| true);
            let expected = expand_by_definition(&root, &CentreFirst, &p);
            assert_eq!(
                book.entries(),
                expected,
                "connect4 {positions} {depth} {omega}"
            );
        }
        // Three plies in, tic-tac-toe ends inside the book: the expansion stops when every
        // leaf is a finished game, before its budget.
        let mut root = TicTacToe::new();
        for _ in 0..3 {
            let mut moves = Vec::new();
            root.generate_moves(&mut moves);
            root.play(moves[moves.len() / 2]);
        }
        let p = params(100_000, 1, 2, 1);
        let book = build_doe(&root, &crate::game::Neutral, &p, &mut |_| true);
        assert_eq!(
            book.entries(),
            expand_by_definition(&root, &crate::game::Neutral, &p)
        );
        assert!(book.positions() > 100, "{}", book.positions());
    }
}

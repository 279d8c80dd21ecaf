//! The UCT tree: a `Vec` arena of nodes, UCB1 selection, one expansion per iteration,
//! random playouts and backpropagation (Kocsis and Szepesvári 2006, "Bandit based
//! Monte-Carlo planning", ECML; shared/seeds/003).

use std::sync::LazyLock;

use super::MctsConfig;
use crate::game::{Evaluator, Game, Outcome, Player, Status, Weight};
use crate::rng::XorShift;

/// No parent (the root).
const NONE: u32 = u32::MAX;

/// One position in the tree, reached from its parent by `mv`.
struct Node<M> {
    /// The move from the parent (`None` at the root).
    mv: Option<M>,
    /// The parent's index, [`NONE`] at the root.
    parent: u32,
    /// The children occupy `first_child..first_child + child_count` in the arena.
    first_child: u32,
    child_count: u32,
    /// Children added to the tree so far, in the (shuffled) arena order: exactly one is
    /// added per iteration that reaches this node while some remain.
    expanded: u32,
    /// Whether the children have been generated.
    generated: bool,
    /// The player who played `mv`: rewards are counted from this player's point of view.
    mover: Player,
    /// Completed playouts through this node.
    visits: u64,
    /// Playouts under way through this node (tree parallelism only), each counted as a loss.
    virtual_loss: u32,
    /// Sum of rewards (1 win, 0.5 draw, 0 loss) for `mover`.
    reward: f64,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, parent: u32, mover: Player) -> Self {
        Self {
            mv,
            parent,
            first_child: NONE,
            child_count: 0,
            expanded: 0,
            generated: false,
            mover,
            visits: 0,
            virtual_loss: 0,
            reward: 0.0,
        }
    }

    /// Visits including playouts under way (the virtual losses).
    fn effective_visits(&self) -> u64 {
        self.visits + u64::from(self.virtual_loss)
    }
}

/// A UCT search tree rooted at one position.
pub(super) struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    exploration: f64,
    /// [`MctsConfig::expand_visits`].
    expand_visits: u64,
    /// Nodes added to the tree (the root and every expanded child).
    added: u64,
    /// The outcomes of the chance node being descended through, reused.
    outcomes: Vec<(G::Move, Weight)>,
    /// [`MctsConfig::tree_mb`] in bytes.
    cap: Option<u64>,
    /// Whether an expansion found no memory to grow into ([`crate::memory::may_grow`]).
    full: bool,
}

impl<G: Game> Tree<G> {
    /// A tree holding only `root`, selecting with `config`'s UCB1 constant and expanding at
    /// its threshold.
    pub(super) fn new(root: &G, config: &MctsConfig) -> Self {
        let mover = root.side_to_move().other();
        Self {
            nodes: vec![Node::new(None, NONE, mover)],
            exploration: config.exploration,
            expand_visits: u64::from(config.expand_visits),
            added: 1,
            outcomes: Vec::new(),
            cap: config.tree_bytes(),
            full: false,
        }
    }

    /// A tree holding only `root` whose nodes may take at most `cap` bytes (instead of
    /// `config`'s cap): one of root parallelism's trees, which share the cap.
    pub(super) fn with_cap(root: &G, config: &MctsConfig, cap: Option<u64>) -> Self {
        Self {
            cap,
            ..Self::new(root, config)
        }
    }

    /// Whether an expansion has found no memory to grow into: the search stops.
    pub(super) fn is_full(&self) -> bool {
        self.full
    }

    /// Nodes added to the tree so far, the root included.
    pub(super) fn size(&self) -> u64 {
        self.added
    }

    /// Selection and expansion: from the root, follows UCB1 through fully expanded nodes
    /// until it adds one new child, reaches a node below the expansion threshold or a
    /// finished game, and returns that node and its position. With `virtual_loss`, every
    /// node on the path gets one virtual loss.
    pub(super) fn descend(
        &mut self,
        root: &G,
        rng: &mut XorShift,
        buf: &mut Vec<G::Move>,
        virtual_loss: bool,
    ) -> (u32, G) {
        let mut pos = root.clone();
        let mut node = 0u32;
        loop {
            if virtual_loss {
                self.nodes[node as usize].virtual_loss += 1;
            }
            if pos.status() != Status::Ongoing || self.below_threshold(node) {
                return (node, pos);
            }
            if !self.nodes[node as usize].generated && !self.generate(node, &pos, rng, buf) {
                // No memory for the children: played out from as a leaf, the last iteration.
                self.full = true;
                return (node, pos);
            }
            let next = if pos.is_chance() {
                self.sample_child(node, &pos, rng)
            } else {
                self.next_child(node, virtual_loss)
            };
            let Some((child, new)) = next else {
                return (node, pos);
            };
            pos.play(self.nodes[child as usize].mv.expect("a child has a move"));
            node = child;
            if new {
                if virtual_loss {
                    self.nodes[node as usize].virtual_loss += 1;
                }
                return (node, pos);
            }
        }
    }

    /// Whether `node` is a leaf still gathering the playouts [`MctsConfig::expand_visits`]
    /// asks before it expands (the root always expands).
    fn below_threshold(&self, node: u32) -> bool {
        node != 0 && self.nodes[node as usize].visits < self.expand_visits
    }

    /// The child to follow from `node`: the next unexpanded child (`true`: newly added), or
    /// else the UCB1 choice. `None` when `node` has no moves.
    fn next_child(&mut self, node: u32, own_loss: bool) -> Option<(u32, bool)> {
        let n = &mut self.nodes[node as usize];
        if n.child_count == 0 {
            return None;
        }
        if n.expanded < n.child_count {
            n.expanded += 1;
            self.added += 1;
            return Some((n.first_child + n.expanded - 1, true));
        }
        Some((self.select(node, own_loss), false))
    }

    /// At a chance node, the child of an outcome drawn by its weight (`true`: never visited
    /// before, so it is added now). Outcomes are sampled, not chosen by UCB1: the tree
    /// follows the dice as they fall (seed 003; expectimax-style MCTS).
    fn sample_child(&mut self, node: u32, pos: &G, rng: &mut XorShift) -> Option<(u32, bool)> {
        self.outcomes.clear();
        pos.chance_outcomes(&mut self.outcomes);
        let n = &self.nodes[node as usize];
        if n.child_count == 0 || self.outcomes.len() != n.child_count as usize {
            return None;
        }
        let child = n.first_child + sample(&self.outcomes, rng) as u32;
        let c = &self.nodes[child as usize];
        let new = c.visits == 0 && c.virtual_loss == 0;
        if new {
            self.nodes[node as usize].expanded += 1;
            self.added += 1;
        }
        Some((child, new))
    }

    /// Appends the children of `node` (position `pos`) to the arena in a seeded random order,
    /// so that expansion does not favour the move generator's order; a chance node's
    /// outcomes in the game's order (they are drawn by weight, [`Self::sample_child`]).
    /// False, and nothing appended, when the arena has no room for them and may not grow
    /// ([`Self::make_room`]).
    fn generate(&mut self, node: u32, pos: &G, rng: &mut XorShift, buf: &mut Vec<G::Move>) -> bool {
        buf.clear();
        if pos.is_chance() {
            self.outcomes.clear();
            pos.chance_outcomes(&mut self.outcomes);
            buf.extend(self.outcomes.iter().map(|&(o, _)| o));
        } else {
            pos.generate_moves(buf);
            shuffle(buf, rng);
        }
        if !self.make_room(buf.len()) {
            return false;
        }
        let first = self.nodes.len() as u32;
        let mover = pos.side_to_move();
        self.nodes
            .extend(buf.iter().map(|&mv| Node::new(Some(mv), node, mover)));
        let n = &mut self.nodes[node as usize];
        n.generated = true;
        n.first_child = first;
        n.child_count = buf.len() as u32;
        true
    }

    /// Makes room for `count` more nodes: the arena doubles (or grows to fit them) where
    /// [`crate::memory::may_grow`] allows it, within the cap and below `u32::MAX` nodes;
    /// false when it may not.
    fn make_room(&mut self, count: usize) -> bool {
        let (len, capacity) = (self.nodes.len(), self.nodes.capacity());
        let Some(needed) = len.checked_add(count).filter(|&n| n < NONE as usize) else {
            return false;
        };
        if needed <= capacity {
            return true;
        }
        let size = std::mem::size_of::<Node<G::Move>>();
        let most = self.cap.map_or(NONE as usize - 1, |cap| {
            (cap / size as u64).min(u64::from(NONE) - 1) as usize
        });
        let wanted = (2 * capacity).max(needed).max(1024).min(most);
        if wanted < needed {
            return false;
        }
        // `wanted` is at least `needed`, above the capacity.
        let (held, more) = (
            (capacity * size) as u64,
            ((wanted - capacity) * size) as u64,
        );
        if !crate::memory::may_grow(held, more, self.cap) {
            return false;
        }
        self.nodes.reserve_exact(wanted - len);
        true
    }

    /// UCB1 (Auer, Cesa-Bianchi and Fischer 2002) over the children of `node`: the mean
    /// reward plus `c · sqrt(ln N / n)`, where virtual losses count as visits with reward 0.
    /// The parent's N leaves out this descent's own virtual loss (`own_loss`), which is in
    /// no child yet: N counts the playouts through the node, finished or in flight
    /// elsewhere (seed 003's t), as the lock-free tree's does. Ties go to the earlier child.
    fn select(&self, node: u32, own_loss: bool) -> u32 {
        let n = &self.nodes[node as usize];
        let roots = Roots::get();
        let parent = n.effective_visits() - u64::from(own_loss);
        let c_log = self.exploration * roots.sqrt_ln(parent);
        let mut best = (n.first_child, f64::NEG_INFINITY);
        for i in n.first_child..n.first_child + n.child_count {
            let child = &self.nodes[i as usize];
            let visits = child.effective_visits();
            let value = if visits == 0 {
                f64::INFINITY
            } else {
                roots.ucb1(child.reward, visits, c_log)
            };
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }

    /// Backpropagation: adds the playout result (`value` for `player`) to `leaf` and its
    /// ancestors, each from its mover's point of view; with `virtual_loss`, removes the
    /// virtual losses [`Self::descend`] added.
    pub(super) fn backpropagate(&mut self, leaf: u32, (player, value): (Player, f64), vl: bool) {
        let mut i = leaf;
        while i != NONE {
            let n = &mut self.nodes[i as usize];
            if vl {
                n.virtual_loss -= 1;
            }
            n.visits += 1;
            n.reward += reward_for(n.mover, player, value);
            i = n.parent;
        }
    }

    /// `(move, visits, reward sum)` for each legal root move, in the order of
    /// [`Game::generate_moves`] (moves never expanded have zero visits).
    pub(super) fn root_totals(&self, root: &G) -> Vec<(G::Move, u64, f64)> {
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        let r = &self.nodes[0];
        let children = r.first_child..r.first_child + r.expanded;
        let children = if r.generated { children } else { 0..0 };
        moves
            .into_iter()
            .map(|mv| {
                let child = children
                    .clone()
                    .map(|i| &self.nodes[i as usize])
                    .find(|c| c.mv == Some(mv));
                child.map_or((mv, 0, 0.0), |c| (mv, c.visits, c.reward))
            })
            .collect()
    }
}

/// Visit counts below this have their square root and the square root of their logarithm
/// in [`Roots`]' tables (32 KiB each).
const TABLED: u64 = 4096;

/// `sqrt(n)` and `sqrt(ln n)` for the visit counts below [`TABLED`], worked out once per
/// process. UCB1 needs a logarithm and a square root at every node a descent passes and a
/// square root for each of its children, and most nodes of a tree have few visits: a table
/// read in their place gave UCT on connect four 8% less time for the same playouts, and the
/// lock-free tree on one thread 10%. The tables are filled by the very operations they
/// replace, so every value, and every tree, is the same to the bit.
pub(super) struct Roots {
    sqrt: Box<[f64]>,
    sqrt_ln: Box<[f64]>,
}

impl Roots {
    /// The tables, filled by the first search that asks.
    pub(super) fn get() -> &'static Self {
        static ROOTS: LazyLock<Roots> = LazyLock::new(|| Roots {
            sqrt: (0..TABLED).map(|n| (n as f64).sqrt()).collect(),
            sqrt_ln: (0..TABLED)
                .map(|n| (n as f64).max(1.0).ln().sqrt())
                .collect(),
        });
        &ROOTS
    }

    /// `sqrt(ln max(n, 1))`, UCB1's exploration term for a parent of `n` visits, before the
    /// constant `c`.
    pub(super) fn sqrt_ln(&self, n: u64) -> f64 {
        match self.sqrt_ln.get(n as usize) {
            Some(&r) => r,
            None => (n as f64).ln().sqrt(),
        }
    }

    /// UCB1 (Auer, Cesa-Bianchi and Fischer 2002) of a child with reward sum `reward` over
    /// `n` (> 0) visits: `reward / n + c · sqrt(ln N / n)`, computed as
    /// `(reward + c·sqrt(ln N) · sqrt(n)) / n` with `c_log` = `c · sqrt(ln N)` worked out
    /// once per node, so that a child costs one division and one square root (a table read
    /// for small `n`) instead of two divisions and a square root (most of a connect-four
    /// descent's time in `perf`).
    pub(super) fn ucb1(&self, reward: f64, n: u64, c_log: f64) -> f64 {
        let root = match self.sqrt.get(n as usize) {
            Some(&r) => r,
            None => (n as f64).sqrt(),
        };
        (reward + c_log * root) / n as f64
    }
}

/// A playout's reused buffers: moves, and a chance node's weighted outcomes.
pub(super) type PlayoutBuffers<'a, M> = (&'a mut Vec<M>, &'a mut Vec<(M, Weight)>);

/// The index of an outcome drawn with probability weight / total weight.
pub(super) fn sample<M>(outcomes: &[(M, Weight)], rng: &mut XorShift) -> usize {
    let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
    let mut r = rng.below(total.max(1));
    for (i, &(_, w)) in outcomes.iter().enumerate() {
        if r < u64::from(w) {
            return i;
        }
        r -= u64::from(w);
    }
    outcomes.len().saturating_sub(1)
}

/// Fisher-Yates shuffle with the seeded generator.
pub(super) fn shuffle<T>(items: &mut [T], rng: &mut XorShift) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// The reward for `mover` of a result worth `value` to `player` (two players, zero sum).
pub(super) fn reward_for(mover: Player, player: Player, value: f64) -> f64 {
    if mover == player { value } else { 1.0 - value }
}

/// The value of a finished game for its side to move: 1, 0.5 or 0, or its points as the
/// game reads them as a win probability ([`Game::win_probability`]).
fn outcome_value<G: Game>(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Win => 1.0,
        Outcome::Loss => 0.0,
        Outcome::Draw => 0.5,
        Outcome::Points(p) => G::win_probability(p),
    }
}

/// A uniformly random playout from `pos` to the end of the game, or for `cutoff` plies and
/// then the evaluator's score as a win probability ([`Game::win_probability`]). Returns the
/// player the value is for (the side to move where the playout stopped) and the value. A
/// position with no moves that is not over counts as a draw. At a chance node the outcome is
/// drawn by its weight. Reuses `buf` and `outcomes`: nothing is allocated per step.
pub(super) fn playout<G: Game, E: Evaluator<G>>(
    pos: &mut G,
    eval: &E,
    cutoff: Option<u32>,
    rng: &mut XorShift,
    (buf, outcomes): PlayoutBuffers<'_, G::Move>,
) -> (Player, f64) {
    let mut plies = 0u32;
    loop {
        if let Status::Over(outcome) = pos.status() {
            return (pos.side_to_move(), outcome_value::<G>(outcome));
        }
        if cutoff.is_some_and(|c| plies >= c) {
            return (pos.side_to_move(), G::win_probability(eval.evaluate(pos)));
        }
        if pos.is_chance() {
            outcomes.clear();
            pos.chance_outcomes(outcomes);
            pos.play(outcomes[sample(outcomes, rng)].0);
            plies += 1;
            continue;
        }
        buf.clear();
        pos.generate_moves(buf);
        if buf.is_empty() {
            return (pos.side_to_move(), 0.5);
        }
        pos.play(buf[rng.below(buf.len() as u64) as usize]);
        plies += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;

    #[test]
    fn ucb1_is_the_textbook_formula() {
        let roots = Roots::get();
        let cases = [
            (0.0, 1, 2),
            (3.5, 7, 40),
            (812.5, 1500, 9_000_000),
            (3e3, 5000, 4095),
        ];
        for (reward, visits, parent) in cases {
            let (n, parent_n) = (visits as f64, parent as f64);
            let c = std::f64::consts::SQRT_2;
            let textbook = reward / n + c * (f64::ln(parent_n) / n).sqrt();
            let fast = roots.ucb1(reward, visits, c * roots.sqrt_ln(parent));
            assert!((fast - textbook).abs() < 1e-12, "{fast} against {textbook}");
        }
    }

    #[test]
    fn the_tables_hold_what_the_operations_give_to_the_bit() {
        let roots = Roots::get();
        for n in (0..2 * TABLED).chain([u64::from(u32::MAX), 1 << 40]) {
            let x = n as f64;
            assert_eq!(
                roots.sqrt_ln(n).to_bits(),
                x.max(1.0).ln().sqrt().to_bits(),
                "{n}"
            );
            if n > 0 {
                let ucb = (0.75 + 1.5 * x.sqrt()) / x;
                assert_eq!(roots.ucb1(0.75, n, 1.5).to_bits(), ucb.to_bits(), "{n}");
            }
        }
    }

    #[test]
    fn outcomes_are_drawn_by_their_weights() {
        // The 21 rolls of two dice: doubles 1/36, the others 2/36.
        let outcomes: Vec<(u8, Weight)> =
            (0..21u8).map(|i| (i, if i < 6 { 1 } else { 2 })).collect();
        let mut rng = XorShift::new(5);
        let mut counts = [0u32; 21];
        for _ in 0..72_000 {
            counts[sample(&outcomes, &mut rng)] += 1;
        }
        for (i, &n) in counts.iter().enumerate() {
            let expected = 2000.0 * f64::from(outcomes[i].1);
            // Within 5 standard deviations of the binomial expectation.
            let sd = (expected * (1.0 - expected / 72_000.0)).sqrt();
            assert!(
                (f64::from(n) - expected).abs() < 5.0 * sd,
                "outcome {i}: {n}"
            );
        }
    }

    /// A tree may fill its cap to the last node: with room for 8 nodes the connect-four
    /// root's 7 children fit beside it, and the first descent adds one of them; with room
    /// for 7 they do not, and the tree is full at once.
    #[test]
    fn children_that_fill_the_cap_exactly_fit() {
        let root = Connect4::new();
        let config = MctsConfig::default();
        let node = std::mem::size_of::<Node<<Connect4 as Game>::Move>>() as u64;
        let mut rng = XorShift::new(1);
        let mut buf = Vec::new();
        let mut exact = Tree::with_cap(&root, &config, Some(8 * node));
        let (leaf, _) = exact.descend(&root, &mut rng, &mut buf, false);
        assert!(!exact.is_full());
        assert_ne!(leaf, 0);
        assert_eq!(exact.size(), 2);
        let mut short = Tree::with_cap(&root, &config, Some(7 * node));
        let (leaf, _) = short.descend(&root, &mut rng, &mut buf, false);
        assert!(short.is_full());
        assert_eq!((leaf, short.size()), (0, 1));
    }
}

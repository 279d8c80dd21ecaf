//! The UCT tree: a `Vec` arena of nodes, UCB1 selection, one expansion per iteration,
//! random playouts and backpropagation (Kocsis and Szepesvári 2006, "Bandit based
//! Monte-Carlo planning", ECML; shared/seeds/003).

use crate::game::{Evaluator, Game, Outcome, Player, Score, Status};
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
    fn effective_visits(&self) -> f64 {
        (self.visits + u64::from(self.virtual_loss)) as f64
    }
}

/// A UCT search tree rooted at one position.
pub(super) struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    exploration: f64,
    /// Nodes added to the tree (the root and every expanded child).
    added: u64,
}

impl<G: Game> Tree<G> {
    /// A tree holding only `root`, selecting with UCB1 constant `exploration`.
    pub(super) fn new(root: &G, exploration: f64) -> Self {
        let mover = root.side_to_move().other();
        Self {
            nodes: vec![Node::new(None, NONE, mover)],
            exploration,
            added: 1,
        }
    }

    /// Nodes added to the tree so far, the root included.
    pub(super) fn size(&self) -> u64 {
        self.added
    }

    /// Selection and expansion: from the root, follows UCB1 through fully expanded nodes
    /// until it adds one new child (or reaches a finished game), and returns that node and its
    /// position. With `virtual_loss`, every node on the path gets one virtual loss.
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
            if pos.status() != Status::Ongoing {
                return (node, pos);
            }
            if !self.nodes[node as usize].generated {
                self.generate(node, &pos, rng, buf);
            }
            let Some((child, new)) = self.next_child(node) else {
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

    /// The child to follow from `node`: the next unexpanded child (`true`: newly added), or
    /// else the UCB1 choice. `None` when `node` has no moves.
    fn next_child(&mut self, node: u32) -> Option<(u32, bool)> {
        let n = &mut self.nodes[node as usize];
        if n.child_count == 0 {
            return None;
        }
        if n.expanded < n.child_count {
            n.expanded += 1;
            self.added += 1;
            return Some((n.first_child + n.expanded - 1, true));
        }
        Some((self.select(node), false))
    }

    /// Appends the children of `node` (position `pos`) to the arena in a seeded random order,
    /// so that expansion does not favour the move generator's order.
    fn generate(&mut self, node: u32, pos: &G, rng: &mut XorShift, buf: &mut Vec<G::Move>) {
        buf.clear();
        pos.generate_moves(buf);
        shuffle(buf, rng);
        let first = u32::try_from(self.nodes.len()).expect("tree larger than u32::MAX nodes");
        let mover = pos.side_to_move();
        self.nodes
            .extend(buf.iter().map(|&mv| Node::new(Some(mv), node, mover)));
        let n = &mut self.nodes[node as usize];
        n.generated = true;
        n.first_child = first;
        n.child_count = buf.len() as u32;
    }

    /// UCB1 (Auer, Cesa-Bianchi and Fischer 2002) over the children of `node`: the mean
    /// reward plus `c · sqrt(ln N / n)`, where virtual losses count as visits with reward 0.
    /// Ties go to the earlier child.
    fn select(&self, node: u32) -> u32 {
        let n = &self.nodes[node as usize];
        let log_parent = n.effective_visits().max(1.0).ln();
        let mut best = (n.first_child, f64::NEG_INFINITY);
        for i in n.first_child..n.first_child + n.child_count {
            let child = &self.nodes[i as usize];
            let visits = child.effective_visits();
            let value = if visits == 0.0 {
                f64::INFINITY
            } else {
                child.reward / visits + self.exploration * (log_parent / visits).sqrt()
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

/// Fisher-Yates shuffle with the seeded generator.
fn shuffle<T>(items: &mut [T], rng: &mut XorShift) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// The reward for `mover` of a result worth `value` to `player` (two players, zero sum).
pub(super) fn reward_for(mover: Player, player: Player, value: f64) -> f64 {
    if mover == player { value } else { 1.0 - value }
}

/// An evaluation (or `Outcome::Points`) as a win probability for the side it is scored for:
/// the logistic `1 / (1 + 10^(-score / 400))` of the Elo scale (Elo 1978; the same curve as
/// the chess programming wiki's "Pawn Advantage, Win Percentage, and Elo" with centipawns).
/// 0 maps to 0.5, +400 to about 0.91.
#[must_use]
pub fn win_probability(score: Score) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(score) / 400.0))
}

/// The value of a finished game for its side to move: 1, 0.5 or 0, or the logistic of the points.
fn outcome_value(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Win => 1.0,
        Outcome::Loss => 0.0,
        Outcome::Draw => 0.5,
        Outcome::Points(p) => win_probability(p),
    }
}

/// A uniformly random playout from `pos` to the end of the game, or for `cutoff` plies and
/// then the evaluator's score through [`win_probability`]. Returns the player the value is
/// for (the side to move where the playout stopped) and the value. A position with no moves
/// that is not over counts as a draw. Reuses `buf`: nothing is allocated per step.
pub(super) fn playout<G: Game, E: Evaluator<G>>(
    pos: &mut G,
    eval: &E,
    cutoff: Option<u32>,
    rng: &mut XorShift,
    buf: &mut Vec<G::Move>,
) -> (Player, f64) {
    let mut plies = 0u32;
    loop {
        if let Status::Over(outcome) = pos.status() {
            return (pos.side_to_move(), outcome_value(outcome));
        }
        if cutoff.is_some_and(|c| plies >= c) {
            return (pos.side_to_move(), win_probability(eval.evaluate(pos)));
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

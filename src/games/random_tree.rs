//! Synthetic uniform game trees: branching `b`, height `d`, derived from a seed.
//!
//! Nothing is stored: a node is its level and its index among the `b^level` nodes of that
//! level, and every value is computed from the seed and that index. Two value models:
//!
//! - [`Model::Iid`]: every node at level `k` carries a static value, and the values of level
//!   `k` are a seeded uniformly random permutation of `0..b^k` (centred on zero). Alpha-beta
//!   depends only on the order of leaf values, and the order of i.i.d. continuous values is a
//!   uniformly random permutation, so this *is* the i.i.d. continuous model, with no ties by
//!   construction. Searching to depth `k < d` sees level `k` as its horizon, which is again an
//!   i.i.d. tree of depth `k`: each iteration of iterative deepening is a fresh instance of
//!   Knuth and Moore's and Pearl's model. Needs `b^d <= 2^30` so that values fit a score.
//! - [`Model::Incremental`]: every edge carries a random value uniform in `±EDGE_RANGE`, and a
//!   node's value is the sum along its path (Fuller, Gaschnig and Gillogly's incremental
//!   model): siblings' values are correlated, as in real games. Ties are possible.
//!
//! Values are seen from the side to move, as negamax wants them.
//!
//! [`Oracle`] knows each node's true minimax value for a given search horizon, so ordering can
//! be perfect, worst, random or best-first with probability `p`.

use std::collections::HashMap;
use std::fmt;

use parking_lot::Mutex;

use crate::game::score::INFINITY;
use crate::game::{Evaluator, Game, Notation, Outcome, ParseError, Player, Score, Status};
use crate::rng::mix;

/// Half-width of the uniform edge values of the incremental model.
pub const EDGE_RANGE: i64 = 1 << 20;
/// Largest number of nodes on one level of an i.i.d. tree (values must fit a score).
pub const MAX_LEVEL_NODES: u64 = 1 << 30;
/// The largest branching factor: a node's moves are listed in a buffer of `b` moves, so an
/// unbounded `b` (the incremental model allows any `b^d` below 2^64) would exhaust memory.
pub const MAX_BRANCHING: u32 = 4096;

/// How node values are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Model {
    /// Independent, identically distributed values without ties (a random permutation).
    Iid,
    /// Sums of random edge values along the path: correlated siblings.
    Incremental,
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Iid => "iid",
            Self::Incremental => "incremental",
        })
    }
}

/// The shape and seed of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TreeParams {
    /// Branching factor: every interior node has exactly `b` children.
    pub b: u32,
    /// Height: nodes at level `d` are terminal.
    pub d: u32,
    /// Seed of every value in the tree.
    pub seed: u64,
    /// Value model.
    pub model: Model,
}

impl TreeParams {
    /// Checks the parameters: `1 <= b <=` [`MAX_BRANCHING`], `1 <= d <= 60`, and for the
    /// i.i.d. model `b^d <= 2^30`.
    pub fn validate(&self) -> Result<(), ParseError> {
        if self.b == 0 || self.d == 0 {
            return Err(ParseError::new("b and d must be at least 1"));
        }
        if self.d > 60 {
            return Err(ParseError::new("d must be at most 60"));
        }
        if self.b > MAX_BRANCHING {
            return Err(ParseError::new(format!(
                "b must be at most {MAX_BRANCHING} (every node lists its b moves)"
            )));
        }
        let fits = level_size(self.b, self.d).is_some_and(|n| n <= MAX_LEVEL_NODES);
        if self.model == Model::Iid && !fits {
            return Err(ParseError::new(format!(
                "an i.i.d. tree needs b^d <= 2^30 (b={}, d={})",
                self.b, self.d
            )));
        }
        if self.model == Model::Incremental && level_size(self.b, self.d).is_none() {
            return Err(ParseError::new("b^d must fit in 64 bits"));
        }
        Ok(())
    }

    /// Knuth and Moore's minimal tree: `b^ceil(k/2) + b^floor(k/2) - 1` leaves at depth `k`.
    #[must_use]
    pub fn minimal_leaves(b: u32, k: u32) -> u64 {
        let b = u64::from(b);
        b.pow(k.div_ceil(2)) + b.pow(k / 2) - 1
    }
}

/// `b^k`, or `None` on overflow.
fn level_size(b: u32, k: u32) -> Option<u64> {
    u64::from(b).checked_pow(k)
}

/// A node of a synthetic tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RandomTree {
    params: TreeParams,
    level: u32,
    /// Index of the node among the `b^level` nodes of its level, in path order.
    index: u64,
    /// Incremental model: sum of the edge values from the root, seen by the first player.
    path_sum: i64,
}

/// A move: the index of the child, written 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Child(pub u32);

impl fmt::Display for Child {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl RandomTree {
    /// The root of the tree described by `params` (which must be valid).
    pub fn new(params: TreeParams) -> Result<Self, ParseError> {
        params.validate()?;
        Ok(Self {
            params,
            level: 0,
            index: 0,
            path_sum: 0,
        })
    }

    /// The tree's parameters.
    #[must_use]
    pub const fn params(&self) -> TreeParams {
        self.params
    }

    /// Depth of this node below the root.
    #[must_use]
    pub const fn level(&self) -> u32 {
        self.level
    }

    /// The node's static value for the side to move.
    #[must_use]
    pub fn value(&self) -> Score {
        match self.params.model {
            Model::Iid => {
                let n = self.level_nodes();
                let rank = permute(self.index, n, level_key(self.params.seed, self.level));
                (rank as i64 - (n / 2) as i64) as Score
            }
            Model::Incremental => {
                let first = self.path_sum as Score;
                if self.level.is_multiple_of(2) {
                    first
                } else {
                    -first
                }
            }
        }
    }

    fn level_nodes(&self) -> u64 {
        u64::from(self.params.b).pow(self.level)
    }

    /// Value of the edge leading into the node with this index at this level.
    fn edge_value(&self, level: u32, index: u64) -> i64 {
        let h = mix(level_key(self.params.seed ^ 0x5EED_ED6E, level) ^ index);
        (h % (2 * EDGE_RANGE as u64 + 1)) as i64 - EDGE_RANGE
    }
}

impl Game for RandomTree {
    type Move = Child;
    const NAME: &'static str = "random_tree";
    /// A tree: every move goes one level down, so no node is reached twice on a path.
    const POSITIONS_REPEAT: bool = false;

    fn side_to_move(&self) -> Player {
        if self.level.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn generate_moves(&self, out: &mut Vec<Child>) {
        if self.level < self.params.d {
            out.extend((0..self.params.b).map(Child));
        }
    }

    fn play(&mut self, mv: Child) {
        debug_assert!(mv.0 < self.params.b && self.level < self.params.d);
        self.index = self.index * u64::from(self.params.b) + u64::from(mv.0);
        self.level += 1;
        if self.params.model == Model::Incremental {
            let edge = self.edge_value(self.level, self.index);
            // Edges played by the first player (from even levels) add, the second's subtract.
            self.path_sum += if self.level % 2 == 1 { edge } else { -edge };
        }
    }

    fn status(&self) -> Status {
        if self.level == self.params.d {
            Status::Over(Outcome::Points(self.value()))
        } else {
            Status::Ongoing
        }
    }

    fn hash(&self) -> u64 {
        mix(level_key(self.params.seed, self.level) ^ mix(self.index))
    }

    fn plies_played(&self) -> u32 {
        self.level
    }

    fn remaining_plies(&self) -> Option<u32> {
        Some(self.params.d - self.level)
    }

    fn move_code(mv: Child) -> u16 {
        mv.0 as u16
    }
}

impl Notation for RandomTree {
    /// Reads `b=4 d=8 seed=1 model=iid` (spaces or commas; `model` defaults to iid and `seed`
    /// to 0), optionally followed by `path=0.3.1`, the child indices from the root.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let (mut b, mut d, mut seed, mut model, mut path) = (None, None, 0, Model::Iid, None);
        for (key, value) in tree_fields(text)? {
            let number = || {
                value
                    .parse::<u64>()
                    .map_err(|_| ParseError::new(format!("`{value}` is not a number for {key}")))
            };
            match key {
                "b" => b = Some(number()?),
                "d" => d = Some(number()?),
                "seed" => seed = number()?,
                "model" => {
                    model = match value {
                        "iid" => Model::Iid,
                        "incremental" => Model::Incremental,
                        _ => return Err(ParseError::new(format!("unknown model `{value}`"))),
                    }
                }
                "path" => path = Some(value),
                _ => return Err(ParseError::new(format!("unknown key `{key}`"))),
            }
        }
        let need = |v: Option<u64>, k: &str| {
            v.and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| ParseError::new(format!("`{k}=` is missing or too large")))
        };
        let mut node = Self::new(TreeParams {
            b: need(b, "b")?,
            d: need(d, "d")?,
            seed,
            model,
        })?;
        for step in path_steps(path)? {
            let mv = node.parse_move(step)?;
            node.play(mv);
        }
        Ok(node)
    }
}

/// The `key=value` fields of a tree's position text (separated by spaces or commas), each
/// key at most once: a repeated key would silently take its last value.
pub(crate) fn tree_fields(text: &str) -> Result<Vec<(&str, &str)>, ParseError> {
    let mut fields: Vec<(&str, &str)> = Vec::new();
    for field in text.split([' ', ',']).filter(|f| !f.is_empty()) {
        let (key, value) = field
            .split_once('=')
            .ok_or_else(|| ParseError::new(format!("`{field}` is not key=value")))?;
        if let Some((_, first)) = fields.iter().find(|(k, _)| *k == key) {
            return Err(ParseError::new(format!(
                "`{key}` is given twice (`{key}={first}` and `{field}`)"
            )));
        }
        fields.push((key, value));
    }
    Ok(fields)
}

/// The child indices of `path=0.3.1` (none without a `path`), refusing an empty path or an
/// empty step (`0..1`, `.1`), which would otherwise be skipped and name another node.
pub(crate) fn path_steps(path: Option<&str>) -> Result<Vec<&str>, ParseError> {
    let Some(path) = path else {
        return Ok(Vec::new());
    };
    let steps: Vec<&str> = path.split('.').collect();
    if let Some(i) = steps.iter().position(|s| s.is_empty()) {
        return Err(ParseError::new(format!(
            "`path={path}`: step {} is empty (child indices separated by single dots; \
             the root has no path)",
            i + 1
        )));
    }
    Ok(steps)
}

impl fmt::Display for RandomTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.params;
        write!(f, "b={} d={} seed={} model={}", p.b, p.d, p.seed, p.model)
    }
}

fn level_key(seed: u64, level: u32) -> u64 {
    mix(seed ^ mix(u64::from(level) + 0x1_0000))
}

/// A keyed pseudo-random permutation of `0..n`: a four-round Feistel network on the
/// smallest power of two `>= n` (Luby and Rackoff), with cycle walking to stay below `n`
/// (Black and Rogaway 2002). Every output is distinct, so values never tie.
#[must_use]
pub fn permute(x: u64, n: u64, key: u64) -> u64 {
    debug_assert!(x < n);
    if n <= 1 {
        return 0;
    }
    let bits = 64 - (n - 1).leading_zeros();
    let mut y = x;
    loop {
        y = feistel(y, bits, key);
        if y < n {
            return y;
        }
    }
}

fn feistel(x: u64, bits: u32, key: u64) -> u64 {
    let low_bits = bits / 2;
    let high_bits = bits - low_bits;
    let mask = |w: u32| (1u64 << w) - 1;
    let (mut left, mut right) = (x >> low_bits, x & mask(low_bits));
    let (mut left_w, mut right_w) = (high_bits, low_bits);
    for round in 0..4u64 {
        let f = mix(right ^ key ^ round.wrapping_mul(0xA076_1D64_78BD_642F)) & mask(left_w);
        (left, right) = (right, left ^ f);
        (left_w, right_w) = (right_w, left_w);
    }
    (left << right_w) | right
}

/// The static evaluation of a synthetic tree: the node's own value.
#[derive(Clone, Copy, Debug, Default)]
pub struct TreeValue;

impl Evaluator<RandomTree> for TreeValue {
    fn evaluate(&self, pos: &RandomTree) -> Score {
        pos.value()
    }
}

/// Move orders an [`Oracle`] can impose.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OracleOrder {
    /// The best child first (by its true value), the others in generation order: Knuth and
    /// Moore's perfect ordering. Only the first move matters for the minimal tree: at a node
    /// where every move is searched the order is irrelevant, and at a node that is cut off the
    /// best move is a refutation.
    Perfect,
    /// Children in increasing order of their true value, worst first.
    Worst,
    /// A seeded random order, independent of the values.
    Random,
    /// The best child first with probability `p` (decided per node), otherwise a random order.
    BestFirst(f64),
}

/// Experiment files write `"perfect"`, `"worst"`, `"random"` or `{ best_first = p }`.
/// Written by hand because serde's derived enum reads an inline table's first key and
/// ignores the rest: `{ best_first = 0.5, typo = 1 }` must be refused, not half read.
impl<'de> serde::Deserialize<'de> for OracleOrder {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Order;
        impl<'de> serde::de::Visitor<'de> for Order {
            type Value = OracleOrder;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"perfect\", \"worst\", \"random\" or { best_first = p }")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<OracleOrder, E> {
                match v {
                    "perfect" => Ok(OracleOrder::Perfect),
                    "worst" => Ok(OracleOrder::Worst),
                    "random" => Ok(OracleOrder::Random),
                    _ => Err(E::unknown_variant(
                        v,
                        &["perfect", "worst", "random", "best_first"],
                    )),
                }
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<OracleOrder, A::Error> {
                use serde::de::Error;
                let mut p = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "best_first" if p.is_none() => p = Some(map.next_value::<f64>()?),
                        "best_first" => return Err(A::Error::duplicate_field("best_first")),
                        other => return Err(A::Error::unknown_field(other, &["best_first"])),
                    }
                }
                p.map(OracleOrder::BestFirst)
                    .ok_or_else(|| A::Error::missing_field("best_first"))
            }
        }
        d.deserialize_any(Order)
    }
}

impl fmt::Display for OracleOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Perfect => f.write_str("perfect"),
            Self::Worst => f.write_str("worst"),
            Self::Random => f.write_str("random"),
            Self::BestFirst(p) => write!(f, "best_first({p})"),
        }
    }
}

/// An evaluator that knows the true minimax values and hands them to the search as ordering
/// hints. The truth depends on the horizon (each iteration of iterative deepening searches
/// a different truncated tree), so answers are memoised per horizon. The memos are the only
/// stored state: they hold the nodes whose children were ordered, not the tree. The oracle's
/// own work is knowledge given to the search, and is not counted in the search's nodes.
#[derive(Debug)]
pub struct Oracle {
    order: OracleOrder,
    seed: u64,
    /// (horizon level, level, index) -> index of the best child.
    best: Mutex<HashMap<(u32, u32, u64), u32>>,
    /// (horizon level, level, index) -> true value for the side to move at that node.
    values: Mutex<HashMap<(u32, u32, u64), Score>>,
}

impl Oracle {
    /// An oracle imposing `order`; `seed` drives the random parts of the order.
    #[must_use]
    pub fn new(order: OracleOrder, seed: u64) -> Self {
        Self {
            order,
            seed,
            best: Mutex::new(HashMap::new()),
            values: Mutex::new(HashMap::new()),
        }
    }

    /// The true negamax value of `node` when the tree is cut at absolute level `horizon`.
    pub fn true_value(&self, node: &RandomTree, horizon: u32) -> Score {
        let key = (horizon, node.level, node.index);
        if let Some(&v) = self.values.lock().get(&key) {
            return v;
        }
        let v = solve(node, horizon, -INFINITY, INFINITY);
        self.values.lock().insert(key, v);
        v
    }

    /// The child of `node` with the best true value for the side to move (the first of equals),
    /// found by one alpha-beta search of `node` that proves the others no better.
    pub fn best_child(&self, node: &RandomTree, horizon: u32) -> u32 {
        let key = (horizon, node.level, node.index);
        if let Some(&c) = self.best.lock().get(&key) {
            return c;
        }
        let (mut best, mut best_value) = (0, -INFINITY);
        for c in 0..node.params.b {
            let mut child = *node;
            child.play(Child(c));
            let value = -solve(&child, horizon, -INFINITY, -best_value);
            if value > best_value {
                (best, best_value) = (c, value);
            }
        }
        self.best.lock().insert(key, best);
        best
    }

    fn coin(&self, node: &RandomTree, salt: u64) -> u64 {
        mix(self.seed ^ node.hash() ^ salt)
    }
}

/// Fail-soft alpha-beta in natural order, the oracle's own exact solver.
fn solve(node: &RandomTree, horizon: u32, mut alpha: Score, beta: Score) -> Score {
    if node.level == horizon || node.level == node.params.d {
        return node.value();
    }
    let mut best = -INFINITY;
    for c in 0..node.params.b {
        let mut child = *node;
        child.play(Child(c));
        let s = -solve(&child, horizon, -beta, -alpha);
        best = best.max(s);
        alpha = alpha.max(s);
        if s >= beta {
            break;
        }
    }
    best
}

impl Evaluator<RandomTree> for Oracle {
    fn evaluate(&self, pos: &RandomTree) -> Score {
        pos.value()
    }

    fn order_hint(&self, pos: &RandomTree, mv: Child, depth: u32) -> i32 {
        let mut child = *pos;
        child.play(mv);
        let horizon = pos.level + depth;
        // Random hints stay below i32::MAX, which marks the best child.
        let random = || (self.coin(&child, 1) >> 34) as i32;
        match self.order {
            OracleOrder::Perfect => i32::from(self.best_child(pos, horizon) == mv.0),
            OracleOrder::Worst => self.true_value(&child, horizon),
            OracleOrder::Random => random(),
            OracleOrder::BestFirst(p) => {
                let lucky = (self.coin(pos, 2) >> 11) as f64 / (1u64 << 53) as f64 <= p;
                if lucky && self.best_child(pos, horizon) == mv.0 {
                    i32::MAX
                } else {
                    random()
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(b: u32, d: u32, seed: u64, model: Model) -> RandomTree {
        RandomTree::new(TreeParams { b, d, seed, model }).unwrap()
    }

    #[test]
    fn permutation_is_a_bijection() {
        for n in [1u64, 2, 3, 7, 64, 100, 1000, 4097] {
            let mut seen: Vec<u64> = (0..n).map(|x| permute(x, n, 42 + n)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>(), "n = {n}");
        }
    }

    #[test]
    fn iid_leaf_values_are_all_distinct_and_centred() {
        let root = tree(3, 6, 7, Model::Iid);
        let mut values = Vec::new();
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            if node.level == 6 {
                values.push(node.value());
                continue;
            }
            for c in 0..3 {
                let mut child = node;
                child.play(Child(c));
                stack.push(child);
            }
        }
        values.sort_unstable();
        let n = 3i32.pow(6);
        assert_eq!(values, (-(n / 2)..n - n / 2).collect::<Vec<_>>());
    }

    #[test]
    fn seeds_give_different_trees_and_the_same_seed_the_same_tree() {
        let a = tree(4, 5, 1, Model::Iid);
        let b = tree(4, 5, 2, Model::Iid);
        let leaf = |t: RandomTree| {
            let mut n = t;
            for c in [1, 3, 0, 2, 2] {
                n.play(Child(c));
            }
            n.value()
        };
        assert_eq!(leaf(a), leaf(a));
        assert_ne!(leaf(a), leaf(b));
    }

    #[test]
    fn incremental_values_sum_the_path() {
        let root = tree(2, 3, 9, Model::Incremental);
        let mut n = root;
        let mut first_view = 0i64;
        for (level, c) in [(1u32, 1u32), (2, 0), (3, 1)] {
            n.play(Child(c));
            let edge = n.edge_value(level, n.index);
            first_view += if level % 2 == 1 { edge } else { -edge };
        }
        // Level 3: the second player is to move, who sees the negation.
        assert_eq!(n.value(), -(first_view as Score));
        assert_eq!(n.status(), Status::Over(Outcome::Points(n.value())));
    }

    #[test]
    fn oracle_value_equals_brute_force_minimax() {
        fn negamax(n: &RandomTree, horizon: u32) -> Score {
            if n.level == horizon {
                return n.value();
            }
            (0..n.params.b)
                .map(|c| {
                    let mut child = *n;
                    child.play(Child(c));
                    -negamax(&child, horizon)
                })
                .max()
                .unwrap()
        }
        for seed in 0..20 {
            for model in [Model::Iid, Model::Incremental] {
                let root = tree(3, 5, seed, model);
                let oracle = Oracle::new(OracleOrder::Perfect, 0);
                for horizon in 1..=5 {
                    let truth = negamax(&root, horizon);
                    assert_eq!(oracle.true_value(&root, horizon), truth);
                    let mut best = root;
                    best.play(Child(oracle.best_child(&root, horizon)));
                    assert_eq!(-negamax(&best, horizon), truth);
                }
            }
        }
    }

    #[test]
    fn positions_parse_and_refuse_bad_text() {
        let n = RandomTree::parse_position("b=3,d=4,seed=5,path=2.0").unwrap();
        assert_eq!((n.level, n.index), (2, 6));
        assert!(RandomTree::parse_position("b=3").is_err());
        assert!(RandomTree::parse_position("b=3 d=4 path=3").is_err());
        assert!(RandomTree::parse_position("b=64 d=10").is_err());
        assert!(RandomTree::parse_position("b=2 d=2 colour=red").is_err());
        assert!(RandomTree::parse_position("b=x d=2").is_err());
        let twice = RandomTree::parse_position("b=4,d=8,b=5")
            .unwrap_err()
            .to_string();
        assert!(
            twice.contains("`b` is given twice (`b=4` and `b=5`)"),
            "{twice}"
        );
        for empty in ["path=0..1", "path=.1", "path=1.", "path="] {
            let err = RandomTree::parse_position(&format!("b=3 d=4 {empty}"))
                .unwrap_err()
                .to_string();
            assert!(err.contains("is empty"), "{empty}: {err}");
        }
    }

    #[test]
    fn minimal_tree_formula_matches_knuth_and_moore() {
        assert_eq!(TreeParams::minimal_leaves(3, 3), 11);
        assert_eq!(TreeParams::minimal_leaves(2, 1), 2);
        assert_eq!(TreeParams::minimal_leaves(8, 8), 2 * 4096 - 1);
    }

    /// The limits of `validate` fall where its documentation puts them, each checked on
    /// both sides: b and d at least 1, d at most 60, b at most `MAX_BRANCHING`, and b^d at
    /// most 2^30 for an i.i.d. tree, within 64 bits for an incremental one.
    #[test]
    fn parameters_are_refused_exactly_beyond_their_limits() {
        use Model::{Iid, Incremental};
        let ok = |b, d, model| {
            TreeParams {
                b,
                d,
                seed: 0,
                model,
            }
            .validate()
            .is_ok()
        };
        assert!(ok(1, 1, Incremental) && !ok(0, 3, Incremental) && !ok(3, 0, Incremental));
        assert!(ok(1, 60, Incremental) && !ok(1, 61, Incremental));
        assert!(ok(MAX_BRANCHING, 1, Iid) && !ok(MAX_BRANCHING + 1, 1, Incremental));
        // 32^6 = 2^30 is the largest i.i.d. tree; 32^7 = 2^35 only an incremental one.
        assert!(ok(32, 6, Iid) && !ok(32, 7, Iid) && ok(32, 7, Incremental));
        // 8^21 = 2^63 fits in 64 bits, 16^16 = 2^64 does not.
        assert!(ok(8, 21, Incremental) && !ok(16, 16, Incremental));
    }

    /// A tree prints as the position text it is read from, each model under the name that
    /// `parse_position` reads, so the printed root reads back as the same tree.
    #[test]
    fn a_tree_prints_as_its_position_text() {
        for (model, name) in [(Model::Iid, "iid"), (Model::Incremental, "incremental")] {
            let root = tree(3, 4, 5, model);
            let text = root.to_string();
            assert_eq!(text, format!("b=3 d=4 seed=5 model={name}"));
            assert_eq!(RandomTree::parse_position(&text).unwrap(), root);
        }
    }

    /// `level` is the number of plies played from the root.
    #[test]
    fn level_counts_the_plies_from_the_root() {
        let mut node = tree(2, 5, 0, Model::Iid);
        for ply in 0..5 {
            assert_eq!(node.level(), ply);
            node.play(Child(1));
        }
        assert_eq!(node.level(), 5);
    }

    /// The incremental model's edge values, each read off as the change of a node's value
    /// from its parent's (seen by the first player, who adds the edges played from even
    /// levels and subtracts the others), are uniform in ±`EDGE_RANGE`: inside the range,
    /// centred, with the uniform's spread (range/√3), different on every edge of a tree
    /// (2^21 + 1 possible values, so hardly a repeat among 1364 edges), and another tree
    /// for every seed.
    #[test]
    fn incremental_edges_are_uniform_distinct_and_seeded() {
        fn edges(seed: u64) -> Vec<i64> {
            let first_view = |n: &RandomTree| {
                let v = i64::from(n.value());
                if n.level.is_multiple_of(2) { v } else { -v }
            };
            let mut out = Vec::new();
            let mut stack = vec![tree(4, 5, seed, Model::Incremental)];
            while let Some(node) = stack.pop() {
                for c in (0..4).take_while(|_| node.level < 5) {
                    let mut child = node;
                    child.play(Child(c));
                    let change = first_view(&child) - first_view(&node);
                    out.push(if node.level.is_multiple_of(2) {
                        change
                    } else {
                        -change
                    });
                    stack.push(child);
                }
            }
            out
        }
        let range = EDGE_RANGE as f64;
        let all = edges(3);
        assert_eq!(all.len(), 4 + 16 + 64 + 256 + 1024);
        assert!(all.iter().all(|e| e.abs() <= EDGE_RANGE));
        let n = all.len() as f64;
        let mean = all.iter().sum::<i64>() as f64 / n;
        let sd = (all.iter().map(|&e| (e as f64 - mean).powi(2)).sum::<f64>() / n).sqrt();
        // The mean of 1364 uniform values has a standard error of 0.016 range.
        assert!(mean.abs() < 0.1 * range, "mean {mean}");
        assert!((sd / range - 1.0 / 3f64.sqrt()).abs() < 0.05, "sd {sd}");
        let mut distinct = all.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(
            distinct.len() + 3 >= all.len(),
            "{} distinct",
            distinct.len()
        );
        let trees: Vec<Vec<i64>> = (0..16).map(edges).collect();
        for (i, a) in trees.iter().enumerate() {
            for (j, b) in trees.iter().enumerate().skip(i + 1) {
                assert_ne!(a, b, "seeds {i} and {j} give the same tree");
            }
        }
    }

    /// Every interior node lists its b children and a leaf (level d), which is over, lists
    /// none; `plies_played` counts the plies from the root and `remaining_plies` those left
    /// to the leaves, at every level.
    #[test]
    fn moves_and_plies_played_and_left_at_every_level() {
        let mut node = tree(3, 4, 1, Model::Iid);
        let mut moves = Vec::new();
        for ply in 0..4 {
            assert_eq!(node.plies_played(), ply);
            assert_eq!(node.remaining_plies(), Some(4 - ply));
            moves.clear();
            node.generate_moves(&mut moves);
            assert_eq!(moves, [Child(0), Child(1), Child(2)]);
            node.play(Child(2));
        }
        assert_eq!((node.plies_played(), node.remaining_plies()), (4, Some(0)));
        assert!(matches!(node.status(), Status::Over(_)));
        moves.clear();
        node.generate_moves(&mut moves);
        assert!(moves.is_empty());
    }

    /// Node hashes, which index the transposition table, are distinct and look uniform:
    /// over the 1093 nodes of a tree with b = 3, d = 6, each of the 64 bits is set in about
    /// half of them (a standard error of 1.5%).
    #[test]
    fn hashes_are_distinct_and_their_bits_balanced() {
        let mut hashes = Vec::new();
        let mut stack = vec![tree(3, 6, 11, Model::Iid)];
        while let Some(node) = stack.pop() {
            hashes.push(node.hash());
            for c in (0..3).take_while(|_| node.level < 6) {
                let mut child = node;
                child.play(Child(c));
                stack.push(child);
            }
        }
        assert_eq!(hashes.len(), 1093);
        for bit in 0..64 {
            let set = hashes.iter().filter(|h| (*h >> bit) & 1 == 1).count();
            let share = set as f64 / hashes.len() as f64;
            assert!((0.4..=0.6).contains(&share), "bit {bit} set in {share:.3}");
        }
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), 1093);
    }

    /// Move codes are unique among a node's moves, as the transposition table needs, for
    /// every branching factor allowed.
    #[test]
    fn move_codes_are_unique_up_to_the_largest_branching() {
        let mut codes: Vec<u16> = (0..MAX_BRANCHING)
            .map(|c| RandomTree::move_code(Child(c)))
            .collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), MAX_BRANCHING as usize);
    }

    /// The i.i.d. values of a level are a random permutation, not a scramble of nearby
    /// indices: the values of consecutive nodes differ on average by about a third of the
    /// level's size, as two independent uniform draws from it do (E|X − Y| = n/3).
    #[test]
    fn consecutive_nodes_have_unrelated_values() {
        for (b, level) in [(4u64, 6u32), (2, 11), (3, 7)] {
            let n = b.pow(level);
            let key = level_key(5, level);
            let gaps: u64 = (1..n)
                .map(|i| permute(i, n, key).abs_diff(permute(i - 1, n, key)))
                .sum();
            let mean = gaps as f64 / (n - 1) as f64;
            let ratio = mean / (n as f64 / 3.0);
            assert!((ratio - 1.0).abs() < 0.1, "n = {n}: mean gap {mean}");
        }
    }
}

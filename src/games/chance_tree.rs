//! Synthetic game trees with chance layers: the random trees of [`super::random_tree`] with
//! a chance node between every two player levels, for measuring what Ballard's *-minimax
//! pruning saves (Ballard 1983 measured Star1 and Star2 on such "regular" trees).
//!
//! Levels alternate: player nodes at even levels (branching `b`), chance nodes at odd
//! levels, whose outcomes are either `k` equally likely ones or the 21 distinct rolls of two
//! dice (the six doubles with weight 1, the fifteen others with weight 2, over 36). Nodes at
//! level `d` are terminal. Nothing is stored: a node is its level and its index among the
//! nodes of that level, and every node's static value, for its side to move, is drawn
//! uniformly from the declared `[lo, hi]` by hashing the seed, the level and the index
//! (i.i.d. values, as in Ballard's experiments). A chance node's side to move is the player
//! who moves after it, so the player levels alternate First, Second, First, ...

use std::fmt;

use crate::game::{Evaluator, Game, Notation, Outcome, ParseError, Player, Score, Status, Weight};
use crate::games::random_tree::{Child, MAX_BRANCHING, path_steps, tree_fields};
use crate::rng::mix;

/// The outcomes of the chance nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChanceKind {
    /// `k` equally likely outcomes (weight 1 each).
    Uniform(u32),
    /// The 21 distinct rolls of two dice, doubles 1/36 and the others 2/36.
    Dice,
}

impl ChanceKind {
    /// The number of outcomes.
    #[must_use]
    pub const fn outcomes(self) -> u32 {
        match self {
            Self::Uniform(k) => k,
            Self::Dice => 21,
        }
    }

    /// The weight of outcome `i`. Dice outcomes are the rolls `(a, b)` with `a <= b` in
    /// increasing order: (1,1), (1,2), ..., (1,6), (2,2), ...
    #[must_use]
    pub fn weight(self, i: u32) -> Weight {
        match self {
            Self::Uniform(_) => 1,
            Self::Dice => {
                let (a, b) = DICE[i as usize];
                if a == b { 1 } else { 2 }
            }
        }
    }
}

/// The 21 rolls in the order of the outcomes.
const DICE: [(u8, u8); 21] = {
    let mut out = [(0, 0); 21];
    let (mut a, mut i) = (1, 0);
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            out[i] = (a, b);
            i += 1;
            b += 1;
        }
        a += 1;
    }
    out
};

/// Experiment files write a number of equally likely outcomes or `"dice"`.
impl<'de> serde::Deserialize<'de> for ChanceKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Kind;
        impl serde::de::Visitor<'_> for Kind {
            type Value = ChanceKind;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number of equally likely outcomes (at least 1) or \"dice\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ChanceKind, E> {
                if v < 1 {
                    return Err(E::custom(format!("{v} outcomes: need at least 1")));
                }
                self.visit_u64(v.unsigned_abs())
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ChanceKind, E> {
                match u32::try_from(v) {
                    Ok(k) if k >= 1 => Ok(ChanceKind::Uniform(k)),
                    Ok(_) => Err(E::custom(format!("{v} outcomes: need at least 1"))),
                    // As the plan says of a count that fits (spec::chance_trees).
                    Err(_) => Err(E::custom(format!(
                        "{v} outcomes: at most {} (every chance node lists them)",
                        crate::games::random_tree::MAX_BRANCHING
                    ))),
                }
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ChanceKind, E> {
                if v == "dice" {
                    Ok(ChanceKind::Dice)
                } else {
                    Err(E::custom(format!("`{v}`: expected a number or \"dice\"")))
                }
            }
        }
        d.deserialize_any(Kind)
    }
}

impl fmt::Display for ChanceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Uniform(k) => write!(f, "{k}"),
            Self::Dice => f.write_str("dice"),
        }
    }
}

/// The shape, value range and seed of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChanceTreeParams {
    /// Moves at every player node.
    pub b: u32,
    /// Height in levels, chance levels included: nodes at level `d` are terminal.
    pub d: u32,
    /// The outcomes of every chance node.
    pub chance: ChanceKind,
    /// Smallest value of a node.
    pub lo: Score,
    /// Largest value of a node.
    pub hi: Score,
    /// Seed of every value.
    pub seed: u64,
}

impl ChanceTreeParams {
    /// Checks the parameters: `1 <= b, k <=` [`MAX_BRANCHING`], `1 <= d <= 40`,
    /// `lo <= hi` within ±10^9, and every level's node count within 2^62.
    pub fn validate(&self) -> Result<(), ParseError> {
        if self.b == 0 || self.d == 0 || self.chance.outcomes() == 0 {
            return Err(ParseError::new(
                "b, d and the chance outcomes must be at least 1",
            ));
        }
        // Every node lists its children (a chance node with their weights): a node of 2^32
        // outcomes asked for 32 GiB at once.
        if self.b.max(self.chance.outcomes()) > MAX_BRANCHING {
            return Err(ParseError::new(format!(
                "b and the chance outcomes must be at most {MAX_BRANCHING} (every node lists \
                 its children)"
            )));
        }
        if self.d > 40 {
            return Err(ParseError::new("d must be at most 40"));
        }
        if self.lo > self.hi || self.lo < -1_000_000_000 || self.hi > 1_000_000_000 {
            return Err(ParseError::new(format!(
                "lo={} hi={}: need lo <= hi within ±10^9",
                self.lo, self.hi
            )));
        }
        let mut size: u64 = 1;
        for level in 0..self.d {
            size = size
                .checked_mul(u64::from(self.branching(level)))
                .filter(|&s| s <= 1 << 62)
                .ok_or_else(|| ParseError::new("the tree has more than 2^62 nodes on a level"))?;
        }
        Ok(())
    }

    /// Children of a node at `level`: `b` at player levels, the outcomes at chance levels.
    #[must_use]
    pub const fn branching(&self, level: u32) -> u32 {
        if level.is_multiple_of(2) {
            self.b
        } else {
            self.chance.outcomes()
        }
    }
}

/// A node of a tree with chance layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChanceTree {
    params: ChanceTreeParams,
    level: u32,
    /// Index of the node among the nodes of its level, in path order.
    index: u64,
}

impl ChanceTree {
    /// The root of the tree described by `params`.
    pub fn new(params: ChanceTreeParams) -> Result<Self, ParseError> {
        params.validate()?;
        Ok(Self {
            params,
            level: 0,
            index: 0,
        })
    }

    /// The tree's parameters.
    #[must_use]
    pub const fn params(&self) -> ChanceTreeParams {
        self.params
    }

    /// The node's static value for its side to move, uniform in `[lo, hi]`.
    #[must_use]
    pub fn value(&self) -> Score {
        let p = self.params;
        let span = (i64::from(p.hi) - i64::from(p.lo) + 1) as u64;
        let h = mix(mix(p.seed ^ mix(u64::from(self.level) + 0xC4A2_CE00)) ^ self.index);
        (i64::from(p.lo) + (h % span) as i64) as Score
    }
}

impl Game for ChanceTree {
    type Move = Child;
    const NAME: &'static str = "chance_tree";
    /// A tree: every move goes one level down, so no node is reached twice on a path.
    const POSITIONS_REPEAT: bool = false;

    fn side_to_move(&self) -> Player {
        // Player level 2j is First's for even j; a chance node belongs to the next level.
        if self.level.div_ceil(2).is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn generate_moves(&self, out: &mut Vec<Child>) {
        if self.level < self.params.d && !self.is_chance() {
            out.extend((0..self.params.b).map(Child));
        }
    }

    fn play(&mut self, mv: Child) {
        let branching = self.params.branching(self.level);
        debug_assert!(mv.0 < branching && self.level < self.params.d);
        self.index = self.index * u64::from(branching) + u64::from(mv.0);
        self.level += 1;
    }

    fn status(&self) -> Status {
        if self.level == self.params.d {
            Status::Over(Outcome::Points(self.value()))
        } else {
            Status::Ongoing
        }
    }

    fn hash(&self) -> u64 {
        // The level's key and the index are mixed apart and added, so that no (level,
        // index) pair maps to another's key but by chance.
        let level_key = mix(self.params.seed ^ mix(u64::from(self.level) + 0xC4A2_CE01));
        mix(mix(self.index).wrapping_add(level_key))
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

    fn is_chance(&self) -> bool {
        self.level % 2 == 1 && self.level < self.params.d
    }

    fn chance_outcomes(&self, out: &mut Vec<(Child, Weight)>) {
        if self.is_chance() {
            let kind = self.params.chance;
            out.extend((0..kind.outcomes()).map(|i| (Child(i), kind.weight(i))));
        }
    }
}

impl Notation for ChanceTree {
    /// Reads `b=3 d=6 chance=dice lo=-100 hi=100 seed=1` (spaces or commas; `chance` is a
    /// number of equally likely outcomes or `dice`; `lo` and `hi` default to ±1000 and
    /// `seed` to 0), optionally followed by `path=0.3.1`, the child indices from the root.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let mut p = ChanceTreeParams {
            b: 0,
            d: 0,
            chance: ChanceKind::Uniform(0),
            lo: -1000,
            hi: 1000,
            seed: 0,
        };
        let mut path = None;
        let mut given = Vec::new();
        for (key, value) in tree_fields(text)? {
            given.push(key);
            let bad = || ParseError::new(format!("`{value}` is not a valid {key}"));
            match key {
                "b" => p.b = value.parse().map_err(|_| bad())?,
                "d" => p.d = value.parse().map_err(|_| bad())?,
                "seed" => p.seed = value.parse().map_err(|_| bad())?,
                "lo" => p.lo = value.parse().map_err(|_| bad())?,
                "hi" => p.hi = value.parse().map_err(|_| bad())?,
                "chance" if value == "dice" => p.chance = ChanceKind::Dice,
                "chance" => p.chance = ChanceKind::Uniform(value.parse().map_err(|_| bad())?),
                "path" => path = Some(value),
                _ => return Err(ParseError::new(format!("unknown key `{key}`"))),
            }
        }
        // Without them the tree is not named: b and d have no default, nor has `chance`.
        if let Some(key) = ["b", "d", "chance"].iter().find(|k| !given.contains(k)) {
            return Err(ParseError::new(format!(
                "`{key}=` is missing (a chance tree is `b=3,d=5,chance=dice` or `chance=K`)"
            )));
        }
        let mut node = Self::new(p)?;
        for step in path_steps(path)? {
            let index: u32 = step
                .parse()
                .map_err(|_| ParseError::new(format!("`{step}` is not a child index")))?;
            if node.level >= p.d || index >= p.branching(node.level) {
                return Err(ParseError::new(format!("no child {step} here")));
            }
            node.play(Child(index));
        }
        Ok(node)
    }
}

impl fmt::Display for ChanceTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.params;
        write!(
            f,
            "b={} d={} chance={} lo={} hi={} seed={}",
            p.b, p.d, p.chance, p.lo, p.hi, p.seed
        )
    }
}

/// The static evaluation of a tree with chance layers: the node's own value. Its bounds
/// are `[lo, hi]` widened to be symmetric about zero, since a player node's value is the
/// negation of its chance children's values (negamax).
#[derive(Clone, Copy, Debug, Default)]
pub struct ChanceTreeValue;

impl Evaluator<ChanceTree> for ChanceTreeValue {
    fn evaluate(&self, pos: &ChanceTree) -> Score {
        pos.value()
    }

    fn bounds(&self, root: &ChanceTree) -> Option<(Score, Score)> {
        let p = root.params;
        Some((p.lo.min(-p.hi), p.hi.max(-p.lo)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_weights_are_the_21_rolls_over_36() {
        let kind = ChanceKind::Dice;
        let total: u32 = (0..21).map(|i| kind.weight(i)).sum();
        assert_eq!(total, 36);
        assert_eq!((0..21).filter(|&i| kind.weight(i) == 1).count(), 6);
        assert_eq!(DICE[20], (6, 6));
    }

    #[test]
    fn levels_alternate_players_and_chance() {
        let mut n = ChanceTree::parse_position("b=2 d=5 chance=3 seed=4").unwrap();
        let mut sides = Vec::new();
        for _ in 0..5 {
            sides.push((n.side_to_move(), n.is_chance()));
            n.play(Child(1));
        }
        use Player::{First, Second};
        assert_eq!(
            sides,
            [
                (First, false),
                (Second, true),
                (Second, false),
                (First, true),
                (First, false)
            ]
        );
        assert!(matches!(n.status(), Status::Over(Outcome::Points(_))));
    }

    #[test]
    fn values_stay_in_range_and_bad_text_is_refused() {
        let root = ChanceTree::parse_position("b=3 d=4 chance=dice lo=-5 hi=7 seed=9").unwrap();
        let mut n = root;
        for c in [2, 20, 1, 5] {
            n.play(Child(c));
            assert!((-5..=7).contains(&n.value()));
        }
        assert_eq!(ChanceTreeValue.bounds(&root), Some((-7, 7)));
        for bad in [
            "b=3",
            "b=3 d=4 chance=x",
            "b=2 d=3 chance=2 lo=5 hi=1",
            "b=2 d=2 path=5",
            "b=2 d=3 chance=2 b=3",
            "b=2 d=3 chance=2 path=0..1",
            "b=2 d=3 chance=2 path=.1",
            "b=1 d=2 chance=4097",
            "b=4097 d=2 chance=2",
            "b=1 d=2 chance=4294967295",
        ] {
            assert!(ChanceTree::parse_position(bad).is_err(), "{bad}");
        }
        assert!(ChanceTree::parse_position("b=1 d=2 chance=4096").is_ok());
        // A missing key is named, not reported as a zero.
        let missing = ChanceTree::parse_position("b=3 d=5").unwrap_err();
        assert!(missing.0.contains("`chance=` is missing"), "{missing}");
    }
}

//! Technique settings as experiment files write them: words or numbers (`quiescence = 4`,
//! `quiescence = "unlimited"`, `null_move = "adaptive"`), each sweepable.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};

use crate::search::mcts::MctsAlgorithm;
use crate::search::{Algorithm, NullMove, Quiescence, Reduction};

/// `eval`: a named evaluation, chess's (`material`, `shannon`, `pst`) or backgammon's
/// (`pubeval`, `race`), or `"linear:<weights file>"`, a linear evaluation of chess, connect
/// four, checkers, othello or backgammon with the weights in that file
/// (`crate::games::linear`; the path is relative to the working directory). Tic-tac-toe and
/// the synthetic trees have one evaluator each and take none; spec.rs refuses a name that
/// is not the game's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalSetting {
    /// Material only: 1, 3, 3, 5, 9 pawns.
    Material,
    /// Shannon's 1950 evaluation: material, pawn structure, mobility (seed 004).
    Shannon,
    /// Material with PeSTO's tapered piece-square tables (the default).
    #[default]
    Pst,
    /// Backgammon: Tesauro's pubeval (the default there).
    Pubeval,
    /// Backgammon: the pip-count race evaluation (Keith counts once contact is over).
    Race,
    /// A linear evaluation with weights from a file, of the game the file names.
    Linear(crate::games::linear::LinearId),
}

impl<'de> serde::Deserialize<'de> for EvalSetting {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const NAMES: &[&str] = &[
            "material",
            "shannon",
            "pst",
            "pubeval",
            "race",
            "linear:<weights file>",
        ];
        let word = String::deserialize(d)?;
        Ok(match word.as_str() {
            "material" => Self::Material,
            "shannon" => Self::Shannon,
            "pst" => Self::Pst,
            "pubeval" => Self::Pubeval,
            "race" => Self::Race,
            w => match w.strip_prefix("linear:") {
                Some(path) => crate::games::linear::register(path)
                    .map(Self::Linear)
                    .map_err(de::Error::custom)?,
                None => return Err(de::Error::unknown_variant(w, NAMES)),
            },
        })
    }
}

impl fmt::Display for EvalSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Material => "material",
            Self::Shannon => "shannon",
            Self::Pst => "pst",
            Self::Pubeval => "pubeval",
            Self::Race => "race",
            Self::Linear(id) => return id.fmt(f),
        })
    }
}

/// `algorithm`: an alpha-beta family search or a Monte Carlo one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlgorithmSetting {
    /// Plain minimax.
    Minimax,
    /// Alpha-beta with the searcher's techniques.
    Alphabeta,
    /// Lazy SMP: alpha-beta on `threads` threads sharing the table.
    LazySmp,
    /// Young Brothers Wait: alpha-beta whose younger brothers go to `threads` threads.
    Ybw,
    /// UCT, one thread.
    Uct,
    /// Flat Monte Carlo: random playouts per root move, no tree.
    FlatMonteCarlo,
    /// Root-parallel UCT on `threads` threads.
    RootParallel,
    /// Tree-parallel UCT with virtual loss on `threads` threads, lock-free.
    TreeParallel,
    /// Tree-parallel UCT with virtual loss on `threads` threads, behind one lock.
    TreeParallelLocked,
    /// Expectiminimax over chance nodes (games with chance only).
    Expectiminimax,
    /// Ballard's Star1 (games with chance only).
    Star1,
    /// Ballard's Star2, Star1 with probing (games with chance only).
    Star2,
}

impl AlgorithmSetting {
    /// The alpha-beta family algorithm, or the Monte Carlo one.
    pub fn resolve(self) -> Result<Algorithm, MctsAlgorithm> {
        match self {
            Self::Minimax => Ok(Algorithm::Minimax),
            Self::Alphabeta => Ok(Algorithm::Alphabeta),
            Self::LazySmp => Ok(Algorithm::LazySmp),
            Self::Ybw => Ok(Algorithm::Ybw),
            Self::Uct => Err(MctsAlgorithm::Uct),
            Self::FlatMonteCarlo => Err(MctsAlgorithm::FlatMonteCarlo),
            Self::RootParallel => Err(MctsAlgorithm::RootParallel),
            Self::TreeParallel => Err(MctsAlgorithm::TreeParallel),
            Self::TreeParallelLocked => Err(MctsAlgorithm::TreeParallelLocked),
            Self::Expectiminimax => Ok(Algorithm::Expectiminimax),
            Self::Star1 => Ok(Algorithm::Star1),
            Self::Star2 => Ok(Algorithm::Star2),
        }
    }
}

impl fmt::Display for AlgorithmSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.resolve() {
            Ok(a) => a.fmt(f),
            Err(m) => m.fmt(f),
        }
    }
}

/// How a job's evaluator is chosen: the oracle on random trees (seeded), or the `eval` of
/// the searcher (a named or a linear evaluation) in the games that have several.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EvalChoice {
    /// Random trees: order by the oracle.
    pub oracle: Option<crate::games::random_tree::OracleOrder>,
    /// Which evaluation, where the game has several (its default where not chosen).
    pub named: EvalSetting,
    /// Seed of the oracle's random choices.
    pub seed: u64,
}

/// `quiescence`: `"off"`, `"unlimited"`, or the deepest quiescence ply (0 = stand pat only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuiescenceSetting {
    /// No quiescence search: the horizon takes the static evaluation.
    Off,
    /// Quiescence without a depth limit.
    Unlimited,
    /// Quiescence at most this many plies deep.
    Plies(u32),
}

impl QuiescenceSetting {
    /// The search configuration (checks and delta pruning are set separately).
    #[must_use]
    pub fn config(self) -> Option<Quiescence> {
        match self {
            Self::Off => None,
            Self::Unlimited => Some(Quiescence::default()),
            Self::Plies(p) => Some(Quiescence {
                max_depth: Some(p),
                ..Quiescence::default()
            }),
        }
    }
}

impl fmt::Display for QuiescenceSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Off => f.write_str("off"),
            Self::Unlimited => f.write_str("unlimited"),
            Self::Plies(p) => write!(f, "{p}"),
        }
    }
}

/// `null_move`: `"off"`, `"adaptive"` (R = 3 above 6 plies, else 2), or R in plies (1-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NullMoveSetting {
    /// No null-move pruning.
    Off,
    /// Heinz's adaptive reduction.
    Adaptive,
    /// A fixed reduction of R plies.
    Fixed(u32),
}

impl NullMoveSetting {
    /// The search configuration, with or without verification.
    #[must_use]
    pub fn config(self, verify: bool) -> Option<NullMove> {
        let reduction = match self {
            Self::Off => return None,
            Self::Adaptive => Reduction::Adaptive,
            Self::Fixed(r) => Reduction::Fixed(r),
        };
        Some(NullMove { reduction, verify })
    }
}

impl fmt::Display for NullMoveSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Off => f.write_str("off"),
            Self::Adaptive => f.write_str("adaptive"),
            Self::Fixed(r) => write!(f, "R{r}"),
        }
    }
}

impl std::str::FromStr for QuiescenceSetting {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "off" => Ok(Self::Off),
            "unlimited" => Ok(Self::Unlimited),
            _ => s
                .parse::<u32>()
                .ok()
                .filter(|&p| p <= 100)
                .map(Self::Plies)
                .ok_or_else(|| {
                    format!("`{s}`: expected off, unlimited or a number of plies (0-100)")
                }),
        }
    }
}

impl std::str::FromStr for NullMoveSetting {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "off" => Ok(Self::Off),
            "adaptive" => Ok(Self::Adaptive),
            // `R2` as searcher names print it, or the bare number.
            _ => s
                .strip_prefix(['R', 'r'])
                .unwrap_or(s)
                .parse::<u32>()
                .ok()
                .filter(|r| (1..=6).contains(r))
                .map(Self::Fixed)
                .ok_or_else(|| {
                    format!("`{s}`: expected off, adaptive or a reduction R of 1-6 plies (2 or R2)")
                }),
        }
    }
}

/// A visitor for "a word from a list, or a number in a range".
struct WordOrNumber<T> {
    expecting: &'static str,
    word: fn(&str) -> Option<T>,
    number: fn(u64) -> Option<T>,
}

impl<T> Visitor<'_> for WordOrNumber<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.word)(v).ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        (self.number)(v).ok_or_else(|| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        match u64::try_from(v) {
            Ok(u) => self.visit_u64(u),
            Err(_) => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
        }
    }
}

impl<'de> serde::Deserialize<'de> for QuiescenceSetting {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(WordOrNumber {
            expecting: "\"off\", \"unlimited\" or a number of plies (0-100)",
            word: |w| match w {
                "off" => Some(Self::Off),
                "unlimited" => Some(Self::Unlimited),
                _ => None,
            },
            number: |n| (n <= 100).then_some(Self::Plies(n as u32)),
        })
    }
}

impl<'de> serde::Deserialize<'de> for NullMoveSetting {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(WordOrNumber {
            expecting: "\"off\", \"adaptive\" or a reduction R of 1-6 plies (2 or \"R2\")",
            word: |w| w.parse().ok(),
            number: |n| (1..=6).contains(&n).then_some(Self::Fixed(n as u32)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::sweep::Sweep;

    #[derive(serde::Deserialize)]
    struct Doc {
        q: Sweep<QuiescenceSetting>,
        n: Sweep<NullMoveSetting>,
    }

    #[test]
    fn words_numbers_and_sweeps() {
        let doc: Doc = toml::from_str("q = ['off', 1, 4, 'unlimited']\nn = 'adaptive'").unwrap();
        assert_eq!(
            doc.q.values(),
            [
                QuiescenceSetting::Off,
                QuiescenceSetting::Plies(1),
                QuiescenceSetting::Plies(4),
                QuiescenceSetting::Unlimited
            ]
        );
        assert_eq!(doc.n.values(), [NullMoveSetting::Adaptive]);
        // A reduction as it is printed (`nullmove[null_move=R2]`) reads back.
        let doc: Doc = toml::from_str("q = 'off'\nn = ['R2', 3, 'r4']").unwrap();
        assert_eq!(
            doc.n.values(),
            [2, 3, 4].map(NullMoveSetting::Fixed),
            "R2, 3 and r4"
        );
        assert_eq!(
            "R2".parse::<NullMoveSetting>(),
            Ok(NullMoveSetting::Fixed(2))
        );
        assert!("R9".parse::<NullMoveSetting>().is_err());
        for bad in [
            "q = 'some'\nn = 2",
            "q = -1\nn = 2",
            "q = 1\nn = 9",
            "q = 1\nn = 'on'",
            "q = 1\nn = 'R7'",
        ] {
            let err = toml::from_str::<Doc>(bad).err().expect(bad);
            assert!(err.span().is_some(), "{bad}: {err}");
        }
    }
}

//! Linear evaluations: a weighted sum of named features, with the weights in a readable TOML
//! file (seed 003, "linear evaluation functions": `Eval(s) = w1·f1(s) + … + wn·fn(s)`, "pick
//! or learn good weights"). `plylab learn` fits the weights (see `crate::learn`); any
//! experiment or arena file names a weights file as `eval = "linear:weights/chess-texel.toml"`.
//!
//! A weights file:
//!
//! ```toml
//! game = "chess"        # which game's features
//! features = 64         # how many weights follow (checked)
//! [weights]
//! pawn_mg = 100.0       # one line per feature name, a finite number
//! pawn_eg = 100.0
//! # ...
//! ```
//!
//! Loading checks the game, the count, that every feature is present exactly once, that no
//! unknown name appears, and that every value is finite and of sane size; any failure is a
//! [`WeightsError`] naming the file and line.
//!
//! Inside a search the evaluators ([`chess::ChessLinear`], [`connect4::Connect4Linear`],
//! [`checkers::CheckersLinear`], [`othello::OthelloLinear`]) hold the weights as fixed-point
//! integers in arrays: evaluation is integer arithmetic over bitboard counts, with no
//! allocation. The backgammon one ([`backgammon::BackgammonLinear`]) holds `f32` arrays and
//! computes as Tesauro's pubeval does.

pub mod backgammon;
pub mod checkers;
pub mod chess;
pub mod connect4;
pub mod othello;

use std::collections::BTreeMap;
use std::fmt;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use crate::game::{Score, score};

/// Fixed-point scale of weights inside the evaluators: a weight of 1.0 is stored as 64, so
/// learned weights keep 1/64 of their unit.
pub const FIXED: i64 = 64;

/// The largest weight magnitude a file may hold (keeps the integer sums far from overflow).
pub const MAX_WEIGHT: f64 = 100_000.0;

/// A weight in fixed point ([`FIXED`]), rounded to nearest.
#[must_use]
pub fn to_fixed(w: f64) -> i32 {
    (w * FIXED as f64).round() as i32
}

/// Tapered weights in file order (`<feature>_mg`, `<feature>_eg` for each feature) as two
/// fixed-point arrays, the middlegame (opening) weights and the endgame (ending) ones.
///
/// # Panics
/// If `weights` does not hold `2 · N` values.
#[must_use]
pub fn phase_weights<const N: usize>(weights: &[f64]) -> ([i32; N], [i32; N]) {
    assert_eq!(weights.len(), 2 * N, "tapered weights");
    let (mut mg, mut eg) = ([0; N], [0; N]);
    for i in 0..N {
        mg[i] = to_fixed(weights[2 * i]);
        eg[i] = to_fixed(weights[2 * i + 1]);
    }
    (mg, eg)
}

/// A heuristic value clamped strictly inside `±DECISIVE`.
#[must_use]
pub fn clamp_score(v: i64) -> Score {
    let limit = i64::from(score::DECISIVE - 1);
    v.clamp(-limit, limit) as Score
}

/// The games with a linear evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinearKind {
    /// Chess: material, piece placement, mobility, pawn structure, king safety by phase.
    Chess,
    /// Connect four: line counts, threats and their parity.
    Connect4,
    /// Checkers: Samuel's terms, mobility, runaways.
    Checkers,
    /// Othello: mobility, frontier, corners, X- and C-squares, discs, edges, stable discs by
    /// phase.
    Othello,
    /// Backgammon: pubeval's race and contact inputs.
    Backgammon,
}

impl LinearKind {
    /// The game's name as experiment files write it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Chess => "chess",
            Self::Connect4 => "connect4",
            Self::Checkers => "checkers",
            Self::Othello => "othello",
            Self::Backgammon => "backgammon",
        }
    }

    /// The kind named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "chess" => Some(Self::Chess),
            "connect4" => Some(Self::Connect4),
            "checkers" => Some(Self::Checkers),
            "othello" => Some(Self::Othello),
            "backgammon" => Some(Self::Backgammon),
            _ => None,
        }
    }

    /// The weight names, in file order.
    #[must_use]
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Self::Chess => &chess::WEIGHT_NAMES,
            Self::Connect4 => &connect4::WEIGHT_NAMES,
            Self::Checkers => &checkers::WEIGHT_NAMES,
            Self::Othello => &othello::WEIGHT_NAMES,
            Self::Backgammon => &backgammon::WEIGHT_NAMES,
        }
    }

    /// Decimals a weights file keeps: two, and five for backgammon, whose weights are
    /// pubeval's (published to five decimals, of order 1).
    #[must_use]
    pub const fn decimals(self) -> usize {
        match self {
            Self::Backgammon => 5,
            _ => 2,
        }
    }
}

impl fmt::Display for LinearKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bad weights file: the message names the file and, where known, the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WeightsError {}

/// Weights read from a file: the game and one value per name of [`LinearKind::names`], in
/// that order.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Whose features.
    pub kind: LinearKind,
    /// One value per feature name.
    pub values: Vec<f64>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    game: toml::Spanned<String>,
    features: toml::Spanned<i64>,
    weights: toml::Spanned<BTreeMap<String, toml::Spanned<f64>>>,
    /// Free-form facts about how the weights were made (method, seed, data): read as a table
    /// and otherwise not checked, nor used.
    #[serde(default, rename = "learned")]
    _learned: Option<toml::Table>,
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Reads and checks a weights file. `expected`, if given, is the game the weights must be for.
///
/// # Errors
/// [`WeightsError`] naming the file (and line): unreadable, not TOML, unknown game, a count
/// that is not the number of entries or not the game's number of features, a missing or
/// unknown feature, a value that is not finite or larger than [`MAX_WEIGHT`].
pub fn read_weights(path: &Path, expected: Option<LinearKind>) -> Result<Weights, WeightsError> {
    let file = path.display();
    let text = crate::input::read_text(path, crate::input::Cap::TEXT)
        .map_err(|e| WeightsError(format!("cannot read weights file {file}: {e}")))?;
    parse_weights(&text, &file.to_string(), expected)
}

/// [`read_weights`] on text already read; `file` names it in messages.
///
/// # Errors
/// As [`read_weights`].
pub fn parse_weights(
    text: &str,
    file: &str,
    expected: Option<LinearKind>,
) -> Result<Weights, WeightsError> {
    let at = |span: std::ops::Range<usize>, msg: String| {
        WeightsError(format!("{file}:{}: {msg}", line_of(text, span.start)))
    };
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(0, |s| line_of(text, s.start));
        WeightsError(format!("{file}:{line}: {}", e.message()))
    })?;
    let kind = LinearKind::from_name(raw.game.get_ref()).ok_or_else(|| {
        at(
            raw.game.span(),
            format!(
                "key `game`: `{}` has no linear evaluation (expected chess, connect4, checkers, othello or backgammon)",
                raw.game.get_ref()
            ),
        )
    })?;
    if let Some(want) = expected
        && want != kind
    {
        return Err(at(
            raw.game.span(),
            format!("key `game`: these are {kind} weights, not {want} weights"),
        ));
    }
    let names = kind.names();
    let declared = *raw.features.get_ref();
    let entries = raw.weights.get_ref();
    if declared != names.len() as i64 {
        return Err(at(
            raw.features.span(),
            format!(
                "key `features`: {kind} has {} features, the file declares {declared}",
                names.len()
            ),
        ));
    }
    if let Some((name, v)) = entries.iter().find(|(n, _)| !names.contains(&n.as_str())) {
        return Err(at(
            v.span(),
            format!("[weights]: `{name}` is not a {kind} feature"),
        ));
    }
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !entries.contains_key(*n))
        .collect();
    if !missing.is_empty() {
        return Err(at(
            raw.weights.span(),
            format!(
                "[weights]: {} of the {declared} features missing: `{}`",
                missing.len(),
                missing.join("`, `")
            ),
        ));
    }
    let mut values = Vec::with_capacity(names.len());
    for &name in names {
        let Some(v) = entries.get(name) else {
            continue; // checked above
        };
        let x = *v.get_ref();
        if !x.is_finite() || x.abs() > MAX_WEIGHT {
            return Err(at(
                v.span(),
                format!(
                    "[weights]: `{name}` = {x:?}: weights must be finite numbers of magnitude at most {MAX_WEIGHT}"
                ),
            ));
        }
        values.push(x);
    }
    Ok(Weights { kind, values })
}

/// The text of a weights file: `header` lines as comments, the values at two decimals, the
/// `learned` facts (key, value) as a table. The same values give the same bytes.
#[must_use]
pub fn format_weights(weights: &Weights, header: &str, learned: &[(&str, String)]) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "game = \"{}\"", weights.kind);
    let _ = writeln!(out, "features = {}", weights.values.len());
    if !learned.is_empty() {
        out.push_str("\n[learned]\n");
        for (k, v) in learned {
            let _ = writeln!(out, "{k} = {v:?}");
        }
    }
    out.push_str("\n[weights]\n");
    let decimals = weights.kind.decimals();
    let scale = 10f64.powi(decimals as i32);
    for (name, v) in weights.kind.names().iter().zip(&weights.values) {
        // Two decimals (five for backgammon), and never "-0.00".
        let v = (v * scale).round() / scale + 0.0;
        let _ = writeln!(out, "{name} = {v:.decimals$}");
    }
    out
}

/// A handle on weights loaded for an experiment file ([`register`]): small and `Copy`, so
/// that evaluation choices stay plain values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LinearId(u32);

/// Weights loaded once per file, with their evaluators.
#[derive(Debug)]
pub struct Loaded {
    /// The file as written in the experiment file.
    pub path: String,
    /// The weights.
    pub weights: Weights,
    /// The chess evaluator, for chess weights.
    pub chess: Option<chess::ChessLinear>,
    /// The connect-four evaluator, for connect-four weights.
    pub connect4: Option<connect4::Connect4Linear>,
    /// The checkers evaluator, for checkers weights.
    pub checkers: Option<checkers::CheckersLinear>,
    /// The Othello evaluator, for Othello weights.
    pub othello: Option<othello::OthelloLinear>,
    /// The backgammon evaluator, for backgammon weights.
    pub backgammon: Option<backgammon::BackgammonLinear>,
}

fn registry() -> &'static Mutex<Vec<&'static Loaded>> {
    static REGISTRY: OnceLock<Mutex<Vec<&'static Loaded>>> = OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(Vec::new()))
}

/// Loads the weights file `path` (relative to the working directory) once per process and
/// returns its handle; a second call with the same path returns the same handle.
///
/// # Errors
/// [`WeightsError`] as [`read_weights`].
pub fn register(path: &str) -> Result<LinearId, WeightsError> {
    let mut reg = registry()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(i) = reg.iter().position(|l| l.path == path) {
        return Ok(LinearId(i as u32));
    }
    let weights = read_weights(Path::new(path), None)?;
    let loaded = Loaded {
        path: path.to_string(),
        chess: (weights.kind == LinearKind::Chess)
            .then(|| chess::ChessLinear::from_weights(&weights.values)),
        connect4: (weights.kind == LinearKind::Connect4)
            .then(|| connect4::Connect4Linear::from_weights(&weights.values)),
        checkers: (weights.kind == LinearKind::Checkers)
            .then(|| checkers::CheckersLinear::from_weights(&weights.values)),
        othello: (weights.kind == LinearKind::Othello)
            .then(|| othello::OthelloLinear::from_weights(&weights.values)),
        backgammon: (weights.kind == LinearKind::Backgammon)
            .then(|| backgammon::BackgammonLinear::from_weights(&weights.values)),
        weights,
    };
    reg.push(Box::leak(Box::new(loaded)));
    Ok(LinearId(reg.len() as u32 - 1))
}

impl LinearId {
    /// The loaded weights.
    ///
    /// # Panics
    /// Never for a handle from [`register`].
    #[must_use]
    pub fn get(self) -> &'static Loaded {
        let reg = registry()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        reg[self.0 as usize]
    }

    /// Whose weights these are.
    #[must_use]
    pub fn kind(self) -> LinearKind {
        self.get().weights.kind
    }
}

impl fmt::Display for LinearId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "linear:{}", self.get().path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess_file(edit: impl Fn(&mut Vec<String>)) -> String {
        let w = Weights {
            kind: LinearKind::Chess,
            values: chess::MATERIAL_WEIGHTS.to_vec(),
        };
        let mut lines: Vec<String> = format_weights(&w, "test", &[])
            .lines()
            .map(String::from)
            .collect();
        edit(&mut lines);
        lines.join("\n")
    }

    fn err(text: &str) -> String {
        parse_weights(text, "w.toml", Some(LinearKind::Chess))
            .expect_err(text)
            .0
    }

    #[test]
    fn round_trip_and_bad_files() {
        let text = chess_file(|_| {});
        let w = parse_weights(&text, "w.toml", None).unwrap();
        assert_eq!(w.values, chess::MATERIAL_WEIGHTS.to_vec());
        // A missing feature, and a wrong count.
        let e = err(&chess_file(|l| l.retain(|x| !x.starts_with("tempo_eg"))));
        assert!(e.contains("missing: `tempo_eg`"), "{e}");
        let e = err(&chess_file(|l| {
            l.iter_mut()
                .filter(|x| x.starts_with("features"))
                .for_each(|x| *x = "features = 65".into());
        }));
        assert!(e.contains("w.toml:") && e.contains("declares 65"), "{e}");
        let e = err(&chess_file(|l| {
            l.iter_mut()
                .filter(|x| x.starts_with("tempo_eg"))
                .for_each(|x| *x = "tempo_egg = 1".into());
        }));
        assert!(e.contains("`tempo_egg` is not a chess feature"), "{e}");
        let e = err(&chess_file(|l| {
            l.iter_mut()
                .filter(|x| x.starts_with("pawn_mg"))
                .for_each(|x| *x = "pawn_mg = nan".into());
        }));
        let line = text.lines().position(|x| x.starts_with("pawn_mg")).unwrap() + 1;
        assert!(e.starts_with(&format!("w.toml:{line}:")), "{e}");
        assert!(e.contains("NaN"), "{e}");
        let e = err(&chess_file(|l| {
            l.iter_mut()
                .filter(|x| x.starts_with("game"))
                .for_each(|x| *x = "game = \"connect4\"".into());
        }));
        assert!(e.contains("not chess weights"), "{e}");
        let e = err("game = \"go\"\nfeatures = 1\n[weights]\nx = 1\n");
        assert!(e.contains("w.toml:1:") && e.contains("`go`"), "{e}");
        let e = err("game = \"chess\"\n[weights]\n");
        assert!(e.contains("features"), "{e}");
    }
}

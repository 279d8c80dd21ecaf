//! Every key the experiment, arena and learning files accept is documented: README.md
//! promises that EXPERIMENTS.md "documents every key of an experiment file". The keys are
//! the parsers' own (serde lists them when it refuses an unknown one), so a key added to a
//! parser without a word in EXPERIMENTS.md fails here.

use plylab::arena::engine::EngineSpec;
use plylab::arena::gnubg::GnubgSpec;
use plylab::arena::gtp::GtpSpec;
use plylab::arena::spec::{
    AdjudicateSpec, ArenaFile, DrawAdjudicationSpec, MatchSpec, OpeningsSpec,
    ResignAdjudicationSpec, SprtSpec,
};
use plylab::lab::spec::{
    ExperimentFile, GameSpec, LimitsSpec, OrderingSpec, ReferenceSpec, SearcherSpec,
};
use plylab::learn::selfplay::SelfPlay;
use plylab::learn::{LearnSpec, TdSettings, TexelSettings};

/// A key no parser accepts.
const UNKNOWN: &str = "no_such_key_anywhere";

/// The keys `T` accepts, from serde's refusal of an unknown one ("unknown field `x`,
/// expected one of `a`, `b`" or "expected `a`").
fn accepted_keys<T: serde::de::DeserializeOwned>(table: &str) -> Vec<String> {
    let text = format!("{UNKNOWN} = 1\n");
    let message = match toml::from_str::<T>(&text) {
        Ok(_) => panic!("{table}: `{UNKNOWN}` was accepted"),
        Err(e) => e.to_string(),
    };
    let expected = message
        .split_once("expected ")
        .unwrap_or_else(|| panic!("{table}: no list of keys in {message:?}"))
        .1;
    let keys: Vec<String> = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    assert!(!keys.is_empty(), "{table}: no keys in {message:?}");
    keys
}

/// A table's name and the keys its parser `T` accepts.
fn table<T: serde::de::DeserializeOwned>(name: &'static str) -> (&'static str, Vec<String>) {
    (name, accepted_keys::<T>(name))
}

/// Whether some `code span` of `doc` names `key` as a key: the key alone (`depth`), an
/// assignment to it anywhere in the span (`depth = 4`, `{ movecount = C }`), or a dotted
/// path or table header ending in it (`ordering.threats`, `[match.sprt]`); not merely a
/// word of other text, so that a new key which is an ordinary word (`seed`, `name`) is not
/// taken as documented by a span that only uses the word.
fn documented(doc: &str, key: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    doc.split('`').skip(1).step_by(2).any(|span| {
        let span = span.trim();
        let path = span.trim_start_matches('[').trim_end_matches(']');
        let is_path = path.chars().all(|c| is_word(c) || c == '.');
        let header_or_dotted = span.starts_with('[') || path.contains('.');
        span == key
            || (is_path && header_or_dotted && path.rsplit('.').next() == Some(key))
            || span.match_indices(key).any(|(at, _)| {
                let before = span[..at].chars().next_back();
                let after = span[at + key.len()..].trim_start();
                !before.is_some_and(is_word) && after.starts_with('=') && !after.starts_with("==")
            })
    })
}

#[test]
fn every_key_the_parsers_accept_is_in_experiments_md() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/EXPERIMENTS.md"))
        .expect("EXPERIMENTS.md");
    let tables = [
        table::<ExperimentFile>("experiment file"),
        table::<LimitsSpec>("limits"),
        table::<GameSpec>("[[games]]"),
        table::<SearcherSpec>("[[searchers]]"),
        table::<OrderingSpec>("ordering"),
        table::<ReferenceSpec>("[[references]]"),
        table::<ArenaFile>("arena file"),
        table::<MatchSpec>("[match]"),
        table::<OpeningsSpec>("openings"),
        table::<AdjudicateSpec>("adjudicate"),
        table::<DrawAdjudicationSpec>("draw_adjudication"),
        table::<ResignAdjudicationSpec>("resign_adjudication"),
        table::<SprtSpec>("[match.sprt]"),
        table::<EngineSpec>("engine (UCI, xboard)"),
        table::<GtpSpec>("engine (GTP)"),
        table::<GnubgSpec>("engine (gnubg)"),
        table::<LearnSpec>("learning file"),
        table::<SelfPlay>("[self_play]"),
        table::<TexelSettings>("[texel]"),
        table::<TdSettings>("[td]"),
    ];
    let missing: Vec<String> = tables
        .iter()
        .flat_map(|(table, keys)| {
            keys.iter()
                .filter(|key| !documented(&doc, key))
                .map(move |key| format!("{table}: `{key}`"))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "accepted but not in EXPERIMENTS.md: {}",
        missing.join(", ")
    );
    // The searcher keys are the most numerous: the list read back is the whole struct's.
    let searcher = &tables[3].1;
    for key in [
        "label",
        "algorithm",
        "tt_mb",
        "ordering",
        "secondary_margin",
        "limits",
    ] {
        assert!(
            searcher.iter().any(|k| k == key),
            "{key} not among {searcher:?}"
        );
    }
}

#[test]
fn a_key_missing_from_the_document_is_found() {
    let doc = "| `tt_mb` | ... `{ movenumber = N, movecount = C }` and `ordering.threats` |";
    for key in ["tt_mb", "movenumber", "movecount", "threats"] {
        assert!(documented(doc, key), "{key}");
    }
    // Parts of a key, words outside spans, and a dotted path's head are not keys.
    for key in ["tt", "mb", "threat", "no_such_key", "and", "ordering", "N"] {
        assert!(!documented(doc, key), "{key}");
    }
    let doc =
        "the `seed` of a `name = \"x\"` line; `[match.sprt]`, `[[games]]`, `a.b c` and `x == y`";
    for key in ["seed", "name", "sprt", "games"] {
        assert!(documented(doc, key), "{key}");
    }
    for key in ["of", "line", "x", "y", "match", "a", "b", "c"] {
        assert!(!documented(doc, key), "{key}");
    }
}

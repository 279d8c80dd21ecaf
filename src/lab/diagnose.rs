//! Error messages in the words of EXPERIMENTS.md instead of Rust's and serde's.
//!
//! The TOML parser and serde describe a mistake in terms of Rust types (`expected usize`),
//! of serde's internals (`$__toml_private_datetime`) and of positional structs
//! (`invalid length 1, expected struct LimitsSpec with 3 elements`). The helpers here turn
//! such messages into what a user of the experiment files can act on, and suggest the
//! nearest valid key or value ("did you mean"). Files are read, within their size cap and with
//! invalid UTF-8 located, by [`crate::input`]. spec.rs calls these where its errors are built.

use super::spec::{Job, ReferenceSpec, SearcherSpec, Source, SpecError};

/// The candidate nearest to `word` by edit distance, if it is near enough to be a typo:
/// half the word's letters rounded down, but at least 1 and at most 2 edits (so `x`
/// may suggest `y` or `xy`, but nothing longer, and `abcd` may suggest `abxy`).
/// Two edits count as a typo only when the first letter is right (`games` is not `name`),
/// and of equally near candidates the one sharing the longest start with `word` wins
/// (`game` suggests `games`, not `name`).
#[must_use]
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (word.chars().count() / 2).clamp(1, 2);
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), common_start(word, c), c))
        .filter(|&(d, start, c)| d <= limit && c != word && (d < 2 || start > 0))
        .min_by_key(|&(d, start, _)| (d, std::cmp::Reverse(start)))
        .map(|(_, _, c)| c)
}

/// How many leading characters `a` and `b` share.
fn common_start(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// The first `shown` of `items` joined by `separator`, then how many more there are
/// (`a; b; c; and 4 more`): a message names a few of many rows without flooding the
/// terminal.
#[must_use]
pub fn first_few(items: &[String], shown: usize, separator: &str) -> String {
    let mut text = items[..items.len().min(shown)].join(separator);
    if items.len() > shown {
        text.push_str(&format!("{separator}and {} more", items.len() - shown));
    }
    text
}

/// `"; did you mean `x`?"` for [`did_you_mean`]'s answer, or nothing.
#[must_use]
pub fn suggestion<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(word, candidates).map_or_else(String::new, |c| format!("; did you mean `{c}`?"))
}

/// Edit distance between two short strings, by characters: insertions, deletions,
/// substitutions and transpositions of neighbours each count one (the optimal string
/// alignment distance), so `pts` is one edit from `pst`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: distance between a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// What each Rust type in a serde message means in an experiment file.
const TYPE_WORDS: &[(&str, &str)] = &[
    ("expected usize", "expected a whole number ≥ 0"),
    ("expected u64", "expected a whole number ≥ 0"),
    (
        "expected u32",
        "expected a whole number from 0 to 4294967295",
    ),
    ("expected u16", "expected a whole number from 0 to 65535"),
    ("expected u8", "expected a whole number from 0 to 255"),
    ("expected i64", "expected a whole number"),
    (
        "expected i32",
        "expected a whole number from -2147483648 to 2147483647",
    ),
    ("expected f64", "expected a number"),
    ("expected f32", "expected a number"),
    ("expected a boolean", "expected a boolean (true or false)"),
    ("invalid type: sequence", "invalid type: a list"),
    ("expected a sequence", "expected a list"),
    ("expected a string", "expected a text in quotes"),
];

/// A TOML or serde message about the value written at `value` (the text from the error's
/// span on), in the words of EXPERIMENTS.md, with a suggestion for an unknown key or word.
#[must_use]
pub fn user_words(message: &str, value: &str) -> String {
    let mut out = message.trim().to_owned();
    // A TOML date-time reaches serde as a map with one private key.
    if looks_like_datetime(value) {
        out = out.replace("invalid type: map", "invalid type: a date-time");
    } else {
        out = out.replace("invalid type: map", "invalid type: a table");
    }
    out = out.replace("$__toml_private_datetime", "a date-time");
    out = out_of_range_words(&out);
    for (rust, words) in TYPE_WORDS {
        out = out.replace(rust, words);
    }
    out = table_words(&out);
    if let Some(len) = positional_struct(&out) {
        out = format!(
            "a list of {len} value(s) where a table is expected; write it with names, e.g. \
             {{ depth = 6, nodes = 100000, time_ms = 1000 }}"
        );
    }
    out + &unknown_word_suggestion(message)
}

/// An integer beyond what the reader holds (serde writes it `as i128`; a key may hold up
/// to 18446744073709551615, so "too large for TOML" would be wrong) and a float beyond
/// f64, in words that say the value is out of range.
fn out_of_range_words(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("invalid type: integer ")
        && let Some((number, tail)) = rest.split_once(" as i128")
    {
        return format!("out of range: integer {number}{tail}");
    }
    message.replace(
        "floating-point number overflowed",
        "out of range: a number beyond 1.8e308 (the largest floating-point number)",
    )
}

/// `invalid type: string "x", expected struct OrderingSpec`: a Rust struct is a table in
/// an experiment file (a positional-struct message is left for [`positional_struct`]).
fn table_words(message: &str) -> String {
    match message.split_once("expected struct ") {
        Some((head, tail)) if message.starts_with("invalid type") => {
            let rest = tail.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
            format!("{head}expected a table {{ key = value, ... }}{rest}")
        }
        _ => message.to_owned(),
    }
}

/// `invalid length N, expected struct X with M elements`: a list given for a table.
fn positional_struct(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("invalid length ")?;
    let (len, tail) = rest.split_once(',')?;
    tail.contains("expected struct").then_some(len)
}

/// For serde's `unknown field `x`, expected one of `a`, `b`` (and `unknown variant`), and
/// for a value refused with `invalid value: string "x", expected "a", "b" or ...`, the
/// nearest expected name, if any is close.
fn unknown_word_suggestion(message: &str) -> String {
    if let Some(rest) = message
        .strip_prefix("unknown field `")
        .or_else(|| message.strip_prefix("unknown variant `"))
    {
        let Some((word, expected)) = rest.split_once('`') else {
            return String::new();
        };
        let candidates = expected.split('`').skip(1).step_by(2);
        return suggestion(word, candidates);
    }
    let Some(rest) = message.strip_prefix("invalid value: string \"") else {
        return String::new();
    };
    let Some((word, expected)) = rest.split_once("\", expected ") else {
        return String::new();
    };
    // The quoted words of the expectation: `"off", "unlimited" or a number` gives off, unlimited.
    let candidates = expected.split('"').skip(1).step_by(2);
    suggestion(word, candidates)
}

/// Whether `value` starts like a TOML date or time (`1979-05-27`, `07:32:00`).
fn looks_like_datetime(value: &str) -> bool {
    let b = value.trim_start().as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    (digits(0..4) && b.get(4) == Some(&b'-')) || (digits(0..2) && b.get(2) == Some(&b':'))
}

/// The key assigned just before byte `at` of a TOML text (`depth` in
/// `limits = { depth = x }` for an error at `x`), if the value starts on that key's line.
#[must_use]
pub fn key_before(text: &str, at: usize) -> Option<String> {
    let at = floor_char_boundary(text, at);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    let eq = before.trim_end().strip_suffix('=')?;
    let key: String = eq
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '"' | '.'))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let key = key.trim_matches('"');
    (!key.is_empty()).then(|| key.to_owned())
}

/// Where `key` is assigned in the table entry (`[[searchers]]`, `[[games]]`) that holds
/// byte `at`: as a line of its own, dotted (`ordering.tt_move = true`) or in an inline
/// table (`ordering = { tt_move = true }`), sub-tables of the entry (`[searchers.limits]`)
/// included. `None` when the entry does not assign it (a key left to its default).
pub fn key_in_entry(text: &str, at: usize, key: &str) -> Option<usize> {
    let at = floor_char_boundary(text, at);
    // Bytes, not str slices: an index inside a multi-byte character (a note's `×`) is no
    // place to slice at.
    let bytes = text.as_bytes();
    let header_at = |i: usize| bytes[i] == b'[' && (i == 0 || bytes[i - 1] == b'\n');
    let start = (0..at.min(bytes.len()))
        .rev()
        .find(|&i| header_at(i) && bytes[i..].starts_with(b"[["))?;
    let name: String = text[start + 2..]
        .chars()
        .take_while(|c| *c != ']')
        .collect();
    let sub_table = format!("[{}.", name.trim());
    let end = (at..bytes.len())
        .find(|&i| header_at(i) && !bytes[i..].starts_with(sub_table.as_bytes()))
        .unwrap_or(text.len());
    let entry = &text[start..end];
    let key_at = entry.match_indices(key).map(|(i, _)| i).find(|&i| {
        let before = entry[..i].trim_end_matches([' ', '\t']);
        let opens = before.is_empty() || before.ends_with(['\n', '{', ',', '.']);
        let after = entry[i + key.len()..].trim_start_matches([' ', '\t']);
        opens && after.starts_with('=')
    })?;
    Some(start + key_at)
}

/// The largest char boundary of `text` at or before `at`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Keys whose value must be a table, each with an example of one. serde reads a struct from
/// a list by position, so that `limits = [1, 2, 3]` would mean depth 1, nodes 2, time 3 ms:
/// a list there is refused.
pub const TOML_TABLE_KEYS: &[(&str, &str)] = &[
    ("limits", "{ depth = 6, nodes = 100000 }"),
    ("ordering", "{ tt_move = true, killers = true }"),
    ("match", "{ game = \"chess\", games = 100 }"),
    ("openings", "{ random_plies = 4 }"),
    ("adjudicate", "{ score = 1000, plies = 6 }"),
    ("sprt", "{ elo0 = 0, elo1 = 10 }"),
];

/// The example [`TOML_TABLE_KEYS`] gives for `key`.
#[must_use]
pub fn table_example(key: &str) -> &'static str {
    TOML_TABLE_KEYS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("{ name = value }", |(_, example)| example)
}

/// The first value in a TOML text that is a list where [`TOML_TABLE_KEYS`] wants a table: its
/// span and key. `None` also when the text is not TOML (the parser then says why).
#[must_use]
pub fn list_for_table(text: &str) -> Option<(std::ops::Range<usize>, String)> {
    use toml::de::{DeTable, DeValue};
    let doc = DeTable::parse(text).ok()?;
    // An explicit stack: nesting depth is the writer's choice.
    let mut tables = vec![doc.get_ref()];
    let mut arrays = Vec::new();
    loop {
        if let Some(table) = tables.pop() {
            for (key, value) in table {
                match value.get_ref() {
                    DeValue::Array(_)
                        if TOML_TABLE_KEYS.iter().any(|(k, _)| k == key.get_ref()) =>
                    {
                        return Some((value.span(), key.get_ref().to_string()));
                    }
                    DeValue::Array(items) => arrays.push(items),
                    DeValue::Table(t) => tables.push(t),
                    _ => {}
                }
            }
        } else if let Some(items) = arrays.pop() {
            for item in items.iter() {
                match item.get_ref() {
                    DeValue::Array(inner) => arrays.push(inner),
                    DeValue::Table(t) => tables.push(t),
                    _ => {}
                }
            }
        } else {
            return None;
        }
    }
}

/// The metrics a `[[references]]` entry may name: those summary.md can set beside a
/// measured figure.
pub const REFERENCE_METRICS: &[&str] = &["nodes"];

/// Every `[[references]]` entry names a metric summary.md compares, a searcher (variant)
/// of the plan and a test set that searcher runs on: otherwise the figure would be shown
/// as "not run" or silently dropped.
pub(crate) fn check_references(
    src: &Source,
    references: &[ReferenceSpec],
    jobs: &[Job],
) -> Result<(), SpecError> {
    for (i, r) in references.iter().enumerate() {
        let at = |key: &str| src.error(entry_value(src.text, "references", i, key), Some(key), "");
        let refuse = |key: &str, message: String| SpecError { message, ..at(key) };
        if !REFERENCE_METRICS.contains(&r.metric.as_str()) {
            return Err(refuse(
                "metric",
                format!(
                    "unknown metric `{}`: summary.md compares {}{}",
                    r.metric,
                    REFERENCE_METRICS.join(", "),
                    suggestion(&r.metric, REFERENCE_METRICS.iter().copied())
                ),
            ));
        }
        let names: Vec<String> = jobs.iter().map(|j| j.searcher.name()).collect();
        if !names.contains(&r.searcher) {
            return Err(refuse(
                "searcher",
                format!(
                    "no searcher (or sweep variant) is named `{}`{}",
                    r.searcher,
                    suggestion(&r.searcher, names.iter().map(String::as_str))
                ),
            ));
        }
        let sets: Vec<&str> = jobs
            .iter()
            .filter(|j| j.searcher.name() == r.searcher)
            .map(|j| j.position.set.as_str())
            .collect();
        if !sets.contains(&r.set.as_str()) {
            return Err(refuse(
                "set",
                format!(
                    "`{}` does not search a test set named `{}`{}",
                    r.searcher,
                    r.set,
                    suggestion(&r.set, sets.iter().copied())
                ),
            ));
        }
        if !(r.value.is_finite() && r.value > 0.0) {
            // A count of nodes; summary.md divides by it.
            return Err(refuse(
                "value",
                format!(
                    "{}: expected a positive number (a published mean of nodes)",
                    r.value
                ),
            ));
        }
    }
    Ok(())
}

/// No searcher's label may equal the name of another searcher's sweep variant
/// (`ab[tt_mb=0]`): the output keys rows by that name, so the two would be averaged
/// together in summary.md.
pub(crate) fn check_variant_names(
    src: &Source,
    specs: &[SearcherSpec],
    jobs: &[Job],
) -> Result<(), SpecError> {
    let mut owner: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
    for job in jobs {
        let name = job.searcher.name();
        let label = job.searcher.label.as_str();
        match owner.get(&name) {
            Some(&other) if other != label => {
                let plain = if name == label { label } else { other };
                let swept = if name == label { other } else { label };
                let spec = specs.iter().find(|s| s.label.get_ref() == plain);
                let why = format!(
                    "`{plain}` is also the name of a sweep variant of `{swept}`: their rows \
                     would be mixed in the output; choose another label"
                );
                return Err(match spec {
                    Some(spec) => src.at(&spec.label, "label", why),
                    None => src.error(0..0, Some("label"), why),
                });
            }
            Some(_) => {}
            None => {
                owner.insert(name, label);
            }
        }
    }
    Ok(())
}

/// The most jobs a plan may hold (25 times the largest experiment shipped): counted
/// before the jobs are made, so that a huge `repetitions`, `trees` or product of sweeps is
/// refused at once, even by `--dry-run`.
pub const MAX_JOBS: usize = 250_000;

/// Refuses `count` more jobs when `planned` are already in the plan and the sum passes
/// [`MAX_JOBS`]; `what` says where they come from, the error points at `span`.
pub(crate) fn check_job_count(
    src: &Source,
    span: std::ops::Range<usize>,
    key: &str,
    count: Option<usize>,
    planned: usize,
    what: &str,
) -> Result<(), SpecError> {
    let total = count.and_then(|c| c.checked_add(planned));
    if total.is_some_and(|t| t <= MAX_JOBS) {
        return Ok(());
    }
    let count = count.map_or_else(|| "too many jobs to count".into(), |c| format!("{c} jobs"));
    Err(src.error(
        span,
        Some(key),
        format!(
            "{count} ({what}), with {planned} planned before: more than the {MAX_JOBS} a plan \
             may hold; split the experiment or narrow its sweeps"
        ),
    ))
}

/// Refuses a table of `mb` MiB larger than the memory available (allocating it would
/// abort the process or wake the kernel's out-of-memory killer).
///
/// # Errors
/// A sentence saying how much is available.
pub fn check_table_mb(mb: u64) -> Result<(), String> {
    match crate::memory::available_mb() {
        Some(available) if mb > available => Err(format!(
            "a {mb} MiB table is more than the memory available ({available} MiB: {})",
            crate::memory::AVAILABLE_FROM
        )),
        _ => Ok(()),
    }
}

/// clap's parser for `--tt-mb`: a whole number from 0 to 65536 that fits in memory.
///
/// # Errors
/// Not a number, out of range, or more than the memory available.
pub fn table_mb_flag(text: &str) -> Result<u32, String> {
    let mb: u32 = text
        .parse()
        .ok()
        .filter(|mb| *mb <= 65_536)
        .ok_or_else(|| format!("`{text}` is not a whole number of MiB from 0 to 65536"))?;
    check_table_mb(u64::from(mb))?;
    Ok(mb)
}

/// The span of `key`'s value in the `index`-th `[[table]]` of a TOML text, or an empty
/// span at that table's header (or at the start) when it cannot be found.
fn entry_value(text: &str, table: &str, index: usize, key: &str) -> std::ops::Range<usize> {
    let header = format!("[[{table}]]");
    let mut offset = 0;
    let mut seen = 0;
    let mut inside = false;
    let mut fallback = 0..0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            inside = trimmed.replace(' ', "") == header && {
                seen += 1;
                seen == index + 1
            };
            if inside {
                fallback = offset..offset;
            }
        } else if inside
            && let Some((k, v)) = line.split_once('=')
            && k.trim().trim_matches('"') == key
        {
            let start = offset + k.len() + 1 + (v.len() - v.trim_start().len());
            return start..start;
        }
        offset += line.len();
    }
    fallback
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_few_names_some_and_counts_the_rest() {
        let items: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        assert_eq!(first_few(&items, 5, ", "), "a, b, c, d");
        assert_eq!(first_few(&items, 4, ", "), "a, b, c, d");
        assert_eq!(first_few(&items, 2, "; "), "a; b; and 2 more");
    }

    #[test]
    fn suggestions_are_for_typos_only() {
        let keys = ["limits", "label", "algorithm", "tt_mb"];
        assert_eq!(did_you_mean("limit", keys), Some("limits"));
        assert_eq!(did_you_mean("algoritm", keys), Some("algorithm"));
        assert_eq!(did_you_mean("tt-mb", keys), Some("tt_mb"));
        assert_eq!(did_you_mean("x", keys), None);
        // A transposition is one edit, even in a short word.
        assert_eq!(
            did_you_mean("pts", ["material", "pst", "shannon"]),
            Some("pst")
        );
        assert_eq!(did_you_mean("speed", keys), None);
        // Of two candidates one edit away, the one sharing the word's start; two edits
        // with another first letter is not a typo.
        let top = ["name", "seed", "games", "searchers"];
        assert_eq!(did_you_mean("game", top), Some("games"));
        assert_eq!(did_you_mean("games", ["name", "match"]), None);
        assert_eq!(did_you_mean("nmae", top), Some("name"));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn a_key_is_found_in_its_own_entry_only() {
        let text = "notes = \"3 × 4 — plies\"\n[[searchers]]\nlabel = \"a\"\n# pvs = true, × 2\n\
                    ordering = { hint = true, tt_move = true }\n[searchers.limits]\ndepth = 3\n\
                    [[searchers]]\nlabel = \"b\"\npvs = true\n";
        let label_a = text.find("\"a\"").unwrap();
        let found = |key| key_in_entry(text, label_a, key).map(|i| &text[i..i + 6]);
        // In an inline table and in a sub-table of the entry; not in a comment, nor in the
        // next entry, nor as the tail of a longer key.
        assert_eq!(found("tt_move"), Some("tt_mov"));
        assert_eq!(found("depth"), Some("depth "));
        assert_eq!(found("pvs"), None);
        assert_eq!(found("move"), None);
        let label_b = text.find("\"b\"").unwrap();
        assert_eq!(key_in_entry(text, label_b, "pvs"), text.rfind("pvs"));
        // Before any entry (the multi-byte note), there is none to search.
        assert_eq!(key_in_entry(text, 10, "notes"), None);
    }

    #[test]
    fn refused_values_get_suggestions_and_structs_are_tables() {
        let m = user_words(
            "invalid value: string \"unlimted\", expected \"off\", \"unlimited\" or a number",
            "\"unlimted\"",
        );
        assert!(m.ends_with("; did you mean `unlimited`?"), "{m}");
        let m = user_words(
            "invalid type: string \"histroy\", expected struct OrderingSpec",
            "\"histroy\"",
        );
        assert_eq!(
            m,
            "invalid type: string \"histroy\", expected a table { key = value, ... }"
        );
    }

    #[test]
    fn rust_words_become_user_words() {
        let m = user_words("invalid type: map, expected usize", "1979-05-27\n");
        assert_eq!(m, "invalid type: a date-time, expected a whole number ≥ 0");
        let m = user_words("invalid type: map, expected u32", "{ a = 1 }");
        assert_eq!(
            m,
            "invalid type: a table, expected a whole number from 0 to 4294967295"
        );
        let m = user_words(
            "invalid length 1, expected struct LimitsSpec with 3 elements",
            "[1]",
        );
        assert!(
            m.contains("a list of 1 value(s) where a table is expected"),
            "{m}"
        );
        let m = user_words(
            "unknown field `limit`, expected one of `label`, `limits`",
            "",
        );
        assert!(m.ends_with("did you mean `limits`?"), "{m}");
        let m = user_words(
            "unknown variant `alphabet`, expected `minimax` or `alphabeta`",
            "",
        );
        assert!(m.ends_with("did you mean `alphabeta`?"), "{m}");
        let m = user_words(
            "invalid type: integer `99999999999999999999` as i128, expected u32",
            "99999999999999999999",
        );
        assert_eq!(
            m,
            "out of range: integer `99999999999999999999`, expected a whole number from 0 to 4294967295"
        );
        let m = user_words("floating-point number overflowed", "1e400");
        assert!(
            m.starts_with("out of range: a number beyond 1.8e308"),
            "{m}"
        );
    }

    #[test]
    fn keys_are_located() {
        let text = "limits = { depth = 1979-05-27 }";
        assert_eq!(
            key_before(text, text.find("1979").unwrap()),
            Some("depth".into())
        );
        assert_eq!(key_before("a = 1", 0), None);
        let text = "name = \"x\"\n[[searchers]]\nlimits = [1, 2]\n";
        let (span, key) = list_for_table(text).unwrap();
        assert_eq!((&text[span], key.as_str()), ("[1, 2]", "limits"));
        assert_eq!(list_for_table("limits = { depth = [1, 2] }"), None);
        assert_eq!(
            table_example("ordering"),
            "{ tt_move = true, killers = true }"
        );
    }

    /// did_you_mean's documented limits: half the word's letters rounded down, at least 1
    /// and at most 2 edits, two edits only with the right first letter. Counted by hand:
    /// `ab` is 2 edits from `axy` (b to x, add y), too many for 2 letters; `x` is 1 from
    /// `y` and from `xy`, 2 from `xyz`; `abcd` is 2 from `abxy`, exactly half;
    /// `algortm` is 2 from `algorithm` (add i, add h), first letter right; `pimits` is 1
    /// from `limits` (p to l), a one-edit typo even in the first letter.
    #[test]
    fn suggestions_keep_to_the_documented_limits() {
        assert_eq!(did_you_mean("ab", ["axy"]), None);
        assert_eq!(did_you_mean("x", ["y"]), Some("y"));
        assert_eq!(did_you_mean("x", ["xy"]), Some("xy"));
        assert_eq!(did_you_mean("x", ["xyz"]), None);
        assert_eq!(did_you_mean("abcd", ["abxy"]), Some("abxy"));
        assert_eq!(did_you_mean("algortm", ["algorithm"]), Some("algorithm"));
        assert_eq!(did_you_mean("pimits", ["limits"]), Some("limits"));
    }

    /// edit_distance is the optimal string alignment distance, as its doc says. The
    /// values are from its definition, counted by hand, and the one case where it differs
    /// from the true Damerau-Levenshtein distance: `ca` to `abc` is 3 (`ca`, `a`, `ab`,
    /// `abc`; a transposed pair may not be edited again), where Damerau-Levenshtein gives 2
    /// (Wikipedia, "Damerau-Levenshtein distance", section "Optimal string alignment
    /// distance").
    #[test]
    fn edit_distance_is_the_optimal_string_alignment_distance() {
        for (a, b, distance) in [
            ("ca", "abc", 3),
            ("ab", "ba", 1),
            ("abcd", "badc", 2),
            ("abcd", "acbd", 1),
            ("xabc", "xbac", 1),
            ("pts", "pst", 1),
            ("", "abc", 3),
            ("abc", "", 3),
            ("same", "same", 0),
            ("×y", "y×", 1),
        ] {
            assert_eq!(edit_distance(a, b), distance, "{a} to {b}");
            assert_eq!(edit_distance(b, a), distance, "{b} to {a}");
        }
    }

    /// A Rust struct is a table in an experiment file (table_words's doc): the whole
    /// struct name goes, underscores included, as Rust names may hold them.
    #[test]
    fn a_struct_name_with_an_underscore_becomes_a_table() {
        let m = user_words(
            "invalid type: string \"x\", expected struct Search_Limits",
            "\"x\"",
        );
        assert_eq!(
            m,
            "invalid type: string \"x\", expected a table { key = value, ... }"
        );
    }

    /// TOML's date and time forms (TOML v1.0.0, "Offset Date-Time", "Local Date", "Local
    /// Time": `1979-05-27`, `1979-05-27T07:32:00Z`, `07:32:00`) start like one; a plain
    /// integer, a year alone, an hour of one digit (TOML wants two) or a table do not.
    #[test]
    fn only_toml_dates_and_times_look_like_date_times() {
        for yes in ["1979-05-27", "  1979-05-27T07:32:00Z", "07:32:00"] {
            assert!(looks_like_datetime(yes), "{yes}");
        }
        for no in [
            "12345",
            "1979",
            "1979x05",
            "7:32:00",
            "ab-cd",
            "{ a = 1 }",
            "",
        ] {
            assert!(!looks_like_datetime(no), "{no}");
        }
    }

    /// key_before and key_in_entry take any byte `at`, even one inside a multi-byte
    /// character (key_in_entry's comment: "a note's `×`"): `at` inside the `×` after
    /// `depth =` still finds `depth`, and a line ending in `×` before the key's own line
    /// changes nothing.
    #[test]
    fn keys_are_located_beside_multi_byte_characters() {
        let text = "depth = ×";
        let inside = text.find('×').unwrap() + 1;
        assert!(!text.is_char_boundary(inside));
        assert_eq!(floor_char_boundary(text, inside), inside - 1);
        assert_eq!(key_before(text, inside), Some("depth".into()));
        let text = "notes = \"a\" # 3 ×\nnodes = x";
        assert_eq!(key_before(text, text.len() - 1), Some("nodes".into()));
    }

    /// key_in_entry's doc: an entry's sub-tables (`[searchers.limits]`) are part of it, so
    /// from inside one the entry's own keys are found; and an entry may open the file.
    #[test]
    fn a_key_is_found_from_a_sub_table_and_in_an_entry_at_the_start() {
        let text = "[[searchers]]\nlabel = \"a\"\n[searchers.limits]\ndepth = 3\n";
        let depth = text.find("depth").unwrap();
        assert_eq!(key_in_entry(text, depth, "label"), text.find("label"));
        assert_eq!(key_in_entry(text, depth, "depth"), Some(depth));
    }

    /// EXPERIMENTS.md, "Tables, not lists": the arena's `[match]` and `openings` are
    /// tables, so a list there is found in a table of its own and inside a list of lists
    /// (nesting is the writer's choice, list_for_table's comment).
    #[test]
    fn a_list_for_a_table_is_found_at_any_depth() {
        let text = "[match]\ngame = \"chess\"\nopenings = [4]\n";
        let (span, key) = list_for_table(text).unwrap();
        assert_eq!((&text[span], key.as_str()), ("[4]", "openings"));
        let text = "x = [[{ limits = [1, 2] }]]\n";
        let (span, key) = list_for_table(text).unwrap();
        assert_eq!((&text[span], key.as_str()), ("[1, 2]", "limits"));
    }

    /// MAX_JOBS is the most a plan may hold (EXPERIMENTS.md, "Caps": 250,000 jobs): the
    /// jobs that bring it exactly there pass, one more is refused, and so is a count too
    /// large to count.
    #[test]
    fn a_plan_may_hold_max_jobs_and_no_more() {
        let src = Source {
            file: std::path::Path::new("plan.toml"),
            text: "trees = 1\n",
        };
        let check = |count, planned| check_job_count(&src, 0..0, "trees", count, planned, "x");
        assert_eq!(MAX_JOBS, 250_000);
        assert!(check(Some(MAX_JOBS - 10), 10).is_ok());
        let err = check(Some(MAX_JOBS - 9), 10).unwrap_err();
        assert!(
            err.message.contains("more than the 250000"),
            "{}",
            err.message
        );
        let err = check(None, 0).unwrap_err();
        assert!(
            err.message.starts_with("too many jobs to count"),
            "{}",
            err.message
        );
    }

    /// EXPERIMENTS.md, "Caps": `tt_mb` and `--tt-mb` are at most 65,536 MiB and the
    /// memory available. No machine has more than u64::MAX MiB available nor less than
    /// 0, so the first is always refused and a 0 MiB table always fits; the flag reads
    /// whole numbers and refuses one past 65,536 for its range, whatever the memory.
    #[test]
    fn a_table_is_at_most_65536_mib_and_what_memory_holds() {
        if crate::memory::available_mb().is_some() {
            let err = check_table_mb(u64::MAX).unwrap_err();
            assert!(err.contains("more than the memory available"), "{err}");
        }
        assert!(check_table_mb(0).is_ok());
        assert_eq!(table_mb_flag("0"), Ok(0));
        if crate::memory::available_mb().is_none_or(|mb| mb >= 1) {
            assert_eq!(table_mb_flag("1"), Ok(1));
        }
        for bad in ["65537", "-1", "x", ""] {
            let err = table_mb_flag(bad).unwrap_err();
            assert!(err.contains("from 0 to 65536"), "{bad}: {err}");
        }
        if let Err(err) = table_mb_flag("65536") {
            assert!(err.contains("more than the memory available"), "{err}");
        }
    }

    /// entry_value's doc: the span of a key's value in the `index`-th `[[table]]`, past
    /// the blanks after `=` and with the key quoted or not; an empty span at that entry's
    /// header when the key is not there, and at the start when the entry is not. The
    /// expected offsets are found in the text by markers, not computed as the code does.
    #[test]
    fn a_value_is_located_in_its_own_entry() {
        let text = "name = \"x\"\n[[searchers]]\nvalue = 1\n[[references]]\nmetric = \
                    \"nodes\"\nvalue = 5\n[[ references ]]\n\"metric\" = \"m2\"\nvalue =   7\n";
        let at = |s: &str| text.find(s).unwrap();
        let empty = |i: usize| i..i;
        assert_eq!(entry_value(text, "references", 0, "value"), empty(at("5")));
        assert_eq!(
            entry_value(text, "references", 0, "metric"),
            empty(at("\"nodes\""))
        );
        assert_eq!(entry_value(text, "references", 1, "value"), empty(at("7")));
        assert_eq!(
            entry_value(text, "references", 1, "metric"),
            empty(at("\"m2\""))
        );
        assert_eq!(
            entry_value(text, "references", 1, "set"),
            empty(at("[[ references"))
        );
        assert_eq!(entry_value(text, "references", 2, "value"), 0..0);
        assert_eq!(entry_value(text, "searchers", 0, "value"), empty(at("1\n")));
    }
}

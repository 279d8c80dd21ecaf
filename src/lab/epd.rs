//! EPD files (Edwards, "Portable Game Notation Specification and Implementation Guide",
//! 1994, section 16.2): per line, the first four FEN fields, then operations
//! `opcode operand ...;`. Read here: `bm` (best moves) and `am` (moves to avoid), several
//! moves separated by spaces, no move both; `id` (quoted or not); `ce` as `+M<n>` (a mate
//! in n) or centipawns; `dm` (direct mate: a mate in n, agreeing with `ce` where both are
//! given); `pv` (a line of moves, played in turn). Moves are SAN, or the hyphenated long
//! algebraic notation of the mate suites (`Bh8-f6+`), tried when SAN does not read. Every
//! operation is also kept as read.
//!
//! Also read: the halfmove clock and fullmove number as bare fields after the FEN (opening
//! books are plain 6-field FENs; a fullmove number 0, which some copies of Bratko-Kopec
//! carry, is read as 1), and the quirks of public suites:
//! - mate_in_2.epd line 263 reads `bm bm Bh2-f4`: an operand repeating its opcode is skipped;
//! - Leorik's mate_in_5.epd line 185 has a lone `-` after the FEN, where a halfmove clock
//!   would stand: skipped;
//! - a FEN whose last field runs into the first `;` (`w - -; am Qxb2;`);
//! - zugzwang.epd has free text after the last `;` (kept as [`EpdRecord::comment`]); text
//!   there that starts with an opcode of Edwards's standard (`bm Qd1` with no `;` after it)
//!   is an operation, not a comment;
//! - bratko-kopec.epd quotes its ids (the quotes are removed), and its original writes a
//!   check sign apart from its move (`bm Qd1 +`), joined to the move here;
//! - moves of `bm` and `am` separated by commas as well as spaces (`bm Qd1, Qe2`);
//! - matetrack's (vondele/matetrack) `bm #n`: the side to move mates in n, as `dm n`;
//!   `bm #-n` and `ce -Mn` (the side to move is mated) are kept as read but judge nothing,
//!   as no move is named.

use std::path::{Path, PathBuf};

use crate::game::{Game, Notation, ParseError};
use crate::games::chess::{Chess, ChessMove};

/// One operation as read: the opcode and its operands (quotes removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdOperation {
    /// The opcode (`bm`, `id`, ...).
    pub opcode: String,
    /// The operands, split at spaces outside quotes.
    pub operands: Vec<String>,
}

/// One EPD record.
#[derive(Clone, Debug)]
pub struct EpdRecord {
    /// 1-based line in the file (1 for [`parse_line`] unless told otherwise).
    pub line: usize,
    /// The FEN fields as written: four, or six when the line gives the two counters.
    pub fen: String,
    /// The position.
    pub position: Chess,
    /// The `id` operand.
    pub id: Option<String>,
    /// The `bm` moves: any of them solves the position.
    pub best: Vec<ChessMove>,
    /// The `am` moves: each of them fails.
    pub avoid: Vec<ChessMove>,
    /// `n` for `ce +Mn`, `dm n` or `bm #n`: the side to move mates in n moves.
    pub mate_in: Option<u32>,
    /// `ce` in centipawns, when it is a number.
    pub centipawns: Option<i32>,
    /// The `pv` line, each move legal after the ones before it.
    pub pv: Vec<ChessMove>,
    /// Every operation, in order, as read.
    pub operations: Vec<EpdOperation>,
    /// Free text after the last `;`.
    pub comment: Option<String>,
}

/// An EPD file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum EpdError {
    /// The file is unreadable.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A line holds a bad position, operation or move.
    #[error("{path}:{line}: {reason} (line: `{text}`)")]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The line's text.
        text: String,
        /// What is wrong.
        reason: String,
    },
}

/// Reads the first `take` records (all if `None`) of the EPD file at `path`; blank lines
/// and lines starting with `#` are skipped.
pub fn read(path: &Path, take: Option<usize>) -> Result<Vec<EpdRecord>, EpdError> {
    read_checked(path, take, false).map(|(records, _)| records)
}

/// [`read`], and with `skip_invalid` a malformed line is left out and returned beside the
/// records (as the error it would have been) instead of refusing the file.
///
/// # Errors
/// An unreadable file; without `skip_invalid`, the first malformed line.
pub fn read_checked(
    path: &Path,
    take: Option<usize>,
    skip_invalid: bool,
) -> Result<(Vec<EpdRecord>, Vec<EpdError>), EpdError> {
    let text =
        crate::input::read_text(path, crate::input::Cap::TEXT).map_err(|source| EpdError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    let mut skipped = Vec::new();
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if take.is_some_and(|t| out.len() >= t) {
            break;
        }
        let record = parse_line(trimmed, number + 1).map_err(|e| EpdError::Line {
            path: path.to_path_buf(),
            line: number + 1,
            text: trimmed.to_owned(),
            reason: e.to_string(),
        });
        match record {
            Ok(record) => out.push(record),
            Err(e) if skip_invalid => skipped.push(e),
            Err(e) => return Err(e),
        }
    }
    Ok((out, skipped))
}

/// Reads one EPD line; `line` is recorded as [`EpdRecord::line`].
pub fn parse_line(text: &str, line: usize) -> Result<EpdRecord, ParseError> {
    let (mut fen_fields, mut rest) = split_fields(text.trim(), 4);
    if fen_fields.len() < 4 {
        return Err(ParseError::new(format!(
            "an EPD line starts with 4 FEN fields, this one has {}",
            fen_fields.len()
        )));
    }
    if let Some(field) = fen_fields[3].strip_suffix(';') {
        // `w - -; am Qxb2;`: the `;` closes an empty operation, which reads as none.
        fen_fields[3] = field;
    }
    let (counters, after) = leading_counters(rest);
    rest = after;
    while let Some(after) = rest
        .strip_prefix('-')
        .filter(|a| a.is_empty() || a.starts_with(char::is_whitespace))
    {
        // A lone `-` where a counter would stand (no opcode starts with one).
        rest = after.trim_start();
    }
    let (operations, comment) = split_operations(rest)?;
    let mut fen = fen_fields.join(" ");
    if let Some((h, f)) = with_counter_operations(counters, &operations)? {
        fen = format!("{fen} {h} {f}");
    }
    let position =
        Chess::parse_position(&fen).map_err(|e| ParseError::new(format!("bad FEN: {e}")))?;
    let mut record = EpdRecord {
        line,
        fen,
        position,
        id: None,
        best: Vec::new(),
        avoid: Vec::new(),
        mate_in: None,
        centipawns: None,
        pv: Vec::new(),
        operations: Vec::new(),
        comment,
    };
    for op in operations {
        apply(&mut record, &op)?;
        record.operations.push(op);
    }
    if let Some(both) = record.best.iter().find(|m| record.avoid.contains(m)) {
        return Err(ParseError::new(format!(
            "`{}` is both a best move (bm) and a move to avoid (am)",
            record.position.san(*both)
        )));
    }
    Ok(record)
}

/// The first `n` whitespace-separated fields of `text`, and the rest after them.
fn split_fields(text: &str, n: usize) -> (Vec<&str>, &str) {
    let mut fields = Vec::with_capacity(n);
    let mut rest = text;
    while fields.len() < n {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (field, after) = rest.split_at(end);
        fields.push(field);
        rest = after;
    }
    (fields, rest.trim_start())
}

/// Two bare integers at the start of `rest` (the FEN counters of a 6-field line): opcodes
/// begin with a letter, so a leading number cannot be one.
fn leading_counters(rest: &str) -> (Option<(u32, u32)>, &str) {
    let (fields, after) = split_fields(rest, 2);
    if let [h, f] = fields.as_slice() {
        let f = f.trim_end_matches(';');
        if let (Ok(h), Ok(f)) = (h.parse(), f.parse::<u32>()) {
            let after = after.trim_start().strip_prefix(';').unwrap_or(after);
            return (Some((h, f.max(1))), after);
        }
    }
    (None, rest)
}

/// The FEN counters: those of a 6-field line, or those the operations `hmvc` (halfmove
/// clock) and `fmvn` (fullmove number) give (Edwards 1994, 16.2.5: EPD's own way to carry
/// them; the other defaults to 0 or 1); both ways at once must agree.
fn with_counter_operations(
    counters: Option<(u32, u32)>,
    operations: &[EpdOperation],
) -> Result<Option<(u32, u32)>, ParseError> {
    let read = |opcode: &str, what: &str| -> Result<Option<u32>, ParseError> {
        let Some(op) = operations.iter().find(|op| op.opcode == opcode) else {
            return Ok(None);
        };
        let value = op.operands.first().map_or("", String::as_str);
        match value.parse::<u32>() {
            Ok(n) if op.operands.len() == 1 && (opcode != "fmvn" || n >= 1) => Ok(Some(n)),
            _ => Err(ParseError::new(format!(
                "{opcode} `{}` is not a {what}",
                op.operands.join(" ")
            ))),
        }
    };
    let halfmove = read("hmvc", "halfmove clock")?;
    let fullmove = read("fmvn", "fullmove number (1 or more)")?;
    match counters {
        Some((h, f)) => {
            for (given, field, opcode, what) in [
                (halfmove, h, "hmvc", "halfmove clock"),
                (fullmove, f, "fmvn", "fullmove number"),
            ] {
                if let Some(n) = given.filter(|&n| n != field) {
                    return Err(ParseError::new(format!(
                        "{opcode} {n} disagrees with the line's {what} {field}"
                    )));
                }
            }
            Ok(counters)
        }
        None if halfmove.is_none() && fullmove.is_none() => Ok(None),
        None => Ok(Some((halfmove.unwrap_or(0), fullmove.unwrap_or(1)))),
    }
}

/// Splits the operations at `;` outside quotes; text after the last `;` is a comment unless
/// it starts with an opcode of Edwards's standard ([`is_standard_opcode`]). A line without
/// any `;` is read as one operation.
fn split_operations(text: &str) -> Result<(Vec<EpdOperation>, Option<String>), ParseError> {
    let mut segments = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ';' if !quoted => segments.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    if quoted {
        return Err(ParseError::new("a quoted operand is not closed"));
    }
    let tail = current.trim().to_owned();
    let opens_with_opcode = tail
        .split_whitespace()
        .next()
        .is_some_and(is_standard_opcode);
    let comment = if segments.is_empty() || opens_with_opcode {
        if !tail.is_empty() {
            segments.push(tail);
        }
        None
    } else {
        (!tail.is_empty()).then_some(tail)
    };
    let ops = segments
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(parse_operation)
        .collect::<Result<_, _>>()?;
    Ok((ops, comment))
}

/// Whether `word` is an opcode of the EPD standard (Edwards 1994, section 16.2.5): a last
/// operation whose `;` is missing starts with one, free text (`CCC post by ...`) does not.
fn is_standard_opcode(word: &str) -> bool {
    const OPCODES: &[&str] = &[
        "acd",
        "acn",
        "acs",
        "am",
        "bm",
        "ce",
        "dm",
        "draw_accept",
        "draw_claim",
        "draw_offer",
        "draw_reject",
        "eco",
        "fmvn",
        "hmvc",
        "id",
        "nic",
        "noop",
        "pm",
        "pv",
        "rc",
        "resign",
        "sm",
        "tcgs",
        "tcri",
        "tcsi",
    ];
    let numbered = |prefix: char| {
        word.len() == 2 && word.starts_with(prefix) && word.as_bytes()[1].is_ascii_digit()
    };
    OPCODES.contains(&word) || numbered('c') || numbered('v')
}

/// One operation: opcode, then operands split at spaces outside quotes.
fn parse_operation(text: &str) -> Result<EpdOperation, ParseError> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
            }
            _ => current.push(c),
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    let mut words = words.into_iter();
    let opcode = words.next().unwrap_or_default();
    if !opcode.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(ParseError::new(format!(
            "`{text}`: an opcode starts with a letter"
        )));
    }
    Ok(EpdOperation {
        operands: words.filter(|w| *w != opcode).collect(),
        opcode,
    })
}

/// Reads a move in SAN, or failing that in hyphenated long algebraic notation. A move in
/// UCI notation is refused with its SAN: EPD's operands are SAN (Edwards's standard), and
/// "not a legal move" would hide that the move is.
fn resolve(position: &Chess, text: &str) -> Result<ChessMove, ParseError> {
    position.parse_san(text).or_else(|san_error| {
        position
            .parse_long_algebraic(text)
            .map_err(|_| match position.parse_uci(text) {
                Ok(mv) => ParseError::new(format!(
                    "`{text}` is UCI notation: EPD writes moves in SAN, here `{}`",
                    position.san(mv)
                )),
                Err(_) => san_error,
            })
    })
}

/// Records what an operation says.
fn apply(record: &mut EpdRecord, op: &EpdOperation) -> Result<(), ParseError> {
    let with_op = |e: ParseError| ParseError::new(format!("{}: {e}", op.opcode));
    match op.opcode.as_str() {
        "bm" | "am" => {
            if op.operands.is_empty() {
                return Err(ParseError::new(format!("{} without a move", op.opcode)));
            }
            if op.opcode == "bm" && read_mate_sign(record, &op.operands)? {
                return Ok(());
            }
            refuse_if_over(&record.position, &op.opcode)?;
            let written = move_words(op)?;
            let given = if op.opcode == "bm" {
                &record.best
            } else {
                &record.avoid
            };
            if !given.is_empty() {
                return Err(ParseError::new(format!(
                    "a second `{}` operation: list every move in one",
                    op.opcode
                )));
            }
            let moves = written
                .iter()
                .map(|m| resolve(&record.position, m))
                .collect::<Result<Vec<_>, _>>()
                .map_err(with_op)?;
            if op.opcode == "bm" {
                record.best.extend(moves);
            } else {
                record.avoid.extend(moves);
            }
        }
        "id" => record.id = Some(op.operands.join(" ")),
        "ce" => read_ce(record, op)?,
        "dm" => {
            let count = op.operands.first().map_or("", String::as_str);
            set_mate_in(record, mate_count(&record.position, count, "dm", count)?)?;
        }
        "pv" => {
            refuse_if_over(&record.position, "pv")?;
            let mut pos = record.position.clone();
            for m in &op.operands {
                let mv = resolve(&pos, m).map_err(with_op)?;
                pos.play(mv);
                record.pv.push(mv);
            }
        }
        _ => {}
    }
    Ok(())
}

/// The moves of a `bm` or `am` operation as written: operands split at commas too
/// (`Qd1, Qe2`), and a check, mate or annotation sign standing apart (`Qd1 +`, the original
/// Bratko-Kopec's way) joined to the move before it. A sign with no move before it is
/// refused: read as a move it would only say "not a legal move", hiding the cause.
fn move_words(op: &EpdOperation) -> Result<Vec<String>, ParseError> {
    let sign = |w: &str| w.chars().all(|c| matches!(c, '+' | '#' | '!' | '?'));
    let mut words: Vec<String> = Vec::new();
    for word in op.operands.iter().flat_map(|w| w.split(',')) {
        if word.is_empty() {
            continue;
        }
        match words.last_mut() {
            Some(last) if sign(word) => last.push_str(word),
            None if sign(word) => {
                return Err(ParseError::new(format!(
                    "{}: `{word}` is a check or mate sign with no move before it",
                    op.opcode
                )));
            }
            _ => words.push(word.to_owned()),
        }
    }
    Ok(words)
}

/// matetrack's `bm #n` (the side to move mates in n, read as `dm n`) or `bm #-n` (it is
/// mated in n: nothing to judge); `false` when the operands are moves.
fn read_mate_sign(record: &mut EpdRecord, operands: &[String]) -> Result<bool, ParseError> {
    let [only] = operands else {
        return Ok(false);
    };
    let Some(count) = only.strip_prefix('#') else {
        return Ok(false);
    };
    if let Some(mated) = count.strip_prefix('-') {
        mate_count(&record.position, mated, "bm", only)?;
    } else {
        set_mate_in(record, mate_count(&record.position, count, "bm", only)?)?;
    }
    Ok(true)
}

/// A mate count's sign: `M3` or `#3` gives `3`.
fn mate_sign(value: &str) -> Option<&str> {
    value.strip_prefix('M').or_else(|| value.strip_prefix('#'))
}

/// `ce +M<n>` (mate in n), `ce -M<n>` (mated in n: checked, judges nothing) or
/// `ce <centipawns>`.
fn read_ce(record: &mut EpdRecord, op: &EpdOperation) -> Result<(), ParseError> {
    let value = op.operands.first().map_or("", String::as_str);
    let mate = value.strip_prefix('+').unwrap_or(value);
    if let Some(n) = mate_sign(mate) {
        set_mate_in(record, mate_count(&record.position, n, "ce", value)?)?;
    } else if let Some(n) = value.strip_prefix('-').and_then(mate_sign) {
        // The side to move is mated in n: checked, then kept as read (no move to judge).
        mate_count(&record.position, n, "ce", value)?;
    } else {
        record.centipawns =
            Some(value.parse().map_err(|_| {
                ParseError::new(format!("ce `{value}` is neither +Mn nor centipawns"))
            })?);
    }
    Ok(())
}

/// The most moves of a mate count: a mate in n takes 2n − 1 plies, and no search here goes
/// deeper than [`crate::search::MAX_DEPTH`].
pub const MAX_MATE_MOVES: u32 = crate::search::MAX_DEPTH.div_ceil(2);

/// Refuses operation `opcode` (a move to judge) where the game is over, by the rules the
/// searches apply (checkmate, stalemate, the fifty-move rule, insufficient material): no
/// search gives a move there, so the position could only count as missed.
fn refuse_if_over(position: &Chess, opcode: &str) -> Result<(), ParseError> {
    match position.end_reason() {
        Some(reason) => Err(ParseError::new(format!(
            "{opcode}: the game is over ({reason}): there is no move to judge"
        ))),
        None => Ok(()),
    }
}

/// The mate count `n` of operation `opcode` (whose operand reads `value`) at `position`: 1
/// to [`MAX_MATE_MOVES`], where the game goes on (a mate to come, given or taken, in a
/// position already over, by mate, stalemate or a rule draw, is a wrong record, not a
/// puzzle).
fn mate_count(position: &Chess, n: &str, opcode: &str, value: &str) -> Result<u32, ParseError> {
    let n: u32 = n
        .parse()
        .map_err(|_| ParseError::new(format!("{opcode} `{value}` is not a mate count")))?;
    if n == 0 {
        // The side to move mates in one move at the fewest: a mate already on the board is
        // the mover's loss, not a mate in 0 for it.
        return Err(ParseError::new(format!(
            "{opcode} `{value}`: a mate count starts at 1 (mate in one move)"
        )));
    }
    if n > MAX_MATE_MOVES {
        return Err(ParseError::new(format!(
            "{opcode} `{value}`: a mate in more than {MAX_MATE_MOVES} moves is deeper than any search here"
        )));
    }
    match position.end_reason() {
        Some(over) if !position.has_moves() => Err(ParseError::new(format!(
            "{opcode} `{value}`: the side to move has no legal move ({over}): no mate is to come"
        ))),
        Some(over) => Err(ParseError::new(format!(
            "{opcode} `{value}`: the game is over ({over}): no mate is to come"
        ))),
        None => Ok(n),
    }
}

/// Records a mate in `n`, refusing one that disagrees with a count already read (`ce +M2;
/// dm 3;`).
fn set_mate_in(record: &mut EpdRecord, n: u32) -> Result<(), ParseError> {
    match record.mate_in {
        Some(m) if m != n => Err(ParseError::new(format!(
            "a mate in {n} and a mate in {m}: ce and dm disagree"
        ))),
        _ => {
            record.mate_in = Some(n);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_quotes_counters_and_comments() {
        let r = parse_line(
            r#"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";"#,
            7,
        )
        .unwrap();
        assert_eq!(r.line, 7);
        assert_eq!(r.id.as_deref(), Some("BK.01"));
        assert_eq!(r.best.len(), 1);
        assert_eq!(r.best[0].to_string(), "d6d1");
        assert_eq!(r.comment, None);
        let r = parse_line(
            "8/8/7p/2R5/4pp1K/8/8/3k2b1 w - - bm Rc4; id \"ZPTS.28\"; Kricheli 1986, 1 Rc4! e3",
            1,
        )
        .unwrap();
        assert_eq!(r.comment.as_deref(), Some("Kricheli 1986, 1 Rc4! e3"));
        let r = parse_line(
            "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
            1,
        )
        .unwrap();
        assert_eq!(
            r.fen,
            "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
        );
        assert_eq!(r.position.plies_played(), 6);
        assert!(r.operations.is_empty());
        let r = parse_line(
            "4k3/8/8/8/8/8/8/4K2R w K - bm O-O Rh8+; am Kd1; c0 \"a; b\";",
            1,
        )
        .unwrap();
        assert_eq!(r.best.len(), 2);
        assert_eq!(r.avoid.len(), 1);
        assert_eq!(r.operations[2].operands, ["a; b"]);
        let r = parse_line("4k3/8/8/8/8/8/8/4K2R w K - ce -35;", 1).unwrap();
        assert_eq!(r.centipawns, Some(-35));
    }

    #[test]
    fn mate_suite_line_with_the_doubled_opcode() {
        let r = parse_line(
            "5n2/6N1/2p3p1/1p2P1P1/1N1k4/1K1Pp3/1p5B/1Q6 w - - bm bm Bh2-f4; ce +M2; pv Bh2-f4 e3-e2 Qb1-g1+;",
            263,
        )
        .unwrap();
        assert_eq!(r.best.len(), 1);
        assert_eq!(r.best[0].to_string(), "h2f4");
        assert_eq!(r.mate_in, Some(2));
        assert_eq!(r.pv.len(), 3);
        // `dm` gives the count alone, or agrees with `ce`.
        let dm = "1k6/8/1K6/8/8/8/8/7R w - - bm Rh8#; dm 1;";
        assert_eq!(parse_line(dm, 1).unwrap().mate_in, Some(1));
        let both = "1k6/8/1K6/8/8/8/8/7R w - - bm Rh8#; ce +M1; dm 1;";
        assert_eq!(parse_line(both, 1).unwrap().mate_in, Some(1));
    }

    /// The ways other public suites write what the shipped ones write otherwise.
    #[test]
    fn quirks_of_other_suites() {
        let read = |line: &str| parse_line(line, 1).unwrap_or_else(|e| panic!("{line}: {e}"));
        let moves = |r: &EpdRecord, list: &[ChessMove]| {
            list.iter().map(|m| r.position.san(*m)).collect::<Vec<_>>()
        };
        // The last operation without its `;`, after others with one (rybka-forum.epd).
        let r = read(
            "r1bqk2r/ppp2ppp/2n5/4P3/2Bp2n1/5N1P/PP1N1PP1/R2Q1RK1 b kq - 1 10 ; bm Nh6; am Ngxe5",
        );
        assert_eq!(
            (moves(&r, &r.best), moves(&r, &r.avoid)),
            (vec!["Nh6".into()], vec!["Ngxe5".into()])
        );
        assert_eq!(r.comment, None);
        let r = read("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1; id \"x\"; bm Qb8#");
        assert_eq!(moves(&r, &r.best), ["Qb8#"]);
        // The original Bratko-Kopec: the check sign apart; fullmove 0 read as 1.
        let r =
            read("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 0 bm Qd1 +; id \"BK.01\";");
        assert_eq!(moves(&r, &r.best), ["Qd1+"]);
        assert_eq!(
            r.fen,
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1"
        );
        // Leorik's mate_in_5.epd line 185: a lone `-` after the FEN.
        let r = read("8/8/8/8/8/8/7k/R3K3 w Q - - bm O-O-O; ce +M1;");
        assert_eq!(
            (moves(&r, &r.best), r.mate_in),
            (vec!["O-O-O".into()], Some(1))
        );
        // The FEN's last field runs into the first `;`.
        let r = read("4k3/8/8/8/8/8/8/4K2R w K -; am Kd1;");
        assert_eq!(moves(&r, &r.avoid), ["Kd1"]);
        // Commas between moves.
        let r = read("4k3/8/8/8/8/8/8/4K2R w K - bm O-O, Rh8+;");
        assert_eq!(moves(&r, &r.best), ["O-O", "Rh8+"]);
        // matetrack's `bm #n` and `bm #-n`, and `ce -Mn`.
        let r = read("1k6/8/1K6/8/8/8/8/7R w - - bm #1;");
        assert_eq!((r.best.len(), r.mate_in), (0, Some(1)));
        let r = read("k7/8/1K6/8/8/8/8/7R b - - bm #-1;");
        assert_eq!((r.best.len(), r.mate_in), (0, None));
        let r = read("k7/8/1K6/8/8/8/8/7R b - - ce -M1;");
        assert_eq!((r.centipawns, r.mate_in), (None, None));
        // Free text after the last `;` stays a comment.
        let r =
            read("8/8/7p/2R5/4pp1K/8/8/3k2b1 w - - bm Rc4; id \"ZPTS.28\"; CCC post by someone");
        assert_eq!(r.comment.as_deref(), Some("CCC post by someone"));
    }

    #[test]
    fn malformed_lines_say_why() {
        let why = |line: &str| parse_line(line, 1).expect_err(line).to_string();
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w -").contains("4 FEN fields"));
        assert!(why("4k3/8/8/8/8/8/8/4KX2 w - - bm Kd1;").contains("bad FEN"));
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - bm Qd1;").contains("bm: `Qd1` is not a legal"));
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - am Ke3;").contains("am: `Ke3`"));
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - bm;").contains("without a move"));
        let alone = why("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm + Qd1;");
        assert!(
            alone.contains("`+` is a check or mate sign with no move before it"),
            "{alone}"
        );
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - id \"open;").contains("not closed"));
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - ce +Mx;").contains("mate count"));
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - ce +M0;").contains("starts at 1"));
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - ce +M4294967295;").contains("deeper than any"));
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - dm 0;").contains("dm `0`: a mate count starts"));
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - ce +M2; dm 3;").contains("ce and dm disagree"));
        // A mate to come where the game is over: stalemate, then checkmate.
        let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - -";
        for claim in ["ce +M1;", "ce -M1;", "dm 2;", "bm #1;", "bm #-1;"] {
            let message = why(&format!("{stalemate} {claim}"));
            assert!(
                message.contains("no legal move (stalemate)"),
                "{claim}: {message}"
            );
        }
        let mated = why("7k/6Q1/6K1/8/8/8/8/8 b - - ce -M1;");
        assert!(mated.contains("(checkmate): no mate is to come"), "{mated}");
        // The game going on, the same claims read.
        assert!(parse_line("7k/5Q2/6K1/8/8/8/8/8 w - - ce +M1;", 1).is_ok());
        // Over by a rule draw, which the searches apply: no move or mate is to be judged.
        let fifty = "7k/5Q2/6K1/8/8/8/8/8 w - - 100 80";
        for claim in [
            "bm Qg7;", "am Qf8;", "pv Qg7;", "dm 1;", "ce +M1;", "bm #1;",
        ] {
            let message = why(&format!("{fifty} {claim}"));
            assert!(
                message.contains("the game is over (fifty moves)"),
                "{claim}: {message}"
            );
        }
        let bare = why("4k3/8/8/8/8/8/8/4K3 w - - bm Kd2;");
        assert!(
            bare.contains("bm: the game is over (insufficient material)"),
            "{bare}"
        );
        assert!(
            parse_line(&format!("{fifty} ce 0;"), 1).is_ok(),
            "a draw's value reads"
        );
        // EPD's own counters, hmvc and fmvn, are read, and must agree with FEN counters.
        let late = why("7k/5Q2/6K1/8/8/8/8/8 w - - hmvc 100; bm Qg7;");
        assert!(late.contains("the game is over (fifty moves)"), "{late}");
        let fen = |line: &str| parse_line(line, 1).expect(line).fen;
        let counted = fen("7k/5Q2/6K1/8/8/8/8/8 w - - hmvc 99; fmvn 40; bm Qg7;");
        assert_eq!(counted, "7k/5Q2/6K1/8/8/8/8/8 w - - 99 40");
        let agreeing = fen("7k/5Q2/6K1/8/8/8/8/8 w - - 3 7 hmvc 3; fmvn 7;");
        assert_eq!(agreeing, "7k/5Q2/6K1/8/8/8/8/8 w - - 3 7");
        let apart = why("7k/5Q2/6K1/8/8/8/8/8 w - - 3 7 hmvc 4;");
        assert!(
            apart.contains("hmvc 4 disagrees with the line's halfmove clock 3"),
            "{apart}"
        );
        assert!(why("7k/5Q2/6K1/8/8/8/8/8 w - - hmvc -1;").contains("hmvc `-1` is not a"));
        assert!(why("7k/5Q2/6K1/8/8/8/8/8 w - - fmvn 0;").contains("fmvn `0` is not a"));
        let both = why("4k3/8/8/8/8/8/P7/4K3 w - - bm Kd2 Kd1; am Kd1;");
        assert!(
            both.contains("`Kd1` is both a best move (bm) and a move to avoid"),
            "{both}"
        );
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - pv Kd2 Kd2;").contains("pv: `Kd2`"));
        assert!(why("4k3/8/8/8/8/8/P7/4K3 w - - 7x bm Kd2;").contains("opcode"));
        let uci = why("4k3/8/8/8/8/8/P7/4K3 w - - bm e1d2;");
        assert!(
            uci.contains("`e1d2` is UCI notation: EPD writes moves in SAN, here `Kd2`"),
            "{uci}"
        );
        let twice = why("4k3/8/8/8/8/8/P7/4K3 w - - bm Kd2; bm Kd1;");
        assert!(twice.contains("a second `bm` operation"), "{twice}");
    }

    /// With `skip_invalid`, a bad line is left out and returned as its error while the
    /// good lines read, each record and error naming its 1-based line in the file
    /// (read_checked's doc). The truth is tests/data/chess/malformed.epd, counted by hand:
    /// line 1 is a `#` comment, line 2 reads (Kd2 is legal), line 3 names `Qd1` where
    /// White has no queen.
    #[test]
    fn a_skipped_bad_line_is_returned_beside_the_records_it_did_not_stop() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chess/malformed.epd");
        let (records, skipped) = read_checked(&path, None, true).expect("the file reads");
        let lines: Vec<usize> = records.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2], "the records' lines");
        assert_eq!(skipped.len(), 1, "the skipped lines");
        assert!(
            matches!(&skipped[0], EpdError::Line { line: 3, reason, .. }
                if reason.contains("`Qd1` is not a legal move")),
            "{}",
            skipped[0]
        );
    }

    /// A line that gives no counters, neither as fields nor as `hmvc`/`fmvn`, keeps its FEN
    /// as the four fields written: [`EpdRecord::fen`]'s doc ("four, or six when the line
    /// gives the two counters"), and Edwards 1994, 16.2.3: an EPD has the first four fields
    /// of a FEN only.
    #[test]
    fn a_line_without_counters_keeps_its_four_fen_fields() {
        for line in [
            "4k3/8/8/8/8/8/P7/4K3 w - - bm Kd2;",
            "4k3/8/8/8/8/8/P7/4K3 w - -",
        ] {
            let r = parse_line(line, 1).expect(line);
            assert_eq!(r.fen, "4k3/8/8/8/8/8/P7/4K3 w - -", "{line}");
        }
    }

    /// A last operation whose `;` is missing is told from free text by its opcode: the
    /// comment opcodes `c0`..`c9` and variation opcodes `v0`..`v9` of Edwards 1994, 16.2.5
    /// are operations; free text starting with another two-character word (a square, `e4`)
    /// stays the comment (is_standard_opcode's doc).
    #[test]
    fn a_comment_or_variation_opcode_without_its_semicolon_is_still_an_operation() {
        let base = "4k3/8/8/8/8/8/P7/4K3 w - - bm Kd2; id \"t\";";
        let op = |opcode: &str, operands: &[&str]| EpdOperation {
            opcode: opcode.to_owned(),
            operands: operands.iter().map(|&w| w.to_owned()).collect(),
        };
        let r = parse_line(&format!("{base} c0 \"the king walks\""), 1).unwrap();
        assert_eq!(
            (r.operations.last(), r.comment),
            (Some(&op("c0", &["the king walks"])), None)
        );
        let r = parse_line(&format!("{base} v9 Kd2 Kd7"), 1).unwrap();
        assert_eq!(
            (r.operations.last(), r.comment),
            (Some(&op("v9", &["Kd2", "Kd7"])), None)
        );
        let r = parse_line(&format!("{base} e4 is no move here"), 1).unwrap();
        assert_eq!(r.operations.len(), 2, "{:?}", r.operations);
        assert_eq!(r.comment.as_deref(), Some("e4 is no move here"));
    }

    /// The deepest mate count read is the last whose 2n - 1 plies fit in a search's depth
    /// limit ([`MAX_MATE_MOVES`]'s doc). By hand: MAX_DEPTH = MAX_PLY / 2 = 10 000 / 2 =
    /// 5000 plies (search/config.rs), and 2n - 1 <= 5000 gives n <= 2500; a mate in 2501
    /// is refused. The bound is also found by counting up, apart from the code's
    /// `div_ceil`.
    #[test]
    fn the_deepest_mate_count_read_is_the_last_that_fits_a_search() {
        let deepest = (1..)
            .take_while(|n| 2 * n - 1 <= crate::search::MAX_DEPTH)
            .last()
            .unwrap();
        assert_eq!(deepest, 2500);
        let on = "7k/5Q2/6K1/8/8/8/8/8 w - -";
        for claim in [format!("ce +M{deepest};"), format!("dm {deepest};")] {
            let r = parse_line(&format!("{on} {claim}"), 1).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(r.mate_in, Some(deepest), "{claim}");
        }
        let deeper = parse_line(&format!("{on} dm {};", deepest + 1), 1).unwrap_err();
        assert!(
            deeper.to_string().contains("deeper than any search"),
            "{deeper}"
        );
    }
}

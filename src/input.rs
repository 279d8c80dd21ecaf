//! Files from outside read with a cap on their size. Every reader of a file a user names
//! (experiment, test set, PGN, book, endgame database, weights, result table) goes through
//! here, so that an endless file (`/dev/zero`) or a huge one is refused with the cap instead
//! of filling the memory. It names nothing else in the crate, so games, knowledge, lab and
//! plot may all use it.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Take};
use std::path::Path;

/// The most a kind of input file may hold, and its name in the refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cap {
    /// The largest size allowed, in bytes.
    pub bytes: u64,
    /// The kind of file, as the message names it ("an input file").
    pub what: &'static str,
}

impl Cap {
    /// Text read whole into memory: experiment, test set, EPD, PGN, weights and learning
    /// files. 256 MiB is what EXPERIMENTS.md promises; the largest committed text input is
    /// far below a MiB.
    pub const TEXT: Self = Self {
        bytes: 256 << 20,
        what: "an input file",
    };

    /// Endgame databases. The largest the code builds are CHK4 (8 MiB) and KBNK (5 MiB), and
    /// no larger ending can be built (4 men at most, `tablebase::board`); 64 MiB leaves
    /// eight times the room and still refuses `/dev/zero` quickly.
    pub const DATABASE: Self = Self {
        bytes: 64 << 20,
        what: "an endgame database",
    };

    /// Opening books (Polyglot .bin, search books), held whole in memory as read: the text
    /// cap, as EXPERIMENTS.md promises for every input file. A Polyglot entry is 16 bytes, so
    /// that is 16 M positions; the books plylab builds and ships are tens of KiB.
    pub const BOOK: Self = Self {
        bytes: 256 << 20,
        what: "an opening book",
    };

    /// Result tables read back (searches.csv, searchers.csv, games.csv, plain or the
    /// decompressed bytes of `.gz`). The largest committed one is 14 MB (54 k rows, about 260
    /// bytes a row); 1 GiB is 4 M rows, and `plot` holds every row in memory.
    pub const RESULTS: Self = Self {
        bytes: 1 << 30,
        what: "a result table",
    };

    /// The error of a file larger than this cap.
    #[must_use]
    pub fn exceeded(self) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "larger than the {} MiB allowed for {}",
                self.bytes >> 20,
                self.what
            ),
        )
    }
}

/// A reader that fails with [`Cap::exceeded`] once more than the cap has been read from it.
#[derive(Debug)]
pub struct Capped<R> {
    /// The inner reader, limited to one byte past the cap: reading that byte proves the
    /// input too large.
    inner: Take<R>,
    cap: Cap,
}

impl<R: Read> Capped<R> {
    /// `inner` limited to `cap`.
    pub fn new(inner: R, cap: Cap) -> Self {
        Self {
            inner: inner.take(cap.bytes + 1),
            cap,
        }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.inner.limit() == 0 {
            return Err(self.cap.exceeded());
        }
        Ok(n)
    }
}

/// Opens `path` for reading within `cap`; a regular file larger than the cap is refused at
/// once, before anything is read.
///
/// # Errors
/// The file cannot be opened, or is larger than the cap.
pub fn open(path: &Path, cap: Cap) -> io::Result<Capped<File>> {
    let file = File::open(path)?;
    if file.metadata()?.len() > cap.bytes {
        return Err(cap.exceeded());
    }
    Ok(Capped::new(file, cap))
}

/// The bytes of the file at `path`, at most `cap`.
///
/// # Errors
/// The file cannot be read, or is larger than the cap.
pub fn read(path: &Path, cap: Cap) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path, cap)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// FNV-1a's offset basis and prime, 64 bits (Fowler, Noll and Vo).
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a, 64 bits (Fowler, Noll and Vo; IETF draft-eastlake-fnv): the fingerprints here,
/// the databases' and books' load-time checksums, the learning checkpoints' hash.
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_OFFSET, bytes)
}

/// FNV-1a continued from the hash `hash` of the bytes before `bytes`.
#[must_use]
pub fn fnv1a_from(hash: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

/// A fingerprint of the contents of the file at `path`: 64-bit FNV-1a, in hex. A run records
/// those of the files its searchers read (weights, endgame databases, books), so that a run
/// resuming it can tell a file that changed since (its path alone would not).
///
/// Reads at most the largest of the input caps ([`Cap::RESULTS`]): a fingerprint may be
/// taken before the file's own capped read, and an endless file (/dev/zero) must not hold
/// the run there.
///
/// # Errors
/// The file cannot be read (a directory cannot be either), or is larger than that cap.
pub fn fingerprint(path: &Path) -> io::Result<String> {
    let cap = Cap {
        what: "an input file",
        ..Cap::RESULTS
    };
    let mut file = Capped::new(File::open(path)?, cap);
    let mut hash = FNV_OFFSET;
    let mut chunk = [0u8; 1 << 16];
    loop {
        let n = file.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        hash = fnv1a_from(hash, &chunk[..n]);
    }
    Ok(format!("{hash:016x}"))
}

/// The fingerprint of `bytes` held in memory, as [`fingerprint`] gives it for a file of
/// those bytes: what stands for something that is not one file (a directory's listing).
#[must_use]
pub fn fingerprint_bytes(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a(bytes))
}

/// Whether `output` names the file `input` (both existing, by their canonical paths): a
/// command refuses to write its result over the input it reads (`suite --csv` over its
/// test set, `book build --out` over its PGN).
#[must_use]
pub fn same_file(output: &Path, input: &Path) -> bool {
    match (output.canonicalize(), input.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The text of the file at `path`, at most `cap`, naming the line and column of invalid
/// UTF-8 in the error.
///
/// # Errors
/// The file cannot be read, is larger than the cap, or is not UTF-8.
pub fn read_text(path: &Path, cap: Cap) -> io::Result<String> {
    utf8(read(path, cap)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
}

/// Where a text stops being UTF-8: its byte offset, line and column (both 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadUtf8 {
    /// Byte offset of the first invalid byte (0-based).
    pub offset: usize,
    /// Its line.
    pub line: usize,
    /// Its column, in characters.
    pub column: usize,
}

impl fmt::Display for BadUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the file is not UTF-8 text: invalid byte at line {}, column {} (byte offset {})",
            self.line, self.column, self.offset
        )
    }
}

/// `bytes` as text, or where its UTF-8 breaks. A leading byte-order mark (which Windows
/// editors write) is dropped: it would otherwise be read as part of the first word.
///
/// # Errors
/// The first invalid byte, located.
pub fn utf8(bytes: Vec<u8>) -> Result<String, BadUtf8> {
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let good = std::str::from_utf8(&e.as_bytes()[..offset]).unwrap_or_default();
        let line_start = good.rfind('\n').map_or(0, |i| i + 1);
        BadUtf8 {
            offset,
            line: good.matches('\n').count() + 1,
            column: good[line_start..].chars().count() + 1,
        }
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Cap = Cap {
        bytes: 4,
        what: "a test file",
    };

    /// The published FNV-1a test vectors, and a file's fingerprint equal to its bytes'.
    #[test]
    fn fingerprints_are_fnv1a() {
        assert_eq!(fingerprint_bytes(b""), "cbf29ce484222325");
        assert_eq!(fingerprint_bytes(b"a"), "af63dc4c8601ec8c");
        assert_eq!(fingerprint_bytes(b"foobar"), "85944171f73967e8");
        let tmp = crate::testing::TempDir::new("fnv");
        let file = tmp.path("foobar");
        std::fs::write(&file, b"foobar").expect("write");
        assert_eq!(fingerprint(&file).expect("read"), "85944171f73967e8");
        assert!(fingerprint(tmp.dir()).is_err(), "a directory");
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        assert_eq!(
            utf8(b"\xef\xbb\xbfname = 1\n".to_vec()).unwrap(),
            "name = 1\n"
        );
        assert_eq!(utf8(b"x\xef\xbb\xbf".to_vec()).unwrap(), "x\u{feff}");
    }

    #[test]
    fn a_reader_past_the_cap_fails_and_one_at_it_does_not() {
        let mut text = String::new();
        Capped::new(&b"abcd"[..], SMALL)
            .read_to_string(&mut text)
            .expect("at the cap");
        assert_eq!(text, "abcd");
        let err = Capped::new(&b"abcde"[..], SMALL)
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            err.to_string(),
            "larger than the 0 MiB allowed for a test file"
        );
    }

    #[test]
    fn an_endless_file_is_refused() {
        let endless = io::repeat(0);
        let err = Capped::new(endless, SMALL)
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert!(err.to_string().contains("a test file"), "{err}");
    }

    #[test]
    fn invalid_utf8_is_located() {
        let bad = utf8(b"name = \"x\"\nseed = \xff1\n".to_vec()).unwrap_err();
        assert_eq!((bad.line, bad.column, bad.offset), (2, 8, 18));
    }
}

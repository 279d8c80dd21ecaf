//! Result tables kept gzip-compressed beside or instead of the plain file.
//!
//! A run always writes plain `searches.csv` (appended row by row, so an interrupted run
//! loses nothing), a match plain `games.csv`. The committed results keep `searches.csv.gz`
//! and `games.csv.gz` instead, the same bytes compressed (`gzip -9 -n`, see
//! scripts/regenerate-results.sh): the repeated FEN strings and identical columns of a suite
//! compress about sevenfold, and pandas, polars and R read a `.csv.gz` directly. Readers here take whichever form is present, the plain file first
//! (it is the newer when both exist: a rerun writes it, the compressed one is committed),
//! within a size cap on the decompressed bytes ([`crate::input::Cap`]).

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::GzDecoder;

use crate::input::{Cap, Capped};

/// `path` with `.gz` appended: `searches.csv` gives `searches.csv.gz`.
#[must_use]
pub fn gz_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".gz");
    PathBuf::from(name)
}

/// Whether `path` or its compressed form exists.
#[must_use]
pub fn exists(path: &Path) -> bool {
    path.exists() || gz_path(path).exists()
}

/// Opens `path` for reading, or else its compressed form, decompressing as it reads, within
/// [`Cap::RESULTS`].
///
/// # Errors
/// The error of opening `path` when neither form exists; an I/O error otherwise, a file
/// larger than the cap (decompressed) included.
pub fn open(path: &Path) -> io::Result<Box<dyn Read>> {
    open_within(path, Cap::RESULTS)
}

/// [`open`] within `cap`: the plain file, or the decompressed bytes of the compressed one
/// (a small `.gz` can hold an endless stream of zeros). A `path` that itself ends in `.gz`
/// is decompressed as it is read, so that `games.csv.gz` may be named directly.
///
/// # Errors
/// As [`open`].
pub fn open_within(path: &Path, cap: Cap) -> io::Result<Box<dyn Read>> {
    if path.extension().is_some_and(|e| e == "gz") {
        return Ok(decompressed(File::open(path)?, path, cap));
    }
    match crate::input::open(path, cap) {
        Ok(file) => Ok(Box::new(BufReader::new(file))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => match File::open(gz_path(path)) {
            Ok(gz) => Ok(decompressed(gz, &gz_path(path), cap)),
            Err(_) => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// The decompressed bytes of the gzip file `gz` (at `path`), within `cap`.
fn decompressed(gz: File, path: &Path, cap: Cap) -> Box<dyn Read> {
    let stream = GzDecoder::new(BufReader::new(gz));
    Box::new(Capped::new(Damage(stream, path.display().to_string()), cap))
}

/// A gzip stream whose errors are the file's damage (a bad header, a truncated or corrupt
/// stream): [`io::ErrorKind::InvalidData`] naming the file (the plain name may have been
/// asked for), which readers report as bad input, not as a failure of the machine.
struct Damage<R>(R, String);

impl<R: Read> Read for Damage<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted | io::ErrorKind::InvalidData => e,
            _ => io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} is not a whole gzip file: {e}", self.1),
            ),
        })
    }
}

/// Where only the compressed form of `path` exists, writes the plain file from it and
/// removes the compressed one (a resumed run appends to the plain file, which then holds
/// every row; a stale compressed copy beside it would disagree). Returns whether it did.
///
/// # Errors
/// An I/O error reading the compressed file or writing the plain one;
/// [`io::ErrorKind::InvalidData`] naming the compressed file where it is damaged.
pub fn restore(path: &Path) -> io::Result<bool> {
    let gz = gz_path(path);
    if path.exists() || !gz.exists() {
        return Ok(false);
    }
    let mut text = Vec::new();
    decompressed(File::open(&gz)?, &gz, Cap::RESULTS).read_to_end(&mut text)?;
    // The compressed file goes only once the plain one is whole.
    crate::output::replace_bytes(path, &text)?;
    std::fs::remove_file(gz)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TempDir;
    use flate2::{Compression, write::GzEncoder};
    use std::io::Write;

    fn write_gz(path: &Path, text: &[u8]) {
        let mut e = GzEncoder::new(File::create(gz_path(path)).unwrap(), Compression::best());
        e.write_all(text).unwrap();
        e.finish().unwrap();
    }

    fn read_all(path: &Path) -> String {
        let mut s = String::new();
        open(path).unwrap().read_to_string(&mut s).unwrap();
        s
    }

    #[test]
    fn either_form_reads_and_the_plain_one_wins() {
        let dir = TempDir::new("gz-read");
        let csv = dir.path("searches.csv");
        assert!(!exists(&csv));
        assert_eq!(
            open(&csv).err().map(|e| e.kind()),
            Some(io::ErrorKind::NotFound)
        );
        write_gz(&csv, b"a,b\n1,2\n");
        assert!(exists(&csv));
        assert_eq!(read_all(&csv), "a,b\n1,2\n");
        std::fs::write(&csv, "a,b\n3,4\n").unwrap();
        assert_eq!(read_all(&csv), "a,b\n3,4\n");
        // The compressed file named itself reads decompressed; a damaged one is bad data.
        assert_eq!(read_all(&gz_path(&csv)), "a,b\n1,2\n");
        let damaged = dir.path("damaged.csv.gz");
        std::fs::write(&damaged, b"a,b\n1,2\n").unwrap();
        let err = open(&damaged)
            .unwrap()
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{err}");
        let named = "damaged.csv.gz is not a whole gzip file";
        assert!(err.to_string().contains(named), "{err}");
    }

    #[test]
    fn restore_replaces_the_compressed_form_and_refuses_a_corrupt_one() {
        let dir = TempDir::new("gz-restore");
        let csv = dir.path("searches.csv");
        write_gz(&csv, b"x\n7\n");
        assert!(restore(&csv).unwrap());
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), "x\n7\n");
        assert!(!gz_path(&csv).exists());
        assert!(!restore(&csv).unwrap());
        std::fs::remove_file(&csv).unwrap();
        std::fs::write(gz_path(&csv), b"not gzip at all").unwrap();
        assert!(restore(&csv).is_err());
    }

    #[test]
    fn a_compressed_stream_past_the_cap_is_refused() {
        let dir = TempDir::new("gz-cap");
        let csv = dir.path("searches.csv");
        write_gz(&csv, &[b'0'; 100]);
        let cap = Cap {
            bytes: 99,
            what: "a test table",
        };
        let err = open_within(&csv, cap)
            .unwrap()
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert!(err.to_string().contains("a test table"), "{err}");
    }
}

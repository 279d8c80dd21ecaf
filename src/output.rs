//! Files written whole or not at all: results, books, databases, checkpoints.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes the file at `path` anew: `write` fills a temporary file beside it, which is then
/// renamed over `path`. Stopped or failing at any moment, `path` holds its old content or
/// the new one whole, never a part (a `--resume` interrupted while it wrote the kept rows
/// back had left searches.csv empty). The temporary file is named after this process, so
/// two writers of one file never share it; a symbolic link is written through (the file it
/// names is replaced, not the link).
///
/// # Errors
/// What `write`, the temporary file or the rename report; the temporary file is removed.
pub fn replace<T>(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<T>,
) -> io::Result<T> {
    let resolved = path
        .is_symlink()
        .then(|| std::fs::canonicalize(path).ok())
        .flatten();
    let path = resolved.as_deref().unwrap_or(path);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = File::create(&tmp).and_then(|file| {
        let mut file = BufWriter::new(file);
        let value = write(&mut file)?;
        file.into_inner().map_err(io::IntoInnerError::into_error)?;
        std::fs::rename(&tmp, path)?;
        Ok(value)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// [`replace`] with `bytes`.
///
/// # Errors
/// As [`replace`].
pub fn replace_bytes(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, |file| file.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_one() {
        let dir = std::env::temp_dir().join(format!("plylab-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rows.csv");
        replace_bytes(&path, b"old\n").unwrap();
        let failed = replace(&path, |file| {
            file.write_all(b"half of the new")?;
            Err::<(), _>(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old\n");
        replace_bytes(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

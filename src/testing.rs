//! What the library's own unit tests share (compiled for them only). The integration tests
//! in tests/ include this file too, through tests/common: the library cannot reach
//! tests/common, but a test crate can name a file of src/.

use std::path::{Path, PathBuf};

/// A fresh, empty directory under the system's temporary directory, named after the test
/// and this process, removed when dropped: also when the test fails, so that a failed test
/// leaves nothing behind and the next run starts empty.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty directory for the test `name` (unique among the tests of one binary).
    pub(crate) fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("plylab-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary directory");
        Self(dir)
    }

    /// The directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.0
    }

    /// A path inside the directory.
    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

//! Helpers shared by the command-line tests: run the binary, scratch directories.

#![allow(dead_code)] // each test file uses a different subset

use std::path::PathBuf;
use std::process::Command;

/// Runs the binary with `args` from the crate's root and returns (exit code, stdout, stderr).
pub fn plylab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_plylab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A scratch directory under the system's temporary directory, unique to this process and
/// `name`, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A fresh, empty directory.
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("plylab-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Self(dir)
    }

    /// A path inside the directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

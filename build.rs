//! Records the commit this binary is built from, for run.json (issue 19, point 12).
//!
//! `PLYLAB_GIT_COMMIT` is `git rev-parse HEAD`, with `-dirty` when a source file (anything
//! that goes into the binary: src/, build.rs, Cargo.toml, Cargo.lock) differs from it, or
//! `unknown` outside a git checkout (a crate tarball) or without git. Results, experiment
//! files and documents are not sources: a run writing results/ leaves the next build clean.

use std::path::Path;
use std::process::Command;

/// The paths whose changes make a build dirty.
const SOURCES: [&str; 4] = ["src", "build.rs", "Cargo.toml", "Cargo.lock"];

fn git(args: &[&str]) -> Option<String> {
    // --no-optional-locks: `git status` must not rewrite the index (that would make this
    // script rerun on every build).
    let output = Command::new("git")
        .arg("--no-optional-locks")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

fn main() {
    for path in SOURCES {
        println!("cargo:rerun-if-changed={path}");
    }
    let commit = match git(&["rev-parse", "HEAD"]).filter(|h| !h.is_empty()) {
        Some(head) => {
            // Rerun when HEAD moves: the HEAD file (a branch switch) and the branch's ref (a
            // commit), wherever this checkout (or worktree) keeps them.
            let mut watched = vec![git(&["rev-parse", "--git-path", "HEAD"])];
            if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                watched.push(git(&["rev-parse", "--git-path", &branch]));
            }
            watched.push(git(&["rev-parse", "--git-path", "packed-refs"]));
            for path in watched.into_iter().flatten() {
                if Path::new(&path).exists() {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
            let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
            status.extend(SOURCES);
            let dirty = git(&status).is_some_and(|s| !s.is_empty());
            if dirty { format!("{head}-dirty") } else { head }
        }
        None => "unknown".to_owned(),
    };
    println!("cargo:rustc-env=PLYLAB_GIT_COMMIT={commit}");
}

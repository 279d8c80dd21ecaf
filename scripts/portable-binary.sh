#!/usr/bin/env bash
# Builds plylab as one self-contained file, for a machine that has neither network nor Rust
# (a lent 16-core machine: README.md, "Parallel search, and bigger machines"): statically
# linked (glibc's crt-static, so the other machine's C library does not matter), stripped,
# for x86-64-v2 like the normal build (.cargo/config.toml; RUSTFLAGS replaces its flags, so
# they are repeated here). Writes target/portable/plylab (about 15 MB;
# the release binary, with its line tables, is about 70 MB) and prints its version.
#
#   scripts/portable-binary.sh
set -euo pipefail
cd "$(dirname "$0")/.."
host=$(rustc -vV | sed -n 's/^host: //p')
RUSTFLAGS="-C target-cpu=x86-64-v2 -C target-feature=+crt-static -C strip=symbols" \
    cargo build --release --locked --bin plylab --target "$host" --target-dir target/portable-build
mkdir -p target/portable
cp "target/portable-build/$host/release/plylab" target/portable/plylab
ls -l target/portable/plylab
target/portable/plylab --version

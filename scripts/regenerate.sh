#!/usr/bin/env bash
# Reruns every experiment in experiments/ and redraws every chart in results/.
#   scripts/regenerate.sh          all experiments, full size
#   scripts/regenerate.sh --plots-only  only redraw the charts of the committed results (no search)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
if [[ "${1:-}" == "--plots-only" ]]; then
    for dir in results/*/; do
        ./target/release/plylab plot "$dir"
    done
    exit 0
fi
for file in experiments/*.toml; do
    echo "== $file"
    ./target/release/plylab experiment "$file"
done

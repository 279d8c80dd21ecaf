#!/usr/bin/env bash
# Reruns every experiment in experiments/ and redraws every chart in results/.
#   scripts/regenerate.sh               every experiment, full size, into results/
#                                       (scripts/regenerate-results.sh, which has the flags)
#   scripts/regenerate.sh --quick       a reduced run of every experiment (two positions per
#                                       game, 200,000 nodes per job) into target/quick/, to
#                                       check the whole pipeline in seconds
#   scripts/regenerate.sh --plots-only  only redraw the charts of the committed results
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
plylab=./target/release/plylab
case "${1:-}" in
    --plots-only)
        for dir in results/*/; do
            "$plylab" plot "$dir"
        done
        ;;
    --quick)
        for file in experiments/*.toml; do
            echo "== $file (quick)"
            "$plylab" experiment "$file" --quick --force
        done
        ;;
    "")
        exec scripts/regenerate-results.sh
        ;;
    *)
        echo "usage: $0 [--quick | --plots-only]" >&2
        exit 2
        ;;
esac

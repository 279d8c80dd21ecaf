#!/usr/bin/env bash
# Reruns every experiment in experiments/ and redraws every chart in results/.
#   scripts/regenerate.sh               every experiment, full size, into results/
#                                       (scripts/regenerate-results.sh, which has the flags)
#   scripts/regenerate.sh --quick       a reduced run of every experiment and arena file (two
#                                       positions per game, 200,000 nodes per job) into
#                                       target/quick/, to check the whole pipeline; not the
#                                       learning files
#   scripts/regenerate.sh --plots-only  only redraw the charts and summary.md of the committed
#                                       experiments and matches (not the learning runs')
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
plylab=./target/release/plylab
case "${1:-}" in
    --plots-only)
        # The directories of one experiment or match: not the learning runs' (their charts
        # are drawn by `plylab learn`), nor results/vs_python_chess, whose summary.md is
        # written by hand.
        for dir in results/*/; do
            if [ -e "$dir/searches.csv" ] || [ -e "$dir/searches.csv.gz" ] ||
                [ -e "$dir/standings.csv" ]; then
                "$plylab" plot "$dir"
            fi
        done
        ;;
    --quick)
        for file in experiments/*.toml; do
            # Learning files are run by `plylab learn`, which has no reduced run.
            case "$file" in experiments/learn_*) continue ;; esac
            if [ "$file" = experiments/knowledge.toml ]; then
                scripts/knowledge-tablebases.sh "$plylab"
            fi
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

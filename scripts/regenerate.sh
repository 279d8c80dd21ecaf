#!/usr/bin/env bash
# Reruns every experiment in experiments/ and redraws every chart in results/.
#   scripts/regenerate.sh               every experiment, full size, into results/
#                                       (scripts/regenerate-results.sh, which has the flags)
#   scripts/regenerate.sh --quick       a reduced run of every experiment and arena file (two
#                                       positions per game, 200,000 nodes per job) into
#                                       target/quick/, to check the whole pipeline; not the
#                                       learning files, nor (saying so) a match whose external
#                                       program is not installed
#   scripts/regenerate.sh --plots-only  only redraw the charts and summary.md of the committed
#                                       experiments and matches (not the learning runs')
set -euo pipefail
cd "$(dirname "$0")/.."
case "$#:${1:-}" in
    0: | 1:--quick | 1:--plots-only) ;;
    *)
        echo "usage: $0 [--quick | --plots-only]" >&2
        exit 2
        ;;
esac
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
            # A match against a program this machine lacks (gnubg, gtp-rhino) is skipped,
            # with the check's own words; any other refusal stops the run.
            if ! missing=$("$plylab" experiment "$file" --quick --dry-run 2>&1 >/dev/null); then
                case "$missing" in
                    *": program \`"*"\` not found"*)
                        echo "== $file skipped: $missing" >&2
                        continue
                        ;;
                esac
                echo "$missing" >&2
                exit 2
            fi
            echo "== $file (quick)"
            "$plylab" experiment "$file" --quick --force
        done
        ;;
    "")
        exec scripts/regenerate-results.sh
        ;;
esac

#!/usr/bin/env bash
# Pascal Pons's connect-four solver against plylab's best configuration, side by side on the
# same machine, one thread each, on Pons-style test sets (`<moves> <score>` per line).
#
#   scripts/vs-pons.sh PONS_SOLVER SET_FILE...
#
# PONS_SOLVER: his step-12 solver, without opening book, built from his repository at the
# commit of part 12, whose main prints `<moves> <score> <nodes> <microseconds>` per line:
#   git clone https://github.com/PascalPons/connect4 && cd connect4 \
#     && git checkout 514a128fb095271759ea553394356f03e9f13cc4 && make c4solver
# (later commits add the opening book of part 13 and print the score only). It resets its
# table before each position and times `solve` alone.
#
# plylab: its best configuration, `target/release/plylab suite connect4 SET --pons --etc
# --tt-mb 2 --no-iterative --wipe-table --jobs 1`: every solver switch of src/search/solve.rs
# (immediate wins, score window, grain 2, null-window search on the score, anticipation,
# threat ordering, lower and upper bounds in a compact table) and enhanced transposition
# cutoff. The table is 2 MiB (262,139 slots: a search of these sets stores 50 to 33,000
# positions on average), small enough to stay in a core's second-level cache, where a probe
# costs a fraction of a trip to the shared cache or memory (with 16 MiB the same searches take
# up to 1.5x the time). The whole table is wiped between positions outside the timed search,
# as his reset() wipes his, and each search is timed alike (experiments/connect4.toml's `best`
# rung). PLYLAB overrides the binary.
#
# Each set runs ROUNDS times (default 3), the two solvers in turn, and each solver's smallest
# total time is kept: on a shared machine, what other programs take from a run only ever adds
# to its time. Node counts are the same in every round (both solvers are deterministic).
#
# Fetches nothing. Writes CSV to stdout: set,positions,pons_s,plylab_s,pons_nodes,plylab_nodes
# (total seconds of search and total positions explored over the set). Any position either
# solver answers wrongly is reported on stderr and fails the script (exit 1).
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 PONS_SOLVER SET_FILE..." >&2
    exit 2
fi
pons=$1
shift
plylab=${PLYLAB:-target/release/plylab}
rounds=${ROUNDS:-3}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "$0: ROUNDS must be a positive number, not '$rounds'" >&2; exit 2; }
for f in "$pons" "$plylab"; do
    [ -x "$f" ] || { echo "$0: $f is not an executable" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# Pons's solver on set $1: "<seconds> <nodes>". His lines are `<moves> <score> <nodes>
# <microseconds>`; the set's are `<moves> <score>`.
run_pons() {
    cut -d' ' -f1 "$1" | "$pons" > "$tmp/pons.out" \
        || { echo "$name: Pons's solver $pons failed (exit $?)" >&2; exit 1; }
    local wrong
    wrong=$(paste -d' ' "$1" "$tmp/pons.out" | awk '$2 != $4 {n++} END {print n+0}')
    [ "$wrong" -eq 0 ] || { echo "$name: Pons's solver answers $wrong positions wrongly" >&2; status=1; }
    awk '{n += $3; t += $4} END {printf "%.6f %d\n", t / 1e6, n}' "$tmp/pons.out"
}

# plylab's best configuration on set $1 ($2 positions): "<seconds> <nodes>".
run_plylab() {
    "$plylab" suite connect4 "$1" --pons --etc --tt-mb 2 --no-iterative --wipe-table --jobs 1 --force \
        --csv "$tmp/plylab.csv" > "$tmp/plylab.out" 2> "$tmp/plylab.err" \
        || { cat "$tmp/plylab.err" >&2; exit 2; }
    grep -q "exact $2/$2" "$tmp/plylab.out" \
        || { echo "$name: plylab: $(tail -1 "$tmp/plylab.out")" >&2; status=1; }
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { n += $col["total_nodes"]; t += $col["time_to_depth_s"] }
        END { printf "%.6f %d\n", t, n }' "$tmp/plylab.csv"
}

# The smaller of two times; the second when the first is empty (the first round).
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0 ? b : a) }'; }

echo "set,positions,pons_s,plylab_s,pons_nodes,plylab_nodes"
for set in "$@"; do
    [ -r "$set" ] || { echo "$0: cannot read $set" >&2; exit 2; }
    name=$(basename "$set")
    positions=$(grep -c . "$set") || { echo "$0: $set has no positions" >&2; exit 2; }
    pons_s="" plylab_s=""
    for _ in $(seq "$rounds"); do
        # Not in a subshell: their failures set `status` (or exit) for the script.
        run_pons "$set" > "$tmp/pons.total"
        read -r s pons_nodes < "$tmp/pons.total"
        pons_s=$(min "$pons_s" "$s")
        run_plylab "$set" "$positions" > "$tmp/plylab.total"
        read -r s plylab_nodes < "$tmp/plylab.total"
        plylab_s=$(min "$plylab_s" "$s")
    done
    echo "$name,$positions,$pons_s,$plylab_s,$pons_nodes,$plylab_nodes"
done
exit $status

#!/usr/bin/env bash
# Runs experiments/scaling.toml, then experiments/scaling_arena.toml, on a machine with at
# least 16 cores and neither network nor Rust (a lent machine: README.md, "Parallel search,
# and bigger machines"), in one command, and packs what they wrote into OUT/scaling.tar.gz
# (with the machine's description and the log) to carry back.
#
#   scripts/portable-binary.sh                        # here: target/portable/plylab
#   scripts/scaling-run.sh OUT [SCALING_S [ARENA_S]]  # there, target/portable carried
#
# Each experiment gets a wall-clock budget (default 330 s and 230 s; they took 306 s and
# 181 s on a lent 16-core Xeon): past it, a Ctrl-C (SIGINT) stops it the way plylab
# documents, keeping every finished job and game, so the pack always comes back. Back here,
# `plylab plot` draws the charts (README.md gives the steps).
set -uo pipefail
out=${1:?usage: scripts/scaling-run.sh OUT [SCALING_S [ARENA_S]]}
scaling_s=${2:-330}
arena_s=${3:-230}
cd "$(dirname "$0")/.."
plylab=target/portable/plylab
mkdir -p "$out"
log="$out/log.txt"
{
    date -u
    nproc
    lscpu
    free -g
} >"$out/machine.txt" 2>&1
run() { # BUDGET_S FILE NAME
    echo "== $2: at most $1 s" | tee -a "$log"
    timeout -s INT -k 30 "$1" "$plylab" experiment "$2" --out "$out/$3" --no-plot 2>&1 |
        tee -a "$log" | grep -v '^progress:'
    echo "== $2: exit ${PIPESTATUS[0]}" | tee -a "$log"
}
run "$scaling_s" experiments/scaling.toml scaling
run "$arena_s" experiments/scaling_arena.toml scaling_arena
tar -czf "$out/scaling.tar.gz" -C "$out" machine.txt log.txt scaling scaling_arena &&
    rm -rf "$out/scaling" "$out/scaling_arena"
ls -l "$out"

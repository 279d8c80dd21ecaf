#!/usr/bin/env bash
# Runs experiments/scaling.toml, then experiments/scaling_arena.toml (or the experiments
# named), on a machine with at least 16 cores and neither network nor Rust (a lent machine:
# README.md, "Parallel search, and bigger machines"), in one command, and packs what they
# wrote into OUT/scaling.tar.gz (with the machine's description and the log) to carry back.
#
#   scripts/portable-binary.sh                          # here: target/portable/plylab
#   scripts/scaling-run.sh OUT [NAME=BUDGET_S ...]      # there, target/portable carried
#
# NAME is an experiment of experiments/ (NAME.toml), written to NAME in the pack; the
# default is `scaling=520 scaling_arena=230` (they took about 470 s and 181 s on a lent
# 16-core Xeon, more than one command's ten minutes together: run them one at a time there,
# `scripts/scaling-run.sh OUT scaling=520`). Past its budget in seconds, a Ctrl-C (SIGINT)
# stops an experiment the way plylab documents, keeping every finished job and game, so the
# pack always comes back. Back here, `plylab plot` draws the charts (README.md gives the
# steps).
set -uo pipefail
out=${1:?usage: scripts/scaling-run.sh OUT [NAME=BUDGET_S ...]}
shift
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(scaling=520 scaling_arena=230)
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
names=()
for spec in "${runs[@]}"; do
    name=${spec%%=*}
    budget=${spec#*=}
    file=experiments/$name.toml
    echo "== $file: at most $budget s" | tee -a "$log"
    timeout -s INT -k 30 "$budget" "$plylab" experiment "$file" --out "$out/$name" --no-plot 2>&1 |
        tee -a "$log" | grep -v '^progress:'
    echo "== $file: exit ${PIPESTATUS[0]}" | tee -a "$log"
    names+=("$name")
done
tar -czf "$out/scaling.tar.gz" -C "$out" machine.txt log.txt "${names[@]}" &&
    (cd "$out" && rm -rf "${names[@]}")
ls -l "$out"

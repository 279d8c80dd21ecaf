#!/usr/bin/env bash
# Runs experiments/scaling.toml, then experiments/scaling_arena.toml (or the experiments
# named), on a machine with at least 16 cores and neither network nor Rust (a lent machine:
# README.md, "Parallel search, and bigger machines"), in one command, and packs what they
# wrote into OUT/scaling.tar.gz (with the machine's description and the log) to carry back.
#
#   scripts/portable-binary.sh                          # here: target/portable/plylab
#   scripts/scaling-run.sh OUT [NAME=BUDGET_S ...]      # there, target/portable carried
#
# NAME is an experiment of experiments/ (NAME.toml), written to NAME in the pack, or
# `calibrate`, which measures the machine rather than plylab's parallel searches: each of
# three single-threaded commands (chess perft, which touches almost no memory; UCT on
# connect four, whose tree grows by tens of megabytes a second; UCT on chess) run alone and then as
# one process per core at once, three times, into calibrate.csv (one row per run:
# command, copies, wall seconds). 16 copies taking as long as one would be perfect
# scaling; the ratio `copies × alone / together` is the most any search of that kind can
# scale there, separate processes sharing nothing but the hardware (about half a minute on
# 16 cores; `calibrate` takes no budget). The
# default is `scaling=520 scaling_arena=230` (they took about 470 s and 181 s on a lent
# 16-core Xeon, more than one command's ten minutes together: run them one at a time there,
# `scripts/scaling-run.sh OUT scaling=520`). Past its budget in seconds, a Ctrl-C (SIGINT)
# stops an experiment the way plylab documents, keeping every finished job and game, so the
# pack always comes back. Back here, `plylab plot` draws the charts (README.md gives the
# steps). PLYLAB names another binary than target/portable/plylab. OUT and PLYLAB are taken
# from the directory the script is started in. Exit 0 when every run ended normally or at
# its budget (130), 1 when one failed (the pack still comes back, its log saying which),
# 2 for a bad argument, before anything runs.
set -uo pipefail
usage="usage: scripts/scaling-run.sh OUT [NAME=BUDGET_S ...]"
refuse() {
    echo "scaling-run.sh: $1" >&2
    exit 2
}
[ $# -ge 1 ] || refuse "$usage"
out=$(realpath -m -- "$1")
shift
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(scaling=520 scaling_arena=230)
plylab=${PLYLAB:+$(realpath -m -- "$PLYLAB")}
cd "$(dirname "$0")/.." || exit 2
plylab=${plylab:-$PWD/target/portable/plylab}
[ -x "$plylab" ] || refuse "no plylab binary at $plylab (build it with scripts/portable-binary.sh and carry target/portable, or set PLYLAB)"
# Every argument is checked before anything runs: a typo found after an hour's run would
# cost the loan.
for spec in "${runs[@]}"; do
    [ "$spec" = calibrate ] && continue
    name=${spec%%=*}
    budget=${spec#*=}
    if [ "$name" = "$spec" ] || ! [[ "$budget" =~ ^[1-9][0-9]*$ ]]; then
        refuse "\`$spec\`: give NAME=BUDGET_S (seconds, a whole number) or calibrate; $usage"
    fi
    [ -f "experiments/$name.toml" ] || refuse "\`$spec\`: there is no experiments/$name.toml"
done
mkdir -p "$out" || exit 2
log="$out/log.txt"
failed=0
{
    date -u
    nproc
    lscpu
    free -g
} >"$out/machine.txt" 2>&1
# One row of calibrate.csv: "$@" run as $1 separate processes at once. A copy that fails
# makes the row worthless: it is logged and the calibration stops.
timed_copies() {
    local copies=$1 start end pids=() pid
    shift
    start=$(date +%s.%N)
    for _ in $(seq "$copies"); do
        "$plylab" "$@" >/dev/null 2>>"$out/calibrate/errors.txt" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        wait "$pid" || {
            echo "calibrate: \`plylab $*\` failed (exit $?): see calibrate/errors.txt"
            return 1
        }
    done
    end=$(date +%s.%N)
    awk -v cmd="$*" -v n="$copies" -v s="$start" -v e="$end" \
        'BEGIN { printf "\"%s\",%d,%.3f\n", cmd, n, e - s }' >>"$out/calibrate/calibrate.csv"
}

# "$@" alone, then one copy per core.
alone_and_together() {
    timed_copies 1 "$@" && timed_copies "$(nproc)" "$@"
}

calibrate() {
    local fen="r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - -"
    mkdir -p "$out/calibrate"
    echo "command,copies,wall_s" >"$out/calibrate/calibrate.csv"
    for _ in 1 2 3; do
        alone_and_together perft chess start 6 &&
            alone_and_together search connect4 44 --algorithm uct --nodes 1000000 &&
            alone_and_together search chess "$fen" --algorithm uct --nodes 20000 || return 1
    done
    cat "$out/calibrate/calibrate.csv"
}

names=()
for spec in "${runs[@]}"; do
    name=${spec%%=*}
    budget=${spec#*=}
    if [ "$name" = calibrate ]; then
        echo "== calibrate: the machine's own scaling" | tee -a "$log"
        calibrate 2>&1 | tee -a "$log"
        [ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
        names+=(calibrate)
        continue
    fi
    file=experiments/$name.toml
    echo "== $file: at most $budget s" | tee -a "$log"
    timeout --preserve-status -s INT -k 30 "$budget" "$plylab" experiment "$file" --out "$out/$name" --no-plot 2>&1 |
        tee -a "$log" | grep -v '^progress:'
    status=${PIPESTATUS[0]}
    echo "== $file: exit $status" | tee -a "$log"
    # 130: stopped at its budget by the SIGINT, every finished job kept.
    [ "$status" -eq 0 ] || [ "$status" -eq 130 ] || failed=1
    [ -d "$out/$name" ] && names+=("$name")
done
if tar -czf "$out/scaling.tar.gz" -C "$out" machine.txt log.txt "${names[@]}"; then
    (cd "$out" && rm -rf "${names[@]}")
else
    echo "scaling-run.sh: packing failed: the runs are left unpacked in $out" >&2
    rm -f "$out/scaling.tar.gz"
    failed=1
fi
ls -l "$out"
exit "$failed"

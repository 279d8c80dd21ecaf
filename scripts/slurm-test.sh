#!/usr/bin/env bash
# plylab against a real Slurm: a single-node cluster on this machine (munged, slurmctld,
# slurmd from Debian's slurm-wlm and munge), the script `plylab slurm` writes checked with
# `sbatch --test-only`, a small experiment run as a job array of 4 shards with
# `sbatch --wait`, the merge job it chains (--dependency=afterok), and the merged
# searches.csv compared with a one-machine run, timing columns removed (the columns
# TIMING_COLUMNS in tests/common/mod.rs names): node counts must be byte-identical.
#
# Exits 0 with "SKIP: <reason>" where it cannot run (not root, no apt and no Slurm, the
# daemons do not start), 1 when the cluster ran and anything differs or fails. Every wait
# has a timeout; the whole script takes well under 3 minutes. The daemons it started are
# stopped on exit, and everything it wrote is under one temporary directory.
#
# Usage: scripts/slurm-test.sh [PLYLAB_BINARY]   (default target/release/plylab, built if
# missing). Keep the temporary directory with KEEP=1.
set -uo pipefail
# A binary given is taken from the directory the script is started in.
PLYLAB=${1:+$(realpath -m -- "$1")}
cd "$(dirname "$0")/.." || exit 1

skip() { echo "slurm-test: SKIP: $*"; exit 0; }
fail() { echo "slurm-test: FAIL: $*"; show_logs; exit 1; }
say() { echo "slurm-test: $*"; }
show_logs() {
    [ -n "${TMP:-}" ] || return 0
    for f in "$TMP"/slurmctld.log "$TMP"/slurmd.log "$TMP"/munged.log "$TMP"/results/logs/*; do
        [ -s "$f" ] && { echo "--- $f (last lines)"; tail -n 15 "$f"; }
    done
    return 0
}

[ "$(id -u)" -eq 0 ] || skip "not root (installing Slurm and starting its daemons needs root)"

install_slurm() {
    command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
        && command -v munged >/dev/null && command -v sbatch >/dev/null && return 0
    command -v apt-get >/dev/null || skip "Slurm is not installed and apt-get is unavailable"
    say "installing slurm-wlm and munge"
    timeout 45 apt-get update -qq >/dev/null 2>&1 || skip "apt-get update failed (offline?)"
    DEBIAN_FRONTEND=noninteractive timeout 150 apt-get install -y -qq slurm-wlm munge \
        >/dev/null 2>&1 || skip "apt-get install slurm-wlm munge failed"
}
install_slurm

if [ -z "$PLYLAB" ]; then
    PLYLAB=$PWD/target/release/plylab
    if [ ! -x "$PLYLAB" ]; then
        say "building $PLYLAB"
        cargo build --release --quiet || fail "cargo build --release"
    fi
fi
# Checked before any daemon starts.
[ -x "$PLYLAB" ] || fail "no plylab binary at $PLYLAB"

TMP=$(mktemp -d /tmp/plylab-slurm.XXXXXX)
PIDS=()
cleanup() {
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
        timeout 10 scancel --user=root >/dev/null 2>&1
    fi
    # The daemons in reverse order of starting; each gets 5 s to stop before SIGKILL.
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        local pid=${PIDS[i]} tries=0
        kill "$pid" 2>/dev/null
        while kill -0 "$pid" 2>/dev/null && [ $tries -lt 50 ]; do
            sleep 0.1
            tries=$((tries + 1))
        done
        kill -9 "$pid" 2>/dev/null
    done
    if [ "${KEEP:-0}" = 1 ]; then say "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT

# Polls `test` every half second for at most `seconds`.
wait_for() {
    local seconds=$1; shift
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        [ "$SECONDS" -ge "$deadline" ] && return 1
        sleep 0.5
    done
}

# --- munged with a generated key, its socket in the temporary directory
mkdir -p "$TMP/munge" "$TMP/state" "$TMP/spool"
chmod 700 "$TMP/munge"
head -c 1024 /dev/urandom > "$TMP/munge/munge.key"
chmod 400 "$TMP/munge/munge.key"
SOCKET="$TMP/munge/munge.socket.2"
munged --force --key-file="$TMP/munge/munge.key" --socket="$SOCKET" \
    --pid-file="$TMP/munge/munged.pid" --log-file="$TMP/munged.log" \
    --seed-file="$TMP/munge/munged.seed" 2>"$TMP/munged.err" \
    || skip "munged does not start: $(cat "$TMP/munged.err")"
wait_for 10 test -s "$TMP/munge/munged.pid" || skip "munged wrote no pid file"
PIDS+=("$(cat "$TMP/munge/munged.pid")")
wait_for 10 test -S "$SOCKET" || skip "munged made no socket"

# --- slurm.conf: this node's real CPUs and memory (slurmd -C), no cgroups, no accounting
NODE_LINE=$(slurmd -C 2>/dev/null | head -n 1)
case "$NODE_LINE" in NodeName=*) ;; *) skip "slurmd -C does not describe this node" ;; esac
NODE=$(echo "$NODE_LINE" | sed 's/^NodeName=\([^ ]*\).*/\1/')
CPUS=$(echo "$NODE_LINE" | sed 's/.* CPUs=\([0-9]*\).*/\1/')
# Ports from the process id, away from Slurm's defaults (6817/6818) and other runs.
PORT=$((20000 + ($$ % 20000) * 2))
export SLURM_CONF="$TMP/slurm.conf"
cat > "$SLURM_CONF" <<EOF
ClusterName=plylabtest
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmctldParameters=enable_configless
$NODE_LINE NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
say "cluster: $NODE_LINE"

slurmctld -i -f "$SLURM_CONF" 2>"$TMP/slurmctld.err" || skip "slurmctld does not start: $(cat "$TMP/slurmctld.err")"
wait_for 15 test -s "$TMP/slurmctld.pid" || skip "slurmctld wrote no pid file"
PIDS+=("$(cat "$TMP/slurmctld.pid")")
slurmd -f "$SLURM_CONF" 2>"$TMP/slurmd.err" || skip "slurmd does not start: $(cat "$TMP/slurmd.err")"
wait_for 15 test -s "$TMP/slurmd.pid" || skip "slurmd wrote no pid file"
PIDS+=("$(cat "$TMP/slurmd.pid")")
node_idle() { [ "$(timeout 5 sinfo -h -n "$NODE" -o %t 2>/dev/null)" = idle ]; }
if ! wait_for 30 node_idle; then
    show_logs
    skip "the node did not become idle within 30 s (state: $(timeout 5 sinfo -h -o %t 2>&1))"
fi
say "node $NODE idle with $CPUS CPUs"

# --- a small experiment of ordering.toml's structure: seconds on one machine
cat > "$TMP/slurm-small.toml" <<'EOF'
# experiments/ordering.toml reduced for scripts/slurm-test.sh.
name = "slurm-small"
seed = 2026

[limits]
nodes = 2_000_000

[[games]]
game = "random_tree"
b = [2, 4]
d = [12, 7]
trees = 2

[[games]]
game = "tictactoe"
positions = ["start", "5"]

[[games]]
game = "connect4"
positions = ["start", "4453"]
limits = { depth = 7 }

[[searchers]]
label = "minimax"
algorithm = "minimax"
limits = { nodes = 300_000 }

[[searchers]]
label = "alphabeta"
algorithm = "alphabeta"

[[searchers]]
label = "alphabeta-random"
algorithm = "alphabeta"
ordering = { shuffle = true }

[[searchers]]
label = "alphabeta-ordered"
algorithm = "alphabeta"
tt_mb = 4
ordering = { tt_move = true, killers = true, history = true }
oracle = "perfect"
EOF

timeout 60 "$PLYLAB" experiment "$TMP/slurm-small.toml" --out "$TMP/one" --no-plot \
    >"$TMP/one.log" 2>&1 || fail "the one-machine run: $(tail -n 5 "$TMP/one.log")"

OUT="$TMP/results"
"$PLYLAB" slurm "$TMP/slurm-small.toml" --tasks 4 --throttle 4 --time 00:05:00 \
    --partition debug --out "$OUT" --binary "$PLYLAB" > "$TMP/run.sbatch" \
    || fail "plylab slurm"
timeout 30 sbatch --test-only "$TMP/run.sbatch" >"$TMP/test-only.log" 2>&1 \
    || fail "sbatch --test-only: $(cat "$TMP/test-only.log")"
say "sbatch --test-only: $(grep -o 'to start.*' "$TMP/test-only.log" | head -n 1)"

say "submitting the array of 4 shards (sbatch --wait)"
timeout 120 sbatch --wait "$TMP/run.sbatch" >"$TMP/submit.log" 2>&1 \
    || fail "sbatch --wait (exit $?): $(cat "$TMP/submit.log")"
for i in 1 2 3 4; do
    grep -q "\"index\": $i," "$OUT/shards/$i/run.json" 2>/dev/null \
        || fail "shard $i/4 left no run.json recording it"
done

MERGE_JOB=$(cat "$OUT/logs/merge.jobid" 2>/dev/null)
[ -n "$MERGE_JOB" ] || fail "task 0 submitted no merge job"
merge_done() { [ -z "$(timeout 5 squeue -h -j "$MERGE_JOB" 2>/dev/null)" ]; }
wait_for 60 merge_done || fail "the merge job $MERGE_JOB did not end within 60 s"
[ -s "$OUT/searches.csv" ] && [ -s "$OUT/summary.md" ] \
    || fail "the merge job left no searches.csv and summary.md: $(cat "$OUT/logs/merge.out" 2>/dev/null)"
say "merge job $MERGE_JOB: $(head -n 1 "$OUT/logs/merge.out")"

# The columns that measure time or how a run shared the machine (the
# TIMING_COLUMNS of tests/common/mod.rs) are removed; everything else must be identical,
# row order included.
python3 - "$TMP/one/searches.csv" "$OUT/searches.csv" <<'EOF' || fail "the merged searches.csv differs from the one-machine run"
import csv, sys
TIMING = {"elapsed_s", "total_s", "nps", "answer_s", "playouts_per_s", "time_to_depth_s", "speedup",
          "overhead", "nps_scaling", "alone", "oversubscribed"}
def untimed(path):
    rows = list(csv.reader(open(path, newline="")))
    keep = [i for i, h in enumerate(rows[0]) if h not in TIMING]
    return [[r[i] for i in keep] for r in rows]
one, merged = (untimed(p) for p in sys.argv[1:])
if one != merged:
    for n, (a, b) in enumerate(zip(one, merged)):
        if a != b:
            print(f"first difference at line {n + 1}:\n  one:    {a}\n  merged: {b}")
            break
    print(f"{len(one)} lines one-machine, {len(merged)} merged")
    sys.exit(1)
print(f"slurm-test: {len(one) - 1} rows identical in every non-timing column")
EOF
say "PASS"

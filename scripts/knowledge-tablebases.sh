#!/usr/bin/env bash
# Builds the endgame databases experiments/knowledge.toml reads, those that are missing
# (they are not committed: about 8 s on 2 cores to build them all).
#   scripts/knowledge-tablebases.sh [PLYLAB]    PLYLAB: the binary (./target/release/plylab)
set -euo pipefail
# A binary given is taken from the directory the script is started in.
plylab=${1:+$(realpath -m -- "$1")}
cd "$(dirname "$0")/.."
plylab=${plylab:-./target/release/plylab}
[ -x "$plylab" ] || { echo "knowledge-tablebases.sh: no plylab binary at $plylab" >&2; exit 2; }
mkdir -p experiments/data/tablebase
for e in KQK KRK KPK KBNK; do
    table="experiments/data/tablebase/$e.plytb"
    [ -f "$table" ] || "$plylab" tablebase build chess "$e" --out "$table"
done
table=experiments/data/tablebase/checkers4.plytb
[ -f "$table" ] || "$plylab" tablebase build checkers 4 --out "$table"

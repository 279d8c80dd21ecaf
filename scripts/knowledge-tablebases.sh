#!/usr/bin/env bash
# Builds the endgame databases experiments/knowledge.toml reads, those that are missing
# (they are not committed: about 8 s on 2 cores to build them all).
#   scripts/knowledge-tablebases.sh [PLYLAB]    PLYLAB: the binary (./target/release/plylab)
set -euo pipefail
cd "$(dirname "$0")/.."
plylab=${1:-./target/release/plylab}
mkdir -p experiments/data/tablebase
for e in KQK KRK KPK KBNK; do
    table="experiments/data/tablebase/$e.plytb"
    [ -f "$table" ] || "$plylab" tablebase build chess "$e" --out "$table"
done
table=experiments/data/tablebase/checkers4.plytb
[ -f "$table" ] || "$plylab" tablebase build checkers 4 --out "$table"

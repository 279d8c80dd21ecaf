#!/usr/bin/env bash
# Regenerates the committed results: each experiments/<name>.toml (experiment and arena
# files alike) is run into results/<name>, replacing what is there (--force), with the flags
# its committed run used, then its charts and summary.md are drawn, and searches.csv is
# compressed to the searches.csv.gz that is committed. Learning files
# (learn_*.toml) run first, with `plylab learn --restart`: they write weights/<name>.toml and
# results/<name>/ under the name inside the file, and the arena_learn_* files play those
# weights.
#
#   scripts/regenerate-results.sh              every experiment (about 30 minutes on 2 cores)
#   scripts/regenerate-results.sh mate wac     only those
#   scripts/regenerate-results.sh --list       the commands, without running them
#
# Run it at a commit with no uncommitted source changes: run.json records the commit the
# binary was built from, `-dirty` otherwise. The endgame databases that knowledge.toml reads
# are built first when missing (they are not committed: see .gitignore). The opening book
# that knowledge_book.toml reads (experiments/data/book/arena_nullmove.bin) is committed input
# data and is not rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
plylab=./target/release/plylab

# The flags each experiment's committed results were run with beyond --out and --force:
# knowledge and othello one job at a time (their timings are compared with other programs').
flags_of() {
    case "$1" in
        knowledge | othello) echo "--jobs 1" ;;
        *) echo "" ;;
    esac
}

list=false
names=()
for arg in "$@"; do
    case "$arg" in
        --list) list=true ;;
        -*) echo "usage: $0 [--list] [NAME...]" >&2; exit 2 ;;
        *) names+=("$arg") ;;
    esac
done
if [ ${#names[@]} -eq 0 ]; then
    # Learning files first: the arena_learn_* files play the weights they write.
    for file in experiments/learn_*.toml experiments/*.toml; do
        name=$(basename "$file" .toml)
        [[ " ${names[*]} " == *" $name "* ]] || names+=("$name")
    done
fi
for name in "${names[@]}"; do
    if [ ! -f "experiments/$name.toml" ]; then
        echo "$0: no experiments/$name.toml" >&2
        exit 2
    fi
done

# The command that regenerates one name's results.
command_of() {
    case "$1" in
        learn_*) echo "$plylab learn experiments/$1.toml --restart --quiet" ;;
        *) echo "$plylab experiment experiments/$1.toml --out results/$1 --force $(flags_of "$1")" ;;
    esac
}

if $list; then
    for name in "${names[@]}"; do
        command_of "$name"
    done
    exit 0
fi

# Writes FILE.gz beside FILE: with zopfli where installed (Debian's `zopfli`; about 10%
# smaller than gzip -9, and like `gzip -n` it records no name and no time, so a rerun
# writes the same bytes), otherwise gzip -9 -n.
compress() {
    if command -v zopfli >/dev/null; then
        zopfli -c "$1" >"$1.gz"
    else
        gzip -9 -n -k -f "$1"
    fi
}

cargo build --release
if ! git diff --quiet HEAD -- src build.rs Cargo.toml Cargo.lock 2>/dev/null; then
    echo "warning: uncommitted source changes: run.json will record a -dirty commit" >&2
fi
for name in "${names[@]}"; do
    if [ "$name" = knowledge ]; then
        mkdir -p experiments/data/tablebase
        for e in KQK KRK KPK KBNK; do
            table="experiments/data/tablebase/$e.plytb"
            [ -f "$table" ] || "$plylab" tablebase build chess "$e" --out "$table"
        done
        table=experiments/data/tablebase/checkers4.plytb
        [ -f "$table" ] || "$plylab" tablebase build checkers 4 --out "$table"
    fi
    echo "== $name"
    # shellcheck disable=SC2046 # the command's words
    $(command_of "$name")
    # What is committed: searches.csv and games.csv compressed (plylab reads either form;
    # see src/compressed.rs), SVG charts; the plain CSVs and the PNGs stay untracked
    # (results/.gitignore).
    for csv in "results/$name/searches.csv" "results/$name/games.csv"; do
        if [ -f "$csv" ]; then
            compress "$csv"
        fi
    done
done
du -sh results

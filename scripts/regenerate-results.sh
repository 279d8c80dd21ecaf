#!/usr/bin/env bash
# Regenerates the committed results: each experiments/<name>.toml (experiment and arena
# files alike) is run into results/<name>, replacing what is there (--force), with the flags
# its committed run used, then its charts and summary.md are drawn, and searches.csv (a
# match's games.csv) is compressed to the .gz that is committed. Learning files
# (learn_*.toml) run first, with `plylab learn --restart --force`: they write weights/<name>.toml and
# results/<name>/ under the name inside the file, and the arena_learn_* files play those
# weights.
#
#   scripts/regenerate-results.sh              every experiment (hours on 2 cores: below)
#   scripts/regenerate-results.sh mate wac     only those (names of experiments/, so
#                                              learn_chess, not chess-texel)
#   scripts/regenerate-results.sh --list       the commands, without running them
#
# Time: the files run on the 2-core development machine took about 80 minutes there in all
# (each run.json's elapsed_s). The scaling files (scaling*.toml, and quiescence_tt.toml for
# results/scaling_qtt) were run on lent 16-core machines, most with scripts/scaling-run.sh,
# one at a time (scaling_tables on the 2-core machine): results/scaling_summary.md names
# each one's command and machine. The default runs
# them too: here they take hours more (`plylab experiment FILE --dry-run` estimates each) and
# their jobs with more threads than cores are `oversubscribed`, not what is committed, so on
# a smaller machine name the other files instead.
#
# Two arenas play external programs that must be installed: arena_backgammon Debian's
# gnubg, arena_othello_gtp grhino's /usr/games/gtp-rhino (without them the run stops there).
#
# Not written by this script (results/scaling_summary.md and their own summaries say how
# they were made): results/scaling_qtt (experiments/quiescence_tt.toml on 16 cores,
# scripts/scaling-run.sh; run here, that file writes results/quiescence_tt, its 2-core
# run); results/scaling_main_depths's repeat/ (the same file on a second 16-core machine)
# and fifth_loan/ (a temporary build); results/vs_python_chess (scripts/vs-python-chess.py, against
# Stockfish); results/connect4/vs-pons.csv (scripts/vs-pons.sh, against Pons's solver,
# whose build its header gives; --force leaves the file in place); and
# the calibrate.csv of results/scaling_check and scaling_main_depths (scripts/scaling-run.sh's
# `calibrate`).
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
        learn_*) echo "$plylab learn experiments/$1.toml --restart --force --quiet" ;;
        *)
            local flags
            flags=$(flags_of "$1")
            echo "$plylab experiment experiments/$1.toml --out results/$1 --force${flags:+ $flags}"
            ;;
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
# writes the same bytes), otherwise gzip -9 -n. Written whole to a file of this process's
# own and renamed: two runs writing one FILE.gz at once once left the tail of the longer
# behind the shorter (tests/committed_results.rs checks every committed .gz).
compress() {
    local tmp="$1.gz.$$"
    if command -v zopfli >/dev/null; then
        zopfli -c "$1" >"$tmp"
    else
        gzip -9 -n -c "$1" >"$tmp"
    fi
    mv -f "$tmp" "$1.gz"
}

cargo build --release
if ! git diff --quiet HEAD -- src build.rs Cargo.toml Cargo.lock 2>/dev/null; then
    echo "warning: uncommitted source changes: run.json will record a -dirty commit" >&2
fi
for name in "${names[@]}"; do
    if [ "$name" = knowledge ]; then
        scripts/knowledge-tablebases.sh "$plylab"
    fi
    echo "== $name"
    # shellcheck disable=SC2046 # the command's words
    $(command_of "$name")
    # What is committed: searches.csv and games.csv compressed (plylab reads either form;
    # see src/compressed.rs), SVG charts; the plain CSVs and the PNGs stay untracked
    # (results/.gitignore). Not games.csv where its summary.md says it is not committed (to
    # keep results/ small), and games.pgn (chess arenas) only for arena_nullmove, whose
    # games knowledge_book's opening book is built from (plain games.pgn is ignored too).
    for csv in "results/$name/searches.csv" "results/$name/games.csv" "results/$name/games.pgn"; do
        case "$name/$(basename "$csv")" in
            arena_backgammon/games.csv | arena_learn_backgammon/games.csv) continue ;;
            arena_learn_checkers/games.csv | arena_learn_othello/games.csv) continue ;;
            arena_nullmove/games.pgn) ;;
            */games.pgn) continue ;;
        esac
        if [ -f "$csv" ]; then
            compress "$csv"
        fi
    done
done
du -sh results

#!/usr/bin/env python3
"""The same match played by plylab's arena and by python-chess's engine driver (issue 15).

    python3 scripts/vs-python-chess.py [--games 100] [--nodes 20000] [--skill 5]
        [--jobs 2] [--out results/vs_python_chess]

plylab's alpha-beta (the searcher `plylab` of the arena file this script writes) plays
Stockfish at `Skill Level` 5 (Threads 1, Hash 16) twice:

1. by plylab's arena: `plylab experiment ARENA.toml --out OUT/arena`;
2. by python-chess (`chess.engine.SimpleEngine`): plylab as `plylab uci --config UCI.toml
   --searcher plylab` (the same searcher entry in an experiment file), Stockfish as itself, each move asked with `chess.engine.Limit(nodes=N)`.

Both runs use the same openings (the first games/2 positions of
experiments/data/chess/noob_3moves.sample2k.epd, each played twice with colours swapped),
the same per-move limit (N nodes for both engines: `go nodes N`) and the same endings:
checkmate, stalemate, insufficient material, the fifty-move rule (100 plies), threefold
repetition since the opening, and a draw after `max_plies` plies. Stockfish's skill draws
its weakened moves at random (seeded by the clock), so the two runs are two samples of one
match, not the same games: they agree when the difference of plylab's scores is within
1.96 standard errors of the difference (each score's variance the per-game variance / N,
as fastchess's and the arena's trinomial interval).

Writes OUT/summary.md (both scores with 95% intervals, the difference, the verdict and this
command), OUT/python_chess_games.csv (one row a game) and keeps OUT/arena/ (games.csv.gz,
compressed as results/ keeps every games.csv, standings.csv, run.json, summary.md and the Elo
chart elo.svg, which `plylab plot OUT/arena` redraws from them; its games.pgn is removed to
keep the directory small). Needs `python3 -m pip install chess` and Debian's stockfish (/usr/games/stockfish).
"""

import argparse
import concurrent.futures
import csv
import gzip
import math
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import time

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parent.parent
OPENINGS = ROOT / "experiments/data/chess/noob_3moves.sample2k.epd"
STOCKFISH = "/usr/games/stockfish"
PLYLAB = ROOT / "target/release/plylab"
MAX_PLIES = 200

ARENA = """\
name = "vs_python_chess"
description = "plylab against Stockfish at Skill Level {skill}, {nodes} nodes per move: the arena's side of scripts/vs-python-chess.py"
seed = 1

[match]
game = "chess"
format = "gauntlet"
games = {games}
concurrency = {jobs}
max_plies = {max_plies}
openings = {{ file = "{openings}" }}

{plylab}
[[searchers]]
label = "stockfish"
engine = {{ cmd = "{stockfish}", options = {{ "Skill Level" = {skill}, Threads = 1, Hash = 16 }} }}
limits = {{ nodes = {nodes} }}
"""


# plylab's searcher, the same text in the arena file and in the experiment file that
# `plylab uci --config` reads (which takes no [match] table).
PLYLAB_SEARCHER = """\
[[searchers]]
label = "plylab"
algorithm = "alphabeta"
tt_mb = 16
ordering = { hint = true, tt_move = true, killers = true, history = true }
quiescence = "unlimited"
limits = { nodes = %d }
"""

UCI_CONFIG = """\
name = "vs_python_chess_uci"
description = "plylab's searcher of scripts/vs-python-chess.py, for plylab uci --config"

[[games]]
game = "chess"
positions = ["startpos"]

%s"""


def score_interval(wins, draws, losses):
    """Score, and its 95% interval (trinomial normal approximation)."""
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    half = 1.96 * math.sqrt(var / n)
    return score, var / n, half


def ending(board, plies):
    """The game's result and reason if it is over, as the arena decides (src/arena/play.rs)."""
    if board.is_checkmate():
        return ("0-1" if board.turn == chess.WHITE else "1-0"), "checkmate"
    if board.is_stalemate():
        return "1/2-1/2", "stalemate"
    if board.is_insufficient_material():
        return "1/2-1/2", "insufficient material"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "fifty moves"
    if board.is_repetition(3):
        return "1/2-1/2", "threefold repetition"
    if plies >= MAX_PLIES:
        return "1/2-1/2", "max plies"
    return None


def play_one(fen, plylab_white, nodes, engines):
    """One game from `fen`; returns (result, reason, plies)."""
    board = chess.Board(fen)
    white, black = (engines["plylab"], engines["stockfish"])
    if not plylab_white:
        white, black = black, white
    game = object()  # a new object: python-chess sends `ucinewgame` first
    plies = 0
    while True:
        over = ending(board, plies)
        if over:
            return over[0], over[1], plies
        mover = white if board.turn == chess.WHITE else black
        move = mover.play(board, chess.engine.Limit(nodes=nodes), game=game).move
        if move is None or move not in board.legal_moves:
            loser = "1-0" if board.turn == chess.BLACK else "0-1"
            return loser, "illegal move", plies
        board.push(move)
        plies += 1


def python_chess_match(uci_file, fens, nodes, skill, jobs):
    """The match by python-chess, `jobs` games at once (each opening of `fens` twice, plylab
    White first); rows of the games played."""

    def worker(tasks):
        engines = {
            "plylab": chess.engine.SimpleEngine.popen_uci(
                [str(PLYLAB), "uci", "--config", str(uci_file), "--searcher", "plylab"]
            ),
            "stockfish": chess.engine.SimpleEngine.popen_uci(STOCKFISH),
        }
        engines["stockfish"].configure({"Skill Level": skill, "Threads": 1, "Hash": 16})
        rows = []
        try:
            for game, fen, plylab_white in tasks:
                result, reason, plies = play_one(fen, plylab_white, nodes, engines)
                rows.append((game, fen, plylab_white, result, reason, plies))
        finally:
            for e in engines.values():
                e.quit()
        return rows

    tasks = []
    for i, fen in enumerate(fens):
        tasks.append((2 * i, fen, True))
        tasks.append((2 * i + 1, fen, False))
    chunks = [tasks[j::jobs] for j in range(jobs)]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        rows = [r for part in pool.map(worker, chunks) for r in part]
    return sorted(rows)


def plylab_counts(rows):
    """plylab's wins, draws and losses in python-chess rows."""
    w = d = l = 0
    for _, _, plylab_white, result, _, _ in rows:
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == plylab_white:
            w += 1
        else:
            l += 1
    return w, d, l


def arena_counts(out):
    """plylab's wins, draws and losses in the arena's standings.csv."""
    with open(out / "standings.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["kind"] == "pairing" and row["player"] == "plylab":
                return int(row["wins"]), int(row["draws"]), int(row["losses"])
    sys.exit(f"{out}/standings.csv has no pairing row for plylab")


def rel(path):
    """`path` from the repository's root where it lies inside it (absolute otherwise)."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--nodes", type=int, default=20000)
    p.add_argument("--skill", type=int, default=5)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default="results/vs_python_chess")
    a = p.parse_args()
    if a.games < 2 or a.games % 2:
        p.error("--games must be even and at least 2 (each opening twice)")
    if a.nodes < 1 or a.jobs < 1:
        p.error("--nodes and --jobs must be at least 1")
    if not 0 <= a.skill <= 20:
        p.error("--skill is Stockfish's Skill Level: 0 to 20")
    for program in (STOCKFISH, PLYLAB):
        if not pathlib.Path(program).exists():
            sys.exit(f"{program} is missing (apt-get install stockfish; cargo build --release)")
    out = (ROOT / a.out).resolve()
    if out.exists():
        # Only an earlier run of this script is replaced: `--out results` must not take
        # the committed results with it.
        if any(out.iterdir()) and not (out / "uci.toml").is_file():
            p.error(f"{out} exists and is not an earlier run of this script: choose another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    arena_file = out / "arena.toml"
    arena_file.write_text(
        ARENA.format(
            skill=a.skill,
            nodes=a.nodes,
            games=a.games,
            jobs=a.jobs,
            max_plies=MAX_PLIES,
            # Relative to the file, as an experiment file's paths are read: the committed
            # file then names no directory of the machine that wrote it.
            openings=os.path.relpath(OPENINGS, out),
            stockfish=STOCKFISH,
            plylab=PLYLAB_SEARCHER % a.nodes,
        )
    )
    uci_file = out / "uci.toml"
    uci_file.write_text(UCI_CONFIG % (PLYLAB_SEARCHER % a.nodes))

    started = time.time()
    arena_out = out / "arena"
    # From the repository's root with relative paths, so that run.json and the summary's
    # Regenerate line name the committed files as any checkout has them.
    subprocess.run(
        [str(PLYLAB), "experiment", rel(arena_file), "--out", rel(arena_out), "--no-plot"],
        check=True,
        cwd=ROOT,
    )
    arena_s = time.time() - started
    (arena_out / "games.pgn").unlink(missing_ok=True)

    # The arena's openings, round by round (its games.csv: the first game of each pair has
    # plylab, the first-named player, White).
    with open(arena_out / "games.csv", newline="") as f:
        firsts = [r for r in csv.DictReader(f) if r["leg"] == "0"]
    fens = [r["opening"] for r in sorted(firsts, key=lambda r: int(r["round"]))]
    # Kept compressed, as `gzip -9 -n` would (no name, no time): plylab reads either form.
    plain = arena_out / "games.csv"
    with open(arena_out / "games.csv.gz", "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as z:
            z.write(plain.read_bytes())
    plain.unlink()
    # Drawn from the compressed rows, as `plylab plot` redraws committed results.
    subprocess.run(
        [str(PLYLAB), "plot", rel(arena_out)], check=True, stdout=subprocess.DEVNULL, cwd=ROOT
    )
    started = time.time()
    rows = python_chess_match(uci_file, fens, a.nodes, a.skill, a.jobs)
    python_s = time.time() - started
    with open(out / "python_chess_games.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "opening", "plylab_white", "result", "reason", "plies"])
        w.writerows(rows)

    results = {"arena": arena_counts(arena_out), "python-chess": plylab_counts(rows)}
    stats = {k: score_interval(*v) for k, v in results.items()}
    diff = stats["arena"][0] - stats["python-chess"][0]
    se = math.sqrt(stats["arena"][1] + stats["python-chess"][1])
    agree = abs(diff) <= 1.96 * se
    command = (
        f"python3 scripts/vs-python-chess.py --games {a.games} --nodes {a.nodes} "
        f"--skill {a.skill} --jobs {a.jobs} --out {shlex.quote(a.out)}"
    )
    lines = [
        "# plylab's arena against python-chess's engine driver",
        "",
        f"plylab (alpha-beta, hints, TT move, killers, history, quiescence; 16 MiB table) against "
        f"Stockfish ({STOCKFISH}, Skill Level {a.skill}, Threads 1, Hash 16), {a.games} games "
        f"from the first {a.games // 2} openings of {OPENINGS.relative_to(ROOT)} (each twice, "
        f"colours swapped), {a.nodes} nodes per move for both, a draw after {MAX_PLIES} plies. "
        "Stockfish's skill picks its weakened moves at random, so the two runs are two samples "
        "of one match.",
        "",
        "| driver | wins | draws | losses | plylab's score | 95% interval | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, secs in (("arena", arena_s), ("python-chess", python_s)):
        w, d, l = results[name]
        s, _, half = stats[name]
        lines.append(
            f"| {name} | {w} | {d} | {l} | {s:.3f} | {s - half:.3f} to {s + half:.3f} | {secs:.0f} |"
        )
    lines += [
        "",
        f"Difference {diff:+.3f}, standard error {se:.3f}: the scores "
        + ("**agree**" if agree else "**do not agree**")
        + f" (|difference| {'≤' if agree else '>'} 1.96 standard errors).",
        "",
        f"Command: `{command}` (after `cargo build --release`). arena.toml is the arena's "
        "file, uci.toml the same searcher for python-chess's plylab (`plylab uci --config "
        "uci.toml --searcher plylab`); "
        "arena/ holds its games.csv.gz, standings.csv, run.json, summary.md and elo.svg, "
        "python_chess_games.csv "
        "python-chess's games.",
    ]
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

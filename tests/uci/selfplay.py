#!/usr/bin/env python3
"""Self-play through python-chess's UCI client: `selfplay.py PLYLAB [GAMES] [PLIES]`.

Plays GAMES (default 4) short games of `PLYLAB uci` against itself from the first openings
of experiments/data/chess/noob_3moves.sample2k.epd, at most PLIES (default 40) plies each,
cycling through `go depth 3`, `go movetime 50`, `go nodes 5000` and a clock (`wtime`/`btime`
with increments). Every bestmove is checked against python-chess's own legal moves (the
client itself also refuses an illegal one). Then an infinite analysis is started, a few
info lines are read, it is stopped, and its best move must be legal. Exits non-zero on any
failure. Needs the PyPI package `chess` (`python3 -m pip install chess`).
"""

import pathlib
import sys

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
OPENINGS = ROOT / "experiments" / "data" / "chess" / "noob_3moves.sample2k.epd"

LIMITS = [
    ("go depth 3", chess.engine.Limit(depth=3)),
    ("go movetime 50", chess.engine.Limit(time=0.05)),
    ("go nodes 5000", chess.engine.Limit(nodes=5000)),
    (
        "go wtime/btime",
        chess.engine.Limit(white_clock=5.0, black_clock=5.0, white_inc=0.05, black_inc=0.05),
    ),
]


def openings(count):
    """The first `count` positions of the EPD file, as boards (its first four fields)."""
    boards = []
    for line in OPENINGS.read_text().splitlines():
        fields = line.split()
        if len(fields) < 4 or line.startswith("#"):
            continue
        boards.append(chess.Board(" ".join(fields[:4]) + " 0 1"))
        if len(boards) == count:
            break
    return boards


def play_game(engine, number, board, max_plies):
    """Plays one game; returns the number of plies played."""
    game = object()  # a new identity makes python-chess send `ucinewgame`
    plies = 0
    while plies < max_plies and not board.is_game_over(claim_draw=True):
        name, limit = LIMITS[(number + plies) % len(LIMITS)]
        result = engine.play(board, limit, game=game, info=chess.engine.INFO_ALL)
        move = result.move
        if move is None or move not in board.legal_moves:
            raise AssertionError(
                f"game {number}, ply {plies} ({name}): bestmove {move} is not legal in "
                f"{board.fen()}"
            )
        board.push(move)
        plies += 1
    return plies


def analyse_and_stop(engine):
    """Infinite analysis of the start position: two infos with a depth, stop, a legal move."""
    board = chess.Board()
    with engine.analysis(board) as analysis:
        depths = []
        for info in analysis:
            if "depth" in info:
                depths.append(info["depth"])
            if len(depths) >= 2:
                break
        analysis.stop()
        best = analysis.wait()
    if len(depths) < 2:
        raise AssertionError(f"infinite analysis gave {len(depths)} info lines with a depth")
    if best.move is None or best.move not in board.legal_moves:
        raise AssertionError(f"analysis stopped with bestmove {best.move}, not legal")
    return depths, best.move


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    max_plies = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"], timeout=30)
    try:
        print(f"engine: {engine.id.get('name')}")
        engine.configure({"Hash": 8})
        total = 0
        for number, board in enumerate(openings(games)):
            start = board.fen()
            plies = play_game(engine, number, board, max_plies)
            total += plies
            outcome = board.outcome(claim_draw=True)
            result = outcome.result() if outcome else "*"
            print(f"game {number + 1}: {plies} plies from {start}: {result}")
        depths, best = analyse_and_stop(engine)
        print(f"analysis: depths {depths}, stopped with bestmove {best}")
        print(f"ok: {games} games, {total} legal bestmoves")
    finally:
        engine.quit()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as error:  # any failure, including python-chess's own, is non-zero
        print(f"FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)

#!/usr/bin/env python3
"""Issue 15, points 1 and 4, through python-chess's UCI client: `go_points.py PLYLAB`.

1. `searchmoves` (python-chess's `root_moves`) restricts the root; `go depth 0` and
   `go movetime 0` answer at once with a legal move; a checkmated side gets `bestmove (none)`,
   which python-chess reads as "no move" (`0000` would have been a null move).
4. A position `plylab uci` refuses (the kings side by side) is not searched: python-chess
   gets no move, and the next valid position is searched as usual.
Exits non-zero on any failure. Needs the PyPI package `chess`.
"""

import sys
import time

import chess
import chess.engine

MATE_IN_ONE = "4k3/Q7/3K4/8/8/8/8/8 w - - 0 1"


def check(condition, message):
    if not condition:
        print(f"FAIL: {message}")
        sys.exit(1)


def main():
    engine = chess.engine.SimpleEngine.popen_uci([sys.argv[1], "uci"])
    board = chess.Board(MATE_IN_ONE)
    allowed = [chess.Move.from_uci("a7a8"), chess.Move.from_uci("a7b7")]
    result = engine.play(board, chess.engine.Limit(depth=3), root_moves=allowed)
    check(result.move in allowed, f"searchmoves gave {result.move}")
    for limit in [chess.engine.Limit(depth=0), chess.engine.Limit(time=0)]:
        start = time.monotonic()
        result = engine.play(board, limit)
        check(time.monotonic() - start < 2, f"{limit} took too long")
        check(result.move in board.legal_moves, f"{limit} gave {result.move}")
    mated = chess.Board("4k3/4Q3/3K4/8/8/8/8/8 b - - 1 1")
    result = engine.play(mated, chess.engine.Limit(depth=2))
    check(result.move is None, f"checkmated side got {result.move}")
    impossible = chess.Board("8/8/8/8/8/3kK3/8/8 w - - 0 1")
    check(not impossible.is_valid(), "python-chess accepts the adjacent kings")
    result = engine.play(impossible, chess.engine.Limit(depth=2))
    check(result.move is None, f"an impossible position was searched: {result.move}")
    result = engine.play(board, chess.engine.Limit(depth=2))
    check(result.move == chess.Move.from_uci("a7e7"), f"after it: {result.move}")
    engine.quit()
    print("ok: searchmoves, zero limits, bestmove (none), refused position")


if __name__ == "__main__":
    main()

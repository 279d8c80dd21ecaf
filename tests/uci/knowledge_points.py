#!/usr/bin/env python3
"""Issue 16's UCI options through python-chess's UCI client:
`knowledge_points.py PLYLAB KQK.plytb BOOK.bin`.

- The engine declares `TablebaseFiles`, `BookFile` and `OwnBook` (python-chess reads them
  into `engine.options`).
- TablebaseFiles: a depth-1 analysis of KQK positions announces the mate distance that
  `plylab tablebase probe` reads from the same database, with `tbhits`; without the option
  the same analysis gives a centipawn score.
- BookFile + OwnBook: from the start position and after each book move, `play` answers with
  the move of highest weight that python-chess's own Polyglot reader (`chess.polyglot`)
  finds in the book, an independent reading of the file; out of book the engine searches.
Exits non-zero on any failure. Needs the PyPI package `chess`.
"""

import subprocess
import sys

import chess
import chess.engine
import chess.polyglot

PLYLAB, TABLEBASE, BOOK = sys.argv[1:4]

KQK = [
    "1K6/4Q3/8/8/8/8/8/k7 w - - 0 1",
    "8/8/2K5/7Q/8/2k5/8/8 w - - 0 1",
    "8/5k2/8/1K6/8/8/3Q4/8 w - - 0 1",
]


def check(condition, message):
    if not condition:
        print(f"FAIL: {message}")
        sys.exit(1)


def database_mate(fen):
    """The database's mate distance in moves, from `plylab tablebase probe`."""
    out = subprocess.run(
        [PLYLAB, "tablebase", "probe", TABLEBASE, fen], capture_output=True, text=True, check=True
    ).stdout
    return int(out.split("(")[1].split()[0])


engine = chess.engine.SimpleEngine.popen_uci([PLYLAB, "uci"])
try:
    for name in ["TablebaseFiles", "BookFile", "OwnBook"]:
        check(name in engine.options, f"option {name} not declared: {list(engine.options)}")

    for fen in KQK:
        board = chess.Board(fen)
        plain = engine.analyse(board, chess.engine.Limit(depth=1))
        check(not plain["score"].is_mate(), f"{fen}: a plain depth-1 search saw mate: {plain}")
    engine.configure({"TablebaseFiles": TABLEBASE})
    for fen in KQK:
        board = chess.Board(fen)
        info = engine.analyse(board, chess.engine.Limit(depth=1))
        expected = database_mate(fen)
        check(
            info["score"].relative == chess.engine.Mate(expected),
            f"{fen}: score {info['score']}, the database says mate in {expected}",
        )
        check(info.get("tbhits", 0) > 0, f"{fen}: no tbhits in {info}")
    print(f"ok: tablebase ({len(KQK)} KQK positions at depth 1, mate distances as the database's)")

    engine.configure({"BookFile": BOOK, "OwnBook": True})
    board = chess.Board()
    booked = 0
    with chess.polyglot.open_reader(BOOK) as reader:
        while True:
            entry = max(reader.find_all(board), key=lambda e: e.weight, default=None)
            result = engine.play(board, chess.engine.Limit(depth=2), info=chess.engine.INFO_ALL)
            if entry is None:
                check("depth" in result.info, f"out of book, no search: {result.info}")
                break
            check(
                result.move == entry.move,
                f"{board.fen()}: played {result.move}, python-chess reads {entry.move} "
                f"(weight {entry.weight}) as the book's best",
            )
            board.push(result.move)
            booked += 1
    check(booked > 0, "the start position is not in the book")
    print(f"ok: book ({booked} book moves as python-chess reads them, then a search)")
finally:
    engine.quit()

#!/usr/bin/env python3
"""Replays every game of a PGN file with python-chess: `replay_pgn.py FILE.pgn`.

For each game: the start position is the FEN tag's (with SetUp "1") or the initial one; every
move must parse and be legal (python-chess records illegal or ambiguous SAN in `game.errors`
instead of raising, so those are checked); the movetext must be token for token what
python-chess itself exports for the same moves (SAN with its `+`/`#` suffixes, `N.` and
`N...` move numbers, including `N...` before a Black move that follows a comment, the
result last) once comments are set aside (plylab writes one per move as cutechess-cli does,
and one, the reason the game ended, before the result; python-chess must read that one as
the end of the last move's comment, src/arena/pgn.rs); the Result tag must be one of the four PGN results and equal the
movetext's; and a checkmate or stalemate on the final board must agree with the result
(e.g. "1-0" with White mated is refused). Exits non-zero with a message on the first
failure or when the file holds no game, else prints `ok: N games`. Needs the PyPI package
`chess` (`python3 -m pip install chess`).
"""

import io
import pathlib
import re
import sys

import chess
import chess.pgn

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def fail(number, game, message):
    """Stops with a message naming the game."""
    headers = game.headers
    sys.exit(
        f"game {number} ({headers.get('White', '?')} vs {headers.get('Black', '?')}, "
        f"round {headers.get('Round', '?')}): {message}"
    )


def replay(number, game):
    """Plays the mainline from the game's start position; returns the final board."""
    if game.errors:
        fail(number, game, f"python-chess could not read it: {game.errors[0]}")
    if "FEN" in game.headers and game.headers.get("SetUp") != "1":
        fail(number, game, 'a FEN tag without SetUp "1"')
    board = game.board()
    for ply, move in enumerate(game.mainline_moves(), start=1):
        if move not in board.legal_moves:
            fail(number, game, f"ply {ply}: {move.uci()} is not legal in {board.fen()}")
        board.push(move)
    return board


def movetext_tokens(raw):
    """The movetext tokens of one game's text: every non-tag line, split on spaces."""
    lines = [line for line in raw.splitlines() if line.strip() and not line.startswith("[")]
    return re.sub(r"\{[^}]*\}", " ", " ".join(lines)).split()


def check_movetext(number, game, raw):
    """The file's movetext must equal python-chess's own export of the same game."""
    # With comments, so that python-chess writes `N...` after a commented White move; the
    # comments themselves are then set aside on both sides.
    exporter = chess.pgn.StringExporter(headers=False, variations=False, comments=True)
    want = re.sub(r"\{[^}]*\}", " ", game.accept(exporter)).split()
    got = movetext_tokens(raw)
    movetext = " ".join(line for line in raw.splitlines() if not line.startswith("["))
    comments = re.findall(r"\{([^}]*)\}", movetext)
    if comments and not game.end().comment.strip().endswith(comments[-1].strip()):
        fail(number, game, f"the closing comment {comments[-1]!r} is not the last move's")
    if got != want:
        first = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), len(want))
        fail(
            number,
            game,
            f"movetext token {first + 1} is {got[first:first + 3]}, python-chess writes "
            f"{want[first:first + 3]}",
        )


def check_result(number, game, board):
    """The Result tag is a PGN result and agrees with a mate or stalemate on the board."""
    result = game.headers.get("Result", "")
    if result not in RESULTS:
        fail(number, game, f"Result tag {result!r} is none of {', '.join(RESULTS)}")
    if board.is_checkmate():
        winner = "0-1" if board.turn == chess.WHITE else "1-0"
        if result != winner:
            mated = "White" if board.turn == chess.WHITE else "Black"
            fail(number, game, f"result {result} but {mated} is checkmated")
    if board.is_stalemate() and result in ("1-0", "0-1"):
        fail(number, game, f"result {result} but the final position is stalemate")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: replay_pgn.py FILE.pgn")
    path = pathlib.Path(sys.argv[1])
    stream = io.StringIO(path.read_text(encoding="utf-8"))
    number = 0
    while True:
        start = stream.tell()
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        number += 1
        raw = stream.getvalue()[start : stream.tell()]
        board = replay(number, game)
        check_movetext(number, game, raw)
        check_result(number, game, board)
    if number == 0:
        sys.exit(f"{path}: no games")
    print(f"ok: {number} games")


if __name__ == "__main__":
    main()

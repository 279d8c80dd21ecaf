#!/usr/bin/env python3
"""Issue 15, points 2 and 3, through python-chess's UCI client: `engine_points.py PLYLAB`.
(Points 1 and 4 are go_points.py's.)

2. MultiPV: python-chess's `analyse(..., multipv=N)` gets N lines with distinct root moves,
   and their scores are the N best of the moves' own values, each found by a search of that
   move alone (`searchmoves`) at the same depth (no table, so that alpha-beta's values are
   exact minimax values). Ponder: `play(..., ponder=True)` gets a ponder move, and playing
   it sends `ponderhit` (read back from python-chess's log), after which the answer is
   legal. `Clear Hash`: a search after it counts the nodes of a search on a fresh engine,
   fewer without it. `UCI_Chess960`: python-chess sets it for a Chess960 board; a castling
   move (king takes rook) is both accepted in `position ... moves` and played by the
   engine. Info fields: `lowerbound`/`upperbound` (aspiration windows of half-width 1),
   `hashfull` and `currmove` (a search longer than a second).
3. A position played once before is not a draw at the root: the analysis reaches the
   depth asked (not `depth 5000`), and a move into a position seen once is not scored 0;
   a move into a position seen twice (a threefold repetition) is.
Exits non-zero on any failure. Needs the PyPI package `chess`.
"""

import logging
import sys

import chess
import chess.engine

PLYLAB = sys.argv[1] if len(sys.argv) > 1 else "target/release/plylab"


def check(condition, message):
    if not condition:
        print(f"FAIL: {message}")
        sys.exit(1)


class Sent(logging.Handler):
    """Keeps the lines python-chess sends to the engine (its debug log `ENGINE << LINE`)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        message = record.getMessage()
        if "<< " in message:
            self.lines.append(message.split("<< ", 1)[1])


def multipv():
    # Without a table alpha-beta's root value is the minimax value at that depth, so each
    # line's score can be checked against searches of single moves.
    engine = chess.engine.SimpleEngine.popen_uci([PLYLAB, "uci", "--tt-mb", "0"])
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    depth = 3
    lines = engine.analyse(board, chess.engine.Limit(depth=depth), multipv=4)
    check(len(lines) == 4, f"multipv=4 gave {len(lines)} lines")
    check([info.get("multipv") for info in lines] == [1, 2, 3, 4], f"ranks {lines}")
    firsts = [info["pv"][0] for info in lines]
    check(len(set(firsts)) == 4, f"repeated root moves {firsts}")
    scores = [info["score"].relative.score(mate_score=100000) for info in lines]
    values = []
    for move in board.legal_moves:
        info = engine.analyse(board, chess.engine.Limit(depth=depth), root_moves=[move])
        values.append(info["score"].relative.score(mate_score=100000))
    values.sort(reverse=True)
    check(scores == values[:4], f"multipv scores {scores}, best single-move values {values[:4]}")
    # More lines than moves: one per legal move.
    few = chess.Board("7k/8/8/8/8/8/8/K6R b - - 0 1")
    lines = engine.analyse(few, chess.engine.Limit(depth=2), multipv=10)
    check(len(lines) == few.legal_moves.count(), f"{len(lines)} lines for {few.legal_moves.count()} moves")
    engine.quit()
    print(f"ok: multipv scores {scores} are the 4 best single-move values")


def ponder():
    sent = Sent()
    logger = logging.getLogger("chess.engine")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(sent)
    engine = chess.engine.SimpleEngine.popen_uci([PLYLAB, "uci"])
    check("Ponder" in engine.options, "no Ponder option")
    board = chess.Board()
    game = object()
    hits = 0
    for _ in range(4):
        result = engine.play(board, chess.engine.Limit(time=0.2), ponder=True, game=game)
        check(result.move in board.legal_moves, f"ponder play gave {result.move}")
        board.push(result.move)
        if result.ponder is None:
            break
        check(result.ponder in board.legal_moves, f"ponder move {result.ponder} illegal")
        board.push(result.ponder)
        before = sent.lines.count("ponderhit")
        result = engine.play(board, chess.engine.Limit(time=0.2), ponder=True, game=game)
        hits += sent.lines.count("ponderhit") - before
        check(result.move in board.legal_moves, f"after ponderhit: {result.move}")
        board.push(result.move)
        if result.ponder is None:
            break
        board.push(result.ponder)
    engine.quit()
    logger.removeHandler(sent)
    check(hits > 0, "python-chess never sent ponderhit")
    check(any(line.startswith("go ponder") for line in sent.lines), "no go ponder sent")
    print(f"ok: pondering, {hits} ponderhits, {len(board.move_stack)} plies")


def clear_hash():
    board = chess.Board()
    limit = chess.engine.Limit(depth=5)
    fresh = chess.engine.SimpleEngine.popen_uci([PLYLAB, "uci"])
    first = fresh.analyse(board, limit)["nodes"]
    fresh.quit()
    engine = chess.engine.SimpleEngine.popen_uci([PLYLAB, "uci"])
    check(engine.analyse(board, limit)["nodes"] == first, "searches are not reproducible")
    warm = engine.analyse(board, limit)["nodes"]
    check(warm < first, f"a second search with the table filled counts {warm} >= {first} nodes")
    engine.configure({"Clear Hash": None})
    cleared = engine.analyse(board, limit)["nodes"]
    check(cleared == first, f"after Clear Hash {cleared} nodes, a fresh engine {first}")
    engine.quit()
    print(f"ok: Clear Hash: {first} nodes fresh, {warm} warm, {cleared} cleared")


def chess960():
    engine = chess.engine.SimpleEngine.popen_uci([PLYLAB, "uci"])
    # Kings on b1/b8 beside their a-file rooks: castling long is b1a1 (the king to c1, the
    # rook to d1), and b1c1 is an ordinary king move, so the two notations must not mix.
    board = chess.Board("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", chess960=True)
    castle = next(m for m in board.legal_moves if board.is_queenside_castling(m))
    check(board.uci(castle, chess960=True) == "b1a1", f"castling is {castle}")
    step = chess.Move.from_uci("b1c1")
    check(step in board.legal_moves and not board.is_castling(step), "b1c1 is a king move")
    for move in [castle, step]:
        result = engine.play(board, chess.engine.Limit(depth=2), root_moves=[move])
        check(result.move == move, f"{board.uci(move, chess960=True)} searched alone, engine played {result.move}")
    board.push(castle)
    # The castle is now in `position ... moves` as b1a1; the engine must accept it.
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(depth=2))
        check(result.move in board.legal_moves, f"Chess960: {result.move} in {board.fen()}")
        board.push(result.move)
    engine.quit()
    print(f"ok: Chess960 castling b1a1, then {board.fen()}")


def info_fields():
    engine = chess.engine.SimpleEngine.popen_uci([PLYLAB, "uci", "--aspiration", "1"])
    seen = set()
    with engine.analysis(chess.Board(), chess.engine.Limit(time=1.6)) as analysis:
        for info in analysis:
            seen.update(key for key in ("lowerbound", "upperbound", "hashfull", "currmove") if key in info)
            if "currmove" in info:
                check(info["currmove"] in chess.Board().legal_moves, f"currmove {info['currmove']}")
    engine.quit()
    check(seen == {"lowerbound", "upperbound", "hashfull", "currmove"}, f"info fields seen: {seen}")
    print("ok: lowerbound, upperbound, hashfull, currmove")


def repetition():
    engine = chess.engine.SimpleEngine.popen_uci([PLYLAB, "uci"])
    board = chess.Board()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        board.push_uci(uci)
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    check(info["depth"] == 4, f"start position seen once before: depth {info['depth']}")
    # Black (a knight against a queen) to move; c6b8 goes back to a position of the game.
    x = chess.Board("k7/8/2n5/8/8/8/8/3Q3K b - - 0 1")
    cycle = ["c6b8", "d1d2", "b8c6", "d2d1"]
    for uci in cycle:
        x.push_uci(uci)
    back = [chess.Move.from_uci("c6b8")]
    once = engine.analyse(x, chess.engine.Limit(depth=1), root_moves=back)
    check(once["score"].relative.score() < -300, f"seen once: {once['score']} (not a draw)")
    check(once["depth"] == 1, f"depth {once['depth']}")
    for uci in cycle:
        x.push_uci(uci)
    twice = engine.analyse(x, chess.engine.Limit(depth=3))
    check(twice["score"].relative.score() == 0, f"threefold: {twice['score']}")
    check(twice["pv"][0] == back[0], f"threefold: the draw c6b8 not chosen: {twice['pv']}")
    check(twice["depth"] == 3, f"depth {twice['depth']}")
    engine.quit()
    print(f"ok: repetition: seen once {once['score'].relative}, twice {twice['score'].relative}")


def main():
    multipv()
    ponder()
    clear_hash()
    chess960()
    info_fields()
    repetition()


if __name__ == "__main__":
    main()

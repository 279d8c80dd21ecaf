#!/usr/bin/env python3
"""A fake UCI engine for tests/engine.rs: `fake_engine.py MODE [MOVE] [--log FILE]`.

MODE decides how it misbehaves:

- `ok`: answers `uci` (with `id name Fake ok` and two options), `isready`, `ucinewgame`,
  `setoption`, `position` and `go`; `go` is answered with two `info` lines and
  `bestmove MOVE ponder e7e5` (MOVE defaults to e2e4; `(none)` or `0000` test the
  no-move answer);
- `crash`: like `ok`, but exits with status 3 on `go` without answering;
- `hang`: like `ok`, but never answers `go` (it sleeps, reading nothing more);
- `crash_on_start`: exits with status 2 on `uci`, after `id name` but before `uciok`;
- `slow`: like `ok`, but thinks 400 ms before each `bestmove`, and plays a legal first
  move for either side (g1f3 as White, g8f6 as Black, from the standard start), so that an
  arena on a short clock sees it lose on time;
- `flood`: like `ok`, but answers `go` by writing without end, with no line end, to its
  output and its standard error (64 KiB at a time);
- `garbage`: like `ok`, but writes junk before `uciok`, `readyok` and `bestmove`: unknown
  words, empty lines, broken `info` lines, bytes that are not UTF-8, CRLF line ends, a line
  of 100 000 characters, an `info string` that looks like a report.

With `--log FILE`, every line received is appended to FILE (and flushed) before it is
answered, so a test can check what the client sent. The engine stops on `quit` or at the
end of its input. Standard library only.
"""

import sys
import time

MODES = ("ok", "crash", "hang", "crash_on_start", "garbage", "slow", "flood")

JUNK = [
    b"hello there\n",
    b"\n",
    b"   \n",
    b"info depth x score cp abc nodes -\n",
    b"info score mate\n",
    b"info string depth 99 score cp 999 nodes 1\n",
    b"bestmovez e2e4\n",
    b"readyokay\n",
    b"uciokay\n",
    b"\xff\xfe not utf-8 \xc3\n",
    b"option name Junk type spin\r\n",
    b"x" * 100_000 + b"\n",
]


def parse_args(argv):
    """(mode, move, log path) from the command line; exits with status 64 on bad usage."""
    args = argv[1:]
    log = None
    if "--log" in args:
        at = args.index("--log")
        if at + 1 >= len(args):
            sys.exit(64)
        log = args[at + 1]
        del args[at : at + 2]
    if not args or args[0] not in MODES or len(args) > 2:
        sys.stderr.write(__doc__)
        sys.exit(64)
    return args[0], (args[1] if len(args) == 2 else "e2e4"), log


class Fake:
    """The engine's state: its mode, its move, and where it logs."""

    def __init__(self, mode, move, log):
        self.mode = mode
        self.move = move
        self.log = open(log, "a", encoding="utf-8") if log else None
        self.plies = 0

    def write(self, *lines):
        """Writes text lines and flushes them."""
        for line in lines:
            sys.stdout.buffer.write(line.encode() + b"\n")
        sys.stdout.buffer.flush()

    def junk(self):
        """Writes the junk lines in garbage mode."""
        if self.mode == "garbage":
            for line in JUNK:
                sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()

    def note(self, line):
        """Appends a received line to the log."""
        if self.log:
            self.log.write(line + "\n")
            self.log.flush()

    def uci(self):
        self.write(f"id name Fake {self.mode}", "id author plylab tests")
        if self.mode == "crash_on_start":
            sys.exit(2)
        self.write(
            "option name Hash type spin default 16 min 1 max 1024",
            "option name Threads type spin default 1 min 1 max 8",
            "option name Clear Hash type button",
        )
        self.junk()
        self.write("uciok")

    def go(self):
        if self.mode == "crash":
            sys.exit(3)
        if self.mode == "hang":
            while True:
                time.sleep(60)
        if self.mode == "flood":
            while True:
                sys.stdout.buffer.write(b"x" * 65536)
                sys.stderr.buffer.write(b"y" * 65536)
        if self.mode == "slow":
            time.sleep(0.4)
            self.move = "g1f3" if self.plies % 2 == 0 else "g8f6"
        self.write(
            f"info depth 1 seldepth 1 score cp 13 nodes 20 nps 2000 time 10 pv {self.move}",
            f"info depth 2 seldepth 3 multipv 1 score cp 17 nodes 120 time 11 pv {self.move}",
        )
        self.junk()
        self.write(f"bestmove {self.move} ponder e7e5")

    def answer(self, line):
        """Answers one command; returns False on `quit`."""
        words = line.split()
        command = words[0] if words else ""
        if command == "uci":
            self.uci()
        elif command == "isready":
            self.junk()
            self.write("readyok")
        elif command == "position":
            self.plies = len(words) - words.index("moves") - 1 if "moves" in words else 0
        elif command == "go":
            self.go()
        elif command == "quit":
            return False
        return True


def main():
    fake = Fake(*parse_args(sys.argv))
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        fake.note(line)
        if not fake.answer(line):
            break


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A fake xboard/CECP v2 engine for tests/xboard.rs:
`fake_xboard.py MODE [FEATURE=VALUE ...] [--move MOVE] [--log FILE]`.

On `protover 2` it announces `feature done=0`, then one `feature` line with
`myname="Fake xboard"`, the FEATURE=VALUE pairs of the command line (as given:
`setboard=1`, `usermove=1`, `ping=1`, `san=1`, ...) and two options,
`option="Resign Threshold -spin 800 200 1200"` and `option="Clear Hash -button"`, then
`feature done=1`. It answers `ping N` with `pong N`, and `go` with two thinking lines
(` 1 13 0 20 MOVE` and ` 2+ 17 1 120 MOVE`, the second marked as a fail high) and
`move MOVE` (MOVE defaults to e2e4). MODE decides how it misbehaves:

- `ok`: as above;
- `resign`: answers `go` with `resign`;
- `illegal`: answers every move it is told with `Illegal move: MOVE`;
- `error`: answers every move it is told with `Error (unknown command): MOVE`;
- `refuse_go`: answers `go` with `Illegal move (not your turn): go`.

A move it is told is any line of the form of a coordinate move (`e2e4`, `e7e8q`), or
`usermove MOVE`. With `--log FILE`, every line received is appended to FILE (and
flushed) before it is answered, so a test can check what the client sent. The engine stops
on `quit` or at the end of its input. Standard library only.
"""

import re
import sys

MODES = ("ok", "resign", "illegal", "error", "refuse_go")
MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")


def parse_args(argv):
    """(mode, features, move, log path); exits with status 64 on bad usage."""
    args = argv[1:]
    options = {"--move": "e2e4", "--log": None}
    for flag in options:
        if flag in args:
            at = args.index(flag)
            if at + 1 >= len(args):
                sys.exit(64)
            options[flag] = args[at + 1]
            del args[at : at + 2]
    if not args or args[0] not in MODES or any("=" not in a for a in args[1:]):
        sys.stderr.write(__doc__)
        sys.exit(64)
    return args[0], args[1:], options["--move"], options["--log"]


def write(*lines):
    """Writes text lines and flushes them."""
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    mode, features, move, log_path = parse_args(sys.argv)
    log = open(log_path, "a", encoding="utf-8") if log_path else None
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        if log:
            log.write(line + "\n")
            log.flush()
        words = line.split()
        command = words[0] if words else ""
        told = words[1] if command == "usermove" and len(words) > 1 else command
        if command == "protover":
            write(
                "feature done=0",
                " ".join(
                    ['feature myname="Fake xboard"']
                    + features
                    + [
                        'option="Resign Threshold -spin 800 200 1200"',
                        'option="Clear Hash -button"',
                    ]
                ),
                "feature done=1",
            )
        elif command == "ping" and len(words) > 1:
            write(f"pong {words[1]}")
        elif MOVE.match(told) and mode == "illegal":
            write(f"Illegal move: {told}")
        elif MOVE.match(told) and mode == "error":
            write(f"Error (unknown command): {told}")
        elif command == "go":
            if mode == "resign":
                write("resign")
            elif mode == "refuse_go":
                write("Illegal move (not your turn): go")
            else:
                write(f" 1 13 0 20 {move}", f" 2+ 17 1 120 {move}", f"move {move}")
        elif command == "quit":
            break


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Draws the checkers endgame test set experiments/data/checkers/endgames4.txt: random
4-piece positions (seeded) that the 4-piece database says are decided in at least 25 plies,
each with its signed distance (+d: the side to move wins in d plies, -d: loses in d).

    plylab tablebase build checkers 4 --out experiments/data/tablebase/checkers4.plytb
    python3 scripts/checkers_endgames.py target/release/plylab experiments/data/tablebase/checkers4.plytb > experiments/data/checkers/endgames4.txt
"""
import random
import subprocess
import sys

if len(sys.argv) != 3:
    sys.exit("usage: checkers_endgames.py PLYLAB TABLE.plytb > endgames4.txt")
plylab, table = sys.argv[1], sys.argv[2]
rng = random.Random(16)
found = []
# The committed set took 166 draws: a table that never gives a long enough ending (a
# wrong one) ends the script instead of looping forever.
for _ in range(100_000):
    if len(found) == 20:
        break
    squares = rng.sample(range(1, 33), 4)
    pieces = {"B": [], "W": []}
    for sq in squares:
        colour = rng.choice("BW")
        crowning = range(29, 33) if colour == "B" else range(1, 5)
        king = sq in crowning or rng.random() < 0.5
        pieces[colour].append(("K" if king else "") + str(sq))
    if not pieces["B"] or not pieces["W"]:
        continue
    fen = "%s:W%s:B%s" % (rng.choice("BW"), ",".join(pieces["W"]), ",".join(pieces["B"]))
    out = subprocess.run([plylab, "tablebase", "probe", table, fen],
                         capture_output=True, text=True, check=True).stdout.split()
    if out[0] in ("win", "loss") and int(out[2]) >= 25:
        found.append("%s %d" % (fen, int(out[2]) * (1 if out[0] == "win" else -1)))
if len(found) < 20:
    sys.exit("found only %d positions decided in 25 plies or more: is %s a 4-piece table?"
             % (len(found), table))
print("# 4-piece checkers positions decided in 25 plies or more, with the database's signed")
print("# distance in plies (scripts/checkers_endgames.py, seed 16).")
print("\n".join(found))

# Run by tests/gnubg.rs inside GNU Backgammon's embedded Python:
#   gnubg -t -q -p bearoff.py   (with PLYLAB_IN and PLYLAB_OUT in the environment)
# PLYLAB_IN holds one bearoff position a line: 50 numbers, gnubg's board (the opponent's
# points 1-24 and bar, then those of the player on roll). For each, writes the cubeless
# probability that the player on roll wins, from gnubg's 0-ply evaluation, which for
# these positions (class BEAROFF2) reads the exact two-sided bearoff database.
import os
import gnubg

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("new game")
cube = gnubg.cubeinfo()
context = gnubg.evalcontext(0, 0, 0, 1, 0.0)
with open(os.environ["PLYLAB_IN"]) as src, open(os.environ["PLYLAB_OUT"], "w") as out:
    for line in src:
        n = [int(x) for x in line.split()]
        board = (tuple(n[:25]), tuple(n[25:]))
        out.write("%d %.8f\n" % (gnubg.classifypos(board), gnubg.evaluate(board, cube, context)[0]))

# Run by tests/gnubg.rs inside GNU Backgammon's embedded Python:
#   gnubg -t -q -p legal_moves.py   (with PLYLAB_IN and PLYLAB_OUT in the environment)
# PLYLAB_IN holds one position a line, "<Position ID> <die> <die>". For each, this sets
# the board and dice in a money game and writes one line to PLYLAB_OUT:
#   <the board as gnubg decoded it: 50 numbers, anBoard[0] then anBoard[1]>|<move>|<move>...
# with every legal move that gnubg's hint lists at 0 ply (all of them: hint(10000)).
import os
import gnubg

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set automatic roll off")
gnubg.command("set jacoby off")
gnubg.command("set display off")
# hint's evaluation at 0 ply: it lists the same moves as at its default 2 ply, ten times
# faster (the test compares sets of moves, not their order).
gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("new session")
gnubg.command("new game")
with open(os.environ["PLYLAB_IN"]) as src, open(os.environ["PLYLAB_OUT"], "w") as out:
    for line in src:
        pid, a, b = line.split()
        gnubg.command("set board " + pid)
        gnubg.command("set dice %s %s" % (a, b))
        board = gnubg.board()
        numbers = " ".join(str(n) for n in board[0] + board[1])
        try:
            moves = [h["move"] for h in gnubg.hint(10000)["hint"]]
        except Exception:
            moves = []
        out.write(numbers + "|" + "|".join(moves) + "\n")

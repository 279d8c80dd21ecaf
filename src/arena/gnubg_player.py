# The arena's GNU Backgammon player (src/arena/gnubg.rs), run inside gnubg's embedded
# Python as a long-running child:  gnubg -t -q -p gnubg_player.py
# Requests on standard input, one a line; answers on standard output, one line each,
# prefixed `plylab-` (gnubg itself prints boards and messages, which the client skips):
#   plies N                       -> plylab-ok N     (chequer play evaluated N plies ahead)
#   move <Position ID> <die> <die> -> plylab-move <move>  (gnubg's best move, its notation,
#                                     relative to the player on roll), or plylab-move none
#   quit                           -> gnubg exits
# The evaluation is cubeless (plylab plays single games without the cube) and
# deterministic (no noise), so gnubg plays the same move in the same position every time.
import sys
import gnubg

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set automatic roll off")
gnubg.command("set jacoby off")
gnubg.command("set display off")
gnubg.command("set evaluation chequerplay evaluation cubeful off")
gnubg.command("set evaluation chequerplay evaluation noise 0")
gnubg.command("set evaluation chequerplay evaluation deterministic on")
gnubg.command("new session")
gnubg.command("new game")


def answer(text):
    sys.stdout.write("plylab-" + text + "\n")
    sys.stdout.flush()


answer("ready")
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        break
    if words[0] == "plies" and len(words) == 2:
        gnubg.command("set evaluation chequerplay evaluation plies " + words[1])
        answer("ok " + words[1])
    elif words[0] == "move" and len(words) == 4:
        gnubg.command("set board " + words[1])
        gnubg.command("set dice %s %s" % (words[2], words[3]))
        try:
            hints = gnubg.hint(1)["hint"]
        except Exception:
            hints = []
        answer("move " + (hints[0]["move"] if hints else "none"))
    else:
        answer("error unknown request: " + line.strip())

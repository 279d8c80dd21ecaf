#!/usr/bin/env python3
"""Writes searches.csv and run.json, the small but realistic fixture of the plot tests.

Random trees (b = 2 and 4, two trees each, depths 1..8): minimax visits the full tree,
alphabeta-ordered exactly the Knuth-Moore minimal tree, alphabeta and alphabeta-random lie
in between (near Pearl's R(b)^d). A few tictactoe and connect4 rows follow. Deterministic:
re-running gives the same files.
"""
import csv, json, math

HEADER = ("experiment,game,position,searcher,algorithm,params,threads,seed,repetition,depth,"
          "score,best_move,nodes,leaf_nodes,qnodes,tt_probes,tt_hits,beta_cutoffs,"
          "first_move_cutoffs,first_move_cutoff_rate,ebf,ebf_root,branching,minimal_leaves,"
          "max_ply,elapsed_s,nps,expected,solved").split(",")
SEARCHERS = {
    "minimax": ("minimax", "", None),
    "alphabeta": ("alphabeta", "order=none", 0.70),
    "alphabeta-random": ("alphabeta", "order=random", 0.55),
    "alphabeta-ordered": ("alphabeta", "oracle=perfect", 1.0),
}


def km(b, d):
    return b ** ((d + 1) // 2) + b ** (d // 2) - 1


def pearl(b):
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mid ** b + mid - 1 < 0 else (lo, mid)
    x = (lo + hi) / 2
    return x / (1 - x)


def leaves(searcher, b, d, tree):
    if searcher == "minimax":
        return b ** d
    if searcher == "alphabeta-ordered":
        return km(b, d)
    factor = {"alphabeta": 1.15, "alphabeta-random": 1.35}[searcher] + 0.1 * tree
    return max(km(b, d), min(b ** d, round(factor * pearl(b) ** d)))


def fmt(x, digits=6):
    return f"{x:.{digits}f}".rstrip("0").rstrip(".")


def row(game, position, searcher, depth, nodes, leaf, prev_nodes, branching, minimal, tree):
    algorithm, params, rate = SEARCHERS[searcher]
    cutoffs = 0 if rate is None else max(1, (nodes - leaf) // 2)
    first = 0 if rate is None else round(cutoffs * (rate if rate == 1.0 else rate + 0.01 * depth))
    elapsed = nodes / 2.0e6 + 0.0001 * (1 + tree)
    return {
        "experiment": "ordering", "game": game, "position": position, "searcher": searcher,
        "algorithm": algorithm, "params": params, "threads": 1, "seed": 42, "repetition": 0,
        "depth": depth, "score": (-1) ** depth * 3, "best_move": 0, "nodes": nodes,
        "leaf_nodes": leaf, "qnodes": 0, "tt_probes": 0, "tt_hits": 0, "beta_cutoffs": cutoffs,
        "first_move_cutoffs": first,
        "first_move_cutoff_rate": fmt(first / cutoffs) if cutoffs else "",
        "ebf": fmt(nodes / prev_nodes) if prev_nodes else "",
        "ebf_root": fmt(nodes ** (1 / depth)), "branching": fmt(branching),
        "minimal_leaves": "" if minimal is None else minimal, "max_ply": depth,
        "elapsed_s": fmt(elapsed), "nps": fmt(nodes / elapsed, 1), "expected": "", "solved": "",
    }


def random_rows():
    for b in (2, 4):
        for tree in (1, 2):
            position = f"b={b} d=8 iid tree={tree}"
            for searcher in SEARCHERS:
                prev = None
                for d in range(1, 9):
                    leaf = leaves(searcher, b, d, tree)
                    nodes = 1 + sum(leaves(searcher, b, k, tree) for k in range(1, d + 1))
                    yield row("random_tree", position, searcher, d, nodes, leaf, prev, b,
                              km(b, d), tree)
                    prev = nodes


# (game, position, mean legal moves, depths, minimax leaf counts per depth)
GAMES = [
    ("tictactoe", "start", 7.4, [9, 72, 504, 3024, 15120]),
    ("tictactoe", "x-center", 6.6, [8, 56, 336, 1680, 6720]),
    ("connect4", "start", 7.0, [7, 49, 343, 2401]),
    ("connect4", "pons-03", 6.8, [7, 48, 330, 2250]),
]


def game_rows():
    for tree, (game, position, branching, full) in enumerate(GAMES):
        for searcher in ("minimax", "alphabeta", "alphabeta-ordered"):
            prev = None
            for d, leaf_full in enumerate(full, start=1):
                shrink = {"minimax": 1.0, "alphabeta": 0.75, "alphabeta-ordered": 0.55}[searcher]
                leaf = max(1, round(leaf_full * shrink ** (d - 1)))
                nodes = 1 + sum(max(1, round(f * shrink ** k)) for k, f in enumerate(full[:d]))
                yield row(game, position, searcher, d, nodes, leaf, prev, branching, None, tree)
                prev = nodes


def main():
    with open("searches.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=HEADER, lineterminator="\n")
        w.writeheader()
        for r in list(random_rows()) + list(game_rows()):
            w.writerow(r)
    run = {
        "experiment": "ordering", "file": "experiments/ordering.toml",
        "text": "name = \"ordering\"\n", "seed": 42,
        "git_commit": "0123456789abcdef0123456789abcdef01234567", "crate_version": "0.1.0",
        "cpu_model": "Test CPU @ 3.0GHz", "cores": 2, "date": "2025-01-02T03:04:05Z",
        "jobs": 28, "elapsed_s": 1.5,
    }
    with open("run.json", "w") as f:
        json.dump(run, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()

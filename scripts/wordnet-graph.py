#!/usr/bin/env python3
"""WordNet 3.0's synset pointer graph as a compact file for PageRank (issue 16).

Reads data.noun, data.verb, data.adj and data.adv (Debian's wordnet-base puts them in
/usr/share/wordnet) and writes a gzip'd text the page decompresses with
DecompressionStream:
  line 1: "<nodes> <edges>"
  then one line per synset: its name ("first_lemma.pos"), a tab, and the ids of the
  synsets its pointers lead to (space separated, ascending, each edge once, no self
  loops).
Synsets are numbered in file order noun, verb, adj, adv (offset order inside a file).
Usage: scripts/wordnet-graph.py /usr/share/wordnet www/data/wordnet-graph.txt.gz
"""
import gzip
import sys

FILES = [("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r")]
# Adjective satellites ('s') live in data.adj: the same offset space as 'a'.
POS_FILE = {"n": "n", "v": "v", "a": "a", "s": "a", "r": "r"}


def synsets(folder):
    for name, pos in FILES:
        with open(f"{folder}/data.{name}", encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):  # the licence header
                    continue
                yield pos, line.split(" | ")[0].split()


def main(folder, out):
    rows = list(synsets(folder))
    ids = {(pos, int(t[0])): i for i, (pos, t) in enumerate(rows)}
    lines, edges = [], 0
    for pos, t in rows:
        words = int(t[3], 16)
        lemma = t[4].replace("_", " ")
        at = 4 + 2 * words
        pointers = int(t[at])
        targets = set()
        for p in range(pointers):
            offset, tpos = int(t[at + 2 + 4 * p]), t[at + 3 + 4 * p]
            targets.add(ids[(POS_FILE[tpos], offset)])
        me = len(lines)
        targets.discard(me)
        edges += len(targets)
        lines.append(f"{lemma}.{pos}\t" + " ".join(map(str, sorted(targets))))
    text = f"{len(lines)} {edges}\n" + "\n".join(lines) + "\n"
    with open(out, "wb") as f:
        f.write(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    print(f"{len(lines)} synsets, {edges} edges -> {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

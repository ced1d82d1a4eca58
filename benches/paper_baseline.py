#!/usr/bin/env python3
"""Baseline for `make bench`: the paper's approach in plain Python.

Choshen & Abend's released scripts read the UDPipe CoNLL-U output with plain Python
and select sentences for ONE phenomenon at ONE minimum distance per run. This script
does the same job (reflexive pairs, distance >= 1) so the Rust pipeline, which does
all phenomena and all buckets in one pass, can be compared in the same run.

Usage: paper_baseline.py FILE.conllu  -> prints "<selected> <seconds>"
"""
import sys
import time


def main(path):
    start = time.perf_counter()
    selected = 0
    words = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if words and hit(words):
                    selected += 1
                words = []
                continue
            if line.startswith("#"):
                continue
            cols = line.split("\t")
            if "-" in cols[0] or "." in cols[0]:
                continue
            words.append(cols)
    if words and hit(words):
        selected += 1
    print(selected, time.perf_counter() - start)


def hit(words, min_distance=1):
    for cols in words:
        if "Reflex=Yes" in cols[5].split("|") and cols[6] != "0":
            if abs(int(cols[0]) - int(cols[6])) - 1 >= min_distance:
                return True
    return False


if __name__ == "__main__":
    main(sys.argv[1])

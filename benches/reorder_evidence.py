#!/usr/bin/env python3
"""The evidence behind the default reorder measure (README, "Choosing the measure").

Reads OUT/<corpus>/reorder/reorder.tsv of every corpus of a `make extract` output and
prints, per corpus and measure: the share of the corpus at each default threshold, and
for the lowest set, how many of its pairs are monotone (crossing 0), how many reorder only
locally (crossing <= 2) and the median number of aligned source words. Standard library
only.

    make reorder-evidence OUT=out/de-en

With `--isalpha-bug SETS SRC TGT` it instead counts the pairs of a `--paper-compat` run
(SETS = its OUT/<corpus>) that the released code would select (difference > 5) with and
without its bug of testing `isalpha()` on the character at the token's index in the raw
line, on the run's alignments (indices of UD words read against the space-separated
tokens of the raw lines, as the released code read them: an approximation where the two
differ, e.g. German contractions).
"""

import csv
import statistics
import sys
from pathlib import Path

# Default thresholds of each measure (src/pipeline/detect/reorder.rs, Measure::default_buckets);
# kendall and fuzzy are in percent, the tsv holds fractions.
MEASURES = {
    "position": ([5, 10, 15, 20], 1),
    "crossing": ([7, 9, 11, 13], 1),
    "kendall": ([15, 20, 25, 30], 100),
    "fuzzy": ([70, 80, 90, 100], 100),
}


def value(row, measure, scale):
    cell = row[measure]
    return None if cell == "" else float(cell) * scale


def main(out):
    tables = sorted(Path(out).glob("*/reorder/reorder.tsv"))
    if not tables:
        sys.exit(f"no */reorder/reorder.tsv under {out}: run make extract first")
    for path in tables:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
        n = len(rows)
        print(f"== {path.parent.parent.name}: {n} lines")
        print(f"   {'measure':<9} {'sets (share of the corpus)':<72} lowest set: monotone, local only (crossing <= 2), median aligned words")
        for measure, (ks, scale) in MEASURES.items():
            cells = []
            for k in ks:
                c = sum(1 for r in rows if (v := value(r, measure, scale)) is not None and v >= k - 1e-9)
                cells.append(f"ge{k} {c} ({100 * c / n:.1f}%)")
            low = [r for r in rows if (v := value(r, measure, scale)) is not None and v >= ks[0] - 1e-9]
            cross = [float(r["crossing"]) for r in low]
            mono = sum(1 for x in cross if x == 0)
            local = sum(1 for x in cross if x <= 2)
            med = statistics.median(int(r["aligned"]) for r in low) if low else 0
            share = (lambda x: f"{100 * x / len(low):.1f}%") if low else (lambda x: "-")
            print(f"   {measure:<9} {' | '.join(cells):<72} {mono} ({share(mono)}), {local} ({share(local)}), {med:g}")
        words = [int(r["aligned"]) for r in rows if r["aligned"]]
        print(f"   all lines with a word link: median aligned words {statistics.median(words):g}")


def isalpha_bug(sets, src, tgt, d=5):
    with open(Path(sets) / "reorder" / "alignments.txt", encoding="utf-8") as f:
        alignments = f.read().split("\n")
    with open(src, encoding="utf-8-sig") as f:
        sources = f.read().split("\n")
    with open(tgt, encoding="utf-8-sig") as f:
        targets = f.read().split("\n")
    pairs = bug = fixed = 0
    for links, s, t in zip(alignments, sources, targets):
        s, t = s.strip(), t.strip()
        if not s or not t:
            continue
        pairs += 1
        kept = {}
        for link in links.split():
            i, j = map(int, link.split("-"))
            kept[i] = j  # one target per source word: the last link wins
        for i in range(s.count(" ") + 1):
            kept.setdefault(i, i)  # unaligned words at their own position
        st, tt = s.split(" "), t.split(" ")
        worst_bug = worst_fixed = 0
        for i, j in kept.items():
            diff = abs(i - j)
            if worst_bug < diff and i < len(s) and j < len(t) and s[i].isalpha() and t[j].isalpha():
                worst_bug = diff  # the released code: a character of the raw line
            if worst_fixed < diff and i < len(st) and j < len(tt) and st[i].isalpha() and tt[j].isalpha():
                worst_fixed = diff  # the token, as intended
        bug += worst_bug > d
        fixed += worst_fixed > d
    print(f"{pairs} pairs; difference > {d}: {bug} with the isalpha bug, {fixed} with isalpha on the token")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--isalpha-bug":
        isalpha_bug(*sys.argv[2:5])
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else "out/de-en")

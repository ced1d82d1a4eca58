"""Chooses the locus judgement's one constant (src/locus/rule.rs, `LEXICON`) from
`ldd-sets mqm --items` on the tuning talks, and prints it beside the code's.

usage: python benches/locus_fit.py ITEMS.tsv [src/locus/rule.rs]

`LEXICON` is the aligner's lexical score (the geometric mean of p(t|s) and p(s|t)) from
which an output word at a content word that is not the reference's word counts as a
likely translation of it (`correct`) rather than another word (`incorrect`). Every judged
content word of the items whose raters' verdict is located (the `error` column is 0 or 1)
is judged again at each threshold of a fixed grid — only words whose evidence is
`other:S` or `translation:S` change — and the threshold of highest MCC with the raters is
printed, with the MCC of every threshold. Run by `make validate-mqm` on TED talks 1 and 4
(never on the held-out talks). Needs nothing beyond Python's standard library.
"""
import csv
import math
import re
import sys

GRID = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5]


def mcc(pairs):
    tp = sum(1 for a, p in pairs if a and p)
    fp = sum(1 for a, p in pairs if a and not p)
    fn = sum(1 for a, p in pairs if not a and p)
    tn = len(pairs) - tp - fp - fn
    d = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return (tp * tn - fp * fn) / d if d else 0.0


rows = list(csv.DictReader(open(sys.argv[1], encoding='utf-8'), delimiter='\t',
                           quoting=csv.QUOTE_NONE))
words = [r for r in rows if r['level'] == 'word'
         and r['judgement'] in ('correct', 'incorrect') and r['error'] in ('0', '1')]


def incorrect(r, tau):
    m = re.fullmatch(r'(other|translation):([0-9.]+)', r['evidence'])
    return float(m.group(2)) < tau if m else r['judgement'] == 'incorrect'


best = None
print(f"{len(words)} judged content words with a located verdict in {sys.argv[1]}")
for tau in GRID:
    pairs = [(incorrect(r, tau), r['error'] == '1') for r in words]
    m = mcc(pairs)
    share = sum(a for a, _ in pairs) / len(pairs)
    print(f"LEXICON {tau:<5}  MCC {m:.4f}  judged incorrect {share:.3f}")
    if best is None or m > best[0]:
        best = (m, tau)
code = None
if len(sys.argv) > 2:
    found = re.search(r'pub const LEXICON: f64 = ([0-9.]+);', open(sys.argv[2]).read())
    code = float(found.group(1)) if found else None
print(f"LEXICON fitted {best[1]} (MCC {best[0]:.4f})" +
      (f"   code {code}" if code is not None else ""))

"""Chooses the locus judgement's one constant (src/locus/rule.rs, `LEXICON`) from
`ldd-sets mqm --items` on the tuning talks, and prints it beside the code's.

usage: python benches/locus_fit.py ITEMS.tsv [src/locus/rule.rs]

`LEXICON` is the aligner's lexical score (the geometric mean of p(t|s) and p(s|t)) from
which an output word at a content word that is not the reference's word counts as a
likely translation of it (`correct`) rather than another word (`incorrect`). Every judged
content word of the items whose raters' verdict is located (the `error` column is 0 or 1)
is judged again at each threshold of a fixed grid — only words whose evidence is
`other:S` or `translation:S` change — and printed with its MCC with the raters and its
**within-item z**: the number of words judged incorrect that raters fault, against its
mean and variance when each word's judgements are shuffled among the systems (the exact
moments of `mqm`'s within-item permutation test, i.e. the Cochran–Mantel–Haenszel
statistic stratified by word). The threshold of highest within-item z is chosen: the
figure the judgement is held to (does the word's judgement separate the systems raters
fault from the others, beyond the word's difficulty?), without a permutation test's
floor. Run by `make validate-mqm` on TED talks 1 and 4 (never on the held-out talks).
Needs nothing beyond Python's standard library.
"""
import collections
import csv
import math
import re
import sys

GRID = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9]


def mcc(pairs):
    tp = sum(1 for a, p in pairs if a and p)
    fp = sum(1 for a, p in pairs if a and not p)
    fn = sum(1 for a, p in pairs if not a and p)
    tn = len(pairs) - tp - fp - fn
    d = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return (tp * tn - fp * fn) / d if d else 0.0


def within_item_z(groups):
    """(observed − mean) / sd of the judged-incorrect-and-faulted count when each
    group's judgements are shuffled among its items (hypergeometric per group)."""
    observed = mean = var = 0.0
    for pairs in groups.values():
        n = len(pairs)
        a = sum(1 for x, _ in pairs if x)
        p = sum(1 for _, y in pairs if y)
        observed += sum(1 for x, y in pairs if x and y)
        mean += a * p / n
        if n > 1:
            var += a * p * (n - a) * (n - p) / (n * n * (n - 1))
    return (observed - mean) / math.sqrt(var) if var else 0.0


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
    groups = collections.defaultdict(list)
    for r in words:
        groups[(r['line'], r['word'])].append((incorrect(r, tau), r['error'] == '1'))
    pairs = [x for g in groups.values() for x in g]
    m, z = mcc(pairs), within_item_z(groups)
    share = sum(a for a, _ in pairs) / len(pairs)
    print(f"LEXICON {tau:<5}  within-item z {z:.3f}  MCC {m:.4f}  judged incorrect {share:.3f}")
    if best is None or z > best[0]:
        best = (z, tau, m)
code = None
if len(sys.argv) > 2:
    found = re.search(r'pub const LEXICON: f64 = ([0-9.]+);', open(sys.argv[2]).read())
    code = float(found.group(1)) if found else None
print(f"LEXICON fitted {best[1]} (within-item z {best[0]:.3f}, MCC {best[2]:.4f})" +
      (f"   code {code}" if code is not None else ""))

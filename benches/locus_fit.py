"""Refits the locus judgement's constants (src/locus/rule.rs) from `ldd-sets mqm --items`
on the tuning talks, and prints them beside the code's.

usage: python benches/locus_fit.py ITEMS.tsv [src/locus/rule.rs]

The word rule: logistic regression (scikit-learn, default L2, C = 1) of "a rater marked an
error there" on the word chrF and the sentence chrF of every judged content word; its
threshold is the one of highest MCC among the 50th-97th percentiles of the fitted p (95
steps) with at most 2.5 times the raters' error rate judged incorrect. The locus threshold:
the same search over the loci's p = 1 - prod(1 - p_word), with at most 2 times the raters'
rate. Run by `make validate-mqm` on TED talks 1 and 4 (never on the held-out talks).
"""
import csv
import re
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import matthews_corrcoef


def threshold(p, y, lo, hi, steps, ratio):
    best = (-1.0, None)
    for t in np.quantile(p, np.linspace(lo, hi, steps)):
        pr = p > t
        if pr.mean() > ratio * y.mean():
            continue
        m = matthews_corrcoef(y, pr)
        if m > best[0]:
            best = (m, float(t))
    return best


rows = list(csv.DictReader(open(sys.argv[1], encoding='utf-8'), delimiter='\t',
                           quoting=csv.QUOTE_NONE))
words = [r for r in rows if r['level'] == 'word' and r['judgement'] in ('correct', 'incorrect')]
X = np.array([[float(r['word_chrf']), float(r['sentence_chrf'])] for r in words])
y = np.array([r['error'] == '1' for r in words])
clf = LogisticRegression(max_iter=2000).fit(X, y)
p = clf.predict_proba(X)[:, 1]
mcc, t_word = threshold(p, y, 0.5, 0.97, 95, 2.5)
loci = [r for r in rows if r['level'] == 'locus' and r['judgement'] in ('correct', 'incorrect')]
fitted = {'INTERCEPT': float(clf.intercept_[0]), 'WORD': float(clf.coef_[0][0]),
          'SENTENCE': float(clf.coef_[0][1]), 'WORD_THRESHOLD': t_word}
print(f"fitted on {len(words)} judged content words and {len(loci)} judged loci of {sys.argv[1]}")
code = {}
if len(sys.argv) > 2:
    text = open(sys.argv[2], encoding='utf-8').read()
    for k in ['INTERCEPT', 'WORD', 'SENTENCE', 'WORD_THRESHOLD', 'LOCUS_THRESHOLD']:
        m = re.search(rf'pub const {k}: f64 = (-?[0-9.]+);', text)
        code[k] = float(m.group(1)) if m else None
if loci:
    # The loci's p from the code's word rule: the items carry the code's p per locus.
    lp = np.array([float(r['p_error']) for r in loci])
    ly = np.array([r['error'] == '1' for r in loci])
    _, fitted['LOCUS_THRESHOLD'] = threshold(lp, ly, 0.3, 0.97, 68, 2.0)
for k, v in fitted.items():
    c = code.get(k)
    print(f"{k:16} fitted {v:+.5f}" + (f"   code {c:+.5f}   difference {v - c:+.5f}" if c is not None else ""))
print(f"word-level MCC on the tuning items at the fitted threshold: {mcc:.3f}")

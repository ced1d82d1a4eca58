"""statsmodels' Wilson interval and exact McNemar test, the oracle of locus accuracy.

usage: python locus_stats.py < items.json
items.json: [{"n", "correct", "only_base", "only_sys", "confidence"}, ...]
prints [{"ci_low", "ci_high", "p"}, ...]: the Wilson interval of correct/n (x100) and the
exact McNemar p-value of the 2x2 table of the baseline against the system.
"""
import json
import sys

from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

out = []
for it in json.load(sys.stdin):
    lo, hi = proportion_confint(it['correct'], it['n'], alpha=1 - it['confidence'], method='wilson')
    # Rows: baseline right / wrong; columns: system right / wrong.
    table = [[0, it['only_base']], [it['only_sys'], 0]]
    p = mcnemar(table, exact=True).pvalue
    out.append({'ci_low': 100 * float(lo), 'ci_high': 100 * float(hi), 'p': float(p)})
print(json.dumps(out))

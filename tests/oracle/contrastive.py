"""The oracle of contrastive accuracy: from contrast's items.jsonl and each system's scores
(one number per line of contrast.TGT), the share of items whose reference scores above
every variant, for all variants and per error type, per set and corpus, with statsmodels'
Wilson interval and exact McNemar test against the first system.

usage: python contrastive.py < request.json
request: {"items": PATH, "sets": [[phenomenon, bucket], ...], "scores": [PATH, ...],
          "systems": [NAME, ...], "confidence": 0.95}
prints [{"system", "metric", "scope", "phenomenon", "bucket", "n", "score", "ci_low",
         "ci_high", "p"}, ...]
"""
import json
import sys

from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

req = json.load(sys.stdin)
items = [json.loads(l) for l in open(req["items"], encoding="utf-8")]
scores = [[float(x) for x in open(p)] for p in req["scores"]]
types = sorted({v["type"] for it in items for v in it["variants"]})


def passed(it, s, kind):
    ref = s[it["first_line"] - 1]
    mine = [s[it["first_line"] + k] for k, v in enumerate(it["variants"]) if kind in (None, v["type"])]
    if not mine:
        return None
    return all(ref > x for x in mine)


out = []
for key, kind in [("contrastive", None)] + [(f"contrastive-{t}", t) for t in types]:
    scopes = [("corpus", None, "corpus", lambda it: True)] + [
        ("set", ph, b, (lambda ph, b: lambda it: it["phenomenon"] == ph and b in it["sets"])(ph, b))
        for ph, b in req["sets"]
    ]
    for scope, ph, bucket, held in scopes:
        judged = [it for it in items if held(it) and passed(it, scores[0], kind) is not None]
        base = [passed(it, scores[0], kind) for it in judged]
        for s, name in enumerate(req["systems"]):
            mine = [passed(it, scores[s], kind) for it in judged]
            n, correct = len(mine), sum(mine)
            row = {"system": name, "metric": key, "scope": scope, "phenomenon": ph or "",
                   "bucket": bucket, "n": n, "score": None, "ci_low": None, "ci_high": None,
                   "p": None}
            if n:
                lo, hi = proportion_confint(correct, n, alpha=1 - req["confidence"], method="wilson")
                row.update(score=100 * correct / n, ci_low=100 * float(lo), ci_high=100 * float(hi))
                if s > 0:
                    only_base = sum(1 for b, m in zip(base, mine) if b and not m)
                    only_sys = sum(1 for b, m in zip(base, mine) if m and not b)
                    table = [[0, only_base], [only_sys, 0]]
                    row["p"] = float(mcnemar(table, exact=True).pvalue)
            out.append(row)
print(json.dumps(out))

"""sacreBLEU 2.4.3 on the cases of tests/sacrebleu_vectors.rs: for each, the score and
the signature of the metric object built with the case's keyword arguments, with
`n_bootstrap` and `seed` set as `ldd-sets score` resamples (1000, 12345), so that the
signature has the same `bs:`/`seed:` fields.

stdin: JSON list of {"metric": "BLEU"|"CHRF"|"TER", "kwargs": {...}, "hyps": [...],
"refs": [[...], ...]}; stdout: JSON list of {"score": float, "signature": str}.
"""
import json
import sys

from sacrebleu.metrics import BLEU, CHRF, TER

METRICS = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}

out = []
for case in json.load(sys.stdin):
    metric = METRICS[case["metric"]](**case["kwargs"])
    score = metric.corpus_score(case["hyps"], case["refs"])
    metric.n_bootstrap = 1000
    metric.seed = 12345
    out.append({"score": score.score, "signature": str(metric.get_signature())})
json.dump(out, sys.stdout)

"""sacreBLEU 2.4.3's paired tests, as `sacrebleu REF -i SYS... -m bleu chrf --paired-bs|--paired-ar`
runs them (sacrebleu.significance.PairedTest), printed as JSON with plain floats (the CLI's
own JSON output fails on chrF's float32 means).

usage: python sacrebleu_paired.py REF bs|ar N SYSTEM...
prints {"BLEU": [{score, p, mean, ci}, ...], "chrF2": [...], "signatures": {...}}
"""
import json
import sys

from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

ref, test, n, *systems = sys.argv[1:]


def read(path):
    with open(path, encoding='utf-8') as f:
        return [line.rstrip() for line in f]


refs = [read(ref)]
named = [(p, read(p)) for p in systems]
metrics = {'BLEU': BLEU(references=refs), 'CHRF': CHRF(references=refs)}
sigs, scores = PairedTest(named, metrics, references=None, test_type=test, n_samples=int(n))()


def f(x):
    return None if x is None else float(x)


out = {m: [dict(score=f(r.score), p=f(r.p_value), mean=f(r.mean), ci=f(r.ci)) for r in rs]
       for m, rs in scores.items() if m != 'System'}
out['signatures'] = {m: str(s) for m, s in sigs.items()}
print(json.dumps(out))

"""sacreBLEU 2.4.3's paired bootstrap (what `sacrebleu REF -i A B -m bleu chrf --paired-bs`
runs: sacrebleu.significance.PairedTest, 1,000 resamples, seed 12345) on many file triples
in one process. Input: a TSV file of `REF<TAB>SYS_A<TAB>SYS_B` lines. Used by
benches/significance_books.rs as the baseline."""
import sys

from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest


def read(path):
    with open(path, encoding='utf-8') as f:
        return [line.rstrip() for line in f]


for row in open(sys.argv[1], encoding='utf-8'):
    ref, a, b = row.rstrip('\n').split('\t')
    refs = [read(ref)]
    metrics = {'BLEU': BLEU(references=refs), 'CHRF': CHRF(references=refs)}
    PairedTest([(a, read(a)), (b, read(b))], metrics, references=None,
               test_type='bs', n_samples=1000)()

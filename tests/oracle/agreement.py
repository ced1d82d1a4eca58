"""scikit-learn's MCC and Cohen's kappa, scipy's Spearman and Kendall: the oracle of `mqm`.

usage: python agreement.py < input.json
input.json: {"automatic": [0|1...], "people": [0|1...], "accuracy": [...], "mqm": [...]}
prints {"mcc", "kappa", "spearman", "kendall"}: the agreement of the automatic labels with
people's, and the rank correlations of the systems' accuracies with their MQM scores.
"""
import json
import sys

from scipy.stats import kendalltau, spearmanr
from sklearn.metrics import cohen_kappa_score, matthews_corrcoef

x = json.load(sys.stdin)
print(json.dumps({
    'mcc': float(matthews_corrcoef(x['people'], x['automatic'])),
    'kappa': float(cohen_kappa_score(x['people'], x['automatic'])),
    'spearman': float(spearmanr(x['accuracy'], x['mqm']).statistic),
    'kendall': float(kendalltau(x['accuracy'], x['mqm']).statistic),
}))

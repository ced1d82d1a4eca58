"""aces.tsv read back with pandas both ways — as ACES reads it (csv.QUOTE_NONE) and with
the default quoting — against the rows of aces.jsonl none of whose cells starts with '"'.

stdin: {"tsv": path, "jsonl": path}; stdout: {"none": rows, "default": rows,
"same": bool (the two readings equal), "as_jsonl": bool (equal to the JSON rows)}.
"""
import csv
import json
import sys

import pandas as pd

req = json.load(sys.stdin)
none = pd.read_csv(req["tsv"], sep="\t", quoting=csv.QUOTE_NONE)
default = pd.read_csv(req["tsv"], sep="\t")
with open(req["jsonl"], encoding="utf-8") as f:
    rows = [json.loads(line) for line in f]
rows = [r for r in rows if not any(str(v).startswith('"') for v in r.values())]
as_jsonl = len(rows) == len(none) and all(
    list(none.iloc[i]) == [rows[i][k] for k in none.columns] for i in range(len(rows))
)
json.dump(
    {
        "none": len(none),
        "default": len(default),
        "same": bool(none.equals(default)),
        "as_jsonl": bool(as_jsonl),
    },
    sys.stdout,
)

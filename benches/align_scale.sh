#!/usr/bin/env bash
# bench-align-scale: the built-in aligner (the HMM by agreement, ldd-sets' default) at corpus
# scale. `ldd-sets align` on the shared Books sample + Multi30k de-en (57,030 pairs), on 4
# copies of it (228,120 pairs) and on 18 copies (1,026,540 pairs), each copy after the first
# with its lines in another order (a fixed permutation per copy, the same on both sides);
# prints wall time, CPU time and peak RSS (/usr/bin/time) per run and per pair, and beside
# the 57k run eflomal 2.0 (`eflomal-align --model 3`, from PyPI into .venv by
# `make .venv/bin/eflomal-align`) on the same tokens (ldd-align's tokenizer, written one pair
# per line; its rules re-implemented in Python), timed the same way.
#
# Targets (issue 45): peak RSS at 57k at most eflomal's in the same run, at >= 1M at most
# 4 GB, and wall time per pair at >= 1M within 1.2x of the 57k run's. SCALES="1 4" runs the
# smaller corpora only; EFLOMAL=0 skips eflomal.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/ldd-sets}
SHARED=${SHARED:-../shared}
W=${BENCH_DIR:-${CARGO_TARGET_DIR:-target}/bench-align-scale}
SCALES=${SCALES:-1 4 18}
EFLOMAL=${EFLOMAL:-1}
EFLOMAL_ALIGN=${EFLOMAL_ALIGN:-.venv/bin/eflomal-align}
mkdir -p "$W"
P=$SHARED/data/parallel
for side in de en; do
  gzip -dc "$P/books-sample.de-en.$side.gz" "$P/multi30k-train.de-en.$side.gz" > "$W/c1.$side"
done
# Copies: copy k (k >= 1) is the corpus in the order of a permutation seeded by k.
python3 - "$W" $SCALES <<'EOF'
import random, sys
w, scales = sys.argv[1], [int(s) for s in sys.argv[2:]]
sides = {s: open(f"{w}/c1.{s}", encoding="utf-8").read().splitlines() for s in ("de", "en")}
n = len(sides["de"])
for k in scales:
    if k == 1:
        continue
    orders = [list(range(n))]
    for c in range(1, k):
        o = list(range(n))
        random.Random(c).shuffle(o)
        orders.append(o)
    for s, lines in sides.items():
        with open(f"{w}/c{k}.{s}", "w", encoding="utf-8") as f:
            for o in orders:
                for i in o:
                    f.write(lines[i] + "\n")
EOF
# Runs a command under /usr/bin/time; prints "wall user+sys peak_kB".
timed() {
  /usr/bin/time -f "%e %U %S %M" -o "$W/time" "$@" > /dev/null 2> "$W/stderr" || {
    cat "$W/stderr" >&2
    exit 1
  }
  awk '{ print $1, $2 + $3, $4 }' "$W/time"
}
printf "%-10s %10s %10s %10s %12s %12s %14s\n" corpus pairs "wall s" "CPU s" "peak MB" "wall us/pair" "peak B/pair"
first=
for k in $SCALES; do
  pairs=$(wc -l < "$W/c$k.de")
  read -r wall cpu kb < <(timed "$BIN" align -q --src "$W/c$k.de" --tgt "$W/c$k.en" \
    --src-lang de --tgt-lang en --out "$W/c$k.align")
  printf "%-10s %10d %10.1f %10.1f %10.1f %12.1f %14.0f\n" "${k}x" "$pairs" "$wall" "$cpu" \
    "$(echo "$kb" | awk '{ print $1 / 1024 }')" "$(awk -v w="$wall" -v p="$pairs" 'BEGIN { print 1e6 * w / p }')" \
    "$(awk -v k="$kb" -v p="$pairs" 'BEGIN { print 1024 * k / p }')"
  echo "$k $pairs $wall $cpu $kb" >> "$W/results.$$"
  if [ "$k" = 1 ] && [ "$EFLOMAL" = 1 ]; then
    if [ -x "$EFLOMAL_ALIGN" ]; then
      # The same tokens: ldd-align's tokenizer rules (crates/align/README.md), here with
      # Python's Unicode tables.
      python3 - "$W" <<'EOF'
import sys, unicodedata
w = sys.argv[1]
# ldd-align's tokenizer (crates/align/src/tokenize.rs), for eflomal's input.
def punct(c):
    return unicodedata.category(c)[0] in "PS"
def tokens(line):
    out = []
    for word in line.split():
        cur = ""
        for i, c in enumerate(word):
            prev = word[i - 1] if i > 0 else ""
            nxt = word[i + 1] if i + 1 < len(word) else ""
            inner = (c in "'’-\u2010\u2011" and prev.isalnum() and nxt.isalnum()) or \
                    (c in ".," and prev.isdigit() and nxt.isdigit())
            if punct(c) and not inner:
                if cur:
                    out.append(cur)
                out.append(c)
                cur = ""
            else:
                cur += c
        if cur:
            out.append(cur)
    return out
for s in ("de", "en"):
    with open(f"{w}/c1.{s}", encoding="utf-8") as f, open(f"{w}/c1.tok.{s}", "w", encoding="utf-8") as o:
        for line in f:
            o.write(" ".join(tokens(line)) + "\n")
EOF
      read -r ewall ecpu ekb < <(timed "$EFLOMAL_ALIGN" --model 3 --overwrite \
        -s "$W/c1.tok.de" -t "$W/c1.tok.en" -f "$W/eflomal.fwd" -r "$W/eflomal.rev")
      printf "%-10s %10d %10.1f %10.1f %10.1f %12.1f %14.0f\n" "eflomal" "$pairs" "$ewall" "$ecpu" \
        "$(echo "$ekb" | awk '{ print $1 / 1024 }')" "$(awk -v w="$ewall" -v p="$pairs" 'BEGIN { print 1e6 * w / p }')" \
        "$(awk -v k="$ekb" -v p="$pairs" 'BEGIN { print 1024 * k / p }')"
      echo "eflomal $pairs $ewall $ecpu $ekb" >> "$W/results.$$"
    else
      echo "eflomal: not measured (no $EFLOMAL_ALIGN; make .venv/bin/eflomal-align installs it)"
    fi
  fi
done
awk '
  $1 == 1 { p1 = $2; w1 = $3; c1 = $4; m1 = $5 }
  $1 == "eflomal" { em = $5; ew = $3 }
  $1 != "eflomal" && $1 != 1 { big[$1] = $0 }
  END {
    if (em) printf "57k: peak %.0f MB vs eflomal %.0f MB -> %.2fx (target <= 1); wall %.1f s vs %.1f s -> %.2fx\n", m1 / 1024, em / 1024, m1 / em, w1, ew, w1 / ew
    for (k in big) {
      split(big[k], f, " ")
      printf "%sx (%d pairs): peak %.0f MB (target <= 4096 MB); wall per pair %.2fx the 57k run, CPU per pair %.2fx (target <= 1.2)\n", k, f[2], f[5] / 1024, (f[3] / f[2]) / (w1 / p1), (f[4] / f[2]) / (c1 / p1)
    }
  }' "$W/results.$$"
rm -f "$W/results.$$"

#!/usr/bin/env bash
# bench-report: writes the report of the books sample (OPUS Books de-en, 28,030 lines from
# ../shared) and prints its time and size against the issue's targets (1 s, 5 MB) and
# against `ldd-sets score` on the same sets, timed in the same run. CPU time (user + sys) is
# printed too: on a loaded machine it is the meaningful figure.
#
# Setup (not timed): extract with the small German UDPipe model (the parse is cached in
# $LDD_SETS_CACHE or ~/.cache/ldd-sets/parses: the first run parses for minutes, later runs
# reuse it), --max-distance 7 (2 phenomena x 16 buckets + 4 reorder sets = 36 sets),
# 10 controls per set; two synthetic systems made from the reference (every 3rd word
# dropped; neighbouring words swapped) scored with `score`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/ldd-sets}
SHARED=${SHARED:-../shared}
W=${BENCH_DIR:-target/bench-report}
mkdir -p "$W"
src=$SHARED/data/parallel/books-sample.de-en.de.gz
tgt=$SHARED/data/parallel/books-sample.de-en.en.gz
"$BIN" extract -q --src "$src" --tgt "$tgt" --src-lang de --tgt-lang en \
  --model "$SHARED/models/german-small.udpipe" --offline --max-distance 7 --controls 10 --out "$W/books"
gzip -dc "$tgt" | awk '{ o = ""; for (i = 1; i <= NF; i++) if (i % 3 != 0) o = o (o == "" ? "" : " ") $i; print o }' > "$W/drop3.en"
gzip -dc "$tgt" | awk '{ for (i = 1; i + 1 <= NF; i += 2) { t = $i; $i = $(i + 1); $(i + 1) = t } print }' > "$W/swap.en"
now() { date +%s.%N; }
t0=$(now); "$BIN" score -q --sets "$W/books" --hyp "$W/drop3.en" --hyp "$W/swap.en"; t1=$(now)
score_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
best=
cpu=
TIMEFORMAT='%R %U %S'
for i in 1 2 3; do
  r=$( { time "$BIN" report -q --sets "$W/books" > /dev/null; } 2>&1 )
  best=$(echo "$r" | awk -v m="$best" '{ print (m == "" || $1 < m) ? $1 : m }')
  cpu=$(echo "$r" | awk -v m="$cpu" '{ c = $2 + $3; print (m == "" || c < m) ? c : m }')
done
sets=$(grep -c '"min_distance"' "$W/books/manifest.json" || true)
lines=$(gzip -dc "$src" | wc -l)
bytes=$(stat -c %s "$W/books/report.html")
awk -v lines="$lines" -v sets="$sets" -v t="$best" -v c="$cpu" -v b="$bytes" -v s="$score_s" 'BEGIN {
  printf "books sample: %d lines, %d sets (10 controls each), 2 systems\n", lines, sets
  printf "report: %.3f s wall, %.3f s CPU (best of 3), %.2f MB -> %.2fx the 1 s target, %.2fx the 5 MB target\n", t, c, b / 1e6, t, b / 5e6
  printf "baseline, score on the same sets: %.3f s -> report takes %.2fx the time of score\n", s, t / s
}'

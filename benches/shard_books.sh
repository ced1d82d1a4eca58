#!/usr/bin/env bash
# bench-shard: a sharded run on one machine against one process, and the merge.
#
# Corpus: the first $LINES (default 6,000) lines of the books sample (OPUS Books de-en from
# ../shared), parsed by the small German UDPipe model, reordering sets from an aligner
# trained once beforehand (not timed), 10 controls per set, on all cores.
#  - baseline: one `ldd-sets extract --threads $CORES` (parse + extract), empty parse cache;
#  - sharded: N = $SHARDS shards run by GNU parallel, $CORES at a time, one thread each
#    (`extract --shard I/N --threads 1`), empty parse cache; then `merge`.
# Prints the wall time of each, UDPipe words per second, the ratio sharded / one process,
# and the merge time; then checks that the merged output equals the unsharded one.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/ldd-sets}
SHARED=${SHARED:-../shared}
LINES=${LINES:-6000}
SHARDS=${SHARDS:-4}
CORES=${CORES:-$(nproc)}
W=${BENCH_DIR:-target/bench-shard}
command -v parallel >/dev/null || { echo "bench-shard needs GNU parallel (apt-get install parallel)" >&2; exit 1; }
rm -rf "$W" && mkdir -p "$W"
gzip -dc "$SHARED/data/parallel/books-sample.de-en.de.gz" | awk -v n="$LINES" 'NR <= n' > "$W/books.de"
gzip -dc "$SHARED/data/parallel/books-sample.de-en.en.gz" | awk -v n="$LINES" 'NR <= n' > "$W/books.en"
"$BIN" align -q --src "$W/books.de" --tgt "$W/books.en" --src-lang de --tgt-lang en --save-model "$W/aligner"
args=(extract -q --src "$W/books.de" --tgt "$W/books.en" --src-lang de --tgt-lang en
  --model "$SHARED/models/german-small.udpipe" --offline --align-model "$W/aligner" --controls 10)
now() { date +%s.%N; }

t0=$(now)
"$BIN" "${args[@]}" --cache "$W/cache-one" --threads "$CORES" --out "$W/one"
t1=$(now)
parallel --will-cite --halt now,fail=1 -j "$CORES" -q "$BIN" "${args[@]}" --cache "$W/cache-shards" \
  --threads 1 --shard "{}/$SHARDS" --out "$W/shards/{}" ::: $(seq "$SHARDS")
t2=$(now)
"$BIN" merge -q --out "$W/merged" $(seq -f "$W/shards/%g" "$SHARDS")
t3=$(now)

words=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["corpus"]["source_words"])' "$W/one/manifest.json")
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v w="$words" -v n="$SHARDS" -v k="$CORES" -v l="$LINES" 'BEGIN {
  one = b - a; sh = c - b; m = d - c
  printf "books sample, first %d lines (%d words), small German model, %d cores\n", l, w, k
  printf "one process, %d threads:     %7.2f s  (%.0f words/s, parse + extract)\n", k, one, w / one
  printf "%d shards, %d at a time:       %7.2f s  (%.0f words/s) -> %.2fx the time of one process\n", n, k, sh, w / sh, sh / one
  printf "merge (sets, parse, controls): %5.2f s -> %.3fx the time of one process; sharded + merge: %.2fx\n", m, m / one, (sh + m) / one
}'
# The merged output is the unsharded one (the manifest but for its shard record).
diff -r -q -x manifest.json "$W/one" "$W/merged" && echo "merged output identical to one process: yes"

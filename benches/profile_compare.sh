#!/usr/bin/env bash
# bench-profile: the release profile before issue 55 (`debug = 1`, nothing stripped) against
# the profile of Cargo.toml now (no debug info, debug info stripped), same sources, same run.
#
# Builds `ldd-sets` under each profile into its own target directory below $BENCH_DIR and
# prints the build's CPU time, the binary's size and the target directory's size; then times
# four workloads with each binary, alternating the binaries, three rounds (best of three):
#   extract  PUD de-en on its gold German trees, 100 controls a set, reordering sets with the
#            HMM aligner trained on PUD and newstest2013 (reading, detection, alignment EM,
#            writing)
#   parse    the first 600 lines of newstest2013 parsed with the small German UDPipe model
#            (UDPipe's C++ code; a fresh parse cache each time)
#   score    the PUD sets, 2 systems made from the reference, BLEU, chrF and locus accuracy
#   report   the report of those scores
# and the ratio now / before of each (CPU time, user + sys: the figure to compare on a
# shared machine; wall time is printed beside it). A ratio near 1.00 says the profile change
# left the run time unchanged, as it should: debug info changes neither the optimisation
# level nor LTO nor the codegen units.
#
# BIN_BEFORE / BIN_NOW: use these binaries instead of building (then no build figures).
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
W=${BENCH_DIR:-target/bench-profile}
ROUNDS=${ROUNDS:-3}
mkdir -p "$W"
W=$(cd "$W" && pwd)
TIMEFORMAT='%R %U %S'

. benches/common/build.sh

if [ -z "${BIN_BEFORE:-}" ] || [ -z "${BIN_NOW:-}" ]; then
  echo "building the release binary twice (minutes each)..." >&2
  build before . 1 none
  build now . false debuginfo
  BIN_BEFORE=$W/ldd-sets-before
  BIN_NOW=$W/ldd-sets-now
fi

# Inputs made once, not timed.
head -n 600 "$SHARED/data/parallel/newstest2013.de-en.de" > "$W/news600.de"
head -n 600 "$SHARED/data/parallel/newstest2013.de-en.en" > "$W/news600.en"
awk '{ o = ""; for (i = 1; i <= NF; i++) if (i % 3 != 0) o = o (o == "" ? "" : " ") $i; print o }' \
  "$SHARED/data/parallel/pud.de-en.en" > "$W/drop3.en"
awk '{ for (i = 1; i + 1 <= NF; i += 2) { t = $i; $i = $(i + 1); $(i + 1) = t } print }' \
  "$SHARED/data/parallel/pud.de-en.en" > "$W/swap.en"

workload() { # name bin tag
  local bin=$2 d="$W/run-$3"
  case $1 in
    extract)
      rm -rf "$d/sets"
      "$bin" extract -q --offline --src "$SHARED/data/parallel/pud.de-en.de" \
        --tgt "$SHARED/data/parallel/pud.de-en.en" --src-lang de --tgt-lang en \
        --conllu "$SHARED/data/ud/de_pud-ud-test.conllu" --controls 100 --threads 1 \
        --align-train "$SHARED/data/parallel/newstest2013.de-en" --out "$d/sets" ;;
    parse)
      rm -rf "$d/parse" "$d/cache"
      "$bin" extract -q --offline --src "$W/news600.de" --tgt "$W/news600.en" \
        --src-lang de --tgt-lang en --model "$SHARED/models/german-small.udpipe" \
        --cache "$d/cache" --no-reorder --threads 1 --out "$d/parse" ;;
    score)
      "$bin" score -q --sets "$d/sets" --hyp "drop3=$W/drop3.en" --hyp "swap=$W/swap.en" \
        --metrics bleu,chrf,locus --threads 1 ;;
    report)
      "$bin" report -q --sets "$d/sets" --out "$d/report.html" ;;
  esac
}

declare -A cpu wall
for w in extract parse score report; do
  for tag in before now; do cpu[$w.$tag]=; wall[$w.$tag]=; done
done
for round in $(seq "$ROUNDS"); do
  for w in extract parse score report; do
    for tag in before now; do
      bin=$BIN_BEFORE; [ "$tag" = now ] && bin=$BIN_NOW
      mkdir -p "$W/run-$tag"
      r=$( { time workload "$w" "$bin" "$tag" > /dev/null; } 2>&1 | tail -1)
      c=$(echo "$r" | awk '{ print $2 + $3 }')
      s=$(echo "$r" | awk '{ print $1 }')
      cpu[$w.$tag]=$(awk -v m="${cpu[$w.$tag]}" -v c="$c" 'BEGIN { print (m == "" || c < m) ? c : m }')
      wall[$w.$tag]=$(awk -v m="${wall[$w.$tag]}" -v c="$s" 'BEGIN { print (m == "" || c < m) ? c : m }')
    done
  done
  echo "round $round of $ROUNDS done" >&2
done

# The two runs' outputs must be the same (but for the directory named in scores.json): the
# profile changes no result.
for f in manifest.json summary.csv scores.json; do
  [ -f "$W/run-before/sets/$f" ] || continue
  cmp -s <(sed 's#/run-before/#/run-X/#g' "$W/run-before/sets/$f") \
    <(sed 's#/run-now/#/run-X/#g' "$W/run-now/sets/$f") || { echo "outputs differ: $f" >&2; exit 1; }
done

echo "release profile: before (debug = 1) against now (no debug info, stripped); load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -f "$W/build-before.txt" ]; then
  read -r bw bu bs bsize btarget < "$W/build-before.txt"
  read -r nw nu ns nsize ntarget < "$W/build-now.txt"
  awk -v bw="$bw" -v bc="$(echo "$bu + $bs" | bc)" -v bz="$bsize" -v bt="$btarget" \
      -v nw="$nw" -v nc="$(echo "$nu + $ns" | bc)" -v nz="$nsize" -v nt="$ntarget" 'BEGIN {
    printf "%-8s %12s %12s %12s %12s\n", "build", "CPU s", "wall s", "binary MB", "target MB"
    printf "%-8s %12.0f %12.0f %12.1f %12.0f\n", "before", bc, bw, bz / 1e6, bt / 1e6
    printf "%-8s %12.0f %12.0f %12.1f %12.0f\n", "now", nc, nw, nz / 1e6, nt / 1e6
    printf "%-8s %12.2f %12.2f %12.2f %12.2f\n", "ratio", nc / bc, nw / bw, nz / bz, nt / bt
  }'
fi
printf "%-8s %14s %14s %10s %10s %8s\n" "run" "before CPU s" "now CPU s" "before s" "now s" "ratio"
for w in extract parse score report; do
  awk -v w="$w" -v bc="${cpu[$w.before]}" -v nc="${cpu[$w.now]}" -v bw="${wall[$w.before]}" \
      -v nw="${wall[$w.now]}" 'BEGIN { printf "%-8s %14.3f %14.3f %10.3f %10.3f %8.2f\n", w, bc, nc, bw, nw, nc / bc }'
done

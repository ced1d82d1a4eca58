#!/usr/bin/env bash
# bench-core: lexical extraction throughput on gold CoNLL-U (benches/extract_throughput.rs)
# with today's binary beside the binary of an earlier commit, BEFORE (default d2da789^: the
# code when issue 54 was filed, whose default rules were the paper's), in the same run.
#
# Builds BEFORE's `ldd-sets` from `git archive` of that commit with today's release profile
# (benches/common/build.sh; a clean build, minutes; the binary is kept in $BENCH_DIR under
# the commit's id and reused), then runs the bench, which times that binary, today's with
# its built-in rules and today's with --paper-compat, alternating, and prints the ratios.
#
# BIN_BEFORE: use this binary instead of building one; BIN_NOW: time this binary as today's
# (default: the one cargo builds from this tree). ROUNDS: rounds of the bench (best of).
set -euo pipefail
cd "$(dirname "$0")/.."
W=${BENCH_DIR:-${CARGO_TARGET_DIR:-target}/bench-core}
BEFORE=${BEFORE:-d2da789^}
mkdir -p "$W"
W=$(cd "$W" && pwd)
TIMEFORMAT='%R %U %S'
. benches/common/build.sh

if [ -n "${BIN_BEFORE:-}" ]; then
  BEFORE=$BIN_BEFORE
else
  rev=$(git rev-parse --verify -q "$BEFORE^{commit}") || {
    echo "bench-core: commit $BEFORE not in this clone (fetch its history, or set BIN_BEFORE)" >&2
    exit 2
  }
  BIN_BEFORE=$W/ldd-sets-$rev
  if [ ! -x "$BIN_BEFORE" ]; then
    echo "building ldd-sets of $BEFORE ($rev) with today's release profile (minutes)..." >&2
    src="$W/src-$rev"
    rm -rf "$src" && mkdir -p "$src"
    git archive "$rev" | tar -x -m -C "$src"
    build "$rev" "$src" false debuginfo
    rm -rf "$src" "$W/target-$rev"
  fi
  BEFORE="$BEFORE ($(git rev-parse --short "$rev"))"
fi
[ -n "${BIN_NOW:-}" ] && export LDD_SETS_NOW=$BIN_NOW
LDD_SETS_BEFORE=$BIN_BEFORE LDD_SETS_BEFORE_NAME=$BEFORE cargo bench --bench extract_throughput

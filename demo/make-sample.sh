#!/usr/bin/env bash
# Rebuilds the bundled demo sample from ../shared (run from the repository root):
#   - pud.de-en.{de,en}: the first 300 sentence pairs of PUD (raw text, one per line);
#   - de_pud-300.conllu: their gold German UD trees (the first 300 trees of de_pud-ud-test);
#   - systems/ref-drop3.en, systems/ref-swap.en: two SYNTHETIC "systems" made from the
#     reference (every 3rd word dropped; neighbouring words swapped), so the demo report
#     shows scores without an MT system. They are not translations.
# tests/report.rs checks that the committed files are exactly what this script writes.
set -euo pipefail
cd "$(dirname "$0")"
N=300
SHARED=${SHARED:-../../shared}
head -n $N "$SHARED/data/parallel/pud.de-en.de" > pud.de-en.de
head -n $N "$SHARED/data/parallel/pud.de-en.en" > pud.de-en.en
awk -v n=$N 'BEGIN { RS = ""; ORS = "\n\n" } NR <= n { print }' \
  "$SHARED/data/ud/de_pud-ud-test.conllu" > de_pud-300.conllu
awk '{ out = ""; for (i = 1; i <= NF; i++) if (i % 3 != 0) out = out (out == "" ? "" : " ") $i; print out }' \
  pud.de-en.en > systems/ref-drop3.en
awk '{ for (i = 1; i + 1 <= NF; i += 2) { t = $i; $i = $(i + 1); $(i + 1) = t } print }' \
  pud.de-en.en > systems/ref-swap.en

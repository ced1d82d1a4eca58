# ldd-sets — see README.md. Every target runs from the repository root.
#
#   make demo                      the whole pipeline (no parsing, no network) on the bundled
#                                  PUD sample in demo/, ending with out/demo/report.html
#   make build                     release binary in cargo's target directory (CARGO_TARGET_DIR);
#                                  the other targets build it only when a source is newer
#   make test                      installs what the tests need, then runs them all (CI runs it)
#   make bench                     all benchmarks (figures recorded in README.md)
#   make bench-core                extraction throughput on gold CoNLL-U, today's binary
#                                  against the one before issue 54 (built once, minutes)
#   make bench-significance        bootstrap on the Books sets vs sacreBLEU --paired-bs
#   make bench-align-scale         the aligner on 57k, 228k and 1M pairs beside eflomal
#   make bench-shard               N shards under GNU parallel vs one process, and the merge
#   make extract LANG=de-en        the whole pipeline on corpora/de-en (or CORPORA=DIR); any
#                                  pair SRC-TGT works without a config (`ldd-sets languages`);
#                                  says first which corpora, how many lines, roughly how long
#   make corpora LANG=de-en        download the paper's corpora into corpora/de-en (pairs
#                                  without a config: OPUS Books, where OPUS has the pair)
#   make score LANG=de-en CORPUS=newstest2013 HYP=system.en
#   make report LANG=de-en CORPUS=newstest2013   out/de-en/newstest2013/report.html
#   make reorder-evidence OUT=out/de-en   the reorder measures compared (after make extract)
#   make check-detection           detection of the default rules on the small models' parse
#                                  of PUD against its gold trees, German and English, tuning
#                                  lines 1-500 and held-out lines 501-1000 (RECORD=1: record
#                                  the held-out figures in config/detection.toml; PAPER=1:
#                                  the paper's rules)
#   make validate-locus            locus accuracy's perturbation and validation suites:
#                                  damage at the locus flips the judgement, damage elsewhere
#                                  does not; systems made from the gold trees and by hand
#                                  are judged as made (tests/locus_validation.rs)
#   make validate-mqm              the locus judgement against professional MQM annotations
#                                  (WMT21 TED en-de in ../shared/data/mqm): tuning and
#                                  held-out talks, every number docs/evaluation.md gives

# The language pair, LANG=de-en on the command line. (The environment's LANG is the
# locale, C.UTF-8 or en_US.UTF-8, never a pair: it is not taken for one.)
ifeq ($(origin LANG),command line)
PAIR := $(LANG)
else
PAIR := de-en
endif
CORPORA ?= corpora/$(PAIR)
MODELS ?=
OUT ?= out/$(PAIR)
THREADS ?=
CONTROLS ?= 10
SEED ?= 1
# Where cargo builds (honours CARGO_TARGET_DIR and .cargo/config.toml's build.target-dir).
TARGET_DIR := $(or $(shell cargo metadata --format-version 1 --no-deps 2>/dev/null | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p'),target)
BIN := $(TARGET_DIR)/release/ldd-sets
export BIN
CORPUS ?=
HYP ?=
DEMO_OUT ?= out/demo

# Replace an output to which later commands added files (scores, report) when its sets
# change (`--replace`); without it, make extract keeps them when the sets are unchanged.
REPLACE ?=
REPLACE_ARG := $(if $(REPLACE),--replace)

# Everything the binary is built from: the targets that run it build it only when one of
# these is newer (a running build's lock is not waited on when nothing changed).
SOURCES := $(shell find src crates config -type f -not -path '*/target/*' 2>/dev/null) \
	$(wildcard build.rs Cargo.toml Cargo.lock .cargo/config.toml)

MODELS_ARG := $(if $(MODELS),--models $(MODELS))
THREADS_ARG := $(if $(THREADS),--threads $(THREADS))
# A shard of a sharded run (README, "Running on a cluster"): SHARD=I/N ALIGN_MODEL=PREFIX.
SHARD ?=
ALIGN_MODEL ?=
SHARD_ARG := $(if $(SHARD),--shard $(SHARD)) $(if $(ALIGN_MODEL),--align-model $(ALIGN_MODEL))

.PHONY: check-detection validate-mqm validate-locus reorder-evidence quality build test bench bench-core bench-parse bench-align bench-align-scale bench-eval bench-score bench-significance bench-locus bench-report bench-shard bench-profile extract corpora score report venv lint demo demo-run browser docs

build:
	cargo build --release

$(BIN): $(SOURCES)
	cargo build --release
	@touch $(BIN)

# A first run that needs nothing: sets (from the bundled gold trees, no parser), reordering
# sets (built-in aligner), controls, scores of two synthetic systems, and the report; it
# prints the set sizes, each system's scores (`score --format summary`) and where the report is.
demo: $(BIN)
	@$(MAKE) --no-print-directory demo-run

# The demo pipeline with an existing binary (tests/report.rs runs it with BIN=<test binary>).
demo-run:
	$(BIN) extract --offline --src demo/pud.de-en.de --tgt demo/pud.de-en.en --src-lang de --tgt-lang en \
		--conllu demo/de_pud-300.conllu --out $(DEMO_OUT)
	$(BIN) score --sets $(DEMO_OUT) --hyp demo/systems/ref-drop3.en --hyp demo/systems/ref-swap.en --format summary
	$(BIN) report --sets $(DEMO_OUT)
	@echo "demo done: open $(DEMO_OUT)/report.html in a browser"

# Detection against gold trees (docs/rules.md, "How good are the sets of a parser?"): the
# shared PUD treebanks' text parsed by the shipped small models (cached), every phenomenon
# of the source language run on both trees, tuning and held-out lines printed apart. The
# held-out lines' misses and false hits are not listed (--show 0): reading them is tuning on them.
PUD_UD ?= ../shared/data/ud
SMALL_MODELS ?= ../shared/models
RECORD ?=
PAPER ?=
check-detection: $(BIN)
	@for l in de:german en:english; do \
	  lang=$${l%%:*}; model=$${l#*:}; \
	  for lines in 1-500 501-1000; do \
	    if [ $$lines = 1-500 ]; then what=tuning; show=20; else what="held out"; show=0; fi; \
	    record=; if [ -n "$(RECORD)" ] && [ -z "$(PAPER)" ] && [ $$lines = 501-1000 ]; then record="--record config/detection.toml"; fi; \
	    echo "== $$lang: PUD lines $$lines ($$what)"; \
	    $(BIN) check-detection -q --gold $(PUD_UD)/$${lang}_pud-ud-test.conllu \
	      --model $(SMALL_MODELS)/$$model-small.udpipe --lines $$lines --show $$show $(THREADS_ARG) \
	      $(if $(PAPER),--paper-compat) $$record || exit 1; \
	    echo; \
	  done; \
	done

# playwright-core for the browser test (tests/report.rs); Chromium itself is Debian's
# `chromium` package (apt-get install chromium).
browser: tests/browser/node_modules/playwright-core/package.json
tests/browser/node_modules/playwright-core/package.json: tests/browser/package-lock.json
	cd tests/browser && npm ci --no-audit --no-fund

# Python virtualenv with sacrebleu (and its MeCab extras), used only by tests and
# benchmarks as an oracle.
venv: .venv/bin/python
.venv/bin/python:
	python3 -m venv .venv
	.venv/bin/pip install --quiet "sacrebleu[ja,ko]==2.4.3" statsmodels==0.14.4

# eflomal, the quality baseline of `make bench-align` (benchmarks only).
.venv/bin/eflomal-align: .venv/bin/python
	.venv/bin/pip install --quiet eflomal==2.0.0

# Sets up a fresh machine for the tests (tests/setup/install.sh: Debian packages with root or
# sudo, npm ci, the virtualenv), runs every test, and closes with one summed line (cargo's
# last "test result" line belongs to the empty doc-tests).
test: SHELL := /bin/bash
test: .SHELLFLAGS := -eo pipefail -c
test:
	tests/setup/install.sh
	log=$$(mktemp); st=0; cargo test --workspace --release 2>&1 | tee "$$log" || st=$$?; \
	awk '/^test result:/ { p += $$4; f += $$6 } END { printf "%d passed, %d failed\n", p, f; exit (p == 0 || f > 0) }' "$$log" || st=1; \
	rm -f "$$log"; exit $$st

# docs/reference.md from the binary's --help (tests/docs.rs fails when they differ).
docs:
	LDD_SETS_BLESS=1 cargo test --release --test docs flag_reference

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --release -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --release

bench: bench-core bench-parse bench-align bench-align-scale bench-eval bench-score bench-significance bench-locus bench-report bench-shard bench-profile

# Extraction throughput on gold CoNLL-U: today's binary (built-in rules, --paper-compat)
# beside the binary of the code before issue 54 (BEFORE=d2da789^, built once with today's
# release profile into the target directory's bench-core/, minutes), alternating in the
# same run.
bench-core:
	benches/extract_throughput.sh

bench-parse:
	cargo bench -p ldd-parse --bench parse_throughput

bench-align: .venv/bin/eflomal-align
	cargo bench -p ldd-align --bench align_reference
	cargo bench -p ldd-align --bench gold_aer

# The aligner at 57k, 228k and 1M pairs beside eflomal (about an hour on 2 cores).
bench-align-scale: build .venv/bin/eflomal-align
	benches/align_scale.sh

bench-eval:
	cargo bench -p ldd-eval --bench score_controls

bench-score:
	cargo bench --bench score_sets

# Needs the venv (sacreBLEU is the baseline); the first run parses the Books sample (~7 min).
bench-significance: venv
	cargo bench --bench significance_books

# Locus accuracy of 2 systems on the books sample, beside BLEU's time (parse cached after
# the first run, which takes minutes).
bench-locus:
	cargo bench --bench locus_books

# The report of the books sample (its parse is cached after the first run, which takes minutes).
bench-report: $(BIN)
	benches/report_books.sh

# The release profile before issue 55 (debug info) against today's: two clean builds (long),
# then extract, parse, score and report timed with each binary.
bench-profile:
	benches/profile_compare.sh

# Sharding on one machine (needs GNU parallel): the first 6,000 books lines, parsed.
bench-shard: $(BIN)
	benches/shard_books.sh

# Before the run, what it will process: every corpus of the pair in CORPORA (files
# <name>.<pair>.<src>[.gz]) with its lines, and roughly how long that takes — parsing the
# source with UDPipe and training the aligner on every pair, about 5,000 lines a minute
# on two cores (the four shared de-en corpora, 61,030 lines: about 12 minutes).
extract: $(BIN)
	@if [ "$(CORPORA)" = "corpora/$(PAIR)" ] && [ ! -d "$(CORPORA)" ]; then \
	  echo "corpora/$(PAIR) is missing: downloading it first (make corpora LANG=$(PAIR))"; \
	  $(BIN) corpora --pair $(PAIR) --dir $(CORPORA) || exit $$?; fi
	@src=$$(echo $(PAIR) | cut -d- -f1); total=0; k=0; list=""; \
	for f in $(CORPORA)/*.$(PAIR).$$src $(CORPORA)/*.$(PAIR).$$src.gz; do \
	  [ -f "$$f" ] || continue; n=$$(gzip -cdf "$$f" | wc -l); total=$$((total + n)); k=$$((k + 1)); \
	  name=$$(basename "$$f"); list="$$list $${name%%.$(PAIR).*} $$n,"; done; \
	word=corpora; [ $$k -ne 1 ] || word=corpus; \
	[ $$k -eq 0 ] || { echo "make extract: $$k $(PAIR) $$word in $(CORPORA), $$total lines (lines:$${list%,})"; \
	echo "  parsing their source side and training the aligner on them takes about $$(( (total + 4999) / 5000 )) min on two cores"; \
	echo "  (about 5,000 lines a minute; parses and the aligner are cached, so a second run is quicker)"; }
	$(BIN) run --pair $(PAIR) --corpora $(CORPORA) $(MODELS_ARG) --out $(OUT) \
		--controls $(CONTROLS) --seed $(SEED) $(THREADS_ARG) $(SHARD_ARG) $(REPLACE_ARG)

corpora: $(BIN)
	$(BIN) corpora --pair $(PAIR) --dir corpora/$(PAIR)

score: $(BIN)
	@test -n "$(HYP)" || { echo "usage: make score LANG=de-en CORPUS=<name> HYP=<system output>"; exit 2; }
	$(BIN) score --sets $(OUT)/$(CORPUS) --hyp $(HYP)

report: $(BIN)
	@test -n "$(CORPUS)" || { echo "usage: make report LANG=de-en CORPUS=<name>"; exit 2; }
	$(BIN) report --sets $(OUT)/$(CORPUS)

# The evidence for the default reorder measure (README, "Choosing the measure"): shares,
# monotone and local-only pairs of every measure's sets in the reorder.tsv files of OUT.
reorder-evidence:
	python3 benches/reorder_evidence.py $(OUT)

# Precision/recall of the lexical sets extracted from the small UDPipe models' parse of
# PUD against those from PUD's gold trees (README, "Parser quality").
QUALITY := target/quality
quality: $(BIN)
	@for src in de en; do tgt=$$([ $$src = de ] && echo en || echo de); \
	  model=$$([ $$src = de ] && echo german || echo english); \
	  $(BIN) extract -q --src ../shared/data/parallel/pud.de-en.$$src --tgt ../shared/data/parallel/pud.de-en.$$tgt \
	    --src-lang $$src --tgt-lang $$tgt --conllu ../shared/data/ud/$${src}_pud-ud-test.conllu \
	    --controls 0 --out $(QUALITY)/gold-$$src && \
	  $(BIN) extract -q --src ../shared/data/parallel/pud.de-en.$$src --tgt ../shared/data/parallel/pud.de-en.$$tgt \
	    --src-lang $$src --tgt-lang $$tgt --model ../shared/models/$$model-small.udpipe \
	    --controls 0 --out $(QUALITY)/udpipe-$$src && \
	  echo "== $$src source: UDPipe $$model-small vs gold trees (PUD, 1000 sentences)" && \
	  for b in ge0 ge1 ge2; do $(BIN) compare --gold $(QUALITY)/gold-$$src --pred $(QUALITY)/udpipe-$$src --bucket $$b; done \
	  || exit 1; done

# The perturbation and validation suites of locus accuracy (docs/evaluation.md, "Does it
# look at the locus?"): systems made from the reference of PUD (both directions, gold
# trees) and newstest2013 — damaged at the locus or elsewhere through the tool's alignment,
# or edited by the gold trees, by hand-written synonyms, another line, the source — scored
# with the target language's model; prints both tables, then fails where a requirement is
# not met.
validate-locus:
	cargo test --release --test locus_validation -- --nocapture

# The locus judgement against the raters of the WMT21 TED talks en-de MQM campaign
# (docs/evaluation.md, "Locus judgements against MQM"): the campaign as a corpus, its sets
# (the shared small English model; the aligner trained on the campaign — its source with
# the reference and with every system's output, which the aligner then aligns — and the
# shared de-en corpora; the paper's detection rules), then `mqm` with both sides parsed (the
# shared German model, --tgt-model) on the tuning talks (1, 4; where the rule's one constant was chosen,
# chosen again by benches/locus_fit.py) and on the held-out talks (3, 5, 6); then the
# held-out talks on the sets of the built-in detection rules (the same aligner, loaded).
# tests/mqm.rs makes the same sets and pins the held-out figures docs/evaluation.md gives.
MQM_FILE ?= ../shared/data/mqm/mqm_ted_ende.tsv
VALIDATE ?= out/validate-mqm
SHARED_PARALLEL ?= ../shared/data/parallel
MQM_LEMMA ?= ../shared/models/german-small.udpipe
validate-mqm: build
	$(BIN) mqm -q --mqm $(MQM_FILE) --export $(VALIDATE)/ted --src-lang en --tgt-lang de
	export LC_ALL=C; rm -f $(VALIDATE)/outputs.en-de.en $(VALIDATE)/outputs.en-de.de; \
	for f in $(VALIDATE)/ted/systems/*.de; do \
		cat $(VALIDATE)/ted/mqm.en-de.en >> $(VALIDATE)/outputs.en-de.en; \
		cat "$$f" >> $(VALIDATE)/outputs.en-de.de; \
	done
	$(BIN) extract -q --offline --src $(VALIDATE)/ted/mqm.en-de.en --tgt $(VALIDATE)/ted/mqm.en-de.de \
		--src-lang en --tgt-lang de --model ../shared/models/english-small.udpipe --cache $(VALIDATE)/cache \
		--align-train $(SHARED_PARALLEL)/books-sample.de-en --align-train $(SHARED_PARALLEL)/multi30k-train.de-en \
		--align-train $(SHARED_PARALLEL)/newstest2013.de-en --align-train $(SHARED_PARALLEL)/pud.de-en \
		--align-train $(VALIDATE)/outputs.en-de --save-align-model $(VALIDATE)/model/ted \
		--rules config/phenomena-paper.toml --out $(VALIDATE)/sets
	@echo; echo "== tuning talks 1 and 4 (the rule's constant was chosen here)"
	$(BIN) mqm --sets $(VALIDATE)/sets --mqm $(MQM_FILE) --docs talk.1,talk.4 --tgt-model $(MQM_LEMMA) \
		--out $(VALIDATE)/tune --items $(VALIDATE)/tune/items.tsv
	python3 benches/locus_fit.py $(VALIDATE)/tune/items.tsv src/locus/rule.rs
	@echo; echo "== held-out talks 3, 5 and 6"
	$(BIN) mqm --sets $(VALIDATE)/sets --mqm $(MQM_FILE) --docs talk.3,talk.5,talk.6 --tgt-model $(MQM_LEMMA) \
		--out $(VALIDATE)/held-out --items $(VALIDATE)/held-out/items.tsv
	@echo; echo "== held-out talks 3, 5 and 6, the loci of the built-in detection rules"
	$(BIN) extract -q --offline --src $(VALIDATE)/ted/mqm.en-de.en --tgt $(VALIDATE)/ted/mqm.en-de.de \
		--src-lang en --tgt-lang de --model ../shared/models/english-small.udpipe --cache $(VALIDATE)/cache \
		--align-model $(VALIDATE)/model/ted --out $(VALIDATE)/sets-builtin
	$(BIN) mqm --sets $(VALIDATE)/sets-builtin --mqm $(MQM_FILE) --docs talk.3,talk.5,talk.6 \
		--tgt-model $(MQM_LEMMA) --out $(VALIDATE)/held-out-builtin
	@echo; echo "== all talks: human LDD accuracy of the 13 systems"
	$(BIN) mqm --sets $(VALIDATE)/sets --mqm $(MQM_FILE) --tgt-model $(MQM_LEMMA) --out $(VALIDATE)/all

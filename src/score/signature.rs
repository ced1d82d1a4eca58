//! Signatures: what a score was computed with, as one string per metric.
//!
//! The first part is sacreBLEU 2.4.3's own signature for the equivalent command (BLEU,
//! chrF and TER are bit-identical to it, with every setting): `nrefs:1|bs:1000|seed:12345|
//! case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3` — `nrefs:N` with N references,
//! `bs:N` as printed with `--paired-bs` or `--confidence`, `ar:N` with `--paired-ar`.
//! RIBES and segment-level metrics get a part of the same shape (`…|ribes:1.03`,
//! `…|seg:NAME|agg:mean|better:higher`); a BLEU maximum n-gram order other than 4 and a
//! chrF β other than 2, which sacreBLEU's signature does not show, follow as
//! `max-ngram-order:N` and `beta:N`. The second part
//! says what ldd-sets adds: `ldd-sets:VERSION|manifest:SHA256|controls:K|control-seed:S|
//! ci-bs:N|confidence:C` — the sets (their manifest's SHA-256 pins corpus, rules, sets and
//! controls), the controls, and the bootstrap behind every interval.

use ldd_eval::significance::Method;

use super::{Loaded, SignificanceOptions};

/// What every signature of one `score` run shares.
pub struct Context {
    test: String,
    ldd: String,
    nrefs: usize,
}

impl Context {
    /// From the loaded sets (their manifest's SHA-256 and controls), the resampling
    /// options, the paired test and the number of references.
    pub fn new(
        loaded: &Loaded,
        sig: &SignificanceOptions,
        method: Option<Method>,
        nrefs: usize,
    ) -> Self {
        let test = match method {
            Some(Method::Randomization) => format!("ar:{}|seed:{}", sig.trials, sig.seed),
            _ if sig.bootstrap == 0 => String::new(),
            _ => format!("bs:{}|seed:{}", sig.bootstrap, sig.seed),
        };
        let count = loaded.control_count;
        let control_seed = loaded
            .control_seed
            .map_or_else(|| "none".to_string(), |s| s.to_string());
        let ldd = format!(
            "ldd-sets:{}|manifest:{}|controls:{count}|control-seed:{control_seed}|ci-bs:{}|confidence:{}",
            env!("CARGO_PKG_VERSION"),
            loaded.manifest_sha256,
            sig.bootstrap,
            sig.confidence
        );
        Context { test, ldd, nrefs }
    }

    /// The signature of a metric with these settings (a registry metric's
    /// [`signature`](ldd_eval::MetricDef::signature)).
    pub fn metric(&self, settings: &str) -> String {
        self.with_refs(self.nrefs, settings)
    }

    fn with_refs(&self, nrefs: usize, settings: &str) -> String {
        let mut s = format!("nrefs:{nrefs}|");
        if !self.test.is_empty() {
            s.push_str(&self.test);
            s.push('|');
        }
        s.push_str(settings);
        s.push('|');
        s.push_str(&self.ldd);
        s
    }

    /// The signature of locus accuracy: its `settings`, without the bootstrap (its
    /// intervals are Wilson's, its test McNemar's).
    pub fn locus(&self, settings: &str) -> String {
        format!("nrefs:1|{settings}|{}", self.ldd)
    }

    /// The signature of a segment-level metric.
    pub fn segment(&self, name: &str, higher_is_better: bool) -> String {
        let better = if higher_is_better { "higher" } else { "lower" };
        self.with_refs(1, &format!("seg:{name}|agg:mean|better:{better}"))
    }
}

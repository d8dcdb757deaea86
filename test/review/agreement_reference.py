"""Reference figures for test/review/agreement-reference.test.ts, from the implementations the field trusts.

Reads {"jobs": [{"id": ..., "kind": ..., ...}]} as JSON on stdin and prints {id: value} as JSON, value null where
the statistic is undefined. Each kind names the library it checks against:

- krippendorff: `krippendorff.alpha` (nominal, ordinal, interval) on a coders x units matrix, null for no answer;
- cohen: scikit-learn's `cohen_kappa_score`; fleiss: statsmodels' `fleiss_kappa`;
- nltk_alpha: NLTK's `AnnotationTask.alpha` with `masi_distance`, `jaccard_distance` or a rank distance, the
  normalised Kendall tau distance, from `scipy.stats.kendalltau` where neither ranking has ties;
- kendall_w: Kendall's W per record from mid-ranks (`scipy.stats.rankdata`), checked against Friedman's statistic;
- span_f1: F1 between two annotators' spans from a plain set computation, checked against seqeval where it applies.

Where a library answers a case the textbook leaves undefined, the textbook wins (see each function).
"""
import functools
import itertools
import json
import math
import sys
import warnings

import krippendorff
import numpy as np
from nltk.metrics.agreement import AnnotationTask
from nltk.metrics.distance import jaccard_distance, masi_distance
from scipy.stats import friedmanchisquare, kendalltau, rankdata
from seqeval.metrics import f1_score as seqeval_f1
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

warnings.filterwarnings("ignore")


def finite(value):
    value = float(value)
    return value if math.isfinite(value) else None


def krippendorff_job(job):
    matrix = np.array([[np.nan if v is None else float(v) for v in row] for row in job["matrix"]], dtype=float)
    try:
        return finite(krippendorff.alpha(reliability_data=matrix, level_of_measurement=job["level"]))
    except ValueError:
        # One value in the domain, or no unit with two values: the library refuses, alpha is undefined.
        return None


def cohen_job(job):
    if len(job["a"]) == 0:
        return None
    return finite(cohen_kappa_score(job["a"], job["b"]))


def fleiss_job(job):
    units = job["units"]
    if len(units) == 0:
        return None
    table, _ = aggregate_raters(np.array(units))
    return finite(fleiss_kappa(table, method="fleiss"))


def dense(ranks):
    return tuple(int(r) for r in rankdata(ranks, method="dense"))


@functools.lru_cache(maxsize=None)
def rank_distance(a, b):
    """Pairs of options ordered oppositely count 1, tied in one ranking only 1/2, over the number of pairs."""
    a, b = list(a), list(b)
    k = len(a)
    pairs = k * (k - 1) / 2
    if len(set(a)) == k and len(set(b)) == k:
        # No ties: the normalised Kendall tau distance is (1 - tau) / 2, tau from scipy.
        return (1 - kendalltau(a, b).statistic) / 2
    total = 0.0
    for i, j in itertools.combinations(range(k), 2):
        x = np.sign(a[i] - a[j])
        y = np.sign(b[i] - b[j])
        if x * y < 0:
            total += 1
        elif x != y:
            total += 0.5
    return total / pairs


def nltk_alpha_job(job):
    kind = job["distance"]
    if kind == "rank":
        value_of, distance = dense, rank_distance
    else:
        value_of = frozenset
        distance = functools.lru_cache(maxsize=None)(masi_distance if kind == "masi" else jaccard_distance)
    triples = [(str(coder), str(item), value_of(value)) for coder, item, value in job["triples"]]
    by_item = {}
    for _, item, value in triples:
        by_item.setdefault(item, []).append(value)
    pairable = [value for values in by_item.values() if len(values) >= 2 for value in values]
    # NLTK answers 1 when the pairable values are all one value (and fails without any); the textbook's De is 0
    # there, so alpha is undefined: Gloss answers null and so does the reference.
    if len(set(pairable)) < 2:
        return None
    return finite(AnnotationTask(data=triples, distance=distance).alpha())


def kendall_w_job(job):
    values = []
    for raters in job["records"]:
        m, k = len(raters), len(raters[0])
        ranks = np.array([rankdata(r) for r in raters])
        sums = ranks.sum(axis=0)
        s = ((sums - m * (k + 1) / 2) ** 2).sum()
        ties = sum(t**3 - t for r in raters for t in np.unique(r, return_counts=True)[1])
        denominator = m * m * (k**3 - k) - m * ties
        if denominator <= 0:
            continue
        w = 12 * s / denominator
        if k >= 3:
            # Friedman's statistic (options as treatments, annotators as blocks) is m (k - 1) W, ties corrected alike.
            chi2 = friedmanchisquare(*[ranks[:, j] for j in range(k)]).statistic
            if abs(chi2 / (m * (k - 1)) - w) > 1e-9:
                raise AssertionError(f"Kendall's W {w} and Friedman's {chi2} disagree on {raters}")
        values.append(w)
    return sum(values) / len(values) if values else None


def overlapping(span, others):
    label, start, end = span
    return any(o[0] == label and o[1] < end and start < o[2] for o in others)


def bio(spans, length):
    tags = ["O"] * length
    for label, start, end in spans:
        tags[start] = f"B-{label}"
        for i in range(start + 1, end):
            tags[i] = f"I-{label}"
    return tags


def self_overlapping(spans):
    ordered = sorted(spans, key=lambda s: (s[1], s[2]))
    return any(b[1] < a[2] for a, b in zip(ordered, ordered[1:]))


def span_f1_job(job):
    label = job["label"]
    keep = lambda spans: [tuple(s) for s in spans if label is None or s[0] == label]
    first = second = first_matched = second_matched = 0
    for a, b in zip(job["a"], job["b"]):
        a, b = set(keep(a)), set(keep(b))
        first += len(a)
        second += len(b)
        if job["mode"] == "exact":
            first_matched += len(a & b)
            second_matched += len(a & b)
        else:
            first_matched += sum(1 for s in a if overlapping(s, b))
            second_matched += sum(1 for s in b if overlapping(s, a))
    if first + second == 0:
        return None
    if first == 0 or second == 0:
        return 0.0
    p, r = first_matched / first, second_matched / second
    f1 = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    records = [(keep(a), keep(b)) for a, b in zip(job["a"], job["b"])]
    if job["mode"] == "exact" and not any(self_overlapping(a) or self_overlapping(b) for a, b in records):
        # seqeval on character-level BIO tags, a's spans as predictions and b's as the truth: the same F1.
        length = max([s[2] for a, b in records for s in a + b] + [1])
        predicted = [bio(a, length) for a, _ in records]
        truth = [bio(b, length) for _, b in records]
        reference = seqeval_f1(truth, predicted)
        if abs(reference - f1) > 1e-9:
            raise AssertionError(f"span F1 {f1} and seqeval's {reference} disagree")
    return f1


KINDS = {
    "krippendorff": krippendorff_job,
    "cohen": cohen_job,
    "fleiss": fleiss_job,
    "nltk_alpha": nltk_alpha_job,
    "kendall_w": kendall_w_job,
    "span_f1": span_f1_job,
}

if __name__ == "__main__":
    jobs = json.load(sys.stdin)["jobs"]
    print(json.dumps({job["id"]: KINDS[job["kind"]](job) for job in jobs}))

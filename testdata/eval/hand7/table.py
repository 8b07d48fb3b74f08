#!/usr/bin/env python3
"""Prints the table of docs/model-check.md ("The seventh hand-written part")
and the sha256 of both files."""
import collections, hashlib, json, os

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROWS = ["tool", "parameter_description", "instructions", "prompt", "prompt_text", "resource", "resource_template"]
CATS = ["exfiltrate_data", "override_user", "conceal_from_user"]


def load(n):
    with open(os.path.join(OUT, n), encoding="utf-8") as f:
        return [json.loads(l) for l in f]


p, c = load("hand7_poisoned.jsonl"), load("hand7_clean.jsonl")
cases, cl = collections.Counter(x["surface_kind"] for x in p), collections.Counter(x["surface_kind"] for x in c)
sp = collections.defaultdict(collections.Counter)
tot = collections.Counter()
for x in p:
    for s in x["expected_spans"]:
        sp[x["surface_kind"]][s["category"]] += 1
        tot[s["category"]] += 1
for k in ROWS:
    print("| %s | %d | %d | %s | %d |" % (k, cases[k], sum(sp[k].values()), " / ".join(str(sp[k][q]) for q in CATS), cl[k]))
n = sum(tot.values())
print("| **hand7** | **%d** | **%d** | **%s** | **%d** |" % (len(p), n, " / ".join(str(tot[q]) for q in CATS), len(c)))
print({q: "%d (%.0f%%)" % (tot[q], 100.0 * tot[q] / n) for q in CATS})
print("one span:", sum(1 for x in p if len(x["expected_spans"]) == 1), "two+:", sum(1 for x in p if len(x["expected_spans"]) > 1))
for name in ("hand7_poisoned.jsonl", "hand7_clean.jsonl"):
    print(name, hashlib.sha256(open(os.path.join(OUT, name), "rb").read()).hexdigest())

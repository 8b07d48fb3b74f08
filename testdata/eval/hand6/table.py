#!/usr/bin/env python3
"""Prints the hand6 table of docs/model-check.md and the files' sha256.

Run from the repository root after gen.py: python3 testdata/eval/hand6/table.py
"""
import hashlib
import json

KINDS = ["tool", "parameter_description", "instructions", "prompt", "prompt_text", "resource", "resource_template"]
CATS = ["exfiltrate_data", "override_user", "conceal_from_user"]


def load(name):
    with open("testdata/eval/" + name, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


P, C = load("hand6_poisoned.jsonl"), load("hand6_clean.jsonl")
tot = dict.fromkeys(CATS, 0)
for k in KINDS:
    ps = [p for p in P if p["surface_kind"] == k]
    sp = dict.fromkeys(CATS, 0)
    for p in ps:
        for s in p["expected_spans"]:
            sp[s["category"]] += 1
            tot[s["category"]] += 1
    print("| %s | %d | %d | %d / %d / %d | %d |" % (k, len(ps), sum(sp.values()), *[sp[c] for c in CATS],
                                                 sum(1 for c in C if c["surface_kind"] == k)))
print("| **hand6** | **%d** | **%d** | **%d / %d / %d** | **%d** |" % (len(P), sum(tot.values()), *[tot[c] for c in CATS], len(C)))
for name in ("hand6_poisoned.jsonl", "hand6_clean.jsonl"):
    with open("testdata/eval/" + name, "rb") as f:
        print(name, hashlib.sha256(f.read()).hexdigest())

#!/usr/bin/env python3
"""Writes testdata/eval/hand7_poisoned.jsonl and hand7_clean.jsonl from the
case lists beside it (cases_*.py). Every case there, poisoned text, spans
and clean twin, was written by hand one by one (hand7, 2026-12-04); this
script only numbers them, checks every span is an exact substring without
surrounding white space and that no text is used twice, and writes the
files. Run: python3 testdata/eval/hand7/gen.py"""
import hashlib, importlib, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
CAT = {"x": "exfiltrate_data", "o": "override_user", "c": "conceal_from_user"}
KINDS = {"tool", "parameter_description", "instructions", "prompt", "prompt_text", "resource", "resource_template"}
MODULES = ["cases_a", "cases_b", "cases_c", "cases_d", "cases_e"]


def cid(text):
    return "hand7-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def main():
    sys.path.insert(0, HERE)
    poisoned, clean, seen = [], [], set()
    for m in MODULES:
        if not os.path.exists(os.path.join(HERE, m + ".py")):
            continue
        mod = importlib.import_module(m)
        for group, cases in mod.GROUPS:
            source = "written for this corpus (hand7): " + group
            for kind, tool, text, spans, twin in cases:
                assert kind in KINDS, (tool, kind)
                for t in (text, twin):
                    assert t not in seen, ("text used twice", t[:60])
                    seen.add(t)
                out = []
                for s, c in spans:
                    assert s in text, (tool, s)
                    assert s.strip() == s, (tool, s)
                    out.append({"text": s, "category": CAT[c]})
                assert out, tool
                poisoned.append({"id": cid(text), "kind": "poisoned", "surface_kind": kind, "tool_name": tool,
                                 "description": text, "expected_spans": out, "source": source, "split": "hand7"})
                clean.append({"id": cid(twin), "kind": "clean", "surface_kind": kind, "tool_name": tool,
                              "description": twin, "expected_spans": [], "source": source, "split": "hand7"})
    for name, rows in (("hand7_poisoned.jsonl", poisoned), ("hand7_clean.jsonl", clean)):
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(len(poisoned), "poisoned,", sum(len(r["expected_spans"]) for r in poisoned), "spans,", len(clean), "clean")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes testdata/eval/hand6_poisoned.jsonl and hand6_clean.jsonl.

Every case below was written by hand, one by one (hand6, 2026-12-04): a
poisoned text, its spans, and its clean twin of the same tool name. This
script only numbers them (id: hand6- and ten hex digits of the SHA-256 of
the description), checks that each span is an exact substring, and writes
the two files. Run from the repository root: python3 testdata/eval/hand6/gen.py
"""
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)

CAT = {"E": "exfiltrate_data", "O": "override_user", "C": "conceal_from_user"}
KIND = {"tool": "tool", "param": "parameter_description", "instr": "instructions",
        "prompt": "prompt", "ptext": "prompt_text", "res": "resource", "rtpl": "resource_template"}


def cid(desc):
    return "hand6-" + hashlib.sha256(desc.encode("utf-8")).hexdigest()[:10]


def main():
    import cases_a, cases_b, cases_c, cases_d, cases_e, cases_f, cases_g  # noqa: E401
    groups = cases_a.GROUPS + cases_b.GROUPS + cases_c.GROUPS + cases_d.GROUPS + cases_e.GROUPS + cases_f.GROUPS + cases_g.GROUPS
    poisoned, clean = [], []
    seen = set()
    for idea, entries in groups:
        src = idea if idea.startswith("adapted from http") else "written for this corpus (hand6): " + idea
        for e in entries:
            kind, tool, ptext, spans, ctext = e
            for text in (ptext, ctext):
                if text in seen:
                    sys.exit("description twice: " + text[:60])
                seen.add(text)
            if ptext == ctext:
                sys.exit("twin equals poisoned: " + tool)
            out = []
            for s, c in spans:
                if s not in ptext:
                    sys.exit("span not in text (%s): %r" % (tool, s))
                if s.strip() != s:
                    sys.exit("span white space (%s): %r" % (tool, s))
                out.append({"text": s, "category": CAT[c]})
            poisoned.append({"id": cid(ptext), "kind": "poisoned", "surface_kind": KIND[kind], "tool_name": tool,
                             "description": ptext, "expected_spans": out, "source": src, "split": "hand6"})
            clean.append({"id": cid(ctext), "kind": "clean", "surface_kind": KIND[kind], "tool_name": tool,
                          "description": ctext, "expected_spans": [], "source": src, "split": "hand6"})
    root = os.path.join(HERE, "..")
    for name, rows in (("hand6_poisoned.jsonl", poisoned), ("hand6_clean.jsonl", clean)):
        with open(os.path.join(root, name), "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    n = sum(len(r["expected_spans"]) for r in poisoned)
    cats = {}
    kinds = {}
    for r in poisoned:
        kinds[r["surface_kind"]] = kinds.get(r["surface_kind"], 0) + 1
        for s in r["expected_spans"]:
            cats[s["category"]] = cats.get(s["category"], 0) + 1
    print(len(poisoned), "poisoned,", n, "spans,", len(clean), "clean")
    print(cats)
    print(kinds)


if __name__ == "__main__":
    main()

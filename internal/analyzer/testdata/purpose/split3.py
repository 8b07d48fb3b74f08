#!/usr/bin/env python3
"""offline-purpose-3's held-out part of the development material.

Chosen on 2026-12-01 at 19:20 UTC, before any error of any analyzer on the
retired test parts was read, and committed before the first run of the
third reading (docs/model-check.md, "offline-purpose-3").

The development material of the third reading is
  testdata/eval/cases.jsonl            (the development part: every case)
  testdata/eval/test_poisoned.jsonl    (the retired test part: hand-written)
  testdata/eval/test_clean.jsonl
  testdata/eval/blind_poisoned.jsonl   (the retired blind part test2: hand-written)
  testdata/eval/blind_clean.jsonl
and, since the fourth reading, the retired third blind part's hand-written
  testdata/eval/blind3_poisoned.jsonl
  testdata/eval/blind3_clean.jsonl
and, since offline-purpose-12 (2026-12-04), the sixth hand-written part
  testdata/eval/hand6_poisoned.jsonl
  testdata/eval/hand6_clean.jsonl
and, since offline-purpose-14 (2026-12-04), the seventh
  testdata/eval/hand7_poisoned.jsonl
  testdata/eval/hand7_clean.jsonl
and never the runtime-truth clean base of the test side (TruthCleanCases
for the test part, which test_cases.jsonl and blind_cases.jsonl repeat):
that stays the admission control set.

A case is held out when the first byte of

    SHA-256("attestari-purpose3-heldout" "\n" source key)

is divisible by 3, where the source key is internal/eval.SourceKey's: the
package name for runtime truth ("npm:<name>"), a citation's first URL, or
else the whole source text. So a source is wholly on one side, poisoned
cases and their clean twins together, and about a third of the sources are
held out. The rule reads no case text. The same rule is
purposeHeldOut3 in internal/analyzer/purpose_model_train_test.go;
TestPurposeHeldOutIsSplit3 checks it gives this script's counts.

Usage: split3.py TESTDATA_EVAL_DIR OUT_DIR  (writes OUT_DIR/design.jsonl and
OUT_DIR/heldout.jsonl; every line goes to exactly one of them, unchanged).
"""
import hashlib
import json
import re
import sys

RULE = "attestari-purpose3-heldout"
FILES = ["cases.jsonl", "test_poisoned.jsonl", "test_clean.jsonl",
         "blind_poisoned.jsonl", "blind_clean.jsonl",
         # The fourth reading (offline-purpose-4) adds the retired third blind
         # part's hand-written cases, by the same rule.
         "blind3_poisoned.jsonl", "blind3_clean.jsonl",
         "hand6_poisoned.jsonl", "hand6_clean.jsonl",
         "hand7_poisoned.jsonl", "hand7_clean.jsonl"]


def source_key(source: str) -> str:
    s = source.strip()
    if s.startswith("npm:"):
        rest = s[4:]
        i = rest.rfind("@")
        if i > 0:
            rest = rest[:i]
        return "npm:" + rest
    m = [i for i in (s.find("https://"), s.find("http://")) if i >= 0]
    if m:
        u = s[min(m):]
        j = re.search(r"[ \t\n\"'<>]", u)
        if j:
            u = u[:j.start()]
        return u.rstrip(").,;:")
    return s


def held(line: str) -> bool:
    key = source_key(json.loads(line)["source"])
    return hashlib.sha256((RULE + "\n" + key).encode()).digest()[0] % 3 == 0


def main() -> None:
    src, out = sys.argv[1], sys.argv[2]
    with open(out + "/design.jsonl", "w", encoding="utf-8") as d, \
            open(out + "/heldout.jsonl", "w", encoding="utf-8") as h:
        for name in FILES:
            with open(src + "/" + name, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        (h if held(line) else d).write(line)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""offline-purpose-2's held-out part of the development corpus.

Chosen on 2026-12-01 before any error of offline-purpose-1 or -2 on the
development part was read (docs/model-check.md, "offline-purpose-2"). A
case is held out when the first byte of

    SHA-256("attestari-purpose2-heldout" "\n" source key)

is divisible by 3, where the source key is internal/eval.SourceKey's: the
package name for runtime truth ("npm:<name>"), a citation's first URL, or
else the whole source text. So a source is wholly on one side, poisoned
cases and their clean twins together, and about a third of the sources are
held out. The rule reads no case text.

Usage: split2.py CASES.jsonl OUT_DIR  (writes OUT_DIR/design.jsonl and
OUT_DIR/heldout.jsonl; every line goes to exactly one of them, unchanged).
"""
import hashlib
import json
import re
import sys

RULE = "attestari-purpose2-heldout"


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
    with open(src, encoding="utf-8") as f, \
            open(out + "/design.jsonl", "w", encoding="utf-8") as d, \
            open(out + "/heldout.jsonl", "w", encoding="utf-8") as h:
        for line in f:
            if line.strip():
                (h if held(line) else d).write(line)


if __name__ == "__main__":
    main()

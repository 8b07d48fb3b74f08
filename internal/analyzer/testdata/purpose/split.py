#!/usr/bin/env python3
"""The purpose analyzer's own held-out split of the development corpus.

While the purpose analyzer (internal/analyzer/purpose.go) was designed, a
part of testdata/eval/cases.jsonl was held out by source, so its figures on
cases its rules were not adjusted against can be reported beside the
in-sample ones (docs/model-check.md, "The purpose analyzer"):

  poisoned: every case whose source cites Elastic Security Labs, Microsoft's
            guidance on indirect injection or Simon Willison's write-up;
  clean:    the written hard negatives clean-081 onwards, and the runtime-
            truth descriptions of every package whose name's SHA-256 starts
            with a hex digit 0-4.

Usage: split.py CASES.jsonl OUT_DIR  (writes OUT_DIR/design.jsonl and
OUT_DIR/heldout.jsonl; every line goes to exactly one of them, unchanged).
"""
import hashlib
import sys

HELD_SOURCES = ("elastic.co", "developer.microsoft.com", "simonwillison.net")


def held(line: str) -> bool:
    import json
    c = json.loads(line)
    src = c["source"]
    if c["kind"] == "poisoned":
        return any(h in src for h in HELD_SOURCES)
    if c["id"].startswith("clean-"):
        return int(c["id"].split("-")[1]) >= 81
    if src.startswith("npm:"):
        name = src[4:].rsplit("@", 1)[0]
        return hashlib.sha256(name.encode()).hexdigest()[0] in "01234"
    return False


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

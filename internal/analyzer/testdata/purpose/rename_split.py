#!/usr/bin/env python3
"""Rewrite a corpus file's split name for an older binary that does not know it.

The first scoring of test3 (docs/model-check.md) scored offline-purpose-2 with a
binary built at 243f9c0, which knows the split names dev, test and test2 only.
This script writes the copy it scored: every `"split":"test3"` (with or without
a space after the colon) rewritten to test2, nothing else changed, and prints
the copy's SHA-256. Usage:

    python3 internal/analyzer/testdata/purpose/rename_split.py \
        testdata/eval/blind3_cases.jsonl OUT.jsonl [FROM [TO]]

then, with the older binary:  attestari eval --cases OUT.jsonl --split test2 --analyzer purpose
"""
import hashlib
import re
import sys


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    src, dst = argv[1], argv[2]
    old = argv[3] if len(argv) > 3 else "test3"
    new = argv[4] if len(argv) > 4 else "test2"
    data = open(src, "rb").read()
    pat = re.compile(rb'("split":\s*")' + re.escape(old.encode()) + rb'"')
    out, n = pat.subn(lambda m: m.group(1) + new.encode() + b'"', data)
    with open(dst, "wb") as f:
        f.write(out)
    print(f"{n} cases rewritten from {old} to {new}; {dst} sha256 {hashlib.sha256(out).hexdigest()}")


if __name__ == "__main__":
    main(sys.argv)

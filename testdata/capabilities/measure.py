#!/usr/bin/env python3
"""measure.py: figures of the capability inventory over a real corpus.

Reads the surface rows `attestari surface --json` printed for each tarball
(one JSON file per tarball, same base name), and the tarballs themselves:

  python3 testdata/capabilities/measure.py SURFACE_DIR TARBALL_DIR [--sample N] [--seed S]

It prints entries per kind and tag, packages with an inventory, rows at the
cap, and re-verifies every entry the way the decision side does (the member
hashes to file_sha256, excerpt == member[start:end], line is the line of
start). Then it draws a sample of N entries (default 50) with a fixed seed
for the hand check, printing each with its excerpt.
"""
import collections
import hashlib
import json
import os
import random
import sys
import tarfile


def main():
    args = sys.argv[1:]
    n, seed = 50, 20261201
    if "--sample" in args:
        i = args.index("--sample"); n = int(args[i + 1]); del args[i:i + 2]
    if "--seed" in args:
        i = args.index("--seed"); seed = int(args[i + 1]); del args[i:i + 2]
    sdir, tdir = args
    rows = []
    by_kind = collections.Counter()
    by_tag = collections.Counter()
    packages = with_inv = at_cap = budget = 0
    omitted = 0
    verified = failed = 0
    for name in sorted(os.listdir(sdir)):
        if not name.endswith(".json"):
            continue
        s = json.load(open(os.path.join(sdir, name), encoding="utf-8"))
        packages += 1
        caps = s.get("capabilities") or []
        if s.get("outcome") == "extraction_budget_exceeded":
            budget += 1
        if caps:
            with_inv += 1
        omitted += s.get("capabilities_omitted", 0)
        if s.get("capabilities_omitted", 0) > 0:
            at_cap += 1
        tgz = os.path.join(tdir, name[:-5] + ".tgz")
        members = {}
        with tarfile.open(tgz, "r:gz") as t:
            for m in t.getmembers():
                if m.isfile():
                    # The artifact reader names members without the
                    # tarball's top directory ("package/").
                    members[m.name.split("/", 1)[-1]] = t.extractfile(m).read()
        for c in caps:
            by_kind[c["kind"]] += 1
            by_tag[(c["kind"], c["tag"])] += 1
            b = members.get(c["file"])
            ok = (b is not None and hashlib.sha256(b).hexdigest() == c["file_sha256"]
                  and b[c["start"]:c["end"]] == c["excerpt"].encode("utf-8")
                  and b[:c["start"]].count(b"\n") + 1 == c["line"])
            if ok:
                verified += 1
            else:
                failed += 1
                print("NOT VERIFIED", name, c["file"], c["line"], file=sys.stderr)
            rows.append((name[:-5], c))
    print(f"packages {packages}, with an inventory {with_inv}, at the row cap {at_cap} "
          f"(omitted {omitted}), budget exceeded {budget}")
    print(f"entries {len(rows)}, verified byte for byte {verified}, not verified {failed}")
    print()
    print("| kind | entries | of which dynamic target |")
    print("| --- | ---: | ---: |")
    dyn = collections.Counter(c["kind"] for _, c in rows if c["target"] == "dynamic")
    for k in ["network", "filesystem", "process", "environment", "credentials", "remote_code"]:
        print(f"| {k} | {by_kind[k]} | {dyn[k]} |")
    print()
    print("| kind/tag | entries |")
    print("| --- | ---: |")
    for (k, t), v in sorted(by_tag.items()):
        print(f"| {k}/{t} | {v} |")
    bundle = sum(1 for _, c in rows if c.get("bundle"))
    print(f"\nentries from minified bundles: {bundle}")
    rng = random.Random(seed)
    sample = rng.sample(rows, min(n, len(rows)))
    print(f"\nsample of {len(sample)} (seed {seed}):")
    for i, (pkg, c) in enumerate(sample, 1):
        ex = c["excerpt"].replace("\n", "\\n")
        print(f"{i:2d}. {pkg} {c['file']}:{c['line']} {c['kind']}/{c['tag']} target={c['target']!r} "
              f"x{c['count']}{' bundle' if c.get('bundle') else ''}\n    {ex[:200]}")


if __name__ == "__main__":
    main()

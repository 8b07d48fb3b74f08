#!/usr/bin/env python3
"""pass-figures.py: the cost figures of a finished run directory, for
docs/benchmarks.md ("The weekly pass"). Reads summary.json (each package's
stage timings), surfaces.json (each extraction's measured wall time and
peak RSS) and the stored artifacts' sizes under the run's evidence store;
prints the stage totals, the slowest packages, and how extraction time
and RSS grow with the artifact's size. Names packages (the largest and
slowest), so its output belongs in benchmarks, never in population.md.

  scripts/pass-figures.py RUN_DIR EVIDENCE_DIR
"""
import collections, json, os, sys

run, evidence = sys.argv[1], sys.argv[2]
summary = json.load(open(os.path.join(run, "summary.json")))
surfaces = {json.dumps(s["package"], sort_keys=True): s for s in json.load(open(os.path.join(run, "surfaces.json")))}
totals, rows = collections.Counter(), []
for p in summary["packages"]:
    st = {x["stage"]: x.get("ms", 0) for x in p["stages"]}
    totals.update(st)
    s = surfaces.get(json.dumps(p["package"], sort_keys=True), {})
    size = 0
    if s.get("artifact_sha256"):
        path = os.path.join(evidence, "blobs", s["artifact_sha256"])
        if os.path.exists(path):
            size = os.path.getsize(path)
    b = s.get("budget") or {}
    rows.append({"name": "%s@%s" % (p["package"]["name"], p["package"]["version"]), "ms": sum(st.values()), "stages": st,
                 "size": size, "wall": b.get("wall_ms", 0), "rss": b.get("rss_bytes", 0)})
print("packages: %d" % len(rows))
print("stage totals (ms, summed over packages): " + ", ".join("%s %d" % kv for kv in totals.most_common()))
print("\nslowest 10 (ms in all; the largest stage):")
for r in sorted(rows, key=lambda r: -r["ms"])[:10]:
    top = max(r["stages"].items(), key=lambda kv: kv[1])
    print("  %-60s %7d  %s %d  artifact %.1f MB" % (r["name"], r["ms"], top[0], top[1], r["size"] / 1e6))
sized = sorted([r for r in rows if r["size"]], key=lambda r: r["size"])
print("\nby artifact size (quartiles of the %d stored artifacts): median extraction wall ms, median and max child RSS MB" % len(sized))
q = max(len(sized) // 4, 1)
for i in range(0, len(sized), q):
    part = sized[i:i + q]
    med = lambda xs: sorted(xs)[len(xs) // 2]
    print("  %6.2f-%6.2f MB: %d packages, wall %d ms, rss %d MB (max %d MB)" % (
        part[0]["size"] / 1e6, part[-1]["size"] / 1e6, len(part), med([r["wall"] for r in part]),
        med([r["rss"] for r in part]) / 2**20, max(r["rss"] for r in part) / 2**20))
print("\nlargest 5 artifacts:")
for r in sized[-5:][::-1]:
    print("  %-60s %.1f MB  extraction wall %d ms, rss %d MB" % (r["name"], r["size"] / 1e6, r["wall"], r["rss"] / 2**20))

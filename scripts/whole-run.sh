#!/usr/bin/env bash
# whole-run.sh: the whole run over the npm corpus that docs/extractor.md
# ("What a whole run decides") reports, made reproducible. It builds
# attestari from this checkout, runs
#
#   ATTESTARI_ANALYZER=offline attestari run --candidates testdata/candidates/corpus-npm.json
#   attestari decide RUN
#
# in a data home of its own, and prints the decision counts: packages by
# verdict, and for each reason code the refused packages whose blocked_by
# includes it and those it alone refuses (beside the codes that restate the
# run's gate row: gate_failed_as_recorded and *_recorded).
#
#   scripts/whole-run.sh                     # a fresh home under /tmp
#   ATTESTARI_HOME=/tmp/wr scripts/whole-run.sh
#   scripts/whole-run.sh --counts RUN_DIR    # only the table, from a decided run
#
# The run fetches every version from the npm registry through the npm
# client's own configuration (or ATTESTARI_NPM_REGISTRY), exactly as a pass
# does; nothing is written to this checkout. The offline analyzer has not
# passed the admission test (docs/model-check.md): these grades measure the
# extractor and the gate, not a publishable pass.
set -euo pipefail

here="$(git rev-parse --show-toplevel)"

counts() {
	local dir="$1"
	python3 - "$dir/decisions.jsonl" <<'EOF'
import collections, json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
pkgs = [r for r in rows if r.get("row") == "package"]
header = next((r for r in rows if r.get("row") == "header"), {})
verdicts = collections.Counter(r["verdict"] for r in pkgs)
incl, alone = collections.Counter(), collections.Counter()
for r in pkgs:
    codes = sorted(set(r.get("blocked_by") or []))
    for c in codes:
        incl[c] += 1
    # gate_failed_as_recorded and the *_recorded codes restate what the
    # run's own gate row recorded (G1); "alone" is counted without them.
    own = [c for c in codes if c != "gate_failed_as_recorded" and not c.endswith("_recorded")]
    if len(own) == 1:
        alone[own[0]] += 1
graded = sum(1 for r in pkgs if r.get("grade"))
print("methodology %s, extractor %s, run %s" % (header.get("methodology_version", "?"), header.get("extractor_version", "?"), header.get("run_id", "?")))
print("versions examined: %d; graded: %d (%.1f%%)" % (len(pkgs), graded, 100.0 * graded / max(len(pkgs), 1)))
print()
print("| verdict | packages |")
print("| --- | ---: |")
for v, n in sorted(verdicts.items()):
    print("| %s | %d |" % (v, n))
print()
print("| reason code | refusals including it | refusals on it alone (beside gate_failed_as_recorded, *_recorded) |")
print("| --- | ---: | ---: |")
for c in sorted(incl, key=lambda c: (-incl[c], c)):
    print("| `%s` | %d | %d |" % (c, incl[c], alone[c]))
EOF
}

if [ "${1:-}" = "--counts" ]; then
	counts "${2:?usage: scripts/whole-run.sh --counts RUN_DIR}"
	exit 0
fi

home="${ATTESTARI_HOME:-$(mktemp -d /tmp/whole-run.XXXXXX)}"
mkdir -p "$home"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
(cd "$here" && go build -o "$bin/attestari" ./cmd/attestari)

cd "$here"
out="$(ATTESTARI_HOME="$home" ATTESTARI_ANALYZER=offline "$bin/attestari" run --json-logs \
	--candidates testdata/candidates/corpus-npm.json 2>"$home/run.log")"
echo "$out" >&2
dir="$(echo "$out" | awk 'NR==2 {print $1}')"
[ -d "$dir" ] || { echo "whole-run: no run directory in: $out" >&2; exit 1; }
ATTESTARI_HOME="$home" "$bin/attestari" decide "$dir" >&2
counts "$dir"

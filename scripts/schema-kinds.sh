#!/usr/bin/env bash
# schema-kinds.sh: the schema kind the extractor records for every tool of
# the npm corpus, one line per tool ("<tarball> <tool> <schema_kind>"), then
# the count per kind on stderr. It is the before/after figure of
# methodology 2.3.6 (docs/manifest.md, "Verification levels"): run it with a
# binary built at each version and diff the two outputs.
#
#   go build -o /tmp/attestari ./cmd/attestari
#   scripts/schema-kinds.sh /tmp/attestari > /tmp/kinds.txt
#
# Reads the corpus tarballs under $ATTESTARI_HOME/corpus (default var/corpus,
# see `make corpus`); writes nothing to the checkout.
set -euo pipefail
bin="${1:?usage: scripts/schema-kinds.sh ATTESTARI_BINARY}"
corpus="${ATTESTARI_HOME:-var}/corpus"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for f in "$corpus"/*.tgz; do
	ATTESTARI_HOME="$scratch" timeout 120 "$bin" surface --json "$f" 2>/dev/null |
		python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except Exception:
    sys.exit(0)
for t in d.get("tools") or []:
    print(sys.argv[1], t.get("name"), t.get("schema_kind"))' "$(basename "$f")" || true
done | tee "$scratch/out"
awk '{n[$3]++} END {for (k in n) printf "%s %d\n", k, n[k] > "/dev/stderr"}' "$scratch/out"

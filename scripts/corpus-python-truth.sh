#!/usr/bin/env bash
# corpus-python-truth.sh: write testdata/corpus-python/truth/<name>@<version>.json
# for every packed archive of the Python corpus with scripts/py_truth.py (the
# independent ast reader, Python 3.11+, standard library only), applying the
# reviewed corrections of testdata/corpus-python/corrections.json.
# Pack first: scripts/corpus-python-pack.sh.
#
# usage: scripts/corpus-python-truth.sh
set -euo pipefail
home="${ATTESTARI_HOME:-./var}"
dir="$home/corpus-python"
out="testdata/corpus-python/truth"
corr="testdata/corpus-python/corrections.json"
# The reader parses with the interpreter's own grammar: Python 3.12 or later reads
# every member of the corpus (3.11 cannot parse one 3.12 f-string in mcp-gsuite's
# gmail.py, which registers nothing); PYTHON picks the interpreter.
PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null || { echo "corpus-python-truth: $PYTHON not found" >&2; exit 1; }
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "corpus-python-truth: Python 3.11 or later is needed (tomllib)" >&2; exit 1; }
mkdir -p "$out"
n=0
while IFS=$'\t' read -r name version file; do
  "$PYTHON" scripts/py_truth.py "$dir/$file" --corrections "$corr" --out "$out/$name@$version.json"
  n=$((n + 1))
done < <(python3 - <<'PY'
import json, re
for s in json.load(open("testdata/corpus-python/servers.json"))["servers"]:
    sd = re.sub(r"[-_.]+", "_", s["name"]).lower()
    print(f"{s['name']}\t{s['version']}\t{sd}-{s['version']}.tar.gz")
PY
)
echo "corpus-python-truth: $n truth files in $out"

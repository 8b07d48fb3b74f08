#!/usr/bin/env bash
# corpus-python-pack.sh: pack every server of testdata/corpus-python/servers.json
# into an sdist-shaped archive under $ATTESTARI_HOME/corpus-python (default
# ./var/corpus-python) and check each against the SHA-256 the list pins.
#
# The sources are bare git mirrors, one per repository of the list, under
# MIRRORS (default $ATTESTARI_PY_MIRRORS, else /work/.mirror) in the layout the
# search tools' `fetch` writes: MIRRORS/<owner>+<name>/repo (a plain
# MIRRORS/<owner>+<name>.git made with `git clone --mirror` works too). Fetch
# each repository first; testdata/corpus-python/README.md lists them.
# Nothing here touches the network. Archives and sources are never committed.
#
# usage: scripts/corpus-python-pack.sh [MIRRORS] [-update]
set -euo pipefail
mirrors="${1:-${ATTESTARI_PY_MIRRORS:-/work/.mirror}}"
shift || true
command -v git >/dev/null || { echo "corpus-python-pack: git not found" >&2; exit 1; }
[ -d "$mirrors" ] || { echo "corpus-python-pack: no mirror directory $mirrors (fetch each repository of testdata/corpus-python/servers.json first)" >&2; exit 1; }
exec go run ./cmd/attestari-probe py-pack -mirrors "$mirrors" "$@"

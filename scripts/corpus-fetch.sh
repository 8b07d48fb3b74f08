#!/usr/bin/env bash
# corpus-fetch.sh: fetch every tarball of testdata/corpus/packages.json into
# $ATTESTARI_HOME/corpus (default ./var/corpus) with the ordinary npm client,
# and verify each against the SHA-256 the list records. Idempotent: a tarball
# already present with the right digest is not fetched again; one present
# with the wrong digest is a failure, not something to overwrite quietly.
# The registry is whatever the npm client is configured with.
#
# usage: scripts/corpus-fetch.sh [LIST]
set -euo pipefail

list="${1:-testdata/corpus/packages.json}"
home="${ATTESTARI_HOME:-./var}"
dest="$home/corpus"

command -v npm >/dev/null || { echo "corpus-fetch: npm not found" >&2; exit 1; }
command -v node >/dev/null || { echo "corpus-fetch: node not found" >&2; exit 1; }
command -v sha256sum >/dev/null || { echo "corpus-fetch: sha256sum not found" >&2; exit 1; }
[ -f "$list" ] || { echo "corpus-fetch: no list at $list" >&2; exit 1; }

mkdir -p "$dest"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# name, version, sha256 per line, read with node so no jq is needed.
entries="$(node -e '
const l = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const p of l.packages) console.log([p.name, p.version, p.tarball_sha256].join("\t"));
' "$list")"

total=0 fetched=0 present=0 failed=0
while IFS=$'\t' read -r name version want; do
  [ -n "$name" ] || continue
  total=$((total + 1))
  # One flat file per version: "@scope/x" -> "scope__x@1.2.3.tgz".
  file="$dest/$(printf '%s' "${name#@}" | sed 's#/#__#g')@$version.tgz"
  if [ -f "$file" ]; then
    got="$(sha256sum "$file" | cut -d' ' -f1)"
    if [ "$got" = "$want" ]; then
      present=$((present + 1))
      continue
    fi
    echo "corpus-fetch: MISMATCH $name@$version: $file has sha256 $got, list says $want" >&2
    failed=$((failed + 1))
    continue
  fi
  rm -rf "$scratch"/*
  if ! out="$(cd "$scratch" && npm pack --ignore-scripts --silent "$name@$version" 2>&1)"; then
    echo "corpus-fetch: npm pack $name@$version failed: $out" >&2
    failed=$((failed + 1))
    continue
  fi
  tgz="$(ls "$scratch"/*.tgz 2>/dev/null | head -n1)"
  if [ -z "$tgz" ]; then
    echo "corpus-fetch: npm pack $name@$version produced no tarball" >&2
    failed=$((failed + 1))
    continue
  fi
  got="$(sha256sum "$tgz" | cut -d' ' -f1)"
  if [ "$got" != "$want" ]; then
    echo "corpus-fetch: MISMATCH $name@$version: fetched sha256 $got, list says $want" >&2
    failed=$((failed + 1))
    continue
  fi
  mv "$tgz" "$file.part" && mv "$file.part" "$file"
  fetched=$((fetched + 1))
done <<< "$entries"

echo "corpus-fetch: $total listed, $fetched fetched, $present already present, $failed failed -> $dest"
[ "$failed" -eq 0 ] || { echo "corpus-fetch: FAILED ($failed)" >&2; exit 1; }

#!/usr/bin/env bash
# Redraws testdata/pass/npm-names.txt, the name list the weekly pass selects
# from (`attestari select --names testdata/pass/npm-names.txt --top 200`),
# mechanically from an npm package listing: a TSV whose first line names the
# columns name, version, downloads_a_month, summary (one package a line), such
# as the listing provided on the project's machines. The rule is written at
# the top of the file it draws, with the listing's date and SHA-256.
#
#   scripts/pass-names.sh LISTING.tsv [COUNT]     (COUNT defaults to 300)
#
# Where the registry serves its search API, `attestari select` (without
# --names) is the selection itself and this list is not needed.
set -euo pipefail
listing=${1:?usage: scripts/pass-names.sh LISTING.tsv [COUNT]}
count=${2:-300}
out=testdata/pass/npm-names.txt
head -1 "$listing" | grep -q $'^name\tversion\tdownloads_a_month\t' ||
  { echo "pass-names: $listing does not start with the columns name, version, downloads_a_month, summary" >&2; exit 1; }
day=$(date -u -r "$listing" +%Y-%m-%d)
sum=$(sha256sum "$listing" | cut -d' ' -f1)
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{
  echo "# The weekly pass's npm name list: attestari select --names $out --top 200"
  echo "#"
  echo "# Drawn mechanically by scripts/pass-names.sh from the npm package listing of $day"
  echo "# (sha256:$sum; one package a line: name, newest version, downloads a month, summary),"
  echo "# because the registry's search API is not served to the project's machines. Rule: every"
  echo "# package whose name, lower-cased and split at every character that is not a letter or a"
  echo "# digit, has the part \"mcp\", or whose name contains \"modelcontextprotocol\", or whose summary"
  echo "# contains \"model context protocol\" (case-insensitive); ranked by downloads a month,"
  echo "# descending, ties by name in byte order; the first $count. Nothing is left out by hand: a"
  echo "# package that is not a server is settled by the surface determination (methodology §4)."
  echo "# The pass ranks in this order (no downloads API here); select excludes what it cannot"
  echo "# select (not found, no release version, ...) and takes the next, so the top 200 are drawn"
  echo "# from these $count."
  LC_ALL=C awk -F'\t' 'NR > 1 {
      n = tolower($1); s = tolower($4)
      k = split(n, parts, /[^a-z0-9]+/); w = 0
      for (i = 1; i <= k; i++) if (parts[i] == "mcp") w = 1
      if ((w || index(n, "modelcontextprotocol") || index(s, "model context protocol")) && $3 ~ /^[0-9]+$/) print $3 "\t" $1
    }' "$listing" | LC_ALL=C sort -t$'\t' -k1,1nr -k2,2 | head -n "$count" | cut -f2
} > "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out ($(grep -vc '^#' "$out") names)"

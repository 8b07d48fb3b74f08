#!/usr/bin/env bash
# bench-ratio.sh: the stable protocol for a benchmark that is a ratio of two
# benchmarks of one package (issue 14: Python extraction over parsing alone).
#
#   scripts/bench-ratio.sh [-p PKG] [-a BENCH] [-b BENCH] [-n PAIRS] [-t BENCHTIME] [-e VAR=VALUE]...
#
# It builds the package's test binary once, runs one warm-up pass of each
# benchmark (not counted), then PAIRS pairs, each benchmark in its own
# process, the order alternating between pairs (A B, B A, A B, ...) so that a
# drift in the machine's load falls on both sides. It prints one row per pair
# and the medians (min - max) of wall time (ns/op) and of the process's CPU
# time (cpu-ms/op, when the benchmark reports it), the ratio of the medians
# and the median ratio per pair, and the load average before and after: a
# figure taken while the load average is above the number of cores says so.
#
# Defaults: the Python corpus pair of internal/surface, 7 pairs of 2x each,
# ATTESTARI_CORPUS_PYTHON_DIR=$ATTESTARI_HOME/corpus-python when that exists.
set -euo pipefail

pkg=./internal/surface
a='PythonPackagesExtract'
b='PythonPackagesParse'
pairs=7
benchtime=2x
envs=()
while getopts 'p:a:b:n:t:e:h' opt; do
	case $opt in
	p) pkg=$OPTARG ;;
	a) a=$OPTARG ;;
	b) b=$OPTARG ;;
	n) pairs=$OPTARG ;;
	t) benchtime=$OPTARG ;;
	e) envs+=("$OPTARG") ;;
	h | *)
		sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
		[ "$opt" = h ] && exit 0 || exit 3
		;;
	esac
done
case $pairs in '' | *[!0-9]* | 0)
	echo "bench-ratio: -n wants a positive number of pairs, got '$pairs'" >&2
	exit 3
	;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
home=${ATTESTARI_HOME:-$root/var}
if [ ${#envs[@]} -eq 0 ] && [ "$a" = PythonPackagesExtract ] && [ -d "$home/corpus-python" ]; then
	envs=("ATTESTARI_CORPUS_PYTHON_DIR=$home/corpus-python")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bench.test
(cd "$root" && go test -c -o "$bin" "$pkg")
pkgdir=$root/${pkg#./}

one() { # one BENCH: prints "ns cpu" of one process's run
	local out
	out=$(cd "$pkgdir" && env "${envs[@]}" "$bin" -test.run '^$' -test.bench "^Benchmark$1\$" -test.benchtime "$benchtime" -test.count 1 | grep "^Benchmark$1")
	if [ -z "$out" ]; then
		echo "bench-ratio: Benchmark$1 printed no result in $pkg" >&2
		exit 1
	fi
	echo "$out" | awk '{ns="";cpu="-"; for(i=2;i<=NF;i++){ if($i=="ns/op") ns=$(i-1); if($i=="cpu-ms/op") cpu=$(i-1)} print ns, cpu}'
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
one "$a" >/dev/null
one "$b" >/dev/null
: >"$work/rows"
for i in $(seq 1 "$pairs"); do
	if [ $((i % 2)) -eq 1 ]; then
		ra=$(one "$a")
		rb=$(one "$b")
	else
		rb=$(one "$b")
		ra=$(one "$a")
	fi
	echo "$i $ra $rb" >>"$work/rows"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work/rows" "$a" "$b" "$benchtime" "$load_before" "$load_after" "$(nproc)" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
a, b, bt, lb, la, cores = sys.argv[2:8]
print(f"pairs: {len(rows)} of Benchmark{a} / Benchmark{b}, -test.benchtime {bt}, each in its own process, order alternating")
print(f"load average before: {lb}; after: {la}; cores: {cores}")
print()
print("| pair | A wall s | B wall s | ratio | A cpu s | B cpu s | ratio |")
print("|---:|---:|---:|---:|---:|---:|---:|")
wa, wb, ca, cb, wr, cr = [], [], [], [], [], []
for i, na, pa, nb, pb in rows:
    x, y = float(na) / 1e9, float(nb) / 1e9
    wa.append(x); wb.append(y); wr.append(x / y)
    if pa != "-" and pb != "-":
        p, q = float(pa) / 1e3, float(pb) / 1e3
        ca.append(p); cb.append(q); cr.append(p / q)
        cpu = f"{p:.2f} | {q:.2f} | {p/q:.2f}x"
    else:
        cpu = "- | - | -"
    print(f"| {i} | {x:.2f} | {y:.2f} | {x/y:.2f}x | {cpu} |")
def m(v):
    return f"{statistics.median(v):.2f} ({min(v):.2f} - {max(v):.2f})"
print()
print(f"wall: A {m(wa)} s, B {m(wb)} s; ratio of medians {statistics.median(wa)/statistics.median(wb):.2f}x; per pair {m(wr)}x")
if ca:
    print(f"cpu:  A {m(ca)} s, B {m(cb)} s; ratio of medians {statistics.median(ca)/statistics.median(cb):.2f}x; per pair {m(cr)}x")
if float(la.split()[0]) > float(cores) or float(lb.split()[0]) > float(cores):
    print("note: the load average was above the number of cores: these figures are noisy")
EOF

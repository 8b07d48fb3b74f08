#!/usr/bin/env bash
# fault-drill.sh: the database fault drills of docs/reliability.md section 6,
# run against a real attestari-api (its default timeouts) over the private
# cluster `make run` starts under $ATTESTARI_HOME/pg. Each wave sends every
# path below at once (COPIES times) plus /readyz, and prints one line per
# answer: wave, HTTP status (000: no answer), seconds, path. Loopback only;
# each wave is at most a few dozen requests, each bounded by curl's 60 s.
#
#   freeze   SIGSTOP the postmaster and every backend for 40 s, with a wave at
#            0 s and one at 20 s, then SIGCONT and a wave after
#   outage   stop the server (fast), a wave, start it again, a wave after
#   restart  restart the server (fast), then a wave with nothing in between
#
# usage: scripts/fault-drill.sh freeze|outage|restart
# env:   BASE (default http://127.0.0.1:8080), DATA (default
#        $ATTESTARI_HOME/pg/data), FREEZE_SECONDS (default 40)
set -uo pipefail

base="${BASE:-http://127.0.0.1:8080}"
data="${DATA:-${ATTESTARI_HOME:-./var}/pg/data}"
hold="${FREEZE_SECONDS:-40}"
paths=(/manifest/@attestari-demo/weather/1.0.0 "/manifest?purl=pkg:npm/%40attestari-demo/weather@1.0.0"
  /packages /packages/npm/@attestari-demo/weather/1.0.0 /runs /gate_map.json
  / /package/npm/@attestari-demo/weather/1.0.0 /gate-map)

[ -f "$data/postmaster.pid" ] || { echo "fault-drill: no running server at $data" >&2; exit 1; }
pgctl=$(command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -1)
owner=$(stat -c %U "$data")
ctl() { if [ "$(id -u)" = 0 ]; then runuser -u "$owner" -- "$pgctl" "$@"; else "$pgctl" "$@"; fi; }

# Each request leaves from a loopback address of its own (127.0.0.2 on), so
# the API's per-client bound of database-bound requests in flight (4 by
# default) sees many clients and each request meets the fault, not the bound.
src=0
wave() { # label copies
  local label=$1 n=$2 i p
  for i in $(seq 1 "$n"); do
    for p in "${paths[@]}"; do
      src=$(((src + 1) % 250))
      curl -s -o /dev/null --max-time 60 --interface "127.0.0.$((src + 2))" \
        -w "$label %{http_code} %{time_total} $p\n" "$base$p" &
    done
  done
  curl -s -o /dev/null --max-time 60 -w "$label %{http_code} %{time_total} /readyz\n" "$base/readyz" &
  wait
}

# The postmaster, then its children: each backend is a session leader of its
# own, so the postmaster's process group would miss them.
server_pids() { local pm; pm=$(head -1 "$data/postmaster.pid"); echo "$pm" $(pgrep -P "$pm"); }

case "${1:-}" in
freeze)
  wave before 2
  pids=$(server_pids)
  trap 'kill -CONT $pids 2>/dev/null' EXIT
  kill -STOP $pids
  echo "frozen $(date -u +%T)"
  wave frozen-0s 3 &
  sleep $((hold / 2)); wave "frozen-$((hold / 2))s" 2 &
  sleep $((hold - hold / 2)); kill -CONT $pids; echo "thawed $(date -u +%T)"
  wait
  wave after 2 ;;
outage)
  wave before 2
  ctl stop -D "$data" -m fast -w >/dev/null && echo stopped
  wave down 2
  # restart starts a stopped server with the options it last ran with.
  ctl restart -D "$data" -m fast -w -l "$data/../server.log" >/dev/null 2>&1; echo started
  wave after 2 ;;
restart)
  wave before 3
  ctl restart -D "$data" -m fast -w >/dev/null && echo restarted
  wave after 2 ;;
*)
  echo "usage: $0 freeze|outage|restart" >&2; exit 2 ;;
esac

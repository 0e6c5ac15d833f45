#!/usr/bin/env bash
# Readers during a write: `cairn serve` answers wrk (bench/search_load.lua, 32
# connections) while `cairn ingest` adds new pages to the same archive.
#
#   bench/load_during_ingest.sh ARCHIVE_DIR [PAGES=20000] [DURATION=30]
set -euo pipefail
cd "$(dirname "$0")/.."
archive="$1"; pages="${2:-20000}"; duration="${3:-30}"
cargo build --release -q -p cairn
bin=./target/release/cairn
work=$(mktemp -d)
"$bin" generate --pages "$pages" --seed 99 --format mixed "$work/pages" 2>/dev/null
port=7980
"$bin" --data "$archive" serve --addr "127.0.0.1:$port" >/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
before=$("$bin" --data "$archive" stats --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["captions"])')
"$bin" --data "$archive" ingest "$work/pages" >/dev/null 2>"$work/ingest.log" &
ingest=$!
wrk -t2 -c32 -d"${duration}s" --timeout 10s -s bench/search_load.lua "http://127.0.0.1:$port" > "$work/wrk.log"
ingest_running="no"; kill -0 $ingest 2>/dev/null && ingest_running="yes"
wait $ingest
after=$("$bin" --data "$archive" stats --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["captions"])')
echo "machine: $(nproc) cores; archive: $before captions before, $after after ingesting $pages pages; ingest still running when wrk ended: $ingest_running"
grep -E "requests [0-9]+, errors|p50" "$work/wrk.log"
"$bin" --data "$archive" check 2>&1 | tail -1

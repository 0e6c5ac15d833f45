#!/usr/bin/env bash
# Load on `cairn serve` over loopback: wrk with 32 connections for DURATION seconds,
# rotating /api/search requests with facets (bench/search_load.lua), against an archive
# (build one of a million captions with bench/search_bench.sh, WORK=DIR to keep it).
#
#   bench/load_test.sh ARCHIVE_DIR [DURATION=30] [CONNECTIONS=32]
set -euo pipefail
cd "$(dirname "$0")/.."
archive="$1"; duration="${2:-30}"; conns="${3:-32}"
command -v wrk >/dev/null || { echo "wrk is missing (Debian: wrk)"; exit 1; }
cargo build --release -q -p cairn
port=7979
./target/release/cairn --data "$archive" serve --addr "127.0.0.1:$port" >/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
captions=$(./target/release/cairn --data "$archive" stats --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["captions"])')
echo "machine: $(nproc) cores; archive: $captions captions; wrk -t2 -c$conns -d${duration}s (client and server on the same machine)"
# One warm-up pass over the queries, then the measured run.
wrk -t2 -c4 -d3s -s bench/search_load.lua "http://127.0.0.1:$port" >/dev/null
wrk -t2 -c"$conns" -d"${duration}s" --timeout 10s -s bench/search_load.lua "http://127.0.0.1:$port" | tee /dev/stderr | grep -E "Requests/sec|requests|p50"

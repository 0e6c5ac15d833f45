#!/usr/bin/env bash
# Archive at scale: generates PAGES gallery pages (default 400000, about 1.03 million
# distinct captions), ingests them into a new archive, and reports ingest time and
# throughput, peak RSS, the archive's size on disk per caption with and without the raw
# sources, then search latency p50/p99 for typical queries beside SQLite FTS5 over the
# same captions (crates/cairn/benches/search_latency.rs).
#
#   bench/search_bench.sh [PAGES]          WORK=DIR to keep the corpus and archive
set -euo pipefail
cd "$(dirname "$0")/.."
pages="${1:-400000}"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"
cargo build --release -q -p cairn
bin=./target/release/cairn
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB"

if [ ! -d "$work/pages" ]; then "$bin" generate --pages "$pages" "$work/pages"; fi
input_bytes=$(du -sb --apparent-size "$work/pages" | cut -f1)
rm -rf "$work/archive"
/usr/bin/time -f '%e %M' -o "$work/ingest.time" "$bin" --data "$work/archive" ingest "$work/pages" >/dev/null 2>"$work/ingest.log" || { tail "$work/ingest.log"; exit 1; }
"$bin" --data "$work/archive" stats --json > "$work/stats.json"

python3 - "$work" "$input_bytes" <<'PY'
import json, os, sqlite3, sys
work, input_bytes = sys.argv[1], int(sys.argv[2])
secs, rss_kb = open(f"{work}/ingest.time").read().split()
secs = float(secs)
s = json.load(open(f"{work}/stats.json"))
db = f"{work}/archive/archive.sqlite"
c = sqlite3.connect(db)
pages = dict(c.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"))
db_bytes = os.path.getsize(db)
index = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(f"{work}/archive/index") for f in fs)
raw = pages.get("blob", 0)
n = s["captions"]
print(f"pages {s['sources']:,}, occurrences {s['occurrences']:,}, captions {n:,}, input {input_bytes/1e6:,.0f} MB")
print(f"ingest: {secs:.1f} s, {s['sources']/secs:,.0f} pages/s, {n/secs:,.0f} captions/s, {input_bytes/secs/1e6:.1f} MB/s, peak RSS {int(rss_kb)/1024:,.0f} MB")
print(f"archive: database {db_bytes/1e6:,.0f} MB (raw sources {raw/1e6:,.0f} MB of it), index {index/1e6:,.0f} MB")
print(f"per caption: {(db_bytes + index)/n:,.0f} bytes in all, {(db_bytes - raw + index)/n:,.0f} bytes excluding raw sources")
PY

CAIRN_BENCH_ARCHIVE="$work/archive" cargo bench -q -p cairn --bench search_latency

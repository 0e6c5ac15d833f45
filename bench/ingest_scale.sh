#!/usr/bin/env bash
# Ingest at scale: for each size, generate that many pages (mixed HTML and text, and a
# WARC.gz of the same pages), ingest each into a new archive, and report wall time,
# throughput (MB/s of input, pages/s, captions/s), peak RSS and archive size.
#
#   bench/ingest_scale.sh [SIZES="10000 100000 1000000"]     WORK=DIR to keep the files
set -euo pipefail
cd "$(dirname "$0")/.."
sizes="${1:-10000 100000 1000000}"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"
cargo build --release -q -p cairn
bin=./target/release/cairn
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB"
echo "| pages | input | MB | wall s | MB/s | pages/s | captions/s | captions | peak RSS MiB | archive MB |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in $sizes; do
  [ -d "$work/mixed-$n" ] || "$bin" generate --pages "$n" --format mixed "$work/mixed-$n" 2>/dev/null
  [ -f "$work/warc-$n/pages.warc.gz" ] || "$bin" generate --pages "$n" --format mixed --warc "$work/warc-$n" 2>/dev/null
  for kind in mixed warc; do
    input="$work/$kind-$n"
    bytes=$(du -sb --apparent-size "$input" | cut -f1)
    rm -rf "$work/archive"
    /usr/bin/time -f '%e %M' -o "$work/time" "$bin" --data "$work/archive" ingest "$input" >/dev/null 2>"$work/log" || { tail "$work/log"; exit 1; }
    "$bin" --data "$work/archive" stats --json > "$work/stats.json"
    python3 - "$n" "$kind" "$bytes" "$work" <<'PY'
import json, os, sys
n, kind, b, work = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
secs, rss = open(f"{work}/time").read().split()
secs, rss = float(secs), int(rss)
s = json.load(open(f"{work}/stats.json"))
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(f"{work}/archive") for f in fs)
label = "text+HTML files" if kind == "mixed" else "WARC.gz (compressed size)"
print(f"| {n:,} | {label} | {b/1e6:,.0f} | {secs:.1f} | {b/secs/1e6:.1f} | {n/secs:,.0f} | {s['occurrences']/secs:,.0f} | {s['captions']:,} | {rss/1024:,.0f} | {size/1e6:,.0f} |")
PY
  done
done

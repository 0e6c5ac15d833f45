"""The Spark job gives what `cairn ingest` gives, and `cairn import` makes an archive
that searches alike.

    python test_spark.py WORKDIR        (CAIRN_BIN: the cairn binary; needs pyspark, Java)

On a generated corpus (text and HTML pages, a WARC.gz and a copy of it, a labelled
near-duplicate file, a JSON Lines export of one page's captions with dates):
`cairn ingest` into archive A; the Spark job with `local[2]` (hot keys salted at a low
threshold so that path runs too, skipped sources, components and clusters in Spark
as at scale); then:
- the stored sources, in order, and every occurrence (ordinal, span, exact key) equal;
- the partition of distinct texts into captions equal (ids aside), and each caption's
  canonical text equal;
- every canonical record equal to A's (as `cairn export` gives it), the exported
  captions' with the export's date;
- `cairn import` of the output into archive B: the same partition, and the same search
  results (totals, hit texts, facets) for several queries;
- the job again, with its ways for small inputs (the list of skipped sources
  broadcast, components and clusters on the driver): the same sources, occurrences,
  partition, canonical texts and records.
Then the two ways of finding components agree on graphs made for it.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys

import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.join(HERE, "..", "spark", "cairn_spark.py")
CAIRN = os.environ["CAIRN_BIN"]


def cairn(*args, data=None):
    cmd = [CAIRN] + (["--data", data] if data else []) + list(args)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(f"{cmd} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return r.stdout


def archive_view(data):
    db = sqlite3.connect(os.path.join(data, "archive.sqlite"))
    sources = db.execute("SELECT id, uri, sha256 FROM source ORDER BY id").fetchall()
    occurrences = db.execute(
        "SELECT s.uri, s.sha256, o.ordinal, o.start, o.end, v.key FROM occurrence o "
        "JOIN source s ON s.id = o.source_id JOIN variant v ON v.id = o.variant_id "
        "ORDER BY s.id, o.ordinal"
    ).fetchall()
    groups = {}
    for key, caption in db.execute("SELECT key, caption_id FROM variant"):
        groups.setdefault(caption, set()).add(bytes(key))
    canonical = {
        bytes(k)
        for (k,) in db.execute(
            "SELECT v.key FROM caption c JOIN variant v ON v.id = c.canonical_variant"
        )
    }
    db.close()
    return {
        "sources": [(u, h) for _, u, h in sources],
        "occurrences": [(u, h, o, s, e, bytes(k)) for u, h, o, s, e, k in occurrences],
        "partition": {frozenset(g) for g in groups.values()},
        "canonical": canonical,
    }


def job_view(out):
    def table(name):
        return pq.read_table(os.path.join(out, name)).to_pylist()

    sources = table("sources")
    by_order = {(s["input"], s["seq"]): (s["uri"], s["sha256"]) for s in sources}
    occurrences = [
        by_order[(o["input"], o["seq"])] + (o["ordinal"], o["start"], o["end"], o["exact_key"])
        for o in table("occurrences")
    ]
    groups, canonical = {}, set()
    for c in table("clusters"):
        groups.setdefault(c["cluster"], set()).add(c["exact_key"])
        if c["canonical"]:
            canonical.add(c["exact_key"])
    records = {r["exact_key"]: (r["text"], json.loads(r["record"])) for r in table("records")}
    return {
        "sources": [(s["uri"], s["sha256"]) for s in sources],
        "occurrences": occurrences,
        "partition": {frozenset(g) for g in groups.values()},
        "canonical": canonical,
        "records": records,
    }


def same(what, a, b, names=("ingest", "the job")):
    if a != b:
        if isinstance(a, (set, frozenset)):
            raise AssertionError(
                f"{what} differ: {len(a - b)} only in {names[0]}, {len(b - a)} only in "
                f"{names[1]}; "
                f"e.g. {sorted(a - b, key=repr)[:2]} / {sorted(b - a, key=repr)[:2]}"
            )
        raise AssertionError(f"{what} differ:\n{str(a)[:500]}\n{str(b)[:500]}")


def search(data, q):
    r = json.loads(cairn("search", q, "--json", "--limit", "50", "--facets", data=data))
    return r["total"], [h["text"] for h in r["hits"]], r.get("facets")


def main():
    work = sys.argv[1]
    shutil.rmtree(work, ignore_errors=True)
    corpus = os.path.join(work, "in")
    cairn("generate", "--pages", "240", "--format", "mixed", "--seed", "21", corpus)
    w = os.path.join(work, "w")
    cairn("generate", "--pages", "60", "--format", "html", "--warc", "--seed", "22", w)
    shutil.move(os.path.join(w, "pages.warc.gz"), os.path.join(corpus, "crawl.warc.gz"))
    # A second crawl of the same pages: every record a source already stored.
    shutil.copy(os.path.join(corpus, "crawl.warc.gz"), os.path.join(corpus, "crawl2.warc.gz"))
    nd = os.path.join(work, "nd")
    cairn("generate", "--near-dup", "--photos", "900", "--seed", "23", nd)
    shutil.copy(os.path.join(nd, "captions.txt"), os.path.join(corpus, "near-dup.txt"))
    # A JSON Lines export of one page's captions with a date field, read before the
    # pages: those texts' records are extracted with the export's fields (their first
    # occurrence), the date overriding the text's.
    import cairn as module
    import pyarrow as pa

    page = sorted(p for p in module.input_files([corpus]) if "page-" in p)[0]
    texts = module.read_files(pa.array([page]), extract=False)[1].column("text").to_pylist()
    with open(os.path.join(corpus, "0-export.jsonl"), "w", encoding="utf-8") as f:
        for i, t in enumerate(texts):
            f.write(json.dumps({"caption": t, "uri": f"https://example.org/export/{i}",
                                "date": "2011-03-15"}) + "\n")
    assert module.input_files([corpus])[0].endswith("0-export.jsonl")

    # A small limit on the texts a key finds, so that it decides matches here as the
    # default one does on a large corpus.
    max_bucket = "3"
    a = os.path.join(work, "a")
    cairn("ingest", corpus, "--max-bucket", max_bucket, data=a)
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)

    def job(out, *more):
        r = subprocess.run(
            [sys.executable, JOB, corpus, "--out", out, "--master", "local[2]",
             "--hot", "20", "--salts", "4", "--max-bucket", max_bucket, *more],
            capture_output=True, text=True, env=env,
        )
        if r.returncode != 0:
            raise AssertionError(f"the Spark job failed:\n{r.stdout}\n{r.stderr[-4000:]}")
        return json.load(open(os.path.join(out, "_cairn.json")))

    # Skipped sources, components and clusters in Spark, as at scale; the hot keys
    # counted on every text.
    out = os.path.join(work, "out")
    summary = job(out, "--driver-components", "0", "--broadcast-rows", "0", "--hot-sample", "1")
    assert summary["hot_keys"] > 0, "the salted path should run"

    av, jv = archive_view(a), job_view(out)
    same("sources", av["sources"], jv["sources"])
    same("occurrences", av["occurrences"], jv["occurrences"])
    same("partitions", av["partition"], jv["partition"])
    same("canonical texts", av["canonical"], jv["canonical"])
    assert summary["sources_skipped"] >= 60, "the second crawl's sources are skipped"
    joined = sum(1 for g in av["partition"] if len(g) > 1)
    assert joined > 100, f"the corpus should have near-duplicates ({joined} captions with variants)"
    by_text = {t: rec for t, rec in jv["records"].values()}
    n = 0
    for line in cairn("export", "--format", "jsonl", data=a).splitlines():
        e = json.loads(line)
        same(f"record of {e['text'][:60]!r}", e["record"], by_text[e["text"]])
        n += 1
    assert n == len(av["partition"])
    dated = [t for t, rec in jv["records"].values()
             if (rec.get("date") or {}).get("value") == "2011-03-15"]
    assert len(dated) >= len(set(texts)), (len(dated), len(set(texts)))

    b = os.path.join(work, "b")
    cairn("import", out, data=b)
    bv = archive_view(b)
    same("sources after import", av["sources"], bv["sources"])
    same("occurrences after import", av["occurrences"], bv["occurrences"])
    same("partitions after import", av["partition"], bv["partition"])
    same("canonical texts after import", av["canonical"], bv["canonical"])
    queries = ["", "Aleppo", '"car bomb"', "killed", "protest AND police", "Reuters"]
    for q in queries:
        same(f"search {q!r}", search(a, q), search(b, q))

    # The same with the defaults for this size (skipped sources broadcast, components
    # and clusters on the driver, hot keys estimated from a sample, so other keys are
    # salted): the same output.
    out2 = os.path.join(work, "out2")
    summary2 = job(out2)
    assert summary2["components_rounds"] == 0 and summary["components_rounds"] > 0
    jv2 = job_view(out2)
    for what in ("sources", "occurrences", "partition", "canonical", "records"):
        same(f"{what} (large-input ways, small-input ways)", jv[what], jv2[what],
             names=("the large-input run", "the small-input run"))

    print(
        f"spark: {summary['files']} files, {summary['sources']} sources stored, "
        f"{summary['sources_skipped']} skipped, "
        f"{summary['texts']} texts, {len(av['partition'])} captions ({joined} with "
        f"near-duplicates), {summary['candidate_pairs_verified']} verified pairs, largest "
        f"component {summary['largest_component']}, {summary['components_rounds']} rounds, "
        f"{summary['hot_keys']} hot keys ({summary2['hot_keys']} from the sample)"
    )


def components_agree():
    """The components found in Spark (the job's path for many verified pairs, which
    main() runs) and on the driver (its path for few) are the same, masks included,
    on graphs of chains, stars, cycles and random pairs, repeated pairs among them."""
    import random

    sys.path.insert(0, os.path.dirname(JOB))
    import cairn_spark
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    rng = random.Random(7)
    pairs = []
    for start in range(0, 400, 100):  # chains, long ones need several rounds
        pairs += [(start + i + 1, start + i) for i in range(0, 60)]
    pairs += [(1000 + i, 1000) for i in range(1, 40)]  # a star around its smallest
    pairs += [(2000 + (i + 1) % 9, 2000 + i) for i in range(9)]  # a cycle
    pairs += [(rng.randrange(3000, 3300), rng.randrange(3000, 3300)) for _ in range(250)]
    pairs = [(max(a, b), min(a, b), rng.choice([1, 2, 4, 6, 8])) for a, b in pairs if a != b]
    pairs += pairs[:30]  # the same pair found twice

    spark = SparkSession.builder.master("local[2]").config(
        "spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate()
    try:
        df = spark.createDataFrame(pairs, "t long, u long, bits int")
        nodes, rounds = cairn_spark.spark_components(spark, df, F)
        in_spark = {tuple(r) for r in nodes.collect()}
    finally:
        spark.stop()
    on_driver = set(cairn_spark.driver_components(pairs))
    same("components", in_spark, on_driver, names=("Spark", "the driver's"))
    comps = {c for _, c, _ in on_driver}
    assert rounds > 2 and len(comps) > 6, (rounds, len(comps))
    print(f"components: {len(on_driver)} nodes, {len(comps)} components, {rounds} rounds")


if __name__ == "__main__":
    main()
    components_agree()
    print("cairn-py spark: 2 tests passed")

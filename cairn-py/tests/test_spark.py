"""The Spark job gives what `cairn ingest` gives, and `cairn import` makes an archive
that searches alike.

    python test_spark.py WORKDIR        (CAIRN_BIN: the cairn binary; needs pyspark, Java)

On a generated corpus (text and HTML pages, a WARC.gz, a labelled near-duplicate file):
`cairn ingest` into archive A; the Spark job with `local[2]` (hot keys salted at a low
threshold so that path runs too); then:
- the stored sources, in order, and every occurrence (ordinal, span, exact key) equal;
- the partition of distinct texts into captions equal (ids aside), and each caption's
  canonical text equal;
- every canonical record equal to A's (as `cairn export` gives it);
- `cairn import` of the output into archive B: the same partition, and the same search
  results (totals, hit texts, facets) for several queries.
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


def same(what, a, b):
    if a != b:
        if isinstance(a, (set, frozenset)):
            raise AssertionError(
                f"{what} differ: {len(a - b)} only in ingest, {len(b - a)} only in the job; "
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
    nd = os.path.join(work, "nd")
    cairn("generate", "--near-dup", "--photos", "900", "--seed", "23", nd)
    shutil.copy(os.path.join(nd, "captions.txt"), os.path.join(corpus, "near-dup.txt"))

    # A small limit on the texts a key finds, so that it decides matches here as the
    # default one does on a large corpus.
    max_bucket = "3"
    a = os.path.join(work, "a")
    cairn("ingest", corpus, "--max-bucket", max_bucket, data=a)
    out = os.path.join(work, "out")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    r = subprocess.run(
        [sys.executable, JOB, corpus, "--out", out, "--master", "local[2]",
         "--hot", "20", "--salts", "4", "--max-bucket", max_bucket],
        capture_output=True, text=True, env=env,
    )
    if r.returncode != 0:
        raise AssertionError(f"the Spark job failed:\n{r.stdout}\n{r.stderr[-4000:]}")
    summary = json.load(open(os.path.join(out, "_cairn.json")))

    av, jv = archive_view(a), job_view(out)
    same("sources", av["sources"], jv["sources"])
    same("occurrences", av["occurrences"], jv["occurrences"])
    same("partitions", av["partition"], jv["partition"])
    same("canonical texts", av["canonical"], jv["canonical"])
    joined = sum(1 for g in av["partition"] if len(g) > 1)
    assert joined > 100, f"the corpus should have near-duplicates ({joined} captions with variants)"
    by_text = {t: rec for t, rec in jv["records"].values()}
    n = 0
    for line in cairn("export", "--format", "jsonl", data=a).splitlines():
        e = json.loads(line)
        same(f"record of {e['text'][:60]!r}", e["record"], by_text[e["text"]])
        n += 1
    assert n == len(av["partition"])

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
    print(
        f"spark: {summary['texts']} texts, {len(av['partition'])} captions ({joined} with "
        f"near-duplicates), {summary['candidate_pairs_verified']} verified pairs, largest "
        f"component {summary['largest_component']}, {summary['components_rounds']} rounds"
    )
    print("cairn-py spark: 1 test passed")


if __name__ == "__main__":
    main()

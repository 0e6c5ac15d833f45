"""cairn's batch stages on Apache Spark: from files (text, HTML, WARC, JSON Lines,
gzip/zstd) to Parquet that `cairn import` turns into an archive.

    python cairn_spark.py INPUT... --out DIR [--master local[2]] [--partitions N]

Every stage calls the `cairn` module (the Rust crates): nothing of reading, extraction
or deduplication is written again here. What Spark does is move data:

1. read: the input files, listed in `cairn ingest`'s order, are read, rendered and
   extracted by `cairn.read_files` in `mapInArrow` tasks;
2. sources: a (uri, sha256) already seen earlier in the input is dropped with its
   captions, as `cairn ingest` skips it;
3. exact duplicates: occurrences grouped by exact key; each distinct text keeps its
   first occurrence (position in the input, text, record);
4. signatures: `cairn.signatures` gives each distinct text its LSH band keys;
5. eligibility: a text may be found through a key when it is among the first 64
   distinct texts that have it (`cairn_dedup::Eligible`): a window per key, run on a
   salted partial top-64 first so that a key shared by millions of texts is spread
   over many tasks;
6. candidate pairs: each text with each earlier eligible text sharing a key (at most
   64 per key), hot keys salted; verified by `cairn.verify`;
7. connected components of the verified pairs (large-star / small-star);
8. clusters: each component's texts, in input order, go through `cairn.cluster`,
   the single-machine clustering itself (representatives, no chaining), which gives
   the clusters one pass over the whole input gives.

Output (Parquet directories under --out): `sources` (one row per stored source, in
input order, with its bytes), `occurrences` (source, ordinal, span, exact key),
`records` (one row per distinct text: exact key, text, record JSON, first position),
`clusters` (exact key, cluster, canonical), `rejected` (inputs or records that could
not be read, with the reason) and `_cairn.json` (what was run, counts, timings).
"""

import argparse
import json
import os
import sys
import time

import pyarrow as pa
import pyarrow.compute as pc

import cairn

# The same limit as `cairn_dedup::MAX_BUCKET` (--max-bucket changes it, for tests,
# with `cairn ingest --max-bucket`).
MAX_BUCKET = 64


def list_inputs(paths):
    """Files in `cairn ingest`'s order: each argument in turn; a directory walked
    depth first with the entries of each directory sorted by name, hidden entries
    (name starting with a dot) below the top skipped, symbolic links not followed."""
    out = []

    def walk(d):
        with os.scandir(d) as it:
            entries = sorted(it, key=lambda e: os.fsencode(e.name))
        for e in entries:
            if e.name.startswith("."):
                continue
            if e.is_dir(follow_symlinks=False):
                walk(e.path)
            elif e.is_file(follow_symlinks=False):
                out.append(e.path)

    for p in paths:
        if os.path.isdir(p):
            walk(p)
        elif os.path.exists(p):
            out.append(p)
        else:
            raise SystemExit(f"error: {p}: no such file or directory")
    return [os.path.abspath(p) for p in out]


SOURCE = pa.struct(
    [
        ("uri", pa.string()),
        ("sha256", pa.string()),
        ("kind", pa.string()),
        ("encoding", pa.string()),
        ("text_len", pa.int64()),
        ("warnings", pa.string()),
        ("origin", pa.string()),
        ("content", pa.binary()),
        ("error", pa.string()),
    ]
)
CAPTION = pa.struct(
    [
        ("ordinal", pa.int64()),
        ("start", pa.int64()),
        ("end", pa.int64()),
        ("text", pa.string()),
        ("exact_key", pa.binary()),
        ("record", pa.string()),
    ]
)
READ = pa.schema(
    [
        ("input", pa.int64()),
        ("seq", pa.int64()),
        ("source", SOURCE),
        ("caption", CAPTION),
    ]
)

READ_DDL = (
    "input long, seq long, source struct<uri: string, sha256: string, kind: string, "
    "encoding: string, text_len: long, warnings: string, origin: string, content: binary, "
    "error: string>, caption struct<ordinal: long, start: long, end: long, text: string, "
    "exact_key: binary, record: string>"
)


def read_batches(batches):
    """mapInArrow: rows of (input, path) -> the sources and captions they hold."""
    for b in batches:
        inputs = b.column("input")
        sources, captions = cairn.read_files(b.column("path"))
        src_input = pc.take(inputs, sources.column("input"))
        cap_input = pc.take(inputs, captions.column("input"))
        n, m = sources.num_rows, captions.num_rows
        src = pa.StructArray.from_arrays(
            [sources.column(f.name) for f in SOURCE], fields=list(SOURCE)
        )
        yield pa.RecordBatch.from_arrays(
            [src_input, sources.column("seq"), src, pa.nulls(n, CAPTION)], schema=READ
        )
        cap = pa.StructArray.from_arrays(
            [captions.column(f.name) for f in CAPTION], fields=list(CAPTION)
        )
        yield pa.RecordBatch.from_arrays(
            [cap_input, captions.column("seq"), pa.nulls(m, SOURCE), cap], schema=READ
        )


def signature_batches(batches):
    """mapInArrow: (pos, text) -> (pos, band_keys)."""
    for b in batches:
        sig = cairn.signatures(b.column("text"), signed=True)
        yield pa.RecordBatch.from_arrays(
            [b.column("pos"), sig.column("band_keys")], names=["pos", "band_keys"]
        )


def verify_batches(threshold):
    def f(batches):
        for b in batches:
            score = cairn.verify(b.column("text_t"), b.column("text_u"), threshold)
            keep = pc.is_valid(score)
            yield pa.RecordBatch.from_arrays(
                [pc.filter(b.column("t"), keep), pc.filter(b.column("u"), keep)],
                names=["t", "u"],
            )

    return f


def cluster_group(threshold):
    def f(table):
        table = table.sort_by("pos")
        out = cairn.cluster(table.column("text").combine_chunks(),
                            table.column("mask").combine_chunks(), threshold)
        pos = table.column("pos").combine_chunks()
        return pa.table(
            {
                "pos": pos,
                "cluster": pc.take(pos, out.column("cluster")),
                "canonical": out.column("canonical"),
            }
        )

    return f


def components(spark, edges, F):
    """Connected components of an undirected graph given as (a, b) long pairs, by the
    large-star / small-star iteration (Kiveris et al., "Connected Components in
    MapReduce and Beyond", 2014). Returns (node, comp) with comp the component's
    smallest node, for the nodes that have an edge; and the number of rounds."""
    e = (
        edges.where(F.col("a") != F.col("b"))
        .select(F.least("a", "b").alias("a"), F.greatest("a", "b").alias("b"))
        .distinct()
        .localCheckpoint()
    )
    rounds = 0
    while True:
        rounds += 1
        # Large star: every neighbour v > u of a node u is linked to the smallest of u
        # and its neighbours.
        both = e.select(F.col("a").alias("u"), F.col("b").alias("v")).union(
            e.select(F.col("b").alias("u"), F.col("a").alias("v"))
        )
        m = both.groupBy("u").agg(F.min("v").alias("m"))
        m = m.select("u", F.least("u", "m").alias("m"))
        large = (
            both.join(m, "u")
            .where(F.col("v") > F.col("u"))
            .select(F.col("m").alias("a"), F.col("v").alias("b"))
            .where(F.col("a") != F.col("b"))
            .distinct()
        )
        # Small star: a node and its smaller neighbours are linked to the smallest of them.
        m2 = large.groupBy("b").agg(F.min("a").alias("m"))
        small = large.join(m2, "b")
        small = (
            small.select(F.col("a").alias("x"), "m")
            .union(small.select(F.col("b").alias("x"), "m"))
            .where(F.col("x") != F.col("m"))
            .select(F.col("m").alias("a"), F.col("x").alias("b"))
            .distinct()
            .localCheckpoint()
        )
        changed = small.exceptAll(e).limit(1).count() + e.exceptAll(small).limit(1).count()
        e = small
        if changed == 0:
            break
    # Now every component is a star around its smallest node.
    comp = e.select(F.col("b").alias("node"), F.col("a").alias("comp")).union(
        e.select(F.col("a").alias("node"), F.col("a").alias("comp"))
    ).distinct()
    return comp, rounds


def run(args):
    from pyspark.sql import SparkSession, Window
    from pyspark.sql import functions as F
    from pyspark import StorageLevel

    t0 = time.time()
    timings = {}

    def lap(name, df=None):
        if df is not None:
            df.count()
        timings[name] = round(time.time() - t0 - sum(timings.values()), 3)

    files = list_inputs(args.inputs)
    if not files:
        raise SystemExit("error: no input files")
    builder = (
        SparkSession.builder.appName("cairn")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(args.shuffle_partitions))
    )
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    max_bucket = args.max_bucket
    parts = args.partitions or max(2, spark.sparkContext.defaultParallelism * 2)
    salts = args.salts

    paths = spark.createDataFrame(
        list(enumerate(files)), "input long, path string"
    ).repartition(min(parts, len(files)), "input")
    read = paths.mapInArrow(read_batches, READ_DDL).persist(StorageLevel.MEMORY_AND_DISK)
    lap("read", read)

    # Sources: the first of each (uri, sha256) is stored, later copies are skipped with
    # their captions, as in `cairn ingest`.
    sources = read.where(F.col("source").isNotNull()).select("input", "seq", "source.*")
    rejected = sources.where(F.col("error").isNotNull()).select("input", "seq", "error")
    first = Window.partitionBy("uri", "sha256").orderBy("input", "seq")
    kept = (
        sources.where(F.col("error").isNull())
        .withColumn("n", F.row_number().over(first))
        .where(F.col("n") == 1)
        .drop("n", "error")
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    captions = (
        read.where(F.col("caption").isNotNull())
        .select("input", "seq", "caption.*")
        .join(kept.select("input", "seq"), ["input", "seq"], "left_semi")
    )
    # Positions in the input: a global sort, then an id that grows with it.
    captions = (
        captions.orderBy("input", "seq", "ordinal")
        .withColumn("pos", F.monotonically_increasing_id())
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    lap("sources", captions)

    # Distinct texts: the first occurrence's text and record.
    texts = (
        captions.groupBy("exact_key")
        .agg(F.min(F.struct("pos", "text", "record")).alias("f"))
        .select("exact_key", "f.pos", "f.text", "f.record")
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    lap("exact", texts)

    sigs = texts.select("pos", "text").mapInArrow(
        signature_batches, "pos long, band_keys array<long>"
    )
    keys = sigs.select("pos", F.posexplode("band_keys").alias("i", "key")).persist(
        StorageLevel.MEMORY_AND_DISK
    )
    lap("signatures", keys)

    # Eligibility: the first MAX_BUCKET distinct texts of each key. A partial top
    # within salted groups first, so one key never sits in one task whole.
    distinct_keys = keys.select("pos", "key").distinct()
    salted = distinct_keys.withColumn("salt", F.pmod(F.xxhash64("pos"), F.lit(salts)))
    w1 = Window.partitionBy("key", "salt").orderBy("pos")
    w2 = Window.partitionBy("key").orderBy("pos")
    eligible = (
        salted.withColumn("r", F.row_number().over(w1))
        .where(F.col("r") <= max_bucket)
        .withColumn("r", F.row_number().over(w2))
        .where(F.col("r") <= max_bucket)
        .select("pos", "key")
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    masks = (
        keys.join(eligible, ["pos", "key"], "left_semi")
        .groupBy("pos")
        .agg(F.expr("sum(shiftleft(1, i))").alias("mask"))
    )
    lap("eligible", eligible)

    # Candidate pairs: a text and every earlier eligible text sharing a key. Keys with
    # more than --hot texts are salted: their texts spread over `salts` groups, the
    # (at most MAX_BUCKET) eligible texts copied to each.
    counts = distinct_keys.groupBy("key").count()
    hot = counts.where(F.col("count") > args.hot).select("key", F.lit(True).alias("hot"))
    t_side = (
        distinct_keys.join(F.broadcast(hot), "key", "left")
        .withColumn(
            "salt",
            F.when(F.col("hot"), F.pmod(F.xxhash64("pos"), F.lit(salts))).otherwise(0),
        )
        .select("key", "salt", F.col("pos").alias("t"))
    )
    u_side = (
        eligible.join(F.broadcast(hot), "key", "left")
        .withColumn(
            "salt",
            F.explode(
                F.when(F.col("hot"), F.sequence(F.lit(0), F.lit(salts - 1))).otherwise(
                    F.array(F.lit(0))
                )
            ),
        )
        .select("key", "salt", F.col("pos").alias("u"))
    )
    pairs = (
        t_side.join(u_side, ["key", "salt"])
        .where(F.col("u") < F.col("t"))
        .select("t", "u")
        .distinct()
    )
    text_of = texts.select("pos", "text")
    pairs = pairs.join(
        text_of.select(F.col("pos").alias("t"), F.col("text").alias("text_t")), "t"
    ).join(text_of.select(F.col("pos").alias("u"), F.col("text").alias("text_u")), "u")
    verified = pairs.mapInArrow(verify_batches(args.threshold), "t long, u long").persist(
        StorageLevel.MEMORY_AND_DISK
    )
    lap("pairs", verified)

    comp, rounds = components(spark, verified.select(F.col("t").alias("a"), F.col("u").alias("b")), F)
    comp = comp.persist(StorageLevel.MEMORY_AND_DISK)
    lap("components", comp)

    # Clusters: texts without a verified pair are their own; each component is
    # clustered by the Rust clusterer in input order.
    # (A text none of whose keys is eligible still finds others, and may become a
    # representative: mask 0.)
    grouped = (
        texts.select("pos", "text")
        .join(comp.withColumnRenamed("node", "pos"), "pos")
        .join(masks, "pos", "left")
        .fillna(0, ["mask"])
    )
    clustered = grouped.groupBy("comp").applyInArrow(
        cluster_group(args.threshold), "pos long, cluster long, canonical boolean"
    )
    alone = texts.select("pos").join(comp.withColumnRenamed("node", "pos"), "pos", "left_anti")
    alone = alone.select("pos", F.col("pos").alias("cluster"), F.lit(True).alias("canonical"))
    clusters = (
        clustered.unionByName(alone)
        .join(texts.select("pos", "exact_key"), "pos")
        .select("exact_key", "cluster", "canonical", "pos")
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    lap("clusters", clusters)

    out = args.out
    mode = "overwrite"
    kept.orderBy("input", "seq").write.mode(mode).parquet(os.path.join(out, "sources"))
    captions.select("input", "seq", "ordinal", "start", "end", "exact_key").orderBy(
        "input", "seq", "ordinal"
    ).write.mode(mode).parquet(os.path.join(out, "occurrences"))
    texts.orderBy("pos").write.mode(mode).parquet(os.path.join(out, "records"))
    clusters.orderBy("pos").drop("pos").write.mode(mode).parquet(os.path.join(out, "clusters"))
    names = spark.createDataFrame(list(enumerate(files)), "input long, path string")
    rejected.join(names, "input").orderBy("input", "seq").write.mode(mode).parquet(
        os.path.join(out, "rejected")
    )
    lap("write")

    sizes = spark.sparkContext.parallelize(files, parts).map(os.path.getsize).sum()
    summary = {
        "files": len(files),
        "bytes": int(sizes),
        "sources": kept.count(),
        "rejected": rejected.count(),
        "occurrences": captions.count(),
        "texts": texts.count(),
        "candidate_pairs_verified": verified.count(),
        "components_rounds": rounds,
        "clusters": clusters.select("cluster").distinct().count(),
        "largest_component": (comp.groupBy("comp").count().agg(F.max("count")).first()[0] or 1),
        "master": spark.sparkContext.master,
        "default_parallelism": spark.sparkContext.defaultParallelism,
        "seconds": timings,
        "total_seconds": round(time.time() - t0, 3),
    }
    with open(os.path.join(out, "_cairn.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print(json.dumps(summary, indent=2))
    spark.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", help="files or directories, as for cairn ingest")
    ap.add_argument("--out", required=True, help="directory for the Parquet output")
    ap.add_argument("--master", help="Spark master (default: from spark-submit or local[*])")
    ap.add_argument("--partitions", type=int, help="read tasks (default: 2 x cores)")
    ap.add_argument("--shuffle-partitions", type=int, default=16,
                    help="partitions of each shuffle (spark.sql.shuffle.partitions)")
    ap.add_argument("--threshold", type=float, default=0.7, help="near-duplicate threshold")
    ap.add_argument("--hot", type=int, default=10000,
                    help="a key with more distinct texts than this is salted")
    ap.add_argument("--max-bucket", type=int, default=MAX_BUCKET,
                    help="distinct texts a key finds (as cairn ingest --max-bucket)")
    ap.add_argument("--salts", type=int, default=16, help="groups a hot key is spread over")
    run(ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

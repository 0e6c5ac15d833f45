"""cairn's batch stages on Apache Spark: from files (text, HTML, WARC, JSON Lines,
gzip/zstd) to Parquet that `cairn import` turns into an archive.

    python cairn_spark.py INPUT... --out DIR [--master local[2]] [--partitions N]

Every stage calls the `cairn` module (the Rust crates): nothing of reading, extraction
or deduplication is written again here. What Spark does is move data:

1. read: the input files, listed in `cairn ingest`'s order (`cairn.input_files`), are
   read, rendered and their captions found by `cairn.read_files` in `mapInArrow`
   tasks (records are not extracted there);
2. sources: a (uri, sha256) already seen earlier in the input is dropped with its
   captions, as `cairn ingest` skips it (a window over the keys alone; the list of
   dropped sources is broadcast when it is short);
3. exact duplicates: occurrences grouped by exact key; each distinct text keeps its
   first occurrence (position in the input, text, the fields its source carries);
4. records: each distinct text is extracted once (`cairn.extract` with those
   fields), as `cairn ingest` extracts only a text's first occurrence;
5. signatures: the hot keys (shared by more than --hot texts) are found from the
   keys of a sample of the texts; `cairn.key_sketches` gives each distinct text a
   row per LSH band key, with a 137-byte sketch of the text (not the text), made
   where the rows are shuffled to their key groups in step 7;
6. eligibility: a text may be found through a key when it is among the first 128
   distinct texts that have it (`cairn_dedup::Eligible`); for the hot keys, if any,
   a window finds them, on a salted partial top first so that a key shared by
   millions of texts is spread over many tasks;
7. candidate pairs: the rows of each key come together (hot keys split over salted
   groups, their eligible texts copied to each) and `cairn.candidate_pairs` checks
   each text against the earlier eligible ones with a bound on the sketches that is
   never wrong, finding the eligible texts of whole keys as it goes; the pairs it
   lets through are verified on the texts (`cairn.verify`);
8. connected components of the verified pairs (large-star / small-star; on the
   driver, by union-find, when there are no more than --driver-components pairs);
9. clusters: each component's texts, in input order, go through `cairn.cluster`,
   the single-machine clustering itself (representatives, no chaining), which gives
   the clusters one pass over the whole input gives (on the driver too when the
   components were found there).

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
MAX_BUCKET = 128


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
        ("embedded", pa.string()),
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
    "exact_key: binary, embedded: string>"
)


# Files read per call: output batches stay a few MB (a WARC file is read whole, though).
FILES_PER_CALL = 64


def read_batches(batches):
    """mapInArrow: rows of (input, path) -> the sources and captions they hold."""
    for whole in batches:
        for off in range(0, whole.num_rows, FILES_PER_CALL):
            yield from read_chunk(whole.slice(off, FILES_PER_CALL))


def read_chunk(b):
    """The sources and captions of a few files."""
    inputs = b.column("input")
    sources, captions = cairn.read_files(b.column("path"), extract=False)
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


def extract_batches(batches):
    """mapInArrow: (exact_key, pos, text, embedded) -> (exact_key, pos, text, record)."""
    for b in batches:
        record = cairn.extract(b.column("text"), b.column("embedded"))
        yield pa.RecordBatch.from_arrays(
            [b.column("exact_key"), b.column("pos"), b.column("text"), record],
            names=["exact_key", "pos", "text", "record"],
        )


KEYED = "key long, pos long, bits int, sketch binary"


def key_batches(batches):
    """mapInArrow: (pos, text) -> the distinct LSH keys of each text."""
    for b in batches:
        keys = cairn.key_sketches(b.column("pos"), b.column("text")).column("key")
        yield pa.RecordBatch.from_arrays([keys], names=["key"])


def sketch_batches(hot_set, hot):
    """mapInArrow: (pos, text) -> a row per distinct LSH key of each text (key, pos,
    bits, sketch): those of the keys in `hot_set` if `hot`, else the others."""

    def f(batches):
        for b in batches:
            rows = cairn.key_sketches(b.column("pos"), b.column("text"))
            if len(hot_set) or hot:
                is_hot = pc.is_in(rows.column("key"), value_set=hot_set)
                rows = rows.filter(is_hot if hot else pc.invert(is_hot))
            yield rows

    return f


def candidate_batches(max_bucket, threshold):
    """mapInArrow over a partition of key groups (each group whole in it, in no
    order): their candidate pairs (t, u, u's bits of the key)."""

    def f(batches):
        batches = list(batches)
        if not batches:
            return
        t = pa.Table.from_batches(batches).combine_chunks()
        if t.num_rows:
            yield cairn.candidate_pairs(
                *(t.column(c).chunk(0) for c in ("key", "salt", "pos", "bits", "role", "sketch")),
                max_bucket=max_bucket, threshold=threshold,
            )

    return f


def verify_batches(threshold):
    """mapInArrow: (t, u, bits, tt, ut) -> the rows (t, u, bits) whose texts verify."""

    def f(batches):
        for b in batches:
            ok = pc.is_valid(cairn.verify(b.column("tt"), b.column("ut"), threshold))
            yield pa.RecordBatch.from_arrays(
                [b.column(c).filter(ok) for c in ("t", "u", "bits")], names=["t", "u", "bits"]
            )

    return f


CLUSTERED = "pos long, cluster long, canonical boolean"


def driver_clusters(members, threshold):
    """`cluster_group` over each component of a table (pos, text, comp, mask), on the
    driver: one table (pos, cluster, canonical)."""
    f = cluster_group(threshold)
    members = members.sort_by([("comp", "ascending"), ("pos", "ascending")])
    comp = members.column("comp").to_pylist()
    out, start = [], 0
    for i in range(1, len(comp) + 1):
        if i == len(comp) or comp[i] != comp[start]:
            out.append(f(members.slice(start, i - start)))
            start = i
    if not out:
        return pa.table({"pos": pa.array([], pa.int64()), "cluster": pa.array([], pa.int64()),
                         "canonical": pa.array([], pa.bool_())})
    return pa.concat_tables(out)


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


def spark_components(spark, pairs, F):
    """What `driver_components` gives, in Spark: (pos, comp, mask) of the nodes of the
    verified pairs (t, u, bits); and the rounds of the iteration."""
    comp, rounds = components(spark, pairs.select(F.col("t").alias("a"), F.col("u").alias("b")), F)
    masks = pairs.groupBy(F.col("u").alias("pos")).agg(F.bit_or("bits").alias("mask"))
    nodes = comp.withColumnRenamed("node", "pos").join(masks, "pos", "left").fillna(0, ["mask"])
    return nodes.select("pos", "comp", "mask"), rounds


def driver_components(pairs):
    """Connected components of a few verified pairs (t, u, bits), on the driver: rows
    (pos, comp, mask) for the nodes that have a pair, with comp the component's
    smallest node (as `components` gives it) and mask the OR of the bits of the pairs
    where the node is u, the earlier text. Union-find, each root its set's smallest."""
    parent, mask = {}, {}

    def root(x):
        r = x
        while parent[r] != r:
            r = parent[r]
        while parent[x] != r:
            parent[x], x = r, parent[x]
        return r

    for t, u, bits in pairs:
        parent.setdefault(t, t)
        parent.setdefault(u, u)
        mask[u] = mask.get(u, 0) | bits
        rt, ru = root(t), root(u)
        if rt != ru:
            parent[max(rt, ru)] = min(rt, ru)
    return [(x, root(x), mask.get(x, 0)) for x in parent]


def stage_metrics(spark):
    """Per phase, from Spark's monitoring API: executor run and CPU seconds (the JVM's:
    the Python workers' CPU is not in it), and the bytes shuffled (written) and read
    from shuffles, in all and per stage that ran tasks; `None` when the API is not
    there."""
    import urllib.request

    sc = spark.sparkContext
    base = f"{sc.uiWebUrl}/api/v1/applications/{sc.applicationId}"
    try:
        jobs = json.load(urllib.request.urlopen(f"{base}/jobs"))
        stages = json.load(urllib.request.urlopen(f"{base}/stages"))
    except Exception:  # no UI (spark.ui.enabled=false) or not reachable
        return None
    by_stage = {}
    for st in stages:
        by_stage.setdefault(st["stageId"], []).append(st)
    out = {}
    for job in jobs:
        group = job.get("jobGroup") or "other"
        m = out.setdefault(group, {"executor_run_s": 0.0, "executor_cpu_s": 0.0,
                                   "shuffle_write_bytes": 0, "shuffle_read_bytes": 0,
                                   "stages": []})
        for sid in job.get("stageIds", []):
            for st in by_stage.pop(sid, []):
                if st.get("numCompleteTasks", 0):
                    m["stages"].append({
                        "stage": sid,
                        "tasks": st.get("numCompleteTasks", 0),
                        "run_s": round(st.get("executorRunTime", 0) / 1000, 3),
                        "jvm_cpu_s": round(st.get("executorCpuTime", 0) / 1e9, 3),
                        "shuffle_write_bytes": st.get("shuffleWriteBytes", 0),
                    })
                m["executor_run_s"] += st.get("executorRunTime", 0) / 1000
                m["executor_cpu_s"] += st.get("executorCpuTime", 0) / 1e9
                m["shuffle_write_bytes"] += st.get("shuffleWriteBytes", 0)
                m["shuffle_read_bytes"] += st.get("shuffleReadBytes", 0)
    for m in out.values():
        m["executor_run_s"] = round(m["executor_run_s"], 3)
        m["executor_cpu_s"] = round(m["executor_cpu_s"], 3)
    return out


def run(args):
    from pyspark.sql import SparkSession, Window
    from pyspark.sql import functions as F
    from pyspark import StorageLevel

    t0 = time.time()
    timings = {}

    phases = ["read", "sources", "exact", "extract", "signatures", "eligible", "pairs",
              "components", "clusters", "write"]

    def lap(name, df=None):
        """Ends a phase (forcing `df`), and names the Spark jobs of the next one."""
        if df is not None:
            df.count()
        timings[name] = round(time.time() - t0 - sum(timings.values()), 3)
        following = phases[phases.index(name) + 1:]
        if following:
            spark.sparkContext.setJobGroup(following[0], following[0])

    try:
        files = cairn.input_files(args.inputs)
    except ValueError as e:
        raise SystemExit(f"error: {e}")
    if not files:
        raise SystemExit("error: no input files")
    # Python workers run this interpreter (the one with pyspark and cairn) unless told
    # otherwise.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (
        SparkSession.builder.appName("cairn")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", args.driver_memory)
        .config("spark.executor.memory", args.executor_memory)
        .config("spark.sql.shuffle.partitions", str(args.shuffle_partitions))
    )
    for kv in args.conf:
        k, sep, v = kv.partition("=")
        if not sep:
            raise SystemExit(f"error: --conf {kv!r} is not KEY=VALUE")
        builder = builder.config(k, v)
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    spark.sparkContext.setJobGroup("read", "read")
    timings["startup"] = round(time.time() - t0, 3)
    max_bucket = args.max_bucket
    shuffle_parts = args.shuffle_partitions
    parts = args.partitions or max(2, spark.sparkContext.defaultParallelism * 2)
    salts = args.salts

    paths = spark.createDataFrame(
        list(enumerate(files)), "input long, path string"
    ).repartition(min(parts, len(files)), "input")
    read = paths.mapInArrow(read_batches, READ_DDL).persist(StorageLevel.MEMORY_AND_DISK)
    lap("read", read)

    # Sources: the first of each (uri, sha256) is stored, later copies are skipped with
    # their captions, as in `cairn ingest`. Decided on the keys alone: the copies (and
    # the inputs that could not be read) are listed, and when they are few
    # (--broadcast-rows) that list goes to every task, so that neither the sources'
    # bytes nor the captions move for it.
    sources = read.where(F.col("source").isNotNull()).select("input", "seq", "source.*")
    rejected = sources.where(F.col("error").isNotNull()).select("input", "seq", "error")
    ok = sources.where(F.col("error").isNull()).drop("error")
    first = Window.partitionBy("uri", "sha256").orderBy("input", "seq")
    copies = (
        ok.select("uri", "sha256", "input", "seq")
        .withColumn("r", F.row_number().over(first))
        .where(F.col("r") > 1)
        .select("input", "seq")
    )
    dropped = copies.unionByName(rejected.select("input", "seq")).persist(
        StorageLevel.MEMORY_AND_DISK
    )
    if dropped.count() <= args.broadcast_rows:
        dropped = F.broadcast(dropped)
    kept = ok.join(dropped, ["input", "seq"], "left_anti")
    # Positions in the input, as one number: (input, seq, ordinal) in mixed radix.
    spans = read.where(F.col("caption").isNotNull()).agg(
        F.max("seq").alias("s"), F.max("caption.ordinal").alias("o")
    ).first()
    seq_radix, ord_radix = (spans["s"] or 0) + 1, (spans["o"] or 0) + 1
    if len(files) * seq_radix * ord_radix >= 2**63:
        raise SystemExit("error: too many sources or captions per file to number them")
    captions = (
        read.where(F.col("caption").isNotNull())
        .select("input", "seq", "caption.*")
        .join(dropped, ["input", "seq"], "left_anti")
        .withColumn(
            "pos",
            (F.col("input") * seq_radix + F.col("seq")) * ord_radix + F.col("ordinal"),
        )
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    lap("sources", captions)

    # Distinct texts: the first occurrence's text, with the fields its source carries
    # (the first positions are found on the keys alone, then picked out where the
    # captions are).
    first_pos = captions.groupBy("exact_key").agg(F.min("pos").alias("pos"))
    distinct = (
        captions.join(first_pos, ["exact_key", "pos"], "left_semi")
        .select("exact_key", "pos", "text", "embedded")
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    lap("exact", distinct)

    # Records, one per distinct text (as `cairn ingest` extracts only a text's first
    # occurrence): what the read phase would have given that occurrence.
    texts = distinct.mapInArrow(
        extract_batches, "exact_key binary, pos long, text string, record string"
    ).persist(StorageLevel.MEMORY_AND_DISK)
    lap("extract", texts)
    distinct.unpersist()

    # Signatures: a row per distinct LSH key of each distinct text, with a sketch of
    # the text (137 bytes) in place of the text, made where the rows are shuffled to
    # their key groups (below), not kept. Only the hot keys (more than --hot texts)
    # are found first, from the keys of a sample of the texts (one in --hot-sample,
    # chosen by a hash of the position; 1: every text): a key is hot when its count
    # there, scaled up, is above --hot. Which keys are salted changes only how their
    # groups are spread over tasks, not the pairs found (`cairn_dedup::groups::Role`).
    text_rows = texts.select("pos", "text")
    sample = text_rows
    if args.hot_sample > 1:
        sample = text_rows.where(F.pmod(F.xxhash64("pos"), F.lit(args.hot_sample)) == 0)
    hot_keys = [
        r["key"]
        for r in sample.mapInArrow(key_batches, "key long").groupBy("key").count()
        .where(F.col("count") * max(1, args.hot_sample) > args.hot)
        .select("key").collect()
    ]
    lap("signatures")

    # Hot keys are split over `salts` groups: each text is checked in one of them,
    # against the key's eligible texts (its first MAX_BUCKET, found by two windows over
    # the hot keys' rows alone, the first per salt, so no task holds a hot key whole)
    # copied to every group. The hot keys' rows are made (and kept) apart, by a second
    # pass over the texts that keeps only those; without hot keys there is nothing to
    # do here.
    cols = ["key", "salt", "pos", "bits", "role", "sketch"]
    hot_set = pa.array(sorted(hot_keys), pa.int64())
    whole = text_rows.mapInArrow(sketch_batches(hot_set, hot=False), KEYED)
    if hot_keys:
        hot_rows = (
            text_rows.mapInArrow(sketch_batches(hot_set, hot=True), KEYED)
            .withColumn("salt", F.pmod(F.xxhash64("pos"), F.lit(salts)).cast("long"))
            .persist(StorageLevel.MEMORY_AND_DISK)
        )
        w1 = Window.partitionBy("key", "salt").orderBy("pos")
        w2 = Window.partitionBy("key").orderBy("pos")
        hot_eligible = (
            hot_rows.withColumn("r", F.row_number().over(w1))
            .where(F.col("r") <= max_bucket)
            .withColumn("r", F.row_number().over(w2))
            .where(F.col("r") <= max_bucket)
            .drop("r", "salt")
            .persist(StorageLevel.MEMORY_AND_DISK)
        )
        lap("eligible", hot_eligible)
    else:
        lap("eligible")

    # Candidate pairs: each key's group in one task (no sort: the Rust code groups a
    # partition's rows), every text against the earlier eligible ones whose sketches
    # may match; those are verified on the texts. A whole key's eligible texts are
    # found in its group.
    groups = whole.select(
        "key", F.lit(0).cast("long").alias("salt"), "pos", "bits", F.lit(0).alias("role"),
        "sketch",
    )
    if hot_keys:
        groups = groups.unionByName(
            hot_rows.select(*cols[:4], F.lit(1).alias("role"), "sketch")
        ).unionByName(
            hot_eligible.select(
                "key",
                F.explode(F.sequence(F.lit(0).cast("long"), F.lit(salts - 1).cast("long")))
                .alias("salt"),
                "pos", "bits", F.lit(2).alias("role"), "sketch",
            )
        )
    # A pair found under several keys is verified once; a text's eligible keys are
    # those it brought to the pairs it verifies in as the earlier text (all that
    # clustering needs of them: see `cairn_dedup::groups::Candidate`).
    candidates = (
        groups.repartition(shuffle_parts, "key", "salt")
        .mapInArrow(candidate_batches(max_bucket, args.threshold), "t long, u long, bits int")
        .groupBy("t", "u")
        .agg(F.bit_or("bits").alias("bits"))
    )
    text_of = texts.select("pos", "text")
    verified = (
        candidates.join(text_of.withColumnRenamed("pos", "t").withColumnRenamed("text", "tt"), "t")
        .join(text_of.withColumnRenamed("pos", "u").withColumnRenamed("text", "ut"), "u")
        .select("t", "u", "bits", "tt", "ut")
        .mapInArrow(verify_batches(args.threshold), "t long, u long, bits int")
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    n_pairs = verified.count()
    lap("pairs")

    # Components with each node's mask (its eligible keys: the OR of the bits of the
    # pairs where it is the earlier text, u), then clusters: each component's texts in
    # input order through the Rust clusterer. (A text none of whose keys is eligible
    # still finds others, and may become a representative: mask 0.) Texts without a
    # verified pair are their own cluster.
    # With few verified pairs (--driver-components) both are done on the driver, with
    # the components' texts brought there: Spark's jobs would cost more than the work.
    if n_pairs <= args.driver_components:
        nodes = spark.createDataFrame(
            driver_components(verified.collect()), "pos long, comp long, mask int"
        )
        rounds = 0
        lap("components")
        members = texts.select("pos", "text").join(F.broadcast(nodes), "pos").toArrow()
        clustered = F.broadcast(spark.createDataFrame(driver_clusters(members, args.threshold)))
    else:
        nodes, rounds = spark_components(spark, verified, F)
        nodes = nodes.persist(StorageLevel.MEMORY_AND_DISK)
        lap("components", nodes)
        clustered = (
            texts.select("pos", "text")
            .join(nodes, "pos")
            .groupBy("comp")
            .applyInArrow(cluster_group(args.threshold), CLUSTERED)
        )
    # Every other text is its own cluster's canonical text (one join, with the
    # components' texts only on its other side).
    clusters = (
        texts.select("pos", "exact_key")
        .join(clustered, "pos", "left")
        .select(
            "exact_key",
            F.coalesce("cluster", "pos").alias("cluster"),
            F.coalesce("canonical", F.lit(True)).alias("canonical"),
            "pos",
        )
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

    spark.sparkContext.setJobGroup("summary", "summary")
    sizes = sum(os.path.getsize(f) for f in files)
    summary = {
        "files": len(files),
        "bytes": int(sizes),
        "sources": kept.count(),
        "sources_skipped": copies.count(),
        "rejected": rejected.count(),
        "occurrences": captions.count(),
        "texts": texts.count(),
        "hot_keys": len(hot_keys),
        "candidate_pairs_verified": verified.count(),
        "components_rounds": rounds,
        "clusters": clusters.select("cluster").distinct().count(),
        "largest_component": (nodes.groupBy("comp").count().agg(F.max("count")).first()[0] or 1),
        "master": spark.sparkContext.master,
        "default_parallelism": spark.sparkContext.defaultParallelism,
        "seconds": timings,
        "stages": stage_metrics(spark),
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
    ap.add_argument("--driver-memory", default="4g", help="spark.driver.memory")
    ap.add_argument("--executor-memory", default="4g", help="spark.executor.memory")
    ap.add_argument("--shuffle-partitions", type=int, default=16,
                    help="partitions of each shuffle (spark.sql.shuffle.partitions)")
    ap.add_argument("--threshold", type=float, default=0.7, help="near-duplicate threshold")
    ap.add_argument("--hot", type=int, default=10000,
                    help="a key with more distinct texts than this is salted")
    ap.add_argument("--hot-sample", type=int, default=16,
                    help="hot keys are counted on one text in this many (1: all)")
    ap.add_argument("--max-bucket", type=int, default=MAX_BUCKET,
                    help="distinct texts a key finds (as cairn ingest --max-bucket)")
    ap.add_argument("--salts", type=int, default=16, help="groups a hot key is spread over")
    ap.add_argument("--broadcast-rows", type=int, default=2_000_000,
                    help="skipped sources up to which their list is sent to every task "
                         "instead of shuffling the sources and captions (0: never)")
    ap.add_argument("--driver-components", type=int, default=100_000,
                    help="verified pairs up to which components and clusters are found on "
                         "the driver (0: always in Spark)")
    ap.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                    help="a Spark setting (repeatable)")
    run(ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

"""cairn's batch stages on Ray Data: the files read, their captions extracted and
signed in parallel with `map_batches`, written as Parquet.

    python cairn_ray.py INPUT... --out DIR [--address auto]

A short example of the `cairn` module on another engine than Spark: it writes one row
per caption occurrence (source uri, span, text, exact key, record JSON, LSH band keys).
The clustering that equals `cairn ingest`'s is the Spark job's (`spark/cairn_spark.py`);
on Ray the same steps would be written with `groupby(...).map_groups`.
"""

import argparse
import sys
import time

import pyarrow as pa
import pyarrow.compute as pc

import cairn


def read(batch: pa.Table) -> pa.Table:
    """A batch of paths -> their caption occurrences with records and signatures."""
    sources, captions = cairn.read_files(batch.column("path").combine_chunks())
    uris = pc.take(sources.column("uri"), _source_row(sources, captions))
    sigs = cairn.signatures(captions.column("text"), signed=True)
    return pa.table(
        {
            "uri": uris,
            "ordinal": captions.column("ordinal"),
            "start": captions.column("start"),
            "end": captions.column("end"),
            "text": captions.column("text"),
            "exact_key": captions.column("exact_key"),
            "record": captions.column("record"),
            "band_keys": sigs.column("band_keys"),
        }
    )


def _source_row(sources, captions):
    """For each caption, the row of its source in `sources` (same input and seq)."""
    where = {
        (i, s): n
        for n, (i, s) in enumerate(
            zip(sources.column("input").to_pylist(), sources.column("seq").to_pylist())
        )
    }
    return pa.array(
        [
            where[(i, s)]
            for i, s in zip(captions.column("input").to_pylist(), captions.column("seq").to_pylist())
        ],
        pa.int64(),
    )


def main(argv=None):
    import ray

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--address", help="Ray cluster address (default: start one here)")
    ap.add_argument("--files-per-batch", type=int, default=256)
    args = ap.parse_args(argv)

    t0 = time.time()
    ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    files = cairn.input_files(args.inputs)
    ds = ray.data.from_items([{"path": p} for p in files])
    captions = ds.map_batches(read, batch_format="pyarrow", batch_size=args.files_per_batch)
    captions.write_parquet(args.out)
    n = ray.data.read_parquet(args.out).count()
    print(f"ray: {len(files)} files, {n} caption occurrences in {time.time() - t0:.1f} s -> {args.out}")
    ray.shutdown()


if __name__ == "__main__":
    sys.exit(main())

"""The Python module gives what the cairn binary gives on the same pages.

Run after `maturin develop` (or `pip install ./cairn-py`) in a virtualenv with pyarrow:

    CAIRN_BIN=target/debug/cairn python cairn-py/tests/test_stages.py

Pages are written by `cairn generate` (text and HTML); for each page, the records the
module extracts (segment or segment_html, then extract) must equal those `cairn extract`
prints for the file, field for field and in order.
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

import pyarrow as pa

import cairn

BIN = os.environ.get("CAIRN_BIN", "target/debug/cairn")


def run(*args):
    return subprocess.run([BIN, *args], check=True, capture_output=True, text=True).stdout


def cli_records(path):
    return [json.loads(line) for line in run("extract", str(path)).splitlines() if line.strip()]


def module_records(path):
    page = path.read_text(encoding="utf-8")
    if path.suffix == ".html":
        segments, texts = cairn.segment_html(pa.array([page]))
        assert len(texts) == 1
    else:
        segments = cairn.segment(pa.array([page]))
    assert segments.column("page").to_pylist() == [0] * segments.num_rows
    assert segments.column("ordinal").to_pylist() == list(range(segments.num_rows))
    records = cairn.extract(segments.column("text"))
    return [json.loads(r) for r in records.to_pylist()]


def test_records_equal_the_binary(tmp):
    checked = 0
    for fmt in ("text", "html"):
        out = tmp / fmt
        run("generate", "--pages", "12", "--format", fmt, "--seed", "7", str(out))
        for path in sorted(out.rglob("page-*")):
            want = cli_records(path)
            got = module_records(path)
            assert want, f"{path}: the binary found no captions"
            assert got == want, f"{path}: records differ"
            checked += len(want)
    assert checked > 100, checked
    print(f"records equal the binary's: {checked} captions from 24 pages")


# A caption, a cut-short copy of it, and another photograph.
FULL = ("Residents inspect a damaged building after an air strike in the rebel-held "
        "Bab al-Nairab neighbourhood of Aleppo, Syria, on November 6, 2016. REUTERS/Abdalrhman Ismail")
CUT = FULL[:90] + "...more"
OTHER = ("A man walks past shops in the centre of Idlib, Syria, on March 2, 2017, "
         "after the market reopened. AFP PHOTO/Omar Haj Kadour")


def test_spans_point_at_the_captions():
    page = "First caption in Aleppo, Syria.\n\nSecond caption in Kyiv, Ukraine.\n"
    b = cairn.segment(pa.array([page, None, ""]))
    assert b.num_rows == 2
    for start, end, text in zip(b.column("start").to_pylist(), b.column("end").to_pylist(), b.column("text").to_pylist()):
        assert page.encode()[start:end].decode() == text


def test_signatures_and_verification():
    full, cut, other = FULL, CUT, OTHER
    sig = cairn.signatures(pa.array([full, full, cut, other, None]))
    keys = sig.column("exact_key").to_pylist()
    bands = sig.column("band_keys").to_pylist()
    assert keys[0] == keys[1] and keys[0] != keys[2] and keys[4] is None
    assert len(keys[0]) == 16
    # A cut-short copy shares a band key with its original (it is a candidate pair).
    assert set(bands[0]) & set(bands[2])
    scores = cairn.verify(pa.array([full, full, cut]), pa.array([cut, other, None])).to_pylist()
    assert scores[0] is not None and scores[0] >= 0.7, scores
    assert scores[1] is None and scores[2] is None, scores
    try:
        cairn.verify(pa.array([full]), pa.array([full, full]))
    except ValueError as e:
        assert "rows" in str(e)
    else:
        raise AssertionError("unequal lengths must be refused")
    try:
        cairn.extract(pa.array([1, 2]))
    except ValueError as e:
        assert "string" in str(e)
    else:
        raise AssertionError("a non-string array must be refused")


def test_key_groups():
    full, cut, other = FULL, CUT, OTHER
    rows = cairn.key_sketches(pa.array([10, 20, 30, 40]), pa.array([full, None, cut, other]))
    assert rows.schema.names == ["key", "pos", "bits", "sketch"]
    pos = rows.column("pos").to_pylist()
    assert set(pos) == {10, 30, 40}  # a null text brings no row
    keys = rows.column("key").to_pylist()
    bits = rows.column("bits").to_pylist()
    # Each of a text's band keys is one row's bit, and a row per distinct key.
    bands = cairn.signatures(pa.array([full, cut, other])).column("band_keys").to_pylist()
    for p, b in zip((10, 30, 40), bands):
        mine = [(k % 2**64, m) for k, m, q in zip(keys, bits, pos) if q == p]
        assert sorted(k for k, _ in mine) == sorted(set(b))
        for k, m in mine:
            assert m == sum(1 << i for i, x in enumerate(b) if x == k)
    # All rows under one key (as a group of a whole key): the cut copy is a candidate
    # of its original, the other photograph of neither.
    n = rows.num_rows
    one = pa.array([0] * n, pa.int64())
    c = cairn.candidate_pairs(one, one, rows.column("pos"), rows.column("bits"),
                              pa.array([0] * n, pa.int8()), rows.column("sketch"))
    pairs = set(zip(c.column("t").to_pylist(), c.column("u").to_pylist()))
    assert pairs == {(30, 10)}, pairs
    # With a limit of 0 nothing is eligible.
    c = cairn.candidate_pairs(one, one, rows.column("pos"), rows.column("bits"),
                              pa.array([0] * n, pa.int8()), rows.column("sketch"), max_bucket=0)
    assert c.num_rows == 0
    for bad, what in [
        (dict(role=pa.array([3] * n, pa.int8())), "role 3"),
        (dict(sketch=pa.array([b"x"] * n, pa.binary())), "sketch"),
    ]:
        args = dict(key=one, salt=one, pos=rows.column("pos"), bits=rows.column("bits"),
                    role=pa.array([0] * n, pa.int8()), sketch=rows.column("sketch"))
        args.update(bad)
        try:
            cairn.candidate_pairs(**args)
        except ValueError as e:
            assert what in str(e), e
        else:
            raise AssertionError(f"{what} must be refused")


def test_records_of_distinct_texts(tmp):
    """read_files without records, then extract of each distinct text with the fields
    of its first occurrence's source, gives the records read_files gives there (the
    Spark job's way, as `cairn ingest` extracts only first occurrences), also for a
    JSON Lines source whose date field overrides the text's."""
    out = tmp / "distinct"
    run("generate", "--pages", "10", "--format", "mixed", "--seed", "9", str(out))
    pages = sorted(str(p) for p in out.rglob("page-*"))
    first = cairn.read_files(pa.array(pages[:1]))[1].column("text").to_pylist()
    jl = tmp / "export.jsonl"
    jl.write_text("".join(json.dumps({"caption": t, "uri": f"https://example.org/{i}",
                                      "date": "2011-03-15"}) + "\n"
                          for i, t in enumerate(first[:3])), encoding="utf-8")
    files = pa.array([str(jl)] + pages)
    _, whole = cairn.read_files(files)
    _, bare = cairn.read_files(files, extract=False)
    assert bare.column("record").null_count == bare.num_rows
    for c in ("input", "seq", "ordinal", "start", "end", "text", "exact_key", "embedded"):
        assert bare.column(c).to_pylist() == whole.column(c).to_pylist(), c
    embedded = bare.column("embedded").to_pylist()
    assert embedded[:3] != [None] * 3 and embedded[3:] == [None] * (len(embedded) - 3)
    firsts = {}
    for i, k in enumerate(bare.column("exact_key").to_pylist()):
        firsts.setdefault(k, i)
    rows = sorted(firsts.values())
    assert len(rows) < bare.num_rows, "the pages repeat captions"
    got = cairn.extract(pa.array([bare.column("text")[i].as_py() for i in rows]),
                        pa.array([embedded[i] for i in rows], pa.string())).to_pylist()
    want = [whole.column("record")[i].as_py() for i in rows]
    assert got == want
    dated = [json.loads(r) for r in got[:3]]
    assert all(d["date"]["value"] == "2011-03-15" for d in dated), dated
    try:
        cairn.extract(pa.array(["x"]), pa.array(["{not json"]))
    except ValueError as e:
        assert "row 0" in str(e), e
    else:
        raise AssertionError("malformed embedded fields must be refused")
    print(f"records of distinct texts: {len(rows)} of {bare.num_rows} occurrences extracted")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        test_records_equal_the_binary(pathlib.Path(d))
        test_records_of_distinct_texts(pathlib.Path(d))
    test_spans_point_at_the_captions()
    test_signatures_and_verification()
    test_key_groups()
    print("cairn-py: 5 tests passed")
    sys.exit(0)

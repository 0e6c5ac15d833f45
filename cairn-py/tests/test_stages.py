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


def test_spans_point_at_the_captions():
    page = "First caption in Aleppo, Syria.\n\nSecond caption in Kyiv, Ukraine.\n"
    b = cairn.segment(pa.array([page, None, ""]))
    assert b.num_rows == 2
    for start, end, text in zip(b.column("start").to_pylist(), b.column("end").to_pylist(), b.column("text").to_pylist()):
        assert page.encode()[start:end].decode() == text


def test_signatures_and_verification():
    full = ("Residents inspect a damaged building after an air strike in the rebel-held "
            "Bab al-Nairab neighbourhood of Aleppo, Syria, on November 6, 2016. REUTERS/Abdalrhman Ismail")
    cut = full[:90] + "...more"
    other = ("A man walks past shops in the centre of Idlib, Syria, on March 2, 2017, "
             "after the market reopened. AFP PHOTO/Omar Haj Kadour")
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


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        test_records_equal_the_binary(pathlib.Path(d))
    test_spans_point_at_the_captions()
    test_signatures_and_verification()
    print("cairn-py: 3 tests passed")
    sys.exit(0)

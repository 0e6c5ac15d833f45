#!/usr/bin/env python3
"""Near-duplicate clustering with a PyPI MinHash-LSH library, the way its users would do it:
word 3-shingles of the lowercased caption, MinHash, LSH query then insert, a caption joins
the cluster of the first indexed caption the LSH returns (verified by the MinHash
estimate for datasketch and rensa; gaoya verifies inside its query), else starts one.

Usage: baseline_dedup.py ENGINE CAPTIONS_FILE OUT_JSONL    (ENGINE: datasketch, gaoya, rensa)
Prints one JSON line: engine, captions, seconds (clustering only, after reading input).
"""
import json, re, sys, time

THRESHOLD = float(__import__("os").environ.get("BASELINE_THRESHOLD", "0.5"))
NUM_PERM = 128


def shingles(text, k=3):
    w = re.findall(r"\w+", text.lower())
    if len(w) < k:
        return {" ".join(w)} if w else {""}
    return {" ".join(w[i:i + k]) for i in range(len(w) - k + 1)}


def run_datasketch(caps):
    from datasketch import MinHash, MinHashLSH
    lsh = MinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM)
    clusters, sigs = [], []
    for i, c in enumerate(caps):
        m = MinHash(num_perm=NUM_PERM)
        m.update_batch([s.encode() for s in shingles(c)])
        hits = [h for h in lsh.query(m) if sigs[h].jaccard(m) >= THRESHOLD]
        clusters.append(clusters[min(hits)] if hits else i)
        sigs.append(m)
        lsh.insert(i, m)
    return clusters


def run_rensa(caps):
    from rensa import RMinHash, RMinHashLSH
    lsh = RMinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM, num_bands=16)
    clusters, sigs = [], []
    for i, c in enumerate(caps):
        m = RMinHash(num_perm=NUM_PERM, seed=42)
        m.update(list(shingles(c)))
        hits = [h for h in lsh.query(m) if sigs[h].jaccard(m) >= THRESHOLD]
        clusters.append(clusters[min(hits)] if hits else i)
        sigs.append(m)
        lsh.insert(i, m)
    return clusters


def run_gaoya(caps):
    from gaoya.minhash import MinHashStringIndex
    index = MinHashStringIndex(hash_size=32, jaccard_threshold=THRESHOLD, num_bands=16, band_size=8,
                               analyzer="word", lowercase=True, ngram_range=(3, 3))
    clusters = []
    for i, c in enumerate(caps):
        hits = index.query(c)
        clusters.append(clusters[min(hits)] if hits else i)
        index.insert_document(i, c)
    return clusters


def main():
    engine, path, out = sys.argv[1:4]
    text = open(path, encoding="utf-8").read()
    caps = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]
    t = time.perf_counter()
    clusters = {"datasketch": run_datasketch, "rensa": run_rensa, "gaoya": run_gaoya}[engine](caps)
    secs = time.perf_counter() - t
    with open(out, "w") as f:
        for c in clusters:
            f.write(json.dumps({"cluster": c}) + "\n")
    print(json.dumps({"engine": engine, "captions": len(caps), "seconds": round(secs, 3)}))


if __name__ == "__main__":
    main()

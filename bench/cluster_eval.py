#!/usr/bin/env python3
"""Pairwise precision, recall and adjusted Rand index of a clustering against ground truth.

Usage: cluster_eval.py TRUTH_TXT PRED_JSONL   (one photograph number a line; {"cluster": N} a line)
"""
import json, sys
from collections import Counter
from math import comb
truth = [int(l) for l in open(sys.argv[1])]
pred = [json.loads(l)["cluster"] for l in open(sys.argv[2])]
assert len(truth) == len(pred), (len(truth), len(pred))
n = len(truth)
cont = Counter(zip(truth, pred))
tp = sum(comb(v, 2) for v in cont.values())
pp = sum(comb(v, 2) for v in Counter(pred).values())
tt = sum(comb(v, 2) for v in Counter(truth).values())
prec = tp / pp if pp else 1.0
rec = tp / tt if tt else 1.0
exp = pp * tt / comb(n, 2)
ari = (tp - exp) / ((pp + tt) / 2 - exp)
print(json.dumps({"precision": round(prec, 5), "recall": round(rec, 5), "ari": round(ari, 5), "pairs_true": tt, "pairs_pred": pp}))

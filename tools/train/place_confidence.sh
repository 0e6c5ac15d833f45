#!/usr/bin/env bash
# Fits the location confidence model on the annotated corpora beside the repository and
# writes crates/cairn-extract/data/place_confidence.tsv. Deterministic: the same corpora
# and extractor give the same file. Prints the fit's and the leave-one-outlet-out figures.
set -euo pipefail
cd "$(dirname "$0")/../.."
shared="${CAIRN_SHARED:-../shared}"
cargo run --release -q -p cairn-extract --example train_place_confidence -- \
  "$shared" crates/cairn-extract/data/place_confidence.tsv

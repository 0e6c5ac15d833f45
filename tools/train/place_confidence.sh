#!/usr/bin/env bash
# Fits the location confidence model on the annotated corpora beside the repository and
# writes crates/cairn-extract/data/place_confidence.tsv. Deterministic: the same corpora
# and extractor give the same file. Prints the fit's and the leave-one-outlet-out figures.
# More gold files (a team's `cairn export --format gold`) may follow as arguments: their
# verified and corrected records train the model too.
#
#   tools/train/place_confidence.sh [GOLD.jsonl...]
set -euo pipefail
extra=()
for f in "$@"; do extra+=("$(realpath "$f")"); done
cd "$(dirname "$0")/../.."
shared="${CAIRN_SHARED:-../shared}"
cargo run --release -q -p cairn-extract --example train_place_confidence -- \
  "$shared" crates/cairn-extract/data/place_confidence.tsv ${extra[@]+"${extra[@]}"}

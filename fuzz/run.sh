#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 20) and prints one line per target
# with the executions libFuzzer reports. Any crash fails the run; its input is kept in
# fuzz/artifacts/TARGET/ (commit it under fuzz/regressions/TARGET/ once fixed: the
# regression test replays those files). A target with a dictionary in dicts/TARGET.dict
# (tokens libFuzzer splices into its inputs) is run with it.
#
#   fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-20}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
cargo fuzz build -s none -O
total=0
for t in $(cargo fuzz list); do
  mkdir -p "corpus/$t"
  seeds=()
  [ -d "regressions/$t" ] && seeds=("regressions/$t")
  log=$(mktemp)
  dict=()
  [ -f "dicts/$t.dict" ] && dict=("-dict=dicts/$t.dict")
  if ! cargo fuzz run -s none -O "$t" "corpus/$t" "${seeds[@]}" -- -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 "${dict[@]}" >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $t FAILED"
    exit 1
  fi
  runs=$(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' | tail -1)
  echo "fuzz: $t ${runs:-0} executions in ${secs} s, no failure"
  total=$((total + ${runs:-0}))
  rm -f "$log"
done
echo "fuzz: $total executions in all"

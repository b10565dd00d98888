#!/usr/bin/env bash
# The long fuzzing campaign (not part of CI): builds like run.sh, then runs every target for
# FUZZ_RUNS executions each (default 10 million), in sequence, keeping the work corpora in
# build-fuzz/work so a campaign resumes where the last stopped. Prints each target's execution
# count and result; exits non-zero on the first crash (the input is in build-fuzz/artifacts/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-fuzz"
runs="${FUZZ_RUNS:-10000000}"
FUZZ_SECONDS=1 bash "$root/fuzz/run.sh" >/dev/null  # builds the targets and the seeds
for t in fuzz_exported_program:json fuzz_torch_archive:archive fuzz_open_document:document fuzz_etdump:etdump; do
  target=${t%%:*} seeds=${t##*:}
  mkdir -p "$build/work/$seeds"
  echo "fuzz: $target for $runs executions" >&2
  "$build/fuzz/$target" "$build/work/$seeds" "$build/seeds/$seeds" -runs="$runs" -max_len=262144 \
    -rss_limit_mb=2048 -timeout=20 -artifact_prefix="$build/artifacts/$target-" -print_final_stats=1 \
    2>&1 | grep -E "stat::number_of_executed_units|ERROR|SUMMARY" || true
  if ls "$build/artifacts/$target-"* >/dev/null 2>&1; then
    echo "fuzz: $target found a failing input: $(ls "$build/artifacts/$target-"*)" >&2
    exit 1
  fi
done
echo "fuzz: $runs executions per target, no crash found"

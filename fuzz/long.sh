#!/usr/bin/env bash
# The long fuzzing campaign (not part of CI): builds like run.sh, then runs every target until it
# has FUZZ_RUNS executions (default 10 million), in slices of FUZZ_SLICE seconds (default 1200)
# with a fresh random seed each, each slice to the target furthest behind. After every slice
# the executions it made are added to a ledger, build-san/campaign.tsv (target, executions,
# slices, seconds), and the work corpora stay in
# build-san/work, so a campaign that is stopped (a session ending, a reboot) resumes where the
# last slice ended and the ledger's counts are what has really run. `fuzz/long.sh --status`
# prints the ledger. Exits non-zero on the first crash, leak, timeout or out-of-memory input
# (the input is in build-san/artifacts/), or input that is slow in CPU time when run again
# (one that was slow only while the machine was busy goes to build-san/slow-under-load/).
#   FUZZ_RUNS     executions per target (default 10000000)
#   FUZZ_SLICE    seconds per slice (default 1200)
#   FUZZ_WORKERS  fuzzers run at once (default 1): each worker takes the unclaimed target
#                 furthest behind, or, when every unfinished target is held, joins the one
#                 furthest behind (libFuzzer processes share a corpus folder, reloading what
#                 the others add), so two workers on two idle cores double the campaign's
#                 pace to its end; the ledger is updated under a lock.
#   FUZZ_TARGETS  only these targets (names as below, space-separated; default all)
# On a machine that also builds, start it at low priority for the scheduler's autogroup too
# (plain nice does not reach across sessions): `echo 19 > /proc/$PID/autogroup`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-san"  # run.sh's build (scripts/lib.sh: ETVIZ_SANITIZER_DIR)
runs="${FUZZ_RUNS:-10000000}"
slice="${FUZZ_SLICE:-1200}"
ledger="$build/campaign.tsv"
workers="${FUZZ_WORKERS:-1}"
claims="$build/claims"
targets="fuzz_exported_program:json fuzz_torch_archive:archive fuzz_open_document:document fuzz_etdump:etdump fuzz_tosa:tosa fuzz_model_explorer:model_explorer fuzz_trace:trace fuzz_side_files:side_files fuzz_layout:layout"
if [ -n "${FUZZ_TARGETS:-}" ]; then
  chosen=""
  for name in $FUZZ_TARGETS; do
    match=""
    for t in $targets; do [ "${t%%:*}" = "$name" ] && match=$t; done
    [ -z "$match" ] && { echo "fuzz: unknown target '$name'; targets: $(for t in $targets; do printf '%s ' "${t%%:*}"; done)" >&2; exit 2; }
    chosen="$chosen $match"
  done
  targets=$chosen
fi

ledger_field() {  # target column -> value (0 when the target has no row yet)
  [ -f "$ledger" ] && awk -F'\t' -v t="$1" -v c="$2" '$1 == t { print $c; found = 1 } END { if (!found) print 0 }' "$ledger" || echo 0
}
ledger_add() {  # target executions seconds; under the ledger's lock (workers share it)
  exec 9>"$ledger.lock"
  flock 9
  local execs slices secs
  execs=$(( $(ledger_field "$1" 2) + $2 ))
  slices=$(( $(ledger_field "$1" 3) + 1 ))
  secs=$(( $(ledger_field "$1" 4) + $3 ))
  { [ -f "$ledger" ] && awk -F'\t' -v t="$1" '$1 != t' "$ledger"; printf '%s\t%s\t%s\t%s\n' "$1" "$execs" "$slices" "$secs"; } \
    >"$ledger.tmp"
  mv "$ledger.tmp" "$ledger"
  flock -u 9
}
status() {
  printf '%-24s %14s %8s %10s\n' target executions slices seconds
  for t in $targets; do
    local target=${t%%:*}
    printf '%-24s %14s %8s %10s\n' "$target" "$(ledger_field "$target" 2)" "$(ledger_field "$target" 3)" "$(ledger_field "$target" 4)"
  done
}
if [ "${1:-}" = "--status" ]; then
  status
  exit 0
fi

FUZZ_SECONDS=1 bash "$root/fuzz/run.sh" >/dev/null 2>&1  # builds the targets and the seeds
# Each slice goes to the target with the fewest executions so far (among those no other worker
# holds, while there are), so every target advances together and a campaign cut short has
# covered all of them, not the first one deeply. A worker holds a target by creating its claim
# directory, claims/TARGET.WORKER (atomic); two that claim the same free target at once both
# let go and look again after different pauses.
worker() {  # worker number
  local id=$1
  while :; do
    local target="" seeds="" done_runs="" t n pass
    # First a target no worker holds; failing that, the unfinished one furthest behind.
    for pass in free shared; do
      for t in $targets; do
        [ "$pass" = free ] && ls -d "$claims/${t%%:*}."* >/dev/null 2>&1 && continue
        n=$(ledger_field "${t%%:*}" 2)
        if [ "$n" -lt "$runs" ] && { [ -z "$done_runs" ] || [ "$n" -lt "$done_runs" ]; }; then
          target=${t%%:*} seeds=${t##*:} done_runs=$n
        fi
      done
      [ -n "$target" ] && break
    done
    [ -z "$target" ] && return 0
    # Another worker took it first (a free target is held by one worker only).
    if ! mkdir "$claims/$target.$id" 2>/dev/null ||
      { [ "$pass" = free ] && [ "$(ls -d "$claims/$target."* | wc -l)" -gt 1 ]; }; then
      rmdir "$claims/$target.$id" 2>/dev/null || true
      sleep "$id"
      continue
    fi
    mkdir -p "$build/work/$seeds"
    echo "fuzz: $target: $done_runs of $runs executions; next slice ${slice}s (worker $id)" >&2
    local started log status_code=0 executed
    started=$(date +%s)
    log="$build/slice-$target-$id.log"
    "$build/fuzz/$target" "$build/work/$seeds" "$build/seeds/$seeds" -runs=$(( runs - done_runs )) \
      -max_total_time="$slice" -max_len=262144 -rss_limit_mb=2048 -timeout=20 \
      -artifact_prefix="$build/artifacts/$target-" -print_final_stats=1 >"$log" 2>&1 || status_code=$?
    executed=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    ledger_add "$target" "${executed:-0}" $(( $(date +%s) - started ))
    rmdir "$claims/$target.$id"
    # libFuzzer also keeps inputs that took over 10 s of wall time (slow-unit-*) without
    # failing, and stops on one over -timeout (timeout-*; wall time too). On a machine that
    # builds while the campaign runs at low priority, that is often the scheduler, not the
    # input: each is run again and its CPU time measured (the wall time of the re-run would be
    # starved the same way), and one that needs under 2 s of CPU is set aside in
    # build-san/slow-under-load/ (noted on stderr) instead of stopping the campaign. One that
    # is slow in CPU time is a finding.
    for unit in "$build/artifacts/$target-slow-unit-"* "$build/artifacts/$target-timeout-"*; do
      [ -e "$unit" ] || continue
      local cpu_file cpu rerun=0
      cpu_file="$build/slice-$target-$id.cpu"
      # bash's own `time` (user and system CPU of the run, children included).
      { TIMEFORMAT='%3U %3S'; time timeout 20 "$build/fuzz/$target" "$unit" >/dev/null 2>&1 || rerun=$?; } 2>"$cpu_file"
      if [ "$rerun" -eq 0 ]; then
        cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$cpu_file")
        if [ "$cpu" -lt 2000 ]; then
          mkdir -p "$build/slow-under-load"
          mv "$unit" "$build/slow-under-load/"
          echo "fuzz: $target: $(basename "$unit") needs ${cpu} ms of CPU: slow only under load, set aside" >&2
        fi
      fi
    done
    # A slice stopped by a timeout that was set aside above is not a finding.
    if [ "$status_code" -ne 0 ] && grep -q "SUMMARY: libFuzzer: timeout" "$log" &&
      ! ls "$build/artifacts/$target-"* >/dev/null 2>&1; then
      status_code=0
    fi
    if [ "$status_code" -ne 0 ] || ls "$build/artifacts/$target-"* >/dev/null 2>&1; then
      grep -E "ERROR|SUMMARY" "$log" >&2 || true
      echo "fuzz: $target found a failing input: $(ls "$build/artifacts/$target-"* 2>/dev/null)" >&2
      return 1
    fi
  done
}
rm -rf "$claims"  # claims of a campaign that was stopped
mkdir -p "$claims"
pids=()
for id in $(seq "$workers"); do
  worker "$id" &
  pids+=("$!")
  sleep 1  # each worker claims its target before the next one looks
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" -ne 0 ] && exit 1
status
echo "fuzz: $runs executions per target, no crash found"

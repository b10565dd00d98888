#!/usr/bin/env bash
# The developer loop, measured: the README's two commands (scripts/setup.sh, scripts/test.sh)
# on fresh clones of two revisions, side by side in one run, so a change to the build or the
# test command is judged against the loop it replaces on the same machine at the same time.
#
#   bench/devloop/run.sh [--old REV] [--new REV] [--rounds N] [--work DIR]
#
# Each round clones both revisions afresh (no build directory, no ccache: CCACHE_DISABLE=1, as
# on a fresh machine) and runs setup.sh then test.sh in each, alternating which goes first. The
# Debian packages are already installed here, so the apt step a fresh machine also runs is not
# in these figures (install_deps finds nothing to do). Prints one row per command and revision,
# wall seconds, and the test command's "N passed, N failed" line; exits non-zero when a command
# failed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
old="" new="HEAD" rounds=1 work="${TMPDIR:-/tmp}/etviz-devloop"
while (($#)); do
  case "$1" in
    --old) old="$2"; shift 2 ;;
    --new) new="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "devloop: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$old" ] || { echo "devloop: name the revision to compare with: --old REV" >&2; exit 2; }
export ETVIZ_CORPUS_DIR="${ETVIZ_CORPUS_DIR:-$(cd "$root/../shared/corpus" && pwd)}"
export CCACHE_DISABLE=1
mkdir -p "$work"
results="$work/results.tsv"
printf 'round\trevision\tcommand\tseconds\texit\tsummary\n' >"$results"

# time_command ROUND REV NAME DIR COMMAND...: runs COMMAND in DIR, records its wall time.
time_command() {
  local round=$1 rev=$2 name=$3 dir=$4
  shift 4
  local log="$work/$round-$rev-$name.log" start end status=0
  start=$(date +%s.%N)
  (cd "$dir" && "$@") >"$log" 2>&1 || status=$?
  end=$(date +%s.%N)
  local summary
  summary=$(grep -Eo 'tests: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1 || true)
  printf '%s\t%s\t%s\t%.0f\t%s\t%s\n' "$round" "$rev" "$name" "$(awk "BEGIN { print $end - $start }")" \
    "$status" "$summary" | tee -a "$results"
  return "$status"
}

failed=0
for ((r = 1; r <= rounds; r++)); do
  order=("$old" "$new")
  ((r % 2 == 0)) && order=("$new" "$old")
  for rev in "${order[@]}"; do
    dir="$work/clone-$r-$(git -C "$root" rev-parse --short "$rev")"
    rm -rf "$dir"
    git clone -q --no-checkout "$root" "$dir"
    git -C "$dir" checkout -q "$(git -C "$root" rev-parse "$rev")"
    # The viewer's npm packages come from the lock file, as install_deps installs them.
    time_command "$r" "$rev" setup "$dir" bash scripts/setup.sh || failed=1
    time_command "$r" "$rev" test "$dir" bash scripts/test.sh || failed=1
  done
done
echo "devloop: results in $results" >&2
exit "$failed"

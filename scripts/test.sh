#!/usr/bin/env bash
# Builds and runs every test: the release build (warnings are errors) with the whole suite,
# the parsers' tests again under AddressSanitizer + UndefinedBehaviorSanitizer, and a short
# fuzzing run. Ends with one line: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

passed=0
failed=0
# run_ctest DIR [ctest args...]: runs ctest, adds its counts to the totals.
run_ctest() {
  local dir=$1 out
  shift
  out=$(mktemp)
  local status=0
  (cd "$dir" && ctest --output-on-failure -j"$(nproc)" "$@") 2>&1 | tee "$out" || status=$?
  local line
  line=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$out" | tail -1 || true)
  if [[ $line =~ ([0-9]+)\ tests\ failed\ out\ of\ ([0-9]+) ]]; then
    failed=$((failed + BASH_REMATCH[1]))
    passed=$((passed + BASH_REMATCH[2] - BASH_REMATCH[1]))
  fi
  rm -f "$out"
  return "$status"
}

install_deps
log "formatting (clang-format, the repo's .clang-format)"
if ! git ls-files -z '*.cpp' '*.h' | xargs -0 clang-format --dry-run --Werror 2>/tmp/etviz-format.log; then
  head -40 /tmp/etviz-format.log >&2
  echo "tests: formatting differs from .clang-format; run: git ls-files '*.cpp' '*.h' | xargs clang-format -i" >&2
  exit 1
fi
log "formatting (Prettier, the repo's .prettierrc.json: the viewer's JavaScript)"
if ! (cd web && npm run --silent prettier -- --check) >/tmp/etviz-prettier.log 2>&1; then
  head -40 /tmp/etviz-prettier.log >&2
  echo "tests: JavaScript formatting differs from .prettierrc.json; run: npm --prefix web run prettier -- --write" >&2
  exit 1
fi
log "release build with -Werror (build-ci/)"
configure_and_build build-ci -DCMAKE_BUILD_TYPE=RelWithDebInfo -DETVIZ_WERROR=ON
log "tests"
run_ctest build-ci

log "sanitizer build, parser tests (build-asan/)"
# Only parser tests run here: the app's WebAssembly module (built and tested above) is left out.
configure_and_build build-asan -DCMAKE_BUILD_TYPE=Debug -DETVIZ_SANITIZE=ON -DETVIZ_BENCH=OFF -DETVIZ_APP_WASM=OFF
run_ctest build-asan -L parser

if [ -x fuzz/run.sh ]; then
  log "fuzzing the exported-program JSON reader and archive reader briefly (build-fuzz/)"
  FUZZ_SECONDS="${FUZZ_SECONDS:-20}" bash fuzz/run.sh
fi

echo "tests: $passed passed, $failed failed"

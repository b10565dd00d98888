#!/usr/bin/env bash
# Builds and runs every test: the release build (warnings are errors; setup.sh's build/, reused)
# with the whole suite, the parsers' tests again under AddressSanitizer +
# UndefinedBehaviorSanitizer, and a short fuzzing run in the same clang build. Ends with one
# line: "N passed, N failed".
#   --quick  the inner loop: formatting, build/ and the suite without the browser, Python,
#            oracle and app tests, no sanitizer or fuzzing run
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

quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *)
    echo "usage: scripts/test.sh [--quick]" >&2
    exit 2
    ;;
esac

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
log "release build with -Werror (build/)"
configure_and_build build "${ETVIZ_BUILD_ARGS[@]}"
if ((quick)); then
  log "tests (quick: no browser, Python, oracle or app tests)"
  run_ctest build -LE 'browser|python|oracle|app'
  echo "tests: $passed passed, $failed failed (quick)"
  exit 0
fi
log "tests"
run_ctest build

log "sanitizer build, parser tests ($ETVIZ_SANITIZER_DIR/: clang, ASan+UBSan, shared with the fuzzers)"
# Only what the parser tests need is built; the WebAssembly modules (tested above) are left out.
configure_and_build "$ETVIZ_SANITIZER_DIR" "${ETVIZ_SANITIZER_ARGS[@]}" -- parser_tests
run_ctest "$ETVIZ_SANITIZER_DIR" -L parser

log "fuzzing every reader briefly ($ETVIZ_SANITIZER_DIR/)"
FUZZ_SECONDS="${FUZZ_SECONDS:-20}" bash fuzz/run.sh

echo "tests: $passed passed, $failed failed"

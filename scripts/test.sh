#!/usr/bin/env bash
# Builds and runs every test: the release build (warnings are errors) with the whole suite,
# then the parsers' tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

install_deps
log "release build with -Werror (build-ci/)"
configure_and_build build-ci -DCMAKE_BUILD_TYPE=RelWithDebInfo -DETVIZ_WERROR=ON
if command -v emcc >/dev/null 2>&1 && [ -x scripts/build-wasm.sh ]; then
  log "WebAssembly layout module (build-wasm/)"
  scripts/build-wasm.sh
fi
log "tests"
(cd build-ci && ctest --output-on-failure -j"$(nproc)")

log "sanitizer build, parser tests (build-asan/)"
configure_and_build build-asan -DCMAKE_BUILD_TYPE=Debug -DETVIZ_SANITIZE=ON -DETVIZ_BENCH=OFF
(cd build-asan && ctest --output-on-failure -j"$(nproc)" -L parser)

if [ -x fuzz/run.sh ]; then
  log "fuzzing the exported-program JSON reader and archive reader briefly (build-fuzz/)"
  FUZZ_SECONDS="${FUZZ_SECONDS:-20}" bash fuzz/run.sh
fi

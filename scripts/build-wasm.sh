#!/usr/bin/env bash
# Builds the layout engine as a WebAssembly module: build-wasm/etviz_layout.js, a single
# file with the wasm embedded (loaded with createEtvizLayout(); see src/layout/wasm_api.js).
# Needs Debian's `emscripten` package.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Debian's emcc runs its JS tools with `node` and finds their modules through NODE_PATH,
# which a node that is not Debian's own does not set.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
emcmake cmake -S "$root" -B "$root/build-wasm" "${generator[@]}" -DETVIZ_WASM=ON \
  -DCMAKE_BUILD_TYPE=Release
cmake --build "$root/build-wasm" --target etviz_layout_wasm -j2
echo "built $root/build-wasm/etviz_layout.js"

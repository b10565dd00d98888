# Shared by setup.sh and test.sh. Sourced, not run.

# Debian 12 packages etviz needs to build, test and benchmark. One list, used everywhere.
ETVIZ_PACKAGES=(
  build-essential cmake ninja-build pkg-config python3
  flatbuffers-compiler libflatbuffers-dev  # our .fbs schemas -> C++ (flatc)
  # libzip's CMake package checks that its tools exist, so find_package(libzip) needs them.
  libzip-dev zipcmp zipmerge ziptool
  nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsimdjson-dev           # only the JSON-parser comparison (bench/torch_export)
  clang libclang-rt-14-dev  # libFuzzer (fuzz/run.sh)
  clang-format              # the formatting check in scripts/test.sh
  ccache                    # a second build of unchanged sources is a cache hit
  graphviz                  # the layout benchmark's peer (bench/layout/compare); DOT export tests
  libcairo2-dev             # PNG and PDF export (etviz export)
  poppler-utils             # export tests read PDFs back (pdfinfo, pdftotext)
  emscripten                # the layout engine as WebAssembly for the page
  chromium fonts-dejavu-core  # browser tests (headless) and the fonts labels render with
  # The Python package (src/python, python/): built for Debian's /usr/bin/python3, tested with
  # pytest and a real notebook run headless (nbclient + ipykernel).
  python3-dev python3-venv python3-pip python3-setuptools pybind11-dev python3-pybind11
  python3-pandas python3-pytest python3-nbclient python3-nbformat python3-ipykernel
  python3-torch  # etviz.trace_model's tests trace real torch models (torch 1.13)
)

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

install_deps() {
  local missing=()
  for p in "${ETVIZ_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # Node.js runs the browser tests and the WebAssembly check; keep an existing node (it may
  # come from outside Debian), install Debian's only when there is none.
  command -v node >/dev/null 2>&1 || missing+=(nodejs npm)
  if ((${#missing[@]})); then
    log "installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
  # Again when the lock file is newer than the last install (a package was added or updated).
  if [ -f web/package.json ] && { [ ! -d web/node_modules ] ||
    [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; }; then
    log "installing the viewer's npm packages"
    (cd web && npm ci --no-audit --no-fund)
  fi
}

# The build setup.sh makes and test.sh reuses (CI's configuration: warnings are errors), and
# the one clang build the sanitizer tests and the fuzzers share (fuzz/run.sh).
ETVIZ_BUILD_ARGS=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DETVIZ_WERROR=ON)
ETVIZ_SANITIZER_DIR=build-san
ETVIZ_SANITIZER_ARGS=(
  -DCMAKE_CXX_COMPILER=clang++
  # -O1 keeps assertions (no NDEBUG) and runs the fuzzers at speed.
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g"
  -DETVIZ_SANITIZE=ON -DETVIZ_FUZZ=ON -DETVIZ_BENCH=OFF -DETVIZ_APP_WASM=OFF -DETVIZ_VIEWER_WASM=OFF
)

# configure DIR [cmake args...]: configures DIR (Ninja, ccache when installed).
configure() {
  local dir=$1
  shift
  local launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B "$dir" -G Ninja "${launcher[@]}" "$@" >/dev/null
}

# configure_and_build DIR [cmake args...] [-- targets...]: configures DIR and builds the
# targets (default: all).
configure_and_build() {
  local dir=$1 args=() targets=()
  shift
  while (($#)) && [ "$1" != "--" ]; do
    args+=("$1")
    shift
  done
  (($#)) && shift && targets=("$@")
  configure "$dir" "${args[@]}"
  cmake --build "$dir" -j"$(nproc)" ${targets[@]+--target "${targets[@]}"}
}

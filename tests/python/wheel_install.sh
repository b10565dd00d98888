#!/usr/bin/env bash
# wheel_install.sh PYTHON PACKAGE_DIR CORPUS ETVIZ_BIN: `pip wheel ./python` offline (the
# module this build made stands in for setup.py's CMake run: ETVIZ_PYTHON_PREBUILT), then the
# wheel alone into a fresh virtual environment in a temp folder (no system site packages, no
# index, binary only: nothing is compiled), and the installed `etviz` command and `python -m
# etviz` against the binary on a corpus file: same output, same exit codes, same help.
set -euo pipefail
python=$1 package=$2 corpus=$3 bin=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s.%N)
cp -r "$package" "$work/python"   # pip builds in place; keep the source tree clean
"$python" -m pip wheel --quiet --no-index --no-deps --no-build-isolation --disable-pip-version-check \
  -w "$work/dist" "$work/python"
wheel=$(ls "$work"/dist/etviz-*.whl)
echo "wheel: $(basename "$wheel") ($(stat -c %s "$wheel") bytes)"
case $(basename "$wheel") in *-none-any.whl) echo "a pure wheel: the module is missing" >&2; exit 1 ;; esac

"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --no-deps --only-binary :all: \
  --disable-pip-version-check "$wheel"
cd "$work"
program="$corpus/pte/berndporr__dnf_executorch__dnf.47145c4a.pte"
same() {  # same ARGS...: the installed command, python -m etviz and the binary agree
  local want got_script got_module rc_want rc_script rc_module
  want=$("$bin" "$@" 2>&1) && rc_want=0 || rc_want=$?
  got_script=$("$work/venv/bin/etviz" "$@" 2>&1) && rc_script=0 || rc_script=$?
  got_module=$("$work/venv/bin/python" -m etviz "$@" 2>&1) && rc_module=0 || rc_module=$?
  if [ "$want" != "$got_script" ] || [ "$want" != "$got_module" ] ||
    [ "$rc_want" != "$rc_script" ] || [ "$rc_want" != "$rc_module" ]; then
    echo "etviz $*: the installed command differs from the binary" >&2
    diff <(echo "$want") <(echo "$got_script") >&2 || true
    diff <(echo "$want") <(echo "$got_module") >&2 || true
    echo "exit codes: binary $rc_want, script $rc_script, module $rc_module" >&2
    exit 1
  fi
}
same info "$program"
same --help
same info "$work/missing.pte"
same nosuchcommand
"$work/venv/bin/etviz" "$program" -o "$work/page.html" -q
[[ $(head -c 15 "$work/page.html") == "<!DOCTYPE html>" ]]
"$work/venv/bin/python" - "$program" <<'PY'
import sys, etviz
assert etviz.__file__.startswith(sys.prefix), etviz.__file__
assert not any("dist-packages" in p for p in sys.path), "the venv sees Debian's packages"
data = etviz.extract_from_pte(sys.argv[1])
assert data["metadata"]["category_counts"]["delegate"] == 4, data["metadata"]
print("installed", etviz.__version__, "from", etviz.__file__)
PY
echo "wheel test: $(echo "$(date +%s.%N) - $start" | bc) s"

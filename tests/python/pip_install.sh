#!/usr/bin/env bash
# pip_install.sh PYTHON PACKAGE_DIR VENV CORPUS: installs the package into a fresh virtual
# environment without any network (--no-index, no build isolation: setuptools comes from
# Debian), then imports it from outside the source tree and reads a corpus program.
set -euo pipefail
python=$1 package=$2 venv=$3 corpus=$4
rm -rf "$venv"
"$python" -m venv --system-site-packages "$venv"
work=$(mktemp -d)
cp -r "$package" "$work/python"   # pip builds in place; keep the source tree clean
trap 'rm -rf "$work"' EXIT
"$venv/bin/pip" install --quiet --no-index --no-build-isolation --disable-pip-version-check "$work/python"
cd /
"$venv/bin/python" - "$corpus" <<'PY'
import sys, etviz
assert etviz.__file__.startswith(sys.prefix), etviz.__file__
info = etviz.get_delegation_info(sys.argv[1] + "/pte/berndporr__dnf_executorch__dnf.47145c4a.pte")
assert info.num_delegated_nodes == 10, info
print("installed", etviz.__version__, "from", etviz.__file__)
PY
version=$("$venv/bin/etviz" --version)
[[ $version == "etviz "* ]] || { echo "etviz --version: $version" >&2; exit 1; }
"$venv/bin/etviz" info "$corpus/pte/berndporr__dnf_executorch__dnf.47145c4a.pte" >/dev/null

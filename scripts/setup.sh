#!/usr/bin/env bash
# Installs what etviz needs (Debian 12), builds it, and runs it on a sample program that the
# project generates itself. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

install_deps
log "building etviz, etviz-gen and the Python module (build/; scripts/test.sh builds the rest there)"
configure_and_build build "${ETVIZ_BUILD_ARGS[@]}" -- etviz etviz-gen etviz_python
mkdir -p out
log "generating a sample program: out/sample.pte (4 transformer blocks, MLPs lowered to XNNPACK)"
build/tools/gen/etviz-gen program --blocks 4 --delegates --delegate-backend xnnpack -o out/sample.pte
log "etviz out/sample.pte -o out/sample.html (open it in any browser; it works offline)"
build/src/cli/etviz out/sample.pte -o out/sample.html
log "etviz info out/sample.pte"
build/src/cli/etviz info out/sample.pte
log "the Python package (build/python; docs/python.md for pip install ./python)"
PYTHONPATH=build/python /usr/bin/python3 -c 'import etviz; i = etviz.get_delegation_info("out/sample.pte"); print(i.get_summary(), end="")'

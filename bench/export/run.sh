#!/usr/bin/env bash
# Export benchmark (issue "Pictures and interop"): `etviz export` of generated transformer
# programs to SVG, PNG, PDF and DOT, every group open, against Graphviz drawing the same graph
# from our DOT (`dot -Tsvg`, the peer, run in the same script on the sizes it finishes) and
# against `etviz view` writing the page for the same graph. Targets: SVG of 10k nodes < 1 s.
# usage: bench/export/run.sh [build dir] [blocks list, default "25 250 2500"]
# PEER_SECONDS (default 300): how long dot may take before it counts as "more than that".
set -euo pipefail
build="${1:-build}"
blocks="${2:-25 250 2500}"
etviz="$build/src/cli/etviz"
gen="$build/tools/gen/etviz-gen"
out="$(mktemp -d /tmp/etviz-bench-export-XXXXXX)"
best() {  # best of two runs, seconds
  local a b
  /usr/bin/time -f %e -o "$out/t" "$@" >/dev/null 2>&1; a=$(tail -1 "$out/t")
  /usr/bin/time -f %e -o "$out/t" "$@" >/dev/null 2>&1; b=$(tail -1 "$out/t")
  awk -v a="$a" -v b="$b" 'BEGIN { print (a < b ? a : b) }'
}
peer_limit="${PEER_SECONDS:-300}"
printf '%-8s %-9s %-7s %-7s %-7s %-7s %-8s %-10s %s\n' calls boxes svg png pdf dot page dot-Tsvg "dot/etviz svg"
for n in $blocks; do
  pte="$out/b$n.pte"
  "$gen" program --blocks "$n" --dim 8 --hidden 8 --vocab 4 --seq 1 -o "$pte" >/dev/null 2>&1
  calls=$("$etviz" info "$pte" --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["methods"][0]["node_count"])')
  boxes=$("$etviz" export "$pte" --expand all -o "$out/b$n.svg" 2>&1 | sed -n 's/.* \([0-9]*\) boxes.*/\1/p')
  svg=$(best "$etviz" export -q "$pte" --expand all -o "$out/b$n.svg")
  png=$(best "$etviz" export -q "$pte" --expand all -o "$out/b$n.png")
  pdf=$(best "$etviz" export -q "$pte" --expand all -o "$out/b$n.pdf")
  dot=$(best "$etviz" export -q "$pte" --expand all -o "$out/b$n.dot")
  page=$(best "$etviz" "$pte" -q -o "$out/b$n.html")
  peer="-" ratio="-"
  if [ "$n" -le 25 ]; then
    if /usr/bin/time -f %e -o "$out/t" timeout "$peer_limit" dot -Tsvg "$out/b$n.dot" -o "$out/b$n.gv.svg" 2>/dev/null; then
      peer=$(tail -1 "$out/t")
      ratio=$(awk -v p="$peer" -v s="$svg" 'BEGIN { printf "%.0fx", p / (s > 0.001 ? s : 0.001) }')
    else
      peer=">$peer_limit"
      ratio=$(awk -v p="$peer_limit" -v s="$svg" 'BEGIN { printf ">%.0fx", p / (s > 0.001 ? s : 0.001) }')
    fi
  fi
  printf '%-8s %-9s %-7s %-7s %-7s %-7s %-8s %-10s %s\n' "$calls" "$boxes" "$svg" "$png" "$pdf" "$dot" "$page" "$peer" "$ratio"
done
echo "files in $out" >&2

#!/usr/bin/env bash
# Stacked SPRTs of option changes: each candidate is the chess defaults plus its Go statements, tested against
# the defaults plus every candidate accepted before it (tests/sprt.sh, so NODES, CONC, LIMIT... apply). The
# variants are built from this checkout with `go build -overlay`, the statements added to
# engine.DefaultAlphaBetaOptions after `o.CheckExtension = true`; nothing in the tree changes.
# Usage: tests/sprt-stack.sh OUT_DIR 'name=o.X = true;' 'name2=o.Y = 200;' ...   (OUT_DIR/stack.log says it all)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: tests/sprt-stack.sh OUT_DIR 'name=statements' ...}; shift
mkdir -p "$out"; out=$(cd "$out" && pwd)
log="$out/stack.log"
build() { # NAME STATEMENTS: builds $out/dossier-NAME
  python3 - "$root/engine/options.go" "$2" > "$out/options_$1.go" <<'PY'
import sys
s = open(sys.argv[1]).read()
anchor = "\t\to.CheckExtension = true\n"
assert anchor in s, "the anchor line is gone from engine/options.go"
print(s.replace(anchor, anchor + "\t\t" + sys.argv[2] + "\n", 1), end="")
PY
  printf '{"Replace":{"%s":"%s"}}\n' "$root/engine/options.go" "$out/options_$1.go" > "$out/overlay_$1.json"
  (cd "$root" && CGO_ENABLED=0 go build -overlay "$out/overlay_$1.json" -o "$out/dossier-$1" ./cmd/dossier) || exit 1
  echo "$1: $("$out/dossier-$1" bench --signature | tail -1) :: $2" >> "$log"
}
base=""; n=0
build base0 ""
for cand in "$@"; do
  name=${cand%%=*}; stmts=${cand#*=}
  build "$name" "$base $stmts"
  LIMIT=${LIMIT:-3600} bash "$root/tests/sprt.sh" "$out/dossier-$name" "$out/dossier-base$n" "$out" > /dev/null 2>&1
  verdict=$(grep -o "H1 accepted\|H0 accepted\|undecided" "$out/sprt-dossier-$name.txt" | tail -1)
  echo "$name against base$n: $(grep -E 'pentanomial|SPRT' "$out/sprt-dossier-$name.txt" | tr '\n' ' ')" >> "$log"
  if [ "$verdict" = "H1 accepted" ]; then
    base="$base $stmts"; n=$((n + 1)); cp "$out/dossier-$name" "$out/dossier-base$n"
    echo "base$n =$base" >> "$log"
  fi
done
echo "accepted:$base" >> "$log"

#!/usr/bin/env bash
# The 10+0.1 gauntlet of docs/strength.md: dossier (memory off) against Toga II and Glaurung (one thread), both
# matches at once (one engine of each thinking at a time on a 2-core machine; nothing else may run), from the
# balanced 8-move openings FIRST..LAST (1..20) of testdata/chess/8moves_v3_200.pgn.gz, each played with both
# colours. Usage: tests/gauntlet.sh BINARY [OUT_DIR]   (OUT_DIR/NAME.txt holds each match's table)
# OPPONENTS replaces the two opponents: "NAME SPEC;NAME SPEC" (a dossier match player spec each), e.g. the next
# rungs: OPPONENTS='ethereal uci=/usr/games/ethereal-chess name=ethereal;countergo uci=/tmp/counter name=countergo args="-eval counter"'
# TC replaces the clock (10+0.1), e.g. TC=2+0.02 for the bullet rung of issue #37.
set -u
bin=${1:?usage: tests/gauntlet.sh BINARY [OUT_DIR]}; out=${2:-gauntlet-out}
first=${FIRST:-1}; last=${LAST:-20}
mkdir -p "$out"
zcat "$(dirname "$0")/../testdata/chess/8moves_v3_200.pgn.gz" |
  awk -v a="$first" -v b="$last" '/^\[Event /{n++} n>=a && n<=b' > "$out/openings.pgn"
games=$((2 * (last - first + 1)))
IFS=';' read -r -a opponents <<< "${OPPONENTS:-toga2 uci=/usr/games/toga2 name=toga2;glaurung uci=/usr/games/glaurung name=glaurung Threads=1}"
names=()
for opp in "${opponents[@]}"; do
  name=${opp%% *}; names+=("$out/$name.txt")
  "$bin" match --player1 "uci=$bin name=dossier args=--no-memory" --player2 "${opp#* }" \
    --openings "$out/openings.pgn" --tc "${TC:-10+0.1}" --games "$games" --pgn "$out/$name.pgn" \
    > "$out/$name.txt" 2> "$out/$name.progress" &
done
wait
tail -n 7 "${names[@]}"

#!/usr/bin/env bash
# Checkers and Connect-Four of one dossier build against another at 100 ms a move (#19's check that chess's
# search changes cost the other games nothing): both colours of each random opening, two games at once, memory
# off; run it on an otherwise idle machine. Usage: tests/othergames.sh NEW_BINARY OLD_BINARY [OUT_DIR]
# Environment: GAMES (40 a game), MOVETIME (100 ms), TC (a clock instead, e.g. 3+0.03: a change to the time
# management plays the same nodes at a fixed time a move).
set -u
new=${1:?usage: tests/othergames.sh NEW OLD [OUT]}; old=${2:?usage: tests/othergames.sh NEW OLD [OUT]}
out=${3:-othergames-out}; mkdir -p "$out"
limit=(--movetime "${MOVETIME:-100}")
if [ -n "${TC:-}" ]; then limit=(--tc "$TC"); fi
for g in checkers connect4; do
  plies=4; record=(--pdn "$out/$g.pdn")
  if [ "$g" = connect4 ]; then plies=2; record=(--pgn "$out/$g.pgn"); fi
  "$new" match --game "$g" --player1 "uci=$new name=new args=--no-memory" \
    --player2 "uci=$old name=old args=--no-memory" "${limit[@]}" --games "${GAMES:-40}" \
    --random-plies "$plies" --max-moves 100 --concurrency 2 "${record[@]}" > "$out/$g.txt" 2> "$out/$g.progress"
  echo "== $g (rc $?)"; cat "$out/$g.txt"
done

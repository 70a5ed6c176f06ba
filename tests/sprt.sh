#!/usr/bin/env bash
# SPRT of one dossier build against another: 2+0.02, the UHO openings sample, memory off, 15 games at once (a
# 16-core machine; never on a shared 2-core one). Usage: tests/sprt.sh NEW_BINARY BASE_BINARY [OUT_DIR]
# Environment: TC (2+0.02), CONC (15), GAMES (3000, the most), LIMIT (seconds; an interrupt ends the match
# with its verdict so far), SPRT (0,10).
set -u
new=${1:?usage: tests/sprt.sh NEW BASE [OUT]}; base=${2:?usage: tests/sprt.sh NEW BASE [OUT]}
out=${3:-sprt-out}; mkdir -p "$out"
TC=${TC:-2+0.02}; CONC=${CONC:-15}; GAMES=${GAMES:-3000}; LIMIT=${LIMIT:-3600}; SPRT=${SPRT:-0,10}
nn=$(basename "$new"); bn=$(basename "$base")
timeout -s INT "$LIMIT" "$new" match \
  --player1 "uci=$new name=$nn args=--no-memory" --player2 "uci=$base name=$bn args=--no-memory" \
  --openings "$(dirname "$0")/../testdata/chess/uho_4060_v3_2000.epd.gz" --tc "$TC" --concurrency "$CONC" \
  --sprt "$SPRT" --games "$GAMES" --pgn "$out/sprt-$nn.pgn" > "$out/sprt-$nn.txt" 2> "$out/progress-$nn.txt"
echo "rc $?" >> "$out/sprt-$nn.txt"
cat "$out/sprt-$nn.txt"

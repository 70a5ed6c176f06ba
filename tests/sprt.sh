#!/usr/bin/env bash
# SPRT of one dossier build against another: 2+0.02, the UHO openings sample, memory off, 15 games at once (a
# 16-core machine; never on a shared 2-core one). Usage: tests/sprt.sh NEW_BINARY BASE_BINARY [OUT_DIR]
# Environment: TC (2+0.02), CONC (15), GAMES (3000, the most), LIMIT (seconds; an interrupt ends the match
# with its verdict so far), SPRT (0,10), NODES (a node limit a move instead of the clock: the games then do not
# depend on the machine's load, so a shared 2-core machine can run them, CONC=2, while other work goes on),
# OFFSET (0: the openings from the book's first; N: from its N+1st, the book rotated). Pairs take the openings in
# the book's order, and at a node limit the same two builds play the same pairs move for move, so a second run
# of a pair of builds adds new games only with OFFSET past the pairs of the runs before it. BOOK: another
# EPD openings file (gzip-compressed or not) once a pair of builds has played all 2,000 of the sample.
set -u
new=${1:?usage: tests/sprt.sh NEW BASE [OUT]}; base=${2:?usage: tests/sprt.sh NEW BASE [OUT]}
out=${3:-sprt-out}; mkdir -p "$out"
TC=${TC:-2+0.02}; CONC=${CONC:-15}; GAMES=${GAMES:-3000}; LIMIT=${LIMIT:-3600}; SPRT=${SPRT:-0,10}
nn=$(basename "$new"); bn=$(basename "$base")
OFFSET=${OFFSET:-0}
if ! [[ "$OFFSET" =~ ^[0-9]+$ ]]; then echo "tests/sprt.sh: OFFSET must be a whole number, not \"$OFFSET\"" >&2; exit 2; fi
book=${BOOK:-"$(dirname "$0")/../testdata/chess/uho_4060_v3_2000.epd.gz"}
if [ "$OFFSET" -gt 0 ]; then
  rotated="$out/openings-from-$OFFSET.epd"
  { zcat -f "$book" | tail -n +"$((OFFSET + 1))"; zcat -f "$book" | head -n "$OFFSET"; } > "$rotated"
  book=$rotated
fi
limit=(--tc "$TC"); per=""
if [ -n "${NODES:-}" ]; then limit=(); per=" nodes=$NODES"; fi
timeout -s INT "$LIMIT" "$new" match \
  --player1 "uci=$new name=$nn args=--no-memory$per" --player2 "uci=$base name=$bn args=--no-memory$per" \
  --openings "$book" "${limit[@]}" --concurrency "$CONC" \
  --sprt "$SPRT" --games "$GAMES" --pgn "$out/sprt-$nn.pgn" > "$out/sprt-$nn.txt" 2> "$out/progress-$nn.txt"
echo "rc $?" >> "$out/sprt-$nn.txt"
cat "$out/sprt-$nn.txt"

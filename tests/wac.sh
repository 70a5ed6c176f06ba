#!/usr/bin/env bash
# WinAtChess at 1 s a position for each dossier binary given, the 300 positions split over 15 processes at once
# (a 16-core machine). Usage: tests/wac.sh BINARY... ; OUT (wac-out) keeps the parts and each run's output.
# NODES=N searches N nodes a position instead (a result that does not depend on the machine or its load; PROCS
# processes at once, 15 by default).
set -u
limit=(--suite-time 1s); per="1s"
if [ -n "${NODES:-}" ]; then limit=(--suite-nodes "$NODES"); per="$NODES nodes"; fi
PROCS=${PROCS:-15}
OUT=${OUT:-wac-out}; mkdir -p "$OUT/parts" "$OUT/runs"
split -n l/"$PROCS" -d "$(dirname "$0")/../testdata/chess/WinAtChess.epd" "$OUT/parts/part."
for bin in "$@"; do
  name=$(basename "$bin")
  for part in "$OUT"/parts/part.*; do
    "$bin" bench --suite "$part" "${limit[@]}" > "$OUT/runs/$(basename "$part").$name.txt" 2>/dev/null &
  done
  wait
  solved=0; total=0
  for f in "$OUT"/runs/part.*."$name".txt; do
    line=$(grep -Eo '[0-9]+ of [0-9]+ solved' "$f" | head -1)
    s=${line%% of*}; t=${line#* of }; t=${t%% solved*}
    solved=$((solved + s)); total=$((total + t))
  done
  echo "$name WinAtChess: $solved of $total solved at $per" | tee -a "$OUT/wac.txt"
done

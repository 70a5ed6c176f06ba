#!/usr/bin/env bash
# WinAtChess at 1 s a position for each dossier binary given, the 300 positions split over 15 processes at once
# (a 16-core machine). Usage: tests/wac.sh BINARY... ; OUT (wac-out) keeps the parts and each run's output.
set -u
OUT=${OUT:-wac-out}; mkdir -p "$OUT/parts" "$OUT/runs"
split -n l/15 -d "$(dirname "$0")/../testdata/chess/WinAtChess.epd" "$OUT/parts/part."
for bin in "$@"; do
  name=$(basename "$bin")
  for part in "$OUT"/parts/part.*; do
    "$bin" bench --suite "$part" --suite-time 1s > "$OUT/runs/$(basename "$part").$name.txt" 2>/dev/null &
  done
  wait
  solved=0; total=0
  for f in "$OUT"/runs/part.*."$name".txt; do
    line=$(grep -Eo '[0-9]+ of [0-9]+ solved' "$f" | head -1)
    s=${line%% of*}; t=${line#* of }; t=${t%% solved*}
    solved=$((solved + s)); total=$((total + t))
  done
  echo "$name WinAtChess: $solved of $total solved at 1s" | tee -a "$OUT/wac.txt"
done

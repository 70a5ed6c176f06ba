#!/usr/bin/env bash
# Identification of unnamed opponents against real engines: a few training games of dossier against each engine
# into one memory, then held-out games (not stored) from which `dossier memory identify` must name the engine
# among all the stored ones, after 1, 3 and 10 games. The identification table of docs/log/experiments.md was measured with it.
#
# usage: tests/identify.sh [--dry-run] PHASE...   (PHASE: train, heldout, identify, or all)
# Environment: ENGINES (all of ENGINES below), TRAIN (20 games: openings 1-10 of ladder20.epd, both colours),
# HELDOUT (10 games: openings 6-10, both colours, played again), TC (1+0.02), OUT (tests/identify-out, which
# .gitignore covers). Phases skip an engine whose output exists already, so an interrupted run resumes.
# Every match runs with --concurrency 1 under nice.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL=(sf1350 sf1600 sf1800 sf2000 sf2400 toga2 glaurung ethereal fairy-stockfish fairymax phalanx)

usage() {
  echo "usage: tests/identify.sh [--dry-run] PHASE...   (train, heldout, identify, all; ENGINES=\"${ALL[*]}\" TRAIN=20 HELDOUT=10 TC=1+0.02)"
}

DRY=0
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --dry-run) DRY=1; shift ;;
esac
PHASES=(train heldout identify)
source tests/names.sh
pick_names tests/identify.sh phase PHASES PHASES "$@"
phases=("${names[@]}")
read -r -a engines <<<"${ENGINES:-${ALL[*]}}"
for e in "${engines[@]}"; do
  if [[ " ${ALL[*]} " != *" $e "* ]]; then
    echo "tests/identify.sh: unknown engine \"$e\" (${ALL[*]})" >&2
    exit 2
  fi
done
TRAIN=${TRAIN:-20}
HELDOUT=${HELDOUT:-10}
TC=${TC:-1+0.02}
OUT=${OUT:-tests/identify-out}
MEM=$OUT/memory
mkdir -p "$OUT"
BIN=$OUT/dossier
[ "$DRY" = 1 ] || go build -o "$BIN" ./cmd/dossier
# The held-out games start from openings the training games started from too (6 to 10 of the training's 1 to
# 10): an identifier that compares moves in the same positions needs the opponent to meet positions it was seen
# in, and engines playing on the clock still vary their games from one run to the next.
head -n 10 testdata/chess/ladder20.epd >"$OUT/train.epd"
sed -n 6,10p testdata/chess/ladder20.epd >"$OUT/heldout.epd"

# spec NAME: the engine's player spec, named NAME (the name the memory files it under). Glaurung is limited by
# nodes, as in tests/ladder.sh, and its matches get the clock GLAURUNG_TC (10+0.1): at 1+0.02 it lost nearly
# every game on time on the loaded 2-core machine (7,000 nodes a second at a load average of 20).
spec() {
  case "$1" in
    sf*) echo "name=$1 uci=/usr/games/stockfish UCI_LimitStrength=true UCI_Elo=${1#sf} Threads=1 Hash=16" ;;
    toga2) echo "name=$1 uci=/usr/games/toga2" ;;
    glaurung) echo "name=$1 uci=/usr/games/glaurung nodes=5000" ;;
    ethereal) echo "name=$1 uci=/usr/games/ethereal-chess" ;;
    fairy-stockfish) echo "name=$1 uci=/usr/games/fairy-stockfish" ;;
    fairymax) echo "name=$1 cecp=/usr/games/fairymax" ;;
    phalanx) echo "name=$1 cecp=/usr/games/phalanx" ;;
  esac
}

# play NAME GAMES OPENINGS PGN [MEMORY]: a match of dossier against the engine; with MEMORY, dossier files the
# games under the engine's name there.
play() {
  local me="name=dossier preset=strongest"
  [ -n "${5:-}" ] && me="$me memory=$5"
  # Fairymax cannot set up a position (no setboard): it plays from the initial position, its games varied only
  # by the clock and its own randomness.
  local openings=(--openings "$3")
  [ "$1" = fairymax ] && openings=()
  local tc=$TC
  [ "$1" = glaurung ] && tc=${GLAURUNG_TC:-10+0.1}
  local args=(match --game chess --json --games "$2" --tc "$tc" --concurrency 1 "${openings[@]}" --max-moves 120
    --resign-score 1000 --resign-moves 3 --pgn "$4.tmp" --player1 "$me" --player2 "$(spec "$1")")
  echo "== $1: dossier ${args[*]}"
  [ "$DRY" = 1 ] && return
  rm -f "$4.tmp"
  nice -n 5 "$BIN" "${args[@]}" >"$4.json"
  mv "$4.tmp" "$4"
}

# summarize: the table of the identify phase, from its text reports: per engine the right answers after 1, 3
# and 10 games (windows of consecutive held-out games) with its stored games and left out (someone new is
# then right), and what it was taken for after one game; then the totals over the engines.
summarize() {
  printf "%-16s %-10s %-10s %-10s | %-10s %-10s %-10s | %s\n" engine "after 1" "after 3" "after 10" \
    "new 1" "new 3" "new 10" "taken for, after 1 game"
  for e in "${engines[@]}"; do
    awk -v e="$e" -v stored="$OUT/identify-$e.txt" -v left="$OUT/identify-$e-left-out.txt" '
      function row(file, pre,   line, f, k) {
        while ((getline line < file) > 0) {
          if (line !~ /^after [0-9]+ games: .* first in /) continue
          split(line, f, " ")
          k = f[2]
          R[pre k] = f[7]; N[pre k] = f[9]
          if (pre == "" && k == 1 && line ~ /taken for /) { taken = line; sub(/.*taken for /, "", taken) }
        }
      }
      BEGIN {
        row(stored, ""); row(left, "n")
        printf "%-16s", e
        for (i = 0; i < 6; i++) {
          pre = i < 3 ? "" : "n"; k = (i % 3 == 0) ? 1 : (i % 3 == 1 ? 3 : 10)
          printf " %-10s", (pre k in R) ? R[pre k] "/" N[pre k] : "-"
          if (i == 2) printf " |"
        }
        printf " | %s\n", taken
      }'
  done | tee "$OUT/identify-rows.txt"
  awk '{ for (i = 2; i <= 8; i++) if ($i ~ /\//) { split($i, x, "/"); r[i] += x[1]; n[i] += x[2] } }
    END { printf "%-16s", "all"
      for (i = 2; i <= 8; i++) { if (i == 5) { printf " |"; continue } printf " %-10s", n[i] ? sprintf("%.0f%%", 100 * r[i] / n[i]) : "-" }
      print "" }' "$OUT/identify-rows.txt"
}

for ph in "${phases[@]}"; do
  case "$ph" in
    train)
      for e in "${engines[@]}"; do
        [ -s "$OUT/train-$e.pgn" ] || play "$e" "$TRAIN" "$OUT/train.epd" "$OUT/train-$e.pgn" "$MEM"
      done
      ;;
    heldout)
      for e in "${engines[@]}"; do
        [ -s "$OUT/heldout-$e.pgn" ] || play "$e" "$HELDOUT" "$OUT/heldout.epd" "$OUT/heldout-$e.pgn"
      done
      ;;
    identify)
      # Per engine, the ranking and accuracy with its stored games (right: its name first) and without them
      # (--leave-out; right: someone new first), then the table.
      for e in "${engines[@]}"; do
        for mode in "" --leave-out; do
          args=(memory identify --memory "$MEM" --game chess --side "$e" --after 1,3,10 $mode "$OUT/heldout-$e.pgn")
          echo "== $e: dossier ${args[*]}"
          [ "$DRY" = 1 ] && continue
          "$BIN" "${args[@]}" | tee "$OUT/identify-$e${mode:+-left-out}.txt"
        done
      done
      [ "$DRY" = 1 ] || summarize | tee "$OUT/identify.txt"
      ;;
  esac
done

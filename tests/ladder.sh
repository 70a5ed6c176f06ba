#!/usr/bin/env bash
# The strength ladder: dossier in the even-game mode (memory on) against engines below its full strength, as
# dossier match commands; the table of docs/even-game.md was measured with it.
#
# usage: tests/ladder.sh [--dry-run] RUNG...   (RUNG: one of RUNGS below, or all)
# Environment: MODE (even, the default, or strongest: dossier at full strength, to calibrate a rung's limit),
# GAMES (40), TC (10+0.1), MARGIN (100ms: how far past zero a clock may run, dossier match's --time-margin;
# on a loaded machine every engine overruns now and then, and a longer margin keeps flags from deciding
# games). Results go to tests/ladder-out (which .gitignore covers): per rung and mode a .json summary, a .pgn
# of the games, the memory directory of the even player, and a .txt with the running score (after how many
# games it stays within 50% +- 5%) and the game lengths. The machine should be quiet: every
# match runs with --concurrency 1, and Stockfish gets a Move Overhead of 100 ms.
set -euo pipefail
cd "$(dirname "$0")/.."

# RUNGS are the names the command line accepts: Stockfish at UCI_Elo settings, Toga II limited in depth, Glaurung
# in nodes, and the CECP engines fairymax (as it is) and phalanx (limited in nodes per second), cecp=PATH
# players. The limits' defaults (TOGA_DEPTH, GLAURUNG_NODES, PHALANX_NPS) are those at which dossier at full
# strength scored over 60% at 5+0.05 on a loaded machine (docs/log/strength.md).
RUNGS=(sf1350 sf1600 sf1800 sf2000 toga2 glaurung fairymax phalanx)

usage() {
  echo "usage: tests/ladder.sh [--dry-run] RUNG...   (MODE=even|strongest GAMES=40 TC=10+0.1 MARGIN=100ms; results to tests/ladder-out)"
  echo "RUNG: all, or one of: ${RUNGS[*]}"
}

DRY=0
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --dry-run) DRY=1; shift ;;
esac
source tests/names.sh
pick_names tests/ladder.sh rung RUNGS RUNGS "$@"
MODE=${MODE:-even}
case "$MODE" in
  even | strongest) ;;
  *) echo "tests/ladder.sh: MODE must be even or strongest, not \"$MODE\"" >&2; exit 2 ;;
esac
GAMES=${GAMES:-40}
TC=${TC:-10+0.1}
MARGIN=${MARGIN:-100ms}

OUT=tests/ladder-out
mkdir -p "$OUT"
BIN=$OUT/dossier
[ "$DRY" = 1 ] || go build -o "$BIN" ./cmd/dossier

# rung NAME: the opponent's player spec.
rung() {
  case "$1" in
    sf*) echo "name=sf${1#sf} uci=/usr/games/stockfish UCI_LimitStrength=true UCI_Elo=${1#sf} Threads=1 Hash=16 'Move Overhead=100'" ;;
    # toga2 ignores go nodes (it searched unlimited at any nodes=), so it is limited in depth.
    toga2) echo "name=toga2-d${TOGA_DEPTH:-3} uci=/usr/games/toga2 depth=${TOGA_DEPTH:-3}" ;;
    # glaurung starts two threads by default, which on a shared machine cost it its clock.
    glaurung) echo "name=glaurung-n${GLAURUNG_NODES:-8000} uci=/usr/games/glaurung nodes=${GLAURUNG_NODES:-8000} Threads=1 Hash=16" ;;
    fairymax) echo "name=fairymax cecp=/usr/games/fairymax" ;;
    # phalanx refuses CECP's sd (depth), and its easy levels (-e) pause for a fixed time per move that a
    # fast clock cannot pay, so it is limited by its nodes per second (-n, its own option).
    phalanx) echo "name=phalanx-nps${PHALANX_NPS:-400000} cecp=/usr/games/phalanx args='-n ${PHALANX_NPS:-400000}'" ;;
  esac
}

# openings NAME: the match's openings option. Debian's fairymax announces no setboard, so it cannot start from
# a FEN (an opening or random plies both arrive as one): its games start from the initial position.
openings() {
  case "$1" in
    fairymax) ;;
    *) echo "--openings testdata/chess/ladder20.epd" ;;
  esac
}

# summarize NAME: the running score of dossier (by its name) after each game, the first game from which it
# stays within 50% +- 5%, and the game lengths, from the PGN.
summarize() {
  awk -v me="dossier-$MODE" '
    /^\[White / { white = ($0 ~ "\"" me "\"") }
    /^\[Result / {
      r = $2; gsub(/[]"]/, "", r)
      s = (r == "1/2-1/2") ? 0.5 : ((r == "1-0") == white ? 1 : 0)
      n++; total += s; score[n] = total / n
    }
    /^\[PlyCount / { p = $2; gsub(/[]"]/, "", p); plies[n + 1] = p; sum += p }
    END {
      settled = 0
      for (i = n; i >= 1; i--) { if (score[i] < 0.45 || score[i] > 0.55) break; settled = i }
      printf "games %d, score %.1f%%, within 50%% +- 5%% from game %s on, mean length %.1f moves\n",
        n, 100 * total / n, settled ? settled : "(never)", n ? sum / n / 2 : 0
      for (i = 1; i <= n; i++) printf "%d:%.0f%% ", i, 100 * score[i]
      print ""
    }' "$1"
}

for name in "${names[@]}"; do
  tag=$name-$MODE
  me="name=dossier-$MODE"
  if [ "$MODE" = even ]; then
    me="$me mode=even memory=$OUT/$tag-memory"
  fi
  read -ra opening <<<"$(openings "$name")"
  args=(match --game chess --json --games "$GAMES" --tc "$TC" --time-margin "$MARGIN" --concurrency 1 "${opening[@]}"
    --pgn "$OUT/$tag.pgn" --player1 "$me" --player2 "$(rung "$name")")
  echo "== $tag: dossier ${args[*]}"
  [ "$DRY" = 1 ] && continue
  rm -rf "$OUT/$tag-memory"
  "$BIN" "${args[@]}" >"$OUT/$tag.json"
  cat "$OUT/$tag.json"
  summarize "$OUT/$tag.pgn" | tee "$OUT/$tag.txt"
done

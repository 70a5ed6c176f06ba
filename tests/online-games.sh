#!/usr/bin/env bash
# Issue 33's experiment for checkers and Connect-Four, in the conditions of tests/online.sh: dossier with its
# memory against dossier without one, each against the same opponent, side by side, each series (dossier and its
# opponent) pinned to a core of its own (taskset), on a clock, dossier one process per game (restart=on). No
# opening is forced on dossier: the opponent varies its openings itself, its first moves of each game drawn at
# random (dossier match's randommoves=N, as an opponent playing from a book of its own), and dossier chooses
# every move of its own from the start position. There is no checkers or Connect-Four engine in Debian, so the
# opponent is another dossier process without a memory, playing a preset of the game.
#
# usage: tests/online-games.sh [--dry-run | --summary] GAME...   (GAME: checkers, connect4, or all)
# Environment: GAMES (80 a series), TC (2+0.05), SERIES ("mem nomem"), CORES ("0 1": the core of each series, in
# SERIES's order), OUT (tests/online-games-out), and per game its opponent: CHECKERS_OPPONENT (strongest: dossier
# itself) and CONNECT4_OPPONENT (sophisticated: Sen & Arora's evaluation searched on the clock; dossier's
# strongest solves the game), CHECKERS_RANDOM (2) and CONNECT4_RANDOM (1): how many of the opponent's first
# moves are random.
# Per game and series OUT holds GAME-SERIES.pgn (.pdn for checkers), GAME-SERIES.progress (a line a game) and,
# for the memory series, GAME-mem-memory (the store) and GAME-mem.log.jsonl (the memory's line of each game).
# --summary reads them again: dossier's score per series and colour with a 95% interval, and the learning
# curve per colour (by quarters of the series).
set -euo pipefail
cd "$(dirname "$0")/.."
source tests/names.sh
source tests/memorylog.sh

usage() {
  echo "usage: tests/online-games.sh [--dry-run | --summary] GAME...   (GAME: checkers, connect4, all; GAMES=80 TC=2+0.05 SERIES=\"mem nomem\" CORES=\"0 1\" OUT=tests/online-games-out)"
}

DRY=0
SUMMARY=0
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --dry-run) DRY=1; shift ;;
  --summary) SUMMARY=1; shift ;;
esac
if [ $# -eq 0 ]; then usage >&2; exit 2; fi
GAMES_LIST=()
for g in "$@"; do
  case "$g" in
    all) GAMES_LIST+=(checkers connect4) ;;
    checkers | connect4) GAMES_LIST+=("$g") ;;
    *) echo "tests/online-games.sh: no game \"$g\" (checkers, connect4, all)" >&2; exit 2 ;;
  esac
done
pick_series tests/online-games.sh 80
TC=${TC:-2+0.05}
read -r -a cores <<<"${CORES:-0 1}"
OUT=${OUT:-tests/online-games-out}
BIN=$OUT/dossier

# record GAME: the file extension of the game's records.
record() { if [ "$1" = checkers ]; then echo pdn; else echo pgn; fi; }

# summarize GAME: dossier's score per series and colour from the match's progress lines ("game N/T (K
# finished): FIRST vs SECOND RESULT (why); tally", FIRST the side that moves first).
summarize() {
  local game=$1 s
  for s in $SERIES; do
    [ -f "$OUT/$game-$s.progress" ] || continue
    awk -v ser="$s" -v games="$GAMES" -v game="$game" '
      /^game [0-9]+\/[0-9]+ \(/ {
        me = "dossier-" ser
        first = $5; second = $7; result = $8
        if (first != me && second != me) next
        col = (first == me) ? "first" : "second"
        sc = (result == "1/2-1/2") ? 0.5 : (((result == "1-0") == (first == me)) ? 1 : 0)
        n[col]++; pts[col] += sc; sq[col] += sc * sc
        if (sc == 1) win[col]++; else if (sc == 0) loss[col]++; else draw[col]++
        k = int((n["first"] + n["second"] - 1) / (games / 4)) + 1; if (k > 4) k = 4
        blk[col, k] += sc; bn[col, k]++
        if ($0 ~ /time forfeit/ && sc == 0) timeouts++
      }
      function line(label, cols,   N, P, S, m, v, c, i) {
        N = 0; P = 0; S = 0
        for (i = 1; i <= split(cols, c, " "); i++) { N += n[c[i]]; P += pts[c[i]]; S += sq[c[i]] }
        if (N == 0) return
        m = P / N; v = S / N - m * m
        printf "  %-7s %5.1f%% ±%4.1f over %d", label, 100 * m, 196 * sqrt(v / N), N
        if (cols !~ / /) printf " (+%d =%d -%d)", win[cols], draw[cols], loss[cols]
        printf "\n"
      }
      END {
        printf "%s %s (dossier-%s):\n", game, ser, ser
        line("first", "first"); line("second", "second"); line("both", "first second")
        for (c = 1; c <= 2; c++) {
          col = (c == 1) ? "first" : "second"
          printf "  learning curve as %s, by quarter:", col
          for (k = 1; k <= 4; k++) if (bn[col, k] > 0) printf " %.0f%% (%d)", 100 * blk[col, k] / bn[col, k], bn[col, k]
          printf "\n"
        }
        printf "  losses on time: %d\n", timeouts + 0
      }' "$OUT/$game-$s.progress"
  done
  if [ -f "$OUT/$game-mem.log.jsonl" ]; then memory_per_game "$OUT/$game-mem.log.jsonl"; fi
}

if [ "$SUMMARY" = 1 ]; then
  for g in "${GAMES_LIST[@]}"; do summarize "$g"; done
  exit 0
fi

mkdir -p "$OUT"
if [ "$DRY" = 0 ]; then go build -o "$BIN" ./cmd/dossier; fi

for g in "${GAMES_LIST[@]}"; do
  if [ "$g" = checkers ]; then
    opp=${CHECKERS_OPPONENT:-strongest}; random=${CHECKERS_RANDOM:-2}
  else
    opp=${CONNECT4_OPPONENT:-sophisticated}; random=${CONNECT4_RANDOM:-1}
  fi
  ext=$(record "$g")
  i=0
  pids=()
  for s in $SERIES; do
    core=${cores[$((i % ${#cores[@]}))]}
    i=$((i + 1))
    args="--no-memory"
    if [ "$s" = mem ]; then
      args="--memory $OUT/$g-mem-memory --log-file $OUT/$g-mem.log.jsonl --log-level info"
    fi
    cmd=(taskset -c "$core" "$BIN" match --game "$g"
      --player1 "uci=$BIN name=dossier-$s args='$args' restart=on"
      --player2 "uci=$BIN name=$opp-r$random args=--no-memory Preset=$opp randommoves=$random"
      --tc "$TC" --games "$GAMES" --max-moves 150 "--$ext" "$OUT/$g-$s.$ext")
    echo "== $g-$s: ${cmd[*]}"
    [ "$DRY" = 0 ] || continue
    rm -rf "$OUT/$g-$s.$ext" "$OUT/$g-$s-memory" "$OUT/$g-$s.log.jsonl"
    "${cmd[@]}" >"$OUT/$g-$s.txt" 2>"$OUT/$g-$s.progress" &
    pids+=($!)
    if [ ${#cores[@]} -eq 1 ]; then wait "${pids[-1]}"; fi
  done
  [ "$DRY" = 0 ] || continue
  for p in "${pids[@]}"; do wait "$p" || true; done
  summarize "$g" | tee "$OUT/$g.txt"
done

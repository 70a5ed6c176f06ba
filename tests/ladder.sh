#!/usr/bin/env bash
# The strength ladder: dossier below full strength (the even-game mode, learning with its memory, or
# UCI_LimitStrength at a fixed UCI_Elo) against each rung, as dossier match commands; docs/even-game.md's table
# was measured with it.
#
# usage: tests/ladder.sh [--dry-run] RUNG...   (RUNG: one of RUNGS below, or all)
# Environment: MODE (even, the default; elo: UCI_LimitStrength at ELO, by default a Stockfish rung's own rating;
# strongest: dossier at full strength, to see how far a rung is below it), GAMES (40), TC (5+0.05), MARGIN
# (100ms: how far past zero a clock may run, dossier match's --time-margin; on a loaded machine every engine
# overruns now and then, and a longer margin keeps flags from deciding games), OUT (tests/ladder-out, which
# .gitignore covers), DOSSIER (a dossier binary to use instead of building one: two ladders at once, each under
# taskset on a core of its own, share one). Results go to OUT: per rung and mode a .json summary, a .pgn of the
# games, the memory directory of the even player, and a .txt with the score over the last 20 games (the
# issue's measure), each colour with its 95% interval, and the running score. The machine should be quiet:
# every match runs with --concurrency 1, and Stockfish gets a Move Overhead of 100 ms.
set -euo pipefail
cd "$(dirname "$0")/.."

# RUNGS are the names the command line accepts: Stockfish at UCI_Elo settings, Toga II and Glaurung at full
# strength (TOGA_DEPTH, GLAURUNG_NODES limit them), the CECP engines fairymax (as it is) and phalanx (limited in
# nodes per second), cecp=PATH players, and a weak and a strong dossier preset in checkers and Connect-Four,
# each opening its games with two random moves (one in Connect-Four) so that the games vary.
RUNGS=(sf1350 sf1500 sf1600 sf1800 sf2000 sf2400 toga2 glaurung fairymax phalanx checkers-weak checkers-strong connect4-weak connect4-strong)

usage() {
  echo "usage: tests/ladder.sh [--dry-run] RUNG...   (MODE=even|elo|strongest ELO=N GAMES=40 TC=5+0.05 MARGIN=100ms OUT=tests/ladder-out DOSSIER=BIN)"
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
  even | elo | strongest) ;;
  *) echo "tests/ladder.sh: MODE must be even, elo or strongest, not \"$MODE\"" >&2; exit 2 ;;
esac
GAMES=${GAMES:-40}
TC=${TC:-5+0.05}
MARGIN=${MARGIN:-100ms}

OUT=${OUT:-tests/ladder-out}
mkdir -p "$OUT"
if [ -n "${DOSSIER:-}" ]; then
  BIN=$DOSSIER
else
  BIN=$OUT/dossier
  [ "$DRY" = 1 ] || go build -o "$BIN" ./cmd/dossier
fi

# rung NAME: the opponent's player spec.
rung() {
  case "$1" in
    sf*) echo "name=sf${1#sf} uci=/usr/games/stockfish UCI_LimitStrength=true UCI_Elo=${1#sf} Threads=1 Hash=16 'Move Overhead=100'" ;;
    # toga2 ignores go nodes (it searched unlimited at any nodes=), so it is limited in depth.
    toga2)
      if [ -n "${TOGA_DEPTH:-}" ]; then echo "name=toga2-d$TOGA_DEPTH uci=/usr/games/toga2 depth=$TOGA_DEPTH"
      else echo "name=toga2 uci=/usr/games/toga2"; fi ;;
    # glaurung starts two threads by default, which on a shared machine cost it its clock.
    glaurung)
      if [ -n "${GLAURUNG_NODES:-}" ]; then echo "name=glaurung-n$GLAURUNG_NODES uci=/usr/games/glaurung nodes=$GLAURUNG_NODES Threads=1 Hash=16"
      else echo "name=glaurung uci=/usr/games/glaurung Threads=1 Hash=16"; fi ;;
    fairymax) echo "name=fairymax cecp=/usr/games/fairymax" ;;
    # phalanx refuses CECP's sd (depth), and its easy levels (-e) pause for a fixed time per move that a
    # fast clock cannot pay, so it is limited by its nodes per second (-n, its own option).
    phalanx) echo "name=phalanx-nps${PHALANX_NPS:-400000} cecp=/usr/games/phalanx args='-n ${PHALANX_NPS:-400000}'" ;;
    checkers-weak) echo "name=mat-tot25 preset=mat-tot25 randommoves=2" ;;
    checkers-strong) echo "name=checkers-strongest preset=strongest randommoves=2" ;;
    connect4-weak) echo "name=sp preset=sp randommoves=1" ;;
    connect4-strong) echo "name=sophisticated preset=sophisticated randommoves=1" ;;
  esac
}

# game NAME: the rung's game.
game() {
  case "$1" in
    checkers-*) echo checkers ;;
    connect4-*) echo connect4 ;;
    *) echo chess ;;
  esac
}

# openings NAME: the match's openings option. Debian's fairymax announces no setboard, so it cannot start from
# a FEN (an opening or random plies both arrive as one): its games start from the initial position.
openings() {
  case "$1" in
    fairymax | checkers-* | connect4-*) ;;
    *) echo "--openings testdata/chess/ladder20.epd" ;;
  esac
}

# summarize PGN: dossier's score (by its name, $me_name) over the last 20 games (the issue's measure) as
# White (the first player), as Black and in all, each with its 95% interval (1.96 standard errors of the mean
# game score), over all games, and the running score after each game, from the PGN.
summarize() {
  awk -v me="$me_name" '
    function report(label, from, to,    i, n, s, ss, m, sd) {
      for (c = 0; c <= 2; c++) {
        n = 0; s = 0; ss = 0
        for (i = from; i <= to; i++) if (c == 2 || first[i] == c) { n++; s += score[i]; ss += score[i] * score[i] }
        if (n == 0) continue
        m = s / n; sd = n > 1 ? sqrt((ss - n * m * m) / (n - 1)) : 0
        printf "%s %s: %.1f%% +- %.1f over %d games\n", label, (c == 0 ? "as Black" : c == 1 ? "as White" : "in all"),
          100 * m, 196 * sd / sqrt(n), n
      }
    }
    /^\[White / { white = ($0 ~ "\"" me "\"") }
    /^\[Result / {
      r = $2; gsub(/[]"]/, "", r)
      n++; first[n] = white
      score[n] = (r == "1/2-1/2") ? 0.5 : ((r == "1-0") == white ? 1 : 0)
      if (r == "1/2-1/2") draws++
    }
    /^\[PlyCount / { p = $2; gsub(/[]"]/, "", p); sum += p }
    END {
      if (n == 0) { print "no games"; exit }
      report("last " (n < 20 ? n : 20), n < 20 ? 1 : n - 19, n)
      report("all " n, 1, n)
      printf "draws %d, mean length %.1f moves\nrunning score:", draws, sum / n / 2
      for (i = 1; i <= n; i++) { total += score[i]; printf " %d:%.0f%%", i, 100 * total / i }
      print ""
    }' "$1"
}

for name in "${names[@]}"; do
  tag=$name-$MODE
  me_name=dossier-$MODE
  me="name=$me_name"
  case "$MODE" in
    even) me="$me mode=even memory=$OUT/$tag-memory" ;;
    elo)
      elo=${ELO:-}
      if [ -z "$elo" ]; then
        case "$name" in
          sf*) elo=${name#sf} ;;
          *) echo "tests/ladder.sh: MODE=elo against $name needs ELO" >&2; exit 2 ;;
        esac
      fi
      tag=$name-elo$elo
      me_name=dossier-elo$elo
      me="name=$me_name elo=$elo"
      ;;
  esac
  read -ra opening <<<"$(openings "$name")"
  record=(--pgn "$OUT/$tag.pgn")
  [ "$(game "$name")" = checkers ] && record=(--pdn "$OUT/$tag.pgn") # PDN, whose tags the summary reads alike
  args=(match --game "$(game "$name")" --json --games "$GAMES" --tc "$TC" --time-margin "$MARGIN" --concurrency 1
    "${opening[@]}" "${record[@]}" --player1 "$me" --player2 "$(rung "$name")")
  echo "== $tag: dossier ${args[*]}"
  [ "$DRY" = 1 ] && continue
  rm -rf "$OUT/$tag-memory"
  "$BIN" "${args[@]}" >"$OUT/$tag.json"
  cat "$OUT/$tag.json"
  summarize "$OUT/$tag.pgn" | tee "$OUT/$tag.txt"
done

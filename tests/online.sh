#!/usr/bin/env bash
# Issue 33's experiment in the conditions of online play: dossier with its memory against dossier without one,
# each against the same opponent, side by side, in cutechess-cli. Nothing is forced on dossier: the opponent plays
# its first moves from a polyglot book of its own (cutechess-cli's book= for that engine alone) and dossier chooses
# every move of its own from the start position; dossier runs one process per game (restart=on, as lichess-bot
# starts the engine for each game), on a clock, and each series (dossier and its opponent) is pinned to a core of
# its own (taskset), as an arena gives each game one core.
#
# usage: tests/online.sh [--dry-run | --summary] OPPONENT...   (OPPONENT: one of OPPONENTS below, or all)
# Environment: CUTECHESS (cutechess-cli; build it from its source, Debian has no package), GAMES (80 a series),
# TC (2+0.05, both engines' clock; an opponent's own below), SERIES ("mem nomem"), CORES ("0 1": the core of each
# series, in SERIES's order; one core for both runs them one after the other), OUT (tests/online-out),
# BOOK_PGN (testdata/chess/8moves_v3_200.pgn.gz: the games the opponent's book is made of), BOOK_PLIES (16: how
# deep polyglot make-book reads them), BOOK_DEPTH (8: how many of its moves the opponent takes from the book),
# OWNBOOK (1: dossier plays from its own book in every series, OwnBook with its built-in repertoire; its book moves,
# searched at depth 0, are left out of the mean depth), OPPONENT_LIMIT (cutechess-cli options of the opponent alone,
# e.g. "depth=9": an opponent that repeats itself, which online play is not), MEM_OPTIONS (cutechess-cli options of
# the memory series' dossier alone, e.g. "option.PrepareTime=20"), STUDY_CORE (a core on which `dossier memory
# study --follow` works beside the memory series, as an operator runs it beside lichess-bot: the analyses and
# preparations the games leave are done there while later games play; its stderr in NAME-study.err).
# Per opponent and series OUT holds NAME-SERIES.pgn and, for the memory series, NAME-mem-memory (the store) and
# NAME-mem.log.jsonl (the memory's line of each game: what it did, its time on our clock, the background's CPU).
# --summary reads them again: dossier's score per series and colour with a 95% interval, the learning curve per
# colour, the mean depth of dossier's moves (cutechess-cli's move comments), overall and by phase of the game (the
# overall mean mixes endgames of different depth: the series' games differ), the memory's CPU per game.
set -euo pipefail
cd "$(dirname "$0")/.."

OPPONENTS=(toga2 glaurung ethereal sf2400 sf2200 sf2050 sf2000 sf1900)

usage() {
  echo "usage: tests/online.sh [--dry-run | --summary] OPPONENT...   (GAMES=80 TC=2+0.05 SERIES=\"mem nomem\" CORES=\"0 1\" OUT=tests/online-out CUTECHESS=cutechess-cli)"
  echo "OPPONENT: all, or one of: ${OPPONENTS[*]}"
}

DRY=0
SUMMARY=0
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --dry-run) DRY=1; shift ;;
  --summary) SUMMARY=1; shift ;;
esac
source tests/names.sh
source tests/memorylog.sh
pick_names tests/online.sh opponent OPPONENTS OPPONENTS "$@"
pick_series tests/online.sh 80
TC=${TC:-2+0.05}
read -r -a cores <<<"${CORES:-0 1}"
OUT=${OUT:-tests/online-out}
BOOK_PGN=${BOOK_PGN:-testdata/chess/8moves_v3_200.pgn.gz}
BOOK_PLIES=${BOOK_PLIES:-16}
BOOK_DEPTH=${BOOK_DEPTH:-8}
CUTECHESS=${CUTECHESS:-cutechess-cli}
BIN=$OUT/dossier
BOOK=$OUT/book.bin

# opponent NAME: the opponent's cutechess-cli engine options (its book is added by the caller). Their own book
# off: the book given here is the one they play from. Ethereal, about 150 Elo above Toga II at dossier's clock,
# plays on a shorter one (ETHEREAL_TC); Stockfish at its UCI_Elo.
opponent() {
  case "$1" in
    toga2) echo "name=toga2 cmd=/usr/games/toga2 option.OwnBook=false option.Hash=16" ;;
    glaurung) echo "name=glaurung cmd=/usr/games/glaurung option.OwnBook=false option.Threads=1 option.Hash=16" ;;
    ethereal) echo "name=ethereal cmd=/usr/games/ethereal-chess option.Threads=1 option.Hash=16 tc=${ETHEREAL_TC:-1+0.03}" ;;
    sf*) echo "name=$1 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=${1#sf} option.Threads=1 option.Hash=16" ;;
  esac
}

# dossier SERIES NAME: dossier's cutechess-cli engine options in a series: one process per game, the memory
# series with a store of its own and its log.
dossier_engine() {
  local args="arg=--no-memory"
  if [ "$1" = mem ]; then
    args="arg=--memory arg=$OUT/$2-mem-memory arg=--log-file arg=$OUT/$2-mem.log.jsonl arg=--log-level arg=info"
  fi
  if [ "$1" = mem ] && [ -n "${MEM_OPTIONS:-}" ]; then args="$args $MEM_OPTIONS"; fi
  if [ "${OWNBOOK:-0}" = 1 ]; then args="$args option.OwnBook=true"; fi
  echo "name=dossier-$1 cmd=$BIN $args restart=on option.Hash=16"
}

# series NAME SERIES: the cutechess-cli command line of one series.
# Each engine gets its clock in its own options: cutechess-cli's -each overrides an engine's own tc= (Ethereal's
# shorter clock was TC until session 28).
series() {
  local theirs
  theirs=$(opponent "$1")
  case " $theirs" in *" tc="*) ;; *) theirs="$theirs tc=$TC" ;; esac
  # shellcheck disable=SC2046 # the options are words
  echo "$CUTECHESS -engine $(dossier_engine "$2" "$1") tc=$TC -engine $theirs${OPPONENT_LIMIT:+ $OPPONENT_LIMIT} book=$BOOK bookdepth=$BOOK_DEPTH" \
    "-each proto=uci -games $GAMES -recover -pgnout $OUT/$1-$2.pgn"
}

# summarize NAME: the tables of the series of NAME from their PGN and the memory's log.
summarize() {
  local name=$1 s
  for s in $SERIES; do
    [ -f "$OUT/$name-$s.pgn" ] || continue
    awk -v name="$name" -v ser="$s" -v games="$GAMES" '
      # depths: the depth of each of dossier'"'"'s searched moves in the game'"'"'s movetext (its comments
      # {+0.25/9 0.051s}, the depth after the slash), by phase of the game. Moves are counted as tokens: a
      # move of our own book has no comment, a move of the opponent'"'"'s book says {book}.
      function depths(white,   s, e, c, tok, ply, d) {
        s = mt; ply = 0
        while (1) {
          sub(/^[ \t]+/, "", s)
          if (s == "") break
          if (substr(s, 1, 1) == "{") {
            e = index(s, "}"); if (e == 0) break
            c = substr(s, 2, e - 2); s = substr(s, e + 1)
            if (c !~ /book/ && (((ply - 1) % 2 == 0) == white) && match(c, /\/[0-9]+/)) {
              d = substr(c, RSTART + 1, RLENGTH - 1) + 0
              if (d > 0) {
                dsum += d; dn++
                ph = (ply - 1 < 20) ? 1 : (ply - 1 < 40) ? 2 : (ply - 1 < 80) ? 3 : 4; psum[ph] += d; pn[ph]++
              }
            }
            continue
          }
          match(s, /^[^ \t{]+/); tok = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
          sub(/^[0-9]+\.+/, "", tok)
          if (tok == "" || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*") continue
          ply++
        }
      }
      function finish() {
        if (result == "" || result == "*") { result = ""; mt = ""; return }
        white = (w == "dossier-" ser)
        depths(white)
        mt = ""
        sc = (result == "1/2-1/2") ? 0.5 : (((result == "1-0") == white) ? 1 : 0)
        col = white ? "white" : "black"
        n[col]++; pts[col] += sc; sq[col] += sc * sc
        if (sc == 1) win[col]++; else if (sc == 0) loss[col]++; else draw[col]++
        k = int((n["white"] + n["black"] - 1) / (games / 4)) + 1; if (k > 4) k = 4
        blk[col, k] += sc; bn[col, k]++
        if (tolower(term) ~ /time/) { if (sc == 0) timeouts++; else theirs++ }
        term = ""
        result = ""
      }
      /^\[White / { finish(); w = $0; sub(/^\[White "/, "", w); sub(/"\]$/, "", w) }
      /^\[Result / { r = $0; sub(/^\[Result "/, "", r); sub(/"\]$/, "", r); result = r }
      /^\[Termination / { term = $0 }
      !/^\[/ { mt = mt " " $0 }
      END {
        finish()
        for (ci = 1; ci <= 3; ci++) {
          col = (ci == 1) ? "white" : (ci == 2) ? "black" : "both"
          if (col == "both") { N = n["white"] + n["black"]; P = pts["white"] + pts["black"]; Q = sq["white"] + sq["black"]
            W = win["white"] + win["black"]; D = draw["white"] + draw["black"]; L = loss["white"] + loss["black"] }
          else { N = n[col]; P = pts[col]; Q = sq[col]; W = win[col]; D = draw[col]; L = loss[col] }
          if (N == 0) continue
          m = P / N; v = (Q / N - m * m); ci95 = (N > 1) ? 1.96 * sqrt(v / N) : 0
          curve = ""
          if (col != "both") for (k = 1; k <= 4; k++) if (bn[col, k] > 0) curve = curve sprintf(" %.0f%%", 100 * blk[col, k] / bn[col, k])
          printf "%-9s %-6s %-6s %3d games +%d =%d -%d  %5.1f%% ±%4.1f%s\n", name, ser, col, N, W, D, L, 100 * m, 100 * ci95, (curve == "") ? "" : "  by quarter:" curve
        }
        printf "%-9s %-6s mean depth of dossier'"'"'s moves %.2f over %d moves; losses on time %d (the opponent'"'"'s %d)\n", name, ser, (dn ? dsum / dn : 0), dn, timeouts, theirs
        split("plies 0-19,20-39,40-79,80 on", label, ",")
        line = ""
        for (ph = 1; ph <= 4; ph++) if (pn[ph]) line = line sprintf("  %s: %.2f (%d)", label[ph], psum[ph] / pn[ph], pn[ph])
        printf "%-9s %-6s mean depth by phase of the game:%s\n", name, ser, line
      }' "$OUT/$name-$s.pgn"
  done
  if [ -f "$OUT/$name-mem.log.jsonl" ]; then memory_per_game "$OUT/$name-mem.log.jsonl"; fi
}

if [ "$SUMMARY" = 1 ]; then
  for name in "${names[@]}"; do summarize "$name"; done
  exit 0
fi

mkdir -p "$OUT"
if [ "$DRY" = 0 ]; then
  command -v "$CUTECHESS" >/dev/null || { echo "tests/online.sh: no $CUTECHESS (set CUTECHESS)" >&2; exit 2; }
  go build -o "$BIN" ./cmd/dossier
  if [ ! -s "$BOOK" ]; then
    gunzip -c "$BOOK_PGN" >"$OUT/book.pgn" 2>/dev/null || cp "$BOOK_PGN" "$OUT/book.pgn"
    (cd "$OUT" && /usr/games/polyglot make-book -pgn book.pgn -bin book.bin -max-ply "$BOOK_PLIES" -min-game 1 >/dev/null)
  fi
fi
for name in "${names[@]}"; do
  pids=()
  study=
  i=0
  for s in $SERIES; do
    core=${cores[$((i % ${#cores[@]}))]}
    cmd="taskset -c $core $(series "$name" "$s")"
    echo "== $name-$s: $cmd"
    if [ "$s" = mem ] && [ -n "${STUDY_CORE:-}" ]; then
      echo "== $name-study: taskset -c $STUDY_CORE $BIN memory study --follow --memory $OUT/$name-mem-memory"
    fi
    if [ "$DRY" = 0 ]; then
      rm -rf "$OUT/$name-$s.pgn" "$OUT/$name-$s-memory" "$OUT/$name-$s.log.jsonl"
      if [ "$s" = mem ] && [ -n "${STUDY_CORE:-}" ]; then
        # The worker starts once the series' first game has made the store.
        (for _ in $(seq 600); do [ -d "$OUT/$name-mem-memory" ] && break; sleep 0.1; done
          exec taskset -c "$STUDY_CORE" "$BIN" memory study --follow --memory "$OUT/$name-mem-memory") \
          2>"$OUT/$name-study.err" &
        study=$!
      fi
      if [ ${#cores[@]} -gt 1 ]; then
        $cmd >"$OUT/$name-$s.out" 2>&1 &
        pids+=($!)
      else
        $cmd >"$OUT/$name-$s.out" 2>&1
      fi
    fi
    i=$((i + 1))
  done
  for p in "${pids[@]}"; do wait "$p"; done
  if [ -n "$study" ]; then kill -INT "$study" 2>/dev/null || true; wait "$study" 2>/dev/null || true; fi
  if [ "$DRY" = 0 ]; then summarize "$name" | tee "$OUT/$name.txt"; fi
done

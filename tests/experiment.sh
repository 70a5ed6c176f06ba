#!/usr/bin/env bash
# Issue 10's experiment: dossier with its per-opponent memory (empty at game 1) against dossier without memory,
# each against the same opponents, time controls, openings and colours; the summary of tests/experiment-results.md.
#
# usage: tests/experiment.sh [--dry-run | --summary] OPPONENT...   (OPPONENT: one of OPPONENTS below, or all)
# Environment: GAMES (40), SERIES ("mem nomem": which series to play; "nomem" alone calibrates), PARALLEL (1: the
# two series of an opponent run side by side, each with --concurrency 1, so that both see the same machine load;
# 0: one after the other), OPENINGS (10: how many of the game's ten openings the series cycle through; fewer
# openings meet each position more often, which is what game memory needs), TC (dossier's clock, 2+0.05), OUT (tests/experiment-out, which .gitignore covers),
# RUNS (--summary only: folders of several runs to pool), PREPARE (seconds: the memory series prepares for the
# next game after each one, PrepareTime; unset: no preparation), MEMORY_RISK (the memory series' MemoryRisk; unset:
# the game's default), MEMORY_CONTEMPT (1: the memory series sets its contempt from the dossier, MemoryContempt), and the opponents' limits below (TOGA_TC, ...). Per
# opponent and series OUT holds NAME-SERIES.json (the match summary), .log, .pgn (.pdn for checkers), and for the
# memory series NAME-mem-memory (the store) and NAME-mem.dump.jsonl (its dump). --summary reads those files
# again and prints the tables without playing; the summary of each run is also in NAME.txt. Bash reads a script
# as it runs it, so edit this one during a run only when the run was started from a copy in memory, as
# bash -c "$(cat tests/experiment.sh)" tests/experiment.sh ... (the runs of tests/experiment-results.md were).
set -euo pipefail
cd "$(dirname "$0")/.."

# OPPONENTS are the names the command line accepts: chess engines by Debian (Stockfish at UCI_Elo settings),
# and dossier presets at a fixed depth in checkers and Connect-Four, whose evaluation and depth dossier is not told.
OPPONENTS=(toga2 glaurung ethereal fairy-sf sf1350 sf1800 sf2000 sf2200 sf2400 checkers connect4)

usage() {
  echo "usage: tests/experiment.sh [--dry-run | --summary] OPPONENT...   (GAMES=40 SERIES=\"mem nomem\" PARALLEL=1 TC=2+0.05 OUT=tests/experiment-out RUNS=)"
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
pick_names tests/experiment.sh opponent OPPONENTS OPPONENTS "$@"
pick_series tests/experiment.sh 40
PARALLEL=${PARALLEL:-1}
OPENINGS=${OPENINGS:-10}
if ! [[ "$OPENINGS" =~ ^([1-9]|10)$ ]]; then
  echo "tests/experiment.sh: OPENINGS must be a number from 1 to 10, not \"$OPENINGS\"" >&2
  exit 2
fi
OUT=${OUT:-tests/experiment-out}
PREPARE=${PREPARE:-}
MEMORY_RISK=${MEMORY_RISK:-}
MEMORY_CONTEMPT=${MEMORY_CONTEMPT:-0}
if ! [[ "$MEMORY_CONTEMPT" =~ ^[01]$ ]]; then
  echo "tests/experiment.sh: MEMORY_CONTEMPT must be 0 or 1, not \"$MEMORY_CONTEMPT\"" >&2
  exit 2
fi
if [ -n "$MEMORY_RISK" ] && ! [[ "$MEMORY_RISK" =~ ^[0-9]+$ ]]; then
  echo "tests/experiment.sh: MEMORY_RISK must be a whole number, not \"$MEMORY_RISK\"" >&2
  exit 2
fi
if [ -n "$PREPARE" ] && ! [[ "$PREPARE" =~ ^[1-9][0-9]*$ ]]; then
  echo "tests/experiment.sh: PREPARE must be a number of seconds, not \"$PREPARE\"" >&2
  exit 2
fi
BIN=$OUT/dossier

# game NAME: the opponent's game.
game() {
  case "$1" in
    checkers | connect4) echo "$1" ;;
    *) echo chess ;;
  esac
}

# opponent NAME: the opponent's player spec. At dossier's clock the engines by others would win nearly every
# game, so they are held back: Glaurung and Fairy-Stockfish by a node limit (with a clock of their own long
# enough never to run out on a loaded machine; Glaurung on one thread, so that its node limit makes it
# deterministic: its default two threads made it leave lines it had lost), Toga II and Ethereal, which ignore "go nodes", by a shorter
# clock of their own, or with TOGA_DEPTH / ETHEREAL_DEPTH set by a fixed depth on the long clock (which makes
# them repeat a game move for move); Stockfish plays at its UCI_Elo on dossier's clock, or on SF_TC when set (Stockfish
# 2400: 1.75+0.04). On this loaded machine the score moved steeply with an engine's own clock: Ethereal on
# 0.5+0.01 lost 19 of 19, on 1+0.02 and 1.5+0.03 scored 9% and 5% of 40, on 2+0.05 92% of 6 (so: 1.75+0.04);
# Toga II on 1+0.02 scored 12% of 19. The limits were calibrated so that
# dossier without memory scores between 20% and 80% (tests/experiment-results.md). The checkers and Connect-Four
# presets search to their depth on the same long clock of their own, so that the depth ends every search and
# they too repeat a game (on dossier's 2+0.05 a depth-14 checkers search cut short by the clock left won lines).
opponent() {
  local own="tc=${NODES_TC:-60+1}"
  case "$1" in
    toga2)
      if [ -n "${TOGA_DEPTH:-}" ]; then
        echo "name=toga2-d$TOGA_DEPTH uci=/usr/games/toga2 depth=$TOGA_DEPTH OwnBook=false Hash=16 $own"
      else
        echo "name=toga2-tc${TOGA_TC:-1.5+0.03} uci=/usr/games/toga2 tc=${TOGA_TC:-1.5+0.03}"
      fi
      ;;
    glaurung) echo "name=glaurung-n${GLAURUNG_NODES:-10000} uci=/usr/games/glaurung nodes=${GLAURUNG_NODES:-10000} Threads=1 Hash=16 $own" ;;
    ethereal)
      if [ -n "${ETHEREAL_DEPTH:-}" ]; then
        echo "name=ethereal-d$ETHEREAL_DEPTH uci=/usr/games/ethereal-chess depth=$ETHEREAL_DEPTH Threads=1 Hash=16 $own"
      else
        echo "name=ethereal-tc${ETHEREAL_TC:-1.75+0.04} uci=/usr/games/ethereal-chess tc=${ETHEREAL_TC:-1.75+0.04}"
      fi
      ;;
    fairy-sf) echo "name=fairy-sf-n${FAIRY_NODES:-3000} uci=/usr/games/fairy-stockfish nodes=${FAIRY_NODES:-3000} $own" ;;
    sf*)
      local sftc=${SF_TC:-}
      [ "$1" = sf2400 ] && sftc=${SF_TC:-1.75+0.04}
      echo "name=${1}${sftc:+-tc$sftc} uci=/usr/games/stockfish UCI_LimitStrength=true UCI_Elo=${1#sf} Threads=1 Hash=16 'Move Overhead=50'${sftc:+ tc=$sftc}"
      ;;
    checkers) echo "name=${CHECKERS_OP:-strongest-d10} preset=${CHECKERS_PRESET:-strongest} depth=${CHECKERS_DEPTH:-10} $own" ;;
    connect4) echo "name=${CONNECT4_OP:-sophisticated-d12} preset=${CONNECT4_PRESET:-sophisticated} depth=${CONNECT4_DEPTH:-12} $own" ;;
  esac
}

# timecontrol NAME: the match's clock, dossier's in both series (an opponent's own tc= replaces it for the opponent).
timecontrol() {
  echo "${TC:-2+0.05}"
}

# openings NAME: writes the first OPENINGS of the opponent's game's 10 openings to OUT and prints the match
# options that read them. Ten openings played four times each (twice a colour) in 40 games let the memory meet
# each position again, in rounds 2 to 4 only; two openings in 40 games meet each start and colour ten times.
openings() {
  case "$(game "$1")" in
    chess)
      head -n "$OPENINGS" testdata/chess/ladder20.epd >"$OUT/chess$OPENINGS.epd"
      echo "--openings $OUT/chess$OPENINGS.epd"
      ;;
    checkers)
      # Ten common 2- to 4-ply openings (PDN movetext), and the papers' 100-move limit.
      printf '%s\n' '1. 11-15 23-19 2. 8-11 22-17' '1. 11-15 22-18 2. 15x22 25x18' '1. 9-13 22-18 2. 10-14' \
        '1. 10-15 23-19' '1. 11-16 22-18' '1. 12-16 24-20' '1. 9-14 22-17' '1. 10-14 24-19' '1. 11-15 24-20' \
        '1. 9-13 23-18' | head -n "$OPENINGS" >"$OUT/checkers$OPENINGS.txt"
      echo "--openings $OUT/checkers$OPENINGS.txt --max-moves 100"
      ;;
    connect4)
      # Ten two-disc openings in Pons's column digits (1 is the leftmost column).
      printf '%s\n' 41 42 43 44 45 46 47 34 54 33 | head -n "$OPENINGS" >"$OUT/connect4-$OPENINGS.txt"
      echo "--openings $OUT/connect4-$OPENINGS.txt"
      ;;
  esac
}

# record NAME SERIES: the game record file of a series (PDN for checkers).
record() {
  if [ "$(game "$1")" = checkers ]; then echo "$OUT/$1-$2.pdn"; else echo "$OUT/$1-$2.pgn"; fi
}

# summarize NAME: per series, dossier's score (+W =D -L) with a 95% interval, the score in four blocks of game
# indices (the learning curve), the mean length in moves of its won games, how many games repeated an earlier
# game of their run move for move (what replaying a won game needs), and who left the line of an earlier won
# game first; the difference mem - nomem with its 95% interval; and for the memory series the prediction
# accuracy of the opponent's replies, by block, from the memory's dump. The records are those in OUT, or in
# each folder of RUNS (space-separated) pooled: several runs of the same matches, each with its own memory.
summarize() {
  local name=$1 s d f files=() dumps=() logs=() k=0 plain
  plain=$(mktemp -d)
  # shellcheck disable=SC2064 # the folder is known now
  trap "rm -rf '$plain'" RETURN
  for d in ${RUNS:-$OUT}; do
    k=$((k + 1))
    for f in "$d/$(basename "$(record "$name" mem)")" "$d/$(basename "$(record "$name" nomem)")" \
      "$d/$name-mem.dump.jsonl" "$d/$name-mem.log.jsonl"; do
      # A gzip-compressed file (as the records kept in tests/experiment-records) is read from a plain copy
      # under the same name, one folder per run.
      if [ ! -f "$f" ] && [ -f "$f.gz" ]; then
        mkdir -p "$plain/$k"
        gunzip -c "$f.gz" >"$plain/$k/$(basename "$f")"
        f=$plain/$k/$(basename "$f")
      fi
      [ -f "$f" ] || continue
      case "$f" in
        *.log.jsonl) logs+=("$f") ;;
        *.jsonl) dumps+=("$f") ;;
        *) files+=("$f") ;;
      esac
    done
  done
  if [ ${#files[@]} = 0 ]; then
    echo "$name: no game records in ${RUNS:-$OUT}"
    return
  fi
  awk -v name="$name" -v dumps="${dumps[*]}" -v logs="${logs[*]}" '
    # finish: files the game just read, the gi-th of its file run, under its series ser.
    function finish() {
      if (result == "") return
      s = (result == "1/2-1/2") ? 0.5 : (((result == "1-0") == white) ? 1 : 0)
      sc[ser, ++n[ser]] = s; gi++
      curve[ser, gi] += s; count[ser, gi]++; if (gi > runlen[ser]) runlen[ser] = gi
      # The same by colour (the name of the colour dossier played), its games indexed within the colour.
      col = ser SUBSEP ((white == (first == "White")) ? "white" : "black")
      sc[col, ++n[col]] = s; ci[col]++
      curve[col, ci[col]] += s; count[col, ci[col]]++; if (ci[col] > runlen[col]) runlen[col] = ci[col]
      if (s == 1) wins[col]++; else if (s == 0) losses[col]++; else draws[col]++
      if (s == 1) { wins[ser]++; wonmoves[ser] += int((plies + 1) / 2) } else if (s == 0) losses[ser]++; else draws[ser]++
      # A game that repeats an earlier one of its run move for move, from the same start with the same colours.
      key = run SUBSEP fen SUBSEP white SUBSEP body
      if (key in seen) repeats[ser]++
      seen[key] = 1
      leaving(run, gi, s)
      result = ""; fen = ""; body = ""
    }
    # leaving RUN I S: when game I of the run began as an earlier game of it that dossier won (the same start and
    # colours), counts it in met[ser] and who left the won line first, where it parts from the won game it
    # follows longest: left[ser, "ours"], left[ser, "theirs"], or left[ser, "none"] when it played that game
    # again. Game memory replays the moves of a won game, so only an opponent who varies should leave the line.
    function leaving(run, i, s,   nt, t, w, j, d, best, bw, c, f, firstmoves, mine) {
      nt = split(body, t, " "); c = 0
      for (j = 1; j <= nt; j++) if (t[j] !~ /^[0-9]+\.+$/ && t[j] !~ /^(1-0|0-1|1\/2-1\/2|\*)$/) moves[run, i, ++c] = t[j]
      nm[run, i] = c; gfen[run, i] = fen; gme[run, i] = white; gsc[run, i] = s
      best = -1
      for (w = 1; w < i; w++) {
        if (gsc[run, w] != 1 || gfen[run, w] != fen || gme[run, w] != white) continue
        for (d = 0; d < c && d < nm[run, w] && moves[run, i, d + 1] == moves[run, w, d + 1]; d++) {}
        if (d > best) { best = d; bw = w }
      }
      if (best < 0) return
      met[ser]++
      if (best == c && best == nm[run, bw]) { left[ser, "none"]++; return }
      # The first player is to move at the start unless the FEN says otherwise (PGN: " b "; PDN: "W:" when Black
      # moves first).
      split(fen, f, "\""); firstmoves = (f[2] !~ / b / && f[2] !~ /^W:/)
      mine = (((best % 2) == 0) == firstmoves) == (white ? 1 : 0)
      left[ser, mine ? "ours" : "theirs"]++
    }
    # stats SER: sets mean, half (the 95% half-width, 1.96 standard errors of the mean of 1, 1/2, 0 scores).
    function stats(ser,   i, m, v) {
      m = 0; for (i = 1; i <= n[ser]; i++) m += sc[ser, i]; m /= n[ser]
      v = 0; for (i = 1; i <= n[ser]; i++) v += (sc[ser, i] - m) ^ 2
      v = (n[ser] > 1) ? v / (n[ser] - 1) / n[ser] : 0
      mean = m; half = 1.96 * sqrt(v); variance = v
    }
    # curveOf KEY: the score of a series (or a series and colour) in four blocks of its game indices.
    function curveOf(key,   out, len, b, j, lo, hi, t, c, i) {
      out = ""; len = runlen[key]; b = (len >= 4) ? 4 : len
      for (j = 0; j < b; j++) {
        lo = int(j * len / b) + 1; hi = int((j + 1) * len / b); t = 0; c = 0
        for (i = lo; i <= hi; i++) { t += curve[key, i]; c += count[key, i] }
        out = out sprintf("%s%.0f%%", j ? " " : "", 100 * t / c)
      }
      return out
    }
    # In PDN the first player (who wins a 1-0) is Black; in PGN, White.
    FNR == 1 {
      finish(); gi = 0; run = FILENAME; delete ci
      ser = (FILENAME ~ /-mem\.p[gd]n$/) ? "mem" : "nomem"; first = (FILENAME ~ /\.pdn$/) ? "Black" : "White"
    }
    /^\[Event / { finish() }
    $1 == "[" first { white = ($0 ~ /"dossier-/) }
    /^\[Result / { result = $2; gsub(/[]"]/, "", result) }
    /^\[PlyCount / { plies = $2; gsub(/[]"]/, "", plies) }
    /^\[FEN / { fen = $0 }
    !/^\[/ && NF { body = body " " $0 }
    END {
      finish()
      # The dumps: each run the games in the order they were played (their ids start with the time), and the
      # predictions; a game counts in its block of its run.
      nd = split(dumps, dl, " ")
      for (di = 1; di <= nd; di++) {
        ng = 0
        while ((getline line < dl[di]) > 0) {
          if (line ~ /"type":"game"/ && match(line, /"id":"[^"]*"/)) gid[di, ++ng] = substr(line, RSTART + 6, RLENGTH - 7)
          if (line ~ /"type":"mistake"/) mistakes++
          if (line ~ /"type":"experience"/) experience++
          if (line ~ /"type":"move"/ && line ~ /"opp":true/ && match(line, /"game":"[^"]*"/)) {
            g = di SUBSEP substr(line, RSTART + 8, RLENGTH - 9)
            mv = ""; pr = ""
            if (match(line, /"move":"[^"]*"/)) mv = substr(line, RSTART + 8, RLENGTH - 9)
            if (match(line, /"pred":"[^"]*"/)) pr = substr(line, RSTART + 8, RLENGTH - 9)
            if (pr != "") { asked[g]++; if (pr == mv) right[g]++ }
          }
        }
        close(dl[di])
        dgames[di] = ng; if ((ng < 4 ? ng : 4) > nb) nb = (ng < 4) ? ng : 4
      }
      printf "== %s\n", name
      printf "%-6s %5s %-13s %-15s %-31s %-15s %s\n", "series", "games", "score", "+W =D -L", "blocks of game index",
        "moves/won game", "repeated games"
      for (si = 1; si <= 2; si++) {
        ser = (si == 1) ? "mem" : "nomem"
        if (!n[ser]) continue
        stats(ser); mm[ser] = mean; vv[ser] = variance
        blocks = curveOf(ser)
        printf "%-6s %5d %5.1f%% ±%4.1f %-15s %-31s %-15s %d\n", ser, n[ser], 100 * mean, 100 * half,
          sprintf("+%d =%d -%d", wins[ser], draws[ser], losses[ser]), blocks,
          wins[ser] ? sprintf("%.1f", wonmoves[ser] / wins[ser]) : "-", repeats[ser]
      }
      for (si = 1; si <= 2; si++) {
        ser = (si == 1) ? "mem" : "nomem"
        if (met[ser]) printf "%s: %d games began as an earlier won game; left its line first: dossier %d, the opponent %d, neither (played again) %d\n",
          ser, met[ser], left[ser, "ours"], left[ser, "theirs"], left[ser, "none"]
      }
      if (n["mem"] && n["nomem"]) {
        d = mm["mem"] - mm["nomem"]; h = 1.96 * sqrt(vv["mem"] + vv["nomem"])
        printf "mem - nomem: %+.1f%% ±%.1f%% (%s)\n", 100 * d, 100 * h,
          (d - h > 0) ? "significantly more" : ((d + h < 0) ? "significantly less" : "not significant")
      }
      # Each colour on its own: a pooled gain can hide a loss in one colour.
      for (cl = 1; cl <= 2; cl++) {
        colour = (cl == 1) ? "white" : "black"
        for (si = 1; si <= 2; si++) {
          ser = (si == 1) ? "mem" : "nomem"; key = ser SUBSEP colour
          if (!n[key]) continue
          stats(key); cm[ser] = mean; cv[ser] = variance
          printf "%-6s as %-5s %3d %5.1f%% ±%4.1f %-15s %s\n", ser, colour, n[key], 100 * mean, 100 * half,
            sprintf("+%d =%d -%d", wins[key], draws[key], losses[key]), curveOf(key)
        }
        if (n["mem" SUBSEP colour] && n["nomem" SUBSEP colour]) {
          d = cm["mem"] - cm["nomem"]; h = 1.96 * sqrt(cv["mem"] + cv["nomem"])
          printf "mem - nomem as %s: %+.1f%% ±%.1f%% (%s)\n", colour, 100 * d, 100 * h,
            (d - h > 0) ? "significantly more" : ((d + h < 0) ? "significantly less" : "not significant")
        }
      }
      if (nd) {
        line = ""; ta = 0; tr = 0
        for (j = 0; j < nb; j++) {
          a = 0; r = 0
          for (di = 1; di <= nd; di++) {
            ng = dgames[di]; b = (ng < 4) ? ng : 4
            if (j >= b) continue
            lo = int(j * ng / b) + 1; hi = int((j + 1) * ng / b)
            for (i = lo; i <= hi; i++) { a += asked[di, gid[di, i]]; r += right[di, gid[di, i]] }
          }
          ta += a; tr += r
          line = line sprintf("%s%.1f%%", j ? " " : "", a ? 100 * r / a : 0)
        }
        printf "prediction (mem): %d right of %d predicted opponent moves (%.1f%%); by block of games: %s\n", tr, ta,
          ta ? 100 * tr / ta : 0, line
        printf "analysis (mem): %d mistakes filed for %d lost games (and %d drawn); %d experience entries in the memory\n",
          mistakes, losses["mem"], draws["mem"], experience
      }
      # The log of the memory (log=): one line a game says what the memory did in it.
      nl = split(logs, ll, " "); lg = 0
      for (li = 1; li <= nl; li++) {
        while ((getline line < ll[li]) > 0) {
          if (line ~ /"msg":"prepared for the next game"/) {
            prep++
            if (match(line, /"positions":[0-9]+/)) prepPositions += substr(line, RSTART + 12, RLENGTH - 12)
            if (match(line, /"searched_s":[0-9.e+-]+/)) prepSeconds += substr(line, RSTART + 13, RLENGTH - 13)
            continue
          }
          if (line !~ /"msg":"memory in the game"/) continue
          lg++
          for (fi = 1; fi <= 6; fi++) {
            fld = (fi == 1) ? "searches" : (fi == 2) ? "experience_searches" : (fi == 3) ? "experience_nodes" : (fi == 4) ? "prepared_moves" : (fi == 5) ? "recalled_moves" : "draws_left"
            if (match(line, "\"" fld "\":[0-9]+")) used[fld] += substr(line, RSTART + length(fld) + 3, RLENGTH - length(fld) - 3)
            if (fi == 2 && RSTART && substr(line, RSTART + length(fld) + 3, RLENGTH - length(fld) - 3) + 0 > 0) usedgames++
          }
          if (match(line, /"contempt":-?[0-9.e+-]+/) && (ctv = substr(line, RSTART + 11, RLENGTH - 11) + 0) != 0) {
            if (!cg || ctv < cmin) cmin = ctv
            if (!cg || ctv > cmax) cmax = ctv
            cg++; csum += ctv
          }
        }
        close(ll[li])
      }
      if (lg) printf "memory use (mem): %d games; experience settled nodes in %d of %d searches (%.1f a game, in %d games; %d nodes), won games replayed %d moves, repeated draws left %d times, prepared entries %d\n",
        lg, used["experience_searches"], used["searches"], used["experience_searches"] / lg, usedgames, used["experience_nodes"],
        used["recalled_moves"], used["draws_left"] + 0, used["prepared_moves"]
      if (cg) printf "contempt (mem): set by the dossier in %d of %d games, %+.0f to %+.0f, %+.1f on average\n", cg, lg,
        cmin, cmax, csum / cg
      if (prep) printf "preparation (mem): %d runs, %d positions searched, %.0f s of search in all (%.1f s a game)\n",
        prep, prepPositions, prepSeconds, (lg ? prepSeconds / lg : 0)
    }' "${files[@]}"
}

if [ "$SUMMARY" = 1 ]; then
  for name in "${names[@]}"; do summarize "$name"; done
  exit 0
fi

mkdir -p "$OUT"
[ "$DRY" = 1 ] || go build -o "$BIN" ./cmd/dossier

# series NAME SERIES: one match of GAMES games, dossier (with or without memory) against the opponent.
series() {
  local name=$1 s=$2 me="name=dossier-$2" rec
  rec=$(record "$name" "$s")
  if [ "$s" = mem ]; then
    me="$me memory=$OUT/$name-mem-memory log=$OUT/$name-mem.log.jsonl"
    [ -n "$PREPARE" ] && me="$me prepare=$PREPARE"
    [ -n "$MEMORY_RISK" ] && me="$me memoryrisk=$MEMORY_RISK"
    [ "$MEMORY_CONTEMPT" = 1 ] && me="$me memorycontempt=on"
  fi
  local format=--pgn
  [ "$(game "$name")" = checkers ] && format=--pdn
  # shellcheck disable=SC2046 # the openings options are words
  local args=(match --game "$(game "$name")" --json --games "$GAMES" --tc "$(timecontrol "$name")" --concurrency 1
    $(openings "$name") "$format" "$rec" --player1 "$me" --player2 "$(opponent "$name")")
  echo "== $name-$s: dossier ${args[*]}"
  [ "$DRY" = 1 ] && return
  rm -f "$rec"
  [ "$s" = mem ] && rm -rf "$OUT/$name-mem-memory" "$OUT/$name-mem.log.jsonl"
  nice -n 5 "$BIN" "${args[@]}" >"$OUT/$name-$s.json" 2>"$OUT/$name-$s.log"
  if [ "$s" = mem ]; then
    "$BIN" memory dump --memory "$OUT/$name-mem-memory" --out "$OUT/$name-mem.dump.jsonl"
  fi
}

for name in "${names[@]}"; do
  if [ "$PARALLEL" = 1 ] && [ "$DRY" = 0 ]; then
    pids=()
    for s in $SERIES; do
      series "$name" "$s" &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
  else
    for s in $SERIES; do series "$name" "$s"; done
  fi
  [ "$DRY" = 1 ] && continue
  summarize "$name" | tee "$OUT/$name.txt"
done

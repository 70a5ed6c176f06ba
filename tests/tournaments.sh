#!/usr/bin/env bash
# The papers' tournaments as dossier match commands: what docs/papers.md and the issues report was measured with these.
#
# usage: tests/tournaments.sh [--dry-run] NAME...   (NAME: one of the experiments listed in EXPERIMENTS, or all)
# Results go to $OUT (default ./tournaments-out, which .gitignore covers): one .json summary and one game record
# per match. --dry-run prints the dossier match commands without running them.
# Run on a quiet machine: the timed matches (sf2000, abstar-time) depend on it.
set -euo pipefail
cd "$(dirname "$0")/.."

# EXPERIMENTS are the names the command line accepts; ALL is what "all" runs.
EXPERIMENTS=(checkers-mstar checkers-mstar-mat12 checkers-mstar-depth5 checkers-mstar-depth5-mat12 abstar-time
  abstar-time-mat12 abstar-nodes abstar-nodes-mat12 om-time om-time-mat12 benefit-tictactoe benefit-checkers
  connect4-meu sf2000)
ALL=(checkers-mstar checkers-mstar-mat12 checkers-mstar-depth5 checkers-mstar-depth5-mat12 abstar-time
  abstar-time-mat12 abstar-nodes abstar-nodes-mat12 om-time-mat12 benefit-tictactoe benefit-checkers connect4-meu sf2000)

usage() {
  echo "usage: tests/tournaments.sh [--dry-run] NAME...   (results to \$OUT, default tournaments-out)"
  echo "NAME: all, or one of: ${EXPERIMENTS[*]}"
}

DRY=0
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --dry-run) DRY=1; shift ;;
esac
source tests/names.sh
pick_names tests/tournaments.sh experiment ALL EXPERIMENTS "$@"

OUT=${OUT:-tournaments-out}
mkdir -p "$OUT"
BIN=$OUT/dossier
[ "$DRY" = 1 ] || go build -o "$BIN" ./cmd/dossier

# The first 400 distinct 8-ply openings of the ACF games (dossier match keeps a repeated position once).
ACF=(--openings testdata/checkers/ACF_converted.pdn.gz --opening-plies 8)

# run NAME ARGS...: one match, its summary in $OUT/NAME.json.
run() {
  local name=$1
  shift
  echo "== $name: dossier match $*"
  [ "$DRY" = 1 ] && return
  "$BIN" match --json "$@" >"$OUT/$name.json"
  cat "$OUT/$name.json"
}

# Checkers matches of 800 games against OP, Carmel & Markovitch's opponent: minimax with Mat - Tot/25 at depth 4.
# MAT is the preset that reads Mat - Tot/25: mat-tot25 counts Mat in men (Tot/25 then only breaks ties),
# mat12-tot25 as a fraction of a side's 12 pieces (an exchange is then worth about a man); the *-mat12 names
# below run the same matches with the second reading. Results go to NAME (men) or NAME-mat12.
CHECKERS800=(--game checkers "${ACF[@]}" --games 800 --max-moves 100 --concurrency 2)
MAT=${MAT:-mat-tot25}
op() { echo "name=OP preset=$MAT search=mstar depth=4"; }
suffix() { [ "$MAT" = mat-tot25 ] || echo "-${MAT%%-*}"; }

# vs-op NAME SPEC [OPTIONS...]: SPEC against OP (or $OPSPEC), the games to $OUT/NAME.pdn.
vs-op() {
  local name=$1$(suffix) spec=$2
  shift 2
  run "$name" "${CHECKERS800[@]}" --pdn "$OUT/$name.pdn" "$@" --player1 "$spec" --player2 "${OPSPEC:-$(op)}"
}

# Carmel & Markovitch's second experiment: all at depth 4 with Mat - Tot/25; OP plays minimax with it, MM
# assumes an opponent that avoids exchanges (-f), MSTAR knows OP (the paper: MM 803, MSTAR 931 of 1600).
checkers-mstar() {
  vs-op mm-vs-op "name=MM preset=$MAT search=mstar depth=4"
  vs-op mstar-vs-op "name=MSTAR preset=$MAT search=mstar model=$MAT@3 depth=4"
  vs-op mstar1pass-vs-op "name=MSTAR1 preset=$MAT search=mstar-1pass model=$MAT depth=4"
}
checkers-mstar-mat12() { MAT=mat12-tot25 checkers-mstar; }

# The same with a model of OP's true depth: MSTAR and minimax search 5 plies, MSTAR models OP's 4 (the paper's
# players could only assume 3); the risk-reduced form trusts the model for the first reply only.
checkers-mstar-depth5() {
  vs-op mm5-vs-op "name=MM5 preset=$MAT search=mstar depth=5"
  vs-op mstar5-vs-op "name=MSTAR5 preset=$MAT search=mstar model=$MAT@4 depth=5"
  vs-op risk5-vs-op "name=RISK5 preset=$MAT search=mstar-risk model=$MAT@4 depth=5"
}
checkers-mstar-depth5-mat12() { MAT=mat12-tot25 checkers-mstar-depth5; }

# The equal-resources matches: iterative-deepening alpha-beta* (modelling OP as Mat - Tot/25) against OP as the
# same iterative-deepening code without a model, at an equal time a move and at an equal node budget (the
# paper's condition, equal leaves: 780 of 1600), and at an equal time against dossier's full alpha-beta with the
# same evaluation. depth=60 lifts the preset's depth cap of 4.
abstar() { echo "name=ABSTAR preset=$MAT search=alphabeta-star model=$MAT depth=60"; }
abstar-time() {
  local movetime=(--movetime "${MOVETIME:-50}")
  OPSPEC="name=OP preset=$MAT search=alphabeta-star depth=60" vs-op abstar-vs-idab "$(abstar)" "${movetime[@]}"
  OPSPEC="name=OP preset=$MAT depth=60" vs-op abstar-vs-ab "$(abstar)" "${movetime[@]}"
}
abstar-nodes() {
  OPSPEC="name=OP preset=$MAT search=alphabeta-star depth=60" vs-op abstar-nodes "$(abstar)" --nodes "${NODES:-5000}"
}
abstar-time-mat12() { MAT=mat12-tot25 abstar-time; }
abstar-nodes-mat12() { MAT=mat12-tot25 abstar-nodes; }

# OM search with the engine's own alpha-beta as its probes (tables kept across probes) against dossier's full
# alpha-beta with the same function, at an equal time a move.
om-time() {
  OPSPEC="name=AB preset=$MAT depth=60" vs-op om-vs-ab "name=OM preset=$MAT search=om model=$MAT depth=60" \
    --movetime "${MOVETIME:-50}"
}
om-time-mat12() { MAT=mat12-tot25 om-time; }

# Benefit curves (Carmel & Markovitch 1993): M* with a perfect model of a DOP-ply opponent searching DOP+K
# plies, and minimax searching DOP+K plies, each against that opponent; the benefit is M*'s score minus
# minimax's.
benefit() {
  local game=$1 preset=$2 dop=$3 games=$4
  shift 4
  local k
  for k in 1 2 3 4 5 6; do
    local d=$((dop + k))
    run "benefit-$game-d$dop-k$k-mstar" --game "$game" --games "$games" "$@" \
      --player1 "name=MSTAR preset=$preset search=mstar model=$preset@$dop depth=$d" \
      --player2 "name=OP preset=$preset search=alphabeta-star depth=$dop"
    run "benefit-$game-d$dop-k$k-mm" --game "$game" --games "$games" "$@" \
      --player1 "name=MM preset=$preset search=alphabeta-star depth=$d" \
      --player2 "name=OP preset=$preset search=alphabeta-star depth=$dop"
  done
}
benefit-tictactoe() {
  benefit tictactoe open-lines 1 100 --random-plies 2 --seed 3
  benefit tictactoe open-lines 2 100 --random-plies 2 --seed 3
}
benefit-checkers() {
  benefit checkers strongest 2 100 "${ACF[@]}" --max-moves 100 --concurrency 2
}

# Sen & Arora: MEU with counts learned against SP, and minimax, both with the sophisticated evaluation, against
# SP from 30 two-token openings (a seeded shuffle of the 49); pgnlengths counts the games MEU wins in fewer,
# more and the same plies (the paper: 10, 4, 16).
connect4-meu() {
  local depth=${DEPTH:-4}
  local openings=$OUT/c4open30.txt
  if [ "$DRY" = 0 ]; then
    for a in 1 2 3 4 5 6 7; do for b in 1 2 3 4 5 6 7; do echo "$a$b"; done; done |
      awk 'BEGIN { srand(1997) } { print rand() "\t" $0 }' | sort -n | cut -f2 | head -30 >"$openings"
    "$BIN" learn --game connect4 --learner discrepancy --player "preset=sophisticated depth=$depth" \
      --opponent 'preset=sp' --games 400 --start-plies 2,4,6,8,10,12,14,16 --seed 1 --out "$OUT/counts-d$depth.json"
  fi
  run "meu-d$depth" --game connect4 --openings "$openings" --games 60 --pgn "$OUT/meu-d$depth.pgn" \
    --player1 "name=MEU preset=sophisticated search=meu model=discrepancy:$OUT/counts-d$depth.json depth=$depth" \
    --player2 'name=SP preset=sp'
  run "mm-d$depth" --game connect4 --openings "$openings" --games 60 --pgn "$OUT/mm-d$depth.pgn" \
    --player1 "name=MM preset=sophisticated depth=$depth" --player2 'name=SP preset=sp'
  [ "$DRY" = 1 ] || go run ./tests/pgnlengths --opponent SP "$OUT/meu-d$depth.pgn" "$OUT/mm-d$depth.pgn"
}

# The strongest chess player against Stockfish limited to 2000 Elo (issue 3: at least 50%).
sf2000() {
  run sf2000 --game chess --games 100 --random-plies 4 --seed 7 --tc 10+0.1 --pgn "$OUT/sf2000.pgn" \
    --player1 'name=dossier preset=strongest' \
    --player2 'name=sf2000 uci=/usr/games/stockfish UCI_LimitStrength=true UCI_Elo=2000'
}

for n in "${names[@]}"; do
  "$n"
done

# The command-line reading the scripts of tests/ share (sourced, not run): the names of what to run.

# pick_names SCRIPT WHAT ALL ALLOWED ARG...: sets the array names to the ARGs in order, each one of the names in
# the array called ALLOWED, or "all", which stands for those of the array called ALL. No ARG, or one that is
# neither, prints the caller's usage (its usage function) on stderr and exits 2, with a line naming the unknown
# WHAT ("rung", "opponent", ...) first.
pick_names() {
  local script=$1 what=$2
  local -n every=$3 allowed=$4
  shift 4
  if [ $# = 0 ]; then
    usage >&2
    exit 2
  fi
  names=()
  local n
  for n in "$@"; do
    if [ "$n" = all ]; then
      names+=("${every[@]}")
    elif [[ " ${allowed[*]} " == *" $n "* ]]; then
      names+=("$n")
    else
      echo "$script: unknown $what \"$n\"" >&2
      usage >&2
      exit 2
    fi
  done
}

# pick_series SCRIPT GAMES: reads the environment the memory experiments share, with the script's name in its
# errors: GAMES (a positive number; GAMES given here when unset) and SERIES ("mem nomem" when unset; each of mem
# and nomem). A bad one is said on stderr and exits 2.
pick_series() {
  local script=$1 s
  GAMES=${GAMES:-$2}
  if ! [[ "$GAMES" =~ ^[1-9][0-9]*$ ]]; then
    echo "$script: GAMES must be a positive number, not \"$GAMES\"" >&2
    exit 2
  fi
  SERIES=${SERIES:-mem nomem}
  for s in $SERIES; do
    case "$s" in
      mem | nomem) ;;
      *) echo "$script: SERIES may hold mem and nomem, not \"$s\"" >&2; exit 2 ;;
    esac
  done
}

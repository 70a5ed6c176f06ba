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

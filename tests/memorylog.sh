# memory_per_game FILE: what the memory's log (a dossier with --log-level info) says of its games, for the
# experiment scripts' summaries: the memory's time on our clock a game, its background CPU (off our clock), and
# the longest time one search of ours spent outside its search proper. Sourced by tests/online.sh and
# tests/online-games.sh.
memory_per_game() {
  awk '/spent long outside its search/ { slow++ }
      /memory in the game/ {
        n++
        if (match($0, /"memory_on_clock_max": ?"?[0-9.e-]+[a-zµ]*"?/)) { v = substr($0, RSTART, RLENGTH); sub(/.*: ?"?/, "", v); if (dur(v) > longest) longest = dur(v) }
        if (match($0, /"memory_on_clock": ?"?[0-9.e-]+[a-zµ]*"?/)) { v = substr($0, RSTART, RLENGTH); sub(/.*: ?"?/, "", v); on += dur(v) }
        if (match($0, /"background_cpu": ?"?[0-9.e-]+[a-zµ]*"?/)) { v = substr($0, RSTART, RLENGTH); sub(/.*: ?"?/, "", v); bg += dur(v) }
      }
      function dur(v,   x) { x = v + 0; if (v ~ /ms/) return x / 1000; if (v ~ /µs|us/) return x / 1e6; if (v ~ /ns/) return x / 1e9; if (v ~ /s/) return x; return x }
      END { if (n) printf "memory per game (%d games logged): %.1f ms on our clock, %.2f s of background CPU (off our clock); longest search outside its search proper %.1f ms, %d searches over 20 ms\n", n, 1000 * on / n, bg / n, 1000 * longest, slow }' "$1"
}

# strategy_steps_keys.sh - sourced by run.sh (its helpers): a mapping
# strategy steps in the workbench; no key is dropped while a solver
# runs (checks 22-23).

# ga; the status line and the Solver pane say which, the Grid follows it.
start ga 100 30 xterm-256color samples/lu-torus4.json
keys ga : "solver start ga -generations 5 -seed 2" Enter
must ga "SOLVER ga it 0"
keys ga Escape n
wait_for ga "[SOLVER ga it 1]" && cap ga | grep -q "generation 1: best" &&
    cap ga | grep -q "Grid .*solver's current" && ok "n steps ga one generation; Solver pane and Grid follow" ||
    bad "ga step" "$(cap ga | head -2) $(cap ga | grep -F 'generation' | head -2)"

# 23. No key is dropped while a solver runs: a burst of cursor keys, a Tab
# and a `:` line typed during a blocking `solver run` of tabu on the
# 256-processor sample, then during a Space run; the solver is still
# running after each burst (its iteration grows), and every key took
# effect: cursor, focus and the variables the lines set.
status_iter() { cap "$1" | head -1 | sed -n 's/.*SOLVER tabu it \([0-9]*\).*/\1/p'; }
# iter_now NAME: the iteration once the status line shows one (a start
# in the background says "starting" first, and on a loaded machine the
# sanitized start of tabu on 256 processors takes many seconds), or empty
# when the deadline passes.
iter_now() {
    d=$(deadline)
    while before "$d"; do
        it=$(status_iter "$1")
        [ -n "$it" ] && { echo "$it"; return 0; }
        sleep 0.1
    done
}
# iter_past NAME I: the iteration once it is past I, or the last seen when
# the deadline passes.
iter_past() {
    d=$(deadline)
    while before "$d"; do
        it=$(status_iter "$1")
        [ -n "$it" ] && [ "$it" -gt "$2" ] && break
        sleep 0.1
    done
    echo "$it"
}
start kb 120 40 xterm-256color samples/summit-like.json
keys kb : "solver start tabu -iters 1000000; solver run" Enter
must kb "SOLVER tabu it"
keys kb l l l j j : "set ::burst 42" Enter Tab
i1=$(iter_now kb); i2=$(iter_past kb "${i1:-0}")
[ -n "$i1" ] && [ -n "$i2" ] && [ "$i2" -gt "$i1" ] && ok "solver run still running after the burst (it $i1 -> $i2)" ||
    bad "solver run" "iterations '$i1' -> '$i2'"
keys kb Escape
must kb "% set ::burst 42"
keys kb : 'return "K=[lrange [view cursor] 0 2] F=[dict get [view state] focus] B=$::burst"' Enter
wait_for kb "K=3 2 0 F=procs B=42" && ok "keys typed during solver run: cursor, Tab and the : line all took effect" ||
    bad "keys during solver run" "$(cap kb | tail -8)"
keys kb BTab : "solver start tabu -iters 1000000" Enter Space
must kb "[stepping]"
keys kb h h k : "set ::burst2 7" Enter
i1=$(iter_now kb); i2=$(iter_past kb "${i1:-0}")
[ -n "$i1" ] && [ -n "$i2" ] && [ "$i2" -gt "$i1" ] && ok "Space run still running after the burst (it $i1 -> $i2)" ||
    bad "Space run" "iterations '$i1' -> '$i2'"
keys kb Space : 'return "K=[lrange [view cursor] 0 2] B2=$::burst2"' Enter
wait_for kb "K=1 1 0 B2=7" && ok "keys typed during a Space run all took effect" || bad "keys during Space run" "$(cap kb | tail -8)"
no_sanitizer_errors kb


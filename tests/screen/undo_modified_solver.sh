# undo_modified_solver.sh - sourced by run.sh (its helpers): what a new-user trial found
# in undo, "modified" and the Solver pane, one check each.

# 60. Undo after applying a DVFS solve restores the mapping and the
# states (the processor runs "gpu", not "gpu@low"), and with the mapping
# back as saved the title no longer says [modified].
begin tr 200 50 xterm-256color samples/cuboid-cpu-gpu-dvfs.json
keys tr : "model configure -deadline 0.006" Enter
must tr "-deadline 0.006 -unused"
keys tr Escape : "scenario save $WORK/trial-dvfs.json" Enter
must tr "% scenario save"
keys tr Escape : "solver start tabu -dvfs on" Enter
must tr "% solver start tabu -dvfs on"
keys tr Escape " "
must tr "tabu done after"
keys tr a
must tr "% solver apply"
applied=$(cap tr | head -1)
# The states as the session has them, through the console (the panes'
# layout is not what this checks).
keys tr Escape : 'string toupper "[lmap p [topo procs] {dict get $p state}] applied"' Enter
must tr "BASE LOW APPLIED"
keys tr Escape u
must tr "% map undo"
keys tr Escape : 'string toupper "[lmap p [topo procs] {dict get $p state}] undone"' Enter
must tr "BASE BASE UNDONE"
keys tr Escape
settle tr
title=$(cap tr | head -1)
case "$applied" in *"[modified]"*) a_ok=1 ;; *) a_ok=0 ;; esac
if [ "$a_ok" = 1 ] && ! echo "$title" | grep -qF "[modified]" && echo "$title" | grep -qF "E 3.486 J"; then
    ok "a then u after tabu -dvfs: base states, the saved mapping (3.486 J), not [modified]"
else
    bad "dvfs undo" "applied: $applied; after: $title"
fi
keys tr q
must_exit tr
no_sanitizer_errors tr

# 61. The Solver pane's status: solver state's status (running) and its
# phase: ready before a step, stepping while Space runs it, paused after
# Space stops it, done at the end; never "running (running)" (issue 37:
# the console said "status running" while the pane said "ready").
begin st 200 50 xterm-256color samples/cuboid-cpu-gpu.json
keys st : "solver start tabu -iters 1000000" Enter
must st "tabu running, ready  it 0"
keys st Escape " "
must st "tabu running, stepping  it"
keys st " "
must st "tabu running, paused  it"
line=$(cap st | grep -o "tabu [a-z, ]*  it [0-9]*" | head -1)
case "$line" in "tabu running, paused  it "*) ;; *) line="" ;; esac
if [ -n "$line" ] && ! cap st | grep -q "(running)"; then
    ok "Solver status: ready, stepping, paused ($line), no duplicate word"
else
    bad "solver status" "$(cap st | grep -o 'tabu [a-z]* .*it [0-9]*' | head -1)"
fi

# 62. B that never reaches its breakpoint says so when the solver ends:
# block 40 stays where it is for the 100 steps of this tabu search.
keys st : "solver start tabu -iters 100" Enter
must st "tabu running, ready  it 0"
keys st Escape : "view cursor 40" Enter : "view focus grid" Enter
keys st Escape B
must st "breakpoint not reached"
cap st | grep -qF "tabu done after 100 iterations; breakpoint not reached ([solver block 40] != " &&
    cap st | grep -q "tabu done  it 100" &&
    ok "B without a hit: tabu done after 100 iterations; breakpoint not reached, status done" ||
    bad "breakpoint not reached" "$(cap st | grep -a 'breakpoint\|tabu ' | tail -3)"

# 63. The explained step's candidates: T in front for a tabu candidate
# (never cut off), every change in its unit (mJ, J), and the best in its
# unit too.
keys st : "solver seek 50" Enter
must st "step 50/100"
settle st
cands=$(cap st | grep -E "│[> ] [T ] +([+-][0-9.]+|0) (m|u|k)?J  " | head -5)
if [ -n "$cands" ] && echo "$cands" | grep -q "│[> ] T " && cap st | grep -qE "step 50/100  best [0-9.]+ (m|k)?J at [0-9]+" &&
    ! cap st | grep -qF "(tabu)"; then
    ok "candidates: T first, deltas and best in joules"
else
    bad "candidates" "$(cap st | grep -E 'step 50/|move|swap' | head -8)"
fi

# 64. After a seek the pane's best is the step's, as solver state says:
# random finds its best at step K; at step K-1 the pane showed that later
# best ("best 6.27461 at 163"), solver state the one found so far.
R="solver start random -samples 200 -seed 1 -objective energy"
kb=$("$BIN" -e "scenario load $S; $R; solver run; set b [dict get [solver state] best objective]; set k -1; foreach h [solver history] {set o [dict get \$h objective]; if {\$o ne {} && \$k < 0 && abs(\$o - \$b) < 1e-12} {set k [dict get \$h iteration]}}; set k")
want=$("$BIN" -e "scenario load $S; $R; solver run; solver seek [expr {$kb - 1}]; units figure energy [dict get [solver state] best energy]")
keys st : "$R" Enter
must st "random running, ready"
keys st Escape : "solver run" Enter
must st "random done"
keys st Escape : "solver seek $((kb - 1))" Enter
must st "step $((kb - 1))/200"
settle st
line=$(cap st | grep -o "step $((kb - 1))/200  best [^│]*" | head -1)
at=$(echo "$line" | sed -n 's/.* at \([0-9]*\).*/\1/p')
case "$line" in
*"best $want at "*) [ -n "$at" ] && [ "$at" -lt "$kb" ] && ok "after seek $((kb - 1)) the pane's best is the step's: $want at $at (solver state's)" ||
    bad "best after seek" "$line (the best is found at $kb)" ;;
*) bad "best after seek" "'$line', want best $want (found at $kb)" ;;
esac
keys st q y
must_exit st
no_sanitizer_errors st

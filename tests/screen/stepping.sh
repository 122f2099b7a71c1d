# stepping.sh - screen tests of stepping a solver like a debugger (issue
# #23 items 1-4 and 6), sourced by run.sh (its start/keys/cap/wait_for/ok/bad).

# 28. History: step tabu 20 times, go back 10 with [, forward with ]: the
# status line, the Solver pane's timeline and the Energy pane show step 10
# (its current energy as batch computes it after 10 steps); a click on the
# timeline seeks.
start stp 200 50 xterm-256color $S
keys stp : "solver start tabu -iters 100 -seed 3" Enter
must stp "% solver start tabu"
keys stp : "view step 20" Enter
keys stp Escape N
must stp "[SOLVER tabu it 20]"
keys stp '[' '[' '[' '[' '[' '[' '[' '[' '[' '['
wait_for stp "[SOLVER tabu it 10]" && cap stp | grep -q "step 10/20" &&
    ok "[ ten times: the status line and the timeline show step 10 of 20" ||
    bad "back" "$(cap stp | head -1) $(cap stp | grep -o 'step [0-9]*/[0-9]*')"
settle stp
e10=$(screen_energy stp)
b10=$("$BIN" -e "scenario load $S; solver start tabu -iters 100 -seed 3; solver step 10; format %.6g [dict get [solver state] current energy]")
[ -n "$e10" ] && [ "$e10" = "$b10" ] && ok "after going back, Energy shows step 10's current energy ($e10 J = batch)" ||
    bad "back energy" "screen '$e10' vs batch after 10 steps '$b10'"
keys stp ']'
wait_for stp "[SOLVER tabu it 11]" && cap stp | grep -q "step 11/20" && ok "] steps forward through the history" ||
    bad "forward" "$(cap stp | head -1)"
# The timeline's row: the line under "step 11/20"; click its 3rd column.
row=$(cap stp | grep -n "step 11/20" | head -1 | cut -d: -f1)
col=$(cap stp | grep "step 11/20" | head -1 | awk '{ i = index($0, "step 11/20"); print i }')
if [ -n "$row" ] && [ -n "$col" ]; then
    # The line is drawn in UTF-8 box characters: count display columns.
    dcol=$(cap stp | grep "step 11/20" | head -1 | sed 's/step 11\/20.*//' | wc -m)
    $T send-keys -t stp -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $((dcol + 2)) $((row + 1)) $((dcol + 2)) $((row + 1)))"
    wait_for stp "% solver seek 2" && wait_for stp "[SOLVER tabu it 2]" &&
        ok "a click on the timeline seeks to that step" || bad "timeline click" "$(cap stp | tail -4)"
else
    bad "timeline" "no timeline row: $(cap stp | grep -F 'step ' | head -2)"
fi

# 29. Explain: the Solver pane says why step 12 moved what it moved, its
# candidates and the tabu list; e prints solver explain in the Console.
keys stp : "solver seek 12" Enter
must stp "[SOLVER tabu it 12]"
why=$("$BIN" -e "scenario load $S; solver start tabu -iters 100 -seed 3; solver step 12; dict get [solver explain] reason")
settle stp
cap stp | grep -qF "why: $(printf '%s' "$why" | cut -c1-30)" && cap stp | grep -q "tabu (steps left):" &&
    cap stp | grep -q "change: E " && cap stp | grep -qE '^.*> [T ] +([+-][0-9.e+-]+|0) (p|n|u|m|k)?J  (move|swap|edge)' &&
    ok "the Solver pane explains step 12: why, change, candidates, tabu list" ||
    bad "explain pane" "want why '$why': $(cap stp | grep -E 'why|change|tabu \(' | head -4)"
keys stp e
wait_for stp "} stats {deadline" && ok "e: solver explain of the step shown in the Console" ||
    bad "explain key" "$(cap stp | tail -4)"

# 30. Breakpoint from the cursor: B with the Solver pane focused runs until
# the objective drops below the step shown's (step 1, worse than the
# start), stops there, shows it explained; the same breakpoint in batch
# stops at the same step.
keys stp : "solver seek 1" Enter
must stp "[SOLVER tabu it 1]"
keys stp : "view focus solver" Enter
keys stp B
wait_for stp "breakpoint at step" && ok "B runs to a breakpoint and says which step" || bad "breakpoint" "$(cap stp | tail -4)"
settle stp
k_screen=$(cap stp | sed -n 's/.*breakpoint at step \([0-9]*\).*/\1/p' | tail -1)
k_batch=$("$BIN" -e "scenario load $S; solver start tabu -iters 100 -seed 3; solver step; set o [dict get [solver state] current objective]; dict get [solver run -until {[dict get \$state current objective] < \$o}] iterations")
[ -n "$k_screen" ] && [ "$k_screen" = "$k_batch" ] && cap stp | grep -q "\[SOLVER tabu it $k_screen\]" &&
    cap stp | grep -q "why: " && ok "the breakpoint stops at batch's step $k_batch, explained" ||
    bad "breakpoint step" "screen '$k_screen' vs batch '$k_batch'"
keys stp q y
must_exit stp
no_sanitizer_errors stp

# 31. One state for every solver: bokhari now has a current mapping, so
# its Solver pane shows cur beside best (it said "cur -").
start bok 200 50 xterm-256color samples/lu-torus4.json
keys bok : "solver start bokhari -seed 3" Enter
must bok "% solver start bokhari"
keys bok Escape n n n
must bok "[SOLVER bokhari it 3]"
settle bok
# (Its objective is cardinality: the pane shows that, the energy beside.)
cap bok | grep -qE "cur [0-9.]+ [mkuM]?J  best|cardinality cur [0-9]+  best [0-9]+  \(energy [0-9.]+ [mkuM]?J, best" &&
    ok "bokhari's Solver pane shows its current energy" ||
    bad "bokhari current" "$(cap bok | grep -F 'cur ' | head -1)"
keys bok q y
must_exit bok

# 32. A recorded workbench session replays steps, seeks and breakpoints
# exactly: the same step shown, the same history.
start rst 100 30 xterm-256color $S
keys rst : "session record $WORK/steps.tcl" Enter
keys rst : "solver start tabu -iters 80 -seed 5" Enter
must rst "SOLVER tabu it 0"
keys rst Escape n n n n n n n n '[' '[' '[' ']' '{' '}'
keys rst : "view focus solver" Enter
keys rst B '['
keys rst : "solver state" Enter
must rst "best {energy"
keys rst : "session stop" Enter
must rst "% session stop"
settle rst
want=$("$BIN" -e "scenario load $S; session replay $WORK/steps.tcl; set s [solver state]; list [dict get \$s iterations] [dict get \$s current energy] [llength [solver history]]" 2>&1)
shown=$(cap rst | sed -n 's/.*\[SOLVER tabu it \([0-9]*\)\].*/\1/p' | head -1)
[ -n "$shown" ] && [ "$(echo "$want" | cut -d' ' -f1)" = "$shown" ] &&
    grep -q "solver back" "$WORK/steps.tcl" && grep -q "solver run -until" "$WORK/steps.tcl" &&
    ok "a recorded session with back, seek and a breakpoint replays to the same step ($want)" ||
    bad "record steps" "screen step '$shown', replay '$want': $(cat "$WORK/steps.tcl" 2>/dev/null | head -20)"
keys rst q y
must_exit rst

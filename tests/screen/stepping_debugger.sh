# stepping_debugger.sh - screen tests of issue 37, sourced by run.sh (its
# start/keys/cap/must/ok/bad; si_tcl from panes_agree.sh): the ILP stepped
# inside its solve with the pane live and its bound and gap solver
# state's, Esc pauses and a second Esc ends, breakpoints that last stop
# Space and R runs back to them, and the sparklines have a point per step.

# 70. The ILP at 4x4x2 under a tight deadline: Space runs it step by step
# (each incumbent a step), Esc pauses it inside the branch and bound, the
# Solver pane's incumbent, bound and gap are solver state's, n goes on,
# and a second Esc ends it.
I="grid create -blocks {4 4 2}; model configure -deadline 0.81e-3; solver start ilp -warm off -counts off -timeout 20"
begin ilp 200 50 xterm-256color samples/cuboid-2cpu-2gpu.json
keys ilp : "$I" Enter
must ilp "% grid create -blocks {4 4 2}"
keys ilp Escape " "
must ilp "ilp running, stepping  it"
sleep 1
keys ilp Escape
must ilp "(interrupted); n or Space goes on, Esc again or X ends it"
must ilp "ilp running, paused  it"
settle ilp
k=$(cap ilp | sed -n 's/.*ilp running, paused  it \([0-9]*\).*/\1/p' | head -1)
# si in the workbench, on one line: the panes' rule (as panes_agree.sh's).
keys ilp : 'proc si {x u} {set p {1e9 G 1e6 M 1e3 k 1 {} 1e-3 m 1e-6 u 1e-9 n}; set a [expr {abs($x)}]; set i 0; while {$i < 12 && $a < [lindex $p $i]} {incr i 2}; if {$i > 0 && abs([format %.4g [expr {$x / [lindex $p $i]}]]) >= 1000} {incr i -2}; return "[format %.4g [expr {$x / [lindex $p $i]}]] [lindex $p [expr {$i + 1}]]$u"}' Enter
keys ilp : "set s [solver state]; list STATE [si [dict get \$s best energy] J] [si [dict get \$s bound] J] [format %.3g [expr {100 * [dict get \$s gap]}]]" Enter
must ilp "STATE "
settle ilp
want=$(cap ilp | grep -o "STATE {[^}]*} {[^}]*} [0-9.e+-]*" | tail -1)
inc=$(echo "$want" | sed 's/STATE {\([^}]*\)} {\([^}]*\)} \(.*\)/\1/')
bnd=$(echo "$want" | sed 's/STATE {\([^}]*\)} {\([^}]*\)} \(.*\)/\2/')
gap=$(echo "$want" | sed 's/STATE {\([^}]*\)} {\([^}]*\)} \(.*\)/\3/')
line=$(cap ilp | grep -o "incumbent [0-9.]* [a-zA-Z]*J  bound [0-9.]* [a-zA-Z]*J  gap [0-9.e+-]*%" | head -1)
[ -n "$k" ] && [ "$k" -ge 1 ] && [ -n "$inc" ] && [ "$line" = "incumbent $inc  bound $bnd  gap $gap%" ] &&
    ok "ILP paused at step $k inside its solve; the pane's '$line' is solver state's" ||
    bad "ilp pane vs state" "pane '$line', state '$want', step '$k'"
keys ilp n
# The next incumbent, or the end at the -timeout: seconds under ASan.
wait_for ilp "  it $((k + 1))" 120 || bad "ilp n after pause" "$(cap ilp | grep -o 'ilp [a-z, ]*  it [0-9]*' | head -1)"
if cap ilp | grep -q "ilp running, paused  it $((k + 1))"; then
    keys ilp Escape " "
    sleep 0.5
    keys ilp Escape
    must ilp "(interrupted); n or Space goes on"
    keys ilp Escape
    must ilp "ilp stopped  it"
    ok "n goes on after the pause (step $((k + 1))), a second Esc ends the ILP"
else
    ok "n goes on after the pause (step $((k + 1)), the solve's end)"
fi
keys ilp q y
must_exit ilp
no_sanitizer_errors ilp

# 71. Breakpoints that last: Space stops at one and the Console names it;
# R (reverse-continue) runs back to it from a later step; the cur/best
# sparklines have one point per step, whatever [ and ] did.
begin brk 200 50 xterm-256color samples/cuboid-cpu-gpu.json
keys brk : "solver start tabu -iters 200 -seed 2" Enter
must brk "% solver start tabu"
# Tab completes -until (it did not: only solver and option names of start).
keys brk : "solver run -un" Tab
must brk ":solver run -until"
ok "Tab completes solver run -un to -until"
keys brk C-u "solver break add {[dict get \$state iterations] == 7}" Enter
must brk "% solver break add"
keys brk Escape " "
must brk "breakpoint 1 at step 7"
must brk "tabu running, paused  it 7"
keys brk n n n n n
must brk "tabu running, paused  it 12"
keys brk R
must brk "back to step 7"
must brk "tabu running, paused  it 7"
ok "Space stopped at breakpoint 1 (step 7), R ran back to it from step 12"
# Back and forth: the sparkline keeps one point per step up to the shown one.
keys brk "[" "[" "]" "]" "]"
must brk "tabu running, paused  it 8"
settle brk
sp=$(cap brk | grep -A1 "cur .*best " | tail -1 | awk -F'│' '{print $(NF-1)}' | awk '{print $1}')
n=$(( $(printf '%s' "$sp" | wc -c) / 3 ))
[ "$n" -eq 9 ] && ok "sparkline: 9 points for steps 0..8 after [ [ ] ] ]" ||
    bad "sparkline per step" "'$sp' has $n points, want 9"
# B's command goes into the prompt history (Up brings it back to edit).
keys brk Escape B
must brk "% solver run -until"
keys brk : Up
must brk ":solver run -until"
ok "B's solver run -until is in the prompt history"
keys brk C-u Escape
keys brk q y
must_exit brk
no_sanitizer_errors brk

# 72. Home and End as tmux sends them (\e[1~, \e[4~ under TERM=xterm):
# the first and last row, not Esc's "view select clear", [ and "~: no
# action".
begin hk2 120 36 xterm samples/cuboid-cpu-gpu.json
keys hk2 Tab Home End Home
keys hk2 : "string toupper homeend" Enter
must hk2 "HOMEEND"
if cap hk2 | grep -q "no action\|view select clear\|solver back"; then
    bad "Home/End under tmux" "$(cap hk2 | grep 'no action\|view select clear\|solver back' | head -2)"
else
    ok "Home/End under tmux: no Esc, [ or ~ run in their place"
fi
keys hk2 q
must_exit hk2

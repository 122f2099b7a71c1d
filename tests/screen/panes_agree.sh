# panes_agree.sh - sourced by run.sh (its helpers: start keys cap wait_for
# settle ok bad): every pane, the status line and the sparkline show the
# same mapping's figures (#23 item 5). Expected figures come from batch,
# formatted by si below exactly as the panes format them (one rule: an SI
# prefix putting the mantissa in [1, 1000), 4 significant digits).
si_tcl='proc si {x unit {digits 4}} {
    if {$x == 0} { return "0 $unit" }
    set pre {1e9 G 1e6 M 1e3 k 1 {} 1e-3 m 1e-6 u 1e-9 n 1e-12 p}
    set a [expr {abs($x)}]
    set i 0
    while {$i < 14 && $a < [lindex $pre $i]} { incr i 2 }
    if {$i > 0 && abs([format %.${digits}g [expr {$x / [lindex $pre $i]}]]) >= 1000} { incr i -2 }
    return "[format %.${digits}g [expr {$x / [lindex $pre $i]}]] [lindex $pre [expr {$i + 1}]]$unit"
}
proc delta {x} { return "[expr {$x > 0 ? "+" : ""}][si $x J]" }'
# The status line's energy, and the Energy pane's total.
# (after "]" the solver's phase when the panes follow one: "] paused  E")
status_e() { cap "$1" | head -1 | sed -n 's/.*\]\( [a-z]*\)\{0,1\}  E \([^ ]* [a-zA-Z]*J\).*/\2/p'; }
energy_total() { cap "$1" | sed -n 's/.*││total \([^ ]* [a-zA-Z]*J\).*/\1/p' | head -1; }
energy_delta() { cap "$1" | sed -n 's/.*││total [^ ]* [a-zA-Z]*J  \([^│]*[^ │]\) *│.*/\1/p' | head -1; }
comm_title_rounds() { cap "$1" | sed -n 's/.*Communication  [0-9]* pairs, \([0-9]*\) rounds.*/\1/p' | head -1; }
A=samples/cuboid-cpu-gpu.json

# 28. v back to the solver between steps: the status line, Energy and
# Communication show the solver's current mapping again at once (they kept
# the session's figures until the next step).
begin agree 200 50 xterm-256color $A
keys agree : "solver start tabu -seed 4" Enter
must agree "% solver start tabu"
keys agree : "solver step 3" Enter
must agree "[SOLVER tabu it 3]"
settle agree
r_sol=$(comm_title_rounds agree)
keys agree Escape v
must agree "[session]"
keys agree v
must agree "[SOLVER tabu it 3]"
settle agree
want=$("$BIN" -e "$si_tcl; scenario load $A; solver start tabu -seed 4; solver step 3
    set c [dict get [solver state] current energy]; return \"[si \$c J]|[si \$c J 6]\"")
got="$(status_e agree)|$(energy_total agree)"
r_back=$(comm_title_rounds agree)
[ "$got" = "$want" ] && [ -n "$r_sol" ] && [ "$r_back" = "$r_sol" ] &&
    ok "v back to the solver: status E, Energy total and Communication rounds are the solver's ($got, $r_back rounds)" ||
    bad "v back to the solver" "screen '$got' vs solver's current '$want'; rounds $r_back, before v $r_sol"

# 29. V after v compares the session (left column) with the solver's best.
keys agree v
must agree "[session]"
keys agree V
must agree "[session vs tabu best"
settle agree
want=$("$BIN" -e "$si_tcl; scenario load $A; set e [dict get [model eval] energy]; solver start tabu -seed 4; solver step 3
    set b [dict get [solver state] best energy]; return \"[si \$e J] [si \$b J]\"")
got=$(cap agree | sed -n 's/.*││total *\([^ ]* [a-zA-Z]*J\) *\([^ ]* [a-zA-Z]*J\) .*/\1 \2/p' | head -1)
[ "$got" = "$want" ] && cap agree | head -1 | grep -qF "[session vs tabu best" &&
    ok "V after v: Energy compares the session ($got)" || bad "V after v" "screen '$got' vs session, best '$want'"
keys agree V
must agree "[session]"

# 30. Undo deltas say what they undo; none is missing (the first edit's
# undo, a model change) and none is labelled with another edit's name.
keys agree : "solver stop" Enter
keys agree : "map set 5 gpu0" Enter
must agree "% map set 5 gpu0"
settle agree
d1=$("$BIN" -e "$si_tcl; scenario load $A; set a [dict get [model eval] energy]; map set 5 gpu0
    return \"[delta [expr {[dict get [model eval] energy] - \$a}]]\"")
got=$(energy_delta agree)
[ "$got" = "$d1  map set 5 gpu0" ] && ok "an edit's delta is named after it ($got)" || bad "edit delta" "'$got' vs '$d1  map set 5 gpu0'"
keys agree u
must agree "% map undo"
settle agree
d2=$("$BIN" -e "$si_tcl; scenario load $A; set a [dict get [model eval] energy]; map set 5 gpu0
    return \"[delta [expr {\$a - [dict get [model eval] energy]}]]\"")
got=$(energy_delta agree)
[ "$got" = "$d2  undo map set 5 gpu0" ] && ok "undo's delta says what it undid ($got)" ||
    bad "undo delta" "'$got' vs '$d2  undo map set 5 gpu0'"
keys agree C-r
must agree "% map redo"
settle agree
got=$(energy_delta agree)
[ "$got" = "$d1  redo map set 5 gpu0" ] && ok "redo's delta says what it redid ($got)" ||
    bad "redo delta" "'$got' vs '$d1  redo map set 5 gpu0'"
keys agree : "model configure -rounds vizing" Enter
must agree "% model configure"
settle agree
d3=$("$BIN" -e "$si_tcl; scenario load $A; map set 5 gpu0; set a [dict get [model eval] energy]
    model configure -rounds vizing; return \"[delta [expr {[dict get [model eval] energy] - \$a}]]\"")
got=$(energy_delta agree)
[ "$got" = "$d3  model configure" ] && ok "a model change's delta is named after it ($got)" ||
    bad "model delta" "'$got' vs '$d3  model configure'"

# 31. Communication: the title counts rounds as the model does and names
# the measure; the schedule below adds up to it, or says which bound the
# model counts instead (vizing here: an upper bound above the schedule).
want=$("$BIN" -e "scenario load $A; map set 5 gpu0; model configure -rounds vizing; dict get [model eval] rounds")
title=$(cap agree | grep -o "Communication  [0-9]* pairs, [0-9]* rounds ([a-z]*)" | head -1)
foot=$(cap agree | grep -o "[0-9]* steps\? = [0-9]* rounds[^:]*:" | head -1)
case "$title|$foot" in
*", $want rounds (vizing)|"*" = $want rounds:" | *", $want rounds (vizing)|"*"(vizing counts $want, an upper bound):")
    ok "Communication: title '$title', schedule '$foot' agree" ;;
*) bad "comm rounds" "title '$title' footer '$foot' (model counts $want)" ;;
esac
keys agree : "model configure -rounds maxdeg" Enter
must agree "rounds (maxdeg)"
settle agree
title=$(cap agree | grep -o "Communication  [0-9]* pairs, [0-9]* rounds (maxdeg)" | head -1)
foot=$(cap agree | grep -o "[0-9]* steps\? = [0-9]* rounds[^:]*:" | head -1)
n=$(echo "$title" | sed -n 's/.*, \([0-9]*\) rounds.*/\1/p')
case "$foot" in
*" = $n rounds:" | *"(maxdeg counts $n, a lower bound):") ok "maxdeg: title '$title', schedule '$foot' agree" ;;
*) bad "comm rounds maxdeg" "title '$title' footer '$foot'" ;;
esac

keys agree q y
must_exit agree
no_sanitizer_errors agree

# 32. The sparkline plots what the solver optimises: under -objective
# congestion, `view state`'s history is the congestion (batch's
# objective_value and best_value), and the Solver pane shows it by name.
L=samples/lu-torus4.json
begin obj 200 50 xterm-256color $L
keys obj : "solver start tabu -objective congestion -seed 2" Enter
must obj "% solver start tabu -objective congestion"
keys obj : "solver step 4" Enter
must obj "[SOLVER tabu it 4]"
settle obj
want=$("$BIN" -e "scenario load $L; solver start tabu -objective congestion -seed 2; solver step 4
    set s [solver state]; format {congestion cur %g  best %g} [dict get \$s objective_value] [dict get \$s best_value]")
keys obj : 'set h [view state]; format "spark %g %g" [lindex [dict get $h history_current] end] [lindex [dict get $h history_best] end]' Enter
must obj "spark "
spark=$(cap obj | grep -o "spark [0-9.e+-]* [0-9.e+-]*" | tail -1)
cur=$(echo "$want" | sed -n 's/congestion cur \([^ ]*\)  best \(.*\)/spark \1 \2/p')
[ -n "$spark" ] && [ "$spark" = "$cur" ] && cap obj | grep -qF "$want" &&
    ok "sparkline and Solver pane follow -objective congestion ($want)" ||
    bad "objective sparkline" "'$spark' vs '$cur'; want '$want' in: $(cap obj | grep -F 'cur ')"
keys obj q y
must_exit obj
no_sanitizer_errors obj

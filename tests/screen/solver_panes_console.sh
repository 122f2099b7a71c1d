# solver_panes_console.sh - sourced by run.sh (its helpers): the panes
# follow a running solver; the Console's puts, keys, long names and
# wrapping (checks 18-20).

# (status line says SOLVER, the Energy total is the solver's current
# energy as batch computes it); v switches all back to the session's.
start fol 100 30 xterm-256color $S
keys fol : "solver start tabu" Enter
must fol "SOLVER tabu it 0"
keys fol : "solver step 5" Enter
wait_for fol "[SOLVER tabu it 5]" && ok "the status line says the panes show the solver's mapping" ||
    bad "follow" "$(cap fol | head -2)"
settle fol
e_sol=$(screen_energy fol)
e_cur=$("$BIN" -e "scenario load $S; solver start tabu; solver step 5; format %.6g [dict get [solver state] current energy]")
[ -n "$e_sol" ] && [ "$e_sol" = "$e_cur" ] && ok "Energy shows the solver's current $e_sol J" ||
    bad "follow energy" "screen '$e_sol' vs solver's current '$e_cur'"
# At 100x30 the bound and gap sit beside the total (solver state's, the
# ILP's progress), the delta against the session does not fit: the title
# names the solver and does not promise a comparison the pane lacks.
cap fol | grep -q "Energy (solver)" && ! cap fol | grep -q "vs session" &&
    ok "Energy pane is titled for the solver (no delta, no 'vs session')" || bad "follow energy title" "$(cap fol | sed -n 18,22p)"
# Wide enough for both, it compares with the session and says so.
$T resize-window -t fol -x 200 -y 50
wait_for fol "Energy  solver vs session" && settle fol
cap fol | grep -q "Energy  solver vs session" && cap fol | grep -q "total $e_sol J  -" &&
    ok "Energy pane at 200x50 compares the solver with the session" || bad "follow energy vs session" "$(cap fol | grep -n -A3 Energy | head -8)"
$T resize-window -t fol -x 100 -y 30
settle fol
keys fol Escape v
must fol "[session]"
settle fol
e_ses=$(screen_energy fol)
e_start=$("$BIN" -e "scenario load $S; format %.6g [dict get [model eval] energy]")
[ "$e_ses" = "$e_start" ] && ok "v: every pane back on the session ($e_ses J)" || bad "v" "'$e_ses' vs '$e_start'"

# 19. Console and keys: puts and puts stderr land in the Console (the
# screen stays whole); navigation keys are not logged; O reverses the
# sort; an empty / clears the filter; PgUp in the Console scrolls back.
start con 100 30 xterm-256color $S
keys con : "puts hello-from-puts; puts stderr oops-on-stderr" Enter
wait_for con "hello-from-puts" && cap con | grep -q "oops-on-stderr" && cap con | head -1 | grep -q "stencilmap" &&
    ok "puts and puts stderr go to the Console" || bad "puts" "$(cap con | tail -8)"
keys con l l j j
settle con
cap con | grep -q "% view cursor" && bad "navigation logged" "$(cap con | tail -6)" || ok "navigation keys are not logged"
keys con Tab O
wait_for con "% view procs -order desc" && wait_for con "sort index desc" && ok "O reverses the sort" ||
    bad "O" "$(cap con | sed -n 2,3p)"
keys con / g p u Enter
must con "% view procs -filter gpu"
keys con / C-u Enter
wait_for con "% view procs -filter {}" && ok "an empty / clears the filter" || bad "empty filter" "$(cap con | tail -5)"
[ "$("$BIN" -e 'view procs -filter gpu; view procs -filter {}; dict get [view procs] filter')" = "" ] &&
    ok "view procs -filter {} clears" || bad "filter clear" "batch"
keys con : "for {set i 0} {\$i < 40} {incr i} {puts line-\$i}" Enter
must con "line-39"
keys con Tab Tab Tab Tab
keys con PgUp
wait_for con "lines back" && ok "PgUp scrolls the Console back" || bad "console scroll" "$(cap con | tail -8)"
keys con PgDn PgDn PgDn
settle con
cap con | grep -q "line-39" && ok "PgDn comes back to the newest line" || bad "console PgDn" "$(cap con | tail -4)"

# 20. Long processor names that differ only at the end stay apart: the
# name column widens, and what does not fit is cut in the middle.
LN=$WORK/longnames
mkdir -p "$LN/topologies"
sed -e 's/"cpu0"/"rack12-chassis3-node0345-cpu0"/' -e 's/"gpu0"/"rack12-chassis3-node0345-gpu0"/' \
    samples/topologies/cpu-gpu-topology.json >"$LN/topologies/cpu-gpu-topology.json"
grep -v '"mapping"' samples/cuboid-cpu-gpu.json >"$LN/s.json"
start ln 100 30 xterm-256color "$LN/s.json"
settle ln
c1=$(cap ln | grep -c "rack12[^ ]*~[^ ]*-cpu0\|rack12-chassis3-node0345-cpu0")
c2=$(cap ln | grep -c "rack12[^ ]*~[^ ]*-gpu0\|rack12-chassis3-node0345-gpu0")
[ "$c1" -ge 1 ] && [ "$c2" -ge 1 ] && ok "long processor names are told apart (elided in the middle)" ||
    bad "long names" "$(cap ln | sed -n 2,6p)"

# 19. Communication pairs show whole processor names (elided in the middle
# only when the pane is narrow).
start cw 200 50 xterm-256color samples/summit-like.json
if cap cw | grep -qE 'n[0-9]{2}\.v100_[0-9]-n[0-9]{2}\.v100_[0-9] '; then ok "Communication: whole pair names"
else bad "pair names" "$(cap cw | grep -F 'Communication' -A3 | head -4)"; fi

# 20. The Console wraps a long result instead of cutting it.
start wr 80 24 xterm-256color $S
keys wr : 'return "[string repeat abcdefghij 30]THE-END"' Enter
settle wr
# The Console's two text rows: the first full (76 characters: the line
# wraps at the pane's width, not where the log stored it in pieces), the
# two together ending the result.
rows=$(cap wr | sed -n '21,22p' | sed 's/^│  //; s/│$//; s/ *$//')
first=$(printf '%s\n' "$rows" | head -n 1)
joined=$(printf '%s' "$rows" | tr -d '\n')
[ "${#first}" -eq 76 ] && case "$joined" in *abcdefghijabcdefghijTHE-END) true ;; *) false ;; esac &&
    ok "a 307-character result wraps at the pane's width, its end visible at 80 columns" ||
    bad "wrap" "first row ${#first} characters; $(cap wr | tail -6)"


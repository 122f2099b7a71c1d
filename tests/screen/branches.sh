# branches.sh - sourced by run.sh (its helpers: begin keys cap must settle
# ok bad): branches of a solver's run in the workbench (issue 37 item 4).
# 73. The Solver pane's timeline of runs, the status line naming the run
# shown, V comparing two runs at equal steps with the Energy pane's totals
# equal to `view compare run`'s in batch, and solver switch keeping the
# steps equal; at 200x50 and 80x24.
[ -n "$si_tcl" ] || si_tcl='proc si {x unit {digits 4}} {
    if {$x == 0} { return "0 $unit" }
    set pre {1e9 G 1e6 M 1e3 k 1 {} 1e-3 m 1e-6 u 1e-9 n 1e-12 p}
    set a [expr {abs($x)}]
    set i 0
    while {$i < 14 && $a < [lindex $pre $i]} { incr i 2 }
    if {$i > 0 && abs([format %.${digits}g [expr {$x / [lindex $pre $i]}]]) >= 1000} { incr i -2 }
    return "[format %.${digits}g [expr {$x / [lindex $pre $i]}]] [lindex $pre [expr {$i + 1}]]$unit"
}'
BR_CMDS="solver start tabu -seed 3 -iters 60; solver step 30; solver branch 10 -tenure-add 30 -seed 9; solver step 5"
for size in "200 50" "80 24"; do
    set -- $size
    nm=br$1
    begin $nm "$1" "$2" xterm-256color samples/cuboid-cpu-gpu.json
    keys $nm : "$BR_CMDS" Enter
    must $nm "[SOLVER tabu b1 it 15]"
    settle $nm
    # The Solver pane: a row per run, the shown one marked, main dotted
    # nowhere, the branch dotted up to where it left main.
    rows=$(cap $nm | grep -c "│>b1 \|│ main ")
    if [ "$1" = 200 ]; then
        cap $nm | grep -qF "b1: from main at 10, -tenure-add 30 -seed 9" && [ "$rows" -eq 2 ] &&
            ok "$1x$2: the Solver pane's timeline shows main and b1, and what b1 changed" ||
            bad "$1x$2 runs timeline" "$rows rows: $(cap $nm | grep -F 'main' | head -3)"
    else
        # Narrow: the runs by name on one line, the shown one marked.
        cap $nm | grep -qF "│runs main >b1 " && ok "$1x$2: the Solver pane names the runs, b1 shown" ||
            bad "$1x$2 runs line" "$(cap $nm | grep -F 'runs' | head -2)"
    fi
    keys $nm Escape V
    must $nm "vs main @15"
    settle $nm
    want=$("$BIN" -e "$si_tcl; scenario load samples/cuboid-cpu-gpu.json; $BR_CMDS; set r [view compare run main]
        return \"[si [dict get \$r left energy] J] [si [dict get \$r other energy] J]\"")
    got=$(cap $nm | sed -n 's/.*││total *\([^ ]* [a-zA-Z]*J\) *\([^ ]* [a-zA-Z]*J\) .*/\1 \2/p' | head -1)
    [ -n "$want" ] && [ "$got" = "$want" ] &&
        ok "$1x$2: V compares b1 and main at step 15: Energy's totals are view compare run's ($got)" ||
        bad "$1x$2 V between runs" "screen '$got' vs batch '$want'"
    # Switching keeps the steps equal: main at 15 beside b1 at 15.
    keys $nm : "solver switch main" Enter
    must $nm "[SOLVER tabu main it 15 vs b1 @15"
    ok "$1x$2: solver switch main: main at step 15 beside b1 at 15"
    keys $nm Escape V
    wait_for $nm "[SOLVER tabu main it 15]" && ok "$1x$2: V again ends the comparison, the solver still shown" ||
        bad "$1x$2 V off" "$(cap $nm | head -1)"
    keys $nm q y
    must_exit $nm
    no_sanitizer_errors $nm
done

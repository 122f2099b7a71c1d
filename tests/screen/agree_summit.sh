# agree_summit.sh - sourced by run.sh (its helpers: begin keys cap must
# settle ok bad): one truth on screen at the largest sample the suite
# affords (issue 37 item 5). 74. summit-like (1024 blocks, 256
# processors) after 20 tabu steps, every pane's figures against batch:
# solver state, solver eval and model procs of the solver's mapping at the
# step shown, formatted as the panes format them (si: 4 significant
# digits, the Energy total 6). Then the same after seeking back to step 7.
[ -n "$si_tcl" ] || si_tcl='proc si {x unit {digits 4}} {
    if {$x == 0} { return "0 $unit" }
    set pre {1e9 G 1e6 M 1e3 k 1 {} 1e-3 m 1e-6 u 1e-9 n 1e-12 p}
    set a [expr {abs($x)}]
    set i 0
    while {$i < 14 && $a < [lindex $pre $i]} { incr i 2 }
    if {$i > 0 && abs([format %.${digits}g [expr {$x / [lindex $pre $i]}]]) >= 1000} { incr i -2 }
    return "[format %.${digits}g [expr {$x / [lindex $pre $i]}]] [lindex $pre [expr {$i + 1}]]$unit"
}'
# What the panes must show for the solver's step, one "key: value" a line.
agree_want() {
    "$BIN" -e "$si_tcl; scenario load samples/summit-like.json; solver start tabu -seed 1; $1
    set s [solver state]; set e [solver eval]
    set n [dict get [grid info] tasks]; set bl {}
    for {set b 0} {\$b < \$n} {incr b} { lappend bl [solver block \$b] }
    set names [lmap p [topo procs] {dict get \$p name}]
    set out {}
    lappend out \"status: E [si [dict get \$s current energy] J]  T [si [dict get \$s current time] s]\"
    lappend out \"solver: cur [si [dict get \$s current energy] J]  best [si [dict get \$s best energy] J]\"
    foreach {k w} {energy_dynamic dynamic energy_static static energy_idle idle energy_comm_intra intra energy_comm_inter inter} {
        lappend out \"energy \$w: [si [dict get \$e \$k] J]\"
    }
    lappend out \"energy total: [si [dict get \$e energy] J 6]\"
    lappend out \"energy comp: comp [si [dict get \$e comp_time] s]  comm [si [dict get \$e comm_time] s]\"
    lappend out \"cut: [dict get \$e messages] cut edges ([dict get \$e edges] quanta), [dict get \$e procs_used] procs used\"
    lappend out \"rounds: [dict get \$e rounds] rounds\"
    lappend out \"grid: [dict get \$e messages] cut edges\"
    # The solver's mapping into the session: model procs of it.
    for {set b 0} {\$b < \$n} {incr b} {
        set p [lindex \$names [lindex \$bl \$b]]
        if {[map get \$b] ne \$p} { map set \$b \$p }
    }
    foreach d [lrange [model procs] 0 7] {
        lappend out \"proc: [dict get \$d name] [dict get \$d blocks] [si [dict get \$d energy] J]\"
    }
    join \$out \\n"
}
# The same figures read off the screen.
agree_got() {
    c=$(cap "$1")
    echo "$c" | head -1 | sed -n 's/.*\]\( [a-z]*\)\{0,1\}  \(E [^ ]* [a-zA-Z]*J\)  \(T [^ ]* [a-zA-Z]*s\) .*/status: \2  \3/p'
    echo "$c" | sed -n 's/.*│\(cur [^ ]* [a-zA-Z]*J  best [^ ]* [a-zA-Z]*J\) .*/solver: \1/p' | head -1
    for w in dynamic static idle intra inter; do
        echo "$c" | sed -n "s/.*││$w  *#* *\([^ ]* [a-zA-Z]*J\)│.*/energy $w: \1/p" | head -1
    done
    echo "$c" | sed -n 's/.*││total \([^ ]* [a-zA-Z]*J\) .*/energy total: \1/p' | head -1
    echo "$c" | sed -n 's/.*││\(comp [^ ]* [a-zA-Z]*s  comm [^ ]* [a-zA-Z]*s\) .*/energy comp: \1/p' | head -1
    echo "$c" | sed -n 's/.*feasible  \([0-9]* cut edges ([0-9]* quanta), [0-9]* procs used\).*/cut: \1/p' | head -1
    echo "$c" | sed -n 's/.*Communication  [0-9]* pairs, \([0-9]* rounds\).*/rounds: \1/p' | head -1
    echo "$c" | sed -n 's/.*│([0-9,]*) #[0-9]* [^ ]*  sel [0-9]*  \([0-9]* cut edges\).*/grid: \1/p' | head -1
    echo "$c" | awk -F'│' '$4 ~ /^[0-9] n00\./ { print $4 }' | head -8 |
        sed -n 's/^[0-9] \([^ ]*\) .*| *\([0-9]*\) .* \([0-9.]* [kmunp]\{0,1\}J\) .*/proc: \1 \2 \3/p'
}
begin ag 200 50 xterm-256color samples/summit-like.json
keys ag : "solver start tabu -seed 1; solver step 20" Enter
must ag "[SOLVER tabu it 20]"
keys ag Escape
settle ag
want=$(agree_want "solver step 20")
got=$(agree_got ag)
nw=$(printf '%s\n' "$want" | grep -c .)
if [ "$nw" -ge 19 ] && [ "$got" = "$want" ]; then
    ok "summit-like step 20: status line, Solver, Energy, Communication, Grid and Processors agree with solver state/eval ($nw figures)"
else
    bad "summit-like panes vs solver state at step 20" "$(printf '%s\n' "$want" >"$WORK/ag.want"; printf '%s\n' "$got" | diff "$WORK/ag.want" - | head -12)"
fi
# Sought back: every pane is step 7's.
keys ag : "solver seek 7" Enter
must ag "[SOLVER tabu it 7]"
keys ag Escape
settle ag
want=$(agree_want "solver step 20; solver seek 7")
got=$(agree_got ag)
if [ "$got" = "$want" ]; then
    ok "summit-like sought back to step 7: every pane shows step 7's figures"
else
    bad "summit-like panes vs solver state at step 7" "$(printf '%s\n' "$want" >"$WORK/ag.want"; printf '%s\n' "$got" | diff "$WORK/ag.want" - | head -12)"
fi
keys ag q y
must_exit ag
no_sanitizer_errors ag

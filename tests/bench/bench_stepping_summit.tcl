# bench_stepping_summit.tcl - stepping at a whole Summit (issue 37 items 5
# and 7): samples/summit-full.json, 256^3 = 16.7 M blocks on 36,864
# processors, tabu (multilevel) started, then on a headless 200 x 60
# workbench with the panes following the solver: n (one step), N (ten),
# V (compare on, then off) and [ ] (back, forward), against the Grid
# cursor (l) in the same run; target 50 ms per step shown (median; N
# shows one of its ten steps: its time per step). Then one
# truth: the status line's E, the Solver pane's cur and the Energy pane's
# total, read off the screen (screen dump), against solver state's current
# energy formatted as the panes format it. Then branches: solver branch 10
# -tenure-add 30 (key, cursor keys while it builds, ready), n on the
# branch, the first V with a branch, n [ ] while comparing. Needs > 2 GB: on a shared
# machine run it under flock (see /work/coord) as `make bench` does not.
# STEPPING_SUMMIT_ROUNDS (environment) repeats the keys (default 3);
# STEPPING_SUMMIT=0 skips the whole bench; STEPPING_SUMMIT_SCENARIO=FILE
# runs it on another scenario (a smaller grid on the same machine, to try
# it without the memory of the whole Summit).
if {[info exists ::env(STEPPING_SUMMIT)] && !$::env(STEPPING_SUMMIT)} { puts "bench_stepping_summit: skipped"; return }
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set rounds [expr {[info exists ::env(STEPPING_SUMMIT_ROUNDS)] ? $::env(STEPPING_SUMMIT_ROUNDS) : 3}]
proc secs {t0} { expr {([clock microseconds] - $t0) / 1e6} }
proc median {l} { set s [lsort -real $l]; lindex $s [expr {([llength $s] - 1) / 2}] }

set t0 [clock microseconds]
scenario load [expr {[info exists ::env(STEPPING_SUMMIT_SCENARIO)] ? $::env(STEPPING_SUMMIT_SCENARIO)
                     : [file join $top samples summit-full.json]}]
set load [secs $t0]
set t0 [clock microseconds]
solver start tabu -seed 1 -iters 100000
set start [secs $t0]

set ::dumps {}
key bind F5 {lappend ::dumps [screen dump]}
set keys {}
set kinds {}
proc add {kind k} { global keys kinds; lappend keys $k; lappend kinds $kind }
for {set r 0} {$r < $rounds} {incr r} {
    foreach k {l h l h} { add "cursor (peer)" $k }
    foreach k {n n n} { add "n (step)" $k }
    add "N (10 steps)" N
    add "V (compare on)" V
    add "V (compare off)" V
    foreach k {[ [ [} { add "\[ (back)" $k }
    foreach k {] ] ]} { add "\] (forward)" $k }
}
# Branches (issue 37 item 7, session 4): solver branch 10 -tenure-add 30
# on F6 returns at once (built on a worker thread), the cursor keys while
# it builds, F7 (solver runs: waits until it is in) says when it is
# ready; n on the branch, the first V with a branch (b1 against main at
# equal steps), and n, [ and ] while comparing.
key bind F6 {solver branch 10 -tenure-add 30}
key bind F7 {solver runs}
add "branch key (F6)" F6
foreach k {l h l h} { add "cursor, building" $k }
add "branch ready (F7)" F7
foreach k {n n n} { add "n (branch)" $k }
add "first V, branch" V
for {set r 0} {$r < $rounds} {incr r} {
    foreach k {l h} { add "cursor, comparing" $k }
    foreach k {n n} { add "n (comparing)" $k }
    add "\[ (comparing)" "\["
    add "\] (comparing)" "\]"
}
add "V off (branch)" V
add dump F5
set t0 [clock microseconds]
set sec [screen keys -size {200 60} $keys]
set total [secs $t0]
set by [dict create]
foreach k $kinds s $sec { dict lappend by $k $s }
# Ready: from F6 to the end of F7 (the keys between included).
set i6 [lsearch -exact $kinds "branch key (F6)"]
set i7 [lsearch -exact $kinds "branch ready (F7)"]
set ready 0
foreach x [lrange $sec $i6 $i7] { set ready [expr {$ready + $x}] }
dict set by "branch ready (F7)" [list $ready]

puts "Stepping at a whole Summit: [dict get [grid info] tasks] blocks on [llength [topo procs]] processors;\
load [format %.1f $load] s, tabu start [format %.1f $start] s; $rounds rounds of keys in [format %.1f $total] s;\
headless 200x60, panes following the solver; time = key handled + frame drawn and written"
# Per step shown: N shows the tenth of its ten steps (the others are
# taken, not drawn), so its time is also given per step.
puts [format "%-18s %5s %10s %10s %12s %8s %10s" kind keys "median ms" "max ms" "ms per step" target "vs cursor"]
set peer [median [dict get $by "cursor (peer)"]]
set steps [dict create "N (10 steps)" 10]
foreach kind [dict keys $by] {
    if {$kind eq "dump"} continue
    set s [lsort -real [dict get $by $kind]]
    set med [median $s]
    set per [expr {$med / ([dict exists $steps $kind] ? [dict get $steps $kind] : 1)}]
    # Branch ready is background work (the key returned at once): no
    # target, its time is what the user waits before the branch shows.
    set verdict [expr {$kind eq "branch ready (F7)" ? "bg" : $per <= 0.05 ? "ok" : "SLOW"}]
    puts [format "%-18s %5d %10.2f %10.2f %12.2f %8s %9.1fx" $kind [llength $s] [expr {$med * 1e3}] \
        [expr {[lindex $s end] * 1e3}] [expr {$per * 1e3}] $verdict \
        [expr {$peer > 0 ? $med / $peer : 0}]]
}
# V returns at once; the compared mapping's cost state is built on another
# thread meanwhile (figures pending) and screen keys waits for it at the
# end: what it waited is what that build had left.
set keyed 0
foreach x $sec { set keyed [expr {$keyed + $x}] }
puts [format "solver branch 10 -tenure-add 30: key %.1f ms, ready after %.1f s (start made again and 10 steps replayed on a worker; cursor keys meanwhile median %.1f ms)" \
    [expr {[lindex [dict get $by "branch key (F6)"] 0] * 1e3}] $ready [expr {[median [dict get $by "cursor, building"]] * 1e3}]]
puts [format "compare cost state (V) built in the background; at the end of the keys %.1f s of it were left" \
    [expr {max(0, $total - $keyed)}]]

# One truth at the step shown: the screen's figures against solver state.
set st [solver state]
set cur [dict get $st current energy]
set scr [lindex $::dumps end]
set want [list "E [units format $cur J]" "cur [units format $cur J]" "total [units format $cur J -digits 6]"]
set got [list [expr {[regexp {\](?: [a-z]+)?  (E [^ ]+ [a-zA-Z]*J)} $scr -> a] ? $a : "-"}] \
              [expr {[regexp {│(cur [^ ]+ [a-zA-Z]*J)} $scr -> b] ? $b : "-"}] \
              [expr {[regexp {│(total [^ ]+ [a-zA-Z]*J)} $scr -> c] ? $c : "-"}]]
puts "one truth at step [dict get $st iterations]: screen {$got}, solver state {$want}: [expr {$got eq $want ? "agree" : "DISAGREE"}]"
solver stop

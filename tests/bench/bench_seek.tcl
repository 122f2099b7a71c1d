# bench_seek.tcl - stepping a solver back and forth stays interactive at
# machine scale (#23 item 1: <= 50 ms median per key): 1 M blocks (128 x
# 128 x 64, 7pt) on 4096 processors, tabu (its multilevel search) stepped
# 1000 times, then on a headless 200 x 60 workbench with the panes
# following the solver: [ and ] one step back and forward, { and } ten,
# and `solver seek` across the whole 1000 steps (0, then 1000) typed in
# the console. Each key: handled, the next frame drawn and written out.
# Ratios: against an ordinary key (the Grid cursor, l) in the same run,
# and against the same keys on Summit-like (1024 blocks). SEEK_STEPS and
# SEEK_ROUNDS (environment) change the 1000 steps and 5 rounds.
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set samples [file join $top samples]
set steps [expr {[info exists ::env(SEEK_STEPS)] ? $::env(SEEK_STEPS) : 1000}]
set rounds [expr {[info exists ::env(SEEK_ROUNDS)] ? $::env(SEEK_ROUNDS) : 5}]
set tmp [file join [expr {[info exists ::env(TMPDIR)] ? $::env(TMPDIR) : "/tmp"}] sm-bench-seek-[pid]]
file mkdir $tmp

source [file join [file dirname [info script]] common.tcl]

proc typed {text} { lmap c [split $text ""] {expr {$c eq " " ? "Space" : $c}} }

# One round: {kind key...} entries; the last key of an entry is timed.
proc sequence {steps} {
    set s {}
    foreach k {l h l h} { lappend s [list "cursor (peer)" $k] }
    foreach k {[ [ [ [ [ [ [ [ [ [} { lappend s [list "back \[" $k] }
    foreach k {] ] ] ] ] ] ] ] ] ]} { lappend s [list "forward \]" $k] }
    foreach k {\{ \{ \{ \} \} \}} { lappend s [list "10 back/fwd" $k] }
    lappend s [list "seek all back" : C-u {*}[typed "solver seek 0"] Enter]
    lappend s [list "seek all fwd" : C-u {*}[typed "solver seek $steps"] Enter]
    return $s
}

proc measure {steps rounds} {
    solver start tabu -from current -iters 100000000 -seed 1
    solver step $steps
    view source solver
    set keys {}
    set kinds {}
    for {set r 0} {$r < $rounds} {incr r} {
        foreach e [sequence $steps] {
            foreach k [lrange $e 1 end-1] { lappend keys $k; lappend kinds "typing" }
            lappend keys [lindex $e end]
            lappend kinds [lindex $e 0]
        }
    }
    set sec [screen keys -size {200 60} $keys]
    set by [dict create]
    foreach k $kinds s $sec { if {$k ne "typing"} { dict lappend by $k $s } }
    # Exactness at this scale: after all that, the state is step `steps`'s.
    set st [solver state]
    dict set by _at [dict get $st iterations]
    solver stop
    return $by
}

proc median {l} {
    set s [lsort -real $l]
    lindex $s [expr {([llength $s] - 1) / 2}]
}

scenario load [file join $samples summit-like.json]
set small [measure $steps $rounds]

set topo [file join $tmp topo4096.json]
big_topology $topo
topo load $topo
grid create -blocks {128 128 64} -cells {1024 1024 512} -stencil 7pt
set t0 [clock microseconds]
set big [measure $steps $rounds]
set total [expr {([clock microseconds] - $t0) / 1e6}]

puts "Seek at scale: [dict get [grid info] tasks] blocks on [llength [topo procs]] processors, tabu stepped $steps times\
then back and forth ($rounds rounds, [format %.1f $total] s with the steps); headless 200x60, panes following the solver;\
time = key handled + frame drawn and written; ended at step [dict get $big _at] (want $steps)"
puts [format "%-16s %5s %10s %10s %8s %10s %12s %9s" kind keys "median ms" "max ms" target "vs cursor" "summit med" "ratio"]
set peer [median [dict get $big "cursor (peer)"]]
foreach kind [dict keys $big] {
    if {$kind eq "_at"} continue
    set s [lsort -real [dict get $big $kind]]
    set med [median $s]
    set smed [median [dict get $small $kind]]
    puts [format "%-16s %5d %10.2f %10.2f %8s %9.1fx %12.3f %8.1fx" $kind [llength $s] [expr {$med * 1e3}] \
        [expr {[lindex $s end] * 1e3}] [expr {$med <= 0.05 ? "ok" : "SLOW"}] [expr {$peer > 0 ? $med / $peer : 0}] \
        [expr {$smed * 1e3}] [expr {$smed > 0 ? $med / $smed : 0}]]
}
file delete -force $tmp

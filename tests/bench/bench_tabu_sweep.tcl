# bench_tabu_sweep.tcl - the published deadline sweep (SPEC 7): default
# tabu at every deadline, the SPEC's optimum and the ratio beside, and the
# ILP with BENCH_ILP seconds per row (default 20; 0 leaves it out).
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set secs [expr {[info exists ::env(BENCH_ILP)] ? $::env(BENCH_ILP) : 20}]
puts "deadline sweep: default solve tabu, ILP limited to $secs s per row"
set ::argv [list -ilp $secs]
set ::argc 2
source [file join $top scripts deadline_table.tcl]

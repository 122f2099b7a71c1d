# demo-strategies.tcl - every process-to-node mapping strategy on the NAS LU
# pattern (8x8 blocks) on the HAEC box of 4 boards of 4x4 nodes; ends with a
# comparison table in the console (hops per pair as in Besmer's thesis,
# cardinality = communicating pairs on linked nodes, at most 112).
#   in the workbench:  :session replay scripts/demo-strategies.tcl
#   without a terminal: stencilmap -e {session replay scripts/demo-strategies.tcl -delay 0}
scenario load [file join [file dirname [info script]] .. samples lu-haec.json]
set ::demo_rows {}
proc ::demo_run {args} {
    set t0 [clock microseconds]
    solve {*}$args
    set m [model metrics]
    lappend ::demo_rows [list $args [expr {[dict get $m hops] / 2}] [dict get $m cardinality] \
        [dict get $m congestion] [units figure seconds [expr {([clock microseconds] - $t0) / 1e6}]]]
}
view note "Space-filling curves: the nodes in curve order, blocks in id order."
demo_run sfc -curve sweep
demo_run sfc -curve scan
demo_run sfc -curve morton
demo_run sfc -curve hilbert
demo_run sfc -curve gray
view note "MinMD: heaviest pairs first, each block on the nearest node with room."
demo_run minmd
view note "Random: the best of 500 random mappings (fewest hops)."
demo_run random -samples 500 -seed 1
view note "Bokhari: pairwise exchanges from the sweep curve, maximising cardinality."
demo_run bokhari -seed 1
view note "Bokhari minimising hops instead."
demo_run bokhari -objective hops -seed 1
view note "Genetic algorithm: 100 generations of 100, ordered crossover, fewest hops."
demo_run ga -generations 100 -seed 1
puts [format "%-34s %9s %5s %5s %9s" strategy hops/pair card cong time]
foreach r $::demo_rows { puts [format "%-34s %9d %5d %5d %9s" {*}$r] }
view note "The table is in the console: Bokhari reaches all 112 pairs on linked nodes."

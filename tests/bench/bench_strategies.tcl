# bench_strategies.tcl - the mapping strategies (SPEC 4) on the NAS LU
# pattern, 4^3, 8^3 and 16^3 torus and HAEC: hop total per pair (SPEC 7's
# unit), cardinality and wall time of each; the best strategy against the
# best space-filling curve, measured in the same run. STRATEGY_SIZES
# (environment) limits the sizes, e.g. "4 8".
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set samples [file join $top samples]
set sizes [expr {[info exists ::env(STRATEGY_SIZES)] ? $::env(STRATEGY_SIZES) : {4 8 16}}]

set strategies {
    {sfc -curve sweep} {sfc -curve scan} {sfc -curve morton} {sfc -curve hilbert}
    {sfc -curve gray} {minmd} {random -samples 200} {bokhari} {bokhari -objective hops}
    {ga} {ga -generations 100}
}

proc row {args} { puts [format "%-10s %-26s %10s %8s %9s" {*}$args] }

row network strategy hops/pair card seconds
foreach k $sizes {
    foreach net {torus haec} {
        set file [expr {$net eq "haec" && $k == 4 ? "lu-haec.json" : "lu-$net$k.json"}]
        scenario load [file join $samples $file]
        set best_sfc {}; set best {}
        foreach s $strategies {
            set t0 [clock microseconds]
            solve {*}$s
            set sec [expr {([clock microseconds] - $t0) / 1e6}]
            set m [model metrics]
            set h [expr {[dict get $m hops] / 2}]
            row $net$k $s $h [dict get $m cardinality] [format %.2f $sec]
            if {[lindex $s 0] eq "sfc" && ($best_sfc eq "" || $h < [lindex $best_sfc 1])} {
                set best_sfc [list $s $h]
            }
            if {$best eq "" || $h < [lindex $best 1]} { set best [list $s $h] }
        }
        puts [format "%-10s best %s (%d) vs best sfc %s (%d): ratio %.3f" $net$k \
            [lindex $best 0] [lindex $best 1] [lindex $best_sfc 0] [lindex $best_sfc 1] \
            [expr {double([lindex $best 1]) / [lindex $best_sfc 1]}]]
    }
}

# bench_comm_share.tcl - where communication dominates the energy (issue
# 38 item 2): is the bound's communication part loose, or does tabu miss
# better mappings? Instances small enough for the ILP
# (tests/bench/comm_share/: Summit-like node types, one POWER9 and two
# V100 per node, 2 nodes x 32 blocks and 4 nodes x 64 blocks, 256^3
# cells a block, the inter-node link energy scaled x10, x100, x1000 so
# that communication is about 10 %, 50 % and 90 % of the energy). The
# deadline is lb's makespan + 3 % (so the work must spread over every
# node and cross the network); tabu at it, `model bound` at tabu's own
# makespan (gap = E/bound - 1), and the ILP (lp_solve, COMM_ILP_TIMEOUT
# seconds, default 30) at that makespan as a second, independent
# witness: ilp/tabu < 1 would mean tabu missed a better mapping.
# Measured 2026-11-27: every row gap 0.00 %, ilp/tabu 1.000 - at these
# sizes the bound is tight and tabu optimal (the bound proves it: the ILP
# itself stops at its timeout on every row, "feasible with gap"); the
# 188 % gap of the issue (4096 blocks on 32 nodes) comes from the
# many-node bound, not seen here. bench_comm_exact.c has instances where
# the bound is loose, solved exactly by a branch and bound.
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set dir [file join $top tests bench comm_share]
set timeout [expr {[info exists ::env(COMM_ILP_TIMEOUT)] ? $::env(COMM_ILP_TIMEOUT) : 30}]

proc fmt {x} { format %.4f $x }

puts "communication share: tabu against model bound at its makespan and the ILP (timeout ${timeout} s) at it"
puts [format "%-10s %6s %6s %10s %9s %10s %9s %8s %10s %8s %-22s" instance blocks procs tabu(J) comm bound(J) gap tabu_s ilp(J) ilp/tabu ilp_status]
foreach nodes {2 4} {
    foreach f {10 100 1000} {
        set name ${nodes}n-x$f
        scenario load [file join $dir $name.json]
        solve lb
        model configure -deadline [expr {[dict get [model eval] time] * 1.03}]
        set t0 [clock microseconds]
        solve tabu
        set secs [expr {([clock microseconds] - $t0) / 1e6}]
        set e [model eval]
        set E [dict get $e energy]
        model configure -deadline [dict get $e time]
        set b [model bound]
        set gap [expr {[dict get $b energy] > 0 ? $E / [dict get $b energy] - 1 : "inf"}]
        set r [solve ilp -timeout $timeout]
        set Ei [dict get [model eval] energy]
        puts [format "%-10s %6d %6d %10s %8.1f%% %10s %8.2f%% %8.2f %10s %8.3f %-22s" $name [dict get [grid info] tasks] \
            [llength [model procs]] [fmt $E] [expr {100.0 * [dict get $e energy_comm] / $E}] [fmt [dict get $b energy]] \
            [expr {100.0 * $gap}] $secs [fmt $Ei] [expr {$Ei / $E}] [string range [dict get $r status] 0 21]]
        flush stdout
    }
}

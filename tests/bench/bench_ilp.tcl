# bench_ilp.tcl - the ILP's proofs of the published optima (SPEC 7,
# issue 14): wall time of `solve ilp` (profile, warm start and proof) on
# the thesis's Cuboid and Sphere configurations, the ratio against the
# published times (3118 s for 2xCPU-2xGPU, 52 min for Cuboid CPU-GPU),
# and the monolithic model (-counts off) beside it where it finishes.
set timeout [expr {[info exists ::env(ILP_TIMEOUT)] ? $::env(ILP_TIMEOUT) : 60}]
set rows {
    {cuboid-2cpu-2gpu 3.22e-3 3118}
    {cuboid-cpu-gpu   3.22e-3 3120}
    {cuboid-cpu-cpu   14.00e-3 {}}
    {cuboid-2cpu-2gpu 3.46e-3 {}}
    {cuboid-2cpu-2gpu 3.59e-3 {}}
    {sphere-2cpu-2gpu 3.22e-3 {}}
    {sphere-cpu-gpu   3.22e-3 {}}
    {sphere-cpu-cpu   14.00e-3 {}}
    {sphere-2cpu-2gpu 3.59e-3 {}}
}
proc run {file deadline args} {
    scenario load [file join [file dirname [info script]] ../../samples $file.json]
    model configure -deadline $deadline
    set t0 [clock microseconds]
    set r [solve ilp {*}$args]
    set secs [expr {([clock microseconds] - $t0) / 1e6}]
    set st [solver state]
    list $secs [dict get $r status] [dict get $r energy] \
        [expr {[dict exists $st bound] ? [dict get $st bound] : nan}]
}
puts "ILP proofs (timeout ${timeout} s; published: thesis ch. 6)"
puts [format "%-18s %9s %-28s %10s %10s %9s %10s %s" config deadline status energy bound seconds \
          "vs publ." "-counts off"]
foreach row $rows {
    lassign $row file deadline published
    lassign [run $file $deadline -timeout $timeout] secs status energy bound
    set ratio [expr {$published eq "" ? "-" : [format %.0fx [expr {$published / $secs}]]}]
    set off -
    if {$file in {cuboid-2cpu-2gpu cuboid-cpu-gpu} && $deadline == 3.22e-3} {
        lassign [run $file $deadline -timeout $timeout -counts off] osecs ostatus
        set off [format "%.1f s %s" $osecs [lindex $ostatus 0]]
    }
    puts [format "%-18s %9s %-28s %10.4f %10.4f %9.2f %10s %s" $file $deadline $status $energy \
              $bound $secs $ratio $off]
}

# bench_solvers.tcl - every solver on the Cuboid and Sphere grids for the
# three single-node configurations (deadlines of SPEC 7), and on the
# Summit-like and Piz-Daint-like samples. One table; run by `make bench`.
# ILP_TIMEOUT (environment) bounds each ILP run (default 120 s).
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
set samples [file join $top samples]
set ilp_timeout [expr {[info exists ::env(ILP_TIMEOUT)] ? $::env(ILP_TIMEOUT) : 120}]

set cases {}
foreach grid {cuboid sphere} {
    foreach {cfg deadline} {cpu-cpu 14.00e-3 cpu-gpu 3.22e-3 2cpu-2gpu 3.22e-3} {
        lappend cases $grid-$cfg.json $deadline
    }
}
lappend cases summit-like.json {} piz-daint-like.json {}

set solvers {
    {lb -speeds floor} {lb -order jik -speeds floor} {dm -speeds floor} {mm -speeds floor}
    {na -f 0.1 -speeds floor} {na -f 0.9 -speeds floor} {na -f 1.0 -speeds floor}
    {proportional} {ilp}
}
puts [format "%-24s %-26s %11s %11s %6s %6s %4s %9s  %s" instance solver energy(J) time(s) edges #col ok seconds status]
foreach {file deadline} $cases {
    foreach s $solvers {
        scenario load [file join $samples $file]
        if {$deadline ne ""} { model configure -deadline $deadline }
        set name [lindex $s 0]
        set opts [lrange $s 1 end]
        if {$name eq "ilp"} {
            if {[dict get [grid info] tasks] * [dict get [topo info] processors] > 4096} {
                puts [format "%-24s %-26s %11s" $file $s "(too large for the ILP)"]
                continue
            }
            lappend opts -timeout $ilp_timeout
        }
        set r [solve $name {*}$opts]
        puts [format "%-24s %-26s %11.4f %11.4e %6d %6d %4s %9.3f  %s" $file $s \
            [dict get $r energy] [dict get $r time] [dict get $r edges] [dict get $r message_rounds] \
            [expr {[dict get $r feasible] ? "yes" : "no"}] [dict get $r seconds] [dict get $r status]]
    }
}

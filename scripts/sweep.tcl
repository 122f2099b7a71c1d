# sweep.tcl - energy against deadline for any solver, as in the published
# deadline tables.
#
#   stencilmap -b scripts/sweep.tcl SCENARIO SOLVER FROM TO STEPS ?-ilp SECONDS? ?-option value ...?
#
# -ilp SECONDS adds the ILP beside each row (solve ilp -timeout SECONDS at
# the same deadline: its energy and status, optimal when proven), e.g.
#   stencilmap -b scripts/sweep.tcl samples/cuboid-cpu-cpu.json tabu 14e-3 27.91e-3 3 -ilp 60
#
# e.g. stencilmap -b scripts/sweep.tcl samples/cuboid-cpu-gpu.json na 3.0e-3 4.0e-3 6 -f 0.9
# Deadlines are evenly spaced from FROM to TO (seconds). Solver options
# follow. Prints one row per deadline.
if {$argc < 5} {
    puts stderr "usage: stencilmap -b sweep.tcl SCENARIO SOLVER FROM TO STEPS ?-option value ...?"
    exit 2
}
lassign $argv scenario solver from to steps
set opts [lrange $argv 5 end]
set ilp 0
if {[lindex $opts 0] eq "-ilp"} {
    set ilp [lindex $opts 1]
    set opts [lrange $opts 2 end]
    if {![string is double -strict $ilp] || $ilp <= 0} {
        puts stderr "sweep: -ilp takes a positive number of seconds"
        exit 2
    }
}
scenario load $scenario
if {![string is integer -strict $steps] || $steps < 1} {
    puts stderr "sweep: STEPS must be a positive whole number"
    exit 2
}
set deadlines {}
for {set i 0} {$i < $steps} {incr i} {
    lappend deadlines [expr {$steps == 1 ? $from : $from + ($to - $from) * $i / ($steps - 1.0)}]
}
set head [format "%-12s %12s %12s %7s %8s %-9s %9s  %-10s" deadline(s) energy(J) time(s) edges #col feasible solver(s) status]
if {$ilp} { append head [format " %12s %9s  %s" ilp(J) ilp(s) ilp_status] }
puts $head
set rows [::stencilmap::sweep $solver $deadlines {*}$opts]
set ilps [expr {$ilp ? [::stencilmap::sweep ilp $deadlines -timeout $ilp] : [lrepeat [llength $rows] {}]}]
foreach r $rows i $ilps {
    set line [format "%-12.4e %12.4f %12.4e %7d %8d %-9s %9.3f  %-10s" [dict get $r deadline] \
        [dict get $r energy] [dict get $r time] [dict get $r edges] [dict get $r message_rounds] \
        [expr {[dict get $r feasible] ? "yes" : "no"}] [dict get $r seconds] [dict get $r status]]
    if {$ilp} {
        append line [format " %12.4f %9.3f  %s" [dict get $i energy] [dict get $i seconds] [dict get $i status]]
    }
    puts $line
}

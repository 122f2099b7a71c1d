# deadline_table.tcl - the published deadline sweep (SPEC 7, thesis Table
# 6.4): the default tabu search at each deadline, the ILP beside it.
#
#   stencilmap -b scripts/deadline_table.tcl ?-ilp SECONDS? ?SCENARIO DEADLINE...?
#
# Without a scenario: every Cuboid and Sphere configuration of the table
# at the table's deadlines. -ilp 0 (the default) leaves the ILP out; with
# a limit, each ILP run gets that many seconds and its status (optimal,
# or the gap) is printed beside tabu's energy. Energies in J, times in s.
set ilp 0
if {[lindex $argv 0] eq "-ilp"} {
    set ilp [lindex $argv 1]
    set argv [lrange $argv 2 end]
    if {![string is double -strict $ilp] || $ilp < 0} {
        puts stderr "deadline_table: -ilp wants seconds, got \"$ilp\""
        exit 2
    }
}
set samples [file join [file dirname [file dirname [file normalize [info script]]]] samples]
if {[llength $argv] >= 2} {
    set rows [list [lindex $argv 0] [lrange $argv 1 end]]
} else {
    set rows {}
    foreach shape {cuboid sphere} {
        lappend rows [file join $samples $shape-cpu-cpu.json] {27.91e-3 26.97e-3 14.00e-3}
        foreach cfg {cpu-gpu 2cpu-2gpu} {
            lappend rows [file join $samples $shape-$cfg.json] {3.59e-3 3.46e-3 3.34e-3 3.22e-3}
        }
    }
}
# The published optima (SPEC 7; "<=" rows are the table's truncated bounds).
set published {
    cuboid-cpu-cpu {27.91 3.7690 26.97 4.8625 14.00 5.2745}
    cuboid-cpu-gpu {3.59 0.4858 3.46 1.7076 3.34 2.2389 3.22 2.6586}
    cuboid-2cpu-2gpu {3.59 0.6291 3.46 1.74 3.34 2.17 3.22 2.2703}
}
puts [format "%-18s %9s %10s %5s %8s %9s %8s %10s %8s  %s" scenario deadline tabu(J) procs tabu(s) \
    SPEC(J) tabu/SPEC ilp(J) ilp(s) "ilp status"]
foreach {scenario deadlines} $rows {
    scenario load $scenario
    set name [file rootname [file tail $scenario]]
    set tabu [::stencilmap::sweep tabu $deadlines]
    set exact [expr {$ilp > 0 ? [::stencilmap::sweep ilp $deadlines -timeout $ilp] : {}}]
    foreach d $deadlines t $tabu e $exact {
        set ie [expr {$e eq "" ? "-" : [format %.4f [dict get $e energy]]}]
        set is [expr {$e eq "" ? "-" : [format %.2f [dict get $e seconds]]}]
        set st [expr {$e eq "" ? "" : [dict get $e status]}]
        if {$e ne "" && [dict exists $e gap]} { append st [format " gap %.1f%%" [expr {100 * [dict get $e gap]}]] }
        set ref -; set ratio -
        set key [format %.2f [expr {$d * 1e3}]]
        if {[dict exists $published $name $key]} {
            set ref [dict get $published $name $key]
            set ratio [format %.4f [expr {[dict get $t energy] / $ref}]]
        }
        puts [format "%-18s %8.2fm %10.4f %5d %8.2f %9s %8s %10s %8s  %s" $name $key \
            [dict get $t energy] [dict get $t procs_used] [dict get $t seconds] $ref $ratio $ie $is $st]
    }
}

# tabu_path_record.tcl - the search path of `solve tabu` on fixed cases: one line
# per iteration with the move taken, the current and best energy and the
# tabu list size. tabu_path.test compares it with the path recorded in
# data/tabu_path.txt before tabu's tables became sparse (#14 item 3), so a
# change to tabu's data structures or inner loop must not change a single
# step. Run as a script to record the path anew:
#   ./stencilmap -b tests/script/data/tabu_path_record.tcl > tests/script/data/tabu_path.txt
namespace eval ::tabu_path {
    variable top [file dirname [file dirname [file dirname [file dirname [file normalize [info script]]]]]]
    # scenario, model options, grid blocks (or {}), tabu options
    variable cases {
        cuboid-cpu-gpu.json    {-deadline 3.22e-3} {} {-iters 200 -seed 1}
        cuboid-cpu-gpu.json    {-deadline 3.22e-3} {} {-iters 200 -seed 2}
        cuboid-2cpu-2gpu.json  {-deadline 3.22e-3} {} {-iters 200 -seed 1}
        cuboid-2cpu-2gpu.json  {-deadline 3.22e-3} {} {-iters 200 -seed 3 -from current}
        cuboid-2cpu-2gpu.json  {-deadline 3.59e-3} {} {-iters 200 -seed 2 -tenure-add 150 -tenure-remove 90}
        cuboid-2cpu-2gpu.json  {-deadline 3.22e-3 -rounds colouring} {} {-iters 100 -seed 4}
        sphere-2cpu-2gpu.json  {-deadline 3.22e-3} {} {-iters 200 -seed 1}
        sphere-2cpu-2gpu.json  {-deadline 3.22e-3} {} {-iters 200 -seed 2}
        sphere-2cpu-2gpu.json  {-deadline 3.22e-3} {} {-iters 200 -seed 3 -tenure-add 0 -tenure-remove 0}
        sphere-cpu-gpu.json    {} {} {-iters 200 -seed 5}
        sphere-cpu-cpu.json    {-deadline 2e-2} {} {-iters 200 -seed 6 -from current -tenure-add 40 -tenure-remove 25}
        summit-like.json       {} {16 16 16} {-iters 60 -seed 1 -candidates 24}
        summit-like.json       {} {16 16 16} {-iters 60 -seed 7 -from current -tenure-add 30}
    }

    # The path of one case, as a list of lines.
    proc run {file model blocks opts} {
        variable top
        scenario load [file join $top samples $file]
        if {[llength $model]} { model configure {*}$model }
        if {[llength $blocks]} { grid create -blocks $blocks -cells [lmap b $blocks {expr {$b * 8}}] }
        solver start tabu {*}$opts
        set lines {}
        while 1 {
            set s [solver step 1]
            lappend lines [format "%d %s | %.17g %.17g %d" [dict get $s iterations] [dict get $s last_move] \
                [dict get $s current_energy] [dict get $s best_energy] [expr {int([dict get $s tabu_size])}]]
            if {[dict get $s done]} break
        }
        solver stop
        return $lines
    }

    # Every case: a header line, then its path.
    proc all {} {
        variable cases
        set out {}
        foreach {file model blocks opts} $cases {
            lappend out [list case $file $model $blocks $opts]
            lappend out {*}[run $file $model $blocks $opts]
        }
        return $out
    }
}

# Run as a script (not sourced by tabu_path.test): print the path.
if {![namespace exists ::tcltest]} { puts [join [::tabu_path::all] \n] }

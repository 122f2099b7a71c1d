# summit_child.tcl - one case of bench_summit.tcl in its own process, so
# the parent reads its peak memory (/usr/bin/time). Arguments: CASE PART
#   CASE  16M  samples/summit-full.json as shipped (256^3 blocks)
#         1M   the same machine with a 128 x 128 x 64 grid of 64^3-cell blocks
#   PART  work  load, eval, solve tabu -iters ITERS, model bound: prints a
#               dict of their seconds and results
#         keys  the key kinds of common.tcl (base_sequence) plus the Network pane
#               (L, cursor in it, L back) on a headless 200 x 60 workbench,
#               ROUNDS times: prints a dict kind -> list of seconds
lassign $argv case part iters rounds
set top [file dirname [file dirname [file dirname [file normalize [info script]]]]]
proc secs {t0} { expr {([clock microseconds] - $t0) / 1e6} }

set t0 [clock microseconds]
scenario load [file join $top samples summit-full.json]
if {$case eq "1M"} { grid create -blocks {128 128 64} -cells {8192 8192 4096} -stencil 7pt }
set out [list load [secs $t0] blocks [dict get [grid info] tasks] procs [llength [topo procs]]]

if {$part eq "work"} {
    set t0 [clock microseconds]
    set e [model eval]
    dict set out eval [secs $t0]
    dict set out start_energy [dict get $e energy]
    set t0 [clock microseconds]
    set r [solve tabu -iters $iters]
    dict set out tabu [secs $t0]
    dict set out energy [dict get $r energy]
    dict set out time [dict get $r time]
    dict set out feasible [dict get $r feasible]
    # The bound at tabu's makespan: no mapping as fast uses less energy.
    model configure -deadline [dict get $r time]
    set t0 [clock microseconds]
    if {[catch {model bound} b]} {
        dict set out bound_error [lindex [split $b \n] 0]
    } else {
        dict set out bound [secs $t0]
        dict set out bound_energy [dict get $b energy]
        dict set out bound_method [dict get $b method]
    }
    puts $out
    exit 0
}

# Keys: the kinds every key benchmark replays (common.tcl), and the
# Network pane.
source [file join $top tests bench common.tcl]
proc sequence {target} {
    set s [base_sequence $target]
    # The Network pane in the Communication pane's place: shown, focused
    # (Grid, Processors, Network), its cursor moved, back to the grid, a
    # block moved and the move undone under it (its link loads follow),
    # hidden.
    lappend s {network L} {focus Tab} {focus Tab} {network j} {network j} {network k} \
        {focus BTab} {focus BTab} {cursor l} [list "move, network shown" m C-u {*}[split $target ""] Enter] \
        {"undo, network shown" u} {network L}
    return $s
}
set q [sequence_keys [sequence n0001.v100_0] $rounds]
set sec [screen keys -size {200 60} [dict get $q keys]]
puts [list setup $out keys [by_kind [dict get $q kinds] $sec]]

# demo-deadline-sweep.tcl - the time/energy trade-off: tighten the deadline
# on the 2xCPU + 2xGPU node and watch the energy-optimal mapping change.
#   in the workbench:  :session replay scripts/demo-deadline-sweep.tcl
#   without a terminal: stencilmap -e {session replay scripts/demo-deadline-sweep.tcl -delay 0}
#   (scripts/sweep.tcl prints the same sweep as a table.)
# Every figure the narration states is read from the result on screen and
# written by the panes' number rule (units format / units figure).
scenario load [file join [file dirname [info script]] .. samples cuboid-2cpu-2gpu.json]
proc ::stencilmap::demo_said {r} {
    set n [dict get $r procs_used]
    format "%s in %s on %d processor%s" [units figure energy [dict get $r energy]] \
        [units figure time [dict get $r time]] $n [expr {$n == 1 ? "" : "s"}]
}
view note "No deadline set: tabu then holds itself to the fastest heuristic's time."
model configure -deadline none
set ::demo_r [solve tabu -iters 300 -seed 1]
view focus energy
view note "[::stencilmap::demo_said $::demo_r] (its deadline: [units figure deadline [dict get $::demo_r deadline]])."
view note "A loose deadline lets the energy fall:"
model configure -deadline 3.59e-3
set ::demo_r [solve tabu -iters 300 -seed 1]
view note "[units format 3.59e-3 s]: [::stencilmap::demo_said $::demo_r]."
foreach ::demo_d {3.34e-3 3.22e-3 1.78e-3} {
    model configure -deadline $::demo_d
    set ::demo_r [solve tabu -iters 300 -seed 1]
    view note "[units format $::demo_d s]: [::stencilmap::demo_said $::demo_r]."
}
view note "Tighter deadlines buy time with energy. Energy's T line shows the deadline met."
view note "The whole curve as data: ::stencilmap::sweep tabu {3.59e-3 3.34e-3 3.22e-3 1.78e-3} -iters 300"

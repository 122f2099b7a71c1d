# demo-deadline-sweep.tcl - the time/energy trade-off: tighten the deadline
# on the 2xCPU + 2xGPU node and watch the energy-optimal mapping change.
#   in the workbench:  :session replay scripts/demo-deadline-sweep.tcl
#   without a terminal: stencilmap -e {session replay scripts/demo-deadline-sweep.tcl -delay 0}
#   (scripts/sweep.tcl prints the same sweep as a table.)
scenario load [file join [file dirname $::stencilmap::replaying] .. samples cuboid-2cpu-2gpu.json]
view note "No deadline: the cheapest mapping in energy, whatever its time."
model configure -deadline none
solve tabu -iters 300 -seed 1
view focus energy
view note "2.27 J with both GPUs, in 1.79 ms. Now a deadline just under that:"
model configure -deadline 1.78e-3
solve tabu -iters 300 -seed 1
view note "A CPU joins in: 2.87 J. Energy's T line shows the deadline met."
model configure -deadline 1.72e-3
solve tabu -iters 300 -seed 1
model configure -deadline 1.69e-3
solve tabu -iters 300 -seed 1
view note "All four processors now: static and communication energy grow."
model configure -deadline 1.6e-3
solve tabu -iters 300 -seed 1
view note "5.25 J at 1.6 ms: 2.3x the energy for 11% less time."
view note "The whole curve as data: ::stencilmap::sweep tabu {1.78e-3 1.72e-3 1.69e-3 1.6e-3} -iters 300"

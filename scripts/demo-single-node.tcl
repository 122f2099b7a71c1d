# demo-single-node.tcl - exploring one node: a CPU and a GPU share an
# 8x4x4-block cuboid. Each line is one step of the demo.
#   in the workbench:  :session replay scripts/demo-single-node.tcl
#   (300 ms between steps; add -delay MS), or without a terminal:
#   stencilmap -e {session replay scripts/demo-single-node.tcl -delay 0}
scenario load [file join [file dirname [info script]] .. samples cuboid-cpu-gpu.json]
view note "One node, one CPU and one GPU. lb gave each a share of blocks proportional to its speed."
view focus procs
view proc gpu0
view note "The GPU holds most blocks; its load bar sits just under T, as the CPU's does."
view focus comm
view pair cpu0 gpu0
view note "Highlighted in the Grid: the blocks on the CPU-GPU cut. Each cut edge is a halo message per step."
view select pair
view focus grid
view cursor 7 0 0
view note "Move a block across the cut by hand and watch Energy: the delta shows what it cost."
map set 7 gpu0
map undo
view select clear
view pair none
view note "Now the published heuristics, one after another:"
solve dm
view note "dm: least remaining degree first."
solve mm
view note "mm: least cut growth first."
solve na -f 0.5
view note "na: neighbour accumulation. Compare the totals in the Energy pane."
model configure -rounds colouring
view note "Rounds as a real edge colouring: the Communication pane lists the schedule."
solve tabu -iters 400 -seed 1
view note "Tabu from the best heuristic. u undoes it; the solver pane kept its history."

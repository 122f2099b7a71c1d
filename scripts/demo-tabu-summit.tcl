# demo-tabu-summit.tcl - stepping the tabu search ("Task Movement") on the
# Summit-like sample: 2 POWER9 and 6 V100 per node, fat-tree network.
#   in the workbench:  :session replay scripts/demo-tabu-summit.tcl
#   without a terminal: stencilmap -e {session replay scripts/demo-tabu-summit.tcl -delay 0}
scenario load [file join [file dirname [info script]] .. samples summit-like.json]
view note "Summit-like: each node has 2 CPUs and 6 GPUs; nodes sit on a fat tree."
view procs -sort load -order desc
view focus solver
solver start tabu -iters 400 -seed 7
view note "Tabu starts from the best of lb, dm, mm, na and rcb. The Grid now shows its current mapping."
solver step
view note "One step: the last move is highlighted in the Grid and named in the Solver pane."
solver step
solver step
solver step 10
view note "Ten more. The sparkline shows the current (left) and best (right) objective."
solver step 50
solver step 100
view note "Inter-node pairs cost the most per message: watch them leave the Communication pane."
view focus comm
solver step 238
view note "Done: apply the best mapping to the session (a in the workbench)."
solver apply
view focus energy
view note "The Energy pane's delta is what tabu saved over the starting mapping."

# study_pane.sh - sourced by run.sh (its helpers): the Study pane, thesis
# Table 6.4 sweeps (checks 25-26).

# `view study`: it takes the Solver pane's place, and zoomed it plots
# energy against deadline with one glyph a solver, a legend naming every
# solver and the published optima marked; c and b cycle the columns, and
# `view study off` brings the Solver pane back.
start sp 120 40 xterm-256color $S
keys sp : "map set 0 gpu0" Enter
keys sp : "study run {scenarios {samples/cuboid-cpu-gpu.json} solvers {{lb -speeds floor} {na -f 0.9}} model {deadline {3.59e-3 3.46e-3 3.34e-3 3.22e-3}}} -out {$WORK/sp-study}; view study {$WORK/sp-study}" Enter
{ wait_for sp "┐┌─[Study]" || wait_for sp "┐┌─[Study]"; } && cap sp | grep -q "^┌.*Study.*┐$" && ! cap sp | grep -q "Solver" &&
    ok "view study: the Study pane in the Solver pane's place" || bad "study pane place" "$(cap sp | sed -n 15,30p)"
# study run put the session back as it was, without asking: the same
# file, the edit still unsaved (3.57222 J), no deadline from the jobs.
cap sp | head -1 | grep -q "stencilmap  $S \\[modified\\]  \\[session\\]  E 3.572 J  T [0-9.]* ms  theme" &&
    ok "study run in the workbench leaves the session as it was" || bad "study run in the workbench" "$(cap sp | head -1)"
keys sp : "view focus study" Enter
keys sp z
must sp "[Study]"
settle sp
cap sp >"$WORK/sp.txt"
marks=$(sed -n 3,33p "$WORK/sp.txt" | grep -o '◆' | wc -l)
if grep -q "energy against deadline by solver  8 jobs  sp-study" "$WORK/sp.txt" &&
   grep -q "^│energy  *│$" "$WORK/sp.txt" && grep -q "^│  *deadline  *│$" "$WORK/sp.txt" &&
   grep -q "3.22 ms  *3.59 ms" "$WORK/sp.txt"; then
    ok "Study plot: axis labels and ranges (energy against deadline)"
else
    bad "study axes" "$(head -32 "$WORK/sp.txt")"
fi
if grep -q "● solver lb -speeds floor" "$WORK/sp.txt" && grep -q "○ solver na -f 0.9" "$WORK/sp.txt" &&
   grep -q "◆ published optimum (Table 6.4)" "$WORK/sp.txt" && [ "$marks" -ge 5 ] &&
   [ "$(grep -c '|.*[●○*]' "$WORK/sp.txt")" -ge 1 ]; then
    ok "Study plot: a legend with every solver, their points, the 4 published optima marked"
else
    bad "study legend" "$marks marks; $(head -32 "$WORK/sp.txt")"
fi
keys sp c
wait_for sp "energy against time by solver" && ok "c plots against the next numeric column" ||
    bad "study c" "$(cap sp | sed -n 2,4p)"
keys sp b
wait_for sp "energy against time by deadline" && ok "b splits the series by another column (the deadline)" ||
    bad "study b" "$(cap sp | sed -n 2,4p)"
keys sp z
keys sp : "view study off" Enter
wait_for sp "< lb >" && ! cap sp | grep -q "Study" && ok "view study off: the Solver pane is back" ||
    bad "study off" "$(cap sp | sed -n 15,30p)"
no_sanitizer_errors sp

# 26. Issue #15's closing case: thesis Table 6.4's CPU-GPU and 2xCPU-2xGPU
# deadline sweep, sharded 2 ways with GNU parallel, then the Study pane
# plots the merged table beside the 8 published optima.
if command -v parallel >/dev/null 2>&1; then
    parallel --will-cite -j 2 "$BIN" -b scripts/study.tcl samples/studies/table64-cpu-gpu.json \
        "$WORK/t64" {}/2 ::: 0 1 >"$WORK/t64.out" 2>&1
    start tp 120 40 xterm-256color $S
    keys tp : "view study {$WORK/t64}" Enter
    keys tp : "view focus study" Enter
    keys tp z
    must tp "energy against deadline by solver  8 jobs  t64"
    settle tp
    cap tp >"$WORK/tp.txt"
    # The tabu search reaches the published optima: its points sit on the
    # marks, drawn ◈ (at least the CPU-GPU four); every optimum is marked.
    marks=$(sed -n 3,30p "$WORK/tp.txt" | grep -o '◆\|◈' | wc -l)
    reached=$(sed -n 3,30p "$WORK/tp.txt" | grep -o '◈' | wc -l)
    if grep -q "series tabu points 8 published_point" "$WORK/tp.txt" && grep -q "● solver tabu" "$WORK/tp.txt" &&
       grep -q "◆ published optimum (Table 6.4)" "$WORK/tp.txt" && grep -q "◈ a result on it" "$WORK/tp.txt" &&
       [ "$marks" -ge 8 ] && [ "$reached" -ge 5 ]; then
        ok "Table 6.4 sweep sharded by GNU parallel: tabu's results on the published optima ($((reached - 1)) of $((marks - 2)) marks)"
    else
        bad "table 6.4 study pane" "$marks marks, $reached reached; $(cat "$WORK/t64.out"; head -34 "$WORK/tp.txt")"
    fi
    # b: the deadline, none, then round to the scenario.
    keys tp b b b
    wait_for tp "energy against deadline by scenario" && cap tp | grep -q "cuboid-cpu-gpu.json" &&
        cap tp | grep -q "2cpu-2gpu.json" && ok "b: one series a scenario, both named in the legend" ||
        bad "study b" "$(cap tp | sed -n 2,12p)"
    no_sanitizer_errors tp
else
    ok "GNU parallel not installed: the sharded Table 6.4 sweep is skipped"
fi

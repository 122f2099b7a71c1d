# run_launch_in_workbench.sh - sourced by run.sh (its helpers): a run launched from the
# workbench (#36): the console stays usable while it goes on, the
# workbench imports its RUN.json when it ends, then the
# Energy pane shows the model beside the run (compute, comm, total and the
# accuracy), the Processors pane each processor's measured compute and
# accuracy; a mapping moved on is named "run: another mapping", and undo
# brings the comparison back.
if command -v mpirun >/dev/null 2>&1 && [ -x "$top/stencilmap-run" ]; then
    "$BIN" -b /dev/stdin >/dev/null 2>&1 <<TCL
scenario load [file join {$top} samples cuboid-2cpu-2gpu.json]
grid create -blocks {4 3 2} -cells {40 30 16}
solve lb
scenario save {$WORK/run-pane.json}
TCL
    begin rp 120 36 xterm-256color "'$WORK/run-pane.json'"
    keys rp : "run launch -iters 200 -dir {$WORK/rp-run}" Enter
    must rp "launcher mpirun"
    # The workbench answers while the run goes on.
    alive rp "stillhere" && ok "run pane: the console answers while the run goes on" ||
        bad "run pane" "no answer while the run went on: $(cap rp | tail -3)"
    # When it ends the workbench imports RUN.json by itself.
    if wait_for rp "model vs run" 180 || must rp "model vs run"; then
        settle rp
        cap rp >"$WORK/run-pane.txt"
        if grep -q "compute .* %" "$WORK/run-pane.txt" && grep -q "total .* %" "$WORK/run-pane.txt" &&
            grep -q "blk  accuracy" "$WORK/run-pane.txt" && grep -q "cpu0 .* %│" "$WORK/run-pane.txt"; then
            ok "run pane: Energy shows model, measured and accuracy; Processors each processor's accuracy"
        else
            bad "run pane" "$(sed -n 1,30p "$WORK/run-pane.txt")"
        fi
        keys rp : "map set 0 gpu1" Enter
        must rp "run: another mapping" && ok "run pane: a moved mapping is named, not compared"
        keys rp : "map undo" Enter
        must rp "model vs run" && ok "run pane: undo brings the comparison back"
    fi
    keys rp Escape q y
    must_exit rp
    no_sanitizer_errors rp
else
    echo "     (no mpirun or stencilmap-run: the run pane is not checked)"
fi

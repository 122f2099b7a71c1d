# measured.sh - sourced by run.sh (its helpers): topo measure in the
# workbench (issue 35) runs in the background while the screen answers,
# says each point and the end in the Console, and -apply gives a
# topology whose speed the Processors pane marks as fitted (":fit" after
# the type); that topology, saved, opens in a new workbench.
"$BIN" -e "topo detect; grid create -cells {64 64 64} -blocks {4 4 4} -stencil 7pt; scenario save $WORK/measure-base.json" \
    >"$WORK/measure-base.out" 2>"$WORK/measure-base.err"
if [ ! -s "$WORK/measure-base.json" ]; then
    bad "measured: topo detect" "$(tail -3 "$WORK/measure-base.err")"
else
    begin mb 110 32 xterm-256color "$WORK/measure-base.json"
    keys mb : "topo measure -sizes {1 2 4 8 16 32 64} -reps 3 6 -eps 0.5 -mintime 0.01 -apply" Enter
    must mb "in the background"
    # The screen answers while it measures.
    alive mb stillhere && ok "measured: the workbench answers while topo measure runs" ||
        bad "measured: busy" "$(cap mb | tail -5)"
    if wait_for mb "topo measure done" 120; then
        ok "measured: the measurement ends in the Console"
    else
        bad "measured: never done" "$(cap mb | tail -6)"
    fi
    wait_for mb ":fit" && ok "measured: Processors marks the fitted speed (:fit)" ||
        bad "measured: no :fit" "$(cap mb | head -8)"
    keys mb : "scenario save $WORK/measured.json" Enter
    must mb "% scenario save"
    keys mb q
    must_exit mb
    no_sanitizer_errors mb
    begin ms 110 32 xterm-256color "$WORK/measured.json"
    wait_for ms ":fit" && ok "measured: the applied topology opens in a new workbench" ||
        bad "measured: reopen" "$(cap ms | head -8)"
    keys ms q
    must_exit ms
fi

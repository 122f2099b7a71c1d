# topo_measure_in_workbench.sh - sourced by run.sh (its helpers): topo measure in the
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
    # The Profile pane takes the Energy pane's place and follows it live.
    wait_for mb "measuring " && cap mb | grep -q "\[Profile\]" &&
        ok "measured: the Profile pane shows the measurement as it runs" ||
        bad "measured: no live Profile pane" "$(cap mb | sed -n 20,32p)"
    # The screen answers while it measures.
    alive mb stillhere && ok "measured: the workbench answers while topo measure runs" ||
        bad "measured: busy" "$(cap mb | tail -5)"
    if wait_for mb "topo measure done" 120; then
        ok "measured: the measurement ends in the Console"
    else
        bad "measured: never done" "$(cap mb | tail -6)"
    fi
    wait_for mb "7 points, " && cap mb | grep -q "measured; fit " &&
        ok "measured: the Profile pane keeps the points and the fit when done" ||
        bad "measured: Profile pane at the end" "$(cap mb | sed -n 20,32p)"
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

# The Profile pane at 80x24, zoomed: a real measured profile (a fixture
# CSV) as a braille plot with its intervals and fitted line, and its
# points as rows (golden screen).
begin pp 80 24 xterm-256color
keys pp : "view profile tests/data/profiles/epyc-2core-7pt.csv" Enter
must pp "[Profile]"
keys pp Escape
keys pp z
must pp "blocks     s/iter"
golden pp profile-pane-80x24.txt
keys pp q
must_exit pp
no_sanitizer_errors pp

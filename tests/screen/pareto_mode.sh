# pareto_mode.sh - sourced by run.sh (its helpers): popta's Pareto front
# in the zoomed Solver pane (check 18).

# deadline as a line, table of points); a click on a row applies it.
start pf 120 40 xterm-256color samples/profiles-cpu-gpu.json
keys pf : "model configure -deadline 0.0034" Enter
keys pf : "solver start popta -objective pareto" Enter
keys pf : "solver run" Enter : "return RAN-PF" Enter
must pf "RAN-PF"
keys pf : "view focus solver" Enter
keys pf : "view zoom on" Enter
wait_for pf "energy     counts" && ok "Pareto mode: the table of front points" || bad "pareto table" "$(cap pf | head -12)"
cap pf >"$WORK/pf.txt"
grep -q ' 0 3.172 ms *344.9 mJ *12,12,104' "$WORK/pf.txt" && grep -q ' 2 3.588 ms *246 mJ *0,8,120' "$WORK/pf.txt" &&
    grep -q 'deadline' "$WORK/pf.txt" && [ "$(grep -c '|' "$WORK/pf.txt")" -ge 20 ] &&
    ok "Pareto mode: fastest first, the deadline as a line" || bad "pareto plot" "$(head -32 "$WORK/pf.txt")"
row=$(grep -n ' 1 3.218 ms' "$WORK/pf.txt" | cut -d: -f1)
col=$(grep ' 1 3.218 ms' "$WORK/pf.txt" | awk '{print index($0, " 1 3.218")}')
$T send-keys -t pf -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $((col + 3)) "$row" $((col + 3)) "$row")"
wait_for pf "% map counts {4 12 112}" && ok "a click on a front point applies it (map counts)" ||
    bad "pareto click" "$(cap pf | tail -6)"
wait_for pf "@" && ok "the applied point is marked" || bad "pareto mark" "$(cap pf | head -30)"
keys pf : "solve popta -objective time" Enter
wait_for pf "128 blocks" && cap pf | grep -q '2222' && ok "profile plot for a single objective" ||
    bad "profile plot" "$(cap pf | head -30)"
# HTPOPTA: the total-energy front beside the dynamic one (two curves, a
# legend with both ranges), the chosen point marked on both, the table of
# the total front (P_S = 90 + 90 + 74 W).
keys pf : "solver start popta -objective total" Enter
keys pf : "solver run" Enter
keys pf : "solver apply" Enter
wait_for pf "dynamic    total" && cap pf >"$WORK/pt.txt" &&
    grep -q '\* dynamic 246 mJ..344.9 mJ  + total 1.105 J..1.151 J' "$WORK/pt.txt" &&
    grep -q ' 1 3.218 ms *287.6 mJ *1.105 J *4,12,112' "$WORK/pt.txt" &&
    [ "$(grep -c '@' "$WORK/pt.txt")" -ge 2 ] &&
    ok "total: dynamic and total fronts, the chosen point on both" || bad "total fronts" "$(head -32 "$WORK/pt.txt")"
no_sanitizer_errors pf


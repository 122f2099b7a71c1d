# hostile_names_stay_data.sh - sourced by run.sh (its helpers): names built to
# run a command if pasted into Tcl stay data, on every key (check 15).

# `touch` if pasted into Tcl. Every key of the key table, in every pane,
# followed by Enter (answering any prompt with its default) and Esc. Nothing
# may be created, and the workbench must still quit normally.
H=$WORK/hostile
HD="$H/d} [exec touch pwned_path] {"
mkdir -p "$HD" "$H/themes"
mkdir -p "$HD/topologies"
sed -e 's/"cpu0"/"[exec touch pwned_p1]"/' -e 's/"gpu0"/"x} [exec touch pwned_p2] {"/' \
    samples/topologies/cpu-gpu-topology.json >"$HD/topologies/cpu-gpu-topology.json"
grep -v '"mapping"' samples/cuboid-cpu-gpu.json >"$HD/s.json"
sed 's/"name": *"[^"]*"/"name": "[exec touch pwned_t]"/' themes/light.json >"$H/themes/[exec touch pwned_t].json"
printf '#!/bin/sh\ncd "$1" && STENCILMAP_THEMES="$1/themes" TERM=xterm-256color exec "$2" "$3"\n' >"$H/run.sh"
$T kill-session -t hk 2>/dev/null
$T new-session -d -s hk -x 120 -y 36 "sh '$H/run.sh' '$H' '$BIN' '$HD/s.json' 2>'$WORK/hk.err'; echo \$? >'$WORK/hk.exit'; sleep 30"
must hk "Console"
walk=$("$BIN" -e 'set r {}; foreach k [key list] { set n [lindex $k 0]; if {$n ni {q : Tab BTab C-c}} { lappend r $n } }; join $r " "')
for pane in 1 2 3 4 5 6; do
    for k in $walk; do
        case $k in
        C-?) tk=$k ;; PgUp) tk=PPage ;; PgDn) tk=NPage ;; Esc) tk=Escape ;; Space) tk=Space ;;
        Backspace) tk=BSpace ;; Delete) tk=DC ;; Insert) tk=IC ;; *) tk=$k ;;
        esac
        keys hk "$tk"
        sleep 0.02
        keys hk Enter
        sleep 0.02
        keys hk Escape
    done
    keys hk Tab
    settle hk
done
keys hk q
# q quits, or asks first when a key changed something: answer it once it
# is asked (not after a pause).
qd=$(deadline)
while before "$qd" && [ ! -f "$WORK/hk.exit" ] && ! cap hk | grep -q "Unsaved:"; do sleep 0.1; done
[ -f "$WORK/hk.exit" ] || keys hk y
must_end hk
made=$(find "$H" -name "pwned*")
if [ -z "$made" ] && [ "$(cat "$WORK/hk.exit" 2>/dev/null)" = 0 ]; then
    ok "every key in every pane with hostile names and paths: nothing ran"
else
    bad "hostile names" "created: $made; exit $(cat "$WORK/hk.exit" 2>/dev/null); $(tail -3 "$WORK/hk.err" 2>/dev/null)"
fi

# 15b. Tab in the Console inserts a name as one Tcl word: the processor
# named "x} [exec touch pwned_p2] {" completes quoted, and Enter puts
# block 0 on it; nothing runs.
$T kill-session -t tq 2>/dev/null
$T new-session -d -s tq -x 120 -y 36 "sh '$H/run.sh' '$H' '$BIN' '$HD/s.json' 2>'$WORK/tq.err'; echo \$? >'$WORK/tq.exit'; sleep 30"
must tq "Console"
keys tq : "map set 0 x" Tab
must tq 'map set 0 x\}\ \[exec\ touch\ pwned_p2\]\ \{'
keys tq Enter
keys tq : 'return "B0=[map get 0]="' Enter
wait_for tq "B0=x} [exec touch pwned_p2] {=" && [ -z "$(find "$H" -name 'pwned*')" ] &&
    ok "Tab completes a hostile processor name as one Tcl word; nothing ran" ||
    bad "tab quoting" "$(cap tq | tail -5); $(find "$H" -name 'pwned*')"
keys tq q y
must_exit tq


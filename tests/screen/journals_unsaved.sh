# journals_unsaved.sh - sourced by run.sh (its helpers): journals as
# swap files after kill -9, and unsaved work part by part (checks 16-17).

# kill -9: `session recover` restores mapping and model exactly, and a
# script that ends without saving leaves the journal (the only copy of
# that work) where it was. SIGTERM ends the workbench with status 143 and
# keeps the journal; the next workbench on the same scenario offers it,
# one on another scenario does not; keys typed before or into the question
# never answer it; a running workbench's journal is never removed; a
# workbench that stops with nothing unsaved leaves nothing to offer; D
# discards; saving the recovered work and a clean quit leave no journal.
ST=$WORK/state
jstart() { # jstart NAME ?SCENARIO?: the workbench, journal in $ST
    $T kill-session -t "$1" 2>/dev/null
    rm -f "$WORK/$1.exit"
    $T new-session -d -s "$1" -x 120 -y 36 \
        "cd '$top' && XDG_STATE_HOME='$ST' TERM=xterm-256color '$BIN' $2 2>'$WORK/$1.err'; echo \$? >'$WORK/$1.exit'; sleep 30"
    must "$1" "Console"
}
# jpid NAME: the program's pid in tmux session NAME.
jpid() { pgrep -P "$($T list-panes -t "$1" -F '#{pane_pid}')" -f "$BIN" | head -1; }
journals() { ls "$ST"/stencilmap/*.journal 2>/dev/null; }
jstart j1
keys j1 : "map set 0 {cpu0}" Enter
keys j1 : "model configure -deadline 4e-3" Enter
keys j1 l l x m C-u gpu0 Enter
must j1 "map move gpu0"
keys j1 : "map save $WORK/j-expected.json" Enter
must j1 "% map save"
settle j1
kill -9 "$(jpid j1)" 2>/dev/null
must_end j1
out=$(XDG_STATE_HOME=$ST "$BIN" -e "session recover; map save $WORK/j-recovered.json; dict get [model configure] -deadline" 2>&1)
if cmp -s "$WORK/j-expected.json" "$WORK/j-recovered.json" && [ "$out" = 0.004 ]; then
    ok "kill -9: session recover restores every edit (mapping and model)"
else
    bad "journal after kill -9" "$out"
fi
listed=$(XDG_STATE_HOME=$ST "$BIN" -e 'join [lmap j [session journals] {list [dict get $j live] [dict get $j unsaved]}] ,' 2>&1)
[ "$(journals | wc -l)" = 1 ] && [ "$listed" = "0 model" ] &&
    ok "a script that recovers and ends without saving leaves the journal (listed: stopped, model unsaved)" ||
    bad "recover in a script" "$(journals) / '$listed'"
XDG_STATE_HOME=$ST "$BIN" -e "session discard $(journals)" >/dev/null 2>&1
[ -z "$(journals)" ] && ok "session discard removes a stopped workbench's journal" || bad "discard" "$(journals)"
jstart j2
keys j2 : "map set 5 gpu0" Enter
keys j2 : "map save $WORK/j2-expected.json" Enter
must j2 "% map save"
keys j2 : "model configure -deadline 5e-3" Enter
must j2 "% model configure"
kill -TERM "$(jpid j2)" 2>/dev/null
must_end j2
[ "$(cat "$WORK/j2.exit" 2>/dev/null)" = 143 ] && [ -n "$(journals)" ] && grep -q "unsaved work is journaled" "$WORK/j2.err" &&
    ok "SIGTERM: status 143, journal kept" || bad "SIGTERM" "exit $(cat "$WORK/j2.exit" 2>/dev/null): $(cat "$WORK/j2.err")"
j2file=$(journals)
# Another scenario's workbench is not offered it (and runs on, clean).
jstart jo samples/cuboid-cpu-gpu.json
# The question comes before any key is read: a console line that runs
# shows no question was asked.
alive jo "jo-reads-keys" && ! cap jo | grep -q "Recover it?" &&
    ok "a workbench on another scenario is not offered the journal" ||
    bad "offer on another scenario" "$(cap jo | tail -1)"
# The same scenario's is, and keys typed at once (before the question, then
# into it) answer nothing.
$T kill-session -t j3 2>/dev/null
rm -f "$WORK/j3.exit"
$T new-session -d -s j3 -x 120 -y 36 \
    "cd '$top' && XDG_STATE_HOME='$ST' TERM=xterm-256color '$BIN' 2>'$WORK/j3.err'; echo \$? >'$WORK/j3.exit'; sleep 30"
keys j3 : "map set 0 p3" Enter
must j3 "Recover it?" && ok "the next workbench on the scenario offers the stopped one's work"
keys j3 : "map set 0 p3" Enter
sleep 0.5
cap j3 | grep -q "Recover it?" && ! cap j3 | grep -q "% map" && ok "keys typed before and into the question never answer it" ||
    bad "typed keys answered" "$(cap j3 | tail -6)"
keys j3 y
must j3 "session recover"
keys j3 : "map save $WORK/j3-recovered.json" Enter
must j3 "% map save"
keys j3 : 'return "DL=[dict get [model configure] -deadline]"' Enter
cmp -s "$WORK/j2-expected.json" "$WORK/j3-recovered.json" && wait_for j3 "DL=0.005" && ok "y recovers it (mapping and model)" ||
    bad "recover by y" "$(cap j3 | tail -4)"
# j3 runs on in the recovered journal: nothing removes it.
XDG_STATE_HOME=$ST "$BIN" -e "session discard $j2file" >/dev/null 2>&1
[ -f "$j2file" ] && ok "a running workbench's journal is never removed (session discard refuses)" || bad "live journal" "removed"
keys j3 : "scenario save $WORK/j3-saved.json" Enter
must j3 "% scenario save"
keys j3 q
must_exit j3
[ ! -f "$j2file" ] && ok "the recovered work saved, the journal goes" || bad "recovered journal" "$(journals)"
keys jo q
must_exit jo
[ -z "$(journals)" ] && ok "a clean quit leaves no journal" || bad "journal cleanup" "$(journals)"
# Nothing unsaved: nothing offered (and the stopped one's journal goes).
jstart j5
kill -9 "$(jpid j5)" 2>/dev/null
must_end j5
jstart j6
alive j6 "j6-reads-keys" && [ "$(journals | wc -l)" = 1 ] && ! cap j6 | grep -q "Recover it?" &&
    ok "a workbench killed with nothing unsaved leaves nothing to offer" || bad "clean kill" "$(journals); $(cap j6 | tail -1)"
# D discards: the work is gone, the session is the scenario as loaded.
keys j6 : "map set 0 gpu0" Enter
must j6 "% map set 0 gpu0"
kill -9 "$(jpid j6)" 2>/dev/null
must_end j6
# (at 80x24: the answers are on the screen)
$T kill-session -t j7 2>/dev/null
rm -f "$WORK/j7.exit"
$T new-session -d -s j7 -x 80 -y 24 \
    "cd '$top' && XDG_STATE_HOME='$ST' TERM=xterm-256color '$BIN' 2>'$WORK/j7.err'; echo \$? >'$WORK/j7.exit'; sleep 30"
must j7 "Recover it?"
cap j7 | grep -q "Recover it? y yes  n later  D discard" && ok "80x24: the question shows its answers" ||
    bad "question at 80x24" "$(cap j7 | tail -1)"
sleep 0.4
keys j7 D
must j7 "% session discard"
keys j7 : 'return "B0=[map get 0]"' Enter
wait_for j7 "B0=cpu0" && [ "$(journals | wc -l)" = 1 ] && ok "D discards the stopped workbench's journal" ||
    bad "discard by D" "$(journals); $(cap j7 | tail -4)"
keys j7 q
must_exit j7

# 17. Unsaved work part by part. map save keeps the model's change unsaved
# (q still asks); scenario load over it asks (n keeps the work); the quit
# prompt's w saves everything, asks before overwriting a file not loaded
# here, and quits; the saved scenario holds every part.
"$BIN" -e "scenario load $S; scenario save $WORK/u-loaded.json" >/dev/null
echo '{}' >"$WORK/u-other.json"
start uw 120 36 xterm-256color "$WORK/u-loaded.json"
keys uw : "model configure -deadline 6e-3" Enter
keys uw : "map set 3 gpu0" Enter
keys uw : "map save $WORK/u-map.json" Enter
must uw "% map save"
keys uw q
wait_for uw "Unsaved: model." && ok "map save leaves the model unsaved: q still asks" || bad "dirty per part" "$(cap uw | tail -1)"
keys uw n
keys uw : "scenario load $S" Enter
wait_for uw "would be lost. scenario load anyway?" && ok "scenario load over unsaved work asks" || bad "load asks" "$(cap uw | tail -1)"
keys uw n
wait_for uw "cancelled, the unsaved changes are kept" && ok "n keeps the unsaved work" || bad "load cancel" "$(cap uw | tail -3)"
keys uw q w C-u "$WORK/u-other.json" Enter
wait_for uw "was not loaded here. Overwrite it?" && ok "saving over a file not loaded here asks" || bad "overwrite ask" "$(cap uw | tail -1)"
keys uw y
exited uw && ok "w saves everything and quits" || bad "save and quit" "$(cap uw | tail -3)"
got=$("$BIN" -e "scenario load $WORK/u-other.json; list [dict get [model configure] -deadline] [lindex [map list] 3]" 2>&1)
[ "$got" = "0.006 gpu0" ] && ok "the saved scenario holds model and mapping" || bad "saved parts" "$got"

